// Lab @NN@ on PoCL: the solution passes every shape of case, the starter fails, and the check names
// an unguarded write past the end.
#include <doctest/doctest.h>

#include "@SNAKE@.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

namespace {
kit::Verdict verdict_of(const std::filesystem::path& kernel, const lab@NN@::Case& c) {
  const std::vector<float> a = lab@NN@::make_input(c);
  return lab@NN@::check(c, a, lab@NN@::run(test::runtime(), kernel, c, a, 0, 1));
}
}  // namespace

TEST_CASE("lab @NN@: the solution passes, N a multiple of L or not, and the starter does not") {
  const auto solution = kit::lab_file(lab@NN@::kLab, lab@NN@::kKernelFile, true);
  for (const lab@NN@::Case& c : {lab@NN@::Case{1, 1, kit::DataKind::Integers, 3}, lab@NN@::Case{1000, 64, kit::DataKind::Reals, 4},
                                 lab@NN@::Case{4096, 256, kit::DataKind::Integers, 5}}) {
    CAPTURE(c.elements);
    CHECK(verdict_of(solution, c).pass);
  }
  const kit::Verdict starter = verdict_of(kit::lab_file(lab@NN@::kLab, lab@NN@::kKernelFile, false), {100, 32, kit::DataKind::Integers, 6});
  CHECK_FALSE(starter.pass);
  CHECK(starter.message.find("nothing (never written)") != std::string::npos);
}

TEST_CASE("lab @NN@: a kernel without the guard is caught writing past the end") {
  test::TempDir dir;
  test::write(dir / "unguarded.cl", "kernel void @KERNEL@(global const float *dA, global float *dB, const int n)\n"
                                    "{ int gid = get_global_id(0); dB[gid] = dA[gid] * dA[gid]; }\n");
  const kit::Verdict v = verdict_of(dir / "unguarded.cl", {100, 64, kit::DataKind::Integers, 7});
  CHECK_FALSE(v.pass);
  CHECK(v.message.find("past the last element 99") != std::string::npos);
  CHECK(v.hint.find("if (gid < n)") != std::string::npos);
}
