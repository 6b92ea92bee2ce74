#include "batch/batch.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <ostream>
#include <thread>

#include "draw/draw_lab.hpp"
#include "export/report_html.hpp"
#include "intake/archive.hpp"
#include "intake/lms_layouts.hpp"
#include "isolation/build_service_process.hpp"
#include "isolation/child_folder.hpp"
#include "core/files.hpp"
#include "judge/grade.hpp"
#include "judge/graded_kernels.hpp"
#include "batch/graded_hash.hpp"
#include "batch/journal.hpp"
#include "batch/output_lock.hpp"
#include "term/late.hpp"
#include "term/regrade.hpp"
#include "term/roster.hpp"
#include "kit/errors.hpp"
#include "export/gradebook.hpp"
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

std::vector<std::string> names_of(const std::vector<Student>& students) {
  std::vector<std::string> names;
  for (const Student& s : students) names.push_back(s.student);
  return names;
}

// The students a run grades: the submissions folder's, or those named in only_students (throws
// kit::Error naming any with no submission). `everyone`: the folder's students, whose rows the
// gradebook writes whichever a run grades.
std::vector<Student> choose_students(const BatchOptions& o, std::vector<std::string>& everyone, std::ostream& progress) {
  StudentListing listing = read_submissions(o.submissions);
  progress << listing.summary() << "\n";
  for (const std::string& s : listing.skipped) progress << "skipped " << s << "\n";
  std::vector<Student> students = std::move(listing.students);
  everyone = names_of(students);
  if (o.only_students.empty()) return students;
  std::vector<Student> chosen;
  std::string unknown;
  for (const std::string& name : o.only_students) {
    const auto it = std::find_if(students.begin(), students.end(), [&](const Student& s) { return s.student == name; });
    if (it == students.end()) unknown += (unknown.empty() ? "" : ", ") + name;
    else if (std::none_of(chosen.begin(), chosen.end(), [&](const Student& s) { return s.student == name; })) chosen.push_back(*it);
  }
  if (!unknown.empty()) throw kit::Error("no submission in " + o.submissions.string() + " for: " + unknown);
  return chosen;
}

// A partial run's gradebook has every student's row; those with no result in any lab read "not
// graded yet", and the run says so.
void say_not_graded(const std::vector<std::string>& everyone, const std::vector<LabSpec>& specs, const ResultMap& results,
                    std::ostream& progress) {
  std::string names;
  std::size_t count = 0;
  for (const std::string& s : everyone)
    if (std::none_of(specs.begin(), specs.end(), [&](const LabSpec& spec) { return results.count({s, spec.lab}) > 0; }))
      names += (count++ ? ", " : "") + s;
  if (count)
    progress << count << " student(s) not graded yet (no result in the journal; their gradebook cells read \"not graded yet\"): "
             << names << "\n";
}

// What a run starts from: the journal's results less those to grade again: the regraded
// students' and those whose graded_hash changed (set aside in `earlier` for their history, with
// the reason of each) and those with grader errors (needs_retry); every student's inputs, hashed.
struct Start {
  ResultMap results, earlier;
  std::map<ResultKey, std::string> reasons;
  std::map<std::string, PreparedStudent> prepared;
};

// Sets aside the results graded from other inputs than the students' now (take_out_changed).
void take_out_changed(Start& start, const std::map<ResultKey, json>& records, std::ostream& progress) {
  std::map<ResultKey, std::string> reasons;
  for (auto& [key, r] : take_out_changed(start.results, records, start.prepared, reasons)) start.earlier[key] = std::move(r);
  std::size_t resubmitted = 0;
  for (const auto& [key, why] : reasons) resubmitted += why == "resubmitted";
  if (resubmitted) progress << resubmitted << " resubmitted (content changed): regraded\n";
  if (reasons.size() > resubmitted)
    progress << reasons.size() - resubmitted << " with a changed spec, references or deadline: regraded\n";
  start.reasons.insert(reasons.begin(), reasons.end());
  // A record an older grader wrote has no graded_hash: whether its submission changed cannot be
  // seen, so the run says it kept them.
  std::size_t unhashed = 0;
  for (const auto& [key, record] : records)
    unhashed += start.results.count(key) && start.prepared.count(key.first) && !record.contains("graded_hash");
  if (unhashed)
    progress << "journal: " << unhashed << " result(s) written by an older grader carry no graded_hash: kept as they are, "
             << "so a change to those submissions is not seen (--regrade NAME grades a student again)\n";
}

