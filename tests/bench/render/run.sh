#!/bin/bash
# run.sh: the render benchmark (issue 4).
#
# Renders the same pages, in one run, with Cartograph's renderer pool
# (cartograph-cli render: WebKitGTK, 2 renderers, under the Xvfb the
# command starts itself) and with Debian's headless Chromium driven by
# chromium-capture.py (2 tabs). Both run the same capture script
# (src/render/cg-capture.js) with the same arguments in an isolated world,
# after the load event and the same wait for network and DOM quiet, and
# both write the decorated DOM and a 320 px PNG thumbnail of a 1280x900
# viewport per page. The pages are:
#
#   - the demo bookshop's pages (cartograph-cli serve-demo), and
#   - saved real pages from ../shared/datasets/fadwa-testbed-2017 (search
#     result pages of 100 sites, with their stylesheets), served by nginx
#     on loopback. Test-only material: copied to the work folder, never
#     into the repository. Their scripts and images were not saved.
#
# Everything runs in a network namespace of its own with only loopback (see
# below), so requests to other hosts fail at once, alike for both.
#
# Each tool runs under measure.py: wall time and the peak memory (PSS) of
# its whole process tree. The table gives pages per second, peak memory,
# and Cartograph's ratios to Chromium; the target is at least Chromium's
# throughput.
#
# Settings, from the environment:
#   CG_BENCH_DEMO_PAGES  demo pages to render (default 40)
#   CG_BENCH_REAL_PAGES  saved real pages to render (default 40)
#   CG_BENCH_JOBS        renderers / tabs at once (default 2)
#   CG_BENCH_DIR         work folder (default /tmp/cartograph-bench/render)
#   CG_BENCH_PORT        nginx port on 127.0.0.1 (default 18091)
#   CG_BENCH_BUILD_DIR   build folder holding src/cli/cartograph-cli
#                        (default _build-bench, set up as a release build if missing)
#   CARTOGRAPH_CLI       the cartograph-cli to use instead
#
# The results are printed and written to $CG_BENCH_DIR/results-latest.txt.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
demo_pages="${CG_BENCH_DEMO_PAGES:-40}"
real_pages="${CG_BENCH_REAL_PAGES:-40}"
jobs="${CG_BENCH_JOBS:-2}"
work="${CG_BENCH_DIR:-/tmp/cartograph-bench/render}"
port="${CG_BENCH_PORT:-18091}"
build="${CG_BENCH_BUILD_DIR:-$root/_build-bench}"
dataset="${CARTOGRAPH_SHARED_DIR:-$root/../shared}/datasets/fadwa-testbed-2017"
python=/usr/bin/python3

die () { echo "run.sh: $*" >&2; exit 1; }

for n in "$demo_pages" "$real_pages" "$jobs"; do
  [[ "$n" =~ ^[0-9]+$ ]] || die "page counts and jobs must be numbers, not “$n”"
done
(( jobs >= 1 )) || die "CG_BENCH_JOBS must be at least 1"
[[ -d "$dataset/pages" ]] || die "no saved pages at $dataset (see ../shared/datasets/README.md)"

# --- Packages ------------------------------------------------------------
missing=()
for pair in chromium:chromium nginx:nginx xvfb:Xvfb bubblewrap:bwrap xz-utils:xz iproute2:ip; do
  package="${pair%%:*}" program="${pair#*:}"
  command -v "$program" >/dev/null 2>&1 || [[ -x "/usr/sbin/$program" ]] || missing+=("$package")
