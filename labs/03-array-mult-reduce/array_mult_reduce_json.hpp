#pragma once
// Lab 03 in JSON, as the grader's specs, results and references hold it: a case {elements, local,
// data, seed}; outputs {partials, total, seconds, kernel}; the reference {partials, partials_abs, total,
// total_abs}.
#include "array_mult_reduce.hpp"
#include "kit/json.hpp"

namespace lab03 {

inline void from_json(const kit::json& j, Case& c) {
  c = {j.at("elements").get<std::size_t>(), j.at("local").get<std::size_t>(),
       kit::parse_data_kind(j.at("data").get<std::string>()), j.at("seed").get<std::uint64_t>()};
}

// The fields from_json reads, and no others (the grader refuses a case field not written here).
inline void to_json(kit::json& j, const Case& c) {
  j = {{"elements", c.elements}, {"local", c.local}, {"data", kit::to_string(c.kind)}, {"seed", c.seed}};
}

inline void to_json(kit::json& j, const Outputs& out) {
  j = {{"partials", kit::reals_to_json(out.partials)}, {"total", kit::real_to_json(out.total)}, {"seconds", out.timing.best}, {"kernel", out.kernel}};
}

inline void from_json(const kit::json& j, Outputs& out) {
  out.partials = kit::reals_from_json(j.at("partials"));
  out.total = kit::real_from_json(j.at("total"));
  if (j.contains("kernel")) out.kernel = j.at("kernel").get<kit::KernelCode>();
}

inline void to_json(kit::json& j, const Expected& e) {
  j = {{"partials", kit::json::array()}, {"partials_abs", kit::json::array()}, {"total", e.total.value}, {"total_abs", e.total.abs}};
  for (const kit::Sum& g : e.groups) {
    j["partials"].push_back(g.value);
    j["partials_abs"].push_back(g.abs);
  }
}

inline void from_json(const kit::json& j, Expected& e) {
  for (std::size_t g = 0; g < j.at("partials").size(); ++g)
    e.groups.push_back({j.at("partials")[g].get<double>(), j.at("partials_abs")[g].get<double>()});
  e.total = {j.at("total").get<double>(), j.at("total_abs").get<double>()};
}

}  // namespace lab03
