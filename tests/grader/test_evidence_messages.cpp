// Hints from the evidence on kernels written in the styles students bring from other sources: a
// warp-synchronous tail, a result stored at the wrong index, a read past the input with a race,
// lab 01's kernel name or swapped parameters in lab 03. A hint names the fault the run shows and
// never one the kernel does not have.
#include <doctest/doctest.h>

#include <tuple>

#include "evidence_kernels.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

namespace {

// The block `grader check` printed for the case named `name`: its FAIL line to the next case's line.
std::string failed_block(const std::string& output, const std::string& name) {
  const std::size_t at = output.find("  FAIL " + name);
  if (at == std::string::npos) return "";
  const std::size_t end = std::min(output.find("\n  PASS ", at + 1), output.find("\n  FAIL ", at + 1));
  return output.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// `grader check LAB` on `kernel` placed as the lab's file: a test kernel of tests/data named by
// its file name (ending .cl), or a kernel's text.
std::string check(const std::string& lab, const std::string& file, const std::string& kernel, const test::TempDir& dir) {
  const bool named = kernel.size() > 3 && kernel.find('\n') == std::string::npos && kernel.substr(kernel.size() - 3) == ".cl";
  test::write(dir / lab / file, named ? test::read(test::data(kernel)) : kernel);
  return test::run_program("grader", "check " + lab.substr(0, 2) + " --dir " + dir.path.string()).output;
}

// Lab 04's solution with `from` replaced by `to` once, in the kernel `function` (the first
// occurrence after its name): each test kernel below is the solution with one fault written in.
std::string rung_edited(std::string text, const std::string& function, const std::string& from, const std::string& to) {
  const std::size_t start = text.find(function + "(");
  REQUIRE_MESSAGE(start != std::string::npos, function);
  const std::size_t at = text.find(from, start);
  REQUIRE_MESSAGE(at != std::string::npos, function << ": " << from);
  return text.replace(at, from.size(), to);
}

std::string tree_solution() { return test::read(kit::root() / "solutions/04-tree-reductions/TreeReductions.cl"); }

// The classic warp-synchronous tail: the last 32 work-items' levels without barriers, volatile.
std::string tree_warp_tail() {
  return rung_edited(tree_solution(), "reduce5_unrolled", test::kRung5LastLevels,
                     "    // The last warp: 32 work-items in lock-step, no barriers needed.\n"
                     "    if (tid < 32)\n"
                     "    {\n"
                     "        volatile local int *v = scratch;\n"
                     "        if (WG_SIZE >= 64) v[tid] += v[tid + 32];\n"
                     "        if (WG_SIZE >= 32) v[tid] += v[tid + 16];\n"
                     "        if (WG_SIZE >= 16) v[tid] += v[tid + 8];\n"
                     "        if (WG_SIZE >=  8) v[tid] += v[tid + 4];\n"
                     "        if (WG_SIZE >=  4) v[tid] += v[tid + 2];\n"
                     "        if (WG_SIZE >=  2) v[tid] += v[tid + 1];\n"
                     "    }\n");
}

// The same tail as a helper function, called under if (tid < 32).
std::string tree_warp_function() {
  const std::string called = rung_edited(tree_solution(), "reduce5_unrolled", test::kRung5LastLevels, "    if (tid < 32) warp_reduce(scratch, tid);\n");
  return test::replace_once(called, "// Rung 5: the tree fully unrolled",
                            "// The last warp's levels: its work-items run in lock-step, so no barrier is needed.\n"
                            "void warp_reduce(volatile local int *s, uint tid)\n"
                            "{\n"
                            "    s[tid] += s[tid + 32];\n"
                            "    s[tid] += s[tid + 16];\n"
                            "    s[tid] += s[tid + 8];\n"
                            "    s[tid] += s[tid + 4];\n"
                            "    s[tid] += s[tid + 2];\n"
                            "    s[tid] += s[tid + 1];\n"
                            "}\n"
                            "\n"
                            "// Rung 5: the tree fully unrolled");
}

// Rung 3 storing its sum at out[get_local_size(0)].
std::string tree_output_index() {
  return rung_edited(tree_solution(), "reduce3_sequential", "out[get_group_id(0)] = scratch[0];", "out[get_local_size(0)] = scratch[0];");
}

// Rung 4 loading both elements unguarded, and its tree loop without its barrier.
std::string tree_read_past_and_race() {
  const std::string unguarded = rung_edited(tree_solution(), "reduce4_first_add",
                                            "    int a = (gid < n) ? in[gid] : 0;\n"
                                            "    int b = (gid + L < n) ? in[gid + L] : 0;\n"
                                            "    scratch[tid] = a + b;\n",
                                            "    scratch[tid] = in[gid] + in[gid + L];\n");
  const std::size_t loop = unguarded.find("for (", unguarded.find("scratch[tid] = in[gid] + in[gid + L];"));
  const std::string barrier = "        barrier(CLK_LOCAL_MEM_FENCE);\n";
  const std::size_t at = unguarded.find(barrier, loop);
  REQUIRE(at != std::string::npos);
  return std::string(unguarded).erase(at, barrier.size());
}

const char* kRung5Small = "rung 5 (unrolled): N below L: 7 elements, L = 32";
const char* kRung5Large = "rung 5 (unrolled): N not a multiple: 1000, L = 64";

}  // namespace

TEST_CASE("a warp-synchronous tail in rung 5 is named from the race Oclgrind finds, volatile or in a function, with the read past scratch") {
  for (const auto& [kernel, tail_line, is_volatile] : {std::tuple{tree_warp_tail(), 157, true}, std::tuple{tree_warp_function(), 167, true}}) {
    test::TempDir dir;
    const std::string output = check("04-tree-reductions", "TreeReductions.cl", kernel, dir);
    CAPTURE(output);
    for (const char* name : {kRung5Small, kRung5Large}) {
      const std::string block = failed_block(output, name);
      REQUIRE(!block.empty());
      const std::size_t hint = block.find("hint: Oclgrind, on this case: ");
      REQUIRE(hint != std::string::npos);  // each case's own evidence leads
      // At L = 32 the tail's first level reads scratch[tid + 32], past a 32-element scratch; at L = 64 it stays inside.
      const bool small = std::string(name) == kRung5Small;
      CHECK((block.find("invalid read of size 4 at local memory (kernel reduce5_unrolled)", hint) != std::string::npos) == small);
      CHECK(block.find(std::string(small ? "It also found: " : "Oclgrind, on this case: ") + "read-write data race in local memory (kernel reduce5_unrolled)", hint) !=
            std::string::npos);
      CHECK(block.find("undefined behaviour: Oclgrind found ") != std::string::npos);
      CHECK(block.find("OpenCL promises no lock-step between work-items, not even within a warp or a wavefront: the adds after "
                       "`if (tid < 32)` (TreeReductions.cl:" + std::to_string(tail_line) + ") race without barriers") != std::string::npos);
      CHECK((block.find("volatile does not order work-items either") != std::string::npos) == is_volatile);
      // The kernel does the first add: no hint says otherwise, nor guesses from the undefined result.
      CHECK(block.find("add in[i] and in[i + L]") == std::string::npos);
      CHECK(block.find("check each unrolled level") == std::string::npos);
    }
  }
}

TEST_CASE("a sum stored at out[get_local_size(0)] is told the index from the invalid write, not to compare the tree") {
  test::TempDir dir;
  const std::string output = check("04-tree-reductions", "TreeReductions.cl", tree_output_index(), dir);
  CAPTURE(output);
  const std::string block = failed_block(output, "rung 3 (sequential): N below L: 7 elements, L = 32");
  CHECK(block.find("hint: Oclgrind, on this case: invalid write of size 4 at global memory (kernel reduce3_sequential)") != std::string::npos);
  CHECK(block.find("The store at TreeReductions.cl:98 runs once per work-group and writes out[get_local_size(0)], past the end of out: "
                   "each work-group's result belongs in its own element, out[get_group_id(0)]") != std::string::npos);
  CHECK(block.find("compare the tree") == std::string::npos);
  CHECK(block.find("guard each write") == std::string::npos);  // a guard would hide the store, not fix its index
}

TEST_CASE("a kernel that reads past its input and races is told both, then the missing barrier the code shows") {
  test::TempDir dir;
  const std::string output = check("04-tree-reductions", "TreeReductions.cl", tree_read_past_and_race(), dir);
  CAPTURE(output);
  const std::string block = failed_block(output, "rung 4 (first add): N below L: 7 elements, L = 32");
  const std::size_t read = block.find("hint: Oclgrind, on this case: invalid read of size 4 at global memory (kernel reduce4_first_add)");
  const std::size_t race = block.find("It also found: read-write data race in local memory (kernel reduce4_first_add)");
  const std::size_t loop = block.find("reduce4_first_add's tree loop (line 117) has no barrier");
  REQUIRE(read != std::string::npos);
  REQUIRE(race != std::string::npos);
  REQUIRE(loop != std::string::npos);
  CHECK(read < race);
  CHECK(race < loop);
  CHECK(block.find("lock-step") == std::string::npos);  // a tree loop's race, not a warp-synchronous tail
}

TEST_CASE("lab 03's screening suggests the rename: lab 01's name with lab 03's parameters, or another name with two swapped") {
  test::TempDir named, swapped;
  const std::string one = check("03-array-mult-reduce", "ArrayMultReduce.cl", "array_mult_name.cl", named);
  CHECK(one.find("the file declares ArrayMult (rename ArrayMult to ArrayMultReduce: its parameters are the ones the lab passes)") !=
        std::string::npos);
  const std::string two = check("03-array-mult-reduce", "ArrayMultReduce.cl", "array_mult_reduction_swapped.cl", swapped);
  CHECK(two.find("(rename ArrayMultReduction to ArrayMultReduce, and swap its parameters 3 and 4: the lab passes local float *prods "
                 "as parameter 3 and global float *dC as parameter 4, and ArrayMultReduction declares global float *dC and local "
                 "float *prods there)") != std::string::npos);
  // The same kernel under the lab's own name: told the same, that its parameters 3 and 4 are swapped.
  test::TempDir right_name;
  const std::string three = check("03-array-mult-reduce", "ArrayMultReduce.cl",
                                  test::replace_once(test::read(test::data("array_mult_reduction_swapped.cl")), "kernel void ArrayMultReduction(",
                                                     "kernel void ArrayMultReduce("),
                                  right_name);
  CAPTURE(three);
  CHECK(three.find("parameters 3 and 4 of 'ArrayMultReduce' are in each other's place: swap them. The lab passes local float *prods as "
                   "parameter 3 and global float *dC as parameter 4") != std::string::npos);
}

TEST_CASE("a lab 03 kernel that never stores dC is not told about dC[get_global_id(0)] written by another kernel of its file") {
  test::TempDir dir;
  const std::string output = check("03-array-mult-reduce", "ArrayMultReduce.cl", "array_mult_reduce_no_store.cl", dir);
  CAPTURE(output);
  CHECK(output.find("was never written: work-item 0 of each work-group must store its sum in dC[get_group_id(0)]") != std::string::npos);
  CHECK(output.find("get_global_id") == std::string::npos);
}
