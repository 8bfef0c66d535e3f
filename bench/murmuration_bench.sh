#!/usr/bin/env bash
# bench/murmuration_bench.sh: a million boids drawn as density, timed.
#
#   bash bench/murmuration_bench.sh [BUILD_DIR] [SCENE]
#       (defaults: build, scenes/murmuration.yaml)
#
# The issue's target: 1,000,000 boids, 1080p30, one tick per frame, density
# drawing, 10 s of video in under 2 minutes of wall time on a 2-core machine
# (the warm-up before the first frame excluded, and reported apart), peak
# memory under 2 GiB. Measured in one run:
#   render:     murmur render SCENE (simulate + draw + encode, overlapped),
#               wall and CPU time, peak resident memory (/usr/bin/time -v);
#   warm-up, simulation, drawing: murmur-densitybench SCENE, which times
#               the session's warm-up, then each frame's ticks and its
#               drawing apart, one after the other (the work of each stage);
#   encoding:   the encoder alone: ffmpeg decoding the render and encoding
#               it again with libx264 at murmur's settings (preset, crf,
#               no macroblock tree, BT.709 bit-exact conversion, keyframes,
#               murmur's encoder thread count), minus the decoding alone.
# The render less the warm-up is the figure against the 2-minute target.
# Environment: RUNS (renders timed, default 1), THREADS (--threads, default
# all cores), KEEP (a path to keep the render at, to look at). A benchmark, not a test: numbers vary with the machine's load
# (the lines starting "load" say what it was).
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build}
scene=${2:-scenes/murmuration.yaml}
runs=${RUNS:-1}
murmur="$build/murmur"
stages="$build/bench/murmur-densitybench"
threads_opt=()
[ -n "${THREADS:-}" ] && threads_opt=(--threads "$THREADS")
enc_threads=$(sed -n 's/^#define MUR_OUT_THREADS \([0-9]*\).*/\1/p' src/output/sink.h)

[ -x "$murmur" ] && [ -x "$stages" ] || { echo "no $murmur or $stages: build first (cmake --build $build)" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "ffmpeg is not installed (bash .ci/setup)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is not installed (apt-get install time)" >&2; exit 1; }

work=$(mktemp -d /tmp/murmur-mbench-XXXXXX)
trap 'rm -rf "$work"' EXIT

secs() { awk '{print $1}'; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
wall_of() {   # seconds of a command's wall time
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/cmd.err" || { cat "$work/cmd.err" >&2; return 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f\n", b - a}'
}

echo "murmuration_bench: $scene, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$murmur" check "$scene" | grep -E '^(video|look|predator [0-9]+):' | sed 's/^/  /' | cut -c1-160

# 1. whole renders
walls=() cpus=() rss=()
for i in $(seq "$runs"); do
  /usr/bin/time -v "$murmur" render "$scene" -o "$work/render.mp4" -q "${threads_opt[@]}" 2>"$work/time.txt" ||
    { cat "$work/time.txt" >&2; exit 1; }
  w=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt" |
      awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
  u=$(sed -n 's/.*User time (seconds): //p' "$work/time.txt")
  s=$(sed -n 's/.*System time (seconds): //p' "$work/time.txt")
  m=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
  walls+=("$w") cpus+=("$(awk -v a="$u" -v b="$s" 'BEGIN {print a + b}')") rss+=("$m")
  echo "  render $i: wall $w s, cpu $(awk -v a="$u" -v b="$s" 'BEGIN {print a + b}') s, peak $((m / 1024)) MiB (load $(cut -d' ' -f1 /proc/loadavg))"
done
[ -n "${KEEP:-}" ] && cp "$work/render.mp4" "$KEEP"
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$work/render.mp4")

# 2. the stages' work
"$stages" "$scene" "${threads_opt[@]}" >"$work/stages.txt"
warm=$(awk '/^warm-up/ {print $2}' "$work/stages.txt")
sim=$(awk '/^simulation/ {print $2}' "$work/stages.txt")
draw=$(awk '/^drawing/ {print $2}' "$work/stages.txt")

# 3. the encoder alone, at murmur's settings
fps=$(ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate -of csv=p=0 "$work/render.mp4")
quality=$("$murmur" check "$scene" | sed -n 's/.*quality \([0-9]*\).*/\1/p' | head -1)
quality=${quality:-18}
dec=$(wall_of ffmpeg -v error -i "$work/render.mp4" -f null -)
decenc=$(wall_of ffmpeg -v error -y -i "$work/render.mp4" \
  -vf "scale=out_color_matrix=bt709:out_range=tv:flags=bicubic+accurate_rnd+bitexact+full_chroma_inp,format=yuv420p" \
  -c:v libx264 -preset medium -crf "$quality" -threads "$enc_threads" -g 60 -x264-params mbtree=0 \
  -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv \
  -movflags +faststart "$work/encoder.mp4")
enc=$(awk -v a="$decenc" -v b="$dec" 'BEGIN {printf "%.2f", a - b}')

wall=$(median "${walls[@]}")
cpu=$(median "${cpus[@]}")
peak=$(median "${rss[@]}")
net=$(awk -v a="$wall" -v b="$warm" 'BEGIN {printf "%.1f", a - b}')
echo
echo "| figure | value |"
echo "|---|---:|"
echo "| frames | $frames at $fps fps |"
echo "| render wall (median of $runs) | $wall s |"
echo "| render cpu (user + sys) | $cpu s |"
echo "| warm-up (apart) | $warm s |"
echo "| **render less warm-up** (target < 120 s) | **$net s** |"
echo "| peak memory (target < 2048 MiB) | $((peak / 1024)) MiB |"
echo "| simulation work | $sim s ($(awk -v a="$sim" -v n="$frames" 'BEGIN {printf "%.0f", 1e3 * a / n}') ms/frame) |"
echo "| drawing work | $draw s ($(awk -v a="$draw" -v n="$frames" 'BEGIN {printf "%.0f", 1e3 * a / n}') ms/frame) |"
echo "| encoding alone (x264 medium, crf $quality, $enc_threads threads) | $enc s |"
echo "| load average after | $(cut -d' ' -f1-3 /proc/loadavg) |"
