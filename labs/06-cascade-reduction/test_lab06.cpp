// Lab 06 on PoCL: the cascade is right for awkward N, L and G with both final combines and either
// branch, the speed ratio against the solution measures what it says, and the grader builds the
// GPU branch on PoCL too, so that a mistake in its grid-stride loop costs points.
#include <doctest/doctest.h>

#include <algorithm>

#include "tools/mutate.hpp"

#include "cascade.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "kit/reference.hpp"
#include "grader/lab/driver.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

namespace {
std::optional<std::string> check(const std::filesystem::path& file, const lab06::Case& c) {
  const auto in = lab06::make_inputs(c);
  lab06::Runner runner(test::runtime(), file, c, in);
  const kit::Verdict verdict = lab06::check(c, in, runner.run(0, 1), lab06::expected(in));  // as the program and the grader
  if (verdict.pass) return std::nullopt;
  return verdict.message;
}
}  // namespace

TEST_CASE("the cascade is right for awkward sizes, with either final combine") {
  const auto solution = kit::lab_file(lab06::kLab, lab06::kKernelFile, true);
  for (const std::size_t n : {1, 3, 4, 5, 1003, 65537, 100003, 4194307})
    for (const auto& [l, g] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 8}, {16, 4}, {256, 16}})
      for (const bool device : {false, true})
        for (const kit::DataKind kind : {kit::DataKind::Integers, kit::DataKind::Reals}) {
          CAPTURE(n);
          CAPTURE(l);
          CAPTURE(device);
          const auto diff = check(solution, {n, l, g, kind, 9, device});
          CHECK_MESSAGE(!diff, diff.value_or(""));
        }
}

TEST_CASE("small whole-number dot products are compared exactly") {
  const lab06::Case c{1000, 64, 4, kit::DataKind::Integers, 1, false};
  CHECK(lab06::tolerance(c, 4, lab06::expected(lab06::make_inputs(c))) == 0);
  const lab06::Case big{4194307, 256, 16, kit::DataKind::Reals, 1, true};
  CHECK(lab06::tolerance(big, 16, {0, 1e6}) > 0);
  // 64Mi elements of -1, 0, 1 over 16 groups of 1 (the CPU default): each group sums 4Mi < 2^24
  // products exactly, so the host combine is exact and SumPartials' 16 adds are all that round.
  const lab06::Case units{std::size_t(64) << 20, 1, 16, kit::DataKind::Units, 1, false};
  CHECK(lab06::tolerance(units, 16, {0, 4e7}) == 0);
  lab06::Case units_device = units;
  units_device.device_combine = true;
  CHECK(lab06::tolerance(units_device, 16, {0, 4e7}) == doctest::Approx(kit::gamma_float(16) * 4e7));
  // The same with products up to 64 (int): a group's share can pass 2^24, so the float bound applies.
  lab06::Case ints = units;
  ints.kind = kit::DataKind::Integers;
  CHECK(lab06::tolerance(ints, 16, {0, 4e7}) > 1);
  // 64Mi real elements on one work-item: 16Mi adds in one float4 lane, no bound below the sum itself.
  const lab06::Case one_lane{std::size_t(64) << 20, 1, 1, kit::DataKind::Reals, 1, false};
  CHECK_THROWS_WITH_AS(lab06::tolerance(one_lane, 1, {0, 1e6}), doctest::Contains("use more work-groups (--groups)"), kit::Error);
}

