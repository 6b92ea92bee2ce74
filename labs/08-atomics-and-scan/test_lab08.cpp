// Lab 08 on PoCL: the solution's scans and compactions are exact for awkward N (one level, two,
// three, ten), the atomic totals are exact or within their bound, the accuracy study's errors stay
// within each method's bound with Kahan far below naive, the starter and typical mistakes fail
// with their hints, and the grader passes the solution's safety checks with exactly one allowed
// false alarm (the compare-and-swap add's plain read).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "atomics_scan.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "grader/lab/driver.hpp"
#include "support.hpp"

namespace {

const auto solution = [] { return kit::lab_file(lab08::kLab, lab08::kKernelFile, true); };
const auto starter = [] { return kit::lab_file(lab08::kLab, lab08::kKernelFile, false); };

lab08::Case make_case(lab08::Part part, std::size_t n, std::size_t local, std::uint64_t seed = 7, std::size_t run = 2) {
  lab08::Case c;
  c.part = part;
  c.elements = n;
  c.local = local;
  c.seed = seed;
  c.run = run;
  return c;
}

// Runs a scan or compaction case; returns the problem in words (nullopt when exact) and the hint.
std::pair<std::optional<std::string>, std::string> scan_case(const std::filesystem::path& file, const lab08::Case& c,
                                                             int* levels = nullptr) {
  lab08::Runner runner(test::runtime(), file);
  const auto in = lab08::make_ints(c);
  const lab08::ScanOutputs out = c.part == lab08::Part::Compact ? runner.compact(c, in, 0, 1) : runner.scan(c, in, 0, 1);
  if (levels) *levels = out.levels;
  const kit::Verdict v = lab08::check_scan(c, in, lab08::see_scan(c, in, out));  // as the program and the grader
  if (v.pass) return {std::nullopt, ""};
  return {v.message, v.hint};
}

// A typical mistake, made from the solution by replacing `from` (found once) with `to`, written
// under `dir`.
std::filesystem::path mistake(const test::TempDir& dir, const std::string& from, const std::string& to) {
  test::write(dir / "AtomicsScan.cl", test::replace_once(test::read(solution()), from, to));
  return dir / "AtomicsScan.cl";
}

struct Accuracy {
  lab08::AccuracyOutputs out;
  std::vector<lab08::RunExact> exact;
  std::vector<float> naive;
  std::vector<lab08::MethodError> errors;
  std::optional<std::string> diff;
  std::string hint;
};

Accuracy accuracy_case(const std::filesystem::path& file, const lab08::Case& c) {
  lab08::Runner runner(test::runtime(), file);
  const auto data = lab08::make_accuracy_data(c);
  Accuracy a;
  a.out = runner.accuracy(c, data, 0, 1);
  a.exact = lab08::exact_runs(c, data);
  a.naive = lab08::naive_runs(c, data);
  a.errors = lab08::accuracy_errors(c, a.out, a.exact);
  const kit::Verdict v = lab08::check_accuracy(c, a.out, a.exact, a.naive);  // as the program and the grader
  if (!v.pass) a.diff = v.message, a.hint = v.hint;
  return a;
}

}  // namespace

TEST_CASE("lab 08: the solution's scans and compactions are exact for awkward N, one level to ten") {
  // N = 1, L - 1, L, L + 1, primes, N > L*L (three levels), large, and L = 2 (ten levels for 999).
  const std::vector<std::tuple<std::size_t, std::size_t, int>> sizes = {
      {1, 256, 1},     {255, 256, 1},  {256, 256, 1},      {257, 256, 2},     {1009, 64, 2},
      {4099, 64, 3},   {65537, 256, 3}, {1048583, 256, 3}, {999, 2, 10},      {3, 4, 1}};
  for (const lab08::Part part : {lab08::Part::ScanExclusive, lab08::Part::ScanInclusive, lab08::Part::Compact})
    for (const auto& [n, l, want_levels] : sizes) {
      CAPTURE(lab08::to_string(part));
      CAPTURE(n);
      CAPTURE(l);
      int levels = 0;
      const auto [diff, hint] = scan_case(solution(), make_case(part, n, l), &levels);
      CHECK_MESSAGE(!diff, diff.value_or(""));
      CHECK(levels == want_levels);
    }
}

