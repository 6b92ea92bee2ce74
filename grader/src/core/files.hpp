#pragma once
// Small file helpers the grader relies on for "never lose a result": atomic writes, checksums.
#include <filesystem>
#include <string>

#include "grader/lab/digest.hpp"  // sha256_hex

namespace grader {

std::string read_file(const std::filesystem::path& file);  // throws kit::Error naming the file
// Writes to a temporary file beside `file`, flushes it to disk, then renames it over `file`:
// readers see the old content or the new, never a half-written file.
void write_file_atomically(const std::filesystem::path& file, const std::string& content);

}  // namespace grader
