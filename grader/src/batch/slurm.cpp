#include "batch/slurm.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "core/files.hpp"
#include "batch/journal.hpp"
#include "batch/output_lock.hpp"
#include "kit/errors.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

// Quoted for a shell script: '...' with every ' written as '\''.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The output folders of every round's tasks (OUT/slurm/round-R/task-K).
std::vector<fs::path> task_dirs(const fs::path& out) {
  std::vector<fs::path> dirs;
  if (fs::is_directory(out / "slurm"))
    for (const auto& round : fs::directory_iterator(out / "slurm"))
      if (round.is_directory())
        for (const auto& task : fs::directory_iterator(round.path()))
          if (task.is_directory()) dirs.push_back(task.path());
  return dirs;
}

// Every journal the rounds' tasks wrote, merged with OUT/journal.jsonl (which wins).
ResultMap all_results(const fs::path& out) {
  ResultMap results;
  for (const fs::path& task : task_dirs(out))
    if (fs::exists(task / "journal.jsonl"))
      for (auto& [key, r] : Journal(task / "journal.jsonl").load())
        if (!needs_retry(r)) results[key] = r;
  for (auto& [key, r] : Journal(out / "journal.jsonl").load())
    if (!needs_retry(r)) results[key] = r;
  return results;
}

// Why a task graded `student`'s `lab` and kept no result: the grader's error in that task's report
// (a result needs_retry keeps out of the journal), newest report first; "" when no task got that
// far (cancelled, failed, still running).
std::string grader_error(const fs::path& out, const std::string& student, const std::string& lab) {
  std::vector<fs::path> reports;
  for (const fs::path& task : task_dirs(out))
    if (fs::exists(task / student / "report.json")) reports.push_back(task / student / "report.json");
  std::sort(reports.begin(), reports.end(), [](const fs::path& a, const fs::path& b) {
    return fs::last_write_time(a) > fs::last_write_time(b);
  });
  for (const fs::path& report : reports) {
    const json j = json::parse(read_file(report), nullptr, false);
    if (!j.is_object() || !j.contains("labs") || !j["labs"].is_array()) continue;
    for (const json& l : j["labs"]) {
      LabResult r;
      try {
        r = lab_result_from_json(l);
      } catch (const std::exception&) {
        continue;  // a report this grader did not write
      }
      if (r.lab != lab || !needs_retry(r)) continue;
      const fs::path task = report.parent_path().parent_path();
      const std::string where = task.parent_path().filename().string() + "/" + task.filename().string();
      for (const CaseResult& c : r.cases)
        if (c.status == CaseStatus::Error) return where + ", case \"" + c.name + "\": " + c.message;
      return where + ": " + r.message;
    }
  }
  return "";
}

std::vector<std::string> student_names(const BatchOptions& o) {
  std::vector<std::string> skipped, names;
  for (const Student& s : list_students(o.submissions, skipped)) names.push_back(s.name);
  return names;
}

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

}  // namespace

