#!/bin/sh
# Sets up, builds and runs Cartograph's whole test suite, then the core
# tests again under AddressSanitizer and UBSan. Used by .ci/run and the
# README. Exits non-zero on any failure.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

sh tools/install-deps.sh

build=_build-tests
asan=_build-asan
[ -d "$build" ] || meson setup "$build" --werror
meson compile -C "$build"

status=0
# Render and app tests need a display and a session bus.
dbus-run-session -- xvfb-run -a -s "-screen 0 1280x1024x24" \
  meson test -C "$build" --print-errorlogs --num-processes 2 || status=1

[ -d "$asan" ] || meson setup "$asan" --werror -Db_sanitize=address,undefined -Db_lundef=false
meson compile -C "$asan"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  meson test -C "$asan" --suite core --print-errorlogs --num-processes 2 || status=1

python3 tools/test-summary.py "$build/meson-logs/testlog.json" "$asan/meson-logs/testlog.json" || status=1
exit $status
