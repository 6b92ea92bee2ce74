#pragma once
// Host references for reductions, computed in double, and the rounding-error bounds that turn
// them into tolerances for float results computed on a device.
#include <cstddef>
#include <vector>

namespace kit {

struct Sum {
  double value = 0;  // the sum
  double abs = 0;    // the sum of the terms' magnitudes, which scales the rounding bound
};

// Per group of `group` consecutive elements: the sum of a[i]*b[i]. The product of two floats is
// exact in double (24 + 24 significant bits < 53); the double sum of at most 2^20 such terms is
// within 2^-33 of the exact sum relative to `abs`, far below any float tolerance used here.
std::vector<Sum> group_dot(const std::vector<float>& a, const std::vector<float>& b,
                           std::size_t group);
Sum total(const std::vector<Sum>& parts);

// Unit roundoff of float (round to nearest) and Higham's gamma_k = k u / (1 - k u).
inline constexpr double kFloatUnitRoundoff = 0x1p-24;
double gamma_float(std::size_t k);

// ceil(log2(n)) for n >= 1: the depth of a pairwise (tree) reduction of n terms.
std::size_t tree_depth(std::size_t n);

// Bound on |float result - exact| for a sum of `terms` float products added pairwise in a tree:
// one rounding per product plus one per tree level, gamma_{depth+1} * sum |a_i b_i| (Higham,
// Accuracy and Stability of Numerical Algorithms, 2nd ed., eq. 4.6 with rounded inputs).
double tree_dot_bound(std::size_t terms, double abs_sum);

}  // namespace kit

namespace kit {
// gamma_k for double (u = 2^-53): bounds the host's own double sums of k terms.
double gamma_double(std::size_t k);
}  // namespace kit
