#!/usr/bin/env bash
# make student-release DEST=dir [LABS=01,02,03]: what students get. The starters, common/, the lab programs, the
# grader with the visible cases only, the lab READMEs, the students' README (docs/students.md) and demo, and the GitHub
# Classroom workflow. Not: solutions/, hidden cases, the speed case's baseline (the solution), tests,
# the example class, the mutants, the benchmark, the deck (its listings are cut from the solutions).
# LABS releases those labs only (the others' folders, specs and references stay out). Any release,
# of all labs too, is refused when a released starter gives lines that another lab's students
# write (a lab that builds on an earlier one asks for the student's own code in a region instead).
# The files copied are those git tracks, as they are in the working tree (a change not yet committed
# is released as it stands); a file git does not track is never copied, so a release that would need
# one (a new lab not yet `git add`-ed) is refused, naming each such file. Every refusal or failure
# says why on stderr and exits non-zero; a folder the script made is removed again.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
made=0 writing=0
# Removes what was written of the release (the folder itself when this script made it).
given_up() {
  if [ "$writing" = 1 ]; then
    if [ "$made" = 1 ]; then rm -rf "$dest"; else find "$dest" -mindepth 1 -delete; fi
  fi
  exit 1
}
trap 'echo "student-release: failed at line $LINENO: $BASH_COMMAND; nothing was released" >&2; given_up' ERR
dest=${1:-}
[ -n "$dest" ] || { echo "usage: make student-release DEST=dir" >&2; exit 2; }
if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then echo "student-release: $dest exists and is not empty" >&2; exit 1; fi
[ -x build/bin/grader ] || { echo "student-release: build the kit first (make build)" >&2; exit 1; }
git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
  { echo "student-release: $PWD is not a git checkout: the release copies the files git tracks" >&2; exit 1; }
[ -e "$dest" ] || made=1
mkdir -p "$dest"
writing=1
release_args=(--dest "$dest")
[ -n "${LABS:-}" ] && release_args+=(--labs "$LABS")
# The grading data first: it is where a release is refused, before anything is copied.
if ! build/bin/grader release-specs "${release_args[@]}"; then
  echo "student-release: grader release-specs refused the release (above); nothing was released" >&2
  given_up
fi
released=$(ls grader/specs | sed 's/\.json$//')
[ -n "${LABS:-}" ] && released=$(ls "$dest/grader/specs" | sed 's/\.json$//')
unreleased=$(comm -23 <(ls -d labs/[0-9][0-9]-*/ | xargs -n1 basename | sort) <(echo "$released" | sort))
left_out='^(solutions/|tests/|bench/|slides/|\.ci/|\.github/|grader/mutants/|grader/examples/|grader/reference/|grader/specs/'
left_out+='|grader/gradescope/|grader/release/|grader/classroom/|scripts/(measure-gpu|measure-build|check-fresh-machine|gradescope-zip|student-release|compare-verdicts|build-slides|plot_benchmark|plot_deck_graphs|draw_readme_figures|new-lab)'
left_out+='|labs/[^/]+/test_[^/]*\.cpp$|labs/shared/test_[^/]*\.cpp$|README\.md$|Makefile$|scripts/demo\.sh$'
# The documents for instructors, lab authors and maintainers stay out; the students' is the release's
# README.md, and the drawings the labs' READMEs show (docs/figures/) go with them.
left_out+='|docs/[^/]+\.md$|docs/reference/|docs/measurements/|grader/README\.md$|CHANGELOG\.md$|scripts/write-grader-reference)'
for lab in $unreleased; do left_out+="|^labs/$lab/"; done
# A file the release would hold but git does not track: refused by name (git add it, or move it out).
untracked=$(git ls-files --others --exclude-standard | { grep -Ev "$left_out" || true; })
if [ -n "$untracked" ]; then
  while IFS= read -r f; do
    echo "student-release: $f is not tracked by git: git add it, or it is left out of the release" >&2
  done <<<"$untracked"
  echo "student-release: nothing was released" >&2
  given_up
fi
# A lab whose build links another lab's host library (LINKS labNN in its CMakeLists.txt) needs
# that lab's folder: refused unless that lab is released too, naming both.
missing=0
for lab in $released; do
  for nn in $({ sed -n 's/^ *LINKS *//p' "labs/$lab/CMakeLists.txt" | grep -o 'lab[0-9][0-9]' || true; } | sed 's/^lab//'); do
    if ! echo "$released" | grep -q "^$nn-"; then
      echo "student-release: labs/$lab builds on lab $nn's host library (labs/$lab/CMakeLists.txt: LINKS lab$nn): release lab $nn with it (LABS=...,$nn,${lab:0:2})" >&2
      missing=1
    fi
  done
done
[ "$missing" = 0 ] || { echo "student-release: nothing was released" >&2; given_up; }
for lab in $released; do
  [ -f "labs/$lab/README.md" ] || { echo "student-release: labs/$lab/README.md is missing: every released lab has one" >&2; given_up; }
done
git ls-files | grep -Ev "$left_out" | while IFS= read -r f; do
  mkdir -p "$dest/$(dirname "$f")"
  cp -p "$f" "$dest/$f"
done
# The course's measured logs and sweeps that a released lab README quotes, so every path it names
# is there (the rest of slides/, the deck and its sources, stays out).
for lab in $released; do
  # A README that names no measured log copies none (grep finds nothing: not an error).
  { grep -o 'slides/data/[A-Za-z0-9_./*-]*' "labs/$lab/README.md" || true; } | sed 's/[.]$//' | sort -u | while IFS= read -r pattern; do
    for f in $pattern; do
      if [ -f "$f" ]; then mkdir -p "$dest/$(dirname "$f")"; cp -p "$f" "$dest/$f"; fi
    done
  done
done
# The release's README is the students' document, docs/students.md. Its examples use lab 03; a
# release without it shows its first lab instead.
first=$(echo $released | cut -d' ' -f1)
if echo "$released" | grep -qx 03-array-mult-reduce; then
  cp docs/students.md "$dest/README.md"
else
  sed -e "s/03-array-mult-reduce/$first/g" -e "s/check 03/check ${first:0:2}/g" -e "s/lab 03/lab ${first:0:2}/g" \
    docs/students.md >"$dest/README.md"
fi
cp grader/release/Makefile "$dest/Makefile"  # only the targets that work in a release
cp grader/release/demo.sh "$dest/scripts/demo.sh"
mkdir -p "$dest/.github/workflows"
cp grader/classroom/classroom.yml "$dest/.github/workflows/classroom.yml"
echo "student release written to $dest ($(find "$dest" -type f | wc -l) files; labs: $(echo $released | tr ' ' ','))"
