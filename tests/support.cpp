#include "support.hpp"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <stdexcept>

namespace test {

const kit::Runtime& runtime() {
  static const kit::Runtime rt = kit::Runtime::open({});
  return rt;
}

std::filesystem::path data(const std::string& name) { return std::filesystem::path(KIT_TEST_DATA) / name; }

Command run_program(const std::string& program, const std::string& args) {
  const std::string cmd = std::string(KIT_BIN_DIR) + "/" + program + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + cmd);
  Command result{0, ""};
  std::array<char, 4096> buffer;
  while (std::size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace test
