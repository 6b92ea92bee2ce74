#include "export/gradebook.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

namespace grader {

namespace {

const char* const kRemovedTitle = "spec removed from the specs folder";

// The first line of a message, cut to a length a spreadsheet cell shows.
std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line.size() > 120 ? line.substr(0, 117) + "..." : line;
}

// "late (2 days, -20%)" from the late penalty's line (term/late.cpp words it).
std::string late_phrase(const CaseResult& c) {
  static const std::regex words(R"(\((\d+) day\(s\) late\): (\d+)% of)");
  std::smatch m;
  if (!std::regex_search(c.message, m, words)) return "late (" + format_points(c.points) + " points)";
  return "late (" + m[1].str() + (m[1].str() == "1" ? " day" : " days") + ", -" + m[2].str() + "%)";
}

// "timed out (3 of 10 cases)" when any line ran past its limit; empty otherwise.
std::string timeout_phrase(const LabResult& r) {
  std::size_t timed_out = 0, lines = 0;
  for (const CaseResult& c : r.cases) {
    if (c.kind == CaseKind::Late || not_run_on_device(c)) continue;
    ++lines;
    timed_out += c.status == CaseStatus::Timeout;
  }
  if (!timed_out) return "";
  return "timed out (" + std::to_string(timed_out) + " of " + std::to_string(lines) + " cases)";
}

bool grader_error(const LabResult& r) {
  return r.status == LabStatus::Error ||
         std::any_of(r.cases.begin(), r.cases.end(), [](const CaseResult& c) { return c.status == CaseStatus::Error; });
}

}  // namespace

LabSpec removed_spec(const std::string& lab, const ResultMap& results) {
  LabSpec spec;
  spec.lab = lab;
  spec.title = kRemovedTitle;
  double max = 0;
  for (const auto& [key, r] : results)
    if (key.second == lab) max = std::max(max, r.max_points());
  spec.cases.push_back({"points of the removed spec", json::object(), max, true, 0});
  return spec;
}

bool spec_removed(const LabSpec& spec) { return spec.file.empty() && spec.title == kRemovedTitle; }

std::string column_name(const LabSpec& spec) { return spec_removed(spec) ? spec.lab + " (spec removed)" : spec.lab; }

std::vector<LabSpec> gradebook_labs(const std::vector<LabSpec>& graded, const ResultMap& results) {
  std::vector<LabSpec> labs = graded;
  std::set<std::string> known;
  std::set<std::filesystem::path> folders;
  for (const LabSpec& s : graded) {
    known.insert(s.lab);
    if (!s.file.empty()) folders.insert(s.file.parent_path());
  }
  for (const auto& [key, r] : results) {
    const std::string& lab = key.second;
    if (known.count(lab)) continue;
    known.insert(lab);
    // Only the specs of labs with results are read: a broken spec of a lab not graded yet stops nothing.
    const auto folder = std::find_if(folders.begin(), folders.end(),
                                     [&](const std::filesystem::path& f) { return std::filesystem::exists(f / (lab + ".json")); });
    labs.push_back(folder == folders.end() ? removed_spec(lab, results) : load_spec(*folder / (lab + ".json")));
  }
  std::stable_sort(labs.begin(), labs.end(), [](const LabSpec& a, const LabSpec& b) { return a.lab < b.lab; });
  return labs;
}

std::string status_phrase(const LabResult* r, const LabSpec& spec) {
  if (!r) return "not graded yet";
  if (grader_error(*r)) return "error (graded again next run)";
  std::vector<std::string> phrases;
  switch (r->status) {
    case LabStatus::Missing:
      phrases.push_back(spec.kernel_file.empty() ? "missing" : "missing (no " + spec.kernel_file + ")");
      break;
    case LabStatus::Rejected: phrases.push_back("rejected: " + first_line(r->message)); break;
    case LabStatus::BuildError: phrases.push_back("build error: " + first_line(r->message)); break;
    case LabStatus::UnchangedStarter: phrases.push_back("unchanged starter"); break;
    case LabStatus::Graded:
    case LabStatus::Error: break;
  }
  if (const std::string timed_out = timeout_phrase(*r); !timed_out.empty()) phrases.push_back(timed_out);
  for (const CaseResult& c : r->cases)
    if (c.kind == CaseKind::Late) phrases.push_back(late_phrase(c));
  if (phrases.empty()) return "graded";
  std::string all;
  for (const std::string& p : phrases) all += (all.empty() ? "" : "; ") + p;
  return all;
}

std::string gradebook_status_csv(const std::vector<std::string>& students, const std::vector<LabSpec>& specs,
                                 const ResultMap& results) {
  std::ostringstream out;
  out << "student";
  for (const LabSpec& s : specs) out << "," << csv_field(column_name(s));
  out << "\n";
  for (const std::string& student : students) {
    out << csv_field(student);
    for (const LabSpec& s : specs) {
      const auto it = results.find({student, s.lab});
      out << "," << csv_field(status_phrase(it == results.end() ? nullptr : &it->second, s));
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace grader
