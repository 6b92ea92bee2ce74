#pragma once
// The known compiler faults of OpenCL platforms the kit runs on (common/data/known_device_faults.json):
// which versions get a kernel shape wrong, the kernels that show it, and the rewrite that avoids it.
#include <filesystem>
#include <string>
#include <vector>

#include "kit/json.hpp"

namespace kit {

// One kernel of tests/pocl_faults/: `kernel void reproducer(global uint *out)` launched on
// `global` work-items in groups of `local`; work-item 0 of each group writes `expected` when the
// compiler is right.
struct FaultKernel {
  std::string file;  // relative to the kit's root
  std::size_t global = 0;
  std::size_t local = 0;
  unsigned expected = 0;
};

struct DeviceFault {
  std::string id;
  std::string platform;  // "PoCL"
  std::string description;
  std::string rewrite;
  std::vector<std::string> faulty;        // versions whose reproducers compute the wrong result ("3.1")
  std::vector<std::string> right;         // versions measured right
  std::vector<std::string> not_measured;  // versions nobody has run the reproducers on
  std::vector<FaultKernel> reproducers;
  FaultKernel rewritten;  // a reproducer rewritten as `rewrite` says: right on every version
};

// The table as JSON; throws kit::Error naming the entry and the field that is missing or of the
// wrong type, or a version listed twice.
std::vector<DeviceFault> device_faults_from_json(const json& table);

// common/data/known_device_faults.json under kit::root(); throws kit::Error naming the file when
// it cannot be read or is not valid.
std::filesystem::path device_faults_file();
std::vector<DeviceFault> known_device_faults();

// "3.1" from PoCL's driver version "3.1+debian" or "6.0-pocl"; "" when it starts with no X.Y.
std::string pocl_version(const std::string& driver_version);

// The faults of the table that this platform and driver version have (PoCL only, by its
// platform name), each as one line: "PoCL 3.1 has a known compiler fault (id): ...; rewrite: ...".
std::vector<std::string> device_fault_notes(const std::vector<DeviceFault>& faults, const std::string& platform_name,
                                            const std::string& driver_version);

// The same for a device as kit::Runtime::summary() describes it ("... on Portable Computing
// Language (1 compute units, driver 3.1+debian)").
std::vector<std::string> device_fault_notes_for_summary(const std::vector<DeviceFault>& faults, const std::string& summary);

}  // namespace kit
