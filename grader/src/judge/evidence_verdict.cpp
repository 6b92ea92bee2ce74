#include "judge/evidence_verdict.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "export/reports.hpp"
#include "isolation/case_child.hpp"
#include "isolation/time_budget.hpp"
#include "judge/witness.hpp"
#include "judge/evidence.hpp"
#include "judge/evidence_hint.hpp"
#include "oclgrind/algorithm.hpp"
#include "oclgrind/checks.hpp"

namespace grader {
namespace {

std::string first_lower(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = char(s[0] - 'A' + 'a');
  return s;
}

// "Invalid read of size 4 at local memory" -> "an invalid read of local memory".
std::string fault_words(const OclgrindFinding& f) {
  if (f.kind == "barrier-divergence") return "a barrier that not every work-item reaches";
  if (f.kind == "uninitialized") return "an uninitialized value";
  if (f.kind == "other" && f.title.find("division by zero") != std::string::npos) return "an integer division by zero";
  std::string t = first_lower(f.title);
  if (const auto size = t.find(" of size "); size != std::string::npos) {
    const auto end = t.find(' ', size + 9);
    t.erase(size, end == std::string::npos ? std::string::npos : end - size);
  }
  if (const auto at = t.find(" at "); at != std::string::npos) t.replace(at, 4, f.kind == "data-race" ? " in " : " of ");
  const bool vowel = !t.empty() && std::string("aeiou").find(t[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + t;
}

std::string what_device_did(const CaseResult& c) {
  if (c.status == CaseStatus::Passed) return "passed";
  if (c.status == CaseStatus::Wrong) return "computed a wrong result" + (c.message.empty() ? "" : ": " + c.message);
  return word(c.status) + (c.message.empty() ? "" : ": " + c.message);
}

// "1027 elements, the same work-group size": a large case's smaller shape in words.
std::string smaller_words(const StepLook& smaller) {
  return std::to_string(smaller.step.params.value("elements", std::size_t(0))) + " elements, the same work-group size and last group";
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

// Which shapes a memory-safety line of `kind` rests on, in words.
std::string shapes_words(const OclgrindEvidence& e, const std::string& kind) {
  std::size_t whole = 0, large = 0, with_smaller = 0, missed = 0, wide = 0;  // wide: looked at without uninitialized values
  std::string why_missed;
  const bool uninitialized = kind == "uninitialized";
  for (const auto& [name, l] : e.cases) {
    if (!l.looked && l.findings.empty()) {
      ++missed;
      if (why_missed.empty()) why_missed = "\"" + name + "\": " + l.not_looked;
      continue;
    }
    const StepLook* look = l.step.quick ? l.smaller : &l;  // where every check (but perhaps uninitialized values) ran
    if (uninitialized && look && look->looked && !look->step.uninitialized) ++wide;
    else if (!l.step.quick) ++whole;
    else ++large, with_smaller += l.smaller && l.smaller->looked;
  }
  std::string text = e.safety.size() == 1 ? "the memory-safety case" : "the " + std::to_string(e.safety.size()) + " memory-safety runs";
  const bool every_check_only = kind == "data-race" || kind == "uninitialized";
  if (whole) text += ", " + plural(whole, "case", "cases") + " whole";
  if (every_check_only) {
    if (with_smaller) text += ", " + plural(with_smaller, "larger case", "larger cases") + " at a smaller shape with the same work-group size";
    if (large > with_smaller)
      text += " (" + plural(large - with_smaller, "larger case was", "larger cases were") + " looked at for bounds and barriers only)";
    if (wide)
      text += " (" + plural(wide, "case", "cases") + " of more than " + std::to_string(kUninitializedMaxLocal) +
              " work-items a group looked at for races, bounds and barriers only: their kernel functions are checked at smaller "
              "work-groups)";
  } else if (large) {
    text += ", " + plural(large, "larger case", "larger cases") + (large == 1 ? " in its" : " in their") + " first and last work-groups" +
            (with_smaller ? " and at a smaller shape with the same work-group size" : "");
  }
  if (missed) text += "; " + plural(missed, "case was", "cases were") + " not looked at (" + why_missed + (missed > 1 ? ", ..." : "") + ")";
  return text;
}

// The Oclgrind checks' lines, not run: the kernel did not finish a case alone (the time budget).
std::vector<CaseResult> oclgrind_not_run(const LabSpec& spec, bool with_safety, bool with_algorithm, const std::string& timed_out) {
  const std::string why = oclgrind_not_run_message(timed_out);
  std::vector<CaseResult> lines;
  if (with_safety)
    for (const auto& [kind, points] : spec.safety->checks)
      lines.push_back({safety_name(kind), spec.safety->visible, 0, points, CaseStatus::NotRun, why, "", 0, CaseKind::Safety});
  if (with_algorithm)
    for (CaseResult& c : algorithm_not_run(*spec.algorithm, CaseStatus::NotRun, why)) lines.push_back(c);
  return lines;
}

}  // namespace

std::string faults_in_words(const std::vector<OclgrindFinding>& findings) {
  std::vector<std::string> words;
  for (const char* kind : {"invalid-access", "data-race", "barrier-divergence", "other", "uninitialized"})
    for (const OclgrindFinding& f : findings)
      if (f.kind == kind) {
        const std::string w = fault_words(f);
        if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
      }
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i) text += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
  return text;
}

void judge_by_evidence(const LabSpec& spec, const OclgrindEvidence& e, const std::string& source, const std::string& shown_as,
                       LabResult& r) {
  if (!spec.safety) return;
  // Per kernel function: its smallest case whose shapes showed a fault.
  std::map<std::string, const StepLook*> faulty;
  for (const auto& [name, l] : e.cases) {
    if (l.all_findings().empty()) continue;
    const StepLook*& first = faulty[kernel_key(*spec.safety, l.step.params)];
    if (!first || work_of(l.step.params) < work_of(first->step.params)) first = &l;
  }
  for (CaseResult& c : r.cases) {
    if (c.kind != CaseKind::Case) continue;
    const StepLook* l = e.of_case(c.name);
    if (!l) continue;
    if (const std::vector<OclgrindFinding> faults = l->all_findings(); !faults.empty()) {
      const std::string lab_hint = c.status == CaseStatus::Wrong ? c.hint : "";
      std::string where;
      if (!l->findings.empty())
        where = faults_in_words(l->findings) + " at this case's own shape" + (l->step.quick ? " (its first and last work-groups)" : "");
      // The smaller shape is named for the kinds of fault its own shape did not show.
      std::vector<OclgrindFinding> more;
      if (l->smaller)
        for (const OclgrindFinding& f : l->smaller->findings)
          if (std::none_of(l->findings.begin(), l->findings.end(), [&](const OclgrindFinding& g) { return fault_words(g) == fault_words(f); }))
            more.push_back(f);
      if (!more.empty())
        where += (where.empty() ? "" : ", and ") + faults_in_words(more) + " at its smaller shape (" + smaller_words(*l->smaller) + ")";
      c.message = std::string(kUndefinedBehaviour) + "Oclgrind found " + where +
                  ", so what the kernel computes here depends on the device and the run: no points (on the device it " + what_device_did(c) +
                  " this time)";
      c.hint = hint_with_evidence(lab_hint, faults, l->findings.empty() ? "this case's smaller shape (" + smaller_words(*l->smaller) + ")" : "this case",
                                  source, shown_as);
      c.status = CaseStatus::Wrong;
      c.points = 0;
      continue;
    }
    if (!l->looked && e.ran) c.message += std::string(c.message.empty() ? "" : "; ") + "(not looked at under Oclgrind: " + l->not_looked + ")";
    if (c.status != CaseStatus::Wrong && c.status != CaseStatus::Crashed) continue;
    const auto other = faulty.find(kernel_key(*spec.safety, l->step.params));
    if (other != faulty.end())
      c.hint = hint_with_evidence(c.hint, other->second->all_findings(), "the case \"" + other->second->step.name + "\" of the same kernel",
                                  source, shown_as);
  }
}

std::vector<CaseResult> oclgrind_lines(const LabSpec& spec, bool with_safety, bool with_algorithm, const OclgrindEvidence& e,
                                       const std::string& source, const std::string& shown_as) {
  const SafetySpec& safety = *spec.safety;
  std::vector<CaseResult> results;
  if (with_safety)
    for (const auto& [kind, points] : safety.checks)
      results.push_back({safety_name(kind), safety.visible, 0, points, CaseStatus::NotRun, "", "", 0, CaseKind::Safety});
  if (with_algorithm)
    for (CaseResult& c : algorithm_not_run(*spec.algorithm, CaseStatus::NotRun, "")) results.push_back(c);
  const auto all = [&](CaseStatus status, const std::string& message) {
    for (CaseResult& c : results) c.status = status, c.message = message;
    return results;
  };
  // Fail closed: nothing shows that Oclgrind ran the kernel.
  if (!e.ran) return all(CaseStatus::NotRun, "not run: " + e.not_run);
  double seconds = 0;
  for (const StepLook& l : e.safety) seconds += l.seconds;
  for (const auto& [name, l] : e.cases) seconds += l.seconds;
  for (CaseResult& c : results) c.seconds = seconds;

  std::vector<OclgrindFinding> findings;
  std::size_t allowed = 0;
  for (const StepLook& l : e.safety)
    for (const OclgrindFinding& f : l.findings) add_finding(findings, f, f.count);
  for (const auto& [name, l] : e.cases)
    for (const OclgrindFinding& f : l.findings) add_finding(findings, f, f.count);
  for (const auto& [name, l] : e.smaller)
    for (const OclgrindFinding& f : l.findings) add_finding(findings, f, f.count);
  for (const StepLook& l : e.safety) allowed += l.allowed;
  for (const auto& [name, l] : e.cases) allowed += l.allowed;
  for (const auto& [name, l] : e.smaller) allowed += l.allowed;

  // The memory-safety runs: the algorithm lines' measurements, and what the lines speak of when one did not finish.
  std::vector<KernelWork> measured;
  for (std::size_t i = 0; i < e.safety.size(); ++i) {
    const StepLook& l = e.safety[i];
    const std::string which = e.safety.size() > 1 ? " (run " + std::to_string(i + 1) + " of " + std::to_string(e.safety.size()) + ": " + l.step.name + ")" : "";
    if (l.timed_out)
      return all(CaseStatus::Timeout, "the run under Oclgrind" + which + " ran past its " + format_points(l.step.seconds) +
                                          " s time limit; memory safety and the algorithm could not be shown");
    const std::optional<StepStatus> status = step_status(l.result);
    if (status != StepStatus::Ok && findings.empty()) {
      if (step_end(l.result) == CaseStatus::OutOfMemory)  // Oclgrind keeps state for every access: an endless loop exhausts memory first
        return all(CaseStatus::OutOfMemory, "the run under Oclgrind" + which + " " + l.result.value("reason", std::string("ran out of memory")) +
                                                ": the kernel did far more work than this small case needs (an endless loop?)");
      if (status == StepStatus::Sandbox)
        return all(CaseStatus::Error, "Oclgrind itself failed before the run" + which + " finished (" + l.result.value("reason", std::string()) +
                                          "); this is not a finding against the kernel, and the check should be run again");
      return all(CaseStatus::Error, "the run under Oclgrind" + which + " failed: " + l.result.value("message", l.not_looked));
    }
    if (!l.looked && findings.empty()) return all(CaseStatus::NotRun, "not run: the run under Oclgrind" + which + " was not looked at: " + l.not_looked);
    for (const KernelWork& k : l.launches) measured.push_back(k);
  }
  if (with_algorithm) {
    std::vector<CaseResult> lines = algorithm_results(*spec.algorithm, measured, source);
    for (CaseResult& m : lines) m.seconds = seconds;
    std::copy(lines.begin(), lines.end(), results.end() - long(lines.size()));
  }
  for (CaseResult& c : results) {
    if (c.kind != CaseKind::Safety) continue;
    judge_safety(c, safety, findings, allowed, source, shown_as);
    const std::string kind = std::find_if(safety.checks.begin(), safety.checks.end(), [&](const auto& k) { return safety_name(k.first) == c.name; })->first;
    if (c.status == CaseStatus::Passed)
      c.message = "Oclgrind found nothing of this kind at " + shapes_words(e, kind) + (c.message.empty() ? "" : "; " + c.message);
  }
  return results;
}

// The stage under Oclgrind (judge/oclgrind_stage.hpp) and everything that reads it: the cases'
// verdicts at their own shapes, the memory-safety and algorithm lines, the witness. Once per lab
// result, whatever the devices graded: Oclgrind is its own device.
void judge_under_oclgrind(const LabSpec& spec, const LabReference& reference, const GradeSettings& s, const std::filesystem::path& copy,
                          const std::string& source, const std::string& shown_as, const std::string& timed_out_alone, LabResult& r) {
  if (s.grading.oclgrind == OclgrindChecks::None || !spec.safety || spec.safety->runs.empty()) return;
  const bool with_safety = s.grading.safety() && (spec.safety->visible || !s.grading.visible_only);
  const bool with_algorithm = s.grading.algorithm() && spec.algorithm && (spec.algorithm->visible || !s.grading.visible_only);
  // A kernel that did not finish a case alone (the time budget) gets no memory-safety run: the
  // cases it finished are still looked at.
  const bool lines = (with_safety || with_algorithm) && timed_out_alone.empty();
  const OclgrindEvidence e = look_under_oclgrind(spec, s, copy, shown_as, r, lines);
  if (s.phases) (*s.phases)["oclgrind"] += e.seconds;
  judge_by_evidence(spec, e, source, shown_as, r);
  if (lines)
    for (CaseResult& c : oclgrind_lines(spec, with_safety, with_algorithm, e, source, shown_as)) r.cases.push_back(std::move(c));
  else if (with_safety || with_algorithm)
    for (CaseResult& c : oclgrind_not_run(spec, with_safety, with_algorithm, timed_out_alone)) r.cases.push_back(std::move(c));
  witness_failed_cases(spec, reference, s, e, copy, source, shown_as, r);
}

}  // namespace grader
