#pragma once
// Looking at a submission before anything is built: finding a lab's kernel file in it and
// screening that file (size, text, no #include, the expected kernels declared).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kit/program.hpp"

namespace grader {

inline constexpr std::size_t kMaxKernelBytes = 64 * 1024;

struct FoundKernel {
  std::filesystem::path path;      // absolute
  std::string relative;            // inside the submission, as shown to people
  std::vector<std::string> others; // further files of the same name that were not used
};

// The file called `name` anywhere under `root` (links are not followed): the shallowest one,
// then the first in path order. nullopt when there is none. `others` lists the further files called
// `name`, then those near_kernel_names finds (ArrayMultReduce (1).cl beside ArrayMultReduce.cl).
std::optional<FoundKernel> find_kernel(const std::filesystem::path& root, const std::string& name);

// The files under `root` named `name` up to case, spaces, a copy suffix before the extension
// (" (1)", "(2)", "-1", " copy") and a ".txt" after it: for ArrayMultReduce.cl, arraymultreduce.cl,
// "ArrayMultReduce (1).cl", "Array Mult Reduce.cl", ArrayMultReduce-2.cl, ArrayMultReduce.cl.txt.
// A file called exactly `name` is not one. Paths relative to `root`, the shallowest first, then in
// path order; links are not followed.
std::vector<std::string> near_kernel_names(const std::filesystem::path& root, const std::string& name);

// What a submission with no file called `name` is told: "found arraymultreduce.cl; expected
// ArrayMultReduce.cl" (every near name, comma-separated) when near_kernel_names finds some, else
// "no file named ArrayMultReduce.cl in the submission".
std::string missing_kernel_message(const std::filesystem::path& root, const std::string& name);

// Problems that stop a kernel file from being built, each naming the line or byte at fault: over
// kMaxKernelBytes, UTF-16 or UTF-32 (kit::encoding_problem), a NUL byte (binary file), invalid UTF-8,
// a preprocessor directive that reads other files (#include, #include_next, #import, #embed), or an
// expected kernel not declared. Lines count as in kit::editor_text (a UTF-8 byte-order mark, CRLF
// and lone CR line ends are fine).
std::vector<std::string> screen_kernel_source(const std::string& text, const std::string& shown_as,
                                              const std::vector<kit::KernelSignature>& kernels);

}  // namespace grader
