#pragma once
// Every buffer a lab's kernel reads or writes is made here. When the grader runs a case it sets
// $KIT_BUFFER_GUARD=1, and each buffer then gets kGuardBytes bytes of kGuardByte past its end: a
// kernel that reads past the end reads the same value on every device (PoCL of any version, a
// GPU), so it gets the same result and the same grade everywhere; and a write past the end
// changes the guard, which buffer_guard_violations() finds after the run. Under Oclgrind the
// variable is off, so that buffers keep their exact sizes and Oclgrind reports the access.
#include <cstddef>
#include <string>
#include <vector>

#include "kit/device.hpp"
#include "kit/opencl.hpp"

namespace kit {

inline constexpr const char* kBufferGuardVariable = "KIT_BUFFER_GUARD";
// 16 KiB: more than one work-group of float8s (256 x 32 bytes) past the end.
inline constexpr std::size_t kGuardBytes = 16384;
// Each guard byte. As a 32-bit word 0x4B4B4B4B: the int 1263225675 and the float 1.3e7, both large,
// positive and finite, so a sum or a maximum that takes one in is visibly wrong (a zero would leave
// a sum right by luck, and a NaN is dropped by fmin and fmax).
inline constexpr unsigned char kGuardByte = 0x4B;

// True when $KIT_BUFFER_GUARD is "1".
bool buffer_guards_on();

// A buffer of `bytes` bytes with `flags`; with `host`, its first `bytes` bytes are copied from
// there (CL_MEM_COPY_HOST_PTR in `flags` or not). With the guards on, the buffer is kGuardBytes
// longer, filled with kGuardByte past `bytes`, and remembered for buffer_guard_violations().
// CL_MEM_USE_HOST_PTR is refused: the kit's buffers are the device's own.
cl::Buffer make_buffer(const Runtime& rt, cl_mem_flags flags, std::size_t bytes, const void* host = nullptr);

// One line per buffer made since the last call whose guard no longer holds kGuardByte everywhere
// ("a buffer of 256 bytes: 4 bytes past its end changed (the first at byte 256)"); then forgets
// those buffers. Empty when the guards are off.
std::vector<std::string> buffer_guard_violations(const cl::CommandQueue& queue);

}  // namespace kit
