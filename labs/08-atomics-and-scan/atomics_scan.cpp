#include "atomics_scan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "kit/data.hpp"
#include "kit/errors.hpp"
#include "kit/reference.hpp"

namespace lab08 {
namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }
bool power_of_two(std::size_t x) { return x != 0 && (x & (x - 1)) == 0; }

std::string number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

std::string str(std::size_t v) { return std::to_string(v); }

constexpr double kU = kit::kFloatUnitRoundoff;

// Buffers are set from host memory, never with clEnqueueFillBuffer: Oclgrind 21.10's
// uninitialized-value check then counts the filled buffer's elements after the first as never
// written, even after a kernel has written them, and reports the scan (measured on this lab).
const cl_int kNeverWritten = -1;  // a count the kernel did not write

template <typename T>
void check_input(const Case& c, const std::vector<T>& in) {
  validate(c);
  if (in.size() != c.elements)
    throw std::invalid_argument("lab08: the input has " + std::to_string(in.size()) + " elements, the case " +
                                std::to_string(c.elements));
}

}  // namespace

// ---- Kernels and parts --------------------------------------------------------------------------

const std::vector<kit::KernelSignature>& signatures() {
  static const std::vector<kit::KernelSignature> all = {
      {"sum_tree", {"global const float *in", "global float *partials", "local float *scratch", "const uint n"}},
      {"sum_int_atomic", {"global const int *in", "global int *total", "local int *scratch", "const uint n"}},
      {"sum_float_atomic", {"global const float *in", "global float *total", "local float *scratch", "const uint n"}},
      {"sum_naive", {"global const float *in", "global float *sums", "const uint n", "const uint run"}},
      {"sum_kahan", {"global const float *in", "global float *sums", "const uint n", "const uint run"}},
      {"scan_blocks", {"global const int *in", "global int *out", "global int *block_sums", "local int *scratch",
                       "const uint n", "const uint inclusive"}},
      {"add_block_offsets", {"global int *out", "global const int *offsets", "const uint n"}},
      {"compact_flags", {"global const int *in", "global int *flags", "const uint n"}},
      {"compact_scatter", {"global const int *in", "global const int *positions", "global int *out", "global int *count",
                           "const uint n"}},
  };
  return all;
}

