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
// space ("global", "local", "constant" or "private"; images are global), the type without
// qualifiers ("float*", "image2d_t": const, restrict, volatile and read_only/write_only dropped),
// and whether it points to const data ("global const float *dA": the kernel only reads it).
struct ParamShape {
  std::string space;
  std::string type;
  bool const_data = false;
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

// "NAME: saved as UTF-16: save it as UTF-8" when `text` is UTF-16 or UTF-32 (its byte-order mark,
// or a NUL byte in its first two bytes), else "": such a file is no OpenCL C source as it stands.
std::string encoding_problem(const std::string& text, const std::string& shown_as);

// `text` as an editor shows it: a leading UTF-8 byte-order mark dropped and each lone CR (an old
// Mac line end) made LF, so that line and column numbers count as the editor does. CRLF is kept.
std::string editor_text(const std::string& text);

// Compiler messages rewritten to "file:LINE:COL: error: message" for the given file, whatever
// name the OpenCL compiler used for its temporary copy.
std::string rewrite_build_log(const std::string& log, const std::string& file);

// Releases the programs build_program keeps for `context` (it keeps the last few it built, so a
// program that runs case after case builds each once). kit::Runtime calls it as its last copy goes,
// before the context: Oclgrind's runtime frees a context at its last release even while programs
// still hold it, and a program released after that corrupts its heap.
void forget_built_programs(cl_context context);

// Options added to every build_program from this environment variable: the grader's witness sets it
// to -cl-opt-disable in a child that runs a case again with the device's optimizations off
// (grader/src/judge/witness.hpp), a child's environment being the grader's own.
inline constexpr const char* kExtraBuildOptionsVariable = "KIT_EXTRA_BUILD_OPTIONS";

// Compiles `file` for `device` with -cl-std=CL1.2 plus `options` (and $KIT_EXTRA_BUILD_OPTIONS). The source is prefixed with a
// #line directive so line numbers and the file name in messages are the student's; `shown_as`
// replaces the file's path in messages (the grader builds a private copy of a submission's file).
// The file is read as editor_text; a UTF-16 or UTF-32 file throws kit::Error (encoding_problem).
cl::Program build_program(const cl::Context& context, const cl::Device& device,
                          const std::filesystem::path& file, const std::string& options = "",
                          const std::string& shown_as = "");

// The kernel `signature.name` from `program`; throws kit::Error that names the expected signature
// when the kernel is missing, its parameters differ in number, address space or type, or a pointer
// the signature declares const (an input the kernel only reads) is not const.
cl::Kernel make_kernel(const cl::Program& program, const KernelSignature& signature,
                       const std::string& file);

}  // namespace kit
