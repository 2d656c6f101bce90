#!/bin/bash
# wordpress.sh: record extraction on WordPress list pages (issue 6).
#
# The site is tests/bench/wordpress/ (a real WordPress on 127.0.0.1, started
# by its setup.sh when it is down); the ground truth is its truth.py
# records: for every list page (home, category, tag, author, date and
# search archives, every page of each) the posts it shows, in order, with
# their title, date and author from WordPress's database, not from the
# HTML. The scores are seed 003's record-level criterion as
# src/core/cg-record-metrics.c implements it (a record counts when more than
# 60 % of its items are right, here of title, date and author, and its
# region is segmented correctly): precision, both recalls (extracted /
# actual, behind the thesis's published figures, and correct / actual) and
# their F1, and the pages and records scored. Two evaluations:
#
#   model    Cartograph's own pipeline through its CLI: `model` learns the
#            site's classes from up to CG_WP_REC_PAGES pages and renders each
#            class's samples, `extract` learns a wrapper per class on them
#            and applies it to every archived page, `export --what records`
#            writes the records out. Every archived page that is a list page
#            of the truth is scored, in its main region (the region whose
#            records match the truth best) and over all its regions at once.
#   clustvx  ClustVX alone, without the model: `cartograph-cli clustvx --json
#            --all` on CG_WP_REC_SAMPLE list pages fetched directly (spread
#            over the archive kinds and their pages), scored the same way.
#
# With the default theme (Twenty Twenty-One) list pages do not show the
# author: a record is then correct when its title and date are right (2 of
# 3 items), and wrong as soon as one of them is missing.
#
# Settings, from the environment:
#   CG_WP_PORT           the site's port (default 8650; see ../wordpress/README.md)
#   CG_WP_REC_DIR        work folder (default /tmp/cartograph-bench/wordpress-records)
#   CG_WP_REC_PAGES      pages the model samples (default 200)
#   CG_WP_REC_SAMPLE     list pages for ClustVX alone (default 100)
#   CG_WP_REC_MODEL      1 to learn the model again (default), 0 to reuse the
#                        project of the previous run, none to skip the model
#   CG_WP_REC_BUILD_DIR  build folder holding src/cli/cartograph-cli and
#                        src/core/libcartograph-core.so (default _build-wprec,
#                        set up as a release build if missing)
#
# The report is printed and written to $CG_WP_REC_DIR/results-latest.txt;
# the scored pages, one JSON line each with every record's judgement, to
# $CG_WP_REC_DIR/{model,clustvx}-scored.jsonl.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
port="${CG_WP_PORT:-8650}"
work="${CG_WP_REC_DIR:-/tmp/cartograph-bench/wordpress-records}"
pages="${CG_WP_REC_PAGES:-200}"
sample="${CG_WP_REC_SAMPLE:-100}"
run_model="${CG_WP_REC_MODEL:-1}"
build="${CG_WP_REC_BUILD_DIR:-$root/_build-wprec}"
python=/usr/bin/python3
helper="$here/wordpress-prepare.py"

die () { echo "wordpress.sh: $*" >&2; exit 1; }

[[ "$pages" =~ ^[0-9]+$ ]] && (( pages >= 1 )) || die "CG_WP_REC_PAGES must be a number of at least 1, not “$pages”"
[[ "$sample" =~ ^[0-9]+$ ]] || die "CG_WP_REC_SAMPLE must be a number, not “$sample”"
[[ "$run_model" =~ ^(0|1|none)$ ]] || die "CG_WP_REC_MODEL must be 0, 1 or none, not “$run_model”"

# --- Cartograph and the scorer -------------------------------------------------
if [[ ! -d "$build" ]]; then
  meson setup "$build" "$root" --buildtype=release >/dev/null
fi
ninja -C "$build" -j2 src/cli/cartograph-cli src/core/libcartograph-core.so >/dev/null
cli="$build/src/cli/cartograph-cli"
mkdir -p "$work"
# The scorer is built here, not by meson: it is no test of the suite.
cc -O2 -Wall -Wextra -o "$work/wordpress-score" "$here/wordpress-score.c" \
  -I"$root/src/core" -I"$build" \
  $(pkg-config --cflags --libs glib-2.0 gio-2.0 json-glib-1.0 libxml-2.0) \
  -L"$build/src/core" -lcartograph-core -Wl,-rpath,"$build/src/core"

