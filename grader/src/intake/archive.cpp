// Submission archive extraction: libarchive only reads; paths, types, sizes and modes are decided
// here and files are written with std::ofstream, so a hostile archive cannot steer the writes.
#include "intake/archive.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <cctype>
#include <fstream>
#include <memory>
#include <system_error>
#include <vector>

#include "kit/errors.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

// Fixed modes: the archive's own modes (setuid, world-writable, unreadable) are never used.
constexpr auto kArchiveFileMode = static_cast<fs::perms>(0644);
constexpr auto kDirMode = static_cast<fs::perms>(0755);

// The archive suffix `file` ends with (lower case), or "" for none.
std::string archive_suffix(const fs::path& file) {
  std::string name = file.filename().string();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const std::string suffix : {".tar.gz", ".tgz", ".tar", ".zip"}) {
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return suffix;
  }
  return "";
}

struct ReadFree {
  void operator()(struct archive* a) const { archive_read_free(a); }
};

std::string error_text(struct archive* a) {
  const char* text = archive_error_string(a);
  return text ? text : "unknown libarchive error";
}

// Why an entry of this type is refused, or "" for regular files and directories. Links are
// checked first: libarchive reports a tar hard link with the type of the file it points to.
std::string type_refusal(struct archive_entry* entry) {
  const auto type = archive_entry_filetype(entry);
  if (type == AE_IFLNK || archive_entry_symlink(entry)) return "is a symbolic link; links are refused";
  if (archive_entry_hardlink(entry)) return "is a hard link; links are refused";
  switch (type) {
    case AE_IFREG:
    case AE_IFDIR:
      return "";
    case AE_IFCHR:
    case AE_IFBLK:
      return "is a device file; refused";
    case AE_IFIFO:
      return "is a FIFO; refused";
    case AE_IFSOCK:
      return "is a socket; refused";
    default:
      return "is not a regular file or directory; refused";
  }
}

