// Lab 08 atomics and scan for the grader: cases {part, elements, local, seed} and, for the
// accuracy part, run. Graded per part: the atomic int total exactly; the float total exactly too,
// on whole numbers stored as floats (below 2^24 they add exactly in any order, so the total is the
// same in every run and the references regenerate byte for byte; other data: within the trees' and
// the atomic chain's rounding bound); the
// accuracy study's sums within each method's bound (naive bit for bit, Kahan far below naive);
// scans and compactions exactly, by the SHA-256 of the whole output (and the count), so the stored
// references stay small. The memory-safety case lists every part ("part": [...]), run in turn.
// The atomic parts take three optional fields that put the atomics under contention: `data`
// ("int", whole numbers -8..8, or "positive-int", 1..8: every partial positive, so a lost update
// always makes the total smaller), `repeats` (R launches, every total must be right) and
// `pocl_threads` (the PoCL threads the sandbox gives the step, pinned to their own cores where it
// can: with one thread work-groups never overlap and a compare-and-swap without retry never fails).
#include <algorithm>
#include <optional>
#include <memory>

#include "atomics_scan.hpp"
#include "files.hpp"
#include "kit/errors.hpp"
#include "labs.hpp"

namespace grader {
namespace {

lab08::Case to_case(const json& p, lab08::Part part) {
  lab08::Case c;
  c.part = part;
  c.elements = p.at("elements").get<std::size_t>();
  c.local = p.at("local").get<std::size_t>();
  c.seed = p.at("seed").get<std::uint64_t>();
  if (p.contains("run")) c.run = p.at("run").get<std::size_t>();
  c.positive = p.value("data", std::string("int")) == "positive-int";
  return c;
}

// The atomic parts' launches per case (the field `repeats`, 1 when absent).
int repeats_of(const json& p) { return p.value("repeats", 1); }

// An atomic part's outputs: {"total"} for one launch; for R launches the distinct totals in the
// order first seen, each with how many runs gave it (compact, and the same for every right run).
json totals_json(const lab08::Sum& s, int repeats, bool ints) {
  const auto number = [&](double t) { return ints ? json(std::int64_t(t)) : float_to_json(t); };
  json out = {{"groups", s.groups}, {"seconds", s.timing.best}};
  if (repeats == 1) {
    out["total"] = number(s.total);
    return out;
  }
  json totals = json::array();
  for (const double t : s.totals) {
    auto seen = std::find_if(totals.begin(), totals.end(), [&](const json& e) { return json_to_float(e.at("total")) == t; });
    if (seen == totals.end()) totals.push_back({{"total", number(t)}, {"runs", 1}});
    else (*seen)["runs"] = (*seen)["runs"].get<int>() + 1;
  }
  out["totals"] = totals;
  out["runs"] = s.totals.size();
  return out;
}

// The totals of an atomic part's outputs with their run counts, one entry for a single launch.
std::vector<std::pair<double, int>> totals_of(const json& outputs) {
  if (!outputs.contains("totals")) return {{json_to_float(outputs.at("total")), 1}};
  std::vector<std::pair<double, int>> all;
  for (const json& e : outputs.at("totals")) all.emplace_back(json_to_float(e.at("total")), e.at("runs").get<int>());
  return all;
}

// Throws kit::Error naming the field unless the contention fields (data, repeats, pocl_threads)
// are absent or usable, and only on an atomic part.
void validate_contention(const json& p, const std::string& part) {
  const bool atomic = part == "atomic-int" || part == "atomic-float";
  for (const char* key : {"data", "repeats", "pocl_threads"})
    if (p.contains(key) && !atomic)
      throw kit::Error(std::string(key) + ": only the atomic parts (atomic-int, atomic-float) take it, not part \"" + part + "\"");
  if (p.contains("data") && p.at("data") != "int" && p.at("data") != "positive-int")
    throw kit::Error("data: must be \"int\" (whole numbers -8..8) or \"positive-int\" (1..8), not " + p.at("data").dump());
  if (p.contains("repeats") && (!p.at("repeats").is_number_unsigned() || p.at("repeats") < 1 || p.at("repeats") > 10000))
    throw kit::Error("repeats: must be a whole number from 1 to 10000 (launches, each total checked), not " + p.at("repeats").dump());
  if (p.contains("pocl_threads") && (!p.at("pocl_threads").is_number_unsigned() || p.at("pocl_threads") < 1 || p.at("pocl_threads") > 256))
    throw kit::Error("pocl_threads: must be a whole number from 1 to 256, not " + p.at("pocl_threads").dump());
}

// Throws kit::Error when a case asks for work-groups at the same time (pocl_threads >= 2) but the
// device runs one at a time: its atomics would never meet, and a missing retry could not show.
void require_threads(const kit::Runtime& rt, const json& p) {
  const int wanted = p.value("pocl_threads", 1);
  const cl_uint units = rt.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  if (wanted >= 2 && units < 2)
    throw kit::Error("pocl_threads: this case needs " + std::to_string(wanted) +
                     " PoCL threads so that work-groups run at the same time, but the device has " + std::to_string(units) +
                     " compute unit (the grader's sandbox sets POCL_MAX_PTHREAD_COUNT from the case; elsewhere set it yourself)");
}

lab08::Part part_of(const json& p) { return lab08::parse_part(p.at("part").get<std::string>()); }

// SHA-256 of the ints' bytes (little-endian int32, as they come from the device).
std::string digest(const std::vector<std::int32_t>& v) {
  return sha256_hex(std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(std::int32_t)));
}

json floats_json(const std::vector<float>& v) {
  json a = json::array();
  for (float x : v) a.push_back(float_to_json(x));
  return a;
}

std::vector<float> json_floats(const json& a) {
  std::vector<float> v;
  for (const json& x : a) v.push_back(float(json_to_float(x)));
  return v;
}

json run_part(lab08::Runner& runner, const json& params, lab08::Part part) {
  const lab08::Case c = to_case(params, part);
  switch (part) {
    case lab08::Part::AtomicInt:
      return totals_json(runner.atomic_int(c, lab08::make_ints(c), 0, repeats_of(params)), repeats_of(params), true);
    case lab08::Part::AtomicFloat:
      return totals_json(runner.atomic_float(c, lab08::make_whole_floats(c), 0, repeats_of(params)), repeats_of(params), false);
    case lab08::Part::Accuracy: {
      const lab08::AccuracyOutputs out = runner.accuracy(c, lab08::make_accuracy_data(c), 0, 1);
      json j = {{"passes", out.pairwise_passes}};
      double seconds = 0;
      for (const lab08::Method& m : lab08::methods()) {
        j[m.name] = floats_json(out.sums.at(m.name));
        seconds += out.timing.at(m.name).best;
      }
      j["seconds"] = seconds;
      return j;
    }
    case lab08::Part::ScanExclusive:
    case lab08::Part::ScanInclusive:
    case lab08::Part::Compact: {
      const auto in = lab08::make_ints(c);
      const bool compact = part == lab08::Part::Compact;
      const lab08::ScanOutputs out = compact ? runner.compact(c, in, 0, 1) : runner.scan(c, in, 0, 1);
      // Where the output first differs from the host's, for the message only: the grade comes
      // from the digest, compared in the grader with the stored reference.
      const auto expected = compact ? lab08::expected_compact(in) : lab08::expected_scan(in, part == lab08::Part::ScanInclusive);
      json first = nullptr;
      if (const auto i = lab08::first_mismatch(expected, out.values)) first = {{"index", *i}, {"got", lab08::window(out.values, *i)}};
      json j = {{"digest", digest(out.values)}, {"levels", out.levels}, {"first_difference", first}, {"seconds", out.timing.best}};
      if (compact) j["count"] = out.count;
      else j["size"] = out.values.size();
      return j;
    }
  }
  return {};
}

class Lab08Driver : public LabDriver {
 public:
  std::string id() const override { return lab08::kLab; }
  std::vector<kit::KernelSignature> kernels() const override { return lab08::signatures(); }

