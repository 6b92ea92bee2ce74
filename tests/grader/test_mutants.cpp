// `grader mutants`: the mutation generator on a small kernel, and an end-to-end run on labs 01 and
// 03 whose printed scores must follow from its report (no particular score is asserted).
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "core/files.hpp"
#include "export/reports.hpp"
#include "spec/spec.hpp"
#include "kit/paths.hpp"
#include "tools/mutants.hpp"
#include "tools/mutate.hpp"
#include "support.hpp"

using json = nlohmann::json;

namespace {
const std::string kKernel = R"(// a comment: x < n, barrier(CLK_LOCAL_MEM_FENCE); get_local_id(0) + 1
#define LIMIT (2 * 4 < 1)
/* block comment: a + b, i <= n */
kernel void k(global const float *in, global float *out, local float *tmp, const int n)
{
    int i = get_local_id(0);
    int g = get_global_id(0);
    tmp[i] = (g < n) ? in[g] * 2.0f : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 1; s < 8; s *= 2)
        if (i >= s && (i >> 1) != 0) tmp[i] += tmp[i - s];
    printf("a < b + c\n");
    out[g] = tmp[i];
}
)";

// Whether some mutant of `op` turns line `line` into `after`.
bool has(const std::vector<grader::Mutant>& ms, const std::string& op, int line, const std::string& after) {
  for (const auto& m : ms)
    if (m.op == op && m.line == line && m.after == after) return true;
  return false;
}
}  // namespace

TEST_CASE("mutants: the generator makes one-place changes of each kind and leaves comments and #define lines alone") {
  const auto ms = grader::make_mutants(kKernel);
  REQUIRE(ms.size() > 20);
  CHECK(has(ms, "relational", 8, "tmp[i] = (g <= n) ? in[g] * 2.0f : 0.0f;"));
  CHECK(has(ms, "relational", 11, "if (i > s && (i >> 1) != 0) tmp[i] += tmp[i - s];"));
  CHECK(has(ms, "relational", 11, "if (i >= s && (i >> 1) == 0) tmp[i] += tmp[i - s];"));
  CHECK(has(ms, "off-by-one", 8, "tmp[i] = (g < n - 1) ? in[g] * 2.0f : 0.0f;"));
  CHECK(has(ms, "off-by-one", 10, "for (int s = 1; s < 9; s *= 2)"));
  CHECK(has(ms, "off-by-one", 10, "for (int s = 1; s < 7; s *= 2)"));
  CHECK(has(ms, "arithmetic", 8, "tmp[i] = (g < n) ? in[g] / 2.0f : 0.0f;"));
  CHECK(has(ms, "arithmetic", 10, "for (int s = 1; s < 8; s /= 2)"));
  CHECK(has(ms, "arithmetic", 10, "for (int s = 1; s < 8; s *= 3)"));
  CHECK(has(ms, "arithmetic", 11, "if (i >= s && (i >> 1) != 0) tmp[i] -= tmp[i - s];"));
  CHECK(has(ms, "arithmetic", 11, "if (i >= s && (i >> 1) != 0) tmp[i] += tmp[i + s];"));
  CHECK(has(ms, "barrier", 9, ";"));
  CHECK(has(ms, "swap-id", 6, "int i = get_global_id(0);"));
  CHECK(has(ms, "swap-id", 6, "int i = get_group_id(0);"));
  CHECK(has(ms, "swap-id", 7, "int g = get_local_id(0);"));
  CHECK(has(ms, "constant", 10, "for (int s = 0; s < 8; s *= 2)"));
  CHECK(has(ms, "constant", 10, "for (int s = 1; s < 8; s *= 4)"));
  CHECK(has(ms, "constant", 6, "int i = get_local_id(1);"));

  std::set<std::string> texts;
  for (const auto& m : ms) {
    CAPTURE(m.op);
    CAPTURE(m.after);
    CHECK(m.source != kKernel);
    CHECK(texts.insert(m.source).second);  // no two mutants alike
    // Exactly one place differs: the recorded span, inside one line, and nothing else.
    CHECK(m.source == kKernel.substr(0, m.offset) + m.replacement + kKernel.substr(m.offset + m.length));
    CHECK(kKernel.substr(m.offset, m.length).find('\n') == std::string::npos);
    CHECK(m.before != m.after);
    // Comments, the #define line, the pointer declarations and the string literal are untouched.
    CHECK(m.line != 1);
    CHECK(m.line != 2);
    CHECK(m.line != 3);
    CHECK(m.line != 4);
    CHECK(m.line != 5);
    CHECK(m.line != 12);
    const bool shift_kept = m.after.find(">>") != std::string::npos || m.before.find(">>") == std::string::npos;
    CHECK(shift_kept);  // `>>` is never split
  }
  CHECK(grader::pick_evenly(10, 4) == std::vector<std::size_t>{0, 2, 5, 7});
  CHECK(grader::pick_evenly(3, 0) == std::vector<std::size_t>{0, 1, 2});
  CHECK(grader::pick_evenly(3, 5) == std::vector<std::size_t>{0, 1, 2});
}

