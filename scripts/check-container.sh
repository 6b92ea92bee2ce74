#!/usr/bin/env bash
# Builds the kit's container image (the top-level Dockerfile: Debian 12, scripts/setup.sh, make build)
# and checks the solutions' visible cases in it (`grader check --dir solutions`), timed. Usage: scripts/check-container.sh [docker|podman]
# (default: whichever is installed, podman first).
#   The check runs as the Dockerfile's `check` stage, while the image is built, so a builder that
#   cannot run containers (podman build --isolation=chroot, where the kernel refuses a container's
#   limits) checks it too. ISOLATION=chroot passes --isolation=chroot to podman build.
#   When Docker Hub cannot be reached (the base image debian:12 cannot be pulled), the base is made
#   here as the same release, a Debian 12 minbase root from the host's mirror (mmdebstrap, as root),
#   imported as localhost/kit-base:debian12; the script says so. BASE=image: use that base instead.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${1:-}
if [ -z "$engine" ]; then
  for e in podman docker; do command -v "$e" > /dev/null && { engine=$e; break; }; done
fi
[ -n "$engine" ] || { echo "check-container: neither podman nor docker is installed (sudo apt-get install podman)" >&2; exit 1; }
opts=()
[ -n "${ISOLATION:-}" ] && opts+=(--isolation="$ISOLATION")
base=${BASE:-debian:12}
if [ -z "${BASE:-}" ] && ! "$engine" image inspect debian:12 > /dev/null 2>&1 && ! "$engine" pull debian:12; then
  echo "check-container: debian:12 cannot be pulled; making a Debian 12 minbase base with mmdebstrap instead"
  tar=$(mktemp --suffix=.tar)
  trap 'rm -f "$tar"' EXIT
  mmdebstrap --variant=minbase bookworm "$tar" > /dev/null
  "$engine" import "$tar" localhost/kit-base:debian12
  base=localhost/kit-base:debian12
fi
echo "check-container: $(date -u '+%Y-%m-%d %H:%M UTC'), $engine, base $base, host $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
"$engine" build "${opts[@]}" --build-arg BASE="$base" --target kit -t reduction-kit .
echo "check-container: image reduction-kit (scripts/setup.sh, make build) in $(( $(date +%s) - start )) s"
start=$(date +%s)
"$engine" build "${opts[@]}" --build-arg BASE="$base" --target check -t reduction-kit-check .
echo "check-container: grader check --dir solutions in the image: $(( $(date +%s) - start )) s; make check on the labs: $engine run --rm reduction-kit"
