// Lab 06 cascade for the grader: cases {elements, local, groups, data, seed, combine} and an optional
// branch; graded: the dot product within the cascade's rounding bound (exact for small whole-number
// data), and in the speed case the kernel's speed against the stored solution, timed alternately.
// `branch` forces DotCascade's branch whatever the device: "cpu" (-D CONTIGUOUS), "gpu" (the
// grid-stride loop, which PoCL, a CPU device, would otherwise never build), "both" (one after the
// other in one context: the memory-safety case, so that one Oclgrind run checks both), or
// "device" (the default: the device type picks, the CPU branch on PoCL).
#include <memory>

#include "cascade.hpp"
#include "kit/errors.hpp"
#include "labs.hpp"

namespace grader {
namespace {

// The branch field as written in the spec ("device" when absent).
std::string branch_field(const json& p) { return p.value("branch", std::string("device")); }

// The lab's case for one branch ("cpu", "gpu" or "device"; "both" runs each of the first two).
lab06::Case to_case(const json& p, const std::string& branch) {
  lab06::Case c;
  c.elements = p.at("elements").get<std::size_t>();
  c.local = p.at("local").get<std::size_t>();
  c.groups = p.at("groups").get<std::size_t>();
  c.kind = kit::parse_data_kind(p.at("data").get<std::string>());
  c.seed = p.at("seed").get<std::uint64_t>();
  c.device_combine = p.at("combine").get<std::string>() == "device";
  c.branch = lab06::parse_branch(branch);
  return c;
}

lab06::Case to_case(const json& p) { return to_case(p, branch_field(p) == "both" ? "device" : branch_field(p)); }

// The branches a case runs, in order.
std::vector<std::string> branches_of(const json& p) {
  if (branch_field(p) == "both") return {"cpu", "gpu"};
  return {branch_field(p)};
}

json outputs_json(const lab06::Outputs& out) {
  json partials = json::array();
  for (float p : out.partials) partials.push_back(float_to_json(p));
  return {{"result", float_to_json(out.result)},
          {"partials", partials},
          {"groups", out.groups},
          {"branch", out.contiguous ? "cpu" : "gpu"},
          {"seconds", out.timing.best}};
}

// One branch's outputs back from JSON.
lab06::Outputs outputs_of(const json& j) {
  lab06::Outputs out;
  out.result = json_to_float(j.at("result"));
  out.groups = j.at("groups").get<std::size_t>();
  for (const json& p : j.value("partials", json::array())) out.partials.push_back(float(json_to_float(p)));
  out.contiguous = j.at("branch") == "cpu";
  return out;
}

class Lab06Driver : public LabDriver {
 public:
  std::string id() const override { return lab06::kLab; }
  std::vector<kit::KernelSignature> kernels() const override { return lab06::signatures(); }

  void validate_case(const json& p) const override {
    require_fields(p, {"elements", "local", "groups", "seed"}, {"data", "combine"}, "lab 06", {"branch"});
    if (p.contains("branch")) {
      const json& b = p.at("branch");
      if (!b.is_string() || (b != "device" && b != "cpu" && b != "gpu" && b != "both"))
        throw kit::Error("branch: must be \"device\" (the device type picks), \"cpu\" (-D CONTIGUOUS), \"gpu\" (the "
                         "grid-stride loop) or \"both\" (the two in turn), not " + b.dump());
    }
    if (p.at("combine") != "host" && p.at("combine") != "device") throw kit::Error("combine: must be \"host\" or \"device\"");
    if (p.at("groups").get<std::size_t>() == 0) throw kit::Error("groups: must be fixed in a spec (the grading device's count)");
    lab06::validate(to_case(p));
  }

  void validate_tolerance(const json& policy) const override {
    const json want = {{"int", "exact below 2^24"}, {"unit", "exact below 2^24"}, {"real", "cascade-depth-bound"}};
    if (policy != want) throw kit::Error("lab 06 implements " + want.dump() + ", not " + policy.dump());
  }

  json run_case(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                const json& params) const override {
    const lab06::Inputs in = lab06::make_inputs(to_case(params));
    json all = json::array();
    for (const std::string& branch : branches_of(params)) {  // one context: Oclgrind's one log sees both
      lab06::Runner runner(rt, kernel, to_case(params, branch), in, shown_as);
      all.push_back(outputs_json(runner.run(0, 1)));
    }
    return all.size() == 1 ? all[0] : json{{"branches", all}};
  }

  json run_speed(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                 const std::filesystem::path& baseline, const json& params, int pairs) const override {
    if (branch_field(params) == "both") throw kit::Error("branch: the speed case times one branch, not \"both\"");
    const lab06::Case c = to_case(params);
    const lab06::Inputs in = lab06::make_inputs(c);
    lab06::Runner candidate(rt, kernel, c, in, shown_as), solution(rt, baseline, c, in, "the stored solution");
    const double ratio = lab06::speed_ratio(candidate, solution, pairs);
    return {{"ratio", ratio}, {"outputs", outputs_json(candidate.run(0, 1))}};
  }

  json reference(const json& params) const override {
    const lab06::Expected e = lab06::expected(lab06::make_inputs(to_case(params)));
    return {{"value", e.value}, {"abs", e.abs}};
  }

  Comparison compare(const json& params, const json&, const json& reference, const json& outputs) const override {
    const lab06::Case c = to_case(params);
    const lab06::Expected e{reference.at("value").get<double>(), reference.at("abs").get<double>()};
    const json runs = outputs.contains("branches") ? outputs.at("branches") : json::array({outputs});
    const lab06::Inputs in = lab06::make_inputs(c);
    for (const json& run : runs)
      if (const kit::Verdict v = lab06::check(c, in, outputs_of(run), e); !v.pass) return v;
    return {};
  }
};

}  // namespace

std::unique_ptr<LabDriver> make_lab_driver_06() { return std::make_unique<Lab06Driver>(); }

}  // namespace grader
