#include "kit/reference.hpp"

#include <cmath>
#include <stdexcept>

namespace kit {

std::vector<Sum> group_dot(const std::vector<float>& a, const std::vector<float>& b,
                           std::size_t group) {
  if (a.size() != b.size() || group == 0 || a.size() % group != 0)
    throw std::invalid_argument("group_dot: sizes do not divide into groups");
  std::vector<Sum> parts(a.size() / group);
#pragma omp parallel for schedule(static)
  for (std::size_t g = 0; g < parts.size(); ++g) {
    Sum s;
    for (std::size_t i = g * group; i < (g + 1) * group; ++i) {
      const double p = double(a[i]) * double(b[i]);
      s.value += p;
      s.abs += std::fabs(p);
    }
    parts[g] = s;
  }
  return parts;
}

Sum total(const std::vector<Sum>& parts) {
  Sum t;
  for (const Sum& s : parts) {
    t.value += s.value;
    t.abs += s.abs;
  }
  return t;
}

double gamma_float(std::size_t k) {
  const double ku = double(k) * kFloatUnitRoundoff;
  if (ku >= 1) throw std::invalid_argument("gamma_float: k u >= 1, the bound does not hold");
  return ku / (1 - ku);
}

std::size_t tree_depth(std::size_t n) {
  std::size_t depth = 0;
  while ((std::size_t(1) << depth) < n) ++depth;
  return depth;
}

double tree_dot_bound(std::size_t terms, double abs_sum) {
  return gamma_float(tree_depth(terms) + 1) * abs_sum;
}

}  // namespace kit

namespace kit {
double gamma_double(std::size_t k) {
  const double ku = double(k) * 0x1p-53;
  return ku / (1 - ku);
}
}  // namespace kit
