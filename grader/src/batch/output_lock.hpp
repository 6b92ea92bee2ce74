#pragma once
// One grader at a time writes an output folder: two runs into one OUT would share its scratch
// space and journal and grade each other's half-built kernels.
#include <filesystem>

namespace grader {

// Holds an exclusive lock on OUT/.grader.lock for as long as it lives (released by the kernel if
// the grader dies). Throws kit::Error naming the folder and the process that holds it. On a file
// system without locks it goes on unlocked.
class OutputLock {
 public:
  explicit OutputLock(const std::filesystem::path& out);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace grader
