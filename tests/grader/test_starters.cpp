// Untouched starters are recognised before anything is built, and a crash's hint agrees with what
// the same grading's safety check found.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "judge/graded_kernels.hpp"
#include "judge/hints.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "oclgrind/checks.hpp"
#include "support.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {
const fs::path kStarter = kit::root() / "labs/03-array-mult-reduce/ArrayMultReduce.cl";
}  // namespace

TEST_CASE("same_as_starter: the starter outside comments and spacing, never the starter file itself, no match without one") {
  test::TempDir dir;
  const std::string starter = test::read(kStarter);
  test::write(dir / "starter.cl", starter);
  const std::string respaced = "// my name\n" + starter.substr(starter.find('\n') + 1) + "\n\n";
  CHECK(grader::same_as_starter(starter, dir / "mine.cl", dir / "starter.cl"));
  CHECK(grader::same_as_starter(respaced, dir / "mine.cl", dir / "starter.cl"));
  const std::string edited = test::replace_once(starter, "prods[tnum] = 0.0f;", "prods[tnum] = dA[gid] * dB[gid];");
  CHECK_FALSE(grader::same_as_starter(edited, dir / "mine.cl", dir / "starter.cl"));
  CHECK_FALSE(grader::same_as_starter(starter, dir / "mine.cl", dir / "absent.cl"));     // no starter: graded as before
  CHECK_FALSE(grader::same_as_starter(starter, dir / "starter.cl", dir / "starter.cl"));  // the kit's own labs/
}

