// Lab @NN@ @KERNEL@ for the grader (a LabAdapter, grader/include/grader/lab/adapter.hpp): cases
// {elements, local, data, seed}; every output is compared exactly. The stored reference is the
// SHA-256 of the expected outputs' bytes: the values are made again from the seed, checked against
// it, then compared element by element by the lab's check().
#include "@SNAKE@_json.hpp"
#include "grader/lab/adapter.hpp"

namespace grader {

struct Lab@NN@ {
  using Case = lab@NN@::Case;
  std::string id() const { return lab@NN@::kLab; }
  std::vector<kit::KernelSignature> kernels() const { return {lab@NN@::kSignature}; }
  void validate(const Case& c) const { lab@NN@::validate(c); }
  // Each key names a kind of output the lab compares (here the case's `data`), each value a policy
  // of the kit's table (kit/tolerance.hpp); one name alone ("exact") covers every output.
  json tolerance() const { return {{"int", "exact"}, {"real", "exact"}}; }
  json run(const Kernel& k, const Case& c) const { return lab@NN@::run(k.rt, k.file, c, lab@NN@::make_input(c), 0, 1, k.shown_as); }
  json reference(const Case& c) const { return {{"elements", c.elements}, {"sha256", digest(lab@NN@::expected(lab@NN@::make_input(c)))}}; }
  kit::Verdict check(const Case& c, const json& reference, const json& outputs) const {
    const std::vector<float> a = lab@NN@::make_input(c);
    if (digest(lab@NN@::expected(a)) != reference.at("sha256"))
      throw kit::Error("the expected outputs of " + id() + " no longer match the stored reference; run `build/bin/grader reference --labs @NN@`");
    return lab@NN@::check(c, a, outputs.get<lab@NN@::Outputs>());
  }
};

std::unique_ptr<LabDriver> make_lab_driver_@NN@() { return std::make_unique<LabAdapter<Lab@NN@>>(); }

}  // namespace grader
