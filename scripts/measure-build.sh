#!/usr/bin/env bash
# scripts/measure-build.sh [--release] [--kit] [--jobs N]: how long the kit takes to build from
# clean, with ccache off (CCACHE_DISABLE=1), in a fresh folder under /tmp that is removed after.
#   --release  a student release (make student-release), then `make build` in it: what students run
#   --kit      a copy of this tree (its tracked files as they are now), then `make build`: the kit
#              with its tests, the benchmark and the Oclgrind plugin
# Both by default. Prints the wall-clock and the CPU time (user + sys of every compiler and linker)
# of each, the cores used and the load average before it, since a busy machine lengthens the wall.
# Needs the kit built (build/bin/grader makes the release) and the Debian packages installed.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }
release=0 kit=0 jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
  case "$1" in
    --release) release=1 ;;
    --kit) kit=1 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "measure-build: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[ "$release" = 0 ] && [ "$kit" = 0 ] && release=1 kit=1
[ -x build/bin/grader ] || { echo "measure-build: build the kit first (make build)" >&2; exit 1; }

work=$(mktemp -d /tmp/kit-measure-build.XXXXXX)
trap 'rm -rf "$work"' EXIT
export CCACHE_DISABLE=1

# Runs `make build` in $1 and prints its figures under the name $2.
measure() {
  local tree=$1 name=$2 load times
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  local TIMEFORMAT='%R %U %S'
  if ! { time make -C "$tree" build JOBS="$jobs" >"$work/$name.log" 2>&1; } 2>"$work/$name.time"; then
    tail -n 20 "$work/$name.log" >&2
    echo "measure-build: make build failed in the $name" >&2
    exit 1
  fi
  read -r wall user sys <"$work/$name.time"
  awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v j="$jobs" -v l="$load" 'BEGIN {
    printf "%s, make build from clean (ccache off, -j %s, load average before %s): wall %.0f s, CPU %.0f s (user %.0f + sys %.0f)\n",
           n, j, l, w, u + s, u, s }'
}

if [ "$release" = 1 ]; then
  scripts/student-release.sh "$work/release" >/dev/null
  measure "$work/release" "student release"
fi
if [ "$kit" = 1 ]; then
  mkdir "$work/kit"
  git ls-files -z | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -xf - -C "$work/kit"
  measure "$work/kit" "kit with tests"
fi
