#pragma once
// Reading Oclgrind's reports: the kit's one reader (kit/oclgrind_report.hpp), which the lab
// programs' witness uses too, so that a finding reads the same in every command.
#include "kit/oclgrind_report.hpp"

namespace grader {

using kit::add_finding;
using kit::describe;
using kit::OclgrindFinding;
using kit::OclgrindSite;
using kit::parse_oclgrind;
using kit::same_place;
using kit::source_line;

}  // namespace grader
