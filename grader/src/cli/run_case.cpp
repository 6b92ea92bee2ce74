// `grader run-case` (internal): one isolated child that builds a kernel and runs its cases.
#include "cli/command.hpp"
#include "isolation/case_child.hpp"

namespace grader::cli {
namespace {

class RunCase : public Command {
 public:
  explicit RunCase(CLI::App& app) : Command(app.add_subcommand("run-case", "(internal) one isolated build or case")) {
    app_->group("");  // hidden from --help
    app_->add_option("--lab", task_.lab)->required();
    app_->add_option("--kernel", task_.kernel)->required();
    app_->add_option("--shown-as", task_.shown_as)->required();
    app_->add_option("--case", task_.case_json);
    app_->add_option("--cases", task_.cases_file);
    app_->add_flag("--steps", task_.steps);
    app_->add_option("--result", task_.result);
    app_->add_option("--result-dir", task_.result_dir);
    app_->add_option("--baseline", task_.baseline);
    app_->add_option("--pairs", task_.pairs);
    app_->add_option("--gate", task_.gate);
    app_->add_option("--platform", task_.device.platform);
    app_->add_option("--device", task_.device.device);
  }

  int run(const Globals&) override { return run_case_child(task_); }

 private:
  ChildTask task_;
};

}  // namespace

std::unique_ptr<Command> add_run_case(CLI::App& app) { return std::make_unique<RunCase>(app); }

}  // namespace grader::cli
