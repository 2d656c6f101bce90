#!/bin/sh
# Installs everything Cartograph needs on Debian 12, as root: the Debian
# packages in tools/debian-packages.txt and, for the tests, the npm
# packages pinned in tests/package-lock.json. Safe to run again.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)

packages=$(grep -v '^#' "$here/tools/debian-packages.txt" | grep -v '^$' | tr '\n' ' ')
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  # shellcheck disable=SC2086
  apt-get install -y -q --no-install-recommends $missing
fi

# Node.js runs the independent WARC reader of the tests. Some machines
# bring their own Node, which Debian's nodejs package conflicts with, so
# Debian's is installed only where there is none.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends nodejs npm
fi

if [ -f "$here/tests/package-lock.json" ]; then
  npm ci --prefix "$here/tests" --no-audit --no-fund --loglevel=error
fi
