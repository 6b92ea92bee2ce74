#pragma once
// The student release's grading data: the specs with their visible cases only (no hidden case, no
// speed case, whose baseline is the solution) and the stored references of those cases, with a
// manifest that matches, so that `grader check` runs in the release exactly as in the kit.
#include <filesystem>
#include <iosfwd>

namespace grader {

// Writes DEST/grader/specs/*.json, DEST/grader/reference/*.json and MANIFEST.json from the kit's.
void write_release_specs(const std::filesystem::path& specs, const std::filesystem::path& references,
                         const std::filesystem::path& dest, std::ostream& progress);

}  // namespace grader