const kit::KernelSignature& signature(const std::string& kernel) {
  std::string known;
  for (const kit::KernelSignature& s : signatures()) {
    if (s.name == kernel) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw kit::Error("lab 08 has no kernel '" + kernel + "' (its kernels: " + known + ")");
}

const std::vector<Part>& parts() {
  static const std::vector<Part> all = {Part::AtomicInt,     Part::AtomicFloat,   Part::Accuracy,
                                        Part::ScanExclusive, Part::ScanInclusive, Part::Compact};
  return all;
}

std::string to_string(Part part) {
  switch (part) {
    case Part::AtomicInt: return "atomic-int";
    case Part::AtomicFloat: return "atomic-float";
    case Part::Accuracy: return "accuracy";
    case Part::ScanExclusive: return "scan-exclusive";
    case Part::ScanInclusive: return "scan-inclusive";
    case Part::Compact: return "compact";
  }
  return "";
}

Part parse_part(const std::string& text) {
  std::string known;
  for (Part p : parts()) {
    if (to_string(p) == text) return p;
    known += (known.empty() ? "" : ", ") + to_string(p);
  }
  throw kit::Error("part '" + text + "' is not one of: " + known);
}

void validate(const Case& c) {
  if (c.local < 2 || c.local > 4096 || !power_of_two(c.local))
    throw kit::Error("local size " + str(c.local) +
                     " must be a power of two from 2 to 4096: the trees halve their stride and the scan's sweeps "
                     "pair elements 2d apart");
  if (c.elements == 0) throw kit::Error("element count 0: there is nothing to sum or scan");
  if (c.elements > kMaxElements)
    throw kit::Error("element count " + str(c.elements) + " is above 2^27 = " + str(kMaxElements) +
                     ": sums and scans of ints up to 8 in size could then overflow 32 bits");
  if (c.run < 2 || c.run > kMaxRun || !power_of_two(c.run))
    throw kit::Error("run length " + str(c.run) + " must be a power of two from 2 to 2^20 = " + str(kMaxRun) +
                     " (the pairwise sum reduces a run in tree passes of up to L elements)");
  if (c.positive && c.part != Part::AtomicInt && c.part != Part::AtomicFloat)
    throw kit::Error("positive data: only the atomic parts (atomic-int, atomic-float) take it");
  if (c.part == Part::AtomicFloat && ceil_div(c.elements, c.local) > (std::size_t(1) << 23))
    throw kit::Error(str(ceil_div(c.elements, c.local)) + " work-groups: the float total's rounding bound gamma_(G-1) "
                     "needs G below 2^23; use a larger local size");
}

// ---- Data ---------------------------------------------------------------------------------------

std::vector<std::int32_t> make_ints(const Case& c) {
  const std::vector<float> v = kit::make_data(kit::DataKind::Integers, c.seed, 8, c.elements);
  std::vector<std::int32_t> ints(v.begin(), v.end());
  if (c.positive)
    for (std::int32_t& x : ints) x = std::max(1, std::abs(x));
  return ints;
}

std::vector<float> make_reals(const Case& c) { return kit::make_data(kit::DataKind::Reals, c.seed, 8, c.elements); }

std::vector<float> make_whole_floats(const Case& c) {
  const std::vector<std::int32_t> ints = make_ints(c);
  return std::vector<float>(ints.begin(), ints.end());
}

float accuracy_value(std::uint64_t seed, std::uint64_t index) {
  const std::uint64_t bits = kit::splitmix64(kit::splitmix64(seed * 0x100000001B3ull + 8) ^ index);
  const auto significand = static_cast<std::uint32_t>(bits >> 40) | 0x800000u;  // 24 bits, the top one set
  const bool large = (bits & 0xFF) == 0;                                          // 1 in 256
  const int binade = large ? 8 + int((bits >> 8) & 3) : -20 + int((bits >> 8) & 7);
  return std::ldexp(static_cast<float>(significand), binade - 23);  // in [2^binade, 2^(binade+1)), exact
}

std::vector<float> make_accuracy_data(const Case& c) {
  std::vector<float> v(c.elements);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = accuracy_value(c.seed, i);
  return v;
}

Int128 scaled(float x, int scale) {
  if (!std::isfinite(x)) throw std::invalid_argument("not a finite number");
  const long double v = std::ldexp(static_cast<long double>(x), scale);  // exact: 24 significant bits
  if (std::floor(v) != v || std::fabs(v) >= 0x1p120L) throw std::invalid_argument("not a whole multiple of 2^-scale");
  return static_cast<Int128>(v);
}

std::string to_decimal(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    digits.push_back(char('0' + (negative ? -d : d)));
    v /= 10;
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

Int128 parse_decimal(const std::string& text) {
  const bool negative = !text.empty() && text[0] == '-';
  if (text.size() == std::size_t(negative) || text.size() > 38)
    throw kit::Error("'" + text + "' is not a whole number of at most 37 digits");
  Int128 v = 0;
  for (std::size_t i = negative; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') throw kit::Error("'" + text + "' is not a whole number");
    v = v * 10 + (text[i] - '0');
  }
  return negative ? -v : v;
}

long double unscaled(Int128 v, int scale) { return std::ldexp(static_cast<long double>(v), -scale); }

// ---- Part 1 -------------------------------------------------------------------------------------

std::int64_t expected_int_sum(const std::vector<std::int32_t>& in) {
  std::int64_t total = 0;
  for (std::int32_t x : in) total += x;
  return total;
}

FloatExpected expected_float_sum(const Case& c, const std::vector<float>& in) {
  std::int64_t sum = 0, abs = 0, abs_partials = 0, group = 0;
  bool whole = true;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto k = static_cast<std::int64_t>(std::ldexp(in[i], 23));  // exact: kit's reals are k * 2^-23
    whole = whole && k % (std::int64_t(1) << 23) == 0;
    sum += k;
    abs += k < 0 ? -k : k;
    group += k;
    if ((i + 1) % c.local == 0 || i + 1 == in.size()) {
      abs_partials += group < 0 ? -group : group;
      group = 0;
    }
  }
  return {std::ldexp(double(sum), -23), std::ldexp(double(abs), -23), std::ldexp(double(abs_partials), -23), whole};
}

double atomic_float_bound(const Case& c, const FloatExpected& e) {
  if (e.whole && e.abs <= 0x1p24) return 0;  // whole numbers below 2^24: exact in any order
  const double tree = kit::gamma_float(kit::tree_depth(c.local));
  const std::size_t groups = ceil_div(c.elements, c.local);
  return tree * e.abs + kit::gamma_float(groups - 1) * (e.abs_partials + tree * e.abs);
}

std::optional<std::string> atomic_int_difference(const Case& c, std::int64_t got, std::int64_t expected) {
  if (got == expected) return std::nullopt;
  return "the total of " + str(c.elements) + " ints over " + str(ceil_div(c.elements, c.local)) +
         " work-groups: expected " + std::to_string(expected) + ", got " + std::to_string(got) + " (exact)";
}

std::optional<std::string> atomic_float_difference(const Case& c, double got, const FloatExpected& e) {
  const double bound = atomic_float_bound(c, e);
  if (std::fabs(got - e.exact) <= bound) return std::nullopt;
  const std::string what = "the total of " + str(c.elements) + (e.whole ? " whole numbers" : " reals") + " over " +
                           str(ceil_div(c.elements, c.local)) + " work-groups: expected " + number(e.exact);
  if (bound == 0) return what + ", got " + number(got) + " (exact: whole numbers below 2^24 add exactly in float, in any order)";
  return what + " (exact), got " + number(got) + ", tolerance " + number(bound) + " (the trees' and the chain of atomic adds' rounding bound)";
}

// The mistakes a total shows by its value alone: not a number, nothing added, every work-item adding.
std::optional<std::string> diagnose_total(const Case& c, double got, double expected) {
  const double near = 1e-3 * std::max(1.0, std::fabs(expected));
  if (std::isnan(got)) return "the total is not a number: was it written with anything but the compare-and-swap add?";
  if (got == 0 && expected != 0)
    return "the total is still 0: no work-group added its partial (one work-item per group adds scratch[0] to the total)";
  if (c.local > 1 && expected != 0 && std::fabs(got - double(c.local) * expected) <= near * double(c.local))
    return "L times the right total: every work-item of a group added the group's sum; only one (tid == 0) should";
  return std::nullopt;
}

std::string diagnose_atomic(const Case& c, double got, double expected) {
  if (auto known = diagnose_total(c, got, expected)) return *known;
  return "an update was lost or counted twice: each group must add its partial once, after the tree's last barrier, "
         "with an atomic operation (the compare-and-swap loop must retry until its swap succeeds)";
}

std::string diagnose_contention(const Case& c, double got, double expected, bool some_right) {
  if (auto known = diagnose_total(c, got, expected)) return *known;
  const std::string which = some_right ? "some launches were right and others lost updates"
                                       : "every launch lost updates";
  if (c.part == Part::AtomicInt)
    return which + ": work-groups that run at the same time raced for the total; "
           "add each partial with atomic_add (a plain += reads and writes in two steps, and another group can come between)";
  return which + ": work-groups that run at the same time raced for the total. "
         "A compare-and-swap fails when another group changed the total after it was read: the add must then start "
         "again from a fresh read, in a loop, until atomic_cmpxchg returns the bits that were read";
}

// ---- Part 2 -------------------------------------------------------------------------------------

const std::vector<Method>& methods() {
  static const std::vector<Method> all = {
      {"naive", "sum_naive", "one work-item adds its run in order: one rounding per add, k = n - 1"},
      {"pairwise", "sum_tree", "trees of up to L elements, pass after pass: k = log2 run"},
      {"kahan", "sum_kahan", "one work-item, in order, each add's rounding error fed back: 2u + O(n u^2)"},
  };
  return all;
}

std::size_t run_count(const Case& c) { return ceil_div(c.elements, c.run); }

std::vector<RunExact> exact_runs(const Case& c, const std::vector<float>& in) {
  std::vector<RunExact> runs(run_count(c));
#pragma omp parallel for schedule(static)
  for (std::size_t r = 0; r < runs.size(); ++r) {
    RunExact e;
    for (std::size_t i = r * c.run; i < std::min(in.size(), (r + 1) * c.run); ++i) {
      const Int128 k = scaled(in[i], kAccuracyScale);
      e.sum += k;
      e.abs += k < 0 ? -k : k;
      ++e.count;
    }
    runs[r] = e;
  }
  return runs;
}

std::vector<float> naive_runs(const Case& c, const std::vector<float>& in) {
  std::vector<float> sums(run_count(c));
#pragma omp parallel for schedule(static)
  for (std::size_t r = 0; r < sums.size(); ++r) {
    float acc = 0.0f;
    for (std::size_t i = r * c.run; i < std::min(in.size(), (r + 1) * c.run); ++i) acc += in[i];
    sums[r] = acc;
  }
  return sums;
}

double bound_factor(const std::string& method, const Case& c, std::size_t count) {
  if (method == "naive") return kit::gamma_float(count > 0 ? count - 1 : 0);
  if (method == "pairwise") return kit::gamma_float(kit::tree_depth(c.run));
  if (method == "kahan") return 2 * kU + 16 * double(count) * kU * kU;
  throw kit::Error("method '" + method + "' is not one of: naive, pairwise, kahan");
}

std::string depth_text(const std::string& method, const Case& c) {
  if (method == "naive") return str(c.run - 1);
  if (method == "pairwise") return str(kit::tree_depth(c.run));
  return "2 + 16nu";
}

namespace {

// |computed - exact| for one run: exact in scaled integers when the result is a whole multiple
// of 2^-43 (every sum of these data is, unless a kernel wrote something else), else in long double.
double run_error(float computed, const RunExact& e) {
  if (std::isnan(computed)) return std::numeric_limits<double>::infinity();
  try {
    const Int128 diff = scaled(computed, kAccuracyScale) - e.sum;
    return double(std::fabs(unscaled(diff, kAccuracyScale)));
  } catch (const std::invalid_argument&) {
    return double(std::fabs(static_cast<long double>(computed) - unscaled(e.sum, kAccuracyScale)));
  }
}

std::string run_text(const Case& c, std::size_t r, std::size_t runs) {
  const std::size_t first = r * c.run, last = std::min(c.elements, first + c.run) - 1;
  return "run " + str(r) + " of " + str(runs) + " (elements " + str(first) + " to " + str(last) + ")";
}

}  // namespace

std::vector<MethodError> accuracy_errors(const Case& c, const AccuracyOutputs& out, const std::vector<RunExact>& exact) {
  std::vector<MethodError> all;
  for (const Method& m : methods()) {
    MethodError me;
    me.method = m.name;
    me.bound_relative = bound_factor(m.name, c, std::min(c.run, c.elements)) / kU;
    const auto it = out.sums.find(m.name);
    for (std::size_t r = 0; r < exact.size(); ++r) {
      const float got = it == out.sums.end() || r >= it->second.size() ? NAN : it->second[r];
      const double err = run_error(got, exact[r]);
      const double abs = double(unscaled(exact[r].abs, kAccuracyScale));
      const double bound = bound_factor(m.name, c, exact[r].count) * abs;
      me.worst_error = std::max(me.worst_error, err);
      if (abs > 0) me.worst_relative = std::max(me.worst_relative, err / abs / kU);
      const double of_bound = bound > 0 ? err / bound : (err > 0 ? INFINITY : 0);
      if (of_bound > me.worst_of_bound || r == 0) {
        me.worst_of_bound = of_bound;
        me.worst_run = r;
      }
    }
    all.push_back(me);
  }
  return all;
}

std::optional<std::string> accuracy_difference(const Case& c, const AccuracyOutputs& out,
                                               const std::vector<RunExact>& exact, const std::vector<float>& naive) {
  const std::size_t runs = exact.size();
  for (const Method& m : methods()) {
    const auto it = out.sums.find(m.name);
    if (it == out.sums.end() || it->second.size() != runs)
      return m.kernel + " gave " + str(it == out.sums.end() ? 0 : it->second.size()) + " sums, expected one per run: " +
             str(runs);
  }
  const std::vector<float>& got_naive = out.sums.at("naive");
  for (std::size_t r = 0; r < runs; ++r)
    if (std::memcmp(&got_naive[r], &naive[r], sizeof(float)) != 0)
      return "sum_naive, " + run_text(c, r, runs) + ": expected " + number(naive[r]) +
             " (the float sum in order, bit for bit), got " + number(got_naive[r]);
  for (const Method& m : methods()) {
    const std::vector<float>& got = out.sums.at(m.name);
    for (std::size_t r = 0; r < runs; ++r) {
      const double err = run_error(got[r], exact[r]);
      const double bound = bound_factor(m.name, c, exact[r].count) * double(unscaled(exact[r].abs, kAccuracyScale));
      if (!(err <= bound))
        return m.kernel + " (" + m.name + "), " + run_text(c, r, runs) + ": expected " +
               number(double(unscaled(exact[r].sum, kAccuracyScale))) + " (exact), got " + number(got[r]) +
               ": the error " + number(err) + " is " + number(err / bound) + " times the " + m.name + " bound " +
               number(bound);
    }
  }
  if (c.run >= 1024) {
    const auto errors = accuracy_errors(c, out, exact);
    const double naive_err = errors[0].worst_error, kahan_err = errors[2].worst_error;
    if (!(kahan_err * kKahanGain <= naive_err))
      return "sum_kahan's worst error " + number(kahan_err) + " is not 1/" + number(kKahanGain) +
             " of sum_naive's worst error " + number(naive_err) + " on runs of " + str(c.run) +
             ": the compensation should recover what the naive sum drops";
  }
  return std::nullopt;
}

std::string diagnose_accuracy(const Case& c, const AccuracyOutputs& out, const std::vector<RunExact>& exact,
                              const std::vector<float>& naive) {
  const auto all_zero = [&](const std::string& m) {
    const auto it = out.sums.find(m);
    return it != out.sums.end() && std::all_of(it->second.begin(), it->second.end(), [](float v) { return v == 0; });
  };
  if (all_zero("naive")) return "sum_naive returned 0 for every run: its loop (the TODO) is missing";
  const auto it = out.sums.find("naive");
  if (it != out.sums.end() && it->second.size() == naive.size() &&
      std::memcmp(it->second.data(), naive.data(), naive.size() * sizeof(float)) != 0)
    return "sum_naive must add in[first], in[first + 1], ... in this order, one at a time, into one float: any other "
           "order rounds differently";
  if (all_zero("kahan")) return "sum_kahan returned 0 for every run: its loop (the TODO) is missing";
  const auto k = out.sums.find("kahan");
  if (k != out.sums.end() && k->second.size() == naive.size() &&
      std::memcmp(k->second.data(), naive.data(), naive.size() * sizeof(float)) == 0)
    return "sum_kahan gives exactly the naive sums: the compensation never reaches the next element "
           "(y = x - c; t = sum + y; c = (t - sum) - y; sum = t)";
  const auto errors = accuracy_errors(c, out, exact);
  if (errors[1].worst_of_bound > 1) return "sum_tree is given finished: has it been changed?";
  return "compare sum_kahan with the four statements in the README, in that order; c must be computed from the old "
         "sum, before sum = t";
}

// ---- Part 3 -------------------------------------------------------------------------------------

std::vector<std::size_t> scan_levels(std::size_t n, std::size_t local) {
  std::vector<std::size_t> sizes{n};
  while (sizes.back() > local) sizes.push_back(ceil_div(sizes.back(), local));
  return sizes;
}

std::vector<std::int32_t> expected_scan(const std::vector<std::int32_t>& in, bool inclusive) {
  std::vector<std::int32_t> out(in.size());
  std::int64_t running = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (inclusive) running += in[i];
    out[i] = static_cast<std::int32_t>(running);
    if (!inclusive) running += in[i];
  }
  return out;
}

