#pragma once
// `grader bench`: how fast a class is graded. Makes a class from the kit's own kernels (right ones:
// the solution with each student's own comments; wrong ones: a mutant of the solution with one
// fault, the mutation operators in turn; untouched starters; each file with an unused helper
// function of its own), grades it the way `grader grade` does, grades a sample of
// it the earlier way (one child per case, every kernel graded) in the same run, and prints
// student-labs per second, where the time went, the ratio, and whether any verdict differs.
#include <filesystem>
#include <iosfwd>
#include <vector>

#include "core/options.hpp"
#include "spec/spec.hpp"

namespace grader {

struct ClassBenchOptions {
  std::filesystem::path work, references, solutions, starters;
  std::vector<LabSpec> specs;
  std::size_t students = 40;
  std::size_t sample_every = 10;  // the earlier way grades every n-th student; 0: not at all
  // Each file gets a helper function of its own that no kernel calls, as a real class's files differ:
  // no result is shared by content. false: the right kernels and starters repeat (results reused).
  bool unique_files = true;
  // Every student hands in the solution (with a comment and, above, a helper of their own): one
  // student's feedback on a GPU node is `--students 1 --all-right --no-oclgrind -p nvidia`.
  bool all_right = false;
  int jobs = 1;
  GradingOptions grading{};  // how each kernel is graded (its Oclgrind checks: All, or AlgorithmOnly for --no-races)
  // The journal of an earlier run of the same class (its --work's now/journal.jsonl, e.g. by a
  // grader before the time budget): every student-lab whose cases all finished there is compared,
  // line by line, with this run's; empty: none.
  std::filesystem::path against{};
};

void run_class_bench(const ClassBenchOptions& options, std::ostream& out);

}  // namespace grader
