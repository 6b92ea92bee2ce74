#pragma once
// `grader slurm` and `grader merge`: a class graded as one Slurm job array. The students still to
// grade are split into chunks, one array task per chunk, each task grading its chunk with `grader
// grade` into a journal of its own; a job that waits for the whole array (afterany) merges the
// journals into OUT/journal.jsonl and writes the same gradebook and reports as a local run.
// Submitting again grades only what no journal holds yet (a cancelled or failed task's students).
// The term (batch.term) is applied where it belongs: the tasks' `grader grade` gets the
// deadline (the late penalty is part of the result, in the task's journal) and the regrades;
// `grader merge` gets the roster and writes OUT/lms-import.csv and roster-check.txt.
// A regrade across rounds: the regraded students go into the new round's chunks although they have
// results, their newest earlier results are copied into their task's journal (marked
// "copied_for_regrade"), and the task's `grader grade --regrade` takes them out and writes the
// history note with the old points, as a local regrade does; merge then takes each student x lab's
// newest result (graded_at) from every journal and appends it to OUT/journal.jsonl, whose last line
// of a student x lab is the one that counts.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "batch/batch.hpp"

namespace grader {

struct SlurmOptions {
  BatchOptions batch;                   // submissions, out, specs, grading (its Oclgrind checks size the tasks), term, draw (--draw for the tasks)
  std::vector<std::string> global_args;  // before the subcommand in both jobs (--specs, --references, --pocl-threads)
  std::vector<std::string> grade_args;  // passed on to every task's `grader grade` (--labs, --no-races, -p, ...; the term from batch.term)
  std::vector<std::string> merge_args;  // passed on to `grader merge` (--labs)
  std::filesystem::path grader_exe;     // the grader the tasks run (on a shared filesystem)
  std::size_t chunk_size = 8;           // students per array task
  int cpus_per_task = 2;
  std::string partition, account, gres;  // --partition, --account, --gres (e.g. gpu:1), when given
  std::vector<std::string> setup;       // shell lines each job runs first (module load ...)
  std::vector<std::string> sbatch_args;  // anything else for sbatch, one argument each
  bool hold = false;                    // submit the array held: `scontrol release JOB` starts it
  bool dry_run = false;                 // write the scripts and print the commands, submit nothing
};

struct SlurmPlan {
  std::vector<std::vector<std::string>> chunks;  // the students of each task
  int minutes = 0;                               // --time of one task
  std::size_t memory_mb = 0;                     // --mem of one task
};

// The chunks of the students not yet fully graded (and of those in batch.term.regrade, graded or
// not; throws kit::Error naming one with no submission), and each task's time and memory from the specs:
// the worst case of a chunk's students (every build, case, speed case and Oclgrind run to its time
// limit, and with batch.draw the drawing's runs under Oclgrind) spread over the task's CPUs, plus a margin;
// memory: a child's limit per CPU plus the grader's own.
SlurmPlan plan_slurm(const SlurmOptions& options, const std::vector<std::string>& students, const ResultMap& done);

struct SlurmSubmission {
  std::filesystem::path round;  // OUT/slurm/round-N: chunks, scripts, task journals and logs
  std::string array_job, merge_job;
  std::size_t tasks = 0;
};

// Writes the round's chunk lists and batch scripts and submits them (sbatch); with nothing left to
// grade, submits nothing (tasks == 0). Throws kit::Error with sbatch's message when it refuses, and
// before writing anything on a roster it cannot read.
SlurmSubmission submit_to_slurm(const SlurmOptions& options, std::ostream& out);

// Every result the task journals under OUT/slurm hold that is newer (graded_at) than OUT/journal.jsonl's
// of the same student x lab, or that it lacks, appended to it as written; then OUT/gradebook.csv and
// the reports for every student, and with options.term.roster OUT/lms-import.csv and roster-check.txt.
// The drawings (`--draw`) of each result merged are copied from its task's folder beside the
// student's report, in place of that lab's earlier ones.
// Returns the student x lab pairs still without a result (listed on `out`, with regrades a task
// did not get to).
std::size_t merge_slurm_journals(const BatchOptions& options, std::ostream& out);

}  // namespace grader
