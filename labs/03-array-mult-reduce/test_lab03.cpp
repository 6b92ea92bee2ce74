// Lab 03 end to end on PoCL: the solution passes, the starter and mutants fail, the program's
// options and messages behave.
#include <doctest/doctest.h>

#include "array_mult_reduce.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

namespace {
std::filesystem::path lab03_solution() { return kit::lab_file(lab03::kLab, lab03::kKernelFile, true); }
std::filesystem::path lab03_starter() { return kit::lab_file(lab03::kLab, lab03::kKernelFile, false); }

std::optional<lab03::Mismatch> check(const std::filesystem::path& kernel, const lab03::Case& c) {
  const lab03::Inputs in = lab03::make_inputs(c);
  const lab03::Outputs out = lab03::run(test::runtime(), kernel, c, in, 0, 1);
  const lab03::Expected e = lab03::expected(c, in);
  REQUIRE(out.partials.size() == c.groups());
  const auto wrong = lab03::first_wrong_group(c, out, e);
  const kit::Verdict verdict = lab03::check(c, in, out, e);  // the verdict the program and the grader give
  CHECK(verdict.pass == !wrong);                               // (a right kernel's host total is right too)
  if (wrong) CHECK(verdict.message.find("work-group " + std::to_string(wrong->group) + " of ") == 0);
  return wrong;
}
}  // namespace

TEST_CASE("the solution matches the reference exactly on integer data") {
  const std::size_t device_max = test::runtime().device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  for (std::size_t L : {std::size_t(1), std::size_t(8), std::size_t(32), std::size_t(256), device_max}) {
    for (std::size_t groups : {1, 3, 64}) {
      lab03::Case c{L * groups, L, kit::DataKind::Integers, 5};
      CAPTURE(L);
      CAPTURE(groups);
      const kit::Sum group{10, 100};                   // products of magnitude 100 in all:
      CHECK(lab03::group_tolerance(c, group) == 0);     // whole numbers compare exactly ...
      lab03::Case reals = c;
      reals.kind = kit::DataKind::Reals;
      CHECK(lab03::group_tolerance(reals, group) > 0);  // ... the same magnitudes as reals get a bound
      CHECK_FALSE(check(lab03_solution(), c));
    }
  }
}

TEST_CASE("the solution is within the rounding bound on real data") {
  for (std::size_t L : {1, 8, 32, 256, 1024}) {
    lab03::Case c{L * 97, L, kit::DataKind::Reals, 9};
    CAPTURE(L);
    CHECK_FALSE(check(lab03_solution(), c));
  }
}

TEST_CASE("the starter kernel compiles and fails") {
  const auto wrong = check(lab03_starter(), {4096, 32, kit::DataKind::Integers, 1});
  REQUIRE(wrong);
  CHECK(wrong->got == 0);  // the starter's TODO leaves every product at zero
}

TEST_CASE("dropping or double-counting one element is caught on real data") {
  // Made from the solution: each work-group's last product left out, or its first counted twice.
  const std::string solution = test::read(kit::lab_file(lab03::kLab, lab03::kKernelFile, true));
  const std::vector<std::pair<std::string, std::string>> mutants = {
      {"    prods[tnum] = dA[gid] * dB[gid];", "    prods[tnum] = (tnum == numItems - 1 && numItems > 1) ? 0.0f : dA[gid] * dB[gid];"},
      {"        dC[wgNum] = prods[0];", "        dC[wgNum] = prods[0] + dA[gid] * dB[gid];"}};
  for (const auto& [from, to] : mutants) {
    CAPTURE(to);
    test::TempDir dir;
    test::write(dir / "ArrayMultReduce.cl", test::replace_once(solution, from, to));
    CHECK(check(dir / "ArrayMultReduce.cl", {32 * 64, 32, kit::DataKind::Reals, 3}));
    CHECK(check(dir / "ArrayMultReduce.cl", {256 * 8, 256, kit::DataKind::Integers, 3}));
  }
}

TEST_CASE("invalid cases are refused with the value at fault") {
  CHECK_THROWS_WITH_AS(lab03::validate({96, 3, kit::DataKind::Reals, 1}), doctest::Contains("local size 3"), kit::Error);
  CHECK_THROWS_WITH_AS(lab03::validate({100, 32, kit::DataKind::Reals, 1}),
                       doctest::Contains("local size 32 does not divide the element count 100"), kit::Error);
}

TEST_CASE("the program: --check passes on the solution and fails on the starter") {
  const auto ok = test::run_program(lab03::kLab, "--solution --check --elements 64Ki --local 32 --repeats 2");
  CHECK(ok.exit_code == 0);
  CHECK(ok.output.find("GigaNumbers Multiplied and Reduced Per Second") != std::string::npos);
  CHECK(ok.output.find("Check passed") != std::string::npos);
  const auto bad = test::run_program(lab03::kLab, "--check --elements 64Ki --local 32 --repeats 1");
  CHECK(bad.exit_code == 1);
  CHECK(bad.output.find("CHECK FAILED: work-group 0 of 2048: expected") != std::string::npos);
}

TEST_CASE("the program: bad options get clear errors") {
  const auto odd = test::run_program(lab03::kLab, "--local 24");
  CHECK(odd.exit_code == 1);
  CHECK(odd.output.find("local size 24 is not a power of two") != std::string::npos);
  const auto count = test::run_program(lab03::kLab, "--elements 8X");
  CHECK(count.exit_code == 1);
  CHECK(count.output.find("'8X' is not a count") != std::string::npos);
  const auto too_big = test::run_program(lab03::kLab, "--solution --elements 64Ki --local 8192");
  CHECK(too_big.exit_code == 1);
  CHECK(too_big.output.find("above this device's maximum work-group size") != std::string::npos);
  const auto broken = test::run_program(lab03::kLab, "--kernel " + test::data("broken_syntax.cl").string());
  CHECK(broken.exit_code == 1);
  CHECK(broken.output.find("broken_syntax.cl:5:38:") != std::string::npos);
  const auto list = test::run_program(lab03::kLab, "--list");
  CHECK(list.exit_code == 0);
  CHECK(list.output.find("Platform 0: Portable Computing Language") != std::string::npos);
}
