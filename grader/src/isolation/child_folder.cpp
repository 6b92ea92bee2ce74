#include "isolation/child_folder.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <mutex>

#include "kit/errors.hpp"

namespace grader {
namespace fs = std::filesystem;
namespace {

fs::path made_temp(const fs::path& pattern, mode_t mode) {
  std::string name = pattern.string();
  if (!mkdtemp(name.data())) throw kit::Error("cannot create a folder for a grading child: " + pattern.string());
  chmod(name.c_str(), mode);
  return name;
}

void give(const fs::path& path, const ChildUser& user, mode_t mode) {
  if (lchown(path.c_str(), user.uid, user.gid) != 0 || chmod(path.c_str(), mode) != 0)
    throw kit::Error("cannot hand " + path.string() + " to user " + user.name);
}

// The folder of this grader run that holds its children's folders; removed when the run ends.
class ChildrenRoot {
 public:
  explicit ChildrenRoot(const ChildUser& user) {
    fs::path base = fs::temp_directory_path();
    if (!reachable_by(user, base)) base = "/tmp";  // TMPDIR may be root's own
    if (!reachable_by(user, base)) throw kit::Error("user " + user.name + " cannot reach " + base.string() + " for its grading folders");
    path = made_temp(base / "kit-grader-children-XXXXXX", 0711);
  }
  ~ChildrenRoot() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  fs::path path;
  std::mutex lock;
  std::map<fs::path, fs::path> caches;  // the grader's PoCL cache -> the user's folder for it
};

ChildrenRoot& children_root(const ChildUser& user) {
  static ChildrenRoot root(user);
  return root;
}

// Copies the regular file `from` to `to` without following a link at `from` (the child's to make).
void copy_plain_file(const fs::path& from, const fs::path& to) {
  const int in = ::open(from.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (in < 0) return;
  struct stat st {};
  const int out = fstat(in, &st) == 0 && S_ISREG(st.st_mode) ? ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
  char buffer[1 << 16];
  for (ssize_t n; out >= 0 && (n = ::read(in, buffer, sizeof buffer)) > 0;)
    if (::write(out, buffer, std::size_t(n)) != n) break;
  if (out >= 0) ::close(out);
  ::close(in);
}

// The folders and regular files under `from`, copied to `to` (links and the rest left out).
void copy_tree(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to, ec);
  for (auto it = fs::recursive_directory_iterator(from, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::file_status st = it->symlink_status(ec);
    const fs::path target = to / fs::relative(it->path(), from);
    if (fs::is_directory(st)) fs::create_directories(target, ec);
    else if (fs::is_regular_file(st)) copy_plain_file(it->path(), target);
  }
}

}  // namespace

ChildFolder::ChildFolder(const ChildUser& user, const fs::path& workdir) : user_(user), workdir_(fs::absolute(workdir)) {
  box_ = made_temp(children_root(user).path / "child-XXXXXX", 0711);
  work_ = box_ / "work";
  std::error_code ec;
  if (fs::is_directory(workdir_)) copy_tree(workdir_, work_);  // what the grader put there: the list of cases
  fs::create_directories(work_);
  for (auto it = fs::recursive_directory_iterator(work_, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    give(it->path(), user, fs::is_directory(it->symlink_status()) ? 0700 : 0600);
  give(work_, user, 0700);
  fs::remove_all(workdir_);
  fs::create_directories(workdir_.parent_path());
  fs::create_directory_symlink(work_, workdir_);  // the grader follows the child's results here
}

ChildFolder::~ChildFolder() {
  try {
    bring_back();
  } catch (...) {  // a destructor must not throw; what could not be copied is missing, and said so where it is read
  }
}

std::string ChildFolder::seen(const std::string& arg) {
  const std::string dir = workdir_.string();
  if (arg.compare(0, dir.size(), dir) == 0 && (arg.size() == dir.size() || arg[dir.size()] == '/'))
    return work_.string() + arg.substr(dir.size());
  std::error_code ec;
  if (arg.empty() || arg[0] != '/' || !fs::is_regular_file(arg, ec) || readable_by(user_, arg)) return arg;
  // A read-only copy in a folder of root's, under its own name (the kernel's name stays the same).
  if (in_.empty()) {
    in_ = box_ / "in";
    fs::create_directory(in_);
    chmod(in_.c_str(), 0711);
  }
  const fs::path folder = in_ / std::to_string(staged_++);
  fs::create_directory(folder);
  chmod(folder.c_str(), 0711);
  const fs::path copy = folder / fs::path(arg).filename();
  fs::copy_file(arg, copy);
  chmod(copy.c_str(), (fs::status(arg).permissions() & fs::perms::owner_exec) != fs::perms::none ? 0555 : 0444);
  return copy.string();
}

void ChildFolder::bring_back() {
  if (done_) return;
  done_ = true;
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(workdir_, ec))) fs::remove(workdir_, ec);
  fs::create_directories(workdir_, ec);
  copy_tree(work_, workdir_);
  fs::remove_all(box_, ec);
}

std::optional<fs::path> kept_pocl_cache() {
  const char* set = std::getenv(kPoclCacheVariable);
  if (!set || !*set) return std::nullopt;
  return fs::absolute(set).lexically_normal();
}

fs::path pocl_cache_for(const ChildUser& user, const fs::path& cache) {
  ChildrenRoot& root = children_root(user);
  std::lock_guard<std::mutex> g(root.lock);
  const fs::path key = fs::absolute(cache);
  // The kept cache is the children's own, the same folder in every grader run: handed to their
  // user. Where they could not reach it (a folder of root's above it), or it is another user's
  // (a grader run with another --run-as uses it), they get one of this run's.
  if (const std::optional<fs::path> kept = kept_pocl_cache(); kept && key.lexically_normal() == *kept) {
    std::error_code ec;
    fs::create_directories(*kept, ec);
    struct stat st {};
    if (reachable_by(user, kept->parent_path()) && stat(kept->c_str(), &st) == 0 && (st.st_uid == user.uid || st.st_uid == 0)) {
      if (st.st_uid != user.uid || (st.st_mode & 07777) != 0700) give(*kept, user, 0700);
      return *kept;
    }
  }
  std::error_code ec;
  for (auto it = root.caches.begin(); it != root.caches.end();)  // the folders whose caches are gone
    if (it->first != key && !fs::exists(it->first, ec)) {
      fs::remove_all(it->second, ec);
      it = root.caches.erase(it);
    } else ++it;
  fs::path& mine = root.caches[key];
  if (mine.empty()) {
    mine = made_temp(root.path / "pocl-XXXXXX", 0700);
    give(mine, user, 0700);
  }
  return mine;
}

fs::path pocl_cache_in_use(const fs::path& cache) {
  const std::optional<ChildUser> user = child_user();
  return user ? pocl_cache_for(*user, cache) : cache;
}

void empty_pocl_cache(const fs::path& cache) {
  const fs::path in_use = pocl_cache_in_use(cache);
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(in_use, ec)) fs::remove_all(e.path(), ec);
  fs::create_directories(cache, ec);
}

}  // namespace grader
