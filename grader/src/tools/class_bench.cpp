#include "tools/class_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include <sys/resource.h>

#include "batch/batch.hpp"
#include "core/files.hpp"
#include "batch/journal.hpp"
#include "tools/mutate.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

std::string student_name(std::size_t k) {
  char name[32];
  std::snprintf(name, sizeof name, "student-%02zu", k + 1);
  return name;
}

// Which kind of kernel student k hands in for lab l: 12 in 20 right, 6 wrong, 2 untouched (a
// real class's 60 %, 30 %, 10 %), spread so that every student has some of each.
std::string kind_of(std::size_t k, std::size_t l) {
  const std::size_t r = (k * 7 + l * 3) % 20;
  return r < 12 ? "right" : r < 18 ? "wrong" : "untouched";
}

// The solution as a student might hand it in: the same code, a comment of their own at the end
// of the first line (line numbers unchanged).
std::string with_own_comment(const std::string& source, const std::string& name) {
  const std::size_t end = source.find('\n');
  return source.substr(0, end) + "  // " + name + "'s version" + (end == std::string::npos ? "" : source.substr(end));
}

// Every file of the class different in its code, as a real class's are: a helper function of
// the student's own that no kernel calls, after the last line (line numbers unchanged). No result
// is reused and no program comes from a cache filled by another student's file.
std::string with_own_helper(std::string source, std::size_t student, std::size_t lab) {
  if (!source.empty() && source.back() != '\n') source += '\n';
  char helper[160];
  std::snprintf(helper, sizeof helper, "\nuint bench_helper_%zu_%zu(uint x) { return x * %zuu + %zuu; }\n", student + 1, lab + 1,
                2 * student + 3, lab + 1);
  return source + helper;
}

// The wrong kernels of lab `lab`: one fault each, taking the mutation operators in turn, the
// faults students make most first (a guard's relational operator, a missing barrier, a plain
// update of a shared total, a bound off by one, ...), starting one further along for each lab so
// that a small class meets every operator; within an operator its mutants spread over the file.
std::vector<const Mutant*> one_fault_kernels(const std::vector<Mutant>& mutants, std::size_t wanted, std::size_t lab) {
  static const char* const kOrder[] = {"relational", "barrier", "atomic", "off-by-one", "fence", "swap-id", "arithmetic", "constant",
                                       "uncoalesced"};
  std::map<std::string, std::vector<const Mutant*>> by_op;
  for (const Mutant& m : mutants) by_op[m.op].push_back(&m);
  std::vector<std::string> ops;
  for (const char* op : kOrder)
    if (by_op.count(op)) ops.push_back(op);
  for (const auto& [op, of_op] : by_op)  // an operator not in the list above comes last
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
  std::vector<const Mutant*> picks;
  std::map<std::string, std::size_t> taken;
  for (std::size_t j = 0; j < wanted && !ops.empty(); ++j) {
    const std::string& op = ops[(j + lab) % ops.size()];
    const std::vector<const Mutant*>& of_op = by_op.at(op);
    // The r-th pick of an operator sits (r + 1/2) x 0.618... of the way through its mutants (mod 1):
    // spread over the file, never the same one twice before all were taken.
    const double place = std::fmod((double(taken[op]++) + 0.5) * 0.6180339887498949, 1.0);
    picks.push_back(of_op[std::min(of_op.size() - 1, std::size_t(place * double(of_op.size())))]);
  }
  return picks;
}

struct Composition {
  std::map<std::string, std::size_t> kinds;
  std::map<std::string, std::size_t> operators;  // the wrong kernels' faults, by mutation operator
};

Composition make_class(const ClassBenchOptions& o, const fs::path& dir) {
  Composition c;
  fs::remove_all(dir);
  for (std::size_t l = 0; l < o.specs.size(); ++l) {
    const LabSpec& spec = o.specs[l];
    const std::string solution = read_file(o.solutions / spec.lab / spec.kernel_file);
    const std::string starter = read_file(o.starters / spec.lab / spec.kernel_file);
    const std::vector<Mutant> mutants = make_mutants(solution);
    std::size_t wrong = 0;
    const auto kind_for = [&](std::size_t k) { return o.all_right ? std::string("right") : kind_of(k, l); };
    for (std::size_t k = 0; k < o.students; ++k) wrong += kind_for(k) == "wrong";
    const std::vector<const Mutant*> picks = one_fault_kernels(mutants, wrong, l);
    std::size_t next_wrong = 0;
    for (std::size_t k = 0; k < o.students; ++k) {
      std::string kind = kind_for(k);
      if (kind == "wrong" && picks.empty()) kind = "right";  // a solution with nothing to mutate
      std::string text = kind == "untouched" ? starter : with_own_comment(solution, student_name(k));
      if (kind == "wrong") {
        const Mutant& m = *picks[next_wrong++];
        text = m.source;
        ++c.operators[m.op];
      }
      if (o.unique_files) text = with_own_helper(text, k, l);
      write_file_atomically(dir / student_name(k) / spec.lab / spec.kernel_file, text);
      ++c.kinds[kind];
    }
  }
  return c;
}

