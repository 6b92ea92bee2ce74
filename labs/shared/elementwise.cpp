#include "elementwise.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

#include "kit/buffer.hpp"
#include "kit/launch.hpp"
#include "kit/cli.hpp"
#include "kit/witness.hpp"
#include "kit/errors.hpp"
#include "kit/local_size.hpp"
#include "kit/marker.hpp"
#include "kit/paths.hpp"

namespace elementwise {
namespace {

// Written into the spare slots past n; a guarded kernel never changes it.
constexpr std::uint32_t kMarkerBits = 0x7fc0dead;

float marker() { return kit::marker_float(kMarkerBits); }
bool is_marker(float f) { return kit::is_marker_float(f, kMarkerBits); }

}  // namespace

const Lab& array_mult() {
  static const Lab lab{"01-array-mult", "ArrayMult: C = A * B", "ArrayMult.cl",
                       {"ArrayMult", {"global const float *dA", "global const float *dB", "global float *dC", "const int n"}},
                       2, "GigaMultiplies Per Second"};
  return lab;
}

const Lab& array_mult_add() {
  static const Lab lab{"02-array-mult-add", "ArrayMultAdd: D = A * B + C", "ArrayMultAdd.cl",
                       {"ArrayMultAdd",
                        {"global const float *dA", "global const float *dB", "global const float *dC", "global float *dD",
                         "const int n"}},
                       3, "GigaMultiply-Adds Per Second"};
  return lab;
}

void validate(const Case& c) {
  kit::require_local_size(c.local, kit::LocalSizeRule{});  // any L from 1: the host rounds the global size up to a multiple
  if (c.elements == 0) throw kit::Error("element count 0: there is nothing to compute");
  if (c.global() > std::size_t(INT32_MAX))
    throw kit::Error("element count " + std::to_string(c.elements) + " (global size " + std::to_string(c.global()) +
                     ") does not fit the kernel's int index");
}

Inputs make_inputs(const Lab& lab, const Case& c) {
  Inputs in;
  for (int s = 1; s <= lab.inputs; ++s) in.push_back(kit::make_data(c.kind, c.seed, std::uint64_t(s), c.elements));
  return in;
}

std::vector<float> expected(const Lab& lab, const Inputs& in) {
  std::vector<float> out(in[0].size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const float product = in[0][i] * in[1][i];
    out[i] = lab.inputs == 3 ? product + in[2][i] : product;
  }
  return out;
}

Outputs run(const kit::Runtime& rt, const Lab& lab, const std::filesystem::path& kernel_file, const Case& c,
            const Inputs& in, int warmup, int repeats, const std::string& shown_as) {
  validate(c);
  const std::string name = shown_as.empty() ? kernel_file.string() : shown_as;
  cl::Program program = kit::build_program(rt.context, rt.device, kernel_file, "", name);
  cl::Kernel kernel = kit::make_kernel(program, lab.signature, name);
  kit::check_local_size(rt.device, kernel, c.local, 0);

  // Every buffer is allocated to the rounded-up global size: inputs padded with zeros (an
  // unguarded read stays inside the buffer), the output padded with the marker.
  const std::size_t padded = c.global(), bytes = padded * sizeof(float);
  std::vector<cl::Buffer> buffers;
  for (const auto& array : in) {
    std::vector<float> host(array);
    host.resize(padded, 0.0f);
    buffers.push_back(kit::make_buffer(rt, CL_MEM_READ_ONLY, bytes, host.data()));
  }
  std::vector<float> result(padded, marker());
  cl::Buffer out_buffer = kit::make_buffer(rt, CL_MEM_READ_WRITE, bytes, result.data());
  cl_uint arg = 0;
  for (const cl::Buffer& b : buffers) kernel.setArg(arg++, b);
  kernel.setArg(arg++, out_buffer);
  kernel.setArg(arg++, cl_int(c.elements));

  Outputs out;
  out.timing = kit::time_runs(warmup, repeats, [&] {
    kit::launch(rt.queue, kernel, cl::NDRange(padded), cl::NDRange(c.local));
    rt.queue.finish();
  });
  rt.queue.enqueueReadBuffer(out_buffer, CL_TRUE, 0, bytes, result.data());
  for (std::size_t i = c.elements; i < padded && !out.written_past_end; ++i)
    if (!is_marker(result[i])) out.written_past_end = i;
  result.resize(c.elements);
  for (float& v : result)
    if (is_marker(v)) v = NAN;  // never written
  out.values = std::move(result);
  return out;
}

std::optional<Mismatch> first_wrong(const std::vector<float>& want, const Outputs& out, const Inputs* in) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (out.values[i] == want[i]) continue;  // exact; NaN never matches
    if (in && in->size() == 3 && out.values[i] == std::fmaf((*in)[0][i], (*in)[1][i], (*in)[2][i])) continue;
    return Mismatch{i, want[i], out.values[i]};
  }
  return std::nullopt;
}

std::string describe(const Lab& lab, const Case& c, const Outputs& out, const std::optional<Mismatch>& m) {
  const std::string output = lab.inputs == 3 ? "dD" : "dC";
  if (m)
    return output + "[" + std::to_string(m->index) + "] of " + std::to_string(c.elements) + ": expected " +
           kit::format_number(m->expected) + ", got " + (std::isnan(m->got) ? std::string("nothing (never written)") : kit::format_number(m->got)) +
           " (exact)";
  if (out.written_past_end)
    return "the kernel wrote " + output + "[" + std::to_string(*out.written_past_end) + "], past the last element " +
           std::to_string(c.elements - 1) + " (global size " + std::to_string(c.global()) + " was rounded up)";
  return "";
}

