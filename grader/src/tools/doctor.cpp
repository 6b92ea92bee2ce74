#include "tools/doctor.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "core/files.hpp"
#include "isolation/sandbox.hpp"
#include "judge/grade.hpp"
#include "kit/device_faults.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "oclgrind/checks.hpp"
#include "oclgrind/work_span.hpp"

namespace grader {
namespace {

// The limits a probe's outcome is told against: two minutes, the rest as any child's.
SandboxLimits probe_limits() {
  SandboxLimits limits;
  limits.seconds = 120;
  return limits;
}

// The one-line kernel every device must build and run: work-item i writes 3 * i + 1.
const char* kProbeKernel = "kernel void kit_probe(global int* out) { out[get_global_id(0)] = 3 * (int)get_global_id(0) + 1; }\n";
constexpr std::size_t kProbeItems = 64;

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  const auto at = t.rfind('\n');
  return at == std::string::npos ? t : t.substr(at + 1);
}

struct Probe {
  json answer;  // the child's JSON line, or null
  ChildOutcome outcome;
};

// `grader doctor --probe` in a child of its own, under `prefix` (Oclgrind, or nothing).
std::filesystem::path probe_folder() { return std::filesystem::temp_directory_path() / ("kit-doctor-" + std::to_string(getpid())); }

Probe run_probe(const std::filesystem::path& grader_exe, const std::vector<std::string>& prefix, const std::vector<std::string>& args,
                const std::vector<std::pair<std::string, std::string>>& environment, bool cpu) {
  const std::filesystem::path dir = probe_folder();
  std::filesystem::create_directories(dir);
  std::vector<std::string> argv = prefix;
  argv.insert(argv.end(), {grader_exe.string(), "doctor", "--probe"});
  argv.insert(argv.end(), args.begin(), args.end());
  SandboxLimits limits{120, 4096, 1, dir / "pocl-cache"};
  limits.limit_address_space = cpu;
  limits.environment = environment;
  Probe p;
  p.outcome = run_in_sandbox(argv, limits, dir / "probe");
  std::istringstream lines(p.outcome.output);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("{\"device\"", 0) == 0) try {
        p.answer = json::parse(line);
      } catch (const std::exception&) {
      }
  return p;
}

std::filesystem::path vendors_folder() {
  const char* set = std::getenv("OCL_ICD_VENDORS");
  return set && *set ? std::filesystem::path(set) : std::filesystem::path("/etc/OpenCL/vendors");
}

void examine_loader(std::vector<DoctorLine>& out) {
  const std::filesystem::path vendors = vendors_folder();
  std::vector<std::string> icds;
  std::error_code ec;
  if (std::filesystem::is_directory(vendors, ec))
    for (const auto& entry : std::filesystem::directory_iterator(vendors, ec))
      if (entry.path().extension() == ".icd") icds.push_back(entry.path().filename().string());
  std::string listed;
  for (const std::string& f : icds) listed += (listed.empty() ? "" : ", ") + f;
  if (icds.empty())
    out.push_back({"OpenCL", "problem", "no OpenCL driver is registered: " + vendors.string() + " holds no .icd file",
                   "sudo scripts/setup.sh (it installs pocl-opencl-icd and ocl-icd-opencl-dev)"});
  else
    out.push_back({"OpenCL", "ok", std::to_string(icds.size()) + " driver(s) registered in " + vendors.string() + ": " + listed, ""});
  if (icds.size() > 1)
    out.push_back({"OpenCL", "note",
                   "several drivers are registered: Debian 13's ocl-icd 2.3.3 has been seen to crash with more than one .icd file; "
                   "if a lab program crashes before it prints its device, try OCL_ICD_VENDORS=<a folder with pocl.icd alone>",
                   ""});
}

// The known faults' table and reproducers, copied under `root` as they lie in the kit: the probe
// runs as another user where the grader runs as root (nobody), who may not read the kit's folder.
std::filesystem::path copy_fault_files(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> files = {kit::device_faults_file().lexically_relative(kit::root())};
  for (const kit::DeviceFault& f : kit::known_device_faults())
    for (const kit::FaultKernel& k : f.reproducers) files.push_back(k.file);
  for (const std::filesystem::path& file : files) {
    std::filesystem::create_directories((root / file).parent_path());
    std::filesystem::copy_file(kit::root() / file, root / file, std::filesystem::copy_options::overwrite_existing);
  }
  return root;
}

