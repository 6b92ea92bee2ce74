#pragma once
// Lab 06 in JSON, as the grader's specs, results and references hold it: a case {elements, local,
// groups, data, seed, combine: "host" or "device", branch}; outputs {result, partials, groups,
// branch: the one that ran, "cpu" or "gpu", seconds}; the reference {value, abs}. A case's `branch`
// forces DotCascade's branch whatever the device: "cpu" (-D CONTIGUOUS), "gpu" (the grid-stride
// loop, which PoCL, a CPU device, would otherwise never build), or "device" (the default: the
// device type picks, the CPU branch on PoCL).
#include "cascade.hpp"
#include "kit/json.hpp"

namespace lab06 {

inline void from_json(const kit::json& j, Case& c) {
  c = {j.at("elements").get<std::size_t>(), j.at("local").get<std::size_t>(), j.at("groups").get<std::size_t>(),
       kit::parse_data_kind(j.at("data").get<std::string>()), j.at("seed").get<std::uint64_t>(),
       j.at("combine").get<std::string>() == "device", parse_branch(j.value("branch", std::string("device")))};
}

// The fields from_json reads, and no others (the grader refuses a case field not written here);
// `branch` with the value it took, "device" when the case left it out.
inline void to_json(kit::json& j, const Case& c) {
  j = {{"elements", c.elements}, {"local", c.local}, {"groups", c.groups}, {"data", kit::to_string(c.kind)},
       {"seed", c.seed}, {"combine", c.device_combine ? "device" : "host"}, {"branch", to_string(c.branch)}};
}

inline void to_json(kit::json& j, const Outputs& out) {
  j = {{"result", kit::real_to_json(out.result)}, {"partials", kit::reals_to_json(out.partials)}, {"groups", out.groups},
       {"branch", out.contiguous ? "cpu" : "gpu"}, {"seconds", out.timing.best}, {"kernel", out.kernel}};
}

inline void from_json(const kit::json& j, Outputs& out) {
  out.result = kit::real_from_json(j.at("result"));
  out.partials = kit::reals_from_json(j.value("partials", kit::json::array()));
  j.at("groups").get_to(out.groups);
  out.contiguous = j.at("branch") == "cpu";
  if (j.contains("kernel")) out.kernel = j.at("kernel").get<kit::KernelCode>();
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Expected, value, abs)

}  // namespace lab06
