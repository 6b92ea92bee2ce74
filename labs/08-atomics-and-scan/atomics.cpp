// Lab 08, part 1: one launch, one total, with an atomic add per work-group.
#include "atomics_scan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <regex>
#include <stdexcept>

#include "atomics_scan_detail.hpp"
#include "kit/kernel_code.hpp"
#include "kit/launch.hpp"
#include "kit/data.hpp"
#include "kit/errors.hpp"
#include "kit/reference.hpp"

namespace lab08 {
using namespace detail;

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
std::optional<std::string> diagnose_total(const Case& c, double got, double expected, double first_items) {
  const double near = 1e-3 * std::max(1.0, std::fabs(expected));
  if (c.local > 1 && got != expected && std::fabs(got - first_items) <= near)  // false while first_items is NaN
    return "only each work-group's first element reached the total: the tree adds nothing. tree_sum and tree_sum_int "
           "hold your loop from lab 04 (rung 3, sequential addressing)";
  if (std::isnan(got)) return "the total is not a number: was it written with anything but the compare-and-swap add?";
  if (got == 0 && expected != 0)
    return "the total is still 0: no work-group added its partial (one work-item per group adds scratch[0] to the total)";
  if (c.local > 1 && expected != 0 && std::fabs(got - double(c.local) * expected) <= near * double(c.local))
    return "L times the right total: every work-item of a group added the group's sum; only one (tid == 0) should";
  return std::nullopt;
}

std::string diagnose_atomic(const Case& c, double got, double expected, double first_items) {
  if (auto known = diagnose_total(c, got, expected, first_items)) return *known;
  return "an update was lost or counted twice: work-groups add to one total, so each group must add its partial "
         "once, from one work-item, with an atomic operation (atomic_add; for floats the compare-and-swap loop, "
         "retried until its swap succeeds)";
}

std::string diagnose_contention(const Case& c, double got, double expected, bool some_right, bool compare_and_swap,
                                double first_items) {
  if (auto known = diagnose_total(c, got, expected, first_items)) return *known;
  const std::string which = some_right ? "some launches were right and others lost updates"
                                       : "every launch lost updates";
  if (c.part == Part::AtomicInt)
    return which + ": work-groups that run at the same time raced for the total; "
           "add each partial with atomic_add (a plain += reads and writes in two steps, and another group can come between)";
  if (!compare_and_swap)
    return which + ": work-groups that run at the same time raced for the total, and sum_float_atomic calls no "
           "atomic_cmpxchg: its update of the total is not atomic (a plain += reads and writes in two steps, and another "
           "group can come between). OpenCL 1.2 has no atomic add for float: the lab README's compare-and-swap loop is one";
  return which + ": work-groups that run at the same time raced for the total. "
         "A compare-and-swap fails when another group changed the total after it was read: the add must then start "
         "again from a fresh read, in a loop, until atomic_cmpxchg returns the bits that were read";
}

bool calls_compare_and_swap(const std::string& code, const std::string& kernel) {
  static const std::regex cmpxchg(R"(\b(atomic|atom)_cmpxchg\s*\()"), call(R"(\b([A-Za-z_]\w*)\s*\()");
  const std::string body = kit::kernel_body(code, kernel).text;
  if (std::regex_search(body, cmpxchg)) return true;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), call); it != std::sregex_iterator(); ++it) {
    // A function of the file that the kernel calls (atomic_add_float): its definition, a type and the name before "(".
    const std::regex definition("\\b\\w+\\s+" + (*it)[1].str() + "\\s*\\([^;{]*\\)\\s*\\{");
    std::smatch d;
    if (std::regex_search(code, d, definition) &&
        std::regex_search(kit::kernel_body(code.substr(std::size_t(d.position(0))), (*it)[1].str()).text, cmpxchg))
      return true;
  }
  return false;
}

kit::Verdict check_atomic(const Case& c, const std::vector<std::pair<double, int>>& totals, const FloatExpected& e,
                          const std::string& ran_on, bool compare_and_swap) {
  const bool ints = c.part == Part::AtomicInt;
  int wrong = 0, launches = 0;
  std::optional<std::pair<double, std::string>> first;  // the first wrong total, and what is wrong with it
  for (const auto& [got, runs] : totals) {
    launches += runs;
    const auto diff = ints ? atomic_int_difference(c, std::int64_t(got), std::int64_t(e.exact)) : atomic_float_difference(c, got, e);
    if (!diff) continue;
    wrong += runs;
    if (!first) first = {{got, *diff}};
  }
  if (!first) return {};
  if (launches == 1) return {false, first->second, diagnose_atomic(c, first->first, e.exact, e.first_items)};
  return {false,
          std::to_string(wrong) + " of " + std::to_string(launches) + " launches on " + ran_on + " gave a wrong total; the first: " + first->second,
          diagnose_contention(c, first->first, e.exact, wrong < launches, compare_and_swap, e.first_items)};
}