Start load_journal(const Journal& journal, const BatchOptions& o, const std::vector<Student>& students, std::ostream& progress) {
  Start start;
  std::map<ResultKey, json> records;
  for (auto& [key, line] : journal.load_lines()) {
    start.results[key] = std::move(line.result);
    records[key] = std::move(line.record);
  }
  check_dropped_deadline(start.results, o, students, progress);
  start.earlier = take_out_regraded(start.results, o.term.regrade, names_of(students), o.specs, o.submissions);
  for (const auto& [key, r] : start.earlier) start.reasons[key] = o.term.reason;
  for (const Student& s : students)  // hashed before anything is graded
    start.prepared[s.student] = prepare_student(s, o.specs, o.references, o.term.deadline, o.out / ".work" / s.student);
  take_out_changed(start, records, progress);
  std::size_t retried = 0;
  for (auto it = start.results.begin(); it != start.results.end();)  // grader-side errors are graded again
    if (needs_retry(it->second)) it = start.results.erase(it), ++retried;
    else ++it;
  if (retried) progress << "journal: " << retried << " result(s) with grader errors are graded again\n";
  if (journal.damaged_lines()) progress << "journal: " << journal.damaged_lines() << " unfinished line(s) ignored; those results are redone\n";
  return start;
}


// The grading of a class: every student x lab without a result, o.jobs kernels at once, each
// result in the journal the moment it is made.
class ClassRun {
 public:
  ClassRun(const BatchOptions& o, std::vector<LabReference> references, Journal& journal, Start start, std::ostream& progress)
      : o_(o), references_(std::move(references)), journal_(journal), results_(std::move(start.results)),
        earlier_(std::move(start.earlier)), reasons_(std::move(start.reasons)), prepared_(std::move(start.prepared)), progress_(progress), work_(o.out / ".work"),
        exe_(std::filesystem::read_symlink("/proc/self/exe")) {}

