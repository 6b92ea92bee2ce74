// The kit's reduction benchmark: lab 03's ArrayMultReduce swept over array sizes and work-group
// sizes (the lecture's graph, timed as the slide times it, and again to the total on the host),
// and on the same data, in the same run: lab 06's cascade, lab 08's
// single-launch cascade (the kit's fastest kernel), an OpenMP simd dot product on the host CPU, a
// read-only streaming kernel that measures the device's memory-bandwidth roof, and the latency
// floor (an empty launch and a 4-byte read: what any one-launch reduction pays at least). The
// roof is timed twice: to `finish`, and followed by a blocking 4-byte read as a reduction reads its
// result (the ceiling of any one-launch reduction). The cascade, the single launch, both roofs and
// OpenMP run in rounds at each size, one run of each per round, so that the ratios between them
// hold while the machine drifts. Writes one CSV row per measurement.
#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>

#include "array_mult_reduce.hpp"
#include "cascade.hpp"
#include "atomics_scan.hpp"
#include "single_pass.hpp"
#include "kit/baseline.hpp"
#include "kit/cli.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "kit/timing.hpp"

namespace {

struct Row {
  std::string kernel;
  std::size_t elements, local, groups;
  kit::Timing timing;
};

std::string today() {
  const std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

std::string slug(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
  return s;
}

double gib(double bytes) { return bytes / double(1 << 30); }

// Lab 03's kernel timed as the slide times it (enqueue + finish) leaves G partials on the device;
// this row times the same runs to the total on the host (+ reading the partials back and adding
// them), which is what the one-launch kernels are compared with: they hand back the total.
const std::string kWholeLab03 = "ArrayMultReduce + host sum";
// The roof's kernel followed by a blocking read of 4 bytes instead of `finish`, from memory made as
// lab 08's single launch makes its result (CL_MEM_ALLOC_HOST_PTR): the same reads of memory and the
// same read-back as a one-launch reduction, with no tree, ticket or combine. The in-order queue
// starts the read when the kernel has finished.
const std::string kRoofRead = "StreamRead roof + result read";

constexpr int kAlternatingPairs = 21;  // cascade / OpenMP pairs at the largest size
constexpr int kFloorRuns = 100;         // empty launches + reads per size: the best is the floor

const Row* find_row(const std::vector<Row>& rows, std::size_t n, const std::string& kernel) {
  for (const Row& r : rows)
    if (r.elements == n && r.kernel == kernel) return &r;
  return nullptr;
}

double gnums(const Row* r) { return r ? r->elements / r->timing.best / 1e9 : 0; }

// The single launch at every size against the roof (best against best, and round by round: the
// roof's seconds over the single launch's in the same round, whose median and middle half a drift
// of the machine between rounds cannot move), against the roof followed by a result read (the
// ceiling of a one-launch reduction), and against the slide kernel's whole reduction (its best L).
void print_single_pass_table(const std::vector<Row>& rows, const std::vector<std::size_t>& ns, int repeats) {
  std::printf("Per size (GNum/s, best of %d rounds): N, SinglePassDot, roof, single / roof, the same round by round "
              "(median [middle half]), roof + result read, single / (roof + read), slide kernel + host sum (best L), "
              "single / slide\n",
              repeats);
  for (std::size_t n : ns) {
    const Row *single = find_row(rows, n, "SinglePassDot"), *roof = find_row(rows, n, "StreamRead roof"),
              *roof_read = find_row(rows, n, kRoofRead);
    if (!single || !roof || !roof_read) continue;
    double slide = 0;
    for (const Row& r : rows)
      if (r.elements == n && r.kernel == kWholeLab03) slide = std::max(slide, gnums(&r));
    std::vector<double> per_round;
    for (std::size_t i = 0; i < single->timing.samples.size(); ++i)
      per_round.push_back(roof->timing.samples[i] / single->timing.samples[i]);
    std::printf("  %6s  %8.2f  %8.2f  %5.2f  %5.2f [%4.2f %4.2f]  %8.2f  %5.2f  %8.2f  %5.2f\n", kit::format_count(n).c_str(),
                gnums(single), gnums(roof), gnums(single) / gnums(roof), kit::median(per_round),
                kit::quantile(per_round, 0.25), kit::quantile(per_round, 0.75), gnums(roof_read),
                gnums(single) / gnums(roof_read), slide, slide > 0 ? gnums(single) / slide : 0.0);
  }
}

}  // namespace

int main(int argc, char** argv) {
  kit::prefer_passive_openmp(argv);
  return kit::guarded_main([&] {
    CLI::App app{"Reduction benchmark: the lecture's graph, reproduced on your device"};
    kit::DeviceOptions device;
    kit::add_device_options(app, device);
    std::vector<std::string> sizes{"1Mi", "2Mi", "4Mi", "8Mi", "16Mi", "32Mi", "64Mi", "128Mi", "256Mi"};
    std::vector<std::size_t> locals{8, 16, 32, 64, 128, 256, 512};
    std::string kernel_path, out_path;
    int warmup = 1, repeats = 3;
    bool quick = false, no_openmp = false;
    std::size_t cascade_local = 0, cascade_groups = 0;
    lab08::SinglePassShape single;
    app.add_option("--sizes", sizes, "Array sizes N (MegaNumbers on the graph's axis)")->delimiter(',')->capture_default_str();
    app.add_option("--locals", locals, "Work-group sizes for lab 03 (clamped to the device)")->delimiter(',')->capture_default_str();
    app.add_option("-k,--kernel", kernel_path, "Lab 03 kernel to sweep (default: the solution)");
    app.add_option("--cascade-local", cascade_local, "Work-group size of the cascade kernel (default: lab 06's)");
    app.add_option("--cascade-groups", cascade_groups, "Work-groups of the cascade kernel (default: lab 06's)");
    app.add_option("--single-local", single.local, "Work-group size of lab 08's single-launch cascade (default: its own)");
    app.add_option("--single-groups", single.groups, "Work-groups of lab 08's single-launch cascade (default: its own)");
    app.add_option("--warmup", warmup, "Untimed runs per measurement")->capture_default_str();
    app.add_option("--repeats", repeats, "Timed runs per measurement (best and median)")->capture_default_str();
    app.add_flag("--quick", quick, "A first look in under a minute: 1Mi, 4Mi, 16Mi; L = 32, 128; 2 repeats");
    app.add_flag("--no-openmp", no_openmp, "Skip the host CPU baseline");
    app.add_option("-o,--out", out_path, "CSV file (default: build/bench/<device>-<date>.csv)");
    if (const int status = kit::parse_args(app, argc, argv); status >= 0) return status;
    if (kit::handle_list(device)) return 0;
    if (quick) {  // sizes and work-group sizes given on the command line still win
      if (!app.count("--sizes")) sizes = {"1Mi", "4Mi", "16Mi"};
      if (!app.count("--locals")) locals = {32, 128};
      if (!app.count("--repeats")) repeats = 2;
    }
    std::vector<std::size_t> ns;
    for (const std::string& s : sizes) ns.push_back(kit::parse_count(s));
    const std::size_t n_max = *std::max_element(ns.begin(), ns.end());

    const kit::Runtime rt = kit::Runtime::open(device);
    const std::filesystem::path lab03_file =
        kernel_path.empty() ? kit::lab_file(lab03::kLab, lab03::kKernelFile, true) : std::filesystem::path(kernel_path);
    // The largest work-group the lab 03 kernel may run on this device (kit::kernel_work_group_limit:
    // on NVIDIA's driver from the kernel's registers, its CL_KERNEL_WORK_GROUP_SIZE being 256 for
    // every kernel).
    const std::size_t device_max = std::min(
        rt.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>(),
        kit::kernel_work_group_limit(
            rt.device,
            kit::make_kernel(kit::build_program(rt.context, rt.device, lab03_file), lab03::kSignature, lab03_file.string()))
            .most);
    std::vector<std::size_t> wgs;
    for (std::size_t l : locals)
      if (l <= device_max) wgs.push_back(l);
      else std::cout << "work-group size " << l << " skipped: above this kernel's maximum on the device, " << device_max << "\n";

    // Memory, said up front: two input arrays on the host, and on the device three copies of them
    // (the cascade's, the single launch's and the roof's, alive together while they run in rounds),
    // plus small buffers.
    const double host_bytes = 2.0 * n_max * sizeof(float), device_bytes = 3 * 2.0 * n_max * sizeof(float);
    const double host_memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
    const double device_memory = double(rt.device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>());
    const double max_alloc = double(rt.device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>());
    std::printf("Device: %s\nMemory: the largest size, N = %zu, needs %.2f GiB on the host and %.2f GiB on the device "
                "(host has %.1f GiB, device %.1f GiB, largest allocation %.2f GiB)\n",
                rt.summary().c_str(), n_max, gib(host_bytes), gib(device_bytes), gib(host_memory), gib(device_memory),
                gib(max_alloc));
    // PoCL's device memory is the host's: both copies live in host memory.
    const bool shared = (rt.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0;
    if (n_max * sizeof(float) > max_alloc || device_bytes > 0.9 * device_memory ||
        (shared ? host_bytes + device_bytes : host_bytes) > 0.8 * host_memory)
      throw kit::Error("N = " + std::to_string(n_max) + " does not fit: it needs " + std::to_string(gib(host_bytes)).substr(0, 5) +
                       " GiB of host memory and " + std::to_string(gib(device_bytes)).substr(0, 5) +
                       " GiB of device memory (one array of " + std::to_string(gib(n_max * 4.0)).substr(0, 5) +
                       " GiB per allocation); choose smaller --sizes");

    const std::filesystem::path cascade_file = kit::lab_file(lab06::kLab, lab06::kKernelFile, true);
    const std::filesystem::path single_file = kit::lab_file(lab08::kLab, lab08::kKernelFile, true);
    const std::filesystem::path stream_file = kit::root() / "bench" / "StreamRead.cl";

    const auto start = std::chrono::steady_clock::now();
    lab03::Case big{n_max, 1, kit::DataKind::Reals, 1};
    const lab03::Inputs in = lab03::make_inputs(big);
    const lab06::Inputs cascade_in{in.a, in.b};
    std::vector<Row> rows;
    const bool cpu_device = (rt.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0;
    cl::Program stream_program = kit::build_program(rt.context, rt.device, stream_file, cpu_device ? "-D CONTIGUOUS" : "");
    cl::Kernel stream(stream_program, "StreamRead"), empty(stream_program, "Empty");
    const std::size_t total = ns.size() * (wgs.size() + 2) + (no_openmp ? 0 : 1);
    std::size_t done = 0;
    const auto progress = [&](const std::string& what) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "\r[%3zu/%zu] %6.1f s  %-60s", ++done, total, s, what.c_str());
    };
    for (std::size_t n : ns) {
      for (std::size_t l : wgs) {
        progress("ArrayMultReduce N = " + kit::format_count(n) + ", L = " + std::to_string(l));
        if (n % l) continue;
        const lab03::Case c{n, l, kit::DataKind::Reals, 1};
        const lab03::Outputs out = lab03::run(rt, lab03_file, c, in, warmup, repeats);
        rows.push_back({"ArrayMultReduce", n, l, n / l, out.timing});
        rows.push_back({kWholeLab03, n, l, n / l, out.whole});
      }
      // The kernels compared with one another at this N run in rounds (kit::time_rounds): the
      // cascade, the single launch, the two roofs and the host's OpenMP loop, one run of each per round.
      progress("CascadeDot, SinglePassDot, the roofs, OpenMP in rounds, N = " + kit::format_count(n));
      {
        lab06::Runner cascade(rt, cascade_file, {n, cascade_local, cascade_groups, kit::DataKind::Reals, 1, false}, cascade_in);
        lab08::SinglePass pass(rt, single_file, n, single, in.a.data(), in.b.data());
        // The roof in the cascade's default shape, so that it differs from it only in the arithmetic.
        const std::size_t groups = (cpu_device ? lab06::kGroupsPerComputeUnitCpu : lab06::kGroupsPerComputeUnitGpu) *
                                   rt.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>(),
                          l = cpu_device ? 1 : std::min<std::size_t>(256, stream.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(rt.device));
        cl::Buffer a(rt.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, const_cast<float*>(in.a.data()));
        cl::Buffer b(rt.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, const_cast<float*>(in.b.data()));
        cl::Buffer out(rt.context, CL_MEM_WRITE_ONLY, groups * l * 4);
        float zero = 0;
        cl::Buffer result(rt.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero);
        stream.setArg(0, a);
        stream.setArg(1, b);
        stream.setArg(2, out);
        stream.setArg(3, cl_uint(n / 4));
        std::vector<std::function<void()>> runs{
            [&] { cascade.run_once(); },
            [&] { pass.run_once(false); },
            [&] {
              rt.queue.enqueueNDRangeKernel(stream, cl::NullRange, cl::NDRange(groups * l), cl::NDRange(l));
              rt.queue.finish();
            },
            [&] {
              float x = 0;
              rt.queue.enqueueNDRangeKernel(stream, cl::NullRange, cl::NDRange(groups * l), cl::NDRange(l));
              rt.queue.enqueueReadBuffer(result, CL_TRUE, 0, sizeof x, &x);  // as the single launch reads its result
            }};
        if (!no_openmp) runs.push_back([&] { kit::openmp_dot(in.a.data(), in.b.data(), n); });
        const std::vector<kit::Timing> t = kit::time_rounds(warmup, repeats, runs);
        rows.push_back({"CascadeDot", n, cascade.local(), cascade.groups(), t[0]});
        rows.push_back({"SinglePassDot", n, pass.local(), pass.groups(), t[1]});
        rows.push_back({"StreamRead roof", n, l, groups, t[2]});
        rows.push_back({kRoofRead, n, l, groups, t[3]});
        if (!no_openmp) rows.push_back({"OpenMP simd (host CPU)", n, 0, std::size_t(omp_get_max_threads()), t[4]});
      }
      progress("Latency floor N = " + kit::format_count(n));
      {
        cl::Buffer one(rt.context, CL_MEM_READ_WRITE, sizeof(float));
        empty.setArg(0, one);
        float x = 0;
        const kit::Timing t = kit::time_runs(warmup, kFloorRuns, [&] {
          rt.queue.enqueueNDRangeKernel(empty, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
          rt.queue.enqueueReadBuffer(one, CL_TRUE, 0, sizeof x, &x);  // as the single-launch cascade reads its result
        });
        rows.push_back({"Latency floor", n, 1, 1, t});
      }
    }
    // The cascade against OpenMP once more at the largest size, alternately (A B A B ...), with the
    // ratio taken pair by pair: the two are bound by the same memory, and the quartiles say how far
    // one pair strays.
    kit::SpeedRatio vs_openmp;
    if (!no_openmp) {
      progress("CascadeDot / OpenMP, alternating, N = " + kit::format_count(n_max));
      lab06::Runner runner(rt, cascade_file, {n_max, cascade_local, cascade_groups, kit::DataKind::Reals, 1, false}, cascade_in);
      vs_openmp = kit::alternating_speed_ratio([&] { runner.run_once(); },
                                               [&] { kit::openmp_dot(in.a.data(), in.b.data(), n_max); }, kAlternatingPairs);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "\n");

    const std::string name = rt.device_name(), date = today();
    if (out_path.empty()) out_path = (std::filesystem::path("build") / "bench" / (slug(name) + "-" + date + ".csv")).string();
    if (std::filesystem::path(out_path).has_parent_path()) std::filesystem::create_directories(std::filesystem::path(out_path).parent_path());
    std::ofstream csv(out_path);
    csv << "device,platform,driver,compute_units,date,kernel,elements,local,groups,best_s,median_s,gnums_best,gnums_median,gbytes_per_s\n";
    const std::string platform = rt.platform.getInfo<CL_PLATFORM_NAME>().c_str(), driver = rt.device.getInfo<CL_DRIVER_VERSION>().c_str();
    for (const Row& r : rows) {
      char line[512];
      std::snprintf(line, sizeof line, "\"%s\",\"%s\",\"%s\",%u,%s,%s,%zu,%zu,%zu,%.9f,%.9f,%.4f,%.4f,%.3f\n", name.c_str(),
                    platform.c_str(), driver.c_str(), rt.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>(), date.c_str(),
                    r.kernel.c_str(), r.elements, r.local, r.groups, r.timing.best, r.timing.median,
                    r.elements / r.timing.best / 1e9, r.elements / r.timing.median / 1e9, 8.0 * r.elements / r.timing.best / 1e9);
      csv << line;
    }
    csv.close();
    // Headline ratios at the largest size.
    double lab03_best = 0, cascade = 0, roof = 0, openmp = 0, single_pass = 0;
    for (const Row& r : rows) {
      if (r.elements != n_max) continue;
      const double g = gnums(&r);
      if (r.kernel == "ArrayMultReduce") lab03_best = std::max(lab03_best, g);
      if (r.kernel == "CascadeDot") cascade = g;
      if (r.kernel == "SinglePassDot") single_pass = g;
      if (r.kernel == "StreamRead roof") roof = g;
      if (r.kernel == "OpenMP simd (host CPU)") openmp = g;
    }
    std::printf("Swept %zu sizes x %zu work-group sizes in %.1f s; wrote %s\n", ns.size(), wgs.size(), seconds, out_path.c_str());
    std::printf("At N = %s: ArrayMultReduce best %.2f GNum/s, CascadeDot %.2f, roof %.2f (%.1f GB/s)", kit::format_count(n_max).c_str(),
                lab03_best, cascade, roof, roof * 8);
    if (openmp > 0) std::printf(", OpenMP %.2f", openmp);
    std::printf(", SinglePassDot %.2f", single_pass);
    std::printf("\nRatios: cascade / roof = %.2f, single pass / roof = %.2f, cascade / ArrayMultReduce = %.2f", cascade / roof,
                single_pass / roof, cascade / lab03_best);
    if (openmp > 0) std::printf(", cascade / OpenMP = %.2f", cascade / openmp);
    std::printf("\n");
    print_single_pass_table(rows, ns, repeats);
    if (vs_openmp.pairs)
      std::printf("Cascade / OpenMP, alternating at N = %s: %.2f (median of %d pairs; middle half of the pairs %.2f .. %.2f)\n",
                  kit::format_count(n_max).c_str(), vs_openmp.median, vs_openmp.pairs, vs_openmp.lower_quartile,
                  vs_openmp.upper_quartile);
    return 0;
  });
}
