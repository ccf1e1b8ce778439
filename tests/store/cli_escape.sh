#!/bin/sh
# tests/store/cli_escape.sh - what `show` and `parse` print in text never
# passes a control byte through (issue 12, security): host names, boot
# ids, metric names and units from an imported export, and metric and
# file names from a Go benchmark's output, holding ESC[2J, OSC 52 (the
# clipboard), a title sequence, CR, DEL and the C1 control U+009B, are
# written as cat -v writes them; the JSON stays valid.  In JSON (show,
# campaigns, export, parse, env, run, compare, stat, changepoints,
# history) DEL and the C1 controls are \u escapes, as the bytes below
# 0x20 are: jansson passes them through raw (core/jsonout.h).
#
# usage: cli_escape.sh PERFREG
set -u
P=$1
. "$(dirname "$0")/testlib.sh"

# Fails when FILE holds a control byte other than a newline (and a tab
# with "tab": stat's lines are ministat's, tab-indented), or the UTF-8 of
# a C1 control.
clean() { # file what [tab]
	python3 - "$1" "$2" "${3:-}" <<'PY' || fails=$((fails + 1))
import sys
b = open(sys.argv[1], "rb").read()
ok = (10, 9) if sys.argv[3] else (10,)
bad = [c for c in b if (c < 0x20 and c not in ok) or c == 0x7f]
if bad or b"\xc2\x9b" in b:
    print("FAIL: %s: control bytes %r in %r" % (sys.argv[2], bad[:8], b[:400]))
    sys.exit(1)
PY
}

# Fails when FILE (JSON, or JSON Lines with "lines") holds DEL or the
# UTF-8 of a C1 control raw, or is not JSON, or when its strings do not
# hold DEL and U+009B (the names must come through, escaped).
json_clean() { # file what [lines]
	python3 - "$1" "$2" "${3:-}" <<'PY' || fails=$((fails + 1))
import json, sys
b = open(sys.argv[1], "rb").read()
raw = [m for m in (b"\x7f", b"\xc2\x9b", b"\xc2\x80") if m in b]
if raw:
    print("FAIL: %s: raw %r in %r" % (sys.argv[2], raw, b[:400]))
    sys.exit(1)
t = b.decode("utf-8")
try:
    docs = [json.loads(l) for l in t.splitlines()] if sys.argv[3] else [json.loads(t)]
except ValueError as e:
    print("FAIL: %s: not JSON: %s" % (sys.argv[2], e))
    sys.exit(1)
text = json.dumps(docs, ensure_ascii=False)
if "\x7f" not in text or "\x9b" not in text:
    print("FAIL: %s: DEL or U+009B did not come through: %r" % (sys.argv[2], t[:400]))
    sys.exit(1)
PY
}

evil='\u001b[2J\u001b]52;c;SGVsbG8=\u0007\u001b]0;pwned\u0007\r\u007f\u009b'
cat > "$tmp/e.jsonl" <<EOF2
{"format":"perfreg-export","version":1,"schema":2}
{"type":"campaign","name":"c"}
{"type":"variant","campaign":"c","name":"a","command":"x"}
{"type":"session","campaign":"c","key":1,"host":"h$evil","boot_id":"b$evil","started":1700000000.0,"elapsed_s":1.0,"status":"done","args":null,"resumes":null,"variants":[["a","x"]],"tags":[],"env":null}
{"type":"run","session":1,"variant":"a","round":0,"seq":0,"warmup":false,"ok":true,"outcome":"ok","exit_status":0,"signal":0,"reason":"","failed_in":null,"truncated":false,"start_s":0.1,"metrics":[["m$evil","u$evil","lower",1.5]],"output":""}
{"type":"end","campaigns":1,"sessions":1,"runs":1}
EOF2
"$P" import --db "$tmp/db" "$tmp/e.jsonl" > /dev/null 2> "$tmp/err" ||
    fail "import: $(cat "$tmp/err")"
"$P" show c --db "$tmp/db" > "$tmp/out" 2> "$tmp/err" ||
    fail "show: $(cat "$tmp/err")"
clean "$tmp/out" "show"
has "$tmp/out" 'h^\[\[2J^\[\]52;c;SGVsbG8=^G' "show: the host as cat -v shows it"
has "$tmp/out" 'm^\[\[2J' "show: the metric as cat -v shows it"
has "$tmp/out" 'b^\[\[2J' "show: the boot id as cat -v shows it"
"$P" show c --json --db "$tmp/db" > "$tmp/out" 2> "$tmp/err" ||
    fail "show --json: $(cat "$tmp/err")"
