// One child per kernel: every case keeps its own verdict (a time-out or a crash in one case costs
// that case only), and kernels that are the same after removing comments and spacing are graded once.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "batch/batch.hpp"
#include "isolation/case_runs.hpp"
#include "isolation/device_lock.hpp"
#include "judge/graded_kernels.hpp"
#include "kit/paths.hpp"
#include "spec/references.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

using json = nlohmann::json;

TEST_CASE("code_without_comments keeps the code and its line numbers, drops comments and spacing") {
  const std::string a = "kernel void k(global int* x) {  // sums\n\t x[0] =  1; /* one\n two */ x[1] = 2;\n}\n";
  const std::string b = "kernel void k(global int* x) {\n x[0] = 1;\n  x[1] = 2;   // two\n}";
  CHECK(grader::code_without_comments(a) == "kernel void k(global int* x) {\nx[0] = 1;\nx[1] = 2;\n}\n");
  CHECK(grader::code_without_comments(a) == grader::code_without_comments(b));
  // A comment marker inside a string or character literal is code, and so is its spacing.
  CHECK(grader::code_without_comments("printf(\"a //  b\"); c = '/';\n") == "printf(\"a //  b\"); c = '/';\n");
  // A line moved down is a different kernel: its findings would name other lines.
  CHECK(grader::code_without_comments("\nx = 1;\n") != grader::code_without_comments("x = 1;\n"));
  // Windows line ends and a byte order mark are the editor's, not the code's.
  CHECK(grader::code_without_comments("\xEF\xBB\xBFx = 1;\r\ny = 2;\r\n") == "x = 1;\ny = 2;\n");
}

TEST_CASE("graded kernels: a result is shared by the same code, and by the same bytes only when it quotes the file") {
  grader::GradedKernels graded;
  const grader::GradedKernels::Key ann{"03-array-mult-reduce", "K.cl", "code\n", "code // ann\n"};
  const grader::GradedKernels::Key ben{"03-array-mult-reduce", "K.cl", "code\n", "code // ben\n"};
  REQUIRE_FALSE(graded.find_or_claim(ann));  // first: ann grades it
  grader::LabResult r;
  r.status = grader::LabStatus::Graded;
  r.cases.push_back({"case", true, 1, 1, grader::CaseStatus::Passed, "", "", 0});
  graded.publish(ann, r);
  CHECK(graded.find_or_claim(ben));  // no file positions in it: ben's result is ann's
  CHECK(graded.reused() == 1);

  // A finding quoting K.cl:3 (line text and columns depend on the spacing) is not shared.
  const grader::GradedKernels::Key cat{"03-array-mult-reduce", "K.cl", "other\n", "other // cat\n"};
  const grader::GradedKernels::Key dan{"03-array-mult-reduce", "K.cl", "other\n", "other // dan\n"};
  REQUIRE_FALSE(graded.find_or_claim(cat));
  r.cases[0] = {"memory safety: data races (Oclgrind)", true, 0, 1, grader::CaseStatus::Unsafe, "race at K.cl:3:5 `x[0] = 1;`", "", 0,
                grader::CaseKind::Safety};
  CHECK(grader::quotes_the_file(r, "K.cl"));
  graded.publish(cat, r);
  CHECK_FALSE(graded.find_or_claim(dan));  // dan grades his own
  graded.abandon(dan);
  CHECK(graded.find_or_claim(cat));  // the same bytes again: shared
  // Another lab, or the file found under another name, is another kernel.
  CHECK_FALSE(graded.find_or_claim({"04-tree-reductions", "K.cl", "code\n", "code // ann\n"}));
}

