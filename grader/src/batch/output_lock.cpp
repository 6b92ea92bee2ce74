#include "batch/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "kit/errors.hpp"

namespace grader {

OutputLock::OutputLock(const std::filesystem::path& out) {
  std::filesystem::create_directories(out);
  const std::filesystem::path file = out / ".grader.lock";
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw kit::Error("cannot open " + file.string() + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) {
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    const std::string who = "pid " + std::to_string(getpid()) + " on " + host + "\n";
    // Only for a second grader's message: a failed write leaves that message without the holder.
    if (ftruncate(fd_, 0) == 0) (void)!pwrite(fd_, who.data(), who.size(), 0);
    return;
  }
  const int error = errno;
  if (error != EWOULDBLOCK) return;  // no locks on this file system (ENOLCK, ENOSYS): go on
  char held[256] = "";
  const ssize_t n = pread(fd_, held, sizeof held - 1, 0);
  std::string holder = n > 0 ? std::string(held, std::size_t(n)) : "";
  while (!holder.empty() && holder.back() == '\n') holder.pop_back();
  ::close(fd_);
  fd_ = -1;
  throw kit::Error(out.string() + " is being written by another grader" + (holder.empty() ? "" : " (" + holder + ")") +
                   ": wait for it to finish, or give this run another --out");
}

OutputLock::~OutputLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace grader
