#!/bin/sh
# `cartograph-cli serve-demo` mirrored by wget on loopback: wget reaches at
# least 500 book pages, and every HTML page it reaches is in the ground truth
# that `serve-demo --print-truth` prints. Also the command's bad options.
set -u
cli="$CARTOGRAPH_CLI"
if ! command -v wget >/dev/null 2>&1; then
  echo "1..0 # SKIP wget is not installed"
  exit 77
fi

fail=0
check () { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi; }

tmp=$(mktemp -d)
server_pid=""
cleanup () {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# Bad options are usage errors that name what was wrong.
err=$(timeout 10 "$cli" serve-demo --port abc 2>&1 >/dev/null); rc=$?
check "--port abc exits 2 and names the value" '[ $rc -eq 2 ] && echo "$err" | grep -q "abc"'
err=$(timeout 10 "$cli" serve-demo --port 70000 2>&1 >/dev/null); rc=$?
check "--port 70000 exits 2 and names the value" '[ $rc -eq 2 ] && echo "$err" | grep -q "70000"'
err=$(timeout 10 "$cli" serve-demo --port -1 2>&1 >/dev/null); rc=$?
check "--port -1 exits 2" '[ $rc -eq 2 ]'
err=$(timeout 10 "$cli" serve-demo extra 2>&1 >/dev/null); rc=$?
check "an argument exits 2 and is named" '[ $rc -eq 2 ] && echo "$err" | grep -q "extra"'

timeout 60 "$cli" serve-demo --print-truth > "$tmp/truth.jsonl"; rc=$?
check "--print-truth exits 0" '[ $rc -eq 0 ]'
sed -n 's|^{"path":"\([^"]*\)","class":"[a-z-]*".*|\1|p' "$tmp/truth.jsonl" | sort -u > "$tmp/truth-paths"
check "--print-truth prints one object per page, path and class first" \
  '[ "$(wc -l < "$tmp/truth-paths")" -eq "$(wc -l < "$tmp/truth.jsonl")" ]'
check "the ground truth has 500 book pages or more" '[ "$(grep -c "^/book/" "$tmp/truth-paths")" -ge 500 ]'

# The server, bounded in time so that it can never hang the test.
timeout 300 "$cli" serve-demo > "$tmp/serve.out" 2> "$tmp/serve.err" &
server_pid=$!
i=0
while [ $i -lt 200 ] && ! grep -q "^Serving the demo site at " "$tmp/serve.out"; do
  sleep 0.1; i=$((i + 1))
done
port=$(sed -n '1s|^Serving the demo site at http://127\.0\.0\.1:\([0-9][0-9]*\)/$|\1|p' "$tmp/serve.out")
check "serve-demo prints its URL first" '[ -n "$port" ]'
if [ -z "$port" ]; then cat "$tmp/serve.err"; exit 1; fi

err=$(timeout 10 "$cli" serve-demo --port "$port" 2>&1 >/dev/null); rc=$?
check "a port in use exits 1 and is named" '[ $rc -eq 1 ] && echo "$err" | grep -q "$port"'

timeout 240 wget -r -l inf -nv --no-host-directories -P "$tmp/mirror" -o "$tmp/wget.log" \
  "http://127.0.0.1:$port/"; rc=$?
check "wget mirrors the site without an error" '[ $rc -eq 0 ]'

# Each line of wget's log: URL:http://127.0.0.1:PORT/PATH [N/N] -> "FILE" [1]
sed -n "s|^.* URL:http://127\.0\.0\.1:$port\([^ ]*\) \[[^]]*\] -> \"\(.*\)\" \[[0-9]*\]\$|\1 \2|p" \
  "$tmp/wget.log" > "$tmp/fetched"
cut -d' ' -f1 "$tmp/fetched" | sort -u > "$tmp/fetched-paths"
books=$(grep -c '^/book/' "$tmp/fetched-paths")
check "wget reaches 500 book pages or more ($books)" '[ "$books" -ge 500 ]'
check "wget fetched nothing robots.txt disallows" '! grep -q "^/cart" "$tmp/fetched-paths"'

# Every fetched file that is HTML must be a page of the ground truth.
while read -r path file; do
  if head -c 15 "$file" | grep -qi '<!doctype html'; then echo "$path"; fi
done < "$tmp/fetched" | sort -u > "$tmp/html-paths"
missing=$(comm -23 "$tmp/html-paths" "$tmp/truth-paths" | tr '\n' ' ')
check "wget saved HTML pages" '[ "$(wc -l < "$tmp/html-paths")" -ge 500 ]'
check "every HTML page wget reached is in the ground truth" '[ -z "$missing" ]'
[ -z "$missing" ] || echo "# not in the ground truth: $missing"
check "wget reached every page of the ground truth" \
  '[ -z "$(comm -13 "$tmp/fetched-paths" "$tmp/truth-paths")" ]'

kill -TERM "$server_pid"; wait "$server_pid"; rc=$?
server_pid=""
check "serve-demo exits 0 on SIGTERM" '[ $rc -eq 0 ]'
exit $fail
