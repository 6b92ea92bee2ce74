// `grader merge`: a Slurm run's task journals merged, and the class's gradebook and reports written.
#include <iostream>

#include "batch/slurm.hpp"
#include "cli/command.hpp"

namespace grader::cli {
namespace {

class Merge : public Command {
 public:
  explicit Merge(CLI::App& app)
      : Command(app.add_subcommand("merge", "Merge a Slurm run's task journals and write the class's gradebook and reports")) {
    app_->add_option("--submissions", submissions_, "The submissions folder graded")->required();
    app_->add_option("--out", out_, "The output folder of `grader slurm`")->required();
    app_->add_option("--labs", labs_, "Labs graded (default: all)");
    app_->add_option("--roster", roster_, "Course roster CSV (submission, name, student id, email): also writes OUT/lms-import.csv");
  }

  int run(const Globals& g) override {
    BatchOptions o = batch_options(g, submissions_, out_, labs_);
    o.term.roster = roster_;
    merge_slurm_journals(o, std::cout);
    return 0;
  }

 private:
  std::filesystem::path submissions_, out_, roster_;
  std::vector<std::string> labs_;
};

}  // namespace

std::unique_ptr<Command> add_merge(CLI::App& app) { return std::make_unique<Merge>(app); }

}  // namespace grader::cli
