#!/usr/bin/env bash
# Your kernels, lab by lab: each lab program checks the kernel in labs/ on a small case, then the
# grader's self-check runs every visible case. Nothing here uses a solution.
set -uo pipefail
cd "$(dirname "$0")/.."
echo "== OpenCL devices"
first=$(basename "$(ls -d labs/[0-9]*/ | head -n 1)")  # any lab program lists them
build/bin/$first --list
for lab in labs/[0-9]*/; do
  lab=$(basename "$lab")
  echo; echo "== $lab: your kernel, checked"
  build/bin/$lab --check --repeats 1 2>&1  # all of it: every rung's and method's line, not a tail
done
echo; echo "== grader check: every visible case, as your submission will be graded"
build/bin/grader check
exit 0
