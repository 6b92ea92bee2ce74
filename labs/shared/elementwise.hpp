#pragma once
// Host logic of the warm-up labs 01 (C = A * B) and 02 (D = A * B + C), which differ only in the
// data below: one work-item per element, the global size rounded up to a multiple of the local
// size, and the kernel guarding its index against n.
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

namespace elementwise {

struct Lab {
  std::string id;           // "01-array-mult"
  std::string title;        // "ArrayMult: C = A * B"
  std::string kernel_file;  // "ArrayMult.cl"
  kit::KernelSignature signature;
  int inputs;               // 2: A * B;  3: A * B + C
  std::string rate;         // "GigaMultiplies Per Second"
};
const Lab& array_mult();
const Lab& array_mult_add();

struct Case {
  std::size_t elements = std::size_t(1) << 20;
  std::size_t local = 64;
  kit::DataKind kind = kit::DataKind::Integers;
  std::uint64_t seed = 1;
  std::size_t global() const { return (elements + local - 1) / local * local; }  // rounded up
};
void validate(const Case& c);  // throws kit::Error naming the value

using Inputs = std::vector<std::vector<float>>;  // streams 1, 2 (and 3) of the seed
Inputs make_inputs(const Lab& lab, const Case& c);
// a*b (lab 01) or a*b+c (lab 02) in float: exact for integer data; for real data a*b is the
// correctly rounded product the device computes too, so lab 01 compares exactly either way.
std::vector<float> expected(const Lab& lab, const Inputs& in);

struct Outputs {
  std::vector<float> values;     // the n outputs
  std::optional<std::size_t> written_past_end;  // first index >= n the kernel wrote, if any
  kit::Timing timing;
};
// Builds and runs the kernel. The output buffer has one spare work-group of slots past n filled
// with a marker, so a kernel that does not guard its index is caught writing there.
Outputs run(const kit::Runtime& rt, const Lab& lab, const std::filesystem::path& kernel_file, const Case& c,
            const Inputs& in, int warmup, int repeats, const std::string& shown_as = "");

struct Mismatch {
  std::size_t index;
  double expected, got;
};
// The first output that differs from `want` (exact). For a * b + c the compiler may fuse the
// multiply and the add; the single-rounding fma result is accepted as well, from `in`.
std::optional<Mismatch> first_wrong(const std::vector<float>& want, const Outputs& out, const Inputs* in = nullptr);
std::string describe(const Lab& lab, const Case& c, const Outputs& out, const std::optional<Mismatch>& m);
std::string diagnose(const Lab& lab, const Inputs& in, const Outputs& out, const std::optional<Mismatch>& m);
// The lab's verdict on a run, used by the program's --check, the grader and the tests: every output
// exact and nothing written past the end, else what differs and the mistake it matches.
kit::Verdict check(const Lab& lab, const Case& c, const Inputs& in, const Outputs& out);

// The lab program's main: one case in detail, or a table over lists of sizes and local sizes.
int main(const Lab& lab, int argc, char** argv);

}  // namespace elementwise
