#include "isolation/case_child.hpp"

#include <cstdlib>
#include <memory>
#include <optional>

#include "spec/case_fields.hpp"
#include "core/files.hpp"
#include "kit/buffer.hpp"
#include "kit/build_service.hpp"
#include "kit/errors.hpp"
#include "kit/launch.hpp"
#include "grader/lab/driver.hpp"
#include "core/results.hpp"
#include "core/words.hpp"
#include "isolation/speed_gate.hpp"

namespace grader {
namespace {

constexpr Word<StepStatus> kStepStatusWords[] = {{StepStatus::Built, "built"},
                                                 {StepStatus::Ok, "ok"},
                                                 {StepStatus::BuildError, "build-error"},
                                                 {StepStatus::Rejected, "rejected"},
                                                 {StepStatus::KernelFailed, "kernel-failed"},
                                                 {StepStatus::NotRunHere, "not-run-here"},
                                                 {StepStatus::Error, "error"},
                                                 {StepStatus::Sandbox, "sandbox"}};
static_assert(one_word_each(kStepStatusWords, StepStatus::Sandbox));

// The result of `step`, or the reason it failed: {"status": "build-error", "log"}, {"status":
// "kernel-failed", "message"} (kit::kernel_failed_on_device), or {"status": failed, "message"}.
template <class Step>
json guarded(StepStatus failed, Step&& step) {
  try {
    return step();
  } catch (const kit::BuildError& e) {
    return {{"status", StepStatus::BuildError}, {"log", e.log}};
  } catch (const kit::DeviceLimit& e) {
    return {{"status", StepStatus::NotRunHere}, {"reason", e.what()}};
  } catch (const kit::Error& e) {
    return {{"status", failed}, {"message", e.what()}};
  } catch (const cl::Error& e) {
    const std::string message = std::string(e.what()) + " returned " + kit::cl_status_name(e.err());
    if (kit::kernel_failed_on_device(e)) return {{"status", StepStatus::KernelFailed}, {"message", message}};  // the kernel's, not the grader's
    return {{"status", StepStatus::Error}, {"message", "OpenCL call " + message}};
  }
}

// Why the device cannot build even a one-line kernel ("" when it can): then a build error is the
// device's, not the student's.
std::string cannot_build_anything(const kit::Runtime& rt) {
  cl::Program program(rt.context, "kernel void kit_can_build(global int* x) { x[get_global_id(0)] = 1; }\n");
  try {
    program.build("-cl-std=CL1.2");
    return "";
  } catch (const cl::Error&) {
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(rt.device);
    } catch (const cl::Error&) {
    }
    return log.empty() ? "no build log" : log;
  }
}

json build(const LabDriver& driver, const kit::Runtime& rt, const ChildTask& t) {
  json built = guarded(StepStatus::Rejected, [&] {
    const cl::Program program = kit::build_program(rt.context, rt.device, t.kernel, "", t.shown_as);
    for (const kit::KernelSignature& k : driver.kernels()) kit::make_kernel(program, k, t.shown_as);
    return json{{"status", StepStatus::Built}, {"device", rt.summary()}};
  });
  if (step_status(built) == StepStatus::BuildError)
    if (const std::string why = cannot_build_anything(rt); !why.empty())
      return {{"status", StepStatus::Error},
              {"message", rt.summary() + " cannot build even a one-line kernel, so the build error is the device's (" + why +
                              "); run grader doctor, which says what to fix"}};
  return built;
}

// Why this device cannot run the case at all (empty: it can): a work-group larger than the device
// allows is the device's limit, not the student's mistake.
std::string cannot_run_here(const kit::Runtime& rt, const json& params) {
  const json& local = params.value("local", json());
  if (!local.is_number_unsigned()) return "";
  const std::size_t most = rt.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  if (local.get<std::size_t>() <= most) return "";
  return "work-groups of L = " + std::to_string(local.get<std::size_t>()) + " are more than " + rt.device_name() +
         " allows (" + std::to_string(most) + ")";
}

// One case. A case listing several values of one field (the safety case) runs each in turn, in
// this one context, so that one Oclgrind run sees them all.
json run_one(const LabDriver& driver, const kit::Runtime& rt, const ChildTask& t, const json& params) {
  if (const std::string why = cannot_run_here(rt, params); !why.empty()) return {{"status", StepStatus::NotRunHere}, {"reason", why}};
  return guarded(StepStatus::Error, [&] {
    const auto [field, values] = variant_field(params);
    json outputs = json::array();
    std::vector<std::string> past_the_end;  // with $KIT_BUFFER_GUARD: the buffers whose guard a kernel wrote
    for (const json& one : expand_variants(params)) {
      json out = driver.run_case(rt, t.kernel, t.shown_as, one);
      outputs.push_back(field.empty() ? out : json{{field, one.at(field)}, {"outputs", out}});
      for (std::string& line : kit::buffer_guard_violations(rt.queue)) past_the_end.push_back(std::move(line));
    }
    json result{{"status", StepStatus::Ok}, {"outputs", field.empty() ? outputs[0] : json{{"variants", outputs}}}};
    if (!past_the_end.empty()) result["written_past_end"] = past_the_end;
    return result;
  });
}

// A CPU device's work-group local memory is one block per worker thread, kept from one kernel
// launch to the next; a process that has run nothing yet finds it zeroed. Zeroing it between
// cases gives every case of a child the local memory a fresh child would see, so that a kernel
// reading past its local array (undefined, and Oclgrind's to report) gets the same result
// whatever case ran before it. GPUs make no such promise either way, and are left alone.
class LocalMemoryScrub {
 public:
  explicit LocalMemoryScrub(const kit::Runtime& rt) {
    if (rt.device.getInfo<CL_DEVICE_TYPE>() != CL_DEVICE_TYPE_CPU) return;
    static const char* source =
        "kernel void kit_scrub_local(local uint* m, uint n, global uint* sink) {\n"
        "  uint seen = 0;\n"
        "  for (uint i = get_local_id(0); i < n; i += get_local_size(0)) m[i] = 0;\n"
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"
        "  for (uint i = get_local_id(0); i < n; i += get_local_size(0)) seen |= m[i];\n"
        "  if (seen) sink[0] = seen;\n"
        "}\n";
    static const char* options = "-cl-std=CL1.2";
    kit::build_in_service(source, options);  // a batch's build service, when there is one
    cl::Program program(rt.context, source);
    program.build(options);
    kernel_ = cl::Kernel(program, "kit_scrub_local");
    sink_ = cl::Buffer(rt.context, CL_MEM_READ_WRITE, sizeof(cl_uint));
    const cl_ulong bytes = rt.device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    words_ = cl_uint(bytes / sizeof(cl_uint));
    kernel_.setArg(0, cl::Local(std::size_t(words_) * sizeof(cl_uint)));
    kernel_.setArg(1, words_);
    kernel_.setArg(2, sink_);
  }
  void operator()(const kit::Runtime& rt) {
    if (!kernel_()) return;
    rt.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
    rt.queue.finish();
  }

