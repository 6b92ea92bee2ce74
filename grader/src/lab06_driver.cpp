// Lab 06 cascade for the grader: cases {elements, local, groups, data, seed, combine}; graded: the
// dot product within the cascade's rounding bound (exact for small whole-number data), and in the
// speed case the kernel's speed against the stored solution, timed alternately.
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
  return c;
}

json outputs_json(const lab06::Outputs& out) {
  return {{"result", float_to_json(out.result)}, {"groups", out.groups}, {"seconds", out.timing.best}};
}

class Lab06Driver : public LabDriver {
 public:
  std::string id() const override { return lab06::kLab; }
  std::vector<kit::KernelSignature> kernels() const override { return lab06::signatures(); }

  void validate_case(const json& p) const override {
    require_fields(p, {"elements", "local", "groups", "seed"}, {"data", "combine"}, "lab 06");
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
    lab06::Outputs out;
    out.result = json_to_float(outputs.at("result"));
    out.groups = outputs.at("groups").get<std::size_t>();
    const auto diff = lab06::difference(c, out, {reference.at("value").get<double>(), reference.at("abs").get<double>()});
    if (!diff) return {true, "", ""};
    const std::string hint = out.result == 0 ? "the result is 0: does every work-item accumulate its products? (graded on PoCL, a CPU: "
                                               "the CONTIGUOUS branch, TODO 1a, is the one that runs)"
                                             : "check the scalar tail (the last n % 4 elements) and SumPartials' strided loop";
    return {false, *diff, hint};
  }
};

}  // namespace

std::unique_ptr<LabDriver> make_lab06_driver() { return std::make_unique<Lab06Driver>(); }

}  // namespace grader
