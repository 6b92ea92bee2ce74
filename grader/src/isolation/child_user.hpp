#pragma once
// Who the children run as. A grader started as root never runs a student's kernel as root: every
// child (a build, its cases, Oclgrind, the build service) gives up root for an unprivileged user,
// `nobody` unless --run-as names another, before it runs anything. A grader not started as root
// has nothing to give up, and its children run as itself.
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>

namespace grader {

struct ChildUser {
  std::string name;
  uid_t uid = 0;
  gid_t gid = 0;
};

// The user named by --run-as ("" for the default, nobody), checked: an unknown user, root itself,
// or --run-as given to a grader not run as root is refused with an error naming it. None when the
// grader is not root (its children run as itself).
std::optional<ChildUser> checked_child_user(const std::string& run_as);

// Sets who this grader's children run as, for the rest of the program (--run-as, once checked).
void use_child_user(const std::optional<ChildUser>& user);

// Who the children run as: the one set, or else, as root, `nobody` (found on first use).
std::optional<ChildUser> child_user();

// Whether `user` can read `file` and enter every folder above it (by its mode bits: the children
// keep no supplementary groups).
bool readable_by(const ChildUser& user, const std::filesystem::path& file);
// Whether `user` can enter the folder `dir` and every folder above it.
bool reachable_by(const ChildUser& user, const std::filesystem::path& dir);

// The child's side, after fork: gives up root for `user` (groups, group, user, in that order) and
// checks it cannot get root back. Returns what failed, or nullptr when done (no allocation: it
// runs between fork and exec).
const char* become(const ChildUser& user);

}  // namespace grader
