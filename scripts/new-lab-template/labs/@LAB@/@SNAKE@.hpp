#pragma once
// Lab @NN@ host logic, shared by the lab's program, the grader and the tests: run one case of the
// @KERNEL@ kernel (dB[i] = dA[i] * dA[i], one work-item per element) and check its outputs.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kit/data.hpp"
#include "kit/device.hpp"
#include "kit/program.hpp"
#include "kit/timing.hpp"
#include "kit/verdict.hpp"

namespace lab@NN@ {

inline const std::string kLab = "@LAB@";
inline const std::string kKernelFile = "@KERNEL@.cl";
inline const kit::KernelSignature kSignature{"@KERNEL@", {"global const float *dA", "global float *dB", "const int n"}};

struct Case {
  std::size_t elements = std::size_t(1) << 20;  // N
  std::size_t local = 64;                       // L, the work-group size
  kit::DataKind kind = kit::DataKind::Integers;
  std::uint64_t seed = 1;
  std::size_t global() const { return (elements + local - 1) / local * local; }  // rounded up
};
void validate(const Case& c);  // throws kit::Error naming the value at fault

std::vector<float> make_input(const Case& c);  // stream 1 of the case's seed
// dA[i] * dA[i] in float: the correctly rounded product the device computes too, so every output
// compares exactly, integer and real data alike.
std::vector<float> expected(const std::vector<float>& a);

struct Outputs {
  std::vector<float> values;                    // the N outputs (NaN: never written)
  std::optional<std::size_t> written_past_end;  // the first index >= N the kernel wrote, if any
  kit::Timing timing;
};
// Builds and runs the kernel `warmup` + `repeats` times. dB has one spare work-group of slots past
// N filled with a marker, so a kernel that does not guard its index is caught writing there.
Outputs run(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c, const std::vector<float>& a,
            int warmup, int repeats, const std::string& shown_as = "");

// The lab's verdict, used by the program's --check, the grader and the tests: every output equal
// to the host's and nothing written past the end, else the first difference and a hint.
kit::Verdict check(const Case& c, const std::vector<float>& a, const Outputs& out);

}  // namespace lab@NN@
