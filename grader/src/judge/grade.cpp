#include "judge/grade.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <future>
#include <optional>

#include "batch/batch.hpp"
#include "core/files.hpp"
#include "export/reports.hpp"
#include "isolation/child_folder.hpp"
#include "grader/lab/driver.hpp"
#include "intake/submission.hpp"
#include "isolation/case_runs.hpp"
#include "isolation/device_lock.hpp"
#include "isolation/devices.hpp"
#include "isolation/fresh_memory.hpp"
#include "isolation/sandbox.hpp"
#include "isolation/time_budget.hpp"
#include "kit/paths.hpp"
#include "kit/witness.hpp"
#include "judge/evidence.hpp"
#include "judge/evidence_verdict.hpp"
#include "judge/oclgrind_stage.hpp"
#include "judge/graded_kernels.hpp"
#include "judge/hints.hpp"
#include "judge/points_policy.hpp"
#include "judge/speed_case.hpp"
#include "judge/speed_estimate.hpp"
#include "judge/witness.hpp"
#include "oclgrind/algorithm.hpp"
#include "oclgrind/checks.hpp"

namespace grader {

std::filesystem::path GradeSettings::pocl_cache() const {
  if (!shared_pocl_cache.empty()) return shared_pocl_cache;
  return kept_pocl_cache().value_or(workdir / "pocl-cache");
}

LabResult not_graded(const LabSpec& spec, const GradeSettings& s, const std::string& student, LabStatus status,
                     const std::string& message) {
  LabResult r;
  r.student = student;
  r.lab = spec.lab;
  r.status = status;
  r.message = message;
  const std::string why = "not run: " + std::string(status == LabStatus::Missing    ? "the kernel file was not found"
                                                    : status == LabStatus::Rejected ? "the submission was rejected"
                                                    : status == LabStatus::Error    ? "the grader failed (it is retried on the next run)"
                                                    : status == LabStatus::UnchangedStarter ? "the kernel file is unchanged from the starter"
                                                                                    : "the kernel file was not built");
  const CaseStatus not_run = CaseStatus::NotRun;
  for (const CaseSpec& c : spec.cases)
    if (c.visible || !s.grading.visible_only) r.cases.push_back({c.name, c.visible, 0, c.points, not_run, why, "", 0});
  if (spec.speed && (spec.speed->visible || !s.grading.visible_only))
    r.cases.push_back({s.grading.estimate_speed ? kSpeedEstimateCase : kSpeedCase, spec.speed->visible, 0, spec.speed->points, not_run, why, "", 0, CaseKind::Speed});
  if (spec.safety && s.grading.safety() && (spec.safety->visible || !s.grading.visible_only))
    for (const auto& [kind, points] : spec.safety->checks)
      r.cases.push_back({safety_name(kind), spec.safety->visible, 0, points, not_run, why, "", 0, CaseKind::Safety});
  if (spec.algorithm && (spec.algorithm->visible || !s.grading.visible_only))
    for (CaseResult& c : algorithm_not_run(*spec.algorithm, not_run, why)) r.cases.push_back(c);
  return r;
}

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// "the kernel wrote past the end of a buffer (...)" when the case child found a buffer's guard
// bytes changed ($KIT_BUFFER_GUARD, kit/buffer.hpp), else "".
std::string written_past_end(const json& got) {
  const json& lines = got.value("written_past_end", json());
  if (!lines.is_array() || lines.empty()) return "";
  std::string all;
  for (const json& line : lines) all += (all.empty() ? "" : "; ") + line.get<std::string>();
  return "the kernel wrote past the end of " + std::string(lines.size() == 1 ? "a buffer" : "its buffers") + " (" + all + ")";
}

// A case's verdict from what its child wrote (as step_result).
CaseResult judge_case(const LabSpec& spec, const LabReference& reference, const LabDriver& driver, std::size_t i,
                      const json& got, double seconds, const std::string& source, const std::string& shown_as) {
  const CaseSpec& c = spec.cases[i];
  CaseResult cr{c.name, c.visible, 0, c.points, CaseStatus::NotRun, "", "", seconds};
  const std::optional<StepStatus> status = step_status(got);
  if (status == StepStatus::NotRunHere) {  // the device cannot run the case: not the student's fault, not counted
    cr.status = CaseStatus::NotRun;
    cr.max_points = 0;
    cr.message = "not run on this device: " + got.value("reason", "");
  } else if (status == StepStatus::Ok) {
    const kit::Verdict cmp = driver.compare(c.params, spec.tolerance, reference.reference(c.name), got.at("outputs"));
    cr.status = cmp.pass ? CaseStatus::Passed : CaseStatus::Wrong;
    cr.message = cmp.message;
    cr.hint = cmp.hint;
    if (cmp.pass) cr.points = c.points;
    if (const std::string past = written_past_end(got); !past.empty()) {  // right outputs or not, an invalid write
      cr.status = CaseStatus::Wrong;
      cr.points = 0;
      cr.message = past + (cmp.pass ? "" : "; " + cmp.message);
      cr.hint = "a store past the last element of an array: guard each write with the array's length";
    }
  } else if (status == StepStatus::Sandbox) {
    cr.status = step_end(got).value_or(CaseStatus::Crashed);
    cr.message = "the case " + got.value("reason", "failed");
    cr.hint = step_hint(cr.status, source, shown_as);
  } else if (status == StepStatus::KernelFailed) {  // a GPU's crash
    cr.status = CaseStatus::Crashed;
    cr.message = "the kernel failed on the device: " + got.value("message", "");
    cr.hint = step_hint(cr.status, source, shown_as);
  } else {
    cr.status = CaseStatus::Error;
    cr.message = got.value("message", "the case failed");
  }
  return cr;
}

// The result's line for each case graded (indices[pos]), in the spec's order, from what its run came to.
void case_lines(const LabSpec& spec, const LabReference& reference, const LabDriver& driver, const std::vector<std::size_t>& indices,
                const CaseRuns& runs, const std::string& source, const std::string& shown_as, LabResult& r) {
  for (std::size_t pos = 0; pos < indices.size(); ++pos) {
    const CaseSpec& c = spec.cases[indices[pos]];
    if (!runs.not_run_after[pos].empty()) {  // the time budget: see isolation/time_budget.hpp
      const auto timed_out = std::find_if(spec.cases.begin(), spec.cases.end(), [&](const CaseSpec& t) { return t.name == runs.not_run_after[pos]; });
      r.cases.push_back({c.name, c.visible, 0, c.points, CaseStatus::NotRun, not_run_after_message(spec, *timed_out), "", 0});
      continue;
    }
    if (runs.results[pos].is_null()) {
      r.cases.push_back({c.name, c.visible, 0, c.points, CaseStatus::NotRun, "not run: screening stops at the first case that loses points", "", 0});
      continue;
    }
    r.cases.push_back(judge_case(spec, reference, driver, indices[pos], runs.results[pos], runs.seconds[pos], source, shown_as));
    if (runs.timed_out_first[pos]) {
      std::string said = "run again alone after a time-out while other kernels were graded on the device (this run counts";
      if (runs.seconds[pos] > c.time_limit_s && r.cases.back().status != CaseStatus::Timeout) {
        char took[640];
        std::snprintf(took, sizeof took, "; it took %.2f s, past the case's %.2g s, of which %.2f s its launches waited for the device to "
                      "compile them, which a run again does not count (up to the build limit): the device compiles the kernel for each "
                      "work-group size at its first launch, which is the build's time, not the case's",
                      runs.seconds[pos], c.time_limit_s, runs.compile_seconds[pos]);
        said += took;
      }
      r.cases.back().message += std::string(r.cases.back().message.empty() ? "" : "; ") + said + ")";
    }
  }
}

bool loses_points(const CaseResult& c) { return c.status != CaseStatus::Error && c.points < c.max_points; }

// Grades a kernel that passed screening on one device: build, cases, speed. `timed_out_alone`
// gets the first case the kernel did not finish alone (the time budget), if any.
LabResult grade_screened(const LabSpec& spec, const LabReference& reference, const GradeSettings& s, LabResult r,
                         const std::filesystem::path& copy, const std::string& source, const std::string& shown_as,
                         std::string& timed_out_alone) {
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
    if (c.status == CaseStatus::Passed || c.status == CaseStatus::Error || c.status == CaseStatus::NotRun)
      return AfterCase::GoOn;  // an error is retried anyway
    return s.grading.stop_at_first_loss ? AfterCase::Stop : AfterCase::GoOn;
  };
  // The speed case runs beside the cases (docs/design.md), its line after theirs: its timed runs,
  // the device to themselves (speed_gate.hpp), wait for the case children running then, this
  // kernel's own among them; before the cases, this kernel's cases waited for that wait too.
  // `grader mutants` (stop_at_first_loss) keeps it last: a kernel that lost points needs none.
  const bool with_speed = spec.speed && (spec.speed->visible || !s.grading.visible_only);
  // Joined before the objects it reads go: declared after them (and an early return waits for it).
  std::future<CaseResult> speed_beside;
  if (with_speed && !s.grading.stop_at_first_loss)
    speed_beside = std::async(std::launch::async, [&] { return speed_case(spec, reference, driver, s, copy, shown_as); });
  const Clock::time_point cases_start = Clock::now();
  const CaseRuns runs = run_cases(spec, s, copy, shown_as, indices, judge);
  phase("build", runs.build_seconds);
  phase("cases", since(cases_start) - runs.build_seconds);
  // The speed phase is what the speed case added to this kernel's time: its wait after the cases.
  std::optional<CaseResult> speed;
  double speed_seconds = 0;
  if (speed_beside.valid()) {
    const Clock::time_point waited = Clock::now();
    speed = speed_beside.get();
    speed_seconds = since(waited);
  }
  phase("children", runs.children);
  for (std::size_t i = 0; i < runs.results.size(); ++i)  // of the cases: those stopped at their time limit
    if (step_end(runs.results[i]) == CaseStatus::Timeout) phase("time-outs", runs.seconds[i]);
  phase("all time-outs", runs.timeout_seconds);
  phase("device waits", runs.lock_wait_seconds);
  if (timed_out_alone.empty()) timed_out_alone = runs.timed_out_alone;
  const std::optional<StepStatus> built = step_status(runs.build);
  const auto unbuilt = [&](LabStatus status, const std::string& message) {
    LabResult u = not_graded(spec, s, r.student, status, message);
    u.kernel = r.kernel;
    u.notes = r.notes;
    u.device = runs.build.value("device", "");
    return u;
  };
  if (built == StepStatus::Error)  // the child could not open the device: the grader's trouble, retried next run
    return unbuilt(LabStatus::Error, "the grader could not run " + shown_as + " on its device: " + runs.build.value("message", ""));
  if (built == StepStatus::BuildError) return unbuilt(LabStatus::BuildError, runs.build.value("log", ""));
  if (built == StepStatus::Rejected) return unbuilt(LabStatus::Rejected, runs.build.value("message", ""));
  if (built != StepStatus::Built)
    return unbuilt(LabStatus::BuildError, "building " + shown_as + " " + runs.build.value("reason", runs.build.value("message", "failed")));

