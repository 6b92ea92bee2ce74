#pragma once
// Regrades, a pass over results: the students named leave the results (their earlier results are
// set aside; the journal keeps them) and are graded again; each new result carries the history:
// the earlier result's "regraded ..." notes and one more, "regraded <date> (<reason>): a -> b points".
// `grader grade --regrade` runs it on OUT/journal.jsonl's results; `grader slurm --regrade` runs it
// to put the students in the round's chunks, and each task's `grader grade --regrade` runs it
// again on the earlier results copied into the task's journal (batch/slurm.hpp).
#include <filesystem>
#include <string>
#include <vector>

#include "export/reports.hpp"
#include "spec/spec.hpp"

namespace grader {

// Takes the results of the `regrade` students in `specs`' labs out of `results` and returns them.
// Throws kit::Error naming a student who is not among `students` (`folder`: where their
// submissions are, for the message).
ResultMap take_out_regraded(ResultMap& results, const std::vector<std::string>& regrade, const std::vector<std::string>& students,
                            const std::vector<LabSpec>& specs, const std::filesystem::path& folder);

// Adds the history to `r`, the new result of a student whose `earlier` result was taken out.
void add_regrade_history(const LabResult& earlier, const std::string& reason, LabResult& r);

}  // namespace grader
