// The witness: a case the graded device gets wrong is run again under Oclgrind, an independent
// OpenCL implementation; right there with no finding, the line is device-disagrees and keeps its
// points (or the share the course sets). A kernel with a fault Oclgrind can see, or whose result
// only Oclgrind's one-group-after-another schedule makes right, is never rescued.
//
// A device that gets a correct kernel wrong is made here on purpose: PoCL reports OpenCL 3.0
// (__OPENCL_VERSION__ 300) and Oclgrind OpenCL 1.2 (120), so a kernel that adds 1 to one
// work-group size's result only where __OPENCL_VERSION__ >= 200 is wrong on PoCL alone, as a
// miscompiled kernel would be, whatever PoCL version is installed.
#include <doctest/doctest.h>

#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kit/paths.hpp"
#include "oclgrind/checks.hpp"
#include "support.hpp"

namespace {

// The solution of lab 03 with its write made wrong on PoCL only, for work-groups of 8.
std::string lab03_wrong_on_pocl_at_8(const std::string& solution) {
  return test::replace_once(solution, "        dC[wgNum] = prods[0];",
                            "#if __OPENCL_VERSION__ >= 200\n"
                            "        dC[wgNum] = prods[0] + (numItems == 8 ? 1.0f : 0.0f);\n"
                            "#else\n"
                            "        dC[wgNum] = prods[0];\n"
                            "#endif");
}

std::string lab03_solution() { return test::read(kit::root() / "solutions" / "03-array-mult-reduce" / "ArrayMultReduce.cl"); }

// The line `grader check` printed for the case `name`, with the lines under it.
std::string check_block(const std::string& output, const std::string& name) {
  const std::size_t head = output.find(name);
  if (head == std::string::npos) return "";
  const std::size_t at = output.rfind('\n', head) + 1;
  static const std::regex next(R"(\n  (PASS|PART|FAIL|SKIP|DEVICE) )");
  std::smatch m;
  const std::string rest = output.substr(at + 1);
  return std::regex_search(rest, m, next) ? output.substr(at, std::size_t(m.position(0)) + 1) : output.substr(at);
}

// Lab 03's tree with the loop PoCL 3.1 and 5.0 miscompile: its condition calls get_local_size(0),
// and nothing computed from it before the first barrier. Work-item 0 stores the sum where `store` holds.
std::string faulty_loop_tree(const std::string& store) {
  return "kernel void ArrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)\n"
         "{\n"
         "    int gid = get_global_id(0);\n"
         "    int tnum = get_local_id(0);\n"
         "    prods[tnum] = dA[gid] * dB[gid];\n"
         "    barrier(CLK_LOCAL_MEM_FENCE);\n"
         "    for (uint offset = 1; offset < get_local_size(0); offset *= 2) {\n"
         "        if ((tnum & (2 * offset - 1)) == 0)\n"
         "            prods[tnum] += prods[tnum + offset];\n"
         "        barrier(CLK_LOCAL_MEM_FENCE);\n"
         "    }\n"
         "    if (" + store + ")\n"
         "        dC[get_group_id(0)] = prods[0];\n"
         "}\n";
}

// A stand-in for Oclgrind in `dir` that writes down in `runs` each run's checks ("own", or "every"
// with the race check) and its case (`--case`), or "<checks>-together" and its list of cases
// (`--cases`), then runs the real one.
std::filesystem::path oclgrind_stand_in(const test::TempDir& dir, const std::filesystem::path& runs) {
  test::open_to_children(dir);  // the stand-in writes down here what it ran
  const std::filesystem::path fake = dir / "oclgrind";
  test::write(fake, R"sh(#!/bin/sh
checks=own
for a in "$@"; do [ "$a" = --data-races ] && checks=every; done
for a in "$@"; do [ "$prev" = --case ] && echo "$checks $a" >> )sh" + runs.string() + R"sh(; [ "$prev" = --cases ] && echo "$checks-together $(cat "$a")" >> )sh" + runs.string() + R"sh(; prev=$a; done
exec )sh" + grader::find_oclgrind() + " \"$@\"\n");
  std::filesystem::permissions(fake, std::filesystem::perms::all);
  return fake;
}

}  // namespace

