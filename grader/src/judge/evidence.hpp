#pragma once
// The evidence behind a wrong visible case: the case run again under Oclgrind (races, bounds,
// barriers, uninitialized values) and its first finding added to the case's hint, so that a
// student who sees the wrong result sees the line that explains it in the same output.
#include <filesystem>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "judge/grade.hpp"
#include "oclgrind/oclgrind.hpp"
#include "spec/spec.hpp"

namespace grader {

// The finding a hint names: the first invalid access, else race, barrier divergence, other, and
// only then an uninitialized value (often a consequence of the others); nullptr when none.
const OclgrindFinding* first_finding(const std::vector<OclgrindFinding>& findings);

// The sentence added to a hint for `f`, found by Oclgrind on `where` ("this case", or the safety
// case that stood in for it): "Oclgrind, on this case: <describe(f)>." and, for a race between
// work-groups on a line that calls no atomic function, what that shows: the update is not atomic.
std::string evidence_sentence(const OclgrindFinding& f, const std::string& where, const std::string& source,
                              const std::string& shown_as);

// For each visible case of `r` that is wrong or crashed: the first such case of each kernel (told
// apart by the case fields the spec's safety runs vary: lab 04's rung, lab 05's method, lab 08's
// part; one for a lab with one kernel) is run once more under Oclgrind, and its first finding (less
// the false alarms the spec allows) is added to its hint. A case too large for Oclgrind (over
// kEvidenceWork elements x launches) or one that runs past the safety time limit under it is
// replaced by the spec's safety run of the same kernel, and the hint says so. Needs Oclgrind and
// a safety block; nothing changes without them.
inline constexpr double kEvidenceWork = 65536;
void add_case_evidence(const LabSpec& spec, const GradeSettings& s, const std::filesystem::path& copy, const std::string& source,
                       const std::string& shown_as, LabResult& r);

}  // namespace grader
