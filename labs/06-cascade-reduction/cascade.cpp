#include "cascade.hpp"

#include <limits>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "kit/buffer.hpp"
#include "kit/baseline.hpp"
#include "kit/launch.hpp"
#include "kit/errors.hpp"
#include "kit/local_size.hpp"
#include "kit/reference.hpp"

namespace lab06 {

const std::vector<kit::KernelSignature>& signatures() {
  static const std::vector<kit::KernelSignature> all = {
      {"DotCascade",
       {"global const float *dA", "global const float *dB", "local float *scratch", "global float *partials", "const uint n"}},
      {"SumPartials", {"global const float *partials", "global float *result", "local float *scratch", "const uint count"}}};
  return all;
}

Branch parse_branch(const std::string& text) {
  if (text == "device") return Branch::Device;
  if (text == "cpu") return Branch::Cpu;
  if (text == "gpu") return Branch::Gpu;
  throw kit::Error("branch '" + text + "' is not one of: device (the device type picks), cpu (-D CONTIGUOUS), gpu (the grid-stride loop)");
}

std::string to_string(Branch branch) {
  switch (branch) {
    case Branch::Device: return "device";
    case Branch::Cpu: return "cpu";
    case Branch::Gpu: return "gpu";
  }
  return "";
}

bool contiguous(Branch branch, const cl::Device& device) {
  return branch == Branch::Cpu || (branch == Branch::Device && (device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0);
}

void validate(const Case& c) {
  if (c.local != 0) {  // 0: the default shape, chosen from the device (Case::local)
    kit::LocalSizeRule rule;
    rule.power_of_two = true;
    rule.power_why = "the local tree folds the upper half of scratch onto the lower half, L/2, L/4, ..., 1, which adds "
                     "every work-item's sum only in a group of 1, 2, 4, ... work-items";
    kit::require_local_size(c.local, rule);
  }
  if (c.elements == 0) throw kit::Error("element count 0: there is nothing to reduce");
  if (c.elements > std::size_t(UINT32_MAX)) throw kit::Error("element count " + std::to_string(c.elements) + " does not fit a uint");
}

Inputs make_inputs(const Case& c) {
  return {kit::make_data(c.kind, c.seed, 1, c.elements), kit::make_data(c.kind, c.seed, 2, c.elements)};
}

Runner::Runner(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c_in, const Inputs& in,
               const std::string& shown_as)
    : rt_(rt), c_(c_in) {
  validate(c_in);
  const std::string name = shown_as.empty() ? kernel_file.string() : shown_as;
  const bool cpu = (rt.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0;
  const Case& c = c_;
  contiguous_ = lab06::contiguous(c.branch, rt.device);
  cl::Program program = kit::build_program(rt.context, rt.device, kernel_file, contiguous_ ? "-D CONTIGUOUS" : "", name);
  kernel_ = kit::kernel_code(program, rt.device, kernel_file, name);
  dot_ = kit::make_kernel(program, signatures()[0], name);
  sum_ = kit::make_kernel(program, signatures()[1], name);
  if (c_.local == 0) {  // the default shape: see Case::local
    const std::size_t most = std::min(kit::kernel_work_group_limit(rt.device, dot_, kDefaultGpuLocal).most,
                                      kit::kernel_work_group_limit(rt.device, sum_, kDefaultGpuLocal).most);
    std::size_t l = 1;
    while (2 * l <= std::min(kDefaultGpuLocal, most)) l *= 2;
    c_.local = cpu ? 1 : l;
  }
  kit::check_local_size(rt.device, dot_, c.local, c.local * sizeof(float));
  kit::check_local_size(rt.device, sum_, c.local, c.local * sizeof(float));
  groups_ = c.groups ? c.groups
                    : (cpu ? kGroupsPerComputeUnitCpu : kGroupsPerComputeUnitGpu) * rt.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  const std::size_t bytes = c.elements * sizeof(float);
  kit::check_float_array(rt.device, c.elements);
  a_ = kit::make_buffer(rt, CL_MEM_READ_ONLY, bytes, in.a.data());
  b_ = kit::make_buffer(rt, CL_MEM_READ_ONLY, bytes, in.b.data());
  partials_ = kit::make_buffer(rt, CL_MEM_READ_WRITE, groups_ * sizeof(float));
  result_ = kit::make_buffer(rt, CL_MEM_READ_WRITE, sizeof(float));
  // NaN in the partials and the result until a kernel writes them: a partial (or the result) that
  // is never written shows as NaN wherever the buffers' memory came from, fresh zeros (the
  // grader's) or a program's leftovers, so the program and the grader see the same evidence.
  // (Written from the host, not filled: Oclgrind counts a written buffer as initialized.)
  const std::vector<float> nans(groups_, std::numeric_limits<float>::quiet_NaN());
  rt.queue.enqueueWriteBuffer(partials_, CL_TRUE, 0, groups_ * sizeof(float), nans.data());
  rt.queue.enqueueWriteBuffer(result_, CL_TRUE, 0, sizeof(float), nans.data());
  host_partials_.resize(groups_);
  dot_.setArg(0, a_);
  dot_.setArg(1, b_);
  dot_.setArg(2, cl::Local(c.local * sizeof(float)));
  dot_.setArg(3, partials_);
  dot_.setArg(4, cl_uint(c.elements));
  sum_.setArg(0, partials_);
  sum_.setArg(1, result_);
  sum_.setArg(2, cl::Local(c.local * sizeof(float)));
  sum_.setArg(3, cl_uint(groups_));
}

double Runner::run_once() {
  const double t0 = omp_get_wtime();
  cl::Event dot_done;
  kit::launch(rt_.queue, dot_, cl::NDRange(groups_ * c_.local), cl::NDRange(c_.local), nullptr, &dot_done);
  if (c_.device_combine) {
    kit::launch(rt_.queue, sum_, cl::NDRange(c_.local), cl::NDRange(c_.local));
    float r = 0;
    rt_.queue.enqueueReadBuffer(result_, CL_TRUE, 0, sizeof r, &r);
    host_result_ = r;
  } else {
    rt_.queue.enqueueReadBuffer(partials_, CL_TRUE, 0, groups_ * sizeof(float), host_partials_.data());
    double sum = 0;
    for (float p : host_partials_) sum += p;
    host_result_ = sum;
  }
  const double seconds = omp_get_wtime() - t0;
  kernel_seconds_ = double(dot_done.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                           dot_done.getProfilingInfo<CL_PROFILING_COMMAND_START>()) * 1e-9;
  return seconds;
}

Outputs Runner::run(int warmup, int repeats) {
  Outputs out;
  out.kernel_best = 0;
  out.timing = kit::time_runs(warmup, repeats, [&] {
    run_once();
    if (out.kernel_best == 0 || kernel_seconds_ < out.kernel_best) out.kernel_best = kernel_seconds_;
  });
  rt_.queue.enqueueReadBuffer(partials_, CL_TRUE, 0, groups_ * sizeof(float), host_partials_.data());
  out.partials = host_partials_;
  out.result = host_result_;
  out.groups = groups_;
  out.kernel = kernel_;
  out.local = c_.local;
  out.contiguous = contiguous_;
  return out;
}

Expected expected(const Inputs& in) {
  Expected e;
  for (std::size_t i = 0; i < in.a.size(); ++i) {
    const double p = double(in.a[i]) * double(in.b[i]);
    e.value += p;
    e.abs += std::fabs(p);
  }
  return e;
}

double tolerance(const Case& c, std::size_t groups, const Expected& e) {
  if (c.kind != kit::DataKind::Reals && e.abs < 0x1p24) return 0;  // whole numbers: every partial sum exact
  const std::size_t L = std::max<std::size_t>(1, c.local);
  const std::size_t per_lane = (c.elements + 4 * groups * L - 1) / (4 * groups * L);
  if (c.kind != kit::DataKind::Reals) {
    // Whole numbers past 2^24 in all: a work-group still sums at most 4 L per_lane + 3 products
    // (its work-items' shares and the tail), each at most 64 (int) or 1 (unit). Below 2^24 every
    // sum inside the group is exact; the host then adds the partials in double, exactly, and
    // SumPartials rounds only in its own ceil(G / L) + log2 L adds.
    const double largest_product = c.kind == kit::DataKind::Integers ? 64 : 1;
    if (double(4 * L * per_lane + 3) * largest_product < 0x1p24) {
      if (!c.device_combine) return 0;
      return kit::gamma_float((groups + L - 1) / L + kit::tree_depth(L)) * e.abs;
    }
  }
  std::size_t depth = 1 + per_lane + 2 + 1 + kit::tree_depth(L);
  if (c.device_combine) depth += (groups + L - 1) / L + kit::tree_depth(L);
  if (double(depth) * kit::kFloatUnitRoundoff >= 0.5)  // gamma_D would pass 1: no bound to check against
    throw kit::Error("no rounding bound to check against: " + std::to_string(c.elements) + " elements over " +
                     std::to_string(groups * L) + " work-items is " + std::to_string(per_lane) +
                     " float adds in one lane, too many for float; use more work-groups (--groups) or fewer elements");
  return kit::gamma_float(depth) * e.abs + kit::gamma_double(c.elements + groups) * e.abs;
}

std::optional<std::string> difference(const Case& c, const Outputs& out, const Expected& e) {
  Case ran = c;
  if (out.local) ran.local = out.local;  // the work-group size actually used (c.local may say "default")
  const double tol = tolerance(ran, out.groups, e);
  if (std::fabs(out.result - e.value) <= tol) return std::nullopt;
  char text[384];
  std::snprintf(text, sizeof text, "dot product of %zu elements (%zu work-groups of %zu, the %s, combined on the %s): expected %.9g, got %.9g (%s%.3g)",
                c.elements, out.groups, ran.local, out.contiguous ? "CPU branch (-D CONTIGUOUS)" : "GPU branch (built without -D CONTIGUOUS)",
                c.device_combine ? "device" : "host", e.value, out.result,
                tol == 0 ? "exact" : "tolerance ", tol == 0 ? 0.0 : tol);
  std::string message = text;
  if (tol == 0) message = message.substr(0, message.rfind(" (")) + " (exact)";
  return message;
}

namespace {

// Whether every partial is only the own sum of its work-group's work-item 0 (the chunks and tail
// elements the lab's split gives it), as when the tree, tree_sum, adds nothing: TODO 0 left empty.
bool partials_are_first_items_own(const Case& c, const Inputs& in, const Outputs& out, std::size_t local) {
  if (local < 2 || out.partials.size() != out.groups || out.groups == 0) return false;
  const std::size_t items = out.groups * local, chunks = c.elements / 4, per_item = (chunks + items - 1) / items;
  for (std::size_t g = 0; g < out.groups; ++g) {
    const std::size_t gid = g * local;
    double own = 0, size = 0;
    const auto chunk = [&](std::size_t k) {
      for (std::size_t i = 4 * k; i < 4 * k + 4; ++i) own += double(in.a[i]) * in.b[i], size += std::fabs(double(in.a[i]) * in.b[i]);
    };
    if (out.contiguous)
      for (std::size_t k = std::min(gid * per_item, chunks); k < std::min(gid * per_item + per_item, chunks); ++k) chunk(k);
    else
      for (std::size_t k = gid; k < chunks; k += items) chunk(k);
    for (std::size_t k = gid; k < c.elements % 4; k += items) {
      const double p = double(in.a[4 * chunks + k]) * in.b[4 * chunks + k];
      own += p, size += std::fabs(p);
    }
    if (!(std::fabs(out.partials[g] - own) <= 1e-5 * size)) return false;
  }
  return true;
}

std::string evidence(const Case& c, const Inputs& in, const Outputs& out, const Expected& e) {
  // A tree loop without a barrier races: what it gives depends on the schedule, so the code says so.
  // The kernels' tree is tree_sum, a function they call (TODO 0); a tree written in a kernel counts too.
  std::vector<std::string> names = {"tree_sum"};
  for (const kit::KernelSignature& k : signatures()) names.push_back(k.name);
  for (const std::string& name : names)
    if (std::string race = kit::missing_loop_barrier(out.kernel, name,
                                                     "a level can read a value before the work-item that owns it has "
                                                     "written the level before",
                                                     "after the add");
        !race.empty())
      return race;
  const std::string branch = out.contiguous ? "the CPU branch (-D CONTIGUOUS, TODO 1a)" : "the GPU branch (built without -D CONTIGUOUS, TODO 1b)";
  if (std::isnan(out.result)) return "the result is NaN: a partial sum was never written, or read from past the end";
  if (out.result == 0 && e.value != 0) return "the result is 0: in " + branch + ", does every work-item add its products?";
  Case ran = c;
  if (out.local) ran.local = out.local;
  const double tol = tolerance(ran, out.groups, e);
  if (c.device_combine && !out.partials.empty()) {  // right partials, wrong total: SumPartials is at fault
    double partials = 0;
    for (float p : out.partials) partials += p;
    if (std::fabs(partials - e.value) <= tol)
      return "DotCascade's " + std::to_string(out.partials.size()) + " partials add up to the right value on the host, but "
             "SumPartials made " + kit::format_number(out.result) + " of them: each of its work-items adds every L-th partial "
             "from partials[tid], and its tree must start at L / 2";
  }
  if (partials_are_first_items_own(c, in, out, ran.local))
    return "each work-group's partial is only its work-item 0's own sum: the tree adds nothing. TODO 0: tree_sum holds "
           "your loop from lab 04 (rung 3, sequential addressing)";
  double tail = 0;  // the products of the last n % 4 elements, which no float4 covers
  for (std::size_t i = c.elements / 4 * 4; i < c.elements; ++i) tail += double(in.a[i]) * double(in.b[i]);
  const auto near = [&](double value) { return std::fabs(out.result - value) <= tol; };
  if (tail != 0 && near(e.value - tail))
    return "the result lacks exactly the products of the last " + std::to_string(c.elements % 4) +
           " elements: the scalar tail (elements 4 * (n / 4) ... n - 1) is not added";
  if (tail != 0 && near(e.value + tail))
    return "the last " + std::to_string(c.elements % 4) +
           " elements' products are added twice: by the scalar tail and by a float4 that reaches past n (a loop bound "
           "one float4 too far: i <= n / 4), or by two work-items in the tail";
  // One float4 chunk missing (a loop bound one chunk short, a chunk skipped): which one, when only
  // one chunk's products explain the difference.
  std::size_t matches = 0, chunk = 0;
  for (std::size_t k = 0; k < c.elements / 4; ++k) {
    double products = 0;
    for (std::size_t i = 4 * k; i < 4 * k + 4; ++i) products += double(in.a[i]) * double(in.b[i]);
    if (products != 0 && near(e.value - products) && matches++ == 0) chunk = k;
  }
  if (matches == 1)
    return "the result lacks exactly the products of float4 number " + std::to_string(chunk) + " (elements " +
           std::to_string(4 * chunk) + " ... " + std::to_string(4 * chunk + 3) + ") of " + std::to_string(c.elements / 4) +
           ": in " + branch + ", a loop stops one float4 early or skips one";
  if (matches > 1)
    return "the result lacks the products of one float4 (" + std::to_string(matches) +
           " of them would explain it, so which one cannot be told): in " + branch + ", check the loop's first index and bound";
  return "the result is off by " + kit::format_number(out.result - e.value) + " in " + branch +
         "; it matches none of the mistakes the check knows (nothing added, the tail missing or added twice, one float4 missing)";
}

}  // namespace

std::string diagnose(const Case& c, const Inputs& in, const Outputs& out, const Expected& e) {
  return kit::with_warnings(evidence(c, in, out, e), out.kernel);
}

kit::Verdict check(const Case& c, const Inputs& in, const Outputs& out, const Expected& e) {
  const auto diff = difference(c, out, e);
  if (!diff) return {};
  return {false, *diff, diagnose(c, in, out, e)};
}

kit::SpeedRatio openmp_speed_ratio(Runner& kernel, const Inputs& in, int pairs, const kit::TimedSection& section) {
  return kit::alternating_speed_ratio([&] { kernel.run_once(); },
                                      [&] { kit::openmp_dot(in.a.data(), in.b.data(), in.a.size()); }, pairs, section);
}

kit::SpeedRatio speed_ratio(Runner& candidate, Runner& baseline, int pairs, const kit::TimedSection& section) {
  return kit::alternating_speed_ratio([&] { candidate.run_once(); }, [&] { baseline.run_once(); }, pairs, section);
}

}  // namespace lab06
