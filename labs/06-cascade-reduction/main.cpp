// Lab 06 host program: the cascade dot product. It measures the kernel with both final combines
// (partials added on the host, or a second tiny launch), and against the OpenMP CPU baseline or
// the solution kernel when asked.
#include <omp.h>

#include <cstdio>
#include <iostream>

#include "cascade.hpp"
#include "kit/baseline.hpp"
#include "kit/cli.hpp"
#include "kit/witness.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"

int main(int argc, char** argv) {
  kit::prefer_passive_openmp(argv);
  return kit::guarded_main([&] {
    CLI::App app{"Lab 06: the cascade dot product, the kit's fastest kernel"};
    kit::DeviceOptions device;
    kit::add_device_options(app, device);
    std::string elements = "64Mi", data = "real", combine = "both", branch = "device";
    lab06::Case c;
    bool check = false, vs_openmp = false, vs_solution = false;
    int warmup = 2, repeats = 10;
    app.add_option("-n,--elements", elements, "N; suffixes K, M, G, Ki, Mi, Gi")->capture_default_str();
    app.add_option("-l,--local", c.local, "Work-group size L, a power of two (default: 1 on a CPU; on a GPU the kernels' largest power of two up to 256)");
    app.add_option("-g,--groups", c.groups, "Work-groups (default: 8 x compute units on a CPU, 64 x on a GPU)");
    app.add_option("--combine", combine, "Final combine: host, device or both")->capture_default_str();
    app.add_option("--branch", branch, "DotCascade's branch: device (the device type picks: -D CONTIGUOUS on a CPU), cpu, or gpu "
                   "(the grid-stride loop, on any device)")->capture_default_str();
    kit::KernelChoice kernel;
    kit::add_kernel_options(app, kernel, lab06::kKernelFile);
    app.add_flag("--check", check, "Check the dot product; exit 1 if it is wrong");
    app.add_flag("--vs-openmp", vs_openmp, "Also time the OpenMP simd dot product on the host CPU; print the ratio");
    kit::add_full_kit_flag(app, "--vs-solution", vs_solution, "Time the kernel against the solution, alternately (grader check 06 does it exactly as graded)",
                           "use `build/bin/grader check 06` (its speed estimate against the solution's stored figure) or --vs-openmp "
                           "(the kernel against the host's OpenMP dot product)");
    app.add_option("--data", data, "Input data: int, unit or real (default: real; unit when checking a kernel)")->capture_default_str();
    kit::add_run_options(app, c.seed, warmup, repeats);
    if (const int status = kit::parse_args(app, argc, argv); status >= 0) return status;
    if (kit::handle_list(device)) return 0;
    if (combine != "host" && combine != "device" && combine != "both")
      throw kit::Error("--combine '" + combine + "' is not one of: host, device, both");
    c.elements = kit::parse_count(elements);
    c.branch = lab06::parse_branch(branch);
    // At these sizes a float sum's rounding bound on real data is loose enough to pass a wrong
    // result; on -1, 0, 1 the cascade's result is exact (cascade.hpp), so that is what --check uses,
    // and --vs-solution, which measures a kernel only when it is right.
    if ((check || vs_solution) && !app.count("--data")) data = "unit";
    c.kind = kit::parse_data_kind(data);
    lab06::validate(c);
    const std::filesystem::path file = kit::chosen_kernel(kernel, lab06::kLab, lab06::kKernelFile);

    const kit::Runtime rt = kit::Runtime::open(device);
    const lab06::Inputs in = lab06::make_inputs(c);
    const lab06::Expected e = lab06::expected(in);
    std::cout << "Device: " << rt.summary() << "\nKernel: " << file.string() << " ("
              << (lab06::contiguous(c.branch, rt.device) ? "the CPU branch, -D CONTIGUOUS" : "the GPU branch, built without -D CONTIGUOUS") << ")\n"
              << "(how its work-items load, neighbours side by side or each a run of its own, is measured under Oclgrind by: build/bin/grader check 06)\n";
    std::printf("%-8s %6s %6s %10s %10s %9s %13s %16s %s\n", "combine", "L", "groups", "best (ms)", "median", "GNum/s",
                "kernel GNum/s", "result", check ? "check" : "");
    int status = 0;
    double best_rate = 0;
    for (const bool on_device : {false, true}) {
      if ((on_device && combine == "host") || (!on_device && combine == "device")) continue;
      c.device_combine = on_device;
      lab06::Runner runner(rt, file, c, in);
      const lab06::Outputs out = runner.run(warmup, repeats);
      const double rate = double(c.elements) / out.timing.best / 1e9;
      best_rate = std::max(best_rate, rate);
      const kit::Verdict verdict = lab06::check(c, in, out, e);
      std::printf("%-8s %6zu %6zu %10.3f %10.3f %9.2f %13.2f %16.9g %s\n", on_device ? "device" : "host", out.local,
                  out.groups, out.timing.best * 1e3, out.timing.median * 1e3, rate, double(c.elements) / out.kernel_best / 1e9,
                  out.result, !check ? "" : verdict.pass ? "ok" : "FAIL");
      if (check && !verdict.pass) {
        std::printf("CHECK FAILED: %s\n", verdict.message.c_str());
        if (!verdict.hint.empty()) std::printf("hint: %s\n", verdict.hint.c_str());
        status = 1;
      }
      const double tol = lab06::tolerance([&] { lab06::Case ran = c; ran.local = out.local; return ran; }(), out.groups, e);
      if (check && tol > 0.01 * e.abs)
        std::printf("note: at this shape the rounding bound is %.2g, %.1f %% of sum |a b|: a check on %s data is weak here; "
                    "with --data unit the check is exact while each work-group's share of N stays below 2^24\n", tol, 100 * tol / e.abs, data.c_str());
    }
    std::printf("reference: %.9g (host, double). GNum/s: N over omp_get_wtime around enqueue to the combined result; "
                "kernel GNum/s: N over DotCascade's own time from its profiling event\n", e.value);
    if (vs_openmp) {
      const auto openmp = [&] { kit::openmp_dot(in.a.data(), in.b.data(), c.elements); };
      const kit::Timing t = kit::time_runs(warmup, repeats, openmp);
      c.device_combine = false;
      lab06::Runner runner(rt, file, c, in);
      // Both are bound by the same memory, so pairs differ by a few per cent: many pairs, and the
      // quartiles with the median so that a reader sees how settled it is.
      const kit::SpeedRatio ratio = lab06::openmp_speed_ratio(runner, in, 5 * repeats + 1);
      std::printf("OpenMP parallel for simd reduction, %d thread%s: best %.3f ms, %.2f GNum/s\n"
                  "kernel / OpenMP = %.2f (median of %d alternating pairs, host combine; middle half of the pairs %.2f .. %.2f)\n",
                  omp_get_max_threads(), omp_get_max_threads() == 1 ? "" : "s", t.best * 1e3, double(c.elements) / t.best / 1e9, ratio.median, ratio.pairs,
                  ratio.lower_quartile, ratio.upper_quartile);
    }
    if (vs_solution) {
      c.device_combine = false;
      lab06::Runner candidate(rt, file, c, in), baseline(rt, kit::lab_file(lab06::kLab, lab06::kKernelFile, true), c, in);
      if (const auto wrong = lab06::difference(c, candidate.run(0, 1), e)) {  // as graded: speed counts only when right
        std::printf("speed against the solution: not measured, the kernel is wrong: %s\n", wrong->c_str());
        return 1;
      }
      std::printf("speed against the solution (median of 15 alternating pairs): %.2f\n", lab06::speed_ratio(candidate, baseline, 15).median);
    }
    if (status) return kit::witness_failed_check(argc, argv, kit::kElementsWitness, {c.elements}, file.string(), rt.summary(), status);
    return status;
  });
}
