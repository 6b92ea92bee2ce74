// The kit's layout promises: solutions/ mirrors the kernels of labs/ file for file.
#include <doctest/doctest.h>

#include <fstream>
#include <set>

#include "kit/paths.hpp"

namespace {
std::set<std::string> kernels_under(const std::filesystem::path& dir) {
  std::set<std::string> found;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.path().extension() == ".cl") found.insert(std::filesystem::relative(entry.path(), dir).string());
  return found;
}
}  // namespace

TEST_CASE("every lab kernel has a solution with the same path, and nothing else is in solutions/") {
  const auto labs = kernels_under(kit::root() / "labs");
  const auto solutions = kernels_under(kit::root() / "solutions");
  CHECK_FALSE(labs.empty());
  CHECK(labs == solutions);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kit::root() / "solutions"))
    if (entry.is_regular_file()) CHECK_MESSAGE(entry.path().extension() == ".cl", entry.path().string());
}

TEST_CASE("no test name holds a semicolon, which ctest's discovery would split into tests that run nothing") {
  int checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kit::root() / "tests")) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      const auto at = line.find("TEST_CASE(\"");
      if (at == std::string::npos || at != line.find_first_not_of(' ')) continue;
      ++checked;
      const std::string name = line.substr(at + 11, line.find('"', at + 11) - at - 11);
      const std::string where = entry.path().filename().string() + ": " + name;
      CHECK_MESSAGE(name.find(';') == std::string::npos, where);
    }
  }
  CHECK(checked > 50);
}
