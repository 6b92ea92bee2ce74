// Lab 08, part 3: scan (exclusive and inclusive) and stream compaction.
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

ScanSeen see_scan(const Case& c, const std::vector<std::int32_t>& in, const ScanOutputs& out) {
  const bool compact = c.part == Part::Compact;
  const std::vector<std::int32_t> expected = compact ? expected_compact(in) : expected_scan(in, c.part == Part::ScanInclusive);
  ScanSeen seen;
  seen.count = compact ? out.count : std::int64_t(out.values.size());
  if (const auto i = first_mismatch(expected, out.values)) {
    seen.equal = false;
    seen.first = *i;
    seen.window = window(out.values, *i);
  }
  return seen;
}

kit::Verdict check_scan(const Case& c, const std::vector<std::int32_t>& in, const ScanSeen& seen) {
  const bool compact = c.part == Part::Compact;
  const std::vector<std::int32_t> expected = compact ? expected_compact(in) : expected_scan(in, c.part == Part::ScanInclusive);
  const std::int64_t want = std::int64_t(expected.size());
  if (seen.equal && seen.count == want) return {};
  const std::size_t index = seen.first.value_or(0);
  const std::int64_t got = seen.window.empty() ? 0 : seen.window[0];
  std::string message;
  if (compact && seen.count != want)
    message = "compaction kept " + std::to_string(seen.count) + " of " + str(c.elements) + " elements, expected " + std::to_string(want);
  else if (seen.first && (!seen.by_digest || (index < expected.size() && !seen.window.empty())))
    message = scan_mismatch_text(c, index, index < expected.size() ? expected[index] : 0, got) +
              (seen.by_digest ? "; the output's SHA-256 differs from the reference" : "");
  else
    message = "the SHA-256 of the output differs from the reference, but every element the run read back matched "
              "the host's: was the output changed after the kernels finished?";
  const std::string hint = compact ? diagnose_compact(c, in, seen.count, index, got) : diagnose_scan(c, in, index, seen.window);
  return {false, message, hint};
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
    kit::launch(rt_.queue, levels.scan, cl::NDRange(ceil_div(levels.sizes[i], L) * L), cl::NDRange(L));
  }
  // Down again: level i + 1's output is the exclusive scan of level i's block totals, its offsets.
  for (std::size_t i = depth - 1; i-- > 0;) {
    levels.add.setArg(0, i == 0 ? to : levels.outs[i - 1]);
    levels.add.setArg(1, levels.outs[i]);
    levels.add.setArg(2, cl_uint(levels.sizes[i]));
    kit::launch(rt_.queue, levels.add, cl::NDRange(ceil_div(levels.sizes[i], L) * L), cl::NDRange(L));
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
    kit::launch(rt_.queue, flag, global, local);
    enqueue_scan(flags, positions, false, levels);
    kit::launch(rt_.queue, scatter, global, local);
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
