// The ticket counter's fence check (lab 08's dot_single_pass), read from the kernel's code: the
// solution passes, and so does a write_mem_fence / read_mem_fence variant; each fence removed, or
// replaced by a barrier, fails naming its lines; `grader mutants`' two fence deletions in
// dot_single_pass fail; the spec's check carries it to a result line.
#include <doctest/doctest.h>

#include "kit/paths.hpp"
#include "oclgrind/algorithm.hpp"
#include "oclgrind/ticket_fences.hpp"
#include "spec/spec.hpp"
#include "support.hpp"
#include "tools/mutate.hpp"

namespace {

const std::string kRelease = "        partials[get_group_id(0)] = scratch[0];\n        mem_fence(CLK_GLOBAL_MEM_FENCE);\n";
const std::string kAcquire = "        mem_fence(CLK_GLOBAL_MEM_FENCE);    // and the reads below stay behind the ticket\n";

std::string solution() { return test::read(kit::lab_file("08-atomics-and-scan", "AtomicsScan.cl", true)); }

// The solution with `from` (which must be there once) replaced by `to`.
std::string edited(const std::string& from, const std::string& to) {
  std::string s = solution();
  const std::size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  REQUIRE(s.find(from, at + 1) == std::string::npos);
  return s.replace(at, from.size(), to);
}

// The 1-based line of the solution on which `text` first starts inside dot_single_pass.
std::string line_of(const std::string& text) {
  const std::string s = solution();
  const std::size_t at = s.find(text, s.find("dot_single_pass(global const float"));
  REQUIRE(at != std::string::npos);
  return "line " + std::to_string(1 + std::count(s.begin(), s.begin() + long(at), '\n'));
}

}  // namespace

TEST_CASE("ticket fences: the solution and a write_mem_fence / read_mem_fence variant pass") {
  CHECK(grader::ticket_fence_fault(solution(), {}) == "");
  std::string variant = edited(kRelease, "        partials[get_group_id(0)] = scratch[0];\n        write_mem_fence(CLK_GLOBAL_MEM_FENCE);\n");
  const std::size_t at = variant.find(kAcquire);
  REQUIRE(at != std::string::npos);
  variant.replace(at, kAcquire.size(), "        read_mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n");
  CHECK(grader::ticket_fence_fault(variant, {}) == "");
}

TEST_CASE("ticket fences: each fence removed, or made a barrier or the wrong kind, fails naming its lines") {
  const std::string store = line_of("partials[get_group_id(0)] = scratch[0];"), ticket = line_of("last = (atomic_inc(ticket)");
  const std::string read = line_of("sum += partials[t];");
  const std::string no_release = grader::ticket_fence_fault(edited(kRelease, "        partials[get_group_id(0)] = scratch[0];\n\n"), {});
  CHECK_MESSAGE(no_release.find("between the store into partials (" + store + ") and the ticket's atomic_inc (" + ticket + ")") != std::string::npos, no_release);
  CHECK(no_release.find("write_mem_fence") != std::string::npos);
  const std::string no_acquire = grader::ticket_fence_fault(edited(kAcquire, "\n"), {});
  CHECK(no_acquire.find("between the ticket's atomic_inc (" + ticket + ") and the read of partials (" + read + ")") != std::string::npos);
  CHECK(no_acquire.find("read_mem_fence") != std::string::npos);
  // A barrier orders only within a work-group; a write fence does not order the reads after the
  // ticket, nor a read fence the store before it; a local fence orders no global memory.
  for (const char* release : {"barrier(CLK_GLOBAL_MEM_FENCE);", "read_mem_fence(CLK_GLOBAL_MEM_FENCE);", "mem_fence(CLK_LOCAL_MEM_FENCE);"})
    CHECK_MESSAGE(grader::ticket_fence_fault(edited(kRelease, "        partials[get_group_id(0)] = scratch[0];\n        " + std::string(release) + "\n"), {})
                          .find("between the store into partials") != std::string::npos,
                  std::string(release));
  for (const char* acquire : {"barrier(CLK_GLOBAL_MEM_FENCE);", "write_mem_fence(CLK_GLOBAL_MEM_FENCE);"})
    CHECK_MESSAGE(grader::ticket_fence_fault(edited(kAcquire, "        " + std::string(acquire) + "\n"), {}).find("and the read of partials") !=
                      std::string::npos,
                  std::string(acquire));
  // A fence only in a comment is no fence.
  CHECK(grader::ticket_fence_fault(edited(kAcquire, "        // mem_fence(CLK_GLOBAL_MEM_FENCE);\n"), {}) != "");
  CHECK(grader::ticket_fence_fault(test::read(kit::lab_file("08-atomics-and-scan", "AtomicsScan.cl", false)), {}) != "");
}

TEST_CASE("ticket fences: lab 08's spec check gives its points to the solution and none without a fence") {
  const grader::LabSpec spec = grader::load_specs(kit::root() / "grader" / "specs", {"08"}).at(0);
  REQUIRE(spec.algorithm);
  REQUIRE(spec.algorithm->checks.size() == 1);
  const grader::AlgorithmCheck& check = spec.algorithm->checks[0];
  REQUIRE(check.fences);
  CHECK(check.points > 0);
  const auto good = grader::algorithm_results(*spec.algorithm, {}, solution()).at(0);
  CHECK(good.name == "algorithm: dot_single_pass's fences (read from its code)");
  CHECK(good.status == grader::CaseStatus::Passed);
  CHECK(good.points == check.points);
  const auto bad = grader::algorithm_results(*spec.algorithm, {}, edited(kAcquire, "\n")).at(0);
  CHECK(bad.status == grader::CaseStatus::Wrong);
  CHECK(bad.points == 0);
  CHECK(bad.hint.find("CLK_GLOBAL_MEM_FENCE") != std::string::npos);
}

TEST_CASE("ticket fences: both of grader mutants' fence deletions in dot_single_pass are caught") {
  const std::string s = solution();
  const auto body_line = [&](const std::string& text) { return int(1 + std::count(s.begin(), s.begin() + long(s.find(text)), '\n')); };
  const int first = body_line("dot_single_pass(global const float"), last = body_line("atomic_xchg(ticket, 0);");
  int fences = 0;
  for (const grader::Mutant& m : grader::make_mutants(s)) {
    if (m.op != "fence" || m.line < first || m.line > last) continue;
    ++fences;
    CHECK_MESSAGE(grader::ticket_fence_fault(m.source, {}) != "", "line ", m.line, ": ", m.before, " -> ", m.after);
  }
  CHECK(fences == 2);
}
