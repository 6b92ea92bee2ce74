// The ticket counter's fence check (lab 08's dot_single_pass), judged from the order of the
// kernel's accesses and fences under Oclgrind, by buffer argument position: orders built by hand
// pass and fail as the memory model says; end to end, the solution with every parameter renamed
// keeps the check, and each of grader mutants' fence deletions in dot_single_pass loses it,
// naming its lines.
#include <doctest/doctest.h>

#include <algorithm>
#include <regex>

#include "kit/paths.hpp"
#include "oclgrind/algorithm.hpp"
#include "oclgrind/ticket_fences.hpp"
#include "spec/spec.hpp"
#include "support.hpp"
#include "tools/mutate.hpp"

namespace {

using grader::OrderEvent;

// A launch of dot_single_pass with one group whose work-items did `events` in this order
// (arguments: 3 the partials, 4 the ticket).
std::vector<grader::KernelWork> launch(const std::vector<OrderEvent>& events) {
  grader::KernelWork k;
  k.kernel = "dot_single_pass", k.global = {8, 1, 1}, k.local = {4, 1, 1};
  k.has_order = true;
  k.order.push_back({1, events});
  return {k};
}

OrderEvent ev(std::size_t item, std::size_t phase, char kind, long arg, int line) { return {item, phase, kind, arg, line, 1}; }

std::string solution() { return test::read(kit::lab_file("08-atomics-and-scan", "AtomicsScan.cl", true)); }

// The 1-based line of the solution on which `text` first starts inside dot_single_pass.
int fence_line_of(const std::string& s, const std::string& text) {
  const std::size_t at = s.find(text, s.find("dot_single_pass(global const float"));
  REQUIRE(at != std::string::npos);
  return int(1 + std::count(s.begin(), s.begin() + long(at), '\n'));
}

// `grader check 08` on `source`: the fence line's label and what follows it.
std::string fence_line(const std::string& source) {
  test::TempDir dir;
  test::write(dir / "08-atomics-and-scan" / "AtomicsScan.cl", source);
  const auto run = test::run_program("grader", "check 08 --dir " + dir.path.string());
  const std::size_t at = run.output.find("algorithm: dot_single_pass's fences");
  REQUIRE_MESSAGE(at != std::string::npos, run.output);
  const std::size_t start = run.output.rfind('\n', at) + 1;
  return run.output.substr(start, run.output.find("\n  ", run.output.find('\n', at) + 1) - start);
}

}  // namespace

TEST_CASE("ticket fences: from the order of accesses, a fenced ticket passes and each missing fence fails naming its lines") {
  const grader::TicketFences f;
  // Work-item 0 stores, fences, takes the ticket, fences; after a barrier work-item 1 reads.
  const std::vector<OrderEvent> good = {ev(0, 0, 'S', 3, 10), ev(0, 0, 'F', -1, 11), ev(0, 0, 'A', 4, 12), ev(0, 0, 'F', -1, 13),
                                        ev(0, 1, 'L', 3, 20), ev(1, 1, 'L', 3, 20)};
  CHECK(grader::ticket_fence_fault(launch(good), f) == "");
  // write_mem_fence before the ticket and read_mem_fence after it are enough.
  std::vector<OrderEvent> split = good;
  split[1].kind = 'W', split[3].kind = 'R';
  CHECK(grader::ticket_fence_fault(launch(split), f) == "");
  // The order `good` with the fence at `at` removed (kind 0) or of another kind: the fault names `lines`.
  const auto fails_naming = [&](std::size_t at, char kind, const std::string& lines) {
    std::vector<OrderEvent> e = good;
    if (kind) e[at].kind = kind;
    else e.erase(e.begin() + long(at));
    const std::string fault = grader::ticket_fence_fault(launch(e), f);
    CHECK_MESSAGE(fault.find(lines) != std::string::npos, fault);
  };
  // No fence between store and ticket; a read fence there does not order the store.
  for (char kind : {'\0', 'R'})
    fails_naming(1, kind, "between the store into the partials (argument 4) (line 10) and the ticket's atomic on the ticket (argument 5) (line 12)");
  // No fence after the ticket, or a write fence there: the reads are not ordered after it.
  for (char kind : {'\0', 'W'})
    fails_naming(3, kind, "between the ticket's atomic on the ticket (argument 5) (line 12) and the read of the partials (argument 4) (line 20)");
  // Another work-item's fence does not order the ticket-taker's accesses.
  std::vector<OrderEvent> others = good;
  others[1].item = 1;
  CHECK(grader::ticket_fence_fault(launch(others), f) != "");
  // A ticket taken before any store into the partials, and no ticket at all, are named.
  CHECK(grader::ticket_fence_fault(launch({ev(0, 0, 'A', 4, 12), ev(0, 0, 'S', 3, 13)}), f).find("without first storing") != std::string::npos);
  CHECK(grader::ticket_fence_fault(launch({ev(0, 0, 'S', 3, 10)}), f).find("takes no ticket") != std::string::npos);
  CHECK(grader::ticket_fence_fault({}, f).find("was not launched") != std::string::npos);
}