TEST_CASE("one child per kernel: a crash in the middle costs that case only, a time-out alone the larger cases after it") {
  test::TempDir dir;
  std::string source = test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl");
  const std::string body = "    int gid      = get_global_id(0);";
  REQUIRE(source.find(body) != std::string::npos);
  // N = 256 (fourth smallest of ten): a write through a null pointer; N = 1Mi (the ninth): an
  // endless loop. Every other case is right. The cases run smallest first.
  source.insert(source.find(body),
                "    if (get_global_size(0) == 1048576) { volatile int spin = 1; while (spin) {} }\n"
                "    if (get_global_size(0) == 256 && get_global_id(0) == 0) *(volatile global int*)0 = 1;\n");
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", source);
  // The children alone: no look under Oclgrind (which judges the null write at its own shape, test_evidence.cpp).
  // A build limit of 20 s: the endless case's run again alone spins for 3 + 20 s (support.hpp).
  const auto run = test::run_program("grader", test::lab_with_build_limit(dir / "data", "03-array-mult-reduce", 20) +
                                                   " grade --labs 03 --no-oclgrind --submissions " + (dir / "class").string() +
                                                   " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const json report = json::parse(test::read(dir / "out" / "ann" / "report.json"));
  std::map<std::string, std::string> status, message;
  for (const json& c : report["labs"][0]["cases"])
    if (c["kind"] == "case") status[c["name"]] = c["status"], message[c["name"]] = c["message"];  // the algorithm line follows the cases' points (scaled)
  CHECK(status.at("one work-group of 256, real") == "crashed");
  CHECK(status.at("L = 512, 1Mi elements, int") == "timeout");
  // The time budget: the one larger case is not run, and says why.
  CHECK(status.at("large N: 4Mi elements, L = 1024, real") == "not-run");
  CHECK(message.at("large N: 4Mi elements, L = 1024, real").find("did not finish the case \"L = 512, 1Mi elements, int\" alone") !=
        std::string::npos);
  std::size_t passed = 0;
  for (const auto& [name, s] : status) passed += s == "passed";
  CHECK(passed == status.size() - 3);  // the cases after the crash ran, in a new child, and passed
}

TEST_CASE("a batch grades a kernel once for every student whose file differs only in comments and spacing") {
  test::TempDir dir;
  // Not the starter: an untouched starter is not graded at all (test_starters.cpp). Nor a kernel
  // whose result quotes its lines (a finding's hint does): those are graded for each file.
  const std::string source = test::read(kit::root() / "grader/examples/class/emma-one-work-item/ArrayMultReduce.cl");
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", source);
  test::write(dir / "class" / "ben" / "ArrayMultReduce.cl", "// ben's copy\n" + source.substr(source.find('\n') + 1) + "\n\n");
  const auto run = test::run_program("grader", "grade --labs 03 --no-races --submissions " + (dir / "class").string() +
                                                   " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.find("1 kernel(s) the same as one graded before") != std::string::npos);
  const json ann = json::parse(test::read(dir / "out" / "ann" / "report.json"));
  const json ben = json::parse(test::read(dir / "out" / "ben" / "report.json"));
  CHECK(ann["labs"][0]["cases"] == ben["labs"][0]["cases"]);
  CHECK(ben["student"] == "ben");
}

TEST_CASE("the cases that need the same PoCL threads share one child wherever they sit in the spec") {
  // Lab 08's contention cases (2 PoCL threads of their own) sit among the other cases of their
  // parts. A stand-in for `grader run-case` writes down each child's PoCL threads and the cases it
  // was given, and finishes every case at once: what is checked is which child got which case, so
  // the verdict does not depend on how fast the machine is (a real case past its time limit under
  // load would be run again alone, in a child more). `grader bench 08` measures the real grading.
  test::TempDir dir;
  test::open_to_children(dir);  // the stand-in writes down here what it saw
  const std::filesystem::path fake = dir / "fake-grader";
  test::write(fake, R"sh(#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in --cases) cases=$2;; --result-dir) out=$2;; esac; shift; done
printf '%s %s\n' "$POCL_MAX_PTHREAD_COUNT" "$(tr -d '\n' < "$cases")" >> ")sh" + (dir / "children").string() + R"sh("
echo '{"status":"built"}' > "$out/tmp" && mv "$out/tmp" "$out/built.json"
n=$(grep -o '"seed"' "$cases" | wc -l)
i=0
while [ $i -lt $n ]; do echo '{"status":"ok"}' > "$out/tmp"; mv "$out/tmp" "$out/case-$i.json"; i=$((i + 1)); done
)sh");
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"08"}).at(0);
  std::vector<std::size_t> all, contention;
  for (std::size_t i = 0; i < spec.cases.size(); ++i) {
    all.push_back(i);
    if (spec.cases[i].params.contains("pocl_threads")) contention.push_back(i);
  }
  // The spec still spreads them: at least two, not next to each other, and other cases after them.
  REQUIRE(contention.size() >= 2);
  REQUIRE(contention.back() - contention.front() + 1 > contention.size());
  for (std::size_t i : contention) REQUIRE(spec.cases[i].params.at("pocl_threads") == 2);

  grader::GradeSettings s{fake, dir / "work"};
  std::filesystem::create_directories(s.workdir);
  std::vector<std::size_t> judged;
  const grader::CaseRuns runs = grader::run_cases(spec, s, dir / "K.cl", "K.cl", all, [&](std::size_t i, const json&) {
    judged.push_back(i);
    return grader::AfterCase::GoOn;
  });
  // Two children, one per thread count: the grader's one PoCL thread first (the spec's first case
  // is not a contention case), then the contention cases' two.
  CHECK(runs.children == 2);
  std::istringstream lines(test::read(dir / "children"));
  std::vector<std::pair<int, json>> children;
  for (std::string line; std::getline(lines, line);) {
    const std::size_t space = line.find(' ');
    REQUIRE(space != std::string::npos);
    children.emplace_back(std::stoi(line.substr(0, space)), json::parse(line.substr(space + 1)));
  }
  REQUIRE(children.size() == 2);
  CHECK(children[0].first == s.grading.pocl_threads);
  CHECK(children[1].first == 2);
  const auto cases_of = [&](const json& list) {
    std::multiset<std::string> names;
    for (const json& params : list)
      for (std::size_t i : all)
        if (spec.cases[i].params == params) names.insert(spec.cases[i].name);
    CHECK(names.size() == list.size());  // each one a case of the spec
    return names;
  };
  std::multiset<std::string> want_contention, want_others;
  for (std::size_t i : all) (spec.cases[i].params.contains("pocl_threads") ? want_contention : want_others).insert(spec.cases[i].name);
  CHECK(cases_of(children[0].second) == want_others);
  CHECK(cases_of(children[1].second) == want_contention);
  // Every case has its own result at its own place, judged once.
  REQUIRE(runs.results.size() == all.size());
  for (const json& r : runs.results) CHECK(r.value("status", "") == "ok");
  std::sort(judged.begin(), judged.end());
  CHECK(judged == all);
}

