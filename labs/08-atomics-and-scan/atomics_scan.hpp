#pragma once
// Lab 08 host logic, shared by the lab's program, the grader and the tests: what comes after a
// tree reduction. Part 1 sums N values in one launch with atomics and times that against reading
// the partials back; part 2 measures the rounding error of naive, pairwise and Kahan sums against
// exact sums; part 3 scans any N ints (Blelloch within a work-group, block sums scanned level by
// level) and compacts them.
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kit/device.hpp"
#include "kit/exact.hpp"
#include "kit/program.hpp"
#include "kit/timing.hpp"
#include "kit/verdict.hpp"
#include "kit/witness.hpp"

namespace lab08 {

inline const std::string kLab = "08-atomics-and-scan";
inline const std::string kKernelFile = "AtomicsScan.cl";
// The program's witness of a failed --check (kit/witness.hpp): N capped at 16Ki and the accuracy
// runs at 4Ki under Oclgrind. 16Ki, not the other labs' 64Ki: the contention shape's work-groups of
// 8 are 8192 at 64Ki, which Oclgrind took 30 s of a core to run with its checks, and 7.7 s at 16Ki
// (the kit's 2-core machine, 2026-11-29); the witness never clears a kernel in this lab (below),
// and what it can find (an access out of bounds, an uninitialized value) shows at 16Ki as well. Its race check is left out: it reports the solution's own reads of
// the partials after the ticket and of the total in the compare-and-swap loop, which the grader's
// spec allows (grader/specs/08-atomics-and-scan.json, safety.allow) and a lab program cannot tell
// from real races. And a race between work-groups, which Oclgrind's one-group-after-another run
// computes right, is not something it can clear a kernel of.
inline const kit::WitnessPlan kWitness{
    {{"-n", "--elements", 16384}, {"", "--run", 4096}},
    {{"--data-races", "it reports the single pass's read of the partials after the ticket and the compare-and-swap loop's read of "
                      "the total as races, in the solution too; build/bin/grader check 08 tells those from real races"},
     {"", "it runs the work-groups one after another, so what goes wrong only while they run at the same time (an "
          "atomic update lost under contention, a ticket or a partial read without its fence) computes right under it; "
          "build/bin/grader check 08 runs those cases on two PoCL threads"}}};

// Every kernel of AtomicsScan.cl, in file order.
const std::vector<kit::KernelSignature>& signatures();
const kit::KernelSignature& signature(const std::string& kernel);  // kit::Error lists the kernels

// What one graded case runs.
enum class Part { AtomicInt, AtomicFloat, Accuracy, ScanExclusive, ScanInclusive, Compact, SinglePass };
const std::vector<Part>& parts();
Part parse_part(const std::string& text);  // "atomic-int", ..., "single-pass"; kit::Error lists the parts
std::string to_string(Part part);

inline constexpr std::size_t kMaxElements = std::size_t(1) << 27;  // 8 * 2^27 < 2^31: int sums and scans cannot overflow
inline constexpr std::size_t kMaxRun = std::size_t(1) << 20;

struct Case {
  Part part = Part::ScanInclusive;
  std::size_t elements = std::size_t(1) << 20;
  std::size_t local = 256;
  std::uint64_t seed = 1;
  std::size_t run = std::size_t(1) << 16;  // accuracy: elements per run (a power of two)
  // The atomic parts' data: whole numbers 1..8 instead of -8..8. Every work-group's partial is then
  // positive, so a lost update always makes the total smaller (the grader's contention cases).
  bool positive = false;
  std::size_t groups = 0;  // single-pass: work-groups G (0: the device's default, see single_pass.hpp)
  // single-pass: dot_sweep's branch: "device" (the device type picks), "cpu" (-D CONTIGUOUS) or "gpu"
  std::string branch = "device";
};
// L a power of two from 2 to 4096, 1 <= N <= 2^27, the run a power of two from 2 to 2^20.
void validate(const Case& c);

// ---- Data -------------------------------------------------------------------------------------
std::vector<std::int32_t> make_ints(const Case& c);  // whole numbers -8..8 (kit's int data); 1..8 when c.positive
std::vector<float> make_reals(const Case& c);        // multiples of 2^-23 in [-1, 1) (kit's real data)
// The ints of make_ints as floats: the grader's data for the float atomic. For N <= 2^21 every sum
// of them, in any order, is a whole number of at most 2^24 and exact in float, so the total is the same
// in every run and the stored references regenerate byte for byte. (With real data the float
// total changes with the order the work-groups' adds arrive in; the program shows that.)
inline constexpr std::size_t kMaxWholeFloatElements = std::size_t(1) << 21;
std::vector<float> make_whole_floats(const Case& c);

// The accuracy study's data, built to expose rounding: all positive; 1 element in 256 is large,
// in [2^8, 2^12), the others small, in [2^-20, 2^-12), with exponents spread evenly over the
// binades and 24 random significand bits. Once a running sum passes 2^13, every small element is
// below half its last place and a naive sum drops it. Every value is a whole multiple of 2^-43.
inline constexpr int kAccuracyScale = 43;
float accuracy_value(std::uint64_t seed, std::uint64_t index);
std::vector<float> make_accuracy_data(const Case& c);

// The exact sums use the kit's 128-bit arithmetic (kit/exact.hpp).
using kit::Int128;
using kit::parse_decimal;
using kit::scaled;
using kit::to_decimal;
using kit::unscaled;

// ---- Part 1: one launch, one total -------------------------------------------------------------
struct Sum {
  double total = 0;        // the int total (exact), the float total, or the host's double sum of partials
  std::size_t groups = 0;  // G = ceil(N / L)
  kit::Timing timing;      // launch to the total on the host (read-back included)
  std::vector<double> totals;  // every run's total, in order (warm-ups first): each must be right
  bool compare_and_swap = false;  // the float part: sum_float_atomic's code calls atomic_cmpxchg (or atom_cmpxchg)
};

// Exact references. Each real is k * 2^-23 with |k| < 2^23, so every sum below of at most 2^27
// such values is a whole multiple of 2^-23 below 2^50 in magnitude: exact in double.
struct FloatExpected {
  double exact = 0;         // the sum
  double abs = 0;           // sum of |x|
  double abs_partials = 0;  // sum over work-groups of |exact group sum|
  bool whole = false;       // every element a whole number (the grader's data)
  // The total when every group's tree adds nothing (tree_sum left empty): each group's first
  // element alone reaches the total. Not stored in references; NaN when not known.
  double first_items = std::numeric_limits<double>::quiet_NaN();
};
// The sum of each work-group's first element: the total that an empty tree gives.
template <typename T>
double first_items_sum(const Case& c, const std::vector<T>& in) {
  double sum = 0;
  for (std::size_t i = 0; i < in.size() && c.local > 0; i += c.local) sum += double(in[i]);
  return sum;
}
std::int64_t expected_int_sum(const std::vector<std::int32_t>& in);
FloatExpected expected_float_sum(const Case& c, const std::vector<float>& in);
// Each group's tree rounds an element at most log2 L times: gamma_a * sum|x| (a = log2 L). The G
// computed partials then meet in the total in some order, a chain of G - 1 rounded adds:
// gamma_{G-1} * sum|computed partial| <= gamma_{G-1} * (abs_partials + gamma_a * sum|x|).
// On whole numbers with sum|x| <= 2^24 (the grader's data) every partial sum, in any order, is a
// whole number of at most 2^24, exact in float: the bound is 0, so a single lost update shows.
double atomic_float_bound(const Case& c, const FloatExpected& e);

std::optional<std::string> atomic_int_difference(const Case& c, std::int64_t got, std::int64_t expected);
std::optional<std::string> atomic_float_difference(const Case& c, double got, const FloatExpected& e);
std::string diagnose_atomic(const Case& c, double got, double expected,
                            double first_items = std::numeric_limits<double>::quiet_NaN());
// The hint for a contention case (many launches of the same data on several threads) that lost
// updates: a wrong value of a known kind, else work-groups that ran at the same time raced for the
// total (a plain += where the code has no compare-and-swap; a compare-and-swap without its retry
// only where `compare_and_swap`: the kernel's code calls one), whether some launches were right or none.
std::string diagnose_contention(const Case& c, double got, double expected, bool some_right, bool compare_and_swap = false,
                                double first_items = std::numeric_limits<double>::quiet_NaN());

// The verdict on an atomic part's totals: every launch exact (ints; e.exact holds the int sum) or
// within the float bound. `totals` holds each total with the launches that gave it, in order; with
// several launches the message counts the wrong ones on `ran_on` (kit::Runtime::parallel_units: "2 PoCL
// threads", "132 compute units") and the hint names
// the race between work-groups that run at the same time.
// Whether kernel `kernel` of `code` (code_without_comments) calls atomic_cmpxchg or atom_cmpxchg,
// itself or in a function of the file it calls (the lab's atomic_add_float).
bool calls_compare_and_swap(const std::string& code, const std::string& kernel);

// `compare_and_swap`: the float kernel's code calls atomic_cmpxchg (Sum::compare_and_swap).
kit::Verdict check_atomic(const Case& c, const std::vector<std::pair<double, int>>& totals, const FloatExpected& e,
                          const std::string& ran_on, bool compare_and_swap = false);

// ---- Part 2: accuracy --------------------------------------------------------------------------
struct Method {
  std::string name;    // naive, pairwise, kahan
  std::string kernel;  // what it launches
  std::string rule;    // how it adds
};
const std::vector<Method>& methods();

struct AccuracyOutputs {
  std::map<std::string, std::vector<float>> sums;  // per method: one sum per run
  std::map<std::string, kit::Timing> timing;
  int pairwise_passes = 0;
};

std::size_t run_count(const Case& c);  // ceil(N / run)

// One run's exact sum and magnitude, in units of 2^-kAccuracyScale.
struct RunExact {
  Int128 sum = 0, abs = 0;
  std::size_t count = 0;
};
std::vector<RunExact> exact_runs(const Case& c, const std::vector<float>& in);
// The host's float sum of each run in order: sum_naive's result, bit for bit (IEEE float adds,
// round to nearest, one order: there is only one right answer).
std::vector<float> naive_runs(const Case& c, const std::vector<float>& in);

// The bound of a method on one run of `count` elements with sum|x| = abs: naive gamma_{count-1},
// pairwise gamma_{log2 run}, Kahan 2u + 16 count u^2 (Higham's 2u + O(n u^2), with a generous
// constant for the second-order term), each times abs.
double bound_factor(const std::string& method, const Case& c, std::size_t count);
std::string depth_text(const std::string& method, const Case& c);  // "65535", "16", "2 + O(nu)"

struct MethodError {
  std::string method;
  double worst_error = 0;       // largest |computed - exact| over the runs
  double worst_relative = 0;    // largest |computed - exact| / sum|x|, in units of u = 2^-24
  double worst_of_bound = 0;    // largest |computed - exact| / bound
  double bound_relative = 0;    // the bound of a full run / sum|x|, in units of u
  std::size_t worst_run = 0;    // the run with the largest error / bound
};
// Errors computed exactly: the result times 2^43 is a whole number (checked), minus the exact
// scaled sum; only the final conversion to double rounds.
std::vector<MethodError> accuracy_errors(const Case& c, const AccuracyOutputs& out, const std::vector<RunExact>& exact);

// Kahan's worst error must be at most 1/kKahanGain of naive's once runs are long (run >= 1024): on this
// data naive loses ~160u or more of sum|x| there, Kahan at most ~2u (measured gains: 40 to 1100).
inline constexpr double kKahanGain = 20;
std::optional<std::string> accuracy_difference(const Case& c, const AccuracyOutputs& out,
                                               const std::vector<RunExact>& exact, const std::vector<float>& naive);
std::string diagnose_accuracy(const Case& c, const AccuracyOutputs& out, const std::vector<RunExact>& exact,
                              const std::vector<float>& naive);
// The verdict on the accuracy part: accuracy_difference, with diagnose_accuracy's hint.
kit::Verdict check_accuracy(const Case& c, const AccuracyOutputs& out, const std::vector<RunExact>& exact,
                            const std::vector<float>& naive);

// ---- Part 3: scan and compaction ---------------------------------------------------------------
struct ScanOutputs {
  std::vector<std::int32_t> values;  // the scan, or the kept elements
  std::int64_t count = 0;            // compaction: the count the kernel wrote
  int levels = 0;                    // scan_blocks launches of one scan
  kit::Timing timing;
};
// Sizes scanned at each level: N, ceil(N/L), ... down to a single block (one entry per level).
std::vector<std::size_t> scan_levels(std::size_t n, std::size_t local);
std::vector<std::int32_t> expected_scan(const std::vector<std::int32_t>& in, bool inclusive);
std::vector<std::int32_t> expected_compact(const std::vector<std::int32_t>& in);  // the x > 0, in order

inline constexpr std::size_t kDiagnoseWindow = 8;
std::optional<std::size_t> first_mismatch(const std::vector<std::int32_t>& expected, const std::vector<std::int32_t>& got);
// got[index .. index + kDiagnoseWindow), as far as it goes.
std::vector<std::int64_t> window(const std::vector<std::int32_t>& got, std::size_t index);
// "element 300 of 1000 (work-group 1 of the first level): expected 12, got 5"
std::string scan_mismatch_text(const Case& c, std::size_t index, std::int64_t expected, std::int64_t got);
// The mistake a scan's outputs from the first wrong one on (`got`, a few of them) match, if any.
std::string diagnose_scan(const Case& c, const std::vector<std::int32_t>& in, std::size_t index,
                          const std::vector<std::int64_t>& got);
std::string diagnose_compact(const Case& c, const std::vector<std::int32_t>& in, std::int64_t count, std::size_t index,
                             std::int64_t got);
// What a scan or compaction run showed, in the form the program and the grader both have: the
// number of outputs (compaction: the count the kernel wrote), whether the outputs equal the host's
// (the program compares them, the grader their SHA-256 with the stored reference's), and where
// they first differ, with a few values read from there.
struct ScanSeen {
  std::int64_t count = 0;
  bool equal = true;
  bool by_digest = false;            // equality was judged by SHA-256 (the grader)
  std::optional<std::size_t> first;  // the first index that differs from the host's
  std::vector<std::int64_t> window;  // the outputs from there on (a few)
};
ScanSeen see_scan(const Case& c, const std::vector<std::int32_t>& in, const ScanOutputs& out);

// The verdict on a scan or compaction (c.part says which): pass, what differs, and the mistake
// it matches. Used by the program's --check, the grader and the tests.
kit::Verdict check_scan(const Case& c, const std::vector<std::int32_t>& in, const ScanSeen& seen);

// ---- Running on the device ---------------------------------------------------------------------
// Builds the kernel file once; each part makes the kernels it needs (so a file may hold only
// those), checks L against them, and runs with fresh buffers.
class Runner {
 public:
  Runner(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const std::string& shown_as = "");
  Sum atomic_int(const Case& c, const std::vector<std::int32_t>& in, int warmup, int repeats);
  Sum atomic_float(const Case& c, const std::vector<float>& in, int warmup, int repeats);
  Sum read_back(const Case& c, const std::vector<float>& in, int warmup, int repeats);  // sum_tree + host adds
  AccuracyOutputs accuracy(const Case& c, const std::vector<float>& in, int warmup, int repeats);
  ScanOutputs scan(const Case& c, const std::vector<std::int32_t>& in, int warmup, int repeats);
  ScanOutputs compact(const Case& c, const std::vector<std::int32_t>& in, int warmup, int repeats);