// One launch of a one-total kernel (`name`: sum_int_atomic or sum_float_atomic) over `in`, the
// total zeroed before each run and read back after it (every run's in out.totals); T is cl_int or cl_float.
template <typename T>
Sum Runner::atomic_total(const char* name, const Case& c, const std::vector<T>& in, int warmup, int repeats) {
  check_input(c, in);
  const std::size_t L = c.local, groups = ceil_div(c.elements, L);
  cl::Kernel k = kernel(name, L, L * sizeof(T));
  cl::Buffer input = this->input(in.size() * sizeof(T), in.data());
  cl::Buffer total = buffer(CL_MEM_READ_WRITE, sizeof(T));
  k.setArg(0, input);
  k.setArg(1, total);
  k.setArg(2, cl::Local(L * sizeof(T)));
  k.setArg(3, cl_uint(c.elements));
  const T zero = 0;
  T result = 0;
  Sum out;
  out.groups = groups;
  if (warmup == 0 && repeats > 1 && rt_.device.getInfo<CL_DEVICE_TYPE>() != CL_DEVICE_TYPE_CPU)
    return launches_at_once<T>(k, L, repeats, out);
  out.timing = kit::time_runs(warmup, repeats, [&] {
    rt_.queue.enqueueWriteBuffer(total, CL_FALSE, 0, sizeof(T), &zero);
    kit::launch(rt_.queue, k, cl::NDRange(groups * L), cl::NDRange(L));
    rt_.queue.enqueueReadBuffer(total, CL_TRUE, 0, sizeof result, &result);
    out.totals.push_back(result);
  });
  out.total = result;
  return out;
}

// Launches whose totals are each checked, not timed (the contention cases, and the program's exact
// check), on a device other than a CPU: each launch gets a total of its own, zeroed before it, and
// the launches go round kConcurrentQueues queues, so that the device may run several at once. A
// float total's compare-and-swap loop makes a launch's work-groups take their turns on one address:
// alone, such a launch leaves the rest of a GPU idle (on an H200, 8192 groups of 8 took about 16 ms
// a launch). Every launch still has all its work-groups racing for its total, as many at once as the
// device holds, so a lost update shows in each as before. On a CPU device (PoCL, the threads the
// case asks for) the launches stay one at a time on the one queue: there they race only within one.
constexpr int kConcurrentQueues = 8;

template <typename T>
Sum Runner::launches_at_once(cl::Kernel& k, std::size_t local, int launches, Sum& out) {
  std::vector<cl::CommandQueue> queues;
  for (int q = 0; q < kConcurrentQueues; ++q) queues.push_back(cl::CommandQueue(rt_.context, rt_.device));
  std::vector<cl::Buffer> totals;
  std::vector<T> results(std::size_t(launches), T(0));
  const T zero = 0;
  const kit::Timing all = kit::time_runs(0, 1, [&] {
    for (int i = 0; i < launches; ++i) {
      const cl::CommandQueue& queue = queues[std::size_t(i % kConcurrentQueues)];
      totals.push_back(buffer(CL_MEM_READ_WRITE, sizeof(T)));
      queue.enqueueWriteBuffer(totals.back(), CL_FALSE, 0, sizeof(T), &zero);
      k.setArg(1, totals.back());  // taken by the enqueue below
      kit::launch(queue, k, cl::NDRange(out.groups * local), cl::NDRange(local));
      queue.enqueueReadBuffer(totals.back(), CL_FALSE, 0, sizeof(T), &results[std::size_t(i)]);
    }
    for (const cl::CommandQueue& queue : queues) queue.finish();
  });
  out.timing = kit::timing_of({all.best / launches});  // the launches overlap: their mean share of the whole
  for (const T r : results) out.totals.push_back(r);
  out.total = results.back();
  return out;
}

Sum Runner::atomic_int(const Case& c, const std::vector<std::int32_t>& in, int warmup, int repeats) {
  return atomic_total<cl_int>("sum_int_atomic", c, in, warmup, repeats);
}

Sum Runner::atomic_float(const Case& c, const std::vector<float>& in, int warmup, int repeats) {
  Sum s = atomic_total<cl_float>("sum_float_atomic", c, in, warmup, repeats);
  s.compare_and_swap = calls_compare_and_swap(kit::code_without_comments(program_.getInfo<CL_PROGRAM_SOURCE>()), "sum_float_atomic");
  return s;
}

Sum Runner::read_back(const Case& c, const std::vector<float>& in, int warmup, int repeats) {
  check_input(c, in);
  const std::size_t L = c.local, groups = ceil_div(c.elements, L);
  cl::Kernel k = kernel("sum_tree", L, L * sizeof(float));
  cl::Buffer input = this->input(in.size() * sizeof(float), in.data());
  cl::Buffer partials = buffer(CL_MEM_WRITE_ONLY, groups * sizeof(float));
  k.setArg(0, input);
  k.setArg(1, partials);
  k.setArg(2, cl::Local(L * sizeof(cl_float)));
  k.setArg(3, cl_uint(c.elements));
  std::vector<float> host(groups);
  Sum out;
  out.groups = groups;
  out.timing = kit::time_runs(warmup, repeats, [&] {
    kit::launch(rt_.queue, k, cl::NDRange(groups * L), cl::NDRange(L));
    rt_.queue.enqueueReadBuffer(partials, CL_TRUE, 0, groups * sizeof(float), host.data());
    double total = 0;
    for (float p : host) total += p;
    out.total = total;
  });
  return out;
}

}  // namespace lab08