TEST_CASE("a CPU branch with one float4 sum, or four as TODO 1a asks, is within the same rounding bound") {
  // The bound counts ceil(N / 4GL) adds per float4 lane: every correct way of splitting a run
  // into sums meets no more, so the grader's tolerance must accept these two. Each is the
  // solution with its CPU loop (the slide region cascade-contiguous) swapped.
  const std::string one_sum = R"(    uint chunks = n / 4, per_item = (chunks + get_global_size(0) - 1) / get_global_size(0);
    uint begin = min(gid * per_item, chunks), end = min(begin + per_item, chunks);
    for (uint i = begin; i < end; ++i)
        acc += vload4(i, dA) * vload4(i, dB);
)";
  const std::string four_sums = R"(    uint chunks = n / 4, per_item = (chunks + get_global_size(0) - 1) / get_global_size(0);
    uint i = min(gid * per_item, chunks), end = min(i + per_item, chunks);
    float4 s1 = (float4)(0.0f), s2 = s1, s3 = s1;
    for (; i + 4 <= end; i += 4) {
        acc += vload4(i, dA) * vload4(i, dB);
        s1 += vload4(i + 1, dA) * vload4(i + 1, dB);
        s2 += vload4(i + 2, dA) * vload4(i + 2, dB);
        s3 += vload4(i + 3, dA) * vload4(i + 3, dB);
    }
    for (; i < end; ++i)
        acc += vload4(i, dA) * vload4(i, dB);
    acc = (acc + s1) + (s2 + s3);
)";
  const std::string solution = test::read(kit::lab_file(lab06::kLab, lab06::kKernelFile, true));
  test::TempDir dir;
  for (const auto& [name, body] : std::vector<std::pair<std::string, std::string>>{{"one_sum.cl", one_sum}, {"four_sums.cl", four_sums}}) {
    test::write(dir / name, test::replace_slide_region(solution, "cascade-contiguous", body));
    for (const std::size_t n : {5, 1003, 100003})
      for (const auto& [l, g] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 8}, {16, 4}})
        for (const bool device : {false, true}) {
          CAPTURE(name);
          CAPTURE(n);
          const auto diff = check(dir / name, {n, l, g, kit::DataKind::Reals, 11, device});
          CHECK_MESSAGE(!diff, diff.value_or(""));
        }
  }
}

TEST_CASE("the starter compiles and is wrong") {
  CHECK(check(kit::lab_file(lab06::kLab, lab06::kKernelFile, false), {65537, 64, 8, kit::DataKind::Integers, 2, false}));
}

TEST_CASE("the speed ratio ranks a kernel that does far more work far below the solution") {
  // Not a speed target (those are measured by the benchmark programs): a check that the ratio
  // points the right way, with a margin no machine load can close. Lab 03's structure (one element
  // per work-item, a tree and a partial per 256 elements) in the cascade's signature measures
  // around 0.02 of the solution on PoCL; the grader's full-points line is 0.8.
  const auto solution = kit::lab_file(lab06::kLab, lab06::kKernelFile, true);
  const lab06::Case c{std::size_t(4) << 20, 256, 16, kit::DataKind::Reals, 3, false};
  const auto in = lab06::make_inputs(c);
  lab06::Runner a(test::runtime(), solution, c, in);
  lab06::Runner slow(test::runtime(), test::data("cascade_one_per_item.cl"), {c.elements, 256, c.elements / 256, c.kind, 3, false}, in);
  const double ratio = lab06::speed_ratio(slow, a, 5).median;
  MESSAGE("one element per work-item against the solution: " << ratio);
  CHECK(ratio < 0.4);
}

TEST_CASE("lab 06 --vs-solution prints the median ratio of its pairs: the solution against itself is near 1") {
  // The program printed the whole SpeedRatio through %f (a number from nowhere). The solution
  // against itself, alternately: each pair's two runs are the same kernel, so the median stays
  // near 1; between 0.5 and 2 leaves room for any load that drifts between two runs of a pair.
  const test::Command r = test::run_program("06-cascade-reduction", "--solution --vs-solution -n 1Mi -l 256 -g 16");
  REQUIRE_MESSAGE(r.exit_code == 0, r.output);
  const std::string label = "speed against the solution (median of 15 alternating pairs): ";
  const std::size_t at = r.output.find(label);
  REQUIRE_MESSAGE(at != std::string::npos, r.output);
  const double ratio = std::stod(r.output.substr(at + label.size()));
  CHECK(ratio > 0.5);
  CHECK(ratio < 2);
}

