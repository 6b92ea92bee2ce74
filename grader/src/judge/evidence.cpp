#include "judge/evidence.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "core/files.hpp"
#include "isolation/case_runs.hpp"
#include "isolation/fresh_memory.hpp"
#include "judge/evidence_hint.hpp"
#include "kit/errors.hpp"
#include "oclgrind/allowances.hpp"
#include "oclgrind/checks.hpp"
#include "oclgrind/work_span.hpp"

namespace grader {

const OclgrindFinding* first_finding(const std::vector<OclgrindFinding>& findings) {
  for (const char* kind : {"invalid-access", "data-race", "barrier-divergence", "other", "uninitialized"})
    for (const OclgrindFinding& f : findings)
      if (f.kind == kind) return &f;
  return nullptr;
}

std::string evidence_sentence(const OclgrindFinding& f, const std::string& where, const std::string& source,
                              const std::string& shown_as) {
  std::string text = "Oclgrind, on " + where + ": " + describe(f, source, shown_as) + ".";
  static const std::regex group(R"(Group\((\d+,\d+,\d+)\))"), atomic(R"(\b(atomic|atom)_\w+\s*\()");
  std::smatch a, b;
  const bool across_groups = f.kind == "data-race" && f.sites.size() >= 2 && std::regex_search(f.sites[0].work_item, a, group) &&
                             std::regex_search(f.sites[1].work_item, b, group) && a[1] != b[1];
  if (!across_groups) return text;
  const bool any_atomic = std::any_of(f.sites.begin(), f.sites.end(), [&](const OclgrindSite& s) {
    return std::regex_search(source_line(source, s.line), atomic);
  });
  if (!any_atomic)
    text += " The update at " + shown_as + ":" + std::to_string(f.sites[0].line) +
            " is not atomic: work-groups that run at the same time each read the old value and write their own, and no "
            "barrier orders work-groups; make it one atomic update";
  else
    text += " One of these lines is an atomic update and the other a plain access of the same element: every access "
            "that another work-group's update can come between must be part of the atomic update (or retried when a "
            "compare-and-swap finds the value changed)";
  return text + (text.back() == '.' ? "" : ".");
}

namespace {

std::string seconds_text(double s) {
  std::string t = std::to_string(s);
  t.erase(t.find_last_not_of('0') + 1);
  if (t.back() == '.') t.pop_back();
  return t;
}

// What goes between a hint and a sentence added to it.
std::string joiner(const std::string& hint) {
  if (hint.empty()) return "";
  return hint.back() == '.' ? " " : ". ";
}

}  // namespace

// A case's size for Oclgrind, which runs every work-item in turn and records every access:
// its elements (or pixels) times its launches.
double work_of(const json& params) {
  double n = 0;
  if (params.contains("elements")) n = params.at("elements").get<double>();
  else if (params.contains("width") && params.contains("height")) n = params.at("width").get<double>() * params.at("height").get<double>();
  return n * std::max(1.0, params.value("repeats", 1.0));
}

// The case fields of which the safety case lists several values, one run each (lab 04's rung, lab
// 05's method, lab 08's part): the fields that pick the kernel a case runs. Their values in
// `params`, as one key ("" for a lab whose safety case lists none).
std::string kernel_key(const SafetySpec& safety, const json& params) {
  std::set<std::string> listed;
  for (const json& run : safety.runs)
    for (const auto& [field, value] : run.items())
      if (value.is_array()) listed.insert(field);
  std::string key;
  for (const std::string& field : listed) key += field + "=" + params.value(field, json()).dump() + ";";
  return key;
}

namespace {

// The safety run that stands in for a case too large for Oclgrind: the run that lists the case's
// values of those fields, with those values only; none when no run lists them.
std::optional<json> stand_in(const SafetySpec& safety, const json& params) {
  for (json run : safety.runs) {
    bool lists = true;
    for (auto& [field, value] : run.items()) {
      if (!value.is_array()) continue;
      const json want = params.value(field, json());
      lists = lists && std::find(value.begin(), value.end(), want) != value.end();
      value = want;
    }
    if (lists) return run;
  }
  return std::nullopt;
}

}  // namespace

EvidenceRun run_under_oclgrind(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& copy,
                               const std::string& shown_as, const json& params, const std::string& name, const OclgrindRunChoice& how) {
  const SafetySpec& safety = *spec.safety;
  const std::filesystem::path dir = s.workdir / (how.folder + "-" + name), log = dir / "oclgrind.log", work = dir / "work-span.jsonl";
  std::filesystem::create_directories(dir);
  std::filesystem::remove(log);
  std::filesystem::remove(work);
  std::vector<std::string> prefix = {find_oclgrind()};
  if (how.all_checks) prefix.insert(prefix.end(), {"--data-races", "--uniform-writes", "--uninitialized"});
  if (how.quick) prefix.insert(prefix.end(), {"--quick", "--max-errors", "100"});
  prefix.insert(prefix.end(), {"--build-options", "-O0", "--log", log.string()});
  if (const json local = params.value("local", json()); local.is_number_unsigned() && local.get<std::size_t>() > 1024)
    prefix.insert(prefix.end(), {"--max-wgsize", std::to_string(local.get<std::size_t>())});
  SandboxLimits limits{how.time_limit_s > 0 ? how.time_limit_s : safety.time_limit_s, std::max(safety.memory_limit_mb, spec.memory_limit_mb),
                       1, s.pocl_cache(), 4 << 20};
  // The spec's allowed false alarms are matched by what the plugin records of the launches (and
  // the witness judges a ticket's fences from the same record). The plugin also reports an integer
  // division by zero, which Oclgrind itself computes as 0 in silence: without a record it runs
  // that check alone.
  const std::filesystem::path plugin = find_work_span_plugin(s);
  if (std::filesystem::exists(plugin)) {
    prefix.insert(prefix.end(), {"--plugins", plugin.string()});
    if (!safety.allow.empty() || how.record_launches) limits.environment.emplace_back("KIT_WORK_SPAN_LOG", work.string());
    else limits.environment.emplace_back("KIT_DIVISIONS_ONLY", "1");
  }
  zero_fresh_memory(limits);
  guard_buffer_ends(limits, false);
  const ChildRun run =
      run_child(s, prefix, {"--lab", spec.lab, "--kernel", copy.string(), "--shown-as", shown_as, "--case", params.dump()}, limits, dir);
  EvidenceRun out;
  out.timed_out = run.outcome.end == ChildOutcome::End::TimedOut;
  out.seconds = run.outcome.seconds;
  out.result = step_result(run, limits);
  out.written = run.result;
  if (out.timed_out || !std::filesystem::exists(log)) return out;
  out.log_read = true;
  if (std::filesystem::exists(work)) try {
      out.launches = parse_work_span(read_file(work));
      out.launches_recorded = true;
    } catch (const kit::Error&) {
      // Without the record nothing can be matched: every finding is evidence.
    }
  out.findings = not_allowed(safety.allow, parse_oclgrind(read_file(log)), out.launches, out.allowed);
  return out;
}


void add_case_evidence(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& copy, const std::string& source,
                       const std::string& shown_as, LabResult& r) {
  if (!spec.safety || spec.safety->runs.empty() || find_oclgrind().empty()) return;
  const SafetySpec& safety = *spec.safety;
  std::map<std::string, bool> examined;  // per kernel key
  // Per kernel key: the case run under Oclgrind and what it found that decides a result.
  std::map<std::string, std::pair<std::string, std::vector<OclgrindFinding>>> decided;
  int runs = 0;
  for (CaseResult& c : r.cases) {
    if (c.kind != CaseKind::Case || !c.visible || (c.status != CaseStatus::Wrong && c.status != CaseStatus::Crashed)) continue;
    const auto spec_case = std::find_if(spec.cases.begin(), spec.cases.end(), [&](const CaseSpec& sc) { return sc.name == c.name; });
    if (spec_case == spec.cases.end()) continue;
    const std::string key = kernel_key(safety, spec_case->params);
    if (examined[key]) {
      // The same kernel: what its first wrong case showed holds here too (it is not run again).
      if (const auto d = decided.find(key); d != decided.end())
        c.hint = hint_with_evidence(c.hint, d->second.second, "the case \"" + d->second.first + "\" of the same kernel", source, shown_as);
      continue;
    }
    examined[key] = true;
    const std::optional<json> instead = stand_in(safety, spec_case->params);
    std::string where = "this case", why_not;
    EvidenceRun run;
    if (work_of(spec_case->params) <= kEvidenceWork) {
      run = run_under_oclgrind(spec, s, copy, shown_as, spec_case->params, std::to_string(runs++), {});
      if (run.timed_out) why_not = "it ran past the safety time limit of " + seconds_text(safety.time_limit_s) + " s under Oclgrind";
    } else {
      why_not = "it is too large to run under Oclgrind in a few seconds";
    }
    if (!why_not.empty() && instead) {
      run = run_under_oclgrind(spec, s, copy, shown_as, *instead, std::to_string(runs++), {});
      where = "the memory-safety case " + instead->dump() + " (run instead of this case: " + why_not + ")";
      if (run.timed_out) {
        c.hint += joiner(c.hint) + "(Oclgrind could not show more: this case and the memory-safety case ran past " +
                  seconds_text(safety.time_limit_s) + " s under it.)";
        continue;
      }
    }
    c.hint = hint_with_evidence(c.hint, run.findings, where, source, shown_as);
    std::vector<OclgrindFinding> deciding;
    for (const OclgrindFinding* f : findings_to_name(run.findings))
      if (decides_result(*f)) deciding.push_back(*f);
    if (!deciding.empty()) decided[key] = {c.name, deciding};
  }
}

}  // namespace grader
