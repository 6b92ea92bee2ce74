// A float that marks the spare slots of an output past its last element: a NaN with bits of the
// lab's own choosing, which no kernel computes, so a kernel that guards its writes leaves it there
// and one that writes past n is seen. Compared by bits (NaN != NaN).
#pragma once

#include <cstdint>
#include <cstring>

namespace kit {

inline float marker_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline bool is_marker_float(float f, std::uint32_t bits) {
  std::uint32_t got;
  std::memcpy(&got, &f, sizeof got);
  return got == bits;
}

}  // namespace kit
