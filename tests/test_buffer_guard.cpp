// kit::make_buffer's guard bytes (kit/buffer.hpp): with $KIT_BUFFER_GUARD=1 a read past a
// buffer's end reads the guard's value, the same in every run, and a write there is found.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "kit/buffer.hpp"
#include "kit/errors.hpp"
#include "support.hpp"

namespace {

const char* kSource =
    "kernel void read_past(global const int *in, global int *out, uint n) { out[0] = in[n]; out[1] = in[n - 1]; }\n"
    "kernel void write_past(global int *a, uint n) { a[n + 1] = 7; }\n";

// Sets $KIT_BUFFER_GUARD for the scope, then restores what was there.
struct GuardVariable {
  explicit GuardVariable(const char* value) {
    if (const char* was = std::getenv(kit::kBufferGuardVariable)) before = was, had = true;
    setenv(kit::kBufferGuardVariable, value, 1);
  }
  ~GuardVariable() {
    if (had) setenv(kit::kBufferGuardVariable, before.c_str(), 1);
    else unsetenv(kit::kBufferGuardVariable);
  }
  std::string before;
  bool had = false;
};

}  // namespace

TEST_CASE("guard bytes: a read one element past an input reads the guard's value in every run, and a write there is found") {
  const kit::Runtime& rt = test::runtime();
  cl::Program program(rt.context, kSource);
  program.build("-cl-std=CL1.2");
  const GuardVariable on("1");
  REQUIRE(kit::buffer_guards_on());
  const cl_uint n = 16;
  std::vector<cl_int> data(n);
  for (cl_uint i = 0; i < n; ++i) data[i] = cl_int(i + 1);
  cl_int guard_word = 0;
  const std::vector<unsigned char> guard_bytes(sizeof guard_word, kit::kGuardByte);
  std::memcpy(&guard_word, guard_bytes.data(), sizeof guard_word);
  for (int run = 0; run < 2; ++run) {
    CAPTURE(run);
    const cl::Buffer in = kit::make_buffer(rt, CL_MEM_READ_ONLY, n * sizeof(cl_int), data.data());
    const cl::Buffer out = kit::make_buffer(rt, CL_MEM_WRITE_ONLY, 2 * sizeof(cl_int));
    CHECK(in.getInfo<CL_MEM_SIZE>() == n * sizeof(cl_int) + kit::kGuardBytes);
    cl::Kernel read(program, "read_past");
    read.setArg(0, in);
    read.setArg(1, out);
    read.setArg(2, n);
    rt.queue.enqueueNDRangeKernel(read, cl::NullRange, cl::NDRange(1), cl::NullRange);
    cl_int got[2] = {0, 0};
    rt.queue.enqueueReadBuffer(out, CL_TRUE, 0, sizeof got, got);
    CHECK(got[0] == guard_word);  // 0x4B4B4B4B, the same wherever the buffer lives
    CHECK(got[1] == cl_int(n));   // the data is the host's
    CHECK(kit::buffer_guard_violations(rt.queue).empty());  // reads change no guard
  }

  const cl::Buffer a = kit::make_buffer(rt, CL_MEM_READ_WRITE, n * sizeof(cl_int), data.data());
  cl::Kernel write(program, "write_past");
  write.setArg(0, a);
  write.setArg(1, n);
  rt.queue.enqueueNDRangeKernel(write, cl::NullRange, cl::NDRange(1), cl::NullRange);
  rt.queue.finish();
  const std::vector<std::string> found = kit::buffer_guard_violations(rt.queue);
  REQUIRE(found.size() == 1);
  // 7 is the bytes 07 00 00 00, each unlike the guard's 4B, written at byte 4 * (n + 1).
  CHECK(found[0] == "a buffer of 64 bytes: 4 bytes past its end changed (the first at byte 68)");
  CHECK(kit::buffer_guard_violations(rt.queue).empty());  // each buffer is reported once
}

TEST_CASE("guard bytes: off unless $KIT_BUFFER_GUARD is 1, and then buffers have their exact sizes") {
  const kit::Runtime& rt = test::runtime();
  for (const char* value : {"0", "", "yes"}) {
    const GuardVariable off(value);
    CHECK_FALSE(kit::buffer_guards_on());
    const std::vector<cl_int> data(4, 5);
    const cl::Buffer b = kit::make_buffer(rt, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(cl_int) * 4, data.data());
    CHECK(b.getInfo<CL_MEM_SIZE>() == sizeof(cl_int) * 4);
    std::vector<cl_int> back(4, 0);
    rt.queue.enqueueReadBuffer(b, CL_TRUE, 0, sizeof(cl_int) * 4, back.data());
    CHECK(back == data);
    CHECK(kit::buffer_guard_violations(rt.queue).empty());
  }
  CHECK_THROWS_WITH_AS(kit::make_buffer(rt, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 16), doctest::Contains("without host data"),
                       kit::Error);
}
