// `grader grade`: a whole class, every student's submission, every lab; resumable.
#include <iostream>
#include <sstream>

#include "batch/batch.hpp"
#include "cli/command.hpp"
#include "core/files.hpp"
#include "export/gradebook.hpp"
#include "kit/errors.hpp"

namespace grader::cli {
namespace {

class Grade : public Command {
 public:
  explicit Grade(CLI::App& app) : Command(app.add_subcommand("grade", "Grade a class: every student's submission, every lab")) {
    app_->add_option("--submissions", submissions_, "Folder with one folder or archive per student")->required();
    app_->add_option("--out", out_, "Output folder (rerun with the same folder to resume)")->required();
    app_->add_option("--jobs", jobs_, "Kernels graded at once (default: this machine's cores)")->capture_default_str()->check(CLI::PositiveNumber);
    app_->add_option("--students", students_, "Grade only these students, e.g. ann,ben (default: all)")->delimiter(',');
    app_->add_option("--regrade", regrade_, "Grade these students again, e.g. ann,ben (earlier results stay in the journal)")->delimiter(',');
    app_->add_option("--reason", reason_, "Why they are regraded (shown in their reports)");
    CLI::Option* deadline = app_->add_option("--deadline", deadline_, "Late work loses the spec's late_penalty_per_day per day, e.g. 2026-12-01T23:59 (UTC)");
    app_->add_flag("--no-deadline", no_deadline_,
                   "No deadline, also where the journal's results were graded late under one: they lose their lateness (without this flag, such a run stops and names them)")
        ->excludes(deadline);
    app_->add_option("--roster", roster_, "Course roster CSV (submission, name, student id, email): also writes OUT/lms-import.csv");
    app_->add_option("--students-file", students_file_, "Grade only the students named in this file, one per line");
    app_->add_option("--labs", labs_, "Labs to grade, e.g. 03,04 (default: all)");
    app_->add_flag("--draw", draw_, "Also draw what each graded kernel did in its first work-group, beside each report");
    devices_.add_to(app_);
    oclgrind_.add_to(app_);
    run_as_.add_to(app_);
  }

  int run(const Globals& g) override {
    run_as_.apply();  // before anything runs: an unknown user is refused at once
    oclgrind_.require_working();
    BatchOptions o = batch_options(g, submissions_, out_, labs_);
    o.grading = oclgrind_.options(g.pocl_threads, devices_.checked());
    o.jobs = jobs_;
    o.draw = draw_;
    o.only_students = students_;
    if (!students_file_.empty()) {
      std::istringstream lines(read_file(students_file_));
      for (std::string line; std::getline(lines, line);)
        if (!line.empty()) o.only_students.push_back(line);
      if (o.only_students.empty()) throw kit::Error(students_file_.string() + " names no student");
    }
    o.term.roster = roster_;
    o.term.regrade = regrade_;
    o.term.reason = reason_;
    if (!deadline_.empty()) o.term.deadline = parse_deadline(deadline_);
    o.term.no_deadline = no_deadline_;
    grade_class(o, std::cout);
    std::cout << "\nGradebook (" << (out_ / "gradebook.csv").string() << "):\n" << read_file(out_ / "gradebook.csv");
    std::cout << device_disagrees_summary(read_file(out_ / "gradebook-status.csv"));
    return 0;
  }

 private:
  RunAsFlag run_as_;
  std::filesystem::path submissions_, out_, students_file_, roster_;
  std::vector<std::string> labs_, students_, regrade_;
  std::string reason_, deadline_;
  int jobs_ = machine_cores();
  bool draw_ = false, no_deadline_ = false;
  OclgrindFlags oclgrind_;
  DeviceFlags devices_;
};

}  // namespace

std::unique_ptr<Command> add_grade(CLI::App& app) { return std::make_unique<Grade>(app); }

}  // namespace grader::cli
