#include "batch/slurm.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "core/files.hpp"
#include "batch/graded_hash.hpp"
#include "batch/journal.hpp"
#include "batch/output_lock.hpp"
#include "kit/errors.hpp"
#include "term/regrade.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

using Lines = std::map<std::pair<std::string, std::string>, Journal::Line>;

// Marks a line submit_to_slurm copied into a task's journal: a regraded student's earlier result,
// for the task's regrade history; never a result of its own.
constexpr const char* kCopiedForRegrade = "copied_for_regrade";

// Quoted for a shell script: '...' with every ' written as '\''.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// "round-12" -> 12, "task-3" -> 3 (0 for another name): folders in the order they were made.
long folder_number(const fs::path& p) {
  const std::string name = p.filename().string();
  const std::size_t dash = name.rfind('-');
  return dash == std::string::npos ? 0 : std::strtol(name.c_str() + dash + 1, nullptr, 10);
}

std::vector<fs::path> numbered_folders(const fs::path& dir) {
  std::vector<fs::path> folders;
  if (fs::is_directory(dir))
    for (const auto& f : fs::directory_iterator(dir))
      if (f.is_directory()) folders.push_back(f.path());
  std::sort(folders.begin(), folders.end(), [](const fs::path& a, const fs::path& b) { return folder_number(a) < folder_number(b); });
  return folders;
}

// The output folders of every round's tasks (OUT/slurm/round-R/task-K), round by round.
std::vector<fs::path> task_dirs(const fs::path& out) {
  std::vector<fs::path> dirs;
  for (const fs::path& round : numbered_folders(out / "slurm"))
    for (const fs::path& task : numbered_folders(round)) dirs.push_back(task);
  return dirs;
}

// Every result OUT/journal.jsonl and the rounds' task journals hold, the newest of each student x
// lab by graded_at (OUT/journal.jsonl's on a tie, then the earlier round's): a regrade in a later
// round is newer than the result it replaces. Lines copied for a regrade are not results.
Lines all_results(const fs::path& out) {
  Lines newest;
  const auto take = [&](const fs::path& file) {
    for (auto& [key, line] : Journal(file).load_lines()) {
      if (needs_retry(line.result) || line.record.contains(kCopiedForRegrade)) continue;
      const auto it = newest.find(key);
      if (it == newest.end() || line.graded_at() > it->second.graded_at()) newest[key] = std::move(line);
    }
  };
  take(out / "journal.jsonl");
  for (const fs::path& task : task_dirs(out))
    if (fs::exists(task / "journal.jsonl")) take(task / "journal.jsonl");
  return newest;
}

