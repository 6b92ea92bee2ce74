#include "@SNAKE@.hpp"

#include <cmath>
#include <cstring>

#include "kit/buffer.hpp"
#include "kit/errors.hpp"
#include "kit/launch.hpp"
#include "kit/local_size.hpp"
#include "kit/marker.hpp"

namespace lab@NN@ {
namespace {

constexpr std::uint32_t kMarkerBits = 0x7fc0beef;  // a NaN written past N; a guarded kernel leaves it

float marker() { return kit::marker_float(kMarkerBits); }
bool is_marker(float f) { return kit::is_marker_float(f, kMarkerBits); }

}  // namespace

void validate(const Case& c) {
  kit::require_local_size(c.local, kit::LocalSizeRule{});  // any L from 1: the host rounds the global size up
  if (c.elements == 0) throw kit::Error("element count 0: there is nothing to compute");
  if (c.global() > std::size_t(INT32_MAX))
    throw kit::Error("element count " + std::to_string(c.elements) + " does not fit the kernel's int index");
}

std::vector<float> make_input(const Case& c) { return kit::make_data(c.kind, c.seed, 1, c.elements); }

std::vector<float> expected(const std::vector<float>& a) {
  std::vector<float> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] * a[i];
  return out;
}

Outputs run(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c, const std::vector<float>& a,
            int warmup, int repeats, const std::string& shown_as) {
  validate(c);
  const std::string name = shown_as.empty() ? kernel_file.string() : shown_as;
  cl::Program program = kit::build_program(rt.context, rt.device, kernel_file, "", name);
  cl::Kernel kernel = kit::make_kernel(program, kSignature, name);
  kit::check_local_size(rt.device, kernel, c.local, 0);

  // Both buffers have the rounded-up global size: the input padded with zeros, the output with the marker.
  const std::size_t padded = c.global(), bytes = padded * sizeof(float);
  std::vector<float> input(a), result(padded, marker());
  input.resize(padded, 0.0f);
  cl::Buffer dA = kit::make_buffer(rt, CL_MEM_READ_ONLY, bytes, input.data());
  cl::Buffer dB = kit::make_buffer(rt, CL_MEM_READ_WRITE, bytes, result.data());
  kernel.setArg(0, dA);
  kernel.setArg(1, dB);
  kernel.setArg(2, cl_int(c.elements));

  Outputs out;
  out.timing = kit::time_runs(warmup, repeats, [&] {
    kit::launch(rt.queue, kernel, cl::NDRange(padded), cl::NDRange(c.local));
    rt.queue.finish();
  });
  rt.queue.enqueueReadBuffer(dB, CL_TRUE, 0, bytes, result.data());
  for (std::size_t i = c.elements; i < padded && !out.written_past_end; ++i)
    if (!is_marker(result[i])) out.written_past_end = i;
  result.resize(c.elements);
  for (float& v : result)
    if (is_marker(v)) v = NAN;  // never written
  out.values = std::move(result);
  return out;
}

kit::Verdict check(const Case& c, const std::vector<float>& a, const Outputs& out) {
  const std::vector<float> want = expected(a);
  if (out.values.size() != want.size())
    return {false, "expected " + std::to_string(want.size()) + " outputs, got " + std::to_string(out.values.size()), ""};
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (out.values[i] == want[i]) continue;  // exact; NaN never matches
    const bool unwritten = std::isnan(out.values[i]);
    return {false,
            "dB[" + std::to_string(i) + "] of " + std::to_string(c.elements) + ": expected " + kit::format_number(want[i]) + ", got " +
                (unwritten ? std::string("nothing (never written)") : kit::format_number(out.values[i])) + " (exact)",
            unwritten ? "every work-item with gid below n must write its element" : ""};
  }
  if (out.written_past_end)
    return {false,
            "the kernel wrote dB[" + std::to_string(*out.written_past_end) + "], past the last element " + std::to_string(c.elements - 1),
            "the host rounds the global size up to a multiple of the local size: guard the kernel's work with if (gid < n)"};
  return {};
}

}  // namespace lab@NN@
