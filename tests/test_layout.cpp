// The kit's layout promises: solutions/ mirrors the kernels of labs/ file for file, and every lab
// folder is registered by its own kit_add_lab() call.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <vector>

#include "grader/lab/driver.hpp"

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
  std::vector<std::filesystem::path> files;
  for (const char* dir : {"tests", "labs"})  // a lab's own tests live in its folder
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kit::root() / dir))
      if (entry.path().extension() == ".cpp") files.push_back(entry.path());
  for (const auto& path : files) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
      const auto at = line.find("TEST_CASE(\"");
      if (at == std::string::npos || at != line.find_first_not_of(' ')) continue;
      ++checked;
      const std::string name = line.substr(at + 11, line.find('"', at + 11) - at - 11);
      const std::string where = path.filename().string() + ": " + name;
      CHECK_MESSAGE(name.find(';') == std::string::npos, where);
    }
  }
  CHECK(checked > 50);
}

TEST_CASE("every lab folder registers itself with kit_add_lab, has a grading spec, and the grader knows it") {
  // Adding a lab is one folder labs/NN-name/ (its CMakeLists.txt calls kit_add_lab), its solution
  // and its spec: the grader's registry is made from the kit_add_lab calls, nothing else lists labs.
  std::vector<std::string> folders;
  for (const auto& entry : std::filesystem::directory_iterator(kit::root() / "labs"))
    if (entry.is_directory() && std::isdigit(static_cast<unsigned char>(entry.path().filename().string()[0])))
      folders.push_back(entry.path().filename().string());
  std::sort(folders.begin(), folders.end());
  REQUIRE(folders.size() >= 8);
  std::vector<std::string> known;
  for (const auto& driver : grader::registered_lab_drivers()) known.push_back(driver->id());
  CHECK(known == folders);
  for (const std::string& folder : folders) {
    CAPTURE(folder);
    std::ifstream cmake(kit::root() / "labs" / folder / "CMakeLists.txt");
    const std::string text((std::istreambuf_iterator<char>(cmake)), std::istreambuf_iterator<char>());
    CHECK(text.find("kit_add_lab(") != std::string::npos);
    CHECK(std::filesystem::exists(kit::root() / "grader" / "specs" / (folder + ".json")));
    CHECK(std::filesystem::exists(kit::root() / "labs" / folder / "README.md"));
  }
}

namespace {
// A kernel file's lines, its "// student: NAME" regions emptied (the marker lines kept) and, when
// `drop_slides`, its "// slide" marker lines removed; `names` gets the region names in order and
// `bodies` their contents.
std::vector<std::string> outside_regions(const std::filesystem::path& file, bool drop_slides, std::vector<std::string>& names,
                                         std::vector<std::string>& bodies) {
  std::ifstream in(file);
  std::vector<std::string> kept;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    const std::string t = line.substr(std::min(line.size(), line.find_first_not_of(' ')));
    if (drop_slides && t.rfind("// slide", 0) == 0) continue;
    if (t.rfind("// student: ", 0) == 0) {
      const std::string where = file.string() + ": a student region opens inside another: " + line;
      CHECK_MESSAGE(!inside, where);
      inside = true;
      names.push_back(t.substr(12));
      bodies.emplace_back();
      kept.push_back(line);
    } else if (t == "// student-end") {
      const std::string where = file.string() + ": // student-end without a region: " + line;
      CHECK_MESSAGE(inside, where);
      inside = false;
      kept.push_back(line);
    } else if (inside) {
      bodies.back() += line + "\n";
    } else {
      kept.push_back(line);
    }
  }
  const std::string where = file.string() + ": a student region is never closed";
  CHECK_MESSAGE(!inside, where);
  return kept;
}
}  // namespace

TEST_CASE("every starter equals its solution outside the marked student regions") {
  // The regions ("// student: NAME" ... "// student-end", in both files) are what a student
  // writes: the starter's TODOs there, the finished code in the solution. Everything else must be
  // the same, line for line, so that a fix to a solution cannot silently miss its starter.
  std::size_t regions = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kit::root() / "labs")) {
    if (entry.path().extension() != ".cl") continue;
    const auto relative = std::filesystem::relative(entry.path(), kit::root() / "labs");
    CAPTURE(relative.string());
    std::vector<std::string> starter_names, solution_names, starter_bodies, solution_bodies;
    const auto starter = outside_regions(entry.path(), false, starter_names, starter_bodies);
    const auto solution = outside_regions(kit::root() / "solutions" / relative, true, solution_names, solution_bodies);
    CHECK(starter_names == solution_names);
    CHECK_FALSE(starter_names.empty());
    regions += starter_names.size();
    for (std::size_t i = 0; i < std::min(starter_bodies.size(), solution_bodies.size()); ++i) {
      const std::string same = "region " + starter_names[i] + " is the same in both: it marks nothing";
      CHECK_MESSAGE(starter_bodies[i] != solution_bodies[i], same);
    }
    for (std::size_t i = 0; i < std::max(starter.size(), solution.size()); ++i) {
      const std::string a = i < starter.size() ? starter[i] : "(end of file)", b = i < solution.size() ? solution[i] : "(end of file)";
      if (a != b) {
        FAIL_CHECK("outside the student regions, line " << i + 1 << " differs: starter '" << a << "', solution '" << b << "'");
        break;
      }
    }
  }
  CHECK(regions >= 8);
}

TEST_CASE("every buffer a lab's host code makes comes from kit::make_buffer, which gives it the grader's guard bytes") {
  // A cl::Buffer constructed directly (cl::Buffer(...), cl::Buffer name(...), emplace_back(context, ...))
  // would have no guard past its end, and a kernel reading past it would read what the device left there.
  const std::regex direct(R"(cl::Buffer\s*(\w+\s*)?[({]\s*(\w+\.)?context|\bemplace_back\s*\(\s*(\w+\.)?context)");
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kit::root() / "labs")) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.rfind("test_", 0) == 0) continue;
    if (entry.path().extension() != ".cpp" && entry.path().extension() != ".hpp") continue;
    ++files;
    std::ifstream in(entry.path());
    int line_number = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_number;
      CHECK_MESSAGE(!std::regex_search(line, direct), entry.path().string() << ":" << line_number << ": " << line);
    }
  }
  CHECK(files > 10);
  // The pattern finds what it is for.
  CHECK(std::regex_search(std::string("cl::Buffer dA(rt.context, CL_MEM_READ_ONLY, bytes);"), direct));
  CHECK(std::regex_search(std::string("a_ = cl::Buffer(rt.context, flags, bytes);"), direct));
  CHECK(std::regex_search(std::string("buffers.emplace_back(rt.context, CL_MEM_READ_ONLY, bytes);"), direct));
  CHECK_FALSE(std::regex_search(std::string("cl::Buffer a_, b_;"), direct));
  CHECK_FALSE(std::regex_search(std::string("cl::Buffer buffer(cl_mem_flags flags, std::size_t bytes);"), direct));
}
