// The speed case's gate (isolation/speed_gate.hpp): its child builds and runs its kernels untimed
// while other grading holds the device, and its timed runs wait until the device is its alone.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "isolation/device_lock.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

namespace {

// Whether a file named `name` is anywhere under `dir` now (the grader makes and removes folders
// there while it is looked at: what cannot be read is passed over).
bool file_under(const std::filesystem::path& dir, const std::string& name) {
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, std::filesystem::directory_options::skip_permission_denied, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (it->path().filename() == name) return true;
  return false;
}

// A lock on `device` taken as the grader would take it with TMPDIR=`tmp`.
std::unique_ptr<grader::DeviceLock> lock_in(const std::filesystem::path& tmp, const kit::DeviceOptions& device) {
  const char* was = std::getenv("TMPDIR");
  const std::optional<std::string> old = was ? std::optional<std::string>(was) : std::nullopt;
  setenv("TMPDIR", tmp.c_str(), 1);
  auto lock = std::make_unique<grader::DeviceLock>(device, grader::DeviceLock::Mode::Shared);
  if (old) setenv("TMPDIR", old->c_str(), 1);
  else unsetenv("TMPDIR");
  return lock;
}

}  // namespace

TEST_CASE("a speed case builds and runs untimed beside other grading, and times its runs only with the device to itself") {
  // The grader's temporary folder is a fresh one: its scratch folders are looked into, and its
  // device lock is apart from the other tests' graders.
  test::TempDir tmp;
  test::open_to_children(tmp);  // where its children, as another user under root, get their folders
  // The first lab whose spec has a speed case that `grader check` estimates (lab 06 today).
  std::optional<grader::LabSpec> lab;
  for (const grader::LabSpec& spec : grader::load_specs(kit::root() / "grader" / "specs"))
    if (!lab && spec.speed && spec.speed->estimate) lab = spec;
  REQUIRE_MESSAGE(lab, "no lab's spec has a speed case that grader check estimates");
  kit::DeviceOptions device;
  device.platform = "pocl";
  // Another grader's case child, as it were, holds the device shared.
  std::unique_ptr<grader::DeviceLock> other = lock_in(tmp.path, device);
  auto check = std::async(std::launch::async, [&] {
    return test::run_command("TMPDIR='" + tmp.path.string() + "' '" + std::string(KIT_BIN_DIR) + "/grader' check " + lab->lab +
                             " -p pocl --dir '" + (kit::root() / "solutions").string() + "' 2>&1");
  });
  // The speed child gets as far as its timed runs while the device is held: ready (about 2 s for
  // lab 06 here, 2026-11-28). Three minutes as a guard: a grader that waits for the device before it starts the
  // child would wait for this holder for ever.
  bool ready = false;
  for (int i = 0; i < 3600 && !ready; ++i) {
    ready = file_under(tmp.path, "ready");
    if (!ready && check.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready) break;
  }
  // Its timed runs wait for the holder: no go while it holds the device (looked at again after a
  // while, for a grader that would take longer to write it).
  bool go_while_held = file_under(tmp.path, "go");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  go_while_held = go_while_held || file_under(tmp.path, "go") || file_under(tmp.path, "timed");
  other.reset();
  const test::Command run = check.get();
  INFO(run.output);
  CHECK(ready);
  CHECK_FALSE(go_while_held);
  CHECK(run.output.find("speed estimate against the solution") != std::string::npos);
  CHECK(run.output.find("(median of " + std::to_string(lab->speed->pairs) + " alternating pairs") != std::string::npos);
}
