#include "kit/device.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <tuple>

#include <unistd.h>

#include "kit/device_faults.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "kit/program.hpp"

namespace kit {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool is_index(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string what_exists(const std::vector<PlatformNames>& machine) {
  std::ostringstream out;
  out << "available (run with --list for details):";
  for (std::size_t p = 0; p < machine.size(); ++p) {
    out << "\n  platform " << p << ": " << machine[p].name;
    for (std::size_t d = 0; d < machine[p].devices.size(); ++d)
      out << "\n    device " << d << ": " << machine[p].devices[d];
  }
  return out.str();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
  return s;
}

}  // namespace

bool is_pocl(const std::string& platform_name) {
  const std::string n = lower(platform_name);
  return n.find("portable computing language") != std::string::npos || n.find("pocl") != std::string::npos;
}

bool spec_matches(const std::string& spec, std::size_t index, const std::string& name) {
  if (is_index(spec)) return std::stoull(spec) == index;
  // PoCL names its platform "Portable Computing Language": "pocl" is what everyone types.
  if (lower(spec) == "pocl" && lower(name).find("portable computing language") != std::string::npos) return true;
  return lower(name).find(lower(spec)) != std::string::npos;
}

Choice choose_device(const std::vector<PlatformNames>& machine, const DeviceOptions& options) {
  if (machine.empty()) throw Error("no OpenCL platform to choose from");
  std::vector<std::size_t> platforms;
  if (!options.platform.empty()) {
    for (std::size_t p = 0; p < machine.size(); ++p)
      if (spec_matches(options.platform, p, machine[p].name)) platforms.push_back(p);
    if (platforms.empty())
      throw Error("--platform '" + options.platform + "' matches no platform; " + what_exists(machine));
  } else if (!options.device.empty() && !is_index(options.device)) {
    for (std::size_t p = 0; p < machine.size(); ++p) platforms.push_back(p);  // search by name everywhere
  } else {
    // Default platform: PoCL when present, else the first one.
    std::size_t chosen = 0;
    for (std::size_t p = 0; p < machine.size(); ++p)
      if (is_pocl(machine[p].name)) {
        chosen = p;
        break;
      }
    platforms.push_back(chosen);
  }

  for (std::size_t p : platforms) {
    const PlatformNames& pl = machine[p];
    for (std::size_t d = 0; d < pl.devices.size(); ++d) {
      if (!options.device.empty()) {
        if (spec_matches(options.device, d, pl.devices[d])) return {p, d};
      } else if (options.platform.empty() && is_pocl(pl.name)) {
        if (d < pl.is_cpu.size() && pl.is_cpu[d]) return {p, d};
      } else {
        return {p, d};
      }
    }
    if (options.device.empty() && !pl.devices.empty()) return {p, 0};
  }
  if (!options.device.empty())
    throw Error("--device '" + options.device + "' matches no device" +
                (options.platform.empty() ? "" : " on platform '" + options.platform + "'") + "; " +
                what_exists(machine));
  throw Error("the chosen platform has no devices; " + what_exists(machine));
}

std::vector<cl::Platform> all_platforms() {
  ensure_pocl_cache_dir();
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    platforms.clear();  // the ICD loader reports "no platform" as an error status
  }
  if (platforms.empty())
    throw Error(
        "no OpenCL platform found. The kit runs on PoCL, the portable CPU implementation:\n"
        "    sudo apt-get install pocl-opencl-icd ocl-icd-opencl-dev   (or: sudo scripts/setup.sh)\n"
        "If it is installed, check that /etc/OpenCL/vendors/ holds its .icd file "
        "(and OCL_ICD_VENDORS, if set, points there).");
  return platforms;
}

