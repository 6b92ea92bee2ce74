#include "kit/cli.hpp"

#include <iostream>

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

bool handle_list(const DeviceOptions& options) {
  if (!options.list) return false;
  print_device_list(std::cout);
  return true;
}

}  // namespace kit