TEST_CASE("lab 08: the atomic int total is exact, the compare-and-swap float total within its bound") {
  for (const auto& [n, l] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 64}, {999, 2}, {1000, 64}, {65537, 256}, {1048581, 256}}) {
    CAPTURE(n);
    CAPTURE(l);
    lab08::Runner runner(test::runtime(), solution());
    lab08::Case c = make_case(lab08::Part::AtomicInt, n, l);
    const auto ints = lab08::make_ints(c);
    const lab08::Sum isum = runner.atomic_int(c, ints, 0, 1);
    CHECK(isum.groups == (n + l - 1) / l);
    CHECK_FALSE(lab08::atomic_int_difference(c, std::int64_t(isum.total), lab08::expected_int_sum(ints)));
    c.part = lab08::Part::AtomicFloat;
    const auto reals = lab08::make_reals(c);
    const lab08::FloatExpected e = lab08::expected_float_sum(c, reals);
    const lab08::Sum fsum = runner.atomic_float(c, reals, 0, 1);
    const auto diff = lab08::atomic_float_difference(c, fsum.total, e);
    CHECK_MESSAGE(!diff, diff.value_or(""));
  }
  {  // The grader's data for the float atomic: whole numbers, exact in any order.
    lab08::Runner runner(test::runtime(), solution());
    const lab08::Case c = make_case(lab08::Part::AtomicFloat, 1048581, 256, 82);
    const auto whole = lab08::make_whole_floats(c);
    CHECK(runner.atomic_float(c, whole, 0, 1).total == lab08::expected_float_sum(c, whole).exact);
  }
  // The bound is tight enough to see a lost or doubled update: one group's partial of 64 reals
  // (typically ~4.6 in size) against a tolerance of about 2.3e-4 for N = 1000, L = 64.
  const lab08::Case c = make_case(lab08::Part::AtomicFloat, 1000, 64, 82);
  const lab08::FloatExpected e = lab08::expected_float_sum(c, lab08::make_reals(c));
  CHECK(lab08::atomic_float_bound(c, e) < 1e-3);
  CHECK(lab08::atomic_float_difference(c, e.exact + 0.01, e));
}

TEST_CASE("lab 08: accuracy: each method within its bound, naive bit for bit, Kahan far below naive") {
  const lab08::Case c = make_case(lab08::Part::Accuracy, std::size_t(1) << 20, 256, 83, std::size_t(1) << 16);
  const Accuracy a = accuracy_case(solution(), c);
  // The grader's comparison: each method within its bound, naive bit for bit against the host's
  // float loop, Kahan's worst error at most naive's / kKahanGain (the mutants below make it fail).
  CHECK_MESSAGE(!a.diff, a.diff.value_or(""));
  REQUIRE(a.errors.size() == 3);
  // The data does expose rounding: naive loses over 100 u of sum|x| (it drops the small
  // elements once the running sum passes 2^13), pairwise a few u, Kahan about one.
  CHECK(a.errors[0].worst_relative > 100);
  CHECK(a.errors[1].worst_relative < 16);
  CHECK(a.errors[2].worst_relative < 2);
  CHECK(a.out.pairwise_passes == 2);  // 64Ki = 256 * 256
}

TEST_CASE("lab 08: the reference sums are exact, and a double sum of the same data is not") {
  // Every accuracy value is a whole multiple of 2^-43 below 2^12.
  const lab08::Case c = make_case(lab08::Part::Accuracy, 1 << 16, 256, 83, 1 << 16);
  const auto data = lab08::make_accuracy_data(c);
  std::size_t large = 0, outside = 0, not_multiple = 0;
  for (float x : data) {
    outside += !(x >= 0x1p-20f && x < 0x1p12f);
    large += x >= 0x1p8f;
    try {
      lab08::scaled(x, lab08::kAccuracyScale);
    } catch (const std::invalid_argument&) {
      ++not_multiple;
    }
  }
  CHECK(outside == 0);
  CHECK(not_multiple == 0);
  CHECK(large > 128);  // about 1 in 256
  CHECK(large < 512);
  // The run's exact sum spans about 2^-43 to 2^18, 62 bits: more than double's 53, so its sum rounds.
  const lab08::RunExact exact = lab08::exact_runs(c, data).at(0);
  double s = 0;
  for (float x : data) s += x;
  CHECK(static_cast<long double>(s) != lab08::unscaled(exact.sum, lab08::kAccuracyScale));
  CHECK(exact.count == data.size());
  CHECK(exact.sum == exact.abs);  // all positive
}

