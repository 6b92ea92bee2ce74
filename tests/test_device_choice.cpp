// Device selection rules, on made-up machines (no OpenCL needed) and on this one.
#include <doctest/doctest.h>

#include <sstream>

#include "kit/device.hpp"
#include "kit/errors.hpp"
#include "support.hpp"

namespace {
const std::vector<kit::PlatformNames> kGpuThenPocl = {
    {"NVIDIA CUDA", {"NVIDIA H200", "NVIDIA H100"}, {false, false}},
    {"Portable Computing Language", {"pthread-skylake-avx512", "cuda-sm90"}, {true, false}},
};
kit::Choice choose(const std::string& p, const std::string& d) { return kit::choose_device(kGpuThenPocl, {p, d, false}); }
}  // namespace

TEST_CASE("spec_matches takes an index or a case-insensitive substring") {
  CHECK(kit::spec_matches("1", 1, "anything"));
  CHECK_FALSE(kit::spec_matches("1", 0, "device 1"));  // digits mean an index, not a name
  CHECK(kit::spec_matches("nViDiA", 0, "NVIDIA CUDA"));
  CHECK_FALSE(kit::spec_matches("amd", 0, "NVIDIA CUDA"));
}

TEST_CASE("the default is PoCL's CPU device, wherever PoCL is listed") {
  const kit::Choice c = choose("", "");
  CHECK(c.platform == 1);
  CHECK(c.device == 0);
  const std::vector<kit::PlatformNames> gpu_only = {{"NVIDIA CUDA", {"NVIDIA H200"}, {false}}};
  CHECK(kit::choose_device(gpu_only, {}).platform == 0);
  const std::vector<kit::PlatformNames> pocl_gpu_first = {
      {"Portable Computing Language", {"cuda-sm90", "pthread-zen4"}, {false, true}}};
  CHECK(kit::choose_device(pocl_gpu_first, {}).device == 1);
}

TEST_CASE("platform and device options pick by index or name") {
  CHECK(choose("nvidia", "").platform == 0);
  CHECK(choose("0", "").platform == 0);
  CHECK(choose("0", "1").device == 1);
  CHECK(choose("nvidia", "h100").device == 1);
  const kit::Choice by_name = choose("", "h100");  // a name searches every platform
  CHECK(by_name.platform == 0);
  CHECK(by_name.device == 1);
  const kit::Choice by_index = choose("", "1");  // an index counts on the default platform
  CHECK(by_index.platform == 1);
  CHECK(by_index.device == 1);
}

TEST_CASE("a choice that matches nothing names the value and lists what exists") {
  CHECK_THROWS_WITH_AS(choose("amd", ""), doctest::Contains("--platform 'amd' matches no platform"), kit::Error);
  CHECK_THROWS_WITH_AS(choose("", "mi300"), doctest::Contains("platform 1: Portable Computing Language"), kit::Error);
  CHECK_THROWS_WITH_AS(choose("nvidia", "5"), doctest::Contains("--device '5' matches no device on platform 'nvidia'"),
                       kit::Error);
}

TEST_CASE("this machine's default device is PoCL's CPU device") {
  const kit::Runtime& rt = test::runtime();
  CHECK((rt.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0);
  CHECK(rt.summary().find("Portable Computing Language") != std::string::npos);
  std::ostringstream list;
  kit::print_device_list(list);
  CHECK(list.str().find("Platform 0:") != std::string::npos);
  CHECK(list.str().find("max work-group size") != std::string::npos);
  CHECK(list.str().find("local memory") != std::string::npos);
}

TEST_CASE("PoCL's platform is told by its name, whatever the case, and no other platform is") {
  CHECK(kit::is_pocl("Portable Computing Language"));
  CHECK(kit::is_pocl("pocl"));
  CHECK_FALSE(kit::is_pocl("NVIDIA CUDA"));
  CHECK_FALSE(kit::is_pocl("Oclgrind"));
}