void examine_device(const std::filesystem::path& grader_exe, std::size_t p, std::size_t d, const kit::PlatformNames& platform,
                    std::vector<DoctorLine>& out) {
  const bool pocl = kit::is_pocl(platform.name);
  const std::string part = pocl ? "PoCL" : platform.is_cpu[d] ? "OpenCL" : "GPU";
  const std::string name = platform.devices[d] + " (platform " + std::to_string(p) + ": " + platform.name + ")";
  // The platform by name: a probe of a CPU device runs with its address space limited, where a
  // GPU's driver may fail to load and the platforms' numbers shift (PoCL platform 1 here, 0 there).
  std::vector<std::string> args = {"-p", platform.name, "-d", std::to_string(d)};
  std::string faults_error;
  if (pocl) try {
      args.insert(args.end(), {"--faults", copy_fault_files(probe_folder() / "kit-files").string()});
    } catch (const std::exception& e) {
      faults_error = e.what();
    }
  const Probe probe = run_probe(grader_exe, {}, args, {}, platform.is_cpu[d]);
  if (probe.answer.is_null() || !probe.answer.value("ok", false)) {
    const std::string why = probe.answer.is_null() ? "the check " + probe.outcome.reason(probe_limits()) + ": " + last_line(probe.outcome.output)
                                                   : probe.answer.value("message", std::string());
    out.push_back({part, "problem", name + " is listed but cannot build and run a one-line kernel: " + why,
                   pocl ? "sudo scripts/setup.sh (reinstalls PoCL), and check that POCL_CACHE_DIR, if set, is a folder you can write"
                        : "check the device's driver (its own tools, e.g. nvidia-smi); grade on PoCL meanwhile (the default)"});
    return;
  }
  out.push_back({part, "ok", name + " builds and runs a one-line kernel (" + probe.answer.value("device", std::string()) + ")", ""});
  if (faults_error.empty()) faults_error = probe.answer.value("faults_error", std::string());
  if (!faults_error.empty())
    out.push_back({part, "problem", "PoCL's known compiler faults could not be tried: " + faults_error,
                   "check that the kit's common/data/known_device_faults.json and tests/pocl_faults/ are there (git status)"});
  for (const json& f : probe.answer.value("faults", json::array()))
    out.push_back({part, "note",
                   "known compiler fault " + f.value("id", std::string()) + (f.value("shows", false) ? ": it shows on this PoCL" : ": it does not show on this PoCL") +
                       (f.value("shows", false) ? " (the grader names it where a kernel has its loop, and a case it spoils is witnessed under Oclgrind: device-disagrees)"
                                                : ""),
                   ""});
}

}  // namespace

std::string oclgrind_problem(const std::filesystem::path& grader_exe) {
  const std::string oclgrind = find_oclgrind();
  if (oclgrind.empty()) return oclgrind_missing();
  GradeSettings s;
  s.grader_exe = grader_exe;
  const std::filesystem::path plugin = find_work_span_plugin(s);
  if (!std::filesystem::exists(plugin))
    return "the kit's Oclgrind plugin " + plugin.string() + " is missing (without its record nothing shows that Oclgrind ran a kernel): "
           "build the kit (make build)";
  const std::filesystem::path log = std::filesystem::temp_directory_path() / ("kit-doctor-plugin-" + std::to_string(getpid()) + ".jsonl");
  std::filesystem::remove(log);
  const Probe probe = run_probe(grader_exe, {oclgrind, "--plugins", plugin.string()}, {}, {{"KIT_WORK_SPAN_LOG", log.string()}}, true);
  std::string records;
  if (std::filesystem::exists(log)) records = read_file(log);
  std::filesystem::remove(log);
  const std::string device = probe.answer.is_null() ? "" : probe.answer.value("device", std::string());
  if (device.find("Oclgrind") == std::string::npos) {
    const std::string preload = preload_failure(probe.outcome.output);
    return oclgrind + " ran the kernel on " + (device.empty() ? "no device (" + last_line(probe.outcome.output) + ")" : device) +
           ", not on Oclgrind's device: its runtime library was not loaded" + (preload.empty() ? "" : " (" + preload + ")") +
           ", so the Oclgrind checks would see nothing. Fix: sudo scripts/setup.sh (a working Oclgrind), or set KIT_OCLGRIND to an "
           "oclgrind program whose lib/oclgrind/ folder is beside its bin/ folder";
  }
  if (!probe.answer.value("ok", false)) return "Oclgrind could not run a one-line kernel: " + probe.answer.value("message", std::string());
  std::vector<KernelWork> launches;
  try {
    launches = parse_work_span(records);
  } catch (const kit::Error& e) {
    return std::string("the kit's Oclgrind plugin wrote a log that cannot be read: ") + e.what() + ": build the kit again (make build)";
  }
  if (launches.empty())
    return "Oclgrind ran a kernel but the kit's plugin " + plugin.string() + " recorded nothing: build the kit again (make build)";
  return "";
}

