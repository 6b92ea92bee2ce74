#pragma once
// The CPU baseline the kit's fast kernels are measured against: an OpenMP `parallel for simd
// reduction(+:sum)` dot product, compiled with -O3 and (unless KIT_NATIVE=OFF) -march=native.
#include <cstddef>

namespace kit {

float openmp_dot(const float* a, const float* b, std::size_t n);

// Programs that time an OpenCL kernel against the OpenMP baseline call this first in main. Unless
// OMP_WAIT_POLICY is set, it restarts the program with OMP_WAIT_POLICY=passive: otherwise the
// baseline's idle threads spin after each parallel region on the very cores the OpenCL runtime
// needs next, and alternating runs measure the spinning (about 20 % on 2 cores) instead of the kernel.
// Where POCL_MAX_PTHREAD_COUNT is set and OMP_NUM_THREADS is not, it sets OpenMP's threads to the
// same count: a kernel on one PoCL thread is compared with OpenMP on one thread, not on every core.
void prefer_passive_openmp(char** argv);

}  // namespace kit
