// grader doctor, and the grader failing closed where Oclgrind does not really run: a line that
// rests on Oclgrind earns nothing without the proof that it ran (the child on Oclgrind's device,
// the kit's plugin's record of the launch), says why and how to fix it, and no witness speaks.
//
// The broken Oclgrind is a stand-in that does what an `oclgrind` program whose runtime library is
// missing does (a copy of the program without its lib/oclgrind/ folder, a moved prefix): the
// loader cannot preload the library, says so, and runs the program untouched on the ordinary
// platform.
#include <doctest/doctest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "kit/paths.hpp"
#include "support.hpp"

namespace {

std::filesystem::path oclgrind_without_runtime(const test::TempDir& dir) {
  const std::filesystem::path program = dir / "bin" / "oclgrind";
  std::filesystem::create_directories(program.parent_path());
  test::write(program,
              "#!/bin/sh\n"
              "# oclgrind's own options, and the values of those that take one, are dropped; the program runs with a\n"
              "# runtime library that is not there, as a copy of oclgrind without its lib/oclgrind/ folder runs it.\n"
              "while [ $# -gt 0 ]; do\n"
              "  case \"$1\" in\n"
              "    --log|--build-options|--plugins|--max-wgsize|--max-errors|--num-threads) shift 2 ;;\n"
              "    --*) shift ;;\n"
              "    *) break ;;\n"
              "  esac\n"
              "done\n"
              "LD_PRELOAD=" + (dir / "lib" / "oclgrind" / "liboclgrind-rt.so").string() + " exec \"$@\"\n");
  std::filesystem::permissions(program, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                            std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                            std::filesystem::perms::others_exec);
  test::open_to_children(dir);
  return program;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// PoCL's CPU device as OpenCL names it: pthread-<cpu> up to PoCL 5, cpu-<target>-<cpu> in PoCL 6.
std::string pocl_device_name() { return test::runtime().device.getInfo<CL_DEVICE_NAME>(); }

}  // namespace

TEST_CASE("grader doctor on this machine: OpenCL, PoCL with its known faults and Oclgrind with the kit's plugin each tried, nothing to fix") {
  const test::Command doctor = test::run_program("grader", "doctor");
  CAPTURE(doctor.output);
  CHECK(doctor.exit_code == 0);
  CHECK(has(doctor.output, "Everything the grader needs works here."));
  CHECK(has(doctor.output, "builds and runs a one-line kernel (" + pocl_device_name() + " on "));
  CHECK(has(doctor.output, "known compiler fault barrier-loop-size-bound"));
  CHECK(has(doctor.output, "runs a kernel on Oclgrind's device, and the kit's plugin records it"));
  CHECK_FALSE(has(doctor.output, "PROBLEM"));
}

TEST_CASE("grader doctor names each broken part and the command that fixes it, and exits 1") {
  test::TempDir dir;
  SUBCASE("an oclgrind whose runtime library cannot be loaded") {
    const std::filesystem::path oclgrind = oclgrind_without_runtime(dir);
    const test::Command doctor = test::run_command("KIT_OCLGRIND=" + oclgrind.string() + " " + test::kit_path("build/bin/grader") + " doctor");
    CAPTURE(doctor.output);
    CHECK(doctor.exit_code == 1);
    CHECK(has(doctor.output, "PROBLEM " + oclgrind.string() + " ran the kernel on " + pocl_device_name()));
    CHECK(has(doctor.output, "not on Oclgrind's device: its runtime library was not loaded"));
    CHECK(has(doctor.output, "cannot be preloaded"));
    CHECK(has(doctor.output, "fix: grade with --no-oclgrind until it is fixed"));
    CHECK(has(doctor.output, "1 problem(s)"));
  }
  SUBCASE("the kit's plugin missing") {
    const test::Command doctor =
        test::run_command("KIT_WORK_SPAN_PLUGIN=" + (dir / "libkit-work-span.so").string() + " " + test::kit_path("build/bin/grader") + " doctor");
    CAPTURE(doctor.output);
    CHECK(doctor.exit_code == 1);
    CHECK(has(doctor.output, "the kit's Oclgrind plugin " + (dir / "libkit-work-span.so").string() + " is missing"));
    CHECK(has(doctor.output, "make build"));
  }
  SUBCASE("PoCL's known faults' reproducers not in the kit") {
    // The kit seen through KIT_ROOT without its tests/ folder, where the reproducers lie: the device
    // still answers, and the faults that could not be tried are a problem naming the file.
    std::filesystem::create_directories(dir / "kit");
    for (const auto& entry : std::filesystem::directory_iterator(kit::root()))
      if (entry.path().filename() != "tests") std::filesystem::create_symlink(entry.path(), dir / "kit" / entry.path().filename());
    const test::Command doctor =
        test::run_command("KIT_ROOT=" + (dir / "kit").string() + " " + test::kit_path("build/bin/grader") + " doctor");
    CAPTURE(doctor.output);
    CHECK(doctor.exit_code == 1);
    CHECK(has(doctor.output, "builds and runs a one-line kernel (" + pocl_device_name() + " on "));
    CHECK(has(doctor.output, "PROBLEM PoCL's known compiler faults could not be tried: "));
    CHECK(has(doctor.output, (dir / "kit" / "tests" / "pocl_faults").string()));
    CHECK(has(doctor.output, "tests/pocl_faults/ are there (git status)"));
    CHECK_FALSE(has(doctor.output, "known compiler fault barrier-loop-size-bound"));
  }
  SUBCASE("no OpenCL driver registered") {
    std::filesystem::create_directories(dir / "vendors");
    const test::Command doctor =
        test::run_command("OCL_ICD_VENDORS=" + (dir / "vendors").string() + " " + test::kit_path("build/bin/grader") + " doctor");
    CAPTURE(doctor.output);
    CHECK(doctor.exit_code == 1);
    CHECK(has(doctor.output, "no OpenCL driver is registered: " + (dir / "vendors").string() + " holds no .icd file"));
    CHECK(has(doctor.output, "fix: sudo scripts/setup.sh"));
  }
}

TEST_CASE("an Oclgrind that does not run: no memory-safety or algorithm points, no witness, and grade refuses to start") {
  test::TempDir dir;
  const std::filesystem::path oclgrind = oclgrind_without_runtime(dir);
  const std::string env = "KIT_OCLGRIND=" + oclgrind.string() + " ";
  // The solution of lab 03 with every line shown: the case lines stand (they are the device's), the
  // lines that rest on Oclgrind are not-run with the reason and the fix, and earn nothing.
  const test::Command check = test::run_command(env + test::kit_path("build/bin/grader") + " check 03 --races --dir " + test::kit_path("solutions"));
  CAPTURE(check.output);
  CHECK(check.exit_code == 1);
  CHECK(has(check.output, "PASS one work-group of 8"));
  for (const char* line : {"memory safety: data races (Oclgrind)", "memory safety: invalid memory accesses (Oclgrind)",
                           "algorithm: ArrayMultReduce (measured under Oclgrind)"}) {
    CAPTURE(line);
    const std::size_t at = check.output.find(line);
    REQUIRE(at != std::string::npos);
    CHECK(check.output.compare(at - 5, 5, "FAIL ") == 0);
    const std::string block = check.output.substr(at, check.output.find("\n  ", check.output.find('\n', at) + 1) - at);
    CHECK(has(block, "not run: the run under Oclgrind ran on " + pocl_device_name()));
    CHECK(has(block, "Oclgrind's runtime library was not loaded"));
    CHECK(has(block, "grader doctor"));
  }
  CHECK_FALSE(has(check.output, "DEVICE "));
  CHECK(has(check.output, "cases 5 / 5, memory safety 0 / 5, algorithm 0 / 3"));

  // A class is not graded at all: the instructor fixes Oclgrind or chooses --no-oclgrind.
  std::filesystem::create_directories(dir / "class" / "ada");
  std::filesystem::copy_file(kit::root() / "solutions" / "03-array-mult-reduce" / "ArrayMultReduce.cl", dir / "class" / "ada" / "ArrayMultReduce.cl");
  const test::Command grade = test::run_command(env + test::kit_path("build/bin/grader") + " grade --labs 03 --submissions " +
                                                (dir / "class").string() + " --out " + (dir / "out").string());
  CAPTURE(grade.output);
  CHECK(grade.exit_code == 1);
  CHECK(has(grade.output, "Oclgrind does not work here"));
  CHECK(has(grade.output, "--no-oclgrind"));
  CHECK_FALSE(std::filesystem::exists(dir / "out" / "gradebook.csv"));
}

TEST_CASE("grader doctor's probe names what kept PoCL's known faults from being tried, and still answers for the device") {
  // The doctor copies the faults' table and kernels for its probe (which runs as nobody under
  // root, who may not read the kit's folder); where they cannot be read, the probe says so
  // instead of leaving the faults out, and the doctor shows it as a problem.
  test::TempDir dir;
  const test::Command probe = test::run_program("grader", "doctor --probe --faults " + (dir / "no-such-copy").string());
  CAPTURE(probe.output);
  CHECK(probe.exit_code == 0);
  const std::size_t at = probe.output.find("{\"device\"");
  REQUIRE(at != std::string::npos);
  const auto answer = nlohmann::json::parse(probe.output.substr(at, probe.output.find('\n', at) - at));
  CHECK(answer.value("ok", false));
  CHECK(answer.at("faults").empty());
  CHECK(has(answer.value("faults_error", std::string()), (dir / "no-such-copy").string()));
}
