// Memory-safety checks under Oclgrind: reading its reports, the solutions being clean, known false
// alarms allowed on purpose, and Oclgrind's own crashes told apart from a kernel's faults.
#include <doctest/doctest.h>

#include "spec/spec.hpp"

#include <nlohmann/json.hpp>

#include "kit/paths.hpp"
#include "oclgrind/checks.hpp"
#include "oclgrind/oclgrind.hpp"
#include "support.hpp"

using json = nlohmann::json;

namespace {
// Two reports as Oclgrind 21.10 prints them (a race repeated at another address), and a divergence.
const char* kReports =
    "Device:  not a report\n"
    "Read-write data race at local memory address 0x1000000000004\n"
    "\tKernel: ArrayMultReduce\n\t\n"
    "\tFirst entity:  Global(1,0,0) Local(1,0,0) Group(0,0,0)\n"
    "\t  store float %mul, float addrspace(3)* %arrayidx10, align 4, !dbg !37\n"
    "\tAt line 9 (column 17) of k.cl:\n\t  \n\t\n"
    "\tSecond entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
    "\t  %16 = load float, float addrspace(3)* %arrayidx16, align 4, !dbg !57\n"
    "\tAt line 14 (column 28) of k.cl:\n\t  if ((tnum & mask) == 0)\n\t\n\n"
    "Read-write data race at local memory address 0x100000000000c\n"
    "\tKernel: ArrayMultReduce\n\t\n"
    "\tFirst entity:  Global(3,0,0) Local(3,0,0) Group(0,0,0)\n"
    "\tAt line 9 (column 17) of k.cl:\n\t\n"
    "\tSecond entity: Global(2,0,0) Local(2,0,0) Group(0,0,0)\n"
    "\tAt line 14 (column 28) of k.cl:\n\t\n\n"
    "Work-group divergence detected (barrier)\n"
    "\tKernel:     ArrayMultReduce\n\tWork-group: (0,0,0)\n\t\n"
    "\tWork-item:  Global(1,0,0) Local(1,0,0) Group(0,0,0)\n"
    "\tAt line 19 (column 5) of k.cl:\n\t\n"
    "\tPrevious work-items executed:\n"
    "\tAt line 15 (column 13) of k.cl:\n\t\n";

std::string kernel_source() {
  std::string s;
  for (int i = 1; i <= 20; ++i) s += i == 9 ? "    prods[tnum] = dA[gid] * dB[gid];\n" : i == 14 ? "  prods[tnum] += prods[tnum + offset];\n" : "x\n";
  return s;
}

json safety_cases(const std::filesystem::path& report) {
  json found = json::object();
  const json doc = json::parse(test::read(report));  // a named document: the loop below refers into it
  for (const json& c : doc["labs"][0]["cases"])
    if (c["name"].get<std::string>().rfind("memory safety", 0) == 0) found[c["name"].get<std::string>()] = c;
  return found;
}
}  // namespace

TEST_CASE("Oclgrind reports parse into kinds, positions and counts") {
  const auto findings = grader::parse_oclgrind(kReports);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].kind == "data-race");
  CHECK(findings[0].title == "Read-write data race at local memory");
  CHECK(findings[0].count == 2);
  REQUIRE(findings[0].sites.size() == 2);
  CHECK(findings[0].sites[0].line == 9);
  CHECK(findings[0].sites[0].column == 17);
  CHECK(findings[0].sites[1].line == 14);
  CHECK(findings[1].kind == "barrier-divergence");
  REQUIRE(findings[1].sites.size() == 2);
  CHECK(findings[1].sites[1].line == 15);
  const std::string text = grader::describe(findings[0], kernel_source(), "labs/k.cl");
  CHECK(text.find("read-write data race in local memory") == 0);
  CHECK(text.find("work-item 1 of work-group 0 at labs/k.cl:9:17 `prods[tnum] = dA[gid] * dB[gid];`") != std::string::npos);
  CHECK(text.find("work-item 0 of work-group 0 at labs/k.cl:14:28 `prods[tnum] += prods[tnum + offset];`") != std::string::npos);
  CHECK(text.find("(2 reports like it)") != std::string::npos);
  CHECK(grader::parse_oclgrind("Device: x\nSum: 3\n").empty());
}

