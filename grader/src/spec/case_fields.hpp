#pragma once
// A lab's case fields, described once in its spec ("case_fields"): each field's type, whether it is
// optional, and whether the safety case may list several values to run in turn (variants, e.g.
// every rung of lab 04). The spec loader checks every case against them; the lab's adapter then
// only converts.
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
