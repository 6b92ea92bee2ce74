// Lab 03 host program: multiply two arrays and reduce the products with the ArrayMultReduce
// kernel, add the per-work-group sums on the host, and report GigaNumbers per second.
#include <cstdio>
#include <iostream>

#include "array_mult_reduce.hpp"
#include "kit/cli.hpp"
#include "kit/witness.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"

int main(int argc, char** argv) {
  return kit::guarded_main([&] {
    CLI::App app{"Lab 03 ArrayMultReduce: multiply two arrays and reduce the products per work-group"};
    kit::DeviceOptions device;
    kit::add_device_options(app, device);
    std::string elements = "8Mi", data = "real";
    lab03::Case c;
    bool check = false, brief = false;
    int warmup = 2, repeats = 10;
    app.add_option("-n,--elements", elements, "Array size N; suffixes K, M, G (powers of 10) and Ki, Mi, Gi (powers of 2)")
        ->capture_default_str();
    app.add_option("-l,--local", c.local, "Work-group size L (a power of two dividing N)")->capture_default_str();
    kit::KernelChoice kernel;
    kit::add_kernel_options(app, kernel, lab03::kKernelFile);
    app.add_flag("--check", check, "Compare every work-group's sum with the host reference; exit 1 at the first wrong one");
    app.add_option("--data", data, "Input data: int (small whole numbers, exact) or real")->capture_default_str();
    kit::add_run_options(app, c.seed, warmup, repeats);
    app.add_flag("--brief", brief, "Print one line: N L GNum/s(best) GNum/s(median) check");
    if (const int status = kit::parse_args(app, argc, argv); status >= 0) return status;
    if (kit::handle_list(device)) return 0;

    c.elements = kit::parse_count(elements);
    c.kind = kit::parse_data_kind(data);
    lab03::validate(c);
    const std::filesystem::path file = kit::chosen_kernel(kernel, lab03::kLab, lab03::kKernelFile);

    const kit::Runtime rt = kit::Runtime::open(device);
    if (!brief) {
      std::cout << "Device:  " << rt.summary() << "\n"
                << "Kernel:  " << file.string() << "\n"
                << "Case:    N = " << c.elements << " (" << kit::format_count(c.elements) << "), L = " << c.local
                << ", " << c.groups() << " work-groups, " << kit::to_string(c.kind) << " data, seed " << c.seed << "\n";
    }
    const lab03::Inputs in = lab03::make_inputs(c);
    const lab03::Outputs out = lab03::run(rt, file, c, in, warmup, repeats);
    const lab03::Expected want = lab03::expected(c, in);
    const double best = lab03::giga_numbers_per_second(c.elements, out.timing.best);
    const double med = lab03::giga_numbers_per_second(c.elements, out.timing.median);
    const kit::Verdict verdict = lab03::check(c, in, out, want);

    if (brief) {
      std::printf("%zu %zu %.3f %.3f %s\n", c.elements, c.local, best, med,
                  !check ? "-" : verdict.pass ? "ok" : "FAIL");
    } else {
      std::printf("Sum:       %.9g\nReference: %.9g (host, double; tolerance %.3g)\n", out.total,
                  want.total.value, lab03::total_tolerance(c, want));
      std::printf("Time:      best %.3f ms, median %.3f ms over %d runs (%d warm-up)\n", out.timing.best * 1e3,
                  out.timing.median * 1e3, repeats, warmup);
      std::printf("%.3f GigaNumbers Multiplied and Reduced Per Second (best; median %.3f)\n", best, med);
    }
    if (!check) return 0;
    if (!verdict.pass) {
      std::printf("CHECK FAILED: %s\n", verdict.message.c_str());
      if (!verdict.hint.empty()) std::printf("hint: %s\n", verdict.hint.c_str());
      return kit::witness_failed_check(argc, argv, kit::kElementsWitness, {c.elements}, file.string(), rt.summary(), 1);
    }
    if (!brief) std::printf("Check passed: all %zu work-group sums match the reference.\n", c.groups());
    return 0;
  });
}