SlurmPlan plan_slurm(const SlurmOptions& o, const std::vector<std::string>& students, const ResultMap& done) {
  SlurmPlan plan;
  std::vector<std::string> todo;
  for (const std::string& s : students)
    for (const LabSpec& spec : o.batch.specs)
      if (!done.count({s, spec.lab})) {
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
  const fs::path submissions = fs::absolute(o.batch.submissions);
  const OutputLock lock(root);  // while it picks the next round and writes its scripts
  const ResultMap done = all_results(root);
  const SlurmPlan plan = plan_slurm(o, student_names(o.batch), done);
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
  for (std::size_t k = 0; k < plan.chunks.size(); ++k) {
    std::string names;
    for (const std::string& n : plan.chunks[k]) names += n + "\n";
    write_file_atomically(s.round / ("chunk-" + std::to_string(k) + ".txt"), names);
  }
  std::string setup;
  for (const std::string& line : o.setup) setup += line + "\n";
  std::string passed, merge_passed;
  for (const std::string& a : o.grade_args) passed += " " + shell_quote(a);
  for (const std::string& a : o.merge_args) merge_passed += " " + shell_quote(a);
  const std::string grader = shell_quote(fs::absolute(o.grader_exe).string());

  std::ostringstream array;
  array << "#!/usr/bin/env bash\n"
        << "# One task of `grader slurm`: grades the students of chunk-$SLURM_ARRAY_TASK_ID.txt into its own journal.\n"
        << "#SBATCH --job-name=kit-grade\n#SBATCH --array=0-" << plan.chunks.size() - 1 << "\n"
        << "#SBATCH --cpus-per-task=" << o.cpus_per_task << "\n#SBATCH --mem=" << plan.memory_mb << "M\n"
        << "#SBATCH --time=" << plan.minutes << "\n#SBATCH --output=" << (s.round / "task-%a.log").string() << "\n";
  if (!o.partition.empty()) array << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.account.empty()) array << "#SBATCH --account=" << o.account << "\n";
  if (!o.gres.empty()) array << "#SBATCH --gres=" << o.gres << "\n";
  array << "set -euo pipefail\n" << setup << "exec " << grader << " grade --submissions " << shell_quote(submissions.string())
        << " --out " << shell_quote(s.round.string()) << "/task-$SLURM_ARRAY_TASK_ID --students-file " << shell_quote(s.round.string())
        << "/chunk-$SLURM_ARRAY_TASK_ID.txt --jobs \"${SLURM_CPUS_PER_TASK:-1}\"" << passed << "\n";
  write_file_atomically(s.round / "grade-array.sh", array.str());

  std::ostringstream merge;
  merge << "#!/usr/bin/env bash\n# After every task of the array: merge their journals and write the class's outputs.\n"
        << "#SBATCH --job-name=kit-merge\n#SBATCH --cpus-per-task=1\n#SBATCH --mem=1024M\n#SBATCH --time=15\n"
        << "#SBATCH --output=" << (s.round / "merge.log").string() << "\n";
  if (!o.partition.empty()) merge << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.account.empty()) merge << "#SBATCH --account=" << o.account << "\n";
  merge << "set -euo pipefail\n" << setup << "exec " << grader << " merge --submissions " << shell_quote(submissions.string())
        << " --out " << shell_quote(root.string()) << merge_passed << "\n";
  write_file_atomically(s.round / "merge.sh", merge.str());

  std::vector<std::string> array_cmd = {"sbatch", "--parsable"};
  if (o.hold) array_cmd.push_back("--hold");
  for (const std::string& a : o.sbatch_args) array_cmd.push_back(a);
  array_cmd.push_back((s.round / "grade-array.sh").string());
  std::vector<std::string> merge_cmd = {"sbatch", "--parsable"};
  for (const std::string& a : o.sbatch_args) merge_cmd.push_back(a);

  out << plan.chunks.size() << " task(s) of at most " << o.chunk_size << " students, " << o.cpus_per_task << " CPUs, "
      << plan.memory_mb << " MB and " << plan.minutes << " minutes each; scripts in " << s.round.string() << "\n";
  if (o.dry_run) {
    std::string line;
    for (const std::string& a : array_cmd) line += a + " ";
    out << "dry run, would submit:\n  " << line << "\n  sbatch --parsable --dependency=afterany:<array job> "
        << (s.round / "merge.sh").string() << "\n";
    return s;
  }
  s.array_job = sbatch(array_cmd);
  merge_cmd.push_back("--dependency=afterany:" + s.array_job);
  merge_cmd.push_back((s.round / "merge.sh").string());
  s.merge_job = sbatch(merge_cmd);
  write_file_atomically(s.round / "jobs.txt", "array " + s.array_job + "\nmerge " + s.merge_job + "\n");
  out << "submitted job array " << s.array_job << " (" << s.tasks << " task(s))" << (o.hold ? ", held: scontrol release " + s.array_job : "")
      << "; merge job " << s.merge_job << " runs after it\n";
  return s;
}

std::size_t merge_slurm_journals(const BatchOptions& o, std::ostream& out) {
  const fs::path root = fs::absolute(o.out);
  const OutputLock lock(root);
  Journal journal(root / "journal.jsonl");
  ResultMap merged;
  for (auto& [key, r] : journal.load())
    if (!needs_retry(r)) merged[key] = r;
  std::size_t added = 0;
  for (auto& [key, r] : all_results(root))
    if (!merged.count(key)) {
      journal.append(r);
      merged[key] = r;
      ++added;
    }
  const std::vector<std::string> names = student_names(o);
  std::size_t missing = 0, errors = 0;
  std::string list;
  for (const std::string& n : names)
    for (const LabSpec& spec : o.specs)
      if (!merged.count({n, spec.lab})) {
        ++missing;
        list += "  " + n + "  " + spec.lab + "\n";
        if (const std::string why = grader_error(root, n, spec.lab); !why.empty())
          ++errors, list += "    graded, but the grader failed (" + why + ")\n";
      }
  write_class_outputs(root, names, o.specs, merged);
  out << "merged " << added << " new result(s) into " << (root / "journal.jsonl").string() << "; gradebook and reports written for "
      << names.size() << " students\n";
  if (missing)
    out << missing << " student x lab(s) have no result yet ("
        << (errors ? std::to_string(errors) + " graded with an error of the grader's, shown below; the rest in a task cancelled or failed?"
                   : "a task cancelled or failed?")
        << "): run `grader slurm` again to grade them\n" << list;
  return missing;
}

}  // namespace grader
