#include "isolation/device_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>

#include "isolation/devices.hpp"

namespace grader {
namespace {

// Opens (creating) `path` for a lock; -1 where it cannot: then grading goes on unlocked.
int open_lock(const std::filesystem::path& path) { return ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666); }

void lock(int fd, int how) {
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
  lock(turnstile, LOCK_EX);
  lock(fd_, mode == Mode::Exclusive ? LOCK_EX : LOCK_SH);
  if (turnstile >= 0) ::close(turnstile);  // releases the turnstile
}

DeviceLock::~DeviceLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the lock
}

}  // namespace grader
