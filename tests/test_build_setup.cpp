// The kit's CMake set-up: ccache as the compiler launcher, its base directory the kit's folder (a
// copy or a release built elsewhere hashes the same paths), and left out where it cannot compile.
#include <doctest/doctest.h>

#include "kit/paths.hpp"
#include "support.hpp"

namespace {

// The kit configured into `build` (no tests: only the set-up is read) with `environment` before
// cmake; its output.
test::Command configure(const std::filesystem::path& build, const std::string& environment) {
  return test::run_command(environment + " cmake -S '" + kit::root().string() + "' -B '" + build.string() +
                           "' -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF 2>&1");
}

}  // namespace

TEST_CASE("CMake compiles through ccache with the kit's folder as its base directory, and leaves ccache out, saying why, where it cannot compile") {
  REQUIRE_MESSAGE(test::run_command("command -v ccache").exit_code == 0, "ccache is not installed: scripts/setup.sh installs it");
  const test::TempDir dir;
  // A writable cache of its own: the launcher is ccache, its base directory the kit's folder.
  const test::Command usable = configure(dir / "usable", "CCACHE_DIR='" + (dir / "cache").string() + "'");
  REQUIRE_MESSAGE(usable.exit_code == 0, usable.output);
  const std::string rules = test::read(dir / "usable/common/CMakeFiles/kit.dir/build.make");
  CHECK_MESSAGE(rules.find("CCACHE_BASEDIR=" + kit::root().string() + " ") != std::string::npos, rules.substr(0, 3000));
  CHECK(usable.output.find("ccache left out") == std::string::npos);
  // A cache folder that cannot be made (under a file): ccache would stop every compilation.
  const test::Command unusable = configure(dir / "unusable", "CCACHE_DIR=/dev/null/ccache");
  REQUIRE_MESSAGE(unusable.exit_code == 0, unusable.output);
  CHECK_MESSAGE(unusable.output.find("ccache left out: it cannot compile here (") != std::string::npos, unusable.output);
  CHECK(test::read(dir / "unusable/common/CMakeFiles/kit.dir/build.make").find("ccache") == std::string::npos);
}
