#include "core/results.hpp"

#include <cmath>

#include "core/words.hpp"

namespace grader {
namespace {

constexpr Word<CaseStatus> kCaseStatusWords[] = {
    {CaseStatus::Passed, "passed"},   {CaseStatus::Wrong, "wrong"},
    {CaseStatus::Slow, "slow"},       {CaseStatus::Unsafe, "unsafe"},
    {CaseStatus::Timeout, "timeout"}, {CaseStatus::Crashed, "crashed"},
    {CaseStatus::OutOfMemory, "out-of-memory"}, {CaseStatus::NotRun, "not-run"},
    {CaseStatus::Error, "error"},     {CaseStatus::Late, "late"},
    {CaseStatus::NotChecked, "not-checked"}, {CaseStatus::Scaled, "scaled"},
                                                 {CaseStatus::DeviceDisagrees, "device-disagrees"}, {CaseStatus::Withheld, "withheld"}};
static_assert(one_word_each(kCaseStatusWords, CaseStatus::Withheld));

constexpr Word<CaseKind> kCaseKindWords[] = {{CaseKind::Case, "case"},
                                             {CaseKind::Speed, "speed"},
                                             {CaseKind::Safety, "safety"},
                                             {CaseKind::Algorithm, "algorithm"},
                                             {CaseKind::Late, "late"}};
static_assert(one_word_each(kCaseKindWords, CaseKind::Late));

constexpr Word<LabStatus> kLabStatusWords[] = {{LabStatus::Graded, "graded"},
                                               {LabStatus::Missing, "missing"},
                                               {LabStatus::Rejected, "rejected"},
                                               {LabStatus::BuildError, "build-error"},
                                               {LabStatus::Error, "error"},
                                               {LabStatus::UnchangedStarter, "unchanged-starter"}};
static_assert(one_word_each(kLabStatusWords, LabStatus::UnchangedStarter));

}  // namespace

std::string word(CaseStatus status) { return word_in(kCaseStatusWords, status); }
std::string word(CaseKind kind) { return word_in(kCaseKindWords, kind); }
std::string word(LabStatus status) { return word_in(kLabStatusWords, status); }
void to_json(json& j, CaseStatus status) { j = word(status); }
void to_json(json& j, CaseKind kind) { j = word(kind); }
void to_json(json& j, LabStatus status) { j = word(status); }
void from_json(const json& j, CaseStatus& status) { status = value_of(kCaseStatusWords, j.get<std::string>(), "case status"); }
void from_json(const json& j, CaseKind& kind) { kind = value_of(kCaseKindWords, j.get<std::string>(), "case kind"); }
void from_json(const json& j, LabStatus& status) { status = value_of(kLabStatusWords, j.get<std::string>(), "lab status"); }

bool not_run_on_device(const CaseResult& c) { return c.status == CaseStatus::NotRun && c.max_points == 0; }

bool not_run_for_time_budget(const CaseResult& c) {
  return c.status == CaseStatus::NotRun && c.message.rfind(kNotRunAfterTimeout, 0) == 0;
}

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
  if (c.ratio_low >= 0) j["ratio_low"] = c.ratio_low, j["ratio_high"] = c.ratio_high;
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
  r.status = j.at("status").get<LabStatus>();
  r.message = j.at("message").get<std::string>();
  r.notes = j.at("notes").get<std::vector<std::string>>();
  r.device = j.value("device", "");
  for (const json& c : j.at("cases"))
    r.cases.push_back({c.at("name").get<std::string>(), c.at("visible").get<bool>(), c.at("points").get<double>(),
                       c.at("max_points").get<double>(), c.at("status").get<CaseStatus>(),
                       c.at("message").get<std::string>(), c.at("hint").get<std::string>(), c.at("seconds").get<double>(),
                       c.value("kind", CaseKind::Case), c.value("ratio", -1.0), c.value("ratio_low", -1.0), c.value("ratio_high", -1.0)});
  return r;
}

}  // namespace grader
