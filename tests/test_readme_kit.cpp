// Executable READMEs in the full kit: every command README.md, grader/README.md (its "A term with
// the kit" walk-through included) and slides/README.md show runs from the kit's root as they say,
// and every path any README of the kit names is there. The marking convention (```sh run,
// ```synopsis --help only, ```text quoted output, `# exits N`) is in readme_docs.hpp; what cannot
// run here (a GPU, a Slurm cluster, apt as root, the suite itself) is printed as not run, with why,
// and its program's --help is checked to name every flag shown.
//
// The labs' READMEs are shipped unchanged in the student release, and their commands are run there,
// on the starters as students get them (test_readme_release.cpp); here their paths are checked, and
// the lines marked `kit only` (which need the solutions or the speed case) are run.
// The walk-through writes only under build/term/, which it starts by removing.
//
// Shown to fail: `build/bin/grader grade --labs 03 --submisions build/term/class --out build/term/out`
// in the walk-through (exits 106, the README says 0) and `grader/examples/class/roster.csv` named
// in grader/README.md each made this test fail, naming the README line; both were reverted.
#include <doctest/doctest.h>

#include <algorithm>
#include <iostream>

#include "kit/paths.hpp"
#include "readme_docs.hpp"
#include "support.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<std::string> entries(const fs::path& dir, bool skip_build) {
  std::vector<std::string> tops;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (skip_build && (name == "build" || name[0] == '.' || name.rfind("build-", 0) == 0)) continue;
    tops.push_back(e.is_directory() ? name + "/" : name);
  }
  return tops;
}

// Paths from the kit's root (`labs/...`), and for a README in a folder, paths from that folder
// (slides/README.md's `data/logs/`).
void check_paths(const fs::path& readme, const std::string& shown_as) {
  auto tops = entries(kit::root(), true);
  tops.push_back("build/bin/");
  auto named = test::docs::named_paths(readme, tops);
  std::size_t checked = 0;
  for (const auto& path : named) {
    const auto listed = test::run_command("cd " + test::kit_path("") + " && ls -d " + path);
    CHECK_MESSAGE(listed.exit_code == 0, shown_as << " names " << path << ", which the kit lacks");
    ++checked;
  }
  const fs::path folder = readme.parent_path();
  if (fs::equivalent(folder, kit::root())) return;
  std::vector<std::string> local;
  for (const auto& e : entries(folder, false))
    if (std::find(tops.begin(), tops.end(), e) == tops.end()) local.push_back(e);
  for (const auto& path : test::docs::named_paths(readme, local)) {
    const auto listed = test::run_command("cd '" + folder.string() + "' && ls -d " + path);
    CHECK_MESSAGE(listed.exit_code == 0, shown_as << " names " << path << " (from its folder), which the kit lacks");
    ++checked;
  }
  std::cout << shown_as << ": " << checked << " paths named, each checked\n";
}

}  // namespace

TEST_CASE("the kit's READMEs: every path they name is in the kit") {
  for (const char* readme : {"README.md", "grader/README.md", "grader/src/README.md", "slides/README.md"}) check_paths(kit::root() / readme, readme);
  // Every lab folder (labs/NN-name/, counted from the tree) has a README, and each is checked.
  const auto labs = test::kit_labs();
  REQUIRE_FALSE(labs.empty());
  for (const std::string& lab : labs) {
    CHECK_MESSAGE(fs::exists(kit::root() / "labs" / lab / "README.md"), "labs/" << lab << " has no README.md");
    if (fs::exists(kit::root() / "labs" / lab / "README.md")) check_paths(kit::root() / "labs" / lab / "README.md", "labs/" + lab + "/README.md");
  }
}

TEST_CASE("the kit's READMEs: every command README.md, grader/README.md, slides/README.md (and the labs' kit-only lines) show runs as they say") {
  // The commands use build/bin/ and make from the kit's root, so the kit's build must be there.
  REQUIRE_MESSAGE(fs::equivalent(fs::path(KIT_BIN_DIR), kit::root() / "build" / "bin"),
                  "the READMEs' commands run build/bin/ from the kit's root; this build is in " << KIT_BIN_DIR);
  fs::remove_all(kit::root() / "build" / "term");
  for (const char* readme : {"README.md", "grader/README.md", "slides/README.md"})
    test::docs::run_commands(kit::root(), kit::root() / readme, readme, "", test::docs::Scope::kit);
  for (const auto& lab : fs::directory_iterator(kit::root() / "labs"))
    if (fs::exists(lab.path() / "README.md"))
      test::docs::run_commands(kit::root(), lab.path() / "README.md", "labs/" + lab.path().filename().string() + "/README.md", "",
                               test::docs::Scope::kit_only_lines);
  fs::remove_all(kit::root() / "build" / "term");
}

TEST_CASE("the README parser: a plain block holding a command is refused, `exits N` and a quoted output's shape are read") {
  test::TempDir dir;
  test::write(dir / "a.md", "x\n```\nmake demo\n```\n");
  CHECK_THROWS_WITH_AS(test::docs::commands(dir / "a.md", "a.md"), doctest::Contains("a.md:2: a plain block holds the command `make demo`"),
                       std::runtime_error);
  test::write(dir / "b.md", "```sh\nbuild/bin/grader check 03   # exits 1 until it passes\nmake \\\n  check\n```\n```text\nlab 03: 2 / 10 points\n```\n");
  const auto shown = test::docs::commands(dir / "b.md", "b.md");
  REQUIRE(shown.size() == 2);
  CHECK(shown[0].expected_exit == 1);
  CHECK(shown[0].command == "build/bin/grader check 03");
  CHECK(shown[1].command == "make check");
  CHECK(shown[1].where == "b.md:3");
  REQUIRE(shown[1].quoted_output.size() == 1);
  CHECK(test::docs::unmatched_quotes(shown[1].quoted_output, "header\nlab 03: 7 / 10 points\n").empty());
  CHECK(test::docs::unmatched_quotes(shown[1].quoted_output, "lab 03: 7 of 10 points\n").size() == 1);
  CHECK(test::docs::help_of("GITHUB_OUTPUT=x build/bin/grader --specs s check 03 --classroom") == "build/bin/grader check --help");
  CHECK(test::docs::flags_of("build/bin/grader grade [--jobs N] --labs=03 -p nvidia -1") ==
        std::vector<std::string>{"--jobs", "--labs", "-p"});
  // A link relative to the README (an image two folders up) is named by the path it points to, so
  // a picture missing from a tree (the student release) is found.
  test::write(dir / "labs" / "03" / "c.md", "![a drawing](../../docs/figures/x.svg) and `labs/03/c.md`\n");
  const auto named = test::docs::named_paths(dir / "labs" / "03" / "c.md", {"labs/"});
  CHECK(named == std::vector<std::string>{"labs/03/c.md", (dir / "docs" / "figures" / "x.svg").string()});
}

TEST_CASE("the README runner: a container engine's commands are not run, and say why") {
  // The image's build runs scripts/setup.sh as root and takes the whole build: scripts/check-container.sh does it.
  for (const char* command : {"docker build -t reduction-kit .", "docker run --rm reduction-kit", "podman build -t reduction-kit .",
                              "scripts/check-container.sh"})
    CHECK_MESSAGE(test::docs::not_run_reason(command).find("container") != std::string::npos, std::string(command));
  CHECK(test::docs::not_run_reason("build/bin/grader check 03").empty());
  CHECK(test::docs::not_run_reason("scripts/compare-verdicts.sh diff a b").empty());
}
