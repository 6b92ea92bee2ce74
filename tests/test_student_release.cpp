// make student-release: what students get holds no solution code, no hidden case, and still grades.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "export/release.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r"), last = line.find_last_not_of(" \t\r");
  return first == std::string::npos ? "" : line.substr(first, last - first + 1);
}

// A line that gives nothing away: blank, only punctuation, only a comment, or too short to say
// anything (`do {`, `sum = t;`: fewer than 8 characters that are not spaces).
bool telling(const std::string& line) {
  if (line.empty() || line.rfind("//", 0) == 0 || line.rfind("/*", 0) == 0 || line.rfind("*", 0) == 0) return false;
  std::size_t visible = 0;
  for (char c : line) visible += c != ' ' && c != '\t';
  return visible >= 8 && line.find_first_not_of("{}();,[] ") != std::string::npos;
}

std::set<std::string> lines_of(const fs::path& file) {
  std::set<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) lines.insert(trimmed(line));
  return lines;
}

}  // namespace

TEST_CASE("make student-release: no solution line, no hidden case, and the release's grader data grades") {
  test::TempDir dir;
  const fs::path dest = dir / "release";
  const auto made = test::run_command(test::kit_path("scripts/student-release.sh") + " " + dest.string() + " 2>&1");
  REQUIRE_MESSAGE(made.exit_code == 0, made.output);
  for (const char* absent : {"solutions", "tests", "bench", "slides/lecture.tex", "slides/parts", "grader/examples", "grader/mutants",
                             "grader/reference/06-cascade-reduction.baseline.cl"})
    CHECK_MESSAGE(!fs::exists(dest / absent), absent);
  for (const char* present : {"README.md", "Makefile", "CMakeLists.txt", "common", "labs/03-array-mult-reduce/ArrayMultReduce.cl",
                              "labs/03-array-mult-reduce/README.md", ".github/workflows/classroom.yml", "scripts/setup.sh"})
    CHECK_MESSAGE(fs::exists(dest / present), present);
  CHECK(test::read(dest / "README.md").find("make check") != std::string::npos);
  // Every measured log or sweep a released lab README names is in the release (globs included).
  std::size_t named = 0;
  for (const auto& lab : fs::directory_iterator(dest / "labs")) {
    if (!fs::exists(lab.path() / "README.md")) continue;
    const std::string text = test::read(lab.path() / "README.md");
    for (std::size_t at = text.find("slides/data/"); at != std::string::npos; at = text.find("slides/data/", at + 1)) {
      std::string path = text.substr(at, text.find_first_of("` )\n", at) - at);
      if (!path.empty() && path.back() == '.') path.pop_back();
      const auto listed = test::run_command("cd " + dest.string() + " && ls -d " + path);
      CHECK_MESSAGE(listed.exit_code == 0, lab.path().filename().string() << " names " << path << ", which the release lacks");
      ++named;
    }
  }
  CHECK(named >= 8);
  // The release's Makefile offers only targets whose scripts the release carries.
  const std::string makefile = test::read(dest / "Makefile");
  for (const char* gone : {"slides:", "graph:", "student-release:", "gradescope-zip:", "test:"})
    CHECK_MESSAGE(makefile.find(std::string("\n") + gone) == std::string::npos, gone);
  for (const char* target : {"demo", "check", "build", "clean"}) {
    const auto plan = test::run_command("make -n -C " + dest.string() + " " + target + " 2>&1");
    CHECK_MESSAGE(plan.exit_code == 0, target << ": " << plan.output);
  }
  for (const char* script : {"scripts/setup.sh", "scripts/demo.sh"}) CHECK_MESSAGE(fs::exists(dest / script), script);

  // No released file holds a line of another lab's answer: for each lab, the telling lines of its
  // solution that neither its own starter nor an earlier lab's starter shows (a later lab may build
  // on what an earlier starter gave: lab 06's SumPartials frame is in lab 08's answer), searched
  // for in every file of the release, every other lab's starter included.
  std::vector<std::string> labs;
  for (const auto& lab : fs::directory_iterator(kit::root() / "solutions")) labs.push_back(lab.path().filename().string());
  std::sort(labs.begin(), labs.end());
  std::map<std::string, std::string> secret;  // line -> the lab whose students write it
  for (std::size_t k = 0; k < labs.size(); ++k) {
    std::set<std::string> shown;  // what the starters of this lab and the labs before it show
    for (std::size_t e = 0; e <= k; ++e)
      for (const auto& file : fs::directory_iterator(kit::root() / "labs" / labs[e]))
        if (file.path().extension() == ".cl")
          for (const std::string& line : lines_of(file.path())) shown.insert(line);
    for (const auto& file : fs::directory_iterator(kit::root() / "solutions" / labs[k]))
      if (file.path().extension() == ".cl")
        for (const std::string& line : lines_of(file.path()))
          if (telling(line) && !shown.count(line)) secret.emplace(line, labs[k]);
  }
  REQUIRE(secret.size() > 50);
  std::size_t files = 0;
  for (const auto& f : fs::recursive_directory_iterator(dest)) {
    if (!f.is_regular_file()) continue;
    ++files;
    for (const std::string& line : lines_of(f.path()))
      if (secret.count(line)) FAIL_CHECK(f.path().string() << " holds a line of lab " << secret.at(line) << "'s solution: " << line);
  }
  CHECK(files > 50);

  // Visible cases only, no speed case, and references that load: the starter scores 0 and the
  // solution every visible point, with the release's own specs and references.
  for (const auto& spec_file : fs::directory_iterator(dest / "grader" / "specs")) {
    const json spec = json::parse(test::read(spec_file.path()));
    if (spec.contains("speed")) CHECK(spec["speed"].contains("estimate"));  // estimated by check, against a stored figure
    for (const json& c : spec["cases"]) CHECK(c["visibility"] == "visible");
  }
  const std::string data = " --specs " + (dest / "grader/specs").string() + " --references " + (dest / "grader/reference").string();
  const auto starter = test::run_program("grader", data + " check 03 06 --dir " + (dest / "labs").string());
  CHECK(starter.exit_code == 1);
  CHECK(starter.output.find("Not all visible cases pass: 0 / ") != std::string::npos);
  const auto solution = test::run_program("grader", data + " check 03 06 --dir " + test::kit_path("solutions"));
  // Every case right; the speed estimate is a measurement of this machine, so only its line is required.
  CHECK_MESSAGE(solution.output.find("cases 5 / 5, algorithm 3 / 3\n") != std::string::npos, solution.output);  // lab 03
  CHECK_MESSAGE(solution.output.find("cases 6 / 6, algorithm 3 / 3, speed ") != std::string::npos, solution.output);  // lab 06
  CHECK(solution.output.find("speed estimate against the solution") != std::string::npos);
  CHECK(solution.output.find("This is an estimate: the graded figure comes from the course's grading machine") != std::string::npos);
  CHECK_FALSE(fs::exists(dest / "grader/reference/06-cascade-reduction.baseline.cl"));  // the solution is not shipped

  // The release stores its starters' hashes: `grader grade` in a student's own copy, whose labs/
  // holds the student's edited kernel, screens against the released starter, not that file.
  const json starters = json::parse(test::read(dest / "grader/release-starters.json"));
  CHECK(starters["labs"].size() == test::kit_labs(true).size());  // every released lab, counted from the tree
  const fs::path mine = dest / "labs/03-array-mult-reduce/ArrayMultReduce.cl";
  const std::string released = test::read(mine);
  test::write(mine, test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"));  // the student's work
  test::write(dir / "class" / "stu" / "ArrayMultReduce.cl", test::read(mine));
  test::write(dir / "class" / "lazy" / "ArrayMultReduce.cl", released);
  const auto graded = test::run_command("KIT_ROOT='" + dest.string() + "' '" + std::string(KIT_BIN_DIR) + "/grader' grade --labs 03 --submissions '" +
                                        (dir / "class").string() + "' --out '" + (dir / "out").string() + "'");
  REQUIRE_MESSAGE(graded.exit_code == 0, graded.output);
  const json stu = json::parse(test::read(dir / "out" / "stu" / "report.json"))["labs"][0];
  const json lazy = json::parse(test::read(dir / "out" / "lazy" / "report.json"))["labs"][0];
  CHECK(stu["status"] == "graded");
  CHECK(stu["points"] == stu["max_points"]);
  CHECK(lazy["status"] == "unchanged-starter");
}

TEST_CASE("make student-release LABS=...: only those labs, and the labs that build on earlier ones release alone") {
  test::TempDir dir;
  const std::string script = test::kit_path("scripts/student-release.sh");
  const auto three = test::run_command("LABS=01,03 " + script + " " + (dir / "r03").string() + " 2>&1");
  REQUIRE_MESSAGE(three.exit_code == 0, three.output);
  for (const char* present : {"labs/01-array-mult/ArrayMult.cl", "labs/03-array-mult-reduce/ArrayMultReduce.cl", "labs/shared/CMakeLists.txt",
                              "grader/specs/03-array-mult-reduce.json", "grader/reference/01-array-mult.json"})
    CHECK_MESSAGE(fs::exists(dir / "r03" / present), present);
  for (const char* absent : {"labs/02-array-mult-add", "labs/04-tree-reductions", "labs/08-atomics-and-scan",
                             "grader/specs/04-tree-reductions.json", "grader/reference/08-atomics-and-scan.json"})
    CHECK_MESSAGE(!fs::exists(dir / "r03" / absent), absent);
  const json manifest = json::parse(test::read(dir / "r03" / "grader/reference/MANIFEST.json"));
  CHECK(manifest["labs"].size() == 2);

  // Labs 06 and 08 ask for the student's own lab 04 tree and lab 06 sweep, not for lab 04's or 06's
  // folder: lab 06 releases alone. Lab 08's program links lab 06's host library (its CMakeLists.txt:
  // LINKS lab06), so lab 08 releases with lab 06, and alone is refused, naming both.
  const auto six = test::run_command("LABS=06 " + script + " " + (dir / "06").string() + " 2>&1");
  CHECK_MESSAGE(six.exit_code == 0, six.output);
  CHECK_FALSE(fs::exists(dir / "06" / "labs/04-tree-reductions"));
  const auto eight = test::run_command("LABS=08 " + script + " " + (dir / "08").string() + " 2>&1");
  CHECK(eight.exit_code == 1);
  CHECK_MESSAGE(eight.output.find("student-release: labs/08-atomics-and-scan builds on lab 06's host library (labs/08-atomics-and-scan/CMakeLists.txt: "
                                  "LINKS lab06): release lab 06 with it") != std::string::npos,
                eight.output);
  CHECK_FALSE(fs::exists(dir / "08"));
  const auto both = test::run_command("LABS=06,08 " + script + " " + (dir / "06-08").string() + " 2>&1");
  CHECK_MESSAGE(both.exit_code == 0, both.output);
  CHECK(fs::exists(dir / "06-08" / "labs/08-atomics-and-scan/AtomicsScan.cl"));
  CHECK_FALSE(fs::exists(dir / "06-08" / "labs/04-tree-reductions"));
}

TEST_CASE("the release tool refuses a starter that hands out another lab's answer, whichever labs it releases") {
  // A copy of the kit's labs 04 and 08, then lab 04's tree pasted into the given code of lab 08's
  // starter: refused released alone and released with lab 04, naming the lines and the region.
  test::TempDir dir;
  for (const char* tree : {"labs", "solutions"})
    for (const char* lab : {"04-tree-reductions", "08-atomics-and-scan"}) {
      fs::create_directories(dir / tree / lab);
      fs::copy(kit::root() / tree / lab, dir / tree / lab, fs::copy_options::recursive);
    }
  const std::vector<std::string> both = {"04-tree-reductions", "08-atomics-and-scan"}, eight = {"08-atomics-and-scan"};
  CHECK(grader::given_solution_lines(dir / "labs", dir / "solutions", both).empty());
  CHECK(grader::given_solution_lines(dir / "labs", dir / "solutions", eight).empty());
  const fs::path starter = dir / "labs/08-atomics-and-scan/AtomicsScan.cl";
  test::write(starter, test::read(starter) +
                           "\nvoid handed_out(local int *scratch, uint tid, uint L)\n{\n"
                           "    for (uint s = L / 2; s > 0; s >>= 1)\n    {\n        if (tid < s)\n"
                           "            scratch[tid] += scratch[tid + s];\n        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n}\n");
  for (const auto* released : {&both, &eight}) {
    const auto found = grader::given_solution_lines(dir / "labs", dir / "solutions", *released);
    REQUIRE(found.size() == 2);  // the loop of lab 04's rung 3 (todo-4) and of rung 4 (todo-6)
    CHECK(found[0].find("labs/08-atomics-and-scan/AtomicsScan.cl:") == 0);
    CHECK(found[0].find("of solutions/04-tree-reductions/TreeReductions.cl (region todo-4 of lab 04-tree-reductions") != std::string::npos);
    CHECK(found[1].find("(region todo-6 of lab 04-tree-reductions") != std::string::npos);
  }
}

TEST_CASE("make student-release names every file it cannot release, and releases a lab whose README names no measured log") {
  // A copy of the kit (its tracked files, committed), its build/bin the kit's own.
  test::TempDir dir;
  const fs::path kit = dir / "kit";
  test::copy_kit(kit);
  fs::create_directories(kit / "build");
  fs::create_directory_symlink(fs::path(KIT_BIN_DIR), kit / "build" / "bin");
  const std::string run = "cd '" + kit.string() + "' && KIT_ROOT='" + kit.string() + "' ";

  // A file git does not track in a released lab: refused, naming it, and nothing is left behind.
  test::write(kit / "labs/03-array-mult-reduce/extra.cpp", "// not added\n");
  const auto refused = test::run_command(run + "LABS=03 scripts/student-release.sh '" + (dir / "r1").string() + "' 2>&1");
  CHECK(refused.exit_code == 1);
  CHECK_MESSAGE(refused.output.find("labs/03-array-mult-reduce/extra.cpp is not tracked by git: git add it, or it is left out of the release") !=
                    std::string::npos,
                refused.output);
  CHECK_FALSE(fs::exists(dir / "r1"));
  // The same file in a lab the release leaves out is no reason to refuse it.
  const auto other = test::run_command(run + "LABS=04 scripts/student-release.sh '" + (dir / "r2").string() + "' 2>&1");
  CHECK_MESSAGE(other.exit_code == 0, other.output);
  fs::remove(kit / "labs/03-array-mult-reduce/extra.cpp");

  // A committed lab README that names no slides/data/ log: released, the README as it is.
  const fs::path readme = kit / "labs/03-array-mult-reduce/README.md";
  std::string text = test::read(readme);
  for (auto at = text.find("slides/data/"); at != std::string::npos; at = text.find("slides/data/")) text.replace(at, 12, "slides/");
  test::write(readme, text);
  REQUIRE(test::run_command(run + "git -c user.name=kit -c user.email=kit@localhost commit -qam 'no log named' 2>&1").exit_code == 0);
  const auto released = test::run_command(run + "LABS=03 scripts/student-release.sh '" + (dir / "r3").string() + "' 2>&1");
  CHECK_MESSAGE(released.exit_code == 0, released.output);
  CHECK(test::read(dir / "r3" / "labs/03-array-mult-reduce/README.md") == text);
  CHECK_FALSE(fs::exists(dir / "r3" / "slides"));

  // A released lab without its README: refused, naming it.
  fs::remove(readme);
  const auto no_readme = test::run_command(run + "LABS=03 scripts/student-release.sh '" + (dir / "r4").string() + "' 2>&1");
  CHECK(no_readme.exit_code == 1);
  CHECK_MESSAGE(no_readme.output.find("labs/03-array-mult-reduce/README.md is missing") != std::string::npos, no_readme.output);
}
