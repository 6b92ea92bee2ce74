// `grader check`: the students' self-check of their labs/ kernels on the visible cases.
#include <iostream>

#include "cli/command.hpp"
#include "cli/shared_builds.hpp"
#include "draw/draw_lab.hpp"
#include "export/classroom.hpp"
#include "export/reports.hpp"
#include "judge/grade.hpp"
#include "kit/paths.hpp"
#include "spec/references.hpp"

namespace grader::cli {
namespace {

class Check : public Command {
 public:
  explicit Check(CLI::App& app) : Command(app.add_subcommand("check", "Self-check your lab kernels on the visible cases")) {
    app_->add_option("labs", labs_, "Labs to check, by number or name (default: all)");
    kit::add_kit_path_option(*app_, "--dir", labs_dir_, "Folder holding the lab folders, or one lab's folder, or a folder of kernel files");
    app_->add_flag("--classroom", classroom_,
                   "Also hand the result to GitHub Classroom's autograding reporter ($GITHUB_OUTPUT: result=<base64 JSON>)");
    devices_.add_to(app_);
    app_->add_option("--draw", draw_, "Also draw what each kernel did in its first work-group (SVG and TikZ into this folder)");
    app_->add_flag("--races", races_, "Also run the memory-safety checks under Oclgrind (races, barriers, bounds)");
    run_as_.add_to(app_);
  }

  int run(const Globals& g) override {
    run_as_.apply();  // before anything runs: an unknown user is refused at once
    const auto specs = load_specs(g.specs_dir, labs_);
    const Scratch scratch("check");
    GradingOptions grading;
    grading.pocl_threads = g.pocl_threads;
    grading.visible_only = true;
    grading.estimate_speed = true;  // a student release has no solution to time a kernel against
    grading.oclgrind = races_ ? OclgrindChecks::All : OclgrindChecks::AlgorithmOnly;
    grading.devices = devices_.checked();
    bool all_pass = true;
    double points = 0, max = 0;
    std::size_t labs_passing = 0;
    std::string next;  // the first lab that does not pass yet
    std::vector<LabResult> checked;
    std::vector<std::string> not_drawn;  // with --draw: why a lab got no picture
    const SharedBuilds builds(scratch.path, specs, grading);
    for (const auto& spec : specs) {
      GradeSettings settings{self_exe(), scratch.path / spec.lab, grading};
      settings.starter_check = false;  // an untouched lab is shown what its cases compute, with their hints
      builds.share_with(settings);
      const std::filesystem::path folder = lab_folder(spec.lab);
      auto result = grade_lab(spec, load_reference(g.reference_dir, spec), folder, "you", settings);
      if (result.status == LabStatus::Missing) result.message += " (looked in " + folder.string() + " and the folders inside it)";
      if (!draw_.empty())
        if (std::string why = add_drawings(result, spec, settings, folder, draw_); !why.empty()) not_drawn.push_back(why);
      std::cout << check_report(result) << "\n";
      checked.push_back(result);
      points += result.points();
      max += result.max_points();
      const bool passes = result.points() == result.max_points();
      all_pass = all_pass && passes;
      labs_passing += passes;
      if (!passes && next.empty()) next = spec.lab;
    }
    std::cout << (all_pass ? "All visible cases pass" : "Not all visible cases pass") << ": " << format_points(points) << " / "
              << format_points(max) << " points. Hidden cases are run when your submission is graded"
              << (races_ ? ".\n" : "; so are the memory-safety checks (try: grader check --races).\n");
    if (specs.size() > 1)
      std::cout << labs_passing << " of " << specs.size() << " labs pass every visible case"
                << (next.empty() ? ".\n" : "; next: lab " + next.substr(0, 2) + " (grader check " + next.substr(0, 2) + ").\n");
    if (!draw_.empty()) {
      std::cout << "Drawings (" << draw_.string() << "): " << specs.size() - not_drawn.size() << " of " << specs.size() << " lab(s) drawn"
                << (not_drawn.empty() ? ".\n" : "; not drawn:\n");
      for (const std::string& why : not_drawn) std::cout << "  " << why << "\n";
    }
    if (classroom_) std::cout << write_classroom_output(classroom_result(checked));
    return all_pass ? 0 : 1;
  }

 private:
  // Where a lab's kernel is looked for: the lab's folder in --dir (labs/03-array-mult-reduce/), or,
  // where --dir has no such folder, --dir itself (one lab's folder, or a flat folder of kernel files).
  std::filesystem::path lab_folder(const std::string& lab) const {
    return std::filesystem::is_directory(labs_dir_ / lab) ? labs_dir_ / lab : labs_dir_;
  }

  RunAsFlag run_as_;
  std::vector<std::string> labs_;
  std::filesystem::path labs_dir_ = kit::root() / "labs", draw_;
  bool races_ = false, classroom_ = false;
  DeviceFlags devices_;
};

}  // namespace

std::unique_ptr<Command> add_check(CLI::App& app) { return std::make_unique<Check>(app); }

}  // namespace grader::cli
