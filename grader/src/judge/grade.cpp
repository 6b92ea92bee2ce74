#include "judge/grade.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>

#include "oclgrind/algorithm.hpp"
#include "batch/batch.hpp"
#include "isolation/case_runs.hpp"
#include "isolation/devices.hpp"
#include "judge/graded_kernels.hpp"
#include "core/files.hpp"
#include "isolation/fresh_memory.hpp"
#include "kit/errors.hpp"
#include "grader/lab/driver.hpp"
#include "oclgrind/oclgrind.hpp"
#include "export/reports.hpp"
#include "isolation/sandbox.hpp"
#include "intake/submission.hpp"

namespace grader {
namespace {


// The first line of `source` that calls printf outside a // comment (1-based), or 0.
int printf_line(const std::string& source) {
  static const std::regex call(R"(\bprintf\s*\()");
  std::istringstream lines(source);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const std::string code = line.substr(0, line.find("//"));
    if (std::regex_search(code, call)) return number;
  }
  return 0;
}

// The hint for a case that did not finish. A kernel that calls printf is told so first: PoCL
// collects a kernel's printf output and passes it on when the kernel ends, so a slow printf flood
// shows no output when it is stopped, only a time-out. Otherwise the usual suspects.
std::string step_hint(const std::string& end, const std::string& source, const std::string& shown_as) {
  if (const int line = printf_line(source))
    return "your kernel calls printf (" + shown_as + ":" + std::to_string(line) +
           "): printf in a kernel is slow, every line goes through the host, and a case that prints a line per "
           "work-item can run out of time; remove it and check again (if the case still fails, look for an endless "
           "loop or an index past the end)";
  if (end == "timeout") return "an endless loop? check that every loop's counter changes (offset *= 2)";
  if (end == "crashed") return "an out-of-bounds access? check every index against the array's size";
  return "";
}

std::string safety_name(const std::string& kind) {
  const std::map<std::string, std::string> names = {{"data-race", "data races"},
                                                    {"barrier-divergence", "barrier divergence"},
                                                    {"invalid-access", "invalid memory accesses"},
                                                    {"uninitialized", "uninitialized values"}};
  return "memory safety: " + names.at(kind) + " (Oclgrind)";
}

std::string find_oclgrind() {
  if (const char* env = std::getenv("KIT_OCLGRIND"); env && *env) return env;
  for (const char* dir : {"/usr/bin", "/usr/local/bin"})
    if (std::filesystem::exists(std::filesystem::path(dir) / "oclgrind")) return std::string(dir) + "/oclgrind";
  return "";
}

std::filesystem::path find_work_span_plugin(const GradeSettings& s) {
  if (const char* env = std::getenv("KIT_WORK_SPAN_PLUGIN"); env && *env) return env;
  return s.grader_exe.parent_path() / "libkit-work-span.so";
}

// The run under Oclgrind: the memory-safety case (with the race, divergence, bounds and
// uninitialized checks when `safety` has checks to grade) and, when the spec has algorithm
// checks, the kit's work/span plugin measuring each work-group's operations. One result per kind
// of finding, then one per algorithm check.
std::vector<CaseResult> oclgrind_cases(const LabSpec& spec, bool with_safety, bool with_algorithm, const GradeSettings& s,
                                       const std::filesystem::path& copy, const std::string& shown_as,
                                       const std::string& source) {
  const SafetySpec& safety = *spec.safety;
  const std::string& lab = spec.lab;
  std::vector<CaseResult> results;
  if (with_safety)
    for (const auto& [kind, points] : safety.checks)
      results.push_back({safety_name(kind), safety.visible, 0, points, "", "", "", 0, "safety"});
  if (with_algorithm)
    for (CaseResult& c : algorithm_not_run(*spec.algorithm, "", "")) results.push_back(c);
  const auto all = [&](const std::string& status, const std::string& message) {
    for (CaseResult& c : results) c.status = status, c.message = message;
    return results;
  };
  const std::string oclgrind = find_oclgrind();
  if (oclgrind.empty()) return all("error", "the safety and algorithm checks need Oclgrind: apt-get install oclgrind");

  SandboxLimits limits{safety.time_limit_s, safety.memory_limit_mb, 1, s.pocl_cache(), 4 << 20};
  zero_fresh_memory(limits);  // Oclgrind's buffers: a value read before it was written is the same in every run
  std::filesystem::path plugin;
  if (with_algorithm) {
    plugin = find_work_span_plugin(s);
    if (!std::filesystem::exists(plugin))
      return all("error", "the algorithm checks need the kit's Oclgrind plugin " + plugin.string() + ": build the kit");
  }
  // The runs in turn, each under its own time limit. Their reports and measurements add up; the
  // first run that does not finish cleanly (else the last) is the one the results below speak of.
  ChildRun run;
  std::optional<ChildRun> decisive;
  std::string reports, work_spans;
  double seconds = 0;
  for (std::size_t i = 0; i < safety.runs.size(); ++i) {
    const json& params = safety.runs[i];
    const std::filesystem::path dir = s.workdir / ("safety" + (i ? "-" + std::to_string(i) : std::string()));
    // -O0 keeps every access at its own source line in Oclgrind's reports. The reports go to a
    // file of their own: a kernel's printf cannot push them out of the captured output.
    const std::filesystem::path report_log = dir / "oclgrind.log", work_log = dir / "work-span.jsonl";
    std::filesystem::create_directories(dir);
    std::filesystem::remove(report_log);
    std::filesystem::remove(work_log);
    std::vector<std::string> prefix = {oclgrind};
    if (with_safety) prefix.insert(prefix.end(), {"--data-races", "--uniform-writes", "--uninitialized"});
    prefix.insert(prefix.end(), {"--build-options", "-O0", "--log", report_log.string()});
    // Oclgrind's device offers work-groups of up to 1024 work-items; a safety case asks for more
    // (lab 04's unrolled rung at L = 4096) and gets a device that allows them.
    if (const json local = params.value("local", json()); local.is_number_unsigned() && local.get<std::size_t>() > 1024)
      prefix.insert(prefix.end(), {"--max-wgsize", std::to_string(local.get<std::size_t>())});
    SandboxLimits these = limits;
    if (with_algorithm) {
      prefix.insert(prefix.end(), {"--plugins", plugin.string()});
      these.environment.emplace_back("KIT_WORK_SPAN_LOG", work_log.string());
    }
    run = run_child(s, prefix, {"--lab", lab, "--kernel", copy.string(), "--shown-as", shown_as, "--case", params.dump()},
                    these, dir);
    seconds += run.outcome.seconds;
    const std::string which = safety.runs.size() > 1 ? " (run " + std::to_string(i + 1) + " of " + std::to_string(safety.runs.size()) + ": " + params.dump() + ")" : "";
    if (run.outcome.end == ChildOutcome::End::TimedOut) {
      for (CaseResult& c : results) c.seconds = seconds;
      return all("timeout", "the run under Oclgrind" + which + " " + run.outcome.reason(limits) +
                                "; memory safety and the algorithm could not be shown");
    }
    if (std::filesystem::exists(report_log)) reports += read_file(report_log);
    if (std::filesystem::exists(work_log)) work_spans += read_file(work_log);
    if (reports.size() > (16u << 20)) reports.resize(16u << 20);  // thousands of reports: enough to judge
    const bool clean = run.outcome.end == ChildOutcome::End::Exited && run.outcome.exit_code == 0 &&
                       run.result.value("status", "") == "ok";
    if (!clean && !decisive) decisive = run;
  }
  if (decisive) run = *decisive;
  for (CaseResult& c : results) c.seconds = seconds;

  std::vector<OclgrindFinding> findings;
  std::size_t allowed = 0;
  for (const OclgrindFinding& f : parse_oclgrind(reports)) {
    bool ok = false;
    for (const AllowedFinding& a : safety.allow)
      for (const OclgrindSite& site : f.sites)
        ok |= a.kind == f.kind && source_line(source, site.line).find(a.source_contains) != std::string::npos;
    if (ok) ++allowed;
    else findings.push_back(f);
  }
  const bool finished = run.result.contains("status");
  if (!finished && findings.empty() && run.outcome.reason(limits).rfind("ran out of memory", 0) == 0)
    // Oclgrind keeps state for every access it checks: an endless loop exhausts memory first.
    return all("out-of-memory", "the run under Oclgrind " + run.outcome.reason(limits) +
                                    ": the kernel did far more work than this small case needs (an endless loop?)");
  if (!finished && findings.empty())
    return all("error", "Oclgrind itself failed before the run finished (" + run.outcome.reason(limits) +
                            "); this is not a finding against the kernel, and the check should be run again");
  if (finished && run.result["status"] != "ok" && findings.empty())
    return all("error", "the run under Oclgrind failed: " + run.result.value("message", "unknown error"));
  // Oclgrind can abort while it shuts down, after the run has finished and written its result:
  // that is Oclgrind's own fault, told apart from the kernel's by the finished result file.
  const bool clean_end = run.outcome.end == ChildOutcome::End::Exited && run.outcome.exit_code == 0;
  const std::string note = finished && !clean_end ? "Oclgrind " + run.outcome.reason(limits) +
                                                        " after the run had finished; that is Oclgrind's own fault and is ignored"
                                                  : "";
  if (with_algorithm) {
    std::vector<CaseResult> measured;
    if (!finished)
      measured = algorithm_not_run(*spec.algorithm, "error", "the run under Oclgrind did not finish (" + run.outcome.reason(limits) +
                                                                 "), so the algorithm could not be measured");
    else try {
      measured = algorithm_results(*spec.algorithm, parse_work_span(work_spans));
    } catch (const kit::Error& e) {
      measured = algorithm_not_run(*spec.algorithm, "error", std::string("the plugin's measurements could not be read: ") + e.what());
    }
    if (finished && run.result["status"] != "ok")
      measured = algorithm_not_run(*spec.algorithm, "error", "the run under Oclgrind failed: " + run.result.value("message", "unknown error"));
    for (CaseResult& m : measured) m.seconds = seconds;
    std::copy(measured.begin(), measured.end(), results.end() - measured.size());
  }
  for (CaseResult& c : results) {
    if (c.kind != "safety") continue;
    c.message = note;
    const std::string kind = std::find_if(safety.checks.begin(), safety.checks.end(), [&](const auto& k) {
                               return safety_name(k.first) == c.name;
                             })->first;
    std::vector<std::string> lines;
    for (const OclgrindFinding& f : findings)
      if (f.kind == kind || (kind == "invalid-access" && f.kind == "other")) lines.push_back(describe(f, source, shown_as));
    if (lines.empty()) {
      c.status = "passed";
      c.points = c.max_points;
      if (allowed) c.message += (c.message.empty() ? "" : "; ") + std::to_string(allowed) + " known false alarm(s) allowed by the spec";
      continue;
    }
    c.status = "unsafe";
    c.message.clear();
    for (std::size_t i = 0; i < lines.size() && i < 5; ++i) c.message += (i ? "\n" : "") + lines[i];
    if (lines.size() > 5) c.message += "\n... and " + std::to_string(lines.size() - 5) + " more";
    const bool only_write_write = std::all_of(findings.begin(), findings.end(), [](const OclgrindFinding& f) {
      return f.kind != "data-race" || f.title.find("rite-write") != std::string::npos;
    });
    if (kind == "data-race")
      c.hint = only_write_write ? "more than one work-item writes the same element, even if each writes the same value: "
                                  "let one work-item (e.g. the one with local id 0) write it"
                                : "a value written by one work-item is read by another before a barrier separates them";
    if (kind == "barrier-divergence") c.hint = "a barrier inside an if or a loop that not every work-item enters";
    if (kind == "uninitialized") c.hint = "often a consequence of a race or of reading past the end of an array";
  }
  return results;
}

}  // namespace

