// Grading specs: the shipped one loads; every kind of mistake in a spec is named with its field.
#include <doctest/doctest.h>

#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

namespace {
const char* kGood = R"({"lab": "03-array-mult-reduce", "title": "t", "kernel_file": "ArrayMultReduce.cl",
  "compare": "c", "points_policy": "earned-with-correctness",
  "case_fields": {"elements": {"type": "count"}, "local": {"type": "count"}, "data": {"type": "one-of", "values": ["int", "real"]},
                  "seed": {"type": "count"}},
  "cases": [{"name": "a", "elements": 64, "local": 8, "data": "int", "seed": 1, "points": 2, "visibility": "visible"}]})";

std::string error_of(const std::string& text) {
  test::TempDir dir;
  test::write(dir / "03-array-mult-reduce.json", text);
  try {
    grader::load_spec(dir / "03-array-mult-reduce.json");
  } catch (const kit::Error& e) {
    return e.what();
  }
  return "";
}

std::string with_field_removed(std::string text, const std::string& field) {
  const auto at = text.find(field);
  REQUIRE(at != std::string::npos);
  return text.erase(at, field.size());
}

std::string with(const std::string& from, const std::string& to) {
  std::string s = kGood;
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}
}  // namespace

TEST_CASE("the shipped lab 03 spec has the awkward cases the issue asks for") {
  const auto specs = grader::load_specs(kit::root() / "grader" / "specs", {"03"});
  REQUIRE(specs.size() == 1);
  const grader::LabSpec& s = specs[0];
  CHECK(s.kernel_file == "ArrayMultReduce.cl");
  bool l1 = false, one_group = false, device_max = false, large = false, ints = false, reals = false, hidden = false, visible = false;
  for (const auto& c : s.cases) {
    const auto n = c.params["elements"].get<std::size_t>(), l = c.params["local"].get<std::size_t>();
    l1 |= l == 1;
    one_group |= n == l && l > 1;
    device_max |= l == 4096;
    large |= n >= (std::size_t(4) << 20);
    ints |= c.params["data"] == "int";
    reals |= c.params["data"] == "real";
    hidden |= !c.visible;
    visible |= c.visible;
  }
  CHECK((l1 && one_group && device_max && large && ints && reals && hidden && visible));
  CHECK(s.max_points() == 18);         // 10 for the cases, 5 for the memory-safety checks, 3 for the algorithm
  CHECK(s.max_points(true) == 13);
  CHECK(s.max_points(false, false) == 10);
  REQUIRE(s.safety);
  CHECK(s.safety->checks.size() == 4);
}