std::vector<PlatformNames> describe_machine() {
  std::vector<PlatformNames> machine;
  for (const cl::Platform& platform : all_platforms()) {
    PlatformNames names{trim(platform.getInfo<CL_PLATFORM_NAME>()), {}, {}};
    std::vector<cl::Device> devices;
    try {
      platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      devices.clear();  // a platform without devices reports CL_DEVICE_NOT_FOUND
    }
    for (const cl::Device& d : devices) {
      names.devices.push_back(trim(d.getInfo<CL_DEVICE_NAME>()));
      names.is_cpu.push_back((d.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0);
    }
    machine.push_back(names);
  }
  return machine;
}

void print_device_list(std::ostream& out) {
  const auto platforms = all_platforms();
  const std::vector<DeviceFault> faults = known_device_faults();
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    out << "Platform " << p << ": " << trim(platforms[p].getInfo<CL_PLATFORM_NAME>()) << " ("
        << trim(platforms[p].getInfo<CL_PLATFORM_VERSION>()) << ")\n";
    std::vector<cl::Device> devices;
    try {
      platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      devices.clear();
    }
    if (devices.empty()) out << "  (no devices)\n";
    for (std::size_t d = 0; d < devices.size(); ++d) {
      const cl::Device& dev = devices[d];
      out << "  Device " << d << ": " << trim(dev.getInfo<CL_DEVICE_NAME>()) << "\n"
          << "      compute units " << dev.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>()
          << ", max work-group size " << dev.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>()
          << ", local memory " << dev.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>() / 1024 << " KiB"
          << ", global memory " << dev.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>() / (1024 * 1024) << " MiB"
          << ", driver " << trim(dev.getInfo<CL_DRIVER_VERSION>()) << "\n";
      for (const std::string& note : device_fault_notes(faults, platforms[p].getInfo<CL_PLATFORM_NAME>(),
                                                        trim(dev.getInfo<CL_DRIVER_VERSION>())))
        out << "      note: " << note << "\n";
    }
  }
}

namespace {

// A queue that records each command's device times. An OpenCL 1.x platform gets the 1.2 call:
// clCreateCommandQueueWithProperties is an OpenCL 2.0 function, and Oclgrind 21.10 (OpenCL 1.2)
// reached through its ICD, as on a Debian without the oclgrind package, loops in the loader on it
// for ever (its ICD table's slot for that function points back at the loader's own).
cl::CommandQueue profiling_queue(const cl::Platform& platform, const cl::Context& context, const cl::Device& device) {
  if (platform.getInfo<CL_PLATFORM_VERSION>().rfind("OpenCL 1.", 0) != 0)
    return cl::CommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE);
  cl_int err = CL_SUCCESS;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  const cl_command_queue queue = clCreateCommandQueue(context(), device(), CL_QUEUE_PROFILING_ENABLE, &err);
#pragma GCC diagnostic pop
  if (err != CL_SUCCESS) throw cl::Error(err, "clCreateCommandQueue");
  return cl::CommandQueue(queue);  // the wrapper takes the one reference
}

}  // namespace

Runtime Runtime::open(const DeviceOptions& options) {
  const auto platforms = all_platforms();
  const Choice choice = choose_device(describe_machine(), options);
  Runtime rt;
  rt.choice = choice;
  rt.platform = platforms[choice.platform];
  std::vector<cl::Device> devices;
  rt.platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
  rt.device = devices[choice.device];
  rt.context = cl::Context(rt.device);
  // Profiling lets a program read a kernel's own device time from its event, beside omp_get_wtime.
  rt.queue = profiling_queue(rt.platform, rt.context, rt.device);
  struct ReleasesPrograms {
    cl_context context;
    ~ReleasesPrograms() { forget_built_programs(context); }
  };
  rt.programs_released_first = std::make_shared<const ReleasesPrograms>(ReleasesPrograms{rt.context()});
  return rt;
}

std::string Runtime::device_name() const { return trim(device.getInfo<CL_DEVICE_NAME>()); }

std::string Runtime::summary() const {
  std::ostringstream out;
  out << device_name() << " on " << trim(platform.getInfo<CL_PLATFORM_NAME>()) << " ("
      << device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>() << " compute units, driver "
      << trim(device.getInfo<CL_DRIVER_VERSION>()) << ")";
  return out.str();
}

