#include "export/gradebook.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "export/reports.hpp"
#include "intake/lms_layouts.hpp"

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
  static const std::regex words(R"(\((\d+) day\(s\) late\): (\d+)% of)"), marked(R"(one day late, the least the mark shows: (\d+)% of)");
  std::smatch m;
  if (std::regex_search(c.message, m, marked)) return "late (marked by Canvas: 1 day, -" + m[1].str() + "%)";
  if (!std::regex_search(c.message, m, words)) return "late (" + format_points(c.points) + " points)";
  return "late (" + m[1].str() + (m[1].str() == "1" ? " day" : " days") + ", -" + m[2].str() + "%)";
}

// "timed out (8 of 10 cases, 5 of 5 checks)" when any line ran past its limit, each kind counted
// apart (cases; checks: memory safety, algorithm, speed), a kind with none timed out left out;
// with the lines the time budget left out after it: "timed out (1 of 10 cases; 8 cases, 5 checks
// not run after it)"; empty when none did.
std::string timeout_phrase(const LabResult& r) {
  std::size_t timed_out[2] = {0, 0}, lines[2] = {0, 0}, not_run[2] = {0, 0};  // [0] cases, [1] checks
  for (const CaseResult& c : r.cases) {
    if (c.kind == CaseKind::Late || not_run_on_device(c)) continue;
    const int k = c.kind == CaseKind::Case ? 0 : 1;
    ++lines[k];
    timed_out[k] += c.status == CaseStatus::Timeout;
    not_run[k] += not_run_for_time_budget(c);
  }
  std::string counts, skipped;
  const char* const names[2] = {" cases", " checks"};
  for (int k = 0; k < 2; ++k) {
    if (timed_out[k])
      counts += (counts.empty() ? "" : ", ") + std::to_string(timed_out[k]) + " of " + std::to_string(lines[k]) + names[k];
    if (not_run[k]) skipped += (skipped.empty() ? "" : ", ") + std::to_string(not_run[k]) + names[k];
  }
  if (!skipped.empty()) counts += "; " + skipped + " not run after it";
  return counts.empty() ? "" : "timed out (" + counts + ")";
}

// Lateness that costs nothing, which only notes carry: "late 2 days (no penalty)" (term/late.cpp
// words the note), "marked late by Canvas" (intake/lms_layouts.cpp words it).
std::vector<std::string> unpenalised_lateness(const LabResult& r) {
  static const std::regex days(R"(^handed in (\d+) day\(s\) after the deadline; this lab has no late penalty)");
  std::vector<std::string> phrases;
  std::smatch m;
  for (const std::string& n : r.notes)
    if (std::regex_search(n, m, days)) phrases.push_back("late " + m[1].str() + (m[1].str() == "1" ? " day" : " days") + " (no penalty)");
  for (const std::string& n : r.notes)
    if (n == kCanvasLateNote) phrases.push_back("marked late by Canvas");
  return phrases;
}

// The missing kernel's phrase: the near-miss files found (judge/grade.cpp puts
// missing_kernel_message in the result), or the name expected.
std::string missing_phrase(const LabResult& r, const LabSpec& spec) {
  static const std::regex near(R"(^found (.*); expected (.*)$)");
  std::smatch m;
  const std::string message = first_line(r.message);
  if (std::regex_match(message, m, near)) return "missing: found " + m[1].str() + ", expected " + m[2].str();
  return spec.kernel_file.empty() ? "missing" : "missing (no " + spec.kernel_file + ")";
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
    case LabStatus::Missing: phrases.push_back(missing_phrase(*r, spec)); break;
    case LabStatus::Rejected: phrases.push_back("rejected: " + first_line(r->message)); break;
    case LabStatus::BuildError: phrases.push_back("build error: " + first_line(r->message)); break;
    case LabStatus::UnchangedStarter: phrases.push_back("unchanged starter"); break;
    case LabStatus::Graded:
    case LabStatus::Error: break;
  }
  if (const std::string timed_out = timeout_phrase(*r); !timed_out.empty()) phrases.push_back(timed_out);
  if (const std::size_t n = device_disagrees_count(*r); n > 0)
    phrases.push_back("device disagrees on " + std::to_string(n) + (n == 1 ? " case" : " cases") + " (right under Oclgrind: review)");
  for (const CaseResult& c : r->cases)
    if (c.kind == CaseKind::Late) phrases.push_back(late_phrase(c));
  for (const CaseResult& c : r->cases)
    if (c.status == CaseStatus::Withheld) phrases.push_back("speed withheld for review (" + format_points(c.max_points) + " points: timing too noisy)");
  std::string all;
  for (const std::string& p : phrases) all += (all.empty() ? "" : "; ") + p;
  std::string late;
  for (const std::string& p : unpenalised_lateness(*r)) late += ", " + p;
  if (all.empty()) return "graded" + late;
  return late.empty() ? all : all + ";" + late.substr(1);
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

std::string device_disagrees_summary(const std::string& status_csv) {
  static const std::regex phrase(R"(device disagrees on (\d+) case)");
  std::size_t cases = 0, labs = 0;
  for (std::sregex_iterator m(status_csv.begin(), status_csv.end(), phrase), end; m != end; ++m) {
    cases += std::stoul((*m)[1].str());
    ++labs;
  }
  if (cases == 0) return "";
  return "Device disagrees: " + std::to_string(cases) + (cases == 1 ? " case" : " cases") + " in " + std::to_string(labs) +
         (labs == 1 ? " student-lab" : " student-labs") +
         " that the device got wrong were shown right by a witness, Oclgrind or the device with its optimizations off where a "
         "known compiler fault applies (status device-disagrees); "
         "review them in gradebook-status.csv and the students' reports.\n";
}

}  // namespace grader
