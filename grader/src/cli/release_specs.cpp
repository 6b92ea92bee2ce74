// `grader release-specs`: the visible cases' specs and references for the student release.
#include <iostream>

#include "cli/command.hpp"
#include "export/release.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"

namespace grader::cli {
namespace {

class ReleaseSpecs : public Command {
 public:
  explicit ReleaseSpecs(CLI::App& app)
      : Command(app.add_subcommand("release-specs", "(make student-release) the specs and references of the visible cases")) {
    app_->add_option("--dest", dest_, "The student release's folder")->required();
    app_->add_option("--labs", labs_, "Release only these labs, e.g. 01,02,03 (default: all)");
  }

  int run(const Globals& g) override {
    std::vector<std::string> labs;
    if (!labs_.empty())
      for (const LabSpec& spec : load_specs(g.specs_dir, split_labs(labs_))) labs.push_back(spec.lab);
    std::vector<std::string> checked = labs;  // every release, all labs included
    if (checked.empty())
      for (const LabSpec& spec : load_specs(g.specs_dir)) checked.push_back(spec.lab);
    const std::vector<std::string> given = given_solution_lines(kit::root() / "labs", kit::root() / "solutions", checked);
    if (!given.empty()) {
      std::string list;
      for (const std::string& line : given) list += "\n  " + line;
      throw kit::Error("these starters hand out what another lab's students write:" + list +
                       "\nmake each such place a student region (the student's own code from that lab) or give other code");
    }
    write_release_specs(g.specs_dir, g.reference_dir, dest_, labs, std::cout);
    return 0;
  }

 private:
  std::filesystem::path dest_;
  std::vector<std::string> labs_;
};

}  // namespace

std::unique_ptr<Command> add_release_specs(CLI::App& app) { return std::make_unique<ReleaseSpecs>(app); }

}  // namespace grader::cli
