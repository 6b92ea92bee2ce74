#pragma once
// What a kernel reads where nothing was written: a buffer slot no work-item filled, an element
// one past the data. On a CPU device that is host memory, and a new buffer may get a block the
// process freed before, holding whatever was last there; which block depends on thread timing, so
// the same kernel could pass in one run and fail in the next (regrading one class moved two
// kernels' points that way). Every child that runs a kernel on a CPU device (its cases, the speed
// case) and every run under Oclgrind gets glibc's MALLOC_PERTURB_=255, which zeroes each block as
// it is handed out: every buffer, and the CPU device's local memory, starts as zeros, as in a
// process that has freed nothing yet, in every run. A GPU keeps its buffers in its own memory,
// which this does not reach, so children on a GPU are left as they were.
#include "isolation/sandbox.hpp"
#include "kit/buffer.hpp"

namespace grader {

// Adds MALLOC_PERTURB_=255 (a block is filled with 255 ^ 0xFF = 0 when handed out) to a child's environment.
inline void zero_fresh_memory(SandboxLimits& limits) { limits.environment.emplace_back("MALLOC_PERTURB_", "255"); }

// Past a buffer's end (kit/buffer.hpp): the case children, on every device, get guard bytes of one
// value past each buffer, so that a kernel reading there reads the same on PoCL and on a GPU, and a
// write there is found after the run. Runs under Oclgrind (and the speed case) get buffers of
// their exact sizes: Oclgrind reports an access past the end only when it is past the allocation.
inline void guard_buffer_ends(SandboxLimits& limits, bool on) {
  limits.environment.emplace_back(kit::kBufferGuardVariable, on ? "1" : "0");
}

}  // namespace grader
