// One diagnosis per lab: a lab program's --check and `grader check` give the same verdict and the
// same hint for the same kernel and case, whatever the kernel's mistake; a hint about the code is
// never contradicted by the code; the compiler's warnings on the student's lines are part of it.
#include <doctest/doctest.h>

#include <cstdlib>

#include <fstream>
#include <sstream>

#include "kit/buffer.hpp"
#include "kit/json.hpp"
#include "kit/paths.hpp"
#include "support.hpp"
#include "tools/mutate.hpp"

namespace {

using kit::json;

// How many mutants of each lab the agreement test takes: grader::pick_evenly's spread over all of
// a lab's mutants in source order (the rule `grader mutants --max-per-lab` uses), so every kind of
// change is met without choosing which ones. KIT_DIAGNOSIS_MUTANTS=N takes N a lab instead (a
// large N: every mutant; minutes, so not in the suite).
std::size_t mutants_per_lab() {
  const char* asked = std::getenv("KIT_DIAGNOSIS_MUTANTS");
  return asked && std::atoi(asked) > 0 ? std::size_t(std::atoi(asked)) : 4;
}
const std::size_t kMutantsPerLab = mutants_per_lab();

const char* kOnePoclThread = "POCL_MAX_PTHREAD_COUNT=1 ";

json spec_json_of(const std::string& lab) { return json::parse(test::read(kit::root() / "grader" / "specs" / (lab + ".json"))); }

std::string field(const json& c, const std::string& name) {
  const json& v = c.at(name);
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// The lab program's options for one of the grader's cases: the same data, sizes and choices.
std::string program_options(const std::string& lab, const json& c) {
  std::string o = "-n " + field(c, "elements") + " -l " + field(c, "local") + " --seed " + field(c, "seed");
  if (lab == "03-array-mult-reduce") return o + " --data " + field(c, "data");
  if (lab == "04-tree-reductions") return o + " -r " + field(c, "rung");
  if (lab == "05-multipass-reductions")
    return o + " --data " + field(c, "data") + " --op " + field(c, "op") + " -m " + field(c, "method");
  o += " -g " + field(c, "groups") + " --data " + field(c, "data") + " --combine " + field(c, "combine");
  return c.contains("branch") ? o + " --branch " + field(c, "branch") : o;
}

// The text after "hint: " on each line that has one, in order.
std::vector<std::string> hints_in(const std::string& output) {
  std::vector<std::string> hints;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);)
    if (const std::size_t at = line.find("hint: "); at != std::string::npos) hints.push_back(line.substr(at + 6));
  return hints;
}

struct CaseVerdict {
  json params;
  bool failed = false;
  std::string status;  // for a failed case: the status word `grader check` printed (wrong, timeout, crashed, ...)
  std::string hint;    // the hint `grader check` printed for it ("" if none)
  std::string what;    // for a failed case: what its status line says after "<status>: " (the result it got)
  bool undefined = false;      // failed as undefined behaviour (Oclgrind's finding at the case's shape)
  bool device_passed = false;  // ... where the device computed it right this time
};

