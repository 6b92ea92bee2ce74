// Host references and the rounding bounds behind every tolerance.
#include <doctest/doctest.h>

#include <cmath>

#include "kit/data.hpp"
#include "kit/reference.hpp"

TEST_CASE("group_dot sums products per group, with magnitudes") {
  const std::vector<float> a = {1, 2, 3, -4}, b = {5, 6, 7, 8};
  const auto parts = kit::group_dot(a, b, 2);
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].value == 17);
  CHECK(parts[1].value == 21 - 32);
  CHECK(parts[1].abs == 21 + 32);
  CHECK(kit::total(parts).value == 6);
  CHECK_THROWS(kit::group_dot(a, b, 3));
}

TEST_CASE("tree depth and gamma") {
  CHECK(kit::tree_depth(1) == 0);
  CHECK(kit::tree_depth(2) == 1);
  CHECK(kit::tree_depth(32) == 5);
  CHECK(kit::tree_depth(33) == 6);
  CHECK(kit::gamma_float(1) == doctest::Approx(0x1p-24).epsilon(1e-6));
  CHECK(kit::gamma_float(6) > 6 * 0x1p-24);
}

namespace {
// A float pairwise tree sum of products, the way the lab kernel adds them.
float tree_dot(const float* a, const float* b, std::size_t n) {
  std::vector<float> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = a[i] * b[i];
  for (std::size_t offset = 1; offset < n; offset *= 2)
    for (std::size_t t = 0; t + offset < n; t += 2 * offset) p[t] += p[t + offset];
  return p[0];
}
}  // namespace

TEST_CASE("float tree dot products stay inside tree_dot_bound, and the bound is not loose") {
  // 2000 groups of 256 real values: every error within the bound; the largest error uses a
  // visible fraction of it. Data and tree order are fixed, so the ratio is the same on every run
  // (0.065); a bound more than 3x wider than this one would fall below 0.02 and fail.
  const std::size_t L = 256, groups = 2000;
  const auto a = kit::make_data(kit::DataKind::Reals, 11, 1, L * groups);
  const auto b = kit::make_data(kit::DataKind::Reals, 11, 2, L * groups);
  const auto ref = kit::group_dot(a, b, L);
  double worst_ratio = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    const double err = std::fabs(double(tree_dot(&a[g * L], &b[g * L], L)) - ref[g].value);
    const double bound = kit::tree_dot_bound(L, ref[g].abs);
    REQUIRE(err <= bound);
    worst_ratio = std::max(worst_ratio, err / bound);
  }
  MESSAGE("largest error / bound = " << worst_ratio);
  CHECK(worst_ratio > 0.02);
}