 private:
  cl::Kernel kernel_;
  cl::Buffer sink_;
  cl_uint words_ = 0;
};

}  // namespace

std::string word(StepStatus status) { return word_in(kStepStatusWords, status); }
void to_json(json& j, StepStatus status) { j = word(status); }
void from_json(const json& j, StepStatus& status) { status = value_of(kStepStatusWords, j.get<std::string>(), "step status"); }

std::optional<StepStatus> step_status(const json& result) {
  if (!result.is_object() || !result.contains("status") || !result.at("status").is_string()) return std::nullopt;
  return find_word(kStepStatusWords, result.at("status").get<std::string>());
}

int run_case_child(const ChildTask& t) {
  const bool many = !t.cases_file.empty();
  const std::filesystem::path first = many ? t.result_dir / "built.json" : t.result;
  const LabDriver* driver = nullptr;
  std::unique_ptr<kit::Runtime> rt;
  const json failed = guarded(StepStatus::Error, [&] {
    driver = &lab_driver(t.lab);
    rt = std::make_unique<kit::Runtime>(kit::Runtime::open(t.device));
    return json();  // opened: nothing to report
  });
  if (!failed.is_null()) {
    write_file_atomically(first, dump_json(failed));
    return 0;
  }
  if (many) {
    json built = build(*driver, *rt, t);
    built["device"] = rt->summary();  // named in the report, built or not
    write_file_atomically(first, dump_json(built));
    if (step_status(built) != StepStatus::Built) return 0;
    const json cases = json::parse(read_file(t.cases_file));
    if (t.steps) {  // under Oclgrind: each work-group gets fresh local memory there, so no scrub
      // Oclgrind hands a freed buffer's number to the next buffer made, and its uninitialized-value
      // check keeps what it knew of the old buffer under that number (it has no hook for a freed
      // buffer): a later case's buffer made without host data then reads as initialized or not by
      // the old one's state, and a right kernel is reported reading uninitialized values. After each
      // step, small buffers kept to the end take the numbers freed (the kit's plugin publishes how
      // many wait), so every case's buffers get numbers never used before, as in a child of their own.
      std::vector<cl::Buffer> spent;
      for (std::size_t i = 0; i < cases.size(); ++i) {
        if (const char* waiting = std::getenv("KIT_OCLGRIND_FREED_NUMBERS"); i > 0 && waiting)
          for (long k = std::strtol(waiting, nullptr, 10); k > 0; --k) spent.emplace_back(rt->context, CL_MEM_READ_WRITE, 1);
        const json& step = cases[i];
        setenv("KIT_CASE", std::to_string(i).c_str(), 1);
        if (step.value("quick", false)) setenv("OCLGRIND_QUICK", "1", 1);
        else unsetenv("OCLGRIND_QUICK");
        if (step.value("measured", true)) unsetenv("KIT_DIVISIONS_ONLY");
        else setenv("KIT_DIVISIONS_ONLY", "1", 1);
        write_file_atomically(t.result_dir / ("case-" + std::to_string(i) + ".json"), dump_json(run_one(*driver, *rt, t, step.at("case"))));
      }
      return 0;
    }
    LocalMemoryScrub scrub(*rt);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const std::string name = "case-" + std::to_string(i);
      if (i > 0) scrub(*rt);
      json result;
      {
        // Followed by the parent in a case run again alone after a time-out (case_runs.cpp): the
        // only run where they count, and each launch's callbacks cost a little.
        std::optional<kit::LaunchWaits> waits;
        if (std::getenv(kLaunchWaitsVariable)) waits.emplace(t.result_dir / (name + ".compile"));
        result = run_one(*driver, *rt, t, cases[i]);
      }
      write_file_atomically(t.result_dir / (name + ".json"), dump_json(result));
    }
    return 0;
  }
  json result;
  if (t.case_json.empty()) result = build(*driver, *rt, t);
  else if (!t.baseline.empty())
    result = guarded(StepStatus::Error, [&] {
      return json{{"status", StepStatus::Ok},
                  {"outputs", driver->run_speed(*rt, t.kernel, t.shown_as, t.baseline, json::parse(t.case_json), t.pairs,
                                                t.gate.empty() ? kit::TimedSection{} : timed_section_at(t.gate))}};
    });
  else result = run_one(*driver, *rt, t, json::parse(t.case_json));
  write_file_atomically(t.result, dump_json(result));
  return 0;
}

}  // namespace grader
