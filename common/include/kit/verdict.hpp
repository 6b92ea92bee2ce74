#pragma once
// A lab's verdict on one run: right or not, what differs, and the typical mistake it matches. Each
// lab has one check() returning it, called by the lab's program (--check), the grader and the tests.
#include <string>

namespace kit {

struct Verdict {
  bool pass = true;
  std::string message;  // on failure: the first wrong output, expected, got, tolerance
  std::string hint;     // on failure: the typical mistake it matches, if one does ("" otherwise)
};

}  // namespace kit
