#include "labs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "kit/errors.hpp"

namespace grader {

namespace {
const std::vector<std::unique_ptr<LabDriver>>& drivers() {
  static const auto all = registered_lab_drivers();
  return all;
}
}  // namespace

const LabDriver& lab_driver(const std::string& lab) {
  std::string known;
  for (const auto& d : drivers()) {
    if (d->id() == lab) return *d;
    known += (known.empty() ? "" : ", ") + d->id();
  }
  throw kit::Error("the grader knows no lab '" + lab + "' (known: " + known + ")");
}

json LabDriver::run_speed(const kit::Runtime&, const std::filesystem::path&, const std::string&,
                          const std::filesystem::path&, const json&, int) const {
  throw kit::Error("lab " + id() + " has no speed case");
}

void require_fields(const json& params, const std::vector<std::string>& numbers, const std::vector<std::string>& texts,
                    const std::string& lab, const std::vector<std::string>& optional) {
  if (!params.is_object()) throw kit::Error("a case must be a JSON object");
  std::string all;
  for (const auto* list : {&numbers, &texts})
    for (const std::string& key : *list) all += (all.empty() ? "" : ", ") + key;
  for (const std::string& key : optional) all += (all.empty() ? "" : ", ") + key + " (optional)";
  for (const std::string& key : numbers)
    if (!params.contains(key) || !params.at(key).is_number_unsigned()) throw kit::Error(key + ": must be a whole number >= 0");
  for (const std::string& key : texts)
    if (!params.contains(key) || !params.at(key).is_string()) throw kit::Error(key + ": must be a string");
  for (const auto& [key, value] : params.items())
    if (std::find(numbers.begin(), numbers.end(), key) == numbers.end() && std::find(texts.begin(), texts.end(), key) == texts.end() &&
        std::find(optional.begin(), optional.end(), key) == optional.end())
      throw kit::Error(key + ": not a field of " + lab + " cases (" + all + ")");
}

json float_to_json(double value) { return std::isnan(value) ? json(nullptr) : json(value); }

double json_to_float(const json& value) {
  return value.is_null() ? std::numeric_limits<double>::quiet_NaN() : value.get<double>();
}

}  // namespace grader