# --- The site and its truth -------------------------------------------------------
base="http://127.0.0.1:$port/"
if ! curl -sf -o /dev/null "$base"; then
  echo "Starting the WordPress site on port $port…"
  CG_WP_PORT="$port" bash "$root/tests/bench/wordpress/setup.sh" > /dev/null
fi
"$python" "$root/tests/bench/wordpress/truth.py" --port "$port" records > "$work/truth.jsonl"
echo "Truth: $(wc -l < "$work/truth.jsonl") list pages."

# --- The model's pipeline -----------------------------------------------------------
project="$work/project"
: > "$work/model-scored.jsonl"
if [[ "$run_model" != none ]] && [[ "$run_model" == 1 || ! -d "$project" ]]; then
  rm -rf "$project"
  echo "Learning the model from $pages pages and rendering the class samples…"
  start=$(date +%s)
  env -u DISPLAY -u WAYLAND_DISPLAY "$cli" model "$base" --project "$project" --pages "$pages" \
    --no-politeness > "$work/model.log" 2>&1 || die "cartograph-cli model failed (log: $work/model.log)"
  echo "  $(head -n 1 "$work/model.log") ($(( $(date +%s) - start )) s)"
fi
if [[ "$run_model" != none ]]; then
  echo "Extracting the records…"
  start=$(date +%s)
  "$cli" extract --project "$project" --relearn > "$work/extract.log" 2>&1 \
    || die "cartograph-cli extract failed (log: $work/extract.log)"
  echo "  $(( $(date +%s) - start )) s (log: $work/extract.log)"
  "$cli" export --project "$project" --what records --format jsonl -o "$work/records.jsonl"
  "$cli" export --project "$project" --what pages --format jsonl -o "$work/pages.jsonl"
  "$python" "$helper" model "$work/truth.jsonl" "$work/pages.jsonl" "$work/records.jsonl" > "$work/model-input.jsonl"
  "$work/wordpress-score" "$work/model-input.jsonl" > "$work/model-scored.jsonl"
fi

# --- ClustVX alone on pages fetched directly ----------------------------------------
fetched="$work/fetched"
rm -rf "$fetched"
mkdir -p "$fetched"
: > "$fetched/list.tsv"
"$python" "$helper" sample "$work/truth.jsonl" "$sample" > "$work/sample.tsv"
echo "ClustVX alone on $(wc -l < "$work/sample.tsv") list pages fetched directly…"
n=0
clustvx_failed=0
while IFS=$'\t' read -r url class; do
  n=$((n + 1))
  name=$(printf '%05d' "$n")
  curl -sf -o "$fetched/$name.html" "$url" || die "could not fetch $url"
  printf '%s\t%s\n' "$name" "$url" >> "$fetched/list.tsv"
  if ! "$cli" clustvx --json --all --url "$url" "$fetched/$name.html" > "$fetched/$name.json" \
       2> "$fetched/$name.err"; then
    clustvx_failed=$((clustvx_failed + 1))
  fi
done < "$work/sample.tsv"
(( clustvx_failed == 0 )) || echo "  cartograph-cli clustvx failed on $clustvx_failed pages (see $fetched/*.err)"
"$python" "$helper" clustvx "$work/truth.jsonl" "$fetched/list.tsv" "$fetched" > "$work/clustvx-input.jsonl"
"$work/wordpress-score" "$work/clustvx-input.jsonl" > "$work/clustvx-scored.jsonl"

# --- The report --------------------------------------------------------------------
{
  echo "Record extraction on WordPress list pages ($base), seed 003's criterion:"
  echo "a record counts when more than 60 % of its items (title, date, author) are right"
  echo "and it is segmented correctly. R = extracted / actual, R corr. = correct / actual."
  echo
  [[ -s "$work/model-scored.jsonl" ]] && \
    "$python" "$helper" report "model (model, extract, export)" "$work/model-scored.jsonl"
  [[ -s "$work/clustvx-scored.jsonl" ]] && \
    "$python" "$helper" report "clustvx (ClustVX alone, pages fetched)" "$work/clustvx-scored.jsonl"
  echo "Target: F1 >= 98 %."
} | tee "$work/results-latest.txt"
