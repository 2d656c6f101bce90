#!/bin/sh
# Sets up Cartograph on Debian 12 (as root), installs it under /usr/local
# and opens the workbench on the bundled demo site.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

sh tools/install-deps.sh

build=_build-demo-app
[ -d "$build" ] || meson setup "$build" --prefix=/usr/local
meson compile -C "$build"
meson install -C "$build" --quiet

if [ -n "${WAYLAND_DISPLAY:-}" ] || [ -n "${DISPLAY:-}" ]; then
  exec /usr/local/bin/cartograph --demo
fi
echo "No graphical session here (neither WAYLAND_DISPLAY nor DISPLAY is set):"
echo "starting the workbench on a virtual display (Xvfb). Run this script from a"
echo "desktop session to see the window."
exec dbus-run-session -- xvfb-run -a -s "-screen 0 1280x900x24" /usr/local/bin/cartograph --demo
