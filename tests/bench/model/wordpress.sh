#!/bin/bash
# wordpress.sh: the site-model evaluation on a real WordPress (issue 5).
#
# Starts (installing and filling it if needed) the WordPress site of
# tests/bench/wordpress/setup.sh, models a 200-page sample of it with
# cartograph-cli model, rendering included, and scores the classes of the
# sampled pages against WordPress's own: the class each page declares in its
# <body class="...">, read by tests/bench/wordpress/truth.py. The scores
# are seed 000's F*, entropy and purity, computed here, independently of
# the core, as tests/cli/test-cli-model.py does; a page the model leaves
# unclassified counts as a cluster of its own, as in cg-model-metrics.c.
# It prints them with the modelling time, the confusion of classes, and
# the pages outside their golden class's main cluster.
#
# Targets (issue 5): F* >= 0.95 and purity >= 0.95; modelling under 60 s.
# For reference, seed 000 reports a mean F* of 0.836 and purity of 0.866
# over 25 real sites.
#
# Run as root (setup.sh installs packages and starts daemons). Settings,
# from the environment:
#   CG_BENCH_BUILD_DIR   build folder holding src/cli/cartograph-cli (default _build)
#   CARTOGRAPH_CLI       the cartograph-cli to use instead
#   CG_BENCH_PAGES       pages to sample (default 200)
#   CG_BENCH_KEEP        1: keep the project folder and print where it is
#   CG_BENCH_RENDER      0: model with --no-render (the time is then not the target's)
#   CG_WP_PORT, CG_WP_DIR, CG_WP_THEME, CG_WP_SEED, CG_WP_POSTS: the site's
#                        (see tests/bench/wordpress/README.md)
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
wordpress="$root/tests/bench/wordpress"
build="${CG_BENCH_BUILD_DIR:-$root/_build}"
cli="${CARTOGRAPH_CLI:-$build/src/cli/cartograph-cli}"
pages="${CG_BENCH_PAGES:-200}"
render=()
[[ "${CG_BENCH_RENDER:-1}" == 0 ]] && render=(--no-render)
python=/usr/bin/python3

die () { echo "wordpress.sh: $*" >&2; exit 1; }

[[ -x "$cli" ]] || die "no cartograph-cli at $cli: build it (ninja -C $build) or set CARTOGRAPH_CLI"
[[ "$pages" =~ ^[0-9]+$ ]] && (( pages > 0 )) || die "CG_BENCH_PAGES must be a positive number, not '$pages'"

url=$("$wordpress/setup.sh") || die "the WordPress site could not be set up"

work=$(mktemp -d /tmp/cartograph-wordpress-model.XXXXXX)
if [[ "${CG_BENCH_KEEP:-0}" == 1 ]]; then
  trap 'echo "The project and the data are kept in $work"' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s.%N)
"$cli" model "$url" --project "$work/project" --pages "$pages" --no-politeness --quiet ${render[@]+"${render[@]}"} \
  > "$work/model.log" 2>&1 ||
  die "cartograph-cli model failed (see $work/model.log)"
end=$(date +%s.%N)
seconds=$(awk "BEGIN { printf \"%.1f\", $end - $start }")

"$cli" export --project "$work/project" --what pages --format jsonl > "$work/pages.jsonl" ||
  die "cartograph-cli export failed"
"$python" -c '
import json, sys
for line in open(sys.argv[1]):
    page = json.loads(line)
    if page["mime"] == "text/html" and page["status"] == 200:
        print(page["url"])' "$work/pages.jsonl" > "$work/urls.txt"
"$wordpress/truth.py" classify - < "$work/urls.txt" > "$work/truth.jsonl" ||
  die "truth.py could not classify the sampled pages"
rendered=$(find "$work/project/thumbnails" -name '*.png' 2>/dev/null | wc -l)

"$python" - "$work/pages.jsonl" "$work/truth.jsonl" "$seconds" "$rendered" "$load_before" "$url" <<'EOF'
import collections
import json
import math
import sys

pages_path, truth_path, seconds, rendered, load_before, url = sys.argv[1:]
F_TARGET, PURITY_TARGET, SECONDS_TARGET = 0.95, 0.95, 60.0

