// The kit's exact 128-bit arithmetic (kit/exact.hpp): scaling floats to whole multiples, the
// decimal text the grader stores references in, and the one rounding back.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "kit/errors.hpp"
#include "kit/exact.hpp"

TEST_CASE("exact: floats scale to whole multiples of 2^-scale and back, and decimal text round-trips") {
  CHECK(kit::scaled(1.5f, 1) == 3);
  CHECK(kit::scaled(-0x1p-43f, 43) == -1);
  CHECK_THROWS_AS(kit::scaled(0x1p-44f, 43), std::invalid_argument);  // below the scale's last place
  CHECK_THROWS_AS(kit::scaled(NAN, 43), std::invalid_argument);
  CHECK_THROWS_AS(kit::scaled(INFINITY, 43), std::invalid_argument);
  CHECK(kit::unscaled(kit::scaled(3.25f, 43), 43) == 3.25L);

  const kit::Int128 big = kit::Int128(1) << 100;
  CHECK(kit::to_decimal(big) == "1267650600228229401496703205376");
  CHECK(kit::to_decimal(0) == "0");
  CHECK(kit::parse_decimal(kit::to_decimal(-big - 12345)) == -big - 12345);
  CHECK_THROWS_AS(kit::parse_decimal("12x"), kit::Error);
  CHECK_THROWS_AS(kit::parse_decimal("-"), kit::Error);
  CHECK_THROWS_AS(kit::parse_decimal(std::string(38, '9')), kit::Error);  // at most 37 digits, with or without '-'
  CHECK(kit::parse_decimal(std::string(37, '9')) > 0);
  CHECK(kit::parse_decimal("-" + std::string(37, '9')) < 0);

  // A sum of 2^20 values of 2^-43 and one of 2^12 is exact here, not in double (65 bits).
  kit::Int128 sum = kit::scaled(0x1p12f, 43);
  for (int i = 0; i < (1 << 20); ++i) sum += kit::scaled(0x1p-43f, 43);
  CHECK(sum == (kit::Int128(1) << 55) + (1 << 20));
}