TEST_CASE("a case the device gets wrong and Oclgrind right is device-disagrees, with its points and the device's result") {
  test::TempDir dir;
  test::write(dir / "03-array-mult-reduce" / "ArrayMultReduce.cl", lab03_wrong_on_pocl_at_8(lab03_solution()));
  const auto run = test::run_program("grader", "check 03 --dir " + dir.path.string());
  CAPTURE(run.output);
  CHECK(run.exit_code == 0);  // every visible case earns its points
  const std::string block = check_block(run.output, "one work-group of 8");
  CHECK(block.find("  DEVICE one work-group of 8") == 0);
  CHECK(block.find("1/1") != std::string::npos);
  CHECK(block.find("device-disagrees: the device computed a wrong result (work-group 0 of 1: expected 45, got 46 (exact)), but under "
                   "Oclgrind, an independent OpenCL implementation, the same case computed the right result") != std::string::npos);
  CHECK(block.find("the case keeps its points") != std::string::npos);
  CHECK(block.find("hint:") == std::string::npos);  // the lab's own hint blamed the kernel: gone, and no known fault's pattern here
  // The other cases ran right on the device: plain passes.
  CHECK(check_block(run.output, "slide's L = 32, 2048 groups, int").find("  PASS ") == 0);
  CHECK(run.output.find("note: the device got 1 case wrong that Oclgrind") != std::string::npos);
}

TEST_CASE("the course sets what a device-disagrees case earns, and the gradebook status and the run summary count it") {
  test::TempDir dir;
  test::write(dir / "subs" / "ann" / "ArrayMultReduce.cl", lab03_wrong_on_pocl_at_8(lab03_solution()));
  const auto run = test::run_program("grader", "grade --submissions " + (dir / "subs").string() + " --out " + (dir / "out").string() +
                                                   " --labs 03 --jobs 1 --device-disagrees-share 0");
  CAPTURE(run.output);
  REQUIRE(run.exit_code == 0);
  const std::string report = test::read(dir / "out" / "ann" / "report.md");
  CAPTURE(report);
  CHECK(report.find("| one work-group of 8 | device-disagrees | 0 / 1 |") != std::string::npos);
  CHECK(report.find("the case earns no points until the instructor reviews it") != std::string::npos);
  // The checks that follow the case points follow the 9 of 10 earned.
  CHECK(report.find("| memory safety: data races (Oclgrind) | scaled | 1.8 / 2 |") != std::string::npos);
  CHECK(test::read(dir / "out" / "gradebook-status.csv").find("ann,device disagrees on 1 case (right under Oclgrind: review)") !=
        std::string::npos);
  CHECK(run.output.find("Device disagrees: 1 case in 1 student-lab") != std::string::npos);

  // A share out of range is refused, naming the value.
  const auto bad = test::run_program("grader", "grade --submissions " + (dir / "subs").string() + " --out " + (dir / "out2").string() +
                                                   " --labs 03 --device-disagrees-share 1.5");
  CHECK(bad.exit_code != 0);
  CHECK(bad.output.find("1.5") != std::string::npos);
}

TEST_CASE("a kernel with a race is not rescued: the device's wrong result stays wrong") {
  test::TempDir dir;
  // The tree's barrier moved out of the loop: a race Oclgrind reports, and on PoCL a wrong result at L = 8.
  std::string source = test::replace_once(lab03_wrong_on_pocl_at_8(lab03_solution()), "        barrier(CLK_LOCAL_MEM_FENCE);   // every value of the previous level is in prods\n", "");
  test::write(dir / "03-array-mult-reduce" / "ArrayMultReduce.cl", source);
  const auto run = test::run_program("grader", "check 03 --dir " + dir.path.string());
  CAPTURE(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("DEVICE") == std::string::npos);
  CHECK(check_block(run.output, "one work-group of 8").find("  FAIL one work-group of 8") == 0);
  CHECK(check_block(run.output, "one work-group of 8").find("wrong: ") != std::string::npos);
}

