#include "judge/witness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "export/reports.hpp"
#include "grader/lab/driver.hpp"
#include "kit/witness.hpp"
#include "isolation/case_runs.hpp"
#include "isolation/device_lock.hpp"
#include "isolation/devices.hpp"
#include "isolation/fresh_memory.hpp"
#include "kit/program.hpp"
#include "judge/evidence.hpp"
#include "judge/oclgrind_stage.hpp"
#include "oclgrind/algorithm.hpp"
#include "oclgrind/checks.hpp"
#include "oclgrind/oclgrind.hpp"
#include "oclgrind/ticket_fences.hpp"

namespace grader {
namespace {

bool failed(const CaseResult& c) {
  return c.kind == CaseKind::Case && (c.status == CaseStatus::Wrong || c.status == CaseStatus::Crashed);
}

// Why no case of this result can be witnessed: a fence check is wrong (Oclgrind's one-group-after-
// another schedule hides a missing fence); empty when none. A race or an invalid access is
// looked for in each witness run itself, on the very case.
std::string refused_for(const LabSpec& spec, const LabResult& r) {
  if (!spec.algorithm) return "";
  for (const AlgorithmCheck& k : spec.algorithm->checks)
    for (const CaseResult& c : r.cases)
      if (k.fences && c.kind == CaseKind::Algorithm && c.name == algorithm_name(k) && c.status == CaseStatus::Wrong)
        return "its fence check is wrong (" + c.name + ")";
  return "";
}

// What in a witness run keeps it from counting; empty when it counts.
std::string against_witness(const LabSpec& spec, const LabReference& reference, const LabDriver& driver, const CaseSpec& c,
                            const EvidenceRun& run, const std::string& source, const std::string& shown_as) {
  if (run.timed_out) return "it ran past its time limit under Oclgrind";
  if (!run.log_read) return "Oclgrind wrote no log";
  const std::optional<StepStatus> status = step_status(run.result);
  if (status != StepStatus::Ok) return "it did not finish under Oclgrind either (" + run.result.value("status", std::string("failed")) + ")";
  const kit::Verdict v = driver.compare(c.params, spec.tolerance, reference.reference(c.name), run.result.at("outputs"));
  if (!v.pass) return "Oclgrind computed a wrong result too: " + v.message;
  if (const OclgrindFinding* f = first_finding(run.findings)) return "Oclgrind found " + describe(*f, source, shown_as);
  if (run.allowed > 0 && spec.algorithm)  // an allowed false alarm: only where the ticket's fences are right
    for (const AlgorithmCheck& k : spec.algorithm->checks) {
      if (!k.fences) continue;
      const bool launched = std::any_of(run.launches.begin(), run.launches.end(), [&](const KernelWork& w) { return w.kernel == k.kernel; });
      if (!run.launches_recorded) return "the run's record of the ticket's fences is missing";
      if (!launched) continue;
      const std::string fault = ticket_fence_fault(
          run.launches, {k.kernel, {k.fences->store.argument, k.fences->store.called}, {k.fences->ticket.argument, k.fences->ticket.called}});
      if (!fault.empty()) return "the right result under Oclgrind depends on its running work-groups one after another: " + fault;
    }
  return "";
}

// Whether the case computes a wrong result under Oclgrind with its own checks only (no race or
// uninitialized-value tracking): Oclgrind runs a kernel the same way whatever it tracks (work-groups
// one after another, the work-items of a group in turn between barriers), so such a case computes
// the same wrong result in the run with every check, which would then count for nothing. Its race
// tracking makes that run several times slower (lab 08's scan of 65,537 elements: 17 s of CPU
// against 3 s), and most failing cases of a kernel with a real fault are wrong under Oclgrind too.
// Its outputs count once the child wrote them, also where Oclgrind then crashed at its exit (as
// it can after a group of one work-item): that run computed them. A run that wrote none, or
// computed the right result, says nothing: the run with every check decides, as without this one.
bool computed_wrong_under_oclgrind(const LabSpec& spec, const LabReference& reference, const LabDriver& driver, const GradeSettings& s,
                                   const std::filesystem::path& copy, const std::string& shown_as, const CaseSpec& c,
                                   const OclgrindRunChoice& how, const std::string& name) {
  OclgrindRunChoice outputs_only = how;
  outputs_only.all_checks = false;
  outputs_only.record_launches = false;
  outputs_only.folder = "witness-outputs";
  const EvidenceRun run = run_under_oclgrind(spec, s, copy, shown_as, c.params, name, outputs_only);
  const json& written = step_status(run.result) == StepStatus::Ok ? run.result : run.written;
  if (step_status(written) != StepStatus::Ok || !written.contains("outputs")) return false;
  return !driver.compare(c.params, spec.tolerance, reference.reference(c.name), written.at("outputs")).pass;
}

// The case run again on the device, the kernel built with the device's optimizations off
// (-cl-opt-disable): the known compiler fault the kernel's loop matches does not happen there
// (common/data/known_device_faults.json, measured on PoCL 3.1). Right: it computed the right result
// and wrote nothing past a buffer's end; wrong: it computed a wrong one, wrote past an end or
// crashed; unknown: it ran out of time or memory, or the grader could not run it.
// Seconds, where Oclgrind takes minutes on a large case.
enum class Unoptimized { Right, Wrong, Unknown };
Unoptimized unoptimized_on_device(const LabSpec& spec, const LabReference& reference, const LabDriver& driver, const GradeSettings& s,
                                  const std::filesystem::path& copy, const std::string& shown_as, const CaseSpec& c,
                                  const std::string& name) {
  const json& threads = c.params.value("pocl_threads", json());
  SandboxLimits limits{spec.build_time_limit_s + 4 * c.time_limit_s, spec.memory_limit_mb,
                       s.cpu_device && threads.is_number_unsigned() ? threads.get<int>() : s.grading.pocl_threads, s.pocl_cache()};
  limits.limit_address_space = s.cpu_device;
  if (s.cpu_device) zero_fresh_memory(limits);
  guard_buffer_ends(limits, true);
  limits.environment.emplace_back(kit::kExtraBuildOptionsVariable, "-cl-opt-disable");
  std::vector<std::string> args = {"--lab", spec.lab, "--kernel", copy.string(), "--shown-as", shown_as};
  for (const std::string& a : device_args(s.device)) args.push_back(a);
  args.insert(args.end(), {"--case", c.params.dump()});
  const DeviceLock device(s.device, DeviceLock::Mode::Shared);
  const ChildRun run = run_child(s, {}, args, limits, s.workdir / ("unoptimized-" + name));
  const json result = step_result(run, limits);
  // A crash there is the kernel's as much as a wrong result; a time-out or a lack of memory says nothing.
  if (step_status(result) == StepStatus::KernelFailed || step_end(result) == CaseStatus::Crashed) return Unoptimized::Wrong;
  if (step_status(result) != StepStatus::Ok || !result.contains("outputs")) return Unoptimized::Unknown;
  if (const json& past = result.value("written_past_end", json()); past.is_array() && !past.empty()) return Unoptimized::Wrong;
  return driver.compare(c.params, spec.tolerance, reference.reference(c.name), result.at("outputs")).pass ? Unoptimized::Right
                                                                                                           : Unoptimized::Wrong;
}

// `line`, which the device got wrong (`device_gave`), made device-disagrees on `evidence`.
void mark_disagrees(CaseResult& line, const std::string& device_gave, const std::string& evidence, double share, const std::string& rewrite) {
  const bool crashed = line.status == CaseStatus::Crashed;
  line.status = CaseStatus::DeviceDisagrees;
  line.points = std::floor(line.max_points * share * 100 + 1e-9) / 100;
  line.message = std::string(crashed ? "the case crashed on the device" : "the device computed a wrong result") + " (" + device_gave +
                 "), but " + evidence + ": the device got it wrong, not the kernel; " +
                 (share >= 1   ? "the case keeps its points"
                  : share <= 0 ? "the case earns no points until the instructor reviews it"
                               : "the case earns " + format_points(line.points) + " of its " + format_points(line.max_points) +
                                     " points, as the course's policy for such cases sets");
  line.hint = rewrite;
}

std::string seconds_words(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", s);
  return text;
}

// The known fault's step of the witness (witness.hpp): where the kernel has the loop a known fault
// of this device miscompiles and Oclgrind computed a smaller case of the same function right with
// every check, a failing case is first run again on the device with the optimizations off, which
// avoid that fault. Wrong there too, where that smaller case is right there (the fault explains the
// device's disagreement on it), a case too large for every Oclgrind check keeps the device's
// verdict without an Oclgrind run.
class KnownFaultRuns {
 public:
  KnownFaultRuns(const LabSpec& spec, const LabReference& reference, const LabDriver& driver, const GradeSettings& s,
                 const std::filesystem::path& copy, const std::string& shown_as, double share, const std::string& rewrite)
      : spec_(spec), reference_(reference), driver_(driver), s_(s), copy_(copy), shown_as_(shown_as), share_(share), rewrite_(rewrite) {}

