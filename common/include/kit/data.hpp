#pragma once
// Deterministic input data. Element i of stream s under seed k is a pure function of (k, s, i),
// built from integer arithmetic only, so every machine and compiler produces the same arrays.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kit {

enum class DataKind {
  Integers,  // whole numbers -8..8 stored as floats: every product and partial sum is exact
  Reals,     // multiples of 2^-23 in [-1, 1): exact floats, sums need a rounding tolerance
  Units,     // whole numbers -1, 0, 1: a sum of up to 2^24 products is exact in float, in any order
  Negatives, // multiples of 2^-23 in [-2, -1): a max that starts from 0 instead of -INFINITY shows
  Positives, // multiples of 2^-23 in [1, 2): a min that starts from 0 instead of +INFINITY shows
};

// "int", "real", "unit", "negative" or "positive"; throws kit::Error naming the value otherwise.
DataKind parse_data_kind(const std::string& text);
std::string to_string(DataKind kind);

std::uint64_t splitmix64(std::uint64_t x);
float data_value(DataKind kind, std::uint64_t seed, std::uint64_t stream, std::uint64_t index);
std::vector<float> make_data(DataKind kind, std::uint64_t seed, std::uint64_t stream,
                             std::size_t count);

// Whole numbers in [low, high] for a lab whose buffers hold integers (a histogram's bins, a
// scan of counts): element i of stream s under seed k, a pure function of (k, s, i) as above, each
// value of the range about equally likely. Throws kit::Error naming the range when low > high.
std::int32_t int_value(std::uint64_t seed, std::uint64_t stream, std::uint64_t index, std::int32_t low, std::int32_t high);
std::vector<std::int32_t> make_int_data(std::uint64_t seed, std::uint64_t stream, std::size_t count, std::int32_t low, std::int32_t high);

// "8M" = 8'000'000, "1Mi" = 1'048'576, "4096", "2Gi"; throws kit::Error naming the text when it
// is not a positive count.
std::size_t parse_count(const std::string& text);
// A value as people read it in messages: 9 significant digits ("%.9g"), enough to tell floats apart.
std::string format_number(double value);
// 8388608 -> "8Mi", 8000000 -> "8M", 1000 -> "1K", 1234 -> "1234"
std::string format_count(std::size_t count);

}  // namespace kit
