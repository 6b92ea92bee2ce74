// What an OpenCL driver says of a kernel's largest work-group, and what it then runs.
//
//   g++ -O1 -std=c++17 scripts/probe-work-group-size.cpp -lOpenCL -o probe
//   ./probe PLATFORM_SUBSTRING OUT_DIR SOLUTIONS_DIR FILE.cl...
//   ./probe PLATFORM_SUBSTRING cache FILE.cl      (run twice: what a build from the driver's cache logs)
//
// For each file and each set of build options it prints the build log, each kernel's
// CL_KERNEL_WORK_GROUP_SIZE, CL_KERNEL_PRIVATE_MEM_SIZE, CL_KERNEL_LOCAL_MEM_SIZE and
// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE before any argument is set, after the local
// arguments are set, and after every argument is set; the PTX lines that bound a work-group
// (.maxntid, .reqntid, .maxnreg) where the driver's binary is PTX (written to OUT_DIR too, for
// ptxas -v); and then launches labs 01-03's kernels at L = 256, 512, 1000 and 1024 and checks
// their results. A diagnostic for the kit's GPU notes; the kit does not build it.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

cl_platform_id platform;
cl_device_id device;
cl_context context;
cl_command_queue queue;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string platform_name(cl_platform_id p) {
  char name[256] = {};
  clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
  return name;
}

struct Queried {
  size_t wg = 0, multiple = 0;
  cl_ulong priv = 0, local = 0;
  cl_int err = 0;
};

Queried query(cl_kernel k) {
  Queried q;
  q.err = clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof q.wg, &q.wg, nullptr);
  clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof q.priv, &q.priv, nullptr);
  clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof q.local, &q.local, nullptr);
  clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof q.multiple, &q.multiple,
                           nullptr);
  return q;
}

void print(const char* when, const Queried& q) {
  std::printf("    %-26s WORK_GROUP_SIZE %zu  PRIVATE_MEM %llu  LOCAL_MEM %llu  PREFERRED_MULTIPLE %zu%s\n", when, q.wg,
              (unsigned long long)q.priv, (unsigned long long)q.local, q.multiple, q.err ? "  (query failed)" : "");
}

cl_program build(const std::string& source, const std::string& options, std::string& log) {
  const char* text = source.c_str();
  cl_int err = 0;
  cl_program p = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
  err = clBuildProgram(p, 1, &device, options.c_str(), nullptr, nullptr);
  size_t bytes = 0;
  clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &bytes);
  log.assign(bytes, '\0');
  if (bytes) clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, bytes, log.data(), nullptr);
  if (err != CL_SUCCESS) {
    std::printf("  build failed (%d)\n", err);
    clReleaseProgram(p);
    return nullptr;
  }
  return p;
}

std::string binary(cl_program p) {
  size_t size = 0;
  clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
  std::string bin(size, '\0');
  unsigned char* ptr = reinterpret_cast<unsigned char*>(bin.data());
  clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr);
  return bin;
}

std::vector<cl_kernel> kernels(cl_program p) {
  cl_uint n = 0;
  clCreateKernelsInProgram(p, 0, nullptr, &n);
  std::vector<cl_kernel> ks(n);
  if (n) clCreateKernelsInProgram(p, n, ks.data(), nullptr);
  return ks;
}

std::string kernel_name(cl_kernel k) {
  char name[256] = {};
  clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, nullptr);
  return name;
}

// Sets each local pointer argument to `bytes` (when arg info is there); true if there was one.
bool set_local_args(cl_kernel k, size_t bytes) {
  cl_uint n = 0;
  clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr);
  bool any = false;
  for (cl_uint i = 0; i < n; ++i) {
    cl_kernel_arg_address_qualifier q = 0;
    if (clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr) != CL_SUCCESS) return false;
    if (q == CL_KERNEL_ARG_ADDRESS_LOCAL) {
      clSetKernelArg(k, i, bytes, nullptr);
      any = true;
    }
  }
  return any;
}

// Sets every argument: global pointers to a buffer, local to `bytes`, scalars to 4 bytes of 0.
void set_all_args(cl_kernel k, size_t bytes, cl_mem buf) {
  cl_uint n = 0;
  clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, nullptr);
  for (cl_uint i = 0; i < n; ++i) {
    cl_kernel_arg_address_qualifier q = 0;
    clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr);
    char type[128] = {};
    clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, nullptr);
    if (q == CL_KERNEL_ARG_ADDRESS_LOCAL)
      clSetKernelArg(k, i, bytes, nullptr);
    else if (q == CL_KERNEL_ARG_ADDRESS_GLOBAL || q == CL_KERNEL_ARG_ADDRESS_CONSTANT)
      clSetKernelArg(k, i, sizeof buf, &buf);
    else {
      unsigned long long zero = 0;
      size_t size = std::strstr(type, "long") || std::strstr(type, "double") ? 8 : 4;
      clSetKernelArg(k, i, size, &zero);
    }
  }
}

