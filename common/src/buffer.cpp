#include "kit/buffer.hpp"

#include <cstdlib>
#include <mutex>
#include <string_view>

#include "kit/errors.hpp"

namespace kit {
namespace {

struct Guarded {
  cl::Buffer buffer;
  std::size_t bytes;
};

std::mutex guarded_mutex;
std::vector<Guarded>& guarded() {
  static std::vector<Guarded> all;
  return all;
}

}  // namespace

bool buffer_guards_on() {
  const char* v = std::getenv(kBufferGuardVariable);
  return v && std::string_view(v) == "1";
}

cl::Buffer make_buffer(const Runtime& rt, cl_mem_flags flags, std::size_t bytes, const void* host) {
  if (flags & CL_MEM_USE_HOST_PTR) throw Error("make_buffer: CL_MEM_USE_HOST_PTR is not supported (the buffer would be the caller's memory)");
  if (flags & CL_MEM_COPY_HOST_PTR && !host) throw Error("make_buffer: CL_MEM_COPY_HOST_PTR without host data");
  flags &= ~cl_mem_flags(CL_MEM_COPY_HOST_PTR);
  if (!buffer_guards_on())
    return host ? cl::Buffer(rt.context, flags | CL_MEM_COPY_HOST_PTR, bytes, const_cast<void*>(host))
                : cl::Buffer(rt.context, flags, bytes);
  cl::Buffer b(rt.context, flags, bytes + kGuardBytes);
  if (host && bytes) rt.queue.enqueueWriteBuffer(b, CL_TRUE, 0, bytes, host);
  // From host memory, like the labs' own buffers (Oclgrind miscounts a filled buffer as never written).
  static const std::vector<unsigned char> guard(kGuardBytes, kGuardByte);
  rt.queue.enqueueWriteBuffer(b, CL_TRUE, bytes, kGuardBytes, guard.data());
  const std::lock_guard<std::mutex> lock(guarded_mutex);
  guarded().push_back({b, bytes});
  return b;
}

std::vector<std::string> buffer_guard_violations(const cl::CommandQueue& queue) {
  std::vector<Guarded> all;
  {
    const std::lock_guard<std::mutex> lock(guarded_mutex);
    all.swap(guarded());
  }
  std::vector<std::string> found;
  std::vector<unsigned char> guard(kGuardBytes);
  for (const Guarded& g : all) {
    queue.enqueueReadBuffer(g.buffer, CL_TRUE, g.bytes, kGuardBytes, guard.data());
    std::size_t changed = 0, first = 0;
    for (std::size_t i = 0; i < kGuardBytes; ++i)
      if (guard[i] != kGuardByte && changed++ == 0) first = i;
    if (changed)
      found.push_back("a buffer of " + std::to_string(g.bytes) + " bytes: " + std::to_string(changed) + " byte" +
                      (changed == 1 ? "" : "s") + " past its end changed (the first at byte " + std::to_string(g.bytes + first) + ")");
  }
  return found;
}

}  // namespace kit
