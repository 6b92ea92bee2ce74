#pragma once
// The kit's single way to include OpenCL-CLHPP. CMake sets these for every target that links
// `kit`; the fallbacks keep a stand-alone compile of a header working the same way.
#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 300
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 200
#endif
#include <CL/opencl.hpp>

namespace kit {
// Kernels are compiled as OpenCL C 1.2 so the same source runs on PoCL 3.1 and on GPU drivers.
inline constexpr const char* kClStd = "-cl-std=CL1.2";
}  // namespace kit