struct Timed {
  BatchStats stats;
  ResultMap results;
  double cpu_seconds = 0;  // user + system of the grader and of every child it waited for
  std::size_t items = 0;   // student-labs graded
};

// CPU seconds (user + system) so far of this process and of the children it waited for: unlike
// the wall clock, hardly moved by other work on a shared machine.
double cpu_seconds() {
  double total = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    getrusage(who, &u);
    total += double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }
  return total;
}

enum class Way { Now, Earlier };  // Earlier: a child for the build and for every case, every kernel graded

Timed grade(const ClassBenchOptions& o, const fs::path& submissions, const fs::path& out, Way way,
            const std::vector<std::string>& only) {
  Timed t;
  fs::remove_all(out);
  BatchOptions b;
  b.submissions = submissions;
  b.out = out;
  b.references = o.references;
  b.specs = o.specs;
  b.grading = o.grading;
  b.grading.child_per_case = way == Way::Earlier;
  b.jobs = o.jobs;
  b.only_students = only;
  b.stats = &t.stats;
  std::ostringstream progress;
  const double cpu_before = cpu_seconds();
  grade_class(b, progress);
  t.cpu_seconds = cpu_seconds() - cpu_before;
  t.results = Journal(out / "journal.jsonl").load();
  return t;
}

// What a verdict is made of: each case's status and points. The speed case's points follow a
// timing, so only whether it counted (a right result) is compared.
std::string verdict_of(const CaseResult& c) {
  if (c.kind == CaseKind::Speed)
    return c.status == CaseStatus::Passed || c.status == CaseStatus::Slow || c.status == CaseStatus::Scaled || c.status == CaseStatus::Withheld
               ? "right"
               : word(c.status);
  std::ostringstream text;
  text << word(c.status) << " " << c.points;
  return text.str();
}

double phase_of(const std::map<std::string, double>& phases, const std::string& name) {
  return phases.count(name) ? phases.at(name) : 0.0;
}

// One row of phases: build, cases (of which time-outs and device waits), speed (what the speed
// case adds after the kernel's cases: its child runs beside them), Oclgrind, the
// witness runs of failed cases and the runs for undefined behaviour (judge/witness.hpp),
// screening, and the rest of grading a kernel in no phase (its folder, judging, reports).
std::string phase_row(const std::map<std::string, double>& p, double divide_by) {
  const double d = divide_by > 0 ? divide_by : 1;
  double in_phases = 0;
  for (const char* top : {"screening", "build", "cases", "speed", "oclgrind", "witness", "undefined behaviour"}) in_phases += phase_of(p, top);
  char text[400];
  std::snprintf(text, sizeof text, "build %.1f cases %.1f (time-outs %.1f, device waits %.1f) speed %.1f oclgrind %.1f witness %.1f "
                "undefined behaviour %.1f screening %.1f in no phase %.1f", phase_of(p, "build") / d, phase_of(p, "cases") / d,
                phase_of(p, "time-outs") / d, phase_of(p, "device waits") / d, phase_of(p, "speed") / d, phase_of(p, "oclgrind") / d,
                phase_of(p, "witness") / d, phase_of(p, "undefined behaviour") / d, phase_of(p, "screening") / d,
                std::max(0.0, phase_of(p, "grading") - in_phases) / d);
  return text;
}

