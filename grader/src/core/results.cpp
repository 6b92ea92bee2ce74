#include "core/results.hpp"

#include <cmath>

namespace grader {

std::string dump_json(const json& j, int indent) { return j.dump(indent, ' ', false, json::error_handler_t::replace); }

// Points are whole hundredths (the points policy rounds to them): the sum is rounded to hundredths
// so that 2 + 0.4 + 0.6 is 3, not 3.0000000000000004.
double LabResult::points() const {
  double total = 0;
  for (const CaseResult& c : cases) total += c.points;
  return std::round(total * 100) / 100;
}

double LabResult::max_points() const {
  double total = 0;
  for (const CaseResult& c : cases) total += c.max_points;
  return total;
}

json to_json(const CaseResult& c) {
  json j = {{"name", c.name},     {"visible", c.visible}, {"points", c.points},   {"max_points", c.max_points},
            {"status", c.status}, {"message", c.message}, {"hint", c.hint},       {"seconds", c.seconds},
            {"kind", c.kind}};
  if (c.ratio >= 0) j["ratio"] = c.ratio;
  return j;
}

json to_json(const LabResult& r) {
  json cases = json::array();
  for (const CaseResult& c : r.cases) cases.push_back(to_json(c));
  return {{"student", r.student}, {"lab", r.lab},         {"kernel", r.kernel},         {"status", r.status},
          {"message", r.message}, {"notes", r.notes},     {"points", r.points()},       {"max_points", r.max_points()},
          {"cases", cases}, {"device", r.device}};
}

LabResult lab_result_from_json(const json& j) {
  LabResult r;
  r.student = j.at("student").get<std::string>();
  r.lab = j.at("lab").get<std::string>();
  r.kernel = j.at("kernel").get<std::string>();
  r.status = j.at("status").get<std::string>();
  r.message = j.at("message").get<std::string>();
  r.notes = j.at("notes").get<std::vector<std::string>>();
  r.device = j.value("device", "");
  for (const json& c : j.at("cases"))
    r.cases.push_back({c.at("name").get<std::string>(), c.at("visible").get<bool>(), c.at("points").get<double>(),
                       c.at("max_points").get<double>(), c.at("status").get<std::string>(),
                       c.at("message").get<std::string>(), c.at("hint").get<std::string>(), c.at("seconds").get<double>(),
                       c.value("kind", "case"), c.value("ratio", -1.0)});
  return r;
}

}  // namespace grader