LabResult not_graded(const LabSpec& spec, const GradeSettings& s, const std::string& student, const std::string& status,
                     const std::string& message) {
  LabResult r;
  r.student = student;
  r.lab = spec.lab;
  r.status = status;
  r.message = message;
  const std::string why = "not run: " + std::string(status == "missing"    ? "the kernel file was not found"
                                                    : status == "rejected" ? "the submission was rejected"
                                                    : status == "error"    ? "the grader failed (it is retried on the next run)"
                                                                           : "the kernel file was not built");
  for (const CaseSpec& c : spec.cases)
    if (c.visible || !s.grading.visible_only) r.cases.push_back({c.name, c.visible, 0, c.points, "not-run", why, "", 0});
  if (spec.speed && (spec.speed->visible || !s.grading.visible_only))
    r.cases.push_back({kSpeedCase, spec.speed->visible, 0, spec.speed->points, "not-run", why, "", 0, "speed"});
  if (spec.safety && s.grading.safety() && (spec.safety->visible || !s.grading.visible_only))
    for (const auto& [kind, points] : spec.safety->checks)
      r.cases.push_back({safety_name(kind), spec.safety->visible, 0, points, "not-run", why, "", 0, "safety"});
  if (spec.algorithm && (spec.algorithm->visible || !s.grading.visible_only))
    for (CaseResult& c : algorithm_not_run(*spec.algorithm, "not-run", why)) r.cases.push_back(c);
  return r;
}

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A case's verdict from what its child wrote (as step_result).
CaseResult judge_case(const LabSpec& spec, const LabReference& reference, const LabDriver& driver, std::size_t i,
                      const json& got, double seconds, const std::string& source, const std::string& shown_as) {
  const CaseSpec& c = spec.cases[i];
  CaseResult cr{c.name, c.visible, 0, c.points, "", "", "", seconds};
  const std::string status = got.value("status", "");
  if (status == "not-run-here") {  // the device cannot run the case: not the student's fault, not counted
    cr.status = "not-run";
    cr.max_points = 0;
    cr.message = "not run on this device: " + got.value("reason", "");
  } else if (status == "ok") {
    const Comparison cmp = driver.compare(c.params, spec.tolerance, reference.reference(c.name), got.at("outputs"));
    cr.status = cmp.pass ? "passed" : "wrong";
    cr.message = cmp.message;
    cr.hint = cmp.hint;
    if (cmp.pass) cr.points = c.points;
  } else if (status == "sandbox") {
    cr.status = got.value("end", "crashed");
    cr.message = "the case " + got.value("reason", "failed");
    cr.hint = step_hint(cr.status, source, shown_as);
  } else if (status == "kernel-failed") {  // a GPU's crash
    cr.status = "crashed";
    cr.message = "the kernel failed on the device: " + got.value("message", "");
    cr.hint = step_hint(cr.status, source, shown_as);
  } else {
    cr.status = "error";
    cr.message = got.value("message", "the case failed");
  }
  return cr;
}

