#pragma once
// Command-line pieces every kit program shares (CLI11).
#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <string>

#include "kit/device.hpp"

namespace kit {

// Adds --list, -p/--platform and -d/--device.
void add_device_options(CLI::App& app, DeviceOptions& options);

// Parses the command line; on --help or a usage error prints what CLI11 prints for `app` and
// returns the exit status to leave with, else returns -1.
int parse_args(CLI::App& app, int argc, char** argv);

// -k/--kernel PATH and --solution, which every lab program takes.
struct KernelChoice {
  std::string path;
  bool solution = false;
};
void add_kernel_options(CLI::App& app, KernelChoice& choice, const std::string& file_name);
// A flag that needs the kit's solutions/ folder: offered as usual in the full kit. In the student
// release, which has none, --help leaves it out, and a command that gives it stops (kit::Error, exit
// 1) with "NAME is only in the full kit ...; " followed by `instead`, what to run there instead.
void add_full_kit_flag(CLI::App& app, const std::string& name, bool& flag, const std::string& description, const std::string& instead);
// The kernel file to build: PATH, or the lab's file in solutions/ or labs/. Throws kit::Error when
// both --kernel and --solution are given.
std::filesystem::path chosen_kernel(const KernelChoice& choice, const std::string& lab, const std::string& file_name);

// An option whose default is a folder or file in the kit: its help gives the default from the kit's
// root ("(default: grader/specs in the kit)"), so that the help reads the same in every checkout.
CLI::Option* add_kit_path_option(CLI::App& app, const std::string& name, std::filesystem::path& value, const std::string& description);

// --seed (of the deterministic input data), --warmup (untimed runs) and --repeats (timed runs),
// with the caller's defaults.
void add_run_options(CLI::App& app, std::uint64_t& seed, int& warmup, int& repeats);

// Handles --list (prints the device table); returns true when the program should exit.
bool handle_list(const DeviceOptions& options);

}  // namespace kit
