#include "draw/draw_lab.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>

#include "core/files.hpp"
#include "isolation/case_runs.hpp"
#include "judge/evidence.hpp"
#include "judge/evidence_verdict.hpp"
#include "judge/oclgrind_stage.hpp"
#include "spec/case_fields.hpp"
#include "isolation/fresh_memory.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "oclgrind/allowances.hpp"
#include "oclgrind/checks.hpp"
#include "oclgrind/work_span.hpp"
#include "draw/render.hpp"

namespace grader {
namespace {

// Findings the spec allows as known false alarms are not drawn, as they are not counted: matched
// by what the plugin recorded of the launches (`work_spans`), never by the code's text.
std::vector<OclgrindFinding> drawn_findings(const SafetySpec& safety, const std::string& reports, const std::string& work_spans) {
  std::vector<KernelWork> launches;
  if (!safety.allow.empty()) try {
      launches = parse_work_span(work_spans);
    } catch (const kit::Error&) {
      // Without the record nothing can be matched: every finding is drawn.
    }
  std::size_t allowed = 0;
  return not_allowed(safety.allow, parse_oclgrind(reports), launches, allowed);
}


// Every run of `runs` traced; the first that fails ends them.
DrawRun trace_all(const LabSpec& spec, const GradeSettings& s, const std::vector<json>& runs, const std::filesystem::path& kernel,
                  const std::string& shown_as, const std::filesystem::path& dir, std::optional<std::size_t> group) {
  DrawRun all;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    DrawRun one = trace_kernel(spec, s, kernel, shown_as, runs[i], dir / ("run-" + std::to_string(i)), group);
    all.seconds += one.seconds;
    all.launches.insert(all.launches.end(), one.launches.begin(), one.launches.end());
    all.findings.insert(all.findings.end(), one.findings.begin(), one.findings.end());
    if (!one.failed.empty()) {
      all.failed = one.failed;
      break;
    }
  }
  return all;
}

// The first launch of each kernel, in launch order.
std::vector<const LaunchTrace*> first_launches(const DrawRun& run) {
  std::vector<const LaunchTrace*> out;
  for (const LaunchTrace& t : run.launches)
    if (std::none_of(out.begin(), out.end(), [&](const LaunchTrace* o) { return o->kernel == t.kernel; })) out.push_back(&t);
  return out;
}

// Why a run under Oclgrind left nothing to draw: "ran past its 5 s time limit and was stopped (an
// endless loop?)", "Oclgrind, the checker, crashed with signal 11 (SIGSEGV, Segmentation fault)", ...
std::string unfinished(const ChildOutcome& outcome, const SandboxLimits& limits) {
  const std::string why = outcome.reason(limits);
  if (outcome.end == ChildOutcome::End::TimedOut) return "the run under Oclgrind " + why + " (an endless loop?)";
  if (outcome.end == ChildOutcome::End::Signaled && why.rfind("crashed", 0) == 0)
    return "Oclgrind, the checker, crashed with signal " + std::to_string(outcome.signal) + why.substr(std::string("crashed").size());
  return "the run under Oclgrind did not finish (" + why + ")";
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : ". ") + l;
  return out;
}

}  // namespace

DrawRun trace_kernel(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& kernel, const std::string& shown_as,
                     const json& params, const std::filesystem::path& dir, std::optional<std::size_t> group) {
  DrawRun out;
  const std::string oclgrind = find_oclgrind();
  const std::filesystem::path plugin = find_work_span_plugin(s);
  if (oclgrind.empty()) return out.failed = "drawing needs Oclgrind: " + oclgrind_missing(), out;
  if (!std::filesystem::exists(plugin)) return out.failed = "drawing needs the kit's Oclgrind plugin " + plugin.string() + ": build the kit", out;
  std::filesystem::create_directories(dir);
  const std::filesystem::path reports = dir / "oclgrind.log", trace = dir / "draw.jsonl", work = dir / "work-span.jsonl";
  std::filesystem::remove(reports), std::filesystem::remove(trace), std::filesystem::remove(work);
  std::vector<std::string> prefix = {oclgrind, "--data-races", "--uniform-writes", "--build-options", "-O0", "--log", reports.string(),
                                     "--plugins", plugin.string()};
  if (const json local = params.value("local", json()); local.is_number_unsigned() && local.get<std::size_t>() > 1024)
    prefix.insert(prefix.end(), {"--max-wgsize", std::to_string(local.get<std::size_t>())});
  SandboxLimits limits{spec.safety->time_limit_s, spec.safety->memory_limit_mb, 1, s.pocl_cache(), 4 << 20};
  limits.environment.emplace_back("KIT_DRAW_LOG", trace.string());
  limits.environment.emplace_back("KIT_WORK_SPAN_LOG", work.string());
  if (group) limits.environment.emplace_back("KIT_DRAW_GROUP", std::to_string(*group));
  zero_fresh_memory(limits);
  guard_buffer_ends(limits, false);
  const ChildRun run = run_child(s, prefix, {"--lab", spec.lab, "--kernel", kernel.string(), "--shown-as", shown_as, "--case", params.dump()},
                                 limits, dir);
  out.seconds = run.outcome.seconds;
  if (std::filesystem::exists(reports))
    out.findings = drawn_findings(*spec.safety, read_file(reports), std::filesystem::exists(work) ? read_file(work) : "");
  if (!run.result.contains("status") || run.outcome.end != ChildOutcome::End::Exited)
    return out.failed = unfinished(run.outcome, limits), out;
  if (step_status(run.result) != StepStatus::Ok)
    return out.failed = "the run under Oclgrind failed: " + run.result.value("message", run.result.value("status", std::string("unknown error"))), out;
  if (std::filesystem::exists(trace)) out.launches = parse_draw_trace(read_file(trace));
  return out;
}