done
if (( ${#missing[@]} > 0 )); then
  echo "Installing ${missing[*]}…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update >/dev/null
  apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
  if [[ " ${missing[*]} " == *" nginx "* ]] && command -v systemctl >/dev/null 2>&1; then
    systemctl stop nginx 2>/dev/null || true
  fi
fi

# --- Cartograph ----------------------------------------------------------
cli="${CARTOGRAPH_CLI:-$build/src/cli/cartograph-cli}"
if [[ -z "${CARTOGRAPH_CLI:-}" ]]; then
  if [[ ! -d "$build" ]]; then
    meson setup "$build" "$root" --buildtype=release >/dev/null
  fi
  ninja -C "$build" -j2 src/cli/cartograph-cli >/dev/null
fi
[[ -x "$cli" ]] || die "no cartograph-cli at $cli"

# --- A network of its own ----------------------------------------------------
# The rest runs in a new network namespace with only a loopback interface:
# the servers, Cartograph and Chromium. The saved pages name hundreds of
# other hosts; with the machine's network, what happens to those requests
# (DNS answers, connections left hanging) varied from run to run and from
# browser to browser and dominated the timings. Here they fail at once for
# both, and nothing reaches outside.
if [[ -z "${CG_BENCH_IN_NETNS:-}" ]]; then
  command -v unshare >/dev/null 2>&1 || die "unshare (util-linux) is needed"
  export CARTOGRAPH_CLI="$cli" CG_BENCH_IN_NETNS=1
  exec unshare --net bash -c 'ip link set lo up && exec bash "$0"' "${BASH_SOURCE[0]}"
fi

# --- The saved pages, copied once with their stylesheets -----------------
mkdir -p "$work"
site="$work/site"
if [[ ! -f "$site/.complete" ]]; then
  echo "Copying the saved pages and unpacking their stylesheets into $site…"
  rm -rf "$site"
  mkdir -p "$site"
  cp -r "$dataset/pages" "$site/pages"
  tar -xJf "$dataset/css-assets.tar.xz" -C "$site"
  # start-nginx.sh's nginx knows .html, not .htm, as text/html; the
  # pages' links are relative to their folder, so renaming breaks none.
  find "$site/pages" -name page.htm -execdir mv page.htm page.html \;
  # It also serves only folders with an index page.
  echo '<!DOCTYPE html><title>Saved pages</title><p>Saved pages for the render benchmark.' > "$site/index.html"
  touch "$site/.complete"
fi

# --- Servers ---------------------------------------------------------------
nginx_work="$work/nginx"
demo_pid=""
cleanup () {
  [[ -n "$demo_pid" ]] && kill "$demo_pid" 2>/dev/null || true
  "$here/../crawl-throughput/start-nginx.sh" --stop "$nginx_work" || true
}
trap cleanup EXIT
# A server left from an earlier run listens in another network namespace.
"$here/../crawl-throughput/start-nginx.sh" --stop "$nginx_work" >/dev/null 2>&1 || true
"$here/../crawl-throughput/start-nginx.sh" "$site" "$nginx_work" "$port"

"$cli" serve-demo > "$work/demo.out" 2>&1 &
demo_pid=$!
demo_base=""
for _ in $(seq 1 100); do
  demo_base=$(grep -o "http://127.0.0.1:[0-9]*" "$work/demo.out" | head -n 1 || true)
  [[ -n "$demo_base" ]] && break
  sleep 0.1
done
[[ -n "$demo_base" ]] || die "the demo server did not start: $(cat "$work/demo.out")"

# --- The pages ------------------------------------------------------------
urls="$work/urls.txt"
"$cli" serve-demo --print-truth | "$python" -c '
import json, sys
base, n = sys.argv[1], int(sys.argv[2])
paths = [json.loads(line)["path"] for line in sys.stdin if line.strip()]
for path in paths[:n]:
    print(base + path)' "$demo_base" "$demo_pages" > "$urls"
# The saved pages: the .htm ones, renamed .html above (nginx would serve
# the two .xht pages as downloads), in the order of index.tsv.
"$python" -c '
import csv, sys
base, n = sys.argv[1], int(sys.argv[2])
out = []
with open(sys.argv[3], newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f, delimiter="\t"):
        if len(out) >= n:
            break
        out.append(row["dir"])
import os
for d in out:
    page = os.path.join(sys.argv[4], d, "page.html")
    if os.path.exists(page):
        print(base + "/" + d + "/page.html")' \
  "http://127.0.0.1:$port" "$real_pages" "$dataset/index.tsv" "$site" >> "$urls"
n_urls=$(wc -l < "$urls")
echo "Rendering $n_urls pages ($demo_pages from the demo site, the rest saved real pages) with $jobs at once."
# Both browsers should find the files in the page cache.
find "$site" -type f -exec cat {} + > /dev/null

# --- The runs ---------------------------------------------------------------
runs="$work/runs"
rm -rf "$runs"
mkdir -p "$runs"

echo "Cartograph (WebKitGTK $(pkg-config --modversion webkitgtk-6.0 2>/dev/null || echo '?'))…"
"$python" "$here/measure.py" "$runs/cartograph.json" -- \
  env -u DISPLAY -u WAYLAND_DISPLAY "$cli" render -q --jobs "$jobs" --out "$runs/cartograph" --urls-from "$urls" \
  > "$runs/cartograph.stdout" 2> "$runs/cartograph.stderr" || true

echo "Chromium ($(/usr/bin/chromium --version 2>/dev/null | head -n 1))…"
"$python" "$here/measure.py" "$runs/chromium.json" -- \
  "$python" "$here/chromium-capture.py" --jobs "$jobs" --script "$root/src/render/cg-capture.js" \
  --out "$runs/chromium" "$urls" \
  > "$runs/chromium.stdout" 2> "$runs/chromium.stderr" || true

# --- The table -------------------------------------------------------------
"$python" - "$runs" "$n_urls" <<'PY' | tee "$work/results-latest.txt"
import json, os, sys
runs, n_urls = sys.argv[1], int(sys.argv[2])
rows = {}
for tool in ("cartograph", "chromium"):
    with open(os.path.join(runs, tool + ".json")) as f:
        m = json.load(f)
    ok = failed = elements = 0
    with open(os.path.join(runs, tool, "pages.jsonl"), encoding="utf-8") as f:
        for line in f:
            page = json.loads(line)
            if "error" in page:
                failed += 1
            else:
                ok += 1
                elements += page.get("elements", 0)
    rows[tool] = dict(m, ok=ok, failed=failed, elements=elements,
                      rate=ok / m["seconds"] if m["seconds"] else 0.0)
print("%-11s %6s %6s %8s %9s %12s %13s %13s %10s" % ("tool", "pages", "failed", "seconds", "pages/s",
                                                       "CPU s/page", "peak PSS MB", "peak RSS MB", "elements"))
for tool, r in rows.items():
    print("%-11s %6d %6d %8.1f %9.2f %12.3f %13.0f %13.0f %10d" % (
        tool, r["ok"], r["failed"], r["seconds"], r["rate"], r["cpu_seconds"] / max(1, r["ok"]),
        r["peak_pss_kib"] / 1024, r["peak_rss_kib"] / 1024, r["elements"]))
c, k = rows["cartograph"], rows["chromium"]
speed = c["rate"] / k["rate"] if k["rate"] else float("inf")
memory = c["peak_pss_kib"] / k["peak_pss_kib"] if k["peak_pss_kib"] else float("inf")
cpu = (c["cpu_seconds"] / max(1, c["ok"])) / (k["cpu_seconds"] / max(1, k["ok"])) if k["cpu_seconds"] else float("inf")
print("Cartograph / Chromium: throughput %.2fx, CPU per page %.2fx, peak memory (PSS) %.2fx" % (speed, cpu, memory))
with open("/proc/loadavg") as f:
    print("Load average at the end (other work on the machine slows both): %s" % " ".join(f.read().split()[:3]))
print("Target, at least Chromium's throughput: %s" % ("met" if speed >= 1.0 else "NOT met"))
PY
