#pragma once
// The batch scripts of one `grader slurm` round: grade-array.sh (each array task runs `grader
// grade` on its chunk of students into OUT/slurm/round-R/task-K) and merge.sh (`grader merge`
// after the whole array).
#include <filesystem>
#include <string>

#include "batch/slurm.hpp"

namespace grader {

// Quoted for a shell script: '...' with every ' written as '\''.
std::string shell_quote(const std::string& s);

// grade-array.sh in `round`: the task's `grader grade` with options.grade_args and the term's
// deadline and regrades; `setup`: the shell lines each job runs first.
void write_array_script(const SlurmOptions& options, const SlurmPlan& plan, const std::filesystem::path& round, const std::string& setup);

// merge.sh in `round`: `grader merge` into `root`, with the roster (merge writes the LMS import).
void write_merge_script(const SlurmOptions& options, const std::filesystem::path& root, const std::filesystem::path& round,
                        const std::string& setup);

}  // namespace grader
