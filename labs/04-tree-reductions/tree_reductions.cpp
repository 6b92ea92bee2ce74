#include "tree_reductions.hpp"

#include "kit/buffer.hpp"
#include "kit/launch.hpp"
#include "kit/data.hpp"
#include "kit/errors.hpp"
#include "kit/local_size.hpp"

namespace lab04 {

const std::vector<Rung>& rungs() {
  static const std::vector<Rung> all = {
      {1, "reduce1_interleaved_mod", "interleaved addressing with %: divergent work-items", false},
      {2, "reduce2_interleaved_strided", "a strided index instead of %: active work-items contiguous", false},
      {3, "reduce3_sequential", "sequential addressing: halving stride, contiguous reads", false},
      {4, "reduce4_first_add", "first add during the load: half the work-groups", true},
      {5, "reduce5_unrolled", "tree unrolled for a compile-time WG_SIZE, barriers kept", true},
  };
  return all;
}

const Rung& rung(int number) {
  if (number < 1 || number > int(rungs().size()))
    throw kit::Error("rung " + std::to_string(number) + " does not exist: the ladder has rungs 1 to 5");
  return rungs()[std::size_t(number - 1)];
}

kit::KernelSignature signature(const Rung& r) {
  return {r.kernel, {"global const int *in", "global int *out", "local int *scratch", "const uint n"}};
}

std::vector<kit::KernelSignature> all_signatures() {
  std::vector<kit::KernelSignature> all;
  for (const Rung& r : rungs()) all.push_back(signature(r));
  return all;
}

std::size_t Case::per_group() const { return lab04::rung(rung).first_add ? 2 * local : local; }

void validate(const Case& c) {
  rung(c.rung);
  kit::LocalSizeRule rule;
  rule.least = 2;
  rule.least_why = "with 1 work-item per group a launch of rungs 1-3 returns as many values as it was given, and the "
                   "reduction never ends";
  rule.power_of_two = true;
  rule.power_why = "every rung's tree halves (or doubles) its stride between L/2 and 1, which pairs every value only "
                   "in a group of 2, 4, 8, ... work-items";
  rule.most = 4096;
  rule.most_why = "rung 5 is unrolled for work-groups of up to 4096 work-items (WG_SIZE in TreeReductions.cl)";
  kit::require_local_size(c.local, rule);
  if (c.elements == 0) throw kit::Error("element count 0: there is nothing to reduce");
  if (c.elements + 2 * c.local > std::size_t(UINT32_MAX))  // the kernels compute indices up to n + 2L in uint
    throw kit::Error("element count " + std::to_string(c.elements) + " does not fit the kernels' uint indices");
}

std::vector<std::int32_t> make_input(const Case& c) {
  const std::vector<float> values = kit::make_data(kit::DataKind::Integers, c.seed, 1, c.elements);
  return std::vector<std::int32_t>(values.begin(), values.end());
}

Outputs run(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c,
            const std::vector<std::int32_t>& in, int warmup, int repeats, const std::string& shown_as) {
  validate(c);
  const std::string name = shown_as.empty() ? kernel_file.string() : shown_as;
  cl::Program program = kit::build_program(rt.context, rt.device, kernel_file, "-D WG_SIZE=" + std::to_string(c.local), name);
  cl::Kernel kernel = kit::make_kernel(program, signature(rung(c.rung)), name);
  kit::check_local_size(rt.device, kernel, c.local, c.local * sizeof(std::int32_t));

  const std::size_t first_groups = (c.elements + c.per_group() - 1) / c.per_group();
  cl::Buffer input = kit::make_buffer(rt, CL_MEM_READ_ONLY, c.elements * sizeof(std::int32_t), in.data());
  cl::Buffer scratch[2] = {kit::make_buffer(rt, CL_MEM_READ_WRITE, first_groups * sizeof(std::int32_t)),
                           kit::make_buffer(rt, CL_MEM_READ_WRITE, first_groups * sizeof(std::int32_t))};
  Outputs out;
  out.kernel = kit::kernel_code(program, rt.device, kernel_file, name);
  std::size_t final_buffer = 0;
  const auto reduce = [&] {
    std::size_t count = c.elements;
    const cl::Buffer* from = &input;
    int launches = 0;
    do {
      const std::size_t groups = (count + c.per_group() - 1) / c.per_group();
      const std::size_t to = std::size_t(launches % 2);
      kernel.setArg(0, *from);
      kernel.setArg(1, scratch[to]);
      kernel.setArg(2, cl::Local(c.local * sizeof(std::int32_t)));
      kernel.setArg(3, cl_uint(count));
      kit::launch(rt.queue, kernel, cl::NDRange(groups * c.local), cl::NDRange(c.local));
      if (launches == 0) {  // keep the first launch's sums for grading
        out.first_pass.resize(groups);
        rt.queue.enqueueReadBuffer(scratch[to], CL_FALSE, 0, groups * sizeof(std::int32_t), out.first_pass.data());
      }
      from = &scratch[to];
      final_buffer = to;
      count = groups;
      ++launches;
    } while (count > 1);
    rt.queue.finish();
    out.launches = launches;
  };
  out.timing = kit::time_runs(warmup, repeats, reduce);
  std::int32_t total = 0;
  rt.queue.enqueueReadBuffer(scratch[final_buffer], CL_TRUE, 0, sizeof total, &total);
  out.total = total;
  return out;
}

Expected expected(const Case& c, const std::vector<std::int32_t>& in) {
  Expected e;
  const std::size_t per = c.per_group();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (i % per == 0) e.first_pass.push_back(0);
    e.first_pass.back() += in[i];
    e.total += in[i];
  }
  for (std::size_t count = c.elements; e.launches == 0 || count > 1; ++e.launches) count = (count + per - 1) / per;
  return e;
}