json_clean "$tmp/out" "show --json"
"$P" show --session 1 --json --db "$tmp/db" > "$tmp/out" 2> "$tmp/err" ||
    fail "show --session --json: $(cat "$tmp/err")"
json_clean "$tmp/out" "show --session --json"

# history, campaigns and export: a campaign, a metric and commit tags
# holding DEL and CSI (few enough escapes that export writes them as JSON
# strings, not base64).
cv='commit-abcdef\u007f\u009b'
{
	echo '{"format":"perfreg-export","version":1,"schema":2}'
	printf '%s\n' '{"type":"campaign","name":"h\u007f\u009b"}'
	printf '%s\n' '{"type":"variant","campaign":"h\u007f\u009b","name":"a","command":"x"}'
	for i in 1 2 3 4 5 6; do
		printf '%s\n' '{"type":"session","campaign":"h\u007f\u009b","key":'$i',"host":"h","boot_id":"b","started":170000000'$i'.0,"elapsed_s":1.0,"status":"done","args":null,"resumes":null,"variants":[["a","x"]],"tags":[["commit","'"$cv$i"'"]],"env":null}'
		printf '%s\n' '{"type":"run","session":'$i',"variant":"a","round":0,"seq":0,"warmup":false,"ok":true,"outcome":"ok","exit_status":0,"signal":0,"reason":"","failed_in":null,"truncated":false,"start_s":0.1,"metrics":[["m\u007f\u009b","s","lower",1.'$i']],"output":""}'
	done
	echo '{"type":"end","campaigns":1,"sessions":6,"runs":6}'
} > "$tmp/h.jsonl"
"$P" import --db "$tmp/db" "$tmp/h.jsonl" > /dev/null 2> "$tmp/err" ||
    fail "import h: $(cat "$tmp/err")"
H=$(printf 'h\177\302\233')
"$P" export --db "$tmp/db" "$H" > "$tmp/out" 2> "$tmp/err" ||
    fail "export: $(cat "$tmp/err")"
json_clean "$tmp/out" "export" lines
"$P" import --db "$tmp/db2" "$tmp/out" > /dev/null 2> "$tmp/err" ||
    fail "import of the export: $(cat "$tmp/err")"
"$P" export --db "$tmp/db2" > "$tmp/out2" 2> "$tmp/err" ||
    fail "export again: $(cat "$tmp/err")"
cmp -s "$tmp/out" "$tmp/out2" || fail "export: the escaped names do not read back"
"$P" history "$H" --by tag:commit --metric "$(printf 'm\177\302\233')" --json --db "$tmp/db" > "$tmp/out" 2> "$tmp/err" ||
    fail "history --json: $(cat "$tmp/err")"
json_clean "$tmp/out" "history --json"
"$P" campaigns --json --db "$tmp/db" > "$tmp/out" 2> "$tmp/err" ||
    fail "campaigns --json: $(cat "$tmp/err")"
json_clean "$tmp/out" "campaigns --json"

# parse: a Go benchmark whose name holds the sequences, in a file whose
# name holds an ESC too.
f=$(printf '%s/go\033[2J.txt' "$tmp")
printf 'goos: linux\nBenchmarkX\033]52;c;SGVsbG8=\007\033[2J\177\302\233-8   \t 1000\t 1234 ns/op\nPASS\n' > "$f"
"$P" parse "$f" > "$tmp/out" 2> "$tmp/err" || fail "parse: $(cat "$tmp/err")"
clean "$tmp/out" "parse"
has "$tmp/out" 'X^\[\]52;c;SGVsbG8=^G^\[\[2J^?M-BM-^\[' "parse: the name as cat -v shows it"
has "$tmp/out" 'go^\[\[2J.txt: gobench' "parse: the file name as cat -v shows it"
"$P" parse --json "$f" > "$tmp/out" 2> "$tmp/err" || fail "parse --json: $(cat "$tmp/err")"
json_clean "$tmp/out" "parse --json"

# run, compare, stat and changepoints: a variant name, file names and
# labels holding DEL and CSI.
n=$(printf 'a\177\302\233')
"$P" run -n 2 --json "$n=true" "b=true" > "$tmp/out" 2> "$tmp/err" ||
    fail "run --json: $(cat "$tmp/err")"
json_clean "$tmp/out" "run --json"
printf '1.0\n1.1\n1.2\n' > "$tmp/$n.txt"
printf '2.0\n2.1\n2.2\n' > "$tmp/b.txt"
"$P" compare --json "$tmp/$n.txt" "$tmp/b.txt" > "$tmp/out" 2> "$tmp/err" ||
    fail "compare --json: $(cat "$tmp/err")"