TEST_CASE("lab 08's ticket without its fences is not rescued, though Oclgrind's one-group-after-another run computes it right") {
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions" / "08-atomics-and-scan" / "AtomicsScan.cl");
  // Both fences gone, and on PoCL the last group reads a stale partial when there are 4 groups (as
  // a GPU may without the fences).
  std::string source = test::replace_once(solution, "        mem_fence(CLK_GLOBAL_MEM_FENCE);\n        last = (atomic_inc(ticket) == G - 1);\n        mem_fence(CLK_GLOBAL_MEM_FENCE);",
                                          "        last = (atomic_inc(ticket) == G - 1);");
  source = test::replace_once(source, "        result[0] = scratch[0];\n",
                              "#if __OPENCL_VERSION__ >= 200\n        result[0] = scratch[0] - (G == 4 ? partials[3] : 0.0f);\n#else\n"
                              "        result[0] = scratch[0];\n#endif\n");
  test::write(dir / "08-atomics-and-scan" / "AtomicsScan.cl", source);
  const auto run = test::run_program("grader", "check 08 --dir " + dir.path.string());
  CAPTURE(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("DEVICE") == std::string::npos);
  CHECK(check_block(run.output, "single pass: N = 1000, 4 groups of 64").find("  FAIL ") == 0);
  CHECK(run.output.find("fences") != std::string::npos);  // the fence check says what is missing
}

TEST_CASE("the known PoCL fault's loop gets the rewrite that avoids it, where the device is PoCL and got the case wrong") {
  test::TempDir dir;
  // The tree with its loop condition calling get_local_size(0): right everywhere; PoCL 3.1 and 5.0 compute it wrong.
  const std::string kernel = faulty_loop_tree("tnum == 0");
  test::write(dir / "03-array-mult-reduce" / "ArrayMultReduce.cl", kernel);
  const auto run = test::run_program("grader", "check 03 --dir " + dir.path.string());
  CAPTURE(run.output);
  // Every visible case earns its points, whether this PoCL has the fault or not.
  CHECK(run.exit_code == 0);
  CHECK(run.output.find("FAIL") == std::string::npos);
  if (run.output.find("DEVICE") != std::string::npos) {  // this PoCL has the fault
    const std::string block = check_block(run.output, "one work-group of 8");
    CHECK(block.find("  DEVICE ") == 0);
    CHECK(block.find("hint: PoCL ") != std::string::npos);
    CHECK(block.find(" has a known compiler fault (barrier-loop-size-bound): a loop with a barrier in it whose condition calls get_local_size") !=
          std::string::npos);
    CHECK(block.find("uint L = get_local_size(0);") != std::string::npos);
    // A larger case of the same kernel function: after Oclgrind witnessed the smallest failing
    // one with every check, the device ran it again with its optimizations off, which avoid the fault.
    const std::string larger = check_block(run.output, "slide's L = 32, 2048 groups, int");
    CHECK(larger.find("  DEVICE ") == 0);
    CHECK(larger.find("the same kernel built with the device's optimizations off (-cl-opt-disable, which avoids the known compiler fault "
                      "in the hint) computed the right result on the device") != std::string::npos);
    CHECK(larger.find("the smaller case \"one work-group of 8\" of the same kernel function computed the right result with every check") !=
          std::string::npos);
  }
}

