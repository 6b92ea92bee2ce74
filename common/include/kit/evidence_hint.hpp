#pragma once
// A wrong case's hint from what Oclgrind found on it (the grader's, and a lab program's witness's): every kind of fault it found, each with its
// kernel line, leads the hint, with what the finding shows where the code around its lines tells
// more (a warp-synchronous tail: adds under one `if (tid < 32)` with no barrier between them; a
// work-group's result stored at an index past the end of its array); the lab's own hint, which
// reads the cause from the result, follows only where the result can be trusted.
#include <string>
#include <vector>

#include "kit/oclgrind_report.hpp"

namespace kit {

// The finding a hint names: the first invalid access, else race, barrier divergence, other, and
// only then an uninitialized value (often a consequence of the others); nullptr when none.
const OclgrindFinding* first_finding(const std::vector<OclgrindFinding>& findings);

// The sentence added to a hint for `f`, found by Oclgrind on `where` ("this case", or the safety
// case that stood in for it): "Oclgrind, on this case: <describe(f)>." and, for a race between
// work-groups on a line that calls no atomic function, what that shows: the update is not atomic.
std::string evidence_sentence(const OclgrindFinding& f, const std::string& where, const std::string& source,
                              const std::string& shown_as);


// The findings a hint names: the first of each kind of fault (invalid access, other, data race,
// barrier divergence), in that order; the first uninitialized value only when there is no fault.
std::vector<const OclgrindFinding*> findings_to_name(const std::vector<OclgrindFinding>& findings);

// Whether a finding is undefined behaviour that decides the result (the lab's guess from the
// result is then no cause): every fault but an uninitialized value, which is often a consequence.
bool decides_result(const OclgrindFinding& f);

// For a race between two work-items of one work-group whose lines stand in one block under
// `if (COND)` (or in a function called only under it) with no barrier between the `if` and either
// line: "OpenCL promises no lock-step between work-items: the adds after `if (COND)` (FILE:LINE)
// race without barriers ..."; "" otherwise.
std::string unbarriered_tail(const OclgrindFinding& race, const std::string& source, const std::string& shown_as);

// For a race between two work-items of one work-group whose lines stand in one `for` or `while`
// loop that holds no barrier: "The race is inside the loop at FILE:LINE (`for (...)`), which holds
// no barrier: ..."; "" otherwise.
std::string race_in_unbarriered_loop(const OclgrindFinding& race, const std::string& source, const std::string& shown_as);

// For an invalid write to global memory at a line that stores NAME[INDEX] = ... once per
// work-group (under a test that the local id is 0) with an INDEX that is not the group's number:
// "the store at FILE:LINE writes NAME[INDEX], past the end of NAME: ..."; "" otherwise.
std::string result_stored_past_end(const OclgrindFinding& write, const std::string& source, const std::string& shown_as);

// The hint of a wrong case from the lab's hint (`lab_hint`, with the compiler's warnings it may end
// with) and the findings of its run under Oclgrind on `where`. Where a finding decides the result,
// the findings lead, each with what the code around it shows; the lab's hint follows only where
// nothing was shown and it agrees with a finding (a barrier for a race in one work-group, an atomic
// update for a race between work-groups, an index or an element past an end for an invalid access); else a
// sentence says that no cause is read from an undefined result. Where no finding decides the
// result, the lab's hint comes first and the findings after it. The compiler's warnings end it.
std::string hint_with_evidence(const std::string& lab_hint, const std::vector<OclgrindFinding>& findings, const std::string& where,
                               const std::string& source, const std::string& shown_as);

}  // namespace kit
