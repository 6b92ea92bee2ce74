#include "grade.hpp"

#include <fstream>

#include "files.hpp"
#include "kit/errors.hpp"
#include "labs.hpp"
#include "sandbox.hpp"
#include "submission.hpp"

namespace grader {
namespace {

LabResult unbuilt(LabResult r, const LabSpec& spec, bool visible_only, const std::string& status,
                  const std::string& message) {
  r.status = status;
  r.message = message;
  for (const CaseSpec& c : spec.cases)
    if (c.visible || !visible_only)
      r.cases.push_back({c.name, c.visible, 0, c.points, "not-run", "not run: the kernel file was " +
                         std::string(status == "missing" ? "not found" : status == "rejected" ? "rejected" : "not built"), "", 0});
  return r;
}

// Runs `grader run-case ...` in the sandbox and returns the result file's JSON, or an object
// {"status": "sandbox", "reason": ...} when the child did not finish properly.
json run_child(const GradeSettings& s, const std::vector<std::string>& args, const SandboxLimits& limits,
               const std::filesystem::path& dir, double* seconds) {
  const std::filesystem::path result = dir / "result.json";
  std::filesystem::remove(result);
  std::vector<std::string> argv = {s.grader_exe.string(), "run-case"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--result", result.string()});
  const ChildOutcome outcome = run_in_sandbox(argv, limits, dir);
  *seconds = outcome.seconds;
  if (outcome.end == ChildOutcome::End::Exited && outcome.exit_code == 0 && std::filesystem::exists(result)) {
    try {
      return json::parse(read_file(result));
    } catch (const json::parse_error&) {
      // fall through: a child that wrote half a result is treated as a crash
    }
  }
  std::string tail = outcome.output.size() > 600 ? outcome.output.substr(outcome.output.size() - 600) : outcome.output;
  return {{"status", "sandbox"},
          {"end", outcome.end == ChildOutcome::End::TimedOut ? "timeout"
                  : outcome.reason(limits).rfind("ran out of memory", 0) == 0 ? "out-of-memory"
                                                                               : "crashed"},
          {"reason", outcome.reason(limits)},
          {"output", tail}};
}

}  // namespace

LabResult grade_lab(const LabSpec& spec, const LabReference& reference, const std::filesystem::path& submission,
                    const std::string& student, const GradeSettings& settings) {
  GradeSettings s = settings;
  s.workdir = std::filesystem::absolute(s.workdir);  // children run inside their own folder
  const LabDriver& driver = lab_driver(spec.lab);
  LabResult r;
  r.student = student;
  r.lab = spec.lab;
  const auto found = find_kernel(submission, spec.kernel_file);
  if (!found) return unbuilt(r, spec, s.visible_only, "missing", "no file named " + spec.kernel_file + " in the submission");
  r.kernel = found->relative;
  for (const std::string& other : found->others) r.notes.push_back("also found " + other + " (not graded; " + found->relative + " was)");

  // Screen, then work on a private copy: nothing is ever written into the submission.
  if (std::filesystem::file_size(found->path) > 4 * kMaxKernelBytes)
    return unbuilt(r, spec, s.visible_only, "rejected",
                   found->relative + ": " + std::to_string(std::filesystem::file_size(found->path)) +
                       " bytes, above the limit of " + std::to_string(kMaxKernelBytes) + " bytes for a kernel file");
  const std::string source = read_file(found->path);
  const auto problems = screen_kernel_source(source, found->relative, driver.kernels());
  if (!problems.empty()) {
    std::string all;
    for (const std::string& p : problems) all += (all.empty() ? "" : "\n") + p;
    return unbuilt(r, spec, s.visible_only, "rejected", all);
  }
  std::filesystem::remove_all(s.workdir);
  std::filesystem::create_directories(s.workdir / "kernel");
  const std::filesystem::path copy = s.workdir / "kernel" / spec.kernel_file;
  std::ofstream(copy, std::ios::binary) << source;

  SandboxLimits limits{spec.build_time_limit_s, spec.memory_limit_mb, s.pocl_threads, s.workdir / "pocl-cache"};
  double seconds = 0;
  const json built = run_child(s, {"--lab", spec.lab, "--kernel", copy.string(), "--shown-as", found->relative}, limits,
                               s.workdir / "build", &seconds);
  const std::string build_status = built.value("status", "");
  if (build_status == "build_error") return unbuilt(r, spec, s.visible_only, "build-error", built.value("log", ""));
  if (build_status == "rejected") return unbuilt(r, spec, s.visible_only, "rejected", built.value("message", ""));
  if (build_status != "built")
    return unbuilt(r, spec, s.visible_only, "build-error",
                   "building " + found->relative + " " + built.value("reason", built.value("message", "failed")));

  r.status = "graded";
  for (std::size_t i = 0; i < spec.cases.size(); ++i) {
    const CaseSpec& c = spec.cases[i];
    if (s.visible_only && !c.visible) continue;
    CaseResult cr{c.name, c.visible, 0, c.points, "", "", "", 0};
    limits.seconds = c.time_limit_s;
    const json got = run_child(s, {"--lab", spec.lab, "--kernel", copy.string(), "--shown-as", found->relative,
                                   "--case", c.params.dump()},
                               limits, s.workdir / ("case" + std::to_string(i)), &cr.seconds);
    const std::string status = got.value("status", "");
    if (status == "ok") {
      const Comparison cmp = driver.compare(c.params, spec.tolerance, reference.reference(c.name), got.at("outputs"));
      cr.status = cmp.pass ? "passed" : "wrong";
      cr.message = cmp.message;
      cr.hint = cmp.hint;
      if (cmp.pass) cr.points = c.points;
    } else if (status == "sandbox") {
      cr.status = got.value("end", "crashed");
      cr.message = "the case " + got.value("reason", "failed");
      if (cr.status == "timeout") cr.hint = "an endless loop? check that every loop's counter changes (offset *= 2)";
      if (cr.status == "crashed") cr.hint = "an out-of-bounds access? check every index against the array's size";
    } else {
      cr.status = "error";
      cr.message = got.value("message", "the case failed");
    }
    r.cases.push_back(cr);
  }
  return r;
}

int run_case_child(const std::string& lab, const std::filesystem::path& kernel, const std::string& shown_as,
                   const std::string& case_json, const std::filesystem::path& result_file) {
  json result;
  try {
    const LabDriver& driver = lab_driver(lab);
    const kit::Runtime rt = kit::Runtime::open({});
    if (case_json.empty()) {
      const cl::Program program = kit::build_program(rt.context, rt.device, kernel, "", shown_as);
      for (const kit::KernelSignature& k : driver.kernels()) kit::make_kernel(program, k, shown_as);
      result = {{"status", "built"}};
    } else {
      result = {{"status", "ok"}, {"outputs", driver.run_case(rt, kernel, shown_as, json::parse(case_json))}};
    }
  } catch (const kit::BuildError& e) {
    result = {{"status", "build_error"}, {"log", e.log}};
  } catch (const kit::Error& e) {
    result = {{"status", case_json.empty() ? "rejected" : "error"}, {"message", e.what()}};
  } catch (const cl::Error& e) {
    result = {{"status", "error"}, {"message", std::string("OpenCL call ") + e.what() + " failed with " + kit::cl_status_name(e.err())}};
  }
  write_file_atomically(result_file, result.dump());
  return 0;
}

}  // namespace grader
