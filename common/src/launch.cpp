// kit::launch and the lab programs' crash report (launch.hpp).
#include "kit/launch.hpp"

#include <signal.h>
#include <unistd.h>

#include <time.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <mutex>

namespace kit {
namespace {

// The message a crash prints, made before each launch: a signal handler may only write().
char crash_message[512] = "";
std::atomic<bool> reporting{false};
char lab_number[8] = "NN";
// Set by the first thread that crashes: a CPU device runs a kernel on several threads, and two of them
// faulting at once would interleave their reports. A later one waits for the first to end the process.
std::atomic_flag crash_reported = ATOMIC_FLAG_INIT;

void on_crash(int sig) {
  if (crash_reported.test_and_set())
    for (;;) pause();
  const char* what = sig == SIGSEGV ? "a segmentation fault" : sig == SIGBUS ? "a bus error" : sig == SIGFPE ? "an arithmetic fault" : "an illegal instruction";
  const char* head = "\ncrashed with ";
  (void)!write(STDERR_FILENO, head, std::strlen(head));
  (void)!write(STDERR_FILENO, what, std::strlen(what));
  (void)!write(STDERR_FILENO, crash_message, std::strlen(crash_message));
  signal(sig, SIG_DFL);  // then die of it, as without this report
  raise(sig);
}

}  // namespace

double monotonic_seconds() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// The launches under way and the waits: a wait runs while some launch has not started and none runs.
struct LaunchWaits::State {
  std::mutex lock;
  std::filesystem::path file;
  int waiting = 0, running = 0;
  double waited = 0, since = -1;
  bool active = true;

  void changed() {  // under lock
    const bool waits = waiting > 0 && running == 0;
    const double now = monotonic_seconds();
    if (!waits && since >= 0) waited += now - since, since = -1;
    if (waits && since < 0) since = now;
    if (!active) return;
    const std::filesystem::path part = file.string() + ".part";
    {
      std::ofstream out(part, std::ios::trunc);
      char text[64];
      std::snprintf(text, sizeof text, "%.6f %.6f\n", waited, since);
      out << text;
    }
    std::error_code ignored;
    std::filesystem::rename(part, file, ignored);
  }
};

namespace {

std::mutex observer_lock;
std::weak_ptr<LaunchWaits::State> observer;

// One launch followed: whether the device said it started, whether it ended, and the callbacks
// still to come (the last one frees it).
struct Followed {
  std::shared_ptr<LaunchWaits::State> state;
  bool started = false, ended = false;
  int callbacks = 0;
};

// Under the state's lock: the launch's status `status` (CL_RUNNING, CL_COMPLETE or an error; a
// callback asked for a status already passed may be told a later one).
void note(Followed& f, cl_int status) {
  if (status == CL_RUNNING && !f.started && !f.ended) {
    f.started = true;
    --f.state->waiting, ++f.state->running;
  } else if (status != CL_RUNNING && !f.ended) {
    f.ended = true;
    if (f.started) --f.state->running;
    else --f.state->waiting;
  }
  f.state->changed();
}

void CL_CALLBACK on_status(cl_event, cl_int status, void* data) {
  auto* f = static_cast<Followed*>(data);
  bool last = false;
  {
    std::lock_guard<std::mutex> g(f->state->lock);
    note(*f, status);
    last = --f->callbacks == 0;
  }
  if (last) delete f;
}

}  // namespace

LaunchWaits::LaunchWaits(std::filesystem::path file) : state_(std::make_shared<State>()) {
  state_->file = std::move(file);
  std::lock_guard<std::mutex> g(observer_lock);
  observer = state_;
}

LaunchWaits::~LaunchWaits() {
  {
    std::lock_guard<std::mutex> g(state_->lock);
    state_->active = false;  // launches still under way end quietly
  }
  std::lock_guard<std::mutex> g(observer_lock);
  observer.reset();
}

double launch_waits_in(const std::filesystem::path& file, double now) {
  std::ifstream in(file);
  double waited = 0, since = -1;
  if (!(in >> waited >> since)) return 0;
  return waited + (since >= 0 && now > since ? now - since : 0);
}

void launch(const cl::CommandQueue& queue, const cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local,
            const std::vector<cl::Event>* wait, cl::Event* done) {
  std::cout.flush();
  std::fflush(stdout);
  if (reporting) {
    const std::string name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
    std::snprintf(crash_message, sizeof crash_message,
                  " while kernel %s was running (or the last one launched): most often an index outside a buffer "
                  "or a local array. `build/bin/grader check %s --races` names the line.\n",
                  name.c_str(), lab_number);
  }
  std::shared_ptr<LaunchWaits::State> waits;
  {
    std::lock_guard<std::mutex> g(observer_lock);
    waits = observer.lock();
  }
  if (!waits) {
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, wait, done);
    return;
  }
  // The wait starts before the enqueue: a device that compiles inside clEnqueueNDRangeKernel,
  // before the event exists, has that compile counted too.
  {
    std::lock_guard<std::mutex> g(waits->lock);
    ++waits->waiting;
    waits->changed();
  }
  cl::Event event;
  try {
    queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, wait, &event);
  } catch (...) {
    std::lock_guard<std::mutex> g(waits->lock);
    --waits->waiting;
    waits->changed();
    throw;
  }
  if (done) *done = event;
  auto* f = new Followed{waits};
  f->callbacks = 2;  // set before either is asked for
  // A device that cannot call back at CL_RUNNING (OpenCL 1.x allows CL_COMPLETE only) counts the
  // whole launch as waiting; one that cannot call back at all, nothing.
  bool last = false;
  for (const cl_int status : {CL_RUNNING, CL_COMPLETE})
    if (clSetEventCallback(event(), status, on_status, f) != CL_SUCCESS) {
      std::lock_guard<std::mutex> g(waits->lock);
      if (status == CL_COMPLETE) note(*f, CL_COMPLETE);
      last = --f->callbacks == 0;
    }
  if (last) delete f;
}

void report_crashes(const std::string& lab) {
  std::snprintf(lab_number, sizeof lab_number, "%.2s", lab.c_str());
  std::snprintf(crash_message, sizeof crash_message,
                " before any kernel was launched.\n");
  struct sigaction action {};
  action.sa_handler = on_crash;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &action, nullptr);
  reporting = true;
}

}  // namespace kit
