// Lab 04 tree reductions for the grader: cases {elements, local, seed, rung}; graded outputs are
// the first launch's per-work-group sums and the total, exactly (the host decides the launches). Rung 0
// (the memory-safety case only) runs every rung.
#include <memory>

#include "kit/errors.hpp"
#include "labs.hpp"
#include "tree_reductions.hpp"

namespace grader {
namespace {

lab04::Case to_case(const json& p, int rung) {
  lab04::Case c;
  c.elements = p.at("elements").get<std::size_t>();
  c.local = p.at("local").get<std::size_t>();
  c.seed = p.at("seed").get<std::uint64_t>();
  c.rung = rung;
  return c;
}

class Lab04Driver : public LabDriver {
 public:
  std::string id() const override { return lab04::kLab; }
  std::vector<kit::KernelSignature> kernels() const override { return lab04::all_signatures(); }

  void validate_case(const json& p) const override {
    require_fields(p, {"elements", "local", "seed", "rung"}, {}, "lab 04");
    const int rung = p.at("rung").get<int>();
    if (rung != 0) lab04::validate(to_case(p, rung));
    else lab04::validate(to_case(p, 1));
  }

  void validate_tolerance(const json& policy) const override {
    if (policy != json("exact")) throw kit::Error("lab 04 sums ints: \"tolerance\": \"exact\", not " + policy.dump());
  }

  json run_case(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                const json& params) const override {
    const int chosen = params.at("rung").get<int>();
    json all = json::array();
    for (const lab04::Rung& r : lab04::rungs()) {
      if (chosen != 0 && r.number != chosen) continue;
      const lab04::Case c = to_case(params, r.number);
      const lab04::Outputs out = lab04::run(rt, kernel, c, lab04::make_input(c), 0, 1, shown_as);
      all.push_back({{"rung", r.number}, {"first_pass", out.first_pass}, {"total", out.total}, {"launches", out.launches},
                     {"seconds", out.timing.best}});
    }
    return chosen != 0 ? all[0] : json{{"rungs", all}};
  }

  json reference(const json& params) const override {
    const lab04::Case c = to_case(params, params.at("rung").get<int>());
    const lab04::Expected e = lab04::expected(c, lab04::make_input(c));
    return {{"first_pass", e.first_pass}, {"total", e.total}, {"launches", e.launches}};
  }

  Comparison compare(const json& params, const json&, const json& reference, const json& outputs) const override {
    const lab04::Case c = to_case(params, params.at("rung").get<int>());
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
