#!/usr/bin/env bash
# A contact sheet of a rendered film: frames at the given times, each scaled
# to WIDTH pixels wide (default 640) and labelled with its time, laid out
# COLS to a row (default 3), written as one PNG.
#
#   tools/contact-sheet.sh VIDEO OUT.png TIME...      (times in seconds)
#   tools/contact-sheet.sh out/murmuration3d.mp4 docs/gallery/murmuration3d.png 1 4.5 8 12.5 13.5 19
#
# Each frame is the one shown at that time (ffmpeg seeks to it exactly and
# decodes it), so the sheet is the film as a viewer sees it, not a still
# drawn apart. Needs ffmpeg (bash .ci/setup installs it).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: contact-sheet.sh VIDEO OUT.png TIME..." >&2; exit 2; }
video=$1 out=$2
shift 2
[ -s "$video" ] || { echo "contact-sheet.sh: $video: no such video" >&2; exit 2; }
width=${WIDTH:-640}
cols=${COLS:-3}
font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for t in "$@"; do
  [[ $t =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "contact-sheet.sh: '$t' is not a time in seconds" >&2; exit 2; }
  ffmpeg -v error -ss "$t" -i "$video" -frames:v 1 \
    -vf "scale=$width:-2,drawtext=fontfile=$font:text='${t} s':x=10:y=h-th-10:fontsize=18:fontcolor=white@0.85" \
    -y "$tmp/$(printf '%03d' "$n").png"
  [ -s "$tmp/$(printf '%03d' "$n").png" ] || { echo "contact-sheet.sh: no frame at $t s in $video" >&2; exit 1; }
  n=$((n + 1))
done
rows=$(( (n + cols - 1) / cols ))
ffmpeg -v error -framerate 1 -i "$tmp/%03d.png" -vf "tile=${cols}x${rows}:padding=4:color=black" \
  -frames:v 1 -y "$out"
echo "contact-sheet.sh: wrote $out ($n frames, ${cols}x$rows)"