TEST_CASE("barrier divergence names the kernel, the work-group and each barrier's line, in both of Oclgrind's forms") {
  const std::string source = "kernel void K(global float *x)\n{\n    if (get_local_id(0) < 8)\n        barrier(CLK_LOCAL_MEM_FENCE);\n"
                             "    barrier(CLK_LOCAL_MEM_FENCE);\n}\n";
  const std::string reports =
      "Work-group divergence detected (barrier)\n\tKernel:     K\n\tWork-group: (2,0,0)\n\t\n"
      "\tWork-item:  Global(33,0,0) Local(1,0,0) Group(2,0,0)\n\t  tail call spir_func void @_Z7barrierj(i32 noundef 1)\n"
      "\tAt line 5 (column 5) of K.cl:\n\t  }\n\tfence=0x1, num_events=0\n\t\n\tPrevious work-items executed:\n"
      "\t  tail call spir_func void @_Z7barrierj(i32 noundef 1)\n\tAt line 4 (column 9) of K.cl:\n\t  {\n\n"
      "Work-group divergence detected (barrier)\n\tKernel:     K\n\tWork-group: (2,0,0)\n"
      "\tOnly 8 out of 16 work-items executed barrier\n\t  call spir_func void @_Z7barrierj(i32 noundef 1)\n"
      "\tAt line 4 (column 9) of K.cl:\n\t  {\n\t\n";
  const auto findings = grader::parse_oclgrind(reports);
  REQUIRE(findings.size() == 2);
  CHECK(grader::describe(findings[0], source, "K.cl") ==
        "work-group divergence detected (barrier): in kernel K, work-item 1 of work-group 2 at K.cl:5:5 `barrier(CLK_LOCAL_MEM_FENCE);` "
        "reached a different barrier from the work-items before it at K.cl:4:9 `barrier(CLK_LOCAL_MEM_FENCE);`: every work-item of a "
        "work-group must reach the same barriers");
  CHECK(grader::describe(findings[1], source, "K.cl") ==
        "work-group divergence detected (barrier): in kernel K, only 8 of the 16 work-items of work-group 2 reached the barrier at "
        "K.cl:4:9 `barrier(CLK_LOCAL_MEM_FENCE);`: every work-item of a work-group must reach the same barriers");
}

TEST_CASE("a race between work-groups is told to use an atomic, never a barrier: lab 08's plain += on the total") {
  test::TempDir dir;
  std::string source = test::read(kit::root() / "solutions/08-atomics-and-scan/AtomicsScan.cl");
  const std::string atomic = "        atomic_add(total, scratch[0]);";
  REQUIRE(source.find(atomic) != std::string::npos);
  source.replace(source.find(atomic), atomic.size(), "        *total += scratch[0];");
  test::write(dir / "08-atomics-and-scan" / "AtomicsScan.cl", source);
  const auto run = test::run_program("grader", "check 08 --races --dir " + dir.path.string());
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("`*total += scratch[0];` touch the same element, and no barrier orders two work-groups") != std::string::npos);
  CHECK(run.output.find("hint: work-items of different work-groups update the same element, and no barrier orders work-groups: "
                        "make the update atomic") != std::string::npos);
  CHECK(run.output.find("before a barrier separates them") == std::string::npos);
  // The visible contention case catches it too, without Oclgrind.
  CHECK(run.output.find("FAIL atomic int sum under contention") != std::string::npos);
}

TEST_CASE("the solution passes every safety check") {
  const auto run = test::run_program("grader", "check 03 --races --dir " + (kit::root() / "solutions").string());
  CHECK_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.find("PASS memory safety: data races (Oclgrind)") != std::string::npos);
  CHECK(run.output.find("All visible cases pass: 13 / 13 points") != std::string::npos);
}

