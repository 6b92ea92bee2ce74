// Lab 04 host program: the tree-reduction ladder. Each rung sums the same N ints on the device,
// launch after launch until one value remains, and the table shows what each step gains.
#include <cstdio>
#include <iostream>

#include "kit/cli.hpp"
#include "kit/witness.hpp"
#include "kit/data.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "tree_reductions.hpp"

int main(int argc, char** argv) {
  return kit::guarded_main([&] {
    CLI::App app{"Lab 04: the tree-reduction ladder (integer sum, five kernels)"};
    kit::DeviceOptions device;
    kit::add_device_options(app, device);
    std::string elements = "16Mi";
    lab04::Case c;
    std::vector<int> chosen;
    bool check = false;
    int warmup = 2, repeats = 10;
    app.add_option("-n,--elements", elements, "N, need not be a power of two; suffixes K, M, G, Ki, Mi, Gi")->capture_default_str();
    app.add_option("-l,--local", c.local, "Work-group size L (a power of two >= 2)")->capture_default_str();
    app.add_option("-r,--rung", chosen, "Rungs to run, e.g. 1,3,5 (default: all)")->delimiter(',');
    kit::KernelChoice kernel;
    kit::add_kernel_options(app, kernel, lab04::kKernelFile);
    app.add_flag("--check", check, "Check every rung's first-launch sums and total; exit 1 if one is wrong");
    kit::add_run_options(app, c.seed, warmup, repeats);
    if (const int status = kit::parse_args(app, argc, argv); status >= 0) return status;
    if (kit::handle_list(device)) return 0;
    c.elements = kit::parse_count(elements);
    if (chosen.empty())
      for (const lab04::Rung& r : lab04::rungs()) chosen.push_back(r.number);
    for (int r : chosen) {
      c.rung = r;
      lab04::validate(c);
    }
    const std::filesystem::path file = kit::chosen_kernel(kernel, lab04::kLab, lab04::kKernelFile);

    const kit::Runtime rt = kit::Runtime::open(device);
    std::cout << "Device: " << rt.summary() << "\nKernel: " << file.string() << "\n"
              << "Sum of N = " << c.elements << " (" << kit::format_count(c.elements) << ") ints, L = " << c.local
              << ", best of " << repeats << " runs; every launch until one value remains is timed\n\n";
    const std::vector<std::int32_t> in = lab04::make_input(c);
    std::printf("%-4s %-28s %8s %10s %8s %8s %s\n", "rung", "kernel", "launches", "time (ms)", "GB/s", "speedup",
                check ? "check" : "");
    double first_time = 0;
    int status = 0;
    std::vector<std::string> problems;
    for (int r : chosen) {
      c.rung = r;
      const lab04::Rung& rung = lab04::rung(r);
      const lab04::Outputs out = lab04::run(rt, file, c, in, warmup, repeats);
      if (first_time == 0) first_time = out.timing.best;
      const double gbs = double(c.elements) * sizeof(std::int32_t) / out.timing.best / 1e9;
      std::string verdict;
      if (check) {
        const lab04::Expected e = lab04::expected(c, in);
        const kit::Verdict v = lab04::check(c, in, out, e);
        verdict = v.pass ? "ok" : "FAIL";
        if (!v.pass) {
          status = 1;
          problems.push_back("rung " + std::to_string(r) + ": " + v.message + (v.hint.empty() ? "" : "\n        hint: " + v.hint));
        }
      }
      std::printf("%-4d %-28s %8d %10.3f %8.2f %7.2fx %s\n", r, rung.kernel.c_str(), out.launches, out.timing.best * 1e3,
                  gbs, first_time / out.timing.best, verdict.c_str());
    }
    std::printf("\n(speedup: against the first rung in this table; GB/s counts the N ints read by launch 1)\n");
    for (const std::string& p : problems) std::printf("CHECK FAILED %s\n", p.c_str());
    if (status) return kit::witness_failed_check(argc, argv, kit::kElementsWitness, {c.elements}, file.string(), rt.summary(), status);
    return status;
  });
}