TEST_CASE("on the large cases' whole-number data, a kernel that skips the scalar tail is caught") {
  // The spec's large cases use data -1, 0, 1: exact comparison, so missing products show (seeds
  // 67 and 78 put non-zero products among the last three elements).
  const std::string solution = test::read(kit::lab_file(lab06::kLab, lab06::kKernelFile, true));
  test::TempDir dir;
  test::write(dir / "no_tail.cl", test::replace_once(solution, R"(    for (uint k = gid; k < n % 4; k += get_global_size(0))
        sum += dA[4 * (n / 4) + k] * dB[4 * (n / 4) + k];
)", ""));
  for (const bool device : {false, true}) {
    const lab06::Case c{4194307, 256, 16, kit::DataKind::Units, device ? 78u : 67u, device};
    CHECK(lab06::tolerance(c, 16, lab06::expected(lab06::make_inputs(c))) == 0);
    CHECK(check(dir / "no_tail.cl", c));
    CHECK_FALSE(check(kit::lab_file(lab06::kLab, lab06::kKernelFile, true), c));
    // The hint is computed: the result lacks exactly the tail's products.
    const auto in = lab06::make_inputs(c);
    lab06::Runner runner(test::runtime(), dir / "no_tail.cl", c, in);
    const kit::Verdict verdict = lab06::check(c, in, runner.run(0, 1), lab06::expected(in));
    CHECK(verdict.hint.find("the scalar tail (elements 4 * (n / 4) ... n - 1) is not added") != std::string::npos);
  }
}

TEST_CASE("lab 06: without the tree from lab 04 (TODO 0) the hint names the tree, on both branches and both combines") {
  // tree_sum's region left as the starter has it: each partial is its work-item 0's own sum.
  const std::string solution = test::read(kit::lab_file(lab06::kLab, lab06::kKernelFile, true));
  const std::string loop = solution.substr(solution.find("    for (uint s = L / 2;"),
                                           solution.find("    // student-end", solution.find("// student: lab04-tree")) -
                                               solution.find("    for (uint s = L / 2;"));
  REQUIRE(loop.find("scratch[tid] += scratch[tid + s];") != std::string::npos);
  test::TempDir dir;
  test::write(dir / "CascadeDot.cl", test::replace_once(solution, loop, ""));
  for (const lab06::Branch branch : {lab06::Branch::Cpu, lab06::Branch::Gpu})
    for (const bool device : {false, true}) {
      const lab06::Case c{1003, 16, 4, kit::DataKind::Integers, 5, device, branch};
      CAPTURE(device);
      const auto in = lab06::make_inputs(c);
      const kit::Verdict verdict =
          lab06::check(c, in, lab06::Runner(test::runtime(), dir / "CascadeDot.cl", c, in).run(0, 1), lab06::expected(in));
      CHECK_FALSE(verdict.pass);
      CHECK_MESSAGE(verdict.hint.find("each work-group's partial is only its work-item 0's own sum: the tree adds nothing. TODO 0") == 0,
                    verdict.hint);
    }
}

TEST_CASE("lab 06: a tree_sum loop without its barrier is named with its line, as the other labs' tree loops") {
  const std::string solution = test::read(kit::lab_file(lab06::kLab, lab06::kKernelFile, true));
  const std::string barrier = "        barrier(CLK_LOCAL_MEM_FENCE);           // this level is done before the next one reads it\n";
  test::TempDir dir;
  test::write(dir / "CascadeDot.cl", test::replace_once(solution, barrier, ""));
  const lab06::Case c{1003, 16, 4, kit::DataKind::Integers, 5, false, lab06::Branch::Gpu};
  const auto in = lab06::make_inputs(c);
  const lab06::Outputs out = lab06::Runner(test::runtime(), dir / "CascadeDot.cl", c, in).run(0, 1);
  const std::string hint = lab06::diagnose(c, in, out, lab06::expected(in));
  const std::string loop = "tree_sum's tree loop (line " +
                           std::to_string(1 + std::count(solution.begin(), solution.begin() + long(solution.find("for (uint s = L / 2")), '\n')) +
                           ") has no barrier";
  CHECK_MESSAGE(hint.find(loop) == 0, hint);
}

TEST_CASE("lab 06 hints say what the result shows and guess nothing else") {
  // A result off by an amount that is not the tail's products: the hint says how far off it is,
  // without naming a cause; a result of 0 is named as such.
  const lab06::Case c{1003, 16, 4, kit::DataKind::Integers, 5, false, lab06::Branch::Gpu};
  const auto in = lab06::make_inputs(c);
  const lab06::Outputs right = lab06::Runner(test::runtime(), kit::lab_file(lab06::kLab, lab06::kKernelFile, true), c, in).run(0, 1);
  lab06::Outputs wrong = right;
  wrong.result += 0.5;  // whole-number data: no missing product or tail explains half a unit
  const kit::Verdict off = lab06::check(c, in, wrong, lab06::expected(in));
  CHECK_FALSE(off.pass);
  CHECK(off.hint.find("the result is off by 0.5") == 0);
  CHECK(off.hint.find("matches none of the mistakes") != std::string::npos);
  wrong.result = 0;
  CHECK(lab06::check(c, in, wrong, lab06::expected(in)).hint.find("the result is 0") == 0);
  CHECK(lab06::check(c, in, right, lab06::expected(in)).pass);

  // Combined on the device: right partials and a wrong total put the blame on SumPartials (its tree
  // starting at L / 4 drops half of the L sums when G > L / 2).
  lab06::Case device = c;
  device.device_combine = true;
  device.elements = 2003, device.local = 4, device.groups = 12;
  const auto din = lab06::make_inputs(device);
  const std::string solution = test::read(kit::lab_file(lab06::kLab, lab06::kKernelFile, true));
  const std::string tree = "tree_sum(scratch, tid, L);";  // SumPartials' call is the last
  const std::string quarter = solution.substr(0, solution.rfind(tree)) + "tree_sum(scratch, tid, L / 2);" +
                              solution.substr(solution.rfind(tree) + tree.size());
  test::TempDir dir;
  test::write(dir / "CascadeDot.cl", quarter);
  const kit::Verdict partial_tree = lab06::check(device, din, lab06::Runner(test::runtime(), dir / "CascadeDot.cl", device, din).run(0, 1),
                                                 lab06::expected(din));
  CHECK_FALSE(partial_tree.pass);
  CHECK_MESSAGE(partial_tree.hint.find("DotCascade's 12 partials add up to the right value on the host, but SumPartials made") == 0,
                partial_tree.hint);
}

TEST_CASE("a case's branch forces DotCascade's branch on PoCL: the GPU's grid-stride loop is right for awkward sizes") {
  const auto solution = kit::lab_file(lab06::kLab, lab06::kKernelFile, true);
  for (const lab06::Branch branch : {lab06::Branch::Cpu, lab06::Branch::Gpu})
    for (const std::size_t n : {1, 5, 37, 1003, 4102, 65536})
      for (const auto& [l, g] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 8}, {16, 4}, {32, 32}})
        for (const bool device : {false, true}) {
          CAPTURE(lab06::to_string(branch));
          CAPTURE(n);
          CAPTURE(l);
          lab06::Case c{n, l, g, kit::DataKind::Integers, 13, device};
          c.branch = branch;
          const auto in = lab06::make_inputs(c);
          lab06::Runner runner(test::runtime(), solution, c, in);
          const lab06::Outputs out = runner.run(0, 1);
          CHECK(out.contiguous == (branch == lab06::Branch::Cpu));
          const auto diff = lab06::difference(c, out, lab06::expected(in));
          CHECK_MESSAGE(!diff, diff.value_or(""));
        }
  CHECK(lab06::parse_branch("gpu") == lab06::Branch::Gpu);
  CHECK_THROWS_WITH_AS(lab06::parse_branch("fpga"), doctest::Contains("branch 'fpga' is not one of: device"), kit::Error);
  // The spec's case fields refuse a branch that is not one, and a misspelt field.
  const auto fields = grader::load_specs(kit::root() / "grader" / "specs", {"06"}).at(0).case_fields;
  CHECK_THROWS_WITH_AS(grader::check_case(fields, grader::json::parse(
                           R"({"branch": "fpga", "elements": 10, "local": 4, "groups": 2, "data": "int", "seed": 1, "combine": "host"})"),
                                          "lab 06", false),
                       doctest::Contains("branch: must be one of \"device\", \"cpu\", \"gpu\", not \"fpga\""), kit::Error);
  CHECK_THROWS_WITH_AS(grader::check_case(fields, grader::json::parse(
                           R"({"branches": "gpu", "elements": 10, "local": 4, "groups": 2, "data": "int", "seed": 1, "combine": "host"})"),
                                          "lab 06", false),
                       doctest::Contains("branches: not a field of lab 06 cases (branch (optional), combine, data, elements, groups, local, seed)"),
                       kit::Error);
}

