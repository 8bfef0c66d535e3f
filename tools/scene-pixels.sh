#!/usr/bin/env bash
# The pixels of every example scene at a few times, one line a still:
# "scene time md5-of-decoded-pixels". Run it with two builds and diff the
# outputs to show that a refactor kept every frame (issue #45's "every
# example scene decodes to the same frame hashes as before"):
#
#   tools/scene-pixels.sh OLD/murmur > old.txt
#   tools/scene-pixels.sh build/murmur > new.txt && diff old.txt new.txt
#
# Each still is drawn at 480x270 (the same code as any size) at TIMES
# (default "1s 3s"), so a scene's simulation is stepped from tick 0 to
# that time and drawn; the pixels are hashed by ffmpeg (framemd5), so the
# PNG's provenance text does not count. A scene that cannot make a still
# (an experiment-only scene) prints its error's first line instead, which
# must be the same in both builds too.
set -u
murmur=${1:?usage: scene-pixels.sh MURMUR [SCENE...]}
shift
cd "$(dirname "$0")/.." || exit 1
scenes=("$@")
[ ${#scenes[@]} -gt 0 ] || scenes=(scenes/*.yaml)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in "${scenes[@]}"; do
  for t in ${TIMES:-1s 3s}; do
    if "$murmur" still "$s" --at "$t" --size 480x270 -q -o "$tmp/x.png" 2> "$tmp/err"; then
      h=$(ffmpeg -v error -i "$tmp/x.png" -f framemd5 - | awk '!/^#/ {print $NF}')
    else
      h="error: $(head -n 1 "$tmp/err")"
    fi
    echo "$s $t $h"
  done
done
