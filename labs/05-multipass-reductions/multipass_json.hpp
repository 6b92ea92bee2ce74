#pragma once
// Lab 05 in JSON, as the grader's specs, results and references hold it: a case {elements, local,
// data, seed, op, method}; outputs {result, passes, input_unchanged, seconds}; the reference
// {value, abs} (and the passes expected, for people).
#include "kit/json.hpp"
#include "multipass.hpp"

namespace lab05 {

inline void from_json(const kit::json& j, Case& c) {
  c = {j.at("elements").get<std::size_t>(), j.at("local").get<std::size_t>(),
       kit::parse_data_kind(j.at("data").get<std::string>()), j.at("seed").get<std::uint64_t>(),
       parse_op(j.at("op").get<std::string>()), j.at("method").get<std::string>()};
}

// The fields from_json reads, and no others (the grader refuses a case field not written here).
inline void to_json(kit::json& j, const Case& c) {
  j = {{"elements", c.elements}, {"local", c.local}, {"data", kit::to_string(c.kind)},
       {"seed", c.seed}, {"op", to_string(c.op)}, {"method", c.method}};
}

inline void to_json(kit::json& j, const Outputs& out) {
  j = {{"result", kit::real_to_json(out.result)}, {"passes", out.passes}, {"input_unchanged", out.input_unchanged},
       {"seconds", out.timing.best}, {"kernel", out.kernel}};
}

inline void from_json(const kit::json& j, Outputs& out) {
  out.result = float(kit::real_from_json(j.at("result")));
  j.at("passes").get_to(out.passes);
  j.at("input_unchanged").get_to(out.input_unchanged);
  if (j.contains("kernel")) out.kernel = j.at("kernel").get<kit::KernelCode>();
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Expected, value, abs)

}  // namespace lab05
