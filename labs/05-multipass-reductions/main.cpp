// Lab 05 host program: reduce N floats of any size to one value on the device, four ways and
// for sum, min and max; it prints passes, time and result for each.
#include <cstdio>
#include <iostream>

#include "kit/cli.hpp"
#include "kit/witness.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "multipass.hpp"

int main(int argc, char** argv) {
  return kit::guarded_main([&] {
    CLI::App app{"Lab 05: multi-pass reductions of any N (sum, min, max)"};
    kit::DeviceOptions device;
    kit::add_device_options(app, device);
    std::string elements = "1000003", data = "real";
    std::vector<std::string> ops{"sum", "min", "max"}, chosen;
    lab05::Case c;
    bool check = false;
    int warmup = 1, repeats = 5;
    app.add_option("-n,--elements", elements, "N, any size; suffixes K, M, G, Ki, Mi, Gi")->capture_default_str();
    app.add_option("-l,--local", c.local, "Work-group size L (a power of two >= 2)")->capture_default_str();
    app.add_option("--op", ops, "Operators: sum, min, max")->delimiter(',')->capture_default_str();
    app.add_option("-m,--method", chosen, "Methods: pairwise, window8, strided, pingpong (default: all)")->delimiter(',');
    kit::KernelChoice kernel;
    kit::add_kernel_options(app, kernel, lab05::kKernelFile);
    app.add_flag("--check", check, "Check every result (and that the input is unchanged); exit 1 if one is wrong");
    app.add_option("--data", data, "Input data: int (whole numbers, exact sums) or real")->capture_default_str();
    kit::add_run_options(app, c.seed, warmup, repeats);
    if (const int status = kit::parse_args(app, argc, argv); status >= 0) return status;
    if (kit::handle_list(device)) return 0;
    c.elements = kit::parse_count(elements);
    c.kind = kit::parse_data_kind(data);
    if (chosen.empty())
      for (const lab05::Method& m : lab05::methods()) chosen.push_back(m.name);
    for (const std::string& m : chosen) {
      c.method = m;
      lab05::validate(c);
    }
    for (const std::string& op : ops) lab05::parse_op(op);
    const std::filesystem::path file = kit::chosen_kernel(kernel, lab05::kLab, lab05::kKernelFile);

    const kit::Runtime rt = kit::Runtime::open(device);
    std::cout << "Device: " << rt.summary() << "\nKernel: " << file.string() << "\n"
              << "N = " << c.elements << ", L = " << c.local << ", " << kit::to_string(c.kind) << " data; best of "
              << repeats << " runs (in-place methods include the copy of the input)\n\n";
    const std::vector<float> in = lab05::make_input(c);
    std::printf("%-4s %-9s %7s %10s %8s %16s %16s %s\n", "op", "method", "passes", "time (ms)", "GB/s", "result", "expected",
                check ? "check" : "");
    int status = 0;
    std::vector<std::string> problems;
    for (const std::string& op : ops) {
      c.op = lab05::parse_op(op);
      for (const std::string& m : chosen) {
        c.method = m;
        const lab05::Outputs out = lab05::run(rt, file, c, in, warmup, repeats);
        const lab05::Expected e = lab05::expected(c, in);
        std::string verdict;
        if (check) {
          const kit::Verdict v = lab05::check(c, in, out, e);
          verdict = v.pass ? "ok" : "FAIL";
          if (!v.pass) {
            status = 1;
            problems.push_back(v.message + (v.hint.empty() ? "" : "\n        hint: " + v.hint));
          }
        }
        std::printf("%-4s %-9s %7d %10.3f %8.2f %16.9g %16.9g %s\n", op.c_str(), m.c_str(), out.passes,
                    out.timing.best * 1e3, double(c.elements) * 4 / out.timing.best / 1e9, out.result, e.value,
                    verdict.c_str());
      }
    }
    for (const std::string& p : problems) std::printf("CHECK FAILED: %s\n", p.c_str());
    if (status) return kit::witness_failed_check(argc, argv, kit::kElementsWitness, {c.elements}, file.string(), rt.summary(), status);
    return status;
  });
}
