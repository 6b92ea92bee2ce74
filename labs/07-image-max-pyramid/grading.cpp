// Lab 07 image max pyramid for the grader: cases {width, height, block, op, data, seed}; graded
// outputs are every level's size and digest (FNV-1a of its texels) and the result, all exact. The
// texels never leave the child: where a level differs from the host's pyramid, the child names a
// few wrong texels, and the grader recomputes the expected values for the message and the hint.
#include <cmath>
#include <memory>

#include "image_pyramid.hpp"
#include "kit/errors.hpp"
#include "labs.hpp"

namespace grader {
namespace {

lab07::Case to_case(const json& p) {
  lab07::Case c;
  c.width = p.at("width").get<std::size_t>();
  c.height = p.at("height").get<std::size_t>();
  c.block = p.at("block").get<int>();
  c.op = lab07::parse_op(p.at("op").get<std::string>());
  c.data = lab07::parse_data(p.at("data").get<std::string>());
  c.seed = p.at("seed").get<std::uint64_t>();
  return c;
}

// A texel as JSON: a number, or "inf", "-inf", "nan" (JSON has no such numbers, and the +-infinity
// the host fills the ping-pong images with is what a block reaching past its level picks up).
json texel_to_json(float v) {
  if (std::isfinite(v)) return v;
  return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
}

float texel_from_json(const json& v) {
  if (v.is_number()) return v.get<float>();
  const std::string text = v.get<std::string>();
  return text == "inf" ? INFINITY : text == "-inf" ? -INFINITY : NAN;
}

json levels_to_json(const std::vector<lab07::LevelDigest>& levels) {
  json all = json::array();
  for (const lab07::LevelDigest& l : levels) all.push_back({{"width", l.width}, {"height", l.height}, {"digest", l.digest}});
  return all;
}

std::vector<lab07::LevelDigest> levels_from_json(const json& all) {
  std::vector<lab07::LevelDigest> levels;
  for (const json& l : all)
    levels.push_back({l.at("width").get<std::size_t>(), l.at("height").get<std::size_t>(), l.at("digest").get<std::string>()});
  return levels;
}

class Lab07Driver : public LabDriver {
 public:
  std::string id() const override { return lab07::kLab; }
  std::vector<kit::KernelSignature> kernels() const override { return lab07::all_signatures(); }

  void validate_case(const json& p) const override {
    lab07::validate(to_case(p));
  }

  json tolerance() const override { return "exact"; }  // maxima and minima

  json run_case(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                const json& params) const override {
    const lab07::Case c = to_case(params);
    const std::vector<float> in = lab07::make_input(c);
    const lab07::Outputs out = lab07::run(rt, kernel, c, in, 0, 1, shown_as);
    const lab07::Summary s = lab07::summarize(out, lab07::host_pyramid(c, in));
    json wrong = nullptr;
    if (s.wrong) {
      json texels = json::array();
      for (const lab07::WrongTexel& t : s.wrong->texels) texels.push_back({t.x, t.y, texel_to_json(t.got)});
      wrong = {{"level", s.wrong->level}, {"count", s.wrong->count}, {"texels", texels}};
    }
    return {{"result", texel_to_json(s.result)}, {"passes", s.passes}, {"levels", levels_to_json(s.levels)}, {"wrong", wrong},
            {"seconds", out.timing.best}};
  }

  json reference(const json& params) const override {
    const lab07::Case c = to_case(params);
    const lab07::Expected e = lab07::expected(c, lab07::host_pyramid(c, lab07::make_input(c)));
    return {{"value", e.value}, {"passes", e.passes}, {"levels", levels_to_json(e.levels)}};
  }

  Comparison compare(const json& params, const json&, const json& reference, const json& outputs) const override {
    const lab07::Case c = to_case(params);
    lab07::Expected e;
    e.value = reference.at("value").get<double>();
    e.passes = reference.at("passes").get<int>();
    e.levels = levels_from_json(reference.at("levels"));
    lab07::Summary s;
    s.result = texel_from_json(outputs.at("result"));
    s.passes = outputs.at("passes").get<int>();
    s.levels = levels_from_json(outputs.at("levels"));
    if (const json& w = outputs.at("wrong"); !w.is_null()) {
      lab07::Wrong wrong;
      wrong.level = w.at("level").get<std::size_t>();
      wrong.count = w.at("count").get<std::size_t>();
      for (const json& t : w.at("texels"))
        wrong.texels.push_back({t.at(0).get<std::size_t>(), t.at(1).get<std::size_t>(), texel_from_json(t.at(2))});
      s.wrong = wrong;
    }
    // Both compute the host pyramid from the case, and only when a level differs.
    return lab07::check(c, s, e);
  }
};

}  // namespace

std::unique_ptr<LabDriver> make_lab_driver_07() { return std::make_unique<Lab07Driver>(); }

}  // namespace grader
