#!/usr/bin/env bash
# Installs the Debian packages the kit needs, by role; does nothing when all are present.
# Usage: scripts/setup.sh [core|slides|test]
#   core   (students, make demo/check/build): the compiler, PoCL, Oclgrind and the libraries the kit builds with
#   slides (make slides): also TeX Live for the lecture deck
#   test   (make test, the course staff): also TeX Live and a one-node Slurm (slurm-wlm, munge) for the cluster tests
set -euo pipefail

core=(cmake g++ make pkg-config
      pocl-opencl-icd ocl-icd-opencl-dev opencl-clhpp-headers clinfo
      doctest-dev libcli11-dev nlohmann-json3-dev libarchive-dev libssl-dev zip
      oclgrind liboclgrind-dev python3-matplotlib)
slides=(latexmk texlive-latex-base texlive-latex-recommended texlive-latex-extra
        texlive-fonts-recommended poppler-utils)

cluster=(slurm-wlm munge)

want=("${core[@]}")
case "${1:-core}" in
  core) ;;
  slides) want+=("${slides[@]}") ;;
  test) want+=("${slides[@]}" "${cluster[@]}") ;;
  *) echo "setup: unknown role '$1' (core, slides or test)" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: these Debian packages are missing: ${missing[*]}" >&2
  echo "setup: install them as root, then run the command again:" >&2
  echo "    sudo apt-get update && sudo $line" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$line
