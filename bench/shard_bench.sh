#!/usr/bin/env bash
# bench/shard_bench.sh: what sharding costs and gives (issue 13).
#
#   bash bench/shard_bench.sh [BUILD_DIR]     (default: build)
#
# 1. merge: a sweep of 100 conditions x 100 runs = 10,000 runs (small
#    flocks, few ticks: the runs themselves are not what is measured) is run
#    as SHARDS (default 1000) shard files, two at a time; then, alternating,
#    RUNS times each, the wall time of
#      merge-1:    murmur merge of the same sweep run as one shard (1/1):
#                  the baseline, loading the scene and writing the outputs
#      merge-N:    murmur merge of the SHARDS files
#    and the files are checked against the whole run's (cmp).
# 2. speed-up: scenes/knockout-stats.yaml (125 runs of 160 boids x 900
#    ticks), alternating, RUNS times each:
#      whole-1t:   murmur stats --threads 1 (one core)
#      whole:      murmur stats (all cores, threads inside one process)
#      2-shards:   two shards of --threads 1 at once, then the merge
#    reported as medians of wall time (and of CPU time, user + system of
#    every process: what sharding adds to the work) and as speed-ups over
#    whole-1t. On a loaded machine only the CPU column means much.
# ONLY=merge or ONLY=speedup runs one part.
# A benchmark, not a test: numbers vary with the machine and its load
# (other work on the cores shows in the medians); the ratios, measured in
# one run, vary less.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
murmur="$(pwd)/$build/murmur"
shards=${SHARDS:-1000}
runs=${RUNS:-5}
work=$(mktemp -d /tmp/murmur-shard-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { print $* }"; }
timed() { local a b; a=$(now); "$@" > /dev/null; b=$(now); calc "$b - $a"; }

cat > "$work/sweep.yaml" <<'SCENE'
title: merge benchmark
seed: 3
model: wrkspc
world: {width: 60, height: 40, boundary: wrap}
flock: {count: 12}
video: {duration: 1s, warmup: 0}
experiment:
  runs: 100
  ticks: 5
  sweep:
    noise: {linspace: [0, 0.3, 100]}
  metrics: [order, nearest, clusters]
SCENE
only=${ONLY:-}
cd "$work"
if [ "$only" != speedup ]; then
mkdir -p one many
echo "shard_bench: running the sweep as $shards shards and as one ..." >&2
seq 1 "$shards" | xargs -P 2 -I K "$murmur" stats sweep.yaml --shard "K/$shards" -o many/ --threads 1 -q
"$murmur" stats sweep.yaml --shard 1/1 -o one/ --threads 1 -q
"$murmur" stats sweep.yaml -o whole.csv --runs-out whole-runs.csv -q > /dev/null
echo "shard files: $(ls many | wc -l), $(du -sh many | cut -f1) in all"
t1=() tn=()
for _ in $(seq "$runs"); do
    t1+=("$(timed "$murmur" merge one/sweep.shard-1-of-1.mur -o m1.csv --runs-out m1-runs.csv -q)")
    tn+=("$(timed "$murmur" merge many/sweep.shard-*-of-"$shards".mur -o mn.csv --runs-out mn-runs.csv -q)")
done
cmp whole.csv mn.csv && cmp whole-runs.csv mn-runs.csv && cmp whole.csv m1.csv
m1=$(printf '%s\n' "${t1[@]}" | median)
mn=$(printf '%s\n' "${tn[@]}" | median)
printf 'merge of 10,000 runs (median of %d)\n  merge-1     %8.3f s  (one shard file: the baseline)\n  merge-%-5s %8.3f s  (%s shard files; %.3f s over the baseline)\n' \
    "$runs" "$m1" "$shards" "$mn" "$shards" "$(calc "$mn - $m1")"

fi

cd - > /dev/null
[ "$only" = merge ] && exit 0
scene=scenes/knockout-stats.yaml
# wall and CPU (user + system, children included) seconds of a command line
TIMEFORMAT='%R %U %S'
clock() { { time eval "$1" > /dev/null; } 2>&1 | awk '{ printf "%s %s\n", $1, $2 + $3 }'; }
w1=() w=() p=() c1=() c=() cp=()
for _ in $(seq "$runs"); do
    read -r wall cpu < <(clock "\"$murmur\" stats $scene --threads 1 -o $work/w1.csv -q"); w1+=("$wall"); c1+=("$cpu")
    read -r wall cpu < <(clock "\"$murmur\" stats $scene -o $work/w.csv -q"); w+=("$wall"); c+=("$cpu")
    rm -f "$work"/knockout-stats.shard-*
    read -r wall cpu < <(clock "\"$murmur\" stats $scene --shard 1/2 --threads 1 -o $work/ -q & \"$murmur\" stats $scene --shard 2/2 --threads 1 -o $work/ -q; wait; \"$murmur\" merge $work/knockout-stats.shard-*-of-2.mur -o $work/p.csv -q")
    p+=("$wall"); cp+=("$cpu")
done
cmp "$work/w1.csv" "$work/p.csv" && cmp "$work/w.csv" "$work/p.csv"
med() { printf '%s\n' "$@" | median; }
mw1=$(med "${w1[@]}") mw=$(med "${w[@]}") mp=$(med "${p[@]}")
printf '%s (median of %d, %d cores, load average %s)\n' "$scene" "$runs" "$(nproc)" "$(cut -d' ' -f1 /proc/loadavg)"
printf '  whole-1t  %7.3f s wall %7.3f s CPU\n' "$mw1" "$(med "${c1[@]}")"
printf '  whole     %7.3f s wall %7.3f s CPU  (%.2fx)\n' "$mw" "$(med "${c[@]}")" "$(calc "$mw1 / $mw")"
printf '  2-shards  %7.3f s wall %7.3f s CPU  (%.2fx, merge included)\n' "$mp" "$(med "${cp[@]}")" "$(calc "$mw1 / $mp")"
