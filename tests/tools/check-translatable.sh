#!/bin/sh
# check-translatable.sh: every translatable string in the sources can be translated.
#
# Extracts the C sources' messages with xgettext, as the po update does, and
# fails on the two ways a string is cut or can never match at run time:
# a GLib format macro such as G_GINT64_FORMAT inside _() (xgettext does not
# know it and keeps only the part before it, so the msgid ends in "%"; use
# PRId64 and friends), and terminal control codes in a msgid (progress
# lines print them outside the translated text). It also fails on a source
# file that has translatable strings but is missing from po/POTFILES.in.
#
# Usage: check-translatable.sh SOURCE_ROOT
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu
top=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$top"
status=0

grep -l '_ ("\|N_ ("\|_("' src/*/*.c | sort > "$work/with-strings"
grep '\.c$' po/POTFILES.in | sort > "$work/listed"
missing=$(comm -23 "$work/with-strings" "$work/listed")
if [ -n "$missing" ]; then
  echo "not in po/POTFILES.in, but with translatable strings:"
  echo "$missing"
  status=1
fi

xgettext --language=C --from-code=UTF-8 --keyword=_ --keyword=N_ \
  --keyword=C_:1c,2 --keyword=NC_:1c,2 --keyword=g_dngettext:2,3 \
  --no-location --output="$work/messages.pot" $(cat "$work/listed")

# One message per paragraph, its msgid lines joined.
awk 'BEGIN { RS = ""; FS = "\n" }
     { id = ""; in_id = 0
       for (i = 1; i <= NF; i++) {
         if ($i ~ /^msgid /) { in_id = 1; sub(/^msgid /, "", $i) }
         else if ($i ~ /^msg/) { in_id = 0 }
         if (in_id) { s = $i; sub(/^"/, "", s); sub(/"$/, "", s); id = id s }
       }
       if (id == "") next
       if (id ~ /%$/) print "cut short by a format macro: \"" id "\""
       if (id ~ /\\r|\\033|\\x1b|\\e/) print "terminal control codes: \"" id "\"" }' \
  "$work/messages.pot" > "$work/problems"
if [ -s "$work/problems" ]; then
  cat "$work/problems"
  status=1
fi

n=$(grep -c '^msgid ' "$work/messages.pot")
echo "$n messages checked"
exit $status