TEST_CASE("lab 08: the starter compiles and every part fails with its hint") {
  lab08::Runner runner(test::runtime(), starter());
  lab08::Case c = make_case(lab08::Part::AtomicInt, 1000, 64, 81);
  const auto ints = lab08::make_ints(c);
  const std::int64_t iexp = lab08::expected_int_sum(ints);
  const lab08::Sum isum = runner.atomic_int(c, ints, 0, 1);
  REQUIRE(lab08::atomic_int_difference(c, std::int64_t(isum.total), iexp));
  CHECK(lab08::diagnose_atomic(c, isum.total, double(iexp)).find("still 0") != std::string::npos);
  c.part = lab08::Part::AtomicFloat;
  const auto reals = lab08::make_reals(c);
  const lab08::FloatExpected e = lab08::expected_float_sum(c, reals);
  const lab08::Sum fsum = runner.atomic_float(c, reals, 0, 1);
  CHECK(lab08::atomic_float_difference(c, fsum.total, e));

  const Accuracy a = accuracy_case(starter(), make_case(lab08::Part::Accuracy, 1 << 16, 256, 83, 1 << 12));
  REQUIRE(a.diff);
  CHECK(a.hint.find("sum_naive returned 0") != std::string::npos);

  for (const lab08::Part part : {lab08::Part::ScanExclusive, lab08::Part::ScanInclusive}) {
    const auto [diff, hint] = scan_case(starter(), make_case(part, 1000, 64, 86));
    REQUIRE(diff);
    CHECK(hint.find("up-sweep and the down-sweep") != std::string::npos);
  }
  const auto [diff, hint] = scan_case(starter(), make_case(lab08::Part::Compact, 1000, 64, 90));
  REQUIRE(diff);
  CHECK(hint.find("nothing was kept") != std::string::npos);
}

TEST_CASE("lab 08: typical mistakes get their hint") {
  {  // every work-item adds the group's sum
    test::TempDir dir;
    lab08::Runner runner(test::runtime(), mistake(dir, "    if (tid == 0)\n        atomic_add(total, scratch[0]);",
                                                  "    atomic_add(total, scratch[0]);"));
    const lab08::Case c = make_case(lab08::Part::AtomicInt, 100000, 64, 81);
    const auto ints = lab08::make_ints(c);
    const std::int64_t want = lab08::expected_int_sum(ints);
    REQUIRE(want != 0);
    const lab08::Sum s = runner.atomic_int(c, ints, 0, 1);
    CHECK(std::int64_t(s.total) == 64 * want);
    CHECK(lab08::diagnose_atomic(c, s.total, double(want)).find("L times") != std::string::npos);
  }
  {  // no offsets added: block 1 restarts from 0
    test::TempDir dir;
    const auto file = mistake(dir, "    if (gid < n)\n        out[gid] += offsets[get_group_id(0)];", "    (void)offsets;");
    const auto [diff, hint] = scan_case(file, make_case(lab08::Part::ScanInclusive, 1000, 64, 86));
    REQUIRE(diff);
    CHECK(diff->find("element 64 of 1000 (work-group 1 of 16, position 0 in it; 2 levels)") != std::string::npos);
    CHECK(hint.find("add_block_offsets") != std::string::npos);
  }
  {  // the inclusive flag ignored
    test::TempDir dir;
    const auto file = mistake(dir, "out[gid] = scratch[tid] + (inclusive ? x : 0);", "out[gid] = scratch[tid];");
    const auto [diff, hint] = scan_case(file, make_case(lab08::Part::ScanInclusive, 1000, 64, 86));
    REQUIRE(diff);
    CHECK(hint.find("exclusive scan where the inclusive one was asked for") != std::string::npos);
    CHECK_FALSE(scan_case(file, make_case(lab08::Part::ScanExclusive, 1000, 64, 86)).first);
  }
  {  // compaction's count forgets the last element
    const lab08::Case c = make_case(lab08::Part::Compact, 1000, 64, 89);
    REQUIRE(lab08::make_ints(c).back() > 0);  // else the mistake would not show
    test::TempDir dir;
    const auto [diff, hint] =
        scan_case(mistake(dir, "count[0] = positions[gid] + (KEEP(x) ? 1 : 0);", "count[0] = positions[gid];"), c);
    REQUIRE(diff);
    CHECK(hint.find("off by one") != std::string::npos);
  }
  {  // Kahan without its compensation is the naive sum, far beyond Kahan's bound
    test::TempDir dir;  // the compensation computed but never subtracted from the next element
    const Accuracy a = accuracy_case(mistake(dir, "float y = in[i] - c;", "float y = in[i];"),
                                     make_case(lab08::Part::Accuracy, 1 << 18, 256, 83, 1 << 16));
    REQUIRE(a.diff);
    CHECK(a.diff->find("sum_kahan (kahan)") != std::string::npos);
    CHECK(a.errors[2].worst_of_bound > 10);
    CHECK(a.hint.find("exactly the naive sums") != std::string::npos);
  }
}

