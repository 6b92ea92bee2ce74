#include "export/reports.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "export/gradebook.hpp"
#include "export/leaderboard.hpp"
#include "export/report_html.hpp"
#include "kit/device_faults.hpp"

namespace grader {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {


const LabResult* find(const ResultMap& results, const std::string& student, const std::string& lab) {
  const auto it = results.find({student, lab});
  return it == results.end() ? nullptr : &it->second;
}

std::string case_explanation(const CaseResult& c) {
  std::string text = c.message;
  if (!c.hint.empty()) text += (text.empty() ? "" : "\n") + std::string("hint: ") + c.hint;
  return text;
}

}  // namespace

std::string points_by_kind(const LabResult& r) {
  static const std::vector<std::pair<CaseKind, const char*>> kinds = {
      {CaseKind::Case, "cases"}, {CaseKind::Safety, "memory safety"}, {CaseKind::Algorithm, "algorithm"}, {CaseKind::Speed, "speed"}};
  std::string line;
  for (const auto& [kind, name] : kinds) {
    double points = 0, max = 0;
    for (const CaseResult& c : r.cases)
      if (c.kind == kind) points += c.points, max += c.max_points;
    if (max > 0) line += (line.empty() ? "" : ", ") + std::string(name) + " " + format_points(points) + " / " + format_points(max);
  }
  return line;
}

std::size_t device_disagrees_count(const LabResult& r) {
  return std::size_t(std::count_if(r.cases.begin(), r.cases.end(), [](const CaseResult& c) { return c.status == CaseStatus::DeviceDisagrees; }));
}

std::string device_disagrees_line(const LabResult& r) {
  const std::size_t n = device_disagrees_count(r);
  if (n == 0) return "";
  return "the device got " + std::to_string(n) + (n == 1 ? " case" : " cases") +
         " wrong that Oclgrind, an independent OpenCL implementation, computed right with no finding (device-disagrees, "
         "label DEVICE): the device's fault, not the kernel's; each such line says what the device gave";
}

std::string late_penalty_line(const LabResult& r) {
  double penalty = 0;
  bool late = false;
  for (const CaseResult& c : r.cases)
    if (c.kind == CaseKind::Late) late = true, penalty += c.points;
  return late ? "late penalty " + format_points(penalty) : "";
}

std::string format_points(double points) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", points);
  return text;
}

std::string gradebook_csv(const std::vector<std::string>& students, const std::vector<LabSpec>& specs,
                          const ResultMap& results) {
  std::ostringstream out;
  out << "student";
  for (const LabSpec& s : specs) out << "," << csv_field(column_name(s));
  out << ",total\n";
  for (const std::string& student : students) {
    out << csv_field(student);
    double total = 0;
    for (const LabSpec& s : specs) {
      const LabResult* r = find(results, student, s.lab);
      out << "," << (r ? format_points(r->points()) : "");
      if (r) total += r->points();
    }
    out << "," << format_points(total) << "\n";
  }
  return out.str();
}

json student_report_json(const std::string& student, const std::vector<LabSpec>& specs, const ResultMap& results) {
  json labs = json::array();
  double total = 0, max = 0;
  for (const LabSpec& s : specs) {
    max += s.max_points();
    if (const LabResult* r = find(results, student, s.lab)) {
      labs.push_back(to_json(*r));
      total += r->points();
    }
  }
  return {{"student", student}, {"points", total}, {"max_points", max}, {"labs", labs}};
}

std::string student_headline(const std::string& student, const std::vector<LabSpec>& specs, const ResultMap& results) {
  double total = 0, max = 0;
  for (const LabSpec& s : specs) {
    max += s.max_points();
    if (const LabResult* r = find(results, student, s.lab)) total += r->points();
  }
  return student + ": " + format_points(total) + " / " + format_points(max) + " points";
}

std::string student_report_md(const std::string& student, const std::vector<LabSpec>& specs, const ResultMap& results) {
  std::ostringstream out;
  out << "# " << student_headline(student, specs, results) << "\n";
  for (const LabSpec& s : specs) {
    const LabResult* r = find(results, student, s.lab);
    out << "\n## " << s.lab << " — " << s.title << ": ";
    if (!r) {
      out << "not graded\n";
      continue;
    }
    out << format_points(r->points()) << " / " << format_points(r->max_points()) << "\n\n";
    if (!r->kernel.empty()) out << "Kernel file: `" << r->kernel << "`\n\n";
    for (const std::string& note : r->notes) out << "Note: " << note << "\n\n";
    if (r->status != LabStatus::Graded) out << "**" << word(r->status) << "**:\n\n```\n" << r->message << "\n```\n\n";
    if (const std::string kinds = points_by_kind(*r); !kinds.empty()) out << "Points: " << kinds << "\n\n";
    if (const std::string late = late_penalty_line(*r); !late.empty()) out << late << "\n\n";
    if (const std::string device = device_disagrees_line(*r); !device.empty()) out << "Note: " << device << ".\n\n";
    out << "| case | result | points | details |\n|---|---|---|---|\n";
    for (const CaseResult& c : r->cases) {
      std::string details = case_explanation(c);
      for (char& ch : details)
        if (ch == '\n') ch = ' ';
      std::string escaped;
      for (char ch : details) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
      out << "| " << c.name << (c.visible ? "" : " (hidden)") << " | " << word(c.status) << " | " << format_points(c.points)
          << " / " << format_points(c.max_points) << " | " << escaped << " |\n";
    }
  }
  return out.str();
}

