// `grader build-service` (internal): a batch worker's build service, compiling for its children.
#include "cli/command.hpp"
#include "isolation/build_service_process.hpp"
#include "kit/build_service.hpp"

namespace grader::cli {
namespace {

class BuildService : public Command {
 public:
  explicit BuildService(CLI::App& app) : Command(app.add_subcommand("build-service", "(internal) a batch worker's build service")) {
    app_->group("");  // hidden from --help
    app_->add_option("--socket", socket_)->required();
    app_->add_option("--build-limit", limit_);
  }

  int run(const Globals&) override {
    const kit::Runtime rt = kit::Runtime::open({});  // the children's device: the service runs only without --devices
    if (!kit::is_pocl(rt.platform.getInfo<CL_PLATFORM_NAME>())) return kNothingToServe;
    kit::serve_builds(socket_, rt.context, rt.device, limit_);
    return 0;
  }

 private:
  std::string socket_;
  unsigned limit_ = 60;
};

}  // namespace

std::unique_ptr<Command> add_build_service(CLI::App& app) { return std::make_unique<BuildService>(app); }

}  // namespace grader::cli