// The phases summed over the whole batch, then per lab, per kernel graded (results reused for
// kernels graded before cost nothing). "time-outs" is the part of "cases" spent in cases stopped at
// their time limit; "device waits" the part spent waiting for the device lock.
void print_phases(std::ostream& out, const BatchStats& s, int jobs) {
  char text[200];
  const double job_seconds = s.seconds * jobs;
  std::snprintf(text, sizeof text, "    phases (seconds summed over %d jobs: %.1f job-seconds; %.0f case children):\n      all          ", jobs,
                job_seconds, phase_of(s.phases, "children"));
  out << text << phase_row(s.phases, 1);
  std::snprintf(text, sizeof text, "; outside grading a kernel %.1f\n", std::max(0.0, job_seconds - phase_of(s.phases, "grading")));
  out << text;
  for (const auto& [lab, phases] : s.lab_phases) {
    const std::size_t graded = s.lab_graded.count(lab) ? s.lab_graded.at(lab) : 0;
    std::snprintf(text, sizeof text, "      %-26s %3zu kernels graded, %6.1f s in all; per kernel: ", lab.c_str(), graded,
                  phase_of(phases, "grading"));
    out << text << phase_row(phases, double(graded)) << "\n";
  }
}

// The whole class against an earlier run's journal: the student-labs whose every case finished there
// (no case timed out: the earlier grader ran a time-out again alone, so none timed out alone) must
// get the same verdicts now, whatever the time budget; the lines it left out are counted.
void compare_with(const ResultMap& now, const std::filesystem::path& journal, std::ostream& out) {
  const ResultMap earlier = Journal(journal).load();
  std::size_t finished = 0, differing = 0, budget_lines = 0, budget_labs = 0;
  for (const auto& [key, r] : now) {
    const std::size_t skipped = std::size_t(std::count_if(r.cases.begin(), r.cases.end(), not_run_for_time_budget));
    budget_lines += skipped;
    budget_labs += skipped > 0;
  }
  for (const auto& [key, before] : earlier) {
    const auto it = now.find(key);
    if (it == now.end() || std::any_of(before.cases.begin(), before.cases.end(), [](const CaseResult& c) {
          return c.kind == CaseKind::Case && c.status == CaseStatus::Timeout;
        }))
      continue;
    ++finished;
    bool same = it->second.status == before.status && it->second.cases.size() == before.cases.size();
    for (std::size_t i = 0; same && i < before.cases.size(); ++i) same = verdict_of(before.cases[i]) == verdict_of(it->second.cases[i]);
    if (same) continue;
    ++differing;
    out << "  differs from " << journal.string() << ": " << key.first << " " << key.second << ", " << before.points() << " -> "
        << it->second.points() << " points\n";
    for (std::size_t i = 0; i < before.cases.size() && i < it->second.cases.size(); ++i)
      if (verdict_of(before.cases[i]) != verdict_of(it->second.cases[i]))
        out << "    " << before.cases[i].name << ": " << verdict_of(before.cases[i]) << " -> " << verdict_of(it->second.cases[i]) << "\n";
  }
  out << "time budget: " << budget_lines << " line(s) of " << budget_labs << " student-lab(s) not run after a time-out alone; against "
      << journal.string() << ": " << finished << " student-labs whose every case finished there, " << differing << " differ now\n";
}

// Grades a sample (every n-th student, shifted by one more each time so that the sample gets a mix
// of kinds) the earlier way and prints its figures.
Timed grade_earlier_way(const ClassBenchOptions& o, const fs::path& submissions, std::ostream& out) {
  char line[256];
  std::vector<std::string> sample;
  const std::size_t every = o.sample_every;
  for (std::size_t i = 0; i * every + i % every < o.students; ++i) sample.push_back(student_name(i * every + i % every));
  Timed earlier = grade(o, submissions, o.work / "earlier", Way::Earlier, sample);
  earlier.items = sample.size() * o.specs.size();
  std::snprintf(line, sizeof line, "earlier way (a child per case, every kernel graded), %zu students: %.1f s, %.3f student-labs/s\n",
                sample.size(), earlier.stats.seconds, double(sample.size() * o.specs.size()) / earlier.stats.seconds);
  out << line;
  print_phases(out, earlier.stats, o.jobs);
  out << std::flush;
  return earlier;
}

