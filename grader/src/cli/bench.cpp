// `grader bench`: how fast a class is graded, against the earlier way, measured in one run.
#include <cstdlib>
#include <iostream>
#include <string>

#include "cli/command.hpp"
#include "isolation/child_folder.hpp"
#include "judge/oclgrind_records.hpp"
#include "kit/paths.hpp"
#include "tools/class_bench.hpp"

namespace grader::cli {
namespace {

class Bench : public Command {
 public:
  explicit Bench(CLI::App& app)
      : Command(app.add_subcommand("bench", "Measure how fast a class is graded, against the earlier way, in one run")) {
    o_.work = kit::root() / "build" / "grader-bench";
    o_.jobs = machine_cores();
    app_->add_option("labs", labs_, "Labs, by number or name (default: all)");
    app_->add_option("--students", o_.students, "Students in the made-up class")->capture_default_str();
    app_->add_option("--sample-every", o_.sample_every, "The earlier way grades every n-th student (0: not at all)")->capture_default_str();
    app_->add_option("--jobs", o_.jobs, "Kernels graded at once")->capture_default_str()->check(CLI::PositiveNumber);
    kit::add_kit_path_option(*app_, "--work", o_.work, "Scratch folder for the class and its outputs");
    app_->add_flag("--no-own-helpers", no_own_helpers_,
                   "Leave out each file's own unused helper function: the right kernels and starters repeat, and their results are reused");
    oclgrind_.add_to(app_);  // --no-oclgrind: one student's feedback on a GPU node, with --students 1 --all-right -p nvidia
    app_->add_flag("--all-right", o_.all_right, "Every student hands in the solution, with their own comment");
    app_->add_option("--against", o_.against,
                     "An earlier run's journal of the same class (its --work's now/journal.jsonl): the student-labs whose cases all "
                     "finished there must get the same verdicts")
        ->check(CLI::ExistingFile);
    devices_.add_to(app_);
    run_as_.add_to(app_);
  }

  int run(const Globals& g) override {
    run_as_.apply();  // before anything runs: an unknown user is refused at once
    o_.references = g.reference_dir;
    o_.solutions = kit::root() / "solutions";
    o_.starters = kit::root() / "labs";
    o_.specs = load_specs(g.specs_dir, split_labs(labs_));
    o_.unique_files = !no_own_helpers_;
    oclgrind_.require_working();
    // The class graded on a GPU node's GPU: -p nvidia.
    o_.grading = oclgrind_.options(o_.grading.pocl_threads, devices_.checked());
    // A bench times grading from scratch: steps read from records, or programs PoCL compiled in an
    // earlier run, would not be timed. Left out for this run and its children, and said so.
    std::string left_out;
    for (const char* kept : {kOclgrindRecordsVariable, kPoclCacheVariable})
      if (const char* set = std::getenv(kept); set && *set) left_out += std::string(left_out.empty() ? "" : " and ") + kept, unsetenv(kept);
    if (!left_out.empty()) std::cout << "bench: " << left_out << " left out: every step is run and every program compiled, as timed\n";
    run_class_bench(o_, std::cout);
    return 0;
  }

 private:
  RunAsFlag run_as_;
  DeviceFlags devices_;
  ClassBenchOptions o_;
  std::vector<std::string> labs_;
  OclgrindFlags oclgrind_;
  bool no_own_helpers_ = false;
};

}  // namespace

std::unique_ptr<Command> add_bench(CLI::App& app) { return std::make_unique<Bench>(app); }

}  // namespace grader::cli
