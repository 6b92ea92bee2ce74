#pragma once
// Reading Oclgrind's reports. Oclgrind's exit status ignores what it found, so its text is the
// result: data races, barrier divergence, invalid memory accesses and uninitialized values. The
// grader and the lab programs' witness read them, and describe them, with the same words.
#include <cstddef>
#include <string>
#include <vector>

namespace kit {

struct OclgrindSite {
  std::string work_item;  // "Global(1,0,0) Local(1,0,0) Group(0,0,0)"
  int line = 0, column = 0;
  std::string instruction;  // the IR instruction Oclgrind names: "%5 = load float, ...", "%call = call ... @_Z14atomic_cmpxchg..."
};

struct OclgrindFinding {
  // data-race | barrier-divergence | invalid-access | uninitialized | other
  std::string kind;
  std::string title;  // the report's first line without its address: "Read-write data race at local memory"
  std::vector<OclgrindSite> sites;  // a race and a divergence have two, an access one; "only some reached
                                    // a barrier" one, whose work_item says how many
  std::string kernel;               // the kernel the report is about ("ArrayMultReduce")
  std::string work_group;           // the work-group a divergence was found in: "(0,0,0)"
  int count = 1;                    // reports with the same title and source positions
  std::size_t address = 0;          // the first report's address (0: none given)
};

// Every report in Oclgrind's output, merged when they differ only in address and work-items.
std::vector<OclgrindFinding> parse_oclgrind(const std::string& output);

// Whether two findings are the same report in the same place (title, kernel, sites' positions).
bool same_place(const OclgrindFinding& a, const OclgrindFinding& b);
// Adds `f` to `into`, counted `count` times, merged with a finding in the same place.
void add_finding(std::vector<OclgrindFinding>& into, OclgrindFinding f, int count);

// Plain words for a finding, naming lines and columns of `shown_as` and quoting `source`'s lines:
// "read-write data race in local memory: work-item 1 of work-group 0 at ArrayMultReduce.cl:9:17
//  `prods[tnum] = dA[gid] * dB[gid];` and work-item 0 of work-group 0 at ...:14:28 `...`, with no
//  barrier between them (32 reports)".
std::string describe(const OclgrindFinding& finding, const std::string& source, const std::string& shown_as);

// The text of line `line` (1-based) of `source` as kit::editor_text counts lines, trimmed; "" when
// there is no such line.
std::string source_line(const std::string& source, int line);

}  // namespace kit
