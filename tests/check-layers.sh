#!/bin/sh
# Checks the layering of DESIGN.md on the built libraries: the core library
# links no GTK, GDK, libadwaita or WebKit, and the render library links no
# libadwaita. The build already keeps their headers out; this catches a
# dependency slipped in through the link line.
set -eu
core="$1"
render="$2"
status=0

needed () {
  LC_ALL=C readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}

for lib in $(needed "$core"); do
  case "$lib" in
    libgtk*|libgdk*|libadwaita*|libwebkit*|libjavascriptcore*)
      echo "FAIL: the core library links $lib"; status=1 ;;
  esac
done
for lib in $(needed "$render"); do
  case "$lib" in
    libadwaita*)
      echo "FAIL: the render library links $lib"; status=1 ;;
  esac
done
# The core must still link what it is built on, or this test checks nothing.
needed "$core" | grep -q '^libsqlite3' || { echo "FAIL: core does not link SQLite"; status=1; }
needed "$render" | grep -q '^libwebkitgtk-6.0' || { echo "FAIL: render does not link WebKitGTK"; status=1; }
[ "$status" -eq 0 ] && echo "ok: core links $(needed "$core" | tr '\n' ' ')"
exit $status
