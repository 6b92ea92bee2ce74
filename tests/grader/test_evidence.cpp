// Hints from the evidence: a wrong visible case in `grader check` is run again under Oclgrind and
// its first finding is in the case's hint; a lab's own hint names a cause only where the run or
// the code shows it; a lab program's failed --check names the command that runs it under Oclgrind.
#include <doctest/doctest.h>

#include <set>

#include "atomics_scan.hpp"
#include "kit/kernel_code.hpp"
#include "judge/evidence.hpp"
#include "judge/oclgrind_stage.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

namespace {

// The block `grader check` printed for the case named `name`: its FAIL line to the next case's line.
std::string case_block(const std::string& output, const std::string& name) {
  const std::size_t at = output.find("  FAIL " + name);
  if (at == std::string::npos) return "";
  const std::size_t end = std::min(output.find("\n  PASS ", at + 1), output.find("\n  FAIL ", at + 1));
  return output.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// The 1-based line of the first occurrence of `text` in `source`.
int evidence_line_of(const std::string& source, const std::string& text) {
  int line = 1;
  for (std::size_t i = 0; i < source.find(text); ++i) line += source[i] == '\n';
  return line;
}

// A lab's solution with one change, written as the lab's file in `dir`.
std::string solution_with(const test::TempDir& dir, const std::string& lab, const std::string& file, const std::string& from,
                          const std::string& to) {
  const std::string source = test::replace_once(test::read(kit::root() / "solutions" / lab / file), from, to);
  test::write(dir / lab / file, source);
  return source;
}

}  // namespace

TEST_CASE("lab 04 rung 2 tested with tid % s: the failing visible case's hint leads with the read past scratch") {
  test::TempDir dir;
  const std::string source = solution_with(dir, "04-tree-reductions", "TreeReductions.cl", "        if (index < L)\n            scratch[index] += scratch[index + s];",
                                           "        if (tid % s == 0)\n            scratch[index] += scratch[index + s];");
  const int line = evidence_line_of(source, "if (tid % s == 0)") + 1;
  const auto run = test::run_program("grader", "check 04 --dir " + dir.path.string());
  CHECK(run.exit_code == 1);
  const std::string block = case_block(run.output, "rung 2 (interleaved strided): N below L: 7 elements, L = 32");
  CAPTURE(run.output);
  // The read leads; the lab's guess from the result, which the read leaves undefined, is withheld.
  CHECK(block.find("hint: Oclgrind, on this case: invalid read of size 4 at local memory (kernel reduce2_interleaved_strided): work-item 16 of work-group 0 at TreeReductions.cl:" +
                   std::to_string(line) + ":31 `scratch[index] += scratch[index + s];`") != std::string::npos);
  CHECK(block.find("compare the tree with the rung's rule") == std::string::npos);
  CHECK(block.find("no other cause is read from it") != std::string::npos);
  // Every case is looked at at its own shape: the second failing case of rung 2 has its own evidence.
  const std::string second = case_block(run.output, "rung 2 (interleaved strided): N not a multiple: 1000, L = 64");
  CHECK(second.find("hint: Oclgrind, on this case: invalid read of size 4 at local memory (kernel reduce2_interleaved_strided)") != std::string::npos);
  CHECK(second.find("undefined behaviour: Oclgrind found an invalid read of local memory") != std::string::npos);
}

TEST_CASE("lab 05 window8 reading past active: the case name guesses no cause, the hint says what the result and Oclgrind show") {
  test::TempDir dir;
  const std::string source = solution_with(dir, "05-multipass-reductions", "MultipassReductions.cl", "        for (uint k = 0; k < count; ++k)",
                                           "        for (uint k = 0; k < 8; ++k)");
  const auto run = test::run_program("grader", "check 05 --dir " + dir.path.string());
  CHECK(run.exit_code == 1);
  CAPTURE(run.output);
  CHECK(run.output.find("(the identity is") == std::string::npos);
  const std::string block = case_block(run.output, "window8: N = 7 negative values, max ");
  // The read past the 7 inputs finds whatever lies after the buffer: undefined. PoCL 3.1 (Debian
  // 12) leaves 0 there, so the max is 0; PoCL 6.0 (Debian 13) leaves what its allocator held
  // (8.9e-39 in one run). The hint follows the result it got: a 0 is named as none of the inputs
  // only where the result is 0 (the next test makes that 0 on every PoCL).
  REQUIRE(!block.empty());
  // The read past the inputs at the case's own shape decides it: undefined behaviour, with what the device computed.
  CHECK(block.find("wrong: undefined behaviour: Oclgrind found an invalid read of global memory") != std::string::npos);
  CHECK(block.find("(on the device it computed a wrong result: max of 7 elements by window8") != std::string::npos);
  const bool zero = block.find("got 0 (exact)") != std::string::npos;
  // The read Oclgrind found leads; the lab's hint, which agrees with it, follows.
  CHECK((block.find(". The result is 0, which none of the 7 inputs is") != std::string::npos) == zero);
  if (!zero) CHECK(block.find(". Check each pass's index arithmetic") != std::string::npos);
  CHECK(block.find("hint: Oclgrind, on this case: invalid read of size 4 at global memory (kernel window8_pass): work-item 0 of work-group 0 at MultipassReductions.cl:" +
                   std::to_string(evidence_line_of(source, "acc = OP(acc, src[base + k]);")) + ":19") != std::string::npos);
  // The program's --check of the same case: outside the grader's zeroed memory the read past the
  // data finds whatever is there, so no 0 is claimed; the command that shows the read is printed.
  const auto program = test::run_program("05-multipass-reductions", "--check -n 7 -l 256 --data negative --op max -m window8 --seed 57 -k '" +
                                                                        (dir / "05-multipass-reductions" / "MultipassReductions.cl").string() + "'");
  CHECK(program.exit_code == 1);
  CAPTURE(program.output);
  CHECK(program.output.find("the identity is") == std::string::npos);
  const std::size_t command = program.output.find("\n  oclgrind --data-races --uniform-writes --uninitialized --build-options -O0 ");
  REQUIRE(command != std::string::npos);
  // The command, run, shows the read past the data at its line.
  const std::string line = program.output.substr(command + 3, program.output.find('\n', command + 3) - command - 3);
  const auto under = test::run_command(line);
  CAPTURE(under.output);
  CHECK(under.output.find("Invalid read of size 4 at global memory") != std::string::npos);
  CHECK(under.output.find("At line " + std::to_string(evidence_line_of(source, "acc = OP(acc, src[base + k]);"))) != std::string::npos);
}

TEST_CASE("lab 05 with an identity of 0 for max: told the 0 is none of the inputs, with no out-of-bounds read claimed") {
  test::TempDir dir;
  solution_with(dir, "05-multipass-reductions", "MultipassReductions.cl", "        float acc = IDENTITY;", "        float acc = 0.0f;");
  const auto run = test::run_program("grader", "check 05 --dir " + dir.path.string());
  CAPTURE(run.output);
  const std::string block = case_block(run.output, "window8: N = 7 negative values, max ");
  CHECK(block.find("hint: the result is 0, which none of the 7 inputs is") != std::string::npos);
  CHECK(block.find("invalid read") == std::string::npos);
}

TEST_CASE("lab 08's float total updated with a plain +=: no compare-and-swap is blamed, and Oclgrind's race is named") {
  test::TempDir dir;
  const std::string source = solution_with(dir, "08-atomics-and-scan", "AtomicsScan.cl", "        atomic_add_float(total, scratch[0]);",
                                           "        *total += scratch[0];");
  const auto run = test::run_program("grader", "check 08 --dir " + dir.path.string());
  CHECK(run.exit_code == 1);
  CAPTURE(run.output);
  const std::string block = case_block(run.output, "atomic float sum under contention: 200 launches of N = 65536 positive");
  REQUIRE(!block.empty());
  CHECK(block.find("A compare-and-swap fails") == std::string::npos);
  CHECK(block.find("sum_float_atomic calls no atomic_cmpxchg: its update of the total is not atomic") != std::string::npos);
  const std::string at = "AtomicsScan.cl:" + std::to_string(evidence_line_of(source, "        *total += scratch[0];"));
  // The case is too large for a race check at its own size: Oclgrind finds the race at its smaller
  // shape (the same L, one launch), and that decides it.
  CHECK(block.find("undefined behaviour: Oclgrind found a read-write data race in global memory") != std::string::npos);
  CHECK(block.find("at its smaller shape (32 elements, the same work-group size and last group)") != std::string::npos);
  CHECK(block.find("no witness") == std::string::npos);  // nothing to witness: the case is the kernel's fault
  CHECK(block.find("Oclgrind, on this case's smaller shape (") != std::string::npos);
  CHECK(block.find("read-write data race in global memory") != std::string::npos);
  CHECK(block.find("The update at " + at + " is not atomic") != std::string::npos);
}

TEST_CASE("lab 08's compare-and-swap is found in the function the kernel calls, and only where it is called") {
  const std::string solution = kit::code_without_comments(test::read(kit::root() / "solutions/08-atomics-and-scan/AtomicsScan.cl"));
  CHECK(lab08::calls_compare_and_swap(solution, "sum_float_atomic"));
  CHECK_FALSE(lab08::calls_compare_and_swap(test::replace_once(solution, "atomic_add_float(total, scratch[0]);", "*total += scratch[0];"),
                                            "sum_float_atomic"));
}

TEST_CASE("a large case's smaller shape: N mod 2L + 4L elements, one launch, and a fixed grid of many idle work-items cut to the groups that cover them") {
  // The params of the spec's case called `name` (the grader's own copy: cases change with the spec).
  const auto params = [](const std::string& lab, const std::string& name) {
    const grader::LabSpec spec = grader::load_spec(kit::root() / "grader" / "specs" / (lab + ".json"));
    for (const grader::CaseSpec& c : spec.cases)
      if (c.name.rfind(name, 0) == 0) return c.params;
    FAIL("no case " << name << " in " << lab);
    return grader::json();
  };
  const auto shape = [&](const std::string& lab, const std::string& name) {
    const std::optional<grader::json> s = grader::smaller_shape(lab, params(lab, name));
    REQUIRE(s.has_value());
    return *s;
  };
  // 50 launches of 65,536 over 4096 groups of 4: 16 elements (65536 mod 8 + 16), and 4 groups of 4
  // instead of 16,384 work-items, each with its ticket; one launch.
  const grader::json contention = shape("08-atomics-and-scan", "single pass under contention");
  CHECK(contention["elements"] == 16);
  CHECK(contention["groups"] == 4);
  CHECK(contention["repeats"] == 1);
  CHECK(contention["local"] == 4);
  // 300,000 over 1000 groups of 32: 160 elements (32 + 128), 5 groups.
  const grader::json launches = shape("08-atomics-and-scan", "single pass: 3 launches");
  CHECK(launches["elements"] == 160);
  CHECK(launches["groups"] == 5);
  // 1Mi + 5 over 64 groups of 256: 1029 elements, 5 groups.
  CHECK(shape("08-atomics-and-scan", "single pass: large N")["groups"] == 5);
  // A grid of at most 4 work-items an element keeps its groups: lab 08's 3 groups of 256 over
  // 1025 elements, lab 06's 16 groups of 256 over 1025.
  CHECK(shape("08-atomics-and-scan", "single pass: N = 65537")["groups"] == 3);
  const grader::json cascade = shape("06-cascade-reduction", "N = 65537, device combine");
  CHECK(cascade["elements"] == 1025);
  CHECK(cascade["groups"] == 16);
  // A case no larger than its smaller shape has none.
  CHECK_FALSE(grader::smaller_shape("08-atomics-and-scan", params("08-atomics-and-scan", "single pass: N = 1,")).has_value());
}

TEST_CASE("a case of work-groups wider than Oclgrind's own is looked at without uninitialized values, each of its kernel functions with them at smaller work-groups, and the line says so") {
  // Every lab: the kernel functions (kernel_key's fields, a listed value each) of each case wider
  // than kUninitializedMaxLocal have a case of at most that many work-items a group, looked at
  // with every check. A spec without one would leave a kernel function's uninitialized reads unlooked at.
  std::size_t wide = 0;
  for (const grader::LabSpec& spec : grader::load_specs(kit::root() / "grader" / "specs")) {
    if (!spec.safety) continue;
    std::set<std::string> listed;  // the fields of which the safety runs list several values
    for (const grader::json& run : spec.safety->runs)
      for (const auto& [field, value] : run.items())
        if (value.is_array()) listed.insert(field);
    const auto functions = [&](const grader::json& params) {
      std::vector<grader::json> ones = {params};  // a case listing several values: one of each
      for (const std::string& field : listed) {
        const grader::json values = params.value(field, grader::json());
        if (!values.is_array()) continue;
        std::vector<grader::json> each;
        for (const grader::json& o : ones)
          for (const grader::json& v : values) each.push_back(o), each.back()[field] = v;
        ones = each;
      }
      std::set<std::string> keys;
      for (const grader::json& o : ones) keys.insert(grader::kernel_key(*spec.safety, o));
      return keys;
    };
    const auto is_wide = [](const grader::json& params) {
      const grader::json local = params.value("local", grader::json());
      return local.is_number_unsigned() && local.get<std::size_t>() > grader::kUninitializedMaxLocal;
    };
    std::set<std::string> narrow;
    for (const grader::CaseSpec& c : spec.cases)
      if (!is_wide(c.params))
        for (const std::string& k : functions(c.params)) narrow.insert(k);
    for (const grader::CaseSpec& c : spec.cases) {
      if (!is_wide(c.params)) continue;
      ++wide;
      for (const std::string& k : functions(c.params)) {
        CAPTURE(spec.lab);
        CAPTURE(c.name);
        CHECK_MESSAGE(narrow.count(k) == 1, "no case of at most " << grader::kUninitializedMaxLocal << " work-items a group runs " << k);
      }
    }
  }
  CHECK(wide >= 6);  // labs 01 to 05 and 08 each have at least one (PoCL's largest work-group, 4096)

  // Lab 03's solution graded: its one case of 4096 work-items a group is counted apart on the
  // uninitialized-values line only; the races line rests on it whole.
  test::TempDir cls, out;
  const grader::LabSpec spec = grader::load_spec(kit::root() / "grader" / "specs" / "03-array-mult-reduce.json");
  test::write(cls / "solution" / spec.kernel_file, test::read(kit::root() / "solutions" / spec.lab / spec.kernel_file));
  const test::Command run = test::run_program("grader", "grade --labs 03 --submissions " + cls.path.string() + " --out " + out.path.string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const grader::json report = grader::json::parse(test::read(out / "solution" / "report.json"));
  std::string uninitialized, races;
  for (const grader::json& c : report.at("labs").at(0).at("cases")) {
    if (c.at("name") == "memory safety: uninitialized values (Oclgrind)") uninitialized = c.dump();
    if (c.at("name") == "memory safety: data races (Oclgrind)") races = c.dump();
  }
  CAPTURE(uninitialized);
  CAPTURE(races);
  CHECK(uninitialized.find("\"passed\"") != std::string::npos);
  CHECK(uninitialized.find("1 case of more than 1024 work-items a group looked at for races, bounds and barriers only") != std::string::npos);
  CHECK(races.find("\"passed\"") != std::string::npos);
  CHECK(races.find("more than 1024") == std::string::npos);
}