TEST_CASE("mutants: a fence deleted and an atomic update made plain, as a ticket counter's mistakes") {
  const std::string kernel = R"(kernel void k(global float *partials, global uint *ticket, global int *total, local uint *last)
{
    partials[get_group_id(0)] = 1.0f;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    *last = (atomic_inc(ticket) == get_num_groups(0) - 1);
    atomic_add(total, (int)get_group_id(0));
    atomic_xchg(ticket, 0);
    atomic_cmpxchg(ticket, 0u, 1u);
}
)";
  const auto ms = grader::make_mutants(kernel);
  CHECK(has(ms, "fence", 4, ";"));
  CHECK(has(ms, "atomic", 5, "*last = ((*(ticket))++ == get_num_groups(0) - 1);"));
  CHECK(has(ms, "atomic", 6, "(*(total) += ((int)get_group_id(0)));"));
  CHECK(has(ms, "atomic", 7, "(*(ticket) = (0));"));
  for (const auto& m : ms) CHECK_FALSE((m.op == "atomic" && m.line == 8));  // a compare-and-swap has no plain form of one statement
}

TEST_CASE("mutants: every known-equivalent list parses and every entry gives a reason") {
  const auto dir = kit::root() / "grader" / "mutants";
  if (!std::filesystem::exists(dir)) return;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    CAPTURE(e.path().string());
    for (const auto& k : grader::load_equivalents(e.path())) CHECK(k.why.size() > 20);
  }
  test::TempDir tmp;
  test::write(tmp / "x.equivalent.json", R"({"equivalent": [{"operator": "relational", "line": 3, "after": "x"}]})");
  std::string error;
  try {
    grader::load_equivalents(tmp / "x.equivalent.json");
  } catch (const std::exception& e) {
    error = e.what();
  }
  CHECK(error.find("x.equivalent.json") != std::string::npos);  // an entry without "why" is refused, naming the file
}

