// Rewrites that keep a kernel's meaning (grader/src/tools/rewrites.hpp): each on small kernels,
// the places it must leave as they are (and says so), and every solution rewritten each way still
// building on PoCL.
#include <doctest/doctest.h>

#include <map>

#include "kit/paths.hpp"
#include "kit/program.hpp"
#include "support.hpp"
#include "tools/rewrites.hpp"

namespace fs = std::filesystem;

namespace {

// Whether one of `skipped` contains `part`.
bool said(const grader::Rewritten& r, const std::string& part) {
  for (const std::string& s : r.skipped)
    if (s.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("inline_builtins: a variable that only holds a built-in is replaced by the call, cast to its type, and one assigned again is kept and named") {
  const std::string kernel =
      "kernel void k(global int *o)\n{\n    uint L = get_local_size(0);\n    size_t g = get_global_id(0);\n    int t = get_local_id(0);\n"
      "    for (uint s = 1; s < L; s *= 2) o[g] += s;\n    t += 1;\n    o[t] = 0;\n}\n";
  const grader::Rewritten r = grader::inline_builtins(kernel);
  CHECK(r.applied == 2);
  CHECK(r.source ==
        "kernel void k(global int *o)\n{\n    \n    \n    int t = get_local_id(0);\n"
        "    for (uint s = 1; s < ((uint)get_local_size(0)); s *= 2) o[get_global_id(0)] += s;\n    t += 1;\n    o[t] = 0;\n}\n");
  CHECK(said(r, "line 5: t kept: it is assigned again"));
  CHECK(test::build_error(r.source, "") == "");
}

TEST_CASE("hoist_builtins: each built-in called inline is read once at the top of its function") {
  const std::string kernel = "kernel void k(global int *o)\n{\n    int t = get_local_id(0);\n    if (t == 0) o[get_group_id(0)] = get_group_id(0);\n}\n";
  const grader::Rewritten r = grader::hoist_builtins(kernel);
  CHECK(r.applied == 2);
  CHECK(r.source ==
        "kernel void k(global int *o)\n{\n    size_t hoisted_group_id_0 = get_group_id(0);\n    int t = get_local_id(0);\n"
        "    if (t == 0) o[hoisted_group_id_0] = hoisted_group_id_0;\n}\n");
  CHECK(test::build_error(r.source, "") == "");
}

TEST_CASE("for_as_while: the step runs after the body and before each continue of that loop, not of a loop inside it") {
  const std::string kernel =
      "kernel void k(global int *o)\n{\n    for (int i = 0; i < 8; ++i) {\n        if (o[i] < 0) continue;\n"
      "        for (int j = 0; j < 2; j++) { if (j) continue; o[i] += j; }\n    }\n    for (;;) break;\n}\n";
  const grader::Rewritten r = grader::for_as_while(kernel);
  CHECK(r.applied == 3);
  CHECK(r.source ==
        "kernel void k(global int *o)\n{\n    { int i = 0; while (i < 8) {\n        if (o[i] < 0) { ++i; continue; }\n"
        "        { int j = 0; while (j < 2) { if (j) { j++; continue; } o[i] += j; j++; } }\n    ++i; } }\n    { while (1) { break; } }\n}\n");
  CHECK(test::build_error(r.source, "") == "");
}

TEST_CASE("index_type: index variables change type only where no subtraction, signed comparison, printf or built-in argument could tell") {
  const std::string kernel =
      "kernel void k(global int *o, const int n)\n{\n    uint t = get_local_id(0);\n    uint g = get_global_id(0);\n"
      "    int i = get_global_id(0);\n    uint m = get_local_size(0);\n    o[t] = 1;\n    if (g < n) o[g] = 2;\n"
      "    o[i - 1] = 3;\n    o[min(m, 1u)] = 4;\n    printf(\"%u\", t);\n}\n";
  for (const std::string type : {"int", "size_t"}) {
    const grader::Rewritten r = grader::index_type(kernel, type);
    CAPTURE(type);
    CHECK(r.applied == 0);  // t goes to printf; g meets the signed n; i is subtracted from; m goes to min
    CHECK(said(r, "t kept: a printf prints it"));
    CHECK(said(r, "g kept: a comparison or division mixes it with a signed variable"));
    CHECK(said(r, "i kept: a subtraction"));
    CHECK(said(r, "m kept: a built-in function takes it"));
  }
  const std::string loop = "kernel void k(global int *o)\n{\n    uint t = get_local_id(0);\n    for (uint s = 1; s < 8; s *= 2) o[t] += s;\n}\n";
  const grader::Rewritten r = grader::index_type_int(loop);
  CHECK(r.applied == 2);
  CHECK(r.source == "kernel void k(global int *o)\n{\n    int t = get_local_id(0);\n    for (int s = 1; s < 8; s *= 2) o[t] += s;\n}\n");
  CHECK(grader::index_type_uint(loop).applied == 0);  // already uint
  CHECK(grader::index_type_size_t(loop).applied == 2);
}

TEST_CASE("times_two_as_shift and shift_as_times_two: integer operands only, unsigned for halving, parenthesised") {
  const std::string kernel =
      "kernel void k(global float *o, const uint n, const int m)\n{\n    float f = o[0] * 2;\n    uint a = n + n * 2;\n"
      "    uint b = 2 * n * 3;\n    int c = m / 2;\n    uint d = n / 2;\n    uint e = n;\n    e *= 2;\n    e /= 2;\n    o[a + b + c + d + e] = f;\n}\n";
  const grader::Rewritten r = grader::times_two_as_shift(kernel);
  CHECK(r.applied == 5);
  CHECK(r.source ==
        "kernel void k(global float *o, const uint n, const int m)\n{\n    float f = o[0] * 2;\n    uint a = n + (n << 1);\n"
        "    uint b = (n << 1) * 3;\n    int c = m / 2;\n    uint d = (n >> 1);\n    uint e = n;\n    e <<= 1;\n    e >>= 1;\n    o[a + b + c + d + e] = f;\n}\n");
  CHECK(said(r, "m / 2 kept: m is signed"));
  const grader::Rewritten back = grader::shift_as_times_two(r.source);
  CHECK(back.applied == 5);
  CHECK(back.source.find("(n * 2)") != std::string::npos);
  CHECK(back.source.find("e *= 2;") != std::string::npos);
  CHECK(back.source.find("(n / 2)") != std::string::npos);
  // A shift whose left operand is more than one name keeps its precedence: left as it is.
  CHECK(grader::shift_as_times_two("kernel void k(global uint *o, const uint n)\n{\n    o[0] = 1 + n << 1;\n}\n").applied == 0);
}

TEST_CASE("global_fence_added, braces_added and braces_removed") {
  const std::string kernel =
      "kernel void k(global int *o, local int *s)\n{\n    if (o[0]) { o[1] = 1; }\n    if (o[2]) { if (o[3]) o[4] = 1; } else o[5] = 1;\n"
      "    for (int i = 0; i < 2; ++i)\n        barrier(CLK_LOCAL_MEM_FENCE);\n    if (o[6]) { int x = 1; o[x] = 2; }\n    if (o[7]) { int y = 1; }\n}\n";
  const grader::Rewritten fence = grader::global_fence_added(kernel);
  CHECK(fence.applied == 1);
  CHECK(fence.source.find("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);") != std::string::npos);
  const grader::Rewritten added = grader::braces_added(kernel);
  CHECK(added.applied == 3);  // the inner if, the else and the for
  CHECK(added.source.find("{ if (o[3]) { o[4] = 1; } } else { o[5] = 1; }") != std::string::npos);
  CHECK(added.source.find("{ barrier(CLK_LOCAL_MEM_FENCE); }") != std::string::npos);
  const grader::Rewritten removed = grader::braces_removed(kernel);
  CHECK(removed.applied == 1);
  CHECK(removed.source.find("if (o[0])  o[1] = 1; \n") != std::string::npos);
  CHECK(said(removed, "line 4: if body kept braced: the else after it would go to the if inside"));
  CHECK(said(removed, "line 8: if body kept braced: its one statement is a declaration"));
  for (const std::string& s : {fence.source, added.source, removed.source}) CHECK(test::build_error(s, "") == "");
}

TEST_CASE("rewrites: every solution, rewritten each way, builds on PoCL with the options its lab's host uses") {
  const std::map<std::string, std::string> options = {{"04-tree-reductions", "-D WG_SIZE=64"},
                                                      {"05-multipass-reductions", "-D \"OP(a,b)=((a)+(b))\" -D IDENTITY=0.0f"}};
  const std::map<std::string, grader::Rewritten (*)(const std::string&)> rewrites = {
      {"builtins-inlined", grader::inline_builtins},     {"builtins-hoisted", grader::hoist_builtins},
      {"for-as-while", grader::for_as_while},            {"index-int", grader::index_type_int},
      {"index-uint", grader::index_type_uint},           {"index-size_t", grader::index_type_size_t},
      {"times-two-as-shift", grader::times_two_as_shift}, {"shift-as-times-two", grader::shift_as_times_two},
      {"global-fence-added", grader::global_fence_added}, {"braces-added", grader::braces_added}};
  std::map<std::string, int> changed;  // rewrite -> solutions it changed
  for (const auto& lab : fs::directory_iterator(kit::root() / "solutions"))
    for (const auto& file : fs::directory_iterator(lab.path())) {
      if (file.path().extension() != ".cl") continue;
      const std::string name = lab.path().filename().string(), source = test::read(file.path());
      const std::string o = options.count(name) ? options.at(name) : "";
      for (const auto& [rewrite, make] : rewrites) {
        const grader::Rewritten r = make(source);
        CAPTURE(name);
        CAPTURE(rewrite);
        CHECK((r.source != source) == (r.applied > 0));
        if (r.source == source) continue;
        ++changed[rewrite];
        CHECK_MESSAGE(test::build_error(r.source, o) == "", r.source);
      }
    }
  for (const auto& [rewrite, make] : rewrites) {
    CAPTURE(rewrite);
    CHECK(changed[rewrite] >= 1);  // each rewrite finds something to do in a solution (index-uint: lab 03 alone declares int indices)
  }
}
