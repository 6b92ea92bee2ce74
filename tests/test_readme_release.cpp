// Executable READMEs in the student release: every command the release's README.md and
// labs/*/README.md show runs in a built release as they say, and every path they name is there.
// The marking convention (```sh run, ```synopsis --help only, ```text quoted output, `# exits N`)
// is in readme_docs.hpp.
//
// The release's build: it is configured with its own CMake files (`cmake --preset default`, the
// first step of its `make build`); its sources are the kit's (copied by scripts/student-release.sh),
// so its build/bin is the kit's own build/bin, linked in, and KIT_ROOT points the programs at the release:
// they check the release's labs/ with the release's specs and references. `make` runs with its
// build target taken as done (`make -o build -o setup`); `make -n build` checks the build's plan.
//
// Shown to fail: a line `build/bin/grader chek 03` added to the release README's ```sh block
// (exits 106, the README says 0) and a path `labs/03-array-mult-reduce/Missing.cl` named in
// labs/03's README each made this test fail, naming the README line; both were reverted.
#include <doctest/doctest.h>

#include <iostream>
#include <sstream>

#include "kit/paths.hpp"
#include "readme_docs.hpp"
#include "support.hpp"

namespace fs = std::filesystem;

namespace {

// The kit's top-level entries: a path a release README names that starts with one of these
// (solutions/, tests/ included) must be in the release.
std::vector<std::string> kit_tops() {
  std::vector<std::string> tops{"build/bin/", ".github/"};
  for (const auto& e : fs::directory_iterator(kit::root())) {
    const std::string name = e.path().filename().string();
    if (name == "build" || name[0] == '.' || name.rfind("build-", 0) == 0) continue;
    tops.push_back(e.is_directory() ? name + "/" : name);
  }
  return tops;
}

void check_paths(const fs::path& tree, const fs::path& readme, const std::string& shown_as) {
  const auto named = test::docs::named_paths(readme, kit_tops());
  for (const auto& path : named) {
    const auto listed = test::run_command("cd '" + tree.string() + "' && ls -d " + path);
    CHECK_MESSAGE(listed.exit_code == 0, shown_as << " names " << path << ", which " << tree.filename().string() << " lacks");
  }
  std::cout << shown_as << ": " << named.size() << " paths named, each checked\n";
}

}  // namespace

TEST_CASE("student release: every command its READMEs show runs as they say, and every path they name is in it") {
  test::TempDir dir;
  const fs::path dest = dir / "release";
  const auto made = test::run_command(test::kit_path("scripts/student-release.sh") + " " + dest.string());
  REQUIRE_MESSAGE(made.exit_code == 0, made.output);
  // `make build` configures the release with its own CMake files (no tests/, no bench/): that runs
  // here; compiling it again would take minutes, so its build/bin is then the kit's.
  const auto configured = test::run_command("cd '" + dest.string() + "' && cmake --preset default");
  CHECK_MESSAGE(configured.exit_code == 0, configured.output);
  fs::remove_all(dest / "build" / "bin");
  fs::create_directories(dest / "build");
  fs::create_directory_symlink(fs::path(KIT_BIN_DIR), dest / "build" / "bin");
  const std::string env = "KIT_ROOT='" + dest.string() + "'";

  std::vector<std::pair<fs::path, std::string>> readmes{{dest / "README.md", "release README.md"}};
  for (const auto& lab : fs::directory_iterator(dest / "labs"))
    if (fs::exists(lab.path() / "README.md"))
      readmes.push_back({lab.path() / "README.md", "release labs/" + lab.path().filename().string() + "/README.md"});
  REQUIRE(readmes.size() == 9);
  for (const auto& [readme, shown_as] : readmes) check_paths(dest, readme, shown_as);

  // The release's Makefile: every target it offers plans (make -n), none needs what the release lacks.
  for (const char* target : {"all", "setup", "build", "demo", "check", "clean"}) {
    const auto plan = test::run_command("make -n -C '" + dest.string() + "' " + target);
    CHECK_MESSAGE(plan.exit_code == 0, "make -n " << target << ": " << plan.output);
  }
  for (const auto& [readme, shown_as] : readmes) test::docs::run_commands(dest, readme, shown_as, env, test::docs::Scope::release);
  // What the release says is true in it: no lab program offers an option that needs solutions/, and
  // a README paragraph that speaks of the solution's kernel or offers such an option says it is the
  // full kit's alone.
  for (const auto& lab : fs::directory_iterator(dest / "labs")) {
    const std::string name = lab.path().filename().string();
    if (!fs::exists(fs::path(KIT_BIN_DIR) / name)) continue;
    const auto help = test::run_command("cd '" + dest.string() + "' && " + env + " build/bin/" + name + " --help");
    CAPTURE(name);
    CHECK(help.output.find("--solution") == std::string::npos);
    CHECK(help.output.find("--vs-solution") == std::string::npos);
  }
  for (const auto& [readme, shown_as] : readmes) {
    std::istringstream in(test::read(readme));
    std::string paragraph, line;
    const auto judge = [&] {
      const bool claims = paragraph.find("--solution") != std::string::npos || paragraph.find("--vs-solution") != std::string::npos ||
                          paragraph.find("course solution's") != std::string::npos;
      const bool qualified = paragraph.find("full kit") != std::string::npos || paragraph.find("kit only") != std::string::npos;
      CHECK_MESSAGE(!(claims && !qualified), shown_as << ": a paragraph offers the solution without saying it is the full kit's: " << paragraph);
      paragraph.clear();
    };
    while (std::getline(in, line)) {
      if (line.find_first_not_of(" \t") == std::string::npos) judge();
      else paragraph += line + "\n";
    }
    judge();
  }
  // Nothing a command ran touched the starters: the release still scores 0.
  const auto after = test::run_command("cd '" + dest.string() + "' && " + env + " build/bin/grader check 01");
  CHECK(after.output.find("Not all visible cases pass: 0 / ") != std::string::npos);
}
