#!/usr/bin/env bash
# Runs the README's quick start on a fresh Debian: a minbase root made with mmdebstrap, a clone of
# the kit's committed tree (HEAD) in it, then `scripts/setup.sh` (a bare Debian has no
# make), `make demo` and `make test` as root inside it (chroot), each timed. Prints the times; the
# logs stay beside the root.
# Usage (as root, on a Debian host): scripts/check-fresh-machine.sh bookworm|trixie [demo|test|both]
#   ROOT=dir    where the root is made (default /tmp/kit-fresh-SUITE; removed and made again)
#   MIRROR=url  the Debian mirror (default: the first one in this host's apt sources)
#   NICE=n      the niceness of the commands inside (default 15: a shared machine stays usable)
# Behind a proxy that re-signs TLS, the host's own CA certificates (/usr/local/share/ca-certificates)
# are copied into the root, so that pip reaches PyPI as it does on the host; the script says so.
set -euo pipefail
suite=${1:-}
what=${2:-both}
case "$suite" in bookworm|trixie) ;; *) echo "usage: $0 bookworm|trixie [demo|test|both]" >&2; exit 2 ;; esac
case "$what" in demo|test|both) ;; *) echo "usage: $0 bookworm|trixie [demo|test|both]" >&2; exit 2 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "check-fresh-machine: run it as root (mmdebstrap and chroot need it): sudo $0 $*" >&2; exit 1; }
kit=$(cd "$(dirname "$0")/.." && pwd)
root=${ROOT:-/tmp/kit-fresh-$suite}
nice_n=${NICE:-15}
logs=$root.logs

if [ -z "${MIRROR:-}" ]; then
  MIRROR=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
             grep -oE 'https?://[^ ]*/debian/?( |$)' | grep -v security | head -1 | tr -d ' ' || true)
  MIRROR=${MIRROR:-http://deb.debian.org/debian}
fi
command -v mmdebstrap >/dev/null || { echo "check-fresh-machine: installing mmdebstrap"; apt-get install -y --no-install-recommends mmdebstrap; }
if [ -n "$(git -C "$kit" status --porcelain --untracked-files=no)" ]; then
  echo "check-fresh-machine: note: the working tree has uncommitted changes; the root gets a clone of HEAD ($(git -C "$kit" rev-parse --short HEAD)) without them"
fi

mounts=(proc sys dev dev/pts)
unmount() {
  # Daemons a package started inside the root (munge, slurm) hold it: stop those, by process id.
  local pid
  for pid in $(ls /proc | grep -E '^[0-9]+$'); do
    [ "$(readlink "/proc/$pid/root" 2>/dev/null)" = "$root" ] && kill "$pid" 2>/dev/null || true
  done
  sleep 1
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    mountpoint -q "$root/${mounts[i]}" && umount -l "$root/${mounts[i]}" || true
  done
}
[ -d "$root" ] && { unmount; rm -rf "$root"; }
rm -rf "$logs"; mkdir -p "$logs"
trap unmount EXIT

echo "check-fresh-machine: $(date -u '+%Y-%m-%d %H:%M UTC'), host $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "check-fresh-machine: mmdebstrap --variant=minbase $suite $root $MIRROR"
t0=$(date +%s)
mmdebstrap --variant=minbase "$suite" "$root" "$MIRROR" > "$logs/mmdebstrap.log" 2>&1 ||
  { tail -20 "$logs/mmdebstrap.log" >&2; exit 1; }
echo "check-fresh-machine: root made in $(( $(date +%s) - t0 )) s ($(. "$root/etc/os-release" && echo "$PRETTY_NAME"))"
# A clone, as a student or the staff get the kit (make gradescope-zip reads git ls-files): HEAD only.
git clone --quiet --no-hardlinks "$kit" "$root/root/kit"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# An installed Debian 12 has an /etc/hosts naming localhost (the installer writes it; Debian 13's
# netbase package ships one); a minbase root of Debian 12 has none, and slurmd then cannot resolve
# "localhost" ("Unable to resolve", so make test's one-node Slurm never runs a job).
[ -e "$root/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > "$root/etc/hosts"
if compgen -G '/usr/local/share/ca-certificates/*.crt' > /dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  echo "check-fresh-machine: copied this host's own CA certificates into the root ($(ls /usr/local/share/ca-certificates | tr '\n' ' '))"
fi
# /sys with what is mounted below it (recursive): Slurm 24.11 (Debian 13) has slurmd set up its
# cgroup plugin at start, which fails without /sys/fs/cgroup ("No filesystem mounted on
# /sys/fs/cgroup"), so `make test`'s one-node Slurm never comes up. Made a slave, so that taking the
# root's mounts down never takes the host's down with them.
for m in "${mounts[@]}"; do
  if [ "$m" = sys ]; then
    mount --rbind /sys "$root/sys"
    mount --make-rslave "$root/sys"
  else
    mount --bind "/$m" "$root/$m"
  fi
done

# One command as root inside the root, timed; its output goes to a log (the last lines are shown).
declare -A took
inside() {
  local name=$1 cmd=$2 start rc=0
  echo "check-fresh-machine: [$suite] $cmd (log: $logs/$name.log)"
  start=$(date +%s)
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    ${http_proxy:+http_proxy=$http_proxy} ${https_proxy:+https_proxy=$https_proxy} \
    nice -n "$nice_n" bash -c "cd /root/kit && $cmd" > "$logs/$name.log" 2>&1 || rc=$?
  took[$name]="$(( $(date +%s) - start )) s, exit status $rc"
  tail -15 "$logs/$name.log"
  echo "check-fresh-machine: [$suite] $cmd: ${took[$name]}"
  return 0
}
inside setup "scripts/setup.sh"
[ "$what" = test ] || inside demo "make demo"
[ "$what" = demo ] || inside test "make test"

echo
echo "check-fresh-machine: $suite ($(date -u '+%Y-%m-%d'), host $(nproc) cores, load now $(cut -d' ' -f1-3 /proc/loadavg), commands at nice $nice_n):"
[ -n "${took[setup]:-}" ] && echo "  scripts/setup.sh: ${took[setup]}"
for name in demo test; do
  [ -n "${took[$name]:-}" ] && echo "  make $name: ${took[$name]}"
done
echo "  logs: $logs"
status=0
for name in setup demo test; do
  [[ "${took[$name]:-exit status 0}" == *"exit status 0" ]] || status=1
done
exit $status