TEST_CASE("the known PoCL fault's loop in a kernel that is also wrong: the run with the optimizations off rescues no wrong case") {
  test::TempDir dir;
  // The same loop; the kernel writes no sum for work-groups 1024 and above: wrong everywhere on
  // the cases of 2048 groups, with or without the device's optimizations, and under Oclgrind.
  const std::string kernel = faulty_loop_tree("tnum == 0 && get_group_id(0) < 1024");
  test::write(dir / "03-array-mult-reduce" / "ArrayMultReduce.cl", kernel);
  const auto run = test::run_program("grader", "check 03 --dir " + dir.path.string());
  CAPTURE(run.output);
  CHECK(run.exit_code == 1);
  for (const char* name : {"slide's L = 32, 2048 groups, int", "slide's L = 32, 2048 groups, real"}) {
    const std::string block = check_block(run.output, name);
    CHECK(block.find("  FAIL ") == 0);
    CHECK(block.find("-cl-opt-disable") == std::string::npos);
  }
  // Where this PoCL has the fault, the small case it gets wrong is still the device's.
  if (run.output.find("DEVICE") == std::string::npos) return;
  CHECK(check_block(run.output, "one work-group of 8").find("  DEVICE ") == 0);
  // Graded whole: the hidden cases too large for every Oclgrind check are wrong on the device with
  // its optimizations off too, where those make the small case right: no Oclgrind run for them.
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", kernel);
  const auto graded = test::run_program("grader", "grade --labs 03 --submissions '" + (dir / "class").string() + "' --out '" +
                                                      (dir / "out").string() + "'");
  CAPTURE(graded.output);
  const std::string journal = test::read(dir / "out" / "journal.jsonl");
  const nlohmann::json result = nlohmann::json::parse(journal.substr(0, journal.find('\n')));
  std::size_t large = 0;
  for (const nlohmann::json& c : result.at("cases")) {
    const std::string name = c.at("name");
    if (name != "L = 512, 1Mi elements, int" && name != "large N: 4Mi elements, L = 1024, real") continue;
    ++large;
    CAPTURE(name);
    CHECK(c.at("status") == "wrong");
    CHECK(c.at("message").get<std::string>().find("(no witness: built with the device's optimizations off, which avoid the known compiler "
                                                  "fault in the hint (they make the smaller case \"one work-group of 8\" right on the device), "
                                                  "the kernel computes this case wrong on the device too") != std::string::npos);
  }
  CHECK(large == 2);
}

TEST_CASE("a lab program's --check on the starter as handed out runs no witness, and with code of its own added it does") {
  test::TempDir dir;
  const std::string starter = test::read(kit::root() / "labs" / "03-array-mult-reduce" / "ArrayMultReduce.cl");
  const std::filesystem::path file = dir / "ArrayMultReduce.cl";
  REQUIRE(starter.rfind("//", 0) == 0);
  test::write(file, "// my notes before I begin" + starter.substr(starter.find('\n')));  // a comment is not code: still the starter
  const auto untouched = test::run_program("03-array-mult-reduce", "--check -n 1Ki -l 8 --data int -k '" + file.string() + "'");
  CAPTURE(untouched.output);
  CHECK(untouched.exit_code == 1);
  CHECK(untouched.output.find("No witness under Oclgrind: " + file.string() + " is the lab's starter as handed out") != std::string::npos);
  CHECK(untouched.output.find("Witness: running") == std::string::npos);
  test::write(file, starter + "\nkernel void mine(global int *x) { x[0] = 1; }\n");
  const auto begun = test::run_program("03-array-mult-reduce", "--check -n 1Ki -l 8 --data int -k '" + file.string() + "'");
  CAPTURE(begun.output);
  CHECK(begun.exit_code == 1);
  CHECK(begun.output.find("Witness: running the same check under Oclgrind") != std::string::npos);
  CHECK(begun.output.find("starter as handed out") == std::string::npos);
}

