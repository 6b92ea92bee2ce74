// make new-lab: "Adding a lab" in docs/lab-authors.md, run as it is written, in a copy of the kit. Every
// command of that section's checklist runs in order, in the copy (never in the kit): the lab is
// written, builds, its starter scores 0 and its solution every point, its mutants are all killed or
// listed, the release of that lab alone is refused until its files are added to git and then builds
// and runs its READMEs' commands. A NAME that is not NN-name, or a lab that exists, is refused.
//
// Time: the copy is built without its tests (-DBUILD_TESTING=OFF: kit_tests is most of the kit's
// build); the release of the new lab is then laid over the same folder and built there, so that its
// `make build` compiles only what differs (see the release test in test_readme_release.cpp).
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>

#include "kit/paths.hpp"
#include "readme_docs.hpp"
#include "support.hpp"

namespace fs = std::filesystem;

namespace {

// The commands of docs/lab-authors.md's "## Adding a lab" section, in order.
std::vector<test::docs::Shown> checklist() {
  const fs::path readme = kit::root() / "docs" / "lab-authors.md";
  std::ifstream in(readme);
  std::size_t number = 0, first = 0, last = SIZE_MAX;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line == "## Adding a lab") first = number;
    else if (first && last == SIZE_MAX && number > first && line.rfind("#", 0) == 0 && line.find("# ") != std::string::npos) last = number;
  }
  REQUIRE_MESSAGE(first > 0, "docs/lab-authors.md has no \"## Adding a lab\" section");
  std::vector<test::docs::Shown> out;
  for (const auto& s : test::docs::commands(readme, "docs/lab-authors.md")) {
    const std::size_t at = std::stoul(s.where.substr(s.where.rfind(':') + 1));
    if (at > first && at < last) out.push_back(s);
  }
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("make new-lab: docs/lab-authors.md's \"Adding a lab\" checklist, run in a copy of the kit, makes a lab that builds, grades and releases") {
  const auto started = std::chrono::steady_clock::now();
  const auto steps = checklist();
  // The checklist, as the section promises it: the command, the build, the references, both checks,
  // the mutants, git add (with the equivalents file) and the release.
  std::string shown;
  for (const auto& s : steps) shown += s.command + "\n";
  for (const char* step : {"make new-lab NAME=09-name", "make build", "grader reference --labs 09", "grader release-specs --kit-starters", "grader/starters.json", "grader check 09\n",
                           "grader check 09 --dir solutions", "grader mutants 09", "git add ", "grader/mutants/09-name.equivalent.json",
                           "make student-release DEST=build/release-09 LABS=09"})
    CHECK_MESSAGE(shown.find(step) != std::string::npos, "the checklist lacks `" << step << "`:\n" << shown);
  const std::string readme = test::read(kit::root() / "docs" / "lab-authors.md");
  for (const char* key : {"tolerance()", "**keys**", "**values**", "exact-whole-below-2^24", "depth-bound", "digest", "per-method-bound"})
    CHECK_MESSAGE(readme.find(key) != std::string::npos, "\"Adding a lab\" does not explain " << key);

  test::TempDir dir;
  const fs::path kit = dir / "kit";
  test::copy_kit(kit);
  const std::string in_kit = "cd '" + kit.string() + "' && KIT_ROOT='" + kit.string() + "' ";
  // The copy's build, without its tests; `make build` below configures it again, the cache kept.
  const auto configured = test::run_command(in_kit + "cmake --preset default -DBUILD_TESTING=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON 2>&1");
  REQUIRE_MESSAGE(configured.exit_code == 0, configured.output);

  std::map<std::string, test::Command> ran;  // the command as shown -> its run
  for (const auto& s : steps) {
    std::string line = s.command;
    // make's setup target installs packages as root: taken as done; the release's build is done already.
    if (line.rfind("make ", 0) == 0) line.replace(0, 5, line.find("student-release") != std::string::npos ? "make -o setup -o build " : "make -o setup ");
    if (s.command.rfind("git add", 0) == 0) {
      // Before git add: the release is refused, naming a file of the lab that git does not track.
      const auto refused = test::run_command(in_kit + "make -o setup -o build student-release DEST=build/refused LABS=09 2>&1");
      CHECK(refused.exit_code != 0);
      CHECK_MESSAGE(refused.output.find("student-release: labs/09-name/name.cpp is not tracked by git: git add it, or it is left out of the release") !=
                        std::string::npos,
                    refused.output);
      CHECK_FALSE(fs::exists(kit / "build/refused"));
    }
    const auto start = std::chrono::steady_clock::now();
    const auto run = test::run_command(in_kit + line + " 2>&1 </dev/null");
    std::cout << "ran " << s.where << ": " << line << "  (exit " << run.exit_code << ", " << seconds_since(start) << " s)\n";
    CHECK_MESSAGE(run.exit_code == s.expected_exit, s.where << ": `" << s.command << "` exits " << run.exit_code << ", the README says "
                                                          << s.expected_exit << "\n" << run.output.substr(run.output.size() > 4000 ? run.output.size() - 4000 : 0));
    ran.emplace(s.command, run);
    if (s.command.rfind("make new-lab", 0) == 0) {  // no list of labs edited: no tracked file changed
      const auto changed = test::run_command("cd '" + kit.string() + "' && git status --porcelain --untracked-files=no 2>&1");
      CHECK_MESSAGE(changed.output.empty(), "make new-lab changed tracked files:\n" << changed.output);
    }
    if (run.exit_code != s.expected_exit) return;  // the steps after it need it
  }

  // make new-lab wrote, and named, the files the section lists, and edited no list of labs.
  const std::string& made = ran.at("make new-lab NAME=09-name").output;
  for (const char* file : {"labs/09-name/main.cpp", "labs/09-name/name.cpp", "labs/09-name/name.hpp", "labs/09-name/name_json.hpp", "labs/09-name/Name.cl",
                           "labs/09-name/README.md", "labs/09-name/grading.cpp", "labs/09-name/test_lab09.cpp", "labs/09-name/CMakeLists.txt",
                           "solutions/09-name/Name.cl", "grader/specs/09-name.json", "grader/mutants/09-name.equivalent.json"}) {
    CHECK_MESSAGE(fs::exists(kit / file), file);
    CHECK_MESSAGE(made.find(std::string("wrote ") + file) != std::string::npos, "make new-lab does not name " << file << ":\n" << made);
  }
  CHECK(made.find("No list of labs was edited") != std::string::npos);
  // Its "Next:" list is the checklist's: every step after make new-lab and before the release, and
  // the labs table of README.md.
  for (const auto& s : steps) {
    if (s.command.rfind("make new-lab", 0) == 0 || s.command.rfind("make student-release", 0) == 0) continue;
    CHECK_MESSAGE(made.find(s.command) != std::string::npos, "make new-lab's Next: list lacks `" << s.command << "`:\n" << made);
  }
  CHECK(made.find("labs table in README.md") != std::string::npos);
  for (const char* folder : {"labs/09-name", "solutions/09-name"})  // every placeholder filled
    for (const auto& e : fs::recursive_directory_iterator(kit / folder))
      CHECK_MESSAGE(test::read(e.path()).find('@') == std::string::npos, e.path().string() << " keeps a placeholder");

  // The grader knows lab 09: the starter scores 0, the solution every point, and every mutant of
  // the solution is killed (none survives, none is listed as equivalent).
  CHECK(ran.at("build/bin/grader check 09").output.find("Not all visible cases pass: 0 / 3 points") != std::string::npos);
  CHECK(ran.at("build/bin/grader check 09 --dir solutions").output.find("All visible cases pass: 3 / 3 points") != std::string::npos);
  CHECK(fs::exists(kit / "grader/reference/09-name.json"));
  // The starter's hash is stored with the kit's others: grader grade screens an unchanged starter.
  const auto starters = nlohmann::json::parse(test::read(kit / "grader/starters.json"));
  CHECK_MESSAGE(starters["labs"].contains("09-name"), starters.dump());
  CHECK(starters["labs"]["09-name"]["file"] == "Name.cl");
  const std::string& mutants = ran.at("build/bin/grader mutants 09").output;
  CHECK_MESSAGE(std::regex_search(mutants, std::regex(R"(09-name: \d+ mutants made .* 0 survived, 0 equivalent)")), mutants);
  CHECK_MESSAGE(mutants.find("control: the solution scored 10/10") != std::string::npos, mutants);

  // The lab's own test compiles (kit_tests is not built here): with the lab library's flags.
  const auto commands = nlohmann::json::parse(test::read(kit / "build/compile_commands.json"));
  std::string flags;
  for (const auto& c : commands)
    if (c.at("file").get<std::string>().find("/labs/09-name/") != std::string::npos || c.at("directory").get<std::string>().find("/labs/09-name") != std::string::npos)
      flags = c.at("command").get<std::string>();
  REQUIRE_MESSAGE(!flags.empty(), "no compile command of lab 09's library in compile_commands.json");
  flags = std::regex_replace(flags, std::regex(R"( -o \S+| -c \S+)"), "");
  const auto syntax = test::run_command("cd '" + (kit / "build").string() + "' && " + flags + " -I '" + (kit / "tests").string() +
                                        "' -fsyntax-only '" + (kit / "labs/09-name/test_lab09.cpp").string() + "' 2>&1");
  CHECK_MESSAGE(syntax.exit_code == 0, "labs/09-name/test_lab09.cpp does not compile:\n" << syntax.output);

  // A NAME that is not NN-name, or whose number a lab has, is refused, naming what is wrong.
  for (const auto& [name, says] : std::vector<std::pair<std::string, std::string>>{
           {"9-name", "NAME '9-name' is not NN-name"}, {"10-Name", "NAME '10-Name' is not NN-name"}, {"10-", "is not NN-name"},
           {"03-other", "lab 03 exists already: labs/03-array-mult-reduce/"}, {"09-name", "lab 09 exists already"}, {"", "usage: make new-lab NAME=NN-name"}}) {
    const auto refused = test::run_command(in_kit + "make new-lab NAME=" + name + " 2>&1");
    CHECK_MESSAGE(refused.exit_code != 0, name);
    CHECK_MESSAGE(refused.output.find(says) != std::string::npos, name << ": " << refused.output);
  }
  CHECK_FALSE(fs::exists(kit / "labs/03-other"));

  // The release of lab 09 alone, laid over the copy (everything but build/ removed first, the
  // files' times kept, so that make sees what differs), then its own `make build`, then the
  // commands its READMEs show.
  const fs::path release = dir / "release-09", tree = kit;
  fs::rename(kit / "build/release-09", release);
  REQUIRE(fs::exists(release / "labs/09-name/Name.cl"));
  CHECK_FALSE(fs::exists(release / "labs/03-array-mult-reduce"));
  CHECK_FALSE(fs::exists(release / "solutions"));
  for (const auto& e : fs::directory_iterator(tree))
    if (e.path().filename() != "build") fs::remove_all(e.path());
  for (const auto& e : fs::directory_iterator(tree / "build" / "bin"))  // the lab programs the release does not build
    if (e.path().filename().string().size() > 3 && e.path().filename().string()[2] == '-' && e.path().filename() != "09-name") fs::remove(e.path());
  REQUIRE(test::run_command("cp -a '" + release.string() + "/.' '" + tree.string() + "/'").exit_code == 0);
  const auto build_start = std::chrono::steady_clock::now();
  const auto relaid = test::run_command("cd '" + tree.string() + "' && make -o setup build JOBS=2 2>&1");
  std::cout << "the release of lab 09, laid over the copy: make build " << seconds_since(build_start) << " s\n";
  REQUIRE_MESSAGE(relaid.exit_code == 0, "the release of lab 09 does not build:\n" << relaid.output.substr(relaid.output.size() > 4000 ? relaid.output.size() - 4000 : 0));
  const std::string env = "KIT_ROOT='" + tree.string() + "'";
  for (const char* readme : {"README.md", "labs/09-name/README.md"})
    test::docs::run_commands(tree, tree / readme, std::string("release of lab 09: ") + readme, env, test::docs::Scope::release);
  const auto starter = test::run_command("cd '" + tree.string() + "' && " + env + " build/bin/grader check 2>&1");
  CHECK_MESSAGE(starter.output.find("Not all visible cases pass: 0 / 3 points") != std::string::npos, starter.output);  // lab 09's alone
  CHECK_MESSAGE(starter.output.find("03-array-mult-reduce") == std::string::npos, starter.output);
  std::cout << "make new-lab checklist, its build and its release's build: " << seconds_since(started) << " s\n";
}
