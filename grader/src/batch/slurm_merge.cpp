#include <algorithm>
#include <ostream>

#include "batch/graded_hash.hpp"
#include "batch/output_lock.hpp"
#include "batch/slurm.hpp"
#include "batch/slurm_rounds.hpp"
#include "core/files.hpp"
#include "term/regrade.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

// Why a task graded `student`'s `lab` and kept no result: the grader's error in that task's report
// (a result needs_retry keeps out of the journal), newest report first; "" when no task got that
// far (cancelled, failed, still running).
std::string grader_error(const fs::path& out, const std::string& student, const std::string& lab) {
  std::vector<fs::path> reports;
  for (const fs::path& task : slurm_task_dirs(out))
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

// Regrades asked of a round whose task never made the new result: the task journal's last line
// for the student x lab is still the earlier result copied there, and no journal holds a newer one.
std::string undone_regrades(const fs::path& root, const SlurmLines& merged) {
  std::string list;
  for (const fs::path& task : slurm_task_dirs(root)) {
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

// Whether `file` is one of `lab`'s drawings (`grader grade --draw`): <lab>-<kernel>[-groupN].svg or .tex.
bool drawing_of(const fs::path& file, const std::string& lab) {
  const std::string name = file.filename().string(), ext = file.extension().string();
  return name.rfind(lab + "-", 0) == 0 && (ext == ".svg" || ext == ".tex");
}

// The drawings of each result merged now, from the task that made it (its journal holds that very
// line) beside the student's report in OUT, in place of that lab's earlier drawings there.
void copy_drawings(const fs::path& out, const SlurmLines& merged, const std::vector<ResultKey>& added) {
  for (const fs::path& task : slurm_task_dirs(out)) {
    if (!fs::exists(task / "journal.jsonl")) continue;
    const SlurmLines lines = Journal(task / "journal.jsonl").load_lines();
    for (const ResultKey& key : added) {
      const auto it = lines.find(key);
      const fs::path from = task / key.first, to = out / key.first;
      if (it == lines.end() || it->second.record.contains(kCopiedForRegrade) || it->second.record != merged.at(key).record ||
          !fs::is_directory(from))
        continue;
      if (fs::is_directory(to))
        for (const auto& f : fs::directory_iterator(to))
          if (drawing_of(f.path(), key.second)) fs::remove(f.path());
      for (const auto& f : fs::directory_iterator(from))
        if (drawing_of(f.path(), key.second)) {
          fs::create_directories(to);
          fs::copy_file(f.path(), to / f.path().filename(), fs::copy_options::overwrite_existing);
        }
    }
  }
}

}  // namespace

std::size_t merge_slurm_journals(const BatchOptions& options, std::ostream& out) {
  BatchOptions o = options;
  o.out = fs::absolute(o.out);
  const std::vector<RosterEntry> roster = o.term.roster.empty() ? std::vector<RosterEntry>{} : load_roster(o.term.roster);
  const OutputLock lock(o.out);
  Journal journal(o.out / "journal.jsonl");
  SlurmLines merged = journal.load_lines();
  for (auto it = merged.begin(); it != merged.end();)
    if (needs_retry(it->second.result)) it = merged.erase(it);
    else ++it;
  std::vector<ResultKey> added;
  for (auto& [key, line] : all_slurm_results(o.out))  // the newest of each; OUT/journal.jsonl's last line is then the one that counts
    if (const auto it = merged.find(key); it == merged.end() || line.graded_at() > it->second.graded_at()) {
      journal.append_record(line.record);  // as the task wrote it: when it was graded, by which kit
      merged[key] = line;
      added.push_back(key);
    }
  copy_drawings(o.out, merged, added);
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
  out << "merged " << added.size() << " new result(s) into " << (o.out / "journal.jsonl").string() << "; gradebook and reports written for "
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
