#include "case_child.hpp"

#include <memory>

#include "case_fields.hpp"
#include "files.hpp"
#include "kit/errors.hpp"
#include "labs.hpp"
#include "results.hpp"

namespace grader {
namespace {

// The result of `step`, or the reason it failed: {"status": "build_error", "log"}, or
// {"status": failed_status, "message"}.
template <class Step>
json guarded(const char* failed_status, Step&& step) {
  try {
    return step();
  } catch (const kit::BuildError& e) {
    return {{"status", "build_error"}, {"log", e.log}};
  } catch (const kit::Error& e) {
    return {{"status", failed_status}, {"message", e.what()}};
  } catch (const cl::Error& e) {
    return {{"status", "error"}, {"message", std::string("OpenCL call ") + e.what() + " failed with " + kit::cl_status_name(e.err())}};
  }
}

json build(const LabDriver& driver, const kit::Runtime& rt, const ChildTask& t) {
  return guarded("rejected", [&] {
    const cl::Program program = kit::build_program(rt.context, rt.device, t.kernel, "", t.shown_as);
    for (const kit::KernelSignature& k : driver.kernels()) kit::make_kernel(program, k, t.shown_as);
    return json{{"status", "built"}};
  });
}

// One case. A case listing several values of one field (the safety case) runs each in turn, in
// this one context, so that one Oclgrind run sees them all.
json run_one(const LabDriver& driver, const kit::Runtime& rt, const ChildTask& t, const json& params) {
  return guarded("error", [&] {
    const auto [field, values] = variant_field(params);
    json outputs = json::array();
    for (const json& one : expand_variants(params)) {
      json out = driver.run_case(rt, t.kernel, t.shown_as, one);
      outputs.push_back(field.empty() ? out : json{{field, one.at(field)}, {"outputs", out}});
    }
    return json{{"status", "ok"}, {"outputs", field.empty() ? outputs[0] : json{{"variants", outputs}}}};
  });
}

}  // namespace

int run_case_child(const ChildTask& t) {
  const bool many = !t.cases_file.empty();
  const std::filesystem::path first = many ? t.result_dir / "built.json" : t.result;
  const LabDriver* driver = nullptr;
  std::unique_ptr<kit::Runtime> rt;
  const json opened = guarded("error", [&] {
    driver = &lab_driver(t.lab);
    rt = std::make_unique<kit::Runtime>(kit::Runtime::open({}));
    return json{{"status", "open"}};
  });
  if (opened["status"] != "open") {
    write_file_atomically(first, dump_json(opened));
    return 0;
  }
  if (many) {
    const json built = build(*driver, *rt, t);
    write_file_atomically(first, dump_json(built));
    if (built["status"] != "built") return 0;
    const json cases = json::parse(read_file(t.cases_file));
    for (std::size_t i = 0; i < cases.size(); ++i)
      write_file_atomically(t.result_dir / ("case-" + std::to_string(i) + ".json"), dump_json(run_one(*driver, *rt, t, cases[i])));
    return 0;
  }
  json result;
  if (t.case_json.empty()) result = build(*driver, *rt, t);
  else if (!t.baseline.empty())
    result = guarded("error", [&] {
      return json{{"status", "ok"},
                  {"outputs", driver->run_speed(*rt, t.kernel, t.shown_as, t.baseline, json::parse(t.case_json), t.pairs)}};
    });
  else result = run_one(*driver, *rt, t, json::parse(t.case_json));
  write_file_atomically(t.result, dump_json(result));
  return 0;
}

}  // namespace grader
