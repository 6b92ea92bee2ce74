#pragma once
// The reports as HTML, the drawings inline: report.html beside each report.md (the same lines,
// hints and notes, and each lab's `--draw` pictures as inline SVG; one self-contained file, no
// outside CSS, script or font), and the HTML of Gradescope's results.json (output_format "html").
#include <filesystem>
#include <string>
#include <vector>

#include "export/reports.hpp"

namespace grader {

// One drawing a result's notes name ("drawing <path>.svg (...)"), as found in the report's folder.
struct InlineDrawing {
  std::string file;     // its file name, <lab>-<kernel>[-groupN].svg, relative to the report
  std::string caption;  // the note without its path: "<file> (<kernel>, work-group ...): ..."
  std::string svg;      // the <svg> element, its id "drawing-<lab>-<n>" (n from 1); "" when left out
  std::string why_not;  // why it is left out: not found in the folder, or holding more than a drawing
};

// The drawings `r`'s notes name, read from `folder` by file name. Only the elements and attributes
// the grader's SVG writer makes are let through (no script, event handler, link, style or foreign
// content); the ids inside (arrow heads) are prefixed with the drawing's id, so that several
// drawings on one page keep their own. Notes from a run without --draw name none: a drawing left
// in the folder by an earlier run is not shown.
std::vector<InlineDrawing> inline_drawings(const LabResult& r, const std::filesystem::path& folder);

// `note` as a report shows it: a drawing note ("drawing <path>.svg (...): ...") with its path cut
// to the file name (the drawings lie beside the report); any other note as it is.
std::string drawing_note_as_shown(const std::string& note);

// report.html, in the order a student reads it: the points of each lab, then the lines that lost
// points with their messages and hints; then each lab as report.md has it (kernel file, status,
// points by kind, late penalty, notes, and a table of its lines with the check's label
// PASS/PART/FAIL/SKIP, the status, the points and the message and hint), and under it each of its
// drawings from `folder`, folded (<details>), its caption above it. Drawings are named by their
// file name, relative to the report, never by the grading machine's path.
std::string student_report_html(const std::string& student, const std::vector<LabSpec>& specs, const ResultMap& results,
                                 const std::filesystem::path& folder);

// Gradescope's top-level output (an HTML fragment; Gradescope sanitises it and shows it in its
// page): `before` (the last score, text), then per lab its points, status, notes, points by kind,
// late penalty, and its drawings from `drawings` (none when empty). No lines of cases: they are
// Gradescope's tests, where hidden ones wait for publishing.
std::string gradescope_output_html(const std::vector<LabResult>& results, const std::string& before,
                                   const std::filesystem::path& drawings);

// Text as HTML: escaped (<, >, &, "), each line break a <br>.
std::string html_text(const std::string& text);

}  // namespace grader
