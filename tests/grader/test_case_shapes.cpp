// A lab's case shape is written in two places: its spec's `case_fields` (what the loader checks
// every case against, with check_case) and the lab's JSON reader (`from_json`/`to_json` in
// labs/NN-name/*_json.hpp, reached through LabDriver::read_case). These tests hold the two to each
// other for every lab with a spec, so that neither can change without the other.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "grader/lab/driver.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

namespace {

using grader::json;

// Every case a spec runs, one value per field, with where it comes from: the graded cases, each
// value of each safety run's listed field, the speed case.
std::vector<std::pair<std::string, json>> every_case(const grader::LabSpec& spec) {
  std::vector<std::pair<std::string, json>> all;
  for (std::size_t i = 0; i < spec.cases.size(); ++i) all.emplace_back("cases[" + std::to_string(i) + "]", spec.cases[i].params);
  if (spec.safety)
    for (std::size_t i = 0; i < spec.safety->runs.size(); ++i)
      for (const json& one : grader::expand_variants(spec.safety->runs[i])) all.emplace_back("safety run " + std::to_string(i), one);
  if (spec.speed) all.emplace_back("speed.case", spec.speed->params);
  return all;
}

// The message of the kit::Error that `f` throws; "" when it throws none.
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const kit::Error& e) {
    return e.what();
  }
  return "";
}

// Where the spec's case fields and the lab's reader disagree about the spec's cases; empty when
// they describe the same fields.
std::vector<std::string> shape_problems(const grader::LabSpec& spec, const grader::LabDriver& driver) {
  std::vector<std::string> problems;
  const auto note = [&](const std::string& where, const std::string& what) { problems.push_back(spec.lab + ": " + where + ": " + what); };
  const std::string lab = "lab " + spec.lab.substr(0, 2);
  const auto fields_refusal = [&](const json& c) { return refusal([&] { grader::check_case(spec.case_fields, c, lab, false); }); };
  const auto reader_refusal = [&](const json& c) { return refusal([&] { driver.read_case(c); }); };

  std::set<std::string> read_somewhere;           // every field the lab's reader wrote back for some case
  std::map<std::string, bool> optional_left_out;  // optional field -> the reader read a case without it
  std::map<std::string, std::set<std::string>> values_read;  // one-of field -> the values read back as given
  for (const auto& [where, one] : every_case(spec)) {
    if (const std::string why = reader_refusal(one); !why.empty()) {
      note(where, "the lab's reader refuses a case of the spec: " + why);
      continue;
    }
    const json written = driver.read_case(one);
    for (const auto& [key, value] : written.items()) read_somewhere.insert(key);
    // The fields the lab reads are fields the spec declares, of the declared types.
    if (const std::string why = fields_refusal(written); !why.empty())
      note(where, "the case as the lab reads it is not a case of the spec's case_fields: " + why);
    // The lab read every field the case gives, with the value given.
    for (const auto& [key, value] : one.items())
      if (!written.contains(key) || written.at(key) != value)
        note(where, key + ": the case gives " + value.dump() + ", the lab read " + (written.contains(key) ? written.at(key).dump() : "nothing"));
    // from_json and to_json agree: what the lab writes it reads back the same.
    if (const std::string why = reader_refusal(written); !why.empty()) note(where, "the lab cannot read back the case it wrote: " + why);
    else if (driver.read_case(written) != written) note(where, "the lab reads back another case than it wrote: " + written.dump());

    for (const grader::CaseField& f : spec.case_fields) {
      json without = one;
      without.erase(f.name);
      const std::string by_fields = fields_refusal(without), by_reader = reader_refusal(without);
      if (f.optional) {
        if (!by_fields.empty()) note(where, f.name + ": declared optional, yet the case fields refuse the case without it: " + by_fields);
        optional_left_out[f.name] |= by_reader.empty();
      } else if (one.contains(f.name)) {
        if (by_fields.find(f.name) == std::string::npos) note(where, f.name + ": the case fields accept the case without this required field");
        if (by_reader.find(f.name) == std::string::npos)
          note(where, f.name + ": declared required, but the lab's reader " +
                          (by_reader.empty() ? "reads the case without it" : "refuses the case without it without naming it: " + by_reader));
      }
    }
    // Each value a one-of field allows, put in this case: read back as itself? (A value may be
    // refused in one case by a rule of the lab's, e.g. lab 08's accuracy part without `run`.)
    for (const grader::CaseField& f : spec.case_fields)
      if (f.type == "one-of" && one.contains(f.name))
        for (const json& v : f.values) {
          json other = one;
          other[f.name] = v;
          if (reader_refusal(other).empty() && driver.read_case(other).at(f.name) == v) values_read[f.name].insert(v.dump());
        }
    // A field the spec does not declare is refused by both, naming it.
    json extra = one;
    extra["undeclared_field"] = 1u;
    if (fields_refusal(extra).find("undeclared_field") == std::string::npos) note(where, "the case fields accept an undeclared field");
    if (reader_refusal(extra).find("undeclared_field") == std::string::npos) note(where, "the lab's reader accepts an undeclared field");
  }
  for (const grader::CaseField& f : spec.case_fields)
    if (!read_somewhere.count(f.name)) note("case_fields." + f.name, "declared, but the lab reads it in no case of the spec (its to_json never writes it)");
  for (const grader::CaseField& f : spec.case_fields)
    for (const json& v : f.values)
      if (read_somewhere.count(f.name) && !values_read[f.name].count(v.dump()))
        note("case_fields." + f.name, "allows " + v.dump() + ", which the lab's reader reads as itself in no case of the spec");
  for (const auto& [name, read_without] : optional_left_out)
    if (!read_without) note("case_fields." + name, "declared optional, but the lab's reader refuses every case of the spec without it");
  return problems;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& line : lines) all += "\n  " + line;
  return all;
}

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
  for (const std::string& p : problems)
    if (p.find(text) != std::string::npos) return true;
  return false;
}

