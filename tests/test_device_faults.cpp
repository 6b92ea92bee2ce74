// The table of known device faults (common/data/known_device_faults.json): each reproducer is run
// on the installed PoCL and must be wrong exactly on the versions the table lists as faulty, and
// the note the lab programs' --list and grader check print for such a version.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "export/reports.hpp"
#include "kit/device_faults.hpp"
#include "kit/witness.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "kit/program.hpp"
#include "support.hpp"

namespace {

bool listed(const std::vector<std::string>& versions, const std::string& v) {
  return std::find(versions.begin(), versions.end(), v) != versions.end();
}

// What each work-group of the reproducer wrote, as a list of words.
std::vector<cl_uint> run_reproducer(const kit::Runtime& rt, const kit::FaultKernel& k) {
  const cl::Program program = kit::build_program(rt.context, rt.device, kit::root() / k.file);
  cl::Kernel kernel(program, "reproducer");
  const std::size_t groups = k.global / k.local;
  std::vector<cl_uint> out(groups, 0xFFFFFFFFu);
  cl::Buffer buffer(rt.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, groups * sizeof(cl_uint), out.data());
  kernel.setArg(0, buffer);
  rt.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(k.global), cl::NDRange(k.local));
  rt.queue.enqueueReadBuffer(buffer, CL_TRUE, 0, groups * sizeof(cl_uint), out.data());
  return out;
}

bool right(const std::vector<cl_uint>& out, const kit::FaultKernel& k) {
  return std::all_of(out.begin(), out.end(), [&](cl_uint v) { return v == k.expected; });
}

std::string shown(const std::vector<cl_uint>& out) {
  std::string s;
  for (const cl_uint v : out) s += (s.empty() ? "" : " ") + std::to_string(v);
  return s;
}

}  // namespace

TEST_CASE("known device faults: each reproducer is wrong on the PoCL versions the table lists, right on the others") {
  const kit::Runtime& rt = test::runtime();
  REQUIRE(kit::is_pocl(rt.platform.getInfo<CL_PLATFORM_NAME>()));
  const std::string version = kit::pocl_version(rt.device.getInfo<CL_DRIVER_VERSION>());
  REQUIRE_MESSAGE(!version.empty(), "no PoCL version in the driver version " << rt.device.getInfo<CL_DRIVER_VERSION>());
  const std::vector<kit::DeviceFault> faults = kit::known_device_faults();
  REQUIRE(!faults.empty());
  for (const kit::DeviceFault& f : faults) {
    const bool faulty = listed(f.faulty, version);
    for (const kit::FaultKernel& k : f.reproducers) {
      CAPTURE(k.file);
      const std::vector<cl_uint> out = run_reproducer(rt, k);
      if (faulty)
        CHECK_MESSAGE(!right(out, k), "PoCL " << version << " no longer has fault " << f.id << " (" << k.file
                                              << " computes " << k.expected << " in every work-group): update the table, "
                                              << kit::device_faults_file().string());
      else
        CHECK_MESSAGE(right(out, k), "PoCL " << version << " has fault " << f.id << ", which the table does not list for it: "
                                             << k.file << " computes " << shown(out) << " where every work-group should have "
                                             << k.expected << ": add " << version << " to \"faulty\" in "
                                             << kit::device_faults_file().string());
    }
    // The rewrite the note recommends is right on every version, faulty or not.
    const std::vector<cl_uint> out = run_reproducer(rt, f.rewritten);
    CHECK_MESSAGE(right(out, f.rewritten), f.rewritten.file << " (the rewrite of fault " << f.id << ") computes " << shown(out)
                                                            << " on PoCL " << version << ", not " << f.rewritten.expected);
  }
}

