#include "kit/program.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>

#include "kit/build_service.hpp"

namespace kit {
namespace {

std::string escape_for_line_directive(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string without_spaces(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
  return s;
}

std::string space_name(cl_kernel_arg_address_qualifier q) {
  switch (q) {
    case CL_KERNEL_ARG_ADDRESS_GLOBAL: return "global";
    case CL_KERNEL_ARG_ADDRESS_LOCAL: return "local";
    case CL_KERNEL_ARG_ADDRESS_CONSTANT: return "constant";
    default: return "private";
  }
}

// "global float *dA": a parameter as the runtime reports it, written as a declaration.
std::string declared_as(const std::string& space, const std::string& type, const std::string& name) {
  const std::size_t star = std::min(type.find('*'), type.size());
  return space + " " + type.substr(0, star) + " " + type.substr(star) + name;
}

// The programs this process built last, by context, device, source and options: a program that
// runs case after case (the grader's child, a lab's table of sizes) builds each once. An OpenCL
// driver's own cache still reads, checks and loads a cached binary on every build; this skips that.
// Kept small: a lab needs a handful of option sets (lab 04: one per work-group size).
struct BuiltProgram {
  cl_context context;
  cl_device_id device;
  std::string source, options;
  cl::Program program;
};
constexpr std::size_t kProgramsKept = 16;
std::mutex built_mutex;
std::deque<BuiltProgram> built_programs;  // the newest first

std::optional<cl::Program> recently_built(const cl::Context& context, const cl::Device& device, const std::string& source,
                                          const std::string& options) {
  std::lock_guard<std::mutex> lock(built_mutex);
  for (const BuiltProgram& b : built_programs)
    if (b.context == context() && b.device == device() && b.options == options && b.source == source) return b.program;
  return std::nullopt;
}

void remember_built(const cl::Context& context, const cl::Device& device, const std::string& source, const std::string& options,
                    const cl::Program& program) {
  std::lock_guard<std::mutex> lock(built_mutex);
  built_programs.push_front({context(), device(), source, options, program});
  if (built_programs.size() > kProgramsKept) built_programs.pop_back();
}

}  // namespace

void forget_built_programs(cl_context context) {
  std::lock_guard<std::mutex> lock(built_mutex);
  built_programs.erase(std::remove_if(built_programs.begin(), built_programs.end(),
                                      [&](const BuiltProgram& b) { return b.context == context; }),
                       built_programs.end());
}

std::string KernelSignature::text() const {
  std::string s = "kernel void " + name + "(";
  for (std::size_t i = 0; i < params.size(); ++i) s += (i ? ", " : "") + params[i];
  return s + ")";
}

ParamShape param_shape(const std::string& declaration) {
  std::istringstream words(std::regex_replace(declaration, std::regex("\\*"), " * "));
  std::vector<std::string> tokens;
  for (std::string w; words >> w;) tokens.push_back(w);
  ParamShape shape{"private", "", false};
  if (!tokens.empty()) tokens.pop_back();  // the parameter's name
  for (std::string t : tokens) {
    if (t.rfind("__", 0) == 0) t = t.substr(2);
    if (t == "global" || t == "local" || t == "constant" || t == "private") shape.space = t;
    else if (t == "const" && shape.type.find('*') == std::string::npos) shape.const_data = true;  // before the *
    else if (t == "const" || t == "restrict" || t == "volatile") continue;
    else if (t == "read_only" || t == "write_only" || t == "read_write") continue;  // an image's access qualifier
    else shape.type += t;
  }
  if (shape.type.find('*') == std::string::npos) shape.const_data = false;  // "const uint n": a value, not data
  if (shape.type.rfind("image", 0) == 0) shape.space = "global";  // images live in global memory
  return shape;
}

BuildError::BuildError(const std::string& file_, std::string log_)
    : Error(file_ + " failed to compile:\n" + log_), file(file_), log(std::move(log_)) {}

std::string read_text_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("cannot read " + file.string() + " (does it exist?)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string encoding_problem(const std::string& text, const std::string& shown_as) {
  const auto starts = [&](const char* bytes, std::size_t n) { return text.compare(0, n, bytes, n) == 0; };
  std::string encoding;
  if (starts("\xFF\xFE\0\0", 4) || starts("\0\0\xFE\xFF", 4)) encoding = "UTF-32";
  else if (starts("\xFF\xFE", 2) || starts("\xFE\xFF", 2) || (text.size() >= 2 && (text[0] == '\0') != (text[1] == '\0')))
    encoding = "UTF-16";
  return encoding.empty() ? "" : shown_as + ": saved as " + encoding + ": save it as UTF-8";
}

std::string editor_text(const std::string& text) {
  std::string out = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? text.substr(3) : text;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i] == '\r' && (i + 1 == out.size() || out[i + 1] != '\n')) out[i] = '\n';
  return out;
}

