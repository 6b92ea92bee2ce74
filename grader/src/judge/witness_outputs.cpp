#include "judge/witness_outputs.hpp"

#include <algorithm>
#include <chrono>

#include "core/files.hpp"
#include "grader/lab/driver.hpp"
#include "isolation/case_child.hpp"
#include "isolation/case_runs.hpp"
#include "isolation/fresh_memory.hpp"
#include "isolation/sandbox.hpp"
#include "oclgrind/oclgrind.hpp"

namespace grader {
std::map<std::string, bool> wrong_under_oclgrind(const LabSpec& spec, const LabReference& reference, const GradeSettings& s,
                                                 const std::filesystem::path& copy, const std::string& shown_as,
                                                 const std::vector<const CaseSpec*>& cases, double case_seconds, double total_seconds) {
  std::map<std::string, bool> wrong;
  if (cases.empty() || total_seconds <= 0) return wrong;
  const std::filesystem::path dir = s.workdir / "witness-outputs-all";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  json list = json::array();
  std::size_t widest = 0;
  for (const CaseSpec* c : cases) {
    list.push_back(c->params);
    if (const json local = c->params.value("local", json()); local.is_number_unsigned()) widest = std::max(widest, local.get<std::size_t>());
  }
  write_file_atomically(dir / "cases.json", list.dump());
  std::vector<std::string> argv = {find_oclgrind(), "--build-options", "-O0", "--log", (dir / "oclgrind.log").string()};
  if (widest > 1024) argv.insert(argv.end(), {"--max-wgsize", std::to_string(widest)});
  argv.insert(argv.end(), {s.grader_exe.string(), "run-case", "--lab", spec.lab, "--kernel", copy.string(), "--shown-as", shown_as,
                           "--cases", (dir / "cases.json").string(), "--result-dir", dir.string()});
  SandboxLimits limits{total_seconds, std::max(spec.safety->memory_limit_mb, spec.memory_limit_mb), 1, s.pocl_cache(), 4 << 20};
  zero_fresh_memory(limits);
  guard_buffer_ends(limits, false);
  // Each step has its own limit: the build, then each case from the end of the one before.
  using Clock = std::chrono::steady_clock;
  const auto step = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(case_seconds));
  Clock::time_point since = Clock::now();
  std::size_t seen = 0;  // result files seen, built.json first
  const auto deadline = [&] {
    while (seen <= cases.size() && std::filesystem::exists(dir / (seen == 0 ? std::string("built.json") : "case-" + std::to_string(seen - 1) + ".json")))
      ++seen, since = Clock::now();
    return since + step;
  };
  run_in_sandbox(argv, limits, dir, deadline);
  const LabDriver& driver = lab_driver(spec.lab);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const json result = read_result(dir / ("case-" + std::to_string(i) + ".json"));
    if (step_status(result) != StepStatus::Ok || !result.contains("outputs")) continue;
    const CaseSpec& c = *cases[i];
    wrong[c.name] = !driver.compare(c.params, spec.tolerance, reference.reference(c.name), result.at("outputs")).pass;
  }
  return wrong;
}

}  // namespace grader
