#pragma once
// The labs' starter kernels as handed out, known by the SHA-256 of their code outside comments
// and spacing (code_without_comments), stored in grader/starters.json (the kit) or
// grader/release-starters.json (a student release). `grader grade` gives such a submission 0
// points before building it; a lab program's failed --check runs no witness for it.
#include <string>

namespace kit {

inline constexpr const char* kReleaseStartersFile = "release-starters.json";
inline constexpr const char* kKitStartersFile = "starters.json";

// The SHA-256 of `bytes`, as 64 lowercase hex digits.
std::string sha256_hex(const std::string& bytes);

// Whether `source` is one of the labs' starters as handed out, by the hashes stored under
// root()/grader/; false where no hash is stored or the file cannot be read.
bool is_handed_out_starter(const std::string& source);

}  // namespace kit