std::vector<std::int32_t> expected_compact(const std::vector<std::int32_t>& in) {
  std::vector<std::int32_t> kept;
  for (std::int32_t x : in)
    if (x > 0) kept.push_back(x);
  return kept;
}

std::optional<std::size_t> first_mismatch(const std::vector<std::int32_t>& expected, const std::vector<std::int32_t>& got) {
  for (std::size_t i = 0; i < std::min(expected.size(), got.size()); ++i)
    if (expected[i] != got[i]) return i;
  if (expected.size() != got.size()) return std::min(expected.size(), got.size());
  return std::nullopt;
}

std::vector<std::int64_t> window(const std::vector<std::int32_t>& got, std::size_t index) {
  std::vector<std::int64_t> w;
  for (std::size_t i = index; i < got.size() && w.size() < kDiagnoseWindow; ++i) w.push_back(got[i]);
  return w;
}

namespace {
std::string levels_text(std::size_t n, std::size_t local) {
  const std::size_t levels = scan_levels(n, local).size();
  return str(levels) + (levels == 1 ? " level" : " levels");
}
}  // namespace

std::string scan_mismatch_text(const Case& c, std::size_t index, std::int64_t expected, std::int64_t got) {
  if (c.part == Part::Compact)
    return "kept element " + str(index) + " (in order, from position 0 of the output): expected " +
           std::to_string(expected) + ", got " + std::to_string(got) + " (exact)";
  const std::size_t blocks = ceil_div(c.elements, c.local);
  return "element " + str(index) + " of " + str(c.elements) + " (work-group " + str(index / c.local) + " of " +
         str(blocks) + ", position " + str(index % c.local) + " in it; " + levels_text(c.elements, c.local) +
         "): expected " + std::to_string(expected) + ", got " + std::to_string(got) + " (exact)";
}

