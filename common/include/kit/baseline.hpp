#pragma once
// The CPU baseline the kit's fast kernels are measured against: an OpenMP `parallel for simd
// reduction(+:sum)` dot product, compiled with -O3 and (unless KIT_NATIVE=OFF) -march=native.
#include <cstddef>

namespace kit {

float openmp_dot(const float* a, const float* b, std::size_t n);

}  // namespace kit
