#pragma once
// Errors the kit reports to people: one exception type for "you asked for something that cannot
// work", readable names for OpenCL status codes, and a main() wrapper that prints either.
#include <functional>
#include <stdexcept>
#include <string>

#include "kit/opencl.hpp"

namespace kit {

// A problem with the user's input or environment; the message is shown as it is.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A case this device cannot run at all, whatever the kernel (a work-group larger than it allows):
// the grader reports it as "not run on this device", not as the student's mistake.
struct DeviceLimit : Error {
  using Error::Error;
};

// "CL_INVALID_WORK_GROUP_SIZE (-54)" for a status code.
std::string cl_status_name(cl_int status);

// Whether a failed OpenCL call reports a kernel that failed while it ran on the device rather than
// a call the host got wrong: a call that runs or waits for commands (clFinish, clWaitForEvents,
// clEnqueue...) returning CL_INVALID_COMMAND_QUEUE (measured: the H200's clFinish after a kernel
// read or wrote far outside its buffers, a fault that ends the queue), CL_OUT_OF_RESOURCES or
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (the statuses the OpenCL specification gives such
// calls for a command that could not complete). On a GPU that is what a crash is on a CPU.
bool kernel_failed_on_device(const cl::Error& e);

// Runs a program body (after kit::parse_args), printing "error: ..." for kit::Error, a named status for cl::Error and the
// text of any other exception; returns the body's exit status or 1.
int guarded_main(const std::function<int()>& body);

}  // namespace kit
