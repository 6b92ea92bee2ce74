// Lab 07 image max pyramid for the grader: cases {width, height, block, op, data, seed}; graded
// outputs are every level's size and digest (FNV-1a of its texels) and the result, all exact. The
// texels never leave the child: where a level differs from the host's pyramid, the child names a
// few wrong texels, and the grader recomputes the expected values for the message and the hint.
#include "image_pyramid_json.hpp"
#include "grader/lab/adapter.hpp"

namespace grader {

struct Lab07 {
  using Case = lab07::Case;
  std::string id() const { return lab07::kLab; }
  std::vector<kit::KernelSignature> kernels() const { return lab07::all_signatures(); }
  void validate(const Case& c) const { lab07::validate(c); }
  json tolerance() const { return "exact"; }  // maxima and minima
  json run(const Kernel& k, const Case& c) const {
    const std::vector<float> in = lab07::make_input(c);
    const lab07::Outputs out = lab07::run(k.rt, k.file, c, in, 0, 1, k.shown_as);
    json summary = lab07::summarize(out, lab07::host_pyramid(c, in));
    summary["seconds"] = out.timing.best;
    return summary;
  }
  json reference(const Case& c) const { return lab07::expected(c, lab07::host_pyramid(c, lab07::make_input(c))); }
  // Both compute the host pyramid from the case, and only when a level differs.
  kit::Verdict check(const Case& c, const json& reference, const json& outputs) const {
    return lab07::check(c, outputs.get<lab07::Summary>(), reference.get<lab07::Expected>());
  }
};

std::unique_ptr<LabDriver> make_lab_driver_07() { return std::make_unique<LabAdapter<Lab07>>(); }

}  // namespace grader
