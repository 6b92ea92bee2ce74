// PASS only at full points, end to end: over every lab's starter, every solution and a set of
// generated mutants, no line reads "passed" (PASS in `grader check`) below its max points, and the
// lines the points policy scaled (which did appear, so this test can fail) say so.
#include <doctest/doctest.h>

#include <filesystem>
#include <future>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "core/results.hpp"
#include "export/classroom.hpp"
#include "export/reports.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "tools/mutate.hpp"
#include "solution_check.hpp"
#include "support.hpp"

using json = nlohmann::json;

namespace {

struct Tally {
  std::size_t lines = 0, scaled = 0;
};

// `grader check`'s result lines: "  LABEL NAME POINTS/MAX", then, for a line below its max points,
// "       STATUS: message". A PASS label or a "passed" status below the max is a misleading line.
void check_labels(const std::string& output, const std::string& what, Tally& t) {
  static const std::regex head(R"(^  ([A-Z]{4}) (.*\S)\s+(-?[0-9.e+-]+)/(-?[0-9.e+-]+)$)");
  static const std::regex detail(R"(^       ([a-z-]+): )");
  std::istringstream lines(output);
  std::string line, label, name;
  double points = 0, max = 0;
  bool below = false;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_match(line, m, head)) {
      label = m[1], name = m[2], points = std::stod(m[3]), max = std::stod(m[4]);
      below = points < max;
      ++t.lines;
      CAPTURE(what);
      CAPTURE(line);
      CHECK_FALSE((label == "PASS" && below));
      continue;
    }
    if (below && std::regex_search(line, m, detail)) {
      CAPTURE(what);
      CAPTURE(name);
      CAPTURE(line);
      CHECK(m[1] != "passed");
      t.scaled += m[1] == "scaled";
      below = false;  // one status line per result line
    }
  }
}

// One student's report.json from `grader grade`: every line's status word, and the same result as
// `grader check`, Gradescope and GitHub Classroom show it.
void check_report_file(const std::filesystem::path& file, Tally& t) {
  const json report = json::parse(test::read(file));
  for (const json& lab : report.at("labs")) {
    for (const json& c : lab.at("cases")) {
      CAPTURE(file.string());
      CAPTURE(c.dump());
      CHECK_FALSE((c.at("status") == "passed" && c.at("points").get<double>() < c.at("max_points").get<double>()));
    }
    const grader::LabResult r = grader::lab_result_from_json(lab);
    check_labels(grader::check_report(r), file.string(), t);
    for (const json& g : grader::gradescope_results({r})["tests"])
      if (g.value("status", "") == "passed") CHECK(g["score"] == g["max_score"]);
    for (const json& g : grader::classroom_result({r})["tests"])
      if (g["status"] == "pass") CHECK(g["score"] == g["max_score"]);
  }
}

// A class of generated mutants: `per_lab` of each lab's solution's mutants, spread evenly as
// `grader mutants --max-per-lab` picks them, one student each (CLASS/<lab number>-m<index>/<kernel>).
void write_mutant_class(const std::filesystem::path& cls, std::size_t per_lab) {
  for (const grader::LabSpec& spec : grader::load_specs(kit::root() / "grader" / "specs", {})) {
    const std::string solution = test::read(kit::root() / "solutions" / spec.lab / spec.kernel_file);
    const std::vector<grader::Mutant> all = grader::make_mutants(solution);
    for (const std::size_t i : grader::pick_evenly(all.size(), per_lab))
      test::write(cls / (spec.lab.substr(0, 2) + "-m" + std::to_string(i + 1)) / spec.kernel_file, all[i].source);
  }
}

}  // namespace

TEST_CASE("no PASS line below full points over every starter, solution and generated mutant") {
  Tally starters, solutions, mutants;
  // Every lab's starter and solution as a student checks them, with the memory-safety checks; run
  // beside the class below (each grader leaves a core idle while its children wait), which keeps
  // the whole test near two minutes on two cores.
  auto starter = std::async(std::launch::async, [] { return test::run_program("grader", "check --races"); });
  auto solved = std::async(std::launch::async, [] { return test::run_program("grader", "check --races --dir " + test::kit_path("solutions")); });
  // Generated mutants of every lab's solution, graded as a class with the hidden cases and the
  // memory-safety checks (`grader mutants` grades the checks only of mutants that no case kills,
  // so its reports hold few scaled lines). 2 a lab: a mutant that loops costs every case's limit.
  test::TempDir cls, out;
  write_mutant_class(cls.path, 2);
  const auto graded = test::run_program("grader", "grade --jobs 2 --submissions " + cls.path.string() + " --out " + out.path.string());
  REQUIRE_MESSAGE(graded.exit_code == 0, graded.output);
  const test::Command starters_run = starter.get(), solutions_run = solved.get();
  CHECK(starters_run.exit_code == 1);
  check_labels(starters_run.output, "grader check --races (the starters)", starters);
  test::check_solution_passes(solutions_run);  // lab 06's speed estimate below full on a busy machine aside (solution_check.hpp)
  check_labels(solutions_run.output, "grader check --races --dir solutions", solutions);
  std::size_t reports = 0;
  for (const auto& e : std::filesystem::directory_iterator(out.path))
    if (std::filesystem::exists(e.path() / "report.json")) check_report_file(e.path() / "report.json", mutants), ++reports;
  CHECK(reports == test::kit_labs(true).size() * 2);  // two mutants a lab, the labs counted from the tree
  // Every run showed result lines, and scaled lines appeared: a kernel that loses cases loses
  // check points, and its lines say so.
  CHECK(starters.lines > 0);
  CHECK(solutions.lines > 0);
  CHECK(mutants.lines > 0);
  CHECK(solutions.scaled == 0);  // a solution earns every case point: nothing to scale
  CHECK(starters.scaled + mutants.scaled > 0);
  MESSAGE("scaled lines: starters ", starters.scaled, " of ", starters.lines, ", mutants ", mutants.scaled, " of ", mutants.lines);
}