  void validate_case(const json& p) const override {
    const std::string part = p.at("part");
    // `run` is the accuracy part's run length; the other parts ignore it (the safety case lists
    // every part with one run length).
    if (part == "accuracy" && !p.contains("run")) throw kit::Error("run: the accuracy part needs the run length, a whole number");
    validate_contention(p, part);
    if (part == "atomic-float" && p.at("elements").get<std::size_t>() > lab08::kMaxWholeFloatElements)
      throw kit::Error("elements: the float atomic's graded total must be exact in any order: at most 2^21 = " +
                       std::to_string(lab08::kMaxWholeFloatElements) + " elements");
    lab08::validate(to_case(p, lab08::parse_part(part)));
  }

  json tolerance() const override {
    return {{"atomic-int", "exact"}, {"atomic-float", "exact-whole-below-2^24"}, {"accuracy", "per-method-bound"},
            {"scan", "digest"}, {"compact", "digest"}};
  }

  json run_case(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                const json& params) const override {
    require_threads(rt, params);
    // Every runner of this process keeps its buffers until the process ends, so that no buffer
    // reuses a released one's address (see Runner::retain_buffers): the safety case runs every
    // part in one child under Oclgrind. A child runs one case, so little is kept.
    static std::vector<std::unique_ptr<lab08::Runner>> kept;
    kept.push_back(std::make_unique<lab08::Runner>(rt, kernel, shown_as));
    kept.back()->retain_buffers();
    return run_part(*kept.back(), params, part_of(params));
  }

