// A check that passed, for a kernel that lost case points, is scaled by the points policy: it reads
// "scaled" (PART in `grader check`), never "passed" below its max points, in every output, and its
// message says how many points of how many, why, and what the check found.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "export/classroom.hpp"
#include "export/report_html.hpp"
#include "export/reports.hpp"
#include "judge/points_policy.hpp"
#include "kit/paths.hpp"
#include "oclgrind/algorithm.hpp"
#include "oclgrind/checks.hpp"
#include "spec/spec.hpp"

using grader::CaseKind;
using grader::CaseResult;
using grader::CaseStatus;

namespace {

grader::LabSpec spec_of(const std::string& lab) { return grader::load_specs(kit::root() / "grader" / "specs", {lab}).at(0); }

// A graded lab result: the cases `right` picks right, the others wrong; every safety and algorithm
// check passed, with a finding of its own.
template <class Right>
grader::LabResult graded(const grader::LabSpec& spec, Right right) {
  grader::LabResult r;
  r.student = "ann";
  r.lab = spec.lab;
  r.status = grader::LabStatus::Graded;
  for (std::size_t i = 0; i < spec.cases.size(); ++i) {
    const grader::CaseSpec& c = spec.cases[i];
    const bool ok = right(i, c);
    r.cases.push_back({c.name, c.visible, ok ? c.points : 0, c.points, ok ? CaseStatus::Passed : CaseStatus::Wrong, "", "", 0, CaseKind::Case});
  }
  for (const auto& [kind, points] : spec.safety->checks)
    r.cases.push_back({grader::safety_name(kind), true, points, points, CaseStatus::Passed, "", "", 0, CaseKind::Safety});
  for (const grader::AlgorithmCheck& k : spec.algorithm->checks)
    r.cases.push_back({grader::algorithm_name(k), true, k.points, k.points, CaseStatus::Passed, "measured: longest chain 4", "", 0,
                       CaseKind::Algorithm});
  return r;
}

const CaseResult& line(const grader::LabResult& r, const std::string& name) {
  for (const CaseResult& c : r.cases)
    if (c.name == name) return c;
  throw std::logic_error("no line " + name);
}

// Every "  PASS NAME POINTS/MAX" line of `grader check`'s view is at its max points.
void no_pass_below_max(const std::string& report) {
  std::istringstream lines(report);
  for (std::string l; std::getline(lines, l);)
    if (l.rfind("  PASS ", 0) == 0) {
      CAPTURE(l);
      const std::string points = l.substr(l.rfind(' ') + 1);
      const std::size_t slash = points.find('/');
      CHECK(std::stod(points.substr(0, slash)) == std::stod(points.substr(slash + 1)));
    }
}

}  // namespace