TEST_CASE("lab 06 grading: an off-by-one in the grid-stride loop's bound fails a GPU-branch case, and Oclgrind sees both branches") {
  // PoCL is a CPU device, so the host builds -D CONTIGUOUS and the grid-stride loop used to go
  // ungraded. The spec's "branch": "gpu" cases build it anyway, and the safety case's branch list ["cpu", "gpu"] runs
  // each branch under Oclgrind. Two off-by-ones made from the solution: one chunk too many (it adds
  // the tail twice and reads past the end) and one too few; the CPU branch is left right.
  const std::string solution = test::read(kit::lab_file(lab06::kLab, lab06::kKernelFile, true));
  const std::string bound = "i < n / 4; i += get_global_size(0)";
  const std::vector<std::pair<std::string, std::string>> variants = {{"one chunk too many", "i <= n / 4; i += get_global_size(0)"},
                                                                     {"one chunk too few", "i + 1 < n / 4; i += get_global_size(0)"}};
  for (const auto& [name, wrong] : variants) {
    CAPTURE(name);
    test::TempDir labs;
    test::write(labs / "06-cascade-reduction" / "CascadeDot.cl", test::replace_once(solution, bound, wrong));
    const auto run = test::run_program("grader", "check 06 --races --dir " + labs.path.string());
    CHECK(run.exit_code == 1);
    CHECK(run.output.find("PASS N = 1003, L = 16, G = 4, real") != std::string::npos);  // the CPU branch is right ...
    CHECK(run.output.find("speed estimate against the solution") != std::string::npos);  // timed: the CPU branch ran
    CHECK(run.output.find("FAIL GPU branch: N = 1003, L = 16, G = 4 (250 chunks and a tail of 3)") != std::string::npos);  // ... the GPU's not
    CHECK(run.output.find("the GPU branch (built without -D CONTIGUOUS), combined on the host): expected") != std::string::npos);
    if (name == "one chunk too few")  // the hint names the missing float4, computed from the inputs
      CHECK(run.output.find("hint: the result lacks exactly the products of float4 number 8 (elements 32 ... 35) of 9: "
                            "in the GPU branch") != std::string::npos);
    // One chunk too many reads the float4 past n / 4: the tail and one float past the buffer, whose
    // value is whatever lies there, so its hint ("the tail added twice" when that float is 0) is
    // not asserted. What is certain is the read past the end, found by Oclgrind in the GPU branch.
    if (name == "one chunk too many")
      CHECK(run.output.find("FAIL memory safety: invalid memory accesses (Oclgrind)") != std::string::npos);
  }
}

