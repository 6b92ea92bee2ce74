#include "isolation/case_runs.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "core/files.hpp"
#include "isolation/device_lock.hpp"
#include "isolation/devices.hpp"
#include "isolation/fresh_memory.hpp"
#include "isolation/time_budget.hpp"
#include "kit/build_service.hpp"
#include "kit/launch.hpp"

namespace grader {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

Clock::duration after(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// A result the child wrote about its own failure (an OpenCL call or a build that failed), not the
// kernel's outputs or a device limit.
bool reported_failure(const json& result) {
  const std::optional<StepStatus> status = step_status(result);
  return status != StepStatus::Ok && status != StepStatus::NotRunHere;
}

int case_threads(const CaseSpec& c, int fallback) {
  const json& t = c.params.value("pocl_threads", json());
  return t.is_number_unsigned() ? t.get<int>() : fallback;
}

// The earlier way: a child for the build, then one per case.
CaseRuns one_child_each(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& kernel,
                        const std::string& shown_as, const std::vector<std::size_t>& indices, const CaseJudge& judge) {
  CaseRuns out;
  out.results.assign(indices.size(), json());
  out.seconds.assign(indices.size(), 0);
  out.compile_seconds.assign(indices.size(), 0);
  out.timed_out_first.assign(indices.size(), false);
  out.not_run_after.assign(indices.size(), "");
  SandboxLimits limits{spec.build_time_limit_s, spec.memory_limit_mb, s.grading.pocl_threads, s.pocl_cache()};
  limits.limit_address_space = s.cpu_device;
  if (s.cpu_device) zero_fresh_memory(limits);
  guard_buffer_ends(limits, true);
  std::vector<std::string> common = {"--lab", spec.lab, "--kernel", kernel.string(), "--shown-as", shown_as};
  for (const std::string& a : device_args(s.device)) common.push_back(a);
  const ChildRun built = run_child(s, {}, common, limits, s.workdir / "build");
  ++out.children;
  out.build = step_result(built, limits);
  out.build_seconds = built.outcome.seconds;
  if (step_status(out.build) != StepStatus::Built) return out;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const CaseSpec& c = spec.cases[indices[i]];
    limits.seconds = c.time_limit_s;
    std::vector<std::string> args = common;
    args.insert(args.end(), {"--case", c.params.dump()});
    const ChildRun run = run_child(s, {}, args, limits, s.workdir / ("case" + std::to_string(indices[i])));
    ++out.children;
    out.results[i] = step_result(run, limits);
    out.seconds[i] = run.outcome.seconds;
    if (judge(indices[i], out.results[i]) == AfterCase::Stop) break;
  }
  return out;
}

// One kernel's cases in as few children as possible (run_cases): what its children share.
class CaseRunner {
 public:
  CaseRunner(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& kernel, const std::string& shown_as,
             const std::vector<std::size_t>& indices, const CaseJudge& judge)
      : spec_(spec), s_(s), kernel_(kernel), shown_as_(shown_as), indices_(indices), judge_(judge) {
    out_.results.assign(indices.size(), json());
    out_.seconds.assign(indices.size(), 0);
    out_.compile_seconds.assign(indices.size(), 0);
    out_.timed_out_first.assign(indices.size(), false);
    out_.not_run_after.assign(indices.size(), "");
  }
  CaseRuns run();

