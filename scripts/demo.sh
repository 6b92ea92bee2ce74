#!/usr/bin/env bash
# The kit's demo: the devices, lab 03's solution measured on a small table of sizes, the starter
# kernel failing its check the way a student first sees it, and the grader marking a class.
set -euo pipefail
cd "$(dirname "$0")/.."
lab=build/bin/03-array-mult-reduce
status=0

echo "== OpenCL devices"
$lab --list
echo

echo "== Lab 01 ArrayMult and lab 02 ArrayMultAdd, solutions (every output checked)"
build/bin/01-array-mult --solution --check --elements 1Mi,16Mi --local 8,64,256 --repeats 3 | tail -4 || status=1
build/bin/02-array-mult-add --solution --check --elements 1Mi,16Mi --local 8,64,256 --repeats 3 | tail -4 || status=1
echo

echo "== Lab 04, the tree-reduction ladder, solution (4Mi ints, L = 256)"
build/bin/04-tree-reductions --solution --check --elements 4Mi --local 256 --repeats 3 | tail -8 || status=1
echo

echo "== Lab 05, multi-pass reductions of any N, solution (N = 1000003, L = 256)"
build/bin/05-multipass-reductions --solution --check --repeats 2 | tail -13 || status=1
echo

echo "== Lab 06, the cascade dot product, solution (16Mi elements), against OpenMP on this CPU"
build/bin/06-cascade-reduction --solution --check --vs-openmp --elements 16Mi --repeats 5 | tail -6 || status=1
echo

echo "== Lab 07, the image max pyramid, solution (1023 x 257, 2x2 and 4x4 blocks)"
build/bin/07-image-max-pyramid --solution --check --width 1023 --height 257 --repeats 2 | tail -6 || status=1
echo

echo "== Lab 08, atomics, accuracy and scan, solution (1Mi elements)"
build/bin/08-atomics-and-scan --solution --check --elements 1Mi --run 16Ki --repeats 2 | tail -25 || status=1
echo

echo "== Lab 03 ArrayMultReduce, solution, on the default device"
$lab --solution --elements 1Mi --local 32 --repeats 3 | sed -n 1p  # sed reads it all: head would end the program with SIGPIPE
echo "GigaNumbers Multiplied and Reduced Per Second (best of 5; every work-group sum checked)"
locals=(8 32 128 256)
printf '%12s' "N \\ L"; printf '%9s' "${locals[@]}"; echo
for n in 1Mi 4Mi 16Mi; do
  printf '%12s' "$n"
  for l in "${locals[@]}"; do
    read -r _ _ best _ verdict < <($lab --solution --check --brief --elements "$n" --local "$l" --warmup 1 --repeats 5 || true)
    [ "$verdict" = ok ] || status=1
    printf '%9s' "$best$([ "$verdict" = ok ] || echo '!')"
  done
  echo
done
echo

echo "== Lab 03 starter kernel (labs/03-array-mult-reduce/ArrayMultReduce.cl), as a student gets it"
if $lab --check --elements 1Mi --local 32 --repeats 1; then
  echo "demo: the starter kernel passed its check; it should fail until the TODOs are done" >&2
  status=1
else
  echo "(expected: the starter fails until its two TODOs are filled in)"
fi
echo

echo "== Grading the example class (grader/examples/class: twelve lab 03 submissions, with Oclgrind's safety checks)"
out=build/demo-grades
rm -rf "$out"
build/bin/grader grade --labs 03 --submissions grader/examples/class --out "$out" --jobs 2 || status=1
# Each student's points against EXPECTED.json's (a number, or a [min, max] range where undefined
# behaviour may decide): the first "points" after a student's name there, the lab column here.
expected=grader/examples/class/EXPECTED.json
if [ -f "$out/gradebook.csv" ]; then
  if awk -F, '
      FNR == NR {
        if (match($0, /^    "[^"]+": \{/)) { name = substr($0, 6); sub(/".*/, "", name); want = 1; next }
        if (want && $0 ~ /"points":/) { v = $0; sub(/.*"points": */, "", v); gsub(/[][ ]/, "", v); sub(/,$/, "", v); exp_[name] = v; want = 0 }
        next
      }
      FNR > 1 {
        got = $2 + 0; n = split(exp_[$1], r, ",")
        if (!($1 in exp_)) { printf "demo: %s is graded but not in EXPECTED.json\n", $1; bad = 1; next }
        lo = r[1] + 0; hi = (n > 1 ? r[2] : r[1]) + 0; seen[$1] = 1
        if (got < lo - 1e-9 || got > hi + 1e-9) { printf "demo: %s got %s points, EXPECTED.json says %s\n", $1, $2, exp_[$1]; bad = 1 }
      }
      END {
        for (s in exp_) if (!(s in seen)) { printf "demo: %s is in EXPECTED.json but was not graded\n", s; bad = 1 }
        exit bad
      }' "$expected" "$out/gradebook.csv" >&2; then
    echo "Every student's points are those grader/examples/class/EXPECTED.json gives."
  else
    echo "demo: the example class's points differ from $expected (above)" >&2
    status=1
  fi
fi
echo "(per-student reports: $out/<student>/report.md; the grades and why: $expected)"
exit $status
