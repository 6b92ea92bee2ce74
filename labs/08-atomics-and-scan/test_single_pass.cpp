// Lab 08, part 4 on PoCL: the single-launch cascade's solution is exact launch after launch with
// no reset from the host; the starter and the typical mistakes (no reset of the ticket, a last-group
// test off by one) fail with the hint that names them; the bound is 0 where every
// partial sum is exact.
#include <doctest/doctest.h>

#include <cmath>
#include <regex>

#include "atomics_scan.hpp"
#include "kit/paths.hpp"
#include "single_pass.hpp"
#include "support.hpp"

namespace {

const auto single_pass_solution = [] { return kit::lab_file(lab08::kLab, lab08::kKernelFile, true); };
const auto single_pass_starter = [] { return kit::lab_file(lab08::kLab, lab08::kKernelFile, false); };

// Runs `launches` launches of N = 4099 whole numbers over 100 groups of 8 (13 partials per
// work-item of the last group); returns the verdict.
kit::Verdict run_single_pass(const std::filesystem::path& file, int launches) {
  lab08::Case c;
  c.part = lab08::Part::SinglePass;
  c.elements = 4099;
  c.local = 8;
  c.seed = 92;
  const std::vector<float> a = lab08::dot_input(c, 0), b = lab08::dot_input(c, 1);
  lab08::SinglePass pass(test::runtime(), file, c.elements, {8, 100}, a.data(), b.data());
  const lab08::SinglePassOutputs out = pass.run(0, launches, true);
  std::vector<std::pair<double, int>> results;
  for (double r : out.results) results.emplace_back(r, 1);
  lab08::DotExpected e = lab08::expected_dot(a, b);
  e.empty_tree = lab08::empty_tree_dots(a, b, out.local, out.groups);  // as the grader's check
  return lab08::check_single_pass(c.elements, out.local, out.groups, results, e);
}

// The solution with `from` replaced by `to` (which must be there), written to a temporary file.
std::filesystem::path mutant(const test::TempDir& dir, const std::string& from, const std::string& to) {
  std::string source = test::read(single_pass_solution());
  const std::size_t at = source.find(from);
  REQUIRE(at != std::string::npos);
  source.replace(at, from.size(), to);
  const std::filesystem::path file = dir.path / "AtomicsScan.cl";
  test::write(file, source);
  return file;
}

}  // namespace

TEST_CASE("lab 08 single pass: the solution is exact in every launch, with the ticket set back by the kernel") {
  const kit::Verdict v = run_single_pass(single_pass_solution(), 4);
  CHECK_MESSAGE(v.pass, v.message);
}

TEST_CASE("lab 08 single pass: the starter and the typical mistakes fail, each with its hint") {
  const kit::Verdict starter_verdict = run_single_pass(single_pass_starter(), 1);
  CHECK_FALSE(starter_verdict.pass);
  CHECK(starter_verdict.hint.find("no work-group wrote the result") != std::string::npos);

  test::TempDir dir;
  const kit::Verdict no_reset = run_single_pass(mutant(dir, "atomic_xchg(ticket, 0);", ";"), 3);
  CHECK_FALSE(no_reset.pass);
  CHECK(no_reset.message.find("2 of 3 launches wrong") != std::string::npos);
  CHECK(no_reset.hint.find("set the ticket back") != std::string::npos);

  const kit::Verdict off_by_one = run_single_pass(mutant(dir, "== G - 1", "== G"), 1);
  CHECK_FALSE(off_by_one.pass);
  CHECK(off_by_one.hint.find("G - 1") != std::string::npos);

  // tree_sum as the starter has it, empty: the student's lab 04 tree not pasted in.
  const std::string tree = "    for (uint s = L / 2; s > 0; s >>= 1)\n    {\n        if (tid < s)\n"
                           "            scratch[tid] += scratch[tid + s];\n        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n";
  const kit::Verdict no_tree = run_single_pass(mutant(dir, "// student: lab04-tree\n" + tree, "// student: lab04-tree\n"), 1);
  CHECK_FALSE(no_tree.pass);
  CHECK_MESSAGE(no_tree.hint.find("the trees add nothing. tree_sum holds your loop from lab 04") != std::string::npos, no_tree.hint);
}

TEST_CASE("lab 08 single pass: the bound is 0 for whole numbers below 2^24, gamma_D * sum|a b| beyond") {
  CHECK(lab08::single_pass_bound(4099, 8, 100, {432, 73236}) == 0);
  const kit::Verdict off = lab08::check_single_pass(4099, 8, 100, {{433, 1}}, {432, 73236});
  CHECK_FALSE(off.pass);
  CHECK(off.message.find("expected 432, got 433") != std::string::npos);
  const double big = lab08::single_pass_bound(std::size_t(1) << 24, 256, 528, {0, 0x1p25});
  CHECK(big > 0);
  CHECK(big < 1e-4 * 0x1p25);  // D = 1 + 32 + 3 + 8 + 3 + 8 = 55 roundings: gamma_55 ~ 3.3e-6
}

TEST_CASE("lab 08 single pass: a GPU's default G is one group per 64 L elements, 2 to 8 per compute unit") {
  // 132 compute units (an H100), L = 256: 64 L x 132 = 2Mi elements per group of each compute unit.
  CHECK(lab08::single_pass_gpu_groups(std::size_t(1) << 20, 256, 132) == 2 * 132);   // 0.5 per unit: the floor of 2
  CHECK(lab08::single_pass_gpu_groups(std::size_t(4) << 20, 256, 132) == 2 * 132);
  CHECK(lab08::single_pass_gpu_groups(std::size_t(8) << 20, 256, 132) == 4 * 132);
  CHECK(lab08::single_pass_gpu_groups(std::size_t(14) << 20, 256, 132) == 7 * 132);  // rounded to the nearest
  CHECK(lab08::single_pass_gpu_groups(std::size_t(16) << 20, 256, 132) == 8 * 132);
  CHECK(lab08::single_pass_gpu_groups(std::size_t(256) << 20, 256, 132) == 8 * 132);  // the ceiling of 8
}
