#pragma once
// Lab 08, part 4: lab 06's cascade dot product in one launch. Every work-group stores its partial
// and takes a ticket (atomic_inc); the group that draws the last ticket adds the partials on the
// device and sets the ticket back to 0. One launch, one read of one float. Shared by the lab's
// program, the grader and the benchmark (reduction-benchmark's "SinglePassDot" column).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kit/device.hpp"
#include "kit/program.hpp"
#include "kit/timing.hpp"
#include "kit/verdict.hpp"

namespace lab08 {

struct Case;

// The kernel's shape: L (0: 1 on a CPU, else the largest power of two up to 256 the kernel allows)
// and G (0: the default below). The last group adds G partials, ceil(G / L) loads per work-item,
// which a GPU waits for at the end of the launch, so G is no larger than the sweep needs: on a GPU
// one group per 64 L elements (each work-item sweeping 64 floats of each array), rounded to whole
// compute units and kept between 2 and 8 groups per compute unit (8 of 256 fill an H100's compute
// unit); on a CPU kSinglePassGroupsPerComputeUnitCpu per compute unit. On an H100 (L = 256), of 1 to
// 16 per compute unit, 2 were the fastest at 4Mi and within the noise of the best at 1Mi-8Mi, and
// 8 the fastest at 16Mi (slides/data/logs/NVIDIA-H100-2026-11-25-single-pass-groups.txt).
// Which branch of dot_sweep the host builds: the one the device type picks (-D CONTIGUOUS on a
// CPU), or the CPU's or the GPU's whatever the device, as a grading case asks (lab 06's the same).
enum class SweepBranch { Device, Cpu, Gpu };
struct SinglePassShape {
  std::size_t local = 0, groups = 0;
  SweepBranch branch = SweepBranch::Device;
};
inline constexpr std::size_t kSinglePassGroupsPerComputeUnitCpu = 8;
// G on a GPU for N elements, work-groups of L and `units` compute units (the rule above).
std::size_t single_pass_gpu_groups(std::size_t elements, std::size_t local, std::size_t units);

struct SinglePassOutputs {
  float result = 0;
  std::size_t groups = 0, local = 0;
  bool contiguous = false;     // built with -D CONTIGUOUS (the CPU's sweep)
  std::vector<double> results;  // every launch's result, in order (warm-ups first)
  std::uint32_t ticket_after = 0;  // the ticket after the last launch: 0 when the last group set it back
  kit::Timing timing;           // launch to the result on the host
};

// Builds dot_single_pass once (with -D CONTIGUOUS on a CPU device) and keeps its buffers; the
// ticket starts at 0 and the kernel itself sets it back, so a run is one launch and one read.
class SinglePass {
 public:
  SinglePass(const kit::Runtime& rt, const std::filesystem::path& kernel_file, std::size_t elements, SinglePassShape shape,
             const float* a, const float* b, const std::string& shown_as = "");  // a, b: `elements` floats each
  // One launch and the blocking read of its result; `poison` first writes NaN into the result, so
  // that a launch that writes none shows (the checks do; the benchmark times the launch alone).
  float run_once(bool poison);
  SinglePassOutputs run(int warmup, int repeats, bool poison);
  std::size_t groups() const { return groups_; }
  std::size_t local() const { return local_; }

 private:
  const kit::Runtime& rt_;
  std::size_t elements_, local_ = 0, groups_ = 0;
  bool contiguous_ = false;
  cl::Program program_;  // kept as long as its kernel: Oclgrind 21.10 corrupts its heap when a kernel outlives its program
  cl::Kernel kernel_;
  cl::Buffer a_, b_, partials_, ticket_, result_;
};

// The exact dot product of whole-number data and its magnitude (sum |a_i b_i|), in double: every
// product and partial sum is a whole number below 2^53.
struct DotExpected {
  double exact = 0, abs = 0;
  // The results when the trees add nothing (tree_sum left empty), for the CPU branch's runs and the
  // GPU branch's grid stride: work-item 0 of the last group adds the partials t = 0, L, 2L, ...,
  // each its own group's work-item 0's sum. Not stored in references; empty when not known.
  std::vector<double> empty_tree = {};
};
DotExpected expected_dot(const std::vector<float>& a, const std::vector<float>& b);
std::vector<double> empty_tree_dots(const std::vector<float>& a, const std::vector<float>& b, std::size_t local, std::size_t groups);
// The two arrays a case dots: whole numbers -8..8 (seeds c.seed and c.seed + 1).
std::vector<float> dot_input(const Case& c, int which);

// 0 when every partial sum is exact: whole numbers with sum |a_i b_i| <= 2^24 add exactly in float
// in any order. Otherwise gamma_D * sum |a_i b_i| (Higham), D the most roundings one product
// meets: its own, ceil(N / 4GL) float4 adds (the CPU sweep's run of p chunks meets at most p), 2 to
// join the lanes, 1 for the tail, log2 L in its group's tree, ceil(G / L) in the last group's loop
// and log2 L in its tree.
double single_pass_bound(std::size_t elements, std::size_t local, std::size_t groups, const DotExpected& e);
// Every launch's result within the bound, and, where `ticket_after` is given, the ticket back at 0
// after the last launch (the kernel itself readies the next launch); the hint names the mistake a
// wrong one matches.
kit::Verdict check_single_pass(std::size_t elements, std::size_t local, std::size_t groups,
                               const std::vector<std::pair<double, int>>& results, const DotExpected& e,
                               std::optional<std::uint32_t> ticket_after = std::nullopt);

}  // namespace lab08
