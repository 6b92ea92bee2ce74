#pragma once
// What the grader hands out: the class gradebook (CSV), a report per student (JSON and Markdown;
// the HTML one is export/report_html.hpp's), the self-check's terminal lines, and Gradescope's
// results.json.
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/results.hpp"
#include "spec/spec.hpp"

namespace grader {

using ResultMap = std::map<std::pair<std::string, std::string>, LabResult>;

std::string gradebook_csv(const std::vector<std::string>& students, const std::vector<LabSpec>& specs,
                          const ResultMap& results);
json student_report_json(const std::string& student, const std::vector<LabSpec>& specs, const ResultMap& results);
std::string student_report_md(const std::string& student, const std::vector<LabSpec>& specs, const ResultMap& results);
// A report's first line: "<student>: <points> / <max points> points", over every lab of `specs`.
std::string student_headline(const std::string& student, const std::vector<LabSpec>& specs, const ResultMap& results);

// A line's label in `grader check`: PASS only when it passed at full points; PART when it passed
// and earns part of its points (scaled: the points policy); SKIP when not checked or not run on
// this device; FAIL otherwise.
const char* check_label(const CaseResult& c);
// The self-check's view of one lab: a line per case, failures explained.
std::string check_report(const LabResult& result);

// Gradescope's results.json: score, and a test per case with name, score, max_score, status,
// output and visibility (hidden cases "after_published"). HTML output (output_format and
// test_output_format "html", Gradescope's specification's format that renders HTML, sanitised):
// the top-level output is gradescope_output_html (export/report_html.hpp), with the drawings
// (`--draw`) found in `drawings`; a test's output is its status and message, escaped. Also the run's
// execution_time, the speed leaderboard, and, from Gradescope's submission_metadata.json when
// given, the student's last score.
json gradescope_results(const std::vector<LabResult>& results, const json& metadata = json(),
                        const std::filesystem::path& drawings = {});

std::string format_points(double points);

// A lab's points by kind of line, in the order cases, memory safety, algorithm, speed, only the
// kinds it has: "cases 10 / 10, memory safety 5 / 5, algorithm 3 / 3, speed 0 / 4" (report.md,
// the self-check). The late penalty is not among them: late_penalty_line gives it, "late penalty
// -2" (empty when the result has none).
std::string points_by_kind(const LabResult& result);
std::string late_penalty_line(const LabResult& result);

// The lines that are "device-disagrees" (judge/witness.hpp): their count, and the sentence the
// reports add when there are any (empty when none).
std::size_t device_disagrees_count(const LabResult& result);
std::string device_disagrees_line(const LabResult& result);

// A CSV field: quoted (quotes doubled) when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s);

}  // namespace grader
