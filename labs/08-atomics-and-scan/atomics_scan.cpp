#include "atomics_scan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "atomics_scan_detail.hpp"
#include "kit/buffer.hpp"
#include "kit/data.hpp"
#include "kit/errors.hpp"
#include "kit/local_size.hpp"
#include "kit/reference.hpp"

namespace lab08 {
using namespace detail;


// ---- Kernels and parts --------------------------------------------------------------------------

const std::vector<kit::KernelSignature>& signatures() {
  static const std::vector<kit::KernelSignature> all = {
      {"sum_tree", {"global const float *in", "global float *partials", "local float *scratch", "const uint n"}},
      {"sum_int_atomic", {"global const int *in", "global int *total", "local int *scratch", "const uint n"}},
      {"sum_float_atomic", {"global const float *in", "global float *total", "local float *scratch", "const uint n"}},
      {"sum_naive", {"global const float *in", "global float *sums", "const uint n", "const uint run"}},
      {"sum_kahan", {"global const float *in", "global float *sums", "const uint n", "const uint run"}},
      {"scan_blocks", {"global const int *in", "global int *out", "global int *block_sums", "local int *scratch",
                       "const uint n", "const uint inclusive"}},
      {"add_block_offsets", {"global int *out", "global const int *offsets", "const uint n"}},
      {"compact_flags", {"global const int *in", "global int *flags", "const uint n"}},
      {"compact_scatter", {"global const int *in", "global const int *positions", "global int *out", "global int *count",
                           "const uint n"}},
      {"dot_single_pass", {"global const float *dA", "global const float *dB", "local float *scratch", "global float *partials",
                           "global uint *ticket", "global float *result", "const uint n"}},
  };
  return all;
}

const kit::KernelSignature& signature(const std::string& kernel) {
  std::string known;
  for (const kit::KernelSignature& s : signatures()) {
    if (s.name == kernel) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw kit::Error("lab 08 has no kernel '" + kernel + "' (its kernels: " + known + ")");
}

const std::vector<Part>& parts() {
  static const std::vector<Part> all = {Part::AtomicInt,     Part::AtomicFloat,   Part::Accuracy,
                                        Part::ScanExclusive, Part::ScanInclusive, Part::Compact,
                                        Part::SinglePass};
  return all;
}

std::string to_string(Part part) {
  switch (part) {
    case Part::AtomicInt: return "atomic-int";
    case Part::AtomicFloat: return "atomic-float";
    case Part::Accuracy: return "accuracy";
    case Part::ScanExclusive: return "scan-exclusive";
    case Part::ScanInclusive: return "scan-inclusive";
    case Part::Compact: return "compact";
    case Part::SinglePass: return "single-pass";
  }
  return "";
}

Part parse_part(const std::string& text) {
  std::string known;
  for (Part p : parts()) {
    if (to_string(p) == text) return p;
    known += (known.empty() ? "" : ", ") + to_string(p);
  }
  throw kit::Error("part '" + text + "' is not one of: " + known);
}

void validate(const Case& c) {
  kit::LocalSizeRule rule;
  rule.least = 2;
  rule.least_why = "the scan's sweeps pair elements, so a block needs at least two";
  rule.power_of_two = true;
  rule.power_why = "the trees halve their stride down to 1 and the scan's sweeps pair elements 2d apart, which covers "
                   "every element only in a block of 2, 4, 8, ... work-items";
  rule.most = 4096;
  rule.most_why = "the lab is written for blocks of 2 to 4096 work-items (README), the most PoCL allows in a work-group";
  kit::require_local_size(c.local, rule);
  if (c.elements == 0) throw kit::Error("element count 0: there is nothing to sum or scan");
  if (c.elements > kMaxElements)
    throw kit::Error("element count " + str(c.elements) + " is above 2^27 = " + str(kMaxElements) +
                     ": sums and scans of ints up to 8 in size could then overflow 32 bits");
  if (c.run < 2 || c.run > kMaxRun || !power_of_two(c.run))
    throw kit::Error("run length " + str(c.run) + " must be a power of two from 2 to 2^20 = " + str(kMaxRun) +
                     " (the pairwise sum reduces a run in tree passes of up to L elements)");
  if (c.positive && c.part != Part::AtomicInt && c.part != Part::AtomicFloat)
    throw kit::Error("positive data: only the atomic parts (atomic-int, atomic-float) take it");
  if (c.groups != 0 && c.part != Part::SinglePass) throw kit::Error("groups: only the single-pass part takes a work-group count");
  if (c.part == Part::SinglePass && c.groups > (std::size_t(1) << 20))
    throw kit::Error("groups " + str(c.groups) + ": at most 2^20 work-groups for the single-pass dot product");
  if (c.part == Part::AtomicFloat && ceil_div(c.elements, c.local) > (std::size_t(1) << 23))
    throw kit::Error(str(ceil_div(c.elements, c.local)) + " work-groups: the float total's rounding bound gamma_(G-1) "
                     "needs G below 2^23; use a larger local size");
}

// ---- Data ---------------------------------------------------------------------------------------

std::vector<std::int32_t> make_ints(const Case& c) {
  const std::vector<float> v = kit::make_data(kit::DataKind::Integers, c.seed, 8, c.elements);
  std::vector<std::int32_t> ints(v.begin(), v.end());
  if (c.positive)
    for (std::int32_t& x : ints) x = std::max(1, std::abs(x));
  return ints;
}

std::vector<float> make_reals(const Case& c) { return kit::make_data(kit::DataKind::Reals, c.seed, 8, c.elements); }

std::vector<float> make_whole_floats(const Case& c) {
  const std::vector<std::int32_t> ints = make_ints(c);
  return std::vector<float>(ints.begin(), ints.end());
}

float accuracy_value(std::uint64_t seed, std::uint64_t index) {
  const std::uint64_t bits = kit::splitmix64(kit::splitmix64(seed * 0x100000001B3ull + 8) ^ index);
  const auto significand = static_cast<std::uint32_t>(bits >> 40) | 0x800000u;  // 24 bits, the top one set
  const bool large = (bits & 0xFF) == 0;                                          // 1 in 256
  const int binade = large ? 8 + int((bits >> 8) & 3) : -20 + int((bits >> 8) & 7);
  return std::ldexp(static_cast<float>(significand), binade - 23);  // in [2^binade, 2^(binade+1)), exact
}

std::vector<float> make_accuracy_data(const Case& c) {
  std::vector<float> v(c.elements);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = accuracy_value(c.seed, i);
  return v;
}

// ---- Running on the device ----------------------------------------------------------------------

Runner::Runner(const kit::Runtime& rt, const std::filesystem::path& kernel_file, const std::string& shown_as)
    : rt_(rt),
      shown_as_(shown_as.empty() ? kernel_file.string() : shown_as),
      program_(kit::build_program(rt.context, rt.device, kernel_file, "", shown_as_)) {}

cl::Buffer Runner::buffer(cl_mem_flags flags, std::size_t bytes, const void* host) {
  cl::Buffer b = kit::make_buffer(rt_, flags, bytes, host);
  if (retain_) retained_.push_back(b);
  return b;
}

cl::Buffer Runner::input(std::size_t bytes, const void* host) {
  for (const KeptInput& k : inputs_)
    if (k.host == host && k.bytes == bytes) return k.buffer;
  cl::Buffer b = buffer(CL_MEM_READ_ONLY, bytes, host);
  if (keep_inputs_) inputs_.push_back({host, bytes, b});
  return b;
}

cl::Kernel Runner::kernel(const std::string& name, std::size_t local, std::size_t local_bytes) {
  cl::Kernel k = kit::make_kernel(program_, signature(name), shown_as_);
  if (local > 0) kit::check_local_size(rt_.device, k, local, local_bytes);
  return k;
}

}  // namespace lab08