TEST_CASE("lab 06 grading: one work-item doing the whole sweep, or SumPartials without its spread, loses the algorithm points") {
  // Both mutants give right sums: work-item 0 of DotCascade's CPU branch takes every chunk (its
  // `end` wraps below 0), and SumPartials with get_local_size(1) makes every work-item add all G
  // partials with no tree. The plugin's measurement in the safety run says what each one did.
  const std::string solution = test::read(kit::lab_file(lab06::kLab, lab06::kKernelFile, true));
  const std::vector<std::tuple<std::string, std::string, std::string, std::string>> variants = {
      {"end = min(i + per_item, chunks)", "end = min(i - per_item, chunks)", "FAIL algorithm: DotCascade (measured under Oclgrind)      0/1",
       "work-item 0 did 271 of the 277 adds in work-group 0 of DotCascade (L = 8)"},
      {"uint L   = get_local_size(0);   // work-items in the group", "uint L   = get_local_size(1);   // work-items in the group",
       "FAIL algorithm: SumPartials (measured under Oclgrind)     0/1",
       "the longest chain of adds one after another was 16, where the lab asks for the partials spread over the group's "
       "work-items, then a tree"}};
  for (const auto& [from, to, fail, measured] : variants) {
    CAPTURE(to);
    test::TempDir labs;
    test::write(labs / "06-cascade-reduction" / "CascadeDot.cl", test::replace_once(solution, from, to));
    const auto run = test::run_program("grader", "check 06 --races --dir " + labs.path.string());
    CHECK(run.exit_code == 1);
    CHECK_MESSAGE(run.output.find(fail) != std::string::npos, run.output);
    CHECK(run.output.find(measured) != std::string::npos);
    CHECK(run.output.find("FAIL N = ") == std::string::npos);  // every sum is right
  }
}

