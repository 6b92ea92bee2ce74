#include "judge/oclgrind_stage.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "core/files.hpp"
#include "grader/lab/driver.hpp"
#include "isolation/case_runs.hpp"
#include "isolation/fresh_memory.hpp"
#include "judge/evidence.hpp"
#include "judge/oclgrind_records.hpp"
#include "kit/errors.hpp"
#include "oclgrind/allowances.hpp"
#include "oclgrind/checks.hpp"

namespace grader {

const StepLook* OclgrindEvidence::of_case(const std::string& name) const {
  const auto found = cases.find(name);
  return found == cases.end() ? nullptr : &found->second;
}

std::vector<std::string> LookStep::check_flags() const {
  if (quick) return {};
  std::vector<std::string> flags = {"--data-races", "--uniform-writes"};
  if (uninitialized) flags.push_back("--uninitialized");
  return flags;
}

std::vector<OclgrindFinding> StepLook::all_findings() const {
  std::vector<OclgrindFinding> all = findings;
  if (smaller)
    for (const OclgrindFinding& f : smaller->findings) add_finding(all, f, f.count);
  return all;
}

namespace {

// A case's step with every check: the spec's safety time limit, and at least a minute, so that a
// loaded machine (Oclgrind runs several times slower there) does not leave a case unlooked at. A
// kernel that runs past its limit on the device is not looked at, so this costs an endless loop nothing.
double case_step_seconds(const SafetySpec& safety) { return std::max(safety.time_limit_s, 60.0); }

// Whether a case is already no larger than its smaller shape would be: N at most (N mod 2L) + 4L, one launch.
bool within_smaller_shape(const json& params) {
  const json n = params.value("elements", json()), local = params.value("local", json());
  if (!n.is_number_unsigned() || !local.is_number_unsigned() || local.get<std::size_t>() == 0 || params.value("repeats", 1) > 1) return false;
  const std::size_t elements = n.get<std::size_t>(), l = local.get<std::size_t>();
  return elements <= elements % (2 * l) + 4 * l;
}

// Whether a step at `params` tracks uninitialized values: its work-groups are no larger than kUninitializedMaxLocal.
bool tracks_uninitialized(const json& params) {
  const json local = params.value("local", json());
  return !local.is_number_unsigned() || local.get<std::size_t>() <= kUninitializedMaxLocal;
}

}  // namespace

std::optional<json> smaller_shape(const std::string& lab, const json& params) {
  const json n = params.value("elements", json()), local = params.value("local", json());
  if (!n.is_number_unsigned() || !local.is_number_unsigned() || local.get<std::size_t>() == 0) return std::nullopt;
  const std::size_t elements = n.get<std::size_t>(), l = local.get<std::size_t>();
  const std::size_t smaller = elements % (2 * l) + 4 * l;
  if (smaller >= elements) return std::nullopt;
  json shape = params;
  shape["elements"] = smaller;
  if (shape.contains("repeats")) shape["repeats"] = std::size_t(1);  // a count, as the spec writes it
  // A fixed grid (lab 08's single pass: up to 4096 work-groups) over so few elements is mostly
  // idle work-items, each costing Oclgrind its ticket and fences: past 4 work-items an element, the
  // shape keeps the groups that cover its elements (at least four, as it has at least 4L).
  if (const json g = shape.value("groups", json()); g.is_number_unsigned() && g.get<std::size_t>() * l > 4 * smaller)
    shape["groups"] = (smaller + l - 1) / l;
  try {
    lab_driver(lab).validate_case(shape);
  } catch (const std::exception&) {
    return std::nullopt;  // the lab does not take it
  }
  return shape;
}

std::size_t OclgrindEvidence::looked_cases(bool quick) const {
  return std::size_t(std::count_if(cases.begin(), cases.end(), [&](const auto& c) { return c.second.looked && c.second.step.quick == quick; }));
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string seconds_text(double s) {
  std::string t = std::to_string(s);
  t.erase(t.find_last_not_of('0') + 1);
  if (t.back() == '.') t.pop_back();
  return t;
}

class Stage {
 public:
  Stage(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& copy, const std::string& shown_as, OclgrindEvidence& e)
      : spec_(spec), s_(s), copy_(copy), shown_as_(shown_as), e_(e), start_(Clock::now()) {}

  // Runs `steps` (all with the same checks, `flags`) in as few children as needed; where records
  // are kept (oclgrind_records.hpp), a step recorded before is read instead, and each step run is
  // recorded, its key locked meanwhile (locks taken in key order: two graders never deadlock).
  void run(std::vector<StepLook*> steps, const std::vector<std::string>& flags) {
    std::map<std::string, std::unique_ptr<OclgrindRecord>> held;  // by key
    recording_.clear();
    if (const std::optional<std::filesystem::path> folder = oclgrind_records_folder()) {
      std::map<std::string, std::vector<StepLook*>> by_key;
      const std::string kernel = sha256_hex(read_file(copy_));
      for (StepLook* l : steps) by_key[step_record_key(spec_, s_, kernel, shown_as_, l->step, flags)].push_back(l);
      std::set<const StepLook*> read;
      for (const auto& [key, looks] : by_key) {
        const OclgrindRecord& record = *held.emplace(key, std::make_unique<OclgrindRecord>(*folder, key)).first->second;
        const std::optional<StepRecord> kept = record.read();
        for (StepLook* l : looks)
          if (kept && restore_step(*l, *kept, spec_.safety->allow)) {
            read.insert(l);
            e_.device = kept->device, e_.ran = true;
          } else {
            recording_[l] = &record;
          }
      }
      steps.erase(std::remove_if(steps.begin(), steps.end(), [&](const StepLook* l) { return read.count(l) > 0; }), steps.end());
    }
    std::size_t next = 0;
    while (next < steps.size() && e_.not_run.empty()) {
      const double left = kStageBudgetSeconds - seconds_since(start_);
      if (left < 5) {
        for (std::size_t k = next; k < steps.size(); ++k)
          steps[k]->not_looked = "the runs under Oclgrind of this lab used their " + seconds_text(kStageBudgetSeconds) + " s";
        return;
      }
      next = child(std::vector<StepLook*>(steps.begin() + long(next), steps.end()), flags, left) + next;
    }
  }

 private:
  // One child for `steps`; returns how many of them it got through (a step it ended on counts).
  std::size_t child(const std::vector<StepLook*>& steps, const std::vector<std::string>& flags, double left) {
    const std::filesystem::path dir = s_.workdir / ("oclgrind-" + std::to_string(e_.children++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    SandboxLimits limits;
    const ChildOutcome outcome = start(dir, steps, flags, left, limits);
    const json built = read_result(dir / "built.json");
    if (built.empty()) return fail_all(steps, "Oclgrind did not get as far as building the kernel (" + outcome.reason(limits) + ")");
    e_.device = built.value("device", "");
    if (e_.device.find("Oclgrind") == std::string::npos) {
      const std::string preload = preload_failure(outcome.output);
      e_.not_run = "the run under Oclgrind ran on " + (e_.device.empty() ? std::string("another device") : e_.device) +
                   ", not on Oclgrind's device: Oclgrind's runtime library was not loaded" + (preload.empty() ? "" : " (" + preload + ")") +
                   ", so Oclgrind never saw the kernel. Fix the install (run `grader doctor`: scripts/setup.sh as root installs a "
                   "working Oclgrind), or grade with --no-oclgrind";
      return fail_all(steps, e_.not_run);
    }
    if (step_status(built) != StepStatus::Built)
      return fail_all(steps, "Oclgrind could not build the kernel: " + built.value("log", built.value("message", std::string("unknown error"))));
    const std::filesystem::path plugin_log = dir / "plugin.jsonl";
    PluginLog log;
    if (std::filesystem::exists(plugin_log)) try {
        log = parse_plugin_log(read_file(plugin_log));
      } catch (const kit::Error& err) {
        return fail_all(steps, std::string("the kit's Oclgrind plugin wrote a log that cannot be read: ") + err.what());
      }
    const std::size_t through = read_steps(dir, steps, log, std::filesystem::exists(plugin_log), outcome, limits);
    if (!recording_.empty()) keep_step_records(plugin_log, steps, recording_, e_.device);
    return through;
  }

  // Starts the child under Oclgrind for `steps` and follows it: each step has its own limit from
  // the end of the one before, the build the spec's; `limits` gets the child's.
  ChildOutcome start(const std::filesystem::path& dir, const std::vector<StepLook*>& steps, const std::vector<std::string>& flags, double left,
                     SandboxLimits& limits) {
    json list = json::array();
    std::size_t widest = 0;
    double total = spec_.build_time_limit_s;
    for (const StepLook* l : steps) {
      list.push_back({{"case", l->step.params}, {"quick", l->step.quick}, {"measured", l->step.measured}});
      if (const json local = l->step.params.value("local", json()); local.is_number_unsigned()) widest = std::max(widest, local.get<std::size_t>());
      total += l->step.seconds;
    }
    write_file_atomically(dir / "cases.json", list.dump());
    std::vector<std::string> argv = {find_oclgrind()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    // -O0 keeps every access at its own source line in Oclgrind's reports.
    argv.insert(argv.end(), {"--build-options", "-O0", "--log", (dir / "oclgrind.log").string(), "--plugins", find_work_span_plugin(s_).string()});
    // Oclgrind's device offers work-groups of up to 1024 work-items; lab 04's rung 5 asks for 4096.
    if (widest > 1024) argv.insert(argv.end(), {"--max-wgsize", std::to_string(widest)});
    argv.insert(argv.end(), {s_.grader_exe.string(), "run-case", "--lab", spec_.lab, "--kernel", copy_.string(), "--shown-as", shown_as_,
                             "--cases", (dir / "cases.json").string(), "--steps", "--result-dir", dir.string()});
    limits = SandboxLimits{std::min(total, left), std::max(spec_.safety->memory_limit_mb, spec_.memory_limit_mb), 1, s_.pocl_cache(), 64 << 10};
    zero_fresh_memory(limits);  // a value read before it was written is the same in every run
    guard_buffer_ends(limits, false);
    limits.environment.emplace_back("KIT_WORK_SPAN_LOG", (dir / "plugin.jsonl").string());
    Clock::time_point since = Clock::now();
    std::size_t seen = 0;  // result files seen, built.json first
    double limit = spec_.build_time_limit_s;
    const Clock::time_point stage_end = start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kStageBudgetSeconds));
    const auto deadline = [&] {
      while (seen <= steps.size() && std::filesystem::exists(dir / (seen == 0 ? std::string("built.json") : "case-" + std::to_string(seen - 1) + ".json"))) {
        if (seen > 0) steps[seen - 1]->seconds = std::chrono::duration<double>(Clock::now() - since).count();
        ++seen, since = Clock::now();
        if (seen <= steps.size()) limit = steps[seen - 1]->step.seconds;
      }
      return std::min(since + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seen > steps.size() ? 5 : limit)), stage_end);
    };
    const ChildOutcome outcome = run_in_sandbox(argv, limits, dir, deadline);
    deadline();  // what it wrote after the last look
    return outcome;
  }

  // Each step's result, launches and findings from what the child left; returns as child() does.
  std::size_t read_steps(const std::filesystem::path& dir, const std::vector<StepLook*>& steps, const PluginLog& log, bool logged,
                         const ChildOutcome& outcome, const SandboxLimits& limits) {
    std::map<std::string, std::vector<KernelWork>> launches;
    std::set<std::string> quick;
    for (std::size_t k = 0; k < steps.size(); ++k)
      if (steps[k]->step.quick) quick.insert(std::to_string(k));
    std::map<std::string, std::vector<OclgrindFinding>> found = findings_by_step(log, launches, quick);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      StepLook& l = *steps[k];
      const std::string tag = std::to_string(k);
      l.launches = launches[tag];
      l.findings = not_allowed(spec_.safety->allow, found[tag], l.launches, l.allowed);
      l.result = read_result(dir / ("case-" + tag + ".json"));
      if (l.result.empty()) {  // this step ended the child
        l.timed_out = outcome.end == ChildOutcome::End::TimedOut;
        SandboxLimits step_limits = limits;
        step_limits.seconds = l.step.seconds;
        l.not_looked = "it " + outcome.reason(step_limits) + " under Oclgrind";
        l.result = step_result({json::object(), outcome}, step_limits);
        e_.ran = e_.ran || !l.launches.empty();
        return k + 1;
      }
      l.looked = !l.launches.empty();
      e_.ran = e_.ran || l.looked;
      if (!l.looked && step_status(l.result) != StepStatus::Ok)
        l.not_looked = "the lab did not run it under Oclgrind: " + l.result.value("message", l.result.value("reason", std::string("no reason given")));
      else if (!l.looked)
        l.not_looked = logged ? "the kit's Oclgrind plugin recorded no launch of it"
                              : "the kit's Oclgrind plugin wrote no log (is " + find_work_span_plugin(s_).string() + " the kit's plugin?)";
    }
    return steps.size();
  }

