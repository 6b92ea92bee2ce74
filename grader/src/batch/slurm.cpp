#include "batch/slurm.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "core/files.hpp"
#include "batch/batch.hpp"
#include "batch/graded_hash.hpp"
#include "batch/journal.hpp"
#include "batch/output_lock.hpp"
#include "batch/slurm_rounds.hpp"
#include "batch/slurm_scripts.hpp"
#include "kit/errors.hpp"
#include "term/regrade.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

// Runs sbatch with `args` and returns the job id it prints (--parsable); throws with its message.
std::string sbatch(const std::vector<std::string>& args) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw kit::Error("cannot run sbatch: no pipe");
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "sbatch not found: is Slurm installed here (apt-get install slurm-client)?\n");
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, std::size_t(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw kit::Error("sbatch refused the job: " + text);
  const std::string id = text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
  return id.substr(0, id.find(';'));  // "id;cluster" on a multi-cluster site
}

// Each task's chunk list, and for a chunk with regraded students their earlier results (and the
// earlier results whose graded_hash changed, `changed`), copied into the task's journal (marked
// kCopiedForRegrade) for the task's regrade history: its `grader grade` finds the change again.
void write_chunks(const SlurmOptions& o, const SlurmPlan& plan, const SlurmLines& done, const ResultMap& changed, const fs::path& round) {
  const std::vector<std::string>& regrade = o.batch.term.regrade;
  for (std::size_t k = 0; k < plan.chunks.size(); ++k) {
    std::string names;
    for (const std::string& n : plan.chunks[k]) names += n + "\n";
    write_file_atomically(round / ("chunk-" + std::to_string(k) + ".txt"), names);
    const fs::path task = round / ("task-" + std::to_string(k));
    for (const std::string& n : plan.chunks[k]) {
      const bool all = std::find(regrade.begin(), regrade.end(), n) != regrade.end();
      for (const LabSpec& spec : o.batch.specs)
        if (const auto it = done.find({n, spec.lab}); it != done.end() && (all || changed.count(it->first))) {
          fs::create_directories(task);
          json copy = it->second.record;
          copy[kCopiedForRegrade] = true;
          Journal(task / "journal.jsonl").append_record(copy);
        }
    }
  }
}

// Submits the round's array and its merge job (or, on a dry run, prints what it would submit).
void submit_round(const SlurmOptions& o, SlurmSubmission& s, std::ostream& out) {
  std::vector<std::string> array_cmd = {"sbatch", "--parsable"};
  if (o.hold) array_cmd.push_back("--hold");
  for (const std::string& a : o.sbatch_args) array_cmd.push_back(a);
  array_cmd.push_back((s.round / "grade-array.sh").string());
  std::vector<std::string> merge_cmd = {"sbatch", "--parsable"};
  for (const std::string& a : o.sbatch_args) merge_cmd.push_back(a);
  if (o.dry_run) {
    std::string line;
    for (const std::string& a : array_cmd) line += a + " ";
    out << "dry run, would submit:\n  " << line << "\n  sbatch --parsable --dependency=afterany:<array job> "
        << (s.round / "merge.sh").string() << "\n";
    return;
  }
  s.array_job = sbatch(array_cmd);
  merge_cmd.push_back("--dependency=afterany:" + s.array_job);
  merge_cmd.push_back((s.round / "merge.sh").string());
  s.merge_job = sbatch(merge_cmd);
  write_file_atomically(s.round / "jobs.txt", "array " + s.array_job + "\nmerge " + s.merge_job + "\n");
  out << "submitted job array " << s.array_job << " (" << s.tasks << " task(s))" << (o.hold ? ", held: scontrol release " + s.array_job : "")
      << "; merge job " << s.merge_job << " runs after it\n";
}

// The results graded from other inputs than the students' now (take_out_changed, as `grader grade`
// does), taken out of `results`: plan_slurm then puts their students in the chunks.
ResultMap changed_results(const BatchOptions& o, const SlurmLines& done, ResultMap& results, std::ostream& out) {
  const fs::path work = fs::absolute(o.out) / "slurm" / ".hashing";
  std::map<std::string, PreparedStudent> prepared;
  for (const Student& s : read_submissions(o.submissions).students)
    prepared[s.student] = prepare_student(s, o.specs, o.references, o.term.deadline, work / s.student);
  fs::remove_all(work);
  std::map<ResultKey, json> records;
  for (const auto& [key, line] : done) records[key] = line.record;
  std::map<ResultKey, std::string> reasons;
  ResultMap changed = take_out_changed(results, records, prepared, reasons);
  if (!changed.empty()) out << changed.size() << " result(s) resubmitted or with a changed spec, references or deadline: regraded\n";
  return changed;
}

}  // namespace