  // Keep every buffer until the runner is destroyed, so that no buffer reuses a released one's
  // address. For Oclgrind 21.10: a buffer at a reused address keeps the old buffer's record of
  // which bytes were written, and its uninitialized-value check then reports a correct scan that
  // runs after another part. The grader's memory-safety case, which runs every part, turns it on.
  void retain_buffers() { retain_ = true; }

  // The program's timed part 1 passes the same two vectors round after round, and each round
  // would copy them to the device again (16Mi elements: about 40 ms each on an H200's host, untimed
  // but waited for). While on, part 1's input buffers are kept and used again for the same vector:
  // the same address and size, which the caller promises still hold the same values, so it turns
  // this on only around such a loop. Turning it off forgets them.
  void keep_inputs(bool on) {
    keep_inputs_ = on;
    if (!on) inputs_.clear();
  }

 private:
  template <typename T>
  Sum atomic_total(const char* name, const Case& c, const std::vector<T>& in, int warmup, int repeats);
  template <typename T>
  Sum launches_at_once(cl::Kernel& k, std::size_t local, int launches, Sum& out);
  cl::Buffer buffer(cl_mem_flags flags, std::size_t bytes, const void* host = nullptr);
  cl::Buffer input(std::size_t bytes, const void* host);  // read-only, kept while keep_inputs is on
  cl::Kernel kernel(const std::string& name, std::size_t local, std::size_t local_bytes);
  // The sizes of a scan's levels and the buffers between them: each level's block sums, and the
  // scan of those (the next level's output), which the level below adds back.
  struct ScanLevels {
    std::vector<std::size_t> sizes;
    std::vector<cl::Buffer> sums, outs;  // sums[i]: level i's block totals; outs[i]: level i+1's output
    cl::Kernel scan, add;
    std::size_t local = 0;
  };
  ScanLevels scan_levels_for(std::size_t count, std::size_t local);
  // Enqueues the scan of levels.sizes[0] ints from `from` into `to` (no finish).
  void enqueue_scan(const cl::Buffer& from, const cl::Buffer& to, bool inclusive, ScanLevels& levels);

  const kit::Runtime& rt_;
  std::string shown_as_;
  cl::Program program_;
  bool retain_ = false;
  std::vector<cl::Buffer> retained_;
  struct KeptInput {
    const void* host;
    std::size_t bytes;
    cl::Buffer buffer;
  };
  bool keep_inputs_ = false;
  std::vector<KeptInput> inputs_;
};

}  // namespace lab08
