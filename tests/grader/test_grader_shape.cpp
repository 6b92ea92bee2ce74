// The grader's shape, kept: small files, short functions, the pipeline's stages as folders, and
// the labs using only the grader's public lab API (grader/include/grader/lab/).
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "kit/paths.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> sources_under(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".cpp" || e.path().extension() == ".hpp")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The line without its // comment, string and character literals (so their braces do not count).
std::string code_of(const std::string& line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
    if (c == '"' || c == '\'') {
      for (++i; i < line.size() && line[i] != c; ++i)
        if (line[i] == '\\') ++i;
      out += "..";
      continue;
    }
    out += c;
  }
  return out;
}

struct LongFunction {
  std::size_t line, length;
};

// Function bodies longer than `most` lines: a body opens on a line that ends a parameter list with
// "{" (not a control statement or a lambda) and closes at its matching brace.
std::vector<LongFunction> long_functions(const std::vector<std::string>& lines, std::size_t most) {
  static const std::regex opens(R"(\)\s*(const)?\s*(override)?\s*(noexcept)?\s*(->\s*[\w:<>]+)?\s*\{\s*$)");
  static const std::regex control(R"(^\s*(\}\s*)?(if|for|while|switch|else|catch|do)\b)");
  static const std::regex lambda(R"(\]\s*\(|=\s*\[)");
  std::vector<LongFunction> found;
  int depth = 0, start_depth = 0;
  std::size_t start = 0;
  bool inside = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string code = code_of(lines[i]);
    if (!inside && std::regex_search(code, opens) && !std::regex_search(code, control) && !std::regex_search(code, lambda)) {
      inside = true;
      start = i;
      start_depth = depth;
    }
    for (char c : code) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (inside && depth <= start_depth) {
      if (i - start + 1 > most) found.push_back({start + 1, i - start + 1});
      inside = false;
    }
  }
  return found;
}

}  // namespace

TEST_CASE("the grader's source shows its pipeline: one folder per stage under grader/src") {
  std::set<std::string> stages;
  for (const auto& e : fs::directory_iterator(kit::root() / "grader" / "src"))
    if (e.is_directory()) stages.insert(e.path().filename().string());
  const std::set<std::string> expected = {"batch", "cli", "core", "draw", "export", "intake", "isolation",
                                          "judge", "oclgrind", "spec", "term", "tools"};
  CHECK(stages == expected);
  // Every stage is described in grader/src/README.md, and nothing but folders and it lies there.
  const std::vector<std::string> readme = lines_of(kit::root() / "grader" / "src" / "README.md");
  std::string text;
  for (const std::string& l : readme) text += l + "\n";
  for (const std::string& stage : expected) CHECK_MESSAGE(text.find("`" + stage + "/`") != std::string::npos, stage);
  for (const auto& e : fs::directory_iterator(kit::root() / "grader" / "src"))
    CHECK_MESSAGE((e.is_directory() || e.path().filename() == "README.md"), e.path().string());
}

TEST_CASE("no grader file is over 400 lines and no grader function over 80") {
  std::size_t files = 0;
  for (const fs::path& file : sources_under(kit::root() / "grader")) {
    const std::vector<std::string> lines = lines_of(file);
    const std::string where = fs::relative(file, kit::root()).string();
    CHECK_MESSAGE(lines.size() <= 400, where << ": " << lines.size() << " lines");
    for (const LongFunction& f : long_functions(lines, 80)) FAIL_CHECK(where << ":" << f.line << ": a function of " << f.length << " lines");
    ++files;
  }
  CHECK(files > 50);
}

TEST_CASE("the long-function scan finds a long function and passes a long lambda or control block inside a short one") {
  std::vector<std::string> lines = {"int f(int x) {"};
  for (int i = 0; i < 90; ++i) lines.push_back("  x += 1;  // {");
  lines.push_back("}");
  const auto found = long_functions(lines, 80);
  REQUIRE(found.size() == 1);
  CHECK(found[0].line == 1);
  CHECK(found[0].length == 92);
  CHECK(long_functions(lines, 100).empty());
  lines[0] = "  if (x > 0) {";
  CHECK(long_functions(lines, 80).empty());
}

TEST_CASE("the labs' code includes only the grader's public lab API, and it includes no grader internals") {
  // Every header under grader/src, by the path the grader includes it with ("judge/grade.hpp").
  std::set<std::string> internals;
  const fs::path src = kit::root() / "grader" / "src";
  for (const fs::path& file : sources_under(src))
    if (file.extension() == ".hpp") internals.insert(fs::relative(file, src).string());
  REQUIRE(internals.count("judge/grade.hpp") == 1);
  static const std::regex include(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::size_t includes = 0;
  // The labs' programs and adapters; their own tests (test_*.cpp) may reach into the grader, as
  // tests/grader/ does.
  std::vector<fs::path> files;
  for (const fs::path& f : sources_under(kit::root() / "labs"))
    if (f.filename().string().rfind("test_", 0) != 0) files.push_back(f);
  for (const fs::path& f : sources_under(kit::root() / "grader" / "include")) files.push_back(f);
  for (const fs::path& file : files)
    for (const std::string& line : lines_of(file)) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      ++includes;
      const std::string name = m[1];
      const std::string where = fs::relative(file, kit::root()).string() + " includes " + name;
      CHECK_MESSAGE(internals.count(name) == 0, where);
      const bool lab_api = name.rfind("grader/", 0) == 0;
      if (lab_api) CHECK_MESSAGE(fs::exists(kit::root() / "grader" / "include" / name), where);
    }
  CHECK(includes > 20);
}
