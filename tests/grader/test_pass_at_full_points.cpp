// PASS only at full points, end to end: over every lab's starter, every solution and a set of
// generated mutants, no line reads "passed" (PASS in `grader check`) below its max points, and the
// lines the points policy scaled (which did appear, so this test can fail) say so.
#include <doctest/doctest.h>

#include <filesystem>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "core/results.hpp"
#include "export/classroom.hpp"
#include "export/reports.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "tools/mutate.hpp"
#include "evidence_kernels.hpp"
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
// Each mutant is also written as `grader check` reads a student's labs, the k-th picked mutant of
// every lab into SETS/<k>/<lab>/<kernel>; returns the students of each set, by lab.
std::vector<std::map<std::string, std::string>> write_mutant_class(const std::filesystem::path& cls, const std::filesystem::path& sets,
                                                                   std::size_t per_lab) {
  std::vector<std::map<std::string, std::string>> students(per_lab);
  for (const grader::LabSpec& spec : grader::load_specs(kit::root() / "grader" / "specs", {})) {
    const std::string solution = test::read(kit::root() / "solutions" / spec.lab / spec.kernel_file);
    const std::vector<grader::Mutant> all = grader::make_mutants(solution);
    std::size_t k = 0;
    for (const std::size_t i : grader::pick_evenly(all.size(), per_lab)) {
      const std::string student = spec.lab.substr(0, 2) + "-m" + std::to_string(i + 1);
      test::write(cls / student / spec.kernel_file, all[i].source);
      test::write(sets / std::to_string(k) / spec.lab / spec.kernel_file, all[i].source);
      students[k++][spec.lab] = student;
    }
  }
  return students;
}

// `grader check`'s case lines, lab by lab: whether each earned its full points (PASS, or DEVICE at
// full points).
std::map<std::string, std::map<std::string, bool>> check_lines(const std::string& output) {
  static const std::regex lab(R"(^(\d\d-[a-z0-9-]+) \()"), head(R"(^  ([A-Z]{4,6}) (.*\S)\s+(-?[0-9.e+-]+)/(-?[0-9.e+-]+)$)");
  std::map<std::string, std::map<std::string, bool>> lines;
  std::istringstream in(output);
  std::string line, current;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, lab)) current = m[1];
    else if (std::regex_match(line, m, head)) lines[current][m[2]] = std::stod(m[3]) >= std::stod(m[4]) && std::stod(m[4]) > 0;
  }
  return lines;
}

// `grader check`'s output over several labs, cut into each lab's section (from its heading line,
// "NN-name (File.cl)", to the next), by lab.
std::map<std::string, std::string> lab_sections(const std::string& output) {
  static const std::regex heading(R"(^(\d\d-[a-z0-9-]+) \([^)]*\)$)");
  std::map<std::string, std::string> sections;
  std::istringstream in(output);
  std::string line, current;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, heading)) current = m[1];
    if (!current.empty()) sections[current] += line + "\n";
  }
  return sections;
}

// For every visible case of `lab`: PASS in `grader check` if and only if `grader grade` gave it its
// full points, on this machine. Returns how many cases were compared.
std::size_t check_is_grade(const std::string& check_output, const std::filesystem::path& report, const std::string& lab, const std::string& what) {
  const auto checked = check_lines(check_output);
  const json graded = json::parse(test::read(report));
  std::size_t compared = 0;
  for (const json& l : graded.at("labs")) {
    if (l.at("lab") != lab) continue;
    for (const json& c : l.at("cases")) {
      if (c.at("kind") != "case" || !c.at("visible").get<bool>() || c.at("max_points").get<double>() <= 0) continue;
      const std::string name = c.at("name");
      CAPTURE(what);
      CAPTURE(lab);
      CAPTURE(name);
      CAPTURE(c.dump());
      const auto in_lab = checked.find(lab);
      REQUIRE(in_lab != checked.end());
      const auto line = in_lab->second.find(name);
      REQUIRE(line != in_lab->second.end());
      CHECK(line->second == (c.at("points").get<double>() >= c.at("max_points").get<double>()));
      ++compared;
    }
  }
  return compared;
}

