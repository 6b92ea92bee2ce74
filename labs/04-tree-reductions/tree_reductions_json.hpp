#pragma once
// Lab 04 in JSON, as the grader's specs, results and references hold it: a case {elements, local,
// seed, rung}; outputs {first_pass, total, launches, seconds}; the reference {first_pass, total,
// launches}.
#include "kit/json.hpp"
#include "tree_reductions.hpp"

namespace lab04 {

inline void from_json(const kit::json& j, Case& c) {
  c = {j.at("elements").get<std::size_t>(), j.at("local").get<std::size_t>(), j.at("seed").get<std::uint64_t>(),
       j.at("rung").get<int>()};
}

// The fields from_json reads, and no others (the grader refuses a case field not written here).
inline void to_json(kit::json& j, const Case& c) {
  j = {{"elements", c.elements}, {"local", c.local}, {"seed", c.seed}, {"rung", c.rung}};
}

inline void to_json(kit::json& j, const Outputs& out) {
  j = {{"first_pass", out.first_pass}, {"total", out.total}, {"launches", out.launches}, {"seconds", out.timing.best}, {"kernel", out.kernel}};
}

inline void from_json(const kit::json& j, Outputs& out) {
  j.at("first_pass").get_to(out.first_pass);
  j.at("total").get_to(out.total);
  j.at("launches").get_to(out.launches);
  if (j.contains("kernel")) out.kernel = j.at("kernel").get<kit::KernelCode>();
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Expected, first_pass, total, launches)

}  // namespace lab04
