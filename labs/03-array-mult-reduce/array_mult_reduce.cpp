#include "array_mult_reduce.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kit/buffer.hpp"
#include "kit/launch.hpp"
#include "kit/errors.hpp"
#include "kit/local_size.hpp"

namespace lab03 {
namespace {

kit::LocalSizeRule local_size_rule(std::size_t elements) {
  kit::LocalSizeRule rule;
  rule.power_of_two = true;
  rule.power_why = "the bitmask tree adds prods[tnum + offset] for offset = 1, 2, 4, ..., which stays inside the group "
                   "only when it has 1, 2, 4, 8, ... work-items";
  rule.divides = elements;
  rule.divides_why = "this lab runs whole work-groups of one element per work-item";
  return rule;
}

}  // namespace

void validate(const Case& c) {
  kit::require_local_size(c.local, local_size_rule(c.elements));
  if (c.elements > std::size_t(INT32_MAX))
    throw kit::Error("element count " + std::to_string(c.elements) + " does not fit the kernel's int gid (at most 2^31 - 1)");
  if (c.elements == 0) throw kit::Error("element count 0: there is nothing to reduce");
}

Inputs make_inputs(const Case& c) {
  return {kit::make_data(c.kind, c.seed, 1, c.elements), kit::make_data(c.kind, c.seed, 2, c.elements)};
}

Outputs run(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c,
            const Inputs& in, int warmup, int repeats, const std::string& shown_as) {
  validate(c);
  const std::size_t ab_bytes = c.elements * sizeof(float), c_bytes = c.groups() * sizeof(float);
  kit::check_float_array(rt.device, c.elements);

  const std::string name = shown_as.empty() ? kernel_file.string() : shown_as;
  cl::Program program = kit::build_program(rt.context, rt.device, kernel_file, "", name);
  cl::Kernel kernel = kit::make_kernel(program, kSignature, name);
  kit::check_local_size(rt.device, kernel, c.local, c.local * sizeof(float));

  // slide: host-steps
  cl::Buffer dA = kit::make_buffer(rt, CL_MEM_READ_ONLY, ab_bytes);
  cl::Buffer dB = kit::make_buffer(rt, CL_MEM_READ_ONLY, ab_bytes);
  cl::Buffer dC = kit::make_buffer(rt, CL_MEM_WRITE_ONLY, c_bytes);
  rt.queue.enqueueWriteBuffer(dA, CL_FALSE, 0, ab_bytes, in.a.data());
  rt.queue.enqueueWriteBuffer(dB, CL_FALSE, 0, ab_bytes, in.b.data());
  rt.queue.enqueueFillBuffer(dC, std::numeric_limits<float>::quiet_NaN(), 0, c_bytes);
  rt.queue.finish();

  kernel.setArg(0, dA);
  kernel.setArg(1, dB);
  kernel.setArg(2, cl::Local(c.local * sizeof(float)));  // size only: one float per work-item
  kernel.setArg(3, dC);

  Outputs out;
  out.kernel = kit::kernel_code(program, rt.device, kernel_file, name);
  out.partials.resize(c.groups());
  std::vector<double> kernel_seconds;
  out.whole = kit::time_runs(warmup, repeats, [&] {
    const double t0 = omp_get_wtime();
    kit::launch(rt.queue, kernel, cl::NDRange(c.elements), cl::NDRange(c.local));
    rt.queue.finish();
    kernel_seconds.push_back(omp_get_wtime() - t0);
    rt.queue.enqueueReadBuffer(dC, CL_TRUE, 0, c_bytes, out.partials.data());
    out.total = 0;
    for (float p : out.partials) out.total += p;
  });
  // slide-end
  kernel_seconds.erase(kernel_seconds.begin(), kernel_seconds.begin() + warmup);  // the timed runs only
  out.timing = kit::timing_of(kernel_seconds);
  return out;
}

Expected expected(const Case& c, const Inputs& in) {
  Expected e;
  e.groups = kit::group_dot(in.a, in.b, c.local);
  e.total = kit::total(e.groups);
  return e;
}

double group_tolerance(const Case& c, const kit::Sum& group) {
  // |product| <= 64 and |partial| <= 64 L: whole numbers below 2^24 are exact in float.
  if (c.kind == kit::DataKind::Integers && 64.0 * double(c.local) < 0x1p24) return 0;
  return kit::tree_dot_bound(c.local, group.abs) + kit::gamma_double(c.local) * group.abs;
}

double total_tolerance(const Case& c, const Expected& e) {
  // Each partial carries its own bound; the host then adds G floats in double.
  double bound = 0, abs_partials = 0;
  for (const kit::Sum& g : e.groups) {
    bound += group_tolerance(c, g);
    abs_partials += std::fabs(g.value) + group_tolerance(c, g);
  }
  const bool exact = bound == 0 && e.total.abs < 0x1p53;
  return exact ? 0 : bound + kit::gamma_double(e.groups.size()) * abs_partials;
}

bool within(double got, double expected, double tolerance) {
  return std::fabs(got - expected) <= tolerance;  // NaN compares false
}

std::optional<Mismatch> first_wrong_group(const Case& c, const Outputs& out, const Expected& e) {
  for (std::size_t g = 0; g < e.groups.size(); ++g) {
    const double tol = group_tolerance(c, e.groups[g]);
    if (!within(out.partials[g], e.groups[g].value, tol)) return Mismatch{g, e.groups[g].value, out.partials[g], tol};
  }
  return std::nullopt;
}

double giga_numbers_per_second(std::size_t elements, double seconds) {
  return double(elements) / seconds / 1e9;
}

kit::Verdict check(const Case& c, const Inputs& in, const Outputs& out, const Expected& e) {
  if (out.partials.size() != e.groups.size())
    return {false, "expected " + std::to_string(e.groups.size()) + " partial sums, got " + std::to_string(out.partials.size()), ""};
  if (const auto m = first_wrong_group(c, out, e)) {
    const std::string tol = m->tolerance == 0 ? "exact" : "tolerance " + kit::format_number(m->tolerance);
    return {false,
            "work-group " + std::to_string(m->group) + " of " + std::to_string(c.groups()) + ": expected " +
                kit::format_number(m->expected) + ", got " +
                (std::isnan(m->got) ? "nothing (never written)" : kit::format_number(m->got)) + " (" + tol + ")",
            diagnose(c, in, out, *m)};
  }
  if (!within(out.total, e.total.value, total_tolerance(c, e)))
    return {false, "host total: expected " + kit::format_number(e.total.value) + ", got " + kit::format_number(out.total), ""};
  return {};
}

}  // namespace lab03