std::vector<DoctorLine> examine_machine(const std::filesystem::path& grader_exe) {
  std::vector<DoctorLine> out;
  examine_loader(out);
  std::vector<kit::PlatformNames> machine;
  try {
    machine = kit::describe_machine();
  } catch (const kit::Error& e) {
    out.push_back({"OpenCL", "problem", std::string("the OpenCL loader found no platform: ") + e.what(), "sudo scripts/setup.sh"});
  }
  bool gpu = false;
  for (std::size_t p = 0; p < machine.size(); ++p)
    for (std::size_t d = 0; d < machine[p].devices.size(); ++d) {
      gpu = gpu || !machine[p].is_cpu[d];
      examine_device(grader_exe, p, d, machine[p], out);
    }
  if (!machine.empty() && std::none_of(machine.begin(), machine.end(), [](const kit::PlatformNames& n) { return kit::is_pocl(n.name); }))
    out.push_back({"PoCL", "problem", "no PoCL platform: the grader's cases and the lab programs run on PoCL by default", "sudo scripts/setup.sh"});
  if (!gpu) out.push_back({"GPU", "note", "no GPU platform here: the grader and the labs run on PoCL (a GPU is chosen with -p)", ""});
  const std::string oclgrind = oclgrind_problem(grader_exe);
  if (oclgrind.empty())
    out.push_back({"Oclgrind", "ok", find_oclgrind() + " runs a kernel on Oclgrind's device, and the kit's plugin records it", ""});
  else
    out.push_back({"Oclgrind", "problem", oclgrind,
                   "grade with --no-oclgrind until it is fixed (the memory-safety and algorithm lines are then left out, and every case is "
                   "judged on the device alone)"});
  return out;
}

void print_doctor(const std::vector<DoctorLine>& lines, std::ostream& out) {
  std::size_t problems = 0;
  std::string part;
  for (const DoctorLine& l : lines) {
    if (l.part != part) out << (part.empty() ? "" : "\n") << l.part << "\n";
    part = l.part;
    out << "  " << (l.status == "ok" ? "ok     " : l.status == "note" ? "note   " : "PROBLEM") << " " << l.what << "\n";
    if (!l.fix.empty()) out << "          fix: " << l.fix << "\n";
    problems += l.status == "problem";
  }
  out << "\n"
      << (problems == 0 ? std::string("Everything the grader needs works here.")
                        : std::to_string(problems) + " problem(s): fix them as each says, then run grader doctor again.")
      << "\n";
}

// Each known fault's reproducers on the probe's device: the table and kernels read under
// `root`, a copy of the kit's (copy_fault_files).
json try_faults(const kit::Runtime& rt, const std::filesystem::path& root) {
  const std::filesystem::path table = root / kit::device_faults_file().lexically_relative(kit::root());
  json faults = json::array();
  for (const kit::DeviceFault& f : kit::device_faults_from_json(json::parse(read_file(table)))) {
    bool shows = false;
    for (const kit::FaultKernel& k : f.reproducers) {
      const cl::Program p = kit::build_program(rt.context, rt.device, root / k.file);
      cl::Kernel r(p, "reproducer");
      std::vector<cl_uint> wrote(k.global / k.local, 0xFFFFFFFFu);
      cl::Buffer b(rt.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, wrote.size() * sizeof(cl_uint), wrote.data());
      r.setArg(0, b);
      rt.queue.enqueueNDRangeKernel(r, cl::NullRange, cl::NDRange(k.global), cl::NDRange(k.local));
      rt.queue.enqueueReadBuffer(b, CL_TRUE, 0, wrote.size() * sizeof(cl_uint), wrote.data());
      for (const cl_uint v : wrote) shows = shows || v != k.expected;
    }
    faults.push_back({{"id", f.id}, {"shows", shows}});
  }
  return faults;
}

int probe_device(const kit::DeviceOptions& device, const std::string& faults_root) {
  json answer{{"device", ""}, {"ok", false}, {"message", ""}, {"faults", json::array()}};
  try {
    const kit::Runtime rt = kit::Runtime::open(device);
    answer["device"] = rt.summary();
    cl::Program program(rt.context, kProbeKernel);
    try {
      program.build("-cl-std=CL1.2");
    } catch (const cl::Error&) {
      answer["message"] = "the one-line kernel did not build: " + program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(rt.device);
      std::cout << answer.dump() << std::endl;
      return 0;
    }
    cl::Kernel kernel(program, "kit_probe");
    cl::Buffer buffer(rt.context, CL_MEM_WRITE_ONLY, kProbeItems * sizeof(cl_int));
    kernel.setArg(0, buffer);
    rt.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(kProbeItems), cl::NDRange(8));
    std::vector<cl_int> got(kProbeItems, 0);
    rt.queue.enqueueReadBuffer(buffer, CL_TRUE, 0, got.size() * sizeof(cl_int), got.data());
    bool right = true;
    for (std::size_t i = 0; i < kProbeItems; ++i) right = right && got[i] == cl_int(3 * i + 1);
    answer["ok"] = right;
    if (!right) answer["message"] = "the one-line kernel ran but wrote wrong values";
    if (!faults_root.empty()) try {  // apart: the device works whatever comes of its faults' reproducers
        answer["faults"] = try_faults(rt, faults_root);
      } catch (const std::exception& e) {
        answer["faults_error"] = e.what();
      }
  } catch (const std::exception& e) {
    answer["message"] = e.what();
  }
  std::cout << answer.dump() << std::endl;
  return 0;
}

}  // namespace grader
