// `grader mutants`: measures the grader by grading mutants of each lab's solution kernel.
#include <iostream>

#include "cli/command.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "tools/mutants.hpp"
#include "tools/variants.hpp"

namespace grader::cli {
namespace {

class Mutants : public Command {
 public:
  explicit Mutants(CLI::App& app)
      : Command(app.add_subcommand("mutants", "Measure the grader: grade mutants of each lab's solution kernel")) {
    app_->add_option("labs", labs_, "Labs, by number or name (default: all)");
    kit::add_kit_path_option(*app_, "--out", out_, "Output folder: mutants.json and one folder per lab");
    app_->add_option("--jobs", jobs_, "Mutants graded at once")->capture_default_str()->check(CLI::PositiveNumber);
    app_->add_option("--max-per-lab", max_per_lab_, "At most this many mutants per lab, evenly spread (default: all)");
    app_->add_option("--operator", operator_, "Only mutants of this operator (relational, arithmetic, off-by-one, barrier, fence, "
                                              "atomic, swap-id, constant, uncoalesced)")
        ->check(CLI::IsMember({"relational", "arithmetic", "off-by-one", "barrier", "fence", "atomic", "swap-id", "constant", "uncoalesced"}));
    app_->add_flag("--no-races", no_races_, "Skip the memory-safety checks under Oclgrind (the algorithm checks still run)");
    app_->add_flag("--metamorphic", metamorphic_,
                   "Also grade each mutant and the control renamed, re-laid and rewritten with the same meaning; exit 1 when any "
                   "line differs");
    app_->add_option("--variants", variants_, "With --metamorphic: only these variants, comma-separated (default: all)")
        ->delimiter(',')
        ->check(CLI::IsMember(variant_names()));
    run_as_.add_to(app_);
  }

  int run(const Globals& g) override {
    run_as_.apply();  // before anything runs: an unknown user is refused at once
    MutantsOptions o;
    o.out = out_;
    o.references = g.reference_dir;
    o.solutions = kit::root() / "solutions";
    o.equivalents = kit::root() / "grader" / "mutants";
    o.specs = load_specs(g.specs_dir, split_labs(labs_));
    o.grading.pocl_threads = g.pocl_threads;
    o.grading.oclgrind = no_races_ ? OclgrindChecks::AlgorithmOnly : OclgrindChecks::All;
    o.jobs = jobs_;
    o.max_per_lab = max_per_lab_;
    o.only_operator = operator_;
    o.metamorphic = metamorphic_;
    o.variants = variants_;
    if (!variants_.empty() && !metamorphic_) throw kit::Error("--variants chooses among the variants of --metamorphic: give both");
    const std::size_t differences = run_mutants(o, std::cout);
    return differences == 0 ? 0 : 1;
  }

 private:
  RunAsFlag run_as_;
  std::vector<std::string> labs_;
  std::filesystem::path out_ = kit::root() / "build" / "mutants";
  int jobs_ = machine_cores();
  std::size_t max_per_lab_ = 0;
  std::string operator_;
  bool no_races_ = false;
  bool metamorphic_ = false;
  std::vector<std::string> variants_;
};

}  // namespace

std::unique_ptr<Command> add_mutants(CLI::App& app) { return std::make_unique<Mutants>(app); }

}  // namespace grader::cli
