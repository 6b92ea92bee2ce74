#pragma once
// What the grader needs from each lab, behind one interface: the lab's own host library does the
// work (running a case, the host reference, the comparison); the driver only converts JSON. Every
// lab's driver is a LabAdapter (lab_adapter.hpp).
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kit/device.hpp"
#include "kit/program.hpp"
#include "kit/timing.hpp"
#include "kit/verdict.hpp"

namespace grader {

using json = nlohmann::json;

struct LabDriver {
  virtual ~LabDriver() = default;
  virtual std::string id() const = 0;
  // The kernels the lab's file must define, with their signatures.
  virtual std::vector<kit::KernelSignature> kernels() const = 0;
  // Throws kit::Error naming the field when a case's parameters are not usable: read_case refuses
  // them, or the lab's validate refuses a value.
  virtual void validate_case(const json& params) const = 0;
  // A case as the lab reads it: the lab's Case read from `params` and written back by its to_json,
  // so the keys are the fields its reader consumes (an optional one with the value it took). Throws
  // (kit::Error, naming the field where it can) when the reader cannot read `params` or when
  // `params` has a field the reader does not consume. Every case the driver runs is read this way.
  virtual json read_case(const json& params) const = 0;
  // The tolerance policy the lab's check applies to each kind of output, by the names of the kit's
  // one table (kit/tolerance.hpp): "exact", or {"int": "exact", "real": "depth-bound"}. Stated here
  // only: the spec loader takes it into LabSpec::tolerance, and refuses a spec that states one.
  virtual json tolerance() const = 0;
  // Runs one case of `kernel` (already built once, so PoCL's cache has it) and returns the graded
  // outputs. `shown_as` is the file's name in messages.
  virtual json run_case(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                        const json& params) const = 0;
  // The host's reference for a case (what is stored under grader/reference/).
  virtual json reference(const json& params) const = 0;
  // Compares run_case's outputs with a stored reference under `policy`, which must be tolerance()
  // (the loaded spec's tolerance is): throws kit::Error otherwise. The verdict is the lab's own check()'s.
  virtual kit::Verdict compare(const json& params, const json& policy, const json& reference,
                             const json& outputs) const = 0;
  // The speed case: times `kernel` against `baseline` (the stored solution) alternately and
  // returns {"ratio": candidate speed / baseline speed, "outputs": the candidate's outputs}. With
  // `baseline` kOpenMpBaseline the baseline is the host's OpenMP dot product on the case's threads
  // (no kernel), and the answer also holds "low" and "high", the middle half of the pairs' ratios.
  // `section` goes around the timed runs only (kit::TimedSection): the candidate's outputs, the
  // builds and the untimed runs come before it.
  virtual json run_speed(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                         const std::filesystem::path& baseline, const json& params, int pairs,
                         const kit::TimedSection& section) const;
};

// run_speed's baseline that names no kernel: the host's OpenMP dot product (kit/baseline.hpp).
inline const std::filesystem::path kOpenMpBaseline = "openmp";

// One driver per lab that called kit_add_lab(), in lab order (lab_registry.cpp, made by CMake).
std::vector<std::unique_ptr<LabDriver>> registered_lab_drivers();

// The driver of a lab by its folder name; throws kit::Error listing the known labs.
const LabDriver& lab_driver(const std::string& lab);

}  // namespace grader