TEST_CASE("lab 08: bad cases and options are refused with the reason") {
  CHECK_THROWS_WITH_AS(lab08::validate(make_case(lab08::Part::Compact, 100, 48)), doctest::Contains("local size 48"), kit::Error);
  CHECK_THROWS_WITH_AS(lab08::validate(make_case(lab08::Part::Compact, 100, 1)), doctest::Contains("local size 1 is below 2"), kit::Error);
  CHECK_THROWS_WITH_AS(lab08::validate(make_case(lab08::Part::Compact, 0, 64)), doctest::Contains("element count 0"), kit::Error);
  CHECK_THROWS_WITH_AS(lab08::validate(make_case(lab08::Part::Compact, (std::size_t(1) << 27) + 1, 64)),
                       doctest::Contains("overflow"), kit::Error);
  CHECK_THROWS_WITH_AS(lab08::validate(make_case(lab08::Part::Accuracy, 100, 64, 1, 1000)), doctest::Contains("run length 1000"),
                       kit::Error);
  CHECK_THROWS_WITH_AS(lab08::parse_part("scan"), doctest::Contains("part 'scan' is not one of: atomic-int"), kit::Error);
  const auto& driver = grader::lab_driver(lab08::kLab);
  // `run` is the accuracy part's, required there; the other parts ignore it (the safety case lists every part with one).
  CHECK_NOTHROW(driver.validate_case(grader::json::parse(R"({"part": "compact", "elements": 10, "local": 4, "seed": 1, "run": 16})")));
  CHECK_THROWS_WITH_AS(driver.validate_case(grader::json::parse(R"({"part": "accuracy", "elements": 10, "local": 4, "seed": 1})")),
                       doctest::Contains("run: the accuracy part needs"), kit::Error);
  CHECK_THROWS_WITH_AS(driver.validate_case(grader::json::parse(R"({"part": "sum", "elements": 10, "local": 4, "seed": 1})")),
                       doctest::Contains("part 'sum' is not one of"), kit::Error);
  // The contention fields: only on the atomic parts, and each with its range.
  CHECK_THROWS_WITH_AS(driver.validate_case(grader::json::parse(R"({"part": "compact", "elements": 10, "local": 4, "seed": 1, "repeats": 5})")),
                       doctest::Contains("repeats: only the atomic parts (atomic-int, atomic-float) take it, not part \"compact\""), kit::Error);
  CHECK_THROWS_WITH_AS(driver.validate_case(grader::json::parse(R"({"part": "atomic-float", "elements": 10, "local": 4, "seed": 1, "data": "real"})")),
                       doctest::Contains("data: must be \"int\" (whole numbers -8..8) or \"positive-int\" (1..8), not \"real\""), kit::Error);
  CHECK_THROWS_WITH_AS(driver.validate_case(grader::json::parse(R"({"part": "atomic-int", "elements": 10, "local": 4, "seed": 1, "repeats": 0})")),
                       doctest::Contains("repeats: must be a whole number from 1 to 10000"), kit::Error);
  CHECK_THROWS_WITH_AS(driver.validate_case(grader::json::parse(R"({"part": "atomic-int", "elements": 10, "local": 4, "seed": 1, "pocl_threads": 0})")),
                       doctest::Contains("pocl_threads: must be a whole number from 1 to 256, not 0"), kit::Error);
  CHECK_NOTHROW(driver.validate_case(grader::json::parse(
      R"({"part": "atomic-float", "elements": 10, "local": 4, "seed": 1, "data": "positive-int", "repeats": 3, "pocl_threads": 2})")));

  const auto bad_local = test::run_program("08-atomics-and-scan", "--local 48");
  CHECK(bad_local.exit_code == 1);
  CHECK(bad_local.output.find("error: local size 48 is not a power of two (32 and 64 are the nearest)") != std::string::npos);
  const auto bad_part = test::run_program("08-atomics-and-scan", "--part sums");
  CHECK(bad_part.exit_code == 1);
  CHECK(bad_part.output.find("part 'sums' is not one of: atomics, accuracy, scan, single-pass") != std::string::npos);
  const auto both = test::run_program("08-atomics-and-scan", "--solution --kernel x.cl");
  CHECK(both.exit_code == 1);
  CHECK(both.output.find("either --kernel or --solution") != std::string::npos);
}

