#include "spec/references.hpp"

#include <ostream>

#include "core/files.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "grader/lab/driver.hpp"

namespace grader {
namespace {

const char* kRegenerate = "run `build/bin/grader reference` to regenerate the references";

json read_json(const std::filesystem::path& file) {
  try {
    return json::parse(read_file(file));
  } catch (const json::parse_error& e) {
    throw kit::Error(file.string() + ": not valid JSON (" + e.what() + "); " + kRegenerate);
  }
}

std::string device_description(const kit::Runtime& rt) {
  // Platform and driver, not the CPU model: the files must not change from one x86 machine to another.
  return rt.platform.getInfo<CL_PLATFORM_NAME>().c_str() + std::string(" ") +
         rt.device.getInfo<CL_DRIVER_VERSION>().c_str() +
         ((rt.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) ? ", CPU device" : ", non-CPU device");
}

}  // namespace

const json& LabReference::reference(const std::string& case_name) const {
  if (!cases.contains(case_name))
    throw kit::Error("no stored reference for case '" + case_name + "' of " + lab + "; " + kRegenerate);
  return cases.at(case_name).at("reference");
}

LabReference load_reference(const std::filesystem::path& dir, const LabSpec& spec) {
  const std::filesystem::path manifest_file = dir / "MANIFEST.json", file = dir / (spec.lab + ".json");
  if (!std::filesystem::exists(manifest_file) || !std::filesystem::exists(file))
    throw kit::Error("no stored references for " + spec.lab + " in " + dir.string() + "; " + kRegenerate);
  const json manifest = read_json(manifest_file);
  if (!manifest.contains("labs") || !manifest["labs"].contains(spec.lab))
    throw kit::Error(manifest_file.string() + " does not list " + spec.lab + "; " + kRegenerate);
  const json& entry = manifest["labs"][spec.lab];
  const std::string bytes = read_file(file);
  if (entry.value("sha256", "") != sha256_hex(bytes))
    throw kit::Error(file.string() + " does not match its checksum in " + manifest_file.string() +
                     " (edited or damaged); " + kRegenerate);
  const json doc = json::parse(bytes);
  LabReference ref{spec.lab, doc.at("cases"), {}};
  // Stale references: a case whose parameters are not those its reference was made with. Only the
  // parameters decide an output, so the spec's policy (points, limits, hints, late_penalty_per_day)
  // can change without regenerating anything.
  std::vector<std::pair<std::string, json>> graded;
  for (const CaseSpec& c : spec.cases) graded.emplace_back(c.name, c.params);
  if (spec.speed) graded.emplace_back(kSpeedCase, spec.speed->params);
  for (const auto& [name, params] : graded) {
    if (!ref.cases.contains(name))
      throw kit::Error(spec.file.string() + ": case '" + name + "' has no stored reference in " + file.string() + "; " + kRegenerate);
    if (ref.cases.at(name).value("params", json()) != params)
      throw kit::Error(spec.file.string() + ": case '" + name + "' has parameters " + params.dump() + ", but its reference in " +
                       file.string() + " was made with " + ref.cases.at(name).value("params", json()).dump() + "; " + kRegenerate);
  }
  // A student release carries no solution: its speed case is only estimated (grader check), and
  // graded nowhere, so ref.baseline stays empty there.
  if (spec.speed && !(manifest.contains("release") && !entry.contains("baseline_sha256"))) {
    ref.baseline = dir / (spec.lab + ".baseline.cl");
    if (!std::filesystem::exists(ref.baseline) || entry.value("baseline_sha256", "") != sha256_hex(read_file(ref.baseline)))
      throw kit::Error(ref.baseline.string() + " is missing or does not match its checksum in " + manifest_file.string() + "; " +
                       kRegenerate);
  }
  return ref;
}

void make_references(const std::filesystem::path& dir, const std::vector<LabSpec>& specs,
                     const std::filesystem::path& solutions, const kit::Runtime& rt, std::ostream& progress) {
  json manifest = {{"kit_version", kit::version()}, {"device", device_description(rt)}, {"labs", json::object()}};
  const std::filesystem::path manifest_file = dir / "MANIFEST.json";
  if (std::filesystem::exists(manifest_file)) {
    // Keep the entries of labs not regenerated this time.
    const json old = read_json(manifest_file);
    if (old.contains("labs")) manifest["labs"] = old["labs"];
  }
  for (const LabSpec& spec : specs) {
    const LabDriver& driver = lab_driver(spec.lab);
    const std::filesystem::path kernel = solutions / spec.lab / spec.kernel_file;
    json cases = json::object();
    for (const CaseSpec& c : spec.cases) {
      progress << spec.lab << ": " << c.name << "\n" << std::flush;
      json reference = driver.reference(c.params);
      json outputs = driver.run_case(rt, kernel, kernel.string(), c.params);
      outputs.erase("seconds");
      const kit::Verdict check = driver.compare(c.params, spec.tolerance, reference, outputs);
      if (!check.pass)
        throw kit::Error("the solution " + kernel.string() + " fails case '" + c.name + "' of " + spec.lab + ": " +
                         check.message);
      // The solution's outputs are recorded by checksum: they passed the comparison just above.
      cases[c.name] = {{"params", c.params}, {"reference", reference}, {"solution_sha256", sha256_hex(outputs.dump())}};
    }
    if (spec.speed) {
      progress << spec.lab << ": " << kSpeedCase << "\n" << std::flush;
      const json& params = spec.speed->params;
      json reference = driver.reference(params), outputs = driver.run_case(rt, kernel, kernel.string(), params);
      outputs.erase("seconds");
      const kit::Verdict check = driver.compare(params, spec.tolerance, reference, outputs);
      if (!check.pass) throw kit::Error("the solution " + kernel.string() + " fails the speed case of " + spec.lab + ": " + check.message);
      cases[kSpeedCase] = {{"params", params}, {"reference", reference}, {"solution_sha256", sha256_hex(outputs.dump())}};
    }
    const std::string bytes = json{{"lab", spec.lab}, {"cases", cases}}.dump() + "\n";
    write_file_atomically(dir / (spec.lab + ".json"), bytes);
    manifest["labs"][spec.lab] = {{"file", spec.lab + ".json"}, {"sha256", sha256_hex(bytes)}};
    if (spec.speed) {  // the speed case times students against this copy: no solutions/ needed to grade
      const std::string source = read_file(kernel);
      write_file_atomically(dir / (spec.lab + ".baseline.cl"), source);
      manifest["labs"][spec.lab]["baseline_sha256"] = sha256_hex(source);
    }
  }
  write_file_atomically(manifest_file, manifest.dump(2) + "\n");
}

}  // namespace grader
