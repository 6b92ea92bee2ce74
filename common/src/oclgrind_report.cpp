#include "kit/oclgrind_report.hpp"

#include <map>
#include <regex>
#include <sstream>
#include <tuple>

#include "kit/program.hpp"

namespace kit {
namespace {

std::string kind_of(const std::string& title) {
  if (title.find("data race") != std::string::npos) return "data-race";
  if (title.find("divergence") != std::string::npos) return "barrier-divergence";
  if (title.rfind("Invalid", 0) == 0) return "invalid-access";
  if (title.find("ninitialized") != std::string::npos) return "uninitialized";
  return "other";
}

// "Global(1,0,0) Local(1,0,0) Group(0,0,0)" -> "work-item 1 of work-group 0" (the kit's labs are 1D).
std::string plain_work_item(const std::string& entity) {
  static const std::regex ids(R"(Local\((\d+),(\d+),(\d+)\) Group\((\d+),(\d+),(\d+)\))");
  std::smatch m;
  if (!std::regex_search(entity, m, ids)) return entity.empty() ? "a work-item" : entity;
  const bool one_d = m[2] == "0" && m[3] == "0" && m[5] == "0" && m[6] == "0";
  if (one_d) return "work-item " + m[1].str() + " of work-group " + m[4].str();
  return "work-item (" + m[1].str() + "," + m[2].str() + "," + m[3].str() + ") of work-group (" + m[4].str() + "," +
         m[5].str() + "," + m[6].str() + ")";
}

std::string lower_first(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = char(s[0] - 'A' + 'a');
  return s;
}

}  // namespace

std::vector<OclgrindFinding> parse_oclgrind(const std::string& output) {
  static const std::regex address(R"( address 0x[0-9a-fA-F]+)");
  static const std::regex entity(R"(^\t(?:First entity|Second entity|Entity|Work-item):\s*(.*)$)");
  static const std::regex at(R"(^\tAt line (\d+) \(column (\d+)\))");
  static const std::regex kernel(R"(^\tKernel:\s*(\S+))"), group(R"(^\tWork-group:\s*(\(\d+,\d+,\d+\)))");
  static const std::regex only(R"(^\tOnly (\d+) out of (\d+) work-items executed barrier)");
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) lines.push_back(line);

  std::vector<OclgrindFinding> findings;
  std::map<std::tuple<std::string, std::vector<std::pair<int, int>>>, std::size_t> seen;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    // A report: an unindented line, then an indented "Kernel:" line.
    if (lines[i].empty() || lines[i][0] == '\t' || i + 1 >= lines.size() || lines[i + 1].rfind("\tKernel:", 0) != 0) continue;
    OclgrindFinding f;
    f.title = std::regex_replace(lines[i], address, "");
    if (std::smatch a; std::regex_search(lines[i], a, address)) f.address = std::stoull(a.str().substr(9), nullptr, 16);
    f.kind = kind_of(f.title);
    std::size_t j = i + 1;
    bool previous = false;  // divergence reports end with "Previous work-items executed:" and its position
    for (; j < lines.size() && (lines[j].empty() || lines[j][0] == '\t'); ++j) {
      std::smatch m;
      if (std::regex_match(lines[j], m, entity)) f.sites.push_back({m[1].str(), 0, 0, ""});
      else if (std::regex_search(lines[j], m, kernel)) f.kernel = m[1].str();
      else if (std::regex_search(lines[j], m, group)) f.work_group = m[1].str();
      else if (std::regex_search(lines[j], m, only)) f.sites.push_back({"only " + m[1].str() + " of the " + m[2].str() + " work-items", 0, 0, ""});
      else if (lines[j].find("Previous work-items executed") != std::string::npos) {
        f.sites.push_back({"the work-items before it", 0, 0, ""});
        previous = true;
      } else if (!f.sites.empty() && f.sites.back().line == 0 && f.sites.back().instruction.empty() &&
                 lines[j].rfind("\t  ", 0) == 0 && lines[j].find('%') != std::string::npos) {
        f.sites.back().instruction = lines[j].substr(lines[j].find_first_not_of(" \t"));
      } else if (std::regex_search(lines[j], m, at) && !f.sites.empty() && f.sites.back().line == 0) {
        f.sites.back().line = std::stoi(m[1]);
        f.sites.back().column = std::stoi(m[2]);
      }
    }
    (void)previous;
    std::vector<std::pair<int, int>> positions;
    for (const auto& s : f.sites) positions.emplace_back(s.line, s.column);
    const auto key = std::make_tuple(f.title, positions);
    if (const auto it = seen.find(key); it != seen.end()) ++findings[it->second].count;
    else {
      seen[key] = findings.size();
      findings.push_back(f);
    }
    i = j - 1;
  }
  return findings;
}

