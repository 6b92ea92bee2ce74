#pragma once
// The metamorphic variants `grader mutants --metamorphic` grades (docs/lab-authors.md): the same
// program renamed, laid out afresh (metamorphic.hpp) or rewritten another way with the same
// meaning (rewrites.hpp), each alone, and two that hold every rewrite.
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/rewrites.hpp"

namespace grader {

struct Variant {
  std::string name;
  Rewritten (*make)(const std::string&);
};

// Every variant, in the order they are graded: renamed, relaid, builtins-inlined, builtins-hoisted,
// for-as-while, index-int, index-uint, index-size_t, times-two-as-shift, shift-as-times-two,
// global-fence-added, braces-added, braces-removed (the re-laid kernel, whose every body is
// braced, with the braces of one-statement bodies removed), rewritten (renamed, then built-ins
// inlined, for as while, int indices, times two as a shift, the global fence and braces added) and
// rewritten-relaid (built-ins hoisted, size_t indices, shifts as times two, re-laid, braces removed).
const std::vector<Variant>& metamorphic_variants();
std::vector<std::string> variant_names();

// One kernel of a lab as a variant made it: its id ("control" or the mutant's), the rewrite, and
// whether the text changed (only then is it graded again).
struct VariantMade {
  std::string id;
  Rewritten rewritten;
  bool changed;
};
// What one variant did to one lab's kernels, printed (the kernels it changed, of how many, the
// places it rewrote, and each place it kept as it was with the reason) and returned for
// mutants.json's "rewrites" (lab, variant, kernels, rewritten, places, kept).
nlohmann::json report_variant(const std::string& lab, const std::string& variant, const std::vector<VariantMade>& made, std::ostream& out);

// One line per variant among `records` (report_variant's, of every lab): the kernels it rewrote
// of how many, its places, and the places kept.
void print_variant_table(const nlohmann::json& records, std::ostream& out);

}  // namespace grader
