// Lab 08 atomics and scan for the grader: cases {part, elements, local, seed}, `run` for the
// accuracy part, and the atomic parts' contention fields (atomics_scan_json.hpp). Graded per part:
// the atomic totals exactly (the float one on whole numbers: below 2^24 they add exactly in any
// order); the accuracy study's sums within each method's bound (naive bit for bit, Kahan far below
// naive); scans and compactions by the SHA-256 of the whole output (and the count). The
// memory-safety case lists every part ("part": [...]), run in turn.
#include "atomics_scan_json.hpp"
#include "grader/lab/adapter.hpp"

namespace grader {
namespace {

using lab08::Part;

// Throws kit::Error when a case asks for work-groups at the same time (pocl_threads >= 2) but the
// device runs one at a time: its atomics would never meet, and a missing retry could not show.
void require_threads(const kit::Runtime& rt, int wanted) {
  const cl_uint units = rt.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  if (wanted >= 2 && units < 2)
    throw kit::Error("pocl_threads: this case needs " + std::to_string(wanted) +
                     " PoCL threads so that work-groups run at the same time, but the device has " + std::to_string(units) +
                     " compute unit (the grader's sandbox sets POCL_MAX_PTHREAD_COUNT from the case; elsewhere set it yourself)");
}

// The words run() recorded for what ran a case's launches ("2 PoCL threads", "132 compute units").
std::string ran_on(const lab08::SpecCase& s, const json& outputs) {
  return outputs.contains("ran_on") ? outputs.at("ran_on").get<std::string>() : kit::parallel_units_words(true, unsigned(s.threads));
}

struct Lab08 {
  using Case = lab08::SpecCase;
  std::string id() const { return lab08::kLab; }
  std::vector<kit::KernelSignature> kernels() const { return lab08::signatures(); }
  void validate(const Case& s) const { lab08::validate(s); }
  json tolerance() const {
    return {{"atomic-int", "exact"}, {"atomic-float", "exact-whole-below-2^24"}, {"accuracy", "per-method-bound"}, {"scan", "digest"}, {"compact", "digest"}, {"single-pass", "depth-bound"}};
  }

  json run(const Kernel& k, const Case& s) const {
    require_threads(k.rt, s.threads);
    // Every runner of this process keeps its buffers until the process ends, so that no buffer
    // reuses a released one's address (see Runner::retain_buffers): the safety case runs every
    // part in one child under Oclgrind. A child runs one case, so little is kept.
    static std::vector<std::unique_ptr<lab08::Runner>> kept;
    lab08::Runner& runner = *kept.emplace_back(std::make_unique<lab08::Runner>(k.rt, k.file, k.shown_as));
    runner.retain_buffers();
    const lab08::Case& c = s.c;
    switch (c.part) {
      case Part::AtomicInt:
      case Part::AtomicFloat: {
        json out = c.part == Part::AtomicInt ? lab08::atomic_to_json(runner.atomic_int(c, lab08::make_ints(c), 0, s.repeats), s.repeats, true)
                                             : lab08::atomic_to_json(runner.atomic_float(c, lab08::make_whole_floats(c), 0, s.repeats), s.repeats, false);
        out["ran_on"] = k.rt.parallel_units(s.threads);  // what ran the launches side by side, in the device's words
        return out;
      }
      case Part::Accuracy: return runner.accuracy(c, lab08::make_accuracy_data(c), 0, 1);
      case Part::ScanExclusive:
      case Part::ScanInclusive:
      case Part::Compact: {
        const auto in = lab08::make_ints(c);
        const lab08::ScanOutputs out = c.part == Part::Compact ? runner.compact(c, in, 0, 1) : runner.scan(c, in, 0, 1);
        return lab08::scan_to_json(c, out, lab08::see_scan(c, in, out), digest(out.values));
      }
      case Part::SinglePass: {
        // Kept to the process's end like the runners above: Oclgrind 21.10 corrupts its heap when
        // this program is released before the others.
        static std::vector<std::unique_ptr<lab08::SinglePass>> passes;
        const std::vector<float> a = lab08::dot_input(c, 0), b = lab08::dot_input(c, 1);
        lab08::SinglePass& pass =
            *passes.emplace_back(std::make_unique<lab08::SinglePass>(k.rt, k.file, c.elements, lab08::SinglePassShape{c.local, c.groups, c.branch == "cpu" ? lab08::SweepBranch::Cpu : c.branch == "gpu" ? lab08::SweepBranch::Gpu : lab08::SweepBranch::Device},
                                                                     a.data(), b.data(), k.shown_as));
        return lab08::single_pass_to_json(pass.run(0, s.repeats, true));
      }
    }
    return {};
  }