std::string diagnose_scan(const Case& c, const std::vector<std::int32_t>& in, std::size_t index,
                          const std::vector<std::int64_t>& got) {
  if (index >= in.size() || got.empty()) return "";
  const bool inclusive = c.part == Part::ScanInclusive;
  // For each output in the window: the right value, the value within its own work-group alone,
  // and the element itself.
  struct At {
    std::int64_t got, expected, within, x, block_offset;
  };
  std::vector<At> window;
  std::int64_t running = 0, block_start_running = 0;
  for (std::size_t i = 0; i < in.size() && window.size() < got.size(); ++i) {
    if (i % c.local == 0) block_start_running = running;
    const std::int64_t before = running;
    running += in[i];
    if (i < index) continue;
    const std::int64_t value = inclusive ? running : before;
    window.push_back({got[window.size()], value, value - block_start_running, in[i], block_start_running});
  }
  const auto all = [&](auto rule) { return std::all_of(window.begin(), window.end(), rule); };
  const At& first = window.front();
  if (index >= c.local && all([](const At& a) { return a.got == a.within; }))
    return "right within each work-group, but the totals of the blocks before it are missing: scan the block sums and "
           "add them back (add_block_offsets)";
  const bool own = all([](const At& a) { return a.got == a.x; }) || all([](const At& a) { return a.got == 2 * a.x; });
  const bool swapped = inclusive ? all([](const At& a) { return a.got == a.expected - a.x; })
                                 : all([](const At& a) { return a.got == a.expected + a.x; });
  const std::string sweeps = "the up-sweep and the down-sweep (TODO 1 and 2 of scan_blocks) are missing";
  if (own && swapped)  // e.g. the first element of an exclusive scan: both fit
    return "the output is the element itself: either " + sweeps + ", or the inclusive scan was written";
  if (swapped)
    return inclusive ? "the exclusive scan where the inclusive one was asked for: add the element itself"
                     : "the inclusive scan where the exclusive one was asked for: leave the element out";
  if (own) return "each output is its own input (or twice it): " + sweeps;
  if (index >= c.local && first.got - first.within != first.block_offset)
    return "the offset added to work-group " + str(index / c.local) + " is " + std::to_string(first.got - first.within) +
           ", expected " + std::to_string(first.block_offset) +
           ": check add_block_offsets and the scans of the levels above";
  return "compare the sweeps with the README: pairs end at i = 2d(tid + 1) - 1, the down-sweep swaps and adds, and a "
         "barrier ends every level";
}

