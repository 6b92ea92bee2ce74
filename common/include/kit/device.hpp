#pragma once
// Device choice in the style of the Khronos OpenCL-SDK samples: --list, -p/--platform and
// -d/--device, each an index or a case-insensitive substring of the name.
#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "kit/opencl.hpp"

namespace kit {

struct DeviceOptions {
  std::string platform;  // "" = default; an index ("1") or a name substring ("nvidia")
  std::string device;    // likewise, within the chosen platform
  bool list = false;     // --list: print every platform and device, then exit
};

// What selection needs to know about the machine, as plain names (so it can be tested alone).
struct PlatformNames {
  std::string name;
  std::vector<std::string> devices;
  std::vector<bool> is_cpu;
};

struct Choice {
  std::size_t platform = 0;
  std::size_t device = 0;
};

// Default: the first CPU device of a PoCL platform when there is one, else platform 0 device 0.
// Throws kit::Error naming the value that matched nothing and listing what exists.
Choice choose_device(const std::vector<PlatformNames>& machine, const DeviceOptions& options);

// True for PoCL's platform ("Portable Computing Language"), by its name.
bool is_pocl(const std::string& platform_name);

// True when `spec` is this index, or a case-insensitive substring of `name`.
bool spec_matches(const std::string& spec, std::size_t index, const std::string& name);

// Every platform; throws kit::Error with PoCL installation advice when there is none.
std::vector<cl::Platform> all_platforms();
std::vector<PlatformNames> describe_machine();

// The table --list prints: index, name, compute units, max work-group size, local memory.
void print_device_list(std::ostream& out);

// A context and an in-order queue (with profiling enabled) on the chosen device.
struct Runtime {
  cl::Platform platform;
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
  Choice choice;
  // Declared last, so destroyed first: when the last copy of this Runtime goes, the programs
  // kit::build_program kept for its context are released before the queue and the context
  // (kit::forget_built_programs says why).
  std::shared_ptr<const void> programs_released_first;

  static Runtime open(const DeviceOptions& options);
  std::string device_name() const;
  std::string summary() const;  // "pthread-... on Portable Computing Language (2 CUs, driver 3.1)"
};

// Throws kit::Error when one array of `count` floats is above the device's largest allocation,
// naming both sizes.
void check_float_array(const cl::Device& device, std::size_t count);

// Throws kit::Error when `local` exceeds the device's or this kernel's maximum work-group size,
// or when `local_bytes` of local memory does not fit; the message names both values.
void check_local_size(const cl::Device& device, const cl::Kernel& kernel, std::size_t local,
                      std::size_t local_bytes);

}  // namespace kit
