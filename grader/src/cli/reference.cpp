// `grader reference`: the maintainers' step, running solutions/ on PoCL and storing the reference outputs.
#include <iostream>

#include "cli/command.hpp"
#include "kit/paths.hpp"
#include "spec/references.hpp"

namespace grader::cli {
namespace {

class Reference : public Command {
 public:
  explicit Reference(CLI::App& app)
      : Command(app.add_subcommand("reference", "Run solutions/ on PoCL and store the reference outputs")) {
    app_->add_option("--labs", labs_, "Labs to regenerate (default: all)");
  }

  int run(const Globals& g) override {
    const auto specs = load_specs(g.specs_dir, split_labs(labs_));
    const kit::Runtime rt = kit::Runtime::open({});
    std::cout << "Reference device: " << rt.summary() << "\n";
    make_references(g.reference_dir, specs, kit::root() / "solutions", rt, std::cout);
    std::cout << "References written to " << g.reference_dir.string() << "\n";
    return 0;
  }

 private:
  std::vector<std::string> labs_;
};

}  // namespace

std::unique_ptr<Command> add_reference(CLI::App& app) { return std::make_unique<Reference>(app); }

}  // namespace grader::cli
