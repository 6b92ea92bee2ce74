#include "kit/data.hpp"

#include <cctype>
#include <cstdio>
#include <limits>

#include "kit/errors.hpp"

namespace kit {

DataKind parse_data_kind(const std::string& text) {
  if (text == "int") return DataKind::Integers;
  if (text == "real") return DataKind::Reals;
  if (text == "unit") return DataKind::Units;
  if (text == "negative") return DataKind::Negatives;
  if (text == "positive") return DataKind::Positives;
  throw Error("data kind '" + text + "' is not one of: int, real, unit, negative, positive");
}

std::string to_string(DataKind kind) {
  switch (kind) {
    case DataKind::Integers: return "int";
    case DataKind::Units: return "unit";
    case DataKind::Negatives: return "negative";
    case DataKind::Positives: return "positive";
    case DataKind::Reals: break;
  }
  return "real";
}

// Steele, Lea and Flood's SplitMix64 finaliser: a bijection on 64-bit words that mixes well.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

float data_value(DataKind kind, std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  const std::uint64_t bits = splitmix64(splitmix64(seed * 0x100000001B3ull + stream) ^ index);
  if (kind == DataKind::Integers) return static_cast<float>(static_cast<int>((bits >> 32) % 17) - 8);
  if (kind == DataKind::Units) return static_cast<float>(static_cast<int>((bits >> 32) % 3) - 1);
  // 24 random bits -> an integer in [-2^23, 2^23) -> times 2^-23: exact in float, in [-1, 1).
  const auto k = static_cast<std::int32_t>(bits >> 40) - (1 << 23);
  // Negatives and positives: 23 random bits m -> 1 + m * 2^-23 in [1, 2), exact in float (the
  // spacing of floats there is 2^-23), every value of one sign.
  const float one_to_two = 1.0f + static_cast<float>(bits >> 41) * 0x1p-23f;
  if (kind == DataKind::Negatives) return -one_to_two;
  if (kind == DataKind::Positives) return one_to_two;
  return static_cast<float>(k) * 0x1p-23f;
}

std::vector<float> make_data(DataKind kind, std::uint64_t seed, std::uint64_t stream,
                             std::size_t count) {
  std::vector<float> v(count);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < count; ++i) v[i] = data_value(kind, seed, stream, i);
  return v;
}

std::int32_t int_value(std::uint64_t seed, std::uint64_t stream, std::uint64_t index, std::int32_t low, std::int32_t high) {
  if (low > high) throw Error("integer data range [" + std::to_string(low) + ", " + std::to_string(high) + "] is empty: low is above high");
  const std::uint64_t bits = splitmix64(splitmix64(seed * 0x100000001B3ull + stream) ^ index);
  const std::uint64_t span = static_cast<std::uint64_t>(static_cast<std::int64_t>(high) - low) + 1;  // at most 2^32
  // The top 32 bits times the span, over 2^32: every value of a span below 2^32 within one count of equally likely.
  return static_cast<std::int32_t>(low + static_cast<std::int64_t>(((bits >> 32) * span) >> 32));
}

std::vector<std::int32_t> make_int_data(std::uint64_t seed, std::uint64_t stream, std::size_t count, std::int32_t low, std::int32_t high) {
  int_value(seed, stream, 0, low, high);  // refuses an empty range before any work
  std::vector<std::int32_t> v(count);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < count; ++i) v[i] = int_value(seed, stream, i, low, high);
  return v;
}

std::size_t parse_count(const std::string& text) {
  std::size_t pos = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
  const std::string digits = text.substr(0, pos), suffix = text.substr(pos);
  std::size_t scale = 0;
  if (suffix.empty()) scale = 1;
  else if (suffix == "K" || suffix == "k") scale = 1000;
  else if (suffix == "M") scale = 1000 * 1000;
  else if (suffix == "G") scale = 1000 * 1000 * 1000;
  else if (suffix == "Ki") scale = std::size_t(1) << 10;
  else if (suffix == "Mi") scale = std::size_t(1) << 20;
  else if (suffix == "Gi") scale = std::size_t(1) << 30;
  if (digits.empty() || scale == 0 || digits.size() > 12)
    throw Error("'" + text + "' is not a count (examples: 4096, 8M = 8000000, 1Mi = 1048576)");
  std::size_t value = 0;
  if (__builtin_mul_overflow(std::size_t(std::stoull(digits)), scale, &value))
    throw Error("'" + text + "' is too large a count");
  if (value == 0) throw Error("'" + text + "' must be at least 1");
  return value;
}

std::string format_number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

std::string format_count(std::size_t count) {
  const std::pair<std::size_t, const char*> units[] = {
      {std::size_t(1) << 30, "Gi"}, {1000000000, "G"}, {std::size_t(1) << 20, "Mi"},
      {1000000, "M"},               {std::size_t(1) << 10, "Ki"}, {1000, "K"}};
  for (const auto& [scale, name] : units)
    if (count >= scale && count % scale == 0) return std::to_string(count / scale) + name;
  return std::to_string(count);
}

}  // namespace kit