bool loses_points(const CaseResult& c) { return c.status != "error" && c.points < c.max_points; }

// Grades a kernel that passed screening: build, cases, speed, Oclgrind.
LabResult grade_screened(const LabSpec& spec, const LabReference& reference, const GradeSettings& s, LabResult r,
                         const std::filesystem::path& copy, const std::string& source, const std::string& shown_as) {
  const LabDriver& driver = lab_driver(spec.lab);
  const auto phase = [&](const std::string& name, double seconds) {
    if (s.phases) (*s.phases)[name] += seconds;
  };
  std::vector<std::size_t> indices;
  for (std::size_t i = 0; i < spec.cases.size(); ++i)
    if (spec.cases[i].visible || !s.grading.visible_only) indices.push_back(i);
  // `grader mutants`' screening: a mutant that lost a case's points is killed, whatever the rest would show.
  const auto judge = [&](std::size_t i, const json& got) {
    const CaseResult c = judge_case(spec, reference, driver, i, got, 0, source, shown_as);
    if (c.status == "passed" || c.status == "error" || c.status == "not-run") return CaseVerdict::Passed;  // an error is retried anyway
    return s.grading.stop_at_first_loss ? CaseVerdict::Stop : CaseVerdict::Lost;
  };
  const Clock::time_point cases_start = Clock::now();
  const CaseRuns runs = run_cases(spec, s, copy, shown_as, indices, judge);
  phase("build", runs.build_seconds);
  phase("cases", since(cases_start) - runs.build_seconds);
  phase("children", runs.children);
  for (std::size_t i = 0; i < runs.results.size(); ++i)  // of the cases: those stopped at their time limit
    if (runs.results[i].is_object() && runs.results[i].value("end", "") == "timeout") phase("time-outs", runs.seconds[i]);
  const std::string build_status = runs.build.value("status", "");
  const auto unbuilt = [&](const std::string& status, const std::string& message) {
    LabResult u = not_graded(spec, s, r.student, status, message);
    u.kernel = r.kernel;
    u.notes = r.notes;
    u.device = runs.build.value("device", "");
    return u;
  };
  if (build_status == "error")  // the child could not open the device: the grader's trouble, retried next run
    return unbuilt("error", "the grader could not run " + shown_as + " on its device: " + runs.build.value("message", ""));
  if (build_status == "build_error") return unbuilt("build-error", runs.build.value("log", ""));
  if (build_status == "rejected") return unbuilt("rejected", runs.build.value("message", ""));
  if (build_status != "built")
    return unbuilt("build-error", "building " + shown_as + " " + runs.build.value("reason", runs.build.value("message", "failed")));

  r.status = "graded";
  r.device = runs.build.value("device", "");
  for (std::size_t pos = 0; pos < indices.size(); ++pos) {
    const CaseSpec& c = spec.cases[indices[pos]];
    if (runs.results[pos].is_null()) {
      r.cases.push_back({c.name, c.visible, 0, c.points, "not-run", "not run: screening stops at the first case that loses points", "", 0});
      continue;
    }
    r.cases.push_back(judge_case(spec, reference, driver, indices[pos], runs.results[pos], runs.seconds[pos], source, shown_as));
  }
  if (s.grading.stop_at_first_loss && std::any_of(r.cases.begin(), r.cases.end(), loses_points)) return r;
  if (spec.speed && (spec.speed->visible || !s.grading.visible_only)) {
    const Clock::time_point speed_start = Clock::now();
    const SpeedSpec& sp = *spec.speed;
    CaseResult cr{kSpeedCase, sp.visible, 0, sp.points, "", "", "", 0, "speed"};
    SandboxLimits limits{sp.time_limit_s, spec.memory_limit_mb, s.grading.pocl_threads, s.pocl_cache()};
    limits.limit_address_space = s.cpu_device;
    if (s.cpu_device) zero_fresh_memory(limits);
    std::vector<std::string> args = {"--lab", spec.lab, "--kernel", copy.string(), "--shown-as", shown_as, "--case",
                                     sp.params.dump(), "--baseline", reference.baseline.string(), "--pairs", std::to_string(sp.pairs)};
    for (const std::string& a : device_args(s.device)) args.push_back(a);
    const ChildRun run = run_child(s, {}, args, limits, s.workdir / "speed");
    cr.seconds = run.outcome.seconds;
    const json got = step_result(run, limits);
    if (got.value("status", "") == "ok") {
      const json& speed = got.at("outputs");
      const Comparison cmp = driver.compare(sp.params, spec.tolerance, reference.reference(kSpeedCase), speed.at("outputs"));
      const double ratio = speed.at("ratio").get<double>();
      cr.ratio = ratio;
      char text[200];
      std::snprintf(text, sizeof text, "%.2f of the solution's speed (median of %d alternating runs; full points from %.2f)",
                    ratio, sp.pairs, sp.full_at);
      if (!cmp.pass) {
        cr.status = "wrong";
        cr.message = cmp.message + "; speed counts only for a right result";
        cr.hint = cmp.hint;
      } else {
        const double fraction = std::min(1.0, ratio / sp.full_at);
        cr.points = std::round(sp.points * fraction * 100) / 100;
        cr.status = fraction >= 1 ? "passed" : "slow";
        cr.message = text;
        if (fraction < 1) cr.hint = sp.slow_hint;
      }
    } else if (got.value("status", "") == "sandbox") {
      cr.status = got.value("end", "crashed");
      cr.message = "the speed case " + got.value("reason", "failed");
    } else if (got.value("status", "") == "kernel-failed") {
      cr.status = "crashed";
      cr.message = "the kernel failed on the device in the speed case: " + got.value("message", "");
    } else {
      cr.status = "error";
      cr.message = got.value("message", "the speed case failed");
    }
    r.cases.push_back(cr);
    phase("speed", since(speed_start));
  }
  const bool with_safety = !s.oclgrind_done_elsewhere && spec.safety && s.grading.safety() && (spec.safety->visible || !s.grading.visible_only);
  const bool with_algorithm = !s.oclgrind_done_elsewhere && s.grading.algorithm() && spec.algorithm && (spec.algorithm->visible || !s.grading.visible_only);
  if (with_safety || with_algorithm) {
    const Clock::time_point oclgrind_start = Clock::now();
    for (CaseResult& c : oclgrind_cases(spec, with_safety, with_algorithm, s, copy, shown_as, source)) r.cases.push_back(std::move(c));
    phase("oclgrind", since(oclgrind_start));
  }
  return r;
}

}  // namespace

