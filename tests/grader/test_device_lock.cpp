// The grader's device lock: exclusive holders (speed cases, re-runs after a time-out) never overlap
// each other or a shared holder (a case child) on the same device; shared holders overlap freely;
// another device has a lock of its own.
#include <doctest/doctest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "isolation/case_runs.hpp"
#include "isolation/device_lock.hpp"
#include "judge/grade.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

namespace {

using grader::DeviceLock;
using json = nlohmann::json;

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

namespace {

// Waits up to a minute (a loaded machine) for `file`; whether it came.
bool comes(const std::filesystem::path& file) {
  for (int i = 0; i < 6000 && !std::filesystem::exists(file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return std::filesystem::exists(file);
}

}  // namespace

TEST_CASE("device lock on a GPU: the case child takes it around each case, and a case waiting for it past its limit keeps its verdict") {
  // A stand-in for `grader run-case` that does what the real child does with $KIT_DEVICE_LOCK
  // (case_child.cpp): case-I.waiting, the lock shared, case-I.locked, the result, the lock let go.
  test::TempDir dir;
  test::open_to_children(dir);
  const std::filesystem::path fake = dir / "fake-grader";
  test::write(fake, R"sh(#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in --result-dir) out=$2;; esac; shift; done
echo "lock=$KIT_DEVICE_LOCK" >> ")sh" + (dir / "seen").string() + R"sh("
echo '{"status":"built"}' > "$out/tmp" && mv "$out/tmp" "$out/built.json"
for i in 0 1; do
  if [ -n "$KIT_DEVICE_LOCK" ]; then : > "$out/case-$i.waiting"; exec 9< "$KIT_DEVICE_LOCK"; flock -s 9; : > "$out/case-$i.locked"; fi
  echo '{"status":"ok"}' > "$out/tmp"; mv "$out/tmp" "$out/case-$i.json"
  if [ -n "$KIT_DEVICE_LOCK" ]; then flock -u 9; fi
done
)sh");
  std::filesystem::permissions(fake, std::filesystem::perms::all);
  const auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"03"}).at(0);
  const double limit = spec.cases.at(0).time_limit_s;
  const kit::DeviceOptions device = device_named("kit-test-lock-each-case-" + std::to_string(::getpid()));
  const auto grade = [&](bool cpu_device, const std::string& work) {
    grader::GradeSettings s{fake, dir / work};
    s.device = device, s.cpu_device = cpu_device;
    std::filesystem::create_directories(s.workdir);
    return grader::run_cases(spec, s, dir / "K.cl", "K.cl", {0, 1}, [](std::size_t, const json&) { return grader::AfterCase::GoOn; });
  };

  // An exclusive holder (another kernel's speed case, say) keeps the device for the case's limit
  // and 1.5 s more while the child waits at its first case.
  std::optional<DeviceLock> other(std::in_place, device, DeviceLock::Mode::Exclusive);
  auto gpu = std::async(std::launch::async, [&] { return grade(false, "gpu"); });
  const bool waiting = comes(dir / "gpu" / "run0" / "case-0.waiting");
  if (!waiting) other.reset();  // else the grading thread would wait for it forever
  REQUIRE(waiting);
  std::this_thread::sleep_for(std::chrono::duration<double>(limit + 1.5));
  CHECK_FALSE(std::filesystem::exists(dir / "gpu" / "run0" / "case-0.locked"));  // it waited
  other.reset();
  const grader::CaseRuns runs = gpu.get();
  CHECK(std::filesystem::exists(dir / "gpu" / "run0" / "case-1.locked"));  // each case takes it
  for (std::size_t i = 0; i < 2; ++i) {
    CAPTURE(i);
    CHECK(runs.results[i].value("status", "") == "ok");
    CHECK_FALSE(runs.timed_out_first[i]);  // the wait was no case time
  }
  CHECK(runs.lock_wait_seconds >= limit + 1.5);  // counted as device waits (grader bench)

  // On PoCL's CPU device the parent holds the lock for the child's life: the child takes none.
  grade(true, "cpu");
  CHECK(test::read(dir / "seen") == "lock=" + DeviceLock::file(device).string() + "\nlock=\n");
  std::filesystem::remove(DeviceLock::file(device));
  std::filesystem::remove(DeviceLock::file(device).string() + ".turnstile");
}

TEST_CASE("device lock: grader run-case given $KIT_DEVICE_LOCK runs no case while another holds the device alone") {
  // The real child on PoCL, lab 01's first case: it builds, says it waits, and runs the case only
  // once the exclusive holder lets the device go.
  test::TempDir dir;
  const auto spec = grader::load_specs(kit::root() / "grader" / "specs", {"01"}).at(0);
  test::write(dir / "cases.json", json::array({spec.cases.at(0).params}).dump());
  std::filesystem::create_directories(dir / "out");
  const kit::DeviceOptions device = device_named("kit-test-child-lock-" + std::to_string(::getpid()));
  const std::filesystem::path lock = DeviceLock::file(device);
  std::optional<DeviceLock> other(std::in_place, device, DeviceLock::Mode::Exclusive);
  auto child = std::async(std::launch::async, [&] {
    return test::run_command("KIT_DEVICE_LOCK='" + lock.string() + "' '" + std::string(KIT_BIN_DIR) + "/grader' run-case --lab " + spec.lab +
                             " --kernel '" + (kit::root() / "solutions" / spec.lab / spec.kernel_file).string() + "' --shown-as " +
                             spec.kernel_file + " --cases '" + (dir / "cases.json").string() + "' --result-dir '" + (dir / "out").string() + "'");
  });
  const bool waiting = comes(dir / "out" / "case-0.waiting");
  if (!waiting) other.reset();  // else the child would wait for it forever
  REQUIRE(waiting);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CHECK(std::filesystem::exists(dir / "out" / "built.json"));
  CHECK_FALSE(std::filesystem::exists(dir / "out" / "case-0.locked"));
  CHECK_FALSE(std::filesystem::exists(dir / "out" / "case-0.json"));
  other.reset();
  const test::Command run = child.get();
  CHECK_MESSAGE(run.exit_code == 0, run.output);
  CHECK(std::filesystem::exists(dir / "out" / "case-0.locked"));
  REQUIRE(std::filesystem::exists(dir / "out" / "case-0.json"));
  CHECK(json::parse(test::read(dir / "out" / "case-0.json")).value("status", "") == "ok");
  std::filesystem::remove(lock);
  std::filesystem::remove(lock.string() + ".turnstile");
}