  r.status = LabStatus::Graded;
  r.device = runs.build.value("device", "");
  case_lines(spec, reference, driver, indices, runs, source, shown_as, r);
  if (s.grading.stop_at_first_loss && std::any_of(r.cases.begin(), r.cases.end(), loses_points)) return r;
  if (with_speed) {
    const Clock::time_point speed_start = Clock::now();
    r.cases.push_back(speed_line(spec, reference, driver, s, copy, shown_as, speed));
    phase("speed", since(speed_start) + speed_seconds);
  }
  return r;
}

// The pristine starter: a folder of them where one is given, else the hashes stored with the kit
// or the release (never the kit's labs/, which a student may have edited).
bool unchanged_starter(const GradeSettings& s, const LabSpec& spec, const std::string& source, const std::filesystem::path& path) {
  if (!s.starters.empty()) return same_as_starter(source, path, s.starters / spec.lab / spec.kernel_file);
  const std::optional<std::string> stored = stored_starter_hash(kit::root(), spec.lab, spec.kernel_file);
  return stored && *stored == starter_hash(source);
}

std::string joined_lines(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& line : lines) all += (all.empty() ? "" : "\n") + line;
  return all;
}

}  // namespace

LabResult grade_lab(const LabSpec& spec, const LabReference& reference, const std::filesystem::path& submission,
                    const std::string& student, const GradeSettings& settings) {
  const Clock::time_point start = Clock::now();
  GradeSettings s = settings;
  s.workdir = std::filesystem::absolute(s.workdir);  // children run inside their own folder
  const LabDriver& driver = lab_driver(spec.lab);
  const auto unbuilt = [&](const LabResult& found_so_far, LabStatus status, const std::string& message) {
    LabResult r = not_graded(spec, s, student, status, message);
    r.kernel = found_so_far.kernel;
    r.notes = found_so_far.notes;
    return r;
  };
  LabResult r;
  r.student = student;
  r.lab = spec.lab;
  const auto found = find_kernel(submission, spec.kernel_file);
  if (!found) return unbuilt(r, LabStatus::Missing, missing_kernel_message(submission, spec.kernel_file));
  r.kernel = found->relative;
  for (const std::string& other : found->others) r.notes.push_back("also found " + other + " (not graded; " + found->relative + " was)");

  // Screen, then work on a private copy: nothing is ever written into the submission.
  if (std::filesystem::file_size(found->path) > 4 * kMaxKernelBytes)
    return unbuilt(r, LabStatus::Rejected,
                   found->relative + ": " + std::to_string(std::filesystem::file_size(found->path)) +
                       " bytes, above the limit of " + std::to_string(kMaxKernelBytes) + " bytes for a kernel file");
  const std::string source = read_file(found->path);
  const auto problems = screen_kernel_source(source, found->relative, driver.kernels());
  if (!problems.empty()) return unbuilt(r, LabStatus::Rejected, joined_lines(problems));
  if (s.starter_check && unchanged_starter(s, spec, source, found->path))
    return unbuilt(r, LabStatus::UnchangedStarter, found->relative + " is unchanged from the starter (labs/" + spec.lab + "/" +
                                                       spec.kernel_file + ", outside comments and spacing): 0 points");
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
    std::string timed_out_alone;
    for (std::size_t d = 0; d < devices.size(); ++d) {
      GradeSettings on = s;
      on.device = devices[d];
      on.cpu_device = is_cpu_device(devices[d]);
      if (devices.size() > 1) on.workdir = s.workdir / ("device" + std::to_string(d));
      per_device.push_back(grade_screened(spec, reference, on, r, copy, source, found->relative, timed_out_alone));
    }
    LabResult graded = combine_devices(per_device);
    // A known compiler fault of the device is named where the kernel has the code it miscompiles.
    if (const std::string fault = kit::known_device_fault_rewrite(source, graded.device); !fault.empty()) graded.notes.push_back(fault);
    if (graded.status == LabStatus::Graded && !(s.grading.stop_at_first_loss && std::any_of(graded.cases.begin(), graded.cases.end(), loses_points))) {
      GradeSettings first = s;
      first.device = devices.front();
      first.cpu_device = is_cpu_device(devices.front());
      judge_under_oclgrind(spec, reference, first, copy, source, found->relative, timed_out_alone, graded);
      crash_hints_from_findings(graded);
      apply_points_policy(spec, graded);
    } else if (graded.status == LabStatus::Graded) {
      apply_points_policy(spec, graded);
    }
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

}  // namespace grader
