#pragma once
// The SHA-256 of some bytes as 64 hex digits: how the grader stores and compares a long output.
#include <string>

namespace grader {

std::string sha256_hex(const std::string& bytes);

}  // namespace grader
