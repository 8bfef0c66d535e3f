#!/usr/bin/env bash
# The consumer test: install the build into a fresh prefix, then build a
# small program against it with CMake's find_package (shared and static
# targets) and with pkg-config, and run each: they must print the same. Usage: consumer.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/murmur-consumer-XXXXXX)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name 'libmurmur.so' | head -n 1)")

echo "== find_package(murmur 0.2)"
cmake -S "$here" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake" >/dev/null
LD_LIBRARY_PATH=$libdir "$work/cmake/app" | tee "$work/a.txt"

echo "== pkg-config --cflags --libs murmur"
export PKG_CONFIG_PATH=$libdir/pkgconfig
cc -std=c11 -Wall -Wextra -Werror "$here/app.c" -o "$work/app-pc" $(pkg-config --cflags --libs murmur)
LD_LIBRARY_PATH=$libdir "$work/app-pc" | tee "$work/b.txt"

echo "== murmur::murmur_static"
"$work/cmake/app_static" | tee "$work/c.txt"

cmp "$work/a.txt" "$work/b.txt"
cmp "$work/a.txt" "$work/c.txt"
grep -q "^murmur $(sed -n 's/^#define MUR_VERSION_STRING "\(.*\)"/\1/p' "$prefix/include/murmur/version.h"): 60 boids" "$work/a.txt"
echo "consumer: ok"
