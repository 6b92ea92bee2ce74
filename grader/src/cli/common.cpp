// What the subcommands share: lab lists, scratch folders, device flags.
#include <stdlib.h>

#include <sstream>
#include <thread>

#include "cli/command.hpp"
#include "tools/doctor.hpp"
#include "isolation/child_user.hpp"
#include "isolation/devices.hpp"
#include "kit/errors.hpp"

namespace grader::cli {

std::vector<std::string> split_labs(const std::vector<std::string>& items) {
  std::vector<std::string> labs;
  for (const std::string& item : items) {
    std::stringstream parts(item);
    for (std::string lab; std::getline(parts, lab, ',');)
      if (!lab.empty()) labs.push_back(lab);
  }
  return labs;
}

BatchOptions batch_options(const Globals& g, const std::filesystem::path& submissions, const std::filesystem::path& out,
                           const std::vector<std::string>& labs) {
  BatchOptions o;
  o.submissions = submissions;
  o.out = out;
  o.references = g.reference_dir;
  o.specs = load_specs(g.specs_dir, split_labs(labs));
  return o;
}

int machine_cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

std::filesystem::path self_exe() { return std::filesystem::read_symlink("/proc/self/exe"); }

Scratch::Scratch(const std::string& what) {
  std::string pattern = (std::filesystem::temp_directory_path() / ("kit-grader-" + what + "-XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw kit::Error("cannot create a scratch folder in " + std::filesystem::temp_directory_path().string());
  path = pattern;
}

Scratch::~Scratch() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

void DeviceFlags::add_to(CLI::App* app) {
  app->add_option("-p,--platform", one.platform, "Grade on this platform: index or name substring (default: PoCL)");
  app->add_option("-d,--device", one.device, "Grade on this device of the platform: index or name substring");
  app->add_option("--devices", list, "Grade on several devices, right on each: PLATFORM[:DEVICE],... e.g. pocl,nvidia");
}

std::vector<kit::DeviceOptions> DeviceFlags::chosen() const {
  if (!list.empty()) {
    if (!one.platform.empty() || !one.device.empty()) throw kit::Error("give either -p/-d or --devices, not both");
    return parse_devices(list);
  }
  if (one.platform.empty() && one.device.empty()) return {};
  return {one};
}

std::vector<kit::DeviceOptions> DeviceFlags::checked() const {
  const std::vector<kit::DeviceOptions> devices = chosen();
  for (const kit::DeviceOptions& d : devices) kit::choose_device(kit::describe_machine(), d);
  return devices;
}

std::vector<std::string> DeviceFlags::as_args() const {
  std::vector<std::string> args;
  if (!list.empty()) args.insert(args.end(), {"--devices", list});
  if (!one.platform.empty()) args.insert(args.end(), {"-p", one.platform});
  if (!one.device.empty()) args.insert(args.end(), {"-d", one.device});
  return args;
}

void OclgrindFlags::add_to(CLI::App* app) {
  app->add_flag("--no-oclgrind", no_oclgrind,
                "Leave out everything that runs under Oclgrind: the look at every case's shape, the memory-safety and the algorithm "
                "lines (every case is then judged on the device alone), for a machine without Oclgrind (a GPU node)");
  app->add_flag("--no-races", no_races,
                "Leave out the memory-safety lines (every case is still run under Oclgrind at its own shape, and the algorithm lines still run)");
  app->add_option("--device-disagrees-share", device_disagrees_share,
                  "Share (0 to 1) of its points that a case earns when the device got it wrong and Oclgrind computed it right "
                  "with no finding (status device-disagrees; default: the spec's device_disagrees_share, 1)")
      ->check(CLI::Range(0.0, 1.0));
}

OclgrindChecks OclgrindFlags::checks() const {
  if (no_oclgrind) return OclgrindChecks::None;
  return no_races ? OclgrindChecks::AlgorithmOnly : OclgrindChecks::All;
}

GradingOptions OclgrindFlags::options(int pocl_threads, std::vector<kit::DeviceOptions> devices) const {
  GradingOptions o;
  o.pocl_threads = pocl_threads;
  o.oclgrind = checks();
  o.devices = std::move(devices);
  o.device_disagrees_share = device_disagrees_share;
  return o;
}

void OclgrindFlags::require_working() const {
  if (no_oclgrind) return;
  if (const std::string problem = oclgrind_problem(self_exe()); !problem.empty())
    throw kit::Error("Oclgrind does not work here, and every case is looked at under it: " + problem +
                     ". Run grader doctor to see what else it finds, or grade with --no-oclgrind (every case is then judged on the device alone)");
}

std::vector<std::string> OclgrindFlags::as_args() const {
  std::vector<std::string> args;
  if (no_races) args.push_back("--no-races");
  if (no_oclgrind) args.push_back("--no-oclgrind");
  if (device_disagrees_share >= 0) args.insert(args.end(), {"--device-disagrees-share", std::to_string(device_disagrees_share)});
  return args;
}

void RunAsFlag::add_to(CLI::App* app) {
  app->add_option("--run-as", user,
                  "Run the children that build and run kernels as this user when the grader runs as root "
                  "(default: nobody); they can write into their own folder only");
}

void RunAsFlag::apply() const { use_child_user(checked_child_user(user)); }

std::vector<std::string> RunAsFlag::as_args() const {
  if (user.empty()) return {};
  return {"--run-as", user};
}

}  // namespace grader::cli
