#include "tools/mutants.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <ostream>

#include "batch/batch.hpp"
#include "core/files.hpp"
#include "core/words.hpp"
#include "judge/grade.hpp"
#include "kit/errors.hpp"
#include "tools/line_differences.hpp"
#include "tools/metamorphic.hpp"
#include "tools/mutate.hpp"
#include "tools/variants.hpp"
#include "spec/references.hpp"
#include "export/reports.hpp"

namespace grader {
namespace fs = std::filesystem;
namespace {

// What one lab's run found; `mutants` holds one JSON record per mutant made.
struct LabSummary {
  std::string lab;
  std::size_t generated = 0, made = 0, not_compiled = 0, killed = 0, survived = 0, equivalent = 0, errors = 0;
  double control = 0, full = 0, seconds = 0;
  json mutants = json::array();
  json metamorphic = json::array();  // --metamorphic: one record per kernel and variant
  json rewrites = json::array();     // --metamorphic: one record per variant, what it rewrote
  struct Found {
    std::string id, variant;
    LineDifference line;
  };
  std::vector<Found> differences;  // --metamorphic: every line that differs
  std::size_t counted() const { return made - not_compiled - equivalent - errors; }
};

// "83.3%", or "n/a" when no mutant counts.
std::string percent(std::size_t killed, std::size_t counted) {
  if (counted == 0) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * killed / counted);
  return text;
}

// `dir`, emptied; a folder that `grader mutants` did not make (no marker file) is never emptied.
fs::path fresh_dir(const fs::path& dir) {
  const fs::path marker = dir / ".grader-mutants";
  if (fs::exists(dir) && !fs::exists(marker))
    throw kit::Error(dir.string() + " exists and was not made by grader mutants; choose another --out");
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(marker) << "made by grader mutants: emptied on its next run with this --out\n";
  return dir;
}

// How a graded mutant counts: its "status" in mutants.json, one word each.
enum class MutantVerdict {
  NotCompiled,  // "not-compiled": not built, or rejected; not counted in the score
  Killed,       // "killed": lost a point in a check the grader finished; counted, caught
  Survived,     // "survived": full points; counted, not caught
  Equivalent,   // "equivalent": survived, and listed as equivalent to the solution with the reason; not counted
  Error,        // "error": lost points only where the grader itself failed; not counted
};

constexpr Word<MutantVerdict> kMutantVerdictWords[] = {{MutantVerdict::NotCompiled, "not-compiled"}, {MutantVerdict::Killed, "killed"},
                                                       {MutantVerdict::Survived, "survived"}, {MutantVerdict::Equivalent, "equivalent"},
                                                       {MutantVerdict::Error, "error"}};
static_assert(one_word_each(kMutantVerdictWords, MutantVerdict::Error));

std::string word(MutantVerdict verdict) { return word_in(kMutantVerdictWords, verdict); }
void to_json(json& j, MutantVerdict verdict) { j = word(verdict); }

MutantVerdict classify(const LabResult& r, double full) {
  if (r.status == LabStatus::BuildError || r.status == LabStatus::Rejected) return MutantVerdict::NotCompiled;
  if (r.status != LabStatus::Graded) return MutantVerdict::Error;
  if (r.points() + 1e-9 >= full) return MutantVerdict::Survived;
  for (const CaseResult& c : r.cases)
    if (c.status != CaseStatus::Error && c.points + 1e-9 < c.max_points) return MutantVerdict::Killed;
  return MutantVerdict::Error;
}

enum class Screening { StopAtFirstLoss, Whole };

// A batch grading the mutant folders under `submissions` with `spec`, into `out`.
BatchOptions mutant_batch(const MutantsOptions& o, const fs::path& submissions, const fs::path& out, const LabSpec& spec,
                          Screening screening) {
  BatchOptions b;
  b.submissions = submissions;
  b.out = out;
  b.references = o.references;
  b.specs = {spec};
  b.grading = o.grading;
  b.grading.stop_at_first_loss = screening == Screening::StopAtFirstLoss;
  b.jobs = o.jobs;
  return b;
}

// `source` graded whole as the submission DIR/solution.
LabResult grade_solution(const LabSpec& spec, const LabReference& reference, const std::string& source, const fs::path& dir,
                         const MutantsOptions& o) {
  write_file_atomically(dir / "solution" / spec.kernel_file, source);
  const GradeSettings settings{fs::read_symlink("/proc/self/exe"), dir / ".work", o.grading};
  const LabResult r = grade_lab(spec, reference, dir / "solution", "solution", settings);
  fs::remove_all(dir / ".work");
  return r;
}

// The solution graded as a control; throws kit::Error unless it scores full points.
LabResult grade_control(const LabSpec& spec, const LabReference& reference, const std::string& source, const fs::path& dir,
                        const MutantsOptions& o) {
  const LabResult r = grade_solution(spec, reference, source, dir, o);
  if (r.status == LabStatus::Graded && r.points() + 1e-9 >= r.max_points()) return r;
  std::string why = r.status == LabStatus::Graded ? "" : "\n  " + word(r.status) + ": " + r.message;
  for (const CaseResult& c : r.cases)
    if (c.points + 1e-9 < c.max_points) why += "\n  " + c.name + ": " + word(c.status) + " " + c.message;
  throw kit::Error("the control, solutions/" + spec.lab + "/" + spec.kernel_file + ", scored " + format_points(r.points()) + " of " +
                   format_points(r.max_points()) + " points: the spec or the references of " + spec.lab + " are broken" + why);
}

// A mutant to grade: its folder's name and the mutant.
using Picked = std::vector<std::pair<std::string, const Mutant*>>;

// Up to o.max_per_lab of `all` (those of o.only_operator when given), spread evenly, each written
// into its folder under DIR/mutants/.
Picked write_mutants(const MutantsOptions& o, const LabSpec& spec, const std::vector<Mutant>& all, const fs::path& dir) {
  std::vector<std::size_t> of_operator;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (o.only_operator.empty() || all[i].op == o.only_operator) of_operator.push_back(i);
  Picked picked;
  for (const std::size_t k : pick_evenly(of_operator.size(), o.max_per_lab)) {
    const std::size_t i = of_operator[k];
    char id[16];
    std::snprintf(id, sizeof id, "m%04zu", i + 1);
    picked.push_back({std::string(id) + "-" + all[i].op + "-L" + std::to_string(all[i].line), &all[i]});
    write_file_atomically(dir / "mutants" / picked.back().first / spec.kernel_file, all[i].source);
  }
  return picked;
}

// Grades the mutants like students; returns the report that decides each, by its folder's name.
std::map<std::string, fs::path> grade_mutants(const MutantsOptions& o, const LabSpec& spec, const Picked& picked,
                                              const fs::path& dir, double full, std::ostream& out) {
  // With the safety checks, the cases come first, without Oclgrind, each mutant up to its first
  // case that loses points: such a mutant loses them in the full grading too (same cases, same
  // references), so it is killed, and only the others are graded again with the whole spec. Same
  // counts, a fraction of the time. With --metamorphic every mutant is graded whole, so that a
  // variant and the kernel as made are compared on every line.
  std::map<std::string, fs::path> report_of;  // mutant folder -> the report that decides it
  std::vector<std::string> full_grading;
  if (o.grading.safety() && !o.metamorphic) {
    LabSpec cases_only = spec;
    cases_only.algorithm.reset();
    grade_class(mutant_batch(o, dir / "mutants", dir / "screened", cases_only, Screening::StopAtFirstLoss), out);
    for (const auto& [name, m] : picked) {
      const fs::path report = dir / "screened" / name / "report.json";
      const LabResult screened = lab_result_from_json(json::parse(read_file(report)).at("labs").at(0));
      const MutantVerdict verdict = classify(screened, full);  // one with a device-disagrees line is graded again whole
      if ((verdict == MutantVerdict::Killed || verdict == MutantVerdict::NotCompiled) && !device_disagrees_count(screened)) report_of[name] = report;
      else full_grading.push_back(name);
    }
    out << "== " << spec.lab << ": " << report_of.size() << " settled by the cases alone; " << full_grading.size()
        << " graded again with the safety and algorithm checks\n" << std::flush;
    fs::create_directories(dir / "full");
    for (const std::string& name : full_grading) fs::rename(dir / "mutants" / name, dir / "full" / name);
    if (!full_grading.empty())
      grade_class(mutant_batch(o, dir / "full", dir / "graded", spec, Screening::Whole), out);
    for (const std::string& name : full_grading) fs::rename(dir / "full" / name, dir / "mutants" / name);
  } else {
    grade_class(mutant_batch(o, dir / "mutants", dir / "graded", spec, o.metamorphic ? Screening::Whole : Screening::StopAtFirstLoss), out);
  }
  for (const auto& [name, m] : picked)
    if (!report_of.count(name)) report_of[name] = dir / "graded" / name / "report.json";
  return report_of;
}

// Counts each mutant's verdict into `s` and records it in s.mutants; a survivor listed in the
// lab's equivalent list counts as equivalent. Returns the warnings about that list.
std::vector<std::string> count_mutants(const MutantsOptions& o, const LabSpec& spec, const Picked& picked,
                                       const std::map<std::string, fs::path>& report_of, LabSummary& s) {
  const fs::path list = o.equivalents / (spec.lab + ".equivalent.json");
  const std::vector<KnownEquivalent> known = load_equivalents(list);
  std::vector<bool> used(known.size(), false);
  std::vector<std::string> warnings;
  for (const auto& [name, m] : picked) {
    const json report = json::parse(read_file(report_of.at(name)));
    const LabResult r = lab_result_from_json(report.at("labs").at(0));
    MutantVerdict verdict = classify(r, s.full);
    std::string why;
    for (std::size_t k = 0; k < known.size(); ++k)
      if (known[k].op == m->op && known[k].line == m->line && known[k].after == m->after) {
        used[k] = true;
        if (verdict == MutantVerdict::Survived) verdict = MutantVerdict::Equivalent, why = known[k].why;
        else warnings.push_back(name + " is listed as equivalent in " + list.string() + " but is " + word(verdict) + ": remove it from the list");
      }
    s.not_compiled += verdict == MutantVerdict::NotCompiled;
    s.killed += verdict == MutantVerdict::Killed;
    s.survived += verdict == MutantVerdict::Survived;
    s.equivalent += verdict == MutantVerdict::Equivalent;
    s.errors += verdict == MutantVerdict::Error;
    json record = {{"lab", spec.lab}, {"id", name.substr(0, 5)}, {"operator", m->op},    {"line", m->line},
                   {"before", m->before}, {"after", m->after},     {"status", verdict}, {"points", r.points()},
                   {"max_points", s.full}};
    if (!why.empty()) record["why"] = why;
    s.mutants.push_back(record);
  }
  if (o.max_per_lab == 0 && o.only_operator.empty())  // else a listed mutant may simply not have been made
    for (std::size_t k = 0; k < known.size(); ++k)
      if (!used[k])
        warnings.push_back(list.string() + ": no mutant matches entry " + std::to_string(k + 1) + " (" + known[k].op + ", line " +
                           std::to_string(known[k].line) + "): the solution changed; update the list");
  return warnings;
}

// One lab's summary, the warnings about its equivalent list, and its survivors.
void print_summary(const LabSummary& s, const std::vector<std::string>& warnings, std::ostream& out) {
  out << "\n" << s.lab << ": " << s.made << " mutants made (of " << s.generated << "), " << s.not_compiled << " not compiled, "
      << s.killed << " killed, " << s.survived << " survived, " << s.equivalent << " equivalent (listed), " << s.errors
      << " grader errors\n";
  out << "  control: the solution scored " << format_points(s.control) << "/" << format_points(s.full) << "\n";
  out << "  mutation score: " << s.killed << "/" << s.counted() << " = " << percent(s.killed, s.counted())
      << " (killed / (made - not compiled - equivalent - grader errors))\n";
  for (const std::string& w : warnings) out << "  warning: " << w << "\n";
  for (const json& m : s.mutants)
    if (m["status"] == word(MutantVerdict::Survived))
      out << "  survived: " << m["id"].get<std::string>() << " " << m["operator"].get<std::string>() << ", line " << m["line"] << "\n"
          << "    before: " << m["before"].get<std::string>() << "\n"
          << "    after:  " << m["after"].get<std::string>() << "\n";
  out << std::flush;
}

// The report that decides a mutant, read back.
LabResult read_lab_result(const fs::path& report) { return lab_result_from_json(json::parse(read_file(report)).at("labs").at(0)); }

// --metamorphic: the kernel `id` graded as made (`made`) and as `variant` (`graded`): records the
// comparison and every line that differs into `s`, and prints each difference.
void compare_gradings(LabSummary& s, const std::string& id, const std::string& variant, const LabResult& made, const LabResult& graded,
                      std::ostream& out) {
  const std::vector<LineDifference> found = line_differences(made, graded);
  s.metamorphic.push_back({{"lab", s.lab}, {"id", id}, {"variant", variant}, {"status_made", word(made.status)},
                           {"status_variant", word(graded.status)}, {"lines_made", made.cases.size()},
                           {"lines_variant", graded.cases.size()}, {"points_made", made.points()},
                           {"points_variant", graded.points()}, {"differences", found.size()}});
  for (const LineDifference& d : found) {
    s.differences.push_back({id, variant, d});
    print_difference(s.lab, id, variant, d, out);
  }
}

// --metamorphic: the control and the mutants graded again as each variant (variants.hpp) that
// changes them, under DIR/<variant> (the control under DIR/control-<variant>), in batches of their
// own so that no result is shared with the kernels as made; every grading is compared line by line
// with the one as made. What each variant rewrote and kept is printed and recorded.
void grade_variants(const MutantsOptions& o, const LabSpec& spec, const LabReference& reference, const std::string& source,
                    const LabResult& control, const Picked& picked, const std::map<std::string, fs::path>& report_of,
                    const fs::path& dir, LabSummary& s, std::ostream& out) {
  for (const Variant& v : metamorphic_variants()) {
    if (!o.variants.empty() && std::find(o.variants.begin(), o.variants.end(), v.name) == o.variants.end()) continue;
    const Rewritten control_variant = v.make(source);
    std::vector<VariantMade> made = {{"control", control_variant, control_variant.source != source}};
    Picked rewritten;
    for (const auto& [name, m] : picked) {
      Rewritten r = v.make(m->source);
      const bool changed = r.source != m->source;
      if (changed) rewritten.push_back({name, m}), write_file_atomically(dir / v.name / "mutants" / name / spec.kernel_file, r.source);
      made.push_back({name.substr(0, 5), std::move(r), changed});
    }
    s.rewrites.push_back(report_variant(s.lab, v.name, made, out));
    if (control_variant.source != source) {
      const LabResult variant_control = grade_solution(spec, reference, control_variant.source, dir / ("control-" + v.name), o);
      compare_gradings(s, "control", v.name, control, variant_control, out);
    }
    if (rewritten.empty()) continue;
    fs::create_directories(dir / v.name / "mutants");
    const std::map<std::string, fs::path> variant_report_of = grade_mutants(o, spec, rewritten, dir / v.name, s.full, out);
    for (const auto& [name, m] : rewritten)
      compare_gradings(s, name.substr(0, 5), v.name, read_lab_result(report_of.at(name)), read_lab_result(variant_report_of.at(name)), out);
  }
  out << "  metamorphic: " << s.metamorphic.size() << " gradings of variants compared line by line with the kernels as made, "
      << s.differences.size() << " lines differ\n" << std::flush;
}

// Makes, grades and counts the mutants of one lab; prints its summary and survivors.
LabSummary mutate_lab(const MutantsOptions& o, LabSpec spec, std::ostream& out) {
  const auto start = std::chrono::steady_clock::now();
  if (!o.grading.safety()) spec.algorithm.reset();  // the algorithm is measured in the Oclgrind run, skipped too
  LabSummary s;
  s.lab = spec.lab;
  const fs::path dir = fresh_dir(o.out / ("mutants-" + spec.lab));
  const std::string source = read_file(o.solutions / spec.lab / spec.kernel_file);
  const LabReference reference = load_reference(o.references, spec);
  out << "\n== " << spec.lab << ": grading the solution as a control\n" << std::flush;
  const LabResult control = grade_control(spec, reference, source, dir / "control", o);
  s.full = s.control = control.points();

  const std::vector<Mutant> all = make_mutants(source);
  s.generated = all.size();
  const Picked picked = write_mutants(o, spec, all, dir);
  s.made = picked.size();
  out << "== " << spec.lab << ": " << s.made << " of " << s.generated << " mutants, graded like students\n" << std::flush;
  fs::create_directories(dir / "mutants");
  if (picked.empty() && !o.only_operator.empty()) {  // said, and the run as a whole fails if no lab had one
    out << "== " << spec.lab << ": its solution has no mutant of operator '" << o.only_operator << "'\n";
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return s;
  }
  const std::map<std::string, fs::path> report_of = grade_mutants(o, spec, picked, dir, s.full, out);
  const std::vector<std::string> warnings = count_mutants(o, spec, picked, report_of, s);
  if (o.metamorphic) grade_variants(o, spec, reference, source, control, picked, report_of, dir, s, out);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_summary(s, warnings, out);
  return s;
}

// OUT/mutants.json: the options, a summary per lab, and every mutant.
json report_json(const MutantsOptions& o, const std::vector<LabSummary>& labs) {
  json j = {{"safety", o.grading.safety()}, {"max_per_lab", o.max_per_lab ? json(o.max_per_lab) : json(nullptr)},
            {"labs", json::array()}, {"mutants", json::array()}};
  if (o.metamorphic) j["metamorphic"] = json::array(), j["differences"] = json::array(), j["rewrites"] = json::array();
  for (const LabSummary& s : labs) {
    j["labs"].push_back({{"lab", s.lab}, {"generated", s.generated}, {"made", s.made}, {"not_compiled", s.not_compiled},
                         {"killed", s.killed}, {"survived", s.survived}, {"equivalent", s.equivalent}, {"errors", s.errors},
                         {"score", s.counted() ? json(double(s.killed) / s.counted()) : json(nullptr)},
                         {"control_points", s.control}, {"full_points", s.full}, {"seconds", std::round(s.seconds)}});
    for (const json& m : s.mutants) j["mutants"].push_back(m);
    if (!o.metamorphic) continue;
    j["labs"].back()["metamorphic_gradings"] = s.metamorphic.size();
    j["labs"].back()["differences"] = s.differences.size();
    for (const json& m : s.metamorphic) j["metamorphic"].push_back(m);
    for (const json& r : s.rewrites) j["rewrites"].push_back(r);
    for (const auto& d : s.differences) j["differences"].push_back(difference_json(s.lab, d.id, d.variant, d.line));
  }
  return j;
}

}  // namespace

