#!/usr/bin/env bash
# The Python module's tests (python/tests) against the installed library:
# the build is installed into a fresh prefix, and Debian's python3 imports
# murmur from that prefix's dist-packages (the library it was installed
# with, not the build tree's), under pytest when it is installed, else
# python/tests/run.py. Usage: python.sh BUILD_DIR PYTHON3 MURMUR_EXE [CASE...]
set -euo pipefail
build=$(cd "$1" && pwd)
py=$2
export MURMUR_EXE=$3
shift 3
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/murmur-python-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
init=$(find "$work/prefix" -path '*/murmur/__init__.py' | head -n 1)
test -n "$init"
export PYTHONPATH=$(dirname "$(dirname "$init")")
unset MURMUR_LIBRARY
cd "$work"   # nothing of the source tree on the path
"$py" -c 'import murmur, sys; sys.exit(0 if murmur._lib._config.LIBRARY.startswith(sys.argv[1]) else 1)' "$work/prefix"
if "$py" -c 'import pytest' 2>/dev/null; then
  args=()
  for c in "$@"; do args+=(-k "$c"); done
  "$py" -m pytest -q -p no:cacheprovider "$src/python/tests/test_murmur.py" "${args[@]}"
else
  "$py" "$src/python/tests/run.py" "$@"
fi
