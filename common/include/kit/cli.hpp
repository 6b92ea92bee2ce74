#pragma once
// Command-line pieces every kit program shares (CLI11).
#include <CLI/CLI.hpp>

#include "kit/device.hpp"

namespace kit {

// Adds --list, -p/--platform and -d/--device.
void add_device_options(CLI::App& app, DeviceOptions& options);

// Parses the command line; on --help or a usage error prints what CLI11 prints for `app` and
// returns the exit status to leave with, else returns -1.
int parse_args(CLI::App& app, int argc, char** argv);

// Handles --list (prints the device table); returns true when the program should exit.
bool handle_list(const DeviceOptions& options);

}  // namespace kit
