#!/bin/sh
# Takes PNG screenshots of the workbench's main views into DIR (default
# data/screenshots), on a virtual display when there is no display. The
# demo site is really explored, rendered, extracted and harvested on the
# way, so it takes a minute or two. BUILD_DIR names the build folder.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$here/_build}
out=${1:-$here/data/screenshots}
mkdir -p "$out"
export GSETTINGS_SCHEMA_DIR="$build/data"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  exec dbus-run-session -- xvfb-run -a -s "-screen 0 1280x1024x24" "$build/tests/take-screenshots" "$out"
fi
exec "$build/tests/take-screenshots" "$out"
