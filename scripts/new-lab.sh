#!/usr/bin/env bash
# make new-lab NAME=NN-name: a new lab from scripts/new-lab-template/ (its README.md says what the
# template holds and which placeholders it fills). Writes, and lists as it goes:
#   labs/NN-name/         the host program, library, JSON forms, grader adapter, test, README, starter
#   solutions/NN-name/    the finished kernel
#   grader/specs/NN-name.json, grader/mutants/NN-name.equivalent.json
# Nothing else lists the labs: kit_add_lab() in the lab's CMakeLists.txt registers it with the
# build, the grader and the tests. Refuses a NAME that is not NN-name or a lab that exists.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-}
fail() { echo "new-lab: $*" >&2; exit 2; }
[ -n "$name" ] || fail "usage: make new-lab NAME=NN-name (two digits, a dash, then lowercase words joined by dashes, e.g. 09-argmax)"
[[ "$name" =~ ^[0-9][0-9]-[a-z][a-z0-9]*(-[a-z0-9]+)*$ ]] ||
  fail "NAME '$name' is not NN-name: two digits, a dash, then lowercase words joined by dashes (e.g. 09-argmax)"
nn=${name:0:2}
words=${name:3}
for existing in labs/"$nn"-*/ solutions/"$nn"-*/ grader/specs/"$nn"-*.json; do
  [ -e "$existing" ] && fail "lab $nn exists already: $existing (pick another number)"
done
snake=${words//-/_}
kernel=""
IFS=- read -r -a parts <<<"$words"
for p in "${parts[@]}"; do kernel+="${p^}"; done
template=scripts/new-lab-template
[ -d "$template" ] || fail "$template is missing"

fill() { sed -e "s/@LAB@/$name/g" -e "s/@NN@/$nn/g" -e "s/@SNAKE@/$snake/g" -e "s/@KERNEL@/$kernel/g"; }
written=()
while IFS= read -r source; do
  relative=${source#"$template"/}
  [ "$relative" = README.md ] && continue  # the template's own description
  target=$(printf '%s\n' "$relative" | fill)
  [ -e "$target" ] && fail "$target exists already; nothing was written over"
  mkdir -p "$(dirname "$target")"
  fill <"$source" >"$target"
  written+=("$target")
done < <(find "$template" -type f | sort)
for f in "${written[@]}"; do echo "wrote $f"; done
cat <<NEXT
new lab $name: kernel $kernel in labs/$name/$kernel.cl, host library labs/$name/$snake.cpp.
No list of labs was edited: kit_add_lab() in labs/$name/CMakeLists.txt registers it. Next (docs/lab-authors.md, "Adding a lab"):
  make build                                      # builds build/bin/$name and the grader with the lab in it
  build/bin/grader reference --labs $nn             # stores grader/reference/$name.json from the solution
  build/bin/grader release-specs --kit-starters   # stores the starter's hash in grader/starters.json
  build/bin/grader check $nn                        # the starter: 0 points (exits 1)
  build/bin/grader check $nn --dir solutions        # the solution: every visible point
  build/bin/grader mutants $nn                      # each mutant killed, or listed in grader/mutants/$name.equivalent.json
  git add labs/$name solutions/$name grader/specs/$name.json grader/reference grader/starters.json grader/mutants/$name.equivalent.json
and add the lab's row to the labs table in README.md.
NEXT