TEST_CASE("a known false alarm is allowed only where the spec says so") {
  // The compare-and-swap float add is correct, but Oclgrind reports its plain read of *p as a race.
  test::TempDir specs, refs, labs, out;
  std::string spec = test::read(kit::root() / "grader/specs/03-array-mult-reduce.json");
  const std::string allow = R"("checks": {"data-race": 2, "barrier-divergence": 1, "invalid-access": 1, "uninitialized": 1},
    "allow": [{"kind": "data-race", "kernel": "ArrayMultReduce", "argument": ARG, "accesses": "read-write", "other_side_atomic": true,
               "why": "the compare-and-swap retries when the plain read was stale"}])";
  const std::string checks = R"("checks": {"data-race": 2, "barrier-divergence": 1, "invalid-access": 1, "uninitialized": 1})";
  // Allowed on dC (argument 3, where the race is); an allowance on dA (argument 0) allows nothing here.
  std::string on_dc = allow, on_da = allow;
  on_dc.replace(on_dc.find("ARG"), 3, "3");
  on_da.replace(on_da.find("ARG"), 3, "0");
  std::string spec_da = spec;
  spec.replace(spec.find(checks), checks.size(), on_dc);
  spec_da.replace(spec_da.find(checks), checks.size(), on_da);
  test::write(specs / "03-array-mult-reduce.json", spec);
  REQUIRE(test::run_program("grader", "--specs " + specs.path.string() + " --references " + refs.path.string() + " reference").exit_code == 0);
  test::write(labs / "03-array-mult-reduce" / "ArrayMultReduce.cl", test::read(test::data("cas_float_add.cl")));

  const auto allowed = test::run_program("grader", "--specs " + specs.path.string() + " --references " + refs.path.string() +
                                                       " check 03 --races --dir " + labs.path.string());
  // The race check itself passes with the false alarms allowed (the kernel also reads dC, a
  // write-only buffer: an invalid access at every case's shape, which costs it its cases, and so
  // the points the race check follows).
  CAPTURE(allowed.output);
  const std::size_t races = allowed.output.find("memory safety: data races (Oclgrind)");
  REQUIRE(races != std::string::npos);
  const std::string line = allowed.output.substr(races, allowed.output.find("\n  ", allowed.output.find('\n', races) + 1) - races);
  CHECK(line.find("the check itself passed: Oclgrind found nothing of this kind") != std::string::npos);
  CHECK(line.find("known false alarm(s) allowed by the spec") != std::string::npos);
  const auto strict = test::run_program("grader", "check 03 --races --dir " + labs.path.string());
  CHECK(strict.output.find("FAIL memory safety: data races (Oclgrind)") != std::string::npos);
  CHECK(strict.output.find("ArrayMultReduce.cl:7:") != std::string::npos);  // the plain read of *p
  test::write(specs / "03-array-mult-reduce.json", spec_da);
  REQUIRE(test::run_program("grader", "--specs " + specs.path.string() + " --references " + refs.path.string() + " reference").exit_code == 0);
  const auto other_argument = test::run_program("grader", "--specs " + specs.path.string() + " --references " + refs.path.string() +
                                                              " check 03 --races --dir " + labs.path.string());
  CHECK(other_argument.output.find("FAIL memory safety: data races (Oclgrind)") != std::string::npos);
}

TEST_CASE("an allowance written on a line's text is refused, naming the spec and the field") {
  test::TempDir specs;
  std::string spec = test::read(kit::root() / "grader/specs/03-array-mult-reduce.json");
  const std::string checks = R"("checks": {"data-race": 2, "barrier-divergence": 1, "invalid-access": 1, "uninitialized": 1})";
  REQUIRE(spec.find(checks) != std::string::npos);
  spec.replace(spec.find(checks), checks.size(),
               std::string(checks) + R"(, "allow": [{"kind": "data-race", "source_contains": "old.f = *p", "why": "stale reads retry"}])");
  test::write(specs / "03-array-mult-reduce.json", spec);
  std::string error;
  try {
    grader::load_spec(specs / "03-array-mult-reduce.json");
  } catch (const std::exception& e) {
    error = e.what();
  }
  CHECK(error.find("03-array-mult-reduce.json") != std::string::npos);
  CHECK(error.find("safety.allow[0].source_contains") != std::string::npos);
  CHECK(error.find("never by the text of a line") != std::string::npos);
}