std::vector<KnownEquivalent> load_equivalents(const fs::path& file) {
  std::vector<KnownEquivalent> known;
  if (!fs::exists(file)) return known;
  try {
    const json j = json::parse(read_file(file));
    for (const json& e : j.at("equivalent")) {
      known.push_back({e.at("operator").get<std::string>(), e.at("after").get<std::string>(), e.at("why").get<std::string>(),
                       e.at("line").get<int>()});
      if (known.back().why.empty()) throw kit::Error("entry " + std::to_string(known.size()) + " has an empty \"why\"");
    }
  } catch (const std::exception& e) {
    throw kit::Error(file.string() + ": " + e.what() +
                     " (expected {\"equivalent\": [{\"operator\", \"line\", \"after\", \"why\"}, ...]})");
  }
  return known;
}

std::size_t run_mutants(const MutantsOptions& options, std::ostream& out) {
  MutantsOptions o = options;
  o.out = fs::absolute(o.out);
  fs::create_directories(o.out);
  std::vector<LabSummary> labs;
  for (const LabSpec& spec : o.specs) {
    labs.push_back(mutate_lab(o, spec, out));
    write_file_atomically(o.out / "mutants.json", dump_json(report_json(o, labs), 2) + "\n");  // after each lab
  }
  char line[200];
  out << "\nMutation scores (" << (o.grading.safety() ? "with" : "without") << " the safety and algorithm checks"
      << (o.max_per_lab ? ", at most " + std::to_string(o.max_per_lab) + " mutants per lab" : "") << "):\n";
  std::snprintf(line, sizeof line, "%-26s %5s %13s %7s %9s %11s %7s %7s %7s\n", "lab", "made", "not compiled", "killed", "survived",
                "equivalent", "errors", "score", "time");
  out << line;
  for (const LabSummary& s : labs) {
    std::snprintf(line, sizeof line, "%-26s %5zu %13zu %7zu %9zu %11zu %7zu %7s %5.0f s\n", s.lab.c_str(), s.made, s.not_compiled,
                  s.killed, s.survived, s.equivalent, s.errors, percent(s.killed, s.counted()).c_str(), s.seconds);
    out << line;
  }
  std::size_t differences = 0;
  for (const LabSummary& s : labs) differences += s.differences.size();
  if (o.metamorphic) {
    out << "Metamorphic: every kernel graded again as each variant that changed it: " << differences
        << (differences == 1 ? " line differs" : " lines differ") << " from the grading as made\n";
    json rewrites = json::array();
    for (const LabSummary& s : labs)
      for (const json& r : s.rewrites) rewrites.push_back(r);
    print_variant_table(rewrites, out);
    for (const LabSummary& s : labs)
      for (const auto& d : s.differences) print_difference(s.lab, d.id, d.variant, d.line, out);
  }
  out << "Report: " << (o.out / "mutants.json").string() << "\n";
  std::size_t made = 0;
  for (const LabSummary& s : labs) made += s.made;
  if (!o.only_operator.empty() && made == 0)
    throw kit::Error("no lab's solution has a mutant of operator '" + o.only_operator + "': nothing was graded");
  return differences;
}

}  // namespace grader