TEST_CASE("lab 06 grading: grader mutants' uncoalesced GPU branch keeps every sum right and loses the access-pattern point at its load's line") {
  // The mutant operator turns the grid-stride loop into a contiguous run per work-item: the lab's
  // lesson. No case and no timing on a CPU can tell; the plugin's load steps can.
  const std::string solution = test::read(kit::lab_file(lab06::kLab, lab06::kKernelFile, true));
  std::vector<grader::Mutant> runs;
  for (const grader::Mutant& m : grader::make_mutants(solution))
    if (m.op == "uncoalesced") runs.push_back(m);
  REQUIRE(runs.size() == 1);  // the GPU branch's grid-stride loop (the tail's loop counts k, not chunks)
  const grader::Mutant& m = runs[0];
  test::TempDir labs;
  test::write(labs / "06-cascade-reduction" / "CascadeDot.cl", m.source);
  const auto run = test::run_program("grader", "check 06 --dir " + labs.path.string());
  CHECK(run.exit_code == 1);
  CHECK_MESSAGE(run.output.find("FAIL algorithm: DotCascade's global loads (traced under Oclgrind) 0/1") != std::string::npos, run.output);
  // The loads are in the loop's body, on the line after the loop's header (the mutated line).
  CHECK(run.output.find("the load at line " + std::to_string(m.line + 1) + " (buffer argument ") != std::string::npos);
  CHECK(run.output.find("bytes apart at the same iteration") != std::string::npos);
  CHECK(run.output.find("FAIL N = ") == std::string::npos);
  CHECK(run.output.find("FAIL GPU branch") == std::string::npos);  // every sum is right
  const auto good = test::run_program("grader", "check 06 --dir " + (kit::root() / "solutions").string());
  CHECK(good.output.find("PASS algorithm: DotCascade's global loads (traced under Oclgrind) 1/1") != std::string::npos);
}

