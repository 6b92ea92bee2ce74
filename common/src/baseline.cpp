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
  bool changed = false;  // each variable is set only where unset: the user's choice, or a restart's, stands
  if (!std::getenv("OMP_WAIT_POLICY")) changed = setenv("OMP_WAIT_POLICY", "passive", 1) == 0;
  const char* pocl_threads = std::getenv("POCL_MAX_PTHREAD_COUNT");
  if (pocl_threads && *pocl_threads && !std::getenv("OMP_NUM_THREADS"))
    changed = setenv("OMP_NUM_THREADS", pocl_threads, 1) == 0 || changed;
  if (changed) execv("/proc/self/exe", argv);  // libgomp reads the variables when it loads: start again
  // execv returned: carry on with the defaults
}

}  // namespace kit
