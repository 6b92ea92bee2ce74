#include "oclgrind/checks.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>

#include "core/files.hpp"
#include "isolation/case_runs.hpp"
#include "isolation/fresh_memory.hpp"
#include "kit/errors.hpp"
#include "oclgrind/algorithm.hpp"
#include "oclgrind/allowances.hpp"
#include "oclgrind/oclgrind.hpp"
#include "oclgrind/work_span.hpp"

namespace grader {
namespace {

// One kernel's run under Oclgrind: what it runs, with which checks, and where.
struct OclgrindRun {
  const LabSpec& spec;
  const GradeSettings& s;
  bool with_safety, with_algorithm;
  const std::filesystem::path& copy;
  const std::string& shown_as;
  std::string oclgrind;          // the program
  std::filesystem::path plugin;  // the work/span plugin (with_plugin)
  SandboxLimits limits;
  bool with_plugin = false;      // the algorithm checks, or the spec's allowed findings, need its record
};

// What the safety runs left: their reports and measurements added up, and the run the results
// speak of (the first that did not finish cleanly, else the last; with `timed_out`, the one that
// ran past its time limit, named by `which`).
struct OclgrindRuns {
  ChildRun run;
  std::string reports, work_spans;
  double seconds = 0;
  bool timed_out = false;
  std::string which;
};

// The spec's safety runs in turn, each under its own time limit; the first that runs past it ends them.
OclgrindRuns run_all(const OclgrindRun& o) {
  const SafetySpec& safety = *o.spec.safety;
  OclgrindRuns out;
  std::optional<ChildRun> decisive;
  for (std::size_t i = 0; i < safety.runs.size(); ++i) {
    const json& params = safety.runs[i];
    const std::filesystem::path dir = o.s.workdir / ("safety" + (i ? "-" + std::to_string(i) : std::string()));
    // -O0 keeps every access at its own source line in Oclgrind's reports. The reports go to a
    // file of their own: a kernel's printf cannot push them out of the captured output.
    const std::filesystem::path report_log = dir / "oclgrind.log", work_log = dir / "work-span.jsonl";
    std::filesystem::create_directories(dir);
    std::filesystem::remove(report_log);
    std::filesystem::remove(work_log);
    std::vector<std::string> prefix = {o.oclgrind};
    if (o.with_safety) prefix.insert(prefix.end(), {"--data-races", "--uniform-writes", "--uninitialized"});
    prefix.insert(prefix.end(), {"--build-options", "-O0", "--log", report_log.string()});
    // Oclgrind's device offers work-groups of up to 1024 work-items; a safety case asks for more
    // (lab 04's unrolled rung at L = 4096) and gets a device that allows them.
    if (const json local = params.value("local", json()); local.is_number_unsigned() && local.get<std::size_t>() > 1024)
      prefix.insert(prefix.end(), {"--max-wgsize", std::to_string(local.get<std::size_t>())});
    SandboxLimits these = o.limits;
    if (o.with_plugin) {
      prefix.insert(prefix.end(), {"--plugins", o.plugin.string()});
      these.environment.emplace_back("KIT_WORK_SPAN_LOG", work_log.string());
    }
    out.run = run_child(o.s, prefix, {"--lab", o.spec.lab, "--kernel", o.copy.string(), "--shown-as", o.shown_as, "--case", params.dump()},
                        these, dir);
    out.seconds += out.run.outcome.seconds;
    out.which = safety.runs.size() > 1 ? " (run " + std::to_string(i + 1) + " of " + std::to_string(safety.runs.size()) + ": " + params.dump() + ")" : "";
    if (out.run.outcome.end == ChildOutcome::End::TimedOut) {
      out.timed_out = true;
      return out;
    }
    if (std::filesystem::exists(report_log)) out.reports += read_file(report_log);
    if (std::filesystem::exists(work_log)) out.work_spans += read_file(work_log);
    if (out.reports.size() > (16u << 20)) out.reports.resize(16u << 20);  // thousands of reports: enough to judge
    const bool clean = out.run.outcome.end == ChildOutcome::End::Exited && out.run.outcome.exit_code == 0 &&
                       step_status(out.run.result) == StepStatus::Ok;
    if (!clean && !decisive) decisive = out.run;
  }
  if (decisive) out.run = *decisive;
  return out;
}

// Oclgrind's findings in `reports`, less the known false alarms the spec allows (counted in
// `allowed`), matched by what the plugin recorded of the launches (`work_spans`).
std::vector<OclgrindFinding> findings_against(const SafetySpec& safety, const std::string& reports, const std::string& work_spans,
                                              std::size_t& allowed) {
  std::vector<KernelWork> launches;
  if (!safety.allow.empty()) try {
      launches = parse_work_span(work_spans);
    } catch (const kit::Error&) {
      // Without the record nothing can be matched: every finding counts.
    }
  return not_allowed(safety.allow, parse_oclgrind(reports), launches, allowed);
}

// The algorithm checks' results from the plugin's measurements and, for a fence check, the
// kernel's code `source` (an error when the run did not
// finish, failed, or left measurements that cannot be read).
std::vector<CaseResult> measured_algorithm(const AlgorithmSpec& algorithm, const OclgrindRuns& runs, const SandboxLimits& limits,
                                           const std::string& source) {
  const ChildRun& run = runs.run;
  const bool finished = run.result.contains("status");
  std::vector<CaseResult> measured;
  if (!finished)
    measured = algorithm_not_run(algorithm, CaseStatus::Error, "the run under Oclgrind did not finish (" + run.outcome.reason(limits) +
                                                         "), so the algorithm could not be measured");
  else try {
    measured = algorithm_results(algorithm, parse_work_span(runs.work_spans), source);
  } catch (const kit::Error& e) {
    measured = algorithm_not_run(algorithm, CaseStatus::Error, std::string("the plugin's measurements could not be read: ") + e.what());
  }
  if (finished && step_status(run.result) != StepStatus::Ok)
    measured = algorithm_not_run(algorithm, CaseStatus::Error, "the run under Oclgrind failed: " + run.result.value("message", "unknown error"));
  for (CaseResult& m : measured) m.seconds = runs.seconds;
  return measured;
}

// One memory-safety check's verdict from the findings: unsafe with the first five findings of its
// kind and a hint; else passed (with the false alarms allowed), or, when Oclgrind failed on its own
// (`checker_failed`: how, "" when it ended cleanly), not-checked with its points kept.
void judge_safety(CaseResult& c, const SafetySpec& safety, const std::vector<OclgrindFinding>& findings, std::size_t allowed,
                  const std::string& checker_failed, const std::string& source, const std::string& shown_as) {
  c.message.clear();
  const std::string kind = std::find_if(safety.checks.begin(), safety.checks.end(), [&](const auto& k) {
                             return safety_name(k.first) == c.name;
                           })->first;
  std::vector<std::string> lines;
  for (const OclgrindFinding& f : findings)
    if (f.kind == kind || (kind == "invalid-access" && f.kind == "other")) lines.push_back(describe(f, source, shown_as));
  if (lines.empty() && !checker_failed.empty()) {
    c.status = CaseStatus::NotChecked;
    c.points = c.max_points;
    c.message = "not checked (the checker failed: Oclgrind " + checker_failed +
                "): it found nothing of this kind before it failed, and a failure of the checker costs no points";
    return;
  }
  if (lines.empty()) {
    c.status = CaseStatus::Passed;
    c.points = c.max_points;
    if (allowed) c.message += (c.message.empty() ? "" : "; ") + std::to_string(allowed) + " known false alarm(s) allowed by the spec";
    return;
  }
  c.status = CaseStatus::Unsafe;
  c.message.clear();
  for (std::size_t i = 0; i < lines.size() && i < 5; ++i) c.message += (i ? "\n" : "") + lines[i];
  if (lines.size() > 5) c.message += "\n... and " + std::to_string(lines.size() - 5) + " more";
  const bool only_write_write = std::all_of(findings.begin(), findings.end(), [](const OclgrindFinding& f) {
    return f.kind != "data-race" || f.title.find("rite-write") != std::string::npos;
  });
  // Two work-groups racing: no barrier can order them (a barrier holds one work-group only).
  const bool across_groups = std::any_of(findings.begin(), findings.end(), [](const OclgrindFinding& f) {
    static const std::regex group(R"(Group\((\d+,\d+,\d+)\))");
    std::smatch a, b;
    return f.kind == "data-race" && f.sites.size() >= 2 && std::regex_search(f.sites[0].work_item, a, group) &&
           std::regex_search(f.sites[1].work_item, b, group) && a[1] != b[1];
  });
  if (kind == "data-race" && across_groups)
    c.hint = "work-items of different work-groups update the same element, and no barrier orders work-groups: make the "
             "update atomic (atomic_add for an int; for a float, atomic_cmpxchg in a loop that retries until the swap succeeds)";
  else if (kind == "data-race")
    c.hint = only_write_write ? "more than one work-item writes the same element, even if each writes the same value: "
                                "let one work-item (e.g. the one with local id 0) write it"
                              : "a value written by one work-item is read by another before a barrier separates them";
  if (kind == "barrier-divergence") c.hint = "a barrier inside an if or a loop that not every work-item enters";
  if (kind == "uninitialized") c.hint = "often a consequence of a race or of reading past the end of an array";
}

}  // namespace

std::string find_oclgrind() {
  if (const char* env = std::getenv("KIT_OCLGRIND"); env && *env) return env;
  for (const char* dir : {"/usr/bin", "/usr/local/bin"})
    if (std::filesystem::exists(std::filesystem::path(dir) / "oclgrind")) return std::string(dir) + "/oclgrind";
  return "";
}

std::string oclgrind_missing() {
  return "Oclgrind is not installed (no $KIT_OCLGRIND, /usr/bin/oclgrind or /usr/local/bin/oclgrind): run scripts/setup.sh "
         "as root, which installs the distribution's oclgrind package or, where there is none (Debian 13), PyPI's build "
         "in /opt/oclgrind";
}

std::filesystem::path find_work_span_plugin(const GradeSettings& s) {
  if (const char* env = std::getenv("KIT_WORK_SPAN_PLUGIN"); env && *env) return env;
  return s.grader_exe.parent_path() / "libkit-work-span.so";
}

std::string safety_name(const std::string& kind) {
  const std::map<std::string, std::string> names = {{"data-race", "data races"},
                                                    {"barrier-divergence", "barrier divergence"},
                                                    {"invalid-access", "invalid memory accesses"},
                                                    {"uninitialized", "uninitialized values"}};
  return "memory safety: " + names.at(kind) + " (Oclgrind)";
}

std::vector<CaseResult> oclgrind_cases(const LabSpec& spec, bool with_safety, bool with_algorithm, const GradeSettings& s,
                                       const std::filesystem::path& copy, const std::string& shown_as,
                                       const std::string& source) {
  const SafetySpec& safety = *spec.safety;
  std::vector<CaseResult> results;
  if (with_safety)
    for (const auto& [kind, points] : safety.checks)
      results.push_back({safety_name(kind), safety.visible, 0, points, CaseStatus::NotRun, "", "", 0, CaseKind::Safety});
  if (with_algorithm)
    for (CaseResult& c : algorithm_not_run(*spec.algorithm, CaseStatus::NotRun, "")) results.push_back(c);
  // Every line above gets its status below: this one for all, or each its verdict.
  const auto all = [&](CaseStatus status, const std::string& message) {
    for (CaseResult& c : results) c.status = status, c.message = message;
    return results;
  };
  OclgrindRun o{spec, s, with_safety, with_algorithm, copy, shown_as, find_oclgrind(), {},
                SandboxLimits{safety.time_limit_s, safety.memory_limit_mb, 1, s.pocl_cache(), 4 << 20}};
  if (o.oclgrind.empty()) return all(CaseStatus::Error, "not checked: " + oclgrind_missing());
  zero_fresh_memory(o.limits);  // Oclgrind's buffers: a value read before it was written is the same in every run
  guard_buffer_ends(o.limits, false);
  o.with_plugin = with_algorithm || (with_safety && !safety.allow.empty());
  if (o.with_plugin) {
    o.plugin = find_work_span_plugin(s);
    if (!std::filesystem::exists(o.plugin))
      return all(CaseStatus::Error, std::string(with_algorithm ? "the algorithm checks" : "the spec's allowed findings") +
                                        " need the kit's Oclgrind plugin " + o.plugin.string() + ": build the kit");
  }
  // The runs in turn, each under its own time limit. Their reports and measurements add up; the
  // first run that does not finish cleanly (else the last) is the one the results below speak of.
  const OclgrindRuns runs = run_all(o);
  const ChildRun& run = runs.run;
  const SandboxLimits& limits = o.limits;
  for (CaseResult& c : results) c.seconds = runs.seconds;
  if (runs.timed_out)
    return all(CaseStatus::Timeout, "the run under Oclgrind" + runs.which + " " + run.outcome.reason(limits) +
                              "; memory safety and the algorithm could not be shown");

  std::size_t allowed = 0;
  const std::vector<OclgrindFinding> findings = findings_against(safety, runs.reports, runs.work_spans, allowed);
  const bool finished = run.result.contains("status");
  if (!finished && findings.empty() && run.outcome.reason(limits).rfind("ran out of memory", 0) == 0)
    // Oclgrind keeps state for every access it checks: an endless loop exhausts memory first.
    return all(CaseStatus::OutOfMemory, "the run under Oclgrind " + run.outcome.reason(limits) +
                                    ": the kernel did far more work than this small case needs (an endless loop?)");
  if (!finished && findings.empty())
    return all(CaseStatus::Error, "Oclgrind itself failed before the run finished (" + run.outcome.reason(limits) +
                            "); this is not a finding against the kernel, and the check should be run again");
  if (finished && step_status(run.result) != StepStatus::Ok && findings.empty())
    return all(CaseStatus::Error, "the run under Oclgrind failed: " + run.result.value("message", "unknown error"));
  // Oclgrind can fail after the run has finished and written its result: that is Oclgrind's own
  // fault, told apart from the kernel's by the finished result file. Its findings so far count;
  // a check that found nothing is not checked, never passed.
  const bool clean_end = run.outcome.end == ChildOutcome::End::Exited && run.outcome.exit_code == 0;
  const std::string checker_failed = finished && !clean_end ? run.outcome.reason(limits) + " after the run had finished" : "";
  if (with_algorithm) {
    const std::vector<CaseResult> measured = measured_algorithm(*spec.algorithm, runs, limits, source);
    std::copy(measured.begin(), measured.end(), results.end() - long(measured.size()));
  }
  for (CaseResult& c : results)
    if (c.kind == CaseKind::Safety) judge_safety(c, safety, findings, allowed, checker_failed, source, shown_as);
  return results;
}

}  // namespace grader
