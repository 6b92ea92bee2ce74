// Lab 03 ArrayMultReduce for the grader: cases {elements, local, data, seed}; graded outputs are
// every work-group's partial sum and the host total.
#include "array_mult_reduce_json.hpp"
#include "grader/lab/adapter.hpp"

namespace grader {

struct Lab03 {
  using Case = lab03::Case;
  std::string id() const { return lab03::kLab; }
  std::vector<kit::KernelSignature> kernels() const { return {lab03::kSignature}; }
  void validate(const Case& c) const { lab03::validate(c); }
  json tolerance() const { return {{"int", "exact"}, {"real", "depth-bound"}}; }
  json run(const Kernel& k, const Case& c) const { return lab03::run(k.rt, k.file, c, lab03::make_inputs(c), 0, 1, k.shown_as); }
  json reference(const Case& c) const { return lab03::expected(c, lab03::make_inputs(c)); }
  kit::Verdict check(const Case& c, const json& reference, const json& outputs) const {
    return lab03::check(c, lab03::make_inputs(c), outputs.get<lab03::Outputs>(), reference.get<lab03::Expected>());
  }
};

std::unique_ptr<LabDriver> make_lab_driver_03() { return std::make_unique<LabAdapter<Lab03>>(); }

}  // namespace grader
