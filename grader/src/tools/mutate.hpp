#pragma once
// Mutants of a kernel's source for `grader mutants`: small, one-place changes of the kinds students
// make (a relational or arithmetic operator, an off-by-one bound, a missing barrier or memory fence,
// an atomic update written as a plain one, the wrong id function, a changed constant, a grid-stride
// loop made a contiguous run per work-item). Comments, string literals and preprocessor lines are never changed.
#include <cstddef>
#include <string>
#include <vector>

namespace grader {

struct Mutant {
  // relational | arithmetic | off-by-one | barrier | fence | atomic | swap-id | constant | uncoalesced
  std::string op;
  std::size_t offset = 0, length = 0;  // the span of the original source that is replaced ...
  std::string replacement;             // ... by this
  int line = 0;                        // 1-based line of the change
  std::string before, after;           // that line before and after the change, trimmed
  std::string source;                  // the whole mutated source
};

// Every mutant of `source`, in source order; no two give the same text, none gives the original.
std::vector<Mutant> make_mutants(const std::string& source);

// `cap` indices spread evenly over 0 .. count-1 (all of them when cap is 0 or >= count): the same
// picks on every run.
std::vector<std::size_t> pick_evenly(std::size_t count, std::size_t cap);

}  // namespace grader
