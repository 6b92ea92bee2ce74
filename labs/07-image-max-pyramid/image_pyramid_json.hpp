#pragma once
// Lab 07 in JSON, as the grader's specs, results and references hold it: a case {width, height,
// block, op, data, seed}; outputs (the child's summary) {result, passes, levels: [{width, height,
// digest}], wrong: null or {level, count, texels: [[x, y, got]]}}; the reference {value, passes,
// levels}. A texel is a number, or "inf", "-inf", "nan": JSON has no such numbers, and the
// +-infinity the host fills the ping-pong images with is what a block reaching past its level
// picks up.
#include <cmath>

#include "image_pyramid.hpp"
#include "kit/json.hpp"

namespace lab07 {

inline void from_json(const kit::json& j, Case& c) {
  c = {j.at("width").get<std::size_t>(), j.at("height").get<std::size_t>(), j.at("block").get<int>(),
       parse_op(j.at("op").get<std::string>()), parse_data(j.at("data").get<std::string>()), j.at("seed").get<std::uint64_t>()};
}

// The fields from_json reads, and no others (the grader refuses a case field not written here).
inline void to_json(kit::json& j, const Case& c) {
  j = {{"width", c.width}, {"height", c.height}, {"block", c.block},
       {"op", to_string(c.op)}, {"data", to_string(c.data)}, {"seed", c.seed}};
}

inline kit::json texel_to_json(float v) {
  if (std::isfinite(v)) return v;
  return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
}

inline float texel_from_json(const kit::json& v) {
  if (v.is_number()) return v.get<float>();
  const std::string text = v.get<std::string>();
  return text == "inf" ? INFINITY : text == "-inf" ? -INFINITY : NAN;
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LevelDigest, width, height, digest)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Expected, value, passes, levels)

inline void to_json(kit::json& j, const WrongTexel& t) { j = {t.x, t.y, texel_to_json(t.got)}; }
inline void from_json(const kit::json& j, WrongTexel& t) {
  t = {j.at(0).get<std::size_t>(), j.at(1).get<std::size_t>(), texel_from_json(j.at(2))};
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Wrong, level, count, texels)

inline void to_json(kit::json& j, const Summary& s) {
  j = {{"result", texel_to_json(s.result)}, {"passes", s.passes}, {"levels", s.levels},
       {"wrong", s.wrong ? kit::json(*s.wrong) : kit::json(nullptr)}};
}

inline void from_json(const kit::json& j, Summary& s) {
  s.result = texel_from_json(j.at("result"));
  j.at("passes").get_to(s.passes);
  j.at("levels").get_to(s.levels);
  if (!j.at("wrong").is_null()) s.wrong = j.at("wrong").get<Wrong>();
}

}  // namespace lab07