TEST_CASE("Oclgrind crashing after the run leaves the checks judged on what its plugin recorded, and one that runs nothing stops grade before it starts") {
  test::TempDir dir;
  std::filesystem::create_directories(dir / "subs");
  for (const char* student : {"ada", "ben-missing-barrier"})
    std::filesystem::copy(kit::root() / "grader/examples/class" / student, dir / "subs" / student, std::filesystem::copy_options::recursive);
  const auto grade_with = [&](const std::string& fake, const std::string& name) {
    test::write(dir / name, "#!/bin/sh\n" + fake + "\n");
    std::filesystem::permissions(dir / name, std::filesystem::perms::owner_all);
    return test::run_command("KIT_OCLGRIND=" + (dir / name).string() + " " + KIT_BIN_DIR + "/grader grade --labs 03 --submissions " +
                             (dir / "subs").string() + " --out " + (dir / ("out-" + name)).string());
  };
  // Runs the real Oclgrind (its reports written), then aborts as Oclgrind can at exit: every step
  // wrote its result and the kit's plugin recorded its launches, so what Oclgrind found is known
  // whole, and the lines are judged on it as after a clean run.
  // (/usr/bin/oclgrind from Debian's package, /usr/local/bin/oclgrind where setup.sh put PyPI's build)
  const test::Command after = grade_with(grader::find_oclgrind() + " \"$@\"; kill -ABRT $$", "abort-after");
  REQUIRE_MESSAGE(after.exit_code == 0, after.output);
  const json ada = safety_cases(dir / "out-abort-after" / "ada" / "report.json");
  REQUIRE(ada.size() == 4);
  for (const auto& [name, c] : ada.items()) {
    CAPTURE(name);
    CHECK(c["status"] == "passed");
    CHECK(c["points"] == c["max_points"]);
  }
  CHECK(test::read(dir / "out-abort-after" / "gradebook.csv").find("\nada,18,18\n") != std::string::npos);  // as with a clean run
  const json ben = safety_cases(dir / "out-abort-after" / "ben-missing-barrier" / "report.json");
  CHECK(ben["memory safety: data races (Oclgrind)"]["status"] == "unsafe");
  CHECK(ben["memory safety: uninitialized values (Oclgrind)"]["status"] == "unsafe");
  CHECK(ben["memory safety: barrier divergence (Oclgrind)"]["status"] == "scaled");
  // Aborts before running anything: nothing would rest on it, so no class is graded.
  const test::Command before = grade_with("kill -ABRT $$", "abort-before");
  CHECK(before.exit_code == 1);
  CHECK(before.output.find("Oclgrind does not work here") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "out-abort-before" / "gradebook.csv"));
}

TEST_CASE("a safety block of several runs adds up their findings: lab 04's rung 1 at L = 64 and rung 5 at L = 4096") {
  test::TempDir labs;
  std::string kernel = test::read(kit::root() / "solutions/04-tree-reductions/TreeReductions.cl");
  // Rung 1 without its barrier between levels (seen in the first run), and rung 5's largest level
  // also taking work-item 2048, which reads what work-item 0 writes (a level only L = 4096 has).
  kernel = test::replace_once(kernel, "        barrier(CLK_LOCAL_MEM_FENCE);           // this level is done before the next one reads it\n", "");
  kernel = test::replace_once(kernel, "if (tid < 2048)", "if (tid <= 2048)");
  test::write(labs / "04-tree-reductions" / "TreeReductions.cl", kernel);
  const auto run = test::run_program("grader", "check 04 --races --dir " + labs.path.string());
  INFO(run.output);
  CHECK(run.output.find("FAIL memory safety: data races (Oclgrind)") != std::string::npos);
  CHECK(run.output.find("`scratch[tid] += scratch[tid + s];`") != std::string::npos);  // rung 1, first run
  CHECK(run.output.find("`if (WG_SIZE >= 4096) { if (tid <= 2048) scratch[tid] += scratch[tid + 2048];") != std::string::npos);  // second run
}
