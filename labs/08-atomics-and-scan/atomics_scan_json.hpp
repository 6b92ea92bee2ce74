#pragma once
// Lab 08 in JSON, as the grader's specs, results and references hold it. A case {part, elements,
// local, seed}, `run` for the accuracy part, and on the atomic parts the contention fields `data`
// ("int" or "positive-int"), `repeats` and `pocl_threads`. Outputs and references per part:
// atomic {groups, total} for one launch, {groups, totals: [{total, runs}], runs} for several, and
// the reference {total} (int) or {exact, abs, abs_partials, whole}; accuracy {passes, naive,
// pairwise, kahan} against {scale, runs: [{sum, abs, count}], naive}; scan and compaction
// {digest, levels, first_difference, size or count} against {size or count, digest, levels}.
// Outputs also carry their seconds.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "atomics_scan.hpp"
#include "single_pass.hpp"
#include "kit/errors.hpp"
#include "kit/json.hpp"

namespace lab08 {

// A case as a spec states it: the lab's case, and on the atomic parts three optional fields that
// put the atomics under contention: `data` ("int", whole numbers -8..8, or "positive-int", 1..8:
// every partial positive, so a lost update always makes the total smaller), `repeats` (R launches,
// every total must be right) and `pocl_threads` (the PoCL threads the sandbox gives the step,
// pinned to their own cores where it can: with one thread work-groups never overlap and a
// compare-and-swap without retry never fails).
struct SpecCase {
  Case c;
  int repeats = 1;
  int threads = 1;
};

// Throws kit::Error naming the field unless the contention fields are absent or usable, and only
// on an atomic part.
inline void check_contention_fields(const kit::json& j, Part part) {
  const bool atomic = part == Part::AtomicInt || part == Part::AtomicFloat;
  if (j.contains("groups") && part != Part::SinglePass)
    throw kit::Error("groups: only the single-pass part takes it, not part \"" + to_string(part) + "\"");
  if (j.contains("branch") && part != Part::SinglePass)
    throw kit::Error("branch: only the single-pass part takes it, not part \"" + to_string(part) + "\"");
  if (j.contains("branch") && j.at("branch") != "device" && j.at("branch") != "cpu" && j.at("branch") != "gpu")
    throw kit::Error("branch: must be \"device\" (the device type picks), \"cpu\" (-D CONTIGUOUS) or \"gpu\" (the grid stride), not " +
                     j.at("branch").dump());
  if (j.contains("groups") && !j.at("groups").is_number_unsigned())
    throw kit::Error("groups: must be a whole number of work-groups (0: the device's default), not " + j.at("groups").dump());
  for (const char* key : {"data", "repeats", "pocl_threads"})
    if (j.contains(key) && !atomic && !(part == Part::SinglePass && std::string(key) != "data"))
      throw kit::Error(std::string(key) + ": only the atomic parts (atomic-int, atomic-float) take it, not part \"" + to_string(part) + "\"");
  if (j.contains("data") && j.at("data") != "int" && j.at("data") != "positive-int")
    throw kit::Error("data: must be \"int\" (whole numbers -8..8) or \"positive-int\" (1..8), not " + j.at("data").dump());
  if (j.contains("repeats") && (!j.at("repeats").is_number_unsigned() || j.at("repeats") < 1 || j.at("repeats") > 10000))
    throw kit::Error("repeats: must be a whole number from 1 to 10000 (launches, each total checked), not " + j.at("repeats").dump());
  if (j.contains("pocl_threads") && (!j.at("pocl_threads").is_number_unsigned() || j.at("pocl_threads") < 1 || j.at("pocl_threads") > 256))
    throw kit::Error("pocl_threads: must be a whole number from 1 to 256, not " + j.at("pocl_threads").dump());
}

// `run` is the accuracy part's run length; the other parts ignore it (the memory-safety case lists
// every part with one run length).
inline void from_json(const kit::json& j, SpecCase& s) {
  s.c.part = parse_part(j.at("part").get<std::string>());
  if (s.c.part == Part::Accuracy && !j.contains("run")) throw kit::Error("run: the accuracy part needs the run length, a whole number");
  check_contention_fields(j, s.c.part);
  j.at("elements").get_to(s.c.elements);
  j.at("local").get_to(s.c.local);
  j.at("seed").get_to(s.c.seed);
  if (j.contains("run")) j.at("run").get_to(s.c.run);
  s.c.positive = j.value("data", std::string("int")) == "positive-int";
  s.repeats = j.value("repeats", 1);
  s.c.groups = j.value("groups", std::size_t(0));
  s.c.branch = j.value("branch", std::string("device"));
  s.threads = j.value("pocl_threads", 1);
}

// The fields from_json reads, and no others (the grader refuses a case field not written here):
// `run` on every part (the others ignore it), the contention fields on the atomic parts only, each
// with the value it took.
inline void to_json(kit::json& j, const SpecCase& s) {
  j = {{"part", to_string(s.c.part)}, {"elements", s.c.elements}, {"local", s.c.local}, {"seed", s.c.seed}, {"run", s.c.run}};
  if (s.c.part == Part::AtomicInt || s.c.part == Part::AtomicFloat) {
    j["data"] = s.c.positive ? "positive-int" : "int";
    j["repeats"] = unsigned(s.repeats);
    j["pocl_threads"] = unsigned(s.threads);
  }
  if (s.c.part == Part::SinglePass) {
    j["groups"] = s.c.groups;
    j["branch"] = s.c.branch;
    j["repeats"] = unsigned(s.repeats);
    j["pocl_threads"] = unsigned(s.threads);
  }
}

// The lab's validate(), and the float atomic's data small enough that its total is exact.
inline void validate(const SpecCase& s) {
  if (s.c.part == Part::AtomicFloat && s.c.elements > kMaxWholeFloatElements)
    throw kit::Error("elements: the float atomic's graded total must be exact in any order: at most 2^21 = " +
                     std::to_string(kMaxWholeFloatElements) + " elements");
  validate(s.c);
}

// An atomic part's outputs: the total of one launch; for several, the distinct totals in the order
// first seen, each with how many launches gave it (compact, and the same for every right run).
inline kit::json atomic_to_json(const Sum& s, int repeats, bool ints) {
  const auto number = [&](double t) { return ints ? kit::json(std::int64_t(t)) : kit::real_to_json(t); };
  kit::json out = {{"groups", s.groups}, {"seconds", s.timing.best}};
  if (s.compare_and_swap) out["compare_and_swap"] = true;
  if (repeats == 1) {
    out["total"] = number(s.total);
    return out;
  }
  kit::json totals = kit::json::array();
  for (const double t : s.totals) {
    auto seen = std::find_if(totals.begin(), totals.end(), [&](const kit::json& e) { return kit::real_from_json(e.at("total")) == t; });
    if (seen == totals.end()) totals.push_back({{"total", number(t)}, {"runs", 1}});
    else (*seen)["runs"] = (*seen)["runs"].get<int>() + 1;
  }
  out["totals"] = totals;
  out["runs"] = s.totals.size();
  return out;
}

// The single-pass part's outputs: its shape and every launch's result, as an atomic part's totals.
inline kit::json single_pass_to_json(const SinglePassOutputs& o) {
  Sum s;
  s.groups = o.groups;
  s.timing = o.timing;
  s.total = o.result;
  s.totals = o.results;
  kit::json j = atomic_to_json(s, int(o.results.size()) == 1 ? 1 : 2, false);
  j["local"] = o.local;
  j["ticket_after"] = o.ticket_after;
  return j;
}

// The totals of an atomic part's outputs with their launch counts (check_atomic's form).
inline std::vector<std::pair<double, int>> atomic_totals_from_json(const kit::json& j) {
  if (!j.contains("totals")) return {{kit::real_from_json(j.at("total")), 1}};
  std::vector<std::pair<double, int>> all;
  for (const kit::json& e : j.at("totals")) all.emplace_back(kit::real_from_json(e.at("total")), e.at("runs").get<int>());
  return all;
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FloatExpected, exact, abs, abs_partials, whole)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DotExpected, exact, abs)