TEST_CASE("a lab program's failed --check is witnessed under Oclgrind: DEVICE where only the device gets it wrong") {
  test::TempDir dir;
  const std::filesystem::path file = dir / "ArrayMultReduce.cl";
  test::write(file, lab03_wrong_on_pocl_at_8(lab03_solution()));
  // At L = 8 the device adds 1 to every group's sum; Oclgrind computes it right.
  const auto device_only = test::run_program("03-array-mult-reduce", "--check -n 1Ki -l 8 --data int -k '" + file.string() + "'");
  CAPTURE(device_only.output);
  CHECK(device_only.output.find("CHECK FAILED: work-group 0 of 128") != std::string::npos);
  CHECK(device_only.output.find("Witness: running the same check under Oclgrind") != std::string::npos);
  CHECK(device_only.output.find("DEVICE: the check fails on the device, but under Oclgrind the same check computed the right result") !=
        std::string::npos);
  CHECK(device_only.exit_code == 0);

  // A size above the witness's cap: the smaller check runs under Oclgrind and on the device, and
  // the device gets that one wrong too.
  const auto capped = test::run_program("03-array-mult-reduce", "--check -n 1Mi -l 8 --data int --repeats 1 -k '" + file.string() + "'");
  CAPTURE(capped.output);
  CHECK(capped.output.find("(smaller, to take seconds: --elements 65536)") != std::string::npos);
  CHECK(capped.output.find("the device gets the smaller check wrong too") != std::string::npos);
  CHECK(capped.exit_code == 0);

  // A kernel that is wrong everywhere: Oclgrind's run fails too, and the kernel is blamed.
  test::write(file, test::replace_once(lab03_solution(), "        dC[wgNum] = prods[0];", "        dC[wgNum] = prods[1];"));
  const auto wrong = test::run_program("03-array-mult-reduce", "--check -n 1Ki -l 8 --data int -k '" + file.string() + "'");
  CAPTURE(wrong.output);
  CHECK(wrong.exit_code == 1);
  CHECK(wrong.output.find("under Oclgrind too, the check fails: CHECK FAILED") != std::string::npos);
  CHECK(wrong.output.find("DEVICE") == std::string::npos);
  CHECK(wrong.output.find("\n  oclgrind --data-races --uniform-writes --uninitialized --build-options -O0 ") != std::string::npos);
}

TEST_CASE("lab 04's rung 1 in its most copied form, the size builtin in the loop's condition, keeps the solution's points") {
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions" / "04-tree-reductions" / "TreeReductions.cl");
  std::string source = test::replace_once(solution, "    uint L   = get_local_size(0);   // work-items in a work-group (a power of two)\n", "");
  source = test::replace_once(source, "    for (uint s = 1; s < L; s *= 2)\n    {\n        if (tid % (2 * s) == 0)",
                              "    for (uint s = 1; s < get_local_size(0); s *= 2)\n    {\n        if (tid % (2 * s) == 0)");
  test::write(dir / "04-tree-reductions" / "TreeReductions.cl", source);
  const auto run = test::run_program("grader", "check 04 --dir " + dir.path.string());
  CAPTURE(run.output);
  CHECK(run.exit_code == 0);
  CHECK(run.output.find("FAIL") == std::string::npos);
  // Where this PoCL has the fault, rung 1's cases say so, and no other rung's.
  for (std::size_t at = run.output.find("  DEVICE "); at != std::string::npos; at = run.output.find("  DEVICE ", at + 1))
    CHECK(run.output.compare(at, 20, "  DEVICE rung 1 (int") == 0);
}

TEST_CASE("an integer division by zero, which Oclgrind computes as 0 in silence, is a finding: no witness for it") {
  test::TempDir dir;
  // n / 4 is 0 for N < 4: 4 / (n / 4) divides by zero. PoCL's result is then wrong, and Oclgrind,
  // computing 4 / 0 as 0, would get it right by chance.
  const std::string solution = test::read(kit::root() / "solutions" / "06-cascade-reduction" / "CascadeDot.cl");
  test::write(dir / "06-cascade-reduction" / "CascadeDot.cl",
              test::replace_once(solution, "sum += dA[4 * (n / 4) + k] * dB[4 * (n / 4) + k];", "sum += dA[4 / (n / 4) + k] * dB[4 * (n / 4) + k];"));
  const auto run = test::run_program("grader", "check 06 --dir " + dir.path.string());
  CAPTURE(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("DEVICE") == std::string::npos);
  const std::string block = check_block(run.output, "N = 1, host combine");
  CHECK(block.find("  FAIL N = 1, host combine") == 0);
  CHECK(block.find("integer division by zero") != std::string::npos);  // the evidence run names it
}