std::string diagnose_compact(const Case& c, const std::vector<std::int32_t>& in, std::int64_t count, std::size_t index,
                             std::int64_t got) {
  (void)index;
  (void)got;
  const auto expected = std::int64_t(expected_compact(in).size());
  const std::string scan_first = " (if a scan case fails too, fix the scan first: compaction is built on it)";
  if (count == -1) return "count[0] was never written: the work-item with gid == n - 1 writes it";
  if (count == 0 && expected > 0) return "nothing was kept: compact_flags and compact_scatter (TODOs)" + scan_first;
  if (count == std::int64_t(c.elements) && expected < count)
    return "every element was kept: the flag is KEEP(x) ? 1 : 0";
  if (count == expected + 1 || count == expected - 1)
    return "the count is off by one: it is the last element's position plus 1 if the last element is kept itself";
  if (count == expected)
    return "the count is right but the elements are not: kept element x = in[i] goes to out[positions[i]], positions "
           "being the exclusive scan of the flags" + scan_first;
  return "compare the three steps with the README: flags, their exclusive scan, the scatter" + scan_first;
}

std::optional<std::string> scan_difference(const Case& c, const std::vector<std::int32_t>& in, const ScanOutputs& out) {
  if (c.part == Part::Compact) {
    const std::vector<std::int32_t> kept = expected_compact(in);
    if (out.count != std::int64_t(kept.size()))
      return "compaction kept " + std::to_string(out.count) + " of " + str(c.elements) + " elements, expected " +
             str(kept.size());
    if (const auto i = first_mismatch(kept, out.values))
      return scan_mismatch_text(c, *i, kept[*i], *i < out.values.size() ? out.values[*i] : 0);
    return std::nullopt;
  }
  const std::vector<std::int32_t> e = expected_scan(in, c.part == Part::ScanInclusive);
  if (const auto i = first_mismatch(e, out.values))
    return scan_mismatch_text(c, *i, *i < e.size() ? e[*i] : 0, *i < out.values.size() ? out.values[*i] : 0);
  return std::nullopt;
}

