#pragma once
// Grading one submission's lab: find and screen the kernel file, build it in a child process,
// run every case in a child process of its own, compare with the stored references.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "kit/device.hpp"
#include "spec/references.hpp"
#include "core/results.hpp"
#include "spec/spec.hpp"

namespace grader {

class GradedKernels;

// One grading of one submission's lab: the tool's GradingOptions and where this grading runs.
struct GradeSettings {
  std::filesystem::path grader_exe;  // this program: children run `grader run-case`
  std::filesystem::path workdir;     // private scratch space for this submission x lab
  GradingOptions grading{};          // the same choices in every tool (core/options.hpp)
  GradedKernels* graded = nullptr;  // a batch's results by kernel: grade each kernel once
  std::map<std::string, double>* phases = nullptr;  // when set: seconds spent per phase are added here
  kit::DeviceOptions device{};       // where this grading's cases and speed case run (Oclgrind is its own device)
  bool cpu_device = true;            // `device` is a CPU device (set by grade_lab)
  // PoCL's kernel cache for the children. A batch gives each of its workers one, shared by the
  // kernels the worker grades in turn: PoCL keys it by the source, the options and the device, so
  // only identical programs meet there (the kit's own: the local-memory scrub, lab 06's stored
  // baseline), each compiled once. Empty: a private one in `workdir`.
  std::filesystem::path shared_pocl_cache{};
  // A build service for the children that run cases (kit/build_service.hpp): its socket, or empty.
  std::string build_service{};
  // Where the labs' starters are, as labs/ of the kit: <starters>/<lab>/<kernel file>. A kernel
  // equal to its starter outside comments and spacing is "unchanged-starter" before anything is
  // built. Empty: the hashes stored in the kit's or the release's grader/ (stored_starter_hash in
  // judge/graded_kernels.hpp), not labs/, which a student may have edited. `grader check` turns the test off (starter_check): a
  // student checking an untouched lab is shown what its cases compute, with their hints.
  std::filesystem::path starters{};
  bool starter_check = true;
  // The children's PoCL cache: the shared one, else the kept one ($KIT_POCL_CACHE), else workdir's.
  std::filesystem::path pocl_cache() const;
};

// A result with every case (and safety check) "not-run" and 0 points: for a submission whose
// kernel is missing, rejected, not built or the unchanged starter.
LabResult not_graded(const LabSpec& spec, const GradeSettings& settings, const std::string& student, LabStatus status,
                     const std::string& message);

// Finds and screens the kernel file and grades it on each of grading.devices (else `device`), the
// Oclgrind checks with the first; one result, combined across the devices.
LabResult grade_lab(const LabSpec& spec, const LabReference& reference, const std::filesystem::path& submission,
                    const std::string& student, const GradeSettings& settings);

}  // namespace grader
