// The metamorphic variants (variants.hpp): each rewrite alone, and the two that hold them all.
#include "tools/variants.hpp"

#include <cstdio>
#include <ostream>
#include <set>

#include "tools/metamorphic.hpp"

namespace grader {
namespace {

Rewritten renamed(const std::string& source) { return {rename_locals(source), 1, {}}; }
Rewritten relaid(const std::string& source) { return {relayout(source), 1, {}}; }
// The kit's kernels brace no single-statement body; re-laid, every body is braced, and these go.
Rewritten relaid_unbraced(const std::string& source) { return braces_removed(relayout(source)); }

// Several variants one after the other, as one variant: what each did added up, what each kept
// named with the variant.
Rewritten composed(const std::string& source, const std::vector<std::pair<std::string, Rewritten (*)(const std::string&)>>& steps) {
  Rewritten all{source, 0, {}};
  for (const auto& [name, make] : steps) {
    const Rewritten r = make(all.source);
    all.source = r.source, all.applied += r.applied;
    for (const std::string& why : r.skipped) all.skipped.push_back(name + ", " + why);
  }
  return all;
}
// Every rewrite in two kernels: renamed and rewritten one way, and rewritten the other way and re-laid.
Rewritten rewritten(const std::string& source) {
  return composed(source, {{"renamed", renamed},
                           {"builtins-inlined", inline_builtins},
                           {"for-as-while", for_as_while},
                           {"index-int", index_type_int},
                           {"times-two-as-shift", times_two_as_shift},
                           {"global-fence-added", global_fence_added},
                           {"braces-added", braces_added}});
}
Rewritten rewritten_relaid(const std::string& source) {
  return composed(source, {{"builtins-hoisted", hoist_builtins},
                           {"index-size_t", index_type_size_t},
                           {"shift-as-times-two", shift_as_times_two},
                           {"braces-removed", relaid_unbraced}});
}

const std::vector<Variant> kVariants = {{"renamed", renamed},
                             {"relaid", relaid},
                             {"builtins-inlined", inline_builtins},
                             {"builtins-hoisted", hoist_builtins},
                             {"for-as-while", for_as_while},
                             {"index-int", index_type_int},
                             {"index-uint", index_type_uint},
                             {"index-size_t", index_type_size_t},
                             {"times-two-as-shift", times_two_as_shift},
                             {"shift-as-times-two", shift_as_times_two},
                             {"global-fence-added", global_fence_added},
                             {"braces-added", braces_added},
                             {"braces-removed", relaid_unbraced},
                             {"rewritten", rewritten},
                             {"rewritten-relaid", rewritten_relaid}};

}  // namespace

const std::vector<Variant>& metamorphic_variants() { return kVariants; }

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const Variant& v : kVariants) names.push_back(v.name);
  return names;
}

nlohmann::json report_variant(const std::string& lab, const std::string& variant, const std::vector<VariantMade>& made, std::ostream& out) {
  std::size_t changed = 0, places = 0;
  std::set<std::string> kept;
  for (const VariantMade& k : made) {
    changed += k.changed, places += k.rewritten.applied;
    for (const std::string& why : k.rewritten.skipped) kept.insert(k.id == "control" ? why : k.id + ", " + why);
  }
  out << "== " << lab << ": " << variant << " rewrote " << changed << " of " << made.size() << " kernels (" << places << " places)"
      << (kept.empty() ? "" : "; kept as they were:") << "\n";
  for (const std::string& why : kept) out << "     " << why << "\n";
  out << std::flush;
  return {{"lab", lab}, {"variant", variant}, {"kernels", made.size()}, {"rewritten", changed}, {"places", places},
          {"kept", std::vector<std::string>(kept.begin(), kept.end())}};
}

void print_variant_table(const nlohmann::json& records, std::ostream& out) {
  for (const Variant& v : kVariants) {
    std::size_t changed = 0, kernels = 0, places = 0, kept = 0;
    for (const nlohmann::json& r : records)
      if (r["variant"] == v.name)
        changed += r["rewritten"].get<std::size_t>(), kernels += r["kernels"].get<std::size_t>(),
            places += r["places"].get<std::size_t>(), kept += r["kept"].size();
    if (kernels == 0) continue;  // not graded in this run (--variants)
    char line[200];
    std::snprintf(line, sizeof line, "  %-20s rewrote %3zu of %3zu kernels (%zu places; %zu kept as they were)\n", v.name.c_str(), changed,
                  kernels, places, kept);
    out << line;
  }
}

}  // namespace grader
