#pragma once
// `grader doctor`: whether this machine has what the grader needs, each part tried for real, and
// for each problem the command that fixes it: the OpenCL loader and its platforms, each device
// building and running a one-line kernel (in a child: a broken driver may crash), PoCL's known
// compiler faults run on the installed PoCL, Oclgrind with its runtime library and the kit's
// plugin (a kernel run under Oclgrind must reach Oclgrind's device, and the plugin must record
// it: an `oclgrind` whose runtime library cannot be preloaded runs the program on the ordinary
// platform, in silence), and a GPU where there is one.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "kit/device.hpp"
#include "kit/json.hpp"

namespace grader {

struct DoctorLine {
  std::string part;    // "OpenCL", "PoCL", "Oclgrind", "GPU"
  std::string status;  // "ok", "note" or "problem"
  std::string what;
  std::string fix;     // for a problem: what to run
};

// What the checks found, in order.
std::vector<DoctorLine> examine_machine(const std::filesystem::path& grader_exe);

// The report of `lines`, and the summary line.
void print_doctor(const std::vector<DoctorLine>& lines, std::ostream& out);

// Whether Oclgrind runs a kernel here with the kit's plugin (the last check above, alone): empty
// when it does, else why not and what to run. `grader grade` asks before it starts.
std::string oclgrind_problem(const std::filesystem::path& grader_exe);

// The child's side of a device's check (`grader doctor --probe`): opens the device, builds and
// runs a one-line kernel and, given `faults_root` (a copy of the kit's fault table and
// reproducers, on PoCL), the known faults' reproducers; prints one JSON line: {"device", "ok",
// "message", "faults": [{"id", "shows"}]}, with "faults_error" when they could not be tried. Returns 0.
int probe_device(const kit::DeviceOptions& device, const std::string& faults_root);

}  // namespace grader
