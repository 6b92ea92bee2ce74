// Lab 03 ArrayMultReduce for the grader: cases {elements, local, data, seed}; graded outputs are
// every work-group's partial sum and the host total.
#include <cmath>
#include <memory>

#include "array_mult_reduce.hpp"
#include "kit/errors.hpp"
#include "labs.hpp"

namespace grader {
namespace {

lab03::Case to_case(const json& p) {
  lab03::Case c;
  c.elements = p.at("elements").get<std::size_t>();
  c.local = p.at("local").get<std::size_t>();
  c.kind = kit::parse_data_kind(p.at("data").get<std::string>());
  c.seed = p.at("seed").get<std::uint64_t>();
  return c;
}

class Lab03Driver : public LabDriver {
 public:
  std::string id() const override { return lab03::kLab; }
  std::vector<kit::KernelSignature> kernels() const override { return {lab03::kSignature}; }

  void validate_case(const json& p) const override {
    lab03::validate(to_case(p));
  }

  json tolerance() const override { return {{"int", "exact"}, {"real", "depth-bound"}}; }

  json run_case(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                const json& params) const override {
    const lab03::Case c = to_case(params);
    const lab03::Outputs out = lab03::run(rt, kernel, c, lab03::make_inputs(c), 0, 1, shown_as);
    json partials = json::array();
    for (float p : out.partials) partials.push_back(float_to_json(p));
    return {{"partials", partials}, {"total", float_to_json(out.total)}, {"seconds", out.timing.best}};
  }

  json reference(const json& params) const override {
    const lab03::Case c = to_case(params);
    const lab03::Expected e = lab03::expected(c, lab03::make_inputs(c));
    json sums = json::array(), abs = json::array();
    for (const kit::Sum& g : e.groups) {
      sums.push_back(g.value);
      abs.push_back(g.abs);
    }
    return {{"partials", sums}, {"partials_abs", abs}, {"total", e.total.value}, {"total_abs", e.total.abs}};
  }

  Comparison compare(const json& params, const json& /*policy: validated*/, const json& reference,
                     const json& outputs) const override {
    const lab03::Case c = to_case(params);
    lab03::Expected e;
    const json& sums = reference.at("partials");
    const json& abs = reference.at("partials_abs");
    for (std::size_t g = 0; g < sums.size(); ++g) e.groups.push_back({sums[g].get<double>(), abs[g].get<double>()});
    e.total = {reference.at("total").get<double>(), reference.at("total_abs").get<double>()};
    lab03::Outputs out;
    for (const json& p : outputs.at("partials")) out.partials.push_back(float(json_to_float(p)));
    out.total = json_to_float(outputs.at("total"));
    return lab03::check(c, lab03::make_inputs(c), out, e);
  }
};

}  // namespace

std::unique_ptr<LabDriver> make_lab_driver_03() { return std::make_unique<Lab03Driver>(); }

}  // namespace grader