TEST_CASE("a spec's mistakes are named by file and field") {
  CHECK(error_of(kGood).empty());
  CHECK(error_of("{ not json").find("not valid JSON") != std::string::npos);
  CHECK(error_of(with(R"("title": "t", )", "")).find(".title: missing") != std::string::npos);
  CHECK(error_of(with(R"("visibility": "visible")", R"("visibility": "public")"))
            .find("cases[0].visibility: must be \"visible\" or \"hidden\"") != std::string::npos);
  CHECK(error_of(with(R"("points": 2)", R"("points": -1)")).find("cases[0].points: must be a positive number") !=
        std::string::npos);
  CHECK(error_of(with(R"("local": 8)", R"("local": 6)")).find("cases[0]: local size 6 is not a power of two") !=
        std::string::npos);
  CHECK(error_of(with(R"("seed": 1)", R"("seed": 1, "colour": 3)")).find("colour: not a field") != std::string::npos);
  // The case fields, described once in the spec, check every case: types, values, missing fields.
  CHECK(error_of(with(R"("seed": 1)", R"("seed": "one")")).find("cases[0]: seed: must be a whole number >= 0, not \"one\"") !=
        std::string::npos);
  CHECK(error_of(with(R"("data": "int")", R"("data": "complex")"))
            .find("cases[0]: data: must be one of \"int\", \"real\", not \"complex\"") != std::string::npos);
  CHECK(error_of(with(R"(, "seed": 1)", "")).find("cases[0]: seed: missing (a whole number >= 0)") != std::string::npos);
  CHECK(error_of(with(R"("data": "int")", R"("data": ["int", "real"])")).find("data: must be one of \"int\", \"real\", not a list") !=
        std::string::npos);
  CHECK(error_of(with(R"("seed": {"type": "count"})", R"("seed": {"type": "number"})"))
            .find(".case_fields.seed.type: must be \"count\", \"text\" or \"one-of\"") != std::string::npos);
  CHECK(error_of(with(R"("seed": {"type": "count"})", R"("seed": {"type": "count", "colour": 1})"))
            .find(".case_fields.seed.colour: not a property of a case field") != std::string::npos);
  CHECK(error_of(with(R"("lab": "03-array-mult-reduce")", R"("lab": "99-nothing")")).find("knows no lab '99-nothing'") !=
        std::string::npos);
  // The tolerance policy is the lab's check's, stated once in its adapter: the loaded spec carries
  // it, and a spec that states one too is refused, even the same one.
  test::TempDir dir;
  test::write(dir / "03-array-mult-reduce.json", kGood);
  CHECK(grader::load_spec(dir / "03-array-mult-reduce.json").tolerance == grader::json{{"int", "exact"}, {"real", "depth-bound"}});
  CHECK(error_of(with(R"("compare": "c", )", R"("compare": "c", "tolerance": {"int": "exact", "real": "depth-bound"}, )"))
            .find("03-array-mult-reduce.json.tolerance: a spec does not state the tolerance: lab 03's check applies "
                  "{\"int\":\"exact\",\"real\":\"depth-bound\"}") != std::string::npos);
  const std::string duplicate = with(R"(, "visibility": "visible"}])",
                                     R"(, "visibility": "visible"}, {"name": "a", "elements": 8, "local": 8, "data": "int", "seed": 1, "points": 1, "visibility": "hidden"}])");
  CHECK(error_of(duplicate).find("cases[1].name: 'a' is used by an earlier case") != std::string::npos);
  // A speed block must say what to do when the kernel is slow.
  const std::string speed = R"(, "speed": {"case": {"elements": 64, "local": 8, "data": "int", "seed": 2}, "points": 1,
    "visibility": "visible", "slow_hint": "fewer barriers"}})";
  CHECK(error_of(with("}]}", "}]" + speed)).empty());
  const std::string no_hint = with("}]}", "}]" + with_field_removed(speed, R"(, "slow_hint": "fewer barriers")"));
  CHECK(error_of(no_hint).find("speed.slow_hint: missing") != std::string::npos);
  CHECK(error_of(with(R"("points_policy": "earned-with-correctness")", R"("points_policy": "lenient")"))
            .find(".points_policy: must be \"earned-with-correctness\", not \"lenient\"") != std::string::npos);
  // Algorithm checks are measured in the safety run, and their unit must name cases that exist.
  const std::string algorithm = R"(, "algorithm": {"visibility": "visible", "checks": [{"kernel": "ArrayMultReduce",
    "points": 1, "ops": "adds", "expect": "a tree", "span_at_most": {"log2_local": 1, "plus": 1}, "unit": {"seed": 1}}]}})";
  const std::string safety = R"(, "safety": {"case": {"elements": 64, "local": 8, "data": "int", "seed": 2},
    "visibility": "visible", "checks": {"data-race": 1}})";
  CHECK(error_of(with("}]}", "}]" + algorithm)).find("algorithm: needs a safety case") != std::string::npos);
  CHECK(error_of(with("}]}", "}]" + safety + algorithm)).empty());
  const std::string unknown_unit = algorithm.substr(0, algorithm.find(R"({"seed": 1})")) + R"({"seed": 9}}]}})";
  CHECK(error_of(with("}]}", "}]" + safety + unknown_unit))
            .find("algorithm.checks[0].unit: {\"seed\":9} matches no case") != std::string::npos);
  // A check without a span bound must bound the busiest work-item's share, or it checks nothing.
  const std::string no_span = with_field_removed(algorithm, R"(, "span_at_most": {"log2_local": 1, "plus": 1})");
  CHECK(error_of(with("}]}", "}]" + safety + no_span)).find("algorithm.checks[0]: checks nothing") != std::string::npos);
  const std::string share_only = no_span.substr(0, no_span.find(R"(, "unit")")) + R"(, "busiest_share_at_most": 0.5}]}})";
  CHECK(error_of(with("}]}", "}]" + safety + share_only)).empty());
  CHECK(error_of(kGood).empty());
}