TEST_CASE("lab 08: the program checks the solution and the starter, part by part") {
  const auto good = test::run_program("08-atomics-and-scan", "--solution --check --elements 70000 --local 64 --run 16Ki --repeats 1");
  CHECK_MESSAGE(good.exit_code == 0, good.output);
  for (const char* text : {"Part 1: one launch, one total", "Part 2: accuracy", "Part 3: scan and compaction",
                           "3 level(s) (70000 -> 1094 -> 18)", "atomics / read-back", "sum_kahan", "Part 4: single pass",
                           "checked: 3 launches in a row", "lab 06 DotCascade", "single pass / cascade, time:"})
    CHECK_MESSAGE(good.output.find(text) != std::string::npos, text);
  CHECK(good.output.find("FAIL") == std::string::npos);
  const auto bad = test::run_program("08-atomics-and-scan", "--check --elements 5000 --local 64 --run 1Ki --repeats 1");
  CHECK(bad.exit_code == 1);
  CHECK(bad.output.find("CHECK FAILED scan-inclusive: element") != std::string::npos);
  CHECK(bad.output.find("hint: the total is still 0") != std::string::npos);
  CHECK(bad.output.find("CHECK FAILED dot_single_pass: 3 of 3 launches wrong") != std::string::npos);
  CHECK(bad.output.find("hint: no work-group wrote the result") != std::string::npos);
}

TEST_CASE("lab 08 grading: the solution passes, the compare-and-swap read is allowed on purpose and nothing else") {
  test::TempDir refs, strict_specs, strict_refs, plain;
  const std::string specs = (kit::root() / "grader/specs").string();
  const auto grader = [&](const std::string& spec_dir, const std::string& ref_dir, const std::string& args) {
    return test::run_program("grader", "--specs " + spec_dir + " --references " + ref_dir + " " + args);
  };
  REQUIRE(grader(specs, refs.path.string(), "reference --labs 08").exit_code == 0);
  // Stored references are digests, sizes and counts: small. And they regenerate byte for byte,
  // the float atomic's total included (whole numbers: the same total in any order).
  CHECK(std::filesystem::file_size(refs / "08-atomics-and-scan.json") < 64 * 1024);
  test::TempDir again;
  REQUIRE(grader(specs, again.path.string(), "reference --labs 08").exit_code == 0);
  CHECK(test::snapshot(refs.path) == test::snapshot(again.path));

  const auto pass = grader(specs, refs.path.string(), "check 08 --races --dir " + (kit::root() / "solutions").string());
  CHECK_MESSAGE(pass.exit_code == 0, pass.output);
  CHECK(pass.output.find("PASS memory safety: data races (Oclgrind)") != std::string::npos);
  CHECK(pass.output.find("PASS memory safety: uninitialized values (Oclgrind)") != std::string::npos);

  // Without the allow entry, the plain read is reported at its line.
  std::string spec = test::read(kit::root() / "grader/specs/08-atomics-and-scan.json");
  const auto allow = spec.find(",\n    \"allow\"");
  REQUIRE(allow != std::string::npos);
  spec.erase(allow, spec.find(']', allow) + 1 - allow);
  test::write(strict_specs / "08-atomics-and-scan.json", spec);
  REQUIRE(grader(strict_specs.path.string(), strict_refs.path.string(), "reference --labs 08").exit_code == 0);
  const auto strict = grader(strict_specs.path.string(), strict_refs.path.string(),
                             "check 08 --races --dir " + (kit::root() / "solutions").string());
  CHECK(strict.output.find("FAIL memory safety: data races (Oclgrind)") != std::string::npos);
  CHECK(strict.output.find("`seen.f = *total;`") != std::string::npos);

  // With it, a plain write to the total (a lost-update bug) still counts as a race.
  std::string source = test::read(solution());
  const std::string loop = "    } while (atomic_cmpxchg((volatile global uint *)total, seen.u, sum.u) != seen.u);";
  REQUIRE(source.find(loop) != std::string::npos);
  source.replace(source.find(loop), loop.size(), "        *total = sum.f;\n    } while (0);");
  test::write(plain / "08-atomics-and-scan" / "AtomicsScan.cl", source);
  const auto racy = grader(specs, refs.path.string(), "check 08 --races --dir " + plain.path.string());
  CHECK(racy.exit_code != 0);
  CHECK(racy.output.find("FAIL memory safety: data races (Oclgrind)") != std::string::npos);
  CHECK(racy.output.find("`*total = sum.f;`") != std::string::npos);
}