TEST_CASE("known device faults: the note names the fault and its rewrite for a faulty PoCL version only") {
  const std::vector<kit::DeviceFault> faults = kit::known_device_faults();
  REQUIRE(!faults.empty());
  const kit::DeviceFault& f = faults.front();
  REQUIRE(!f.faulty.empty());
  const std::string bad = f.faulty.front();
  const std::vector<std::string> notes = kit::device_fault_notes(faults, "Portable Computing Language", bad + "+debian");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("PoCL " + bad + " has a known compiler fault (" + f.id + ")") == 0);
  CHECK(notes[0].find("rewrite: " + f.rewrite) != std::string::npos);
  CHECK(kit::device_fault_notes(faults, "Portable Computing Language", "99.0").empty());
  CHECK(kit::device_fault_notes(faults, "NVIDIA CUDA", bad).empty());  // another platform's version numbers
  CHECK(kit::pocl_version("3.1+debian") == "3.1");
  CHECK(kit::pocl_version("6.0-pocl") == "6.0");
  CHECK(kit::pocl_version("12.15") == "12.15");
  CHECK(kit::pocl_version("v3.1").empty());
  CHECK(kit::pocl_version("3").empty());

  // The grader's note (a note of the lab's result, in every report): only where the kernel has the
  // loop the fault miscompiles, and only on a faulty version.
  const std::string looped = "kernel void k(local int* s) {\n  for (uint i = 1; i < get_local_size(0); i *= 2) barrier(CLK_LOCAL_MEM_FENCE);\n}\n";
  const std::string faulty_device = "pthread-x on Portable Computing Language (1 compute units, driver " + bad + "+debian)";
  CHECK(kit::known_device_fault_rewrite(looped, faulty_device) == notes[0]);
  CHECK(kit::known_device_fault_rewrite("kernel void k(local int* s) {\n  uint L = get_local_size(0);\n}\n", faulty_device).empty());
  CHECK(kit::known_device_fault_rewrite(looped, "pthread-x on Portable Computing Language (1 compute units, driver 99.0)").empty());
  grader::LabResult r;
  r.lab = "03-array-mult-reduce";
  r.device = faulty_device;
  CHECK(grader::check_report(r).find("known compiler fault") == std::string::npos);  // no loop, no note
  r.notes.push_back(notes[0]);
  CHECK(grader::check_report(r).find("\n  note: " + notes[0] + "\n") != std::string::npos);

  // A lab program's --list, on the installed PoCL: the note exactly when its version is faulty.
  const std::string installed = kit::pocl_version(test::runtime().device.getInfo<CL_DRIVER_VERSION>());
  const test::Command list = test::run_program("01-array-mult", "--list");
  REQUIRE(list.exit_code == 0);
  const bool noted = list.output.find("note: PoCL " + installed + " has a known compiler fault (" + f.id + ")") != std::string::npos;
  CHECK_MESSAGE(noted == listed(f.faulty, installed), list.output);
}

TEST_CASE("known device faults: a malformed table is refused with the entry and the field") {
  const kit::json good = kit::json::parse(test::read(kit::device_faults_file()));
  REQUIRE_NOTHROW(kit::device_faults_from_json(good));
  const auto refused = [](kit::json table, const std::string& says) {
    try {
      kit::device_faults_from_json(table);
      FAIL("accepted: " << table.dump());
    } catch (const kit::Error& e) {
      CHECK_MESSAGE(std::string(e.what()).find(says) != std::string::npos, std::string(e.what()));
    }
  };
  kit::json t = good;
  t["faults"][0].erase("rewrite");
  refused(t, "fault \"barrier-loop-size-bound\": no \"rewrite\"");
  t = good;
  t["faults"][0]["faulty"].push_back("three");
  refused(t, "not a version such as \"3.1\"");
  t = good;
  t["faults"][0]["right"].push_back(t["faults"][0]["faulty"][0]);
  refused(t, "is listed twice");
  t = good;
  t["faults"][0]["reproducers"][0]["local"] = 7;
  refused(t, "\"global\" must be a multiple of \"local\"");
  t = good;
  t["faults"][0]["platform"] = "NVIDIA";
  refused(t, "only \"PoCL\" is known");
}
