#pragma once
// A wrong case's hint led by what Oclgrind found on it: the kit's one text (kit/evidence_hint.hpp),
// which the lab programs' witness prints too.
#include "kit/evidence_hint.hpp"
#include "oclgrind/oclgrind.hpp"

namespace grader {

using kit::decides_result;
using kit::evidence_sentence;
using kit::findings_to_name;
using kit::first_finding;
using kit::hint_with_evidence;
using kit::result_stored_past_end;
using kit::unbarriered_tail;

}  // namespace grader
