#!/bin/sh
# update-translations.sh: regenerate po/cartograph.pot from the files listed
# in po/POTFILES.in and merge it into every po/LANG.po of po/LINGUAS.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tools/update-translations.sh [BUILD_DIR]
#
# Meson's i18n targets do the work, so the pot is extracted with the same
# xgettext arguments as the build uses; BUILD_DIR is any configured build
# directory, or _build-translations, which is set up when missing. Run it
# after adding or changing translatable strings, and after adding a file to
# po/POTFILES.in.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$top/_build-translations"}

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$top"
fi

# The pot first: update-po merges whatever pot it finds.
meson compile -C "$build" cartograph-pot
meson compile -C "$build" cartograph-update-po

# A summary for the translators, and a check that every file still compiles.
status=0
for lang in $(grep -v '^#' "$top/po/LINGUAS"); do
  printf '%s: ' "$lang"
  msgfmt --check --check-accelerators=_ --statistics -o /dev/null "$top/po/$lang.po" 2>&1 || status=1
done
exit $status
