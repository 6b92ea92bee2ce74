// The kit's grader: students self-check their labs, instructors grade a class or run it as a
// Gradescope autograder, and maintainers regenerate the stored reference outputs. Each subcommand
// lives in src/cli/<name>.cpp.
#include "cli/command.hpp"
#include "kit/baseline.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"

int main(int argc, char** argv) {
  // The grader's own OpenMP regions (a case's data made again to check its outputs) are short, and
  // its children compile and run kernels on the same cores meanwhile: with OpenMP's default wait
  // policy the idle threads spun after each region, on a machine running other work 8 % of all the
  // CPU time of grading lab 04 with --jobs 1 (perf, 2 cores; nothing measurable on a quiet one).
  // Passive, they sleep; the children inherit the setting.
  kit::prefer_passive_openmp(argv);
  return kit::guarded_main([&] {
    using namespace grader::cli;
    CLI::App app{"OpenCL Reduction Lab Kit grader"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "OpenCL Reduction Lab Kit " + kit::version());
    Globals g{kit::root() / "grader" / "specs", kit::root() / "grader" / "reference", 1};
    kit::add_kit_path_option(app, "--specs", g.specs_dir, "Folder of grading specs");
    kit::add_kit_path_option(app, "--references", g.reference_dir, "Folder of stored reference outputs");
    app.add_option("--pocl-threads", g.pocl_threads, "PoCL threads per graded case")->capture_default_str()->check(CLI::PositiveNumber);

    std::vector<std::unique_ptr<Command>> commands;
    for (auto add : {add_check, add_grade, add_gradescope, add_reference, add_mutants, add_slurm, add_merge, add_release_specs,
                     add_leaderboard, add_bench, add_doctor, add_run_case, add_build_service})
      commands.push_back(add(app));

    if (const int status = kit::parse_args(app, argc, argv); status >= 0) return status;
    for (const auto& c : commands)
      if (c->chosen()) return c->run(g);
    return 2;  // require_subcommand(1) lets no run get here
  });
}
