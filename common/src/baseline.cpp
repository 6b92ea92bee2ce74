#include "kit/baseline.hpp"

#include <unistd.h>

#include <cstdlib>

namespace kit {

float openmp_dot(const float* a, const float* b, std::size_t n) {
  float sum = 0;
#pragma omp parallel for simd reduction(+ : sum) schedule(static)
  for (std::size_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

void prefer_passive_openmp(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY")) return;  // chosen by the user, or already restarted
  setenv("OMP_WAIT_POLICY", "passive", 1);
  execv("/proc/self/exe", argv);  // libgomp reads the variable when it loads: start again
  // execv returned: carry on with the default policy
}

}  // namespace kit
