// The grader's device lock: exclusive holders (speed cases, re-runs after a time-out) never overlap
// each other or a shared holder (a case child) on the same device; shared holders overlap freely;
// another device has a lock of its own.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "isolation/device_lock.hpp"

namespace {

using grader::DeviceLock;

// Runs `threads` threads that each take a lock of `mode`; returns the most holders seen at once.
// A holder keeps its lock until every thread has held one, or for `hold`: shared holders are
// given long enough to all come in however slowly a loaded machine starts the threads (all four
// at once, then), exclusive ones 30 ms each (a second holder inside would be seen).
int most_at_once(const kit::DeviceOptions& device, DeviceLock::Mode mode, int threads, std::chrono::milliseconds hold) {
  std::atomic<int> now{0}, most{0}, arrived{0};
  std::vector<std::thread> all;
  for (int t = 0; t < threads; ++t)
    all.emplace_back([&] {
      const DeviceLock lock(device, mode);
      const int n = ++now;
      ++arrived;
      for (int m = most; n > m && !most.compare_exchange_weak(m, n);) {
      }
      const auto until = std::chrono::steady_clock::now() + hold;
      while (arrived < threads && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      --now;
    });
  for (std::thread& t : all) t.join();
  return most;
}

kit::DeviceOptions device_named(const std::string& platform) {
  kit::DeviceOptions d;
  d.platform = platform;
  return d;
}

}  // namespace

TEST_CASE("device lock: exclusive holders one at a time, shared ones together, one lock per device") {
  const kit::DeviceOptions device = device_named("test-device-lock-a");
  CHECK(most_at_once(device, DeviceLock::Mode::Exclusive, 4, std::chrono::milliseconds(30)) == 1);
  CHECK(most_at_once(device, DeviceLock::Mode::Shared, 4, std::chrono::minutes(1)) == 4);
  CHECK(DeviceLock::file(device) != DeviceLock::file(device_named("test-device-lock-b")));

  // An exclusive holder waits for a shared one to finish. It asks once the shared one holds its
  // lock, whenever a loaded machine gets that thread there.
  std::atomic<bool> shared_held{false}, shared_done{false}, exclusive_saw_shared_running{false};
  std::thread shared([&] {
    const DeviceLock lock(device, DeviceLock::Mode::Shared);
    shared_held = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    shared_done = true;
  });
  while (!shared_held) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  {
    const DeviceLock lock(device, DeviceLock::Mode::Exclusive);
    exclusive_saw_shared_running = !shared_done;
  }
  shared.join();
  CHECK_FALSE(exclusive_saw_shared_running);
}

TEST_CASE("device lock: the lock file any grader makes can be taken by every other grader on the machine") {
  // A grader run by one user (root, or a TA) must not leave a lock file another user's grader
  // cannot open: that one would grade unlocked. The file is made readable and writable by all.
  const kit::DeviceOptions d = device_named("kit-lock-mode-test");
  const std::filesystem::path file = DeviceLock::file(d);
  std::filesystem::remove(file);
  { const DeviceLock lock(d, DeviceLock::Mode::Shared); }
  REQUIRE(std::filesystem::exists(file));
  const auto perms = std::filesystem::status(file).permissions();
  CHECK((perms & std::filesystem::perms::others_read) != std::filesystem::perms::none);
  CHECK((perms & std::filesystem::perms::others_write) != std::filesystem::perms::none);
  std::filesystem::remove(file);
  std::filesystem::remove(file.string() + ".turnstile");
}