TEST_CASE("lab 08 grading: a wrong scan names its first wrong index, with the expected value recomputed") {
  const auto& driver = grader::lab_driver(lab08::kLab);
  const grader::json params = {{"part", "scan-inclusive"}, {"elements", 1000}, {"local", 64}, {"seed", 86}};
  const grader::json reference = driver.reference(params);
  CHECK(reference.at("levels") == 2);
  CHECK(reference.at("digest").get<std::string>().size() == 64);
  const grader::json good = driver.run_case(test::runtime(), solution(), "AtomicsScan.cl", params);
  CHECK(driver.compare(params, driver.tolerance(), reference, good).pass);
  test::TempDir dir;
  const auto no_offsets = mistake(dir, "    if (gid < n)\n        out[gid] += offsets[get_group_id(0)];", "    (void)offsets;");
  const grader::json bad = driver.run_case(test::runtime(), no_offsets, "x.cl", params);
  const kit::Verdict cmp = driver.compare(params, driver.tolerance(), reference, bad);
  CHECK_FALSE(cmp.pass);
  const auto in = lab08::make_ints(make_case(lab08::Part::ScanInclusive, 1000, 64, 86));
  const long long want64 = std::accumulate(in.begin(), in.begin() + 65, 0LL);  // the inclusive scan at 64, by hand
  CHECK(cmp.message.find("element 64 of 1000") != std::string::npos);
  CHECK(cmp.message.find("expected " + std::to_string(want64) + ", got " + std::to_string(in[64])) != std::string::npos);
  CHECK(cmp.hint.find("add_block_offsets") != std::string::npos);
}

namespace {
// The solution with its float add's retry loop taken out: one read, one add, one atomic_cmpxchg
// whose failure is ignored. With one PoCL thread no two work-groups overlap, so it never fails.
std::string without_retry() {
  return test::replace_once(test::read(solution()), R"(    do {
        seen.f = *total;
        sum.f = seen.f + value;
    } while (atomic_cmpxchg((volatile global uint *)total, seen.u, sum.u) != seen.u);)",
                            R"(    seen.f = *total;
    sum.f = seen.f + value;
    atomic_cmpxchg((volatile global uint *)total, seen.u, sum.u);)");
}
}  // namespace

TEST_CASE("lab 08: positive data makes every partial positive, and whole numbers are compared exactly") {
  lab08::Case c = make_case(lab08::Part::AtomicFloat, 65536, 8, 87);
  c.positive = true;
  const auto ints = lab08::make_ints(c);
  CHECK(*std::min_element(ints.begin(), ints.end()) == 1);
  CHECK(*std::max_element(ints.begin(), ints.end()) == 8);
  const lab08::FloatExpected e = lab08::expected_float_sum(c, lab08::make_whole_floats(c));
  CHECK(e.whole);
  CHECK(lab08::atomic_float_bound(c, e) == 0);  // any lost partial (at least 1) shows
  const auto diff = lab08::atomic_float_difference(c, e.exact - 1, e);
  REQUIRE(diff);
  CHECK(diff->find("(exact: whole numbers below 2^24 add exactly in float, in any order)") != std::string::npos);
  CHECK_FALSE(lab08::expected_float_sum(c, lab08::make_reals(c)).whole);
  c.part = lab08::Part::ScanInclusive;
  CHECK_THROWS_WITH_AS(lab08::validate(c), doctest::Contains("positive data: only the atomic parts"), kit::Error);
}