// Each visible case's verdict as `grader check` printed it: "  FAIL <name> ..." then its
// "       hint: ..." line before the next case's line.
std::vector<CaseVerdict> visible_verdicts(const json& spec, const std::string& output) {
  std::vector<CaseVerdict> verdicts;
  for (const json& c : spec.at("cases")) {
    if (c.at("visibility") != "visible") continue;
    CaseVerdict v{c, false, "", "", ""};
    const std::string name = c.at("name").get<std::string>();
    const std::size_t at = output.find("  FAIL " + name);
    v.failed = at != std::string::npos;
    if (v.failed) {
      std::size_t end = std::string::npos;  // the next line's label
      for (const char* label : {"\n  PASS ", "\n  PART ", "\n  FAIL ", "\n  SKIP "}) end = std::min(end, output.find(label, at + 1));
      const std::string block = output.substr(at, end == std::string::npos ? std::string::npos : end - at);
      const std::size_t status_at = block.find_first_not_of(' ', block.find('\n') + 1);
      v.status = block.substr(status_at, block.find(':', status_at) - status_at);
      const std::size_t what_at = status_at + v.status.size() + 2;
      v.what = block.substr(what_at, block.find('\n', what_at) - what_at);
      // Undefined behaviour: the case is judged by what Oclgrind found at its shape; what the
      // device computed follows, as a lab program's --check, which judges the device alone, sees it.
      if (v.what.rfind("undefined behaviour: ", 0) == 0) {
        v.undefined = true;
        const std::string wrong = "(on the device it computed a wrong result: ";
        const std::size_t got = v.what.find(wrong);
        v.device_passed = v.what.find("(on the device it passed this time)") != std::string::npos;
        v.what = got == std::string::npos ? "" : v.what.substr(got + wrong.size(), v.what.rfind(" this time)") - got - wrong.size());
      }
      const std::vector<std::string> hints = hints_in(block);
      if (!hints.empty()) v.hint = hints.front();
    }
    verdicts.push_back(v);
  }
  return verdicts;
}

struct Checked {
  test::Command grader;
  std::vector<CaseVerdict> cases;
};

// `grader check LAB` on `kernel` placed as the lab's file in a folder of its own. With
// `cases_only`, under a copy of the lab's spec without its speed case and its Oclgrind algorithm
// check (the same cases, the kit's stored references): what a lab program's --check compares.
Checked grader_check(const json& spec, const std::string& kernel, const test::TempDir& dir, bool cases_only = false) {
  const std::string lab = spec.at("lab");
  test::write(dir / lab / spec.at("kernel_file").get<std::string>(), kernel);
  std::string specs;
  if (cases_only) {
    json copy = spec;
    copy.erase("speed");
    copy.erase("algorithm");
    test::write(dir / "specs" / (lab + ".json"), copy.dump(2));
    specs = "--specs '" + (dir / "specs").string() + "' ";
  }
  Checked c{test::run_program("grader", specs + "check " + lab.substr(0, 2) + " --dir '" + dir.path.string() + "'"), {}};
  c.cases = visible_verdicts(spec, c.grader.output);
  return c;
}

// The lab program's --check of `kernel` on one case, one PoCL thread, one run, with guard bytes past
// each buffer (kit/buffer.hpp: a mutant reading past its input reads the same as in the grader's
// case child), as the grader runs it; stopped after `limits` times the case's time limit (a mutant
// can loop for ever; the grader stops it). Twice where grader check said the case timed out; else
// twenty times, a guard against a hang only: a case the grader finished is not lost to a loaded
// machine here.
test::Command program_check(const std::string& lab, const json& c, const std::filesystem::path& kernel, int limits = 20) {
  const int limit = limits * spec_json_of(lab).at("time_limit_s").get<int>();
  return test::run_command("timeout " + std::to_string(limit) + " env " + kOnePoclThread + kit::kBufferGuardVariable + "=1 '" + KIT_BIN_DIR + "/" + lab + "' --check --warmup 0 --repeats 1 -k '" +
                           kernel.string() + "' " + program_options(lab, c));
}

}  // namespace

