// The time budget per kernel function: a time-out beside other grading is run again alone first;
// only a time-out with the device to itself ends the kernel function's later cases ("not run:
// ..." naming the case), and an endless kernel's Oclgrind checks are not run either.
#include <doctest/doctest.h>

#include <chrono>
#include <regex>
#include <nlohmann/json.hpp>

#include "export/reports.hpp"
#include "isolation/case_runs.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

using json = nlohmann::json;

namespace {

// A stand-in for `grader run-case` that runs the cases of its list in turn and writes "ok" for
// each, except: the case of seed ENDLESS never finishes, and the case of seed SLOW runs past its
// limit the first time it is run (as under load), and finishes when run again.
std::filesystem::path stand_in(const test::TempDir& dir, int endless, int slow) {
  const std::filesystem::path fake = dir / "fake-grader";
  test::write(fake, R"sh(#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in --cases) cases=$2;; --result-dir) out=$2;; esac; shift; done
echo '{"status":"built"}' > "$out/tmp" && mv "$out/tmp" "$out/built.json"
i=0
for seed in $(grep -o '"seed":[0-9]*' "$cases" | cut -d: -f2); do
  echo "$seed" >> ")sh" + (dir / "ran").string() + R"sh("
  if [ "$seed" = )sh" + std::to_string(endless) + R"sh( ]; then sleep 100; fi
  if [ "$seed" = )sh" + std::to_string(slow) + R"sh( ] && [ ! -e ")sh" + (dir / "slow-once").string() + R"sh(" ]; then
    : > ")sh" + (dir / "slow-once").string() + R"sh("; sleep 100
  fi
  echo '{"status":"ok"}' > "$out/tmp"; mv "$out/tmp" "$out/case-$i.json"
  i=$((i + 1))
done
)sh");
  std::filesystem::permissions(fake, std::filesystem::perms::all);
  return fake;
}

std::vector<std::size_t> all_cases(const grader::LabSpec& spec) {
  std::vector<std::size_t> indices(spec.cases.size());
  for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  return indices;
}

std::size_t position_of_seed(const grader::LabSpec& spec, int seed) {
  for (std::size_t i = 0; i < spec.cases.size(); ++i)
    if (spec.cases[i].params.at("seed") == seed) return i;
  throw std::logic_error("no case of that seed");
}

}  // namespace

TEST_CASE("a time-out alone ends the kernel function's larger cases, which are not run, and the smallest run first") {
  test::TempDir dir;
  test::open_to_children(dir);
  // Lab 03, one kernel: seed 2 is the case N = 100 (L = 1), the third smallest of ten.
  auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"03"}).at(0);
  // The stand-in builds nothing: a 2 s build limit keeps the run again alone (which gets the build
  // limit on top of the case's own) short.
  spec.build_time_limit_s = 2;
  grader::GradeSettings s{stand_in(dir, 2, -1), dir / "work"};
  std::filesystem::create_directories(s.workdir);
  const auto start = std::chrono::steady_clock::now();
  const grader::CaseRuns runs = grader::run_cases(spec, s, dir / "K.cl", "K.cl", all_cases(spec),
                                                  [](std::size_t, const json&) { return grader::AfterCase::GoOn; });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::size_t endless = position_of_seed(spec, 2);
  // Run under load, then alone: both time-outs, the second counts; nothing larger is run after it.
  CHECK(grader::step_end(runs.results[endless]) == grader::CaseStatus::Timeout);
  CHECK(runs.timed_out_first[endless]);
  CHECK(test::read(dir / "ran") == "11\n3\n2\n2\n");  // N = 1, N = 8, N = 100 twice
  for (std::size_t i = 0; i < spec.cases.size(); ++i) {
    CAPTURE(spec.cases[i].name);
    const bool smaller = spec.cases[i].params.at("elements").get<int>() < 100;
    if (smaller) CHECK(runs.results[i].value("status", "") == "ok");
    if (i == endless || smaller) continue;
    CHECK(runs.results[i].is_null());
    CHECK(runs.not_run_after[i] == spec.cases[endless].name);
  }
  CHECK(runs.timed_out_alone == spec.cases[endless].name);
  // Stopped at its limit, not waited out: a child left to run would sleep the stand-in's 100 s,
  // which no load can shorten (the eight larger cases not run are shown by "ran" above, whatever
  // the machine's speed).
  CHECK_MESSAGE(seconds < 100, seconds);
}

TEST_CASE("a case that runs past its limit under load and finishes alone keeps its place, and no case is left out") {
  test::TempDir dir;
  test::open_to_children(dir);
  const auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"03"}).at(0);
  grader::GradeSettings s{stand_in(dir, -1, 2), dir / "work"};
  std::filesystem::create_directories(s.workdir);
  const grader::CaseRuns runs = grader::run_cases(spec, s, dir / "K.cl", "K.cl", all_cases(spec),
                                                  [](std::size_t, const json&) { return grader::AfterCase::GoOn; });
  const std::size_t slow = position_of_seed(spec, 2);
  for (std::size_t i = 0; i < spec.cases.size(); ++i) {
    CAPTURE(spec.cases[i].name);
    CHECK(runs.results[i].value("status", "") == "ok");
    CHECK(runs.timed_out_first[i] == (i == slow));
  }
  CHECK(runs.timed_out_alone.empty());
}