LabResult grade_lab(const LabSpec& spec, const LabReference& reference, const std::filesystem::path& submission,
                    const std::string& student, const GradeSettings& settings) {
  const Clock::time_point start = Clock::now();
  GradeSettings s = settings;
  s.workdir = std::filesystem::absolute(s.workdir);  // children run inside their own folder
  const LabDriver& driver = lab_driver(spec.lab);
  const auto unbuilt = [&](const LabResult& found_so_far, const std::string& status, const std::string& message) {
    LabResult r = not_graded(spec, s, student, status, message);
    r.kernel = found_so_far.kernel;
    r.notes = found_so_far.notes;
    return r;
  };
  LabResult r;
  r.student = student;
  r.lab = spec.lab;
  const auto found = find_kernel(submission, spec.kernel_file);
  if (!found) return unbuilt(r, "missing", "no file named " + spec.kernel_file + " in the submission");
  r.kernel = found->relative;
  for (const std::string& other : found->others) r.notes.push_back("also found " + other + " (not graded; " + found->relative + " was)");

  // Screen, then work on a private copy: nothing is ever written into the submission.
  if (std::filesystem::file_size(found->path) > 4 * kMaxKernelBytes)
    return unbuilt(r, "rejected",
                   found->relative + ": " + std::to_string(std::filesystem::file_size(found->path)) +
                       " bytes, above the limit of " + std::to_string(kMaxKernelBytes) + " bytes for a kernel file");
  const std::string source = read_file(found->path);
  const auto problems = screen_kernel_source(source, found->relative, driver.kernels());
  if (!problems.empty()) {
    std::string all;
    for (const std::string& p : problems) all += (all.empty() ? "" : "\n") + p;
    return unbuilt(r, "rejected", all);
  }
  if (s.phases) (*s.phases)["screening"] += since(start);

  // A kernel graded before in this batch (the same code after removing comments and spacing).
  const GradedKernels::Key key{spec.lab, found->relative, code_without_comments(source), source};
  if (s.graded)
    if (std::optional<LabResult> earlier = s.graded->find_or_claim(key)) {
      earlier->student = student;
      earlier->kernel = r.kernel;
      earlier->notes = r.notes;
      return *earlier;
    }
  try {
    std::filesystem::remove_all(s.workdir);
    std::filesystem::create_directories(s.workdir / "kernel");
    const std::filesystem::path copy = s.workdir / "kernel" / spec.kernel_file;
    std::ofstream(copy, std::ios::binary) << source;
    std::vector<LabResult> per_device;
    const std::vector<kit::DeviceOptions> devices = s.grading.devices.empty() ? std::vector<kit::DeviceOptions>{s.device} : s.grading.devices;
    for (std::size_t d = 0; d < devices.size(); ++d) {
      GradeSettings on = s;
      on.device = devices[d];
      on.oclgrind_done_elsewhere = s.oclgrind_done_elsewhere || d > 0;
      on.cpu_device = is_cpu_device(devices[d]);
      if (devices.size() > 1) on.workdir = s.workdir / ("device" + std::to_string(d));
      per_device.push_back(grade_screened(spec, reference, on, r, copy, source, found->relative));
    }
    LabResult graded = combine_devices(per_device);
    if (graded.status == "graded") apply_points_policy(spec, graded);
    if (s.graded) {
      if (needs_retry(graded)) s.graded->abandon(key);  // a grader error is not a result to share
      else s.graded->publish(key, graded);
    }
    return graded;
  } catch (...) {
    if (s.graded) s.graded->abandon(key);
    throw;
  }
}

