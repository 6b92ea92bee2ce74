#include "isolation/child_user.hpp"

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mutex>

#include "kit/errors.hpp"

namespace grader {
namespace {

std::mutex chosen_lock;
bool chosen = false;  // use_child_user was called
std::optional<ChildUser> chosen_user;

std::optional<ChildUser> look_up(const std::string& name) {
  const passwd* p = getpwnam(name.c_str());
  if (!p) return std::nullopt;
  return ChildUser{name, p->pw_uid, p->pw_gid};
}

bool allows(const ChildUser& user, const struct stat& st, mode_t owner_bit, mode_t group_bit, mode_t other_bit) {
  if (st.st_uid == user.uid) return st.st_mode & owner_bit;
  if (st.st_gid == user.gid) return st.st_mode & group_bit;
  return st.st_mode & other_bit;
}

}  // namespace

std::optional<ChildUser> checked_child_user(const std::string& run_as) {
  if (geteuid() != 0) {
    if (run_as.empty()) return std::nullopt;
    throw kit::Error("--run-as " + run_as + " needs a grader run as root (this one runs as uid " + std::to_string(geteuid()) +
                     ", and its children run as that user already)");
  }
  const std::string name = run_as.empty() ? "nobody" : run_as;
  const std::optional<ChildUser> user = look_up(name);
  if (!user) throw kit::Error("--run-as " + name + ": no such user on this machine" + (run_as.empty() ? " (the default; name another with --run-as USER)" : ""));
  if (user->uid == 0) throw kit::Error("--run-as " + name + ": the children must not run as root; name an unprivileged user");
  return user;
}

void use_child_user(const std::optional<ChildUser>& user) {
  std::lock_guard<std::mutex> g(chosen_lock);
  chosen = true;
  chosen_user = user;
}

std::optional<ChildUser> child_user() {
  std::lock_guard<std::mutex> g(chosen_lock);
  if (!chosen) {
    chosen_user = checked_child_user("");
    chosen = true;
  }
  return chosen_user;
}

namespace {

// Whether `user` may enter every folder down to `path`, and do what `last_bits` allow to it.
bool allowed_down_to(const ChildUser& user, const std::filesystem::path& path, mode_t owner_bit, mode_t group_bit, mode_t other_bit) {
  const std::filesystem::path full = std::filesystem::absolute(path).lexically_normal();
  std::filesystem::path above;
  for (auto part = full.begin(); part != full.end(); ++part) {
    if (part->empty()) continue;  // the empty name after a trailing slash
    above /= *part;
    struct stat st {};
    if (stat(above.c_str(), &st) != 0) return false;
    const bool last = std::next(part) == full.end() || std::next(part)->empty();
    if (!last && !allows(user, st, S_IXUSR, S_IXGRP, S_IXOTH)) return false;
    if (last && !allows(user, st, owner_bit, group_bit, other_bit)) return false;
  }
  return true;
}

}  // namespace

bool readable_by(const ChildUser& user, const std::filesystem::path& file) {
  return allowed_down_to(user, file, S_IRUSR, S_IRGRP, S_IROTH);
}

bool reachable_by(const ChildUser& user, const std::filesystem::path& dir) {
  return allowed_down_to(user, dir, S_IXUSR, S_IXGRP, S_IXOTH);
}

const char* become(const ChildUser& user) {
  if (setgroups(0, nullptr) != 0) return "setgroups failed";
  if (setgid(user.gid) != 0) return "setgid failed";
  if (setuid(user.uid) != 0) return "setuid failed";
  if (getuid() != user.uid || geteuid() != user.uid || getgid() != user.gid || getegid() != user.gid) return "the user did not change";
  if (setuid(0) == 0 || seteuid(0) == 0) return "root could be taken back";
  return nullptr;
}

}  // namespace grader
