#pragma once
// A lab's rule for its work-group size L, as data, and the one place that explains a size the rule
// refuses: every message names the size given and the reason the lab needs each limit it breaks.
// (The device's and the kernel's own limits are checked by check_local_size in device.hpp.)
#include <cstddef>
#include <string>

namespace kit {

struct LocalSizeRule {
  std::size_t least = 1;       // L >= least; 0 always fails: a work-group needs a work-item
  std::string least_why;       // why the lab needs least (when it is above 1)
  bool power_of_two = false;
  std::string power_why;       // why the lab needs a power of two
  std::size_t most = 0;        // L <= most; 0: no limit of the lab's own
  std::string most_why;
  std::size_t divides = 0;     // L divides this count (the case's N); 0: no such need
  std::string divides_why;
};

// "" when `local` keeps the rule; otherwise one sentence: "local size 48 is not a power of two
// (32 and 64 are the nearest): <why>", every broken limit with its reason, joined by "; and".
std::string local_size_problem(std::size_t local, const LocalSizeRule& rule);

// Throws kit::Error with local_size_problem's sentence when `local` breaks the rule.
void require_local_size(std::size_t local, const LocalSizeRule& rule);

}  // namespace kit
