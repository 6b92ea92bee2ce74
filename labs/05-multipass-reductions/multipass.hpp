#pragma once
// Lab 05 host logic, shared by the lab's program and the grader: reduce N floats of any size to
// one value (sum, min or max) on the device with four multi-pass methods; the host only launches.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kit/data.hpp"
#include "kit/device.hpp"
#include "kit/kernel_code.hpp"
#include "kit/program.hpp"
#include "kit/timing.hpp"
#include "kit/verdict.hpp"

namespace lab05 {

inline const std::string kLab = "05-multipass-reductions";
inline const std::string kKernelFile = "MultipassReductions.cl";

enum class Op { Sum, Min, Max };
Op parse_op(const std::string& text);  // "sum", "min", "max"; kit::Error names anything else
std::string to_string(Op op);
// The build options that choose the operator: -D "OP(a,b)=..." -D IDENTITY=...
std::string build_options(Op op);

struct Method {
  std::string name;    // pairwise, window8, strided, pingpong
  std::string kernel;  // the kernel it launches
  std::string step;    // what it improves over the previous method
  bool in_place;       // works on a device copy of the input
};
const std::vector<Method>& methods();
const Method& method(const std::string& name);  // kit::Error lists the methods
std::vector<kit::KernelSignature> all_signatures();

struct Case {
  std::size_t elements = 1000003;
  std::size_t local = 256;
  kit::DataKind kind = kit::DataKind::Reals;
  std::uint64_t seed = 1;
  Op op = Op::Sum;
  std::string method = "pingpong";
};
void validate(const Case& c);  // L a power of two >= 2, N >= 1, a known method

std::vector<float> make_input(const Case& c);

struct Outputs {
  float result = 0;
  int passes = 0;
  bool input_unchanged = true;  // the input buffer read back after the runs
  kit::Timing timing;           // the copy (in-place methods) and every pass
  kit::KernelCode kernel;       // the file's code and its build's warnings, for the diagnosis
};
Outputs run(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c,
            const std::vector<float>& in, int warmup, int repeats, const std::string& shown_as = "");

int expected_passes(const Case& c);

struct Expected {
  double value = 0;  // min, max exactly; the sum in double
  double abs = 0;    // sum of |x|, for the rounding bound
};
Expected expected(const Case& c, const std::vector<float>& in);

// Min and max are exact. A sum of whole numbers is exact (every partial sum stays below 2^24 for
// the sizes used). A sum of reals: gamma_D * sum|x|, D the most additions any element goes
// through in the method: log2 N pairwise, 7 per pass in windows of 8, log2 L per pass in trees.
double tolerance(const Case& c, const Expected& e);

std::optional<std::string> difference(const Case& c, const Outputs& out, const Expected& e);
std::string diagnose(const Case& c, const std::vector<float>& in, const Outputs& out, const Expected& e);
// The lab's verdict on one method's run (program --check, grader, tests): difference and diagnose.
kit::Verdict check(const Case& c, const std::vector<float>& in, const Outputs& out, const Expected& e);

}  // namespace lab05
