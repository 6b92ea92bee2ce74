#!/usr/bin/env bash
# Grades `grader bench`'s class (40 students x 8 labs, every check on, every file different) on a
# GPU node with --jobs = its cores: on its NVIDIA GPU (the only platform the grader sees) and on PoCL over its CPU cores;
# then one student's eight solutions on the GPU with --no-oclgrind, three runs each at --jobs 4
# and 8. Given a second grader (an earlier build) and that build's kit tree, the same with it
# first: before and after in one run, on one machine.
# Usage: scripts/measure-node-class.sh OUT_DIR GRADER [EARLIER_GRADER EARLIER_KIT_ROOT] [PARTS]
#   PARTS: any of gpu pocl student (default: all three); each part writes OUT_DIR/<label>-<part>.txt
#   STUDENTS: the class size (default 40)
# The children run under Oclgrind from $KIT_OCLGRIND (default: the one on PATH); the kit's
# plugin is the libkit-work-span.so beside each grader.
set -uo pipefail
out=$(realpath -m "$1") new=$(realpath "$2")
shift 2
old= old_root=
if [ $# -ge 2 ] && [ -x "$1" ]; then old=$(realpath "$1") old_root=$(realpath "$2"); shift 2; fi
parts=${*:-gpu pocl student}
mkdir -p "$out" /etc/OpenCL/vendors
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-/tmp/pocl-cache}
cores=$(nproc)
work=$(mktemp -d)
chmod 755 "$work"  # the children run as nobody when the grader runs as root, and read the class from here
mkdir -p "$work/nvidia-only" && cp /etc/OpenCL/vendors/nvidia.icd "$work/nvidia-only/"

# One grader's parts: LABEL GRADER KIT_ROOT
measure() {
  local label=$1 grader=$2 root=$3
  local plugin
  plugin=$(dirname "$grader")/libkit-work-span.so
  for part in $parts; do
    local log=$out/$label-$part.txt
    {
      echo "# $label grader ($("$grader" --version 2>/dev/null || echo 'no --version')), $(date -u +%Y-%m-%dT%H:%MZ), $cores cores"
      nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
      case $part in
        # The GPU as the only platform (an earlier grader's bench may have no -p): the same for both.
        gpu) OCL_ICD_VENDORS=$work/nvidia-only KIT_ROOT=$root KIT_WORK_SPAN_PLUGIN=$plugin /usr/bin/time -v "$grader" bench \
               --students "${STUDENTS:-40}" --sample-every 0 --jobs "$cores" --work "$work/$label-gpu"
             grep -h "^## " "$work/$label-gpu/now/student-01/report.md" ;;
        pocl) KIT_ROOT=$root KIT_WORK_SPAN_PLUGIN=$plugin /usr/bin/time -v "$grader" bench --students "${STUDENTS:-40}" --sample-every 0 \
                --jobs "$cores" --work "$work/$label-pocl"
              grep -h "^## " "$work/$label-pocl/now/student-01/report.md" ;;
        student)
          mkdir -p "$work/$label-student"
          rm -rf "$work/$label-student/solution" && cp -r "$root/solutions" "$work/$label-student/solution"
          for jobs in 4 8; do
            for run in 1 2 3; do
              local start=$EPOCHREALTIME
              rm -rf "$work/$label-student-out"
              KIT_ROOT=$root "$grader" grade -p nvidia --no-oclgrind --jobs $jobs --submissions "$work/$label-student" \
                --out "$work/$label-student-out" > "$work/$label-student.log" 2>&1
              local rc=$?
              echo "one student x 8 labs on the GPU, --no-oclgrind, --jobs $jobs, run $run:" \
                "$(awk "BEGIN { printf \"%.2f\", $EPOCHREALTIME - $start }") s, exit $rc," \
                "$(tail -n 1 "$work/$label-student-out/gradebook.csv" | awk -F, '{ print $NF }') points"
            done
          done
          grep -h "^## \|not-run\|failed\|wrong" "$work/$label-student-out/solution/report.md" ;;
      esac
    } > "$log" 2>&1
    echo "wrote $log"
  done
}

[ -n "$old" ] && measure earlier "$old" "$old_root"
measure now "$new" "$PWD"
rm -rf "$work"
