// Lab 06 cascade for the grader: cases {elements, local, groups, data, seed, combine} and an optional
// branch of DotCascade to build whatever the device (cascade_json.hpp); graded: the dot product
// within the cascade's rounding bound (exact for small whole-number data), and in the speed case
// the kernel's speed against the stored solution, timed alternately.
#include "cascade_json.hpp"
#include "grader/lab/adapter.hpp"

namespace grader {

struct Lab06 {
  using Case = lab06::Case;
  std::string id() const { return lab06::kLab; }
  std::vector<kit::KernelSignature> kernels() const { return lab06::signatures(); }
  void validate(const Case& c) const {
    if (c.groups == 0) throw kit::Error("groups: must be fixed in a spec (the grading device's count)");
    lab06::validate(c);
  }
  json tolerance() const { return {{"int", "exact-whole-below-2^24"}, {"unit", "exact-whole-below-2^24"}, {"real", "depth-bound"}}; }
  json run(const Kernel& k, const Case& c) const { return lab06::Runner(k.rt, k.file, c, lab06::make_inputs(c), k.shown_as).run(0, 1); }
  json reference(const Case& c) const { return lab06::expected(lab06::make_inputs(c)); }
  kit::Verdict check(const Case& c, const json& reference, const json& outputs) const {
    return lab06::check(c, lab06::make_inputs(c), outputs.get<lab06::Outputs>(), reference.get<lab06::Expected>());
  }
};

class Lab06Driver : public LabAdapter<Lab06> {
  json run_speed(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                 const std::filesystem::path& baseline, const json& params, int pairs,
                 const kit::TimedSection& section) const override {
    const lab06::Case c = case_of(params);
    const lab06::Inputs in = lab06::make_inputs(c);
    lab06::Runner candidate(rt, kernel, c, in, shown_as);
    const json outputs = candidate.run(0, 1);  // before the timed runs: the section holds those alone
    if (baseline == kOpenMpBaseline) {
      const kit::SpeedRatio r = lab06::openmp_speed_ratio(candidate, in, pairs, section);
      return {{"ratio", r.median}, {"low", r.lower_quartile}, {"high", r.upper_quartile}, {"outputs", outputs}};
    }
    lab06::Runner solution(rt, baseline, c, in, "the stored solution");
    const kit::SpeedRatio r = lab06::speed_ratio(candidate, solution, pairs, section);
    return {{"ratio", r.median}, {"low", r.lower_quartile}, {"high", r.upper_quartile}, {"outputs", outputs}};
  }
};

std::unique_ptr<LabDriver> make_lab_driver_06() { return std::make_unique<Lab06Driver>(); }

}  // namespace grader