TEST_CASE("scaled: a passed check of a kernel that lost cases reads scaled in every output, with the points and why") {
  const grader::LabSpec spec = spec_of("03");
  REQUIRE(spec.safety);
  REQUIRE(spec.algorithm);
  // The first 4 cases right, the rest wrong; data races found, the other checks passed.
  grader::LabResult r = graded(spec, [](std::size_t i, const grader::CaseSpec&) { return i < 4; });
  double earned = 0, possible = 0;
  for (std::size_t i = 0; i < spec.cases.size(); ++i) earned += i < 4 ? spec.cases[i].points : 0, possible += spec.cases[i].points;
  REQUIRE(earned < possible);
  const std::string races = grader::safety_name("data-race"), uninitialized = grader::safety_name("uninitialized");
  for (CaseResult& c : r.cases)
    if (c.name == races) c.status = CaseStatus::Unsafe, c.points = 0, c.message = "read-write data race in local memory";
  grader::apply_points_policy(spec, r);

  const CaseResult& scaled = line(r, uninitialized);
  CHECK(scaled.status == CaseStatus::Scaled);
  CHECK(scaled.points == doctest::Approx(std::floor(scaled.max_points * earned / possible * 100 + 1e-9) / 100));
  CHECK(scaled.points < scaled.max_points);
  const std::string cases = std::to_string(spec.cases.size());
  CHECK(scaled.message == "earns " + grader::format_points(scaled.points) + " of its " + grader::format_points(scaled.max_points) +
                              " points: these points follow the case points the kernel earned: " + grader::format_points(earned) +
                              " of " + grader::format_points(possible) + " (4 of " + cases + " cases pass); the check itself passed: " +
                              "Oclgrind found nothing of this kind");
  const CaseResult& algorithm = line(r, grader::algorithm_name(spec.algorithm->checks.at(0)));
  CHECK(algorithm.status == CaseStatus::Scaled);
  CHECK(algorithm.message.find("; the check itself passed: measured: longest chain 4") != std::string::npos);  // its finding kept
  CHECK(line(r, races).status == CaseStatus::Unsafe);  // a check that failed stays failed, with no points to scale
  CHECK(line(r, races).message == "read-write data race in local memory");
  for (const CaseResult& c : r.cases) {
    CAPTURE(c.name);
    CHECK_FALSE((c.status == CaseStatus::Passed && c.points < c.max_points));
    if (c.kind != CaseKind::Case && c.status != CaseStatus::Unsafe) CHECK(c.status == CaseStatus::Scaled);
  }

  // report.json and the journal: the word "scaled", read back as written.
  const grader::json j = grader::to_json(r);
  for (const grader::json& c : j["cases"])
    if (c["name"] == uninitialized) CHECK(c["status"] == "scaled");
  CHECK(grader::to_json(grader::lab_result_from_json(j)) == j);

  // grader check: PART, with the status and the message below; no PASS below full points.
  const std::string report = grader::check_report(r);
  CHECK(report.find("  PART " + uninitialized) != std::string::npos);
  CHECK(report.find("\n       scaled: " + scaled.message + "\n") != std::string::npos);
  CHECK(report.find("  PASS " + uninitialized) == std::string::npos);
  CHECK(report.find("  PASS ") != std::string::npos);  // the right cases still pass
  no_pass_below_max(report);
  // A line that says passed below its max points (no grader writes one) is not labelled PASS either.
  CHECK(std::string(grader::check_label({"x", true, 0.5, 1, CaseStatus::Passed, "", ""})) == "PART");
  CHECK(std::string(grader::check_label({"x", true, 1, 1, CaseStatus::Passed, "", ""})) == "PASS");

  // The Markdown report: the status column says scaled.
  grader::ResultMap results;
  results[{r.student, r.lab}] = r;
  const std::string md = grader::student_report_md(r.student, {spec}, results);
  CHECK(md.find("| " + uninitialized + " | scaled | " + grader::format_points(scaled.points) + " / " +
                 grader::format_points(scaled.max_points) + " | earns ") != std::string::npos);

  // Gradescope and GitHub Classroom: failed, with the scaled message.
  for (const grader::json& t : grader::gradescope_results({r})["tests"])
    if (t["name"] == r.lab + ": " + uninitialized) {
      CHECK(t["status"] == "failed");
      CHECK(t["output"] == grader::html_text("scaled: " + scaled.message));
    }
  for (const grader::json& t : grader::classroom_result({r})["tests"])
    if (t["name"] == r.lab + ": " + uninitialized) {
      CHECK(t["status"] == "fail");
      CHECK(t["message"] == "scaled: " + scaled.message);
    }
}

TEST_CASE("scaled: an algorithm check with a unit names it, and a kernel that earns every case point keeps passed") {
  const grader::LabSpec spec = spec_of("04");
  // Rung 3's cases right but its first; every other rung's wrong.
  bool first = true;
  grader::LabResult r = graded(spec, [&](std::size_t, const grader::CaseSpec& c) {
    if (c.params.at("rung") != 3) return false;
    const bool skip = first;
    first = false;
    return !skip;
  });
  std::size_t rung3 = 0;
  for (const grader::CaseSpec& c : spec.cases) rung3 += c.params.at("rung") == 3;
  grader::apply_points_policy(spec, r);
  for (const CaseResult& c : r.cases)
    if (c.kind == CaseKind::Algorithm) {
      CAPTURE(c.name);
      CHECK(c.status == CaseStatus::Scaled);
      const bool third = c.name.find("reduce3_sequential") != std::string::npos;
      CHECK(c.message.find(" (" + std::to_string(third ? rung3 - 1 : 0) + " of ") != std::string::npos);
      CHECK(c.message.find(" cases pass in rung " + std::string(third ? "3" : "")) != std::string::npos);
      CHECK((third ? c.points > 0 : c.points == 0));
    }
  no_pass_below_max(grader::check_report(r));

  grader::LabResult right = graded(spec, [](std::size_t, const grader::CaseSpec&) { return true; });
  const grader::LabResult before = right;
  grader::apply_points_policy(spec, right);
  CHECK(grader::to_json(right) == grader::to_json(before));  // nothing scaled, nothing said
  for (const CaseResult& c : right.cases) CHECK(c.status == CaseStatus::Passed);
}