 private:
  struct Child;
  double limit_of(std::size_t pos) const { return spec_.cases[indices_[pos]].time_limit_s; }
  // A case run again alone after a time-out gets, on top of its own limit, the time its launches
  // waited for the device to compile them, up to the build limit: PoCL compiles the kernel for each
  // work-group size at its first launch, and a first child stopped at the case's limit may have left
  // no compiled kernel in the cache, so the time may have been the build's. The child writes those
  // waits as they happen (kit::LaunchWaits); the most they may reach is compile_allowance. Whether
  // the time was the build's is said on its line (grade.cpp); a case that runs past both times out.
  double compile_allowance(std::size_t pos) const { return alone_ && out_.timed_out_first[pos] ? spec_.build_time_limit_s : 0; }
  double compile_waits(std::size_t pos, const std::filesystem::path& file) const {
    const double cap = compile_allowance(pos);
    return cap > 0 ? std::min(cap, kit::launch_waits_in(file, kit::monotonic_seconds())) : 0;
  }
  // The PoCL threads a case asks for (0: the run's); on a device other than PoCL's CPU they mean
  // nothing, and every case is 0: one child runs them all there (no second context and build).
  int own_threads(std::size_t pos) const { return s_.cpu_device ? case_threads(spec_.cases[indices_[pos]], 0) : 0; }
  SandboxLimits limits_for(const std::vector<std::size_t>& mine) const;
  std::size_t launch(const std::vector<std::size_t>& mine, bool& built);
  void judge(std::size_t pos) {
    if (judge_(indices_[pos], out_.results[pos]) == AfterCase::Stop) stop_ = true;
  }
  std::string function_of(std::size_t pos) const { return kernel_function_of(spec_, spec_.cases[indices_[pos]]); }
  // The time budget (time_budget.hpp): a time-out alone spends the function's; its later cases are not run.
  void spend(std::size_t pos) {
    spent_.emplace(function_of(pos), spec_.cases[indices_[pos]].name);
    if (out_.timed_out_alone.empty()) out_.timed_out_alone = spec_.cases[indices_[pos]].name;
  }
  bool not_run_for_budget(std::size_t pos) {
    const auto spent = spent_.find(function_of(pos));
    if (spent == spent_.end()) return false;
    out_.not_run_after[pos] = spent->second;
    return true;
  }

  const LabSpec& spec_;
  const GradeSettings& s_;
  const std::filesystem::path& kernel_;
  const std::string& shown_as_;
  const std::vector<std::size_t>& indices_;
  const CaseJudge& judge_;
  CaseRuns out_;
  // Positions to run again in a child of their own after the others: a crash or failure after
  // other cases ran in their child. Such a run shares the device with other grading, like the
  // first: what it checks is whether the case fails without the cases before it, not its time.
  // (A time-out runs again at once, with the device to itself: timed_out_.)
  std::vector<std::size_t> confirm_;
  std::optional<std::size_t> timed_out_;  // a time-out beside other grading, run again alone at once
  std::map<std::string, std::string> spent_;  // kernel function -> the case it did not finish alone
  void run_timed_out_alone(bool& built);
  // confirming_: the launch is a case's own child (after a crash or failure, or a time-out);
  // alone_: it also has the device to itself (DeviceLock exclusive), only after a time-out.
  bool stop_ = false, confirming_ = false, alone_ = false;
};

// One child that builds the kernel, then runs the cases at positions `mine` in turn, followed
// through its build and its cases from the files it writes: each phase's deadline runs from the
// moment the phase before it ended.
struct CaseRunner::Child {
  CaseRunner& runner;
  std::filesystem::path dir;
  const std::vector<std::size_t>& mine;
  bool started = false, abandoned = false, built = false;
  double compiling = 0;  // the current case's launches' waits for their compile, as far as they count
  std::size_t done = 0;  // cases finished
  Clock::time_point phase_start{};