std::string parallel_units_words(bool pocl, unsigned count) {
  return std::to_string(count) + (pocl ? " PoCL thread" : " compute unit") + (count == 1 ? "" : "s");
}

std::string Runtime::parallel_units(int pocl_threads) const {
  const bool pocl = is_pocl(platform.getInfo<CL_PLATFORM_NAME>());
  return parallel_units_words(pocl, pocl && pocl_threads > 0 ? unsigned(pocl_threads) : device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
}

void check_float_array(const cl::Device& device, std::size_t count) {
  const std::size_t bytes = count * sizeof(float);
  const cl_ulong max_alloc = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  if (bytes > max_alloc)
    throw Error("an array of " + std::to_string(count) + " floats (" + std::to_string(bytes >> 20) +
                " MiB) is above this device's largest allocation, " + std::to_string(max_alloc >> 20) + " MiB");
}

namespace {

// Registers are given to a warp in steps of this many, and warps to a work-group in sets of this
// many (NVIDIA's allocation since Volta, a multiprocessor's registers being split among its four
// schedulers; measured on an H200: kernels of 80 and 187 registers, for which 65536 registers
// would hold 25 and 10 warps, run at 24 and 8 warps and fail with CL_OUT_OF_RESOURCES at 25 and 10).
constexpr std::size_t kRegisterGranule = 256, kWarpSet = 4;

// The build log of `kernel`'s program compiled again for `device` with its own options and
// -cl-nv-verbose, for ptxas's register counts ("" when that build fails); once per device, source
// and options in a process. NVIDIA's driver keeps compiled kernels in a disk cache keyed by their
// PTX, and a build served from there has no ptxas report (measured on an H200: the same build in a
// second process, or with a new -D that changes no code, listed no registers); so the source gets
// a program-scope constant of a name never used before, which changes the PTX and not the kernel.
std::string fresh_ptxas_log(const cl::Device& device, const cl::Kernel& kernel) {
  const cl::Program program = kernel.getInfo<CL_KERNEL_PROGRAM>();
  const std::string source = program.getInfo<CL_PROGRAM_SOURCE>();
  const std::string options = trim(program.getBuildInfo<CL_PROGRAM_BUILD_OPTIONS>(device)) + " -cl-nv-verbose";
  static std::mutex mutex;
  static std::map<std::tuple<cl_device_id, std::string, std::string>, std::string> logs;
  static unsigned long builds = 0;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(device(), source, options);
  if (const auto found = logs.find(key); found != logs.end()) return found->second;
  const std::string unique = std::to_string(::getpid()) + "_" + std::to_string(++builds) + "_" +
                             std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  std::string log;
  try {
    cl::Program again(program.getInfo<CL_PROGRAM_CONTEXT>(), "constant int kit_fresh_compile_" + unique + " = 0;\n" + source);
    again.build(std::vector<cl::Device>{device}, options.c_str());
    log = again.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
  } catch (const cl::Error&) {
    log.clear();  // an option this driver refuses: no count
  }
  return logs.emplace(key, log).first->second;
}

// A cl_uint of NVIDIA's device attribute query; 0 where the device does not answer it.
cl_uint nv_device_uint(const cl::Device& device, cl_device_info what) {
  cl_uint value = 0;
  if (clGetDeviceInfo(device(), what, sizeof value, &value, nullptr) != CL_SUCCESS) return 0;
  return value;
}

}  // namespace

int ptxas_registers(const std::string& log, const std::string& name) {
  static const std::regex used(R"(Used (\d+) registers)");
  const std::string entry = "Compiling entry function '" + name + "'";
  std::istringstream in(log);
  bool inside = false;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (line.find("Compiling entry function '") != std::string::npos)
      inside = line.find(entry) != std::string::npos;
    else if (inside && std::regex_search(line, m, used))
      return std::stoi(m[1].str());
  }
  return -1;
}

