#pragma once
// A batch grades each kernel once: submissions whose kernel files are the same after removing
// comments and spacing (an untouched starter, a solution passed round with new comments) share one
// result. A result that quotes the file (a build log, an Oclgrind finding, a printf line: their
// line text and columns depend on the spacing) is shared only between byte-identical files.
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "kit/starters.hpp"

namespace grader {

// The kernel's code with comments removed, runs of spaces and tabs made one space and each line
// trimmed, line breaks kept (so that line numbers agree): what the compiler sees, as text. String
// and character literals are kept as written.
std::string code_without_comments(const std::string& source);

// Whether the kernel file `kernel` (its text `source`) is the lab's starter `starter` unedited:
// the same code after code_without_comments. False where `starter` does not exist (a kit without
// its labs/) or is `kernel` itself (`grader check` on the kit's own labs/).
bool same_as_starter(const std::string& source, const std::filesystem::path& kernel, const std::filesystem::path& starter);

// The pristine starters a submission is screened against, as hashes: the SHA-256 of each lab's
// starter kernel after code_without_comments, by lab, in
//   - grader/release-starters.json of a student release, written by `grader release-specs` from
//     the kit's starters when the release is made (a student's own copy has only edited ones), or
//   - grader/starters.json of the full kit, committed with the starters (a test keeps it equal to
//     labs/; `grader release-specs --kit-starters` rewrites it), so that a kernel edited in the
//     kit's labs/ is not taken for its own starter.
// {"about": "...", "labs": {"03-array-mult-reduce": {"file": "ArrayMultReduce.cl", "sha256": "..."}}}
inline constexpr const char* kReleaseStartersFile = kit::kReleaseStartersFile;
inline constexpr const char* kKitStartersFile = kit::kKitStartersFile;
std::string starter_hash(const std::string& source);
// The hashes of `labs`' starters: <labs_dir>/<lab>/<kernel file>, each pair (lab, kernel file).
json starter_hashes(const std::filesystem::path& labs_dir, const std::vector<std::pair<std::string, std::string>>& labs);
// The stored hash of `lab`'s starter `kernel_file` under `kit_root`: release-starters.json where
// there is one, else starters.json; nullopt where neither holds the lab. Throws kit::Error naming
// the file and the field when a file is not of the form above or names another kernel file.
std::optional<std::string> stored_starter_hash(const std::filesystem::path& kit_root, const std::string& lab, const std::string& kernel_file);

// Whether `r` quotes the kernel file `shown_as` anywhere (a "file:line" position, a build log).
bool quotes_the_file(const LabResult& r, const std::string& shown_as);

class GradedKernels {
 public:
  struct Key {
    std::string lab, shown_as, code, bytes;  // code: code_without_comments; bytes: the file as read
  };
  // A result to reuse for `key`, or nullopt: then the caller grades the kernel and must call
  // publish() or abandon() with the same key. A caller asking for a kernel being graded by
  // another waits for its result.
  std::optional<LabResult> find_or_claim(const Key& key);
  void publish(const Key& key, const LabResult& result);
  void abandon(const Key& key);
  std::size_t reused() const;

 private:
  struct Graded {
    std::string bytes;
    LabResult result;
  };
  void abandon_locked(const Key& key);
  std::string id(const Key& key) const { return key.lab + '\n' + key.shown_as + '\n' + key.code; }
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::vector<Graded>> done_;
  std::set<std::string> grading_;  // ids being graded now
  std::size_t reused_ = 0;
};

}  // namespace grader
