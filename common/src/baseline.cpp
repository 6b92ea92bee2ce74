#include "kit/baseline.hpp"

namespace kit {

float openmp_dot(const float* a, const float* b, std::size_t n) {
  float sum = 0;
#pragma omp parallel for simd reduction(+ : sum) schedule(static)
  for (std::size_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

}  // namespace kit