TEST_CASE("mutants: an end-to-end run on labs 01 and 03 prints scores that follow from mutants.json") {
  test::TempDir out;
  const auto run = test::run_program("grader", "mutants 01 03 --max-per-lab 12 --no-races --out " + out.path.string());
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const json report = json::parse(test::read(out / "mutants.json"));
  REQUIRE(report["labs"].size() == 2);
  CHECK(report["safety"] == false);
  for (const json& lab : report["labs"]) {
    const std::string name = lab["lab"];
    CAPTURE(name);
    CHECK(lab["control_points"] == lab["full_points"]);  // the control, the solution, scored full
    CHECK(run.output.find("control: the solution scored " + grader::format_points(lab["full_points"].get<double>()) + "/" +
                          grader::format_points(lab["full_points"].get<double>())) != std::string::npos);
    // Count the statuses from the mutants themselves, not from the summary.
    std::map<std::string, std::size_t> n;
    std::size_t made = 0;
    for (const json& m : report["mutants"])
      if (m["lab"] == name) {
        ++made, ++n[m["status"].get<std::string>()];
        CHECK(m["line"].get<int>() > 0);
        CHECK(m["before"] != m["after"]);
        // Full points: a survivor, or a mutant listed as equivalent in grader/mutants/.
        CHECK((m["status"] == "survived" || m["status"] == "equivalent") == (m["points"] == m["max_points"]));
        CHECK(std::set<std::string>{"relational", "arithmetic", "off-by-one", "barrier", "swap-id", "constant"}.count(m["operator"]));
        // Every survivor is listed with its operator, line, and the line before and after.
        if (m["status"] == "survived")
          CHECK(run.output.find("survived: " + m["id"].get<std::string>() + " " + m["operator"].get<std::string>() + ", line " +
                                std::to_string(m["line"].get<int>()) + "\n    before: " + m["before"].get<std::string>() +
                                "\n    after:  " + m["after"].get<std::string>() + "\n") != std::string::npos);
      }
    CHECK(made == (lab["generated"] < 12 ? lab["generated"].get<std::size_t>() : 12));
    CHECK(made == lab["made"]);
    CHECK(n["killed"] == lab["killed"]);
    CHECK(n["survived"] == lab["survived"]);
    CHECK(n["not-compiled"] == lab["not_compiled"]);
    CHECK(n["equivalent"] == lab["equivalent"]);
    CHECK(made == n["killed"] + n["survived"] + n["not-compiled"] + n["equivalent"] + n["error"]);
    CHECK(n["error"] == 0);
    // The printed score is killed / (made - not compiled - equivalent - errors), from the report.
    const std::size_t counted = made - n["not-compiled"] - n["equivalent"] - n["error"];
    REQUIRE(counted > 0);
    char score[64];
    std::snprintf(score, sizeof score, "%zu/%zu = %.1f%%", n["killed"], counted, 100.0 * n["killed"] / counted);
    const std::string summary = name + ": " + std::to_string(made) + " mutants made (of " +
                                std::to_string(lab["generated"].get<std::size_t>()) + "), " + std::to_string(n["not-compiled"]) +
                                " not compiled, " + std::to_string(n["killed"]) + " killed, " + std::to_string(n["survived"]) +
                                " survived";
    CHECK(run.output.find(summary) != std::string::npos);
    CHECK(run.output.find("mutation score: " + std::string(score)) != std::string::npos);
    CHECK(lab["score"].get<double>() == doctest::Approx(double(n["killed"]) / counted));
    const std::regex row(name + " +" + std::to_string(made) + " +" + std::to_string(n["not-compiled"]) + " +" +
                         std::to_string(n["killed"]) + " +" + std::to_string(n["survived"]) + " .*\\d+ s\n");
    CHECK(std::regex_search(run.output, row));
  }
  // Mutants are written under OUT, never into solutions/.
  CHECK(std::filesystem::exists(out / "mutants-01-array-mult" / "control" / "solution" / "ArrayMult.cl"));
  CHECK(test::read(out / "mutants-01-array-mult" / "control" / "solution" / "ArrayMult.cl") ==
        test::read(kit::root() / "solutions" / "01-array-mult" / "ArrayMult.cl"));
  // A second run into the same folder starts afresh; a folder it did not make is never emptied.
  test::write(out / "mutants-02-array-mult-add" / "keep.txt", "not ours");
  const auto refused = test::run_program("grader", "mutants 02 --max-per-lab 1 --no-races --out " + out.path.string());
  CHECK(refused.exit_code != 0);
  CHECK(refused.output.find("was not made by grader mutants") != std::string::npos);
  CHECK(test::read(out / "mutants-02-array-mult-add" / "keep.txt") == "not ours");
}

TEST_CASE("mutants: every mutant listed as equivalent is one the generator makes of the lab's solution, with a reason") {
  // A list entry that matches no mutant (the solution changed, a line moved) would silently stop
  // counting; each entry must name a mutant of today's solution and say why it cannot be killed.
  for (const auto& entry : std::filesystem::directory_iterator(kit::root() / "grader" / "mutants")) {
    const std::string lab = entry.path().filename().string();
    CAPTURE(lab);
    const auto spec = grader::load_specs(kit::root() / "grader" / "specs", {lab.substr(0, 2)}).at(0);
    const auto mutants = grader::make_mutants(test::read(kit::root() / "solutions" / spec.lab / spec.kernel_file));
    const auto known = grader::load_equivalents(entry.path());
    CHECK(!known.empty());
    for (const grader::KnownEquivalent& k : known) {
      CAPTURE(k.line);
      CAPTURE(k.after);
      CHECK(k.why.size() > 40);
      const bool made = std::any_of(mutants.begin(), mutants.end(), [&](const grader::Mutant& m) {
        return m.op == k.op && m.line == k.line && m.after == k.after;
      });
      CHECK(made);
    }
  }
}
