#pragma once
// A lab program's failed --check, witnessed: the program runs the same check again under
// Oclgrind, an independent OpenCL implementation (with the checks `grader check` uses), at a size
// that takes seconds, and says whether the kernel computed it right there. Where it did and
// Oclgrind found nothing, the device got it wrong, not the kernel (the grader's device-disagrees).
#include <cstddef>
#include <string>
#include <vector>

namespace kit {

// A size option the witness run caps: its names as the program takes them ("-n", "--elements"),
// and the largest value the witness runs (a larger value is replaced by it).
struct WitnessSize {
  std::string short_name, long_name;
  std::size_t at_most = 0;
};

// What Oclgrind cannot see in a lab, said after every witness run. With `check` (an oclgrind
// option, "--uninitialized"), that check is left out of the lab's witness; without, the fault is
// one Oclgrind's run computes right (a race between work-groups, which it runs one after another),
// so a right result with no finding does not clear the kernel: no DEVICE verdict in that lab.
struct WitnessBlindSpot {
  std::string check;
  std::string why;  // in words that follow "Oclgrind's --check is left out in this lab: " or "Oclgrind cannot tell in this lab: "
};

// What differs between the labs' witnesses, kept as each lab's data (its header's kWitness): the
// lab's own size options, and the checks Oclgrind cannot make in it.
struct WitnessPlan {
  std::vector<WitnessSize> sizes;
  std::vector<WitnessBlindSpot> blind;
};

// The plan of a lab whose one size is N (-n, --elements), capped at 64Ki elements, and which
// Oclgrind sees whole: labs 01 to 06.
inline const WitnessPlan kElementsWitness{{{"-n", "--elements", 65536}}, {}};

// The Oclgrind options of a witness run of `plan` (the grader's checks, less the plan's blind ones).
std::string witness_oclgrind_checks(const WitnessPlan& plan);

// After a failed --check: runs this program again under Oclgrind (same arguments, less the device
// choice, one timed run, the plan's sizes capped: `values` holds this run's value of each, in the
// plan's order), prints what it showed and what Oclgrind cannot see, and returns the exit status to
// leave with: 0 only when the witness ran this very check (no cap applied) and Oclgrind computed
// it right with no finding; else `status`. A finding is told in the words `grader check` uses
// (kit/evidence_hint.hpp). Fails closed: no verdict unless the kit's plugin recorded the run (an
// oclgrind whose runtime library is not loaded runs the program on the ordinary platform). Prints
// nothing and returns `status` where Oclgrind is not installed ($KIT_OCLGRIND, else /usr/bin or
// /usr/local/bin), or when this run is the witness (or already under Oclgrind).
int witness_failed_check(int argc, char** argv, const WitnessPlan& plan, const std::vector<std::size_t>& values,
                         const std::string& kernel_file, const std::string& device, int status);

// The rewrite that avoids a device fault the kit knows, when `source` has its pattern and
// `device` (a device's name and driver, as Runtime::summary() gives them) is one that has it;
// empty otherwise. The grader's device-disagrees lines give it as their hint too.
std::string known_device_fault_rewrite(const std::string& source, const std::string& device);

}  // namespace kit
