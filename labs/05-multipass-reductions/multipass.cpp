#include "multipass.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "kit/buffer.hpp"
#include "kit/launch.hpp"
#include "kit/errors.hpp"
#include "kit/local_size.hpp"
#include "kit/reference.hpp"

namespace lab05 {
namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

}  // namespace

Op parse_op(const std::string& text) {
  if (text == "sum") return Op::Sum;
  if (text == "min") return Op::Min;
  if (text == "max") return Op::Max;
  throw kit::Error("operator '" + text + "' is not one of: sum, min, max");
}

std::string to_string(Op op) { return op == Op::Sum ? "sum" : op == Op::Min ? "min" : "max"; }

std::string build_options(Op op) {
  switch (op) {
    case Op::Sum: return "-D \"OP(a,b)=((a)+(b))\" -D IDENTITY=0.0f";
    case Op::Min: return "-D \"OP(a,b)=fmin((a),(b))\" -D IDENTITY=INFINITY";
    case Op::Max: return "-D \"OP(a,b)=fmax((a),(b))\" -D IDENTITY=(-INFINITY)";
  }
  return "";
}

const std::vector<Method>& methods() {
  static const std::vector<Method> all = {
      {"pairwise", "pairwise_pass", "a[i] = a[i] op a[i + s], s halving each launch: log2 N launches", true},
      {"window8", "window8_pass", "8 elements per work-item per pass: log8 N launches, ~1.14 N accesses", false},
      {"strided", "strided_pass", "one work-group tree per pass, stride L^step, in place: log_L N launches", true},
      {"pingpong", "pingpong_pass", "work-group trees between two buffers: the input is only read", false},
  };
  return all;
}

const Method& method(const std::string& name) {
  std::string known;
  for (const Method& m : methods()) {
    if (m.name == name) return m;
    known += (known.empty() ? "" : ", ") + m.name;
  }
  throw kit::Error("method '" + name + "' is not one of: " + known);
}

std::vector<kit::KernelSignature> all_signatures() {
  return {{"pairwise_pass", {"global float *a", "const uint active"}},
          {"window8_pass", {"global const float *src", "global float *dst", "const uint active"}},
          {"strided_pass", {"global float *a", "local float *scratch", "const uint n", "const uint stride"}},
          {"pingpong_pass", {"global const float *src", "global float *dst", "local float *scratch", "const uint active"}}};
}

void validate(const Case& c) {
  method(c.method);
  kit::LocalSizeRule rule;
  rule.least = 2;
  rule.least_why = "the tree methods shrink the array L times per pass, so with 1 work-item per group a pass shrinks "
                   "nothing and the passes never end";
  rule.power_of_two = true;
  rule.power_why = "the tree methods fold the upper half of scratch onto the lower half, L/2, L/4, ..., 1, which pairs "
                   "every value only in a group of 2, 4, 8, ... work-items";
  kit::require_local_size(c.local, rule);
  if (c.elements == 0) throw kit::Error("element count 0: there is nothing to reduce");
  if (c.elements > std::size_t(UINT32_MAX)) throw kit::Error("element count " + std::to_string(c.elements) + " does not fit a uint");
}

std::vector<float> make_input(const Case& c) { return kit::make_data(c.kind, c.seed, 1, c.elements); }

int expected_passes(const Case& c) {
  int passes = 0;
  const std::string& m = c.method;
  if (m == "pairwise")
    for (std::size_t active = c.elements; active > 1; active = ceil_div(active, 2)) ++passes;
  else if (m == "window8")
    for (std::size_t active = c.elements; active > 1; active = ceil_div(active, 8)) ++passes;
  else if (m == "strided")
    for (std::size_t reach = 1; reach < c.elements; reach *= c.local) ++passes;
  else
    for (std::size_t active = c.elements; active > 1; active = ceil_div(active, c.local)) ++passes;
  return passes;
}

