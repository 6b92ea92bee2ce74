// What a starter's student regions say: every region says in words what belongs in it, no region
// marker cuts a comment in two, and no TODO spells a statement of the solution (the TODO states the
// goal and the invariant to keep; the lab's README carries the reasoning).
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kit/paths.hpp"

namespace {

namespace fs = std::filesystem;

struct KernelFile {
  fs::path path;                   // relative to the kit's root, for messages
  std::vector<std::string> lines;  // trimmed
};

struct Region {
  std::string name;
  std::size_t first = 0;             // 1-based line of the "// student: NAME" marker
  std::vector<std::size_t> body;     // 0-based indices of its lines
};

std::string todo_trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r"), last = line.find_last_not_of(" \t\r");
  return first == std::string::npos ? "" : line.substr(first, last - first + 1);
}

KernelFile read_kernel(const fs::path& relative) {
  KernelFile k{relative, {}};
  std::ifstream in(kit::root() / relative);
  for (std::string line; std::getline(in, line);) k.lines.push_back(todo_trimmed(line));
  return k;
}

bool is_comment(const std::string& t) { return t.rfind("//", 0) == 0; }
bool is_student_marker(const std::string& t) { return t.rfind("// student: ", 0) == 0 || t == "// student-end"; }
bool is_marker(const std::string& t) { return is_student_marker(t) || t.rfind("// slide: ", 0) == 0 || t == "// slide-end"; }

std::vector<Region> regions_of(const KernelFile& k) {
  std::vector<Region> found;
  bool inside = false;
  for (std::size_t i = 0; i < k.lines.size(); ++i) {
    const std::string& t = k.lines[i];
    if (t.rfind("// student: ", 0) == 0) {
      found.push_back({t.substr(12), i + 1, {}});
      inside = true;
    } else if (t == "// student-end") {
      inside = false;
    } else if (inside && !is_marker(t)) {
      found.back().body.push_back(i);
    }
  }
  return found;
}

// Every starter under labs/ with its solution under solutions/, paths relative to the kit's root.
std::vector<std::pair<KernelFile, KernelFile>> starters_and_solutions() {
  std::vector<std::pair<KernelFile, KernelFile>> all;
  for (const auto& entry : fs::recursive_directory_iterator(kit::root() / "labs")) {
    if (entry.path().extension() != ".cl") continue;
    const fs::path relative = fs::relative(entry.path(), kit::root() / "labs");
    all.emplace_back(read_kernel("labs" / relative), read_kernel("solutions" / relative));
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first.path < b.first.path; });
  return all;
}

// Runs of blanks to one space; the text after "//" of a comment line.
std::string normalised(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == ' ' || c == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  return todo_trimmed(out);
}

// A code line as a statement: its trailing comment, its closing ';' and braces cut; "" when what
// is left is too short to be telling ("{", "}", "++i", "do").
std::string statement_of(const std::string& code_line) {
  std::string s = code_line.substr(0, code_line.find("//"));
  s = normalised(s);
  while (!s.empty() && (s.back() == ';' || s.back() == '{' || s.back() == '}' || s.back() == ' ')) s.pop_back();
  while (!s.empty() && (s.front() == '{' || s.front() == '}' || s.front() == ' ')) s.erase(0, 1);
  std::size_t visible = 0;
  for (char c : s) visible += c != ' ';
  return visible >= 6 ? s : "";
}

}  // namespace

TEST_CASE("every student region of a starter says in words what belongs in it") {
  std::size_t regions = 0;
  for (const auto& [starter, solution] : starters_and_solutions()) {
    for (const Region& r : regions_of(starter)) {
      ++regions;
      bool words = false;
      for (std::size_t i : r.body) {
        const std::string& t = starter.lines[i];
        words = words || (is_comment(t) && std::any_of(t.begin() + 2, t.end(), [](unsigned char c) { return std::isalpha(c); }));
      }
      const std::string where = starter.path.string() + ":" + std::to_string(r.first) + ": region " + r.name +
                                " has no comment saying what belongs in it";
      CHECK_MESSAGE(words, where);
    }
  }
  CHECK(regions >= 8);
}

TEST_CASE("no student region marker sits inside a comment, in a starter or its solution") {
  // A marker with comment lines right above and right below it (other markers skipped) cuts one
  // comment in two: the reader of the released starter sees a sentence broken by a marker, and a
  // student who edits the region edits half a comment.
  std::size_t markers = 0;
  for (const auto& [starter, solution] : starters_and_solutions())
    for (const KernelFile* k : {&starter, &solution})
      for (std::size_t i = 0; i < k->lines.size(); ++i) {
        if (!is_student_marker(k->lines[i])) continue;
        ++markers;
        std::size_t above = i, below = i;
        while (above > 0 && is_marker(k->lines[above - 1])) --above;
        while (below + 1 < k->lines.size() && is_marker(k->lines[below + 1])) ++below;
        const bool split = above > 0 && below + 1 < k->lines.size() && is_comment(k->lines[above - 1]) && is_comment(k->lines[below + 1]);
        const std::string where = k->path.string() + ":" + std::to_string(i + 1) + ": '" + k->lines[i] + "' splits the comment '" +
                                  (above > 0 ? k->lines[above - 1] : "") + "' / '" + (below + 1 < k->lines.size() ? k->lines[below + 1] : "") + "'";
        CHECK_MESSAGE(!split, where);
      }
  CHECK(markers >= 16);
}

TEST_CASE("no TODO of a starter spells a statement of its solution's regions") {
  // The solution's region lines, whitespace-normalised and cut of their ';', must not stand in the
  // starter's region comments: the TODO states the goal and the invariant, the student writes the
  // line. A statement the starter's given code (outside its regions) already shows hands out nothing.
  std::size_t statements = 0;
  for (const auto& [starter, solution] : starters_and_solutions()) {
    std::string given_code;
    const auto starter_regions = regions_of(starter);
    std::vector<bool> in_region(starter.lines.size(), false);
    for (const Region& r : starter_regions)
      for (std::size_t i : r.body) in_region[i] = true;
    for (std::size_t i = 0; i < starter.lines.size(); ++i)
      if (!in_region[i] && !is_comment(starter.lines[i])) given_code += " " + normalised(starter.lines[i]);
    for (const Region& region : regions_of(solution))
      for (std::size_t j : region.body) {
        const std::string& line = solution.lines[j];
        if (is_comment(line)) continue;
        const std::string s = statement_of(line);
        if (s.empty() || given_code.find(s) != std::string::npos) continue;
        ++statements;
        for (const Region& r : starter_regions) {
          std::string todo;  // the region's comments as one text: a statement may run over two lines
          for (std::size_t i : r.body)
            if (is_comment(starter.lines[i])) todo += " " + starter.lines[i].substr(2);
          if (normalised(todo).find(s) != std::string::npos) {
            const std::string where = starter.path.string() + ":" + std::to_string(r.first) + " (region " + r.name +
                                      ") spells '" + s + "', line " + std::to_string(j + 1) + " of " + solution.path.string();
            FAIL_CHECK(where);
          }
        }
      }
  }
  CHECK(statements >= 40);
}