TEST_CASE("lab 08 grading: a compare-and-swap float add without its retry loop fails the contention cases") {
  // The contention cases launch the atomic sum 200 times on 2 PoCL threads, each pinned to its own
  // core, over positive whole numbers: a lost update makes that launch's total smaller, exactly.
  // The solution passes them (test above: check 08 --races); here the variant fails the visible
  // one and nothing else.
  test::TempDir labs;
  test::write(labs / "08-atomics-and-scan" / "AtomicsScan.cl", without_retry());
  const auto run = test::run_program("grader", "check 08 --dir " + labs.path.string());
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("FAIL atomic float sum under contention: 200 launches of N = 65536 positive, L = 8, 2 PoCL threads") !=
        std::string::npos);
  CHECK(run.output.find("launches on 2 PoCL threads gave a wrong total; the first: the total of 65536 whole numbers") != std::string::npos);
  CHECK(run.output.find("until atomic_cmpxchg returns the bits that were read") != std::string::npos);
  std::size_t fails = 0;
  for (std::size_t at = run.output.find("  FAIL "); at != std::string::npos; at = run.output.find("  FAIL ", at + 1)) ++fails;
  CHECK_MESSAGE(fails == 1, run.output);
  CHECK(run.output.find("PASS atomic float sum: N = 1000, L = 64") != std::string::npos);  // one thread: no overlap, no loss

  // The hidden contention cases too, and a plain += in the int part: graded with a spec holding
  // the contention cases only, its references made here.
  grader::json spec = grader::json::parse(test::read(kit::root() / "grader/specs/08-atomics-and-scan.json"));
  grader::json only = grader::json::array();
  for (const grader::json& c : spec["cases"])
    if (c.contains("pocl_threads") && c["part"] != "single-pass") only.push_back(c);
  REQUIRE(only.size() == 3);
  spec["cases"] = only;
  spec.erase("safety");
  spec.erase("algorithm");  // measured in the safety run; its unit, the single-pass cases, is left out
  test::TempDir specs, refs, class_dir, out;
  test::write(specs / "08-atomics-and-scan.json", spec.dump(2));
  const auto grader = [&](const std::string& args) {
    return test::run_program("grader", "--specs " + specs.path.string() + " --references " + refs.path.string() + " " + args);
  };
  REQUIRE(grader("reference --labs 08").exit_code == 0);
  test::write(class_dir / "no-retry" / "AtomicsScan.cl", without_retry());
  test::write(class_dir / "plain-add" / "AtomicsScan.cl",
              test::replace_once(test::read(solution()), "        atomic_add(total, scratch[0]);", "        *total += scratch[0];"));
  test::write(class_dir / "solution" / "AtomicsScan.cl", test::read(solution()));
  REQUIRE(grader("grade --submissions " + class_dir.path.string() + " --out " + out.path.string()).exit_code == 0);
  const auto gradebook = test::read(out / "gradebook.csv");
  CHECK_MESSAGE(gradebook.find("no-retry,1,1") != std::string::npos, gradebook);    // the int case only
  CHECK_MESSAGE(gradebook.find("plain-add,4,4") != std::string::npos, gradebook);   // the float cases only
  CHECK_MESSAGE(gradebook.find("solution,5,5") != std::string::npos, gradebook);
}

TEST_CASE("lab 08: the program's --check is as strict as the grader's contention cases, and its hints name atomics, not barriers") {
  // The grader's contention case as a student runs it: 200 launches of 65536 positive whole numbers
  // in groups of 8 on 2 PoCL threads. The float part is checked exactly on whole numbers (a lost
  // update always shows); the int part checks every launch's total.
  const auto check = [](const std::string& kernel) {
    test::TempDir dir;
    test::write(dir / "AtomicsScan.cl", kernel);
    return test::run_command("POCL_MAX_PTHREAD_COUNT=2 POCL_AFFINITY=1 '" + std::string(KIT_BIN_DIR) +
                             "/08-atomics-and-scan' --check --part atomics --elements 65536 --local 8 --repeats 200 -k '" +
                             (dir / "AtomicsScan.cl").string() + "'");
  };
  const auto hints = [](const std::string& output) {
    std::string all;
    for (std::size_t at = output.find("hint: "); at != std::string::npos; at = output.find("hint: ", at + 1))
      all += output.substr(at, output.find('\n', at) - at) + "\n";
    return all;
  };
  const auto no_retry = check(without_retry());
  CHECK_MESSAGE(no_retry.exit_code == 1, no_retry.output);
  CHECK(no_retry.output.find("sum_float_atomic: ") != std::string::npos);
  CHECK(hints(no_retry.output).find("again from a fresh read, in a loop, until atomic_cmpxchg returns the bits that were read") != std::string::npos);
  CHECK(hints(no_retry.output).find("barrier") == std::string::npos);
  const auto plain = check(test::replace_once(test::read(solution()), "        atomic_add(total, scratch[0]);", "        *total += scratch[0];"));
  CHECK_MESSAGE(plain.exit_code == 1, plain.output);
  CHECK(plain.output.find("sum_int_atomic: ") != std::string::npos);
  CHECK(hints(plain.output).find("add each partial with atomic_add") != std::string::npos);
  CHECK(hints(plain.output).find("barrier") == std::string::npos);
  const auto good = check(test::read(solution()));
  CHECK_MESSAGE(good.exit_code == 0, good.output);
}

