#pragma once
// A build service: one long-lived process that builds programs for short-lived ones, so that
// PoCL's fixed cost of a first build in a process (reading and linking its kernel library, about
// 0.5 s) is paid once instead of once per process. The service builds into PoCL's disk cache;
// the asking process then builds the same source with the same options and PoCL finds it there.
// Nothing is trusted to the service: whatever it answers, or if it never answers, the asking
// process builds the program itself, exactly as it would without one.
#include <string>

#include "kit/opencl.hpp"

namespace kit {

// The environment variable naming the service's UNIX socket: a path, or a name in Linux's abstract
// namespace written with a leading '@'. Unset: no service.
inline constexpr const char* kBuildServiceVariable = "KIT_BUILD_SERVICE";

// Asks the service named by KIT_BUILD_SERVICE to build `source` with `options` (the complete
// options, as clBuildProgram gets them). True when it built them; false when there is no
// service, it could not be reached, or the build failed there.
bool build_in_service(const std::string& source, const std::string& options);

// Serves builds on the UNIX socket `socket_path` (a path or '@name') for `device` until killed, one request at a
// time. A build that takes more than `build_limit_s` ends the service (SIGALRM): its client sees
// the connection close and builds the program itself, under its own limits.
[[noreturn]] void serve_builds(const std::string& socket_path, const cl::Context& context, const cl::Device& device,
                               unsigned build_limit_s);

}  // namespace kit
