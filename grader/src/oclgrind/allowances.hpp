#pragma once
// The spec's allowed findings (known false alarms of Oclgrind), matched by what happened: the
// kernel, the buffer argument by position (the report's address against the plugin's record of
// the launch's arguments), the kind of accesses, an atomic on the other side, the read's place
// after the work-group's atomic on a ticket, the builtin a value was used in. No text of the
// kernel's code is read, so no rename or re-layout changes what is allowed.
#include <vector>

#include "oclgrind/oclgrind.hpp"
#include "oclgrind/work_span.hpp"
#include "spec/spec.hpp"

namespace grader {

// Whether `finding` is one that `allowed` describes, given the launches the plugin recorded.
bool is_allowed(const AllowedFinding& allowed, const OclgrindFinding& finding, const std::vector<KernelWork>& launches);

// The findings of `findings` that no entry of `allow` describes; `allowed` counts the others.
std::vector<OclgrindFinding> not_allowed(const std::vector<AllowedFinding>& allow, const std::vector<OclgrindFinding>& findings,
                                         const std::vector<KernelWork>& launches, std::size_t& allowed);

}  // namespace grader
