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
#include "judge/oclgrind_stage.hpp"

namespace grader {

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
  // Its record of each launch is also the proof that the run happened on Oclgrind's device.
  const std::filesystem::path plugin = find_work_span_plugin(s);
  EvidenceRun out;
  if (find_oclgrind().empty() || !std::filesystem::exists(plugin)) {
    out.not_run = find_oclgrind().empty() ? oclgrind_missing() : "the kit's Oclgrind plugin " + plugin.string() + " is missing: build the kit (make build)";
    return out;
  }
  prefix.insert(prefix.end(), {"--plugins", plugin.string()});
  limits.environment.emplace_back("KIT_WORK_SPAN_LOG", work.string());
  if (safety.allow.empty() && !how.record_launches) limits.environment.emplace_back("KIT_DIVISIONS_ONLY", "1");
  zero_fresh_memory(limits);
  guard_buffer_ends(limits, false);
  const ChildRun run =
      run_child(s, prefix, {"--lab", spec.lab, "--kernel", copy.string(), "--shown-as", shown_as, "--case", params.dump()}, limits, dir);
  out.timed_out = run.outcome.end == ChildOutcome::End::TimedOut;
  out.seconds = run.outcome.seconds;
  out.result = step_result(run, limits);
  out.written = run.result;
  PluginLog record;
  if (std::filesystem::exists(work)) try {
      record = parse_plugin_log(read_file(work));
    } catch (const kit::Error& e) {
      out.not_run = std::string("the kit's Oclgrind plugin wrote a log that cannot be read: ") + e.what();
      return out;
    }
  out.oclgrind_ran = !record.launches.empty() || !record.messages.empty();
  if (!out.oclgrind_ran) {
    out.not_run = "nothing shows that Oclgrind ran the kernel (the kit's plugin recorded no launch";
    if (const std::size_t at = run.outcome.output.find("cannot be preloaded"); at != std::string::npos)
      out.not_run += ": Oclgrind's runtime library was not loaded; run grader doctor";
    out.not_run += ")";
  }
  if (out.timed_out || !std::filesystem::exists(log)) return out;
  out.log_read = true;
  out.launches = record.launches;
  out.launches_recorded = !record.launches.empty();
  std::map<std::string, std::vector<KernelWork>> by_step;
  std::vector<OclgrindFinding> found;
  for (auto& [step, findings] : findings_by_step(record, by_step))
    for (OclgrindFinding& f : findings) found.push_back(std::move(f));
  out.findings = not_allowed(safety.allow, found, out.launches, out.allowed);
  return out;
}


}  // namespace grader
