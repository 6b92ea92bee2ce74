#pragma once
// Lab 04 host logic, shared by the lab's program and the grader: the five rungs of the
// tree-reduction ladder, each summing N ints on the device by repeated launches until one value
// remains, checked exactly against the host.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kit/device.hpp"
#include "kit/kernel_code.hpp"
#include "kit/program.hpp"
#include "kit/timing.hpp"
#include "kit/verdict.hpp"

namespace lab04 {

inline const std::string kLab = "04-tree-reductions";
inline const std::string kKernelFile = "TreeReductions.cl";

struct Rung {
  int number;
  std::string kernel;  // reduce1_interleaved_mod, ...
  std::string step;    // what it improves over the previous rung
  bool first_add;      // each work-item adds two elements while loading: a group covers 2L
};
const std::vector<Rung>& rungs();
const Rung& rung(int number);  // throws kit::Error for a number outside 1..5
kit::KernelSignature signature(const Rung& r);
std::vector<kit::KernelSignature> all_signatures();

struct Case {
  std::size_t elements = std::size_t(16) << 20;
  std::size_t local = 256;
  std::uint64_t seed = 1;
  int rung = 1;
  std::size_t per_group() const;  // elements one work-group reduces: L or 2L
};
// L must be a power of two >= 2 (with L = 1 rungs 1-3 never shrink the array), N >= 1.
void validate(const Case& c);

std::vector<std::int32_t> make_input(const Case& c);  // whole numbers -8..8

struct Outputs {
  std::vector<std::int32_t> first_pass;  // one sum per work-group of the first launch
  std::int64_t total = 0;
  int launches = 0;
  kit::Timing timing;  // all launches of one reduction, enqueue to finish
  kit::KernelCode kernel;       // the file's code and its build's warnings, for the diagnosis
};
// Builds the file with -D WG_SIZE=L, then reduces with the rung's kernel: launch after launch,
// ping-ponging between two scratch buffers (the input is never written), until one value remains.
Outputs run(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const Case& c,
            const std::vector<std::int32_t>& in, int warmup, int repeats, const std::string& shown_as = "");

struct Expected {
  std::vector<std::int64_t> first_pass;
  std::int64_t total = 0;
  int launches = 0;
};
Expected expected(const Case& c, const std::vector<std::int32_t>& in);

// The first difference in words ("work-group 3 of 17 after launch 1: expected 12, got 5"), or
// nullopt when everything matches; and a hint naming the typical mistake it matches.
std::optional<std::string> first_difference(const Case& c, const Outputs& out, const Expected& e);
std::string diagnose(const Case& c, const std::vector<std::int32_t>& in, const Outputs& out, const Expected& e);
// The lab's verdict on one rung's run (program --check, grader, tests): first_difference and diagnose.
kit::Verdict check(const Case& c, const std::vector<std::int32_t>& in, const Outputs& out, const Expected& e);

}  // namespace lab04
