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

// What runs a launch's work-groups side by side, in words: "2 PoCL threads" on PoCL, whose compute
// units are its threads, and "132 compute units" on any other device (a GPU has no PoCL threads).
std::string parallel_units_words(bool pocl, unsigned count);

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
  // parallel_units_words of this device: its compute units, or on PoCL `pocl_threads` when above 0
  // (the threads a grading case asks for, which the grader's sandbox gives PoCL).
  std::string parallel_units(int pocl_threads = 0) const;
};

// Throws kit::Error when one array of `count` floats is above the device's largest allocation,
// naming both sizes.
void check_float_array(const cl::Device& device, std::size_t count);

// Throws kit::DeviceLimit when `local` exceeds the device's or this kernel's maximum work-group
// size (kernel_work_group_limit), or when `local_bytes` of local memory does not fit; the message
// names both values and the reason of the kernel's limit.
void check_local_size(const cl::Device& device, const cl::Kernel& kernel, std::size_t local,
                      std::size_t local_bytes);

// The largest work-group `kernel` can run on `device`, and where that number comes from, in words
// that follow "this kernel's maximum work-group size N (...)".
//
// Usually CL_KERNEL_WORK_GROUP_SIZE. NVIDIA's driver (measured on an H200, driver 580.159.04)
// answers 256 there for every kernel, below the device's 1024: for an empty kernel, for the labs'
// kernels (12 to 14 registers a work-item) under any build option, and for a kernel compiled with
// reqd_work_group_size(1024, 1, 1), which can only run at 1024; and those kernels run right at 512,
// 1000 and 1024. 256 is what any kernel fits: a work-item has at most 255 registers. What bounds a
// kernel there is its registers: a work-group's work-items share the CL_DEVICE_REGISTERS_PER_BLOCK_NV
// registers of one multiprocessor. So on a device that reports that number (reports_registers),
// where the query is below the device's maximum, the limit comes from the registers ptxas lists for
// the kernel in a build of its program with -cl-nv-verbose (of cl_nv_compiler_options; one more
// build, once per program and process: see fresh_ptxas_log in device.cpp), through
// register_limited_work_group; the query stands where ptxas lists none.
// `enough` > 0: the query is taken as it is when it already allows `enough`.
struct WorkGroupLimit {
  std::size_t most = 0;
  std::string reason;  // "CL_KERNEL_WORK_GROUP_SIZE on ..." or the registers, on which device
};
WorkGroupLimit kernel_work_group_limit(const cl::Device& device, const cl::Kernel& kernel, std::size_t enough = 0);

// Whether the device reports its registers per work-group and warp size (NVIDIA's
// cl_nv_device_attribute_query).
bool reports_registers(const cl::Device& device);

// The registers per work-item that ptxas's --verbose log gives for kernel `name` (the "Used N
// registers" line after "Compiling entry function 'name'"); -1 when the log has no such line.
int ptxas_registers(const std::string& log, const std::string& name);

// The largest work-group of work-items using `registers` registers each that fits `per_group`
// registers, given per warp of `warp` work-items in steps of `granule` registers and to warps in
// sets of `warp_set` (NVIDIA's H100 and H200: 256 and 4); whole warps, at most `device_max`.
std::size_t register_limited_work_group(int registers, std::size_t per_group, std::size_t warp, std::size_t granule,
                                        std::size_t warp_set, std::size_t device_max);

// That limit for kernel `name` with NVIDIA's allocation step, and its reason in words.
WorkGroupLimit register_work_group_limit(const std::string& name, int registers, std::size_t per_group, std::size_t warp,
                                         std::size_t device_max, const std::string& device_name);

}  // namespace kit
