#include "kit/errors.hpp"

#include <iostream>

namespace kit {

std::string cl_status_name(cl_int status) {
  const char* name = "unknown status";
  switch (status) {
#define KIT_STATUS(x) \
  case x:             \
    name = #x;        \
    break;
    KIT_STATUS(CL_SUCCESS)
    KIT_STATUS(CL_DEVICE_NOT_FOUND)
    KIT_STATUS(CL_DEVICE_NOT_AVAILABLE)
    KIT_STATUS(CL_COMPILER_NOT_AVAILABLE)
    KIT_STATUS(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    KIT_STATUS(CL_OUT_OF_RESOURCES)
    KIT_STATUS(CL_OUT_OF_HOST_MEMORY)
    KIT_STATUS(CL_BUILD_PROGRAM_FAILURE)
    KIT_STATUS(CL_MAP_FAILURE)
    KIT_STATUS(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    KIT_STATUS(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    KIT_STATUS(CL_INVALID_VALUE)
    KIT_STATUS(CL_INVALID_DEVICE_TYPE)
    KIT_STATUS(CL_INVALID_PLATFORM)
    KIT_STATUS(CL_INVALID_DEVICE)
    KIT_STATUS(CL_INVALID_CONTEXT)
    KIT_STATUS(CL_INVALID_QUEUE_PROPERTIES)
    KIT_STATUS(CL_INVALID_COMMAND_QUEUE)
    KIT_STATUS(CL_INVALID_HOST_PTR)
    KIT_STATUS(CL_INVALID_MEM_OBJECT)
    KIT_STATUS(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    KIT_STATUS(CL_INVALID_IMAGE_SIZE)
    KIT_STATUS(CL_INVALID_SAMPLER)
    KIT_STATUS(CL_INVALID_BINARY)
    KIT_STATUS(CL_INVALID_BUILD_OPTIONS)
    KIT_STATUS(CL_INVALID_PROGRAM)
    KIT_STATUS(CL_INVALID_PROGRAM_EXECUTABLE)
    KIT_STATUS(CL_INVALID_KERNEL_NAME)
    KIT_STATUS(CL_INVALID_KERNEL_DEFINITION)
    KIT_STATUS(CL_INVALID_KERNEL)
    KIT_STATUS(CL_INVALID_ARG_INDEX)
    KIT_STATUS(CL_INVALID_ARG_VALUE)
    KIT_STATUS(CL_INVALID_ARG_SIZE)
    KIT_STATUS(CL_INVALID_KERNEL_ARGS)
    KIT_STATUS(CL_INVALID_WORK_DIMENSION)
    KIT_STATUS(CL_INVALID_WORK_GROUP_SIZE)
    KIT_STATUS(CL_INVALID_WORK_ITEM_SIZE)
    KIT_STATUS(CL_INVALID_GLOBAL_OFFSET)
    KIT_STATUS(CL_INVALID_EVENT_WAIT_LIST)
    KIT_STATUS(CL_INVALID_EVENT)
    KIT_STATUS(CL_INVALID_OPERATION)
    KIT_STATUS(CL_INVALID_BUFFER_SIZE)
    KIT_STATUS(CL_INVALID_GLOBAL_WORK_SIZE)
    KIT_STATUS(CL_INVALID_PROPERTY)
#undef KIT_STATUS
    default:
      break;
  }
  return std::string(name) + " (" + std::to_string(status) + ")";
}

bool kernel_failed_on_device(const cl::Error& e) {
  const std::string call = e.what();
  const bool runs_commands = call == "clFinish" || call == "clWaitForEvents" || call == "clFlush" || call.rfind("clEnqueue", 0) == 0;
  const cl_int status = e.err();
  return runs_commands &&
         (status == CL_OUT_OF_RESOURCES || status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST || status == CL_INVALID_COMMAND_QUEUE);
}

int guarded_main(const std::function<int()>& body) {
  try {
    return body();
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (const cl::Error& e) {
    std::cerr << "error: OpenCL call " << e.what() << " failed with " << cl_status_name(e.err()) << "\n";
    if (kernel_failed_on_device(e))
      std::cerr << "The kernel failed while it ran on the device: on a GPU that is most often an access outside a "
                   "buffer. Check every index against its array's size (the grader's Oclgrind check names the line).\n";
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
  }
  return 1;
}

}  // namespace kit
