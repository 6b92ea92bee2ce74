#pragma once
// A second OpenCL implementation as witness. A case that the graded device got wrong, or crashed
// on, is judged again by what Oclgrind computes for it with the lab's own check. When Oclgrind
// computes the right result and finds nothing, the device disagrees with an independent
// implementation of OpenCL on a kernel that shows no fault: the line becomes "device-disagrees"
// (label DEVICE) instead of "wrong", and earns the spec's share of its points (all of them by default).
//
// A case the stage under Oclgrind ran whole with every check (oclgrind_stage.hpp) is witnessed by
// that run: its outputs and its findings; nothing runs again. A larger case is run here:
//  - a case of up to kWitnessFullWork elements x launches with every check (first with Oclgrind's
//    own checks only, which compute the same outputs several times faster: a wrong result there
//    ends it);
//  - a larger one with Oclgrind's own checks only (bounds and barriers: a race check there would
//    take minutes), and only after a smaller failing case of the same kernel function was
//    witnessed with every check.
// The witness never rescues a kernel that has a fault Oclgrind can see, or one whose result only
// Oclgrind's schedule makes right (it runs work-groups one after another, and the work-items of a
// group in turn between barriers): its run must report nothing; a spec's allowed false alarm
// counts only where the lab's fence check (a ticket counter's) passes on the same run; no fence
// check of the result may be wrong. Cases of one kernel function are witnessed smallest first; a
// case wrong under Oclgrind too stays wrong, and the later ones are still witnessed; but once a
// run with every check found a fault in the kernel (the kernel's own, which explains what any
// device computes) or ran past its time limit, the function's later cases are not witnessed.
// Where the kernel has the loop of a known compiler fault of the graded device (kit/witness.hpp,
// known_device_fault_rewrite) and a smaller case of the same function was witnessed with every
// check, a later case is first run on the device with the kernel built with -cl-opt-disable, which
// avoids that fault: right there, and nothing written past a buffer's end, it is device-disagrees
// without an Oclgrind run. A case too large for every Oclgrind check that is wrong there too,
// where the smaller case is right there, keeps the device's verdict without an Oclgrind run.
// Where nothing shows that Oclgrind ran (the stage's evidence, or a run here whose child did not
// see Oclgrind's device or left no plugin record), no witness speaks.
// The runs of one lab result share a time budget (kWitnessBudgetSeconds); a case left without a
// witness keeps its status, and its message says why.
#include <filesystem>
#include <string>

#include "core/results.hpp"
#include "judge/grade.hpp"
#include "judge/oclgrind_stage.hpp"
#include "spec/references.hpp"
#include "spec/spec.hpp"

namespace grader {

inline constexpr double kWitnessFullWork = 262144;
inline constexpr double kWitnessBudgetSeconds = 600;  // a loaded machine runs Oclgrind several times slower
inline constexpr double kWitnessLargeCaseSeconds = 300;  // one run of Oclgrind's own checks on a large case

// Runs the witness for every wrong or crashed case of `r` (see above), reading the stage's
// evidence `e`; needs a safety block in the spec and grading.witness. Adds the seconds spent to
// the "witness" phase.
void witness_failed_cases(const LabSpec& spec, const LabReference& reference, const GradeSettings& s, const OclgrindEvidence& e,
                          const std::filesystem::path& copy, const std::string& source, const std::string& shown_as, LabResult& r);

// The share of a case's points a device-disagrees line earns under these settings.
double device_disagrees_share(const LabSpec& spec, const GradeSettings& s);

}  // namespace grader