bool same_place(const OclgrindFinding& a, const OclgrindFinding& b) {
  if (a.title != b.title || a.kernel != b.kernel || a.sites.size() != b.sites.size()) return false;
  for (std::size_t i = 0; i < a.sites.size(); ++i)
    if (a.sites[i].line != b.sites[i].line || a.sites[i].column != b.sites[i].column) return false;
  return true;
}

void add_finding(std::vector<OclgrindFinding>& into, OclgrindFinding f, int count) {
  for (OclgrindFinding& g : into)
    if (same_place(g, f)) {
      g.count += count;
      return;
    }
  f.count = count;
  into.push_back(std::move(f));
}

std::string source_line(const std::string& source, int line) {
  std::istringstream in(editor_text(source));  // lines as the compiler counted them
  std::string text;
  for (int n = 1; std::getline(in, text); ++n)
    if (n == line) {
      const auto first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t\r");
      return first == std::string::npos ? "" : text.substr(first, last - first + 1);
    }
  return "";
}

std::string describe(const OclgrindFinding& f, const std::string& source, const std::string& shown_as) {
  const auto where = [&](const OclgrindSite& s) {
    std::string text = plain_work_item(s.work_item);
    if (s.line > 0) {
      text += " at " + shown_as + ":" + std::to_string(s.line) + ":" + std::to_string(s.column);
      const std::string code = source_line(source, s.line);
      if (!code.empty()) text += " `" + code + "`";
    }
    return text;
  };
  std::string title = lower_first(f.title);
  if (const auto at = title.find(" at "); at != std::string::npos && f.kind == "data-race")
    title = title.substr(0, at) + " in " + title.substr(at + 4);  // "... data race in local memory"
  // A file of several kernels (lab 04's rungs): the finding names the kernel it was found in.
  if (!f.kernel.empty() && f.kind != "barrier-divergence") title += " (kernel " + f.kernel + ")";
  std::string text = title + ": ";
  const std::string in_kernel = f.kernel.empty() ? "" : "in kernel " + f.kernel + ", ";
  std::string of_group;  // " of work-group 0" (the kit's labs are 1D)
  static const std::regex one_d(R"(\((\d+),0,0\))");
  std::smatch g;
  if (std::regex_match(f.work_group, g, one_d)) of_group = " of work-group " + g[1].str();
  else if (!f.work_group.empty()) of_group = " of work-group " + f.work_group;
  static const std::regex group(R"(Group\((\d+,\d+,\d+)\))");
  std::smatch a, b;
  const bool across_groups = f.sites.size() >= 2 && std::regex_search(f.sites[0].work_item, a, group) &&
                             std::regex_search(f.sites[1].work_item, b, group) && a[1] != b[1];
  if (f.kind == "data-race" && across_groups)
    text += where(f.sites[0]) + " and " + where(f.sites[1]) + " touch the same element, and no barrier orders two work-groups";
  else if (f.kind == "data-race" && f.sites.size() >= 2)
    text += where(f.sites[0]) + " and " + where(f.sites[1]) + " touch the same element with no barrier between them";
  else if (f.kind == "barrier-divergence" && f.sites.size() >= 2)
    text += in_kernel + where(f.sites[0]) + " reached a different barrier from " + where(f.sites[1]) +
            ": every work-item of a work-group must reach the same barriers";
  else if (f.kind == "barrier-divergence" && f.sites.size() == 1 && f.sites[0].work_item.rfind("only ", 0) == 0)
    text += in_kernel + f.sites[0].work_item + of_group + " reached the barrier" +
            (f.sites[0].line > 0 ? " at " + shown_as + ":" + std::to_string(f.sites[0].line) + ":" + std::to_string(f.sites[0].column) +
                                       (source_line(source, f.sites[0].line).empty() ? "" : " `" + source_line(source, f.sites[0].line) + "`")
                                 : std::string()) +
            ": every work-item of a work-group must reach the same barriers";
  else if (!f.sites.empty())
    text += where(f.sites[0]);
  if (f.count > 1) text += " (" + std::to_string(f.count) + " reports like it)";
  return text;
}

}  // namespace kit
