#pragma once
// `--draw DIR`: a lab's kernel run again under Oclgrind on the lab's safety runs, with the kit's
// plugin tracing the first work-group of each launch, and drawn: one SVG (and TikZ for the slides)
// per kernel, beside the course solution's drawing of the same case when the kit has the solution.
// Nothing here changes a grade: a kernel that cannot be drawn (an endless loop, a crash, nothing
// stored) gets a note saying why, and no picture.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "draw/picture.hpp"
#include "draw/trace.hpp"
#include "judge/grade.hpp"
#include "spec/spec.hpp"

namespace grader {

// One run of a kernel under Oclgrind with the drawing trace: the launches traced and the findings.
struct DrawRun {
  std::string failed;  // why nothing can be drawn ("" when the run finished): "ran past its 5 s time limit (an endless loop?)"
  std::vector<LaunchTrace> launches;
  std::vector<OclgrindFinding> findings;
  double seconds = 0;
};

// Runs the lab's case `params` on `kernel` under Oclgrind (race and bounds checks on, -O0, as the
// safety check does) with the plugin's drawing trace of work-group `group` (linear number; none:
// the first), in `dir`.
DrawRun trace_kernel(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& kernel, const std::string& shown_as,
                     const json& params, const std::filesystem::path& dir, std::optional<std::size_t> group = std::nullopt);

struct Drawings {
  std::vector<std::filesystem::path> files;  // written, SVG and TikZ
  std::vector<std::string> notes;            // one line per picture (its file and its facts), or why none
  double seconds = 0;                        // the runs under Oclgrind it took
};

// Draws `kernel` (shown as `shown_as`) into `out` as <lab>-<kernel name>.svg and .tex, with
// `solution` beside it unless it is empty or the same text; where a later work-group stored
// otherwise than the solution's, that work-group too, as <lab>-<kernel name>-group<N>.svg and .tex.
// The runs drawn are `runs` (the spec's safety runs when empty).
Drawings draw_lab(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& kernel, const std::string& shown_as,
                  const std::filesystem::path& solution, const std::filesystem::path& out, const std::vector<json>& runs = {});

// The runs a graded kernel is drawn at: the spec's safety runs, where a kernel function's smallest
// case whose own shape showed undefined behaviour (and that Oclgrind runs whole) takes that
// function's place, so that the drawing shows the fault at a shape where it happens.
std::vector<json> drawn_runs(const LabSpec& spec, const LabResult& r);

// `--draw OUT` for one graded lab: its kernel (in `submission`, as `r.kernel` names it) drawn,
// beside the kit's solution when there is one; the notes go to `r.notes`. Never throws: a kernel
// that cannot be drawn (an endless loop, a crash of Oclgrind, nothing stored) gets a note saying
// why, and the grading goes on. Returns "" when a picture was written, else why none was (the
// notes that say so), for the command's summary.
std::string add_drawings(LabResult& r, const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& submission,
                  const std::filesystem::path& out);

// The course solution's kernel for `spec` in the kit (solutions/<lab>/<kernel file>), or empty
// when the kit has none (the student release).
std::filesystem::path solution_kernel(const LabSpec& spec);

// What a drawing of `kernel` calls its operations ("adds"), from the lab's algorithm checks.
std::string ops_word(const LabSpec& spec, const std::string& kernel);

}  // namespace grader
