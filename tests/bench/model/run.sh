#!/bin/sh
# Times the modelling of a 200-page sample of the demo site, rendering of
# the classes' sample pages included, on this machine. Target: under 60 s.
set -eu
here=$(cd "$(dirname "$0")/../../.." && pwd)
build=${CG_BENCH_BUILD_DIR:-$here/_build}
cli=${CARTOGRAPH_CLI:-$build/src/cli/cartograph-cli}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

"$cli" serve-demo --port 0 > "$work/serve.log" &
server=$!
while ! grep -q 'http://' "$work/serve.log" 2>/dev/null; do sleep 0.1; done
url=$(sed -n 's/.*\(http:[^ ]*\).*/\1/p' "$work/serve.log" | head -1)

start=$(date +%s.%N)
"$cli" model "$url" --project "$work/project" --pages 200 --no-politeness --quiet
end=$(date +%s.%N)
seconds=$(awk "BEGIN { printf \"%.1f\", $end - $start }")
pages=$("$cli" export --project "$work/project" --what pages | grep -c '"text/html"')
rendered=$(ls "$work/project/thumbnails/model-1" | grep -c '\.png$')
echo "model of the demo site: $pages HTML pages sampled, $rendered class samples rendered, $seconds s (target < 60 s)"