  // Reads what the child wrote since the last look; returns the deadline of the phase it is in.
  Clock::time_point follow() {
    CaseRunner& r = runner;
    const Clock::time_point now = Clock::now();
    if (!started) started = true, phase_start = now;
    if (!built) {
      if (!std::filesystem::exists(dir / "built.json")) return phase_start + after(r.spec_.build_time_limit_s);
      built = true;
      r.out_.build_seconds += seconds_between(phase_start, now);
      phase_start = now;
    }
    while (!r.stop_ && !abandoned && done < mine.size()) {
      const std::string name = "case-" + std::to_string(done);
      const std::filesystem::path file = dir / (name + ".json");
      if (!std::filesystem::exists(file)) {
        compiling = r.compile_waits(mine[done], dir / (name + ".compile"));
        return phase_start + after(r.limit_of(mine[done]) + compiling);
      }
      compiling = 0;
      const std::size_t pos = mine[done];
      r.out_.results[pos] = read_result(file);
      r.out_.seconds[pos] = seconds_between(phase_start, now);
      r.out_.compile_seconds[pos] = r.compile_waits(pos, dir / (name + ".compile"));
      phase_start = now;
      // A failed OpenCL call leaves a child that is not used again: on a GPU the kernel's fault
      // ends its context, and every later call fails or hangs; the rest go to a new child. After
      // other cases ran in this child the failure may be theirs (a heap a kernel wrote past its
      // buffer into): the case is run again alone, like a crash (see launch).
      abandoned = reported_failure(r.out_.results[pos]);
      if (abandoned && done > 0) r.confirm_.push_back(pos);
      else r.judge(pos);
      ++done;
    }
    return r.stop_ || abandoned ? now : phase_start + std::chrono::seconds(5);  // stopped, or all done: let it exit
  }
};

SandboxLimits CaseRunner::limits_for(const std::vector<std::size_t>& mine) const {
  SandboxLimits limits{spec_.build_time_limit_s, spec_.memory_limit_mb, s_.grading.pocl_threads, s_.pocl_cache()};
  limits.case_threads = own_threads(mine[0]) ? own_threads(mine[0]) : s_.grading.pocl_threads;
  limits.limit_address_space = s_.cpu_device;
  if (s_.cpu_device) zero_fresh_memory(limits);
  guard_buffer_ends(limits, true);
  if (!s_.build_service.empty()) limits.environment.emplace_back(kit::kBuildServiceVariable, s_.build_service);
  for (std::size_t p : mine) limits.seconds += limit_of(p) + compile_allowance(p);  // the CPU-time backstop covers them all
  return limits;
}

// One child for the cases at positions `mine`. Returns the number of cases it finished; `built`
// says whether it got past the build.
std::size_t CaseRunner::launch(const std::vector<std::size_t>& mine, bool& built) {
  const std::filesystem::path dir = s_.workdir / ("run" + std::to_string(out_.children++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  json list = json::array();
  for (std::size_t p : mine) list.push_back(spec_.cases[indices_[p]].params);
  write_file_atomically(dir / "cases.json", list.dump());
  SandboxLimits limits = limits_for(mine);
  Child child{*this, dir, mine};
  if (std::any_of(mine.begin(), mine.end(), [&](std::size_t p) { return compile_allowance(p) > 0; }))
    limits.environment.emplace_back(kLaunchWaitsVariable, "1");  // the child writes its launches' compile waits
  // Shared with the other case children on this device; exclusive when a time-out runs again alone.
  const Clock::time_point asked = Clock::now();
  const DeviceLock device(s_.device, alone_ ? DeviceLock::Mode::Exclusive : DeviceLock::Mode::Shared);
  out_.lock_wait_seconds += seconds_between(asked, Clock::now());
  std::vector<std::string> argv = {s_.grader_exe.string(), "run-case", "--lab", spec_.lab, "--kernel", kernel_.string(),
                                   "--shown-as", shown_as_, "--cases", (dir / "cases.json").string(),
                                   "--result-dir", dir.string()};
  for (const std::string& a : device_args(s_.device)) argv.push_back(a);
  const ChildOutcome outcome = run_in_sandbox(argv, limits, dir, [&] { return child.follow(); });
  child.follow();  // what it wrote after the last look
  built = child.built;
  if (!built) {  // the build itself did not finish
    limits.seconds = spec_.build_time_limit_s;
    out_.build = step_result({json::object(), outcome}, limits);
    return 0;
  }
  out_.build = read_result(dir / "built.json");
  if (step_status(out_.build) != StepStatus::Built) built = false;
  if (!built || stop_ || child.abandoned || child.done == mine.size()) return child.done;
  // The child ended in the case at mine[done]: a time-out, a crash, out of memory.
  const std::size_t pos = mine[child.done];
  limits.seconds = limit_of(pos) + child.compiling;
  limits.build_allowance_s = child.compiling;
  limits.build_limit_s = compile_allowance(pos);
  out_.results[pos] = step_result({json::object(), outcome}, limits);  // no result file: always "sandbox"
  out_.seconds[pos] = seconds_between(child.phase_start, Clock::now());
  out_.compile_seconds[pos] = child.compiling;
  // A crash or running out of memory after other cases ran in this child may be their doing
  // (a heap they damaged, memory they held): the case is run again in a child of its own (the
  // device shared), and that run counts. So is a time-out: other kernels graded on the device at
  // the same time may have taken its time, so it runs again at once, before the next case, in a
  // child of its own that has the device to itself, and that run counts. A time-out there spends
  // the function's time budget. (A time-out of a crash's run again runs again alone the same way.)
  const bool timeout = step_end(out_.results[pos]) == CaseStatus::Timeout;
  if (timeout) out_.timeout_seconds += out_.seconds[pos];
  if (!alone_ && timeout) {
    timed_out_ = pos;
    out_.timed_out_first[pos] = true;
  } else if (!confirming_ && child.done > 0) {
    confirm_.push_back(pos);
  } else {
    if (timeout) spend(pos);
    judge(pos);
  }
  return child.done + 1;
}

CaseRuns CaseRunner::run() {
  // A child runs the cases that need the same PoCL threads, wherever they are in the spec: lab
  // 08's contention cases (a thread count of their own) in a child of theirs, the others together.
  // Each case's result keeps its place; the cases are independent of the order they run in.
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t p = 0; p < indices_.size(); ++p) {
    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& group) { return own_threads(group[0]) == own_threads(p); });
    if (g == groups.end()) groups.push_back({p});
    else g->push_back(p);
  }
  // Each group's cases run smallest first within each kernel function (budget_order); a case of a
  // function whose budget is spent is not run.
  for (const std::vector<std::size_t>& group : groups) {
    std::vector<std::size_t> rest = budget_order(spec_, indices_, group);
    while (!stop_) {
      rest.erase(std::remove_if(rest.begin(), rest.end(), [&](std::size_t p) { return not_run_for_budget(p); }), rest.end());
      if (rest.empty()) break;
      bool built = false;
      const std::size_t done = std::min(launch(rest, built), rest.size());
      if (!built) return out_;
      rest.erase(rest.begin(), rest.begin() + long(done));
      if (timed_out_) {  // run again alone now: its verdict decides whether the function goes on
        run_timed_out_alone(built);
        if (!built) return out_;
      } else if (done == 0) {
        break;
      }
    }
  }
  // Crashes and failures after other cases in their child, each again in a fresh child of its own
  // (run before any time-out alone of their function: the budget does not leave them out).
  confirming_ = true;
  for (std::size_t i = 0; i < confirm_.size() && !stop_; ++i) {
    bool built = false;
    launch({confirm_[i]}, built);
    if (built && timed_out_) run_timed_out_alone(built);
    if (!built) return out_;
  }
  return out_;
}

