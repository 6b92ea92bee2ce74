#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying `grader slurm` (and for the kit's Slurm
# test): munged, slurmctld and slurmd started by hand (no systemd needed) with a generated
# slurm.conf, everything (key, spool, state, logs, pid files) kept in DIR. Run as root.
#   scripts/slurm-local-cluster.sh start DIR   # prints the line to export SLURM_CONF
#   scripts/slurm-local-cluster.sh stop DIR
# Then: export SLURM_CONF=DIR/slurm.conf; sinfo; build/bin/grader slurm ...
set -euo pipefail
action=${1:-} dir=${2:-}
[ -n "$action" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
if [ "$action" = stop ]; then
  for p in slurmd slurmctld munged; do
    [ -f "$dir/$p.pid" ] && kill "$(cat "$dir/$p.pid")" 2>/dev/null || true
  done
  sleep 1
  for p in slurmd slurmctld munged; do
    [ -f "$dir/$p.pid" ] && kill -9 "$(cat "$dir/$p.pid")" 2>/dev/null || true
    rm -f "$dir/$p.pid"
  done
  exit 0
fi
[ "$action" = start ] || { echo "$0: unknown action '$action' (start or stop)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "$0: must run as root (slurmd starts jobs as their users)" >&2; exit 1; }
for tool in munged slurmctld slurmd sinfo; do
  command -v "$tool" > /dev/null || { echo "$0: $tool not found: apt-get install slurm-wlm munge" >&2; exit 1; }
done
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
dir=$(realpath "$dir")
chmod 700 "$dir/munge"
[ -f "$dir/munge/munge.key" ] || { dd if=/dev/urandom bs=1 count=1024 of="$dir/munge/munge.key" status=none; chmod 400 "$dir/munge/munge.key"; }
# Ports of our own, so a cluster already on this machine is not disturbed.
port=$((20000 + RANDOM % 20000))
cpus=$(nproc)
memory=$(( $(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) * 3 / 4 ))
cat > "$dir/slurm.conf" <<CONF
ClusterName=kit
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=localhost CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=kit Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" --pid-file="$dir/munged.pid" \
       --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed" --force
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" -i
slurmd -f "$SLURM_CONF" -N localhost
for _ in $(seq 60); do
  if sinfo -h -o %T 2>/dev/null | grep -qx idle; then echo "export SLURM_CONF=$SLURM_CONF"; exit 0; fi
  sleep 1
done
echo "$0: the node did not become idle in 60 s; slurmctld.log and slurmd.log in $dir say why:" >&2
tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2
if ! mountpoint -q /sys/fs/cgroup; then
  echo "$0: /sys/fs/cgroup is not mounted here, and slurmd (Slurm 24.11, Debian 13) sets up its cgroup plugin at start;" >&2
  echo "$0: in a chroot, mount /sys with what is below it: mount --rbind /sys ROOT/sys" >&2
fi
exit 1
