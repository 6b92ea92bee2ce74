#pragma once
// Building a kernel file so that compiler messages point at that file, and creating a kernel
// whose name and parameters are checked against the signature a lab expects.
#include <filesystem>
#include <string>
#include <vector>

#include "kit/errors.hpp"
#include "kit/opencl.hpp"

namespace kit {

// A kernel's expected signature, each parameter written as in OpenCL C:
// {"ArrayMultReduce", {"global const float *dA", ..., "local float *prods", ...}}.
struct KernelSignature {
  std::string name;
  std::vector<std::string> params;
  std::string text() const;  // "kernel void ArrayMultReduce(global const float *dA, ...)"
};

// What the OpenCL runtime reports for a parameter, parsed from its declaration: the address
// space ("global", "local", "constant" or "private"; images are global) and the type without
// qualifiers ("float*", "image2d_t": const, restrict, volatile and read_only/write_only dropped).
struct ParamShape {
  std::string space;
  std::string type;
};
ParamShape param_shape(const std::string& declaration);

// Thrown when the OpenCL compiler rejects a kernel file; what() is the rewritten build log.
struct BuildError : Error {
  BuildError(const std::string& file, std::string log);
  std::string file;
  std::string log;
};

// Reads a file whole; throws kit::Error naming the file when it cannot.
std::string read_text_file(const std::filesystem::path& file);

// Compiler messages rewritten to "file:LINE:COL: error: message" for the given file, whatever
// name the OpenCL compiler used for its temporary copy.
std::string rewrite_build_log(const std::string& log, const std::string& file);

// Compiles `file` for `device` with -cl-std=CL1.2 plus `options`. The source is prefixed with a
// #line directive so line numbers and the file name in messages are the student's; `shown_as`
// replaces the file's path in messages (the grader builds a private copy of a submission's file).
cl::Program build_program(const cl::Context& context, const cl::Device& device,
                          const std::filesystem::path& file, const std::string& options = "",
                          const std::string& shown_as = "");

// The kernel `signature.name` from `program`; throws kit::Error that names the expected signature
// when the kernel is missing or its parameters differ in number or address space.
cl::Kernel make_kernel(const cl::Program& program, const KernelSignature& signature,
                       const std::string& file);

}  // namespace kit