  // Whether this step settled `line` (the case `c` of kernel function `key`).
  bool settles(CaseResult& line, const CaseSpec& c, const std::string& key, const std::string& device_gave, const std::string& witnessed_on,
               bool all_checks) {
    if (rewrite_.empty() || witnessed_on.empty()) return false;
    const Unoptimized unoptimized = run(c);
    if (unoptimized == Unoptimized::Right) {
      mark_disagrees(line, device_gave,
                     "the same kernel built with the device's optimizations off (-cl-opt-disable, which avoids the known compiler fault "
                     "in the hint) computed the right result on the device, writing nothing past a buffer's end, and under Oclgrind, an "
                     "independent OpenCL implementation, the smaller case \"" + witnessed_on +
                         "\" of the same kernel function computed the right result with every check and no finding",
                     share_, rewrite_);
      return true;
    }
    if (unoptimized != Unoptimized::Wrong || all_checks || !explains(key, witnessed_on)) return false;
    line.message += "; (no witness: built with the device's optimizations off, which avoid the known compiler fault in the hint "
                    "(they make the smaller case \"" + witnessed_on + "\" right on the device), the kernel computes this case wrong "
                    "on the device too, and the case is too large for every Oclgrind check)";
    return true;
  }

 private:
  Unoptimized run(const CaseSpec& c) {
    return unoptimized_on_device(spec_, reference_, driver_, s_, copy_, shown_as_, c, std::to_string(runs_++));
  }
  // Whether the function's case witnessed with every check is right on the device with the
  // optimizations off (run once per function).
  bool explains(const std::string& key, const std::string& witnessed) {
    if (const auto known = explained_.find(key); known != explained_.end()) return known->second;
    const auto sc = std::find_if(spec_.cases.begin(), spec_.cases.end(), [&](const CaseSpec& k) { return k.name == witnessed; });
    return explained_[key] = sc != spec_.cases.end() && run(*sc) == Unoptimized::Right;
  }

