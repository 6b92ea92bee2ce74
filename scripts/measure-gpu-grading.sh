#!/usr/bin/env bash
# Grades on an NVIDIA GPU through its OpenCL platform, in one go, and writes one log: every
# solution graded on the GPU; the example class and kernels that are right on a CPU and wrong on a
# GPU graded on PoCL and the GPU side by side (--devices); kernels that read or write far outside a
# buffer graded on the GPU alone and run by the lab program; each lab program given bad kernel files
# on the GPU; the time per student-lab on each device. The Oclgrind checks do not depend on the
# device and are left out where Oclgrind is not installed (--no-oclgrind).
# Lab 08's solution graded again and again under load (the GPU and PoCL graded at once, --jobs 8
# each) is a script of its own: scripts/measure-gpu-grading-load.sh BIN_DIR LOG [ROUNDS].
# Usage: scripts/measure-gpu-grading.sh BIN_DIR LOG   (BIN_DIR holds the kit's programs, built elsewhere)
set -uo pipefail
bin=$(realpath "$1") log=$2
mkdir -p /etc/OpenCL/vendors "$(dirname "$log")"
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export KIT_ROOT=$PWD POCL_CACHE_DIR=/tmp/pocl-cache
work=$(mktemp -d)
oclgrind_flag=--no-oclgrind
command -v oclgrind > /dev/null && oclgrind_flag=
labs=$(ls -d solutions/[0-9]*/ | xargs -n1 basename)
timed() { local start=$EPOCHREALTIME; "$@"; local rc=$?; echo "(wall $(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $start }") s, exit $rc)"; }

# Lab 03 kernels from the course's failure list: right on a CPU, wrong on a GPU.
gpu_class=$work/gpu-class
sol=solutions/03-array-mult-reduce/ArrayMultReduce.cl
mk() { mkdir -p "$gpu_class/$1"; cat > "$gpu_class/$1/ArrayMultReduce.cl"; }
sed '/every value of the previous level is in prods/d' "$sol" | mk no-barrier-in-tree
sed '/every value of the previous level is in prods/d; s|^\( *\)prods\[tnum\] += prods\[tnum + offset\];|&\n        barrier(CLK_LOCAL_MEM_FENCE);|' "$sol" | mk no-barrier-after-store
mk every-item-adds-to-dC <<'CL'
// Every work-item adds its product straight into its group's sum: a race on any device that runs
// a group's work-items at the same time.
kernel void ArrayMultReduce(global const float *dA, global const float *dB, local float *prods, global float *dC)
{
    int gid = get_global_id(0);
    if (get_local_id(0) == 0) dC[get_group_id(0)] = 0;
    barrier(CLK_GLOBAL_MEM_FENCE);
    dC[get_group_id(0)] += dA[gid] * dB[gid];
}
CL
mkdir -p "$gpu_class/empty-file"; : > "$gpu_class/empty-file/ArrayMultReduce.cl"
mkdir -p "$gpu_class/printf-flood"
sed 's|^\( *\)int gid *= get_global_id(0);.*$|&\n    for (int i = 0; i < 1000; ++i) printf("work-item %d, line %d\\n", gid, i);|' "$sol" > "$gpu_class/printf-flood/ArrayMultReduce.cl"
mkdir -p "$gpu_class/endless-loop"
sed 's|offset \*= 2|offset *= 1|' "$sol" > "$gpu_class/endless-loop/ArrayMultReduce.cl"
mkdir -p "$gpu_class/huge-local-array"
sed 's|^\( *\)int gid *= get_global_id(0);.*$|&\n    local float big[1 << 20];|; s|^\( *\)prods\[tnum\] = dA\[gid\] \* dB\[gid\];|    big[tnum] = dA[gid];\n    prods[tnum] = big[tnum] * dB[gid];|' "$sol" > "$gpu_class/huge-local-array/ArrayMultReduce.cl"

