#!/usr/bin/env bash
# bench/render_bench.sh: how close a whole render comes to the encoder alone.
#
#   bash bench/render_bench.sh [BUILD_DIR [BASELINE_BUILD_DIR]]   (default: build)
#
# For each boid count, a 1920x1080 60 fps scene with trails and overlays is
# written to a scratch folder under /tmp, and these are timed in the same
# run, alternating, RUNS times each:
#   render:  murmur render SCENE -o x.mp4 -q   (simulate + draw + convert + encode)
#   before:  the same with BASELINE_BUILD_DIR's murmur, when given (a
#            change's before and after, measured in one run)
#   encoder: ffmpeg encoding the render's own frames with libx264 alone,
#            read as raw yuv420p from a file: the frames are rendered once
#            as PNGs and converted to YUV beforehand, untimed, as murmur
#            converts them (BT.709, limited range, bicubic + accurate_rnd +
#            bitexact + full_chroma_inp), so the baseline is the encoder
#            without the colour conversion; same crf, preset, keyframe
#            interval and murmur's fixed encoder thread count, x264's
#            other settings its own.
#   murmur's x264: the same, with x264 set as murmur sets it: without the
#            macroblock tree (src/output/stream.c says why), which the
#            presets from veryfast up turn on. That is the encoder murmur
#            runs, so render / this is what drawing and converting add.
# Reported: the median wall time of each, and render / encoder (issue 17's
# targets: at most 1.15 at 2,000 boids, 1.25 at 10,000 and 1.5 at 100,000)
# and render / murmur's x264;
# and the median CPU time (user + system) of each,
# which another process's load hardly changes: on a machine whose cores the
# encoder alone already fills, the wall-time ratio cannot beat the CPU ratio
# (drawing + encoding over encoding), however well the stages overlap. The flock keeps the `wrkspc` density at every count (the
# world grows by sqrt(N / 160) per axis), as bench.c does, so N changes the
# work, not the neighbourhoods.
#
# The boids' shape is left to murmur, as a scene that names none leaves
# it: arrows while they are two pixels long or more (2,000 and 10,000
# boids: about 7 and 3 pixels), density below (100,000: 0.96 pixels).
# SHAPE=arrow names arrows at every count (1-pixel arrows at 100,000).
#
# SCENE=FILE times that scene instead (its own size, fps, duration and
# quality, as `murmur check` reads them; COUNTS, DURATION, SHAPE and QUALITY
# do not apply): `SCENE=scenes/murmuration3d.yaml bash bench/render_bench.sh`
# is issue 29's target (at most 2x the encoder alone). Its warm-up is part
# of the render's time, as it is of every render of it.
#
# Environment: DURATION (seconds of video, default 20), RUNS (default 3),
# COUNTS (default "2000 10000 100000"), SHAPE (default: none named),
# PRESET (default medium),
# QUALITY (default 18). The raw frames take width*height*4 bytes each
# (8.3 MB at 1080p: 10 GB for 20 s at 60 fps) while they are converted, and
# yuv420p 1.5 bytes a pixel (3.1 MB a frame) for the runs, in the scratch folder, one
# count at a time. This is a benchmark, not a test: numbers vary with the
# machine and its load; the ratio, measured in one run, varies less.
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build}
murmur="$build/murmur"
before=${2:+$2/murmur}
duration=${DURATION:-20}
runs=${RUNS:-3}
counts=${COUNTS:-"2000 10000 100000"}
shape=${SHAPE:-}
preset=${PRESET:-medium}
quality=${QUALITY:-18}
fps=60
width=1920
height=1080
scene_file=${SCENE:-}
if [ -n "$scene_file" ]; then
  # "video: 1920x1080, 30 fps, 200 ticks/s, 20s (600 frames, ...), ..., quality 20"
  video=$("$murmur" check "$scene_file" | sed -n 's/^video: //p')
  read -r width height fps frames quality < <(sed -E \
    's/^([0-9]+)x([0-9]+), ([0-9]+) fps.*\(([0-9]+) frames.* quality ([0-9]+).*/\1 \2 \3 \4 \5/' <<<"$video")
  [ -n "$quality" ] || { echo "cannot read the video line of murmur check $scene_file: $video" >&2; exit 1; }
  counts=$(basename "$scene_file" .yaml)
