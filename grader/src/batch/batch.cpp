#include "batch/batch.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <memory>
#include <ostream>
#include <thread>

#include "intake/archive.hpp"
#include "isolation/build_service_process.hpp"
#include "core/files.hpp"
#include "judge/grade.hpp"
#include "judge/graded_kernels.hpp"
#include "batch/journal.hpp"
#include "batch/output_lock.hpp"
#include "term/roster.hpp"
#include "kit/errors.hpp"
#include "export/reports.hpp"

namespace grader {

namespace {

// The most a worker's PoCL cache may hold before it is emptied: the kit's own programs it is kept
// for are a few MiB, and every kernel graded adds its own (lab 04's solution: 1.7 MiB).
constexpr int kPoclCacheMiB = 256;

// The bytes of the files under `dir` (0 when it does not exist).
std::uintmax_t bytes_under(const std::filesystem::path& dir) {
  std::error_code ec;
  std::uintmax_t total = 0;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec); !ec && it != std::filesystem::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec)) total += it->file_size(ec);
  return total;
}

// The longest build time limit of the specs: the build service's limit for one build.
double max_build_limit(const std::vector<LabSpec>& specs) {
  double most = 60;
  for (const LabSpec& spec : specs) most = std::max(most, spec.build_time_limit_s);
  return most;
}

std::string now_text() {
  const std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return text;
}

}  // namespace

void apply_late_penalty(const LabSpec& spec, std::filesystem::file_time_type handed_in, std::filesystem::file_time_type deadline,
                        LabResult& r) {
  if (handed_in <= deadline) return;
  const double hours = std::chrono::duration<double>(handed_in - deadline).count() / 3600;
  const int days = int(std::ceil(hours / 24));
  if (spec.late_penalty_per_day <= 0) {
    r.notes.push_back("handed in " + std::to_string(days) + " day(s) after the deadline; this lab has no late penalty");
    return;
  }
  const double fraction = std::min(1.0, days * spec.late_penalty_per_day);
  const double penalty = std::floor(r.points() * fraction * 100 + 1e-9) / 100;
  char text[200];
  std::snprintf(text, sizeof text, "handed in %.1f hours after the deadline (%d day(s) late): %.0f%% of the %s points earned",
                hours, days, fraction * 100, format_points(r.points()).c_str());
  r.cases.push_back({"late penalty", true, -penalty, 0, CaseStatus::Late, text, "", 0, CaseKind::Late});
}

bool needs_retry(const LabResult& r) {
  if (r.status == LabStatus::Error) return true;
  for (const CaseResult& c : r.cases)
    if (c.status == CaseStatus::Error) return true;  // e.g. Oclgrind failed or was missing: no verdict on the student
  return false;
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
  const std::vector<RosterEntry> roster = o.term.roster.empty() ? std::vector<RosterEntry>{} : load_roster(o.term.roster);  // before any grading
  const OutputLock out_lock(o.out);  // creates it
  const std::filesystem::path work = o.out / ".work";
  std::vector<LabReference> references;
  for (const LabSpec& spec : o.specs) references.push_back(load_reference(o.references, spec));

  Journal journal(o.out / "journal.jsonl");
  ResultMap results = journal.load();
  // A regrade: the students' results leave the map (not the journal) and are graded again.
  ResultMap before;
  for (const std::string& name : o.term.regrade) {
    if (std::none_of(students.begin(), students.end(), [&](const Student& s) { return s.name == name; }))
      throw kit::Error("--regrade: no submission in " + o.submissions.string() + " for '" + name + "'");
    for (const LabSpec& spec : o.specs)
      if (const auto it = results.find({name, spec.lab}); it != results.end()) {
        before[it->first] = it->second;
        results.erase(it);
      }
  }
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
  auto worker = [&](int slot) {
    // This worker's PoCL cache, shared by the kernels it grades one after another (see
    // GradeSettings::shared_pocl_cache); emptied when it grows past kPoclCacheMiB, between kernels,
    // when none of its children is running.
    const std::filesystem::path pocl_cache = work / ("pocl-cache-" + std::to_string(slot));
    // Its build service, on PoCL's CPU device (the one the children use without --devices).
    std::unique_ptr<BuildServiceProcess> service;
    if (!o.grading.child_per_case && o.grading.devices.empty())
      service = std::make_unique<BuildServiceProcess>(exe, pocl_cache, work / ("build-service-" + std::to_string(slot)), slot,
                                                      max_build_limit(o.specs));
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
        GradeSettings settings{exe, work / s.name / spec.lab, o.grading};
        if (!o.grading.child_per_case) {
          settings.graded = &graded_kernels;
          settings.shared_pocl_cache = pocl_cache;
          if (service) settings.build_service = service->socket();
        }
        std::map<std::string, double> phases;
        if (o.stats) settings.phases = &phases;
        LabResult r;
        try {
          r = refused.empty() ? grade_lab(spec, references[l], root, s.name, settings)
                              : not_graded(spec, settings, s.name, LabStatus::Rejected, refused);
        } catch (const std::exception& e) {  // the grader's own trouble, not the student's: retried next run
          r = not_graded(spec, settings, s.name, LabStatus::Error, std::string("the grader failed here: ") + e.what());
        }
        if (!s.earlier.empty()) {
          std::string all;
          for (const std::string& e : s.earlier) all += (all.empty() ? "" : ", ") + e;
          r.notes.push_back("earlier versions handed in: " + all + "; the newest, " + s.entry.filename().string() + ", was graded");
        }
        if (o.term.deadline) apply_late_penalty(spec, handed_in_at(s.entry), *o.term.deadline, r);
        if (const auto old = before.find({s.name, spec.lab}); old != before.end()) {
          for (const std::string& n : old->second.notes)
            if (n.rfind("regraded ", 0) == 0) r.notes.push_back(n);  // the history goes on
          r.notes.push_back("regraded " + now_text() + (o.term.reason.empty() ? "" : " (" + o.term.reason + ")") + ": " +
                            format_points(old->second.points()) + " -> " + format_points(r.points()) + " points");
        }
        if (!needs_retry(r)) journal.append(r);  // on disk before anything else happens
        std::lock_guard<std::mutex> g(lock);
        results[{s.name, spec.lab}] = r;
        ++graded_now;
        if (o.stats) {
          for (const auto& [phase, seconds] : phases) {
            o.stats->phases[phase] += seconds;
            o.stats->lab_phases[spec.lab][phase] += seconds;
          }
          o.stats->lab_graded[spec.lab] += phases.count("build") > 0;
        }
        progress << "[" << ++finished << "/" << total_items << "] " << s.name << "  " << spec.lab << "  "
                 << format_points(r.points()) << "/" << format_points(r.max_points())
                 << (r.status == LabStatus::Graded ? "" : "  (" + word(r.status) + ")") << "\n" << std::flush;
      }
      std::filesystem::remove_all(work / s.name);
      if (bytes_under(pocl_cache) > (std::uintmax_t(kPoclCacheMiB) << 20)) {
        std::filesystem::remove_all(pocl_cache);
        std::filesystem::create_directories(pocl_cache);  // where the build service's PoCL goes on writing
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, o.jobs); ++t) threads.emplace_back(worker, t);
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
