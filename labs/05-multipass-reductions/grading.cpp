// Lab 05 multi-pass reductions for the grader: cases {elements, local, data, seed, op, method};
// graded: the final value (exact for min, max and whole-number sums, the method's rounding bound
// for real sums) and that the input buffer is unchanged.
#include <memory>

#include "kit/errors.hpp"
#include "labs.hpp"
#include "multipass.hpp"

namespace grader {
namespace {

lab05::Case to_case(const json& p) {
  lab05::Case c;
  c.elements = p.at("elements").get<std::size_t>();
  c.local = p.at("local").get<std::size_t>();
  c.kind = kit::parse_data_kind(p.at("data").get<std::string>());
  c.seed = p.at("seed").get<std::uint64_t>();
  c.op = lab05::parse_op(p.at("op").get<std::string>());
  c.method = p.at("method").get<std::string>();
  return c;
}

class Lab05Driver : public LabDriver {
 public:
  std::string id() const override { return lab05::kLab; }
  std::vector<kit::KernelSignature> kernels() const override { return lab05::all_signatures(); }

  void validate_case(const json& p) const override {
    lab05::validate(to_case(p));
  }

  json tolerance() const override {
    return {{"min", "exact"}, {"max", "exact"}, {"int sum", "exact"}, {"real sum", "depth-bound"}};
  }

  json run_case(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                const json& params) const override {
    const lab05::Case c = to_case(params);
    const lab05::Outputs out = lab05::run(rt, kernel, c, lab05::make_input(c), 0, 1, shown_as);
    return {{"result", float_to_json(out.result)}, {"passes", out.passes}, {"input_unchanged", out.input_unchanged},
            {"seconds", out.timing.best}};
  }

  json reference(const json& params) const override {
    const lab05::Case c = to_case(params);
    const lab05::Expected e = lab05::expected(c, lab05::make_input(c));
    return {{"value", e.value}, {"abs", e.abs}, {"passes", lab05::expected_passes(c)}};
  }

  Comparison compare(const json& params, const json&, const json& reference, const json& outputs) const override {
    const lab05::Case c = to_case(params);
    const lab05::Expected e{reference.at("value").get<double>(), reference.at("abs").get<double>()};
    lab05::Outputs out;
    out.result = float(json_to_float(outputs.at("result")));
    out.passes = outputs.at("passes").get<int>();
    out.input_unchanged = outputs.at("input_unchanged").get<bool>();
    return lab05::check(c, lab05::make_input(c), out, e);
  }
};

}  // namespace

std::unique_ptr<LabDriver> make_lab_driver_05() { return std::make_unique<Lab05Driver>(); }

}  // namespace grader
