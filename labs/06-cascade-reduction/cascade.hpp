#pragma once
// Lab 06 host logic, shared by the lab's program, the grader and the benchmark: lab 03's dot
// product as a cascade — a fixed number of work-groups, many elements per work-item with float4
// loads, one local tree and one partial per work-group, then a final combine on the host or in a
// second, one-work-group launch.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kit/data.hpp"
#include "kit/device.hpp"
#include "kit/kernel_code.hpp"
#include "kit/program.hpp"
#include "kit/timing.hpp"
#include "kit/verdict.hpp"

namespace lab06 {

inline const std::string kLab = "06-cascade-reduction";
inline const std::string kKernelFile = "CascadeDot.cl";
const std::vector<kit::KernelSignature>& signatures();  // DotCascade, SumPartials

// Which branch of DotCascade the host builds: the one the device type picks (-D CONTIGUOUS on a
// CPU, the grid-stride loop elsewhere), or one forced, so that a CPU can run the GPU's branch too
// (the grader grades both on PoCL; the program's --branch).
enum class Branch { Device, Cpu, Gpu };
Branch parse_branch(const std::string& text);  // "device", "cpu", "gpu"; kit::Error lists them
std::string to_string(Branch branch);
bool contiguous(Branch branch, const cl::Device& device);  // builds with -D CONTIGUOUS (the CPU branch)?

struct Case {
  std::size_t elements = std::size_t(64) << 20;
  std::size_t local = 0;   // 0: 1 on a CPU (one contiguous run per work-item), else min(kDefaultGpuLocal, the kernels' max)
  std::size_t groups = 0;  // 0: kGroupsPerComputeUnit{Cpu,Gpu} x the device's compute units
  kit::DataKind kind = kit::DataKind::Reals;
  std::uint64_t seed = 1;
  bool device_combine = false;  // SumPartials on the device instead of adding partials on the host
  Branch branch = Branch::Device;
};
// A CPU core runs its work-groups one after another: a few per core balance the load. A GPU wants
// enough groups in flight to hide memory latency: on the H200 (256Mi, L = 256), 64 per compute unit
// gave DotCascade 576-579 GNum/s of its own time against 561-569 for 8, and the best host-timed
// figure too; 128 per compute unit gave 581-582 alone but less host-timed, the partials' read-back
// and host add costing more than they save (slides/data/logs/NVIDIA-H200-2026-11-21-lab06-*.txt).
inline constexpr std::size_t kGroupsPerComputeUnitCpu = 8, kGroupsPerComputeUnitGpu = 64;
// A GPU's default work-group: the largest power of two up to this that both kernels can run (the
// shape the lab's GPU figures were measured at; any other L up to the kernels' limit is --local's).
inline constexpr std::size_t kDefaultGpuLocal = 256;
void validate(const Case& c);  // L a power of two (or 0 for the default), N >= 1

struct Inputs {
  std::vector<float> a, b;
};
Inputs make_inputs(const Case& c);

struct Outputs {
  double result = 0;  // the dot product: partials added on the host in double, or SumPartials' float
  std::vector<float> partials;
  std::size_t groups = 0, local = 0;
  bool contiguous = false;  // the branch that ran: -D CONTIGUOUS (the CPU's) or the grid-stride loop
  kit::Timing timing;  // the launch(es), and the partials' read-back and host add when combined there
  double kernel_best = 0;  // DotCascade's own device time (profiling event), best of the timed runs
  kit::KernelCode kernel;       // the file's code and its build's warnings, for the diagnosis
};

// Builds the kernels once and keeps the buffers, so that one run can be timed against another's.
class Runner {
 public:
  Runner(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c, const Inputs& in,
         const std::string& shown_as = "");
  double run_once();                    // one reduction; returns its seconds
  Outputs run(int warmup, int repeats);  // timed, with the last run's outputs
  std::size_t groups() const { return groups_; }
  std::size_t local() const { return c_.local; }
  bool contiguous() const { return contiguous_; }

 private:
  const kit::Runtime& rt_;
  Case c_;
  std::size_t groups_;
  bool contiguous_ = false;
  cl::Kernel dot_, sum_;
  kit::KernelCode kernel_;  // the file's code and warnings, handed to each run's Outputs
  cl::Buffer a_, b_, partials_, result_;
  std::vector<float> host_partials_;
  double host_result_ = 0;
  double kernel_seconds_ = 0;  // DotCascade's device time in the last run
};

struct Expected {
  double value = 0, abs = 0;
};
Expected expected(const Inputs& in);

// Whole-number data (int, unit) with sum|a_i b_i| below 2^24: exact; larger, but with every
// work-group's share below 2^24: exact with the host combine, SumPartials' own rounding with the
// device combine. Otherwise gamma_D * sum|a_i b_i| with D
// the most roundings one product meets: its own, ceil(N / 4GL) adds in a float4 lane, 2 to join
// the lanes, 1 for the tail, log2 L in the tree, and on the device ceil(G / L) + log2 L more.
// The solution's CPU branch meets fewer: for a run of p = 16q + r chunks (q >= 1), q adds in its
// float8 sums, 4 to fold them into float4, r in the float4 loop, and q + 4 + r <= p.
double tolerance(const Case& c, std::size_t groups, const Expected& e);
std::optional<std::string> difference(const Case& c, const Outputs& out, const Expected& e);
// The typical mistake a wrong result matches, computed from the inputs: nothing added, the scalar
// tail (the last n % 4 products) missing or added twice; otherwise how far off it is, no guess.
std::string diagnose(const Case& c, const Inputs& in, const Outputs& out, const Expected& e);
// The lab's verdict on one run (program --check, grader, tests): difference and diagnose.
kit::Verdict check(const Case& c, const Inputs& in, const Outputs& out, const Expected& e);

// The runner's kernel timed alternately against the host's OpenMP dot product of the same inputs
// (kit::openmp_dot, on OMP_NUM_THREADS threads): above 1 the kernel is faster. `section` is called
// around the timed runs only (kit::TimedSection).
kit::SpeedRatio openmp_speed_ratio(Runner& kernel, const Inputs& in, int pairs, const kit::TimedSection& section = {});

// kit::alternating_speed_ratio of two runners: above 1 the candidate is faster.
kit::SpeedRatio speed_ratio(Runner& candidate, Runner& baseline, int pairs, const kit::TimedSection& section = {});

}  // namespace lab06