  const LabSpec& spec_;
  const LabReference& reference_;
  const LabDriver& driver_;
  const GradeSettings& s_;
  const std::filesystem::path& copy_;
  const std::string& shown_as_;
  double share_;
  std::string rewrite_;
  std::map<std::string, bool> explained_;
  int runs_ = 0;
};

// How a large case is witnessed (with every check up to kWitnessFullWork), within `left` seconds.
OclgrindRunChoice witness_run(const LabSpec& spec, bool all_checks, double left) {
  OclgrindRunChoice how;
  how.all_checks = all_checks;
  how.time_limit_s = std::min(left, all_checks ? std::max(spec.safety->time_limit_s, 60.0) : kWitnessLargeCaseSeconds);
  how.record_launches = spec.algorithm && std::any_of(spec.algorithm->checks.begin(), spec.algorithm->checks.end(),
                                                      [](const AlgorithmCheck& k) { return bool(k.fences); });
  how.folder = "witness";
  return how;
}

// What a witness run that clears the kernel showed, in words (with every check, or Oclgrind's own
// checks only after the smaller case `witnessed_on` was witnessed with them all).
std::string witnessed_right(bool all_checks, const std::string& witnessed_on) {
  return "under Oclgrind, an independent OpenCL implementation, the same case computed the right result and Oclgrind " +
         (all_checks ? std::string("found no invalid access, data race, barrier divergence or uninitialized value")
                     : "found no invalid access or barrier divergence (its races and uninitialized values were checked on the smaller case \"" +
                           witnessed_on + "\")");
}

// The stage's run of a case (oclgrind_stage.hpp), as a witness run.
EvidenceRun as_run(const StepLook& look) {
  EvidenceRun run;
  run.findings = look.findings;
  run.allowed = look.allowed;
  run.launches = look.launches;
  run.launches_recorded = !look.launches.empty();
  run.timed_out = look.timed_out;
  run.log_read = true;
  run.result = look.result;
  run.written = look.result;
  return run;
}

// Why no witness: the first of each kind of reason, in the words a line's message gets.
std::string fault_stop(const std::string& name, const std::vector<OclgrindFinding>& faults, const std::string& source, const std::string& shown_as) {
  return "no witness: on its smaller case \"" + name + "\" Oclgrind found " + describe(*first_finding(faults), source, shown_as) +
         ", a fault of the kernel's own";
}

// The failing cases of each kernel function, smallest first.
using FailingCases = std::map<std::string, std::vector<std::pair<CaseResult*, const CaseSpec*>>>;
FailingCases failing_cases_by_function(const LabSpec& spec, LabResult& r) {
  FailingCases functions;
  for (CaseResult& c : r.cases) {
    if (!failed(c)) continue;
    const auto sc = std::find_if(spec.cases.begin(), spec.cases.end(), [&](const CaseSpec& k) { return k.name == c.name; });
    if (sc != spec.cases.end()) functions[kernel_key(*spec.safety, sc->params)].push_back({&c, &*sc});
  }
  for (auto& [key, cases] : functions)
    std::stable_sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) { return work_of(a.second->params) < work_of(b.second->params); });
  return functions;
}

}  // namespace

