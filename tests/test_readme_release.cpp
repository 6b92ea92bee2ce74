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

#include <algorithm>
#include <cctype>
#include <chrono>
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

// Every README of the release in `tree` (its README.md and each lab's): the paths it names are
// there, every command it shows runs as it says under `env`, and what it says of the solution is
// true in a release. `label` tells the releases apart in messages; `labs` are the labs released.
void check_release_readmes(const fs::path& tree, const std::string& env, const std::string& label, const std::vector<std::string>& labs) {
  std::vector<std::pair<fs::path, std::string>> readmes{{tree / "README.md", label + " README.md"}};
  for (const std::string& lab : labs) {
    CHECK_MESSAGE(fs::exists(tree / "labs" / lab / "README.md"), label << " lacks labs/" << lab << "/README.md");
    if (fs::exists(tree / "labs" / lab / "README.md")) readmes.push_back({tree / "labs" / lab / "README.md", label + " labs/" + lab + "/README.md"});
  }
  std::size_t lab_folders = 0;
  for (const auto& lab : fs::directory_iterator(tree / "labs")) lab_folders += fs::exists(lab.path() / "README.md");
  CHECK_MESSAGE(lab_folders == labs.size(), label << " holds " << lab_folders << " lab folders with a README, not the " << labs.size() << " released");
  for (const auto& [readme, shown_as] : readmes) check_paths(tree, readme, shown_as);

  // The release's Makefile: every target it offers plans (make -n), none needs what the release lacks.
  for (const char* target : {"all", "setup", "build", "demo", "check", "doctor", "clean"}) {
    const auto plan = test::run_command("make -n -C '" + tree.string() + "' " + target);
    CHECK_MESSAGE(plan.exit_code == 0, label << ": make -n " << target << ": " << plan.output);
  }
  for (const auto& [readme, shown_as] : readmes) test::docs::run_commands(tree, readme, shown_as, env, test::docs::Scope::release);
  // What the release says is true in it: no lab program offers an option that needs solutions/, and
  // a README paragraph that speaks of the solution's kernel or offers such an option says it is the
  // full kit's alone.
  for (const std::string& name : labs) {
    const auto help = test::run_command("cd '" + tree.string() + "' && " + env + " build/bin/" + name + " --help");
    CAPTURE(name);
    CHECK_MESSAGE(help.exit_code == 0, label << ": build/bin/" << name << " --help: " << help.output);
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
  const auto after = test::run_command("cd '" + tree.string() + "' && " + env + " build/bin/grader check " + labs.front().substr(0, 2));
  CHECK_MESSAGE(after.output.find("Not all visible cases pass: 0 / ") != std::string::npos, label << ": " << after.output);
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
  const auto labs = test::kit_labs(true);  // every lab, counted from the tree
  REQUIRE_FALSE(labs.empty());
  check_release_readmes(dest, "KIT_ROOT='" + dest.string() + "'", "release", labs);
}

TEST_CASE("student releases of some labs: each builds with its own make build, and its READMEs' commands run as they say") {
  // Lab 03 alone (labs/shared/ is released without labs 01 and 02) and labs 06 and 08 (a pair
  // without labs 01 and 02, and lab 08's program links lab 06's host library). A release build is a whole
  // CMake build, minutes from clean on two cores; so each release's files are laid, in turn, in one
  // folder `tree` whose build/ stays: the first `make build` is from clean, each later one
  // compiles what differs (the grader's batch with the lab adapters, the new labs' code) and
  // links everything again, as a student's second `make build` would. The files of `tree` are
  // exactly the release's (all else but build/ is removed first); a lab program that an earlier
  // release built is removed from build/bin, so only what this release builds is there.
  test::TempDir dir;
  const fs::path tree = dir / "tree";
  fs::create_directories(tree);
  for (const std::string set : {"03", "06,08"}) {
    CAPTURE(set);
    std::string label = "release LABS=" + set, name = set;
    std::replace(name.begin(), name.end(), ',', '-');
    const fs::path dest = dir / ("release-" + name);
    const auto made = test::run_command("LABS=" + set + " " + test::kit_path("scripts/student-release.sh") + " '" + dest.string() + "' 2>&1");
    REQUIRE_MESSAGE(made.exit_code == 0, made.output);
    std::vector<std::string> labs;
    for (const auto& spec : fs::directory_iterator(dest / "grader" / "specs")) labs.push_back(spec.path().stem().string());
    std::sort(labs.begin(), labs.end());
    REQUIRE(labs.size() == std::size_t(std::count(set.begin(), set.end(), ',') + 1));

    for (const auto& e : fs::directory_iterator(tree))
      if (e.path().filename() != "build") fs::remove_all(e.path());
    const auto laid = test::run_command("cp -a '" + dest.string() + "/.' '" + tree.string() + "/' 2>&1");  // -a: times kept, so make sees what changed
    REQUIRE_MESSAGE(laid.exit_code == 0, laid.output);
    if (fs::exists(tree / "build" / "bin"))
      for (const auto& e : fs::directory_iterator(tree / "build" / "bin")) {
        const std::string program = e.path().filename().string();
        const bool lab_program = program.size() > 3 && std::isdigit(static_cast<unsigned char>(program[0])) && program[2] == '-';
        if (lab_program && std::find(labs.begin(), labs.end(), program) == labs.end()) fs::remove(e.path());
      }
    const auto start = std::chrono::steady_clock::now();
    const auto built = test::run_command("make -C '" + tree.string() + "' -o setup build JOBS=2 2>&1");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE_MESSAGE(built.exit_code == 0, label << ": make build fails:\n" << built.output.substr(built.output.size() > 6000 ? built.output.size() - 6000 : 0));
    std::cout << label << ": make build " << seconds << " s, load average before it ended " << test::read("/proc/loadavg");
    for (const std::string& lab : labs) CHECK_MESSAGE(fs::exists(tree / "build" / "bin" / lab), label << " built no build/bin/" << lab);

    // Each release is checked in a folder of its own name (a link to `tree`), so that the READMEs'
    // commands, which run once per tree, run again in every release.
    const fs::path view = dir / ("as-" + name);
    fs::create_directory_symlink(tree, view);
    check_release_readmes(view, "KIT_ROOT='" + view.string() + "'", label, labs);
  }
}