  std::size_t fail_all(const std::vector<StepLook*>& steps, const std::string& why) {
    for (StepLook* l : steps) l->not_looked = why;
    if (e_.not_run.empty() && !e_.ran) e_.not_run = why;
    return steps.size();
  }

  const LabSpec& spec_;
  const GradeSettings& s_;
  const std::filesystem::path& copy_;
  const std::string& shown_as_;
  OclgrindEvidence& e_;
  Clock::time_point start_;
  std::map<const StepLook*, const OclgrindRecord*> recording_;  // the steps of run() to record, and where
};

}  // namespace

std::map<std::string, std::vector<OclgrindFinding>> findings_by_step(const PluginLog& log,
                                                                     std::map<std::string, std::vector<KernelWork>>& launches,
                                                                     const std::set<std::string>& first_launch_only) {
  std::map<std::string, std::vector<OclgrindFinding>> by_step;
  for (const KernelWork& k : log.launches) {
    launches[k.step].push_back(k);
    if (k.launch > 0 && first_launch_only.count(k.step)) continue;
    for (const auto& [text, count] : k.messages)
      for (OclgrindFinding& f : parse_oclgrind(text)) add_finding(by_step[k.step], std::move(f), int(count));
  }
  // A report written as it came, of a launch that left no record (it never ended): counted once.
  for (const PluginMessage& m : log.messages)
    for (OclgrindFinding& f : parse_oclgrind(m.launch > 0 && first_launch_only.count(m.step) ? std::string() : m.text)) {
      std::vector<OclgrindFinding>& into = by_step[m.step];
      if (std::none_of(into.begin(), into.end(), [&](const OclgrindFinding& g) { return same_place(g, f); })) add_finding(into, std::move(f), 1);
    }
  return by_step;
}