TEST_CASE("lab 08: without the tree from lab 04 (tree_sum, tree_sum_int) the hints of part 1 name the tree") {
  // Both tree regions left as the starter has them: each group's first element alone reaches a total.
  std::string kernel = test::read(solution());
  for (const std::string region : {"// student: lab04-tree\n", "// student: lab04-tree-int\n"}) {
    const std::size_t body = kernel.find(region) + region.size(), end = kernel.find("    // student-end", body);
    REQUIRE(kernel.substr(body, end - body).find("scratch[tid] += scratch[tid + s];") != std::string::npos);
    kernel.erase(body, end - body);
  }
  test::TempDir dir;
  test::write(dir / "AtomicsScan.cl", kernel);
  const auto run = test::run_command("POCL_MAX_PTHREAD_COUNT=1 '" + std::string(KIT_BIN_DIR) +
                                     "/08-atomics-and-scan' --check --part atomics --elements 1000 --local 64 --repeats 2 -k '" +
                                     (dir / "AtomicsScan.cl").string() + "'");
  CHECK_MESSAGE(run.exit_code == 1, run.output);
  const std::string tree = "only each work-group's first element reached the total: the tree adds nothing. tree_sum and tree_sum_int "
                           "hold your loop from lab 04";
  std::size_t named = 0;
  for (std::size_t at = run.output.find(tree); at != std::string::npos; at = run.output.find(tree, at + 1)) ++named;
  CHECK_MESSAGE(named == 2, run.output);  // sum_int_atomic and sum_float_atomic
  CHECK_MESSAGE(run.output.find("sum_tree is given, around tree_sum, your tree from lab 04: check tree_sum") != std::string::npos, run.output);
}

TEST_CASE("lab 08: a failed contention check names what ran the launches in the device's own words") {
  // PoCL's compute units are its threads; a GPU has compute units and no PoCL threads.
  CHECK(kit::parallel_units_words(true, 2) == "2 PoCL threads");
  CHECK(kit::parallel_units_words(true, 1) == "1 PoCL thread");
  CHECK(kit::parallel_units_words(false, 132) == "132 compute units");
  CHECK(test::runtime().parallel_units(2) == "2 PoCL threads");  // the tests' device is PoCL's CPU
  lab08::Case c = make_case(lab08::Part::AtomicFloat, 65536, 8, 87);
  c.positive = true;
  const lab08::FloatExpected e = lab08::expected_float_sum(c, lab08::make_whole_floats(c));
  const kit::Verdict gpu = lab08::check_atomic(c, {{e.exact - 1, 5}}, e, kit::parallel_units_words(false, 132));
  CHECK_FALSE(gpu.pass);
  CHECK(gpu.message.find("5 of 5 launches on 132 compute units gave a wrong total") == 0);
  CHECK(gpu.message.find("PoCL") == std::string::npos);
}

// Oclgrind runs work-groups one after another and reports the single pass's and the compare-and-swap
// loop's allowed reads as races: lab 08's witness leaves its race check out, and a right result under
// it does not clear a kernel (no DEVICE verdict), it says what Oclgrind cannot tell.
TEST_CASE("lab 08: a failed --check's witness says what Oclgrind cannot tell in this lab, and clears no kernel") {
  test::TempDir dir;
  const std::string solution = test::read(kit::lab_file(lab08::kLab, lab08::kKernelFile, true));
  // Wrong on PoCL (OpenCL 3.0) only: Oclgrind (OpenCL 1.2) builds the right line.
  test::write(dir / "AtomicsScan.cl", test::replace_once(solution, "        result[0] = scratch[0];\n",
                                                         "#if __OPENCL_VERSION__ >= 200\n        result[0] = scratch[0] + 1.0f;\n#else\n"
                                                         "        result[0] = scratch[0];\n#endif\n"));
  const auto run = test::run_program("08-atomics-and-scan", "--check --part single-pass -n 1000 -l 64 --repeats 1 -k '" +
                                                                (dir / "AtomicsScan.cl").string() + "'");
  CAPTURE(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("Witness: running the same check under Oclgrind") != std::string::npos);
  CHECK(run.output.find("DEVICE") == std::string::npos);
  CHECK(run.output.find("data race at") == std::string::npos);  // the allowed reads are not reported as the kernel's fault
  CHECK(run.output.find("computed the right result and Oclgrind found nothing, which does not clear the kernel here") != std::string::npos);
  CHECK(run.output.find("Oclgrind cannot tell in this lab: it runs the work-groups one after another") != std::string::npos);
}
