// `grader slurm`: a class graded as a Slurm job array; submitted again, only what is missing.
#include <iostream>

#include "batch/slurm.hpp"
#include "cli/command.hpp"

namespace grader::cli {
namespace {

class Slurm : public Command {
 public:
  explicit Slurm(CLI::App& app)
      : Command(app.add_subcommand("slurm", "Grade a class as a Slurm job array (again: only what is missing)")) {
    app_->add_option("--submissions", submissions_, "Folder with one folder or archive per student (shared filesystem)")->required();
    app_->add_option("--out", out_, "Output folder on a shared filesystem (again with the same folder: only what is missing)")->required();
    app_->add_option("--labs", labs_, "Labs to grade, e.g. 03,04 (default: all)");
    oclgrind_.add_to(app_);
    devices_.add_to(app_);
    app_->add_flag("--draw", o_.batch.draw, "Also draw what each graded kernel did in its first work-group, beside each report (as grader grade --draw)");
    app_->add_option("--chunk-size", o_.chunk_size, "Students per array task")->capture_default_str()->check(CLI::PositiveNumber);
    app_->add_option("--cpus-per-task", o_.cpus_per_task, "CPUs of each task (its --jobs)")->capture_default_str()->check(CLI::PositiveNumber);
    app_->add_option("--partition", o_.partition, "Slurm partition (e.g. gpu)");
    app_->add_option("--account", o_.account, "Slurm account to charge");
    app_->add_option("--gres", o_.gres, "Generic resources per task, e.g. gpu:1 when grading with -p nvidia");
    app_->add_option("--setup", o_.setup, "A shell line each job runs first, e.g. 'module load pocl' (repeatable)");
    app_->add_option("--sbatch-arg", o_.sbatch_args, "One more argument for sbatch, e.g. --qos=short (repeatable)");
    app_->add_flag("--hold", o_.hold, "Submit the array held (scontrol release JOB starts it)");
    app_->add_flag("--dry-run", o_.dry_run, "Write the scripts and print the sbatch commands, submit nothing");
    CLI::Option* deadline = app_->add_option("--deadline", deadline_, "Late work loses the spec's late_penalty_per_day per day, e.g. 2026-12-01T23:59 (UTC); applied by the tasks");
    app_->add_flag("--no-deadline", o_.batch.term.no_deadline,
                   "No deadline, also where earlier results were graded late under one: they lose their lateness (without this flag, "
                   "submitting stops and names them); given to the tasks")
        ->excludes(deadline);
    app_->add_option("--roster", o_.batch.term.roster, "Course roster CSV (submission, name, student id, email): the merge also writes OUT/lms-import.csv");
    app_->add_option("--regrade", o_.batch.term.regrade, "Grade these students again, e.g. ann,ben (earlier results stay in the journal)")->delimiter(',');
    app_->add_option("--reason", o_.batch.term.reason, "Why they are regraded (shown in their reports)");
    run_as_.add_to(app_);
  }

  int run(const Globals& g) override {
    run_as_.apply();  // before anything runs: an unknown user is refused at once
    oclgrind_.require_working();
    o_.batch.submissions = submissions_;
    o_.batch.out = out_;
    o_.batch.references = g.reference_dir;  // what the tasks grade with: part of each result's graded_hash
    o_.batch.specs = load_specs(g.specs_dir, split_labs(labs_));
    o_.batch.grading = oclgrind_.options(g.pocl_threads, {});
    o_.grader_exe = self_exe();
    o_.global_args = {"--specs", std::filesystem::absolute(g.specs_dir).string(), "--references",
                      std::filesystem::absolute(g.reference_dir).string(), "--pocl-threads", std::to_string(g.pocl_threads)};
    if (!deadline_.empty()) o_.batch.term.deadline = parse_deadline(deadline_);
    devices_.chosen();  // the form of --devices; whether they exist is the compute nodes' business
    if (!labs_.empty()) {
      std::string labs;
      for (const std::string& l : split_labs(labs_)) labs += (labs.empty() ? "" : ",") + l;
      o_.grade_args = {"--labs", labs};
      o_.merge_args = {"--labs", labs};
    }
    for (const std::string& a : oclgrind_.as_args()) o_.grade_args.push_back(a);
    for (const std::string& a : devices_.as_args()) o_.grade_args.push_back(a);
    for (const std::string& a : run_as_.as_args()) o_.grade_args.push_back(a);
    submit_to_slurm(o_, std::cout);
    return 0;
  }

 private:
  RunAsFlag run_as_;
  SlurmOptions o_;
  std::filesystem::path submissions_, out_;
  std::vector<std::string> labs_;
  std::string deadline_;
  OclgrindFlags oclgrind_;
  DeviceFlags devices_;
};

}  // namespace

std::unique_ptr<Command> add_slurm(CLI::App& app) { return std::make_unique<Slurm>(app); }

}  // namespace grader::cli
