// Labs 01 and 02 for the grader: cases {elements, local, data, seed}; every output is compared
// exactly. The stored reference is the SHA-256 of the expected output's bytes: the values are
// regenerated from the seed, checked against it, then compared element by element.
#include "elementwise_grading.hpp"
#include "elementwise_json.hpp"
#include "grader/lab/adapter.hpp"

namespace grader {

struct Elementwise {
  using Case = elementwise::Case;
  const elementwise::Lab& lab;

  std::string id() const { return lab.id; }
  std::vector<kit::KernelSignature> kernels() const { return {lab.signature}; }
  void validate(const Case& c) const { elementwise::validate(c); }
  json tolerance() const { return "exact"; }
  json run(const Kernel& k, const Case& c) const {
    return elementwise::run(k.rt, lab, k.file, c, elementwise::make_inputs(lab, c), 0, 1, k.shown_as);
  }
  json reference(const Case& c) const {
    return {{"elements", c.elements}, {"sha256", digest(elementwise::expected(lab, elementwise::make_inputs(lab, c)))}};
  }
  kit::Verdict check(const Case& c, const json& reference, const json& outputs) const {
    const elementwise::Inputs in = elementwise::make_inputs(lab, c);
    if (digest(elementwise::expected(lab, in)) != reference.at("sha256"))
      throw kit::Error("the expected outputs of " + lab.id + " no longer match the stored reference; run `build/bin/grader reference`");
    return elementwise::check(lab, c, in, outputs.get<elementwise::Outputs>());
  }
};

std::unique_ptr<LabDriver> make_elementwise_driver(const elementwise::Lab& lab) {
  return std::make_unique<LabAdapter<Elementwise>>(Elementwise{lab});
}

}  // namespace grader
