#pragma once
// Hints for a case whose child did not finish: what the usual mistakes behind a time-out or a
// crash look like, and a kernel's printf named first.
#include <string>

#include "core/results.hpp"

namespace grader {

// The first line of `source` that calls printf outside a // comment (1-based), or 0.
int printf_line(const std::string& source);

// The hint for a case that did not finish (`end`: Timeout, Crashed, ...). A kernel that calls
// printf is told so first: PoCL collects a kernel's printf output and passes it on when the kernel
// ends, so a slow printf flood shows no output when it is stopped, only a time-out. Otherwise the
// usual suspects; "" when there is none.
std::string step_hint(CaseStatus end, const std::string& source, const std::string& shown_as);

// A crash's hint made to agree with the same grading's Oclgrind findings: where the
// barrier-divergence check is unsafe, each crashed case (and speed case) is told of the divergent
// barrier that check found (its first finding, with the barriers' lines), not guessed an
// out-of-bounds access. Nothing changes without that finding.
void crash_hints_from_findings(LabResult& r);

}  // namespace grader