TEST_CASE("on a device other than PoCL's CPU a kernel's cases share one child, whatever PoCL threads they ask for") {
  // Lab 08's contention cases ask for 2 PoCL threads: on PoCL they run in a child of their own
  // (the test above); a GPU has no PoCL threads, and a second child would only open the device and
  // build the kernel again. A stand-in for `grader run-case` passes every case and counts its runs.
  test::TempDir dir;
  test::open_to_children(dir);
  const std::filesystem::path fake = dir / "fake-grader";
  test::write(fake, R"sh(#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in --cases) cases=$2;; --result-dir) out=$2;; esac; shift; done
echo run >> ")sh" + (dir / "children").string() + R"sh("
echo '{"status":"built"}' > "$out/tmp" && mv "$out/tmp" "$out/built.json"
n=$(grep -o '"seed"' "$cases" | wc -l)
i=0
while [ $i -lt $n ]; do echo '{"status":"ok"}' > "$out/tmp"; mv "$out/tmp" "$out/case-$i.json"; i=$((i + 1)); done
)sh");
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"08"}).at(0);
  std::vector<std::size_t> all(spec.cases.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  const auto children = [&](bool cpu_device) {
    grader::GradeSettings s{fake, dir / (cpu_device ? "cpu" : "gpu")};
    s.cpu_device = cpu_device;
    std::filesystem::create_directories(s.workdir);
    const grader::CaseRuns runs = grader::run_cases(spec, s, dir / "K.cl", "K.cl", all, [](std::size_t, const json&) { return grader::AfterCase::GoOn; });
    for (const json& r : runs.results) CHECK(r.value("status", "") == "ok");
    return runs.children;
  };
  CHECK(children(true) == 2);   // PoCL: the contention cases in a child of their own
  CHECK(children(false) == 1);  // a GPU: one child
}

