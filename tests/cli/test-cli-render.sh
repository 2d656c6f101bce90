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

# Each bad value is named by itself, and bad URLs and endless lists are
# refused before anything starts (the timeouts turn a hang into a failure).
err=$(timeout 60 "$cli" render --out "$tmp/o" --max-pages -1 http://127.0.0.1:1/ 2>&1 >/dev/null); rc=$?
check "--max-pages -1 exits 2 and is named" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--max-pages" && ! echo "$err" | grep -q -- "--thumbnail-width"'
err=$(timeout 60 "$cli" render --out "$tmp/o" --crawl -1 http://127.0.0.1:1/ 2>&1 >/dev/null); rc=$?
check "--crawl -1 exits 2 and is named" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--crawl must" && ! echo "$err" | grep -q -- "--thumbnail-width"'
err=$(timeout 60 "$cli" render --out "$tmp/o" --project "$tmp/none" --crawl -1 2>&1 >/dev/null); rc=$?
check "--crawl -1 with --project exits 2 and is named" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--crawl must"'
err=$(timeout 60 "$cli" render --out "$tmp/o" --thumbnail-width 5000 http://127.0.0.1:1/ 2>&1 >/dev/null); rc=$?
check "--thumbnail-width 5000 exits 2 and is named" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--thumbnail-width.*5000"'
err=$(timeout 60 "$cli" render --out "$tmp/o" "$(printf 'http://127.0.0.1:18231/\377')" 2>&1 >/dev/null); rc=$?
# (printf, not echo: dash's echo would turn the escape back into the byte.)
check "a URL that is not UTF-8 exits 2 at once, shown escaped" '[ $rc -eq 2 ] && printf "%s\n" "$err" | grep -q "18231/\\\\377.*UTF-8"'
err=$(timeout 60 "$cli" render --out "$tmp/o" "not a url" 2>&1 >/dev/null); rc=$?
check "an argument that is not a URL exits 2 and is named" '[ $rc -eq 2 ] && echo "$err" | grep -q "not a url"'
err=$(timeout 60 "$cli" render --out "$tmp/o" "http://" 2>&1 >/dev/null); rc=$?
check "a URL without a host exits 2" '[ $rc -eq 2 ] && echo "$err" | grep -q "http://"'
err=$(timeout 60 "$cli" render --out "$tmp/o" --urls-from /dev/zero 2>&1 >/dev/null); rc=$?
check "an endless URL list is cut and fails" '[ $rc -eq 1 ] && echo "$err" | grep -q "/dev/zero.*larger than"'
err=$(timeout 60 "$cli" render --out "$tmp/o" --project "$tmp/none" 2>&1 >/dev/null); rc=$?
check "a project folder that does not exist fails saying so" '[ $rc -eq 1 ] && echo "$err" | grep -q "“$tmp/none” does not exist"'
: > "$tmp/afile"
err=$(timeout 60 "$cli" render --out "$tmp/o" --project "$tmp/afile" 2>&1 >/dev/null); rc=$?
check "a project that is a file fails saying so" '[ $rc -eq 1 ] && echo "$err" | grep -q "“$tmp/afile” is a file"'
check "nothing was started for the bad command lines" '[ ! -e "$tmp/o" ]'

# Loads that fail without a page to show: a port WebKit refuses (it shows
# about:blank without an error) and about:blank itself.
out=$(timeout 120 env -u DISPLAY -u WAYLAND_DISPLAY "$cli" render --out "$tmp/blocked" http://127.0.0.1:1/ about:blank 2>"$tmp/blocked.err"); rc=$?
check "pages that did not load make render exit 1" '[ $rc -eq 1 ]'
check "both count as failed" 'echo "$out" | grep -q "0 pages rendered, 2 failed"'
check "the refused port is named with the reason" 'grep -q "Cannot load http://127.0.0.1:1/: WebKit refused it" "$tmp/blocked.err"'
check "about:blank is refused by name" 'grep -q "about:blank.*cannot be rendered" "$tmp/blocked.err"'
check "pages.jsonl has both errors" '[ "$(grep -c "\"error\"" "$tmp/blocked/pages.jsonl")" -eq 2 ]'

# The demo site, live.
"$cli" serve-demo > "$tmp/demo.out" 2>&1 &
demo_pid=$!
for _ in $(seq 1 50); do
  grep -q "http://127.0.0.1" "$tmp/demo.out" && break
  sleep 0.1
done
base=$(grep -o "http://127.0.0.1:[0-9]*/" "$tmp/demo.out" | head -n 1)
check "the demo server started" '[ -n "$base" ]'

# In a session of its own, so that its Xvfb is told from those of tests
# running beside it: the session's id is the shell's pid, which exec keeps.
out=$(env -u DISPLAY -u WAYLAND_DISPLAY setsid -w sh -c 'echo $$ > "$0"; exec "$@"' "$tmp/render.sid" \
        "$cli" render --out "$tmp/live" "$base" "${base}category/fiction/" "file:///etc/passwd" 2>"$tmp/live.err"); rc=$?
check "a failed page makes render exit 1" '[ $rc -eq 1 ]'
check "the file URL is refused by name" 'grep -q "file:///etc/passwd" "$tmp/live.err"'
check "pages.jsonl has a line per URL" '[ "$(wc -l < "$tmp/live/pages.jsonl")" -eq 3 ]'
check "the pages rendered with status 200" '[ "$(grep -c "\"status\":200" "$tmp/live/pages.jsonl")" -eq 2 ]'
check "the decorated DOM carries font data" 'grep -q "data-cg-fontdata=" "$tmp/live/00001.html"'
check "the decorated DOM carries paths" 'grep -q "data-cg-xpath=\"/html\[1\]/body\[1\]" "$tmp/live/00002.html"'
check "the thumbnail is a PNG" '[ "$(head -c 4 "$tmp/live/00002.png" | tail -c 3)" = "PNG" ]'
check "no file content in any page" '! grep -q "root:x:" "$tmp"/live/*.html'
check "the render ran in a session of its own" 'grep -q "^[0-9][0-9]*$" "$tmp/render.sid"'
check "the Xvfb it started is gone" '! pgrep -s "$(cat "$tmp/render.sid")" -x Xvfb'

# Archived by a crawl, then rendered from the project and from its WARC
# file with the site down: everything comes from the archive.
"$cli" crawl --project "$tmp/project" --no-politeness --max-pages 6 -q "$base" > /dev/null 2>&1
check "the demo site was crawled" 'ls "$tmp"/project/warc/*.warc.gz > /dev/null 2>&1'
err=$(timeout 60 "$cli" render --out "$tmp/o" --project "$tmp/project" --crawl 99 2>&1 >/dev/null); rc=$?
check "a crawl the project lacks fails naming it" '[ $rc -eq 1 ] && echo "$err" | grep -q "has no crawl 99"'
kill "$demo_pid"; wait "$demo_pid" 2>/dev/null; demo_pid=""

out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$cli" render --out "$tmp/archived" --project "$tmp/project" --max-pages 3 2>&1); rc=$?
check "render --project exits 0 with the site down" '[ $rc -eq 0 ]'
check "three archived pages rendered" '[ "$(grep -c "\"status\":200" "$tmp/archived/pages.jsonl")" -eq 3 ]'
check "the archived home page has the site's style" 'grep -q "data-cg-background=\"rgb(31, 59, 51)\"" "$tmp/archived/00001.html"'

warc=$(ls "$tmp"/project/warc/*.warc.gz | head -n 1)
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$cli" render -q --out "$tmp/from-warc" --warc "$warc" "$base" "${base}no-such-page" 2>&1); rc=$?
check "a URL missing from the WARC file fails" '[ $rc -eq 1 ] && echo "$out" | grep -q "no-such-page"'
check "the archived URL rendered" 'grep -q "\"status\":200" "$tmp/from-warc/pages.jsonl"'

# The site down and the project's WARC files gone: the archive cannot
# supply the pages, so they fail, named with the reason, and are not
# rendered as the proxy's error responses.
rm -f "$tmp"/project/warc/*.warc.gz
out=$(timeout 120 env -u DISPLAY -u WAYLAND_DISPLAY "$cli" render --out "$tmp/no-warc" --project "$tmp/project" --max-pages 2 2>"$tmp/no-warc.err"); rc=$?
check "render --project without its WARC files exits 1" '[ $rc -eq 1 ]'
check "the pages without WARC files count as failed" 'echo "$out" | grep -q "0 pages rendered, 2 failed"'
check "the failure names the page and the missing file" 'grep -q "Cannot replay $base.*warc.gz" "$tmp/no-warc.err"'
check "no proxy error page was rendered" '! grep -q "\"status\":502" "$tmp/no-warc/pages.jsonl"'

# The site down: a refused connection fails too.
out=$(timeout 120 env -u DISPLAY -u WAYLAND_DISPLAY "$cli" render --out "$tmp/down" "$base" 2>"$tmp/down.err"); rc=$?
check "a refused connection makes render exit 1" '[ $rc -eq 1 ] && grep -q "Cannot load $base" "$tmp/down.err"'
exit $fail