grader::LabSpec shipped_spec(const std::string& lab) { return grader::load_specs(kit::root() / "grader" / "specs", {lab}).at(0); }

grader::CaseField& field(grader::LabSpec& spec, const std::string& name) {
  for (grader::CaseField& f : spec.case_fields)
    if (f.name == name) return f;
  throw std::logic_error(spec.lab + " declares no case field " + name);
}

}  // namespace

TEST_CASE("case shapes: every spec's case_fields are the fields its lab's reader reads") {
  const std::vector<grader::LabSpec> specs = grader::load_specs(kit::root() / "grader" / "specs");
  REQUIRE_FALSE(specs.empty());
  std::size_t cases = 0;
  for (const grader::LabSpec& spec : specs) {
    CAPTURE(spec.lab);
    const std::vector<std::string> problems = shape_problems(spec, grader::lab_driver(spec.lab));
    CHECK_MESSAGE(problems.empty(), joined(problems));
    cases += every_case(spec).size();
  }
  CHECK(cases > specs.size());
}

TEST_CASE("case shapes: the check sees a spec's case_fields and its lab's reader drift apart") {
  const grader::LabDriver& lab03 = grader::lab_driver("03-array-mult-reduce");
  const grader::LabDriver& lab06 = grader::lab_driver("06-cascade-reduction");
  {  // a field declared that the lab does not read
    grader::LabSpec spec = shipped_spec("03");
    spec.case_fields.push_back({"colour", "count", json(), true, false, "a field lab 03's code does not have"});
    CHECK(mentions(shape_problems(spec, lab03), "case_fields.colour: declared, but the lab reads it in no case"));
  }
  {  // a field the lab reads that is not declared
    grader::LabSpec spec = shipped_spec("03");
    spec.case_fields.erase(spec.case_fields.begin() + (&field(spec, "seed") - spec.case_fields.data()));
    CHECK(mentions(shape_problems(spec, lab03), "seed: not a field of lab 03 cases"));
  }
  {  // declared optional, but the lab needs it
    grader::LabSpec spec = shipped_spec("03");
    field(spec, "seed").optional = true;
    CHECK(mentions(shape_problems(spec, lab03), "case_fields.seed: declared optional, but the lab's reader refuses every case"));
  }
  {  // declared required, but the lab does without it
    grader::LabSpec spec = shipped_spec("06");
    field(spec, "branch").optional = false;
    CHECK(mentions(shape_problems(spec, lab06), "branch: declared required, but the lab's reader reads the case without it"));
  }
  {  // a value the lab does not know (lab 06 reads any combine but "device" as "host")
    grader::LabSpec spec = shipped_spec("06");
    field(spec, "combine").values = json::array({"host", "device", "both"});
    CHECK(mentions(shape_problems(spec, lab06), "case_fields.combine: allows \"both\", which the lab's reader reads as itself in no case"));
  }
  {  // another type than the lab reads
    grader::LabSpec spec = shipped_spec("06");
    field(spec, "groups").type = "text";
    CHECK(mentions(shape_problems(spec, lab06), "groups: must be a string"));
  }
  // A case giving a field the lab does not read is refused by the lab's reader, and so by the spec
  // loader even where the spec's case_fields declare it.
  const json c = shipped_spec("03").cases.at(0).params;
  json extra = c;
  extra["colour"] = 3u;
  CHECK_THROWS_WITH_AS(lab03.read_case(extra), doctest::Contains("colour: not a field the lab reads (data, elements, local, seed)"), kit::Error);
  CHECK_THROWS_WITH_AS(lab03.validate_case(extra), doctest::Contains("colour: not a field the lab reads"), kit::Error);
  json missing = c;
  missing.erase("local");
  CHECK_THROWS_WITH_AS(lab03.read_case(missing), doctest::Contains("'local'"), kit::Error);
  test::TempDir dir;
  std::string text = test::read(kit::root() / "grader" / "specs" / "03-array-mult-reduce.json");
  text = test::replace_once(text, R"("case_fields": {)", R"("case_fields": {"colour": {"type": "count", "optional": true},)");
  test::write(dir / "03-array-mult-reduce.json", text);
  CHECK_NOTHROW(grader::load_specs(dir.path, {"03"}));  // declared but given by no case: only shape_problems sees it
  const json first = json::parse(text).at("cases").at(0);
  const std::string name = first.at("name").get<std::string>();
  text = test::replace_once(text, "\"name\": \"" + name + "\"", "\"name\": \"" + name + "\", \"colour\": 3");
  test::write(dir / "03-array-mult-reduce.json", text);
  CHECK_THROWS_WITH_AS(grader::load_specs(dir.path, {"03"}), doctest::Contains("cases[0]: colour: not a field the lab reads"), kit::Error);
}
