#pragma once
// `grader grade`: a whole class. Each entry of the submissions folder is one student (a folder, or
// a .zip / .tar.gz / .tgz / .tar extracted safely into the output folder's scratch space).
#include <filesystem>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "intake/students.hpp"
#include "core/options.hpp"
#include "kit/device.hpp"
#include "export/reports.hpp"
#include "core/results.hpp"
#include "spec/spec.hpp"
#include "term/late.hpp"
#include "term/roster.hpp"

namespace grader {

// A result the grader could not finish for reasons of its own (an "error" case: Oclgrind failed,
// a file it could not write): kept out of the journal, so the next run with the same OUT grades
// it again.
bool needs_retry(const LabResult& r);

// The labs (indices into `specs`) in the order they are handed to the workers: the longest first,
// reckoned from the spec as the sum of its cases' time limits and its speed case's; equal ones in
// the spec's order. The workers take student-labs, every student's kernel of the longest lab
// first, so that the class ends on its shortest kernels with every worker busy to the end.
std::vector<std::size_t> labs_longest_first(const std::vector<LabSpec>& specs);

// What the term adds to a batch: the roster, the deadline, the regrades, each a pass over results
// (term/). `grader grade` applies all three; under `grader slurm` each step applies what is made
// there: the tasks' `grader grade` the deadline and the regrades (where the result is made, so it
// is in the task's journal), `grader merge` the roster (batch/slurm.hpp).
struct TermOptions {
  std::filesystem::path roster{};  // a course roster: OUT/lms-import.csv and OUT/roster-check.txt too (term/roster.hpp)
  std::vector<std::string> regrade{};  // grade these students again (their earlier results stay in the journal; term/regrade.hpp)
  std::string reason{};                // why, for the regraded reports
  std::optional<std::filesystem::file_time_type> deadline{};  // late work loses the spec's late_penalty_per_day (term/late.hpp)
  // With no deadline: the journal's late results of the students graded lose their lateness when
  // graded again. Without this, a run that would drop a deadline the journal used stops first,
  // naming them (kit::Error); with it, the run names them and goes on.
  bool no_deadline = false;
};

struct BatchOptions {
  std::filesystem::path submissions, out, references;
  std::vector<LabSpec> specs;
  GradingOptions grading{};  // how each kernel is graded (core/options.hpp)
  int jobs = 1;              // kernels graded at once
  // Grade only these students (by name; empty: all), e.g. one Slurm task's chunk. The gradebook,
  // its status file and the reports still cover every student of the submissions folder, from the
  // journal ("not graded yet" where it holds nothing). Throws kit::Error naming any name with no submission.
  std::vector<std::string> only_students{};
  TermOptions term{};
  struct BatchStats* stats = nullptr;  // when set: where the time went
  bool draw = false;  // OUT/<student>/ also gets a drawing of each graded kernel (draw/draw_lab.hpp)
};

// Where a batch's time went: seconds per phase summed over the kernels graded (screening, build,
// cases, speed, oclgrind), child processes started, results reused for kernels graded before.
struct BatchStats {
  std::map<std::string, double> phases;
  std::map<std::string, std::map<std::string, double>> lab_phases;  // the same, per lab
  std::map<std::string, std::size_t> lab_graded;                   // kernels graded per lab (not reused)
  std::size_t graded = 0, reused = 0;
  double seconds = 0;  // wall clock of the whole batch
};

// Writes OUT/gradebook.csv, OUT/gradebook-status.csv and OUT/<student>/report.json, report.md and report.html
// atomically for `students` from `results` (a student x lab with no result is reported as not
// graded). Their labs are gradebook_labs(graded, results): the labs graded now and every other lab
// `results` holds (export/gradebook.hpp), so a run of some labs keeps the others' columns.
void write_class_outputs(const std::filesystem::path& out, const std::vector<std::string>& students,
                         const std::vector<LabSpec>& graded, const ResultMap& results);

// Every student's name in the submissions folder (list_students, entries it skips left out).
std::vector<std::string> student_names(const std::filesystem::path& submissions);

// With a roster (o.term.roster): OUT/lms-import.csv and OUT/roster-check.txt from the results of
// every student in o.submissions (also when part of the class was graded), said on `progress`.
void write_roster_outputs(const BatchOptions& o, const std::vector<RosterEntry>& roster, const ResultMap& results,
                          std::ostream& progress);

// A run with no --deadline over results graded late under one (grader grade, grader slurm): they
// would lose their lateness when graded again (their graded_hash changes). Throws kit::Error
// naming them, before anything is graded, unless o.term.no_deadline says it is meant; then names
// them on `progress`.
void check_dropped_deadline(const ResultMap& results, const BatchOptions& o, const std::vector<Student>& students,
                            std::ostream& progress);

// Grades every student x lab not already in OUT/journal.jsonl, or there with another graded_hash
// than its inputs' now (batch/graded_hash.hpp: hashed, archives extracted, before any grading), then writes OUT/gradebook.csv and
// OUT/<student>/report.json, report.md and report.html atomically. Returns the number of results graded now.
std::size_t grade_class(const BatchOptions& options, std::ostream& progress);

}  // namespace grader
