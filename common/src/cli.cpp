#include "kit/cli.hpp"

#include <cstdio>
#include <cstdlib>

#include <iostream>

#include "kit/errors.hpp"
#include "kit/launch.hpp"
#include "kit/paths.hpp"

namespace kit {

void add_device_options(CLI::App& app, DeviceOptions& options) {
  app.add_flag("--list", options.list, "List every OpenCL platform and device, then exit");
  app.add_option("-p,--platform", options.platform,
                 "Platform: index or case-insensitive name substring (default: PoCL if present)");
  app.add_option("-d,--device", options.device,
                 "Device: index or case-insensitive name substring (default: first CPU device)");
}

int parse_args(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return -1;
}

CLI::Option* add_kit_path_option(CLI::App& app, const std::string& name, std::filesystem::path& value, const std::string& description) {
  const std::string shown = value.lexically_relative(root()).generic_string();
  return app.add_option(name, value, description + " (default: " + shown + " in the kit)");
}

void add_kernel_options(CLI::App& app, KernelChoice& choice, const std::string& file_name) {
  app.add_option("-k,--kernel", choice.path, "Kernel file (default: this lab's " + file_name + ")");
  // The student release has no solutions/: it offers no option that would fail for want of one.
  // Nor does a kit this user cannot read (the grader's children run as nobody, and a kit cloned into
  // root's 0700 home is closed to them): they are given their kernel with -k.
  add_full_kit_flag(app, "--solution", choice.solution, "Use the finished kernel file from solutions/",
                    "give a kernel file with --kernel, or leave it out for this lab's " + file_name);
}

void add_full_kit_flag(CLI::App& app, const std::string& name, bool& flag, const std::string& description, const std::string& instead) {
  std::error_code unreadable;
  if (std::filesystem::is_directory(root() / "solutions", unreadable)) {
    app.add_flag(name, flag, description);
    return;
  }
  app.add_flag_callback(name, [name, instead] {
       throw Error(name + " is only in the full kit (this student release has no solutions/ folder); " + instead);
     })->group("");  // not in --help
}

std::filesystem::path chosen_kernel(const KernelChoice& choice, const std::string& lab, const std::string& file_name) {
  if (!choice.path.empty() && choice.solution) throw Error("give either --kernel or --solution, not both");
  report_crashes(lab);  // only lab programs choose a kernel file this way
  return choice.path.empty() ? lab_file(lab, file_name, choice.solution) : std::filesystem::path(choice.path);
}

void add_run_options(CLI::App& app, std::uint64_t& seed, int& warmup, int& repeats) {
  app.add_option("--seed", seed, "Seed of the deterministic input data")->capture_default_str();
  app.add_option("--warmup", warmup, "Untimed runs before timing")->capture_default_str()->check(CLI::NonNegativeNumber);
  app.add_option("--repeats", repeats, "Timed runs (best and median reported)")->capture_default_str()->check(CLI::PositiveNumber);
}

bool handle_list(const DeviceOptions& options) {
  if (!options.list) return false;
  print_device_list(std::cout);
  return true;
}

}  // namespace kit
