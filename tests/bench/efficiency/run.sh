#!/bin/bash
# run.sh: Cartograph's structure-driven harvest against a full wget mirror
# of a real WordPress, in one run (issue 7, seed 004's evaluation).
#
#   run.sh [--build DIR] [--strategy patterns|classes] [--keep]
#
# 1. Starts the benchmark WordPress on loopback (tests/bench/wordpress/setup.sh,
#    port CG_WP_PORT, default 8657, so that it does not share its access log
#    with other benchmarks).
# 2. Mirrors it with wget, HTML only (no stylesheets, scripts, images or
#    feeds, as seed 004's evaluation counts pages), writing WARC.
# 3. Learns a Cartograph model of it (200 pages, the default) and harvests
#    it with the strategy (patterns by default, ACEBot's online phase; also
#    classes, seed 000's intensive crawl), HTML only. The harvest reads the
#    learning crawl's pages back from the project instead of fetching them
#    again, so each of those pages is requested once, by the learning crawl.
# 4. compare.py counts each crawler's page requests in Apache's access log
#    (by User-Agent; the learning sample counts for Cartograph), and prints
#    the ratio, the 2-gram and external-link coverage of Cartograph's crawl
#    relative to wget's, and the floor.
# 5. A harvest by example from one single-post page, scored against the
#    site's ground truth (tests/bench/wordpress/truth.py): precision and
#    recall of the pages found like it.
#
# Politeness delays are off for both crawlers: the server is ours, on
# loopback, and the figures are counts, not times. Needs root (setup.sh),
# wget and python3 from Debian.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
build="$root/_build"
strategy=patterns
keep=0
python=/usr/bin/python3
export CG_WP_PORT="${CG_WP_PORT:-8657}"
state="${CG_WP_DIR:-/var/lib/cartograph-wordpress}"

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --strategy) strategy="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,28p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$strategy" in
  patterns|classes) ;;
  *) echo "run.sh: --strategy is patterns or classes, not '$strategy'" >&2; exit 2 ;;
esac
cli="$build/src/cli/cartograph-cli"
[[ -x "$cli" ]] || { echo "run.sh: no $cli: build first (or give --build DIR)" >&2; exit 1; }
command -v wget >/dev/null || { echo "run.sh: wget is missing (apt-get install wget)" >&2; exit 1; }

url=$("$root/tests/bench/wordpress/setup.sh")
log="$state/site-$CG_WP_PORT/access.log"
work=$(mktemp -d /tmp/cg-efficiency-XXXXXX)
if [[ $keep -eq 0 ]]; then
  trap 'rm -rf "$work"' EXIT
else
  echo "run.sh: keeping $work" >&2
fi
run_id="$(date +%s)-$$"
wget_ua="cartograph-bench-wget-$run_id"
contact="http://bench.invalid/efficiency-$run_id"
like_contact="http://bench.invalid/efficiency-like-$run_id"

echo "== wget mirror of $url (HTML only)" >&2
mkdir -p "$work/wget"
start=$(date +%s)
# wget's exit status is 8 when a page answered with an error (a 404 link
# in a post): the mirror is still whole.
wget --recursive --level=inf --no-verbose --no-host-directories --delete-after \
     --directory-prefix="$work/wget" --user-agent="$wget_ua" \
     --reject-regex='\.(css|js|png|jpe?g|gif|svg|ico|webp|woff2?|ttf|eot|otf|map)(\?.*)?$|/feed/|/wp-json/|xmlrpc\.php|/wp-content/|/wp-includes/' \
     --warc-file="$work/wget/mirror" --no-warc-keep-log \
     "$url" 2> "$work/wget.log" || [[ $? -eq 8 ]]
echo "   $(( $(date +%s) - start )) s" >&2

echo "== Cartograph: model and $strategy harvest of $url (HTML only)" >&2
start=$(date +%s)
"$cli" model "$url" --project "$work/cartograph" --no-render --no-politeness --contact "$contact" --quiet
"$cli" harvest --project "$work/cartograph" --strategy "$strategy" --no-politeness --no-requisites \
       --contact "$contact" --quiet
echo "   $(( $(date +%s) - start )) s" >&2

echo "== Figures" >&2
"$python" "$here/compare.py" --access-log "$log" --site "$url" \
  --wget-ua "$wget_ua" --cartograph-ua "$contact" \
  --wget-warc "$work"/wget/*.warc.gz --cartograph-warc "$work"/cartograph/warc/*.warc.gz \
  --json "$work/figures.json"

echo "== Harvest by example: pages like one single post" >&2
"$python" "$root/tests/bench/wordpress/truth.py" classes > "$work/truth.jsonl"
sample=$("$python" - "$work/truth.jsonl" <<'EOF'
import json, sys
posts = sorted(p["url"] for p in map(json.loads, open(sys.argv[1])) if p["class"] == "single")
print(posts[len(posts) // 2])
EOF
)
"$cli" harvest --project "$work/cartograph" --strategy like --like "$sample" --no-politeness --no-requisites \
       --no-conditional --contact "$like_contact" --quiet
"$python" - "$work/truth.jsonl" "$work/cartograph/warc" "$sample" <<'EOF'
import glob, gzip, json, sys
truth = {p["url"]: p["class"] for p in map(json.loads, open(sys.argv[1]))}
sample = sys.argv[3]
found = set()
for path in glob.glob(sys.argv[2] + "/*.warc.gz"):
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
        uri = None
        for line in f:
            if line.startswith("WARC-Target-URI:"):
                uri = line.split(":", 1)[1].strip().strip("<>")
            elif line.startswith("page-like: ") and line.split(": ", 1)[1].strip() == sample:
                found.add(uri)
posts = {u for u, c in truth.items() if c == "single"}
right = found & posts
wrong = sorted(found - posts)
print("by example: %d pages found like %s; precision %.2f %%, recall %.2f %% of %d single posts "
      "(targets: precision 100 %%, recall >= 99 %%)"
      % (len(found), sample, 100 * len(right) / max(len(found), 1), 100 * len(right) / max(len(posts), 1), len(posts)))
for u in wrong[:10]:
    print("   not a single post: %s (%s)" % (u, truth.get(u, "not in the truth")))
EOF