void ptx_bounds(const std::string& bin, const std::string& tag, const std::string& out_dir) {
  if (bin.find(".version") == std::string::npos) {
    std::printf("  binary is not PTX text (%zu bytes)\n", bin.size());
    return;
  }
  std::ofstream(out_dir + "/" + tag + ".ptx") << bin;
  std::istringstream in(bin);
  for (std::string line; std::getline(in, line);)
    if (line.find(".entry") != std::string::npos || line.find(".maxntid") != std::string::npos ||
        line.find(".reqntid") != std::string::npos || line.find(".maxnreg") != std::string::npos ||
        line.find(".minnctapersm") != std::string::npos || line.find(".target") != std::string::npos ||
        line.find(".version") != std::string::npos)
      std::printf("  ptx: %s\n", line.c_str());
}

const char* kExtra =
    "kernel void Empty() {}\n"
    "kernel void EmptyArgs(global float* a, local float* s) {}\n"
    "__attribute__((reqd_work_group_size(1024, 1, 1)))\n"
    "kernel void Reqd1024(global float* a) { a[get_global_id(0)] = 1.0f; }\n"
    "__attribute__((work_group_size_hint(1024, 1, 1)))\n"
    "kernel void Hint1024(global float* a) { a[get_global_id(0)] = 1.0f; }\n";

// Launches one kernel at each local size; returns after printing whether the result is right.
void launch_checks(const std::string& dir, const std::string& options) {
  const size_t n = 1 << 20;
  std::vector<float> a(n), b(n), c(n), d(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i % 7) - 3.0f;
    b[i] = float(i % 5) * 0.5f;
    c[i] = float(i % 3);
  }
  cl_int err = 0;
  cl_mem dA = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, a.data(), &err);
  cl_mem dB = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, b.data(), &err);
  cl_mem dC = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, c.data(), &err);
  cl_mem dD = clCreateBuffer(context, CL_MEM_READ_WRITE, n * 4, nullptr, &err);
  const char* files[] = {"01-array-mult/ArrayMult.cl", "02-array-mult-add/ArrayMultAdd.cl",
                         "03-array-mult-reduce/ArrayMultReduce.cl"};
  for (int lab = 0; lab < 3; ++lab) {
    std::string log;
    cl_program p = build(read_file(dir + "/" + files[lab]), options, log);
    if (!p) continue;
    cl_kernel k = kernels(p)[0];
    for (size_t L : {256u, 512u, 1000u, 1024u}) {
      const size_t groups = n / L, global = groups * L;
      int i = 0;
      clSetKernelArg(k, i++, sizeof dA, &dA);
      clSetKernelArg(k, i++, sizeof dB, &dB);
      if (lab == 1) clSetKernelArg(k, i++, sizeof dC, &dC);
      if (lab == 2) clSetKernelArg(k, i++, L * 4, nullptr);
      clSetKernelArg(k, i++, sizeof dD, lab == 2 ? &dC : &dD);
      if (lab < 2) {
        int count = int(global);
        clSetKernelArg(k, i++, sizeof count, &count);
      }
      const Queried q = query(k);
      const cl_int launched = clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &L, 0, nullptr, nullptr);
      const cl_int finished = clFinish(queue);
      double worst = 0;
      if (launched == CL_SUCCESS && finished == CL_SUCCESS) {
        if (lab < 2) {
          clEnqueueReadBuffer(queue, dD, CL_TRUE, 0, global * 4, d.data(), 0, nullptr, nullptr);
          for (size_t g = 0; g < global; ++g)
            worst = std::fmax(worst, std::fabs(d[g] - (a[g] * b[g] + (lab == 1 ? c[g] : 0.0f))));
        } else {
          std::vector<float> sums(groups);
          clEnqueueReadBuffer(queue, dC, CL_TRUE, 0, groups * 4, sums.data(), 0, nullptr, nullptr);
          for (size_t g = 0; g < groups; ++g) {
            double s = 0;
            for (size_t j = g * L; j < (g + 1) * L; ++j) s += double(a[j]) * b[j];
            worst = std::fmax(worst, std::fabs(sums[g] - s));
          }
          clEnqueueWriteBuffer(queue, dC, CL_TRUE, 0, n * 4, c.data(), 0, nullptr, nullptr);
        }
      }
      std::printf("  launch %-16s L=%-5zu query %zu: enqueue %d, finish %d, %s (largest error %g)\n",
                  kernel_name(k).c_str(), L, q.wg, launched, finished,
                  launched || finished ? "not run" : (worst < 1e-3 ? "right" : "WRONG"), worst);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
  }
  clReleaseMemObject(dA);
  clReleaseMemObject(dB);
  clReleaseMemObject(dC);
  clReleaseMemObject(dD);
}