TEST_CASE("lab 06: grader mutants kills its uncoalesced mutant, with the safety and algorithm checks") {
  test::TempDir out;
  const auto run = test::run_program("grader", "mutants 06 --operator uncoalesced --out " + out.path.string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const nlohmann::json report = nlohmann::json::parse(test::read(out / "mutants.json"));
  REQUIRE(report["mutants"].size() == 1);
  const nlohmann::json& m = report["mutants"][0];
  CHECK(m["operator"] == "uncoalesced");
  CHECK(m["status"] == "killed");
  CHECK(m["points"].get<double>() < m["max_points"].get<double>());
  // An operator no lab's solution has grades nobody, and says so.
  const auto none = test::run_program("grader", "mutants 01 --operator uncoalesced --out " + (out / "none").string());
  CHECK(none.exit_code != 0);
  CHECK(none.output.find("no lab's solution has a mutant of operator 'uncoalesced': nothing was graded") != std::string::npos);
}

// The student release has no solutions/: there --vs-solution and --solution are not in --help, and a
// command that gives one says what to run instead (not CLI11's "not expected" error).
TEST_CASE("lab 06 in a release: --vs-solution and --solution say they are the full kit's and what to use instead") {
  test::TempDir release;  // a kit root without solutions/ (the options are refused before any file is read)
  const std::string program = "KIT_ROOT='" + release.path.string() + "' '" + std::string(KIT_BIN_DIR) + "/06-cascade-reduction' ";
  const auto vs = test::run_command(program + "--check --vs-solution");
  CHECK(vs.exit_code == 1);
  CHECK_MESSAGE(vs.output.find("error: --vs-solution is only in the full kit (this student release has no solutions/ folder); use "
                               "`build/bin/grader check 06` (its speed estimate against the solution's stored figure) or --vs-openmp") !=
                    std::string::npos,
                vs.output);
  CHECK(vs.output.find("not expected") == std::string::npos);
  const auto solution = test::run_command(program + "--solution");
  CHECK(solution.exit_code == 1);
  CHECK_MESSAGE(solution.output.find("error: --solution is only in the full kit (this student release has no solutions/ folder); give a "
                                     "kernel file with --kernel, or leave it out for this lab's CascadeDot.cl") != std::string::npos,
                solution.output);
  const auto help = test::run_command(program + "--help");
  CHECK(help.exit_code == 0);
  CHECK(help.output.find("--vs-solution") == std::string::npos);
  CHECK(help.output.find("--solution") == std::string::npos);
  // In the full kit both are offered.
  const auto kit_help = test::run_program("06-cascade-reduction", "--help");
  CHECK(kit_help.output.find("--vs-solution") != std::string::npos);
}

// The one-thread recipe (README): a kernel on one PoCL thread against OpenMP on one thread. With
// POCL_MAX_PTHREAD_COUNT set and OMP_NUM_THREADS not, the program gives OpenMP the same count; a
// count the user sets stands.
TEST_CASE("lab 06 --vs-openmp: OpenMP runs on as many threads as POCL_MAX_PTHREAD_COUNT gives PoCL, unless OMP_NUM_THREADS says otherwise") {
  const std::string program = "'" + std::string(KIT_BIN_DIR) + "/06-cascade-reduction' --solution --vs-openmp -n 64Ki --combine host --repeats 1";
  const auto one = test::run_command("env -u OMP_NUM_THREADS -u OMP_WAIT_POLICY POCL_MAX_PTHREAD_COUNT=1 " + program);
  CHECK_MESSAGE(one.exit_code == 0, one.output);
  CHECK_MESSAGE(one.output.find("OpenMP parallel for simd reduction, 1 thread: best ") != std::string::npos, one.output);
  const auto chosen = test::run_command("env -u OMP_WAIT_POLICY POCL_MAX_PTHREAD_COUNT=1 OMP_NUM_THREADS=2 " + program);
  CHECK_MESSAGE(chosen.output.find("OpenMP parallel for simd reduction, 2 threads: best ") != std::string::npos, chosen.output);
}
