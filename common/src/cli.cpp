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

void print_oclgrind_command(int argc, char** argv) {
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload && std::string(preload).find("oclgrind") != std::string::npos) return;  // already under it
  std::string oclgrind;
  for (const char* dir : {"/usr/bin", "/usr/local/bin"})
    if (std::filesystem::exists(std::filesystem::path(dir) / "oclgrind")) oclgrind = std::string(dir) + "/oclgrind";
  if (oclgrind.empty()) return;
  const auto quoted = [](const std::string& a) {
    if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:+") == std::string::npos)
      return a;
    std::string q = "'";
    for (const char ch : a) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
  };
  std::string command = "oclgrind --data-races --uniform-writes --uninitialized --build-options -O0";
  for (int i = 0; i < argc; ++i) command += " " + quoted(argv[i]);
  std::printf("To see the line behind it (an access out of bounds, a race, a barrier not every work-item reaches), run the same "
              "check under Oclgrind, which interprets every work-item (slow: a small -n keeps it to seconds):\n  %s\n",
              command.c_str());
}

void add_kernel_options(CLI::App& app, KernelChoice& choice, const std::string& file_name) {
  app.add_option("-k,--kernel", choice.path, "Kernel file (default: this lab's " + file_name + ")");
  // The student release has no solutions/: it offers no option that would fail for want of one.
  // Nor does a kit this user cannot read (the grader's children run as nobody, and a kit cloned into
  // root's 0700 home is closed to them): they are given their kernel with -k.
  std::error_code unreadable;
  if (std::filesystem::is_directory(root() / "solutions", unreadable))
    app.add_flag("--solution", choice.solution, "Use the finished kernel file from solutions/");
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
