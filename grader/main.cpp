// The kit's grader: students self-check their labs, instructors grade a class or run it as a
// Gradescope autograder, and maintainers regenerate the stored reference outputs.
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <thread>

#include "batch.hpp"
#include "build_service_process.hpp"
#include "case_child.hpp"
#include "class_bench.hpp"
#include "classroom.hpp"
#include "devices.hpp"
#include "journal.hpp"
#include "leaderboard.hpp"
#include "release.hpp"
#include "slurm.hpp"
#include "files.hpp"
#include "grade.hpp"
#include "kit/build_service.hpp"
#include "kit/cli.hpp"
#include "kit/device.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "mutants.hpp"
#include "references.hpp"
#include "reports.hpp"

namespace {

std::vector<std::string> split_labs(const std::vector<std::string>& items) {
  std::vector<std::string> labs;
  for (const std::string& item : items) {
    std::stringstream parts(item);
    for (std::string lab; std::getline(parts, lab, ',');)
      if (!lab.empty()) labs.push_back(lab);
  }
  return labs;
}

// Removes a scratch folder when it goes out of scope, whatever path the program leaves by.
struct Scratch {
  std::filesystem::path path;
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

std::filesystem::path scratch_dir(const std::string& what) {
  std::string pattern = (std::filesystem::temp_directory_path() / ("kit-grader-" + what + "-XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw kit::Error("cannot create a scratch folder in " + std::filesystem::temp_directory_path().string());
  return pattern;
}

// -p/-d (one device) or --devices (several, each must be right) for the grading subcommands.
struct DeviceFlags {
  kit::DeviceOptions one;
  std::string list;
  std::vector<kit::DeviceOptions> chosen() const {
    if (!list.empty()) {
      if (!one.platform.empty() || !one.device.empty()) throw kit::Error("give either -p/-d or --devices, not both");
      return grader::parse_devices(list);
    }
    if (one.platform.empty() && one.device.empty()) return {};
    return {one};
  }
  // The devices, each checked to exist here before any grading (a device that matches nothing is
  // the grader's setting at fault, not a student's kernel).
  std::vector<kit::DeviceOptions> checked() const {
    const std::vector<kit::DeviceOptions> devices = chosen();
    for (const kit::DeviceOptions& d : devices) kit::choose_device(kit::describe_machine(), d);
    return devices;
  }
};

void add_device_flags(CLI::App* app, DeviceFlags& flags) {
  app->add_option("-p,--platform", flags.one.platform, "Grade on this platform: index or name substring (default: PoCL)");
  app->add_option("-d,--device", flags.one.device, "Grade on this device of the platform: index or name substring");
  app->add_option("--devices", flags.list, "Grade on several devices, right on each: PLATFORM[:DEVICE],... e.g. pocl,nvidia");
}

}  // namespace

int main(int argc, char** argv) {
  return kit::guarded_main([&] {
    CLI::App app{"OpenCL Reduction Lab Kit grader"};
    app.require_subcommand(1);
    std::filesystem::path specs_dir = kit::root() / "grader" / "specs";
    std::filesystem::path reference_dir = kit::root() / "grader" / "reference";
    int pocl_threads = 1;
    app.add_option("--specs", specs_dir, "Folder of grading specs")->capture_default_str();
    app.add_option("--references", reference_dir, "Folder of stored reference outputs")->capture_default_str();
    app.add_option("--pocl-threads", pocl_threads, "PoCL threads per graded case")->capture_default_str()->check(CLI::PositiveNumber);

    auto* check = app.add_subcommand("check", "Self-check your lab kernels on the visible cases");
    std::vector<std::string> check_labs;
    std::filesystem::path labs_dir = kit::root() / "labs";
    check->add_option("labs", check_labs, "Labs to check, by number or name (default: all)");
    check->add_option("--dir", labs_dir, "Folder holding the lab folders")->capture_default_str();
    bool check_races = false;
    bool check_classroom = false;
    check->add_flag("--classroom", check_classroom,
                    "Also hand the result to GitHub Classroom's autograding reporter ($GITHUB_OUTPUT: result=<base64 JSON>)");
    DeviceFlags check_devices, grade_devices, gs_devices;
    add_device_flags(check, check_devices);
    check->add_flag("--races", check_races, "Also run the memory-safety checks under Oclgrind (races, barriers, bounds)");

    auto* grade = app.add_subcommand("grade", "Grade a class: every student's submission, every lab");
    std::filesystem::path submissions, out;
    std::vector<std::string> grade_labs;
    int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::string> grade_students;
    grade->add_option("--submissions", submissions, "Folder with one folder or archive per student")->required();
    grade->add_option("--out", out, "Output folder (rerun with the same folder to resume)")->required();
    grade->add_option("--jobs", jobs, "Kernels graded at once (default: this machine's cores)")->capture_default_str()->check(CLI::PositiveNumber);
    grade->add_option("--students", grade_students, "Grade only these students, e.g. ann,ben (default: all)")->delimiter(',');
    std::filesystem::path students_file, roster_file;
    std::vector<std::string> regrade_names;
    std::string regrade_reason, deadline_text;
    grade->add_option("--regrade", regrade_names, "Grade these students again, e.g. ann,ben (earlier results stay in the journal)")
        ->delimiter(',');
    grade->add_option("--reason", regrade_reason, "Why they are regraded (shown in their reports)");
    grade->add_option("--deadline", deadline_text, "Late work loses the spec's late_penalty_per_day per day, e.g. 2026-12-01T23:59 (UTC)");
    grade->add_option("--roster", roster_file, "Course roster CSV (submission, name, student id, email): also writes OUT/lms-import.csv");
    grade->add_option("--students-file", students_file, "Grade only the students named in this file, one per line");
    grade->add_option("--labs", grade_labs, "Labs to grade, e.g. 03,04 (default: all)");
    add_device_flags(grade, grade_devices);
    bool no_oclgrind = false;
    grade->add_flag("--no-oclgrind", no_oclgrind,
                    "Leave out every check that runs under Oclgrind (memory safety and algorithm): they do not depend on "
                    "the device, so a machine without Oclgrind (a GPU node) can grade the rest");
    bool no_races = false;
    grade->add_flag("--no-races", no_races, "Skip the memory-safety checks under Oclgrind");

    auto* gradescope = app.add_subcommand("gradescope", "Gradescope autograder entry: grade one submission");
    std::filesystem::path gs_submission = "/autograder/submission", gs_results = "/autograder/results/results.json";
    std::vector<std::string> gs_labs;
    gradescope->add_option("--submission", gs_submission, "The submission folder")->capture_default_str();
    gradescope->add_option("--results", gs_results, "Where results.json goes")->capture_default_str();
    gradescope->add_option("--labs", gs_labs, "Labs to grade (default: all)");
    std::filesystem::path gs_metadata = "/autograder/submission_metadata.json";
    gradescope->add_option("--metadata", gs_metadata, "Gradescope's submission metadata (earlier scores; ignored when absent)")
        ->capture_default_str();
    add_device_flags(gradescope, gs_devices);

    auto* reference = app.add_subcommand("reference", "Run solutions/ on PoCL and store the reference outputs");
    std::vector<std::string> ref_labs;
    reference->add_option("--labs", ref_labs, "Labs to regenerate (default: all)");

    auto* mutants = app.add_subcommand("mutants", "Measure the grader: grade mutants of each lab's solution kernel");
    std::vector<std::string> mutant_labs;
    std::filesystem::path mutants_out = kit::root() / "build" / "mutants";
    int mutant_jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::size_t max_per_lab = 0;
    bool mutants_no_races = false;
    mutants->add_option("labs", mutant_labs, "Labs, by number or name (default: all)");
    mutants->add_option("--out", mutants_out, "Output folder: mutants.json and one folder per lab")->capture_default_str();
    mutants->add_option("--jobs", mutant_jobs, "Mutants graded at once")->capture_default_str()->check(CLI::PositiveNumber);
    mutants->add_option("--max-per-lab", max_per_lab, "At most this many mutants per lab, evenly spread (default: all)");
    mutants->add_flag("--no-races", mutants_no_races, "Skip the memory-safety checks under Oclgrind (the algorithm checks still run)");

    auto* slurm = app.add_subcommand("slurm", "Grade a class as a Slurm job array (again: only what is missing)");
    grader::SlurmOptions slurm_o;
    std::filesystem::path slurm_submissions, slurm_out;
    std::vector<std::string> slurm_labs;
    bool slurm_no_races = false, slurm_no_oclgrind = false;
    DeviceFlags slurm_devices;
    slurm->add_option("--submissions", slurm_submissions, "Folder with one folder or archive per student (shared filesystem)")->required();
    slurm->add_option("--out", slurm_out, "Output folder on a shared filesystem (again with the same folder: only what is missing)")->required();
    slurm->add_option("--labs", slurm_labs, "Labs to grade, e.g. 03,04 (default: all)");
    slurm->add_flag("--no-races", slurm_no_races, "Skip the memory-safety checks under Oclgrind");
    slurm->add_flag("--no-oclgrind", slurm_no_oclgrind, "Leave out every check that runs under Oclgrind (nodes without it)");
    add_device_flags(slurm, slurm_devices);
    slurm->add_option("--chunk-size", slurm_o.chunk_size, "Students per array task")->capture_default_str()->check(CLI::PositiveNumber);
    slurm->add_option("--cpus-per-task", slurm_o.cpus_per_task, "CPUs of each task (its --jobs)")->capture_default_str()->check(CLI::PositiveNumber);
    slurm->add_option("--partition", slurm_o.partition, "Slurm partition (e.g. gpu)");
    slurm->add_option("--account", slurm_o.account, "Slurm account to charge");
    slurm->add_option("--gres", slurm_o.gres, "Generic resources per task, e.g. gpu:1 when grading with -p nvidia");
    slurm->add_option("--setup", slurm_o.setup, "A shell line each job runs first, e.g. 'module load pocl' (repeatable)");
    slurm->add_option("--sbatch-arg", slurm_o.sbatch_args, "One more argument for sbatch, e.g. --qos=short (repeatable)");
    slurm->add_flag("--hold", slurm_o.hold, "Submit the array held (scontrol release JOB starts it)");
    slurm->add_flag("--dry-run", slurm_o.dry_run, "Write the scripts and print the sbatch commands, submit nothing");

    auto* merge = app.add_subcommand("merge", "Merge a Slurm run's task journals and write the class's gradebook and reports");
    std::filesystem::path merge_submissions, merge_out;
    std::vector<std::string> merge_labs;
    merge->add_option("--submissions", merge_submissions, "The submissions folder graded")->required();
    merge->add_option("--out", merge_out, "The output folder of `grader slurm`")->required();
    merge->add_option("--labs", merge_labs, "Labs graded (default: all)");

    auto* release = app.add_subcommand("release-specs", "(make student-release) the specs and references of the visible cases");
    std::filesystem::path release_dest;
    release->add_option("--dest", release_dest, "The student release's folder")->required();

    auto* board = app.add_subcommand("leaderboard", "Print a graded class's speed leaderboard, under aliases");
    std::filesystem::path board_out;
    bool board_names = false;
    board->add_option("out", board_out, "The output folder of `grader grade`")->required();
    board->add_flag("--names", board_names, "Show the students' names instead of their aliases (for the instructor)");

    auto* bench = app.add_subcommand("bench", "Measure how fast a class is graded, against the earlier way, in one run");
    grader::ClassBenchOptions bench_o;
    std::vector<std::string> bench_labs;
    bench_o.work = kit::root() / "build" / "grader-bench";
    bench_o.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    bench->add_option("labs", bench_labs, "Labs, by number or name (default: all)");
    bench->add_option("--students", bench_o.students, "Students in the made-up class")->capture_default_str();
    bench->add_option("--sample-every", bench_o.sample_every, "The earlier way grades every n-th student")->capture_default_str();
    bench->add_option("--jobs", bench_o.jobs, "Kernels graded at once")->capture_default_str()->check(CLI::PositiveNumber);
    bench->add_option("--work", bench_o.work, "Scratch folder for the class and its outputs")->capture_default_str();
    bool bench_no_races = false;
    bench->add_flag("--no-races", bench_no_races, "Skip the memory-safety checks under Oclgrind");

    auto* run_case = app.add_subcommand("run-case", "(internal) one isolated build or case");
    run_case->group("");  // hidden from --help
    grader::ChildTask task;
    run_case->add_option("--lab", task.lab)->required();
    run_case->add_option("--kernel", task.kernel)->required();
    run_case->add_option("--shown-as", task.shown_as)->required();
    run_case->add_option("--case", task.case_json);
    run_case->add_option("--cases", task.cases_file);
    run_case->add_option("--result", task.result);
    run_case->add_option("--result-dir", task.result_dir);
    run_case->add_option("--baseline", task.baseline);
    run_case->add_option("--pairs", task.pairs);
    run_case->add_option("--platform", task.device.platform);
    run_case->add_option("--device", task.device.device);

    auto* service = app.add_subcommand("build-service", "(internal) a batch worker's build service");
    service->group("");  // hidden from --help
    std::string service_socket;
    unsigned service_limit = 60;
    service->add_option("--socket", service_socket)->required();
    service->add_option("--build-limit", service_limit);

    if (const int status = kit::parse_args(app, argc, argv); status >= 0) return status;

    if (*service) {
      const kit::Runtime rt = kit::Runtime::open({});  // the children's device: the service runs only without --devices
      if (!kit::is_pocl(rt.platform.getInfo<CL_PLATFORM_NAME>())) return grader::kNothingToServe;
      kit::serve_builds(service_socket, rt.context, rt.device, service_limit);
    }

    if (*run_case) return grader::run_case_child(task);

    if (*reference) {
      const auto specs = grader::load_specs(specs_dir, split_labs(ref_labs));
      const kit::Runtime rt = kit::Runtime::open({});
      std::cout << "Reference device: " << rt.summary() << "\n";
      grader::make_references(reference_dir, specs, kit::root() / "solutions", rt, std::cout);
      std::cout << "References written to " << reference_dir.string() << "\n";
      return 0;
    }

    if (*grade) {
      grader::BatchOptions o{submissions, out, reference_dir, grader::load_specs(specs_dir, split_labs(grade_labs)), jobs,
                             pocl_threads, !no_races};
      o.only_students = grade_students;
      if (!students_file.empty()) {
        std::istringstream lines(grader::read_file(students_file));
        for (std::string line; std::getline(lines, line);)
          if (!line.empty()) o.only_students.push_back(line);
        if (o.only_students.empty()) throw kit::Error(students_file.string() + " names no student");
      }
      o.devices = grade_devices.checked();
      o.oclgrind = !no_oclgrind;
      o.roster = roster_file;
      o.regrade = regrade_names;
      o.reason = regrade_reason;
      if (!deadline_text.empty()) o.deadline = grader::parse_deadline(deadline_text);
      grader::grade_class(o, std::cout);
      std::cout << "\nGradebook (" << (out / "gradebook.csv").string() << "):\n" << grader::read_file(out / "gradebook.csv");
      return 0;
    }

    if (*mutants) {
      grader::MutantsOptions o{mutants_out, reference_dir, kit::root() / "solutions", kit::root() / "grader" / "mutants",
                               grader::load_specs(specs_dir, split_labs(mutant_labs)), mutant_jobs, pocl_threads,
                               !mutants_no_races, max_per_lab};
      grader::run_mutants(o, std::cout);
      return 0;
    }

    if (*slurm) {
      slurm_o.batch.submissions = slurm_submissions;
      slurm_o.batch.out = slurm_out;
      slurm_o.batch.specs = grader::load_specs(specs_dir, split_labs(slurm_labs));
      slurm_o.batch.oclgrind = !slurm_no_oclgrind;
      slurm_o.grader_exe = std::filesystem::read_symlink("/proc/self/exe");
      slurm_devices.chosen();  // the form of --devices; whether they exist is the compute nodes' business
      if (!slurm_labs.empty()) {
        std::string labs;
        for (const std::string& l : split_labs(slurm_labs)) labs += (labs.empty() ? "" : ",") + l;
        slurm_o.grade_args = {"--labs", labs};
        slurm_o.merge_args = {"--labs", labs};
      }
      if (slurm_no_races) slurm_o.grade_args.push_back("--no-races");
      if (slurm_no_oclgrind) slurm_o.grade_args.push_back("--no-oclgrind");
      if (!slurm_devices.list.empty()) slurm_o.grade_args.insert(slurm_o.grade_args.end(), {"--devices", slurm_devices.list});
      if (!slurm_devices.one.platform.empty()) slurm_o.grade_args.insert(slurm_o.grade_args.end(), {"-p", slurm_devices.one.platform});
      if (!slurm_devices.one.device.empty()) slurm_o.grade_args.insert(slurm_o.grade_args.end(), {"-d", slurm_devices.one.device});
      grader::submit_to_slurm(slurm_o, std::cout);
      return 0;
    }

    if (*merge) {
      grader::BatchOptions o{merge_submissions, merge_out, reference_dir, grader::load_specs(specs_dir, split_labs(merge_labs))};
      grader::merge_slurm_journals(o, std::cout);
      return 0;
    }

    if (*release) {
      grader::write_release_specs(specs_dir, reference_dir, release_dest, std::cout);
      return 0;
    }

    if (*board) {
      if (!std::filesystem::exists(board_out / "journal.jsonl"))
        throw kit::Error(board_out.string() + " holds no journal.jsonl: give the output folder of `grader grade`");
      std::cout << grader::leaderboard_table(grader::leaderboard_entries(grader::Journal(board_out / "journal.jsonl").load()), board_names);
      return 0;
    }

    if (*bench) {
      bench_o.references = reference_dir;
      bench_o.solutions = kit::root() / "solutions";
      bench_o.starters = kit::root() / "labs";
      bench_o.specs = grader::load_specs(specs_dir, split_labs(bench_labs));
      bench_o.safety = !bench_no_races;
      grader::run_class_bench(bench_o, std::cout);
      return 0;
    }

    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe");
    if (*gradescope) {
      const auto specs = grader::load_specs(specs_dir, split_labs(gs_labs));
      const Scratch scratch{scratch_dir("gradescope")};
      const std::filesystem::path& work = scratch.path;
      std::vector<grader::LabResult> results;
      for (const auto& spec : specs) {
        grader::GradeSettings settings{exe, work / spec.lab, pocl_threads, false, true};
        settings.devices = gs_devices.checked();
        results.push_back(grader::grade_lab(spec, grader::load_reference(reference_dir, spec), gs_submission, "submission", settings));
        std::cout << grader::check_report(results.back());
      }
      grader::json metadata;
      if (std::filesystem::exists(gs_metadata)) {
        try {
          metadata = grader::json::parse(grader::read_file(gs_metadata));
        } catch (const grader::json::parse_error& e) {
          std::cout << "note: " << gs_metadata.string() << " is not JSON (" << e.what() << "); earlier scores not shown\n";
        }
      }
      grader::write_file_atomically(gs_results, grader::dump_json(grader::gradescope_results(results, metadata), 2) + "\n");
      std::cout << "Results written to " << gs_results.string() << "\n";
      return 0;
    }

    // check: the students' self-check on labs/, visible cases only.
    const auto specs = grader::load_specs(specs_dir, check_labs);
    const Scratch scratch{scratch_dir("check")};
    const std::filesystem::path& work = scratch.path;
    bool all_pass = true;
    double points = 0, max = 0;
    std::vector<grader::LabResult> checked;
    for (const auto& spec : specs) {
      grader::GradeSettings settings{exe, work / spec.lab, pocl_threads, true, check_races};
      settings.devices = check_devices.checked();
      const auto result = grader::grade_lab(spec, grader::load_reference(reference_dir, spec), labs_dir / spec.lab, "you", settings);
      std::cout << grader::check_report(result) << "\n";
      checked.push_back(result);
      points += result.points();
      max += result.max_points();
      all_pass = all_pass && result.points() == result.max_points();
    }
    std::cout << (all_pass ? "All visible cases pass" : "Not all visible cases pass") << ": "
              << grader::format_points(points) << " / " << grader::format_points(max)
              << " points. Hidden cases are run when your submission is graded"
              << (check_races ? ".\n" : "; so are the memory-safety checks (try: grader check --races).\n");
    if (check_classroom) std::cout << grader::write_classroom_output(grader::classroom_result(checked));
    return all_pass ? 0 : 1;
  });
}
