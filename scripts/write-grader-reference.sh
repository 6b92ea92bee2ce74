#!/usr/bin/env bash
# scripts/write-grader-reference.sh: writes docs/reference/grader-commands.md, every grader
# subcommand's --help as the grader prints it (a default that names this checkout's folder is cut
# from its line). tests/test_readme_kit.cpp runs each command there and checks the quoted help, so
# after a flag changes, run this again (the kit built) and commit the file.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/bin/grader ] || { echo "write-grader-reference: build the kit first (make build)" >&2; exit 1; }
out=docs/reference/grader-commands.md
root=$PWD
help() { build/bin/grader "$@" --help | sed -e "s|TEXT=$root/|TEXT=|" -e "s| *$||"; }
{
  echo "# The grader's commands"
  echo
  echo "Every subcommand of \`build/bin/grader\` with its \`--help\`, as this kit's grader prints it (a"
  echo "default that names the kit's own folder is shown from the kit's root). What the commands are for,"
  echo "in a term's order: [instructors.md](../instructors.md); the words the reports use:"
  echo "[statuses.md](statuses.md). Written by \`scripts/write-grader-reference.sh\`; the tests run every"
  echo "command below and check its help."
  echo
  echo "## The grader"
  echo
  echo '```sh'
  echo 'build/bin/grader --help'
  echo '```'
  echo '```text'
  help
  echo '```'
  for sub in $(build/bin/grader --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && /^  [a-z]/ {print $1}'); do
    echo
    echo "## grader $sub"
    echo
    echo "$(build/bin/grader "$sub" --help | head -1)."
    echo
    echo '```sh'
    echo "build/bin/grader $sub --help"
    echo '```'
    echo '```text'
    help "$sub" | tail -n +2
    echo '```'
  done
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
