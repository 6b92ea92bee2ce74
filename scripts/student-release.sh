#!/usr/bin/env bash
# make student-release DEST=dir [LABS=01,02,03]: what students get. The starters, common/, the lab programs, the
# grader with the visible cases only, the lab READMEs, the students' README and demo, and the GitHub
# Classroom workflow. Not: solutions/, hidden cases, the speed case's baseline (the solution), tests,
# the example class, the mutants, the benchmark, the deck (its listings are cut from the solutions).
# LABS releases those labs only (the others' folders, specs and references stay out). Any release,
# of all labs too, is refused when a released starter gives lines that another lab's students
# write (a lab that builds on an earlier one asks for the student's own code in a region instead).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-}
[ -n "$dest" ] || { echo "usage: make student-release DEST=dir" >&2; exit 2; }
if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then echo "student-release: $dest exists and is not empty" >&2; exit 1; fi
[ -x build/bin/grader ] || { echo "student-release: build the kit first (make build)" >&2; exit 1; }
made=0
[ -e "$dest" ] || made=1
mkdir -p "$dest"
release_args=(--dest "$dest")
[ -n "${LABS:-}" ] && release_args+=(--labs "$LABS")
# The grading data first: it is where a release is refused, before anything is copied.
if ! build/bin/grader release-specs "${release_args[@]}"; then
  [ "$made" = 1 ] && rm -rf "$dest"
  exit 1
fi
released=$(ls grader/specs | sed 's/\.json$//')
[ -n "${LABS:-}" ] && released=$(ls "$dest/grader/specs" | sed 's/\.json$//')
unreleased=$(comm -23 <(ls -d labs/[0-9][0-9]-*/ | xargs -n1 basename | sort) <(echo "$released" | sort))
left_out='^(solutions/|tests/|bench/|slides/|\.ci/|\.github/|grader/mutants/|grader/examples/|grader/reference/|grader/specs/'
left_out+='|grader/gradescope/|grader/release/|grader/classroom/|scripts/(measure-gpu|measure-build|check-fresh-machine|gradescope-zip|student-release|compare-verdicts|build-slides|plot_benchmark|plot_deck_graphs|draw_readme_figures)'
left_out+='|labs/[^/]+/test_[^/]*\.cpp$|labs/shared/test_[^/]*\.cpp$|README\.md$|Makefile$|scripts/demo\.sh$)'
for lab in $unreleased; do left_out+="|^labs/$lab/"; done
git ls-files | grep -Ev "$left_out" | while IFS= read -r f; do
  mkdir -p "$dest/$(dirname "$f")"
  cp -p "$f" "$dest/$f"
done
# The course's measured logs and sweeps that a released lab README quotes, so every path it names
# is there (the rest of slides/, the deck and its sources, stays out).
for lab in $released; do
  grep -o 'slides/data/[A-Za-z0-9_./*-]*' "labs/$lab/README.md" | sed 's/[.]$//' | sort -u | while IFS= read -r pattern; do
    for f in $pattern; do
      if [ -f "$f" ]; then mkdir -p "$dest/$(dirname "$f")"; cp -p "$f" "$dest/$f"; fi
    done
  done
done
cp grader/release/README.md "$dest/README.md"
cp grader/release/Makefile "$dest/Makefile"  # only the targets that work in a release
cp grader/release/demo.sh "$dest/scripts/demo.sh"
mkdir -p "$dest/.github/workflows"
cp grader/classroom/classroom.yml "$dest/.github/workflows/classroom.yml"
echo "student release written to $dest ($(find "$dest" -type f | wc -l) files; labs: $(echo $released | tr ' ' ','))"