// ---- Running on the device ----------------------------------------------------------------------

Runner::Runner(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const std::string& shown_as)
    : rt_(rt),
      shown_as_(shown_as.empty() ? kernel_file.string() : shown_as),
      program_(kit::build_program(rt.context, rt.device, kernel_file, "", shown_as_)) {}

cl::Buffer Runner::buffer(cl_mem_flags flags, std::size_t bytes, const void* host) {
  cl::Buffer b(rt_.context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes, const_cast<void*>(host));
  if (retain_) retained_.push_back(b);
  return b;
}

cl::Kernel Runner::kernel(const std::string& name, std::size_t local, std::size_t local_bytes) {
  cl::Kernel k = kit::make_kernel(program_, signature(name), shown_as_);
  if (local > 0) kit::check_local_size(rt_.device, k, local, local_bytes);
  return k;
}

// One launch of a one-total kernel (`name`: sum_int_atomic or sum_float_atomic) over `in`, the
// total zeroed before each run and read back after it (every run's in out.totals); T is cl_int or cl_float.
template <typename T>
Sum Runner::atomic_total(const char* name, const Case& c, const std::vector<T>& in, int warmup, int repeats) {
  check_input(c, in);
  const std::size_t L = c.local, groups = ceil_div(c.elements, L);
  cl::Kernel k = kernel(name, L, L * sizeof(T));
  cl::Buffer input = buffer(CL_MEM_READ_ONLY, in.size() * sizeof(T), in.data());
  cl::Buffer total = buffer(CL_MEM_READ_WRITE, sizeof(T));
  k.setArg(0, input);
  k.setArg(1, total);
  k.setArg(2, cl::Local(L * sizeof(T)));
  k.setArg(3, cl_uint(c.elements));
  const T zero = 0;
  T result = 0;
  Sum out;
  out.groups = groups;
  out.timing = kit::time_runs(warmup, repeats, [&] {
    rt_.queue.enqueueWriteBuffer(total, CL_FALSE, 0, sizeof(T), &zero);
    rt_.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(groups * L), cl::NDRange(L));
    rt_.queue.enqueueReadBuffer(total, CL_TRUE, 0, sizeof result, &result);
    out.totals.push_back(result);
  });
  out.total = result;
  return out;
}

Sum Runner::atomic_int(const Case& c, const std::vector<std::int32_t>& in, int warmup, int repeats) {
  return atomic_total<cl_int>("sum_int_atomic", c, in, warmup, repeats);
}

Sum Runner::atomic_float(const Case& c, const std::vector<float>& in, int warmup, int repeats) {
  return atomic_total<cl_float>("sum_float_atomic", c, in, warmup, repeats);
}

