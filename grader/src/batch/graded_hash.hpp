#pragma once
// What a result was graded from, as a hash kept in its journal record ("graded_hash"): a rerun
// hashes every student x lab before grading and grades again exactly those whose hash differs from
// the journal's (a kernel fixed in place, a new version folder, a new spec, new references, another
// --deadline), with no flag. A record without one (an older grader's) counts as unchanged.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/results.hpp"
#include "intake/students.hpp"
#include "spec/spec.hpp"

namespace grader {

using ResultKey = std::pair<std::string, std::string>;  // (student, lab)

// One student's lab as it will be graded. The hash inputs, in order:
//  - the spec file's bytes (LabSpec::sha256): cases, points, limits and the late penalty all decide a grade;
//  - the lab's entry in the references' MANIFEST.json (its sha256, and the speed baseline's);
//  - the deadline: none (no deadline, or handed in on time: the result is the same, so a first
//    --deadline regrades only those it makes late), or late: the deadline, the days late the
//    penalty counts and the hours late its message quotes (to a tenth);
//  - the submission (also kept alone as submission_hash, to tell a resubmission from a policy
//    change): the version graded (ann-v2), the listing's notes, and the kernel file's path and
//    exact bytes, not the comment-free code: a report quotes the file (build logs, Oclgrind
//    findings give lines and columns) and screening reads every byte, so a changed comment can
//    change a report. With no kernel: "missing" and every file name of the submission, so a newly
//    handed-in file is graded; a refused submission: the refusal and the archive's size and time.
struct LabInputs {
  std::string graded_hash, submission_hash;
  // Not late (no deadline, or on time): the hash an earlier grader wrote for the same inputs on
  // time under a deadline (it hashed "on time" apart from "no deadline"), also taken as unchanged.
  // Empty for late work.
  std::string on_time_hash;
  // Where grade_lab looks for the kernel: a private copy of the bytes hashed (the kernel file at its
  // path, the other files find_kernel names as empty files: it lists them, never reads them), so an
  // edit during the run is not graded under this hash; the submission itself when there is no
  // kernel (a file that appears meanwhile is graded, and the next run sees the change and regrades).
  std::filesystem::path root;
};

// A student ready to grade: the submission's root (an archive extracted into `work`), the hand-in
// time the late penalty uses, each lab's inputs; `refused`: why the submission cannot be read.
struct PreparedStudent {
  std::filesystem::path root;
  std::string refused;
  std::filesystem::file_time_type handed_in{};
  std::map<std::string, LabInputs> labs;  // by lab
};

// Hashes `s`'s labs, extracting and copying under `work` (the student's scratch folder).
PreparedStudent prepare_student(const Student& s, const std::vector<LabSpec>& specs, const std::filesystem::path& references,
                                const std::optional<std::filesystem::file_time_type>& deadline, const std::filesystem::path& work);

// The fields a journal record carries for `inputs`.
json hash_fields(const LabInputs& inputs);

// Why a result must be graded again: "resubmitted" when its submission changed, "spec, references
// or deadline changed" when only the rest did; "" when it is unchanged or its record has no hash.
std::string change_reason(const json& record, const LabInputs& now);

// What needs grading again without being asked, for `grader grade` and `grader slurm` alike: the
// results whose record (`records`, by student x lab) has a hash that differs from the student's
// `prepared` inputs, taken out of `results` and returned, each with its change_reason in `reasons`.
std::map<ResultKey, LabResult> take_out_changed(std::map<ResultKey, LabResult>& results, const std::map<ResultKey, json>& records,
                                                const std::map<std::string, PreparedStudent>& prepared,
                                                std::map<ResultKey, std::string>& reasons);

}  // namespace grader