TEST_CASE("a failing case the stage under Oclgrind ran whole is witnessed by that run alone, and stays wrong where Oclgrind computes it wrong too") {
  // The stage runs every case's shape in as few children as it can (one with every check, one for
  // the large cases' first and last work-groups), and the witness reads that run's outputs for the
  // cases it ran whole: none of them is run under Oclgrind again. A stand-in for Oclgrind writes
  // down each run's checks and cases.
  test::TempDir dir;
  const std::filesystem::path runs = dir / "runs", fake = oclgrind_stand_in(dir, runs);
  // Every work-group's sum one too large: wrong on the device and under Oclgrind alike.
  test::write(dir / "03-array-mult-reduce" / "ArrayMultReduce.cl",
              test::replace_once(lab03_solution(), "        dC[wgNum] = prods[0];", "        dC[wgNum] = prods[0] + 1.0f;"));
  const auto run = test::run_command("KIT_OCLGRIND=" + fake.string() + " " + KIT_BIN_DIR + "/grader check 03 --dir " + dir.path.string());
  CAPTURE(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("DEVICE") == std::string::npos);
  CHECK(check_block(run.output, "one work-group of 8").find("  FAIL one work-group of 8") == 0);
  const std::string logged = test::read(runs);
  CAPTURE(logged);
  const std::size_t together = logged.find("every-together [");
  REQUIRE(together != std::string::npos);
  const std::string stage = logged.substr(together, logged.find('\n', together) - together);
  CHECK(stage.find("\"elements\":8,") != std::string::npos);
  CHECK(stage.find("\"elements\":1998,") != std::string::npos);
  CHECK(stage.find("\"elements\":128,") != std::string::npos);  // the 65,536-element cases' smaller shape at L = 32
  CHECK(logged.find("every-together", together + 1) == std::string::npos);  // one child with every check
  CHECK(logged.find("own-together [") != std::string::npos);                // and one for the large cases' own shapes
  // The cases the stage ran whole are not run again, alone or with every check.
  for (const char* alone : {"own {\"data\":\"int\",\"elements\":8,", "own {\"data\":\"int\",\"elements\":1998,",
                            "every {\"data\":\"int\",\"elements\":8,", "every {\"data\":\"int\",\"elements\":1998,"})
    CHECK_MESSAGE(logged.find(alone) == std::string::npos, alone);
  // A large case is witnessed apart, Oclgrind's own checks first: computed wrong there, it gets no run with every check.
  CHECK(logged.find("every {\"data\":\"int\",\"elements\":65536") == std::string::npos);
}

TEST_CASE("a race every case's shape shows: each case is undefined behaviour, and no witness runs for any of them") {
  // Every work-item stores the group's sum (a write-write race of one value, which Oclgrind sees
  // with --uniform-writes; the result is right), and on PoCL alone the sum is one too large for
  // groups of 8 and of 2: two visible cases the device gets wrong and Oclgrind's own checks right.
  // The race at each case's own shape makes both wrong, and the witness has nothing to clear.
  test::TempDir dir;
  const std::filesystem::path runs = dir / "runs", fake = oclgrind_stand_in(dir, runs);
  std::string source = test::replace_once(lab03_solution(), "    if (tnum == 0)\n        dC[wgNum] = prods[0];",
                                          "#if __OPENCL_VERSION__ >= 200\n"
                                          "    dC[wgNum] = prods[0] + (numItems == 8 || numItems == 2 ? 1.0f : 0.0f);\n"
                                          "#else\n"
                                          "    dC[wgNum] = prods[0];\n"
                                          "#endif");
  test::write(dir / "03-array-mult-reduce" / "ArrayMultReduce.cl", source);
  const auto run = test::run_command("KIT_OCLGRIND=" + fake.string() + " " + KIT_BIN_DIR + "/grader check 03 --dir " + dir.path.string());
  CAPTURE(run.output);
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("DEVICE") == std::string::npos);
  for (const char* name : {"one work-group of 8", "L = 2, 999 groups"}) {
    const std::string block = check_block(run.output, name);
    CAPTURE(block);
    CHECK(block.find(std::string("  FAIL ") + name) == 0);
    CHECK(block.find("undefined behaviour: Oclgrind found a write-write data race in global memory at this case's own shape") != std::string::npos);
    CHECK(block.find("(on the device it computed a wrong result: ") != std::string::npos);
  }
  const std::string logged = test::read(runs);
  CAPTURE(logged);
  CHECK(logged.find("every-together [") != std::string::npos);
  CHECK(logged.find("every {") == std::string::npos);  // no witness run, for the small cases or the large
}

