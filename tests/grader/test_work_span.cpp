// The work-span Oclgrind plugin (grader/plugin): its log parsed, and the real plugin measuring lab
// 03's tree solution against a one-work-item loop, lab 04's integer rungs and a helper function.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "support.hpp"
#include "oclgrind/work_span.hpp"

namespace {
const char* kCase = R"({"elements":256,"local":64,"data":"int","seed":12})";  // 4 work-groups of 64

// Runs `lab`'s case on `kernel` (relative to the kit's root, or absolute) under Oclgrind with the
// plugin loaded, as the grader's safety check does (-O0), and returns the plugin's log parsed.
std::vector<grader::KernelWork> measure(const std::string& kernel, const std::string& lab = "03-array-mult-reduce",
                                        const std::string& case_json = kCase) {
  test::TempDir dir;
  const std::string bin = KIT_BIN_DIR;
  const auto run = test::run_command(
      "POCL_CACHE_DIR='" + (dir / "pocl-cache").string() + "' OCLGRIND_PLUGINS='" + bin + "/libkit-work-span.so' " +
      "KIT_WORK_SPAN_LOG='" + (dir / "work-span.jsonl").string() + "' oclgrind --build-options -O0 '" + bin +
      "/grader' run-case --lab " + lab + " --kernel " +
      (std::filesystem::path(kernel).is_absolute() ? "'" + kernel + "'" : test::kit_path(kernel)) +
      " --shown-as kernel.cl --case '" + case_json + "' --result '" + (dir / "r.json").string() + "'");
  INFO(run.output);
  // Oclgrind can abort while it shuts down: the finished result file, not the exit status, tells.
  REQUIRE(nlohmann::json::parse(test::read(dir / "r.json"))["status"] == "ok");
  return grader::parse_work_span(test::read(dir / "work-span.jsonl"));
}
}  // namespace

TEST_CASE("work-span: the log parses into kernels and groups, a malformed line names its number") {
  const std::string good =
      R"({"kernel":"k","global":[32,1,1],"local":[16,1,1],"groups":[{"group":[0,0,0],"items":16,"work":15,)"
      R"("span":4,"phases":4,"busiest_item":0,"busiest_ops":4},{"group":[1,0,0],"items":16,"work":0,"span":0,)"
      R"("phases":0,"busiest_item":0,"busiest_ops":0}]})";
  const auto kernels = grader::parse_work_span(good + "\n\n" + good + "\n");
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0].kernel == "k");
  CHECK(kernels[0].global[0] == 32);
  CHECK(kernels[0].local[0] == 16);
  REQUIRE(kernels[0].groups.size() == 2);
  CHECK(kernels[0].groups[1].group[0] == 1);
  CHECK(kernels[0].groups[0].span == 4);
  CHECK(kernels[0].groups[0].work == 15);

  // Line 3 (after a blank line) lost its span; line 2 is cut short; a negative count is no count.
  const auto message = [](const std::string& text) {
    try {
      grader::parse_work_span(text);
    } catch (const kit::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string no_span = good;
  no_span.erase(no_span.find(R"("span":4,)"), 9);
  CHECK(message(good + "\n\n" + no_span).find("work-span log line 3 is malformed") == 0);
  CHECK(message(good + "\n" + good.substr(0, 40)).find("work-span log line 2 is malformed") == 0);
  std::string negative = good;
  negative.replace(negative.find(R"("work":15)"), 9, R"("work":-1)");
  CHECK(message(negative).find("work-span log line 1 is malformed") == 0);
}

TEST_CASE("work-span: lab 03's tree solution does 63 adds per group in a chain of 6") {
  // 64 products per group, stored in a phase of their own (a barrier opens the loop). Each of the
  // log2(64) = 6 levels is its own phase: 32 + 16 + ... + 1 = 63 adds, one per active work-item, so
  // the span is 6 and work-item 0, active at every level, does the most: 6.
  const auto kernels = measure("solutions/03-array-mult-reduce/ArrayMultReduce.cl");
  REQUIRE(kernels.size() == 1);
  CHECK(kernels[0].kernel == "ArrayMultReduce");
  CHECK(kernels[0].local[0] == 64);
  REQUIRE(kernels[0].groups.size() == 4);
  for (const grader::GroupWork& g : kernels[0].groups) {
    CAPTURE(g.group[0]);
    CHECK(g.items == 64);
    CHECK(g.work == 63);
    CHECK(g.span == 6);
    CHECK(g.phases == 6);
    CHECK(g.busiest_item == 0);
    CHECK(g.busiest_ops <= 6);
  }
}

TEST_CASE("work-span: a one-work-item loop has a span as long as its work") {
  // Work-item 0 starts from sum = 0.0f and adds all 64 products: 64 adds (one more than a tree,
  // the first being 0 + p0), all after the one barrier, so span = work = 64 in one phase.
  const auto kernels = measure("grader/examples/class/emma-one-work-item/ArrayMultReduce.cl");
  REQUIRE(kernels.size() == 1);
  REQUIRE(kernels[0].groups.size() == 4);
  for (const grader::GroupWork& g : kernels[0].groups) {
    CAPTURE(g.group[0]);
    CHECK(g.work == 64);
    CHECK(g.span == 64);
    CHECK(g.phases == 1);
    CHECK(g.busiest_item == 0);
    CHECK(g.busiest_ops == g.work);
  }
}

TEST_CASE("work-span: lab 04's integer sums are counted, its index arithmetic is not") {
  // Rung 3 over 128 elements in groups of 16: the first launch has 8 groups of 16 values; each
  // group's tree does 8 + 4 + 2 + 1 = 15 integer adds in log2(16) = 4 levels. The adds of the
  // index arithmetic (tid + s, the loop's counter) touch no data and must not be counted.
  const auto kernels = measure("solutions/04-tree-reductions/TreeReductions.cl", "04-tree-reductions",
                               R"({"elements":128,"local":16,"seed":49,"rung":3})");
  REQUIRE(!kernels.empty());
  CHECK(kernels[0].kernel == "reduce3_sequential");
  REQUIRE(kernels[0].groups.size() == 8);
  for (const grader::GroupWork& g : kernels[0].groups) {
    CAPTURE(g.group[0]);
    CHECK(g.work == 15);
    CHECK(g.span == 4);
    CHECK(g.busiest_ops == 4);
  }
}

TEST_CASE("work-span: adds inside a function the kernel calls are counted") {
  // The tree of lab 03's solution with its add moved into a helper function: the same 63 adds in 6
  // levels per group of 64 (the data reaches the helper through its parameters).
  test::TempDir dir;
  const std::string solution = test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl");
  const std::string add = "prods[tnum] += prods[tnum + offset];";
  REQUIRE(solution.find(add) != std::string::npos);
  std::string helper = test::replace_once(solution, add, "prods[tnum] = combine(prods[tnum], prods[tnum + offset]);");
  helper = "float combine(float a, float b) { return a + b; }\n" + helper;
  test::write(dir / "ArrayMultReduce.cl", helper);
  const auto kernels = measure((dir / "ArrayMultReduce.cl").string());
  REQUIRE(kernels.size() == 1);
  for (const grader::GroupWork& g : kernels[0].groups) {
    CHECK(g.work == 63);
    CHECK(g.span == 6);
  }
}