ResultMap results_of(const Lines& lines) {
  ResultMap results;
  for (const auto& [key, line] : lines) results[key] = line.result;
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
void write_chunks(const SlurmOptions& o, const SlurmPlan& plan, const Lines& done, const ResultMap& changed, const fs::path& round) {
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

// The grader as the jobs run it: its path and the options before the subcommand.
std::string grader_command(const SlurmOptions& o) {
  std::string command = shell_quote(fs::absolute(o.grader_exe).string());
  for (const std::string& a : o.global_args) command += " " + shell_quote(a);
  return command;
}

// What the tasks apply of the term (they make the results): the deadline, and the regrades with
// their reason, the regraded students of each chunk picked by the task's index in `lines`.
struct TaskTerm {
  std::string lines, args;  // shell lines before the command; its arguments
};

TaskTerm task_term(const TermOptions& term, const SlurmPlan& plan) {
  TaskTerm t;
  if (term.deadline) t.args += " --deadline " + shell_quote(format_deadline(*term.deadline));
  if (term.regrade.empty()) return t;
  t.lines = "regrade=''  # the students of this task's chunk graded again\ncase $SLURM_ARRAY_TASK_ID in\n";
  for (std::size_t k = 0; k < plan.chunks.size(); ++k) {
    std::string names;
    for (const std::string& n : plan.chunks[k])
      if (std::find(term.regrade.begin(), term.regrade.end(), n) != term.regrade.end()) names += (names.empty() ? "" : ",") + n;
    if (!names.empty()) t.lines += "  " + std::to_string(k) + ") regrade=" + shell_quote(names) + " ;;\n";
  }
  t.lines += "esac\n";
  if (!term.reason.empty()) t.args += " --reason " + shell_quote(term.reason);
  t.args += " ${regrade:+--regrade \"$regrade\"}";
  return t;
}

void write_array_script(const SlurmOptions& o, const SlurmPlan& plan, const fs::path& round, const std::string& setup) {
  std::string passed;
  for (const std::string& a : o.grade_args) passed += " " + shell_quote(a);
  const TaskTerm term = task_term(o.batch.term, plan);
  std::ostringstream array;
  array << "#!/usr/bin/env bash\n"
        << "# One task of `grader slurm`: grades the students of chunk-$SLURM_ARRAY_TASK_ID.txt into its own journal.\n"
        << "#SBATCH --job-name=kit-grade\n#SBATCH --array=0-" << plan.chunks.size() - 1 << "\n"
        << "#SBATCH --cpus-per-task=" << o.cpus_per_task << "\n#SBATCH --mem=" << plan.memory_mb << "M\n"
        << "#SBATCH --time=" << plan.minutes << "\n#SBATCH --output=" << (round / "task-%a.log").string() << "\n";
  if (!o.partition.empty()) array << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.account.empty()) array << "#SBATCH --account=" << o.account << "\n";
  if (!o.gres.empty()) array << "#SBATCH --gres=" << o.gres << "\n";
  array << "set -euo pipefail\n" << setup << term.lines << "exec " << grader_command(o)
        << " grade --submissions " << shell_quote(fs::absolute(o.batch.submissions).string()) << " --out "
        << shell_quote(round.string()) << "/task-$SLURM_ARRAY_TASK_ID --students-file " << shell_quote(round.string())
        << "/chunk-$SLURM_ARRAY_TASK_ID.txt --jobs \"${SLURM_CPUS_PER_TASK:-1}\"" << passed << term.args << "\n";
  write_file_atomically(round / "grade-array.sh", array.str());
}

// The merge job's script: `grader merge`, with the roster (merge writes the LMS import).
void write_merge_script(const SlurmOptions& o, const fs::path& root, const fs::path& round, const std::string& setup) {
  std::string passed;
  for (const std::string& a : o.merge_args) passed += " " + shell_quote(a);
  if (!o.batch.term.roster.empty()) passed += " --roster " + shell_quote(fs::absolute(o.batch.term.roster).string());
  std::ostringstream merge;
  merge << "#!/usr/bin/env bash\n# After every task of the array: merge their journals and write the class's outputs.\n"
        << "#SBATCH --job-name=kit-merge\n#SBATCH --cpus-per-task=1\n#SBATCH --mem=1024M\n#SBATCH --time=15\n"
        << "#SBATCH --output=" << (round / "merge.log").string() << "\n";
  if (!o.partition.empty()) merge << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.account.empty()) merge << "#SBATCH --account=" << o.account << "\n";
  merge << "set -euo pipefail\n" << setup << "exec " << grader_command(o) << " merge --submissions "
        << shell_quote(fs::absolute(o.batch.submissions).string()) << " --out " << shell_quote(root.string()) << passed << "\n";
  write_file_atomically(round / "merge.sh", merge.str());
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

// Regrades asked of a round whose task never made the new result: the task journal's last line
// for the student x lab is still the earlier result copied there, and no journal holds a newer one.
std::string undone_regrades(const fs::path& root, const Lines& merged) {
  std::string list;
  for (const fs::path& task : task_dirs(root)) {
    if (!fs::exists(task / "journal.jsonl")) continue;
    for (const auto& [key, line] : Journal(task / "journal.jsonl").load_lines()) {
      if (!line.record.contains(kCopiedForRegrade)) continue;
      const auto it = merged.find(key);
      if (it != merged.end() && it->second.graded_at() > line.graded_at()) continue;  // regraded later
      list += "  " + key.first + "  " + key.second + "  (" + task.parent_path().filename().string() + "/" + task.filename().string() +
              "): still the earlier result; run `grader slurm --regrade " + key.first + "` again\n";
    }
  }
  return list;
}

// The results graded from other inputs than the students' now (take_out_changed, as `grader grade`
// does), taken out of `results`: plan_slurm then puts their students in the chunks.
ResultMap changed_results(const BatchOptions& o, const Lines& done, ResultMap& results, std::ostream& out) {
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
  const Lines done = all_results(root);
  ResultMap results = results_of(done);
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

std::size_t merge_slurm_journals(const BatchOptions& options, std::ostream& out) {
  BatchOptions o = options;
  o.out = fs::absolute(o.out);
  const std::vector<RosterEntry> roster = o.term.roster.empty() ? std::vector<RosterEntry>{} : load_roster(o.term.roster);
  const OutputLock lock(o.out);
  Journal journal(o.out / "journal.jsonl");
  Lines merged = journal.load_lines();
  for (auto it = merged.begin(); it != merged.end();)
    if (needs_retry(it->second.result)) it = merged.erase(it);
    else ++it;
  std::size_t added = 0;
  for (auto& [key, line] : all_results(o.out))  // the newest of each; OUT/journal.jsonl's last line is then the one that counts
    if (const auto it = merged.find(key); it == merged.end() || line.graded_at() > it->second.graded_at()) {
      journal.append_record(line.record);  // as the task wrote it: when it was graded, by which kit
      merged[key] = line;
      ++added;
    }
  const std::vector<std::string> names = student_names(o.submissions);
  std::size_t missing = 0, errors = 0;
  std::string list;
  for (const std::string& n : names)
    for (const LabSpec& spec : o.specs)
      if (!merged.count({n, spec.lab})) {
        ++missing;
        list += "  " + n + "  " + spec.lab + "\n";
        if (const std::string why = grader_error(o.out, n, spec.lab); !why.empty())
          ++errors, list += "    graded, but the grader failed (" + why + ")\n";
      }
  const ResultMap results = results_of(merged);
  write_class_outputs(o.out, names, o.specs, results);
  write_roster_outputs(o, roster, results, out);
  out << "merged " << added << " new result(s) into " << (o.out / "journal.jsonl").string() << "; gradebook and reports written for "
      << names.size() << " students\n";
  if (missing)
    out << missing << " student x lab(s) have no result yet ("
        << (errors ? std::to_string(errors) + " graded with an error of the grader's, shown below; the rest in a task cancelled or failed?"
                   : "a task cancelled or failed?")
        << "): run `grader slurm` again to grade them\n" << list;
  if (const std::string undone = undone_regrades(o.out, merged); !undone.empty())
    out << "regrades not done (a task cancelled or failed?):\n" << undone;
  return missing;
}

}  // namespace grader
