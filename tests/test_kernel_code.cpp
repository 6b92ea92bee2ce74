// What a diagnosis reads of a kernel besides its outputs: the code without comments, its tree loops
// and their barriers, and the compiler's warnings on the student's own lines.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "kit/kernel_code.hpp"
#include "kit/paths.hpp"
#include "kit/program.hpp"
#include "support.hpp"

namespace {
// The 1-based line of `text` on which `needle` first appears (0: nowhere), so the expected line
// numbers follow the solution's file as it is.
int line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  return at == std::string::npos ? 0 : 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}
}  // namespace

TEST_CASE("the tree loops of the solutions are found, each with its barrier, and a grid-stride loop is no tree loop") {
  const std::string lab03 = kit::code_without_comments(test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"));
  CHECK(kit::has_tree_loop(lab03, "ArrayMultReduce"));
  CHECK(kit::tree_loop_without_barrier(lab03, "ArrayMultReduce").line == 0);
  const std::string lab06 = kit::code_without_comments(test::read(kit::root() / "solutions/06-cascade-reduction/CascadeDot.cl"));
  // Both kernels call tree_sum, a helper function holding the tree: found there, and only there.
  CHECK(kit::tree_loops(kit::kernel_body(lab06, "tree_sum")).size() == 1);
  CHECK(kit::tree_loop_without_barrier(lab06, "tree_sum").line == 0);
  for (const char* name : {"DotCascade", "SumPartials"}) {
    CAPTURE(name);
    CHECK(kit::tree_loops(kit::kernel_body(lab06, name)).empty());  // the grid-stride and tail loops are not
  }
  // The loop's barrier taken out (and one left in a comment, which does not count): named with its line.
  const std::string without = test::replace_once(
      test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"),
      "        barrier(CLK_LOCAL_MEM_FENCE);   // every value of the previous level is in prods\n",
      "        // barrier(CLK_LOCAL_MEM_FENCE);\n");
  const kit::CodeSpan loop = kit::tree_loop_without_barrier(kit::code_without_comments(without), "ArrayMultReduce");
  const int loop_line = line_of(without, "for (");
  REQUIRE(loop_line > 0);
  CHECK(loop.line == loop_line);
  const kit::KernelCode k{kit::code_without_comments(without), {}};
  CHECK(kit::missing_loop_barrier(k, "ArrayMultReduce", "WHAT", "WHERE") ==
        "ArrayMultReduce's tree loop (line " + std::to_string(loop_line) + ") has no barrier: WHAT, so the result depends on how the work-items were "
        "scheduled. Put barrier(CLK_LOCAL_MEM_FENCE) inside the loop, WHERE, where every work-item reaches it");
  // A barrier inside an if in the loop is reached by some work-items only: named so.
  const std::string in_if = test::replace_once(
      test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"),
      "        barrier(CLK_LOCAL_MEM_FENCE);   // every value of the previous level is in prods\n        if ((tnum & mask) == 0)\n            prods[tnum] += prods[tnum + offset];\n",
      "        if ((tnum & mask) == 0) {\n            barrier(CLK_LOCAL_MEM_FENCE);\n            prods[tnum] += prods[tnum + offset];\n        }\n");
  CHECK(kit::missing_loop_barrier({kit::code_without_comments(in_if), {}}, "ArrayMultReduce", "WHAT", "WHERE")
            .find("(line " + std::to_string(line_of(in_if, "for (")) + ") has its barrier only inside an if, where not every work-item reaches it: WHAT") != std::string::npos);
  CHECK_FALSE(kit::calls_barrier_everywhere("{ if (t < s) barrier(CLK_LOCAL_MEM_FENCE); }"));
  CHECK(kit::calls_barrier_everywhere("{ if (t < s) { s[t] += s[t + 1]; } barrier(CLK_LOCAL_MEM_FENCE); }"));
  CHECK(kit::calls_barrier_everywhere("{ barrier(CLK_LOCAL_MEM_FENCE); if ((t & m) == 0) p[t] += p[t + o]; }"));
  // A while loop that halves its counter is a tree loop too.
  CHECK(kit::tree_loops(kit::kernel_body("kernel void K(local float* s) { uint n = 8; while (n > 1) { n /= 2; s[0] += s[n]; } }", "K")).size() == 1);
}

TEST_CASE("a store at the global id is told from one at the group id") {
  CHECK(kit::stores_at_global_id("int gid = get_global_id(0);\nif (t == 0) dC[gid] = p[0];", "dC"));
  CHECK(kit::stores_at_global_id("dC[ get_global_id(0) ] = 1;", "dC"));
  CHECK_FALSE(kit::stores_at_global_id("int gid = get_global_id(0);\ndC[get_group_id(0)] = p[0];", "dC"));
  CHECK_FALSE(kit::stores_at_global_id("int gid = get_global_id(0);\nif (dC[gid] == 0) x = 1;", "dC"));  // a read
}

TEST_CASE("only the warnings on the student's file are kept, with their line") {
  const std::string log =
      "K.cl:27:19: warning: & has lower precedence than ==; == will be evaluated first [-Wparentheses]\n"
      "K.cl:27:19: note: place parentheses around the '==' expression to silence this warning\n"
      "<command line>:1:9: warning: 'WG_SIZE' macro redefined [-Wmacro-redefined]\n"
      "K.cl:27:19: warning: & has lower precedence than ==; == will be evaluated first [-Wparentheses]\n";
  const std::vector<std::string> kept = kit::student_warnings(log, "K.cl");
  REQUIRE(kept.size() == 1);
  CHECK(kept[0] == "K.cl:27: & has lower precedence than ==; == will be evaluated first [-Wparentheses]");
  CHECK(kit::with_warnings("", {"", kept}) == "The compiler warned about your code: " + kept[0] + ".");
  CHECK(kit::with_warnings("HINT", {"", {}}) == "HINT");
  CHECK(kit::with_warnings("HINT", {"", kept}) == "HINT. The compiler warned about your code: " + kept[0] + ".");
  CHECK(kit::student_warnings("/some/folder/K.cl:3:1: warning: W\n", "/some/folder/K.cl") == std::vector<std::string>{"K.cl:3: W"});
}

TEST_CASE("PoCL's warning on a student's line reaches the kernel's facts, numbered as in the student's file") {
  test::TempDir dir;
  const std::string kernel = test::replace_once(test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"),
                                                "        if ((tnum & mask) == 0)\n", "        if (wgNum & mask == 0)\n");
  test::write(dir / "ArrayMultReduce.cl", kernel);
  const cl::Program program = kit::build_program(test::runtime().context, test::runtime().device, dir / "ArrayMultReduce.cl", "-D UNUSED_BY_THE_KERNEL=1", "ArrayMultReduce.cl");
  const kit::KernelCode k = kit::kernel_code(program, test::runtime().device, dir / "ArrayMultReduce.cl", "ArrayMultReduce.cl");
  REQUIRE(k.warnings.size() == 1);
  const std::string at = "ArrayMultReduce.cl:" + std::to_string(line_of(kernel, "if (wgNum & mask == 0)")) + ": ";
  CHECK(k.warnings[0].rfind(at + "& has lower precedence than ==", 0) == 0);
}