bool is_cpu_device(const kit::DeviceOptions& d) {
  static std::mutex lock;
  static std::map<std::pair<std::string, std::string>, bool> known;
  std::lock_guard<std::mutex> hold(lock);
  const auto key = std::make_pair(d.platform, d.device);
  if (!known.count(key)) {
    const std::vector<kit::PlatformNames> machine = kit::describe_machine();
    const kit::Choice c = kit::choose_device(machine, d);
    known[key] = machine[c.platform].is_cpu[c.device];
  }
  return known[key];
}

std::vector<std::string> device_args(const kit::DeviceOptions& device) {
  std::vector<std::string> args;
  if (!device.platform.empty()) args.insert(args.end(), {"--platform", device.platform});
  if (!device.device.empty()) args.insert(args.end(), {"--device", device.device});
  return args;
}

void apply_points_policy(const LabSpec& spec, LabResult& r) {
  if (spec.points_policy != "earned-with-correctness") throw kit::Error("unknown points policy " + spec.points_policy);
  // The case points earned and possible among the cases whose fields match `unit` (all when empty).
  const auto correctness = [&](const json& unit) {
    std::pair<double, double> sum{0, 0};
    for (const CaseResult& c : r.cases) {
      if (c.kind != "case") continue;
      const auto spec_case = std::find_if(spec.cases.begin(), spec.cases.end(), [&](const CaseSpec& k) { return k.name == c.name; });
      bool in_unit = spec_case != spec.cases.end();
      for (const auto& [key, value] : unit.items())
        in_unit = in_unit && spec_case->params.contains(key) && spec_case->params.at(key) == value;
      if (in_unit) sum.first += c.points, sum.second += c.max_points;
    }
    return sum;
  };
  for (CaseResult& c : r.cases) {
    if (c.kind == "case" || c.points <= 0) continue;
    json unit = json::object();
    if (c.kind == "algorithm" && spec.algorithm)
      for (const AlgorithmCheck& k : spec.algorithm->checks)
        if (algorithm_name(k) == c.name) unit = k.unit;
    const auto [earned, possible] = correctness(unit);
    if (possible <= 0 || earned >= possible) continue;
    const double fraction = earned / possible;
    const double before = c.points;
    c.points = std::floor(before * fraction * 100 + 1e-9) / 100;
    c.message += (c.message.empty() ? "" : "; ") + std::string("earns ") + format_points(c.points) + " of its " +
                 format_points(before) + " points: these points follow the case points the kernel earned (" +
                 format_points(earned) + " of " + format_points(possible) + (unit.empty() ? "" : " in " + unit.dump()) + ")";
  }
}

}  // namespace grader