fi
# The encoder's thread count is murmur's constant (src/output/sink.h).
threads=$(sed -n 's/^#define MUR_OUT_THREADS \([0-9]*\).*/\1/p' src/output/sink.h)

[ -x "$murmur" ] || { echo "no $murmur: build first (cmake --build $build)" >&2; exit 1; }
[ -z "$before" ] || [ -x "$before" ] || { echo "no $before: build the baseline first" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "ffmpeg is not installed (bash .ci/setup)" >&2; exit 1; }
[ -n "$threads" ] || { echo "cannot read MUR_OUT_THREADS from src/output/sink.h" >&2; exit 1; }

work=$(mktemp -d /tmp/murmur-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT

# Runs a command; prints "wall user+sys" in seconds (its children included).
timed() {
  local out
  out=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>"$work/cmd.err"; } 2>&1 ) ||
    { cat "$work/cmd.err" >&2; return 1; }
  awk '{printf "%.2f %.2f\n", $1, $2 + $3}' <<<"${out##*$'\n'}"
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
frames_of() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"; }

scene_for() {   # N -> scene path
  [ -n "$scene_file" ] && { echo "$scene_file"; return; }
  local n=$1 scale
  scale=$(awk -v n="$n" 'BEGIN {printf "%.6f", sqrt(n / 160)}')
  local w h
  w=$(awk -v s="$scale" 'BEGIN {printf "%.1f", 480 * s}')
  h=$(awk -v s="$scale" 'BEGIN {printf "%.1f", 270 * s}')
  cat >"$work/scene-$n.yaml" <<EOF
# render_bench: $n boids at wrkspc density, trails and overlays, 1080p60.
title: render_bench $n boids
seed: 1
model: wrkspc
world: {width: $w, height: $h, boundary: wrap}
flock: {count: $n}
video:
  width: $width
  height: $height
  fps: $fps
  ticks_per_second: 60
  duration: ${duration}s
  quality: $quality
look:
  background: "#0b0d0f"
  boid: {${shape:+shape: $shape, }size: 6, color: heading}
  trails: {length: 30, fade: true}
  overlays:
    - params
    - readout: [order, nearest, clusters]
    - plot: {metric: order, window: 10s, corner: top-right}
    - clock
EOF
  echo "$work/scene-$n.yaml"
}

echo "render_bench: ${width}x${height} ${fps} fps, ${duration} s, crf $quality, preset $preset," \
     "x264 threads $threads, boids ${shape:-of the shape murmur picks}, $runs runs each; $(nproc) cores" >&2
