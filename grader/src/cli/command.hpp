#pragma once
// The grader's command line: one small file per subcommand (cli/*.cpp), each adding its options to
// the program's CLI::App and running when it is the subcommand given.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "batch/batch.hpp"
#include "core/options.hpp"
#include "kit/cli.hpp"
#include "kit/device.hpp"

namespace grader::cli {

// The options every subcommand shares (given before the subcommand).
struct Globals {
  std::filesystem::path specs_dir, reference_dir;
  int pocl_threads = 1;
};

class Command {
 public:
  explicit Command(CLI::App* app) : app_(app) {}
  virtual ~Command() = default;
  bool chosen() const { return bool(*app_); }
  virtual int run(const Globals& g) = 0;  // the exit status

 protected:
  CLI::App* app_;
};

// Each subcommand's maker (cli/<name>.cpp), in the order `grader --help` lists them.
std::unique_ptr<Command> add_check(CLI::App& app);
std::unique_ptr<Command> add_grade(CLI::App& app);
std::unique_ptr<Command> add_gradescope(CLI::App& app);
std::unique_ptr<Command> add_reference(CLI::App& app);
std::unique_ptr<Command> add_mutants(CLI::App& app);
std::unique_ptr<Command> add_slurm(CLI::App& app);
std::unique_ptr<Command> add_merge(CLI::App& app);
std::unique_ptr<Command> add_release_specs(CLI::App& app);
std::unique_ptr<Command> add_leaderboard(CLI::App& app);
std::unique_ptr<Command> add_bench(CLI::App& app);
std::unique_ptr<Command> add_doctor(CLI::App& app);
std::unique_ptr<Command> add_run_case(CLI::App& app);
std::unique_ptr<Command> add_build_service(CLI::App& app);

// "03,04" and "05" -> {"03", "04", "05"}: labs given as a list, with commas or not.
std::vector<std::string> split_labs(const std::vector<std::string>& items);

// A batch over `submissions` into `out` of the labs given (all when none), with the global
// --specs and --references: what grade and merge start from.
BatchOptions batch_options(const Globals& g, const std::filesystem::path& submissions, const std::filesystem::path& out,
                           const std::vector<std::string>& labs);

// The cores of this machine (at least 1): the default of every --jobs.
int machine_cores();

// This program (children run `grader run-case`).
std::filesystem::path self_exe();

// A scratch folder, removed when it goes out of scope whatever path the program leaves by.
struct Scratch {
  explicit Scratch(const std::string& what);
  ~Scratch();
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  std::filesystem::path path;
};

// -p/-d (one device) or --devices (several, each must be right) for the grading subcommands.
struct DeviceFlags {
  kit::DeviceOptions one;
  std::string list;
  void add_to(CLI::App* app);
  std::vector<kit::DeviceOptions> chosen() const;
  // The devices, each checked to exist here before any grading (a device that matches nothing is
  // the grader's setting at fault, not a student's kernel).
  std::vector<kit::DeviceOptions> checked() const;
  // The same choice as arguments for another `grader` run (a Slurm task's).
  std::vector<std::string> as_args() const;
};

// --no-races and --no-oclgrind of `grade` and `slurm`: which checks run under Oclgrind.
struct OclgrindFlags {
  bool no_races = false, no_oclgrind = false;
  double device_disagrees_share = -1;  // -1: the spec's
  void add_to(CLI::App* app);
  OclgrindChecks checks() const;
  GradingOptions options(int pocl_threads, std::vector<kit::DeviceOptions> devices) const;
  std::vector<std::string> as_args() const;  // the same flags for another `grader` run (a Slurm task's)
  // Unless --no-oclgrind: throws kit::Error saying why and how to fix it where Oclgrind does not
  // run a kernel here with the kit's plugin (tools/doctor.hpp), before anything is graded.
  void require_working() const;
};

// --run-as USER of the subcommands that grade: who their children run as when the grader runs as
// root (isolation/child_user.hpp; default nobody). Given to a grader not run as root, it is refused.
struct RunAsFlag {
  std::string user;
  void add_to(CLI::App* app);
  void apply() const;  // checks the user and sets it for this run's children
  std::vector<std::string> as_args() const;  // the same flag for another `grader` run (a Slurm task's)
};

}  // namespace grader::cli