json_clean "$tmp/out" "compare --json"
"$P" stat --json "$tmp/$n.txt" "$tmp/b.txt" > "$tmp/out" 2> "$tmp/err" ||
    fail "stat --json: $(cat "$tmp/err")"
json_clean "$tmp/out" "stat --json"
# stat and compare in text and CSV (review of session 15, finding 4): a
# file name holding ESC[2J and an OSC title, and a hyperfine command
# holding them (a JSON \u001b, decoded), as cat -v shows them.
e=$(printf 'o\033]0;pwned\007k\033[2J.txt')
printf '1.0\n1.1\n1.2\n' > "$tmp/$e"
"$P" stat -A "$tmp/b.txt" "$tmp/$e" > "$tmp/out" 2> "$tmp/err" ||
    fail "stat: $(cat "$tmp/err")"
clean "$tmp/out" "stat" tab
has "$tmp/out" '^+ .*/o^\[\]0;pwned^Gk^\[\[2J.txt$' "stat: the legend's name as cat -v shows it"
has "$tmp/out" 'o^\[\]0;pwned^Gk^\[\[2J.txt vs x' "stat: perfreg's line's name as cat -v shows it"
printf '{"results":[{"command":"x\\u001b[2J\\u001b]52;c;SGVsbG8=\\u0007","times":[1,2,3],"mean":2}]}' > "$tmp/h.json"
for f in "" --markdown --csv; do
	"$P" compare $f "$tmp/h.json" "$tmp/h.json" > "$tmp/out" 2> "$tmp/err" ||
	    fail "compare $f: $(cat "$tmp/err")"
	clean "$tmp/out" "compare $f"
	has "$tmp/out" 'x^\[\[2J^\[\]52;c;SGVsbG8=^G' "compare $f: the command as cat -v shows it"
done
# Markdown: a tag or an entity in a name is escaped for renderers that
# allow inline HTML; '<' before a digit stays as it is.
printf '{"results":[{"command":"<script>x</script> &amp; <0.5","times":[1,2,3],"mean":2}]}' > "$tmp/t.json"
"$P" compare --markdown "$tmp/t.json" "$tmp/t.json" > "$tmp/out" 2> "$tmp/err" ||
    fail "compare --markdown <script>: $(cat "$tmp/err")"
has "$tmp/out" '| \\<script>x\\</script> \\&amp; <0.5 |' "compare --markdown: the tag escaped"
grep -q '[^\\]<script>' "$tmp/out" && fail "compare --markdown: a raw <script>"
for i in 1 2 3 4 5 6 7 8 9 10; do echo "c$n$i,1.$i"; done > "$tmp/s.csv"
"$P" changepoints --json "$tmp/s.csv" > "$tmp/out" 2> "$tmp/err" ||
    fail "changepoints --json: $(cat "$tmp/err")"
json_clean "$tmp/out" "changepoints --json"

# env diff: a changed value's reason line quotes the value, escaped too
# (fuzz_envdiff's seed tests/fuzz/seeds/envdiff/hostile holds the pair).
python3 - "$(dirname "$0")/../fuzz/seeds/envdiff/hostile" "$tmp/ea.json" "$tmp/eb.json" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
i = b.index(b"\0")
open(sys.argv[2], "wb").write(b[:i])
open(sys.argv[3], "wb").write(b[i + 1:])
PY
"$P" env diff "$tmp/ea.json" "$tmp/eb.json" > "$tmp/out" 2> "$tmp/err" ||
    fail "env diff: $(cat "$tmp/err")"
clean "$tmp/out" "env diff"
has "$tmp/out" 'kernel changed from .* to 6.18.44^\[\[2J' "env diff: the reason as cat -v shows it"
"$P" env diff --json "$tmp/ea.json" "$tmp/eb.json" > "$tmp/out" 2> "$tmp/err" ||
    fail "env diff --json: $(cat "$tmp/err")"
json_clean "$tmp/out" "env diff --json"

# Errors: the file name in the message is escaped too.
"$P" parse "$(printf '%s/nope\033]0;pwned\007' "$tmp")" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "parse of a missing file: exit status"
clean "$tmp/err" "parse of a missing file: the error"
one_line_error "$tmp/err" "parse of a missing file"
has "$tmp/err" 'nope^\[\]0;pwned^G' "parse of a missing file: the name as cat -v shows it"

[ "$fails" -eq 0 ] || exit 1
echo "cli_escape: all passed"
