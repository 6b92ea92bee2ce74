#include "oclgrind/algorithm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "oclgrind/ticket_fences.hpp"

namespace grader {
namespace {

// log2 of a work-group's size, rounded up: the levels of a tree over L values.
double levels(std::size_t items) { return std::ceil(std::log2(double(items))); }

std::size_t allowed_span(const AlgorithmCheck& check, std::size_t items) {
  return std::size_t(std::floor(check.span_log2 * levels(items) + check.span_plus + 1e-9));
}

// What is wrong with one work-group's measurement, or "" when it has the asked-for shape.
// `fullest`: the most work any work-group of the launch did. A split of the data that the lab
// allows can leave a group a short share (the last non-empty run falls inside it) or none: the
// share of the busiest work-item is judged in the groups that did the most work, and a group
// without work only where no group had any.
std::string fault(const AlgorithmCheck& check, const GroupWork& g, const KernelWork& k, std::size_t fullest) {
  const std::string where = " in work-group " + std::to_string(g.group[0]) + " of " + k.kernel + " (L = " +
                            std::to_string(g.items) + ")";
  if (g.work == 0 && fullest > 0) return "";
  if (g.work == 0)
    return "no " + check.ops + " on the data were measured" + where + "; the lab asks for " + check.expect;
  const std::size_t bound = allowed_span(check, g.items);
  const std::string busiest = "work-item " + std::to_string(g.busiest_item) + " did " + std::to_string(g.busiest_ops) +
                              " of the " + std::to_string(g.work) + " " + check.ops + where;
  if (check.span_bounded && g.span > bound)
    return busiest + "; the longest chain of " + check.ops + " one after another was " + std::to_string(g.span) +
           ", where the lab asks for " + check.expect + ": at most " + std::to_string(bound) + " for L = " + std::to_string(g.items);
  // The share is judged where the group had a full group's worth of work (L - 1 operations or
  // more): in a last pass over a few values one work-item may rightly do all of them.
  if (g.items >= 4 && g.work + 1 >= g.items && g.work == fullest && double(g.busiest_ops) > check.busiest_share * double(g.work))
    return busiest + ", where the lab asks for " + check.expect + ": no work-item doing more than " +
           std::to_string(int(std::lround(check.busiest_share * 100))) + " % of them";
  return "";
}

}  // namespace

std::string algorithm_name(const AlgorithmCheck& check) {
  if (check.fences) return "algorithm: " + check.kernel + "'s fences (traced under Oclgrind)";
  if (check.access) return "algorithm: " + check.kernel + "'s global loads (traced under Oclgrind)";
  return "algorithm: " + check.kernel + " (measured under Oclgrind)";
}

namespace {

// A fence check's result: passed with full points, or wrong naming what is missing where.
CaseResult fence_result(const AlgorithmSpec& spec, const AlgorithmCheck& check, const std::vector<KernelWork>& measured) {
  CaseResult c{algorithm_name(check), spec.visible, 0, check.points, CaseStatus::Passed, "", "", 0, CaseKind::Algorithm};
  const FenceCheck& f = *check.fences;
  const std::string fault =
      ticket_fence_fault(measured, {check.kernel, {f.store.argument, f.store.called}, {f.ticket.argument, f.ticket.called}});
  if (fault.empty()) {
    c.points = check.points;
    c.message = check.expect;
  } else {
    c.status = CaseStatus::Wrong;
    c.message = fault;
    c.hint = check.hint;
  }
  return c;
}

// An access-pattern check's result: every measured load of the named buffer arguments has
// neighbouring work-items at most step_at_most bytes apart, or wrong naming the load's line and
// the step measured.
CaseResult access_result(const AlgorithmSpec& spec, const AlgorithmCheck& check, const std::vector<KernelWork>& measured) {
  CaseResult c{algorithm_name(check), spec.visible, 0, check.points, CaseStatus::Passed, "", "", 0, CaseKind::Algorithm};
  const AccessCheck& a = *check.access;
  std::size_t launches = 0, loads = 0;
  long long widest = 0;
  const std::string branch = a.unless_defined.empty() ? "" : " (built without -D " + a.unless_defined + ")";
  for (const KernelWork& k : measured) {
    if (k.kernel != check.kernel || (!a.unless_defined.empty() && k.defines(a.unless_defined))) continue;
    ++launches;
    for (const LoadPattern& p : k.loads) {
      if (std::find(a.arguments.begin(), a.arguments.end(), p.arg) == a.arguments.end() || p.steps.empty()) continue;
      ++loads;
      const long long step = p.steps.front().first, size = std::llabs(step);
      widest = std::max(widest, size);
      if (size > a.step_at_most && c.status == CaseStatus::Passed) {
        c.status = CaseStatus::Wrong;
        c.message = check.kernel + branch + ": the load at line " + std::to_string(p.line) + " (buffer argument " +
                    std::to_string(p.arg + 1) + ") has neighbouring work-items " + std::to_string(size) +
                    " bytes apart at the same iteration (" + std::to_string(p.steps.front().second) + " of " +
                    std::to_string(p.pairs) + " neighbour pairs), where the lab asks for " + check.expect +
                    ": at most " + std::to_string(a.step_at_most) + " bytes apart. Each work-item reads a run of its own, so one "
                    "load instruction of a group touches many memory segments instead of one";
        c.hint = check.hint;
      }
    }
  }
  if (launches == 0 || loads == 0) {
    c.status = CaseStatus::NotRun;
    c.message = "the kernel " + check.kernel + branch + " did not load the buffer arguments in the run under Oclgrind, so its access "
                "pattern could not be measured";
  } else if (c.status == CaseStatus::Passed) {
    c.points = check.points;
    c.message = check.expect + "; measured on " + std::to_string(loads) + " load(s) in " + std::to_string(launches) +
                " launch(es): neighbouring work-items at most " + std::to_string(widest) + " bytes apart";
  }
  return c;
}

}  // namespace

std::vector<CaseResult> algorithm_results(const AlgorithmSpec& spec, const std::vector<KernelWork>& measured, const std::string&) {
  std::vector<CaseResult> results;
  for (const AlgorithmCheck& check : spec.checks) {
    if (check.fences) {
      results.push_back(fence_result(spec, check, measured));
      continue;
    }
    if (check.access) {
      results.push_back(access_result(spec, check, measured));
      continue;
    }
    CaseResult c{algorithm_name(check), spec.visible, 0, check.points, CaseStatus::Passed, "", "", 0, CaseKind::Algorithm};
    std::size_t groups = 0, launches = 0, worst_span = 0;
    for (const KernelWork& k : measured) {
      if (k.kernel != check.kernel) continue;
      ++launches;
      std::size_t fullest = 0;
      for (const GroupWork& g : k.groups) fullest = std::max(fullest, g.work);
      for (const GroupWork& g : k.groups) {
        if (g.items < 2) continue;  // a work-group of one work-item has nothing to share
        ++groups;
        worst_span = std::max(worst_span, g.span);
        const std::string f = fault(check, g, k, fullest);
        if (!f.empty() && c.status == CaseStatus::Passed) c.status = CaseStatus::Wrong, c.message = f;
      }
    }
    if (launches == 0) {
      c.status = CaseStatus::NotRun;
      c.message = "the kernel " + check.kernel + " was not launched in the safety run, so its algorithm could not be measured";
    } else if (c.status == CaseStatus::Passed) {
      c.points = check.points;
      c.message = check.expect + "; measured in " + std::to_string(groups) + " work-group(s) of " + std::to_string(launches) +
                  " launch(es): longest chain of " + check.ops + " " + std::to_string(worst_span);
    } else {
      c.hint = !check.hint.empty() ? check.hint
                                   : "each level of a tree halves the values still to combine: every active work-item does one "
                                     "operation per level, with a barrier between levels";
    }
    results.push_back(c);
  }
  return results;
}

std::vector<CaseResult> algorithm_not_run(const AlgorithmSpec& spec, CaseStatus status, const std::string& why) {
  std::vector<CaseResult> results;
  for (const AlgorithmCheck& check : spec.checks)
    results.push_back({algorithm_name(check), spec.visible, 0, check.points, status, why, "", 0, CaseKind::Algorithm});
  return results;
}

}  // namespace grader