  // Returns the number of results graded now.
  std::size_t grade(const std::vector<Student>& students) {
    std::size_t already = 0;
    const std::vector<std::size_t> labs = labs_longest_first(o_.specs);
    left_.assign(students.size(), 0);
    // Lab by lab, the longest first, every student's kernel of a lab before the next lab's: the
    // last kernels graded are the shortest, so the jobs run out of work together (graded student
    // by student, the class ended with one job on a last student's longest lab and the rest idle).
    for (std::size_t i = 0; i < students.size(); ++i) total_ += o_.specs.size();
    for (const std::size_t l : labs)
      for (std::size_t i = 0; i < students.size(); ++i)
        if (results_.count({students[i].student, o_.specs[l].lab})) ++already;
        else todo_.push_back({&students[i], l, i}), ++left_[i];
    for (std::size_t i = 0; i < students.size(); ++i)
      if (!left_[i]) std::filesystem::remove_all(work_ / students[i].student);  // hashed only: its extracted archive, its copies
    finished_ = already;
    progress_ << students.size() << " students x " << o_.specs.size() << " lab(s): " << already
              << " result(s) already in the journal, " << total_ - already << " to grade\n" << std::flush;
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < std::max(1, o_.jobs); ++t) threads.emplace_back([this, t] { work(t); });
    for (auto& t : threads) t.join();
    const std::size_t reused = graded_kernels_.reused();
    if (reused) progress_ << reused << " kernel(s) the same as one graded before (after removing comments and spacing): graded once\n";
    if (o_.stats) {
      o_.stats->graded += graded_now_;
      o_.stats->reused += reused;
      o_.stats->seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    }
    return graded_now_;
  }

  const ResultMap& results() const { return results_; }

 private:
  // One worker: students from the list until none is left.
  void work(int slot) {
    // This worker's PoCL cache, shared by the kernels it grades one after another (see
    // GradeSettings::shared_pocl_cache); emptied when it grows past kPoclCacheMiB, between kernels,
    // when none of its children is running.
    // The kept cache ($KIT_POCL_CACHE) instead where one is named: shared by every worker and run.
    const std::optional<std::filesystem::path> kept = kept_pocl_cache();
    const std::filesystem::path pocl_cache = kept ? *kept : work_ / ("pocl-cache-" + std::to_string(slot));
    // Its build service, on PoCL's CPU device (the one the children use without --devices).
    std::unique_ptr<BuildServiceProcess> service;
    if (!o_.grading.child_per_case && o_.grading.devices.empty())
      service = std::make_unique<BuildServiceProcess>(exe_, pocl_cache, work_ / ("build-service-" + std::to_string(slot)), slot,
                                                      max_build_limit(o_.specs));
    for (std::size_t i; (i = next_++) < todo_.size();) {
      const Task& task = todo_[i];
      grade_one(*task.student, task.lab, pocl_cache, service.get());
      bool last = false;
      {
        std::lock_guard<std::mutex> g(lock_);
        last = --left_[task.student_index] == 0;
      }
      if (last) std::filesystem::remove_all(work_ / task.student->student);  // its last lab graded
      // Where the children's PoCL writes it: a folder of their user's when the grader runs as root.
      if (!kept && bytes_under(pocl_cache_in_use(pocl_cache)) > (std::uintmax_t(kPoclCacheMiB) << 20))
        empty_pocl_cache(pocl_cache);  // emptied, not removed: the build service's PoCL goes on writing there
    }
  }

  // Lab `l` of `s`: graded, finished (finish_result), in the journal, recorded.
  void grade_one(const Student& s, std::size_t l, const std::filesystem::path& pocl_cache, const BuildServiceProcess* service) {
    const PreparedStudent& prepared = prepared_.at(s.student);  // what was hashed, and the copies it was hashed from
    const std::string& refused = prepared.refused;
    {
      const LabSpec& spec = o_.specs[l];
      GradeSettings settings{exe_, work_ / s.student / spec.lab, o_.grading};
      if (!o_.grading.child_per_case) {
        settings.graded = &graded_kernels_;
        settings.shared_pocl_cache = pocl_cache;
        if (service) settings.build_service = service->socket();
      }
      std::map<std::string, double> phases;
      if (o_.stats) settings.phases = &phases;
      LabResult r;
      std::string not_drawn;  // with --draw: why no picture was written
      const auto started = std::chrono::steady_clock::now();
      try {
        r = refused.empty() ? grade_lab(spec, references_[l], prepared.labs.at(spec.lab).root, s.student, settings)
                            : not_graded(spec, settings, s.student, LabStatus::Rejected, refused);
        if (o_.draw && refused.empty()) not_drawn = add_drawings(r, spec, settings, prepared.labs.at(spec.lab).root, o_.out / s.student);
      } catch (const std::exception& e) {  // the grader's own trouble, not the student's: retried next run
        r = not_graded(spec, settings, s.student, LabStatus::Error, std::string("the grader failed here: ") + e.what());
      }
      // The whole of it, phases or not: what the phases leave out shows as "in no phase".
      if (o_.stats) phases["grading"] += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      finish_result(s, spec, r);
      if (!needs_retry(r)) journal_.append(r, hash_fields(prepared.labs.at(spec.lab)));  // on disk before anything else happens
      record(s, spec, r, phases, not_drawn);
    }
  }

  // What the batch adds to a result: the earlier versions handed in, and the term's passes that
  // belong where the result is made: the late penalty, the regrade history.
  void finish_result(const Student& s, const LabSpec& spec, LabResult& r) const {
    if (!s.earlier.empty()) {
      std::string all;
      for (const std::string& e : s.earlier) all += (all.empty() ? "" : ", ") + e;
      r.notes.push_back("earlier versions handed in: " + all + "; the newest, " + s.entry.filename().string() + ", was graded");
    }
    r.notes.insert(r.notes.end(), s.notes.begin(), s.notes.end());
    const bool marked_late = std::find(s.notes.begin(), s.notes.end(), kCanvasLateNote) != s.notes.end();
    if (o_.term.deadline) apply_late_penalty(spec, prepared_.at(s.student).handed_in, *o_.term.deadline, r, marked_late);  // the time hashed
    else if (marked_late) apply_late_mark(spec, r);
    if (const auto old = earlier_.find({s.student, spec.lab}); old != earlier_.end())
      add_regrade_history(old->second, reasons_.at({s.student, spec.lab}), r);
  }

  void record(const Student& s, const LabSpec& spec, const LabResult& r, const std::map<std::string, double>& phases,
              const std::string& not_drawn) {
    std::lock_guard<std::mutex> g(lock_);
    results_[{s.student, spec.lab}] = r;
    ++graded_now_;
    if (o_.stats) {
      for (const auto& [phase, seconds] : phases) {
        o_.stats->phases[phase] += seconds;
        o_.stats->lab_phases[spec.lab][phase] += seconds;
      }
      o_.stats->lab_graded[spec.lab] += phases.count("build") > 0;
    }
    progress_ << "[" << ++finished_ << "/" << total_ << "] " << s.student << "  " << spec.lab << "  " << format_points(r.points()) << "/"
              << format_points(r.max_points()) << (r.status == LabStatus::Graded ? "" : "  (" + word(r.status) + ")")
              << (not_drawn.empty() ? "" : "\n    " + not_drawn) << "\n" << std::flush;
  }

  const BatchOptions& o_;
  const std::vector<LabReference> references_;
  Journal& journal_;
  ResultMap results_;
  const ResultMap earlier_;  // the regraded results before this run
  const std::map<ResultKey, std::string> reasons_;  // why each of earlier_ is graded again
  const std::map<std::string, PreparedStudent> prepared_;
  std::ostream& progress_;
  const std::filesystem::path work_, exe_;
  GradedKernels graded_kernels_;
  std::mutex lock_;  // guards results_, the counts, o_.stats and progress_
  // One student's lab to grade. The workers take them in turn, so that one student's labs are graded
  // at the same time (a student's feedback in the time of its longest lab, not of all its labs).
  struct Task {
    const Student* student;
    std::size_t lab;            // in o_.specs
    std::size_t student_index;  // in left_
  };
  std::vector<Task> todo_;
  std::vector<std::size_t> left_;  // per student: its labs not graded yet (guarded by lock_); at 0 its work folder goes
  std::atomic<std::size_t> next_{0};
  std::size_t total_ = 0, finished_ = 0, graded_now_ = 0;
};

}  // namespace

