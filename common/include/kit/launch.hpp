#pragma once
// Launching a kernel so that a crash says where it happened. A kernel that writes outside a buffer
// or a local array can kill a CPU device's process with a segmentation fault and no word of its
// own; the lab programs then print which kernel was running, after everything printed so far.
#include <string>

#include <vector>

#include "kit/opencl.hpp"

namespace kit {

// Flushes the program's output, notes `kernel` as the one running, and enqueues it.
void launch(const cl::CommandQueue& queue, const cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local,
            const std::vector<cl::Event>* wait = nullptr, cl::Event* done = nullptr);

// From now on a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL) prints the kernel that launch() enqueued
// last and `grader check NN --races`, which names the line at fault, then ends the process with
// the same signal. `lab` is the lab's folder name ("03-array-mult-reduce"). The lab programs call
// it (through kit::chosen_kernel); the grader's children do not: the grader reports a crash itself.
void report_crashes(const std::string& lab);

}  // namespace kit