// Every case line `k` loses names its fault, in grade's report and in check's output alike; the
// cases of `k.no_points` earn nothing; and some line is lost (the kernel is caught).
void names_its_fault(const std::string& check_output, const std::filesystem::path& report, const test::EvidenceKernel& k) {
  CAPTURE(k.name);
  std::size_t lost = 0;
  // Held by name: a range-for over a temporary's member would read a destroyed object.
  const json graded = json::parse(test::read(report));
  for (const json& lab : graded.at("labs")) {
    if (lab.at("lab") != k.lab) continue;
    // The kernel was graded: a lab the grader could not finish (status error) would show no lost line.
    CHECK_MESSAGE(lab.at("status") == "graded", lab.dump());
    for (const json& c : lab.at("cases")) {
      if (c.at("kind") != "case") continue;
      const std::string name = c.at("name");
      CAPTURE(name);
      if (!k.no_points.empty() && name.rfind(k.no_points, 0) == 0) CHECK(c.at("points").get<double>() == 0);
      if (c.at("points").get<double>() >= c.at("max_points").get<double>()) continue;
      ++lost;
      const std::string said = c.at("message").get<std::string>() + " " + c.value("hint", std::string());
      CAPTURE(said);
      CHECK(said.find(k.fault) != std::string::npos);
      if (!c.at("visible").get<bool>()) continue;
      const std::size_t at = check_output.find("  FAIL " + name);
      REQUIRE(at != std::string::npos);
      // Its line and the lines under it (indented further), up to the next result line.
      std::size_t end = check_output.find('\n', at);
      while (end != std::string::npos && check_output.compare(end + 1, 3, "   ") == 0) end = check_output.find('\n', end + 1);
      const std::string block = check_output.substr(at, end == std::string::npos ? std::string::npos : end - at);
      CAPTURE(block);
      CHECK(block.find(k.fault) != std::string::npos);
    }
  }
  CHECK(lost > 0);
}

}  // namespace

