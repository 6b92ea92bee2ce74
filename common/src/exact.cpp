#include "kit/exact.hpp"

#include <cmath>
#include <stdexcept>

#include "kit/errors.hpp"

namespace kit {

Int128 scaled(float x, int scale) {
  if (!std::isfinite(x)) throw std::invalid_argument("not a finite number");
  const long double v = std::ldexp(static_cast<long double>(x), scale);  // exact: 24 significant bits
  if (std::floor(v) != v || std::fabs(v) >= 0x1p120L) throw std::invalid_argument("not a whole multiple of 2^-scale");
  return static_cast<Int128>(v);
}

std::string to_decimal(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    digits.push_back(char('0' + (negative ? -d : d)));
    v /= 10;
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

Int128 parse_decimal(const std::string& text) {
  const bool negative = !text.empty() && text[0] == '-';
  if (text.size() == std::size_t(negative) || text.size() - std::size_t(negative) > 37)
    throw kit::Error("'" + text + "' is not a whole number of at most 37 digits");
  Int128 v = 0;
  for (std::size_t i = negative; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') throw kit::Error("'" + text + "' is not a whole number");
    v = v * 10 + (text[i] - '0');
  }
  return negative ? -v : v;
}

long double unscaled(Int128 v, int scale) { return std::ldexp(static_cast<long double>(v), -scale); }

}  // namespace kit