namespace {

// A stand-in for `grader run-case` for the tests below: it writes down, per child, how the parent
// held the device's lock ("shared" when another shared hold could be taken beside it, else
// "exclusive"), fails the second case of any child that runs more than one (an OpenCL call's
// error), and, given `slow_alone_case`, sleeps 6 s in the first child that runs that case alone.
std::filesystem::path write_lock_noting_stand_in(const std::filesystem::path& dir, const std::filesystem::path& lock,
                                                 const std::string& slow_alone_case = "") {
  const std::filesystem::path fake = dir / "fake-grader";
  test::write(fake, R"sh(#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in --cases) cases=$2;; --result-dir) out=$2;; esac; shift; done
d=")sh" + dir.string() + R"sh("
if flock -n -s ")sh" + lock.string() + R"sh(" true; then echo shared >> "$d/children"; else echo exclusive >> "$d/children"; fi
echo '{"status":"built"}' > "$out/tmp" && mv "$out/tmp" "$out/built.json"
n=$(grep -o '"seed"' "$cases" | wc -l)
slow=")sh" + slow_alone_case + R"sh("
if [ -n "$slow" ] && [ $n -eq 1 ] && grep -q "\"seed\":$slow[,}]" "$cases" && [ ! -e "$d/slept" ]; then touch "$d/slept"; sleep 6; fi
i=0
while [ $i -lt $n ]; do
  if [ $n -gt 1 ] && [ $i -eq 1 ]; then echo '{"status":"error","message":"OpenCL call clFinish returned CL_OUT_OF_HOST_MEMORY (-6)"}' > "$out/tmp"
  else echo '{"status":"ok"}' > "$out/tmp"; fi
  mv "$out/tmp" "$out/case-$i.json"
  i=$((i + 1))
done
)sh");
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  return fake;
}

// Lab 03's first three cases through run_cases with `s`, each judged as it comes (in `judged`);
// every case must end "ok".
grader::CaseRuns run_first_three(const grader::LabSpec& spec, const grader::GradeSettings& s, const std::filesystem::path& dir,
                                 std::vector<std::size_t>& judged) {
  std::filesystem::create_directories(s.workdir);
  grader::CaseRuns runs = grader::run_cases(spec, s, dir / "K.cl", "K.cl", {0, 1, 2}, [&](std::size_t i, const json&) {
    judged.push_back(i);
    return grader::AfterCase::GoOn;
  });
  REQUIRE(runs.results.size() == 3);
  for (const json& r : runs.results) CHECK(r.value("status", "") == "ok");
  return runs;
}

}  // namespace

TEST_CASE("an OpenCL call that fails ends its child, and after other cases ran there it is run again in a child of its own, and that run counts") {
  // A kernel that writes past its buffer can damage the child's heap without crashing it; a later
  // case in the same child may then see an OpenCL call fail. That is no verdict on the later case
  // and no trouble of the grader's either. The run again checks whether the case fails without the
  // cases before it, not its time: it shares the device with other grading (an exclusive hold
  // would make every other case child on the device wait for it).
  test::TempDir dir;
  test::open_to_children(dir);  // the stand-in writes down here what it saw
  grader::GradeSettings s{{}, dir / "work"};
  s.device.platform = "kit-test-confirm-" + std::to_string(::getpid());  // a lock no other test holds
  const std::filesystem::path fake = write_lock_noting_stand_in(dir.path, grader::DeviceLock::file(s.device));
  s.grader_exe = fake;
  const auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"03"}).at(0);
  std::vector<std::size_t> judged;
  const grader::CaseRuns runs = run_first_three(spec, s, dir.path, judged);
  // The three together until the second failed; the third in a new child (a child whose OpenCL
  // call failed is not used again); the second in a child of its own, the device shared each time.
  CHECK(runs.children == 3);
  CHECK(test::read(dir / "children") == "shared\nshared\nshared\n");
  CHECK(judged == std::vector<std::size_t>{0, 2, 1});  // the failed run was not judged
  std::filesystem::remove(grader::DeviceLock::file(s.device));
}

