#pragma once
// How each kernel is graded: one set of choices with one meaning in every tool (check, grade,
// gradescope, slurm, mutants, bench). Each tool's own options hold a GradingOptions and add only
// what is the tool's (folders, jobs, the term).
#include <vector>

#include "kit/device.hpp"

namespace grader {

// Which lines rest on Oclgrind. Every case graded is looked at under Oclgrind at its own shape
// unless None (judge/oclgrind_stage.hpp), so that a case's verdict is the same whichever lines
// are shown. They do not depend on the device, so a machine without Oclgrind (a GPU node) can
// grade the rest with None.
enum class OclgrindChecks {
  All,            // the memory-safety lines (races, divergence, bounds, uninitialized) and the algorithm lines
  AlgorithmOnly,  // --no-races: the algorithm lines only
  None,           // --no-oclgrind: no Oclgrind run at all: the cases are judged on the device alone
};

struct GradingOptions {
  int pocl_threads = 1;        // PoCL threads per graded case (a case may ask for its own count)
  bool visible_only = false;   // the students' self-check: visible cases only
  bool estimate_speed = false; // the self-check's speed line: estimated from a stored figure (judge/speed_estimate.hpp)
  OclgrindChecks oclgrind = OclgrindChecks::All;
  std::vector<kit::DeviceOptions> devices{};  // graded on each, right on all (empty: PoCL's CPU device)
  bool stop_at_first_loss = false;  // `grader mutants`' screening: the rest is "not-run" once a case loses points
  bool child_per_case = false;      // the earlier way (a child for the build and each case), for `grader bench`
  // A wrong or crashed case is run again under Oclgrind, and one that Oclgrind computes right with
  // no finding is "device-disagrees" (judge/witness.hpp). Off only with OclgrindChecks::None.
  bool witness = true;
  double device_disagrees_share = -1;  // --device-disagrees-share: the share of such a case's points it earns (-1: the spec's)

  bool safety() const { return oclgrind == OclgrindChecks::All; }
  bool algorithm() const { return oclgrind != OclgrindChecks::None; }
};

}  // namespace grader
