#include "isolation/device_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <mutex>
#include <sys/stat.h>

#include "isolation/devices.hpp"

namespace grader {
namespace {

// Opens (creating) `path` for a lock. flock needs no write access, so a lock file another user's
// grader created (mode 0644 under its umask) is opened read-only. -1 where it cannot be opened at
// all: grading goes on unlocked, and the run says so once (speed cases may then overlap).
int open_lock(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd >= 0) {
    ::fchmod(fd, 0666);  // whoever made it, every grader on the machine can take it (fails harmlessly when not ours)
    return fd;
  }
  fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    static std::once_flag said;
    const int why = errno;
    std::call_once(said, [&] {
      std::cerr << "grader: warning: cannot open the device lock " << path.string() << ": " << std::strerror(why)
                << "; grading goes on without it, so speed cases and time-outs of other grader runs on this device may overlap\n";
    });
  }
  return fd;
}

void flock_retrying(int fd, int how) {
  if (fd < 0) return;
  while (::flock(fd, how) != 0 && errno == EINTR) {
  }
}

}  // namespace

std::filesystem::path DeviceLock::file(const kit::DeviceOptions& device) {
  std::string name = "default";
  const std::vector<std::string> args = device_args(device);
  if (!args.empty()) {
    name.clear();
    for (const std::string& a : args)
      for (const char c : a) name += std::isalnum(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : '-';
  }
  std::error_code error;
  std::filesystem::path dir = std::filesystem::temp_directory_path(error);
  if (error) dir = "/tmp";
  return dir / ("kit-grader-device-" + name + ".lock");
}

DeviceLock::DeviceLock(const kit::DeviceOptions& device, Mode mode) {
  const std::filesystem::path path = file(device);
  const int turnstile = open_lock(path.string() + ".turnstile");
  fd_ = open_lock(path);
  flock_retrying(turnstile, LOCK_EX);
  flock_retrying(fd_, mode == Mode::Exclusive ? LOCK_EX : LOCK_SH);
  if (turnstile >= 0) ::close(turnstile);  // releases the turnstile
}

DeviceLock::~DeviceLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

}  // namespace grader