// Removes what an extraction created; best effort, since the error being thrown is the one to report.
void remove_extracted(const fs::path& target, bool created_target) {
  std::error_code ec;
  if (created_target) {
    fs::remove_all(target, ec);
    return;
  }
  std::vector<fs::path> children;  // collected first: removing while iterating is unspecified
  for (auto it = fs::directory_iterator(target, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    children.push_back(it->path());
  for (const auto& child : children) fs::remove_all(child, ec);
}

// One extraction: the archive's label for messages, the target and the running counts.
class Extractor {
 public:
  Extractor(const fs::path& archive, const fs::path& target, const ExtractLimits& limits)
      : archive_(archive), label_(archive.filename().string()), target_(target), limits_(limits) {}

  void run() {
    std::unique_ptr<struct archive, ReadFree> reader(archive_read_new());
    if (!reader) fail("cannot start libarchive");
    struct archive* a = reader.get();
    archive_read_support_filter_gzip(a);
    archive_read_support_format_zip(a);
    archive_read_support_format_tar(a);
    if (archive_read_open_filename(a, archive_.c_str(), 64 * 1024) != ARCHIVE_OK)
      fail("cannot read the archive: " + error_text(a));

    std::size_t entries = 0;
    struct archive_entry* entry = nullptr;
    for (;;) {
      const int status = archive_read_next_header(a, &entry);
      if (status == ARCHIVE_EOF) break;
      // ARCHIVE_WARN is e.g. a name that does not convert to the locale; the name is still checked.
      if (status != ARCHIVE_OK && status != ARCHIVE_WARN) fail("corrupt or unreadable archive: " + error_text(a));

      const char* raw = archive_entry_pathname(entry);
      if (!raw) raw = archive_entry_pathname_utf8(entry);
      const std::string name = raw ? raw : "";
      if (++entries > limits_.max_entries)
        fail("more than " + std::to_string(limits_.max_entries) + " entries (at entry '" + name + "'); refused");
      const fs::path relative = checked_path(name);
      const std::string refusal = type_refusal(entry);
      if (!refusal.empty()) fail("entry '" + name + "' " + refusal);

      try {
        if (archive_entry_filetype(entry) == AE_IFDIR) {
          make_directories(relative);
        } else {
          if (relative.empty()) fail("entry '" + name + "' is a file without a name; refused");
          write_file(a, relative, name);
        }
      } catch (const fs::filesystem_error& e) {
        fail("cannot extract entry '" + name + "': " + e.code().message());
      }
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw kit::Error(label_ + ": " + what); }

  // The entry's path below the target. Only '/' separates components, as on the grading machine;
  // "." and empty components (a leading "./", a trailing "/") are dropped.
  fs::path checked_path(const std::string& name) const {
    if (name.empty()) fail("an entry has an empty name; refused");
    if (name.front() == '/') fail("entry '" + name + "' is an absolute path; refused");
    fs::path relative;
    std::size_t start = 0;
    while (start <= name.size()) {
      std::size_t end = name.find('/', start);
      if (end == std::string::npos) end = name.size();
      const std::string part = name.substr(start, end - start);
      if (part == "..") fail("entry '" + name + "' leaves the extraction folder; refused");
      if (!part.empty() && part != ".") relative /= part;
      start = end + 1;
    }
    return relative;
  }

  // Creates target/relative one level at a time, so every new directory gets kDirMode. The target
  // held nothing before and no links are ever made, so no component can lead outside it.
  void make_directories(const fs::path& relative) const {
    fs::path path = target_;
    for (const auto& part : relative) {
      path /= part;
      if (fs::create_directory(path)) fs::permissions(path, kDirMode);
    }
  }

  // Copies the entry's data, counting the bytes libarchive actually decodes: header sizes can lie
  // and a zip bomb's header looks harmless.
  void write_file(struct archive* a, const fs::path& relative, const std::string& name) {
    make_directories(relative.parent_path());
    const fs::path path = target_ / relative;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) fail("cannot create '" + path.string() + "' for entry '" + name + "'");
    fs::permissions(path, kArchiveFileMode);

    std::uintmax_t file_bytes = 0;
    std::vector<char> buffer(64 * 1024);
    for (;;) {
      const la_ssize_t n = archive_read_data(a, buffer.data(), buffer.size());
      if (n == 0) break;
      if (n < 0) fail("corrupt data in entry '" + name + "': " + error_text(a));
      file_bytes += static_cast<std::uintmax_t>(n);
      total_bytes_ += static_cast<std::uintmax_t>(n);
      if (file_bytes > limits_.max_file_bytes)
        fail("more than " + std::to_string(limits_.max_file_bytes) + " bytes in entry '" + name + "'; refused");
      if (total_bytes_ > limits_.max_total_bytes)
        fail("more than " + std::to_string(limits_.max_total_bytes) + " bytes in all (at entry '" + name +
             "'); refused");
      if (!out.write(buffer.data(), n)) fail("cannot write '" + path.string() + "' for entry '" + name + "'");
    }
    out.close();
    if (!out) fail("cannot write '" + path.string() + "' for entry '" + name + "'");
  }

  fs::path archive_;
  std::string label_;
  fs::path target_;
  ExtractLimits limits_;
  std::uintmax_t total_bytes_ = 0;
};

}  // namespace

bool is_archive(const fs::path& file) { return !archive_suffix(file).empty(); }

std::string archive_stem(const fs::path& file) {
  const std::string suffix = archive_suffix(file);
  if (suffix.empty()) return file.stem().string();
  const std::string name = file.filename().string();
  return name.substr(0, name.size() - suffix.size());
}

void extract_archive(const fs::path& archive, const fs::path& target, const ExtractLimits& limits) {
  const std::string label = archive.filename().string();
  bool created_target = false;
  try {
    if (fs::exists(target)) {
      if (!fs::is_directory(target) || !fs::is_empty(target))
        throw kit::Error(label + ": target '" + target.string() + "' is not an empty folder; refused");
    } else {
      fs::create_directories(target);
      fs::permissions(target, kDirMode);
      created_target = true;
    }
  } catch (const fs::filesystem_error& e) {
    if (created_target) remove_extracted(target, true);
    throw kit::Error(label + ": cannot create '" + target.string() + "': " + e.code().message());
  }

  try {
    Extractor(archive, target, limits).run();
  } catch (...) {
    remove_extracted(target, created_target);
    throw;
  }
}

}  // namespace grader