void check_dropped_deadline(const ResultMap& results, const BatchOptions& o, const std::vector<Student>& students,
                            std::ostream& progress) {
  if (o.term.deadline) return;
  std::string late;
  std::size_t count = 0;
  for (const Student& s : students)
    for (const LabSpec& spec : o.specs)
      if (const auto it = results.find({s.student, spec.lab}); it != results.end() && graded_late(it->second))
        late += (count++ ? ", " : "") + s.student + " (" + spec.lab + ")";
  if (!count) return;
  if (!o.term.no_deadline)
    throw kit::Error("the journal holds " + std::to_string(count) + " result(s) graded late under a --deadline this run does not give: " +
                     late + ". Graded again without it they lose their lateness: give the same --deadline again, or --no-deadline "
                     "to drop it (nothing was graded)");
  progress << "--no-deadline: " << count << " result(s) lose their lateness: " << late << "\n";
}

std::vector<std::size_t> labs_longest_first(const std::vector<LabSpec>& specs) {
  const auto length = [&](std::size_t l) {
    double seconds = specs[l].speed ? specs[l].speed->time_limit_s : 0;
    for (const CaseSpec& c : specs[l].cases) seconds += c.time_limit_s;
    return seconds;
  };
  std::vector<std::size_t> order(specs.size());
  for (std::size_t l = 0; l < order.size(); ++l) order[l] = l;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return length(a) > length(b); });
  return order;
}

