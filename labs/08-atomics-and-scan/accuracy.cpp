// Lab 08, part 2: how far naive, pairwise and Kahan float sums land from the exact sum.
#include "atomics_scan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "atomics_scan_detail.hpp"
#include "kit/launch.hpp"
#include "kit/data.hpp"
#include "kit/errors.hpp"
#include "kit/reference.hpp"

namespace lab08 {
using namespace detail;

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
  if (errors[1].worst_of_bound > 1) return "the pairwise sums are beyond their bound: sum_tree runs tree_sum, your tree from lab 04: check tree_sum";
  return "compare sum_kahan with the four statements in the README, in that order; c must be computed from the old "
         "sum, before sum = t";
}

kit::Verdict check_accuracy(const Case& c, const AccuracyOutputs& out, const std::vector<RunExact>& exact,
                            const std::vector<float>& naive) {
  if (const auto diff = accuracy_difference(c, out, exact, naive)) return {false, *diff, diagnose_accuracy(c, out, exact, naive)};
  return {};
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
      kit::launch(rt_.queue, *k, cl::NDRange(runs), cl::NullRange);
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
      kit::launch(rt_.queue, tree, cl::NDRange(groups * lp), cl::NDRange(lp));
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

}  // namespace lab08