// A kernel that keeps K loaded values live, so that ptxas gives it many registers: launched at the
// work-group that its registers allow (65536 a work-group, 256 at a time per warp of 32, warps 4 at
// a time) and one warp above it, to see where the driver's own limit lies.
const char* kHeavy =
    "kernel void Heavy(global const float* a, global float* out, int n) {\n"
    "  int gid = get_global_id(0);\n"
    "  float v[K];\n"
    "  #pragma unroll\n"
    "  for (int i = 0; i < K; ++i) v[i] = a[(gid * 131 + i * 977) & (n - 1)];\n"
    "  float s = 0.0f;\n"
    "  #pragma unroll\n"
    "  for (int i = 0; i < K; ++i) s = s * v[(i * 7) % K] + v[i] * v[K - 1 - i];\n"
    "  out[gid] = s;\n"
    "}\n";

void heavy_checks() {
  const size_t n = 1 << 20;
  cl_int err = 0;
  cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE, n * 4, nullptr, &err);
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, n * 4, nullptr, &err);
  for (int k : {32, 64, 96, 128, 160}) {
    std::string log;
    const std::string options = "-cl-std=CL1.2 -cl-kernel-arg-info -cl-nv-verbose -D K=" + std::to_string(k);
    cl_program p = build(kHeavy, options, log);
    if (!p) { std::printf("  heavy K=%d: %s\n", k, log.c_str()); continue; }
    const size_t at = log.find("Used ");
    const int regs = at == std::string::npos ? -1 : std::atoi(log.c_str() + at + 5);
    cl_kernel kern = kernels(p)[0];
    const size_t per_warp = (size_t(regs) * 32 + 255) / 256 * 256;
    const size_t limit = regs > 0 ? std::min<size_t>(1024, 65536 / per_warp / 4 * 4 * 32) : 1024;
    const Queried q = query(kern);
    int count = int(n);
    clSetKernelArg(kern, 0, sizeof a, &a);
    clSetKernelArg(kern, 1, sizeof out, &out);
    clSetKernelArg(kern, 2, sizeof count, &count);
    std::printf("  heavy K=%d: %d registers, query %zu, private %llu, computed limit %zu:", k, regs, q.wg,
                (unsigned long long)q.priv, limit);
    for (size_t L : {limit, limit + 32, size_t(1024)}) {
      if (L > 1024) continue;
      const size_t global = n / L * L;
      const cl_int launched = clEnqueueNDRangeKernel(queue, kern, 1, nullptr, &global, &L, 0, nullptr, nullptr);
      const cl_int finished = clFinish(queue);
      std::printf("  L=%zu enqueue %d finish %d;", L, launched, finished);
    }
    std::printf("\n");
    clReleaseKernel(kern);
    clReleaseProgram(p);
  }
  clReleaseMemObject(a);
  clReleaseMemObject(out);
}

}  // namespace

