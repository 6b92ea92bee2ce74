#include "spec/case_fields.hpp"

#include <algorithm>

#include "kit/errors.hpp"

namespace grader {
namespace {

const std::vector<std::string> kTypes = {"count", "text", "one-of"};

std::string describe(const CaseField& f) {
  if (f.type == "count") return "a whole number >= 0";
  if (f.type == "text") return "a string";
  std::string all;
  for (const json& v : f.values) all += (all.empty() ? "" : ", ") + v.dump();
  return "one of " + all;
}

// Whether one value fits the field's type.
bool fits(const CaseField& f, const json& v) {
  if (f.type == "count") return v.is_number_unsigned();
  if (f.type == "text") return v.is_string();
  return std::find(f.values.begin(), f.values.end(), v) != f.values.end();
}

}  // namespace

std::vector<CaseField> load_case_fields(const std::string& where, const json& node) {
  const auto fail = [&](const std::string& field, const std::string& problem) -> void {
    throw kit::Error(where + ".case_fields" + (field.empty() ? "" : "." + field) + ": " + problem);
  };
  if (!node.is_object() || node.empty())
    fail("", "must be an object of field: {\"type\": \"count\" | \"text\" | \"one-of\", ...}");
  std::vector<CaseField> fields;
  for (const auto& [name, d] : node.items()) {
    if (!d.is_object()) fail(name, "must be an object with \"type\"");
    CaseField f;
    f.name = name;
    f.type = d.value("type", "");
    if (std::find(kTypes.begin(), kTypes.end(), f.type) == kTypes.end())
      fail(name + ".type", "must be \"count\", \"text\" or \"one-of\", not " + d.value("type", json("")).dump());
    if (f.type == "one-of") {
      f.values = d.value("values", json());
      if (!f.values.is_array() || f.values.empty()) fail(name + ".values", "a one-of field needs a non-empty list of values");
    } else if (d.contains("values")) {
      fail(name + ".values", "only a one-of field has values");
    }
    for (const auto& [key, value] : d.items()) {
      if (key == "optional" || key == "variants") {
        if (!value.is_boolean()) fail(name + "." + key, "must be true or false");
      } else if (key != "type" && key != "values" && key != "meaning") {
        fail(name + "." + key, "not a property of a case field (type, values, optional, variants, meaning)");
      }
    }
    f.optional = d.value("optional", false);
    f.variants = d.value("variants", false);
    f.meaning = d.value("meaning", "");
    fields.push_back(f);
  }
  return fields;
}

void check_case(const std::vector<CaseField>& fields, const json& params, const std::string& lab, bool allow_variants) {
  if (!params.is_object()) throw kit::Error("a case must be a JSON object");
  std::string all;
  for (const CaseField& f : fields) all += (all.empty() ? "" : ", ") + f.name + (f.optional ? " (optional)" : "");
  for (const auto& [key, value] : params.items())
    if (std::none_of(fields.begin(), fields.end(), [&](const CaseField& f) { return f.name == key; }))
      throw kit::Error(key + ": not a field of " + lab + " cases (" + all + ")");
  std::size_t lists = 0;
  for (const CaseField& f : fields) {
    if (!params.contains(f.name)) {
      if (f.optional) continue;
      throw kit::Error(f.name + ": missing (" + describe(f) + ")");
    }
    const json& v = params.at(f.name);
    if (v.is_array()) {
      if (!f.variants) throw kit::Error(f.name + ": must be " + describe(f) + ", not a list");
      if (!allow_variants)
        throw kit::Error(f.name + ": a list of values runs each in turn, which only the safety case does; a graded case has one");
      if (v.empty()) throw kit::Error(f.name + ": an empty list runs nothing");
      if (++lists > 1) throw kit::Error(f.name + ": only one field of a case may list several values");
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (!fits(f, v[i])) throw kit::Error(f.name + "[" + std::to_string(i) + "]: must be " + describe(f) + ", not " + v[i].dump());
        if (std::find(v.begin(), v.begin() + long(i), v[i]) != v.begin() + long(i))
          throw kit::Error(f.name + "[" + std::to_string(i) + "]: " + v[i].dump() + " is listed twice");
      }
    } else if (!fits(f, v)) {
      throw kit::Error(f.name + ": must be " + describe(f) + ", not " + v.dump());
    }
  }
}

std::pair<std::string, json> variant_field(const json& params) {
  for (const auto& [key, value] : params.items())
    if (value.is_array()) return {key, value};
  return {"", json()};
}

std::vector<json> expand_variants(const json& params) {
  const auto [field, values] = variant_field(params);
  if (field.empty()) return {params};
  std::vector<json> all;
  for (const json& v : values) {
    json one = params;
    one[field] = v;
    all.push_back(one);
  }
  return all;
}

}  // namespace grader
