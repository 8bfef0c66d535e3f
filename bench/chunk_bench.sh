#!/usr/bin/env bash
# bench/chunk_bench.sh: what chunked renders cost (issue 13.3).
#
#   bash bench/chunk_bench.sh [BUILD_DIR] [BASE_MURMUR]
#
# A 1920x1080 30 fps render of scenes/flock.yaml (DURATION seconds, default
# 20) is timed in the same run, alternating, RUNS times each (default 3):
#   whole:   murmur render SCENE -o whole.mp4 -q
#   chunks:  murmur render SCENE --chunk K/4 -o cK.mp4 -q for K = 1..4, one
#            after the other (the sum of the chunks' times: the work a
#            cluster does), then murmur join (timed on its own)
#   base:    BASE_MURMUR render SCENE -o base.mp4 -q, when given: a murmur
#            built before segmented encoding (one encoder for the whole
#            video), for the cost of encoding in 2 s segments
# Reported: the median wall time and the median CPU time (user + system)
# of each, and the ratios chunks / whole (the chunked render's overhead:
# each chunk steps the flock from tick 0 to its first frame, so the
# simulation is repeated, drawing and encoding are not) and whole / base.
# CPU time is what another process's load hardly changes; on a shared
# machine read it beside the wall time. Each run's join is checked: its
# framemd5 equals the whole render's.
#
# Environment: DURATION (default 20), RUNS (default 3), CHUNKS (default 4),
# SCENE (default scenes/flock.yaml), SIZE (default 1080p).
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build}
murmur="$build/murmur"
base=${2:-}
duration=${DURATION:-20}
runs=${RUNS:-3}
chunks=${CHUNKS:-4}
scene=${SCENE:-scenes/flock.yaml}
size=${SIZE:-1080p}
tmp=$(mktemp -d /tmp/murmur-chunk-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# timed LABEL CMD...: runs CMD, appends "wall cpu" to $tmp/LABEL.
timed() {
    local label=$1
    shift
    /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$@" >/dev/null
    awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$tmp/t" >>"$tmp/$label"
}

# median of column C of file F
median() {
    sort -n -k"$2" "$1" | awk -v c="$2" '{v[NR] = $c} END {m = int((NR + 1) / 2); printf "%.2f", v[m]}'
}

common=(-q --size "$size" --to "${duration}s")
for ((r = 1; r <= runs; r++)); do
    timed whole "$murmur" render "$scene" "${common[@]}" -o "$tmp/whole.mp4"
    rm -f "$tmp"/c*.mp4
    : >"$tmp/one"
    for ((k = 1; k <= chunks; k++)); do
        /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$murmur" render "$scene" "${common[@]}" \
            --chunk "$k/$chunks" -o "$tmp/c$k.mp4"
        cat "$tmp/t" >>"$tmp/one"
    done
    awk '{w += $1; c += $2 + $3} END {printf "%.3f %.3f\n", w, c}' "$tmp/one" >>"$tmp/chunks"
    timed join "$murmur" join -q "$tmp"/c*.mp4 -o "$tmp/joined.mp4"
    if ! cmp -s <(ffmpeg -nostdin -v error -i "$tmp/whole.mp4" -f framemd5 -) \
        <(ffmpeg -nostdin -v error -i "$tmp/joined.mp4" -f framemd5 -); then
        echo "run $r: the joined video's frames differ from the whole render's" >&2
        exit 1
    fi
    if [[ -n $base ]]; then
        timed base "$base" render "$scene" "${common[@]}" -o "$tmp/base.mp4"
    fi
done

printf '%s at %s, %s s, %d runs (medians; wall s, cpu s)\n' "$scene" "$size" "$duration" "$runs"
for label in whole chunks join base; do
    [[ -f $tmp/$label ]] || continue
    printf '  %-7s wall %7s  cpu %7s\n' "$label" "$(median "$tmp/$label" 1)" "$(median "$tmp/$label" 2)"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
printf '  chunks/whole: wall %s, cpu %s (%d chunks, run one after another)\n' \
    "$(ratio "$(median "$tmp/chunks" 1)" "$(median "$tmp/whole" 1)")" \
    "$(ratio "$(median "$tmp/chunks" 2)" "$(median "$tmp/whole" 2)")" "$chunks"
if [[ -n $base ]]; then
    printf '  whole/base (segmented over continuous encoding): wall %s, cpu %s\n' \
        "$(ratio "$(median "$tmp/whole" 1)" "$(median "$tmp/base" 1)")" \
        "$(ratio "$(median "$tmp/whole" 2)" "$(median "$tmp/base" 2)")"
    printf '  size: whole %s bytes, base %s bytes\n' "$(stat -c %s "$tmp/whole.mp4")" \
        "$(stat -c %s "$tmp/base.mp4")"
fi