TEST_CASE("a lab program's --check and grader check agree on the kit's mutants of labs 03 to 06") {
  std::size_t compared = 0, both_failed = 0, picked = 0, different_results = 0, undefined_only = 0;
  for (const std::string lab : {"03-array-mult-reduce", "04-tree-reductions", "05-multipass-reductions", "06-cascade-reduction"}) {
    const json spec = spec_json_of(lab);
    const std::vector<grader::Mutant> all =
        grader::make_mutants(test::read(kit::root() / "solutions" / lab / spec.at("kernel_file").get<std::string>()));
    const std::vector<std::size_t> chosen = grader::pick_evenly(all.size(), kMutantsPerLab);
    picked += chosen.size();
    for (const std::size_t i : chosen) {
      const grader::Mutant& m = all[i];
      CAPTURE(lab);
      CAPTURE(m.line);
      CAPTURE(m.after);
      test::TempDir dir;
      const Checked checked = grader_check(spec, m.source, dir, true);
      const std::filesystem::path kernel = dir / lab / spec.at("kernel_file").get<std::string>();
      if (checked.grader.output.find("build-error:") != std::string::npos || checked.grader.output.find("rejected:") != std::string::npos) {
        // Not built: the program refuses it too.
        CHECK(program_check(lab, checked.cases.front().params, kernel).exit_code != 0);
        ++compared;
        continue;
      }
      // The mutants the visible cases decide: the first case that fails; else the program passes
      // the last visible case (the largest of most labs) as the grader passes them all.
      const auto failed = std::find_if(checked.cases.begin(), checked.cases.end(), [](const CaseVerdict& v) { return v.failed; });
      const CaseVerdict* first = failed != checked.cases.end() ? &*failed : &checked.cases.back();
      // A case the grader did not run for the time budget (a later case of a kernel function that
      // did not finish one alone) is compared on the case that timed out, which it names: the
      // program runs whatever case it is given, and on the one not run would loop to its limit.
      if (first->status == "not run") {
        const std::string before = "the kernel did not finish the case \"";
        const std::size_t named = first->what.find(before);
        REQUIRE_MESSAGE(named != std::string::npos, first->what);
        const std::string name = first->what.substr(named + before.size(), first->what.find('"', named + before.size()) - named - before.size());
        const auto timed_out = std::find_if(checked.cases.begin(), checked.cases.end(),
                                            [&](const CaseVerdict& v) { return v.params.at("name") == name; });
        REQUIRE_MESSAGE(timed_out != checked.cases.end(), name);
        CHECK(timed_out->status == "timeout");
        first = &*timed_out;
      }
      const CaseVerdict& on = *first;
      const test::Command program = program_check(lab, on.params, kernel, on.status == "timeout" ? 2 : 20);
      CAPTURE(checked.grader.output);
      CAPTURE(program.output);
      // A program's --check judges what the device computed; grader check also fails a case whose
      // shape shows undefined behaviour under Oclgrind where the device computed it right.
      if (on.undefined && on.device_passed) {
        CHECK(program.exit_code == 0);
        ++undefined_only;
      } else {
        CHECK((program.exit_code != 0) == on.failed);
      }
      ++compared;
      // The diagnosis of a wrong result is the lab's; a time-out or a crash has none to compare.
      if (on.failed && on.status == "wrong" && program.exit_code != 0) {
        // A mutant with undefined behaviour (a division by zero) may give the two runs different
        // results; the hint follows the result, so where the program prints its result in the
        // grader's words ("CHECK FAILED: ..."), hints are compared when the result is the same.
        const std::size_t said = program.output.find("CHECK FAILED: ");
        const std::string program_what = said == std::string::npos ? "" : program.output.substr(said + 14, program.output.find('\n', said) - said - 14);
        if (said != std::string::npos && program_what != on.what) {
          MESSAGE("hints not compared: the program got '" << program_what << "', grader check '" << on.what << "'");
          ++different_results;
          continue;
        }
        ++both_failed;
        const std::vector<std::string> hints = hints_in(program.output);
        REQUIRE(!hints.empty());
        // The lab's hint, the same; `grader check` may add what Oclgrind found on the case after it.
        // Where Oclgrind found a race or an access out of bounds, that leads instead, and the lab's
        // hint follows it, or is withheld as read from an undefined result (then said so).
        if (on.hint.rfind("Oclgrind, on ", 0) == 0) {
          const std::string guess = hints.front().substr(0, hints.front().find(" The compiler warned"));
          // (its first letter may be made upper case as it follows a sentence)
          CHECK((on.hint.find(guess.substr(1)) != std::string::npos || on.hint.find("no other cause is read from it") != std::string::npos ||
                 on.hint.find("OpenCL promises no lock-step") != std::string::npos || on.hint.find("runs once per work-group") != std::string::npos));
        } else {
          CHECK(on.hint.rfind(hints.front(), 0) == 0);
          CHECK((on.hint == hints.front() || on.hint.find("Oclgrind, on ", hints.front().size()) != std::string::npos));
        }
      }
    }
  }
  CHECK(picked >= 4 * std::min<std::size_t>(kMutantsPerLab, 4));
  CHECK(compared == picked);  // every mutant picked was compared
  CHECK(both_failed > 0);  // the rule picks mutants that the visible cases catch
  CHECK(different_results <= 1);  // a rare mutant; the rest are compared hint for hint
  MESSAGE(undefined_only, " mutant(s) the device computed right where Oclgrind found undefined behaviour at the case's shape");
}

