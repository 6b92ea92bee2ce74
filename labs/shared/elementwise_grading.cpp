// Labs 01 and 02 for the grader: cases {elements, local, data, seed}; every output is compared
// exactly. The stored reference is the SHA-256 of the expected output's bytes: the values are
// regenerated from the seed, checked against it, then compared element by element.
#include <cmath>
#include <cstring>
#include <memory>

#include "elementwise_grading.hpp"
#include "files.hpp"
#include "kit/errors.hpp"
#include "labs.hpp"

namespace grader {
namespace {

elementwise::Case to_case(const json& p) {
  return {p.at("elements").get<std::size_t>(), p.at("local").get<std::size_t>(),
          kit::parse_data_kind(p.at("data").get<std::string>()), p.at("seed").get<std::uint64_t>()};
}

std::string digest(const std::vector<float>& values) {
  std::string bytes(values.size() * sizeof(float), '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return sha256_hex(bytes);
}

class ElementwiseDriver : public LabDriver {
 public:
  explicit ElementwiseDriver(const elementwise::Lab& lab) : lab_(lab) {}
  std::string id() const override { return lab_.id; }
  std::vector<kit::KernelSignature> kernels() const override { return {lab_.signature}; }

  void validate_case(const json& p) const override {
    elementwise::validate(to_case(p));
  }

  json tolerance() const override { return "exact"; }

  json run_case(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                const json& params) const override {
    const elementwise::Case c = to_case(params);
    const elementwise::Outputs out = elementwise::run(rt, lab_, kernel, c, elementwise::make_inputs(lab_, c), 0, 1, shown_as);
    json values = json::array();
    for (float v : out.values) values.push_back(float_to_json(v));
    return {{"values", values},
            {"written_past_end", out.written_past_end ? json(*out.written_past_end) : json(nullptr)},
            {"seconds", out.timing.best}};
  }

  json reference(const json& params) const override {
    const elementwise::Case c = to_case(params);
    return {{"elements", c.elements}, {"sha256", digest(elementwise::expected(lab_, elementwise::make_inputs(lab_, c)))}};
  }

  Comparison compare(const json& params, const json&, const json& reference, const json& outputs) const override {
    const elementwise::Case c = to_case(params);
    const elementwise::Inputs in = elementwise::make_inputs(lab_, c);
    const std::vector<float> want = elementwise::expected(lab_, in);
    if (digest(want) != reference.at("sha256").get<std::string>())
      throw kit::Error("the expected outputs of " + lab_.id + " no longer match the stored reference; run `build/bin/grader reference`");
    elementwise::Outputs out;
    for (const json& v : outputs.at("values")) out.values.push_back(float(json_to_float(v)));
    if (!outputs.at("written_past_end").is_null()) out.written_past_end = outputs.at("written_past_end").get<std::size_t>();
    return elementwise::check(lab_, c, in, out);
  }

 private:
  const elementwise::Lab& lab_;
};

}  // namespace

std::unique_ptr<LabDriver> make_elementwise_driver(const elementwise::Lab& lab) { return std::make_unique<ElementwiseDriver>(lab); }

}  // namespace grader
