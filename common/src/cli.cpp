#include "kit/cli.hpp"

#include <cstdio>
#include <cstdlib>

#include <iostream>
#include <memory>
#include <string>

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

namespace {

// Help that reads the same with every CLI11 the kit builds with: up to 2.3 an option's default is
// written TYPE=VALUE, from 2.4 (Debian 13) TYPE [VALUE]; the kit's documents quote the first.
// Otherwise CLI11's own: the type, the default, "...", REQUIRED, the environment variable, and
// the options it needs and excludes.
class KitHelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* opt) const override {
    std::string out;
    if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
    if (opt->get_type_size() != 0) {
      if (!opt->get_type_name().empty()) out += " " + get_label(opt->get_type_name());
      if (!opt->get_default_str().empty()) out += "=" + opt->get_default_str();
      if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) out += " ...";
      else if (opt->get_expected_min() > 1) out += " x " + std::to_string(opt->get_expected());
      if (opt->get_required()) out += " " + get_label("REQUIRED");
    }
    if (!opt->get_envname().empty()) out += " (" + get_label("Env") + ":" + opt->get_envname() + ")";
    if (!opt->get_needs().empty()) {
      out += " " + get_label("Needs") + ":";
      for (const CLI::Option* o : opt->get_needs()) out += " " + o->get_name();
    }
    if (!opt->get_excludes().empty()) {
      out += " " + get_label("Excludes") + ":";
      for (const CLI::Option* o : opt->get_excludes()) out += " " + o->get_name();
    }
    return out;
  }
};

void use_kit_help(CLI::App& app, const std::shared_ptr<CLI::Formatter>& help) {
  app.formatter(help);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) use_kit_help(*sub, help);
}

}  // namespace

int parse_args(CLI::App& app, int argc, char** argv) {
  use_kit_help(app, std::make_shared<KitHelpFormatter>());
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