std::filesystem::path solution_kernel(const LabSpec& spec) {
  const std::filesystem::path p = kit::root() / "solutions" / spec.lab / spec.kernel_file;
  return std::filesystem::exists(p) ? p : std::filesystem::path();
}

namespace {

// The first work-group whose stores differ between two runs of the same launch, none when all agree.
std::optional<std::size_t> first_difference(const LaunchTrace& a, const LaunchTrace& b) {
  for (std::size_t g = 0; g < std::max(a.signatures.size(), b.signatures.size()); ++g)
    if (g >= a.signatures.size() || g >= b.signatures.size() || a.signatures[g] != b.signatures[g]) return g;
  return std::nullopt;
}

const LaunchTrace* launch_of(const DrawRun& run, const std::string& kernel) {
  for (const LaunchTrace* t : first_launches(run))
    if (t->kernel == kernel) return t;
  return nullptr;
}

// Draws the first launch of each kernel in `only` (all when empty) into `out`, with the solution's
// beside it; `suffix` ends the file names ("-group3"), `why` says which work-group it is.
void draw_launches(Drawings& d, const LabSpec& spec, const DrawRun& mine, const DrawRun& theirs, const std::string& shown_as,
                   const std::filesystem::path& out, const std::vector<std::string>& only, const std::string& suffix,
                   const std::string& why) {
  for (const LaunchTrace* t : first_launches(mine)) {
    if (!only.empty() && std::find(only.begin(), only.end(), t->kernel) == only.end()) continue;
    const std::string group = "work-group " + std::to_string(t->group[0]);
    const Picture p = make_picture(*t, mine.findings, ops_word(spec, t->kernel));
    if (p.rows.empty()) {
      d.notes.push_back("no drawing of " + t->kernel + ": " + group + " stored no value computed from the data, so there is nothing to draw");
      continue;
    }
    if (p.work == 0) {  // values moved, none combined: the facts say what it did
      d.notes.push_back("no drawing of " + t->kernel + ": " + group + " did no " + p.ops_word + ", so there is nothing to draw (" +
                        joined(picture_facts(p)) + ")");
      continue;
    }
    std::vector<std::pair<std::string, Picture>> panels = {{"your kernel, " + shown_as + " (" + group + why + ")", p}};
    if (const LaunchTrace* o = theirs.failed.empty() ? launch_of(theirs, t->kernel) : nullptr)
      panels.emplace_back("the course solution (work-group " + std::to_string(o->group[0]) + ")",
                          make_picture(*o, theirs.findings, ops_word(spec, o->kernel)));
    const std::string stem = spec.lab + "-" + t->kernel + suffix;
    const std::filesystem::path svg = out / (stem + ".svg"), tex = out / (stem + ".tex");
    std::filesystem::create_directories(out);
    write_file_atomically(svg, render_svg(panels));
    write_file_atomically(tex, render_tikz(p));
    d.files.push_back(svg), d.files.push_back(tex);
    d.notes.push_back("drawing " + svg.string() + " (" + t->kernel + ", " + group + " of " + std::to_string(t->items) +
                      " work-items" + why + "): " + joined(picture_facts(p)));
  }
}

}  // namespace

