#pragma once
// The student release's grading data: the specs with their visible cases only (no hidden case, no
// speed case, whose baseline is the solution) and the stored references of those cases, with a
// manifest that matches, so that `grader check` runs in the release exactly as in the kit.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace grader {

// Writes DEST/grader/specs/*.json, DEST/grader/reference/*.json and MANIFEST.json from the kit's,
// for the labs named in `labs` (folder names; empty: every lab with a spec).
void write_release_specs(const std::filesystem::path& specs, const std::filesystem::path& references,
                         const std::filesystem::path& dest, const std::vector<std::string>& labs, std::ostream& progress);

// No released starter may hand out, in its given code (the lines outside its "// student:"
// regions), what another lab's students write, whichever labs the release holds (all of them
// included): a run of three or more telling lines (not blank, not a comment, not punctuation alone,
// 8 characters or more) that stands in a region of another lab's solution and in none of that lab's
// own starter. A lab that builds on an earlier one asks for the student's own earlier code in a
// region instead. One message per run: the starter's file and lines, the solution's file, lines
// and region. `released`: the labs whose starters are checked (folder names).
std::vector<std::string> given_solution_lines(const std::filesystem::path& labs_dir, const std::filesystem::path& solutions_dir,
                                              const std::vector<std::string>& released);

}  // namespace grader
