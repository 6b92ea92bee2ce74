// kit::launch and the lab programs' crash report (launch.hpp).
#include "kit/launch.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <iostream>

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
  queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, wait, done);
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
