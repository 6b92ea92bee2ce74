// `grader release-specs`: the visible cases' specs and references for the student release.
#include <iostream>

#include "cli/command.hpp"
#include "export/release.hpp"

namespace grader::cli {
namespace {

class ReleaseSpecs : public Command {
 public:
  explicit ReleaseSpecs(CLI::App& app)
      : Command(app.add_subcommand("release-specs", "(make student-release) the specs and references of the visible cases")) {
    app_->add_option("--dest", dest_, "The student release's folder")->required();
  }

  int run(const Globals& g) override {
    write_release_specs(g.specs_dir, g.reference_dir, dest_, std::cout);
    return 0;
  }

 private:
  std::filesystem::path dest_;
};

}  // namespace

std::unique_ptr<Command> add_release_specs(CLI::App& app) { return std::make_unique<ReleaseSpecs>(app); }

}  // namespace grader::cli
