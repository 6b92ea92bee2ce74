// Stored references: regenerating gives byte-identical files; edited or stale ones are refused.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "kit/paths.hpp"
#include "support.hpp"

using json = nlohmann::json;

namespace {
const std::filesystem::path kStored = kit::root() / "grader" / "reference";
}

TEST_CASE("regenerating the references reproduces the committed files byte for byte") {
  test::TempDir a, b;
  for (const test::TempDir* dir : {&a, &b}) {
    const auto run = test::run_program("grader", "--references " + dir->path.string() + " reference");
    REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  }
  CHECK(test::snapshot(a.path) == test::snapshot(b.path));
  CHECK(test::snapshot(a.path) == test::snapshot(kStored));
}

TEST_CASE("an edited reference file or a changed spec is refused with how to regenerate") {
  test::TempDir refs, specs;
  std::filesystem::copy(kStored, refs.path, std::filesystem::copy_options::recursive);
  std::string bytes = test::read(refs / "03-array-mult-reduce.json");
  const auto at = bytes.find("\"partials\":[");
  REQUIRE(at != std::string::npos);
  char& digit = bytes[at + 12];  // the first character of the first stored number
  digit = digit == '9' ? '8' : '9';  // change it, whatever it was
  test::write(refs / "03-array-mult-reduce.json", bytes);
  const auto edited = test::run_program("grader", "--references " + refs.path.string() + " check 03");
  CHECK(edited.exit_code == 1);
  CHECK(edited.output.find("does not match its checksum") != std::string::npos);
  CHECK(edited.output.find("grader reference") != std::string::npos);

  // A case's parameters decide its output: a spec whose case asks for other parameters than its
  // reference was made with is refused, naming the case and both sets.
  json spec = json::parse(test::read(kit::root() / "grader" / "specs" / "03-array-mult-reduce.json"));
  const std::string name = spec["cases"][0]["name"];
  spec["cases"][0]["seed"] = spec["cases"][0]["seed"].get<int>() + 1;
  test::write(specs / "03-array-mult-reduce.json", spec.dump(2));
  const auto stale = test::run_program("grader", "--specs " + specs.path.string() + " check 03");
  CHECK(stale.exit_code == 1);
  CHECK(stale.output.find("case '" + name + "' has parameters") != std::string::npos);
  CHECK(stale.output.find("but its reference in") != std::string::npos);
  CHECK(stale.output.find("grader reference") != std::string::npos);
}

TEST_CASE("policy is not an output: points, limits and a late penalty change without regenerating the references") {
  test::TempDir specs;
  json spec = json::parse(test::read(kit::root() / "grader" / "specs" / "03-array-mult-reduce.json"));
  spec["late_penalty_per_day"] = 0.25;
  spec["cases"][0]["points"] = spec["cases"][0]["points"].get<double>() + 1;
  spec["time_limit_s"] = spec["time_limit_s"].get<double>() + 1;
  test::write(specs / "03-array-mult-reduce.json", spec.dump(2));
  const auto run = test::run_program("grader", "--specs " + specs.path.string() + " check 03 --dir " + test::kit_path("solutions"));
  CHECK_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.find("All visible cases pass") != std::string::npos);
}
