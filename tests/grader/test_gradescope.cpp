// The Gradescope entry point writes results.json in Gradescope's format.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "export/reports.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

using json = nlohmann::json;

TEST_CASE("gradescope results.json: fields, scores adding up, hidden cases after publishing") {
  test::TempDir out;
  const auto run = test::run_program(
      "grader", "gradescope --labs 03 --submission " + (kit::root() / "grader/examples/class/chloe-wrong-mask").string() +
                    " --results " + (out / "results" / "results.json").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const json r = json::parse(test::read(out / "results" / "results.json"));
  REQUIRE(r.contains("score"));
  REQUIRE(r["tests"].is_array());
  double score = 0, max = 0;
  int hidden = 0;
  for (const json& t : r["tests"]) {
    for (const char* field : {"name", "score", "max_score", "status", "output", "visibility"}) CHECK(t.contains(field));
    CHECK((t["status"] == "passed" || t["status"] == "failed"));
    CHECK((t["visibility"] == "visible" || t["visibility"] == "after_published"));
    CHECK(t["name"].get<std::string>().rfind("03-array-mult-reduce: ", 0) == 0);
    CHECK((t["status"] == "passed") == (t["score"] == t["max_score"]));
    score += t["score"].get<double>();
    max += t["max_score"].get<double>();
    hidden += t["visibility"] == "after_published";
  }
  CHECK(r["tests"].size() == 15);  // 10 cases, 4 memory-safety checks and the algorithm check
  CHECK(max == 18);                 // the spec's total
  // chloe's grade (EXPECTED.json): sums of hundredths, so equal up to the doubles' rounding
  CHECK(score == doctest::Approx(2.8).epsilon(1e-12));
  CHECK(r["score"].get<double>() == doctest::Approx(score).epsilon(1e-12));
  CHECK(hidden == 5);
  // Every field is one of Gradescope's (its autograder specification's lists).
  const std::set<std::string> top = {"score", "execution_time", "output", "output_format", "test_output_format",
                                     "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"};
  const std::set<std::string> per_test = {"score", "max_score", "status", "name", "name_format", "number", "output",
                                          "output_format", "tags", "visibility", "extra_data"};
  for (const auto& [key, value] : r.items()) CHECK_MESSAGE(top.count(key), key);
  for (const json& t : r["tests"])
    for (const auto& [key, value] : t.items()) CHECK_MESSAGE(per_test.count(key), key);
  CHECK(r["output_format"] == "html");  // Gradescope renders (sanitised) HTML: the drawings inline (test_report_html.cpp)
  CHECK(r["test_output_format"] == "html");
  CHECK(r["execution_time"].is_number_integer());
}

TEST_CASE("gradescope: the student's last score from Gradescope's submission metadata") {
  test::TempDir out;
  test::write(out / "metadata.json",
              R"({"previous_submissions": [{"submission_time": "2026-11-20T10:00:00", "score": 12.5, "results": {}}]})");
  const auto run = test::run_program(
      "grader", "gradescope --labs 01 --submission " + (kit::root() / "solutions").string() + " --results " +
                    (out / "results.json").string() + " --metadata " + (out / "metadata.json").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const json r = json::parse(test::read(out / "results.json"));
  CHECK(r["output"].get<std::string>().rfind("<p>Your last score was 12.5 (submitted 2026-11-20T10:00:00).</p>", 0) == 0);
  test::write(out / "metadata.json", "{not json");
  const auto broken = test::run_program(
      "grader", "gradescope --labs 01 --submission " + (kit::root() / "solutions").string() + " --results " +
                    (out / "results2.json").string() + " --metadata " + (out / "metadata.json").string());
  CHECK(broken.exit_code == 0);  // a broken metadata file costs only the line about the last score
  CHECK(broken.output.find("is not JSON") != std::string::npos);
}

TEST_CASE("the Gradescope autograder files are shipped") {
  for (const char* f : {"setup.sh", "run_autograder"}) {
    const auto path = kit::root() / "grader" / "gradescope" / f;
    REQUIRE(std::filesystem::exists(path));
    CHECK((std::filesystem::status(path).permissions() & std::filesystem::perms::owner_exec) != std::filesystem::perms::none);
  }
  CHECK(test::read(kit::root() / "grader/gradescope/run_autograder").find("grader gradescope") != std::string::npos);
}

TEST_CASE("the Gradescope image is set up by scripts/setup.sh: the same packages and the same Oclgrind fallback") {
  // A list of its own would drift from the kit's (Debian 13 has no oclgrind package; setup.sh
  // then installs PyPI's build): the autograder's setup.sh must call the kit's and install nothing itself.
  const std::string setup = test::read(kit::root() / "grader/gradescope/setup.sh");
  CHECK(setup.find("\nbash scripts/setup.sh") != std::string::npos);
  for (const char* own : {"apt-get", "apt ", "pip ", "pip3", "dpkg"}) CHECK_MESSAGE(setup.find(own) == std::string::npos, std::string(own));
}

TEST_CASE("make gradescope-zip packs the kit without solutions, with the entry files at the top") {
  // A zip of its own (ZIP=), so that no other test making the default zip at the same time (the
  // READMEs' commands, under ctest -j) can change it while it is read.
  test::TempDir dir;
  const std::string zip = (dir / "autograder.zip").string();
  const auto run = test::run_command("ZIP=" + zip + " " + test::kit_path("scripts/gradescope-zip.sh"));
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const std::string list = "python3 -c \"import zipfile; print('\\n'.join(zipfile.ZipFile('" + zip + "').namelist()))\" > " +
                           (dir / "names.txt").string();
  REQUIRE(std::system(list.c_str()) == 0);
  const std::string names = "\n" + test::read(dir / "names.txt");
  for (const char* must : {"\nsetup.sh\n", "\nrun_autograder\n", "\nCMakeLists.txt\n", "\ngrader/reference/MANIFEST.json\n",
                           "\ngrader/specs/03-array-mult-reduce.json\n", "\nlabs/03-array-mult-reduce/main.cpp\n",
                           "\nscripts/setup.sh\n", "\nscripts/oclgrind-launcher.sh\n"})
    CHECK_MESSAGE(names.find(must) != std::string::npos, must);
  CHECK(names.find("\nsolutions/") == std::string::npos);
  CHECK(names.find("\ntests/") == std::string::npos);
}

TEST_CASE("make gradescope-zip LABS=03 carries lab 03 only: its folder, spec and references, and grades only it") {
  test::TempDir dir;
  const std::string zip = (dir / "lab03.zip").string();
  const auto run = test::run_command("LABS=03 ZIP=" + zip + " " + test::kit_path("scripts/gradescope-zip.sh"));
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const std::string list = "python3 -c \"import zipfile; print('\\n'.join(zipfile.ZipFile('" + zip + "').namelist()))\" > " +
                           (dir / "names.txt").string();
  REQUIRE(std::system(list.c_str()) == 0);
  const std::string names = "\n" + test::read(dir / "names.txt");
  for (const char* must : {"\nrun_autograder\n", "\ngrader/specs/03-array-mult-reduce.json\n", "\ngrader/reference/03-array-mult-reduce.json\n",
                           "\nlabs/03-array-mult-reduce/main.cpp\n", "\nlabs/shared/CMakeLists.txt\n", "\ngrader/reference/MANIFEST.json\n"})
    CHECK_MESSAGE(names.find(must) != std::string::npos, must);
  for (const char* other : {"\nlabs/04-tree-reductions/", "\ngrader/specs/06-cascade-reduction.json", "\ngrader/reference/08-atomics-and-scan.json",
                            "\nlabs/01-array-mult/"})
    CHECK_MESSAGE(names.find(other) == std::string::npos, other);
  const auto entry = test::run_command("python3 -c \"import zipfile; print(zipfile.ZipFile('" + zip + "').read('run_autograder').decode())\"");
  CHECK(entry.output.find("--labs 03") != std::string::npos);
}

TEST_CASE("a check that did not run is neither passed nor failed in Gradescope's results") {
  grader::LabResult r;
  r.student = "s";
  r.lab = "03-array-mult-reduce";
  r.status = grader::LabStatus::Graded;
  r.cases = {{"memory safety: data races (Oclgrind)", true, 2, 2, grader::CaseStatus::NotChecked,
              "not checked (the checker failed: Oclgrind crashed (SIGABRT, Aborted) after the run had finished)", "", 0,
              grader::CaseKind::Safety},
             {"one work-group of 8", true, 1, 1, grader::CaseStatus::Passed, "", "", 0}};
  const auto results = grader::gradescope_results({r});
  REQUIRE(results["tests"].size() == 2);
  CHECK_FALSE(results["tests"][0].contains("status"));
  CHECK(results["tests"][0]["output"].get<std::string>().rfind("not-checked: ", 0) == 0);
  CHECK(results["tests"][1]["status"] == "passed");
}
