#pragma once
// `grader mutants`: the grader measures itself. Mutants of each lab's solution kernel are graded
// like students (the batch code, one folder per mutant); a mutant that loses any point is killed,
// one that keeps full points survived: a change the cases (or the safety and algorithm checks) do
// not see, or an equivalent mutant, listed in grader/mutants/<lab>.equivalent.json with the reason.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/options.hpp"
#include "spec/spec.hpp"

namespace grader {

struct MutantsOptions {
  std::filesystem::path out, references, solutions;
  std::filesystem::path equivalents;  // the folder of <lab>.equivalent.json files
  std::vector<LabSpec> specs;
  GradingOptions grading{};     // its Oclgrind checks: All, or AlgorithmOnly for --no-races
  int jobs = 1;
  std::size_t max_per_lab = 0;  // 0: every mutant
  std::string only_operator;    // "": every operator; else only mutants of this one (e.g. "uncoalesced")
  bool metamorphic = false;     // also grade each kernel renamed, re-laid and rewritten (tools/rewrites.hpp) and compare
  std::vector<std::string> variants;  // with metamorphic: only these variants (tools/variants.hpp); empty: every one
};

// A mutant listed as equivalent: it computes what the solution computes, for the reason `why`.
struct KnownEquivalent {
  std::string op, after, why;
  int line = 0;
};

// The entries of one lab's equivalent list (none when the file does not exist); throws kit::Error
// naming the file and the field at fault.
std::vector<KnownEquivalent> load_equivalents(const std::filesystem::path& file);

// Grades the control (the solution; throws kit::Error unless it scores full points) and the mutants
// of every lab, prints a summary per lab, the survivors and a table, and writes OUT/mutants.json.
// With `metamorphic`, each of them is graded again renamed and re-laid, each grading compared line
// by line (name, status, points) with the one as made; every line that differs is printed and
// written into mutants.json. Returns the number of such lines (0 without `metamorphic`).
std::size_t run_mutants(const MutantsOptions& options, std::ostream& out);

}  // namespace grader
