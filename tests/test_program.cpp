// Building kernel files: readable build errors and signature checks; telling a kernel that failed on the device.
#include <doctest/doctest.h>

#include "array_mult_reduce.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "kit/program.hpp"
#include "grader/lab/driver.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

TEST_CASE("build logs are rewritten to file:line:col: error") {
  const std::string pocl = "error: /tmp/kcache/tempfile_x.cl:5:38: expected ';' after expression\n    code\n";
  const std::string clang = "<kernel>:12:3: warning: unused variable 'x'\n";
  CHECK(kit::rewrite_build_log(pocl, "labs/k.cl") ==
        "labs/k.cl:5:38: error: expected ';' after expression\n    code\n");
  CHECK(kit::rewrite_build_log(clang, "labs/k.cl") == "labs/k.cl:12:3: warning: unused variable 'x'\n");
  CHECK(kit::rewrite_build_log("plain text", "labs/k.cl") == "plain text\n");
}

TEST_CASE("a build failure names the student's file, line and column") {
  const std::string file = test::data("broken_syntax.cl").string();
  try {
    kit::build_program(test::runtime().context, test::runtime().device, file);
    FAIL("the broken kernel compiled");
  } catch (const kit::BuildError& e) {
    CHECK(e.file == file);
    CHECK(std::string(e.what()).find(file + ":5:38:") != std::string::npos);
    CHECK(e.log.find(": error: expected ';'") != std::string::npos);
  }
}

TEST_CASE("a missing file is named") {
  CHECK_THROWS_WITH_AS(kit::read_text_file("/no/such/kernel.cl"), doctest::Contains("/no/such/kernel.cl"), kit::Error);
}

TEST_CASE("parameter declarations parse into address space and type") {
  CHECK(kit::param_shape("global const float *dA").space == "global");
  CHECK(kit::param_shape("global const float *dA").type == "float*");
  CHECK(kit::param_shape("__local float* prods").space == "local");
  CHECK(kit::param_shape("int n").space == "private");
  CHECK(kit::param_shape("int n").type == "int");
  CHECK(kit::param_shape("read_only image2d_t src").space == "global");
  CHECK(kit::param_shape("__write_only image2d_t dst").type == "image2d_t");
  CHECK(kit::param_shape("global const float *dA").const_data);
  CHECK(kit::param_shape("__global float const* dA").const_data);
  CHECK_FALSE(kit::param_shape("global float *dC").const_data);
  CHECK_FALSE(kit::param_shape("global float *const dC").const_data);  // the pointer is const, not the data
  CHECK_FALSE(kit::param_shape("const uint n").const_data);             // a value, not data
  CHECK(lab03::kSignature.text() ==
        "kernel void ArrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)");
}

