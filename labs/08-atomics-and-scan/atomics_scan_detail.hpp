#pragma once
// Helpers the files of lab 08's library share (not part of its interface).
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "atomics_scan.hpp"
#include "kit/reference.hpp"

namespace lab08::detail {

inline std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }
inline bool power_of_two(std::size_t x) { return x != 0 && (x & (x - 1)) == 0; }

inline std::string number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

inline std::string str(std::size_t v) { return std::to_string(v); }

constexpr double kU = kit::kFloatUnitRoundoff;

// Buffers are set from host memory, never with clEnqueueFillBuffer: Oclgrind 21.10's
// uninitialized-value check then counts the filled buffer's elements after the first as never
// written, even after a kernel has written them, and reports the scan (measured on this lab).
inline const cl_int kNeverWritten = -1;  // a count the kernel did not write

template <typename T>
void check_input(const Case& c, const std::vector<T>& in) {
  validate(c);
  if (in.size() != c.elements)
    throw std::invalid_argument("lab08: the input has " + std::to_string(in.size()) + " elements, the case " +
                                std::to_string(c.elements));
}

}  // namespace lab08::detail
