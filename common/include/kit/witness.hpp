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
// the value this run used, and the largest the witness runs (a larger value is replaced by it).
struct WitnessCap {
  std::string short_name, long_name;
  std::size_t value = 0, at_most = 0;
};

// After a failed --check: runs this program again under Oclgrind (same arguments, less the device
// choice, one timed run, the caps applied), prints what it showed, and returns the exit status to
// leave with: 0 only when the witness ran this very check (no cap applied) and Oclgrind computed
// it right with no finding; else `status`. Prints nothing and returns `status` where Oclgrind is
// not installed, or when this run is the witness (or already under Oclgrind).
int witness_failed_check(int argc, char** argv, const std::vector<WitnessCap>& caps, const std::string& kernel_file,
                         const std::string& device, int status);

// The rewrite that avoids a device fault the kit knows, when `source` has its pattern and
// `device` (a device's name and driver, as Runtime::summary() gives them) is one that has it;
// empty otherwise. The grader's device-disagrees lines give it as their hint too.
std::string known_device_fault_rewrite(const std::string& source, const std::string& device);

}  // namespace kit
