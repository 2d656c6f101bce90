#!/bin/sh
# Writes a sample set of WARC files (every record type, both digest
# algorithms, several rollovers) with Cartograph's writer and reads every
# file back with warcio, an independent reader (tests/tools/warcio-validate.mjs).
#
# Usage: warcio-check.sh SAMPLE-WRITER VALIDATOR.mjs
#
# warcio comes from npm: `npm ci --prefix tests` installs the version pinned
# in tests/package-lock.json. Without node or warcio the test is skipped
# (exit 77), except under CI (CI=true), where it fails.
set -eu

writer=$1
validator=$2
tests_dir=$(cd "$(dirname "$validator")/.." && pwd)

missing=""
if ! command -v node >/dev/null 2>&1; then
  missing="node is not installed"
elif ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)'; then
  missing="node $(node --version) is too old for warcio (18 or later is needed)"
elif [ ! -f "$tests_dir/node_modules/warcio/package.json" ]; then
  missing="warcio is not installed (run: npm ci --prefix tests)"
fi
if [ -n "$missing" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "warcio-check: FAIL: $missing" >&2
    exit 1
  fi
  echo "warcio-check: SKIP: $missing"
  exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cg-warcio-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

"$writer" --write-sample "$work"
set -- "$work"/*.warc.gz
if [ ! -f "$1" ]; then
  echo "warcio-check: FAIL: the sample writer wrote no WARC file" >&2
  exit 1
fi
echo "warcio-check: $# WARC files written, reading them back with warcio $(node -p "require('$tests_dir/node_modules/warcio/package.json').version")"
node "$validator" "$@"
