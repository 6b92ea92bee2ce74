// `grader doctor`: what this machine has of what the grader needs, each part tried, and the fixes.
#include <iostream>

#include "cli/command.hpp"
#include "tools/doctor.hpp"

namespace grader::cli {
namespace {

class Doctor : public Command {
 public:
  explicit Doctor(CLI::App& app)
      : Command(app.add_subcommand("doctor", "Check that OpenCL, PoCL, Oclgrind with the kit's plugin and any GPU work here, and say how to fix what does not")) {
    app_->add_flag("--probe", probe_, "(internal) check one device in this process and print the result as JSON")->group("");
    app_->add_option("--faults", faults_,
                     "(internal) with --probe: also run the known compiler faults' reproducers, the table and kernels read under this "
                     "folder (a copy of the kit's)")
        ->group("");
    app_->add_option("-p,--platform", device_.platform, "(internal) with --probe: the platform")->group("");
    app_->add_option("-d,--device", device_.device, "(internal) with --probe: the device")->group("");
  }

  int run(const Globals&) override {
    if (probe_) return probe_device(device_, faults_);
    const std::vector<DoctorLine> lines = examine_machine(self_exe());
    print_doctor(lines, std::cout);
    for (const DoctorLine& l : lines)
      if (l.status == "problem") return 1;
    return 0;
  }

 private:
  bool probe_ = false;
  std::string faults_;
  kit::DeviceOptions device_;
};

}  // namespace

std::unique_ptr<Command> add_doctor(CLI::App& app) { return std::make_unique<Doctor>(app); }

}  // namespace grader::cli
