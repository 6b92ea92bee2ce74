// Lab 05 multi-pass reductions for the grader: cases {elements, local, data, seed, op, method};
// graded: the final value (exact for min, max and whole-number sums, the method's rounding bound
// for real sums) and that the input buffer is unchanged.
#include "grader/lab/adapter.hpp"
#include "multipass_json.hpp"

namespace grader {

struct Lab05 {
  using Case = lab05::Case;
  std::string id() const { return lab05::kLab; }
  std::vector<kit::KernelSignature> kernels() const { return lab05::all_signatures(); }
  void validate(const Case& c) const { lab05::validate(c); }
  json tolerance() const { return {{"min", "exact"}, {"max", "exact"}, {"int sum", "exact"}, {"real sum", "depth-bound"}}; }
  json run(const Kernel& k, const Case& c) const { return lab05::run(k.rt, k.file, c, lab05::make_input(c), 0, 1, k.shown_as); }
  json reference(const Case& c) const {
    json e = lab05::expected(c, lab05::make_input(c));
    e["passes"] = lab05::expected_passes(c);
    return e;
  }
  kit::Verdict check(const Case& c, const json& reference, const json& outputs) const {
    return lab05::check(c, lab05::make_input(c), outputs.get<lab05::Outputs>(), reference.get<lab05::Expected>());
  }
};

std::unique_ptr<LabDriver> make_lab_driver_05() { return std::make_unique<LabAdapter<Lab05>>(); }

}  // namespace grader
