#pragma once
// Where the kit's files are, and the environment PoCL needs before the first OpenCL call.
#include <filesystem>
#include <string>

namespace kit {

std::string version();

// The kit's source tree: $KIT_ROOT if set, else the tree this binary was configured from.
std::filesystem::path root();

// labs/<lab>/<file>, or solutions/<lab>/<file> when `solution` is true.
std::filesystem::path lab_file(const std::string& lab, const std::string& file, bool solution);

// PoCL compiles kernels into a cache and fails when it cannot write there. Unless the caller set
// POCL_CACHE_DIR, point it at <build>/pocl-cache (created here). Call before any OpenCL call.
void ensure_pocl_cache_dir();

}  // namespace kit