inline void to_json(kit::json& j, const AccuracyOutputs& out) {
  j = {{"passes", out.pairwise_passes}};
  double seconds = 0;
  for (const Method& m : methods()) {
    j[m.name] = kit::reals_to_json(out.sums.at(m.name));
    seconds += out.timing.at(m.name).best;
  }
  j["seconds"] = seconds;
}

inline void from_json(const kit::json& j, AccuracyOutputs& out) {
  for (const Method& m : methods())
    if (j.contains(m.name)) out.sums[m.name] = kit::reals_from_json(j.at(m.name));
}

inline void to_json(kit::json& j, const RunExact& r) { j = {{"sum", to_decimal(r.sum)}, {"abs", to_decimal(r.abs)}, {"count", r.count}}; }
inline void from_json(const kit::json& j, RunExact& r) {
  r = {parse_decimal(j.at("sum").get<std::string>()), parse_decimal(j.at("abs").get<std::string>()), j.at("count").get<std::size_t>()};
}

// A scan's or compaction's outputs: `digest`, the values' SHA-256, stands for them; where they
// first differ from the host's (see_scan), for the message only, a few values from there on.
inline kit::json scan_to_json(const Case& c, const ScanOutputs& out, const ScanSeen& seen, const std::string& digest) {
  const kit::json first = seen.first ? kit::json{{"index", *seen.first}, {"got", seen.window}} : kit::json(nullptr);
  kit::json j = {{"digest", digest}, {"levels", out.levels}, {"first_difference", first}, {"seconds", out.timing.best}};
  j[c.part == Part::Compact ? "count" : "size"] = seen.count;
  return j;
}

// What a scan or compaction showed, judged by its digest against the reference's.
inline ScanSeen scan_seen_from_json(const Case& c, const kit::json& outputs, const kit::json& reference) {
  ScanSeen seen;
  seen.by_digest = true;
  seen.count = outputs.at(c.part == Part::Compact ? "count" : "size").get<std::int64_t>();
  seen.equal = outputs.at("digest") == reference.at("digest");
  if (const kit::json& first = outputs.at("first_difference"); !first.is_null()) {
    seen.first = first.at("index").get<std::size_t>();
    seen.window = first.at("got").get<std::vector<std::int64_t>>();
  }
  return seen;
}

}  // namespace lab08