truth = {}
for line in open(truth_path):
    t = json.loads(line)
    if t["status"] == 200 and t["class"]:
        truth[t["url"]] = t["class"]

pairs = []
unknown = []
for line in open(pages_path):
    p = json.loads(line)
    if p["mime"] != "text/html" or p["status"] != 200:
        continue
    if p["url"] not in truth:
        unknown.append(p["url"])
        continue
    computed = p["class"]
    # An unclassified page is a cluster of its own, never a class.
    if computed == "unclassified":
        computed = "unclassified " + p["url"]
    pairs.append((truth[p["url"]], computed, p["url"]))


def scores(pairs):
    """Seed 000 eq. 5.6-5.10 with its summary's corrections (entropy in
    bits without the extra minus sign, purity with e_ij the right way)."""
    n = len(pairs)
    cells = collections.Counter((g, c) for g, c, _ in pairs)
    golden = collections.Counter(g for g, _, _ in pairs)
    computed = collections.Counter(c for _, c, _ in pairs)
    f_star = 0.0
    best = {}
    for g, size in golden.items():
        top = max(((2 * (e / computed[c]) * (e / size) / (e / computed[c] + e / size), c)
                   for (gg, c), e in cells.items() if gg == g), key=lambda fc: (fc[0], [-ord(x) for x in fc[1]]))
        best[g] = top[1]
        f_star += top[0] * size / n
    entropy = 0.0
    for (g, c), e in cells.items():
        p = e / computed[c]
        entropy += -p * math.log2(p) * computed[c] / n
    purity = sum(max(e for (g, cc), e in cells.items() if cc == c) for c in computed) / n
    return f_star, entropy, purity, best, cells, golden, computed


if not pairs:
    sys.exit("wordpress.sh: no sampled page has a golden class")
f_star, entropy, purity, best, cells, golden, computed = scores(pairs)
named = sorted(c for c in computed if not c.startswith("unclassified "))
unclassified = sum(1 for c in computed if c.startswith("unclassified "))

print("Site model of WordPress (%s): %d HTML pages sampled, %d with a golden class" % (url, len(pairs) + len(unknown), len(pairs)))
print("load average before: %s; %s class samples rendered" % (load_before, rendered))
print()
print("golden classes (WordPress body classes): " + ", ".join("%s %d" % kv for kv in sorted(golden.items())))
print("computed classes: %d, and %d unclassified pages" % (len(named), unclassified))
print()
width = max(len(g) for g in golden) + 2
header = "%-*s" % (width, "golden \\ computed") + "".join("%10s" % c[:9] for c in named) + "%10s" % "unclass."
print(header)
print("-" * len(header))
for g in sorted(golden):
    row = "%-*s" % (width, g)
    for c in named:
        row += "%10s" % (cells.get((g, c), "") or "")
    row += "%10s" % (sum(e for (gg, c), e in cells.items() if gg == g and c.startswith("unclassified ")) or "")
    print(row)
print()
print("Pages outside their golden class's best cluster (at most 5 per cell):")
shown = collections.Counter()
for g, c, u in sorted(pairs):
    if c != best[g] and shown[(g, c)] < 5:
        shown[(g, c)] += 1
        print("  %-10s in %-12s %s" % (g, c.split()[0], u))
print()
print("F*       %.3f  (target >= %.2f: %s; seed 000's mean over 25 sites: 0.836)"
      % (f_star, F_TARGET, "MET" if f_star >= F_TARGET else "NOT MET"))
print("purity   %.3f  (target >= %.2f: %s; seed 000's mean over 25 sites: 0.866)"
      % (purity, PURITY_TARGET, "MET" if purity >= PURITY_TARGET else "NOT MET"))
print("entropy  %.3f bits (lower is better)" % entropy)
if int(rendered) > 0:
    print("model time %s s, rendering included (target < %.0f s: %s)"
          % (seconds, SECONDS_TARGET, "MET" if float(seconds) < SECONDS_TARGET else "NOT MET"))
else:
    print("model time %s s, without rendering (CG_BENCH_RENDER=0: not the target's measure)" % seconds)
EOF
