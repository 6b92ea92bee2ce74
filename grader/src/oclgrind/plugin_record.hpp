#pragma once
// The fields of the kit plugin's JSON records (work/span lines and drawing traces), read strictly:
// a field of the wrong shape is an error naming what was found.
#include <array>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace grader {

// A count: a non-negative integer (json's get<std::size_t> would wrap a negative one).
inline std::size_t record_count(const nlohmann::json& j) {
  if (!j.is_number_unsigned()) throw std::runtime_error("expected a count, found " + j.dump());
  return j.get<std::size_t>();
}

// [x,y,z] of three counts.
inline std::array<std::size_t, 3> record_triple(const nlohmann::json& j) {
  if (!j.is_array() || j.size() != 3) throw std::runtime_error("expected [x,y,z], found " + j.dump());
  return {record_count(j[0]), record_count(j[1]), record_count(j[2])};
}

}  // namespace grader
