// Grading on the device the course is about: -p/-d and --devices, cases a device cannot run, and
// a kernel right on one device and wrong on another.
#include <doctest/doctest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "isolation/devices.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

using json = nlohmann::json;

TEST_CASE("--devices takes PLATFORM[:DEVICE] items and names the item at fault") {
  const auto two = grader::parse_devices("pocl,nvidia:h200");
  REQUIRE(two.size() == 2);
  CHECK(two[0].platform == "pocl");
  CHECK(two[0].device.empty());
  CHECK(two[1].platform == "nvidia");
  CHECK(two[1].device == "h200");
  CHECK_THROWS_WITH_AS(grader::parse_devices("pocl,:1"), doctest::Contains("':1' is not PLATFORM or PLATFORM:DEVICE"), kit::Error);
  CHECK_THROWS_WITH_AS(grader::parse_devices("nvidia:"), doctest::Contains("'nvidia:'"), kit::Error);
  CHECK_THROWS_AS(grader::parse_devices(""), kit::Error);
  // "pocl" finds PoCL's platform, whose name does not contain it.
  CHECK(kit::spec_matches("pocl", 3, "Portable Computing Language"));
  CHECK_FALSE(kit::spec_matches("pocl", 0, "NVIDIA CUDA"));
}

TEST_CASE("a case the device cannot run is 'not run on this device' and counts for nothing") {
  test::TempDir dir;
  test::write(dir / "class" / "ann" / "ArrayMultReduce.cl",
              test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"));
  // PoCL told to offer work-groups of at most 1024: the hidden case at L = 4096 cannot run.
  const auto run = test::run_command("POCL_MAX_WORK_GROUP_SIZE=1024 " + test::kit_path("build/bin/grader") +
                                     " grade --labs 03 --no-races --submissions " + (dir / "class").string() + " --out " +
                                     (dir / "out").string() + " 2>&1");
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const json lab = json::parse(test::read(dir / "out" / "ann" / "report.json"))["labs"][0];
  bool seen = false;
  for (const json& c : lab["cases"]) {
    if (c["name"] != "PoCL's device maximum, L = 4096") continue;
    seen = true;
    CHECK(c["status"] == "not-run");
    CHECK(c["max_points"] == 0);
    CHECK(c["message"].get<std::string>().find("not run on this device: work-groups of L = 4096 are more than") != std::string::npos);
  }
  CHECK(seen);
  CHECK(lab["points"] == lab["max_points"]);  // the solution loses nothing for the device's limit
  CHECK(lab["device"].get<std::string>().find("on Portable Computing Language") != std::string::npos);
}

TEST_CASE("--devices: each case earns the least it earned on a device, and disagreement is named") {
  grader::LabResult cpu, gpu;
  cpu.status = gpu.status = grader::LabStatus::Graded;
  cpu.device = "pthread-haswell on Portable Computing Language (2 compute units, driver 3.1)";
  gpu.device = "NVIDIA H200 on NVIDIA CUDA (132 compute units, driver 580.159.04)";
  using grader::CaseStatus;
  cpu.cases = {{"L = 256", true, 1, 1, CaseStatus::Passed, "", "", 0.1}, {"L = 32", true, 1, 1, CaseStatus::Passed, "", "", 0.1},
               {"memory safety: data races (Oclgrind)", true, 0, 2, CaseStatus::Unsafe, "race", "", 1, grader::CaseKind::Safety}};
  gpu.cases = {{"L = 256", true, 0, 1, CaseStatus::Wrong, "group 3's sum is 12, not 16", "", 0.2},
               {"L = 32", true, 1, 1, CaseStatus::Passed, "", "", 0.1}};
  const grader::LabResult both = grader::combine_devices({cpu, gpu});
  CHECK(both.device == "pthread-haswell and NVIDIA H200");
  REQUIRE(both.cases.size() == 3);
  CHECK(both.cases[0].points == 0);
  CHECK(both.cases[0].status == CaseStatus::Wrong);
  CHECK(both.cases[0].message == "on pthread-haswell: passed; on NVIDIA H200: wrong, group 3's sum is 12, not 16");
  CHECK(both.cases[0].hint.rfind("right on pthread-haswell, wrong on NVIDIA H200: ", 0) == 0);
  CHECK(both.cases[1].status == CaseStatus::Passed);
  CHECK(both.cases[1].message.empty());
  CHECK(both.cases[2].status == CaseStatus::Unsafe);  // Oclgrind ran once, with the first device

  // Not built on one device: nothing ran there, and the message says where.
  gpu.status = grader::LabStatus::BuildError;
  gpu.message = "ptxas error: uses too much shared data";
  gpu.device.clear();
  const grader::LabResult unbuilt = grader::combine_devices({cpu, gpu});
  CHECK(unbuilt.status == grader::LabStatus::BuildError);
  CHECK(unbuilt.message == "on device 2: ptxas error: uses too much shared data");
}

TEST_CASE("--devices grades on each device in turn, and a device that matches nothing stops it before grading") {
  test::TempDir dir;
  test::write(dir / "class" / "ann" / "ArrayMult.cl", test::read(kit::root() / "solutions/01-array-mult/ArrayMult.cl"));
  const std::string args = " --labs 01 --no-races --submissions " + (dir / "class").string() + " --out " + (dir / "out").string();
  const auto twice = test::run_program("grader", "grade --devices pocl,0:0" + args);
  REQUIRE_MESSAGE(twice.exit_code == 0, twice.output);
  const json lab = json::parse(test::read(dir / "out" / "ann" / "report.json"))["labs"][0];
  CHECK(lab["points"] == lab["max_points"]);
  const std::string device = lab["device"];
  CHECK(device.find(" and ") != std::string::npos);

  const auto wrong = test::run_program("grader", "grade --devices pocl,no-such-gpu" + args + "2");
  CHECK(wrong.exit_code != 0);
  CHECK(wrong.output.find("--platform 'no-such-gpu' matches no platform") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "out2" / "gradebook.csv"));
}