TEST_CASE("ticket fences: lab 08's spec check names arguments by position, and carries the verdict to a result line") {
  const grader::LabSpec spec = grader::load_specs(kit::root() / "grader" / "specs", {"08"}).at(0);
  REQUIRE(spec.algorithm);
  // The fences' check is the first of lab 08's algorithm checks (the single pass's spread of adds follows it).
  REQUIRE_FALSE(spec.algorithm->checks.empty());
  const grader::AlgorithmCheck& check = spec.algorithm->checks[0];
  REQUIRE(check.fences);
  for (std::size_t i = 1; i < spec.algorithm->checks.size(); ++i) CHECK_FALSE(spec.algorithm->checks[i].fences);
  CHECK(check.fences->store.argument == 3);
  CHECK(check.fences->ticket.argument == 4);
  const auto good = grader::algorithm_results(*spec.algorithm, launch({ev(0, 0, 'S', 3, 1), ev(0, 0, 'F', -1, 2), ev(0, 0, 'A', 4, 3),
                                                                       ev(0, 0, 'F', -1, 4), ev(0, 1, 'L', 3, 5)}))
                        .at(0);
  CHECK(good.name == "algorithm: dot_single_pass's fences (traced under Oclgrind)");
  CHECK(good.status == grader::CaseStatus::Passed);
  CHECK(good.points == check.points);
  const auto bad = grader::algorithm_results(*spec.algorithm, launch({ev(0, 0, 'S', 3, 1), ev(0, 0, 'A', 4, 3), ev(0, 1, 'L', 3, 5)})).at(0);
  CHECK(bad.status == grader::CaseStatus::Wrong);
  CHECK(bad.points == 0);
  CHECK(bad.hint.find("CLK_GLOBAL_MEM_FENCE") != std::string::npos);
}

TEST_CASE("ticket fences end to end: renamed parameters keep the check, and each fence deletion of grader mutants loses it at its lines") {
  const std::string s = solution();
  // Every parameter of dot_single_pass renamed: nothing in the check may depend on a name.
  std::string renamed = s;
  const std::size_t from = renamed.find("dot_single_pass(global const float");
  REQUIRE(from != std::string::npos);
  std::string body = renamed.substr(from);
  for (const auto& [name, to] : std::vector<std::pair<std::string, std::string>>{
           {"dA", "xa"}, {"dB", "xb"}, {"scratch", "tmp"}, {"partials", "per_group"}, {"ticket", "counter"}, {"result", "out"}, {"n", "count"}})
    body = std::regex_replace(body, std::regex("\\b" + name + "\\b"), to);
  renamed = renamed.substr(0, from) + body;
  CHECK(fence_line(renamed).rfind("  PASS", 0) == 0);

  const int first = fence_line_of(s, "dot_single_pass(global const float"), last = fence_line_of(s, "atomic_xchg(ticket, 0);");
  int fences = 0;
  for (const grader::Mutant& m : grader::make_mutants(s)) {
    if (m.op != "fence" || m.line < first || m.line > last) continue;
    ++fences;
    const std::string line = fence_line(m.source);
    CAPTURE(m.line);
    CHECK(line.rfind("  FAIL", 0) == 0);
    CHECK(line.find("line " + std::to_string(fence_line_of(s, "atomic_inc(ticket)"))) != std::string::npos);  // the ticket's line
  }
  CHECK(fences == 2);
}