Sum Runner::read_back(const Case& c, const std::vector<float>& in, int warmup, int repeats) {
  check_input(c, in);
  const std::size_t L = c.local, groups = ceil_div(c.elements, L);
  cl::Kernel k = kernel("sum_tree", L, L * sizeof(float));
  cl::Buffer input = buffer(CL_MEM_READ_ONLY, in.size() * sizeof(float), in.data());
  cl::Buffer partials = buffer(CL_MEM_WRITE_ONLY, groups * sizeof(float));
  k.setArg(0, input);
  k.setArg(1, partials);
  k.setArg(2, cl::Local(L * sizeof(cl_float)));
  k.setArg(3, cl_uint(c.elements));
  std::vector<float> host(groups);
  Sum out;
  out.groups = groups;
  out.timing = kit::time_runs(warmup, repeats, [&] {
    rt_.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(groups * L), cl::NDRange(L));
    rt_.queue.enqueueReadBuffer(partials, CL_TRUE, 0, groups * sizeof(float), host.data());
    double total = 0;
    for (float p : host) total += p;
    out.total = total;
  });
  return out;
}

AccuracyOutputs Runner::accuracy(const Case& c, const std::vector<float>& in, int warmup, int repeats) {
  check_input(c, in);
  const std::size_t L = c.local, n = c.elements, runs = run_count(c);
  cl::Kernel naive = kernel("sum_naive", 0, 0), kahan = kernel("sum_kahan", 0, 0);
  cl::Kernel tree = kernel("sum_tree", std::min(L, c.run), std::min(L, c.run) * sizeof(float));
  cl::Buffer input = buffer(CL_MEM_READ_ONLY, n * sizeof(float), in.data());
  const std::size_t first_pass = ceil_div(n, std::min(L, c.run));
  std::vector<float> zeros(runs, 0.0f);
  cl::Buffer sums = buffer(CL_MEM_READ_WRITE, runs * sizeof(float), zeros.data());
  cl::Buffer work[2] = {buffer(CL_MEM_READ_WRITE, first_pass * sizeof(float)),
                        buffer(CL_MEM_READ_WRITE, first_pass * sizeof(float))};
  AccuracyOutputs out;
  const auto read = [&](const cl::Buffer& from, const std::string& method) {
    std::vector<float>& v = out.sums[method];
    v.assign(runs, NAN);
    rt_.queue.enqueueReadBuffer(from, CL_TRUE, 0, runs * sizeof(float), v.data());
  };
  for (cl::Kernel* k : {&naive, &kahan}) {
    k->setArg(0, input);
    k->setArg(1, sums);
    k->setArg(2, cl_uint(n));
    k->setArg(3, cl_uint(c.run));
    const std::string method = k == &naive ? "naive" : "kahan";
    rt_.queue.enqueueWriteBuffer(sums, CL_TRUE, 0, runs * sizeof(float), zeros.data());
    out.timing[method] = kit::time_runs(warmup, repeats, [&] {
      rt_.queue.enqueueNDRangeKernel(*k, cl::NullRange, cl::NDRange(runs), cl::NullRange);
      rt_.queue.finish();
    });
    read(sums, method);
  }
  // Pairwise: sum_tree passes of min(L, what is left of a run) elements per work-group. Runs and
  // work-groups are both powers of two long, so no work-group ever straddles two runs.
  const cl::Buffer* last = &input;
  out.timing["pairwise"] = kit::time_runs(warmup, repeats, [&] {
    const cl::Buffer* from = &input;
    std::size_t count = n;
    int passes = 0;
    for (std::size_t left = c.run; left > 1; ++passes) {
      const std::size_t lp = std::min(L, left), groups = ceil_div(count, lp);
      const cl::Buffer* to = &work[passes % 2];
      tree.setArg(0, *from);
      tree.setArg(1, *to);
      tree.setArg(2, cl::Local(lp * sizeof(float)));
      tree.setArg(3, cl_uint(count));
      rt_.queue.enqueueNDRangeKernel(tree, cl::NullRange, cl::NDRange(groups * lp), cl::NDRange(lp));
      from = to;
      count = groups;
      left /= lp;
    }
    rt_.queue.finish();
    last = from;
    out.pairwise_passes = passes;
  });
  read(*last, "pairwise");
  return out;
}

Runner::ScanLevels Runner::scan_levels_for(std::size_t count, std::size_t local) {
  ScanLevels levels;
  levels.local = local;
  levels.sizes = scan_levels(count, local);
  levels.scan = kernel("scan_blocks", local, local * sizeof(cl_int));
  levels.add = kernel("add_block_offsets", local, 0);
  for (std::size_t i = 0; i < levels.sizes.size(); ++i) {
    levels.sums.push_back(buffer(CL_MEM_READ_WRITE, ceil_div(levels.sizes[i], local) * sizeof(cl_int)));
    if (i > 0) levels.outs.push_back(buffer(CL_MEM_READ_WRITE, levels.sizes[i] * sizeof(cl_int)));
  }
  return levels;
}

