#!/usr/bin/env bash
# Packs the Gradescope autograder: the kit's tracked files without solutions/, tests/ and the
# example class (a grading machine needs only specs and stored references), with setup.sh and
# run_autograder at the top of the zip as Gradescope wants them. Output: build/gradescope-autograder.zip
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/gradescope-autograder.zip
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
git ls-files | grep -Ev '^(solutions|tests|grader/examples)/' | while read -r f; do
  mkdir -p "$stage/$(dirname "$f")"
  cp -p "$f" "$stage/$f"
done
cp -p grader/gradescope/setup.sh grader/gradescope/run_autograder "$stage/"
# One Gradescope assignment is usually one lab: LABS=03 (or 03,04) grades only those.
if [ -n "${LABS:-}" ]; then
  sed -i "s|--results /autograder/results/results.json|--results /autograder/results/results.json --labs ${LABS}|" "$stage/run_autograder"
fi
mkdir -p build
rm -f "$out"
(cd "$stage" && zip -qr -X "$OLDPWD/$out" .)
echo "wrote $out ($(du -k "$out" | cut -f1) KiB, labs: ${LABS:-all}): upload it as the autograder of a Gradescope programming assignment"