OclgrindEvidence look_under_oclgrind(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& copy,
                                     const std::string& shown_as, const LabResult& r, bool with_safety_runs) {
  OclgrindEvidence e;
  const Clock::time_point start = Clock::now();
  const SafetySpec& safety = *spec.safety;
  if (with_safety_runs)
    for (const json& run : safety.runs) {
      StepLook l;
      l.step = {run.dump(), run, false, false, true, safety.time_limit_s};
      e.safety.push_back(std::move(l));
    }
  for (const CaseResult& c : r.cases) {
    if (c.kind != CaseKind::Case || c.status == CaseStatus::NotRun || c.status == CaseStatus::Timeout || c.status == CaseStatus::Error)
      continue;
    const auto sc = std::find_if(spec.cases.begin(), spec.cases.end(), [&](const CaseSpec& k) { return k.name == c.name; });
    if (sc == spec.cases.end()) continue;
    // Oclgrind runs one work-group after another on one thread: a case's PoCL thread count (lab
    // 08's contention) means nothing there, and the lab refuses it on a device of one compute unit.
    json params = sc->params;
    params.erase("pocl_threads");
    // A large case no larger than its smaller shape would be (a few work-groups of a large L) is run whole.
    const bool quick = work_of(params) > kFullLookWork && !within_smaller_shape(params);
    // The spec's allowed false alarms are matched against the plugin's record of the launch.
    StepLook& l = e.cases[c.name];
    l.step = {c.name, params, true, quick, !quick && !safety.allow.empty(), quick ? kQuickStepSeconds : case_step_seconds(safety)};
    l.step.uninitialized = !quick && tracks_uninitialized(params);
    if (!quick) continue;
    if (const std::optional<json> shape = smaller_shape(spec.lab, params)) {
      const auto [at, added] = e.smaller.try_emplace(shape->dump());
      std::string size = std::to_string(shape->at("elements").get<std::size_t>()) + " elements";
      if (shape->value("groups", json()) != params.value("groups", json())) size += ", " + shape->at("groups").dump() + " work-groups";
      if (added) {
        at->second.step = {"a smaller shape of \"" + c.name + "\" (" + size + ")", *shape, false, false, !safety.allow.empty(),
                           case_step_seconds(safety)};
        at->second.step.uninitialized = tracks_uninitialized(*shape);
      }
      l.smaller = &at->second;
    }
  }
  const std::filesystem::path plugin = find_work_span_plugin(s);
  if (find_oclgrind().empty()) e.not_run = oclgrind_missing();
  else if (!std::filesystem::exists(plugin))
    e.not_run = "the kit's Oclgrind plugin " + plugin.string() + " is missing, and without its record nothing shows that Oclgrind ran "
                "the kernel: build the kit (make build)";
  if (!e.not_run.empty()) {
    for (StepLook& l : e.safety) l.not_looked = e.not_run;
    for (auto& [name, l] : e.cases) l.not_looked = e.not_run;
    for (auto& [name, l] : e.smaller) l.not_looked = e.not_run;
    return e;
  }
  // The spec's memory-safety runs keep every check whatever their work-group size: the spec chose them.
  std::vector<StepLook*> full, wide, quick;
  for (StepLook& l : e.safety) full.push_back(&l);
  std::vector<StepLook*> small;
  for (auto& [name, l] : e.cases) (l.step.quick ? quick : l.step.uninitialized ? small : wide).push_back(&l);
  for (auto& [name, l] : e.smaller) (l.step.uninitialized ? small : wide).push_back(&l);
  const auto by_work = [](const StepLook* a, const StepLook* b) { return work_of(a->step.params) < work_of(b->step.params); };
  for (std::vector<StepLook*>* steps : {&small, &wide, &quick}) std::stable_sort(steps->begin(), steps->end(), by_work);
  full.insert(full.end(), small.begin(), small.end());
  Stage stage(spec, s, copy, shown_as, e);
  for (const std::vector<StepLook*>* steps : {&full, &wide, &quick})
    if (!steps->empty()) stage.run(*steps, steps->front()->step.check_flags());
  if (!e.ran && e.not_run.empty()) {
    e.not_run = "Oclgrind looked at nothing";
    for (const StepLook& l : e.safety) if (!l.not_looked.empty()) { e.not_run += ": " + l.not_looked; break; }
  }
  e.seconds = seconds_since(start);
  return e;
}

}  // namespace grader
