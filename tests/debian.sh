#!/usr/bin/env bash
# debian/ in step with the tree: its changelog's version is version.h's
# (a release that bumps one and not the other would package the wrong
# version), and each package's .install names files the install makes.
# Usage: debian.sh SRC BUILD_DIR
set -euo pipefail
src=$1
build=$2
want=$(sed -n 's/^#define MUR_VERSION_STRING "\(.*\)"/\1/p' "$src/include/murmur/version.h")
got=$(sed -n '1s/^murmur (\([^)]*\)).*/\1/p' "$src/debian/changelog")
if [ "$got" != "$want" ]; then
  echo "debian/changelog is $got, include/murmur/version.h $want"; exit 1
fi
soname=$(sed -n 's/^#define MUR_VERSION_MAJOR \(.*\)/\1/p' "$src/include/murmur/version.h").$(sed -n 's/^#define MUR_VERSION_MINOR \(.*\)/\1/p' "$src/include/murmur/version.h")
grep -q "^Package: libmurmur$soname\$" "$src/debian/control" ||
  { echo "debian/control has no libmurmur$soname (the soname is libmurmur.so.$soname)"; exit 1; }
test -f "$src/debian/libmurmur$soname.install"
work=$(mktemp -d /tmp/murmur-debian-XXXXXX)
trap 'rm -rf "$work"' EXIT
DESTDIR=$work cmake --install "$build" --prefix /usr >/dev/null
for f in "$src"/debian/*.install; do
  while read -r pattern; do
    [ -z "$pattern" ] && continue
    # A build for another prefix than /usr has no multiarch folder: lib/.
    flat=${pattern/usr\/lib\/\*\//usr/lib/}
    # shellcheck disable=SC2086  # the patterns are globs
    matches=$(cd "$work" && { ls -d $pattern $flat 2>/dev/null || true; } | wc -l)
    if [ "$matches" -eq 0 ]; then
      echo "$(basename "$f"): $pattern matches nothing the install makes"; exit 1
    fi
  done < "$f"
done
echo "debian/: version $want, libmurmur$soname, every .install line installed"
