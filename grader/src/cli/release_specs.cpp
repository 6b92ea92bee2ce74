// `grader release-specs`: the visible cases' specs and references for the student release.
#include <iostream>

#include "cli/command.hpp"
#include "core/files.hpp"
#include "export/release.hpp"
#include "judge/graded_kernels.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"

namespace grader::cli {
namespace {

class ReleaseSpecs : public Command {
 public:
  explicit ReleaseSpecs(CLI::App& app)
      : Command(app.add_subcommand("release-specs", "(make student-release) the specs and references of the visible cases")) {
    app_->add_option("--dest", dest_, "The student release's folder");
    app_->add_option("--labs", labs_, "Release only these labs, e.g. 01,02,03 (default: all)");
    app_->add_flag("--kit-starters", kit_starters_,
                   "Instead, write the kit's own grader/starters.json: the hashes of labs/' starters, after a starter's code changed");
  }

  int run(const Globals& g) override {
    if (kit_starters_) {
      const std::filesystem::path file = kit::root() / "grader" / kKitStartersFile;
      write_file_atomically(file, starter_hashes(kit::root() / "labs", starters_of(load_specs(g.specs_dir))).dump(2) + "\n");
      std::cout << "wrote " << file.string() << "\n";
      return 0;
    }
    if (dest_.empty()) throw kit::Error("release-specs: --dest is required (the student release's folder)");
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
    // The released starters' hashes, as they are now: a student's copy later holds edited ones,
    // and `grader grade` there screens for unchanged starters against these.
    const std::filesystem::path starters = dest_ / "grader" / kReleaseStartersFile;
    const auto released = starters_of(load_specs(g.specs_dir, labs));
    write_file_atomically(starters, starter_hashes(kit::root() / "labs", released).dump(2) + "\n");
    std::cout << "starters: " << released.size() << " lab(s)' hashes in " << starters.string() << "\n";
    return 0;
  }

 private:
  static std::vector<std::pair<std::string, std::string>> starters_of(const std::vector<LabSpec>& specs) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const LabSpec& spec : specs) out.emplace_back(spec.lab, spec.kernel_file);
    return out;
  }

  std::filesystem::path dest_;
  std::vector<std::string> labs_;
  bool kit_starters_ = false;
};

}  // namespace

std::unique_ptr<Command> add_release_specs(CLI::App& app) { return std::make_unique<ReleaseSpecs>(app); }

}  // namespace grader::cli
