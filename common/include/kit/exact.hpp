#pragma once
// Exact sums in 128-bit integers: a float that is a whole multiple of 2^-scale is held as that
// multiple, so sums of up to 2^(127 - scale - 24)-ish terms add without rounding, in any order,
// and only the final conversion back rounds. Lab 08's accuracy reference is built on it.
#include <string>

namespace kit {

using Int128 = __int128;

// x * 2^scale as an integer; throws std::invalid_argument when x is not finite or not a whole
// multiple of 2^-scale.
Int128 scaled(float x, int scale);

// v * 2^-scale, rounded once to long double.
long double unscaled(Int128 v, int scale);

// Decimal text of v ("-12", "0"), and back; parse_decimal throws kit::Error for anything but an
// optional '-' and at most 37 digits.
std::string to_decimal(Int128 v);
Int128 parse_decimal(const std::string& text);

}  // namespace kit
