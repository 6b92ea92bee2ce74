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

// Runs `threads` threads that each hold a lock of `mode` for 30 ms; returns the most holders seen
// at once.
int most_at_once(const kit::DeviceOptions& device, DeviceLock::Mode mode, int threads) {
  std::atomic<int> now{0}, most{0};
  std::vector<std::thread> all;
  for (int t = 0; t < threads; ++t)
    all.emplace_back([&] {
      const DeviceLock lock(device, mode);
      const int n = ++now;
      for (int m = most; n > m && !most.compare_exchange_weak(m, n);) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
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
  CHECK(most_at_once(device, DeviceLock::Mode::Exclusive, 4) == 1);
  CHECK(most_at_once(device, DeviceLock::Mode::Shared, 4) > 1);
  CHECK(DeviceLock::file(device) != DeviceLock::file(device_named("test-device-lock-b")));

  // An exclusive holder waits for a shared one to finish.
  std::atomic<bool> shared_done{false}, exclusive_saw_shared_running{false};
  std::thread shared([&] {
    const DeviceLock lock(device, DeviceLock::Mode::Shared);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    shared_done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
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