  json reference(const Case& s) const {
    const lab08::Case& c = s.c;
    switch (c.part) {
      case Part::AtomicInt: return {{"total", lab08::expected_int_sum(lab08::make_ints(c))}};
      case Part::AtomicFloat: return lab08::expected_float_sum(c, lab08::make_whole_floats(c));
      case Part::Accuracy: {
        const auto data = lab08::make_accuracy_data(c);
        return {{"scale", lab08::kAccuracyScale}, {"runs", lab08::exact_runs(c, data)}, {"naive", kit::reals_to_json(lab08::naive_runs(c, data))}};
      }
      case Part::ScanExclusive:
      case Part::ScanInclusive: {
        const auto e = lab08::expected_scan(lab08::make_ints(c), c.part == Part::ScanInclusive);
        return {{"size", e.size()}, {"digest", digest(e)}, {"levels", lab08::scan_levels(c.elements, c.local).size()}};
      }
      case Part::Compact: {
        const auto e = lab08::expected_compact(lab08::make_ints(c));
        return {{"count", e.size()}, {"digest", digest(e)}};
      }
      case Part::SinglePass: return lab08::expected_dot(lab08::dot_input(c, 0), lab08::dot_input(c, 1));
    }
    return {};
  }

  kit::Verdict check(const Case& s, const json& reference, const json& outputs) const {
    const lab08::Case& c = s.c;
    switch (c.part) {
      case Part::AtomicInt: {
        lab08::FloatExpected e{reference.at("total").get<double>()};
        e.first_items = lab08::first_items_sum(c, lab08::make_ints(c));
        return lab08::check_atomic(c, lab08::atomic_totals_from_json(outputs), e, ran_on(s, outputs));
      }
      case Part::AtomicFloat: {
        lab08::FloatExpected e = reference.get<lab08::FloatExpected>();
        e.first_items = lab08::first_items_sum(c, lab08::make_whole_floats(c));
        return lab08::check_atomic(c, lab08::atomic_totals_from_json(outputs), e, ran_on(s, outputs), outputs.value("compare_and_swap", false));
      }
      case Part::Accuracy:
        return lab08::check_accuracy(c, outputs.get<lab08::AccuracyOutputs>(), reference.at("runs").get<std::vector<lab08::RunExact>>(),
                                     kit::reals_from_json(reference.at("naive")));
      case Part::ScanExclusive:
      case Part::ScanInclusive:
      case Part::Compact: return lab08::check_scan(c, lab08::make_ints(c), lab08::scan_seen_from_json(c, outputs, reference));
      case Part::SinglePass: {
        const std::size_t local = outputs.at("local").get<std::size_t>(), groups = outputs.at("groups").get<std::size_t>();
        lab08::DotExpected e = reference.get<lab08::DotExpected>();
        e.empty_tree = lab08::empty_tree_dots(lab08::dot_input(c, 0), lab08::dot_input(c, 1), local, groups);
        const std::optional<std::uint32_t> ticket =
            outputs.contains("ticket_after") ? std::optional<std::uint32_t>(outputs.at("ticket_after").get<std::uint32_t>()) : std::nullopt;
        return lab08::check_single_pass(c.elements, local, groups, lab08::atomic_totals_from_json(outputs), e, ticket);
      }
    }
    return {false, "unknown part", ""};
  }
};

}  // namespace

std::unique_ptr<LabDriver> make_lab_driver_08() { return std::make_unique<LabAdapter<Lab08>>(); }

}  // namespace grader