// Whether a build that NVIDIA's driver may serve from its disk cache still has ptxas's register
// count in its log: the same source and options as an earlier process, then the same with a
// never-seen -D, and with a never-seen program-scope constant in the source.
int cache_checks(const std::string& file) {
  const std::string source = read_file(file), nonce = std::to_string(std::random_device{}());
  const std::vector<std::pair<std::string, std::string>> builds = {
      {"same source and options", ""},
      {"a new -D", " -D KIT_NONCE_" + nonce + "=1"},
      {"a new constant in the source", "constant"}};
  for (const auto& [what, extra] : builds) {
    const std::string text = extra == "constant" ? "constant int kit_nonce_" + nonce + " = 1;\n" + source : source;
    const std::string options =
        "-cl-std=CL1.2 -cl-kernel-arg-info -cl-nv-verbose" + (extra == "constant" ? std::string() : extra);
    std::string log;
    cl_program p = build(text, options, log);
    const size_t at = log.find("Used ");
    std::printf("  cache check, %s: %s\n", what.c_str(),
                at == std::string::npos ? "no register count in the log" : log.substr(at, log.find('\n', at) - at).c_str());
    if (p) clReleaseProgram(p);
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s PLATFORM_SUBSTRING OUT_DIR SOLUTIONS_DIR [FILE.cl...]\n", argv[0]);
    return 2;
  }
  const std::string want = argv[1], out_dir = argv[2], solutions = argv[3];
  cl_uint np = 0;
  clGetPlatformIDs(0, nullptr, &np);
  std::vector<cl_platform_id> ps(np);
  clGetPlatformIDs(np, ps.data(), nullptr);
  bool found = false;
  for (cl_platform_id p : ps)
    if (platform_name(p).find(want) != std::string::npos) platform = p, found = true;
  if (!found) {
    std::fprintf(stderr, "no platform named like '%s'\n", want.c_str());
    return 1;
  }
  clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
  cl_int err = 0;
  context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  queue = clCreateCommandQueue(context, device, 0, &err);
  char name[256] = {}, driver[256] = {}, version[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, nullptr);
  clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof driver, driver, nullptr);
  clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, nullptr);
  size_t max_wg = 0;
  cl_ulong local_mem = 0;
  cl_uint regs = 0, warp = 0, cc_major = 0, cc_minor = 0;
  clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, nullptr);
  clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, nullptr);
  clGetDeviceInfo(device, 0x4002 /* CL_DEVICE_REGISTERS_PER_BLOCK_NV */, sizeof regs, &regs, nullptr);
  clGetDeviceInfo(device, 0x4003 /* CL_DEVICE_WARP_SIZE_NV */, sizeof warp, &warp, nullptr);
  clGetDeviceInfo(device, 0x4000 /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */, sizeof cc_major, &cc_major, nullptr);
  clGetDeviceInfo(device, 0x4001 /* CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV */, sizeof cc_minor, &cc_minor, nullptr);
  std::printf("device %s, driver %s, %s; MAX_WORK_GROUP_SIZE %zu, LOCAL_MEM %llu, REGISTERS_PER_BLOCK_NV %u, "
              "WARP_SIZE_NV %u, compute capability %u.%u\n",
              name, driver, version, max_wg, (unsigned long long)local_mem, regs, warp, cc_major, cc_minor);

  if (out_dir == "cache") return cache_checks(solutions);
  std::vector<std::pair<std::string, std::string>> sources = {{"extra", kExtra}};
  for (int i = 4; i < argc; ++i) {
    std::string tag = argv[i];
    tag = tag.substr(tag.rfind('/') + 1);
    sources.push_back({tag.substr(0, tag.find('.')), read_file(argv[i])});
  }
  const std::vector<std::string> option_sets = {
      "", "-cl-std=CL1.2 -cl-kernel-arg-info", "-cl-kernel-arg-info -cl-nv-verbose",
      "-cl-kernel-arg-info -cl-nv-maxrregcount=32", "-cl-kernel-arg-info -cl-nv-maxrregcount=64",
      "-cl-kernel-arg-info -cl-nv-maxrregcount=128", "-cl-kernel-arg-info -cl-nv-opt-level=0",
      "-cl-kernel-arg-info -cl-opt-disable"};
  cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE, 1 << 24, nullptr, &err);
  int tag_number = 0;
  for (const auto& [tag, source] : sources) {
    for (const std::string& options : option_sets) {
      std::printf("== %s, options '%s'\n", tag.c_str(), options.c_str());
      std::string log;
      cl_program p = build(source, options, log);
      if (!log.empty() && log.find_first_not_of(" \n\r\t", 0) != std::string::npos && log != std::string(1, '\0'))
        std::printf("  build log: %s\n", log.c_str());
      if (!p) continue;
      if (options.empty() || options.find("maxrregcount=64") != std::string::npos)
        ptx_bounds(binary(p), tag + "-" + std::to_string(tag_number++), out_dir);
      for (cl_kernel k : kernels(p)) {
        std::printf("  kernel %s\n", kernel_name(k).c_str());
        print("no argument set", query(k));
        if (set_local_args(k, 1024 * 4)) print("local args set (4096 B)", query(k));
        set_all_args(k, 1024 * 4, buf);
        print("every argument set", query(k));
        clReleaseKernel(k);
      }
      clReleaseProgram(p);
    }
  }
  clReleaseMemObject(buf);
  for (const std::string& options :
       {std::string("-cl-std=CL1.2 -cl-kernel-arg-info"), std::string("-cl-std=CL1.2 -cl-kernel-arg-info -cl-nv-maxrregcount=64")}) {
    std::printf("== launches, options '%s'\n", options.c_str());
    launch_checks(solutions, options);
  }
  std::printf("== heavy kernels, launched at the limit their registers allow and above it\n");
  heavy_checks();
  return 0;
}