// The ratio of this way's student-labs per second to the earlier way's, and every verdict of the
// sample that differs between the two.
void compare_with_earlier_way(const ClassBenchOptions& o, const Timed& earlier, const Timed& now, std::ostream& out) {
  char line[256];
  const std::size_t items = o.students * o.specs.size();
  const double rate = double(items) / now.stats.seconds;
  const double earlier_rate = double(earlier.items) / earlier.stats.seconds;
  std::snprintf(line, sizeof line, "ratio: %.2fx the earlier way's student-labs per second; the whole class the earlier way: about %.0f s\n",
                rate / earlier_rate, double(items) / earlier_rate);
  out << line;
  std::size_t compared = 0, differing = 0;
  for (const auto& [key, before] : earlier.results) {
    const auto it = now.results.find(key);
    ++compared;
    bool same = it != now.results.end() && it->second.status == before.status && it->second.cases.size() == before.cases.size();
    for (std::size_t i = 0; same && i < before.cases.size(); ++i)
      same = verdict_of(before.cases[i]) == verdict_of(it->second.cases[i]);
    if (same) continue;
    ++differing;
    out << "  verdict differs: " << key.first << " " << key.second << "\n";
    if (it != now.results.end())
      for (std::size_t i = 0; i < before.cases.size() && i < it->second.cases.size(); ++i)
        if (verdict_of(before.cases[i]) != verdict_of(it->second.cases[i]))
          out << "    " << before.cases[i].name << ": " << verdict_of(before.cases[i]) << " -> " << verdict_of(it->second.cases[i])
              << (not_run_for_time_budget(it->second.cases[i]) ? " (the time budget; the earlier way has none)" : "") << "\n";
  }
  out << "verdicts: " << compared << " student-labs graded both ways, " << differing << " differ\n";
}

std::string load_average() {
  std::string text = read_file("/proc/loadavg");
  text = text.substr(0, text.find(' ', text.find(' ', text.find(' ') + 1) + 1));
  return text;
}

}  // namespace

void run_class_bench(const ClassBenchOptions& o, std::ostream& out) {
  const fs::path submissions = o.work / "class";
  const Composition c = make_class(o, submissions);
  const std::size_t items = o.students * o.specs.size();
  char line[256];
  std::snprintf(line, sizeof line, "class: %zu students x %zu labs = %zu student-labs (right %zu, wrong %zu, untouched %zu); "
                "%s; --jobs %d\n", o.students, o.specs.size(), items, c.kinds.count("right") ? c.kinds.at("right") : 0,
                c.kinds.count("wrong") ? c.kinds.at("wrong") : 0, c.kinds.count("untouched") ? c.kinds.at("untouched") : 0,
                o.grading.oclgrind == OclgrindChecks::None ? "no Oclgrind run (--no-oclgrind: the device alone)"
                : o.grading.safety()                       ? "safety checks on"
                                                           : "safety checks off",
                o.jobs);
  out << line;
  if (!c.operators.empty()) {
    out << "  one fault each, by mutation operator:";
    for (const auto& [op, count] : c.operators) out << " " << op << " " << count;
    out << "; every file " << (o.unique_files ? "with an unused helper function of its own" : "as made (repeated files share results)")
        << "\n";
  }
  out << std::flush;

  out << "load average at the start: " << load_average() << "\n" << std::flush;
  const Timed earlier = o.sample_every > 0 ? grade_earlier_way(o, submissions, out) : Timed{};

  const Timed now = grade(o, submissions, o.work / "now", Way::Now, {});
  const double rate = double(items) / now.stats.seconds;
  std::snprintf(line, sizeof line, "this way (a child per kernel, each kernel graded once), whole class: %.1f s, %.3f student-labs/s; "
                "%zu results reused\n", now.stats.seconds, rate, now.stats.reused);
  out << line;
  std::snprintf(line, sizeof line, "    CPU: %.1f s user + system (the grader and the children it waited for), %.0f %% of %d cores' "
                "wall time\n", now.cpu_seconds, 100 * now.cpu_seconds / (now.stats.seconds * o.jobs), o.jobs);
  out << line;
  std::snprintf(line, sizeof line, "    CPU per student-lab graded (not reused): %.2f s\n",
                now.cpu_seconds / double(std::max<std::size_t>(1, items - std::min(items, now.stats.reused))));
  out << line;
  std::set<std::string> devices;  // as the children named them: the bench says where it graded
  for (const auto& [key, r] : now.results)
    if (!r.device.empty()) devices.insert(r.device);
  for (const std::string& d : devices) out << "    device: " << d << "\n";
  print_phases(out, now.stats, o.jobs);
  out << "load average after it: " << load_average() << "\n" << std::flush;
  if (o.sample_every > 0) compare_with_earlier_way(o, earlier, now, out);
  if (!o.against.empty()) compare_with(now.results, o.against, out);
}

}  // namespace grader
