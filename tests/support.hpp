#pragma once
// Helpers the tests share: the one PoCL runtime, fixture paths, running a kit program.
#include <filesystem>
#include <string>

#include "kit/device.hpp"

namespace test {

// The default device (PoCL's CPU device), opened once for the whole test run.
const kit::Runtime& runtime();

std::filesystem::path data(const std::string& name);  // tests/data/<name>

struct Command {
  int exit_code;
  std::string output;  // stdout and stderr together
};
// Runs build/bin/<program> <args> through the shell.
Command run_program(const std::string& program, const std::string& args);

}  // namespace test
