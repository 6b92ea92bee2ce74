// Labs 01 and 02 on PoCL: exact outputs, the guard for N not a multiple of L, hints.
#include <doctest/doctest.h>

#include <cmath>

#include "elementwise.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

namespace {
elementwise::Outputs run(const elementwise::Lab& lab, const std::filesystem::path& kernel, const elementwise::Case& c) {
  return elementwise::run(test::runtime(), lab, kernel, c, elementwise::make_inputs(lab, c), 0, 1);
}
bool correct(const elementwise::Lab& lab, const std::filesystem::path& kernel, const elementwise::Case& c) {
  return elementwise::check(lab, c, elementwise::make_inputs(lab, c), run(lab, kernel, c)).pass;  // as the program and the grader
}
}  // namespace

TEST_CASE("the solutions of labs 01 and 02 are exact for awkward sizes") {
  for (const elementwise::Lab* lab : {&elementwise::array_mult(), &elementwise::array_mult_add()}) {
    const auto solution = kit::lab_file(lab->id, lab->kernel_file, true);
    for (const auto& [n, l] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {5, 256}, {1000, 64}, {4096, 4096}, {10007, 1000}, {65537, 32}})
      for (const kit::DataKind kind : {kit::DataKind::Integers, kit::DataKind::Reals}) {
        if (lab->inputs == 3 && kind == kit::DataKind::Reals) continue;  // a*b+c in reals may be fused: not exact
        CAPTURE(lab->id);
        CAPTURE(n);
        CAPTURE(l);
        CHECK(correct(*lab, solution, {n, l, kind, 7}));
      }
  }
}

TEST_CASE("the starters of labs 01 and 02 compile and fail") {
  for (const elementwise::Lab* lab : {&elementwise::array_mult(), &elementwise::array_mult_add()}) {
    CAPTURE(lab->id);
    const auto out = run(*lab, kit::lab_file(lab->id, lab->kernel_file, false), {1000, 64, kit::DataKind::Integers, 3});
    const auto wrong = elementwise::first_wrong(elementwise::expected(*lab, elementwise::make_inputs(*lab, {1000, 64, kit::DataKind::Integers, 3})), out);
    REQUIRE(wrong);
    CHECK(std::isnan(wrong->got));  // nothing written
  }
}

TEST_CASE("a kernel without the guard is caught writing past the end, with the hint") {
  const auto& lab = elementwise::array_mult();
  const elementwise::Case c{1000, 64, kit::DataKind::Integers, 3};
  // Made from the solution: without the guard, the rounded-up last work-group writes past dC[n-1].
  test::TempDir dir;
  test::write(dir / "ArrayMult.cl", test::replace_once(test::read(kit::lab_file("01-array-mult", "ArrayMult.cl", true)),
                                                       "    if (gid < n)                  // the last work-group may reach past the end of the arrays\n",
                                                       ""));
  const auto out = run(lab, dir / "ArrayMult.cl", c);
  REQUIRE(out.written_past_end);
  CHECK(*out.written_past_end == 1000);
  CHECK(elementwise::describe(lab, c, out, std::nullopt).find("wrote dC[1000], past the last element 999") != std::string::npos);
  CHECK(elementwise::diagnose(lab, elementwise::make_inputs(lab, c), out, std::nullopt).find("if (gid < n)") != std::string::npos);
  CHECK_FALSE(run(lab, dir / "ArrayMult.cl", {1024, 64, kit::DataKind::Integers, 3}).written_past_end);  // N a multiple
}

TEST_CASE("lab 02 names a forgotten addend") {
  const auto& lab = elementwise::array_mult_add();
  const elementwise::Case c{1000, 64, kit::DataKind::Integers, 5};
  const auto in = elementwise::make_inputs(lab, c);
  test::TempDir dir;  // made from the solution: the addend forgotten
  test::write(dir / "ArrayMultAdd.cl", test::replace_once(test::read(kit::lab_file("02-array-mult-add", "ArrayMultAdd.cl", true)),
                                                          "dA[gid] * dB[gid] + dC[gid];", "dA[gid] * dB[gid];"));
  const auto out = run(lab, dir / "ArrayMultAdd.cl", c);
  const auto wrong = elementwise::first_wrong(elementwise::expected(lab, in), out);
  REQUIRE(wrong);
  CHECK(elementwise::diagnose(lab, in, out, wrong) == "that is A * B alone: add C");
}

TEST_CASE("the element-wise programs: table mode, check, bad options") {
  const auto table = test::run_program("02-array-mult-add", "--solution --check --elements 1000,4Ki --local 8,64 --repeats 1");
  CHECK(table.exit_code == 0);
  CHECK(table.output.find("GigaMultiply-Adds Per Second") != std::string::npos);
  CHECK(table.output.find("N \\ L") != std::string::npos);
  const auto starter = test::run_program("01-array-mult", "--check --elements 100 --local 32 --repeats 1");
  CHECK(starter.exit_code == 1);
  CHECK(starter.output.find("CHECK FAILED: dC[0] of 100") != std::string::npos);
  const auto bad = test::run_program("01-array-mult", "--local 0");
  CHECK(bad.exit_code == 1);
  CHECK(bad.output.find("local size 0") != std::string::npos);
}

TEST_CASE("lab 01 names a result truncated to a whole number, not a wrong index") {
  const auto& lab = elementwise::array_mult();
  test::TempDir dir;
  test::write(dir / "truncated.cl", test::replace_once(test::read(kit::lab_file(lab.id, lab.kernel_file, true)),
                                                       "        dC[gid] = dA[gid] * dB[gid];", "        dC[gid] = (int)(dA[gid] * dB[gid]);"));
  const elementwise::Case c{1000, 64, kit::DataKind::Reals, 3};
  const auto in = elementwise::make_inputs(lab, c);
  const auto out = run(lab, dir / "truncated.cl", c);
  const auto wrong = elementwise::first_wrong(elementwise::expected(lab, in), out);
  REQUIRE(wrong);
  const std::string hint = elementwise::diagnose(lab, in, out, wrong);
  CHECK(hint.find("lost its fraction") != std::string::npos);
  CHECK(hint.find("get_global_id") == std::string::npos);
}
