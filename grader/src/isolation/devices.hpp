#pragma once
// Grading on several OpenCL devices at once (`--devices pocl,nvidia`): a kernel must be right on
// each, and the report shows where it was not.
#include <string>
#include <vector>

#include "kit/device.hpp"
#include "core/results.hpp"

namespace grader {

// "pocl,nvidia" or "0:1,nvidia:h200": each item a platform, optionally ":" and a device, as -p/-d
// take them (an index or a case-insensitive name substring). Throws kit::Error naming the item at
// fault.
std::vector<kit::DeviceOptions> parse_devices(const std::string& list);

// The device's name without its platform and driver: "NVIDIA H200" from "NVIDIA H200 on NVIDIA CUDA (...)".
std::string short_device_name(const std::string& summary);

// Whether the device `d` picks here is a CPU device (asked once per choice, then remembered).
bool is_cpu_device(const kit::DeviceOptions& d);

// The `run-case` arguments that pick `device` (none for the default).
std::vector<std::string> device_args(const kit::DeviceOptions& device);

// One result from the same kernel graded on several devices (the first also ran the Oclgrind
// checks): each case earns the least it earned on a device that could run it, and where the
// devices disagree its message names each device's verdict.
LabResult combine_devices(const std::vector<LabResult>& per_device);

}  // namespace grader