namespace lab03 {

namespace {

// What the bitmask tree computes in float when `level_barriers` is false and work-items run one
// after another, as PoCL runs a work-group between two barriers: a missing barrier in the loop.
float tree_without_level_barriers(std::vector<float> p) {
  const std::size_t n = p.size();
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t offset = 1; offset < n; offset *= 2)
      if ((t & (2 * offset - 1)) == 0) p[t] += p[t + offset];
  return p[0];
}

float tree(std::vector<float> p) {
  for (std::size_t offset = 1; offset < p.size(); offset *= 2)
    for (std::size_t t = 0; t + offset < p.size(); t += 2 * offset) p[t] += p[t + offset];
  return p[0];
}

std::string evidence(const Case& c, const Inputs& in, const Outputs& out, const Mismatch& m) {
  const std::size_t first = m.group * c.local, L = c.local;
  const std::string& code = out.kernel.code;
  std::vector<float> products(L), shifted(L);
  for (std::size_t i = 0; i < L; ++i) {
    products[i] = in.a[first + i] * in.b[first + i];
    const std::size_t next = first + i + 1;
    shifted[i] = next < in.a.size() ? in.a[next] * in.b[first + i] : NAN;
  }
  const auto same = [&](double value) { return within(m.got, value, m.tolerance + 1e-30); };
  const bool all_zero = std::all_of(out.partials.begin(), out.partials.end(), [](float p) { return p == 0; });
  if (std::isnan(m.got))
    return "dC[" + std::to_string(m.group) + "] was never written: work-item 0 of each work-group must store "
           "its sum in dC[get_group_id(0)]" + std::string(kit::stores_at_global_id(kit::kernel_body(code, kSignature.name).text, "dC") ? " (not dC[get_global_id(0)])" : "");
  if (all_zero) return "every work-group's sum is 0: is each product stored in prods[tnum] before the tree starts?";
  // A tree loop without a barrier races: what it gives depends on which work-items ran first and on
  // what local memory held before (PoCL runs a work-group's work-items one after another between
  // barriers, and work-groups on several threads), so the code, not one interleaving, says so.
  if (L > 1)
    if (std::string race = kit::missing_loop_barrier(out.kernel, kSignature.name,
                                                     "a work-item can add prods[tnum + offset] before that work-item "
                                                     "has stored its product or its level's sum",
                                                     "before the add");
        !race.empty())
      return race;
  if (L > 1 && same(products[0])) {
    const std::vector<kit::CodeSpan> loops = kit::loops(kit::kernel_body(code, kSignature.name));
    if (code.empty())  // the code is not known (outputs stored without it): the evidence alone
      return "only the work-group's own first product reached dC: no add changed prods[0] before it was stored "
             "(a loop without its barrier, or a test that lets no work-item add)";
    if (loops.empty())
      return "only the work-group's own first product reached dC: the tree loop (offset = 1, 2, 4, ...) that adds "
             "the other products into prods[0] is missing";
    if (std::any_of(loops.begin(), loops.end(), [](const kit::CodeSpan& l) { return kit::calls_barrier_everywhere(l.text); }))
      return "only the work-group's own first product reached dC: no add changed prods[0], although the loop has "
             "its barrier. Check the loop's bounds and the test that picks the adding work-items: it must use the "
             "local id (tnum), and & binds less tightly than ==, so write ((tnum & mask) == 0)";
    return "only the work-group's own first product reached dC: work-item 0 added before the others had stored "
           "their products or sums. Put barrier(CLK_LOCAL_MEM_FENCE) inside the loop, before the add, where every "
           "work-item reaches it";
  }
  if (L > 1 && same(tree_without_level_barriers(products)))
    return "the sum matches a tree whose levels do not wait for each other: every work-item must reach a "
           "barrier(CLK_LOCAL_MEM_FENCE) between two levels (one inside an if is not reached by all)";
  if (same(tree(shifted)))
    return "the sum matches products of neighbouring elements (dA[gid+1] * dB[gid]): index both arrays with "
           "get_global_id(0)";
  if (m.expected != 0 && same(2 * m.expected)) return "the sum is twice the right one: something is added twice";
  // Nothing known matches: say what differs, without guessing at the cause.
  return "the sum is off by " + kit::format_number(m.got - m.expected) +
         " and matches none of the mistakes the check knows (a missing barrier, neighbouring products, a sum "
         "added twice); walk your loop through the README's drawing for L = " + std::to_string(L);
}

}  // namespace

std::string diagnose(const Case& c, const Inputs& in, const Outputs& out, const Mismatch& m) {
  return kit::with_warnings(evidence(c, in, out, m), out.kernel);
}

}  // namespace lab03