Drawings draw_lab(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& kernel, const std::string& shown_as,
                  const std::filesystem::path& solution, const std::filesystem::path& out, const std::vector<json>& chosen) {
  Drawings d;
  if (!spec.safety) return d.notes.push_back("no drawing: the lab has no case run under Oclgrind"), d;
  const std::vector<json>& runs = chosen.empty() ? spec.safety->runs : chosen;
  const std::filesystem::path work = s.workdir / "draw";
  const DrawRun mine = trace_all(spec, s, runs, kernel, shown_as, work / "kernel", std::nullopt);
  d.seconds += mine.seconds;
  const std::string of = "no drawing of lab " + spec.lab + "'s " + shown_as + ": ";
  if (!mine.failed.empty()) return d.notes.push_back(of + mine.failed), d;
  if (mine.launches.empty()) return d.notes.push_back(of + "no kernel was launched in the run under Oclgrind"), d;
  const bool beside = !solution.empty() && read_file(solution) != read_file(kernel);
  DrawRun theirs;
  if (beside) theirs = trace_all(spec, s, runs, solution, spec.kernel_file, work / "solution", std::nullopt), d.seconds += theirs.seconds;
  if (!theirs.failed.empty()) d.notes.push_back("the course solution is not drawn beside it: " + theirs.failed);
  draw_launches(d, spec, mine, theirs, shown_as, out, {}, "", "");
  // The first work-group after 0 that stored otherwise than the solution's, per kernel: drawn too.
  std::map<std::size_t, std::vector<std::string>> differing;
  for (const LaunchTrace* t : first_launches(mine))
    if (const LaunchTrace* o = theirs.failed.empty() ? launch_of(theirs, t->kernel) : nullptr)
      if (const auto g = first_difference(*t, *o); g && *g > 0) differing[*g].push_back(t->kernel);
  for (const auto& [g, kernels] : differing) {
    const DrawRun mine_g = trace_all(spec, s, runs, kernel, shown_as, work / "kernel-group", g);
    const DrawRun theirs_g = trace_all(spec, s, runs, solution, spec.kernel_file, work / "solution-group", g);
    d.seconds += mine_g.seconds + theirs_g.seconds;
    if (!mine_g.failed.empty()) d.notes.push_back("no drawing of work-group " + std::to_string(g) + ": " + mine_g.failed);
    else
      draw_launches(d, spec, mine_g, theirs_g, shown_as, out, kernels, "-group" + std::to_string(g),
                    ", the first that stored otherwise than the course solution's");
  }
  return d;
}

std::vector<json> drawn_runs(const LabSpec& spec, const LabResult& r) {
  if (!spec.safety) return {};
  std::map<std::string, json> faulty;  // per kernel function: its smallest case with undefined behaviour at its shape
  for (const CaseResult& c : r.cases) {
    if (c.kind != CaseKind::Case || c.message.rfind(kUndefinedBehaviour, 0) != 0) continue;
    const auto sc = std::find_if(spec.cases.begin(), spec.cases.end(), [&](const CaseSpec& k) { return k.name == c.name; });
    if (sc == spec.cases.end() || work_of(sc->params) > kFullLookWork) continue;
    json params = sc->params;
    params.erase("pocl_threads");
    const auto [at, fresh] = faulty.try_emplace(kernel_key(*spec.safety, params), params);
    if (!fresh && work_of(params) < work_of(at->second)) at->second = params;
  }
  std::vector<json> runs;
  for (const json& run : spec.safety->runs) {
    const auto [field, values] = variant_field(run);
    if (field.empty()) {  // one kernel function in this run
      const auto f = faulty.find(kernel_key(*spec.safety, run));
      runs.push_back(f != faulty.end() ? f->second : run);
      continue;
    }
    json rest = run;
    rest[field] = json::array();
    for (const json& one : expand_variants(run)) {
      const auto f = faulty.find(kernel_key(*spec.safety, one));
      if (f != faulty.end()) runs.push_back(f->second);
      else rest[field].push_back(one.at(field));
    }
    if (!rest[field].empty()) runs.push_back(rest);
  }
  return runs;
}

std::string add_drawings(LabResult& r, const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& submission,
                         const std::filesystem::path& out) {
  if (r.status != LabStatus::Graded || r.kernel.empty()) {
    r.notes.push_back("no drawing: the kernel was not " + std::string(r.status == LabStatus::BuildError ? "built" : "graded"));
    return r.notes.back();
  }
  Drawings d;
  try {
    // A private copy, as for grading: nothing is ever written beside the submission.
    const std::filesystem::path copy = s.workdir / "draw" / "copy" / spec.kernel_file;
    std::filesystem::create_directories(copy.parent_path());
    std::ofstream(copy, std::ios::binary) << read_file(submission / r.kernel);
    d = draw_lab(spec, s, copy, r.kernel, solution_kernel(spec), out, drawn_runs(spec, r));
  } catch (const std::exception& e) {
    d.notes.push_back("no drawing of lab " + spec.lab + "'s " + r.kernel + ": " + e.what());
  }
  r.notes.insert(r.notes.end(), d.notes.begin(), d.notes.end());
  if (!d.files.empty()) {
    char took[64];
    std::snprintf(took, sizeof took, "%.1f s", d.seconds);
    r.notes.push_back("drawing took " + std::string(took) + " under Oclgrind");
    return "";
  }
  std::string why;
  for (const std::string& n : d.notes)
    if (n.rfind("no drawing", 0) == 0)  // named by its lab, as the summary lists every lab's
      why += (why.empty() ? "" : "; ") + (n.find(spec.lab) == std::string::npos ? "lab " + spec.lab + ": " : "") + n;
  return why.empty() ? "no drawing of lab " + spec.lab + "'s " + r.kernel + ": nothing was drawn" : why;
}

// The word of the kernel's first check that counts the drawn operations: an access-pattern or fence
// check names what it traces (loads, stores), not the adds the drawing shows.
std::string ops_word(const LabSpec& spec, const std::string& kernel) {
  if (spec.algorithm)
    for (const AlgorithmCheck& c : spec.algorithm->checks)
      if (c.kernel == kernel && !c.access && !c.fences) return c.ops;
  return "operations";
}

}  // namespace grader