void CaseRunner::run_timed_out_alone(bool& built) {
  const std::size_t pos = *timed_out_;
  timed_out_.reset();
  const bool was_confirming = confirming_;
  confirming_ = alone_ = true;
  launch({pos}, built);
  confirming_ = was_confirming;
  alone_ = false;
}

}  // namespace

json read_result(const std::filesystem::path& file) {
  // A link is no result: a child running as another user could point one at a file of root's.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(file, ec))) return json::object();
  try {
    return json::parse(read_file(file));  // written atomically: complete or absent
  } catch (const std::exception&) {
    return json::object();
  }
}

ChildRun run_child(const GradeSettings& s, const std::vector<std::string>& prefix, const std::vector<std::string>& args,
                   const SandboxLimits& limits, const std::filesystem::path& dir, const Deadline& deadline) {
  const std::filesystem::path result = dir / "result.json";
  std::filesystem::remove(result);
  std::vector<std::string> argv = prefix;
  argv.insert(argv.end(), {s.grader_exe.string(), "run-case"});
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--result", result.string()});
  ChildRun run{json::object(), run_in_sandbox(argv, limits, dir, deadline)};
  if (std::filesystem::exists(result)) run.result = read_result(result);
  return run;
}

json step_result(const ChildRun& run, const SandboxLimits& limits) {
  const ChildOutcome& o = run.outcome;
  if (o.end == ChildOutcome::End::Exited && o.exit_code == 0 && run.result.contains("status")) return run.result;
  const std::string reason = o.reason(limits);
  const std::string tail = o.output.size() > 600 ? o.output.substr(o.output.size() - 600) : o.output;
  return {{"status", StepStatus::Sandbox},
          {"end", o.end == ChildOutcome::End::TimedOut        ? CaseStatus::Timeout
                  : reason.rfind("ran out of memory", 0) == 0 ? CaseStatus::OutOfMemory
                                                              : CaseStatus::Crashed},
          {"reason", reason},
          {"output", tail}};
}

std::optional<CaseStatus> step_end(const json& result) {
  if (!result.is_object() || !result.contains("end")) return std::nullopt;
  return result.at("end").get<CaseStatus>();
}

CaseRuns run_cases(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& kernel,
                   const std::string& shown_as, const std::vector<std::size_t>& indices, const CaseJudge& judge) {
  if (s.grading.child_per_case) return one_child_each(spec, s, kernel, shown_as, indices, judge);
  return CaseRunner(spec, s, kernel, shown_as, indices, judge).run();
}

}  // namespace grader