TEST_CASE("a run again after a failure that runs past its limit is run once more with the device to itself, and that run counts") {
  test::TempDir dir;
  test::open_to_children(dir);
  grader::GradeSettings s{{}, dir / "work"};
  s.device.platform = "kit-test-confirm-slow-" + std::to_string(::getpid());
  auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"03"}).at(0);
  spec.cases[1].time_limit_s = 2;  // the stand-in sleeps 6 s in the case's first run alone (2 s: room for a loaded machine's shell)
  s.grader_exe = write_lock_noting_stand_in(dir.path, grader::DeviceLock::file(s.device), spec.cases[1].params.at("seed").dump());
  std::vector<std::size_t> judged;
  const grader::CaseRuns runs = run_first_three(spec, s, dir.path, judged);
  // The failure's run again shared the device and ran past its limit, so it ran once more alone,
  // exclusively; that run counts, and the case is marked as timed out beside other grading first.
  CHECK(test::read(dir / "children") == "shared\nshared\nshared\nexclusive\n");
  CHECK(runs.children == 4);
  CHECK(runs.timed_out_first == std::vector<bool>{false, true, false});
  CHECK(runs.timed_out_alone.empty());
  CHECK(judged == std::vector<std::size_t>{0, 2, 1});
  std::filesystem::remove(grader::DeviceLock::file(s.device));
}

TEST_CASE("a kernel that fails on the device loses the case as a crash, not as an error of the grader's") {
  // A GPU reports a kernel that accessed memory outside its buffers through the call that waits for
  // it (kit::kernel_failed_on_device). A stand-in for `grader run-case` reports that for every case.
  test::TempDir dir;
  const std::filesystem::path fake = dir / "fake-grader";
  test::write(fake, R"sh(#!/bin/sh
failed='{"status":"kernel-failed","message":"clFinish returned CL_OUT_OF_RESOURCES (-5)"}'
while [ $# -gt 0 ]; do case "$1" in --cases) cases=$2;; --result-dir) out=$2;; --result) one=$2;; esac; shift; done
if [ -z "$cases" ]; then echo "$failed" > "$one"; exit 0; fi
echo '{"status":"built"}' > "$out/tmp" && mv "$out/tmp" "$out/built.json"
n=$(grep -o '"seed"' "$cases" | wc -l)
i=0
while [ $i -lt $n ]; do echo "$failed" > "$out/tmp"; mv "$out/tmp" "$out/case-$i.json"; i=$((i + 1)); done
)sh");
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  const auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"03"}).at(0);
  const auto reference = grader::load_reference(kit::root() / "grader" / "reference", spec);
  test::write(dir / "ann" / "ArrayMultReduce.cl", test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"));
  grader::GradeSettings s{fake, dir / "work"};
  s.grading.oclgrind = grader::OclgrindChecks::None;
  const grader::LabResult r = grader::grade_lab(spec, reference, dir / "ann", "ann", s);
  REQUIRE(r.status == grader::LabStatus::Graded);
  for (const grader::CaseResult& c : r.cases) {
    CAPTURE(c.name);
    CHECK(c.status == grader::CaseStatus::Crashed);
    CHECK(c.points == 0);
    CHECK(c.message.find("failed on the device") != std::string::npos);
    CHECK(c.message.find("clFinish returned CL_OUT_OF_RESOURCES (-5)") != std::string::npos);
  }
  CHECK_FALSE(grader::needs_retry(r));  // a verdict: not graded again on every run
}
