#!/usr/bin/env bash
# tests/cluster/slurm.sh MURMUR: a real Slurm runs `murmur plan --slurm`.
#
# Starts a one-node Slurm cluster on localhost (munged, slurmctld and slurmd
# of Debian 12's slurm-wlm 22.05, with a generated slurm.conf, a fresh munge
# key and every file in a temporary folder, on ports of its own), submits
# the batch script `murmur plan SCENE --shards 4 --slurm` prints, waits for
# the job array and the merge job it submits, checks that every job
# COMPLETED and that the merged table is the whole run's bytes, and stops
# everything it started (a trap, on any exit).
#
# slurmd runs jobs as their users, so this needs root: not root, it exits 77
# (ctest's SKIP_RETURN_CODE: shown as skipped, never as passed). A missing
# program, a daemon that does not come up, or a job that fails is a failure.
set -euo pipefail
murmur=$(realpath "$1")
src=$(cd "$(dirname "$0")/../.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
    echo "slurm.sh: skipped: a one-node Slurm needs root (slurmd starts jobs as their user)" >&2
    exit 77
fi
for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo; do
    command -v "$tool" >/dev/null || { echo "slurm.sh: $tool is not installed (Debian: slurmctld slurmd slurm-client munge)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/murmur-slurm-XXXXXX)
chmod 755 "$work"
pids=()
stop() {
    local status=$?
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    # slurmd may take a moment to answer SIGTERM; then it is killed
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    if [ "$status" -ne 0 ]; then
        echo "slurm.sh: failed (exit $status); the daemons' logs:" >&2
        tail -n 20 "$work"/*.log "$work"/run/slurm-*.out 2>/dev/null >&2 || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap stop EXIT

# Polls `$2...` every 0.2 s until it succeeds, for at most $1 seconds.
wait_for() {
    local limit=$1
    shift
    local end=$((SECONDS + limit))
    until "$@" >/dev/null 2>&1; do
        if [ "$SECONDS" -ge "$end" ]; then
            echo "slurm.sh: timed out after ${limit}s waiting for: $*" >&2
            return 1
        fi
        sleep 0.2
    done
}

# munge: a key of our own, and its socket in the folder
mungekey -c -f -k "$work/munge.key"
chmod 400 "$work/munge.key"
munged -F --force --socket="$work/munge.sock" --key-file="$work/munge.key" --pid-file="$work/munged.pid" \
    --log-file="$work/munged.log" --seed-file="$work/munged.seed" 2>"$work/munged.err.log" &
pids+=($!)
wait_for 20 test -S "$work/munge.sock"

# ports of our own, away from Slurm's 6817-6819
port=$((20000 + $$ % 20000))
host=$(hostname -s)
mkdir -p "$work/state" "$work/spool" "$work/run"
cat > "$work/slurm.conf" <<CONF
ClusterName=murmurtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=600
NodeName=murmurnode NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=murmurnode Default=YES State=UP MaxTime=INFINITE
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -D -f "$SLURM_CONF" 2>"$work/slurmctld.err.log" &
pids+=($!)
slurmd -D -N murmurnode -f "$SLURM_CONF" 2>"$work/slurmd.err.log" &
pids+=($!)
node_idle() { sinfo -h -o %T | grep -qx idle; }
wait_for 60 node_idle

# the whole run, then the plan on the cluster
cd "$work/run"
cp "$src/scenes/knockout-stats.yaml" k.yaml
"$murmur" stats k.yaml --runs 6 --ticks 300 -o out/whole.csv -q >/dev/null
"$murmur" plan k.yaml --shards 4 --slurm --runs 6 --ticks 300 -q > job.sh
grep -qx '#SBATCH --array=1-4' job.sh
array=$(sbatch --parsable job.sh)
array=${array%%;*}
echo "slurm.sh: submitted job array $array"
queue_empty() { [ -z "$(squeue -h)" ]; }
wait_for 180 queue_empty

# every task and the merge COMPLETED (scontrol keeps them for MinJobAge)
merge=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "slurm-${array}_1.out")
[ -n "$merge" ] || { echo "slurm.sh: task 1 submitted no merge job" >&2; exit 1; }
states=$( { scontrol show job "$array"; scontrol show job "$merge"; } | grep -o 'JobState=[A-Z_]*' | sort | uniq -c)
echo "slurm.sh: $states"
echo "$states" | grep -q 'JobState=COMPLETED'
if echo "$states" | grep -v 'JobState=COMPLETED' | grep -q JobState; then
    echo "slurm.sh: a job did not complete" >&2
    exit 1
fi
[ "$(echo "$states" | awk '{ n += $1 } END { print n }')" -eq 5 ] || { echo "slurm.sh: want 4 tasks and a merge" >&2; exit 1; }
cmp out/whole.csv out/k.csv
echo "slurm.sh: the merge of 4 shards run by Slurm is the whole run's bytes"
