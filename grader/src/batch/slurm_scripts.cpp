#include "batch/slurm_scripts.hpp"

#include <algorithm>
#include <sstream>

#include "core/files.hpp"
#include "term/late.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

// The grader as the jobs run it: its path and the options before the subcommand.
std::string grader_command(const SlurmOptions& o) {
  std::string command = shell_quote(fs::absolute(o.grader_exe).string());
  for (const std::string& a : o.global_args) command += " " + shell_quote(a);
  return command;
}

// What the tasks apply of the term (they make the results): the deadline (or --no-deadline), and the regrades with
// their reason, the regraded students of each chunk picked by the task's index in `lines`.
struct TaskTerm {
  std::string lines, args;  // shell lines before the command; its arguments
};

TaskTerm task_term(const TermOptions& term, const SlurmPlan& plan) {
  TaskTerm t;
  if (term.deadline) t.args += " --deadline " + shell_quote(format_deadline(*term.deadline));
  if (term.no_deadline) t.args += " --no-deadline";
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

}  // namespace

// Quoted for a shell script: '...' with every ' written as '\''.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}


void write_array_script(const SlurmOptions& o, const SlurmPlan& plan, const fs::path& round, const std::string& setup) {
  std::string passed;
  for (const std::string& a : o.grade_args) passed += " " + shell_quote(a);
  if (o.batch.draw) passed += " --draw";  // into the task's folder, beside each report; merge copies them beside the class's
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


}  // namespace grader