Outputs run(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c,
            const std::vector<float>& in, int warmup, int repeats, const std::string& shown_as) {
  validate(c);
  const Method& m = method(c.method);
  const std::string name = shown_as.empty() ? kernel_file.string() : shown_as;
  cl::Program program = kit::build_program(rt.context, rt.device, kernel_file, build_options(c.op), name);
  const auto signatures = all_signatures();
  const auto sig = std::find_if(signatures.begin(), signatures.end(), [&](const auto& s) { return s.name == m.kernel; });
  cl::Kernel kernel = kit::make_kernel(program, *sig, name);
  kit::check_local_size(rt.device, kernel, c.local, c.local * sizeof(float));

  const std::size_t n = c.elements, bytes = n * sizeof(float), L = c.local;
  cl::Buffer input = kit::make_buffer(rt, CL_MEM_READ_ONLY, bytes, in.data());
  cl::Buffer work[2] = {kit::make_buffer(rt, CL_MEM_READ_WRITE, bytes), kit::make_buffer(rt, CL_MEM_READ_WRITE, bytes)};
  const cl::Buffer* last = &input;
  Outputs out;
  out.kernel = kit::kernel_code(program, rt.device, kernel_file, name);
  const auto launch = [&](std::size_t items) {
    kit::launch(rt.queue, kernel, cl::NDRange(ceil_div(items, L) * L), cl::NDRange(L));
  };
  const auto reduce = [&] {
    int passes = 0;
    last = &input;
    if (m.in_place && n > 1) {
      rt.queue.enqueueCopyBuffer(input, work[0], 0, 0, bytes);  // the input itself is never written
      last = &work[0];
    }
    if (m.name == "pairwise") {
      for (std::size_t active = n; active > 1; ++passes) {
        const std::size_t s = ceil_div(active, 2);
        kernel.setArg(0, work[0]);
        kernel.setArg(1, cl_uint(active));
        launch(active - s);
        active = s;
      }
    } else if (m.name == "strided") {
      for (std::size_t stride = 1; stride < n; stride *= L, ++passes) {
        kernel.setArg(0, work[0]);
        kernel.setArg(1, cl::Local(L * sizeof(float)));
        kernel.setArg(2, cl_uint(n));
        kernel.setArg(3, cl_uint(stride));
        launch(ceil_div(n, L * stride) * L);
      }
    } else {  // window8 and pingpong: from the input, then between two scratch buffers
      const std::size_t per_item = m.name == "window8" ? 8 : 1;
      for (std::size_t active = n; active > 1; ++passes) {
        const cl::Buffer& to = work[passes % 2];
        kernel.setArg(0, *last);
        kernel.setArg(1, to);
        std::size_t next;
        if (m.name == "window8") {
          kernel.setArg(2, cl_uint(active));
          next = ceil_div(active, per_item);
          launch(next);
        } else {
          kernel.setArg(2, cl::Local(L * sizeof(float)));
          kernel.setArg(3, cl_uint(active));
          next = ceil_div(active, L);
          launch(next * L);
        }
        last = &to;
        active = next;
      }
    }
    rt.queue.finish();
    out.passes = passes;
  };
  out.timing = kit::time_runs(warmup, repeats, reduce);
  rt.queue.enqueueReadBuffer(*last, CL_TRUE, 0, sizeof(float), &out.result);
  std::vector<float> after(n);
  rt.queue.enqueueReadBuffer(input, CL_TRUE, 0, bytes, after.data());
  out.input_unchanged = std::memcmp(after.data(), in.data(), bytes) == 0;
  return out;
}

Expected expected(const Case& c, const std::vector<float>& in) {
  Expected e;
  if (c.op == Op::Min) e.value = *std::min_element(in.begin(), in.end());
  else if (c.op == Op::Max) e.value = *std::max_element(in.begin(), in.end());
  else
    for (float x : in) {
      e.value += x;
      e.abs += std::fabs(x);
    }
  return e;
}

double tolerance(const Case& c, const Expected& e) {
  if (c.op != Op::Sum || (c.kind == kit::DataKind::Integers && e.abs < 0x1p24)) return 0;
  const int passes = expected_passes(c);
  std::size_t depth = 0;
  if (c.method == "pairwise") depth = std::size_t(passes);
  else if (c.method == "window8") depth = 7 * std::size_t(passes);
  else depth = kit::tree_depth(c.local) * std::size_t(passes);
  return kit::gamma_float(depth) * e.abs + kit::gamma_double(c.elements) * e.abs;
}

std::optional<std::string> difference(const Case& c, const Outputs& out, const Expected& e) {
  if (!out.input_unchanged)
    return "the input buffer was changed: " + c.method + " must leave it as it was (work on the copy or the scratch buffers)";
  const double tol = tolerance(c, e);
  if (!(std::fabs(double(out.result) - e.value) <= tol))
    return to_string(c.op) + " of " + std::to_string(c.elements) + " elements by " + c.method + " in " +
           std::to_string(out.passes) + " launches: expected " + kit::format_number(e.value) + ", got " + kit::format_number(out.result) +
           " (" + (tol == 0 ? std::string("exact") : "tolerance " + kit::format_number(tol)) + ")";
  return std::nullopt;
}

namespace {

std::string evidence(const Case& c, const std::vector<float>& in, const Outputs& out, const Expected& e) {
  if (!out.input_unchanged) return "";
  // A tree loop without a barrier races: what a pass gives depends on the schedule, so the code says so.
  if (std::string race = kit::missing_loop_barrier(out.kernel, method(c.method).kernel,
                                                   "a level can read scratch[tid + s] before the work-item that owns it "
                                                   "has written the level before",
                                                   "after the combining step");
      !race.empty())
    return race;
  const double identity = c.op == Op::Sum ? 0.0 : c.op == Op::Min ? INFINITY : -INFINITY;
  if (double(out.result) == identity) return "the result is the operator's identity: no element was combined";
  // A min or a max is one of the inputs: a 0 that none of them is came from elsewhere.
  if (c.op != Op::Sum && out.result == 0.0f && std::find(in.begin(), in.end(), 0.0f) == in.end())
    return "the result is 0, which none of the " + std::to_string(c.elements) + " inputs is: a 0 entered the " + to_string(c.op) +
           " from outside the data: an identity of 0 (pad with IDENTITY), or an element read at or past active (memory "
           "past the data may hold 0)";
  if (c.elements > 1 && out.result == in[0]) return "the result is the first element: the passes' combining step is missing";
  if (c.op == Op::Sum && c.elements > 1) {
    double without_last = e.value - in.back();
    if (std::fabs(double(out.result) - without_last) <= tolerance(c, e) && in.back() != 0)
      return "the last element is missing: when the active length is odd, its tail element must still be counted";
  }
  return "check each pass's index arithmetic against the method's rule in the lab README";
}

}  // namespace

std::string diagnose(const Case& c, const std::vector<float>& in, const Outputs& out, const Expected& e) {
  return kit::with_warnings(evidence(c, in, out, e), out.kernel);
}

kit::Verdict check(const Case& c, const std::vector<float>& in, const Outputs& out, const Expected& e) {
  const auto diff = difference(c, out, e);
  if (!diff) return {};
  return {false, *diff, diagnose(c, in, out, e)};
}

}  // namespace lab05
