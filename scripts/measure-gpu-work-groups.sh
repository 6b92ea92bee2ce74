#!/usr/bin/env bash
# Whether every work-group size a lab's cases ask for runs on an NVIDIA GPU, in one go, into one
# log: what the driver says of the kernels (scripts/probe-work-group-size.cpp, built beside the
# programs as BIN_DIR/probe-work-group-size: each kernel's CL_KERNEL_WORK_GROUP_SIZE under several
# build options, ptxas's registers, launches at L = 256 to 1024, and kernels of many registers
# launched at the limit their registers allow and one warp above it); `grader check` of the
# solutions of labs 01-03 and `grader grade` of every solution on the GPU, with the cases not run;
# the lab programs' --check at L = 256, 512, 1000 and 1024.
# Usage: scripts/measure-gpu-work-groups.sh BIN_DIR LOG   (BIN_DIR holds the kit's programs, built elsewhere)
set -uo pipefail
bin=$(realpath "$1") log=$2
mkdir -p /etc/OpenCL/vendors "$(dirname "$log")"
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export KIT_ROOT=$PWD POCL_CACHE_DIR=/tmp/pocl-cache
work=$(mktemp -d)
chmod 755 "$work"
timed() { local start=$EPOCHREALTIME; "$@"; local rc=$?; echo "(wall $(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $start }") s, exit $rc)"; }
{
  echo "# Work-group sizes on an NVIDIA GPU, $(date -u '+%Y-%m-%d %H:%M UTC')"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  "$bin/grader" --version 2>/dev/null

  echo; echo "## 1. What the driver says of each kernel, and what runs"
  if [ -x "$bin/probe-work-group-size" ]; then
    S=solutions
    "$bin/probe-work-group-size" NVIDIA "$work" $S $S/01-array-mult/ArrayMult.cl $S/02-array-mult-add/ArrayMultAdd.cl \
      $S/03-array-mult-reduce/ArrayMultReduce.cl $S/06-cascade-reduction/CascadeDot.cl $S/08-atomics-and-scan/AtomicsScan.cl 2>&1 |
      grep -v "overriding noinline attribute"
  fi

  echo; echo "## 2. grader check of the solutions of labs 01-03 on the GPU (-p nvidia)"
  timed "$bin/grader" check --dir "$PWD/solutions" -p nvidia 01 02 03

  echo; echo "## 3. Every solution graded on the GPU (-p nvidia --no-oclgrind), and the cases not run there"
  mkdir -p "$work/submissions" && cp -r solutions "$work/submissions/solution" && chmod -R a+rX "$work"
  timed "$bin/grader" grade -p nvidia --no-oclgrind --jobs 4 --submissions "$work/submissions" --out "$work/out"
  cat "$work/out/solution/report.md"
  echo "Cases not run on this device: $(grep -ci 'not run on this device' "$work/out/solution/report.md")"
  grep -i 'not run on this device' "$work/out/solution/report.md"

  echo; echo "## 4. The lab programs' --check at every L (--solution, -p nvidia)"
  for L in 256 512 1000 1024; do
    echo "### L = $L"
    "$bin/01-array-mult" -p nvidia --solution --check -n 16Mi -l $L --repeats 3 2>&1 | tail -3
    "$bin/02-array-mult-add" -p nvidia --solution --check -n 16Mi -l $L --repeats 3 2>&1 | tail -3
    "$bin/03-array-mult-reduce" -p nvidia --solution --check -n 16Mi -l $L --repeats 3 2>&1 | tail -2
  done
  echo "### lab 01 with a kernel of many registers: refused above the work-group its registers allow, right at it"
  mkdir -p "$work/heavy"
  cat > "$work/heavy/ArrayMult.cl" <<'CL'
// ArrayMult that keeps 64 loaded values live, so that ptxas gives it many registers.
kernel void ArrayMult(global const float *dA, global const float *dB, global float *dC, const int n)
{
    int gid = get_global_id(0);
    if (gid >= n) return;
    float v[64];
    #pragma unroll
    for (int i = 0; i < 64; ++i) v[i] = dA[(gid * 131 + i * 977) % n];
    float s = 0.0f;
    #pragma unroll
    for (int i = 0; i < 64; ++i) s = s * v[(i * 7) % 64] + v[i] * v[63 - i];
    dC[gid] = (s == 12345.678f) ? s : dA[gid] * dB[gid];
}
CL
  chmod -R a+rX "$work/heavy"
  refused=$("$bin/01-array-mult" -p nvidia -k "$work/heavy/ArrayMult.cl" --check -n 1Mi -l 1024 --repeats 1 2>&1 | tail -1)
  echo "$refused"
  most=$(echo "$refused" | grep -o "maximum work-group size [0-9]*" | awk '{print $4}')
  if [ -n "$most" ]; then
    "$bin/01-array-mult" -p nvidia -k "$work/heavy/ArrayMult.cl" --check -n 1Mi -l "$most" --repeats 1 2>&1 | tail -1
    "$bin/01-array-mult" -p nvidia -k "$work/heavy/ArrayMult.cl" --check -n 1Mi -l "$((most + 32))" --repeats 1 2>&1 | tail -1
  fi
  echo "### lab 06, the default shape, and L = 1024"
  "$bin/06-cascade-reduction" -p nvidia --solution --check 2>&1 | tail -4
  "$bin/06-cascade-reduction" -p nvidia --solution --check -l 1024 2>&1 | tail -4
  echo "### lab 08 single pass, the default shape, and L = 1024"
  "$bin/08-atomics-and-scan" -p nvidia --solution --check --part single-pass 2>&1 | tail -4
  "$bin/08-atomics-and-scan" -p nvidia --solution --check --part single-pass -l 1024 2>&1 | tail -4
} 2>&1 | tee "$log"
