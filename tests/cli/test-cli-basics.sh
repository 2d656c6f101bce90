#!/bin/sh
# cartograph-cli's own options and its errors for what it does not understand.
set -u
cli="$CARTOGRAPH_CLI"
fail=0
check () { if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi; }

out=$("$cli" --help); rc=$?
check "--help exits 0" '[ $rc -eq 0 ]'
check "--help lists the commands" 'echo "$out" | grep -q "info"'
out=$("$cli" --version); rc=$?
check "--version prints the version" '[ $rc -eq 0 ] && echo "$out" | grep -Eq "^cartograph-cli [0-9]+\.[0-9]+"'
err=$("$cli" frobnicate 2>&1 >/dev/null); rc=$?
check "an unknown command exits 2" '[ $rc -eq 2 ]'
check "an unknown command is named" 'echo "$err" | grep -q "frobnicate"'
err=$("$cli" --frobnicate 2>&1 >/dev/null); rc=$?
check "an unknown option exits 2 and is named" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--frobnicate"'
err=$("$cli" 2>&1 >/dev/null); rc=$?
check "no command prints usage and exits 2" '[ $rc -eq 2 ] && echo "$err" | grep -q "Usage"'
err=$("$cli" info --bogus 2>&1 >/dev/null); rc=$?
check "a subcommand's unknown option exits 2" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--bogus"'

# The commands that render in WebKit run in cartograph-cli-web, so the
# others start without loading WebKit or GTK.
libs=$(ldd "$cli")
check "cartograph-cli loads neither WebKit nor GTK" '! echo "$libs" | grep -Eq "libwebkitgtk|libgtk-4"'
out=$("$cli" render --help); rc=$?
check "render --help runs in the WebKit helper" '[ $rc -eq 0 ] && echo "$out" | grep -q "Render pages headless"'
err=$("$cli" model --bogus 2>&1 >/dev/null); rc=$?
check "model's unknown option exits 2 through the helper" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--bogus"'
helper="$(dirname "$cli")/cartograph-cli-web"
err=$("$helper" info 2>&1 >/dev/null); rc=$?
check "the WebKit helper refuses other commands" '[ $rc -eq 2 ] && echo "$err" | grep -q "cartograph-cli --help"'

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
err=$("$cli" info --project "$tmp/none" 2>&1 >/dev/null); rc=$?
check "info on a missing folder fails naming it" '[ $rc -eq 1 ] && echo "$err" | grep -q "$tmp/none"'
echo "not a database" > "$tmp/cartograph.db"
err=$("$cli" info --project "$tmp" 2>&1 >/dev/null); rc=$?
check "info on a damaged database fails and says so" '[ $rc -eq 1 ] && echo "$err" | grep -qi "damaged"'
check "the damaged database is left as it was" '[ "$(cat "$tmp/cartograph.db")" = "not a database" ]'

# clustvx: input that never ends is cut at the page size limit (a timeout
# turns a hang into a failure), and a bad --charset or --url is refused.
err=$(timeout 60 "$cli" clustvx /dev/zero 2>&1 >/dev/null); rc=$?
check "clustvx stops reading endless input" '[ $rc -eq 1 ] && echo "$err" | grep -q "/dev/zero.*larger than"'
mkfifo "$tmp/endless"
yes '<p>again</p>' > "$tmp/endless" 2>/dev/null &
writer=$!
err=$(timeout 60 "$cli" clustvx "$tmp/endless" 2>&1 >/dev/null); rc=$?
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
check "clustvx stops reading an endless pipe" '[ $rc -eq 1 ] && echo "$err" | grep -q "endless.*larger than"'
printf '<html><body><ul><li>One</li><li>Two</li><li>Three</li></ul></body></html>' > "$tmp/list.html"
err=$(timeout 60 "$cli" clustvx "$tmp/list.html" --charset bogus 2>&1 >/dev/null); rc=$?
check "clustvx refuses an unknown --charset by name" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--charset.*bogus"'
err=$(timeout 60 "$cli" clustvx "$tmp/list.html" --charset "utf-8; x=y" 2>&1 >/dev/null); rc=$?
check "clustvx refuses a --charset that is not a name" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--charset"'
err=$(timeout 60 "$cli" clustvx "$tmp/list.html" -u "not a url" 2>&1 >/dev/null); rc=$?
check "clustvx refuses a --url that is not a URL" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--url.*not a url"'
err=$(timeout 60 "$cli" clustvx "$tmp/list.html" -u "ftp://example.org/list" 2>&1 >/dev/null); rc=$?
check "clustvx refuses a --url of another scheme" '[ $rc -eq 2 ] && echo "$err" | grep -q "ftp://example.org/list"'
err=$(timeout 60 "$cli" clustvx "$tmp/list.html" -u "http://" 2>&1 >/dev/null); rc=$?
check "clustvx refuses a --url without a host" '[ $rc -eq 2 ] && echo "$err" | grep -q -- "--url"'
timeout 60 "$cli" clustvx "$tmp/list.html" --charset ISO-8859-1 -u "https://example.org/list" > /dev/null 2>&1; rc=$?
check "clustvx takes a known --charset and an https --url" '[ $rc -eq 0 ]'
timeout 60 "$cli" clustvx "$tmp/list.html" -u "file://$tmp/list.html" > /dev/null 2>&1; rc=$?
check "clustvx takes a file --url" '[ $rc -eq 0 ]'
exit $fail