std::string diagnose(const Lab& lab, const Inputs& in, const Outputs& out, const std::optional<Mismatch>& m) {
  if (out.written_past_end && !m)
    return "the host rounds the global size up to a multiple of the local size: guard the kernel's work with "
           "if (gid < n)";
  if (!m) return "";
  const std::size_t i = m->index;
  if (std::isnan(m->got))
    return "element " + std::to_string(i) + " was never written: every gid below n must write its element";
  if (lab.inputs == 3 && m->got == in[0][i] * in[1][i]) return "that is A * B alone: add C";
  if (lab.inputs == 3 && m->got == in[0][i] + in[1][i] + in[2][i]) return "that is A + B + C: multiply A and B";
  if (m->got == in[0][i] + in[1][i]) return "that is A + B: the lab multiplies";
  if (m->got != m->expected && m->got == std::trunc(m->expected))
    return "the output lost its fraction (" + kit::format_number(m->expected) + " became " + kit::format_number(m->got) +
           "): keep the result a float, never an int";
  const bool all_zero = std::all_of(out.values.begin(), out.values.end(), [](float v) { return v == 0; });
  if (all_zero && m->expected != 0) return "every output is 0: is the result stored at index get_global_id(0)?";
  return "";
}

kit::Verdict check(const Lab& lab, const Case& c, const Inputs& in, const Outputs& out) {
  const std::vector<float> want = expected(lab, in);
  if (out.values.size() != want.size())
    return {false, "expected " + std::to_string(want.size()) + " outputs, got " + std::to_string(out.values.size()), ""};
  const auto wrong = first_wrong(want, out, &in);
  if (!wrong && !out.written_past_end) return {};
  return {false, describe(lab, c, out, wrong), diagnose(lab, in, out, wrong)};
}

int main(const Lab& lab, int argc, char** argv) {
  return kit::guarded_main([&] {
    CLI::App app{"Lab " + lab.id + " " + lab.title + ": one work-item per element"};
    kit::DeviceOptions device;
    kit::add_device_options(app, device);
    std::vector<std::string> elements{"16Mi"};
    std::vector<std::size_t> locals{64};
    std::string data = "int";
    bool check = false;
    std::uint64_t seed = 1;
    int warmup = 2, repeats = 10;
    app.add_option("-n,--elements", elements, "Array sizes N (several make a table); suffixes K, M, G, Ki, Mi, Gi")
        ->delimiter(',')->capture_default_str();
    app.add_option("-l,--local", locals, "Work-group sizes L (several make a table)")->delimiter(',')->capture_default_str();
    kit::KernelChoice kernel;
    kit::add_kernel_options(app, kernel, lab.kernel_file);
    app.add_flag("--check", check, "Compare every output with the host's; exit 1 at the first wrong one");
    app.add_option("--data", data, "Input data: int (small whole numbers) or real")->capture_default_str();
    kit::add_run_options(app, seed, warmup, repeats);
    if (const int status = kit::parse_args(app, argc, argv); status >= 0) return status;
    if (kit::handle_list(device)) return 0;
    const std::filesystem::path file = kit::chosen_kernel(kernel, lab.id, lab.kernel_file);
    const kit::DataKind kind = kit::parse_data_kind(data);
    std::vector<std::size_t> sizes;
    for (const std::string& e : elements) sizes.push_back(kit::parse_count(e));
    for (std::size_t n : sizes)
      for (std::size_t l : locals) validate({n, l, kind, seed});

    const kit::Runtime rt = kit::Runtime::open(device);
    std::cout << "Device: " << rt.summary() << "\nKernel: " << file.string() << "\n";
    const bool table = sizes.size() > 1 || locals.size() > 1;
    if (table) {
      std::printf("%s (best of %d; rows N, columns L%s)\n%12s", lab.rate.c_str(), repeats, check ? "; every output checked" : "",
                  "N \\ L");
      for (std::size_t l : locals) std::printf("%10zu", l);
      std::printf("\n");
    }
    int status = 0;
    for (std::size_t n : sizes) {
      if (table) std::printf("%12s", kit::format_count(n).c_str());
      const Case probe{n, locals[0], kind, seed};
      const Inputs in = make_inputs(lab, probe);
      for (std::size_t l : locals) {
        const Case c{n, l, kind, seed};
        const Outputs out = run(rt, lab, file, c, in, warmup, repeats);
        const kit::Verdict verdict = elementwise::check(lab, c, in, out);
        const bool bad = check && !verdict.pass;
        const double best = double(n) / out.timing.best / 1e9;
        if (table) {
          std::printf("%9.3f%s", best, bad ? "!" : " ");
        } else {
          std::printf("N = %zu (%s), L = %zu, global size %zu, %s data\n", n, kit::format_count(n).c_str(), l, c.global(),
                      kit::to_string(kind).c_str());
          std::printf("Time: best %.3f ms, median %.3f ms over %d runs (%d warm-up)\n", out.timing.best * 1e3,
                      out.timing.median * 1e3, repeats, warmup);
          std::printf("%.3f %s (best; median %.3f)\n", best, lab.rate.c_str(), double(n) / out.timing.median / 1e9);
        }
        if (bad) {
          status = 1;
          if (!table) {
            std::printf("CHECK FAILED: %s\n", verdict.message.c_str());
            if (!verdict.hint.empty()) std::printf("hint: %s\n", verdict.hint.c_str());
          }
        } else if (check && !table) {
          std::printf("Check passed: all %zu outputs match, nothing written past the end.\n", n);
        }
      }
      if (table) std::printf("\n");
    }
    if (table && status) std::printf("(!: the check failed for that size; run it alone with --check for details)\n");
    if (status && !table) return kit::witness_failed_check(argc, argv, kit::kElementsWitness, {sizes[0]}, file.string(), rt.summary(), status);
    return status;
  });
}

}  // namespace elementwise
