#pragma once
// The kit's JSON (nlohmann::json) and its one rule for floats: NaN, an output never written, has no
// JSON number, so it is stored as null and read back as NaN.
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

namespace kit {

using json = nlohmann::json;

inline json real_to_json(double value) { return std::isnan(value) ? json(nullptr) : json(value); }

inline double real_from_json(const json& value) {
  return value.is_null() ? std::numeric_limits<double>::quiet_NaN() : value.get<double>();
}

inline json reals_to_json(const std::vector<float>& values) {
  json all = json::array();
  for (const float v : values) all.push_back(real_to_json(v));
  return all;
}

inline std::vector<float> reals_from_json(const json& all) {
  std::vector<float> values;
  for (const json& v : all) values.push_back(float(real_from_json(v)));
  return values;
}

}  // namespace kit
