#pragma once
// What a kernel did in one work-group, as a picture to draw: one column per memory slot (local
// memory when the kernel uses it, else the global elements it writes), one row per barrier phase
// in which something was stored, an arrow from each slot read into the slot written for every
// combining operation, the work-items idle in each phase, the busiest work-item, the span, and
// Oclgrind's findings where they happened. Large work-groups are folded: the first and last
// kFoldKeep slots are drawn, a "…" column stands for the rest.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "draw/trace.hpp"
#include "oclgrind/oclgrind.hpp"

namespace grader {

constexpr std::size_t kFoldKeep = 16;

struct PictureOp {
  std::size_t item = 0, ops = 0;
  std::optional<std::size_t> to;  // the column written (none: another memory, e.g. the result in global)
  std::vector<std::size_t> from;  // the columns read
  std::size_t other_reads = 0;    // slots read outside the columns (input elements), or folded away
};

struct PictureRow {
  std::size_t phase = 0;
  std::vector<PictureOp> ops;         // combining stores (ops > 0) drawn in this row
  std::vector<std::size_t> filled;    // columns stored with no operation (copies, loads of the input)
  std::size_t adds = 0, stores = 0;   // operations, and stores with none, in the phase (folded ones too)
  std::vector<std::size_t> working;   // work-items with an operation, ascending
  std::size_t out = 0;                // stores outside the columns (results to global memory)
};

struct PictureMark {
  enum Kind { Race, OutOfBounds, Divergence } kind = Race;
  std::size_t row = 0;
  std::vector<std::size_t> columns;  // a race's slot (one), none when it is not a column
  std::string text;                  // "race: work-items 0 and 1, lines 14 and 14"
};

struct Picture {
  std::string kernel, ops_word = "operations";  // "adds", "operations"
  std::size_t items = 0;                        // work-items in the group
  std::string memory = "local memory";          // what the columns are
  std::size_t slots = 0;                        // columns before folding
  std::vector<std::optional<std::size_t>> columns;  // slot number of each drawn column, none for "…"
  std::vector<PictureRow> rows;
  std::size_t work = 0, span = 0, busiest_item = 0, busiest_ops = 0;
  std::vector<PictureMark> marks;
  bool truncated = false;
  std::string folded() const;  // "slots 16–4079 folded into …", or ""
};

// The picture of one launch's traced work-group, with the findings of Oclgrind's run (those of
// this work-group drawn where they happened). `ops_word` names the operations ("adds").
Picture make_picture(const LaunchTrace& trace, const std::vector<OclgrindFinding>& findings, const std::string& ops_word);

// The same facts in words, one line per phase then the totals: "phase 3: 4 adds by work-items 0,
// 8, 16, 24; work-items 1–7, 9–15, 17–23, 25–31 idle".
std::vector<std::string> picture_facts(const Picture& p);

// "0–3, 5, 7–9" for ascending numbers; at most `most` parts, then "…".
std::string ranges(const std::vector<std::size_t>& numbers, std::size_t most = 8);

}  // namespace grader
