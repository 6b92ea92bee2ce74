// Lab 04 tree reductions for the grader: cases {elements, local, seed, rung}; graded outputs are
// the first launch's per-work-group sums and the total, exactly (the host decides the launches).
#include "grader/lab/adapter.hpp"
#include "tree_reductions_json.hpp"

namespace grader {

struct Lab04 {
  using Case = lab04::Case;
  std::string id() const { return lab04::kLab; }
  std::vector<kit::KernelSignature> kernels() const { return lab04::all_signatures(); }
  void validate(const Case& c) const { lab04::validate(c); }
  json tolerance() const { return "exact"; }  // sums of ints
  json run(const Kernel& k, const Case& c) const { return lab04::run(k.rt, k.file, c, lab04::make_input(c), 0, 1, k.shown_as); }
  json reference(const Case& c) const { return lab04::expected(c, lab04::make_input(c)); }
  kit::Verdict check(const Case& c, const json& reference, const json& outputs) const {
    return lab04::check(c, lab04::make_input(c), outputs.get<lab04::Outputs>(), reference.get<lab04::Expected>());
  }
};

std::unique_ptr<LabDriver> make_lab_driver_04() { return std::make_unique<LabAdapter<Lab04>>(); }

}  // namespace grader
