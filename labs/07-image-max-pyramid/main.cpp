// Lab 07 host program: the maximum (or minimum) of a W x H float image by a pyramid of passes over
// OpenCL images, with 2 x 2 and 4 x 4 blocks; it prints every pass's size and time, the total,
// and the result against the host's, and can write every level as a PGM picture.
#include <cstdio>
#include <iostream>

#include "image_pyramid.hpp"
#include "kit/cli.hpp"
#include "kit/witness.hpp"
#include "kit/data.hpp"
#include "kit/errors.hpp"

int main(int argc, char** argv) {
  return kit::guarded_main([&] {
    CLI::App app{"Lab 07: the 2D image max pyramid (2 x 2 and 4 x 4 blocks, OpenCL images)"};
    kit::DeviceOptions device;
    kit::add_device_options(app, device);
    std::string width = "2048", height = "2048", block = "both", op = "max", data = "real", dump;
    lab07::Case c;
    bool check = false;
    int warmup = 1, repeats = 5;
    app.add_option("-W,--width", width, "Image width W, any size; suffixes K, Ki, ...")->capture_default_str();
    app.add_option("-H,--height", height, "Image height H, any size; suffixes K, Ki, ...")->capture_default_str();
    app.add_option("-b,--block", block, "Block size of a pass: 2, 4 or both")->capture_default_str();
    app.add_option("--op", op, "max, or min (builds the kernels with -D MIN_INSTEAD)")->capture_default_str();
    app.add_option("--data", data, "Image data: real (in [-1, 1)), int (whole numbers -8..8, ties) or negative (in [-2, 0))")
        ->capture_default_str();
    kit::KernelChoice kernel;
    kit::add_kernel_options(app, kernel, lab07::kKernelFile);
    app.add_flag("--check", check, "Check every level texel by texel and the result; exit 1 if one is wrong");
    app.add_option("--dump", dump, "Write every level as a binary PGM (8-bit grey, each level scaled to its own min..max) into this folder");
    std::size_t local = 0;  // taken only to explain why it is not a choice here
    CLI::Option* local_option = app.add_option("-l,--local", local, "Not a choice in this lab: work-groups are 16 x 16 work-items");
    kit::add_run_options(app, c.seed, warmup, repeats);
    if (const int status = kit::parse_args(app, argc, argv); status >= 0) return status;
    if (local_option->count() > 0)
      throw kit::Error("local size " + std::to_string(local) + ": this lab takes no --local, its work-groups are fixed at " +
                       std::to_string(lab07::kTile) + " x " + std::to_string(lab07::kTile) +
                       " work-items, one per output texel of a tile (the host rounds each pass up to whole tiles)");
    if (kit::handle_list(device)) return 0;
    c.width = kit::parse_count(width);
    c.height = kit::parse_count(height);
    c.op = lab07::parse_op(op);
    c.data = lab07::parse_data(data);
    std::vector<int> blocks;
    if (block == "both") blocks = {2, 4};
    else if (block == "2" || block == "4") blocks = {block[0] - '0'};
    else throw kit::Error("--block '" + block + "' is not one of: 2, 4, both");
    for (int b : blocks) {
      c.block = b;
      lab07::validate(c);
    }
    const std::filesystem::path file = kit::chosen_kernel(kernel, lab07::kLab, lab07::kKernelFile);
    if (!dump.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(dump, ec);
      if (!std::filesystem::is_directory(dump)) throw kit::Error("--dump: cannot create the folder " + dump);
    }

    const kit::Runtime rt = kit::Runtime::open(device);
    std::cout << "Device: " << rt.summary() << "\nKernel: " << file.string() << "\n"
              << "The " << op << " of a " << c.width << " x " << c.height << " image (" << kit::format_count(c.width * c.height)
              << " texels, " << lab07::to_string(c.data) << " data); best of " << repeats
              << " runs; pass times are the kernels' own, from profiling events\n";
    lab07::check_device(rt, c);  // before the input is made: a side too large for images stops here
    const std::vector<float> in = lab07::make_input(c);
    int status = 0;
    std::vector<std::string> problems;
    std::vector<std::string> dumped;  // what --dump wrote, in words
    std::size_t dumped_files = 1;     // the input, written once
    for (int b : blocks) {
      c.block = b;
      const lab07::Outputs out = lab07::run(rt, file, c, in, warmup, repeats);
      const std::vector<lab07::Level> host = lab07::host_pyramid(c, in);
      const lab07::Expected e = lab07::expected(c, host);
      std::printf("\n%dx%d blocks (%s): %d passes\n", b, b, lab07::kernel_name(b).c_str(), out.passes);
      std::printf("%6s %13s    %-13s %10s\n", "pass", "source", "result", "time (ms)");
      double sum = 0;
      for (int p = 0; p < out.passes; ++p) {
        const lab07::Level& from = p == 0 ? host[0] : out.levels[std::size_t(p) - 1];
        const lab07::Level& to = out.levels[std::size_t(p)];
        char source[32], result[32];
        std::snprintf(source, sizeof source, "%zu x %zu", from.width, from.height);
        std::snprintf(result, sizeof result, "%zu x %zu", to.width, to.height);
        std::printf("%6d %13s -> %-13s %10.3f\n", p + 1, source, result, out.pass_seconds[std::size_t(p)] * 1e3);
        sum += out.pass_seconds[std::size_t(p)];
      }
      std::printf("%34s %10.3f\n", "sum of the passes", sum * 1e3);
      std::printf("%34s %10.3f\n", "total, enqueue to finish", out.timing.best * 1e3);
      std::string verdict;
      if (check) {
        const kit::Verdict v = lab07::check(c, lab07::summarize(out, host), e, &host);
        verdict = v.pass ? "  ok" : "  FAIL";
        if (!v.pass) {
          status = 1;
          problems.push_back(std::to_string(b) + "x" + std::to_string(b) + ": " + v.message +
                             (v.hint.empty() ? "" : "\n        hint: " + v.hint));
        }
      }
      std::printf("result %.9g, host %s %.9g%s\n", out.result, op.c_str(), e.value, verdict.c_str());
      if (!dump.empty()) {
        const std::filesystem::path dir(dump);
        if (dumped.empty()) {  // the input once, whatever the block sizes
          lab07::write_pgm(dir / ("input_" + std::to_string(c.width) + "x" + std::to_string(c.height) + ".pgm"), host[0],
                           "lab 07 input, " + lab07::to_string(c.data) + " data, seed " + std::to_string(c.seed));
          dumped.push_back("the input");
        }
        for (std::size_t k = 0; k < out.levels.size(); ++k) {
          const lab07::Level& level = out.levels[k];
          char name[96];
          std::snprintf(name, sizeof name, "%s%dx%d_level%02zu_%zux%zu.pgm", op.c_str(), b, b, k + 1, level.width,
                        level.height);
          lab07::write_pgm(dir / name, level,
                           "lab 07 " + op + " pyramid, " + std::to_string(b) + "x" + std::to_string(b) + " blocks, level " +
                               std::to_string(k + 1));
        }
        dumped.push_back(std::to_string(out.levels.size()) + " levels of the " + std::to_string(b) + "x" + std::to_string(b) + " pyramid");
        dumped_files += out.levels.size();
      }
    }
    if (!dump.empty()) {
      std::string what;
      for (std::size_t k = 0; k < dumped.size(); ++k)
        what += (k == 0 ? "" : k + 1 == dumped.size() ? " and " : ", ") + dumped[k];
      std::printf("\nwrote %zu files to %s: %s\n", dumped_files, dump.c_str(), what.c_str());
    }
    for (const std::string& p : problems) std::printf("CHECK FAILED %s\n", p.c_str());
    if (status)
      return kit::witness_failed_check(argc, argv, lab07::kWitness, {c.width, c.height}, file.string(),
                                       rt.summary(), status);
    return status;
  });
}