SlurmPlan plan_slurm(const SlurmOptions& o, const std::vector<std::string>& students, const ResultMap& done) {
  SlurmPlan plan;
  ResultMap kept = done;  // a regraded student's results do not count as done
  take_out_regraded(kept, o.batch.term.regrade, students, o.batch.specs, o.batch.submissions);
  std::vector<std::string> todo;
  for (const std::string& s : students)
    for (const LabSpec& spec : o.batch.specs)
      if (!kept.count({s, spec.lab})) {
        todo.push_back(s);
        break;
      }
  const std::size_t size = std::max<std::size_t>(1, o.chunk_size);
  for (std::size_t i = 0; i < todo.size(); i += size)
    plan.chunks.emplace_back(todo.begin() + long(i), todo.begin() + long(std::min(todo.size(), i + size)));
  // One student's worst case: every step of every lab runs to its time limit.
  double student_s = 0;
  std::size_t child_mb = 0;
  for (const LabSpec& spec : o.batch.specs) {
    student_s += spec.build_time_limit_s;
    for (const CaseSpec& c : spec.cases) student_s += c.time_limit_s;
    if (spec.speed) student_s += spec.speed->time_limit_s;
    if (spec.safety && o.batch.grading.algorithm()) student_s += spec.safety->time_limit_s * double(spec.safety->runs.size());
    // --draw: the safety runs again for the kernel and the solution, and once more for each kernel
    // whose later work-group stored otherwise than the solution's (draw/draw_lab.hpp).
    if (spec.safety && o.batch.draw)
      student_s += spec.safety->time_limit_s * double(spec.safety->runs.size()) * 2 *
                   double(1 + (spec.algorithm ? spec.algorithm->checks.size() : 1));
    child_mb = std::max(child_mb, spec.memory_limit_mb);
    if (spec.safety) child_mb = std::max(child_mb, spec.safety->memory_limit_mb);
  }
  const int cpus = std::max(1, o.cpus_per_task);
  const double task_s = student_s * double(std::min(size, todo.size())) / cpus;
  plan.minutes = int(std::ceil(task_s * 1.25 / 60)) + 5;  // a quarter more and five minutes for starting and writing
  plan.memory_mb = child_mb * std::size_t(cpus) + 512;
  return plan;
}

SlurmSubmission submit_to_slurm(const SlurmOptions& o, std::ostream& out) {
  const fs::path root = fs::absolute(o.batch.out);
  if (!o.batch.term.roster.empty()) load_roster(o.batch.term.roster);  // a bad row stops it before anything is submitted
  const OutputLock lock(root);  // while it picks the next round and writes its scripts
  const SlurmLines done = all_slurm_results(root);
  ResultMap results = results_of(done);
  // Dropping a deadline the results were graded under: stops here, as grader grade does, unless
  // --no-deadline, which the tasks get too (their journals hold the copies of regraded results).
  check_dropped_deadline(results, o.batch, read_submissions(o.batch.submissions).students, out);
  const ResultMap changed = changed_results(o.batch, done, results, out);
  const SlurmPlan plan = plan_slurm(o, student_names(o.batch.submissions), results);
  SlurmSubmission s;
  if (plan.chunks.empty()) {
    out << "every student x lab already has a result in " << root.string() << ": nothing to submit (grader merge writes the outputs)\n";
    return s;
  }
  int round = 1;
  while (fs::exists(root / "slurm" / ("round-" + std::to_string(round)))) ++round;
  s.round = root / "slurm" / ("round-" + std::to_string(round));
  s.tasks = plan.chunks.size();
  fs::create_directories(s.round);
  write_chunks(o, plan, done, changed, s.round);
  std::string setup;
  for (const std::string& line : o.setup) setup += line + "\n";
  write_array_script(o, plan, s.round, setup);
  write_merge_script(o, root, s.round, setup);
  out << plan.chunks.size() << " task(s) of at most " << o.chunk_size << " students, " << o.cpus_per_task << " CPUs, "
      << plan.memory_mb << " MB and " << plan.minutes << " minutes each; scripts in " << s.round.string() << "\n";
  submit_round(o, s, out);
  return s;
}

}  // namespace grader
