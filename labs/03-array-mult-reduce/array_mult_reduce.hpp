#pragma once
// Lab 03 host logic, shared by the lab's program and the grader: run one case of the
// ArrayMultReduce kernel and compare its per-work-group sums with the host reference.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kit/data.hpp"
#include "kit/device.hpp"
#include "kit/kernel_code.hpp"
#include "kit/program.hpp"
#include "kit/reference.hpp"
#include "kit/timing.hpp"
#include "kit/verdict.hpp"

namespace lab03 {

inline const std::string kLab = "03-array-mult-reduce";
inline const std::string kKernelFile = "ArrayMultReduce.cl";
inline const kit::KernelSignature kSignature{
    "ArrayMultReduce",
    {"global const float *dA", "global const float *dB", "local float *prods", "global float *dC"}};

struct Case {
  std::size_t elements = std::size_t(8) << 20;  // N
  std::size_t local = 32;                       // L, the work-group size
  kit::DataKind kind = kit::DataKind::Reals;
  std::uint64_t seed = 1;
  std::size_t groups() const { return elements / local; }
};

// Throws kit::Error naming the value at fault: L must be a power of two (the bitmask tree needs
// it) and N a multiple of L (one work-item per element, whole work-groups).
void validate(const Case& c);

struct Inputs {
  std::vector<float> a, b;  // streams 1 and 2 of the case's seed
};
Inputs make_inputs(const Case& c);

struct Outputs {
  std::vector<float> partials;  // dC after the last run, one sum per work-group
  double total = 0;             // the partials added on the host (in double)
  kit::Timing timing;           // enqueue + finish, seconds (the slide's way: the kernel alone)
  kit::Timing whole;            // the same runs to the total on the host: + reading the partials and adding them
  kit::KernelCode kernel;       // the file's code and its build's warnings, for the diagnosis
};

// Builds `kernel_file`, checks its signature and the local size against the device, runs the
// case `warmup` + `repeats` times and returns the last run's partial sums. dC is filled with NaN
// first, so a work-group that never writes its sum shows up as NaN.
// `shown_as` names the file in compiler messages (default: its path).
Outputs run(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c,
            const Inputs& in, int warmup, int repeats, const std::string& shown_as = "");

struct Expected {
  std::vector<kit::Sum> groups;
  kit::Sum total;
};
Expected expected(const Case& c, const Inputs& in);

// How far a device result may be from the reference. Integer data: 0 (every partial is a whole
// number below 2^24, so float arithmetic is exact in any order). Real data: the float rounding
// bound of an L-term tree dot product, plus the reference's own double rounding.
double group_tolerance(const Case& c, const kit::Sum& group);
double total_tolerance(const Case& c, const Expected& e);

struct Mismatch {
  std::size_t group;
  double expected, got, tolerance;
};
std::optional<Mismatch> first_wrong_group(const Case& c, const Outputs& out, const Expected& e);
bool within(double got, double expected, double tolerance);  // false for NaN

// One hint for a wrong work-group sum: the typical mistake it matches, found from the kernel's code
// (a tree loop without a barrier is named whatever sums that race gave: they depend on how the
// work-groups were scheduled) and by recomputing what each other mistake produces for that
// work-group; a hint about the code is given only where the code bears it out. The compiler's
// warnings on the student's lines follow.
std::string diagnose(const Case& c, const Inputs& in, const Outputs& out, const Mismatch& m);
// The lab's verdict on a run, used by the program's --check, the grader and the tests: every
// work-group's sum within its bound, then the host total; else what differs and the mistake it matches.
kit::Verdict check(const Case& c, const Inputs& in, const Outputs& out, const Expected& e);

// The lecture's figure of merit: N / seconds / 1e9.
double giga_numbers_per_second(std::size_t elements, double seconds);

}  // namespace lab03
