// Lab 04 on PoCL: every rung's solution is exact for awkward N and L with repeated launches, the
// starter fails, and typical mistakes get their hint.
#include <doctest/doctest.h>

#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "support.hpp"
#include "tree_reductions.hpp"

namespace {
std::optional<std::string> check(const std::filesystem::path& file, const lab04::Case& c, int* launches = nullptr) {
  const auto in = lab04::make_input(c);
  const auto out = lab04::run(test::runtime(), file, c, in, 0, 1);
  const auto e = lab04::expected(c, in);
  if (launches) *launches = out.launches;
  CHECK(out.launches == e.launches);
  const kit::Verdict verdict = lab04::check(c, in, out, e);  // the verdict the program and the grader give
  if (verdict.pass) return std::nullopt;
  return verdict.message;
}
}  // namespace

TEST_CASE("every rung of the solution sums exactly, launch after launch") {
  const auto solution = kit::lab_file(lab04::kLab, lab04::kKernelFile, true);
  REQUIRE(lab04::rungs().size() == 5);
  for (const lab04::Rung& r : lab04::rungs())
    for (const auto& [n, l] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 2}, {7, 32}, {999, 2}, {1000, 64}, {4096, 4096}, {1048581, 256}}) {
      CAPTURE(r.kernel);
      CAPTURE(n);
      CAPTURE(l);
      const auto diff = check(solution, {n, l, 3, r.number});
      CHECK_MESSAGE(!diff, diff.value_or(""));
    }
}

TEST_CASE("launch counts follow from N and the elements per work-group") {
  const auto solution = kit::lab_file(lab04::kLab, lab04::kKernelFile, true);
  int launches = 0;
  check(solution, {1048581, 256, 3, 1}, &launches);
  CHECK(launches == 3);  // 1048581 -> 4097 -> 17 -> 1
  check(solution, {1048581, 256, 3, 4}, &launches);
  CHECK(launches == 3);  // 512 per group: 1048581 -> 2049 -> 5 -> 1
}

TEST_CASE("the starter compiles and every rung fails") {
  REQUIRE(lab04::rungs().size() == 5);
  for (const lab04::Rung& r : lab04::rungs()) {
    CAPTURE(r.kernel);
    CHECK(check(kit::lab_file(lab04::kLab, lab04::kKernelFile, false), {1000, 64, 3, r.number}));
  }
}

TEST_CASE("a rung-4 kernel without the first add gets its hint") {
  const lab04::Case c{1000, 64, 3, 4};
  const auto in = lab04::make_input(c);
  // Made from the solution: rung 4 loads one element per work-item and forgets the second.
  test::TempDir dir;
  test::write(dir / "TreeReductions.cl",
              test::replace_slide_region(test::read(kit::lab_file(lab04::kLab, lab04::kKernelFile, true)), "rung4-first-add",
                                         "    uint gid = get_group_id(0) * (2 * L) + tid;\n"
                                         "    scratch[tid] = (gid < n) ? in[gid] : 0;\n"));
  const auto out = lab04::run(test::runtime(), dir / "TreeReductions.cl", c, in, 0, 1);
  const auto e = lab04::expected(c, in);
  REQUIRE(lab04::first_difference(c, out, e));
  CHECK(lab04::diagnose(c, in, out, e).find("add in[i] and in[i + L] while loading") != std::string::npos);
}

TEST_CASE("L = 1 and unknown rungs are refused with the reason") {
  CHECK_THROWS_WITH_AS(lab04::validate({100, 1, 1, 1}), doctest::Contains("the reduction never ends"), kit::Error);
  CHECK_THROWS_WITH_AS(lab04::validate({100, 48, 1, 1}), doctest::Contains("local size 48"), kit::Error);
  CHECK_THROWS_WITH_AS(lab04::validate({100, 64, 1, 6}), doctest::Contains("rung 6 does not exist"), kit::Error);
  const auto table = test::run_program("04-tree-reductions", "--solution --check --elements 100000 --local 128 --repeats 1");
  CHECK(table.exit_code == 0);
  CHECK(table.output.find("reduce5_unrolled") != std::string::npos);
  CHECK(table.output.find("FAIL") == std::string::npos);
}

TEST_CASE("CUDA's warp-synchronous tail is wrong on PoCL, as the lab README says") {
  // PoCL runs a work-group's work-items one after another between barriers: without the tail's
  // barriers, work-item 0 adds its neighbours' values before they have added theirs.
  // The solution's rung 5 with its last six levels made CUDA-style: no barriers, a volatile pointer.
  const std::string solution = test::read(kit::lab_file(lab04::kLab, lab04::kKernelFile, true));
  const std::string with_barriers = R"(    if (WG_SIZE >=   64) { if (tid <   32) scratch[tid] += scratch[tid +   32]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=   32) { if (tid <   16) scratch[tid] += scratch[tid +   16]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=   16) { if (tid <    8) scratch[tid] += scratch[tid +    8]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=    8) { if (tid <    4) scratch[tid] += scratch[tid +    4]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=    4) { if (tid <    2) scratch[tid] += scratch[tid +    2]; barrier(CLK_LOCAL_MEM_FENCE); }
    if (WG_SIZE >=    2) { if (tid <    1) scratch[tid] += scratch[tid +    1]; barrier(CLK_LOCAL_MEM_FENCE); }
)";
  const std::string warp_synchronous = R"(    if (tid < 32)
    {
        volatile local int *v = scratch;
        if (WG_SIZE >= 64) v[tid] += v[tid + 32];
        if (WG_SIZE >= 32) v[tid] += v[tid + 16];
        if (WG_SIZE >= 16) v[tid] += v[tid +  8];
        if (WG_SIZE >=  8) v[tid] += v[tid +  4];
        if (WG_SIZE >=  4) v[tid] += v[tid +  2];
        if (WG_SIZE >=  2) v[tid] += v[tid +  1];
    }
)";
  test::TempDir dir;
  test::write(dir / "warp_synchronous_tail.cl", test::replace_once(solution, with_barriers, warp_synchronous));
  CHECK(check(dir / "warp_synchronous_tail.cl", {100000, 256, 3, 5}));
  CHECK(check(dir / "warp_synchronous_tail.cl", {100000, 64, 3, 5}));
}