# Accesses far outside a buffer: on PoCL a crash of the child, on a GPU a failed clFinish.
far_class=$work/far-class
mkdir -p "$far_class/writes-far-past-dC" "$far_class/reads-far-past-dA"
sed 's|dC\[wgNum\] = prods\[0\];|dC[wgNum + (1 << 30)] = prods[0];|' "$sol" > "$far_class/writes-far-past-dC/ArrayMultReduce.cl"
sed 's|prods\[tnum\] = dA\[gid\] \* dB\[gid\];|prods[tnum] = dA[gid + (1 << 30)] * dB[gid];|' "$sol" > "$far_class/reads-far-past-dA/ArrayMultReduce.cl"
cp -r "$far_class"/* "$gpu_class/"

solution_class=$work/solutions
mkdir -p "$solution_class"; cp -r solutions "$solution_class/solution"

{
  echo "# The kit's grader on an NVIDIA GPU, $(date -u +%Y-%m-%d)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  "$bin/grader" --version 2>/dev/null
  "$bin/03-array-mult-reduce" --list
  echo "Oclgrind: $(command -v oclgrind || echo 'not installed here: its checks are left out (--no-oclgrind)')"
  echo "Labs graded: $(echo $labs)"

  echo; echo "## 1. Every solution, graded on the GPU (-p nvidia)"
  timed "$bin/grader" grade -p nvidia $oclgrind_flag --jobs 4 --submissions "$solution_class" --out "$work/out-solutions-gpu"
  cat "$work/out-solutions-gpu/solution/report.md"
  "$bin/grader" leaderboard --names "$work/out-solutions-gpu"

  echo; echo "## 2. The same on PoCL on this machine's CPU, for the time per student-lab"
  timed "$bin/grader" grade -p pocl $oclgrind_flag --jobs 4 --submissions "$solution_class" --out "$work/out-solutions-cpu"
  "$bin/grader" leaderboard --names "$work/out-solutions-cpu"

  echo; echo "## 3. Kernels right on a CPU and wrong on a GPU, and bad input: PoCL and the GPU side by side (--devices pocl,nvidia)"
  timed "$bin/grader" grade --devices pocl,nvidia $oclgrind_flag --jobs 2 --labs 03 --submissions "$gpu_class" --out "$work/out-gpu-class"
  for s in $(ls "$gpu_class"); do echo; echo "### $s"; cat "$work/out-gpu-class/$s/report.md"; done

  echo; echo "## 3b. Accesses far outside a buffer on the GPU alone (-p nvidia): graded, and the lab program as a student runs it"
  timed "$bin/grader" grade -p nvidia $oclgrind_flag --jobs 1 --labs 03 --submissions "$far_class" --out "$work/out-far"
  for s in $(ls "$far_class"); do
    echo; echo "### $s"; cat "$work/out-far/$s/report.md"
    for shape in "-n 8Mi -l 32" "-n 65536 -l 32" "-n 8 -l 8"; do
      echo "\$ 03-array-mult-reduce -p nvidia $shape --check"
      timed timeout 60 "$bin/03-array-mult-reduce" -p nvidia $shape -k "$far_class/$s/ArrayMultReduce.cl" --check 2>&1 | grep -v '^Device:\|^Kernel:'
    done
  done

  echo; echo "## 4. The example class (lab 03) on both devices"
  timed "$bin/grader" grade --devices pocl,nvidia $oclgrind_flag --jobs 4 --labs 03 --submissions grader/examples/class --out "$work/out-example"
  cat "$work/out-example/gradebook.csv"

  echo; echo "## 5. Each lab program on the GPU with bad kernel files (exit status and first lines)"
  for lab in $labs; do
    first=$(cat solutions/$lab/*.cl | tr '\n' ' ' | grep -o 'kernel void *[A-Za-z_0-9]*' | head -1 | awk '{print $3}')
    d=$work/bad/$lab; mkdir -p "$d"
    : > "$d/empty.cl"
    echo "kernel void not_the_lab(global float *x) { x[0] = 1; }" > "$d/wrong-name.cl"
    echo "kernel void $first(global int *x) { x[0] = 1; }" > "$d/wrong-signature.cl"
    echo "kernel void $first(global float *x { x[0] = 1; }" > "$d/compile-error.cl"
    for f in empty wrong-name wrong-signature compile-error; do
      out=$(timeout 60 "$bin/$lab" -p nvidia -k "$d/$f.cl" --check 2>&1); rc=$?
      echo "$lab $f.cl: exit $rc: $(echo "$out" | grep -v '^$' | grep -v '^Device: \|^Kernel: ' | head -3 | tr '\n' ' ' | cut -c1-300)"
    done
  done
  echo "done"
} > "$log" 2>&1
rm -rf "$work"