double device_disagrees_share(const LabSpec& spec, const GradeSettings& s) {
  return s.grading.device_disagrees_share >= 0 ? s.grading.device_disagrees_share : spec.device_disagrees_share;
}

void witness_failed_cases(const LabSpec& spec, const LabReference& reference, const GradeSettings& s, const OclgrindEvidence& e,
                          const std::filesystem::path& copy, const std::string& source, const std::string& shown_as, LabResult& r) {
  if (!s.grading.witness || s.grading.oclgrind == OclgrindChecks::None || !spec.safety || spec.safety->runs.empty()) return;
  // No witness speaks where nothing shows that Oclgrind ran (the Oclgrind lines say why).
  if (std::none_of(r.cases.begin(), r.cases.end(), failed) || !e.ran) return;
  const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  const auto spent = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const std::string refused = refused_for(spec, r);
  const LabDriver& driver = lab_driver(spec.lab);
  const double share = device_disagrees_share(spec, s);
  const std::string rewrite = kit::known_device_fault_rewrite(source, r.device);
  KnownFaultRuns known_fault{spec, reference, driver, s, copy, shown_as, share, rewrite};

  FailingCases functions = failing_cases_by_function(spec, r);
  int runs = 0;
  for (auto& [key, cases] : functions) {
    std::string witnessed_on;  // the case of this function witnessed with every check
    std::string stop;          // why the rest of this function's cases are not witnessed
    for (auto& [line, c] : cases) {
      const std::string device_gave = line->message;
      const StepLook* look = e.of_case(c->name);
      if (const std::vector<OclgrindFinding> faults = look ? look->all_findings() : std::vector<OclgrindFinding>{}; !faults.empty()) {
        if (stop.empty()) stop = fault_stop(c->name, faults, source, shown_as);  // its own message says undefined behaviour
        continue;
      }
      if (stop.empty() && !refused.empty()) stop = "no witness: " + refused;
      // The stage ran it whole with every check. A case it ran whole without uninitialized values
      // (work-groups above kUninitializedMaxLocal) is run again here, with every check.
      const bool whole = look && look->step.every_check();
      const bool all_checks = whole || (look && !look->step.quick) || work_of(c->params) <= kWitnessFullWork;
      if (stop.empty() && !all_checks && witnessed_on.empty())
        stop = "no witness: it is too large for every Oclgrind check, and no smaller case of this kernel function was witnessed with them";
      const double left = kWitnessBudgetSeconds - spent();
      if (stop.empty() && !whole && left < 5) stop = "no witness: the witness runs of this lab used their " + seconds_words(kWitnessBudgetSeconds) + " s";
      if (!stop.empty()) {
        if (stop.rfind("no witness", 0) == 0) line->message += "; (" + stop + ")";
        continue;
      }
      EvidenceRun run;
      if (whole) {  // the stage's own run of the case: its outputs and what Oclgrind found
        if (!look->looked && look->findings.empty()) {
          line->message += "; (no witness: " + look->not_looked + ")";
          if (look->timed_out) stop = "no witness: its smaller case \"" + c->name + "\" ran past its time limit under Oclgrind";
          continue;
        }
        run = as_run(*look);
      } else {
        if (known_fault.settles(*line, *c, key, device_gave, witnessed_on, all_checks)) continue;
        OclgrindRunChoice how = witness_run(spec, all_checks, left);
        // A wrong result under Oclgrind's own checks ends it: the run with every check would compute the same.
        if (all_checks && computed_wrong_under_oclgrind(spec, reference, driver, s, copy, shown_as, *c, how, std::to_string(runs++))) continue;
        how.time_limit_s = std::min(how.time_limit_s, kWitnessBudgetSeconds - spent());
        run = run_under_oclgrind(spec, s, copy, shown_as, c->params, std::to_string(runs++), how);
        if (!run.oclgrind_ran) {  // fail closed: a run that did not happen on Oclgrind's device shows nothing
          line->message += "; (no witness: " + run.not_run + ")";
          continue;
        }
      }
      const std::string against = against_witness(spec, reference, driver, *c, run, source, shown_as);
      if (!against.empty()) {
        // The kernel computes this case wrong under Oclgrind too: a later case is still witnessed
        // (a kernel can be wrong on some cases and computed wrong by the device on others), a
        // large one only after a smaller case was witnessed right with every check. A fault that
        // Oclgrind found in the kernel (a race, an access out of bounds ...) is the kernel's own
        // and explains what any device computes: its later cases are not witnessed, nor are they
        // after a time-out here (a later case is larger).
        if (run.timed_out) {
          line->message += "; (no witness: it ran past its time limit under Oclgrind)";
          stop = "no witness: its smaller case \"" + c->name + "\" ran past its time limit under Oclgrind";
        } else if (!run.findings.empty()) {
          stop = fault_stop(c->name, run.findings, source, shown_as);
        }
        continue;
      }
      if (all_checks && witnessed_on.empty()) witnessed_on = c->name;
      mark_disagrees(*line, device_gave, witnessed_right(all_checks, witnessed_on), share, rewrite);
    }
  }
  if (s.phases) (*s.phases)["witness"] += spent();
}

}  // namespace grader