TEST_CASE("records of steps under Oclgrind: the same check again reads them and gives the same lines, grade after check runs only the steps check did not, a changed kernel runs again") {
  // KIT_OCLGRIND_RECORDS (judge/oclgrind_records.hpp). A race (every work-item stores the group's
  // sum: one value, which Oclgrind sees with --uniform-writes) so that a record must carry
  // findings, not just results. The stand-in for Oclgrind writes down each child it runs and the
  // steps it was given.
  test::TempDir dir;
  const std::filesystem::path runs = dir / "runs", fake = oclgrind_stand_in(dir, runs), records = dir / "records";
  const std::filesystem::path kernel = dir / "03-array-mult-reduce" / "ArrayMultReduce.cl";
  const std::string racy = test::replace_once(lab03_solution(), "    if (tnum == 0)\n        dC[wgNum] = prods[0];", "    dC[wgNum] = prods[0];");
  test::write(kernel, racy);
  const std::string oclgrind = " KIT_OCLGRIND=" + fake.string() + " " + KIT_BIN_DIR + "/grader ";
  const auto logged = [&] { return std::filesystem::exists(runs) ? test::read(runs) : std::string(); };
  const auto check = [&](const std::string& records_setting) {
    const auto run = test::run_command("KIT_OCLGRIND_RECORDS=" + records_setting + oclgrind + "check 03 --dir " + dir.path.string());
    CAPTURE(run.output);
    CHECK(run.exit_code == 1);
    // The result lines and their status lines, without the seconds a run took.
    std::string lines;
    std::istringstream in(run.output);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("  PASS ", 0) == 0 || line.rfind("  FAIL ", 0) == 0 || line.rfind("       ", 0) == 0) lines += line + "\n";
    return lines;
  };
  const auto children = [](const std::string& log) {
    std::size_t n = 0;
    for (std::size_t at = log.find("-together ["); at != std::string::npos; at = log.find("-together [", at + 1)) ++n;
    return n;
  };
  const std::string first = check(records.string());
  CAPTURE(first);
  CHECK(first.find("undefined behaviour: Oclgrind found a write-write data race in global memory at this case's own shape") != std::string::npos);
  const std::size_t made = children(logged());
  REQUIRE(made > 0);
  std::size_t kept = 0;
  for (const auto& e : std::filesystem::directory_iterator(records)) kept += e.path().extension() == ".json";
  CHECK(kept >= 5);  // a record per step: the visible cases' shapes, and the large ones' smaller shapes
  // The same kernel, spec, grader and Oclgrind: no child runs, and every line is the same.
  CHECK(check(records.string()) == first);
  CHECK(children(logged()) == made);
  // Records off: Oclgrind runs again, to the same lines.
  CHECK(check("") == first);
  CHECK(children(logged()) == 2 * made);
  // grader grade of the same file runs only what check did not look at: the hidden cases (and the
  // memory-safety runs); the visible L = 2 case's 1998 elements are read from its record.
  const std::size_t before_grade = logged().size();
  test::write(dir / "subs" / "ann" / "ArrayMultReduce.cl", racy);
  const auto graded = test::run_command("KIT_OCLGRIND_RECORDS=" + records.string() + oclgrind + "grade --submissions " +
                                        (dir / "subs").string() + " --out " + (dir / "out").string() + " --labs 03 --jobs 1");
  CAPTURE(graded.output);
  CHECK(graded.exit_code == 0);
  const std::string by_grade = logged().substr(before_grade);
  CAPTURE(by_grade);
  CHECK(children(by_grade) > 0);
  CHECK(by_grade.find("\"elements\":100,") != std::string::npos);  // hidden: L = 1, 100 elements
  CHECK(by_grade.find("\"elements\":1998,") == std::string::npos);
  const std::string report = test::read(dir / "out" / "ann" / "report.md");
  CHECK(report.find("write-write data race in global memory") != std::string::npos);
  // One changed byte in a comment: another key, Oclgrind runs again.
  test::write(kernel, "// handed in again\n" + racy);
  const std::size_t before_change = children(logged());
  CHECK(check(records.string()).find("write-write data race in global memory") != std::string::npos);
  CHECK(children(logged()) == before_change + made);
}
