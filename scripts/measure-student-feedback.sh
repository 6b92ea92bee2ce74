#!/usr/bin/env bash
# How long one student waits for feedback: every solution (one student, labs 01-08) graded with
# --no-oclgrind, as a GPU node grades, RUNS times; then each lab graded alone and lab 08's own
# --check. With an EARLIER_BIN_DIR (the kit's programs of an earlier version), both are measured in
# the same run, alternately (earlier, this, earlier, this, ...), so that the machine's drift hits them
# alike, and their gradebooks are compared: they must be the same.
# Usage: scripts/measure-student-feedback.sh PLATFORM JOBS RUNS BIN_DIR [EARLIER_BIN_DIR]
#   e.g. scripts/measure-student-feedback.sh nvidia 4 3 build/bin   (run from the kit's root, or set KIT_ROOT)
set -uo pipefail
platform=$1 jobs=$2 runs=$3
bins=("$(realpath "$4")")
names=(this)
if [ $# -ge 5 ]; then bins=("$(realpath "$5")" "${bins[0]}"); names=(earlier this); fi
export KIT_ROOT=${KIT_ROOT:-$PWD}
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$(mktemp -d)}
work=$(mktemp -d)
mkdir -p "$work/class"; cp -r "$KIT_ROOT/solutions" "$work/class/solution"
seconds() { local start=$EPOCHREALTIME; "$@" > "$work/last.log" 2>&1; local rc=$?; awk "BEGIN { printf \"%.2f\", $EPOCHREALTIME - $start }"; [ $rc -eq 0 ] || echo " (exit $rc: $(tail -1 "$work/last.log"))"; }

echo "# One student's feedback: labs 01-08 of the solutions, grader grade -p $platform --no-oclgrind --jobs $jobs, $(date -u '+%Y-%m-%d %H:%M UTC')"
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/GPU: /'
echo "CPU: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
"${bins[-1]}/08-atomics-and-scan" -p "$platform" --list 2>/dev/null | head -3

echo; echo "## The eight labs together, seconds (run by run)"
declare -A all
for ((r = 1; r <= runs; ++r)); do
  for i in "${!bins[@]}"; do
    out=$work/out-${names[$i]}-$r
    all[${names[$i]}]+="$(seconds "${bins[$i]}/grader" grade -p "$platform" --no-oclgrind --jobs "$jobs" --submissions "$work/class" --out "$out") "
  done
done
for n in "${names[@]}"; do echo "${n}: ${all[$n]}"; done
for n in "${names[@]}"; do echo "gradebook (${n}): $(tail -1 "$work/out-${n}-1/gradebook.csv")"; done
if [ ${#bins[@]} -eq 2 ]; then
  if cmp -s "$work/out-earlier-1/gradebook.csv" "$work/out-this-1/gradebook.csv"; then echo "gradebooks: the same"
  else echo "gradebooks: DIFFERENT"; fi
fi

echo; echo "## Each lab graded alone, seconds"
labs=$(ls "$KIT_ROOT/solutions")
printf '%-26s' lab; for n in "${names[@]}"; do printf '%10s' "$n"; done; echo
for lab in $labs; do
  printf '%-26s' "$lab"
  for i in "${!bins[@]}"; do printf '%10s' "$(seconds "${bins[$i]}/grader" grade -p "$platform" --no-oclgrind --jobs "$jobs" --labs "${lab:0:2}" --submissions "$work/class" --out "$work/alone-${names[$i]}-$lab")"; done
  echo
done

echo; echo "## Lab 08's own check of the solution (08-atomics-and-scan --solution --check), seconds"
for i in "${!bins[@]}"; do
  echo "${names[$i]}: $(seconds "${bins[$i]}/08-atomics-and-scan" -p "$platform" --solution --check) $(seconds "${bins[$i]}/08-atomics-and-scan" -p "$platform" --solution --check)"
done
rm -rf "$work"
