#pragma once
// A second OpenCL implementation as witness. A case that the graded device got wrong, or crashed
// on, is run again under Oclgrind and judged by the lab's own check. When Oclgrind computes the
// right result and finds nothing, the device disagrees with an independent implementation of
// OpenCL on a kernel that shows no fault: the line becomes "device-disagrees" (label DEVICE)
// instead of "wrong", and earns the spec's share of its points (all of them by default).
//
// The witness never rescues a kernel that has a fault Oclgrind can see, or one whose result only
// Oclgrind's schedule makes right (it runs work-groups one after another, and the work-items of
// a group in turn between barriers):
//  - its run must report nothing: no invalid access, no barrier divergence, and, in a run with
//    every check (cases of up to kWitnessFullWork elements x launches), no data race (with
//    --uniform-writes) and no uninitialized value. A spec's allowed false alarm counts only where
//    the lab's fence check (a ticket counter's) passes on the same run;
//  - a larger case is run with Oclgrind's own checks only (bounds and barriers: a race check
//    there would take minutes), and is witnessed only after a smaller failing case of the same
//    kernel function was witnessed with every check;
//  - no fence check of the result is wrong (a race or an invalid access is looked for in each
//    witness run itself, on the very case; a fault in another kernel function blocks nothing);
//  - cases of one kernel function are witnessed smallest first; a case wrong under Oclgrind too
//    stays wrong, and the later ones are still witnessed (a kernel can be wrong on some cases and
//    computed wrong by the device on others); but once a run with every check found a fault in the
//    kernel (a race, an access out of bounds, ...: the kernel's own, which explains what any device
//    computes) or ran past its time limit, the function's later (larger) cases are not witnessed.
// Where the kernel has the loop of a known compiler fault of the graded device (kit/witness.hpp,
// known_device_fault_rewrite) and a smaller case of the same function was witnessed with every
// check, a later case is first run on the device with the kernel built with -cl-opt-disable, which
// avoids that fault: right there, and nothing written past a buffer's end, it is device-disagrees
// without an Oclgrind run (seconds, where a large case takes minutes under Oclgrind). A case too
// large for every check that is wrong there too, where the smaller case is right there, keeps the
// device's verdict without an Oclgrind run (the fault explains the smaller case, not this one).
// A case to be run with every check is run first with Oclgrind's own checks only, which compute
// the same outputs several times faster: a wrong result there ends it (the run with every check
// would compute the same wrong result). Those first runs of a lab result's small cases share one
// child (witness_outputs.hpp), where the known fault's step does not apply.
// The runs of one lab result share a time budget (kWitnessBudgetSeconds); a case left without a
// witness keeps its status, and its message says why.
#include <filesystem>
#include <string>

#include "core/results.hpp"
#include "judge/grade.hpp"
#include "spec/references.hpp"
#include "spec/spec.hpp"

namespace grader {

inline constexpr double kWitnessFullWork = 262144;
inline constexpr double kWitnessBudgetSeconds = 600;  // a loaded machine runs Oclgrind several times slower
inline constexpr double kWitnessLargeCaseSeconds = 300;  // one run of Oclgrind's own checks on a large case

// Runs the witness for every wrong or crashed case of `r` (see above); needs Oclgrind, a safety
// block in the spec and grading.witness. Adds the seconds spent to the "witness" phase.
void witness_failed_cases(const LabSpec& spec, const LabReference& reference, const GradeSettings& s,
                          const std::filesystem::path& copy, const std::string& source, const std::string& shown_as, LabResult& r);

// The share of a case's points a device-disagrees line earns under these settings.
double device_disagrees_share(const LabSpec& spec, const GradeSettings& s);

// The same submission, the same points, every run: where the memory-safety run found a barrier
// that not every work-item reaches (undefined behaviour: a device may compute the right result in
// one run and crash in the next), the cases of each kernel function are run under Oclgrind,
// smallest first, and each case on which Oclgrind reports the divergence is judged by that run:
// "wrong", no points, the message naming the barrier and what the device did this time. These runs
// take each launch's first and last work-group only (Oclgrind's --quick). A kernel
// function whose first two cases of more than one work-item per group show no divergence is left
// as the device graded it. Shares kWitnessBudgetSeconds; runs before the witness.
void judge_undefined_behaviour(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& copy, const std::string& source,
                               const std::string& shown_as, LabResult& r);

}  // namespace grader
