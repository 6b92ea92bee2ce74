// Lab 05 on PoCL: every method and operator reduces any N to the right value, the input buffer
// is left alone, and the starter fails.
#include <doctest/doctest.h>

#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "kit/reference.hpp"
#include "multipass.hpp"
#include "support.hpp"

namespace {
std::optional<std::string> check(const std::filesystem::path& file, lab05::Case c, int* passes = nullptr) {
  const auto in = lab05::make_input(c);
  const auto out = lab05::run(test::runtime(), file, c, in, 0, 1);
  if (passes) *passes = out.passes;
  CHECK(out.passes == lab05::expected_passes(c));
  const kit::Verdict verdict = lab05::check(c, in, out, lab05::expected(c, in));  // as the program and the grader
  if (verdict.pass) return std::nullopt;
  return verdict.message;
}
}  // namespace

TEST_CASE("every method reduces awkward N with sum, min and max, leaving the input unchanged") {
  const auto solution = kit::lab_file(lab05::kLab, lab05::kKernelFile, true);
  REQUIRE(lab05::methods().size() == 4);
  for (const lab05::Method& m : lab05::methods())
    for (const lab05::Op op : {lab05::Op::Sum, lab05::Op::Min, lab05::Op::Max})
      for (const std::size_t n : {1, 2, 255, 257, 65537, 1000003}) {
        CAPTURE(m.name);
        CAPTURE(lab05::to_string(op));
        CAPTURE(n);
        const auto kind = op == lab05::Op::Sum && n < 100000 ? kit::DataKind::Integers : kit::DataKind::Reals;
        const auto diff = check(solution, {n, 256, kind, 5, op, m.name});
        CHECK_MESSAGE(!diff, diff.value_or(""));
      }
}

TEST_CASE("pass counts: log2 N, log8 N, log_L N") {
  const auto solution = kit::lab_file(lab05::kLab, lab05::kKernelFile, true);
  int passes = 0;
  check(solution, {1048583, 256, kit::DataKind::Reals, 1, lab05::Op::Max, "pairwise"}, &passes);
  CHECK(passes == 21);
  check(solution, {1048583, 256, kit::DataKind::Reals, 1, lab05::Op::Max, "window8"}, &passes);
  CHECK(passes == 7);
  check(solution, {1048583, 256, kit::DataKind::Reals, 1, lab05::Op::Max, "strided"}, &passes);
  CHECK(passes == 3);
  check(solution, {1048583, 256, kit::DataKind::Reals, 1, lab05::Op::Max, "pingpong"}, &passes);
  CHECK(passes == 3);
}

TEST_CASE("real sums use each method's rounding bound, min and max are exact") {
  // N = 1000003, L = 256. Each element meets one rounding per pass of the pairwise method
  // (ceil(log2 N) = 20 passes), 7 per pass of the window of 8 (ceil(log8 N) = 7 passes: 49), and
  // log2 L = 8 per tree pass of the strided and ping-pong methods (ceil(log256 N) = 3 passes: 24);
  // the host's double reference adds gamma_double(N) of its own.
  const lab05::Expected e{0, 1000};
  const std::vector<std::pair<std::string, std::size_t>> depths{{"pairwise", 20}, {"window8", 49}, {"strided", 24}, {"pingpong", 24}};
  for (const auto& [method, depth] : depths) {
    CAPTURE(method);
    const lab05::Case c{1000003, 256, kit::DataKind::Reals, 1, lab05::Op::Sum, method};
    CHECK(lab05::tolerance(c, e) == doctest::Approx(kit::gamma_float(depth) * 1000 + kit::gamma_double(1000003) * 1000).epsilon(1e-12));
    for (const lab05::Op op : {lab05::Op::Min, lab05::Op::Max}) {
      lab05::Case exact = c;
      exact.op = op;
      CHECK(lab05::tolerance(exact, e) == 0);  // min and max round nothing
    }
    lab05::Case whole = c;
    whole.kind = kit::DataKind::Integers;
    CHECK(lab05::tolerance(whole, e) == 0);  // whole numbers with sum |x| < 2^24: every partial sum exact
  }
}

TEST_CASE("the starter compiles and every method fails") {
  REQUIRE(lab05::methods().size() == 4);
  for (const lab05::Method& m : lab05::methods()) {
    CAPTURE(m.name);
    CHECK(check(kit::lab_file(lab05::kLab, lab05::kKernelFile, false), {1000, 64, kit::DataKind::Integers, 3, lab05::Op::Sum, m.name}));
  }
  CHECK_THROWS_WITH_AS(lab05::validate({10, 64, kit::DataKind::Reals, 1, lab05::Op::Sum, "quick"}),
                       doctest::Contains("method 'quick' is not one of: pairwise, window8, strided, pingpong"), kit::Error);
}

// The README's strided check must be able to show the mistake it is there for: a tree without its
// barrier. PoCL runs a few work-items of a group in step, so in a group of 2 or 4 such a tree still
// computes the right result; the README's local size must be large enough that it does not.
TEST_CASE("the README's strided check fails a tree without its barrier and passes the solution") {
  const std::string readme = test::read(kit::root() / "labs" / lab05::kLab / "README.md");
  const std::size_t at = readme.find("build/bin/05-multipass-reductions --check --op max --method strided");
  REQUIRE(at != std::string::npos);
  std::string args = readme.substr(at, readme.find('#', at) - at);
  args = args.substr(args.find(' ') + 1);
  CAPTURE(args);
  const std::string solution = test::read(kit::lab_file(lab05::kLab, lab05::kKernelFile, true));
  test::TempDir dir;
  test::write(dir / "no_barrier.cl",
              test::replace_once(solution, "        barrier(CLK_LOCAL_MEM_FENCE);                    // this level is done before the next\n",
                                 ""));
  // KIT_WITNESS_RUN: the program's own check only (no Oclgrind run after a failure).
  const auto missing = test::run_command("KIT_WITNESS_RUN=1 '" + std::string(KIT_BIN_DIR) + "/05-multipass-reductions' " + args +
                                         " --kernel '" + (dir / "no_barrier.cl").string() + "'");
  CHECK_MESSAGE(missing.exit_code == 1, missing.output);
  CHECK(missing.output.find("CHECK FAILED") != std::string::npos);
  const auto right = test::run_program("05-multipass-reductions", args + " --solution");
  CHECK_MESSAGE(right.exit_code == 0, right.output);
}
