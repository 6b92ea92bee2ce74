#!/usr/bin/env bash
# Grades lab 08's solution on an NVIDIA GPU under load, round after round, and writes one log: each
# round grades 16 copies of the solution on the GPU (-p nvidia --jobs 8) while the same 16 are
# graded on PoCL on the same machine's CPU (-p pocl --jobs 8), so that the GPU's jobs share the
# CPU with PoCL's and the GPU with one another. Every copy must earn full marks every time; the
# log lists every case that did not pass, and the slowest time of each case over all GPU gradings.
# The copies differ by one #define line, so the grader grades each (it grades identical code once).
# Usage: scripts/measure-gpu-grading-load.sh BIN_DIR LOG [ROUNDS]   (ROUNDS: 4, 64 GPU gradings)
set -uo pipefail
bin=$(realpath "$1") log=$2 rounds=${3:-4}
mkdir -p /etc/OpenCL/vendors "$(dirname "$log")"
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export KIT_ROOT=$PWD POCL_CACHE_DIR=/tmp/pocl-cache
oclgrind_flag=--no-oclgrind
command -v oclgrind > /dev/null && oclgrind_flag=
work=$(mktemp -d)
lab=08-atomics-and-scan
for i in $(seq -w 1 16); do
  mkdir -p "$work/class/copy-$i/$lab"
  { cat solutions/$lab/AtomicsScan.cl; echo "#define GRADED_COPY_$i"; } > "$work/class/copy-$i/$lab/AtomicsScan.cl"
done
{
  echo "# Lab 08's solution graded on an NVIDIA GPU under load, $(date -u +%Y-%m-%d)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  echo "CPU cores: $(nproc); Oclgrind: $(command -v oclgrind || echo 'not installed here: --no-oclgrind')"
  echo "Each round: 16 copies, -p nvidia --jobs 8, and at the same time the same 16 on -p pocl --jobs 8"
  for r in $(seq 1 "$rounds"); do
    start=$EPOCHREALTIME
    "$bin/grader" grade -p pocl $oclgrind_flag --jobs 8 --labs 08 --submissions "$work/class" --out "$work/pocl-$r" > "$work/pocl-$r.txt" 2>&1 &
    pocl=$!
    "$bin/grader" grade -p nvidia $oclgrind_flag --jobs 8 --labs 08 --submissions "$work/class" --out "$work/gpu-$r" > "$work/gpu-$r.txt" 2>&1
    gpu_rc=$? gpu_s=$(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $start }")
    wait $pocl; pocl_rc=$?
    echo "round $r: GPU exit $gpu_rc after $gpu_s s, PoCL exit $pocl_rc after $(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $start }") s"
    for side in gpu pocl; do
      echo "  $side: $(tail -n +2 "$work/$side-$r/gradebook.csv" | cut -d, -f2 | sort | uniq -c | tr '\n' ' ')"
    done
  done
  echo
  python3 - "$work" "$rounds" <<'PY'
import json, pathlib, sys
work, rounds = pathlib.Path(sys.argv[1]), int(sys.argv[2])
for side in ("gpu", "pocl"):
    full = graded = again = 0
    slowest, lost = {}, []
    for r in range(1, rounds + 1):
        for f in sorted((work / f"{side}-{r}").glob("*/report.json")):
            for lab in json.loads(f.read_text()).get("labs", []):
                graded += 1
                full += lab["points"] == lab["max_points"]
                for c in lab["cases"]:
                    slowest[c["name"]] = max(slowest.get(c["name"], 0), c.get("seconds", 0))
                    if "run again alone after a time-out" in c["message"]:
                        again += 1
                        print(f"  {side} round {r} {f.parent.name}: timed out beside other grading, run again alone: {c['name']}: {c['status']}")
                    if c["points"] < c["max_points"]:
                        lost.append(f"round {r} {f.parent.name}: {c['name']}: {c['status']} {c['points']}/{c['max_points']}: {c['message']}")
    print(f"{side}: {graded} gradings of the solution, {full} with full marks; {again} case(s) run again alone after a time-out")
    for line in lost: print("  lost:", line)
    print(f"  slowest cases ({side}, seconds, over every grading):")
    for name, s in sorted(slowest.items(), key=lambda kv: -kv[1])[:8]: print(f"    {s:7.2f}  {name}")
PY
} > "$log" 2>&1
rm -rf "$work"