  json reference(const json& params) const override {
    const lab08::Part part = part_of(params);
    const lab08::Case c = to_case(params, part);
    switch (part) {
      case lab08::Part::AtomicInt: return {{"total", lab08::expected_int_sum(lab08::make_ints(c))}};
      case lab08::Part::AtomicFloat: {
        const lab08::FloatExpected e = lab08::expected_float_sum(c, lab08::make_whole_floats(c));
        return {{"exact", e.exact}, {"abs", e.abs}, {"abs_partials", e.abs_partials}, {"whole", e.whole}};
      }
      case lab08::Part::Accuracy: {
        const auto data = lab08::make_accuracy_data(c);
        json runs = json::array();
        for (const lab08::RunExact& r : lab08::exact_runs(c, data))
          runs.push_back({{"sum", lab08::to_decimal(r.sum)}, {"abs", lab08::to_decimal(r.abs)}, {"count", r.count}});
        return {{"scale", lab08::kAccuracyScale}, {"runs", runs}, {"naive", floats_json(lab08::naive_runs(c, data))}};
      }
      case lab08::Part::ScanExclusive:
      case lab08::Part::ScanInclusive: {
        const auto e = lab08::expected_scan(lab08::make_ints(c), part == lab08::Part::ScanInclusive);
        return {{"size", e.size()}, {"digest", digest(e)}, {"levels", lab08::scan_levels(c.elements, c.local).size()}};
      }
      case lab08::Part::Compact: {
        const auto e = lab08::expected_compact(lab08::make_ints(c));
        return {{"count", e.size()}, {"digest", digest(e)}};
      }
    }
    return {};
  }

  Comparison compare(const json& params, const json&, const json& reference, const json& outputs) const override {
    const lab08::Part part = part_of(params);
    const lab08::Case c = to_case(params, part);
    switch (part) {
      case lab08::Part::AtomicInt:
      case lab08::Part::AtomicFloat: {
        lab08::FloatExpected e;
        if (part == lab08::Part::AtomicInt) e.exact = reference.at("total").get<double>();
        else e = {reference.at("exact"), reference.at("abs"), reference.at("abs_partials"), reference.value("whole", false)};
        return lab08::check_atomic(c, totals_of(outputs), e, params.value("pocl_threads", 1));
      }
      case lab08::Part::Accuracy: {
        std::vector<lab08::RunExact> exact;
        for (const json& r : reference.at("runs"))
          exact.push_back({lab08::parse_decimal(r.at("sum")), lab08::parse_decimal(r.at("abs")), r.at("count").get<std::size_t>()});
        lab08::AccuracyOutputs out;
        for (const lab08::Method& m : lab08::methods())
          if (outputs.contains(m.name)) out.sums[m.name] = json_floats(outputs.at(m.name));
        return lab08::check_accuracy(c, out, exact, json_floats(reference.at("naive")));
      }
      case lab08::Part::ScanExclusive:
      case lab08::Part::ScanInclusive:
      case lab08::Part::Compact: {
        const bool compact = part == lab08::Part::Compact;
        lab08::ScanSeen seen;
        seen.by_digest = true;
        seen.count = outputs.at(compact ? "count" : "size").get<std::int64_t>();
        seen.equal = outputs.at("digest") == reference.at("digest");
        if (const json& first = outputs.at("first_difference"); !first.is_null()) {
          seen.first = first.at("index").get<std::size_t>();
          seen.window = first.at("got").get<std::vector<std::int64_t>>();
        }
        return lab08::check_scan(c, lab08::make_ints(c), seen);
      }
    }
    return {false, "unknown part", ""};
  }
};

}  // namespace

std::unique_ptr<LabDriver> make_lab_driver_08() { return std::make_unique<Lab08Driver>(); }

}  // namespace grader
