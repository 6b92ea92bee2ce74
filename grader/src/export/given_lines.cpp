// A student release checked for other labs' solution lines its starters hand out (release.hpp).
#include <algorithm>
#include <array>
#include <sstream>
#include <map>

#include "export/release.hpp"
#include "kit/program.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

struct Line {
  std::size_t number;  // 1-based, in its file
  std::string text;    // trimmed
};

// A kernel file's telling lines, split into what the file gives (outside its regions) and each
// region's body ("// student: NAME" ... "// student-end").
struct KernelLines {
  std::vector<Line> given;
  std::map<std::string, std::vector<Line>> regions;
};

std::string trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t\r"), last = line.find_last_not_of(" \t\r");
  return first == std::string::npos ? "" : line.substr(first, last - first + 1);
}

bool telling(const std::string& line) {
  if (line.empty() || line.rfind("//", 0) == 0 || line.rfind("/*", 0) == 0 || line.rfind("*", 0) == 0) return false;
  const auto visible = std::count_if(line.begin(), line.end(), [](char c) { return c != ' ' && c != '\t'; });
  return visible >= 8 && line.find_first_not_of("{}();,[] ") != std::string::npos;
}

KernelLines read_kernel(const fs::path& file) {
  KernelLines k;
  std::istringstream in(kit::editor_text(kit::read_text_file(file)));  // lines as an editor counts them; throws naming a file it cannot read
  std::string region;
  std::size_t number = 0;
  for (std::string raw; std::getline(in, raw);) {
    const std::string t = trimmed(raw);
    ++number;
    if (t.rfind("// student: ", 0) == 0) region = t.substr(12);
    else if (t == "// student-end") region.clear();
    else if (telling(t)) (region.empty() ? k.given : k.regions[region]).push_back({number, t});
  }
  return k;
}

std::vector<fs::path> kernels_in(const fs::path& dir) {
  std::vector<fs::path> files;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".cl") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

constexpr std::size_t kShortestRun = 3;

// Runs of kShortestRun or more lines of `given` that stand in the same order in `secret`, each as
// {start in given, start in secret, length}; lines in `public_lines` break a run.
std::vector<std::array<std::size_t, 3>> common_runs(const std::vector<Line>& given, const std::vector<Line>& secret,
                                                   const std::vector<std::string>& public_lines) {
  std::vector<std::array<std::size_t, 3>> runs;
  const auto is_public = [&](const std::string& t) { return std::find(public_lines.begin(), public_lines.end(), t) != public_lines.end(); };
  for (std::size_t i = 0; i < given.size(); ++i)
    for (std::size_t j = 0; j < secret.size(); ++j) {
      if (i > 0 && j > 0 && given[i - 1].text == secret[j - 1].text && !is_public(secret[j - 1].text)) continue;  // inside a run
      std::size_t n = 0;
      while (i + n < given.size() && j + n < secret.size() && given[i + n].text == secret[j + n].text && !is_public(secret[j + n].text)) ++n;
      if (n >= kShortestRun) runs.push_back({i, j, n});
    }
  return runs;
}

}  // namespace

std::vector<std::string> given_solution_lines(const fs::path& labs_dir, const fs::path& solutions_dir,
                                              const std::vector<std::string>& released) {
  std::vector<std::string> found;
  std::vector<std::string> labs;  // every lab with a solution, released or not
  for (const auto& e : fs::directory_iterator(solutions_dir))
    if (e.is_directory()) labs.push_back(e.path().filename().string());
  std::sort(labs.begin(), labs.end());
  for (const std::string& lab : released)
    for (const fs::path& starter : kernels_in(labs_dir / lab)) {
      const KernelLines mine = read_kernel(starter);
      for (const std::string& other : labs) {
        if (other == lab) continue;  // a starter gives its own lab's frame, never its regions' bodies
        std::vector<std::string> public_lines;  // what the other lab's own starter gives anyway
        for (const fs::path& s : kernels_in(labs_dir / other))
          for (const Line& l : read_kernel(s).given) public_lines.push_back(l.text);
        for (const fs::path& solution : kernels_in(solutions_dir / other))
          for (const auto& [region, body] : read_kernel(solution).regions)
            for (const auto& [i, j, n] : common_runs(mine.given, body, public_lines))
              found.push_back((fs::path("labs") / lab / starter.filename()).string() + ":" + std::to_string(mine.given[i].number) + "-" +
                              std::to_string(mine.given[i + n - 1].number) + " hands out lines " + std::to_string(body[j].number) +
                              "-" + std::to_string(body[j + n - 1].number) + " of " +
                              (fs::path("solutions") / other / solution.filename()).string() + " (region " + region + " of lab " +
                              other + ", which its students write)");
      }
    }
  return found;
}

}  // namespace grader