namespace {
std::string kernel_error(const std::string& fixture) {
  const std::string file = test::data(fixture).string();
  cl::Program p = kit::build_program(test::runtime().context, test::runtime().device, file);
  try {
    kit::make_kernel(p, lab03::kSignature, file);
  } catch (const kit::Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("a wrong kernel name, parameter count or address space names the expected signature") {
  const std::string expected = lab03::kSignature.text();
  const std::string misnamed = kernel_error("misnamed.cl");
  CHECK(misnamed.find("no kernel named 'ArrayMultReduce'") != std::string::npos);
  CHECK(misnamed.find("arrayMultReduce") != std::string::npos);  // what was found instead
  CHECK(misnamed.find(expected) != std::string::npos);
  const std::string short_one = kernel_error("three_params.cl");
  CHECK(short_one.find("takes 3 parameters, not 4") != std::string::npos);
  CHECK(short_one.find(expected) != std::string::npos);
  const std::string global_prods = kernel_error("wrong_address_space.cl");
  CHECK(global_prods.find("parameter 3") != std::string::npos);
  CHECK(global_prods.find("expected local float*") != std::string::npos);
}

namespace {
// The lab 03 solution with `from` replaced by `to`, saved in `dir`; its path.
std::string lab03_variant(const test::TempDir& dir, const std::string& from, const std::string& to) {
  const std::string solution = test::read(kit::lab_file(lab03::kLab, lab03::kKernelFile, true));
  test::write(dir / lab03::kKernelFile, test::replace_once(solution, from, to));
  return (dir / lab03::kKernelFile).string();
}
}  // namespace

TEST_CASE("an input the lab declares const must be const: the file, kernel, parameter and what to write are named") {
  test::TempDir dir;
  // dA without const, and the kernel writes into it: it still computes the right sums.
  const std::string file = lab03_variant(dir, "global const float *dA", "global float *dA");
  const std::string source = test::replace_once(test::read(file), "prods[tnum] = dA[gid] * dB[gid];", "prods[tnum] = dA[gid] *= dB[gid];");
  test::write(file, source);
  const cl::Program p = kit::build_program(test::runtime().context, test::runtime().device, file, "", "ArrayMultReduce.cl");
  CHECK_THROWS_WITH_AS(kit::make_kernel(p, lab03::kSignature, "ArrayMultReduce.cl"),
                       ("ArrayMultReduce.cl: kernel ArrayMultReduce, parameter 1 (dA): declared \"global float *dA\"; the lab's "
                        "signature is \"global const float *dA\" (an input the kernel only reads is const).\nThe lab expects:\n    " +
                        lab03::kSignature.text())
                           .c_str(),
                       kit::Error);
  const std::string solution = kit::lab_file(lab03::kLab, lab03::kKernelFile, true).string();
  CHECK_NOTHROW(kit::make_kernel(kit::build_program(test::runtime().context, test::runtime().device, solution), lab03::kSignature,
                                 solution));
  // The grader refuses it at the build step, with the same message.
  test::write(dir / lab03::kLab / lab03::kKernelFile, source);
  const auto run = test::run_program("grader", "check 03 --dir " + dir.path.string());
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("parameter 1 (dA): declared \"global float *dA\"; the lab's signature is \"global const float *dA\"") !=
        std::string::npos);
}

TEST_CASE("a const the lab does not ask for is accepted") {
  test::TempDir dir;
  const std::string file = lab03_variant(dir, "global float *dC)", "global const float *dC)");
  test::write(file, test::replace_once(test::read(file), "dC[wgNum] = prods[0];", "(void)dC;"));
  const cl::Program p = kit::build_program(test::runtime().context, test::runtime().device, file);
  CHECK_NOTHROW(kit::make_kernel(p, lab03::kSignature, file));
}

TEST_CASE("every lab's starter and solution declare every kernel with the lab's signature, const included") {
  for (const grader::LabSpec& spec : grader::load_specs(kit::root() / "grader" / "specs")) {
    for (const bool solution : {false, true}) {
      const std::string file = kit::lab_file(spec.lab, spec.kernel_file, solution).string();
      CAPTURE(file);
      const cl::Program p = kit::build_program(test::runtime().context, test::runtime().device, file);
      for (const kit::KernelSignature& k : grader::lab_driver(spec.lab).kernels()) CHECK_NOTHROW(kit::make_kernel(p, k, file));
    }
  }
}

TEST_CASE("an array above the device's largest allocation is refused with both sizes") {
  const cl::Device& device = test::runtime().device;
  const std::size_t most = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>() / sizeof(float);
  CHECK_NOTHROW(kit::check_float_array(device, most));
  CHECK_THROWS_WITH_AS(kit::check_float_array(device, most + 1), doctest::Contains("above this device's largest allocation"),
                       kit::Error);
}

TEST_CASE("a local size above the device's limit names both values") {
  const kit::Runtime& rt = test::runtime();
  const std::string file = kit::lab_file(lab03::kLab, lab03::kKernelFile, true).string();
  cl::Kernel k = kit::make_kernel(kit::build_program(rt.context, rt.device, file), lab03::kSignature, file);
  const std::size_t max = rt.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  CHECK_NOTHROW(kit::check_local_size(rt.device, k, max, max * 4));
  const std::string message = "local size " + std::to_string(2 * max) +
                              " is above this device's maximum work-group size " + std::to_string(max);
  CHECK_THROWS_WITH_AS(kit::check_local_size(rt.device, k, 2 * max, 8 * max), doctest::Contains(message.c_str()),
                       kit::Error);
}

// ptxas's --verbose lines as NVIDIA's driver (580.159.04, an H200) writes them into a build log.
TEST_CASE("ptxas's register count is read for the kernel named, and a kernel it does not list gives -1") {
  const std::string log =
      "(): Warning: Function DotCascade is a kernel, so overriding noinline attribute.\n\n"
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'SumPartials' for 'sm_90a'\n"
      "ptxas info    : Function properties for SumPartials\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 10 registers, used 1 barriers\n"
      "ptxas info    : Compile time = 2.160 ms\n"
      "ptxas info    : Compiling entry function 'DotCascade' for 'sm_90a'\n"
      "ptxas info    : Function properties for DotCascade\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 30 registers, used 1 barriers, 8 bytes smem\n";
  CHECK(kit::ptxas_registers(log, "SumPartials") == 10);
  CHECK(kit::ptxas_registers(log, "DotCascade") == 30);
  CHECK(kit::ptxas_registers(log, "Dot") == -1);  // a name is matched whole
  CHECK(kit::ptxas_registers(log, "ArrayMult") == -1);
  CHECK(kit::ptxas_registers("", "SumPartials") == -1);  // a driver without -cl-nv-verbose
}

TEST_CASE("a work-group's registers bound it in whole warps, given registers 256 at a time and warps 4 at a time") {
  // 65536 registers a work-group and warps of 32, as NVIDIA's H100 and H200 report them.
  const auto most = [](int registers) { return kit::register_limited_work_group(registers, 65536, 32, 256, 4, 1024); };
  CHECK(most(12) == 1024);  // ArrayMult on the H200: the device's own limit
  CHECK(most(40) == 1024);  // measured on the H200: runs at 1024
  CHECK(most(64) == 1024);  // 2048 a warp, 32 warps
  CHECK(most(65) == 896);   // 2080 rounded up to 2304 a warp: 28 warps
  CHECK(most(80) == 768);   // 2560 a warp: 25 warps' worth, 24 in sets of 4 (measured: 800 is refused)
  CHECK(most(122) == 512);  // measured: 512 runs, 544 is refused
  CHECK(most(154) == 384);  // measured: 384 runs, 416 is refused
  CHECK(most(187) == 256);  // 6144 a warp: 10 warps' worth, 8 in sets of 4 (measured: 320 is refused)
  CHECK(most(255) == 256);  // the most a work-item may have: 8160 rounded to 8192, 8 warps
  CHECK(most(0) == 1024);   // an empty kernel shares nothing
  CHECK(kit::register_limited_work_group(80, 65536, 32, 256, 1, 1024) == 800);  // whole warps alone
  CHECK(kit::register_limited_work_group(12, 65536, 32, 256, 4, 512) == 512);   // never above the device's limit
  const kit::WorkGroupLimit limit = kit::register_work_group_limit("ArrayMultReduce", 80, 65536, 32, 1024, "NVIDIA H200");
  CHECK(limit.most == 768);
  CHECK(limit.reason ==
        "ArrayMultReduce uses 80 registers per work-item (ptxas) and a work-group has 65536 on NVIDIA H200, given 256 at a "
        "time to each warp of 32 and to warps 4 at a time");
}

TEST_CASE("a device that does not report its registers gives the kernel's limit as CL_KERNEL_WORK_GROUP_SIZE, named") {
  const kit::Runtime& rt = test::runtime();  // PoCL: no CL_DEVICE_REGISTERS_PER_BLOCK_NV
  const std::string file = kit::lab_file(lab03::kLab, lab03::kKernelFile, true).string();
  cl::Kernel k = kit::make_kernel(kit::build_program(rt.context, rt.device, file), lab03::kSignature, file);
  const kit::WorkGroupLimit limit = kit::kernel_work_group_limit(rt.device, k);
  CHECK(limit.most == k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(rt.device));
  CHECK(limit.reason == "CL_KERNEL_WORK_GROUP_SIZE on " + rt.device_name());
  CHECK_FALSE(kit::reports_registers(rt.device));  // so no build is asked for ptxas's list
  CHECK(kit::kernel_work_group_limit(rt.device, k, 1).most == limit.most);
}

TEST_CASE("a program built again from the same text and options is the one built before, and any change builds anew") {
  const test::TempDir dir;
  const std::filesystem::path file = dir.path / "k.cl";
  const std::string kernel = "kernel void k(global int *x) { x[0] = 1; }\n";
  test::write(file, kernel);
  const auto build = [&](const std::string& options) {
    return kit::build_program(test::runtime().context, test::runtime().device, file, options);
  };
  const cl::Program first = build("");  // held here, so no later program can take its handle
  CHECK(build("")() == first());                // the same text and options: built once
  CHECK(build("-D WG_SIZE=64")() != first());   // other options: another program
  test::write(file, kernel + "// a comment\n");
  CHECK(build("")() != first());                // the file changed: built anew, never a stale program
  test::write(file, kernel);
  CHECK(build("")() == first());                // and the first is still kept
}

TEST_CASE("a kernel's failure on the device is told from a call the host got wrong by the call and its status") {
  // What a GPU's crash looks like: a command that runs or waits for the kernel fails.
  CHECK(kit::kernel_failed_on_device(cl::Error(CL_OUT_OF_RESOURCES, "clFinish")));
  CHECK(kit::kernel_failed_on_device(cl::Error(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "clWaitForEvents")));
  CHECK(kit::kernel_failed_on_device(cl::Error(CL_INVALID_COMMAND_QUEUE, "clFinish")));  // NVIDIA H200, measured
  // Creating objects is the host's side, whatever the status; a wrong argument is the host's too.
  CHECK_FALSE(kit::kernel_failed_on_device(cl::Error(CL_OUT_OF_RESOURCES, "clCreateBuffer")));
  CHECK_FALSE(kit::kernel_failed_on_device(cl::Error(CL_INVALID_VALUE, "clEnqueueReadBuffer")));
  CHECK_FALSE(kit::kernel_failed_on_device(cl::Error(CL_OUT_OF_HOST_MEMORY, "clFinish")));
}

TEST_CASE("a lab program exits cleanly under Oclgrind: its programs are released before their context") {
  // Oclgrind's runtime frees a context at its last release even while programs still hold it; the
  // programs kit::build_program keeps were released at exit, after the context, and every run
  // aborted with "corrupted double-linked list" once it had printed its result.
  if (test::run_command("command -v oclgrind").exit_code != 0) {
    MESSAGE("skipped: oclgrind is not installed");
    return;
  }
  test::TempDir cache;
  const auto run = test::run_command("POCL_CACHE_DIR=" + cache.path.string() + " oclgrind " + test::kit_path("build/bin/03-array-mult-reduce") +
                                     " --solution --check -n 1Ki -l 32 --warmup 0 --repeats 1 2>&1");
  CHECK_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.find("Check passed") != std::string::npos);
  CHECK(run.output.find("corrupted") == std::string::npos);
}

TEST_CASE("a lab program whose kernel crashes says which kernel ran, after its own lines, and suggests grader check --races") {
  // A write through a null pointer: a segmentation fault on a CPU device, whatever the memory layout.
  test::TempDir dir;
  std::string source = test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl");
  const std::string store = "prods[tnum] = dA[gid] * dB[gid];";
  const auto at = source.find(store);
  REQUIRE(at != std::string::npos);
  source.insert(at + store.size(), " ((volatile global float*)0)[gid] = 1.0f;");
  test::write(dir / "ArrayMultReduce.cl", source);
  const auto run = test::run_command("POCL_CACHE_DIR=" + (dir / "cache").string() + " " + test::kit_path("build/bin/03-array-mult-reduce") +
                                     " --kernel " + (dir / "ArrayMultReduce.cl").string() + " --check -n 1Ki -l 32 --warmup 0 --repeats 1 2>&1");
  CHECK(run.exit_code != 0);
  const auto device = run.output.find("Device:"), crash = run.output.find("crashed with a segmentation fault while kernel ArrayMultReduce was running");
  CHECK_MESSAGE(device != std::string::npos, run.output);
  CHECK_MESSAGE(crash != std::string::npos, run.output);
  CHECK(device < crash);  // the program's own lines were flushed before the launch
  CHECK(run.output.find("build/bin/grader check 03 --races") != std::string::npos);
}
