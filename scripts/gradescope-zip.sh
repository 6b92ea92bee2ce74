#!/usr/bin/env bash
# Packs the Gradescope autograder: the kit's tracked files without solutions/, tests/ and the
# example class (a grading machine needs only specs and stored references), with setup.sh and
# run_autograder at the top of the zip as Gradescope wants them. Output: build/gradescope-autograder.zip
# (ZIP=path: elsewhere). LABS=03 (or 03,04): only those labs' folders, specs and references.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${ZIP:-build/gradescope-autograder.zip}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
left_out='^(solutions|tests|grader/examples)/'
# One Gradescope assignment is usually one lab: LABS=03 (or 03,04) carries and grades only those.
if [ -n "${LABS:-}" ]; then
  for lab in $(ls -d labs/[0-9][0-9]-*/ | xargs -n1 basename); do
    case ",$LABS," in *",${lab%%-*},"*|*",$lab,"*) ;; *) left_out+="|^labs/$lab/|^grader/specs/$lab\.json$|^grader/reference/$lab[.]|^grader/mutants/$lab[.]";; esac
  done
fi
git ls-files | grep -Ev "$left_out" | while read -r f; do
  mkdir -p "$stage/$(dirname "$f")"
  cp -p "$f" "$stage/$f"
done
cp -p grader/gradescope/setup.sh grader/gradescope/run_autograder "$stage/"
if [ -n "${LABS:-}" ]; then
  sed -i "s|--results /autograder/results/results.json|--results /autograder/results/results.json --labs ${LABS}|" "$stage/run_autograder"
fi
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
rm -f "$out"
# zip reads $ZIP as options of its own: a relative ZIP=path would be taken for a file to create in $stage.
(cd "$stage" && env -u ZIP zip -qr -X "$out" .)
echo "wrote $out ($(du -k "$out" | cut -f1) KiB, labs: ${LABS:-all}): upload it as the autograder of a Gradescope programming assignment"