declare -a rows
for n in $counts; do
  scene=$(scene_for "$n")
  what="$n boids"; [ -n "$scene_file" ] && what=$scene_file
  echo "== $what: frames for the encoder-alone baseline (untimed)" >&2
  mkdir -p "$work/png"
  "$murmur" render "$scene" -o "$work/png/%05d.png" -q
  ffmpeg -v error -y -framerate $fps -i "$work/png/%05d.png" -f rawvideo -pix_fmt bgra "$work/raw.bgra"
  rm -rf "$work/png"
  ffmpeg -v error -y -f rawvideo -pix_fmt bgra -s ${width}x${height} -framerate $fps -i "$work/raw.bgra" \
    -vf "scale=out_color_matrix=bt709:out_range=tv:flags=bicubic+accurate_rnd+bitexact+full_chroma_inp,format=yuv420p" \
    -f rawvideo -pix_fmt yuv420p "$work/raw.yuv"
  rm -f "$work/raw.bgra"
  want=$((duration * fps))
  [ -n "$scene_file" ] && want=$frames
  r_times=() e_times=() r_cpus=() e_cpus=() b_times=() b_cpus=() m_times=() m_cpus=()
  for i in $(seq "$runs"); do
    read -r r rc < <(timed "$murmur" render "$scene" -o "$work/render.mp4" -q --preset "$preset")
    read -r e ec < <(timed ffmpeg -v error -y -f rawvideo -pix_fmt yuv420p -s ${width}x${height} \
      -framerate $fps -i "$work/raw.yuv" \
      -c:v libx264 -preset "$preset" -crf "$quality" -threads "$threads" -g $((2 * fps)) \
      -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv \
      -movflags +faststart "$work/encoder.mp4")
    read -r mt mc < <(timed ffmpeg -v error -y -f rawvideo -pix_fmt yuv420p -s ${width}x${height} \
      -framerate $fps -i "$work/raw.yuv" \
      -c:v libx264 -preset "$preset" -crf "$quality" -threads "$threads" -g $((2 * fps)) \
      -x264-params mbtree=0 \
      -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv \
      -movflags +faststart "$work/encoder.mp4")
    [ -n "$r" ] && [ -n "$e" ] && [ -n "$mt" ] || { echo "a timed command failed" >&2; exit 1; }
    r_times+=("$r") e_times+=("$e") r_cpus+=("$rc") e_cpus+=("$ec") m_times+=("$mt") m_cpus+=("$mc")
    line="   run $i: render $r s (cpu $rc s), encoder alone $e s (cpu $ec s), murmur's x264 $mt s (cpu $mc s)"
    if [ -n "$before" ]; then
      read -r b bc < <(timed "$before" render "$scene" -o "$work/before.mp4" -q --preset "$preset")
      [ -n "$b" ] || { echo "a timed command failed" >&2; exit 1; }
      b_times+=("$b") b_cpus+=("$bc")
      line+=", before $b s (cpu $bc s)"
    fi
    echo "$line" >&2
  done
  fr=$(frames_of "$work/render.mp4")
  fe=$(frames_of "$work/encoder.mp4")
  if [ "$fr" != "$want" ] || [ "$fe" != "$want" ]; then
    echo "frame counts differ: render $fr, encoder $fe, want $want" >&2
    exit 1
  fi
  rm -f "$work/raw.yuv"
  rm_=$(median "${r_times[@]}")
  em=$(median "${e_times[@]}")
  rcm=$(median "${r_cpus[@]}")
  ecm=$(median "${e_cpus[@]}")
  ratio=$(awk -v a="$rm_" -v b="$em" 'BEGIN {printf "%.2f", a / b}')
  cpu_ratio=$(awk -v a="$rcm" -v b="$ecm" 'BEGIN {printf "%.2f", a / b}')
  mm=$(median "${m_times[@]}")
  mratio=$(awk -v a="$rm_" -v b="$mm" 'BEGIN {printf "%.2f", a / b}')
  if [ -n "$before" ]; then
    bm=$(median "${b_times[@]}")
    bcm=$(median "${b_cpus[@]}")
    bratio=$(awk -v a="$bm" -v b="$em" 'BEGIN {printf "%.2f", a / b}')
    bcpu=$(awk -v a="$bcm" -v b="$ecm" 'BEGIN {printf "%.2f", a / b}')
    bmratio=$(awk -v a="$bm" -v b="$mm" 'BEGIN {printf "%.2f", a / b}')
    rows+=("| $n | $want | $rm_ | $em | **$ratio** | $rcm | $ecm | $cpu_ratio | $mm | $mratio | $bm | $bratio | $bcpu | $bmratio |")
  else
    rows+=("| $n | $want | $rm_ | $em | **$ratio** | $rcm | $ecm | $cpu_ratio | $mm | $mratio |")
  fi
done

echo
echo "Medians of $runs runs; times in seconds; cpu = user + system; boids ${shape:-of the shape murmur picks}."
echo
if [ -n "$before" ]; then
  echo "| boids | frames | render wall | x264 from YUV wall | ratio | render cpu | x264 from YUV cpu | cpu ratio | murmur's x264 wall | ratio to it | before wall | before ratio | before cpu ratio | before ratio to murmur's x264 |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
else
  echo "| boids | frames | render wall | x264 from YUV wall | ratio | render cpu | x264 from YUV cpu | cpu ratio | murmur's x264 wall | ratio to it |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
fi
printf '%s\n' "${rows[@]}"
