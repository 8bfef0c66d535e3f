#!/usr/bin/env bash
# Checks of the built library as a file.
#   library.sh exports LIB: every dynamic symbol LIB defines is a mur_ name
#     (a host program's own names, such as the LeakSanitizer hooks, must
#     not be taken from it).
#   library.sh globals ARCHIVE: every global name ARCHIVE (the static
#     library) defines is a mur_ name too: a program linking it statically
#     must not find its own trace_open or grid_build taken (internal names
#     are mur_<module>_<verb>_, with the trailing underscore).
#   library.sh paths SRC FILE...: no FILE (debug info included) holds the
#     source tree's path SRC: builds are independent of where they are made.
set -euo pipefail
case "$1" in
exports)
  names=$(nm -D --defined-only "$2" | awk '{print $3}')
  test -n "$names"
  others=$(printf '%s\n' "$names" | grep -v '^mur_' || true)
  if [ -n "$others" ]; then
    echo "libmurmur exports names other than mur_*:"; printf '%s\n' "$others"; exit 1
  fi
  echo "$(printf '%s\n' "$names" | wc -l) exported names, all mur_*"
  ;;
globals)
  names=$(nm -g --defined-only "$2" | awk 'NF == 3 {print $3}' | sort -u)
  test -n "$names"
  others=$(printf '%s\n' "$names" | grep -v '^mur_' || true)
  if [ -n "$others" ]; then
    echo "$2 defines global names other than mur_*:"; printf '%s\n' "$others"; exit 1
  fi
  echo "$(printf '%s\n' "$names" | wc -l) global names, all mur_*"
  ;;
paths)
  src=$2; shift 2
  for f in "$@"; do
    if grep -q -F -a "$src/" "$f"; then
      echo "$f names the source tree $src:"; grep -a -o -F "$src/" "$f" | head -n 3; exit 1
    fi
  done
  echo "no file names $src"
  ;;
*) echo "usage: library.sh exports LIB | globals ARCHIVE | paths SRC FILE..." >&2; exit 2 ;;
esac
