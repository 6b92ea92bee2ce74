#include "batch.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <ostream>
#include <thread>

#include "archive.hpp"
#include "files.hpp"
#include "grade.hpp"
#include "graded_kernels.hpp"
#include "journal.hpp"
#include "roster.hpp"
#include "kit/errors.hpp"
#include "reports.hpp"

namespace grader {

bool needs_retry(const LabResult& r) {
  if (r.status == "error") return true;
  for (const CaseResult& c : r.cases)
    if (c.status == "error") return true;  // e.g. Oclgrind failed or was missing: no verdict on the student
  return false;
}

std::vector<Student> list_students(const std::filesystem::path& dir, std::vector<std::string>& skipped) {
  if (!std::filesystem::is_directory(dir)) throw kit::Error("submissions folder " + dir.string() + " does not exist");
  std::map<std::string, std::filesystem::path> by_name;
  std::vector<std::filesystem::directory_entry> entries(std::filesystem::directory_iterator(dir), {});
  std::sort(entries.begin(), entries.end());
  for (const auto& entry : entries) {
    const std::string file = entry.path().filename().string();
    if (file.empty() || file[0] == '.') continue;
    std::string name;
    if (entry.is_symlink()) {
      skipped.push_back(file + ": a symbolic link; submissions must be folders or archives");
      continue;
    }
    if (entry.is_directory()) name = file;
    else if (entry.is_regular_file() && is_archive(entry.path())) name = archive_stem(entry.path());
    else {
      skipped.push_back(file + ": not a folder or a .zip/.tar.gz/.tgz/.tar archive");
      continue;
    }
    if (name == "gradebook.csv" || name == "journal.jsonl") {
      skipped.push_back(file + ": the student name '" + name + "' is one of the grader's own output files; rename it");
      continue;
    }
    if (by_name.count(name))
      throw kit::Error("two submissions for student '" + name + "': " + by_name[name].filename().string() + " and " +
                       file + "; keep one");
    by_name[name] = entry.path();
  }
  std::vector<Student> students;
  for (const auto& [name, path] : by_name) students.push_back({name, path});
  return students;
}

std::size_t grade_class(const BatchOptions& options, std::ostream& progress) {
  BatchOptions o = options;
  o.out = std::filesystem::absolute(o.out);
  o.submissions = std::filesystem::absolute(o.submissions);
  std::vector<std::string> skipped;
  std::vector<Student> students = list_students(o.submissions, skipped);
  for (const std::string& s : skipped) progress << "skipped " << s << "\n";
  if (!o.only_students.empty()) {
    std::vector<Student> chosen;
    std::string unknown;
    for (const std::string& name : o.only_students) {
      const auto it = std::find_if(students.begin(), students.end(), [&](const Student& s) { return s.name == name; });
      if (it == students.end()) unknown += (unknown.empty() ? "" : ", ") + name;
      else if (std::none_of(chosen.begin(), chosen.end(), [&](const Student& s) { return s.name == name; })) chosen.push_back(*it);
    }
    if (!unknown.empty()) throw kit::Error("no submission in " + o.submissions.string() + " for: " + unknown);
    students = chosen;
  }
  const std::vector<RosterEntry> roster = o.roster.empty() ? std::vector<RosterEntry>{} : load_roster(o.roster);  // before any grading
  std::filesystem::create_directories(o.out);
  const std::filesystem::path work = o.out / ".work";
  std::vector<LabReference> references;
  for (const LabSpec& spec : o.specs) references.push_back(load_reference(o.references, spec));

  Journal journal(o.out / "journal.jsonl");
  ResultMap results = journal.load();
  std::size_t retried = 0;
  for (auto it = results.begin(); it != results.end();)  // grader-side errors are graded again
    if (needs_retry(it->second)) it = results.erase(it), ++retried;
    else ++it;
  if (retried) progress << "journal: " << retried << " result(s) with grader errors are graded again\n";
  if (journal.damaged_lines()) progress << "journal: " << journal.damaged_lines() << " unfinished line(s) ignored; those results are redone\n";
  std::vector<const Student*> todo;
  std::size_t total_items = 0, already = 0;
  for (const Student& s : students) {
    bool missing = false;
    for (const LabSpec& spec : o.specs) {
      ++total_items;
      if (results.count({s.name, spec.lab})) ++already;
      else missing = true;
    }
    if (missing) todo.push_back(&s);
  }
  progress << students.size() << " students x " << o.specs.size() << " lab(s): " << already
           << " result(s) already in the journal, " << total_items - already << " to grade\n" << std::flush;

  const auto started = std::chrono::steady_clock::now();
  GradedKernels graded_kernels;
  std::mutex lock;
  std::atomic<std::size_t> next{0}, finished{already};
  std::size_t graded_now = 0;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe");
  auto worker = [&] {
    for (std::size_t i; (i = next++) < todo.size();) {
      const Student& s = *todo[i];
      std::filesystem::path root = s.entry;
      std::string refused;
      if (!std::filesystem::is_directory(s.entry)) {
        root = work / s.name / "files";
        std::filesystem::remove_all(root);
        try {
          extract_archive(s.entry, root);
        } catch (const kit::Error& e) {
          refused = e.what();
        }
      }
      for (std::size_t l = 0; l < o.specs.size(); ++l) {
        const LabSpec& spec = o.specs[l];
        {
          std::lock_guard<std::mutex> g(lock);
          if (results.count({s.name, spec.lab})) continue;
        }
        GradeSettings settings{exe, work / s.name / spec.lab, o.pocl_threads, false, o.safety, o.stop_at_first_loss};
        settings.child_per_case = o.child_per_case;
        settings.devices = o.devices;
        settings.oclgrind = o.oclgrind;
        if (!o.child_per_case) settings.graded = &graded_kernels;
        std::map<std::string, double> phases;
        if (o.stats) settings.phases = &phases;
        LabResult r;
        try {
          r = refused.empty() ? grade_lab(spec, references[l], root, s.name, settings)
                              : not_graded(spec, settings, s.name, "rejected", refused);
        } catch (const std::exception& e) {  // the grader's own trouble, not the student's: retried next run
          r = not_graded(spec, settings, s.name, "error", std::string("the grader failed here: ") + e.what());
        }
        if (!needs_retry(r)) journal.append(r);  // on disk before anything else happens
        std::lock_guard<std::mutex> g(lock);
        results[{s.name, spec.lab}] = r;
        ++graded_now;
        if (o.stats)
          for (const auto& [phase, seconds] : phases) o.stats->phases[phase] += seconds;
        progress << "[" << ++finished << "/" << total_items << "] " << s.name << "  " << spec.lab << "  "
                 << format_points(r.points()) << "/" << format_points(r.max_points())
                 << (r.status == "graded" ? "" : "  (" + r.status + ")") << "\n" << std::flush;
      }
      std::filesystem::remove_all(work / s.name);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, o.jobs); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();

  const std::size_t reused = graded_kernels.reused();
  if (reused) progress << reused << " kernel(s) the same as one graded before (after removing comments and spacing): graded once\n";
  if (o.stats) {
    o.stats->graded += graded_now;
    o.stats->reused += reused;
    o.stats->seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  std::vector<std::string> names;
  for (const Student& s : students) names.push_back(s.name);
  write_class_outputs(o.out, names, o.specs, results);
  if (!roster.empty()) {
    std::vector<std::string> everyone;  // the whole submissions folder, also when grading part of it
    for (const Student& s : list_students(o.submissions, skipped)) everyone.push_back(s.name);
    progress << write_lms_import(o.out, roster, everyone, o.specs, results) << "LMS import (Canvas layout): "
             << (o.out / "lms-import.csv").string() << "\n";
  }
  std::filesystem::remove_all(work);
  return graded_now;
}

void write_class_outputs(const std::filesystem::path& out, const std::vector<std::string>& students,
                         const std::vector<LabSpec>& specs, const ResultMap& results) {
  for (const std::string& name : students) {
    write_file_atomically(out / name / "report.json", dump_json(student_report_json(name, specs, results), 2) + "\n");
    write_file_atomically(out / name / "report.md", student_report_md(name, specs, results));
  }
  write_file_atomically(out / "gradebook.csv", gradebook_csv(students, specs, results));
}

}  // namespace grader
