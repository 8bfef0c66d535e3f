#!/usr/bin/env bash
# tests/cluster/slurm.sh MURMUR: a real Slurm runs `murmur plan --slurm`.
#
# Starts a one-node Slurm cluster on localhost (munged, slurmctld and slurmd
# of Debian 12's slurm-wlm 22.05, with a generated slurm.conf, a fresh munge
# key and every file in a temporary folder, on ports of its own), submits
# the scripts `murmur plan --slurm` prints for a stats experiment in 4
# shards and a render in 3 chunks (each run with bash from a fresh, empty
# folder, -o into a folder not made yet: the script makes it, submits the
# job array and the merge that depends on it), waits for them, checks that
# every job COMPLETED and that the merged table and the joined video are
# the one-machine outputs' bytes, and stops everything it started (a trap,
# on any exit).
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
        tail -n 20 "$work"/*.log "$work"/*/*.log "$work"/*/*/*.log 2>/dev/null >&2 || true
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
mkdir -p "$work/state" "$work/spool"
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
NodeName=murmurnode NodeAddr=127.0.0.1 CPUs=2 RealMemory=1024 State=UNKNOWN
PartitionName=debug Nodes=murmurnode Default=YES State=UP MaxTime=INFINITE
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -D -f "$SLURM_CONF" 2>"$work/slurmctld.err.log" &
pids+=($!)
slurmd -D -N murmurnode -f "$SLURM_CONF" 2>"$work/slurmd.err.log" &
pids+=($!)
node_idle() { sinfo -h -o %T | grep -qx idle; }
wait_for 60 node_idle

# The one-machine outputs, in a folder of their own.
mkdir -p "$work/ref/out"
cp "$src/scenes/knockout-stats.yaml" "$work/k.yaml"
sed -e 's/^  width: 1280/  width: 320/' -e 's/^  height: 854/  height: 214/' -e 's/^  duration: 20s/  duration: 6s/' \
    -e 's/^  count: 160/  count: 60/' "$src/scenes/flock.yaml" > "$work/r.yaml"
grep -q '^  duration: 6s' "$work/r.yaml"
(cd "$work/ref" && "$murmur" stats ../k.yaml --runs 6 --ticks 300 -o out/k.csv -q >/dev/null &&
    "$murmur" render ../r.yaml -o out/r.mp4 -q)

# Each plan from a fresh, empty folder, with -o into a subfolder that does
# not exist yet: the script makes it, submits the array and the merge.
plan() {   # plan FOLDER ARGS...: the plan's script FOLDER/job.sh, run with bash
    local dir=$1
    shift
    mkdir "$dir"
    (cd "$dir" && "$murmur" plan "$@" -q > job.sh && bash job.sh > submitted.txt)
    cat "$dir/submitted.txt"
}
plan "$work/stats" ../k.yaml --shards 4 --slurm --runs 6 --ticks 300 -o results/k.csv --mem 100M
plan "$work/render" ../r.yaml --chunks 3 --slurm -o video/r.mp4 --time 10
grep -q -- '--dependency=afterok$jobs' "$work/stats/job.sh"
queue_empty() { [ -z "$(squeue -h)" ]; }
wait_for 240 queue_empty

# every task and both merges COMPLETED (scontrol keeps them for MinJobAge)
ids=$(sed -n 's/^murmur plan: job \(array \)\{0,1\}\([0-9]*\):.*/\2/p' "$work/stats/submitted.txt" "$work/render/submitted.txt")
[ "$(echo "$ids" | wc -w)" -eq 4 ] || { echo "slurm.sh: want two arrays and two merges submitted: $ids" >&2; exit 1; }
states=$(for id in $ids; do scontrol show job "$id"; done | grep -o 'JobState=[A-Z_]*' | sort | uniq -c)
echo "slurm.sh: $states"
if echo "$states" | grep -v 'JobState=COMPLETED' | grep -q JobState; then
    echo "slurm.sh: a job did not complete" >&2
    exit 1
fi
[ "$(echo "$states" | awk '{ n += $1 } END { print n }')" -eq 9 ] || { echo "slurm.sh: want 4 + 3 tasks and 2 merges" >&2; exit 1; }
[ "$(ls "$work"/stats/results/k.shards-*_*.log | wc -l)" -eq 4 ] || { echo "slurm.sh: want a log per task" >&2; exit 1; }
cmp "$work/ref/out/k.csv" "$work/stats/results/k.csv"
cmp "$work/ref/out/r.mp4" "$work/render/video/r.mp4"
echo "slurm.sh: the merge of 4 shards and the join of 3 chunks run by Slurm are the one-machine outputs' bytes"
