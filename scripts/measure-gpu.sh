#!/usr/bin/env bash
# Measures the kit on an NVIDIA GPU through its OpenCL platform, in one go: the benchmark sweep
# (lab 03 over sizes x work-group sizes, lab 06's cascade, lab 08's single launch, the streaming
# roof with and without a result read, the host's OpenMP) three times in a row: the first,
# gpu-sweep-1.csv, is the one to ship, chosen before it runs; the other two show the spread
# (on an H100 on 2026-11-26 single launch / roof at 16Mi ran from 0.892 to 0.903 over nine runs),
# thrust::inner_product built here with nvcc on the same sizes, lab 06 at N = 256Mi with a few
# work-group shapes, lab 04's ladder and lab 03 at the slide's sizes.
# Usage: scripts/measure-gpu.sh BIN_DIR OUT_DIR   (BIN_DIR holds the kit's programs, built elsewhere)
set -uo pipefail
bin=$1 out=$2
mkdir -p "$out" /etc/OpenCL/vendors
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export KIT_ROOT=$PWD POCL_CACHE_DIR=/tmp/pocl-cache
log=$out/log.txt
{
  date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory --format=csv
  "$bin/03-array-mult-reduce" --list
  nvcc -O3 -arch=sm_90 bench/thrust_dot.cu -o /tmp/thrust_dot && echo "thrust baseline built"
} > "$log" 2>&1
for run in 1 2 3; do
  echo "== sweep $run of 3 ($(date -u +%T))" >> "$log"
  "$bin/reduction-benchmark" -p nvidia --repeats 200 -o "$out/gpu-sweep-$run.csv" >> "$log" 2>&1
done
sizes=""; for s in 1 2 4 8 16 32 64 128 256; do sizes="$sizes $((s << 20))"; done
/tmp/thrust_dot $sizes > "$out/thrust.csv" 2>> "$log"
{
  for l in 128 256; do for g in 1056 2112 4224 8448 16896; do
    echo "== lab 06, N = 256Mi, L = $l, G = $g"
    "$bin/06-cascade-reduction" -p nvidia --solution --check --elements 256Mi --local $l --groups $g --repeats 20
  done; done
  echo "== lab 06 default shape, against thrust's figure above and the host's OpenMP"
  "$bin/06-cascade-reduction" -p nvidia --solution --check --elements 256Mi --repeats 20 --vs-openmp
} > "$out/cascade.txt" 2>&1
for n in 64Mi 256Mi; do
  echo "== lab 04 ladder, N = $n, L = 256, best of 100 runs"
  "$bin/04-tree-reductions" -p nvidia --solution --check --elements $n --local 256 --repeats 100
done > "$out/ladder.txt" 2>&1
for l in 32 128; do "$bin/03-array-mult-reduce" -p nvidia --solution --check --elements 256Mi --local $l; done > "$out/lab03.txt" 2>&1
echo done >> "$log"
