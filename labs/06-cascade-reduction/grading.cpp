// Lab 06 cascade for the grader: cases {elements, local, groups, data, seed, combine} and an optional
// branch; graded: the dot product within the cascade's rounding bound (exact for small whole-number
// data), and in the speed case the kernel's speed against the stored solution, timed alternately.
// `branch` forces DotCascade's branch whatever the device: "cpu" (-D CONTIGUOUS), "gpu" (the
// grid-stride loop, which PoCL, a CPU device, would otherwise never build), or "device" (the
// default: the device type picks, the CPU branch on PoCL).
#include <memory>

#include "cascade.hpp"
#include "kit/errors.hpp"
#include "labs.hpp"

namespace grader {
namespace {

lab06::Case to_case(const json& p) {
  lab06::Case c;
  c.elements = p.at("elements").get<std::size_t>();
  c.local = p.at("local").get<std::size_t>();
  c.groups = p.at("groups").get<std::size_t>();
  c.kind = kit::parse_data_kind(p.at("data").get<std::string>());
  c.seed = p.at("seed").get<std::uint64_t>();
  c.device_combine = p.at("combine").get<std::string>() == "device";
  c.branch = lab06::parse_branch(p.value("branch", std::string("device")));
  return c;
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
    if (p.at("groups").get<std::size_t>() == 0) throw kit::Error("groups: must be fixed in a spec (the grading device's count)");
    lab06::validate(to_case(p));
  }

  json tolerance() const override {
    return {{"int", "exact-whole-below-2^24"}, {"unit", "exact-whole-below-2^24"}, {"real", "depth-bound"}};
  }

  json run_case(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                const json& params) const override {
    const lab06::Case c = to_case(params);
    lab06::Runner runner(rt, kernel, c, lab06::make_inputs(c), shown_as);
    return outputs_json(runner.run(0, 1));
  }

  json run_speed(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                 const std::filesystem::path& baseline, const json& params, int pairs) const override {
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
    return lab06::check(c, lab06::make_inputs(c), outputs_of(outputs), e);
  }
};

}  // namespace

std::unique_ptr<LabDriver> make_lab_driver_06() { return std::make_unique<Lab06Driver>(); }

}  // namespace grader
