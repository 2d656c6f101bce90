#!/bin/sh
# cartograph-cli render: its command-line errors, then the demo site
# rendered live and again from a crawl's archive with the demo server
# stopped, all without a display (the command starts Xvfb itself).
set -u
cli="$CARTOGRAPH_CLI"
fail=0
check () { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi; }

tmp=$(mktemp -d)
demo_pid=""
cleanup () {
  [ -n "$demo_pid" ] && kill "$demo_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

err=$("$cli" render http://127.0.0.1:1/ 2>&1 >/dev/null); rc=$?
check "render without --out exits 2" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--out"'
err=$("$cli" render --out "$tmp/o" 2>&1 >/dev/null); rc=$?
check "render without a URL exits 2" '[ $rc -eq 2 ]'
err=$("$cli" render --out "$tmp/o" --jobs 0 http://127.0.0.1:1/ 2>&1 >/dev/null); rc=$?
check "--jobs 0 exits 2" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--jobs"'
err=$("$cli" render --out "$tmp/o" --viewport 12x34 http://127.0.0.1:1/ 2>&1 >/dev/null); rc=$?
check "a bad viewport exits 2 and is named" '[ $rc -eq 2 ] && echo "$err" | grep -q "12x34"'
err=$("$cli" render --out "$tmp/o" --warc a.warc.gz --project p 2>&1 >/dev/null); rc=$?
check "--warc with --project exits 2" '[ $rc -eq 2 ]'
err=$("$cli" render --out "$tmp/o" --crawl 3 http://127.0.0.1:1/ 2>&1 >/dev/null); rc=$?
check "--crawl without --project exits 2" '[ $rc -eq 2 ]'
err=$("$cli" render --out "$tmp/o" --warc "$tmp/missing.warc.gz" 2>&1 >/dev/null); rc=$?
check "a missing WARC file fails naming it" '[ $rc -eq 1 ] && echo "$err" | grep -q "missing.warc.gz"'
err=$("$cli" render --out "$tmp/o" --urls-from "$tmp/none.txt" 2>&1 >/dev/null); rc=$?
check "a missing URL list fails" '[ $rc -eq 1 ] && echo "$err" | grep -q "none.txt"'

# The demo site, live.
"$cli" serve-demo > "$tmp/demo.out" 2>&1 &
demo_pid=$!
for _ in $(seq 1 50); do
  grep -q "http://127.0.0.1" "$tmp/demo.out" && break
  sleep 0.1
done
base=$(grep -o "http://127.0.0.1:[0-9]*/" "$tmp/demo.out" | head -n 1)
check "the demo server started" '[ -n "$base" ]'

xvfb_before=$(pgrep -c -x Xvfb || true)
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$cli" render --out "$tmp/live" "$base" "${base}category/fiction/" "file:///etc/passwd" 2>"$tmp/live.err"); rc=$?
check "a failed page makes render exit 1" '[ $rc -eq 1 ]'
check "the file URL is refused by name" 'grep -q "file:///etc/passwd" "$tmp/live.err"'
check "pages.jsonl has a line per URL" '[ "$(wc -l < "$tmp/live/pages.jsonl")" -eq 3 ]'
check "the pages rendered with status 200" '[ "$(grep -c "\"status\":200" "$tmp/live/pages.jsonl")" -eq 2 ]'
check "the decorated DOM carries font data" 'grep -q "data-cg-fontdata=" "$tmp/live/00001.html"'
check "the decorated DOM carries paths" 'grep -q "data-cg-xpath=\"/html\[1\]/body\[1\]" "$tmp/live/00002.html"'
check "the thumbnail is a PNG" '[ "$(head -c 4 "$tmp/live/00002.png" | tail -c 3)" = "PNG" ]'
check "no file content in any page" '! grep -q "root:x:" "$tmp"/live/*.html'
check "the Xvfb it started is gone" '[ "$(pgrep -c -x Xvfb || true)" -eq "$xvfb_before" ]'

# Archived by a crawl, then rendered from the project and from its WARC
# file with the site down: everything comes from the archive.
"$cli" crawl --project "$tmp/project" --no-politeness --max-pages 6 -q "$base" > /dev/null 2>&1
check "the demo site was crawled" 'ls "$tmp"/project/warc/*.warc.gz > /dev/null 2>&1'
kill "$demo_pid"; wait "$demo_pid" 2>/dev/null; demo_pid=""

out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$cli" render --out "$tmp/archived" --project "$tmp/project" --max-pages 3 2>&1); rc=$?
check "render --project exits 0 with the site down" '[ $rc -eq 0 ]'
check "three archived pages rendered" '[ "$(grep -c "\"status\":200" "$tmp/archived/pages.jsonl")" -eq 3 ]'
check "the archived home page has the site's style" 'grep -q "data-cg-background=\"rgb(31, 59, 51)\"" "$tmp/archived/00001.html"'

warc=$(ls "$tmp"/project/warc/*.warc.gz | head -n 1)
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$cli" render -q --out "$tmp/from-warc" --warc "$warc" "$base" "${base}no-such-page" 2>&1); rc=$?
check "a URL missing from the WARC file fails" '[ $rc -eq 1 ] && echo "$out" | grep -q "no-such-page"'
check "the archived URL rendered" 'grep -q "\"status\":200" "$tmp/from-warc/pages.jsonl"'
exit $fail
