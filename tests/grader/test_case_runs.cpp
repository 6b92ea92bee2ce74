// One child per kernel: every case keeps its own verdict (a time-out or a crash in one case costs
// that case only), and kernels that are the same after removing comments and spacing are graded once.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "graded_kernels.hpp"
#include "kit/paths.hpp"
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
  r.status = "graded";
  r.cases.push_back({"case", true, 1, 1, "passed", "", "", 0});
  graded.publish(ann, r);
  CHECK(graded.find_or_claim(ben));  // no file positions in it: ben's result is ann's
  CHECK(graded.reused() == 1);

  // A finding quoting K.cl:3 (line text and columns depend on the spacing) is not shared.
  const grader::GradedKernels::Key cat{"03-array-mult-reduce", "K.cl", "other\n", "other // cat\n"};
  const grader::GradedKernels::Key dan{"03-array-mult-reduce", "K.cl", "other\n", "other // dan\n"};
  REQUIRE_FALSE(graded.find_or_claim(cat));
  r.cases[0] = {"memory safety: data races (Oclgrind)", true, 0, 1, "unsafe", "race at K.cl:3:5 `x[0] = 1;`", "", 0, "safety"};
  CHECK(grader::quotes_the_file(r, "K.cl"));
  graded.publish(cat, r);
  CHECK_FALSE(graded.find_or_claim(dan));  // dan grades his own
  graded.abandon(dan);
  CHECK(graded.find_or_claim(cat));  // the same bytes again: shared
  // Another lab, or the file found under another name, is another kernel.
  CHECK_FALSE(graded.find_or_claim({"04-tree-reductions", "K.cl", "code\n", "code // ann\n"}));
}

TEST_CASE("one child per kernel: a time-out and a crash in the middle cost those cases only") {
  test::TempDir dir;
  std::string source = test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl");
  const std::string body = "    int gid      = get_global_id(0);";
  REQUIRE(source.find(body) != std::string::npos);
  // N = 100 (the L = 1 case, fifth of ten): an endless loop; N = 256 (the seventh): a write
  // through a null pointer. Every other case is right.
  source.insert(source.find(body),
                "    if (get_global_size(0) == 100) { volatile int spin = 1; while (spin) {} }\n"
                "    if (get_global_size(0) == 256 && get_global_id(0) == 0) *(volatile global int*)0 = 1;\n");
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl", source);
  const auto run = test::run_program("grader", "grade --labs 03 --no-races --submissions " + (dir / "class").string() +
                                                   " --out " + (dir / "out").string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const json report = json::parse(test::read(dir / "out" / "ann" / "report.json"));
  std::map<std::string, std::string> status;
  for (const json& c : report["labs"][0]["cases"]) status[c["name"]] = c["status"];
  CHECK(status.at("L = 1: every work-item is a group") == "timeout");
  CHECK(status.at("one work-group of 256, real") == "crashed");
  std::size_t passed = 0;
  for (const auto& [name, s] : status) passed += s == "passed";
  CHECK(passed == status.size() - 2);  // the cases after each of them ran, in new children, and passed
}

TEST_CASE("a batch grades a kernel once for every student whose file differs only in comments and spacing") {
  test::TempDir dir;
  const std::string source = test::read(kit::root() / "labs/03-array-mult-reduce/ArrayMultReduce.cl");
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
  // Lab 08's contention cases (2 PoCL threads) are its 7th, 12th and 13th of 39: graded in two
  // children, one per thread count, not five runs of neighbours.
  test::TempDir dir;
  const auto run = test::run_program("grader", "bench 08 --students 1 --sample-every 100 --no-races --jobs 1 --work " + dir.path.string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const std::string whole = run.output.substr(run.output.find("this way"));
  CHECK_MESSAGE(whole.find("; 2 case children") != std::string::npos, whole);
  CHECK(run.output.find("verdicts: 1 student-labs graded both ways, 0 differ") != std::string::npos);
}
