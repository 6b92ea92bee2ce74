#include "isolation/speed_gate.hpp"

#include <thread>

#include "core/files.hpp"

namespace grader {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

SpeedGate::SpeedGate(const kit::DeviceOptions& device, fs::path dir, double limit_s) : device_(device), dir_(std::move(dir)) {
  // What an earlier speed child left in the folder must not open this one's gate.
  for (const char* name : {"ready", "go", "timed"}) fs::remove(dir_ / name);
  lock_.emplace(device_, DeviceLock::Mode::Shared);
  end_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit_s));
}

Clock::time_point SpeedGate::follow() {
  std::error_code ec;
  if (!alone_ && !timed_ && fs::exists(dir_ / "ready", ec)) {
    lock_.reset();  // a shared hold cannot become exclusive in place: give it up, then wait in line
    const Clock::time_point asked = Clock::now();
    lock_.emplace(device_, DeviceLock::Mode::Exclusive);
    const Clock::duration waited = Clock::now() - asked;
    waited_ += std::chrono::duration<double>(waited).count();
    end_ += waited;  // the child's time limit does not run while it waits for the device
    write_file_atomically(dir_ / "go", "");
    alone_ = true;
  }
  if (alone_ && fs::exists(dir_ / "timed", ec)) {
    lock_.reset();  // the child's device work is done: its outputs were read before its timed runs
    alone_ = false;
    timed_ = true;
  }
  return end_;
}

kit::TimedSection timed_section_at(const fs::path& dir) {
  return {[dir] {
            write_file_atomically(dir / "ready", "");
            std::error_code ec;
            while (!fs::exists(dir / "go", ec)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
          },
          [dir] { write_file_atomically(dir / "timed", ""); }};
}

}  // namespace grader