void Runner::enqueue_scan(const cl::Buffer& from, const cl::Buffer& to, bool inclusive, ScanLevels& levels) {
  const std::size_t L = levels.local, depth = levels.sizes.size();
  // Up the levels: level i scans its blocks and writes their totals, which level i + 1 scans.
  for (std::size_t i = 0; i < depth; ++i) {
    levels.scan.setArg(0, i == 0 ? from : levels.sums[i - 1]);
    levels.scan.setArg(1, i == 0 ? to : levels.outs[i - 1]);
    levels.scan.setArg(2, levels.sums[i]);
    levels.scan.setArg(3, cl::Local(L * sizeof(cl_int)));
    levels.scan.setArg(4, cl_uint(levels.sizes[i]));
    levels.scan.setArg(5, cl_uint(i == 0 && inclusive ? 1 : 0));  // block sums are scanned exclusively
    rt_.queue.enqueueNDRangeKernel(levels.scan, cl::NullRange, cl::NDRange(ceil_div(levels.sizes[i], L) * L), cl::NDRange(L));
  }
  // Down again: level i + 1's output is the exclusive scan of level i's block totals, its offsets.
  for (std::size_t i = depth - 1; i-- > 0;) {
    levels.add.setArg(0, i == 0 ? to : levels.outs[i - 1]);
    levels.add.setArg(1, levels.outs[i]);
    levels.add.setArg(2, cl_uint(levels.sizes[i]));
    rt_.queue.enqueueNDRangeKernel(levels.add, cl::NullRange, cl::NDRange(ceil_div(levels.sizes[i], L) * L), cl::NDRange(L));
  }
}

ScanOutputs Runner::scan(const Case& c, const std::vector<std::int32_t>& in, int warmup, int repeats) {
  check_input(c, in);
  const std::size_t n = c.elements, bytes = n * sizeof(cl_int);
  ScanLevels levels = scan_levels_for(n, c.local);
  cl::Buffer input = buffer(CL_MEM_READ_ONLY, bytes, in.data());
  std::vector<std::int32_t> unwritten(n, INT32_MIN);  // what a never-written element reads as
  cl::Buffer output = buffer(CL_MEM_READ_WRITE, bytes, unwritten.data());
  const bool inclusive = c.part == Part::ScanInclusive;
  ScanOutputs out;
  out.levels = int(levels.sizes.size());
  out.timing = kit::time_runs(warmup, repeats, [&] {
    enqueue_scan(input, output, inclusive, levels);
    rt_.queue.finish();
  });
  out.values.resize(n);
  rt_.queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes, out.values.data());
  out.count = std::int64_t(n);
  return out;
}

ScanOutputs Runner::compact(const Case& c, const std::vector<std::int32_t>& in, int warmup, int repeats) {
  check_input(c, in);
  const std::size_t n = c.elements, L = c.local, bytes = n * sizeof(cl_int);
  ScanLevels levels = scan_levels_for(n, L);
  cl::Kernel flag = kernel("compact_flags", L, 0), scatter = kernel("compact_scatter", L, 0);
  cl::Buffer input = buffer(CL_MEM_READ_ONLY, bytes, in.data());
  cl::Buffer flags = buffer(CL_MEM_READ_WRITE, bytes), positions = buffer(CL_MEM_READ_WRITE, bytes);
  std::vector<std::int32_t> unwritten(n, INT32_MIN);
  cl::Buffer output = buffer(CL_MEM_READ_WRITE, bytes, unwritten.data());
  cl::Buffer count = buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
  flag.setArg(0, input);
  flag.setArg(1, flags);
  flag.setArg(2, cl_uint(n));
  scatter.setArg(0, input);
  scatter.setArg(1, positions);
  scatter.setArg(2, output);
  scatter.setArg(3, count);
  scatter.setArg(4, cl_uint(n));
  const cl::NDRange global(ceil_div(n, L) * L), local(L);
  ScanOutputs out;
  out.levels = int(levels.sizes.size());
  out.timing = kit::time_runs(warmup, repeats, [&] {
    rt_.queue.enqueueWriteBuffer(count, CL_FALSE, 0, sizeof(cl_int), &kNeverWritten);
    rt_.queue.enqueueNDRangeKernel(flag, cl::NullRange, global, local);
    enqueue_scan(flags, positions, false, levels);
    rt_.queue.enqueueNDRangeKernel(scatter, cl::NullRange, global, local);
    rt_.queue.finish();
  });
  cl_int kept = 0;
  rt_.queue.enqueueReadBuffer(count, CL_TRUE, 0, sizeof kept, &kept);
  out.count = kept;
  out.values.resize(std::size_t(std::clamp<std::int64_t>(kept, 0, std::int64_t(n))));
  if (!out.values.empty())
    rt_.queue.enqueueReadBuffer(output, CL_TRUE, 0, out.values.size() * sizeof(cl_int), out.values.data());
  return out;
}

}  // namespace lab08
