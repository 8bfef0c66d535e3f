#!/usr/bin/env bash
# bench/trace_bench.sh: what writing a trace costs against stepping alone.
#
#   bash bench/trace_bench.sh [BUILD_DIR]     (default: build)
#
# For each boid count, a scene at the `wrkspc` density (the world grows by
# sqrt(N / 160) per axis, as bench.c does) is traced for TICKS ticks, and in
# the same run, alternating, RUNS times each:
#   sim:     murmur trace SCENE --at LAST -o x.h5  (every tick stepped, one written)
#   h5:      murmur trace SCENE -o x.h5            (float64, observable: order)
#   h5-all:  the same with all six metrics as observables (the default of a
#            scene without a readout; clusters and neighbours cost O(N) each)
#   f32:     --float32
#   csv:     -o x.csv (17 digits a number)
# Reported: the median wall time, boid-ticks written per second, the time
# over sim's (what writing adds), bytes per boid-tick, and the peak memory
# (maximum resident set) of the last run of each. Peak memory is flat in
# the length of a trace: each tick is written and dropped.
#
# Environment: COUNTS (default "10000 1000000"), TICKS (default 100; the
# 1,000,000-boid runs take about a second a tick), RUNS (default 3),
# THREADS (default 2). This is a benchmark, not a test: numbers vary with
# the machine and its load; the ratios, measured in one run, vary less.
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build}
murmur="$(pwd)/$build/murmur"
counts=${COUNTS:-"10000 1000000"}
ticks=${TICKS:-100}
runs=${RUNS:-3}
threads=${THREADS:-2}
dir=$(mktemp -d /tmp/murmur-tracebench-XXXXXX)
trap 'rm -rf "$dir"' EXIT

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# time_one NAME ARGS...: one run, its wall seconds and peak KB appended to NAME's lists
time_one() {
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$dir/time" "$murmur" trace "$dir/scene.yaml" -q --threads "$threads" "$@"
  read -r secs kb < "$dir/time"
  echo "$secs" >> "$dir/$name.secs"
  echo "$kb" > "$dir/$name.kb"
}

printf "%-9s %-7s %9s %14s %8s %12s %10s\n" boids what "median s" "boid-ticks/s" "x sim" "bytes/b-tick" "peak MB"
for n in $counts; do
  side=$(awk -v n="$n" 'BEGIN {printf "%.0f", sqrt(n / 160) * 480}')
  sideh=$(awk -v n="$n" 'BEGIN {printf "%.0f", sqrt(n / 160) * 320}')
  readout="look: {overlays: [{readout: [order]}]}"
  write_scene() {
    cat > "$dir/scene.yaml" <<EOF
model: wrkspc
seed: 1
world: {width: $side, height: $sideh}
flock: {count: $n}
$1
video: {duration: ${ticks}t, ticks_per_second: 60, fps: 60}
EOF
  }
  rm -f "$dir"/*.secs
  for r in $(seq "$runs"); do
    write_scene "$readout"
    time_one sim --at "$((ticks - 1))t" -o "$dir/sim.h5"
    time_one h5 -o "$dir/x.h5";   stat -c %s "$dir/x.h5" > "$dir/h5.bytes"; rm -f "$dir/x.h5"
    time_one f32 --float32 -o "$dir/x.h5"; stat -c %s "$dir/x.h5" > "$dir/f32.bytes"; rm -f "$dir/x.h5"
    time_one csv -o "$dir/x.csv"; stat -c %s "$dir/x.csv" > "$dir/csv.bytes"; rm -f "$dir/x.csv"*
    write_scene ""
    time_one h5-all -o "$dir/x.h5"; stat -c %s "$dir/x.h5" > "$dir/h5-all.bytes"; rm -f "$dir/x.h5"
  done
  sim=$(median < "$dir/sim.secs")
  for what in sim h5 h5-all f32 csv; do
    secs=$(median < "$dir/$what.secs")
    kb=$(cat "$dir/$what.kb")
    bytes=$( [ "$what" = sim ] && echo 0 || cat "$dir/$what.bytes")
    awk -v n="$n" -v t="$ticks" -v s="$secs" -v sim="$sim" -v b="$bytes" -v kb="$kb" -v w="$what" \
      'BEGIN {printf "%-9d %-7s %9.2f %14.3g %8.2f %12s %10.0f\n", n, w, s, n * t / s, s / sim,
              (w == "sim") ? "-" : sprintf("%.1f", b / (n * t)), kb / 1024}'
  done
done