bool needs_retry(const LabResult& r) {
  if (r.status == LabStatus::Error) return true;
  for (const CaseResult& c : r.cases)
    if (c.status == CaseStatus::Error) return true;  // e.g. Oclgrind failed or was missing: no verdict on the student
  return false;
}

std::vector<std::string> student_names(const std::filesystem::path& submissions) {
  std::vector<std::string> skipped;
  return names_of(list_students(submissions, skipped));
}

void write_roster_outputs(const BatchOptions& o, const std::vector<RosterEntry>& roster, const ResultMap& results,
                          std::ostream& progress) {
  if (roster.empty()) return;
  const StudentListing listing = read_submissions(o.submissions);
  std::map<std::string, std::string> canvas_ids;  // a Canvas download names each student's Canvas user id
  if (listing.layout == kCanvasLayout)
    for (const Student& s : listing.students)
      if (!s.lms_id.empty()) canvas_ids[s.student] = s.lms_id;
  progress << write_lms_import(o.out, roster, names_of(listing.students), gradebook_labs(o.specs, results), results, canvas_ids)
           << "LMS import (Canvas layout" << (canvas_ids.empty() ? "" : ", ID from the Canvas download") << "): " << (o.out / "lms-import.csv").string()
           << "\n";
}

std::size_t grade_class(const BatchOptions& options, std::ostream& progress) {
  BatchOptions o = options;
  o.out = std::filesystem::absolute(o.out);
  o.submissions = std::filesystem::absolute(o.submissions);
  std::vector<std::string> everyone;
  const std::vector<Student> students = choose_students(o, everyone, progress);
  const std::vector<RosterEntry> roster = o.term.roster.empty() ? std::vector<RosterEntry>{} : load_roster(o.term.roster);  // before any grading
  const OutputLock out_lock(o.out);  // creates it
  std::vector<LabReference> references;
  for (const LabSpec& spec : o.specs) references.push_back(load_reference(o.references, spec));
  Journal journal(o.out / "journal.jsonl");
  ClassRun run(o, std::move(references), journal, load_journal(journal, o, students, progress), progress);
  const std::size_t graded_now = run.grade(students);
  say_not_graded(everyone, gradebook_labs(o.specs, run.results()), run.results(), progress);
  write_class_outputs(o.out, everyone, o.specs, run.results());  // every row, also when part of the class was graded
  write_roster_outputs(o, roster, run.results(), progress);
  std::filesystem::remove_all(o.out / ".work");
  return graded_now;
}

void write_class_outputs(const std::filesystem::path& out, const std::vector<std::string>& students,
                         const std::vector<LabSpec>& graded, const ResultMap& results) {
  const std::vector<LabSpec> specs = gradebook_labs(graded, results);  // every column, not only those graded now
  for (const std::string& name : students) {
    write_file_atomically(out / name / "report.json", dump_json(student_report_json(name, specs, results), 2) + "\n");
    write_file_atomically(out / name / "report.md", student_report_md(name, specs, results));
    write_file_atomically(out / name / "report.html", student_report_html(name, specs, results, out / name));
  }
  write_file_atomically(out / "gradebook.csv", gradebook_csv(students, specs, results));
  write_file_atomically(out / "gradebook-status.csv", gradebook_status_csv(students, specs, results));
}

}  // namespace grader