std::string rewrite_build_log(const std::string& log, const std::string& file) {
  // PoCL writes "error: NAME:LINE:COL: message"; clang-based drivers "NAME:LINE:COL: error: message".
  static const std::regex pocl(R"(^(error|warning|note|remark): (.*?):(\d+):(\d+): (.*)$)");
  static const std::regex clang(R"(^(.*?):(\d+):(\d+): (error|warning|note|remark): (.*)$)");
  std::istringstream in(log);
  std::ostringstream out;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (std::regex_match(line, m, pocl))
      out << file << ':' << m[3] << ':' << m[4] << ": " << m[1] << ": " << m[5] << '\n';
    else if (std::regex_match(line, m, clang))
      out << file << ':' << m[2] << ':' << m[3] << ": " << m[4] << ": " << m[5] << '\n';
    else
      out << line << '\n';
  }
  return out.str();
}

cl::Program build_program(const cl::Context& context, const cl::Device& device,
                          const std::filesystem::path& file, const std::string& options,
                          const std::string& shown_as) {
  const std::string name = shown_as.empty() ? file.string() : shown_as;
  const std::string text = read_text_file(file);
  if (const std::string problem = encoding_problem(text, name); !problem.empty()) throw Error(problem);
  const std::string source = "#line 1 \"" + escape_for_line_directive(name) + "\"\n" + editor_text(text);
  const char* extra = std::getenv(kExtraBuildOptionsVariable);
  const std::string all_options = std::string(kClStd) + " -cl-kernel-arg-info " + options + (extra && *extra ? std::string(" ") + extra : "");
  if (std::optional<cl::Program> built = recently_built(context, device, source, all_options)) return *built;
  build_in_service(source, all_options);  // when the grader runs one: the build below then comes from PoCL's cache
  cl::Program program(context, source);
  try {
    program.build(std::vector<cl::Device>{device}, all_options.c_str());
  } catch (const cl::Error& e) {
    if (e.err() != CL_BUILD_PROGRAM_FAILURE) throw;
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    } catch (const cl::Error&) {
      log = "(the OpenCL driver gave no build log)";
    }
    throw BuildError(name, rewrite_build_log(log, name));
  }
  remember_built(context, device, source, all_options, program);
  return program;
}

namespace {

// The program's kernel names, asked for without CLHPP's string query: a driver that reports an
// empty list as zero bytes (NVIDIA's, for a file with no kernels) would make that query read
// before its buffer and crash.
std::string kernel_names(const cl::Program& program) {
  std::size_t count = 0;
  if (clGetProgramInfo(program(), CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr) != CL_SUCCESS || count == 0) return "";
  std::size_t bytes = 0;
  if (clGetProgramInfo(program(), CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &bytes) != CL_SUCCESS || bytes <= 1) return "";
  std::string names(bytes, '\0');
  if (clGetProgramInfo(program(), CL_PROGRAM_KERNEL_NAMES, bytes, names.data(), nullptr) != CL_SUCCESS) return "";
  names.resize(names.find('\0') == std::string::npos ? names.size() : names.find('\0'));
  return names;
}

}  // namespace