TEST_CASE("a variants field lets the safety case list its values, each run in turn, and a graded case has one") {
  const std::string variants = R"("data": {"type": "one-of", "values": ["int", "real"], "variants": true})";
  const std::string spec = with(R"("data": {"type": "one-of", "values": ["int", "real"]})", variants);
  const auto with_safety = [&](const std::string& value) {
    std::string s = spec;
    return s.replace(s.rfind("}]}"), 3, R"(}], "safety": {"case": {"elements": 64, "local": 8, "data": )" + value +
                                             R"(, "seed": 2}, "visibility": "visible", "checks": {"data-race": 1}}})");
  };
  const auto error_in = [&](const std::string& text) {
    test::TempDir dir;
    test::write(dir / "03-array-mult-reduce.json", text);
    try {
      grader::load_spec(dir / "03-array-mult-reduce.json");
    } catch (const kit::Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error_in(with_safety(R"(["int", "real"])")).empty());
  CHECK(error_in(with_safety(R"(["int", "int"])")).find("safety.case: data[1]: \"int\" is listed twice") != std::string::npos);
  CHECK(error_in(with_safety(R"([])")).find("safety.case: data: an empty list runs nothing") != std::string::npos);
  CHECK(error_in(with_safety(R"(["int", "complex"])")).find("data[1]: must be one of \"int\", \"real\"") != std::string::npos);
  std::string graded = spec;
  graded.replace(graded.find(R"("data": "int")"), 13, R"("data": ["int", "real"])");
  CHECK(error_in(graded).find("cases[0]: data: a list of values runs each in turn, which only the safety case does") !=
        std::string::npos);

  const auto all = grader::expand_variants(grader::json::parse(R"({"elements": 8, "data": ["int", "real"]})"));
  REQUIRE(all.size() == 2);
  CHECK(all[0] == grader::json::parse(R"({"elements": 8, "data": "int"})"));
  CHECK(all[1] == grader::json::parse(R"({"elements": 8, "data": "real"})"));
  CHECK(grader::expand_variants(grader::json::parse(R"({"elements": 8})")).size() == 1);
}

TEST_CASE("asking for a lab without a spec names it") {
  CHECK_THROWS_WITH_AS(grader::load_specs(kit::root() / "grader" / "specs", {"42"}),
                       doctest::Contains("no grading spec for lab '42'"), kit::Error);
}

TEST_CASE("a safety block gives one run as case or several as cases, each run of cases checked by its index") {
  const auto with_safety = [](const std::string& runs) {
    return with("}]}", "}], \"safety\": {" + runs + R"(, "visibility": "visible", "checks": {"data-race": 1}}})");
  };
  const std::string one = R"({"elements": 64, "local": 8, "data": "int", "seed": 2})";
  const std::string other = R"({"elements": 4096, "local": 1024, "data": "int", "seed": 3})";
  CHECK(error_of(with_safety("\"cases\": [" + one + ", " + other + "]")).empty());
  test::TempDir dir;
  test::write(dir / "03-array-mult-reduce.json", with_safety("\"cases\": [" + one + ", " + other + "]"));
  const grader::LabSpec spec = grader::load_spec(dir / "03-array-mult-reduce.json");
  REQUIRE(spec.safety);
  REQUIRE(spec.safety->runs.size() == 2);
  CHECK(spec.safety->runs[1].at("local") == 1024);
  CHECK(error_of(with_safety("\"case\": " + one + ", \"cases\": [" + other + "]")).find("safety: give one run as \"case\" or several as \"cases\"") !=
        std::string::npos);
  CHECK(error_of(with_safety("\"time_limit_s\": 5")).find("safety: give one run as \"case\" or several as \"cases\"") != std::string::npos);
  CHECK(error_of(with_safety("\"cases\": []")).find("safety.cases: must be a non-empty array of cases") != std::string::npos);
  const std::string bad = R"({"elements": 64, "local": 8, "data": "complex", "seed": 2})";
  CHECK(error_of(with_safety("\"cases\": [" + one + ", " + bad + "]")).find("safety.cases[1]: data: must be one of") != std::string::npos);
}
