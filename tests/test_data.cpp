// Deterministic data and count parsing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "kit/data.hpp"
#include "kit/errors.hpp"

TEST_CASE("splitmix64 matches the published SplitMix64 sequence") {
  // First outputs of the reference SplitMix64 generator started from state 0.
  CHECK(kit::splitmix64(0) == 0xE220A8397B1DCDAFull);
  CHECK(kit::splitmix64(0x9E3779B97F4A7C15ull) == 0x6E789E6AA1B965F4ull);
}

TEST_CASE("data values are fixed numbers for a seed, stream and index") {
  // Pinned values: any machine or compiler must produce exactly these.
  const float ints[] = {kit::data_value(kit::DataKind::Integers, 1, 1, 0), kit::data_value(kit::DataKind::Integers, 1, 1, 1),
                        kit::data_value(kit::DataKind::Integers, 1, 2, 0), kit::data_value(kit::DataKind::Integers, 7, 1, 123456)};
  const float reals[] = {kit::data_value(kit::DataKind::Reals, 1, 1, 0), kit::data_value(kit::DataKind::Reals, 1, 1, 1),
                         kit::data_value(kit::DataKind::Reals, 1, 2, 0), kit::data_value(kit::DataKind::Reals, 7, 1, 123456)};
  MESSAGE("ints: " << ints[0] << " " << ints[1] << " " << ints[2] << " " << ints[3]);
  MESSAGE("reals: " << std::hexfloat << reals[0] << " " << reals[1] << " " << reals[2] << " " << reals[3]);
  CHECK(ints[0] == 4.0f);
  CHECK(ints[1] == 8.0f);
  CHECK(ints[2] == 0.0f);
  CHECK(ints[3] == 6.0f);
  CHECK(reals[0] == 0x1.7665p-7f);
  CHECK(reals[1] == 0x1.f669p-4f);
  CHECK(reals[2] == 0x1.cd402p-3f);
  CHECK(reals[3] == -0x1.2f0314p-1f);
}

TEST_CASE("make_data is the element-wise data_value and stays in range") {
  const auto ints = kit::make_data(kit::DataKind::Integers, 3, 1, 10000);
  const auto reals = kit::make_data(kit::DataKind::Reals, 3, 1, 10000);
  int seen_min = 0, seen_max = 0;
  for (std::size_t i = 0; i < ints.size(); ++i) {
    REQUIRE(ints[i] == kit::data_value(kit::DataKind::Integers, 3, 1, i));
    REQUIRE(ints[i] == std::round(ints[i]));
    REQUIRE(std::fabs(ints[i]) <= 8);
    seen_min = std::min(seen_min, int(ints[i]));
    seen_max = std::max(seen_max, int(ints[i]));
    REQUIRE(reals[i] >= -1.0f);
    REQUIRE(reals[i] < 1.0f);
    REQUIRE(std::ldexp(double(reals[i]), 23) == std::round(std::ldexp(double(reals[i]), 23)));
  }
  CHECK(seen_min == -8);  // the whole range is used
  CHECK(seen_max == 8);
  CHECK(kit::make_data(kit::DataKind::Reals, 3, 2, 100) != kit::make_data(kit::DataKind::Reals, 3, 1, 100));
  const auto units = kit::make_data(kit::DataKind::Units, 3, 1, 1000);
  CHECK(*std::min_element(units.begin(), units.end()) == -1.0f);
  CHECK(*std::max_element(units.begin(), units.end()) == 1.0f);
  CHECK(std::all_of(units.begin(), units.end(), [](float u) { return u == -1 || u == 0 || u == 1; }));
  CHECK(kit::make_data(kit::DataKind::Reals, 4, 1, 100) != kit::make_data(kit::DataKind::Reals, 3, 1, 100));
}

TEST_CASE("parse_data_kind names the bad value") {
  CHECK(kit::parse_data_kind("int") == kit::DataKind::Integers);
  CHECK(kit::parse_data_kind("real") == kit::DataKind::Reals);
  CHECK(kit::parse_data_kind("unit") == kit::DataKind::Units);
  CHECK_THROWS_WITH_AS(kit::parse_data_kind("double"), doctest::Contains("'double'"), kit::Error);
}

TEST_CASE("counts accept decimal and binary suffixes") {
  CHECK(kit::parse_count("4096") == 4096);
  CHECK(kit::parse_count("8M") == 8000000);
  CHECK(kit::parse_count("8K") == 8000);
  CHECK(kit::parse_count("1Mi") == 1048576);
  CHECK(kit::parse_count("16Ki") == 16384);
  CHECK(kit::parse_count("2Gi") == (std::size_t(2) << 30));
  for (const char* bad : {"", "abc", "8X", "0", "-5", "1.5M", "M"}) {
    const std::string quoted = "'" + std::string(bad) + "'";
    CHECK_THROWS_WITH_AS(kit::parse_count(bad), doctest::Contains(quoted.c_str()), kit::Error);
  }
  CHECK_THROWS_WITH_AS(kit::parse_count("17179869185Gi"), doctest::Contains("too large"), kit::Error);
  CHECK(kit::format_count(8388608) == "8Mi");
  CHECK(kit::format_count(8000000) == "8M");
  CHECK(kit::format_count(1234) == "1234");
}

TEST_CASE("make_int_data: whole numbers in the range asked, the same for a seed, every value reached, an empty range refused") {
  const auto a = kit::make_int_data(42, 0, 100000, 0, 15);
  CHECK(a == kit::make_int_data(42, 0, 100000, 0, 15));
  CHECK(a != kit::make_int_data(42, 1, 100000, 0, 15));  // another stream
  std::vector<std::size_t> seen(16, 0);
  for (std::int32_t v : a) {
    REQUIRE(v >= 0);
    REQUIRE(v <= 15);
    ++seen[v];
  }
  // Each of 16 values expects 6250 of 100000; a fair source stays within 5 % of that (the binomial's
  // standard deviation is about 77, so 312 is four of them).
  for (std::size_t k = 0; k < seen.size(); ++k) {
    CAPTURE(k);
    CHECK(seen[k] > 6250 - 312);
    CHECK(seen[k] < 6250 + 312);
  }
  for (std::size_t i = 0; i < 1000; ++i) CHECK(kit::int_value(7, 3, i, -5, -5) == -5);  // a range of one value
  const auto wide = kit::make_int_data(1, 0, 1000, INT32_MIN, INT32_MAX);
  CHECK(std::any_of(wide.begin(), wide.end(), [](std::int32_t v) { return v < -1000000000; }));
  CHECK(std::any_of(wide.begin(), wide.end(), [](std::int32_t v) { return v > 1000000000; }));
  CHECK_THROWS_WITH_AS(kit::make_int_data(1, 0, 10, 3, 2), doctest::Contains("[3, 2] is empty"), kit::Error);
}