cl::Kernel make_kernel(const cl::Program& program, const KernelSignature& signature,
                       const std::string& file) {
  const std::string expected = "\nThe lab expects:\n    " + signature.text();
  // Asked first, not after a failed clCreateKernel: a driver may crash creating a kernel from a
  // program that has none (an empty file).
  const std::string found = kernel_names(program);
  std::vector<std::string> names;
  std::stringstream list(found);
  for (std::string name; std::getline(list, name, ';');) names.push_back(name);
  if (std::find(names.begin(), names.end(), signature.name) == names.end())
    throw Error(file + " has no kernel named '" + signature.name + "' (kernels found: " +
                (found.empty() ? "none" : found) + ")." + expected);
  cl::Kernel kernel;
  try {
    kernel = cl::Kernel(program, signature.name.c_str());
  } catch (const cl::Error& e) {
    if (e.err() != CL_INVALID_KERNEL_NAME) throw;
    throw Error(file + " has no kernel named '" + signature.name + "' (kernels found: " +
                (found.empty() ? "none" : found) + ")." + expected);
  }
  const cl_uint count = kernel.getInfo<CL_KERNEL_NUM_ARGS>();
  if (count != signature.params.size())
    throw Error(file + ": kernel '" + signature.name + "' takes " + std::to_string(count) +
                (count == 1 ? " parameter" : " parameters") + ", not " + std::to_string(signature.params.size()) + "." + expected);
  struct Declared {
    std::string space, type, name;
    cl_kernel_arg_type_qualifier qualifiers = 0;
  };
  std::vector<Declared> declared(count);
  for (cl_uint i = 0; i < count; ++i) try {
      declared[i].space = space_name(kernel.getArgInfo<CL_KERNEL_ARG_ADDRESS_QUALIFIER>(i));
      declared[i].type = without_spaces(kernel.getArgInfo<CL_KERNEL_ARG_TYPE_NAME>(i));
      declared[i].qualifiers = kernel.getArgInfo<CL_KERNEL_ARG_TYPE_QUALIFIER>(i);
      declared[i].name = kernel.getArgInfo<CL_KERNEL_ARG_NAME>(i);
    } catch (const cl::Error&) {
      return kernel;  // this driver keeps no argument information; the count check must do
    }
  const auto fits = [&](cl_uint i, cl_uint as) {
    const ParamShape want = param_shape(signature.params[as]);
    return declared[i].space == want.space && declared[i].type == want.type;
  };
  for (cl_uint i = 0; i < count; ++i) {
    const ParamShape want = param_shape(signature.params[i]);
    const std::string& space = declared[i].space, &type = declared[i].type, &name = declared[i].name;
    const cl_kernel_arg_type_qualifier qualifiers = declared[i].qualifiers;
    if (space != want.space || type != want.type) {
      // Two parameters in each other's place: said as such, with both (the same advice a kernel
      // under another name gets).
      for (cl_uint j = i + 1; j < count; ++j)
        if (fits(i, j) && fits(j, i))
          throw Error(file + ": parameters " + std::to_string(i + 1) + " and " + std::to_string(j + 1) + " of '" + signature.name +
                      "' are in each other's place: swap them. The lab passes " + signature.params[i] + " as parameter " +
                      std::to_string(i + 1) + " and " + signature.params[j] + " as parameter " + std::to_string(j + 1) + ", and '" +
                      signature.name + "' declares " + space + " " + type + " " + name + " and " + declared[j].space + " " +
                      declared[j].type + " " + declared[j].name + " there." + expected);
      throw Error(file + ": parameter " + std::to_string(i + 1) + " of '" + signature.name + "' is " +
                  space + " " + type + ", expected " + want.space + " " + want.type + " ('" +
                  signature.params[i] + "')." + expected);
    }
    // Only a missing const is refused: a const the lab does not ask for just stops the kernel writing there.
    if (want.const_data && !(qualifiers & CL_KERNEL_ARG_TYPE_CONST))
      throw Error(file + ": kernel " + signature.name + ", parameter " + std::to_string(i + 1) + " (" + name +
                  "): declared \"" + declared_as(space, type, name) + "\"; the lab's signature is \"" +
                  signature.params[i] + "\" (an input the kernel only reads is const)." + expected);
  }
  return kernel;
}

}  // namespace kit