const char* check_label(const CaseResult& c) {
  if (c.status == CaseStatus::DeviceDisagrees) return "DEVICE";
  if (c.status == CaseStatus::Withheld) return "REVIEW";
  const bool passed = c.status == CaseStatus::Passed || c.status == CaseStatus::Scaled;
  if (passed && c.points <= 0 && c.max_points > 0) return "FAIL";  // a check that passed, scaled to nothing
  if (passed) return c.status == CaseStatus::Passed && c.points >= c.max_points ? "PASS" : "PART";
  return not_run_on_device(c) || c.status == CaseStatus::NotChecked ? "SKIP" : "FAIL";
}

std::string check_report(const LabResult& r) {
  std::ostringstream out;
  out << r.lab << (r.kernel.empty() ? "" : " (" + r.kernel + ")") << "\n";
  for (const std::string& note : r.notes) out << "  note: " << note << "\n";
  if (!r.device.empty()) out << "  on " << r.device << "\n";
  // The lab programs report every core of the CPU; the grader's children run PoCL on the threads
  // --pocl-threads gives them (1 by default), which PoCL reports as its compute units.
  if (r.device.find("Portable Computing Language (1 compute units") != std::string::npos)
    out << "  (1 compute unit: the grader gives each case one PoCL thread (--pocl-threads), so that kernels are graded "
           "side by side and alike on every machine; the lab programs use every core)\n";
  if (r.status != LabStatus::Graded) {
    out << "  " << word(r.status) << ":\n";
    std::istringstream lines(r.message);
    for (std::string line; std::getline(lines, line);) out << "    " << line << "\n";
  }
  for (const CaseResult& c : r.cases) {
    char head[200];
    const bool not_here = not_run_on_device(c);
    std::snprintf(head, sizeof head, "  %-4s %-52s %s/%s", check_label(c), c.name.c_str(), format_points(c.points).c_str(),
                  format_points(c.max_points).c_str());
    out << head << "\n";
    // A line not run says why: not on this device, or after the time budget ended its kernel.
    if (not_here || (c.status == CaseStatus::NotRun && !c.message.empty())) out << "       " << c.message << "\n";
    const bool speed_figure = c.kind == CaseKind::Speed && c.status != CaseStatus::NotRun;  // its figure, passed or not
    if (((c.status != CaseStatus::Passed || c.points < c.max_points) && c.status != CaseStatus::NotRun) || speed_figure) {
      out << "       " << word(c.status) << ": " << c.message << "\n";
      if (!c.hint.empty()) out << "       hint: " << c.hint << "\n";
    }
  }
  if (const std::string kinds = points_by_kind(r); !kinds.empty()) out << "  " << kinds << "\n";
  if (const std::string late = late_penalty_line(r); !late.empty()) out << "  " << late << "\n";
  if (const std::string device = device_disagrees_line(r); !device.empty()) out << "  note: " << device << "\n";
  out << "  " << format_points(r.points()) << " / " << format_points(r.max_points()) << " points\n";
  return out.str();
}

json gradescope_results(const std::vector<LabResult>& results, const json& metadata, const std::filesystem::path& drawings) {
  json tests = json::array();
  double score = 0, seconds = 0;
  std::string before;
  // Gradescope lists earlier submissions newest first, each with its score.
  if (metadata.is_object() && metadata.contains("previous_submissions") && metadata["previous_submissions"].is_array() &&
      !metadata["previous_submissions"].empty()) {
    const json& last = metadata["previous_submissions"][0];
    if (last.contains("score") && (last["score"].is_number() || last["score"].is_string())) {
      const double was = last["score"].is_number() ? last["score"].get<double>() : std::atof(last["score"].get<std::string>().c_str());
      before = "Your last score was " + format_points(was) +
               (last.contains("submission_time") && last["submission_time"].is_string() ? " (submitted " + last["submission_time"].get<std::string>() + ")" : "") +
               ".";
    }
  }
  for (const LabResult& r : results) {
    score += r.points();
    for (const CaseResult& c : r.cases) seconds += c.seconds;
    for (const CaseResult& c : r.cases) {
      // Gradescope's test status is its own: "passed" for full points, else "failed".
      const bool full = c.status == CaseStatus::Passed && c.points >= c.max_points;
      tests.push_back({{"name", r.lab + ": " + c.name},
                       {"score", c.points},
                       {"max_score", c.max_points},
                       {"status", full ? "passed" : "failed"},
                       {"output", full ? std::string("passed") : html_text(word(c.status) + ": " + case_explanation(c))},
                       {"visibility", c.visible ? "visible" : "after_published"}});
      // A check that did not run is neither passed nor failed: without "status", Gradescope shows
      // the score, and the output says why it was not checked.
      if (c.status == CaseStatus::NotChecked) tests.back().erase("status");
    }
  }
  json all = {{"score", score},
              {"output", gradescope_output_html(results, before, drawings)},
              {"output_format", "html"},
              {"test_output_format", "html"},
              {"visibility", "visible"},
              {"stdout_visibility", "hidden"},
              {"execution_time", int(std::ceil(seconds))},
              {"tests", tests}};
  if (const json board = gradescope_leaderboard(results); !board.empty()) all["leaderboard"] = board;
  return all;
}

}  // namespace grader
