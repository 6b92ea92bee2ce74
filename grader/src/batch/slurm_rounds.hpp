#pragma once
// What a Slurm run leaves under OUT/slurm: round folders (round-R), each with a folder per array
// task (task-K) holding the task's journal, reports and drawings; and the results they hold, the
// newest of each student x lab. Read by `grader slurm` (what is still to grade) and `grader merge`.
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "batch/batch.hpp"
#include "batch/journal.hpp"

namespace grader {

using SlurmLines = std::map<std::pair<std::string, std::string>, Journal::Line>;

// Marks a line submit_to_slurm copied into a task's journal: a regraded student's earlier result,
// for the task's regrade history; never a result of its own.
inline constexpr const char* kCopiedForRegrade = "copied_for_regrade";

// The output folders of every round's tasks (OUT/slurm/round-R/task-K), round by round.
std::vector<std::filesystem::path> slurm_task_dirs(const std::filesystem::path& out);

// Every result OUT/journal.jsonl and the rounds' task journals hold, the newest of each student x
// lab by graded_at (OUT/journal.jsonl's on a tie, then the earlier round's): a regrade in a later
// round is newer than the result it replaces. Lines copied for a regrade are not results.
SlurmLines all_slurm_results(const std::filesystem::path& out);

ResultMap results_of(const SlurmLines& lines);

}  // namespace grader
