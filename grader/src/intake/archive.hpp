#pragma once
// Safe extraction of students' submission archives: libarchive reads them, this code decides and
// writes every path, so no entry lands outside the target folder or grows past the limits.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace grader {

struct ExtractLimits {
  std::uintmax_t max_total_bytes = 64ull << 20;  // all files together, counted while writing (never trust header sizes)
  std::uintmax_t max_file_bytes = 16ull << 20;   // one file
  std::size_t max_entries = 10000;
};

// True for names ending .zip, .tar.gz, .tgz, .tar (case-insensitive).
bool is_archive(const std::filesystem::path& file);

// "alice.tar.gz" -> "alice", "bob.zip" -> "bob", "carol.tgz" -> "carol"; other names lose their
// last extension, like path::stem().
std::string archive_stem(const std::filesystem::path& file);

// Extracts a student's submission archive (.zip, .tar.gz/.tgz, .tar) into `target`, which must not
// exist or be an empty directory (created, with any missing parents). Throws kit::Error naming the
// archive and the offending entry for: absolute paths, ".." components, links, devices, FIFOs,
// sockets, more than max_entries entries, more bytes than the limits allow (counted from the data
// actually read), and corrupt or unreadable archives. Files get mode 0644, directories 0755. On any
// error everything it created under `target` (and `target` itself if it created it) is removed.
void extract_archive(const std::filesystem::path& archive, const std::filesystem::path& target,
                     const ExtractLimits& limits = {});

}  // namespace grader
