#include "oclgrind/checks.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>

#include "oclgrind/oclgrind.hpp"

namespace grader {

void judge_safety(CaseResult& c, const SafetySpec& safety, const std::vector<OclgrindFinding>& findings, std::size_t allowed,
                  const std::string& source, const std::string& shown_as) {
  c.message.clear();
  const std::string kind = std::find_if(safety.checks.begin(), safety.checks.end(), [&](const auto& k) {
                             return safety_name(k.first) == c.name;
                           })->first;
  std::vector<std::string> lines;
  for (const OclgrindFinding& f : findings)
    if (f.kind == kind || (kind == "invalid-access" && f.kind == "other")) lines.push_back(describe(f, source, shown_as));
  if (lines.empty()) {
    c.status = CaseStatus::Passed;
    c.points = c.max_points;
    if (allowed) c.message += (c.message.empty() ? "" : "; ") + std::to_string(allowed) + " known false alarm(s) allowed by the spec";
    return;
  }
  c.status = CaseStatus::Unsafe;
  c.message.clear();
  for (std::size_t i = 0; i < lines.size() && i < 5; ++i) c.message += (i ? "\n" : "") + lines[i];
  if (lines.size() > 5) c.message += "\n... and " + std::to_string(lines.size() - 5) + " more";
  const bool only_write_write = std::all_of(findings.begin(), findings.end(), [](const OclgrindFinding& f) {
    return f.kind != "data-race" || f.title.find("rite-write") != std::string::npos;
  });
  // Two work-groups racing: no barrier can order them (a barrier holds one work-group only).
  const bool across_groups = std::any_of(findings.begin(), findings.end(), [](const OclgrindFinding& f) {
    static const std::regex group(R"(Group\((\d+,\d+,\d+)\))");
    std::smatch a, b;
    return f.kind == "data-race" && f.sites.size() >= 2 && std::regex_search(f.sites[0].work_item, a, group) &&
           std::regex_search(f.sites[1].work_item, b, group) && a[1] != b[1];
  });
  if (kind == "data-race" && across_groups && only_write_write)
    c.hint = "work-items of different work-groups store to the same element: each work-item must write an element of its own "
             "(an index built from get_local_id repeats in every work-group; get_global_id numbers the whole launch)";
  else if (kind == "data-race" && across_groups)
    c.hint = "work-items of different work-groups update the same element, and no barrier orders work-groups: make the "
             "update atomic (atomic_add for an int; for a float, atomic_cmpxchg in a loop that retries until the swap succeeds)";
  else if (kind == "data-race")
    c.hint = only_write_write ? "more than one work-item writes the same element, even if each writes the same value: "
                                "let one work-item (e.g. the one with local id 0) write it"
                              : "a value written by one work-item is read by another before a barrier separates them";
  if (kind == "barrier-divergence") c.hint = "a barrier inside an if or a loop that not every work-item enters";
  if (kind == "uninitialized") c.hint = "often a consequence of a race or of reading past the end of an array";
}

std::string find_oclgrind() {
  if (const char* env = std::getenv("KIT_OCLGRIND"); env && *env) return env;
  for (const char* dir : {"/usr/bin", "/usr/local/bin"})
    if (std::filesystem::exists(std::filesystem::path(dir) / "oclgrind")) return std::string(dir) + "/oclgrind";
  return "";
}

std::string oclgrind_missing() {
  return "Oclgrind is not installed (no $KIT_OCLGRIND, /usr/bin/oclgrind or /usr/local/bin/oclgrind): run scripts/setup.sh "
         "as root, which installs the distribution's oclgrind package or, where there is none (Debian 13), PyPI's build "
         "in /opt/oclgrind";
}

std::string preload_failure(const std::string& output) {
  const std::size_t at = output.find("LD_PRELOAD cannot be preloaded");
  if (at == std::string::npos) return "";
  const std::size_t begin = output.rfind('\n', at), end = output.find('\n', at);
  return output.substr(begin == std::string::npos ? 0 : begin + 1, end == std::string::npos ? std::string::npos : end - begin - 1);
}

std::filesystem::path find_work_span_plugin(const GradeSettings& s) {
  if (const char* env = std::getenv("KIT_WORK_SPAN_PLUGIN"); env && *env) return env;
  return s.grader_exe.parent_path() / "libkit-work-span.so";
}

std::string safety_name(const std::string& kind) {
  const std::map<std::string, std::string> names = {{"data-race", "data races"},
                                                    {"barrier-divergence", "barrier divergence"},
                                                    {"invalid-access", "invalid memory accesses"},
                                                    {"uninitialized", "uninitialized values"}};
  return "memory safety: " + names.at(kind) + " (Oclgrind)";
}

}  // namespace grader