TEST_CASE("an endless kernel: its later cases and its Oclgrind checks are not run, naming the case it did not finish alone") {
  // gus's loop never ends for L >= 2; lab 03's smallest case (N = 1, L = 1) finishes, the next
  // (N = 8, L = 8) does not, under load nor alone. Without the budget every case with L >= 2 ran
  // twice to its 3 s limit and the Oclgrind run to its 5 s: over a minute.
  test::TempDir dir;
  test::write(dir / "class" / "gus" / "ArrayMultReduce.cl",
              test::read(kit::root() / "grader/examples/class/gus-infinite-loop/ArrayMultReduce.cl"));
  // A build limit of 20 s: the endless case's run again alone spins for 3 + 20 s (support.hpp).
  const auto run = test::run_program("grader", test::lab_with_build_limit(dir / "data", "03-array-mult-reduce", 20) + " grade --labs 03 --submissions " +
                                                   (dir / "class").string() + " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const json report = json::parse(test::read(dir / "out" / "gus" / "report.json"));
  const std::string endless = "one work-group of 8";
  std::size_t not_run = 0;
  for (const json& c : report["labs"][0]["cases"]) {
    const std::string name = c["name"], status = c["status"], message = c["message"];
    CAPTURE(name);
    CAPTURE(message);
    if (name == "smallest: one element, L = 1") {
      CHECK(status == "passed");
    } else if (name == endless) {
      CHECK(status == "timeout");
      CHECK(message.find("run again alone") != std::string::npos);
    } else if (c["kind"] == "case" || c["kind"] == "safety" || c["kind"] == "algorithm") {
      CHECK(status == "not-run");
      CHECK(c["points"] == 0);
      CHECK(message.find("not run: the kernel did not finish the case \"" + endless + "\" alone") != std::string::npos);
      ++not_run;
    }
  }
  CHECK(not_run >= 8 + 5);  // the other 8 cases, the 5 memory-safety checks (and the algorithm's)
  CHECK(report["labs"][0]["points"] == 1);
  // The student's report.md gives each line not run its reason, as report.json does.
  const std::string md = test::read(dir / "out" / "gus" / "report.md");
  CHECK_MESSAGE(md.find("not run: the kernel did not finish the case \"" + endless + "\" alone") != std::string::npos, md);
  // What the budget saves is shown by the lines not run, not by this run's wall time (a loaded
  // machine stretches the build and the first case); `grader bench` prints the time-outs' seconds.
}

TEST_CASE("grader check's text gives a line the time budget did not run its reason, not a bare FAIL") {
  grader::LabResult r;
  r.lab = "03-array-mult-reduce", r.status = grader::LabStatus::Graded;
  grader::CaseResult c;
  c.name = "L = 2, 999 groups", c.status = grader::CaseStatus::NotRun, c.max_points = 1;
  c.message = std::string(grader::kNotRunAfterTimeout) + "one work-group of 8\" alone (it ran past its 3 s limit with the device to itself)";
  r.cases.push_back(c);
  const std::string text = grader::check_report(r);
  CHECK_MESSAGE(text.find(c.message) != std::string::npos, text);
}

TEST_CASE("a case run again alone after a time-out is given the time its launches waited for their compile, up to the build limit, and no more") {
  // A stand-in for `grader run-case` that writes what kit::LaunchWaits writes (kit/launch.hpp):
  // lab 03's case of seed 3 (N = 8) waits 1.5 s for a compile at its launch, then finishes; the
  // case of seed 2 (N = 100, run after it) compiles nothing and runs 1.5 s. Every case is limited to
  // 0.5 s: both run past it beside other grading, and are run again alone. There the compile's wait
  // is not the case's time, so the first passes and its line says why; the second still times out,
  // and its line says it waited for no compile.
  test::TempDir dir;
  test::open_to_children(dir);
  const std::filesystem::path fake = dir / "fake-grader";
  test::write(fake, R"py(#!/usr/bin/env python3
import json, os, sys, time
args = sys.argv
out, cases = args[args.index("--result-dir") + 1], json.load(open(args[args.index("--cases") + 1]))
def put(name, text):
    with open(os.path.join(out, "tmp"), "w") as f: f.write(text)
    os.rename(os.path.join(out, "tmp"), os.path.join(out, name))
put("built.json", '{"status":"built"}')
for i, c in enumerate(cases):
    if c["seed"] == 3:
        put("case-%d.compile" % i, "0 %.6f\n" % time.monotonic())
        time.sleep(1.5)
        put("case-%d.compile" % i, "1.5 -1\n")
    if c["seed"] == 2:
        put("case-%d.compile" % i, "0 -1\n")
        time.sleep(1.5)
    put("case-%d.json" % i, '{"status":"ok"}')
)py");
  std::filesystem::permissions(fake, std::filesystem::perms::all);
  auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"03"}).at(0);
  spec.build_time_limit_s = 5;  // the most a compile's wait may add
  for (auto& c : spec.cases) c.time_limit_s = 0.5;
  const std::size_t compiles = position_of_seed(spec, 3), runs_long = position_of_seed(spec, 2);
  grader::GradeSettings s{fake, dir / "work"};
  std::filesystem::create_directories(s.workdir);
  const grader::CaseRuns runs = grader::run_cases(spec, s, dir / "K.cl", "K.cl", {compiles, runs_long},
                                                  [](std::size_t, const json&) { return grader::AfterCase::GoOn; });
  CHECK(runs.timed_out_first[0]);
  CHECK(runs.timed_out_first[1]);
  CHECK(runs.results[0].value("status", "") == "ok");  // 1.5 s of compile, then at once
  CHECK(runs.seconds[0] > 0.5);
  CHECK(runs.compile_seconds[0] > 1.0);
  CHECK(grader::step_end(runs.results[1]) == grader::CaseStatus::Timeout);  // 1.5 s of its own
  CHECK(runs.results[1].value("reason", "").find("ran past its 0.5 s time limit with no wait for the device to compile its launches") !=
        std::string::npos);
  CHECK(runs.timed_out_alone == spec.cases[runs_long].name);
}