TEST_CASE("no PASS line below full points, and check's PASS is grade's points, over every starter, solution, generated mutant and the evidence kernels") {
  Tally starters, solutions, mutants;
  // Every lab's starter and solution as a student checks them, with the memory-safety checks (every
  // solution passes, every starter fails with hints and no points); run beside the class below
  // (each grader leaves a core idle while its children wait).
  auto starter = std::async(std::launch::async, [] { return test::run_program("grader", "check --races"); });
  auto solved = std::async(std::launch::async, [] { return test::run_program("grader", "check --races --dir " + test::kit_path("solutions")); });
  // Generated mutants of every lab's solution, graded as a class with the hidden cases and the
  // memory-safety checks (`grader mutants` grades the checks only of mutants that no case kills,
  // so its reports hold few scaled lines). 2 a lab: a mutant that loops costs every case's limit.
  // With them the solutions and the kernels of evidence_kernels.hpp, each a student.
  test::TempDir cls, out, sets;
  const auto mutant_sets = write_mutant_class(cls.path, sets.path, 2);
  for (const std::string& lab : test::kit_labs(true)) {
    const grader::LabSpec spec = grader::load_spec(kit::root() / "grader" / "specs" / (lab + ".json"));
    test::write(cls / "solution" / spec.kernel_file, test::read(kit::root() / "solutions" / lab / spec.kernel_file));
  }
  for (const test::EvidenceKernel& k : test::evidence_kernels()) {
    test::write(cls / ("ev-" + k.name) / k.kernel_file, k.source);
    test::write(sets / ("ev-" + k.name) / k.lab / k.kernel_file, k.source);
  }
  const auto graded = test::run_program("grader", "grade --jobs 2 --submissions " + cls.path.string() + " --out " + out.path.string());
  REQUIRE_MESSAGE(graded.exit_code == 0, graded.output);
  const test::Command starters_run = starter.get(), solutions_run = solved.get();
  CHECK(starters_run.exit_code == 1);
  check_labels(starters_run.output, "grader check --races (the starters)", starters);
  test::check_solution_passes(solutions_run);  // lab 06's speed estimate below full on a busy machine aside (solution_check.hpp)
  // Lab by lab: every solution's lab is shown, and every starter's lab fails with a hint and earns
  // nothing, safety and algorithm points included (the points policy for an unedited starter).
  const auto starter_labs = lab_sections(starters_run.output), solution_labs = lab_sections(solutions_run.output);
  for (const std::string& lab : test::kit_labs(true)) {
    CAPTURE(lab);
    REQUIRE_MESSAGE(solution_labs.count(lab) == 1, solutions_run.output);
    CHECK(solution_labs.at(lab).find("\n  PASS ") != std::string::npos);
    REQUIRE_MESSAGE(starter_labs.count(lab) == 1, starters_run.output);
    const std::string& section = starter_labs.at(lab);
    CAPTURE(section);
    CHECK(section.find("hint: ") != std::string::npos);
    CHECK(section.find("\n  0 / ") != std::string::npos);
    CHECK(section.find("\n  PASS ") == std::string::npos);
  }
  check_labels(solutions_run.output, "grader check --races --dir solutions", solutions);
  std::size_t reports = 0;
  for (const auto& e : std::filesystem::directory_iterator(out.path))
    if (std::filesystem::exists(e.path() / "report.json")) check_report_file(e.path() / "report.json", mutants), ++reports;
  // Two mutants a lab, the solution and the evidence kernels; the labs counted from the tree.
  CHECK(reports == test::kit_labs(true).size() * 2 + 1 + test::evidence_kernels().size());
  // Every run showed result lines, and scaled lines appeared: a kernel that loses cases loses
  // check points, and its lines say so.
  CHECK(starters.lines > 0);
  CHECK(solutions.lines > 0);
  CHECK(mutants.lines > 0);
  CHECK(solutions.scaled == 0);  // a solution earns every case point: nothing to scale
  CHECK(starters.scaled + mutants.scaled > 0);
  MESSAGE("scaled lines: starters ", starters.scaled, " of ", starters.lines, ", mutants ", mutants.scaled, " of ", mutants.lines);

  // One verdict per case: each visible case that grader check shows PASS gets its full points from
  // grader grade, and only those. The starters: no case passes in check (grade leaves every line
  // of an unchanged starter not-run, with 0 points).
  for (const auto& [lab, lines] : check_lines(starters_run.output))
    for (const auto& [name, full] : lines) {
      CAPTURE(lab);
      CAPTURE(name);
      CHECK_FALSE((full && name.rfind("memory safety", 0) != 0 && name.rfind("algorithm", 0) != 0));
    }
  std::size_t compared = 0;
  for (const std::string& lab : test::kit_labs(true)) compared += check_is_grade(solutions_run.output, out / "solution" / "report.json", lab, "the solution");
  // The checks of the mutant sets and of the evidence kernels, two at a time (each grader check
  // leaves a core idle while its children wait), compared in order.
  std::vector<std::string> commands;
  for (std::size_t k = 0; k < mutant_sets.size(); ++k) commands.push_back("check --dir " + (sets / std::to_string(k)).string());
  for (const test::EvidenceKernel& k : test::evidence_kernels())
    commands.push_back("check " + k.lab.substr(0, 2) + " --dir " + (sets / ("ev-" + k.name)).string());
  std::vector<test::Command> checked(commands.size());
  for (std::size_t i = 0; i < commands.size(); i += 2) {
    auto second = std::async(std::launch::async, [&, i] { return i + 1 < commands.size() ? test::run_program("grader", commands[i + 1]) : test::Command{}; });
    checked[i] = test::run_program("grader", commands[i]);
    if (i + 1 < commands.size()) checked[i + 1] = second.get();
  }
  for (std::size_t k = 0; k < mutant_sets.size(); ++k)
    for (const auto& [lab, student] : mutant_sets[k]) compared += check_is_grade(checked[k].output, out / student / "report.json", lab, "mutant " + student);
  std::size_t next = mutant_sets.size();
  for (const test::EvidenceKernel& k : test::evidence_kernels()) {
    const test::Command& run = checked[next++];
    compared += check_is_grade(run.output, out / ("ev-" + k.name) / "report.json", k.lab, k.name);
    names_its_fault(run.output, out / ("ev-" + k.name) / "report.json", k);
  }
  MESSAGE(compared, " visible cases compared between grader check and grader grade");
  CHECK(compared > 100);
}