namespace {

// The solution of lab 03 with one change, checked to occur once.
std::string lab03_with(const std::string& from, const std::string& to) {
  return test::replace_once(test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"), from, to);
}

}  // namespace

TEST_CASE("lab 03 without the loop's barrier gets one hint from the program on real data and several threads and from grader check") {
  const json spec = spec_json_of("03-array-mult-reduce");
  test::TempDir dir;
  const std::string kernel = lab03_with("        barrier(CLK_LOCAL_MEM_FENCE);   // every value of the previous level is in prods\n", "");
  const Checked checked = grader_check(spec, kernel, dir);
  CHECK(checked.grader.exit_code == 1);
  const std::vector<std::string> from_grader = hints_in(checked.grader.output);
  REQUIRE(!from_grader.empty());
  CHECK(from_grader.front().find("tree loop (line ") != std::string::npos);
  CHECK(from_grader.front().find("Put barrier(CLK_LOCAL_MEM_FENCE) inside the loop") != std::string::npos);
  // As a student runs it: many work-groups of real data, warm-up runs, every core's PoCL thread.
  const auto program = test::run_program("03-array-mult-reduce", "--check -n 1Mi -l 256 --data real -k '" +
                                                                     (dir / "03-array-mult-reduce" / "ArrayMultReduce.cl").string() + "'");
  CAPTURE(program.output);
  CHECK(program.exit_code == 1);
  const std::vector<std::string> from_program = hints_in(program.output);
  REQUIRE(!from_program.empty());
  // grader check leads with the race Oclgrind found on the case; the program's hint, which agrees, follows it.
  CHECK(from_grader.front().rfind("Oclgrind, on this case: ", 0) == 0);
  CHECK(from_grader.front().find(from_program.front()) != std::string::npos);
}

TEST_CASE("a kernel whose loop has its barrier is not told to add one, and sees the compiler's warning on its own line") {
  const json spec = spec_json_of("03-array-mult-reduce");
  test::TempDir dir;
  // The group id where the local id belongs, and `&` below `==`: wgNum & (mask == 0) is always 0.
  const std::string kernel = lab03_with("        if ((tnum & mask) == 0)\n", "        if (wgNum & mask == 0)\n");
  int line = 1;
  for (std::size_t i = 0; i < kernel.find("if (wgNum & mask == 0)"); ++i) line += kernel[i] == '\n';
  const std::string warning = "ArrayMultReduce.cl:" + std::to_string(line) + ": & has lower precedence than ==";
  const Checked checked = grader_check(spec, kernel, dir);
  CHECK(checked.grader.exit_code == 1);
  const std::vector<std::string> from_grader = hints_in(checked.grader.output);
  REQUIRE(!from_grader.empty());
  CHECK(from_grader.front().find("Put barrier") == std::string::npos);
  CHECK(from_grader.front().find("although the loop has its barrier") != std::string::npos);
  CHECK(from_grader.front().find(warning) != std::string::npos);
  const auto program = test::run_program("03-array-mult-reduce", "--check -n 64Ki -l 32 --data int -k '" +
                                                                     (dir / "03-array-mult-reduce" / "ArrayMultReduce.cl").string() + "'");
  CHECK(program.exit_code == 1);
  const std::vector<std::string> from_program = hints_in(program.output);
  REQUIRE(!from_program.empty());
  CHECK(from_grader.front().rfind(from_program.front(), 0) == 0);  // grader check may add what Oclgrind found on the case
}

TEST_CASE("a kernel that never writes dC is not told about dC[get_global_id(0)] unless it writes there") {
  const json spec = spec_json_of("03-array-mult-reduce");
  // No store at all; a store at the global id, kept inside dC (so work-group 1's slot stays unwritten).
  for (const auto& [store, named] : {std::pair{";", false}, std::pair{"if (gid < get_num_groups(0)) dC[gid] = prods[0];", true}}) {
    CAPTURE(store);
    test::TempDir dir;
    const Checked checked = grader_check(spec, lab03_with("        dC[wgNum] = prods[0];\n", std::string("        ") + store + "\n"), dir);
    const std::vector<std::string> hints = hints_in(checked.grader.output);
    REQUIRE(!hints.empty());
    CHECK(hints.front().find("was never written") != std::string::npos);
    CHECK((hints.front().find("(not dC[get_global_id(0)])") != std::string::npos) == named);
  }
}

TEST_CASE("lab 05's ping-pong tree without its barrier is told so, by the program and by grader check") {
  const json spec = spec_json_of("05-multipass-reductions");
  const std::string solution = test::read(kit::root() / "solutions/05-multipass-reductions/MultipassReductions.cl");
  const std::size_t kernel_at = solution.find("pingpong_pass(");
  const std::string barrier = "        barrier(CLK_LOCAL_MEM_FENCE);\n";
  const std::size_t at = solution.find(barrier, kernel_at);
  REQUIRE(at != std::string::npos);
  std::string kernel = solution;
  kernel.erase(at, barrier.size());
  test::TempDir dir;
  const Checked checked = grader_check(spec, kernel, dir);
  // Oclgrind finds the race at every case's shape of more than one work-item: where the device
  // got the result right by chance the finding alone tells the fault, the loop without its barrier.
  const auto first = std::find_if(checked.cases.begin(), checked.cases.end(), [](const CaseVerdict& v) { return v.failed; });
  REQUIRE(first != checked.cases.end());
  CHECK(first->hint.rfind("Oclgrind, on this case: read-write data race in local memory (kernel pingpong_pass)", 0) == 0);
  CHECK(first->hint.find("The race is inside the loop at MultipassReductions.cl:") != std::string::npos);
  CHECK(first->hint.find("put barrier(CLK_LOCAL_MEM_FENCE) inside the loop") != std::string::npos);
  // Where the device got it wrong too, the program's --check fails it with the lab's hint, and
  // grader check leads with the race and gives that hint, which agrees, after it.
  const auto failed = std::find_if(checked.cases.begin(), checked.cases.end(), [](const CaseVerdict& v) { return v.failed && !v.device_passed; });
  REQUIRE(failed != checked.cases.end());
  CHECK(failed->hint.find("pingpong_pass's tree loop (line ") != std::string::npos);
  CHECK(failed->hint.find("Put barrier(CLK_LOCAL_MEM_FENCE) inside the loop") != std::string::npos);
  const auto program = program_check("05-multipass-reductions", failed->params, dir / "05-multipass-reductions" / "MultipassReductions.cl");
  const std::vector<std::string> from_program = hints_in(program.output);
  REQUIRE(!from_program.empty());
  CHECK(failed->hint.rfind("Oclgrind, on this case: ", 0) == 0);
  CHECK(failed->hint.find(from_program.front()) != std::string::npos);
}
