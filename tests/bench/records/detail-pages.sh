#!/bin/bash
# detail-pages.sh: detail wrappers on SWDE's book pages (issue 6, item 2).
#
# Detail pages hold one record each; ClustVX does not handle them, and
# the wrappers' detail mode (src/core/cg-wrapper.c) is this project's
# extension. This evaluates it on ../shared/datasets/swde-book-subset
# (SWDE's book vertical, two sites): per site, a detail wrapper learned on
# the first 5 pages is applied to every page, and each ground-truth
# attribute (title, author, isbn_13, publisher, publication_date) is scored
# by normalised text match against the wrapper's best-matching column
# (see detail-pages.c). Per site and attribute it prints the column, the
# pages, precision, recall and F1, then each site's mean F1.
#
# Skipped with a message when the data set is absent. Nothing is fetched:
# the saved pages are parsed as they are.
#
# Settings, from the environment:
#   CG_BENCH_PAGES       pages to learn each wrapper on (default 5)
#   CG_BENCH_DIR         work folder (default /tmp/cartograph-bench/detail-pages)
#   CG_BENCH_BUILD_DIR   build folder holding src/core/libcartograph-core.so
#                        (default _build-bench, set up as a release build if missing)
#   CARTOGRAPH_SHARED_DIR  the shared folder (default ../shared next to the repository)
#
# The results are printed and written to $CG_BENCH_DIR/results-latest.tsv.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
pages="${CG_BENCH_PAGES:-5}"
work="${CG_BENCH_DIR:-/tmp/cartograph-bench/detail-pages}"
build="${CG_BENCH_BUILD_DIR:-$root/_build-bench}"
dataset="${CARTOGRAPH_SHARED_DIR:-$root/../shared}/datasets/swde-book-subset"

die () { echo "detail-pages.sh: $*" >&2; exit 1; }

[[ "$pages" =~ ^[0-9]+$ ]] && (( pages >= 1 )) || die "CG_BENCH_PAGES must be a number of at least 1, not “$pages”"
if [[ ! -d "$dataset/pages" || ! -d "$dataset/groundtruth" ]]; then
  echo "detail-pages.sh: skipped: the SWDE book subset is not at $dataset"
  exit 0
fi

if [[ ! -d "$build" ]]; then
  meson setup "$build" "$root" --buildtype=release >/dev/null
fi
ninja -C "$build" -j2 src/core/libcartograph-core.so >/dev/null
mkdir -p "$work"
# The driver is built here, not by meson: it is no test of the suite.
cc -O2 -Wall -Wextra -Wno-unused-parameter -o "$work/detail-pages" "$here/detail-pages.c" \
  -I"$root/src/core" -I"$build" \
  $(pkg-config --cflags --libs glib-2.0 gio-2.0 json-glib-1.0 libxml-2.0 libsoup-3.0) \
  -L"$build/src/core" -lcartograph-core -Wl,-rpath,"$build/src/core"

"$work/detail-pages" --pages "$pages" "$dataset" | tee "$work/results-latest.tsv" | column -t -s $'\t'
