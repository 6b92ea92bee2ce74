#include "judge/speed_case.hpp"

#include <algorithm>
#include <cstdio>

#include "isolation/case_child.hpp"
#include "isolation/case_runs.hpp"
#include "isolation/devices.hpp"
#include "isolation/fresh_memory.hpp"
#include "isolation/sandbox.hpp"
#include "isolation/speed_gate.hpp"
#include "judge/speed_estimate.hpp"
#include "judge/speed_noise.hpp"

namespace grader {

// Its points follow the speed, and count only for a right result. `grader check` estimates it
// instead, from the kernel's ratio to the host's OpenMP dot product and the solution's stored one.
CaseResult speed_case(const LabSpec& spec, const LabReference& reference, const LabDriver& driver, const GradeSettings& s,
                      const std::filesystem::path& copy, const std::string& shown_as) {
  const SpeedSpec& sp = *spec.speed;
  const bool estimate = s.grading.estimate_speed;
  CaseResult cr{estimate ? kSpeedEstimateCase : kSpeedCase, sp.visible, 0, sp.points, CaseStatus::NotRun, "", "", 0, CaseKind::Speed};
  if (estimate && !sp.estimate) cr.message = "not run: the spec stores no figure of the solution to estimate the speed against";
  else if (estimate && !s.cpu_device)
    cr.message = "not estimated on this device: the solution's stored figure was measured on PoCL, a CPU device";
  else if (!estimate && reference.baseline.empty())
    cr.message = "not run: these references carry no stored solution to time against (a student release); grader check estimates the speed";
  if (estimate && !cr.message.empty()) cr.max_points = 0;  // nothing to estimate: neither earned nor lost, as a case the device cannot run
  if (!cr.message.empty()) return cr;
  SandboxLimits limits{sp.time_limit_s, spec.memory_limit_mb, s.grading.pocl_threads, s.pocl_cache()};
  limits.limit_address_space = s.cpu_device;
  if (s.cpu_device) zero_fresh_memory(limits);
  guard_buffer_ends(limits, false);
  std::vector<std::string> args = {"--lab", spec.lab, "--kernel", copy.string(), "--shown-as", shown_as, "--case",
                                   sp.params.dump(), "--baseline", (estimate ? kOpenMpBaseline : reference.baseline).string(),
                                   "--pairs", std::to_string(sp.pairs)};
  for (const std::string& a : device_args(s.device)) args.push_back(a);
  // No other grading on this device while the speed case's timed runs go (speed_gate.hpp): they
  // never overlap one another, nor other kernels' cases; its builds and untimed runs may.
  const std::filesystem::path dir = s.workdir / "speed";
  args.insert(args.end(), {"--gate", dir.string()});
  SpeedGate gate(s.device, dir, sp.time_limit_s);
  const ChildRun run = run_child(s, {}, args, limits, dir, [&] { return gate.follow(); });
  cr.seconds = run.outcome.seconds;
  const json got = step_result(run, limits);
  const std::optional<StepStatus> status = step_status(got);
  if (status == StepStatus::Ok) {
    const json& speed = got.at("outputs");
    const kit::Verdict cmp = driver.compare(sp.params, spec.tolerance, reference.reference(kSpeedCase), speed.at("outputs"));
    const double ratio = speed.at("ratio").get<double>();
    cr.ratio = ratio;
    cr.ratio_low = speed.value("low", -1.0);
    cr.ratio_high = speed.value("high", -1.0);
    char text[200];
    std::snprintf(text, sizeof text, "%.2f of the solution's speed (median of %d alternating runs; full points from %.2f)",
                  ratio, sp.pairs, sp.full_at);
    if (!cmp.pass) {
      cr.status = CaseStatus::Wrong;
      cr.message = cmp.message + "; speed counts only for a right result";
      cr.hint = cmp.hint;
    } else if (estimate) {
      judge_speed_estimate(sp, *sp.estimate, speed, cr);
    } else {
      const double fraction = std::min(1.0, ratio / sp.full_at);
      cr.points = speed_points(sp, ratio);
      cr.status = fraction >= 1 ? CaseStatus::Passed : CaseStatus::Slow;
      cr.message = text;
      if (fraction < 1) cr.hint = sp.slow_hint;
    }
  } else if (status == StepStatus::Sandbox) {
    cr.status = step_end(got).value_or(CaseStatus::Crashed);
    cr.message = "the speed case " + got.value("reason", "failed");
  } else if (status == StepStatus::KernelFailed) {
    cr.status = CaseStatus::Crashed;
    cr.message = "the kernel failed on the device in the speed case: " + got.value("message", "");
  } else {
    cr.status = CaseStatus::Error;
    cr.message = got.value("message", "the speed case failed");
  }
  return cr;
}

CaseResult speed_line(const LabSpec& spec, const LabReference& reference, const LabDriver& driver, const GradeSettings& s,
                      const std::filesystem::path& copy, const std::string& shown_as, const std::optional<CaseResult>& first) {
  const CaseResult line = first ? *first : speed_case(spec, reference, driver, s, copy, shown_as);
  if (s.grading.estimate_speed || !measure_again(*spec.speed, line)) return line;
  return confirmed_speed(*spec.speed, line, speed_case(spec, reference, driver, s, copy, shown_as));
}

}  // namespace grader