TEST_CASE("an untouched starter is unchanged-starter with 0 points on every line, before any build or Oclgrind run") {
  test::TempDir dir;
  const std::string starter = test::read(kStarter);
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", "// Ann\n" + starter.substr(starter.find('\n') + 1));
  test::write(dir / "class" / "ben" / "ArrayMultReduce.cl", test::read(kit::root() / "grader/examples/class/ben-missing-barrier/ArrayMultReduce.cl"));
  const auto run = test::run_program("grader", "grade --labs 03 --jobs 2 --submissions " + (dir / "class").string() + " --out " +
                                                   (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const json ann = json::parse(test::read(dir / "out" / "ann" / "report.json"))["labs"][0];
  const json ben = json::parse(test::read(dir / "out" / "ben" / "report.json"))["labs"][0];
  CHECK(ann["status"] == "unchanged-starter");
  CHECK(ann["message"].get<std::string>().find("ArrayMultReduce.cl is unchanged from the starter") == 0);
  CHECK(ann["message"].get<std::string>().find(": 0 points") != std::string::npos);
  CHECK(ann["points"] == 0);
  CHECK(ann["device"] == "");  // nothing was built
  CHECK(ann["max_points"] == ben["max_points"]);
  REQUIRE(ann["cases"].size() == ben["cases"].size());  // every case and check has its line
  REQUIRE(ann["cases"].size() >= 5);                    // lab 03: its cases, safety and algorithm lines
  for (const json& c : ann["cases"]) {
    CAPTURE(c["name"]);
    CHECK(c["status"] == "not-run");
    CHECK(c["points"] == 0);
    CHECK(c["seconds"] == 0);
    CHECK(c["message"] == "not run: the kernel file is unchanged from the starter");
  }
  CHECK(ben["status"] == "graded");  // an edited kernel is graded as before
  CHECK(test::read(dir / "out" / "gradebook.csv").find("\nann,0,0\n") != std::string::npos);
  CHECK(test::read(dir / "out" / "ann" / "report.md").find("**unchanged-starter**") != std::string::npos);
}

TEST_CASE("the kit's grader/starters.json holds the hashes of labs/' starters") {
  std::vector<std::pair<std::string, std::string>> labs;
  for (const grader::LabSpec& spec : grader::load_specs(kit::root() / "grader/specs")) labs.emplace_back(spec.lab, spec.kernel_file);
  REQUIRE(labs.size() == test::kit_labs(true).size());  // every lab with a spec, counted from the tree
  const json now = grader::starter_hashes(kit::root() / "labs", labs);
  const json stored = json::parse(test::read(kit::root() / "grader" / grader::kKitStartersFile));
  CHECK_MESSAGE(stored == now, "a starter's code changed: run build/bin/grader release-specs --kit-starters to store its hash");
  // The hash is of the code: a comment or spacing changes nothing, a line of code does.
  const std::string starter = test::read(kStarter);
  CHECK(grader::starter_hash("// mine\n" + starter.substr(starter.find('\n') + 1) + "\n\n") == now["labs"]["03-array-mult-reduce"]["sha256"]);
  CHECK(grader::starter_hash(test::replace_once(starter, "prods[tnum] = 0.0f;", "prods[tnum] = dA[gid] * dB[gid];")) !=
        now["labs"]["03-array-mult-reduce"]["sha256"]);
}

TEST_CASE("stored starter hashes: a release's file first, then the kit's, and a malformed file is named with its field") {
  test::TempDir root;
  CHECK_FALSE(grader::stored_starter_hash(root.path, "03-array-mult-reduce", "ArrayMultReduce.cl"));  // neither file
  const std::string a(64, 'a'), b(64, 'b');
  test::write(root / "grader" / "starters.json", json{{"labs", {{"03-array-mult-reduce", {{"file", "ArrayMultReduce.cl"}, {"sha256", a}}}}}}.dump());
  CHECK(grader::stored_starter_hash(root.path, "03-array-mult-reduce", "ArrayMultReduce.cl") == a);
  CHECK_FALSE(grader::stored_starter_hash(root.path, "04-tree-reductions", "TreeReductions.cl"));
  test::write(root / "grader" / "release-starters.json", json{{"labs", {{"03-array-mult-reduce", {{"file", "ArrayMultReduce.cl"}, {"sha256", b}}}}}}.dump());
  CHECK(grader::stored_starter_hash(root.path, "03-array-mult-reduce", "ArrayMultReduce.cl") == b);
  CHECK_THROWS_WITH_AS(grader::stored_starter_hash(root.path, "03-array-mult-reduce", "Other.cl"),
                       doctest::Contains("release-starters.json: labs.03-array-mult-reduce.file: ArrayMultReduce.cl, but the lab's kernel file is Other.cl"),
                       kit::Error);
  test::write(root / "grader" / "release-starters.json", json{{"labs", {{"03-array-mult-reduce", {{"file", "ArrayMultReduce.cl"}, {"sha256", "12"}}}}}}.dump());
  CHECK_THROWS_WITH_AS(grader::stored_starter_hash(root.path, "03-array-mult-reduce", "ArrayMultReduce.cl"),
                       doctest::Contains("release-starters.json: labs.03-array-mult-reduce: must be {\"file\": name, \"sha256\": 64 hex digits}"),
                       kit::Error);
}

// A student working in the full kit edits labs/03/ArrayMultReduce.cl, then grades a copy of it:
// it is compared with the committed starter's hash, not with the edited file, so it is graded.
TEST_CASE("grade in a copy of the kit whose labs/ holds the student's edited kernel: graded, and the pristine starter is unchanged-starter") {
  test::TempDir dir;
  const fs::path root = dir / "kit";
  fs::create_directories(root / "labs");
  for (const auto& entry : fs::directory_iterator(kit::root()))
    if (entry.path().filename() != "labs") fs::create_symlink(entry.path(), root / entry.path().filename());
  for (const auto& lab : fs::directory_iterator(kit::root() / "labs"))
    if (lab.path().filename() != "03-array-mult-reduce") fs::create_symlink(lab.path(), root / "labs" / lab.path().filename());
  fs::copy(kit::root() / "labs/03-array-mult-reduce", root / "labs/03-array-mult-reduce", fs::copy_options::recursive);
  const std::string edited = test::read(kit::root() / "grader/examples/class/ben-missing-barrier/ArrayMultReduce.cl");
  test::write(root / "labs/03-array-mult-reduce/ArrayMultReduce.cl", edited);
  test::write(dir / "class" / "ben" / "ArrayMultReduce.cl", edited);
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", test::read(kStarter));
  const auto run = test::run_command("KIT_ROOT='" + root.string() + "' '" + std::string(KIT_BIN_DIR) + "/grader' grade --labs 03 --submissions '" +
                                     (dir / "class").string() + "' --out '" + (dir / "out").string() + "'");
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(json::parse(test::read(dir / "out" / "ben" / "report.json"))["labs"][0]["status"] == "graded");
  CHECK(json::parse(test::read(dir / "out" / "ann" / "report.json"))["labs"][0]["status"] == "unchanged-starter");
}

TEST_CASE("a crash's hint names the divergent barrier the same grading's safety check found") {
  grader::LabResult r;
  r.status = grader::LabStatus::Graded;
  const std::string oob = "an out-of-bounds access? check every index against the array's size";
  const std::string divergence = "work-group divergence detected (barrier): work-item 1 of work-group 0 at ArrayMultReduce.cl:19:5 "
                                 "`barrier(CLK_LOCAL_MEM_FENCE);` reached a different barrier from work-item 0 of work-group 0 at "
                                 "ArrayMultReduce.cl:15:13 `barrier(CLK_LOCAL_MEM_FENCE);`";
  r.cases = {{"L = 8", true, 0, 1, grader::CaseStatus::Crashed, "the case crashed (SIGSEGV)", oob, 0},
             {"L = 2", true, 0, 1, grader::CaseStatus::Wrong, "expected 3, got 0", "", 0},
             {grader::safety_name("barrier-divergence"), false, 0, 1, grader::CaseStatus::Passed, "", "", 0, grader::CaseKind::Safety}};
  grader::LabResult clean = r;
  grader::crash_hints_from_findings(clean);  // no divergence found: the hint stays
  CHECK(clean.cases[0].hint == oob);
  r.cases[2].status = grader::CaseStatus::Unsafe;
  r.cases[2].message = divergence + "\n... and 2 more";
  grader::crash_hints_from_findings(r);
  CHECK(r.cases[0].hint.find("a barrier that not every work-item reaches") == 0);
  CHECK(r.cases[0].hint.find("ArrayMultReduce.cl:15:13") != std::string::npos);
  CHECK(r.cases[0].hint.find("out-of-bounds") == std::string::npos);
  CHECK(r.cases[0].hint.find("and 2 more") == std::string::npos);
  CHECK(r.cases[1].hint.empty());  // a wrong case is not a crash
}