std::optional<std::string> first_difference(const Case& c, const Outputs& out, const Expected& e) {
  if (out.first_pass.size() != e.first_pass.size())
    return "the first launch gave " + std::to_string(out.first_pass.size()) + " sums, expected " + std::to_string(e.first_pass.size());
  for (std::size_t g = 0; g < e.first_pass.size(); ++g)
    if (out.first_pass[g] != e.first_pass[g])
      return "work-group " + std::to_string(g) + " of " + std::to_string(e.first_pass.size()) + " after launch 1 (" +
             std::to_string(std::min(c.per_group(), c.elements - g * c.per_group())) + " elements): expected " +
             std::to_string(e.first_pass[g]) + ", got " + std::to_string(out.first_pass[g]) + " (exact)";
  if (out.total != e.total)
    return "every work-group was right after launch 1, but the total after " + std::to_string(out.launches) +
           " launches is " + std::to_string(out.total) + ", expected " + std::to_string(e.total) +
           " (launches after the first reduce fewer values than a work-group: is every element at or past n treated as 0?)";
  return std::nullopt;
}

namespace {

std::string evidence(const Case& c, const std::vector<std::int32_t>& in, const Outputs& out, const Expected& e) {
  // A tree loop without a barrier races: its sums depend on the schedule, so the code says so.
  if (std::string race = kit::missing_loop_barrier(out.kernel, rung(c.rung).kernel,
                                                   "a level can read scratch[tid + s] before the work-item that owns it "
                                                   "has written the level before",
                                                   "after the add");
      !race.empty())
    return race;
  for (std::size_t g = 0; g < e.first_pass.size() && g < out.first_pass.size(); ++g) {
    if (out.first_pass[g] == e.first_pass[g]) continue;
    const std::size_t first = g * c.per_group(), end = std::min(first + c.per_group(), in.size());
    std::int64_t first_half = 0;
    for (std::size_t i = first; i < std::min(first + c.local, end); ++i) first_half += in[i];
    if (out.first_pass[g] == in[first])
      return "only the work-group's first element arrived: the rung's tree (its TODO) is missing, or its adds never run";
    if (rung(c.rung).first_add && out.first_pass[g] == first_half && end > first + c.local)
      return "the sum covers only the first L of the group's 2L elements: add in[i] and in[i + L] while loading";
    if (out.first_pass[g] == 2 * e.first_pass[g]) return "twice the right sum: something is added twice";
    if (c.rung == 5) return "check each unrolled level: WG_SIZE >= 2s, the test tid < s, and a barrier after it";
    return "compare the tree with the rung's rule in the lab README (which work-items add, and what)";
  }
  return "";
}

}  // namespace

std::string diagnose(const Case& c, const std::vector<std::int32_t>& in, const Outputs& out, const Expected& e) {
  return kit::with_warnings(evidence(c, in, out, e), out.kernel);
}

kit::Verdict check(const Case& c, const std::vector<std::int32_t>& in, const Outputs& out, const Expected& e) {
  const auto diff = first_difference(c, out, e);
  if (!diff) return {};
  return {false, *diff, diagnose(c, in, out, e)};
}

}  // namespace lab04