std::size_t register_limited_work_group(int registers, std::size_t per_group, std::size_t warp, std::size_t granule,
                                        std::size_t warp_set, std::size_t device_max) {
  if (registers <= 0 || warp == 0 || granule == 0 || warp_set == 0) return device_max;  // nothing to share
  const std::size_t per_warp = (std::size_t(registers) * warp + granule - 1) / granule * granule;
  return std::min(device_max, per_group / per_warp / warp_set * warp_set * warp);
}

bool reports_registers(const cl::Device& device) {
  return nv_device_uint(device, CL_DEVICE_REGISTERS_PER_BLOCK_NV) > 0 && nv_device_uint(device, CL_DEVICE_WARP_SIZE_NV) > 0;
}

WorkGroupLimit kernel_work_group_limit(const cl::Device& device, const cl::Kernel& kernel, std::size_t enough) {
  const std::string device_name = trim(device.getInfo<CL_DEVICE_NAME>());
  const std::size_t device_max = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  const std::size_t reported = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
  WorkGroupLimit by_query{reported, "CL_KERNEL_WORK_GROUP_SIZE on " + device_name};
  if (reported >= device_max || (enough > 0 && reported >= enough)) return by_query;
  const cl_uint per_group = nv_device_uint(device, CL_DEVICE_REGISTERS_PER_BLOCK_NV);
  const cl_uint warp = nv_device_uint(device, CL_DEVICE_WARP_SIZE_NV);
  if (per_group == 0 || warp == 0) return by_query;  // not NVIDIA's: the query is all there is
  const std::string name = trim(kernel.getInfo<CL_KERNEL_FUNCTION_NAME>());
  const int registers = ptxas_registers(fresh_ptxas_log(device, kernel), name);
  if (registers < 0) {
    by_query.reason += "; ptxas gave no register count for " + name + " in a build with -cl-nv-verbose";
    return by_query;
  }
  return register_work_group_limit(name, registers, per_group, warp, device_max, device_name);
}

WorkGroupLimit register_work_group_limit(const std::string& name, int registers, std::size_t per_group, std::size_t warp,
                                         std::size_t device_max, const std::string& device_name) {
  return {register_limited_work_group(registers, per_group, warp, kRegisterGranule, kWarpSet, device_max),
          name + " uses " + std::to_string(registers) + " registers per work-item (ptxas) and a work-group has " +
              std::to_string(per_group) + " on " + device_name + ", given " + std::to_string(kRegisterGranule) +
              " at a time to each warp of " + std::to_string(warp) + " and to warps " + std::to_string(kWarpSet) +
              " at a time"};
}

void check_local_size(const cl::Device& device, const cl::Kernel& kernel, std::size_t local,
                      std::size_t local_bytes) {
  const std::size_t device_max = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  if (local > device_max)
    throw DeviceLimit("local size " + std::to_string(local) + " is above this device's maximum work-group size " +
                std::to_string(device_max) + " (" + trim(device.getInfo<CL_DEVICE_NAME>()) + ")");
  const WorkGroupLimit kernel_max = kernel_work_group_limit(device, kernel, local);
  if (local > kernel_max.most)
    throw DeviceLimit("local size " + std::to_string(local) + " is above this kernel's maximum work-group size " +
                      std::to_string(kernel_max.most) + " (" + kernel_max.reason + ")");
  const cl_ulong local_mem = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  const cl_ulong kernel_local = kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device);
  if (local_bytes > local_mem)  // the lab's own need, before the kernel's arrays: the device's limit
    throw DeviceLimit("local size " + std::to_string(local) + " needs " + std::to_string(local_bytes) +
                      " bytes of local memory, above this device's " + std::to_string(local_mem) + " bytes");
  if (local_bytes + kernel_local > local_mem)
    throw Error("local size " + std::to_string(local) + " needs " + std::to_string(local_bytes + kernel_local) +
                " bytes of local memory, above this device's " + std::to_string(local_mem) + " bytes");
}

}  // namespace kit
