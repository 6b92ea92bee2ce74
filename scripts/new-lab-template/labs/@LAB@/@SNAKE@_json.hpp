#pragma once
// Lab @NN@ in JSON, as the grader's specs and results hold it: a case {elements, local, data, seed};
// outputs {values, written_past_end (null: nothing), seconds}.
#include "@SNAKE@.hpp"
#include "kit/json.hpp"

namespace lab@NN@ {

inline void from_json(const kit::json& j, Case& c) {
  c = {j.at("elements").get<std::size_t>(), j.at("local").get<std::size_t>(), kit::parse_data_kind(j.at("data").get<std::string>()),
       j.at("seed").get<std::uint64_t>()};
}

// The fields from_json reads, and no others (the grader refuses a case field not written here).
inline void to_json(kit::json& j, const Case& c) {
  j = {{"elements", c.elements}, {"local", c.local}, {"data", kit::to_string(c.kind)}, {"seed", c.seed}};
}

inline void to_json(kit::json& j, const Outputs& out) {
  j = {{"values", kit::reals_to_json(out.values)},
       {"written_past_end", out.written_past_end ? kit::json(*out.written_past_end) : kit::json(nullptr)},
       {"seconds", out.timing.best}};
}

inline void from_json(const kit::json& j, Outputs& out) {
  out.values = kit::reals_from_json(j.at("values"));
  if (!j.at("written_past_end").is_null()) out.written_past_end = j.at("written_past_end").get<std::size_t>();
}

}  // namespace lab@NN@
