// `grader leaderboard`: a graded class's speed leaderboard, under aliases.
#include <iostream>

#include "batch/journal.hpp"
#include "cli/command.hpp"
#include "export/leaderboard.hpp"
#include "kit/errors.hpp"

namespace grader::cli {
namespace {

class Leaderboard : public Command {
 public:
  explicit Leaderboard(CLI::App& app)
      : Command(app.add_subcommand("leaderboard", "Print a graded class's speed leaderboard, under aliases")) {
    app_->add_option("out", out_, "The output folder of `grader grade`")->required();
    app_->add_flag("--names", names_, "Show the students' names instead of their aliases (for the instructor)");
  }

  int run(const Globals&) override {
    if (!std::filesystem::exists(out_ / "journal.jsonl"))
      throw kit::Error(out_.string() + " holds no journal.jsonl: give the output folder of `grader grade`");
    std::cout << leaderboard_table(leaderboard_entries(Journal(out_ / "journal.jsonl").load()), names_);
    return 0;
  }

 private:
  std::filesystem::path out_;
  bool names_ = false;
};

}  // namespace

std::unique_ptr<Command> add_leaderboard(CLI::App& app) { return std::make_unique<Leaderboard>(app); }

}  // namespace grader::cli
