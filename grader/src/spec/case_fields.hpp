#pragma once
// A lab's case fields, described once in its spec ("case_fields"): each field's type, whether it is
// optional, and whether the safety case may list several values to run in turn (variants, e.g.
// every rung of lab 04). The spec loader checks every case against them; the lab's adapter then
// only converts.
//
// Which layer checks what, for every case of a spec (the loader runs them in this order):
//   - the case fields (check_case, here): the shape. Which fields a case has (every required one,
//     no undeclared one), their types (a whole number >= 0, a string, one of a list) and where a
//     list of values may stand (variants, the safety case only).
//   - the lab's reader (LabDriver::read_case: the lab's from_json, written back by its to_json,
//     labs/NN-name/*_json.hpp): the same shape seen from the lab's code. It refuses a case missing a
//     field it needs or holding one it does not read; tests/grader/test_case_shapes.cpp holds the
//     two descriptions to each other for every spec, so they cannot drift apart unseen.
//   - the lab's validate (Lab::validate in labs/NN-name/grading.cpp, LabDriver::validate_case): the
//     values' rules, which depend on the lab: "L a power of two", "N a multiple of L" (lab 03),
//     "groups fixed, not 0" (lab 06), "at most 2^21 elements for the float atomic" (lab 08).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace grader {

using json = nlohmann::json;

struct CaseField {
  std::string name;
  std::string type;     // "count" (a whole number >= 0), "text", or "one-of" (one of `values`)
  json values;          // the allowed values of a one-of field
  bool optional = false;
  bool variants = false;  // the safety case may give a list of values: each runs in turn
  std::string meaning;    // for people: what the field sets
};

// The spec's "case_fields" object; throws kit::Error naming `where` and the field at fault.
std::vector<CaseField> load_case_fields(const std::string& where, const json& node);

// Throws kit::Error naming the field unless `params` has every required field, no unknown one, and
// values of the declared types. A list of values is accepted in a variants field when
// `allow_variants` (the safety case), and in at most one field.
void check_case(const std::vector<CaseField>& fields, const json& params, const std::string& lab, bool allow_variants);

// The cases a case stands for: itself, or one per value of its one listed (variants) field, in order.
std::vector<json> expand_variants(const json& params);

// The name and value of the listed field ("" when none).
std::pair<std::string, json> variant_field(const json& params);

}  // namespace grader
