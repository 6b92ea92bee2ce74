// Lab @NN@ host program: square an array with the @KERNEL@ kernel, one work-item per element, and
// report GigaSquares per second; --check compares every output with the host's.
#include <cstdio>
#include <iostream>

#include "@SNAKE@.hpp"
#include "kit/cli.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "kit/witness.hpp"

int main(int argc, char** argv) {
  return kit::guarded_main([&] {
    CLI::App app{"Lab @NN@ @KERNEL@: dB = dA * dA, one work-item per element"};
    kit::DeviceOptions device;
    kit::add_device_options(app, device);
    std::string elements = "16Mi", data = "int";
    lab@NN@::Case c;
    bool check = false;
    int warmup = 2, repeats = 10;
    app.add_option("-n,--elements", elements, "Array size N; suffixes K, M, G (powers of 10) and Ki, Mi, Gi (powers of 2)")
        ->capture_default_str();
    app.add_option("-l,--local", c.local, "Work-group size L")->capture_default_str();
    kit::KernelChoice kernel;
    kit::add_kernel_options(app, kernel, lab@NN@::kKernelFile);
    app.add_flag("--check", check, "Compare every output with the host's; exit 1 at the first wrong one");
    app.add_option("--data", data, "Input data: int (small whole numbers) or real")->capture_default_str();
    kit::add_run_options(app, c.seed, warmup, repeats);
    if (const int status = kit::parse_args(app, argc, argv); status >= 0) return status;
    if (kit::handle_list(device)) return 0;

    c.elements = kit::parse_count(elements);
    c.kind = kit::parse_data_kind(data);
    lab@NN@::validate(c);
    const std::filesystem::path file = kit::chosen_kernel(kernel, lab@NN@::kLab, lab@NN@::kKernelFile);
    const kit::Runtime rt = kit::Runtime::open(device);
    std::cout << "Device: " << rt.summary() << "\nKernel: " << file.string() << "\n";
    const std::vector<float> a = lab@NN@::make_input(c);
    const lab@NN@::Outputs out = lab@NN@::run(rt, file, c, a, warmup, repeats);
    std::printf("N = %zu, L = %zu, global size %zu, %s data\n", c.elements, c.local, c.global(), kit::to_string(c.kind).c_str());
    std::printf("Time: best %.3f ms, median %.3f ms over %d runs (%d warm-up)\n", out.timing.best * 1e3, out.timing.median * 1e3,
                repeats, warmup);
    std::printf("%.3f GigaSquares Per Second (best)\n", double(c.elements) / out.timing.best / 1e9);
    if (!check) return 0;
    const kit::Verdict verdict = lab@NN@::check(c, a, out);
    if (!verdict.pass) {
      std::printf("CHECK FAILED: %s\n", verdict.message.c_str());
      if (!verdict.hint.empty()) std::printf("hint: %s\n", verdict.hint.c_str());
      return kit::witness_failed_check(argc, argv, kit::kElementsWitness, {c.elements}, file.string(), rt.summary(), 1);
    }
    std::printf("Check passed: all %zu outputs match, nothing written past the end.\n", c.elements);
    return 0;
  });
}
