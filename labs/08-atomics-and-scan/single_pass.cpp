// Lab 08, part 4: the single-launch cascade (dot_single_pass) run, and its verdict.
#include "single_pass.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "atomics_scan.hpp"
#include "atomics_scan_detail.hpp"
#include "kit/buffer.hpp"
#include "kit/launch.hpp"
#include "kit/reference.hpp"

namespace lab08 {
using namespace detail;

namespace {

const kit::KernelSignature& single_pass_signature() { return signature("dot_single_pass"); }

}  // namespace

SinglePass::SinglePass(const kit::Runtime& rt, const std::filesystem::path& kernel_file, std::size_t elements,
                       SinglePassShape shape, const float* a, const float* b, const std::string& shown_as)
    : rt_(rt), elements_(elements) {
  if (elements == 0) throw kit::Error("dot_single_pass: element count 0: there is nothing to add");
  const std::string name = shown_as.empty() ? kernel_file.string() : shown_as;
  const bool cpu = (rt.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0;
  contiguous_ = shape.branch == SweepBranch::Cpu || (shape.branch == SweepBranch::Device && cpu);
  program_ = kit::build_program(rt.context, rt.device, kernel_file, contiguous_ ? "-D CONTIGUOUS" : "", name);
  kernel_ = kit::make_kernel(program_, single_pass_signature(), name);
  local_ = shape.local;
  if (local_ == 0) {
    const std::size_t most = kit::kernel_work_group_limit(rt.device, kernel_, 256).most;
    local_ = 1;
    while (!cpu && 2 * local_ <= std::min<std::size_t>(256, most)) local_ *= 2;
  }
  if (!power_of_two(local_)) throw kit::Error("dot_single_pass: local size " + str(local_) + " must be a power of two (its trees halve it)");
  kit::check_local_size(rt.device, kernel_, local_, local_ * sizeof(float));
  const std::size_t units = rt.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  groups_ = shape.groups ? shape.groups
                         : cpu ? kSinglePassGroupsPerComputeUnitCpu * units : single_pass_gpu_groups(elements, local_, units);
  kit::check_float_array(rt.device, elements);
  const std::size_t bytes = elements * sizeof(float);
  const cl_uint zero = 0;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  a_ = kit::make_buffer(rt, CL_MEM_READ_ONLY, bytes, a);
  b_ = kit::make_buffer(rt, CL_MEM_READ_ONLY, bytes, b);
  std::vector<float> no_partials(groups_, nan);  // from host memory, never clEnqueueFillBuffer (see detail)
  partials_ = kit::make_buffer(rt, CL_MEM_READ_WRITE, groups_ * sizeof(float), no_partials.data());
  ticket_ = kit::make_buffer(rt, CL_MEM_READ_WRITE, sizeof zero, &zero);
  // The result in host-accessible memory: on an H100 the blocking read of 4 bytes from it took 2-3 %
  // less of the launch at 16Mi, round by round (slides/data/logs/NVIDIA-H100-2026-11-26-read-back.txt).
  result_ = kit::make_buffer(rt, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, sizeof nan, &nan);
  kernel_.setArg(0, a_);
  kernel_.setArg(1, b_);
  kernel_.setArg(2, cl::Local(local_ * sizeof(float)));
  kernel_.setArg(3, partials_);
  kernel_.setArg(4, ticket_);
  kernel_.setArg(5, result_);
  kernel_.setArg(6, cl_uint(elements));
}

std::size_t single_pass_gpu_groups(std::size_t elements, std::size_t local, std::size_t units) {
  const std::size_t per_unit = (elements + 32 * local * units) / (64 * local * units);  // rounded to the nearest
  return std::clamp<std::size_t>(per_unit, 2, 8) * units;
}

float SinglePass::run_once(bool poison) {
  static const float nan = std::numeric_limits<float>::quiet_NaN();
  if (poison) rt_.queue.enqueueWriteBuffer(result_, CL_FALSE, 0, sizeof nan, &nan);
  kit::launch(rt_.queue, kernel_, cl::NDRange(groups_ * local_), cl::NDRange(local_));
  float r = 0;
  rt_.queue.enqueueReadBuffer(result_, CL_TRUE, 0, sizeof r, &r);
  return r;
}

SinglePassOutputs SinglePass::run(int warmup, int repeats, bool poison) {
  SinglePassOutputs out;
  out.groups = groups_;
  out.local = local_;
  out.contiguous = contiguous_;
  out.timing = kit::time_runs(warmup, repeats, [&] {
    out.result = run_once(poison);
    out.results.push_back(out.result);
  });
  rt_.queue.enqueueReadBuffer(ticket_, CL_TRUE, 0, sizeof out.ticket_after, &out.ticket_after);
  return out;
}

std::vector<float> dot_input(const Case& c, int which) {
  Case d = c;
  d.seed = c.seed + std::uint64_t(which);
  d.positive = false;
  const std::vector<std::int32_t> ints = make_ints(d);
  return std::vector<float>(ints.begin(), ints.end());
}

DotExpected expected_dot(const std::vector<float>& a, const std::vector<float>& b) {
  DotExpected e;
  for (std::size_t i = 0; i < a.size(); ++i) {
    e.exact += double(a[i]) * double(b[i]);
    e.abs += std::fabs(double(a[i]) * double(b[i]));
  }
  return e;
}

double single_pass_bound(std::size_t elements, std::size_t local, std::size_t groups, const DotExpected& e) {
  if (e.abs <= 0x1p24 && e.exact == std::floor(e.exact)) return 0;  // whole numbers below 2^24: exact in any order
  const std::size_t depth = 1 + ceil_div(elements, 4 * groups * local) + 2 + 1 + kit::tree_depth(local) + ceil_div(groups, local) +
                            kit::tree_depth(local);
  return kit::gamma_float(depth) * e.abs;
}

std::vector<double> empty_tree_dots(const std::vector<float>& a, const std::vector<float>& b, std::size_t local, std::size_t groups) {
  std::vector<double> results;
  if (local < 2) return results;  // a group of one has no tree to leave out
  const std::size_t n = a.size(), items = local * groups, chunks = n / 4, per_item = (chunks + items - 1) / items;
  for (const bool contiguous : {true, false}) {
    double result = 0;
    for (std::size_t t = 0; t < groups; t += local) {  // the partials work-item 0 of the last group adds
      const std::size_t gid = t * local;               // work-item 0 of group t
      const auto chunk = [&](std::size_t k) {
        for (std::size_t i = 4 * k; i < 4 * k + 4; ++i) result += double(a[i]) * double(b[i]);
      };
      if (contiguous)
        for (std::size_t k = std::min(gid * per_item, chunks); k < std::min(gid * per_item + per_item, chunks); ++k) chunk(k);
      else
        for (std::size_t k = gid; k < chunks; k += items) chunk(k);
      for (std::size_t k = gid; k < n % 4; k += items) result += double(a[4 * chunks + k]) * double(b[4 * chunks + k]);
    }
    results.push_back(result);
  }
  return results;
}

namespace {

std::string single_pass_hint(double got, const DotExpected& e, double bound, bool some_right, bool first_right) {
  if (std::isnan(got))
    return first_right ? "the first launch was right and a later one wrote no result: the last group must set the ticket back "
                         "to 0 (atomic_xchg), or the next launch's tickets start at G and no group is the last; and each group "
                         "must take its ticket with atomic_inc: with a plain ++ two groups can draw the same number, none draws "
                         "G - 1, and the ticket is not set back"
                       : "no work-group wrote the result: the group whose atomic_inc returns G - 1 (the count before its own "
                         "increment) is the last one, and its work-item 0 writes result[0]";
  for (const double v : e.empty_tree)
    if (v != e.exact && std::fabs(got - v) <= bound)
      return "the result is what work-item 0 of each group holds before its tree: the trees add nothing. tree_sum holds "
             "your loop from lab 04 (rung 3, sequential addressing)";
  if (got == 0 && e.exact != 0)
    return "the result is 0: does dot_sweep return the work-item's products (its three regions: your lab 06 sweep and tail), "
           "and did the last group add the partials (every L-th one per work-item, then a tree)?";
  return std::string(some_right ? "some launches were right, others not: " : "") +
         "the last group added partials that were not all there: each group stores its partial, then a "
         "mem_fence(CLK_GLOBAL_MEM_FENCE), then takes its ticket; the last one fences after its ticket and before "
         "reading, and adds all G partials";
}

}  // namespace

kit::Verdict check_single_pass(std::size_t elements, std::size_t local, std::size_t groups,
                               const std::vector<std::pair<double, int>>& results, const DotExpected& e,
                               std::optional<std::uint32_t> ticket_after) {
  const double bound = single_pass_bound(elements, local, groups, e);
  int wrong = 0, launches = 0;
  std::optional<double> first_wrong;
  bool first_right = false;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto [got, runs] = results[i];
    launches += runs;
    const bool ok = std::fabs(got - e.exact) <= bound;  // false for NaN
    if (i == 0) first_right = ok;
    if (ok) continue;
    wrong += runs;
    if (!first_wrong) first_wrong = got;
  }
  if (!first_wrong && ticket_after && *ticket_after != 0)
    return {false,
            "every result was right, but after the last launch the ticket holds " + std::to_string(*ticket_after) +
                ", not 0: the next launch's tickets would start there",
            "the last group must set the ticket back to 0 (atomic_xchg(ticket, 0)) after it has read the partials, so that the "
            "next launch starts from 0 with no write from the host; a launch after a wrong reset picks the wrong group as the last"};
  if (!first_wrong) return {};
  const std::string what = "the dot product of " + str(elements) + " whole numbers by " + str(groups) + " work-groups of " + str(local) +
                           ": expected " + number(e.exact) + ", got " + number(*first_wrong) +
                           (bound == 0 ? " (exact: whole numbers below 2^24 add exactly in float, in any order)"
                                       : ", tolerance " + number(bound) + " (the sweep's and the trees' rounding bound)");
  const std::string count = launches == 1 ? "" : std::to_string(wrong) + " of " + std::to_string(launches) + " launches wrong; the first: ";
  return {false, count + what, single_pass_hint(*first_wrong, e, bound, wrong < launches, first_right)};
}

}  // namespace lab08
