#include "isolation/time_budget.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/results.hpp"

namespace grader {
namespace {

std::string value_words(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

double count_field(const json& params, const char* name, double fallback) {
  const json& v = params.value(name, json());
  return v.is_number() ? v.get<double>() : fallback;
}

}  // namespace

std::string kernel_function_of(const LabSpec& spec, const CaseSpec& c) {
  std::string key;
  for (const CaseField& f : spec.case_fields)
    if (f.variants) key += f.name + "=" + (c.params.contains(f.name) ? c.params.at(f.name).dump() : "-") + ";";
  return key;
}

std::string kernel_function_words(const LabSpec& spec, const CaseSpec& c) {
  std::string words;
  for (const CaseField& f : spec.case_fields)
    if (f.variants && c.params.contains(f.name)) words += (words.empty() ? "" : ", ") + f.name + " " + value_words(c.params.at(f.name));
  return words;
}

double case_size(const CaseSpec& c) {
  const double elements = c.params.contains("elements") ? count_field(c.params, "elements", 0)
                                                        : count_field(c.params, "width", 1) * count_field(c.params, "height", 1);
  return elements * std::max(1.0, count_field(c.params, "repeats", 1));
}

std::vector<std::size_t> budget_order(const LabSpec& spec, const std::vector<std::size_t>& indices,
                                      std::vector<std::size_t> positions) {
  std::map<std::string, std::size_t> first;  // kernel function -> rank of its first case
  for (std::size_t p : positions) first.emplace(kernel_function_of(spec, spec.cases[indices[p]]), first.size());
  std::stable_sort(positions.begin(), positions.end(), [&](std::size_t a, std::size_t b) {
    const CaseSpec &ca = spec.cases[indices[a]], &cb = spec.cases[indices[b]];
    const std::size_t fa = first.at(kernel_function_of(spec, ca)), fb = first.at(kernel_function_of(spec, cb));
    return fa != fb ? fa < fb : case_size(ca) < case_size(cb);
  });
  return positions;
}

std::string not_run_after_message(const LabSpec& spec, const CaseSpec& timed_out) {
  const std::string function = kernel_function_words(spec, timed_out);
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", timed_out.time_limit_s);
  return kNotRunAfterTimeout + timed_out.name + "\" alone (it ran past its " + limit +
         " s limit with the device to itself), so the later cases of " +
         (function.empty() ? std::string("the kernel") : "the same kernel function (" + function + ")") +
         " were not run (the time budget: a function's cases run smallest first, and stop at a time-out alone)";
}

std::string oclgrind_not_run_message(const std::string& timed_out) {
  return kNotRunAfterTimeout + timed_out +
         "\" alone (it ran past its time limit with the device to itself), and a kernel that does not finish cannot "
         "be checked under Oclgrind (the time budget)";
}

}  // namespace grader
