#!/usr/bin/env bash
# make student-release DEST=dir: what students get. The starters, common/, the lab programs, the
# grader with the visible cases only, the lab READMEs, the students' README and demo, and the GitHub
# Classroom workflow. Not: solutions/, hidden cases, the speed case's baseline (the solution), tests,
# the example class, the mutants, the benchmark, the deck (its listings are cut from the solutions).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-}
[ -n "$dest" ] || { echo "usage: make student-release DEST=dir" >&2; exit 2; }
if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then echo "student-release: $dest exists and is not empty" >&2; exit 1; fi
[ -x build/bin/grader ] || { echo "student-release: build the kit first (make build)" >&2; exit 1; }
mkdir -p "$dest"
left_out='^(solutions/|tests/|bench/|slides/|\.ci/|\.github/|grader/mutants/|grader/examples/|grader/reference/|grader/specs/'
left_out+='|grader/gradescope/|grader/release/|grader/classroom/|scripts/(measure-gpu|gradescope-zip|student-release|build-slides|plot_benchmark)'
left_out+='|labs/[^/]+/test_[^/]*\.cpp$|labs/shared/test_[^/]*\.cpp$|README\.md$|scripts/demo\.sh$)'
git ls-files | grep -Ev "$left_out" | while IFS= read -r f; do
  mkdir -p "$dest/$(dirname "$f")"
  cp -p "$f" "$dest/$f"
done
cp grader/release/README.md "$dest/README.md"
cp grader/release/demo.sh "$dest/scripts/demo.sh"
mkdir -p "$dest/.github/workflows"
cp grader/classroom/classroom.yml "$dest/.github/workflows/classroom.yml"
build/bin/grader release-specs --dest "$dest"
echo "student release written to $dest ($(find "$dest" -type f | wc -l) files)"
