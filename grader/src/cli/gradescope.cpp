// `grader gradescope`: the Gradescope autograder's entry, grading the one submission it is given.
#include <iostream>

#include "cli/command.hpp"
#include "cli/shared_builds.hpp"
#include "draw/draw_lab.hpp"
#include "core/files.hpp"
#include "export/reports.hpp"
#include "judge/grade.hpp"
#include "spec/references.hpp"

namespace grader::cli {
namespace {

class Gradescope : public Command {
 public:
  explicit Gradescope(CLI::App& app)
      : Command(app.add_subcommand("gradescope", "Gradescope autograder entry: grade one submission")) {
    app_->add_option("--submission", submission_, "The submission folder")->capture_default_str();
    app_->add_option("--results", results_, "Where results.json goes")->capture_default_str();
    app_->add_option("--labs", labs_, "Labs to grade (default: all)");
    app_->add_option("--metadata", metadata_, "Gradescope's submission metadata (earlier scores; ignored when absent)")->capture_default_str();
    app_->add_option("--draw", draw_, "Also draw what each kernel did in its first work-group (SVG and TikZ into this folder)");
    devices_.add_to(app_);
    run_as_.add_to(app_);
  }

  int run(const Globals& g) override {
    run_as_.apply();  // before anything runs: an unknown user is refused at once
    // Fail closed: every case is looked at under Oclgrind; an autograder image where it does not
    // run fails loudly (the instructor's test submission shows it) instead of grading without it.
    OclgrindFlags{}.require_working();
    const auto specs = load_specs(g.specs_dir, split_labs(labs_));
    const Scratch scratch("gradescope");
    GradingOptions grading;
    grading.pocl_threads = g.pocl_threads;
    grading.devices = devices_.checked();
    const SharedBuilds builds(scratch.path, specs, grading);
    std::vector<LabResult> results;
    for (const auto& spec : specs) {
      GradeSettings settings{self_exe(), scratch.path / spec.lab, grading};
      builds.share_with(settings);
      results.push_back(grade_lab(spec, load_reference(g.reference_dir, spec), submission_, "submission", settings));
      if (!draw_.empty()) add_drawings(results.back(), spec, settings, submission_, draw_);
      std::cout << check_report(results.back());
    }
    json metadata;
    if (std::filesystem::exists(metadata_)) {
      try {
        metadata = json::parse(read_file(metadata_));
      } catch (const json::parse_error& e) {
        std::cout << "note: " << metadata_.string() << " is not JSON (" << e.what() << "); earlier scores not shown\n";
      }
    }
    write_file_atomically(results_, dump_json(gradescope_results(results, metadata, draw_), 2) + "\n");
    std::cout << "Results written to " << results_.string() << "\n";
    return 0;
  }

 private:
  RunAsFlag run_as_;
  std::filesystem::path submission_ = "/autograder/submission", results_ = "/autograder/results/results.json";
  std::filesystem::path metadata_ = "/autograder/submission_metadata.json", draw_;
  std::vector<std::string> labs_;
  DeviceFlags devices_;
};

}  // namespace

std::unique_ptr<Command> add_gradescope(CLI::App& app) { return std::make_unique<Gradescope>(app); }

}  // namespace grader::cli
