// Lab 04 tree reductions for the grader: cases {elements, local, seed, rung}; graded outputs are
// the first launch's per-work-group sums and the total, exactly (the host decides the launches).
#include <memory>

#include "kit/errors.hpp"
#include "labs.hpp"
#include "tree_reductions.hpp"

namespace grader {
namespace {

lab04::Case to_case(const json& p) {
  lab04::Case c;
  c.elements = p.at("elements").get<std::size_t>();
  c.local = p.at("local").get<std::size_t>();
  c.seed = p.at("seed").get<std::uint64_t>();
  c.rung = p.at("rung").get<int>();
  return c;
}

class Lab04Driver : public LabDriver {
 public:
  std::string id() const override { return lab04::kLab; }
  std::vector<kit::KernelSignature> kernels() const override { return lab04::all_signatures(); }

  void validate_case(const json& p) const override {
    lab04::validate(to_case(p));
  }

  json tolerance() const override { return "exact"; }  // sums of ints

  json run_case(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                const json& params) const override {
    const lab04::Case c = to_case(params);
    const lab04::Outputs out = lab04::run(rt, kernel, c, lab04::make_input(c), 0, 1, shown_as);
    return {{"first_pass", out.first_pass}, {"total", out.total}, {"launches", out.launches}, {"seconds", out.timing.best}};
  }

  json reference(const json& params) const override {
    const lab04::Case c = to_case(params);
    const lab04::Expected e = lab04::expected(c, lab04::make_input(c));
    return {{"first_pass", e.first_pass}, {"total", e.total}, {"launches", e.launches}};
  }

  Comparison compare(const json& params, const json&, const json& reference, const json& outputs) const override {
    const lab04::Case c = to_case(params);
    lab04::Expected e;
    e.first_pass = reference.at("first_pass").get<std::vector<std::int64_t>>();
    e.total = reference.at("total").get<std::int64_t>();
    e.launches = reference.at("launches").get<int>();
    lab04::Outputs out;
    out.first_pass = outputs.at("first_pass").get<std::vector<std::int32_t>>();
    out.total = outputs.at("total").get<std::int64_t>();
    out.launches = outputs.at("launches").get<int>();
    return lab04::check(c, lab04::make_input(c), out, e);
  }
};

}  // namespace

std::unique_ptr<LabDriver> make_lab_driver_04() { return std::make_unique<Lab04Driver>(); }

}  // namespace grader
