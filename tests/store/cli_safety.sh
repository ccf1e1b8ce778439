#!/bin/sh
# tests/store/cli_safety.sh - the results database and its exports under
# abuse (issue 12, data safety and import), end to end against real
# SQLite files: `export -o` onto a device node, a FIFO, a symbolic link,
# a directory; `import` of a file truncated while it is read, of
# /dev/zero, of status and outcome strings outside the schema's and of
# duplicate run lines; a partial then a complete export of one session;
# a database that is a FIFO.  Each part reproduces a defect that the
# review found; none checks a time.
#
# usage: cli_safety.sh PERFREG
set -u
P=$1
. "$(dirname "$0")/testlib.sh"
export PERFREG_BOOT_ID=boot-1

db=$tmp/db.sqlite
"$P" run --db "$db" --campaign c --variant v -n 3 --warmup 0 -- true \
    > /dev/null 2> "$tmp/err" || fail "setup run: $(cat "$tmp/err")"

# export -o onto what is not a regular file: never replaced.
export_targets() {
	mknod "$tmp/null" c 1 3 || { fail "mknod"; return; }
	"$P" export --db "$db" -o "$tmp/null" 2> "$tmp/err" ||
	    fail "export -o NODE: $(cat "$tmp/err")"
	[ -c "$tmp/null" ] || fail "export -o NODE replaced the device node"
	ls "$tmp"/null.tmp-* > /dev/null 2>&1 && fail "export -o NODE left a temporary file"

	mkfifo "$tmp/fifo"
	# A reader that the export never opens gives up after 20 s.
	timeout 20 cat "$tmp/fifo" > "$tmp/fifo.out" &
	reader=$!
	"$P" export --db "$db" -o "$tmp/fifo" 2> "$tmp/err" ||
	    fail "export -o FIFO: $(cat "$tmp/err")"
	wait $reader
	[ -p "$tmp/fifo" ] || fail "export -o FIFO replaced the FIFO"
	has "$tmp/fifo.out" '"type":"end"' "export -o FIFO: the reader got it all"

	ln -s "$tmp/elsewhere" "$tmp/link"
	"$P" export --db "$db" -o "$tmp/link" 2> "$tmp/err"
	[ $? -eq 2 ] || fail "export -o SYMLINK: exit status"
	one_line_error "$tmp/err" "export -o SYMLINK"
	has "$tmp/err" "symbolic link" "export -o SYMLINK"
	[ -L "$tmp/link" ] || fail "export -o SYMLINK replaced the link"
	[ -e "$tmp/elsewhere" ] && fail "export -o SYMLINK wrote through the link"

	mkdir "$tmp/dir"
	"$P" export --db "$db" -o "$tmp/dir" 2> "$tmp/err"
	[ $? -eq 2 ] || fail "export -o DIR: exit status"
	one_line_error "$tmp/err" "export -o DIR"
	"$P" export --db "$db" -o '' 2> "$tmp/err"
	[ $? -eq 2 ] || fail "export -o '': exit status"
	one_line_error "$tmp/err" "export -o ''"

	# A regular file is still replaced, and only when complete.
	echo old > "$tmp/reg"
	"$P" export --db "$db" -o "$tmp/reg" 2> "$tmp/err" ||
	    fail "export -o FILE: $(cat "$tmp/err")"
	has "$tmp/reg" '"type":"end"' "export -o FILE"
}
export_targets

# import: inputs that are not files of bounded size.
import_inputs() {
	"$P" export --db "$db" -o "$tmp/c.jsonl" || fail "export for import"
	# /dev/zero: one endless line, refused at its first 8 MiB; memory
	# stays small (it buffered 4 GB before it parsed).
	/usr/bin/time -f '%M' -o "$tmp/rss" "$P" import --db "$tmp/zero.db" \
	    /dev/zero > /dev/null 2> "$tmp/err"
	[ $? -eq 2 ] || fail "import /dev/zero: exit status"
	one_line_error "$tmp/err" "import /dev/zero"
	has "$tmp/err" "/dev/zero:1: line is longer" "import /dev/zero"
	rss=$(tail -1 "$tmp/rss")
	[ "$rss" -lt 400000 ] || fail "import /dev/zero: max RSS $rss KiB"

	# A FIFO is read as it comes.
	mkfifo "$tmp/in.fifo"
	timeout 20 sh -c 'cat "$1" > "$2"' sh "$tmp/c.jsonl" "$tmp/in.fifo" &
	"$P" import --db "$tmp/fifo.db" "$tmp/in.fifo" > "$tmp/out" \
	    2> "$tmp/err" || fail "import FIFO: $(cat "$tmp/err")"
	has "$tmp/out" "imported 1 campaign, 1 session, 3 runs" "import FIFO"

	# A file truncated while it is imported: a truncated export (exit 2,
	# the chunks committed before the cut kept, as the message says) or,
	# if the import was quicker, a complete one; never a signal (it was
	# mapped: SIGBUS).
	python3 tests/store/gen_export.py 200000 20000 > "$tmp/big.jsonl"
	"$P" import --db "$tmp/big.db" "$tmp/big.jsonl" > "$tmp/out" \
	    2> "$tmp/err" &
	imp=$!
	sleep 0.3
	truncate -s 1000000 "$tmp/big.jsonl"
	wait $imp
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 2 ] ||
	    fail "import of a file truncated meanwhile: exit status $rc"
	if [ $rc -eq 2 ]; then
		one_line_error "$tmp/err" "import of a truncated file"
		has "$tmp/err" "truncated" "import of a truncated file"
		n=$(sqlite3 "$tmp/big.db" 'SELECT count(*) FROM run')
		said=$(sed -n 's/.* \([0-9]*\) runs\{0,1\} before it are stored.*/\1/p' "$tmp/err")
		[ "$n" = "${said:-0}" ] ||
		    fail "import of a truncated file left $n runs, said '$said': $(cat "$tmp/err")"
	fi
	rm -f "$tmp/big.jsonl"
}
import_inputs

# Edits an export: edit.py IN OUT EXPR... where each EXPR is python run
# with `lines` (the parsed lines, a list of dicts); the end line's counts
# are made right afterwards.
cat > "$tmp/edit.py" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for e in sys.argv[3:]:
    exec(e)
lines = [l for l in lines if l.get("type") != "end"]
n = {k: sum(1 for l in lines if l.get("type") == k)
     for k in ("campaign", "session", "run")}
lines.append({"type": "end", "campaigns": n["campaign"],
              "sessions": n["session"], "runs": n["run"]})
with open(sys.argv[2], "w") as f:
    for l in lines:
        f.write(json.dumps(l, separators=(",", ":")) + "\n")
PY
edit() { python3 "$tmp/edit.py" "$@" || fail "edit.py $*"; }
runs_of() { sqlite3 "$1" 'SELECT count(*) FROM run'; }

# import: what an export may hold, checked against the schema.
import_checks() {
	"$P" export --db "$db" -o "$tmp/e.jsonl" || fail "export"
	for bad in 'lines[3]["status"] = "pwned"' \
	    'lines[4]["outcome"] = "\u001b[2Jok"' \
	    'lines[4]["failed_in"] = "elsewhere"' \
	    'lines.insert(5, dict(lines[4]))'; do
		edit "$tmp/e.jsonl" "$tmp/bad.jsonl" "$bad"
		"$P" import --db "$tmp/checks.db" "$tmp/bad.jsonl" \
		    > /dev/null 2> "$tmp/err"
		[ $? -eq 2 ] || fail "import with $bad: exit status"
		one_line_error "$tmp/err" "import with $bad"
		has "$tmp/err" "bad.jsonl:[456]: " "import with $bad: names the line"
	done
	has "$tmp/err" "run 0 of session 1 appears twice" "duplicate run line"

	# A partial export of a running session, then the complete one:
	# the runs are decided one by one (24 of 40 were left out).
	edit "$tmp/e.jsonl" "$tmp/part.jsonl" \
	    'lines[3]["status"] = "running"; lines[3]["elapsed_s"] = 0' \
	    'lines = [l for l in lines if not (l.get("type") == "run" and l["seq"] >= 2)]'
	"$P" import --db "$tmp/part.db" "$tmp/part.jsonl" > /dev/null \
	    2> "$tmp/err" || fail "import partial: $(cat "$tmp/err")"
	[ "$(runs_of "$tmp/part.db")" = 2 ] || fail "import partial: runs"
	"$P" import --db "$tmp/part.db" "$tmp/e.jsonl" > "$tmp/out" \
	    2> "$tmp/err" || fail "import complete: $(cat "$tmp/err")"
	[ "$(runs_of "$tmp/part.db")" = 3 ] ||
	    fail "import complete after partial: $(runs_of "$tmp/part.db") runs, not 3"
	has "$tmp/out" "1 run" "import complete after partial: counts the new run"
	st=$(sqlite3 "$tmp/part.db" 'SELECT status FROM session')
	[ "$st" = done ] || fail "import complete after partial: status $st"
	"$P" import --db "$tmp/part.db" "$tmp/e.jsonl" > "$tmp/out" ||
	    fail "import again"
	[ "$(runs_of "$tmp/part.db")" = 3 ] || fail "import again added runs"
}
import_checks

# A crafted import cannot make --resume run its command: imported
# sessions are never resumable.
import_resume() {
	"$P" export --db "$db" -o "$tmp/e.jsonl" || fail "export"
	edit "$tmp/e.jsonl" "$tmp/evil.jsonl" \
	    'lines[3]["status"] = "running"; lines[3]["elapsed_s"] = 0' \
	    "lines[3][\"host\"] = \"$(hostname)\"" \
	    "lines[3][\"args\"] = json.dumps([\"run\", \"--campaign\", \"c\", \"--shell\", \"v=touch $tmp/PWNED\"])"
	"$P" import --db "$tmp/evil.db" "$tmp/evil.jsonl" > /dev/null \
	    2> "$tmp/err" || fail "import evil: $(cat "$tmp/err")"
	(cd "$tmp" && "$P" run --db "$tmp/evil.db" --campaign c --resume) \
	    > /dev/null 2> "$tmp/err"
	[ $? -eq 2 ] || fail "resume of an imported session: exit status"
	[ -e "$tmp/PWNED" ] && fail "resume of an imported session ran its command"
	has "$tmp/err" "no unfinished session" "resume of an imported session"
}
import_resume

# Two --resume of one session started together: one resumer.
two_resumers() {
	rdb=$tmp/resume.db
	"$P" run --db "$rdb" --campaign r --variant v -n 8 --warmup 0 \
	    -- sleep 0.05 > /dev/null 2>&1 || fail "two resumers: setup"
	sqlite3 "$rdb" "UPDATE session SET status = 'interrupted';
	    DELETE FROM run_metric WHERE run_id IN (SELECT id FROM run WHERE seq >= 2);
	    DELETE FROM run WHERE seq >= 2;" || fail "two resumers: sqlite3"
	"$P" run --db "$rdb" --campaign r --resume > /dev/null 2> "$tmp/err1" &
	a=$!
	"$P" run --db "$rdb" --campaign r --resume > /dev/null 2> "$tmp/err2" &
	b=$!
	wait $a
	ra=$?
	wait $b
	rb=$?
	if [ $ra -eq 0 ] && [ $rb -eq 0 ]; then
		fail "two resumers: both continued the session"
	fi
	[ $ra -eq 0 ] || [ $rb -eq 0 ] || fail "two resumers: neither ran: $(cat "$tmp/err1" "$tmp/err2")"
	n=$(runs_of "$rdb")
	[ "$n" = 8 ] || fail "two resumers: $n runs stored for -n 8"
	# The one that ran showed what it ran (the other may have come
	# too late to find an unfinished session at all).
	[ $ra -eq 0 ] && ok=$tmp/err1 || ok=$tmp/err2
	has "$ok" "recorded: perfreg run --db $rdb --campaign r --variant v -n 8 --warmup 0 -- sleep 0.05" \
	    "a resume shows the command it runs"
}
two_resumers

# A session that is running now is not resumed (a second --resume found
# the first one's new session and ran its rounds a second time).
live_session() {
	ldb=$tmp/live.db
	"$P" run --db "$ldb" --campaign l --variant v -n 400 --warmup 0 \
	    -- sleep 0.05 > /dev/null 2>&1 &
	live=$!
	i=0
	while [ $i -lt 400 ]; do
		n=$(sqlite3 "$ldb" 'SELECT count(*) FROM run' 2>/dev/null)
		[ -n "$n" ] && [ "$n" -ge 2 ] && break
		sleep 0.05
		i=$((i + 1))
	done
	"$P" run --db "$ldb" --campaign l --resume > /dev/null 2> "$tmp/err"
	rc=$?
	kill $live 2> /dev/null
	wait $live
	[ $rc -eq 2 ] || fail "resume of a live session: exit status $rc"
	has "$tmp/err" "is still running (process $live on this host)" \
	    "resume of a live session"
}
live_session

if [ $fails -gt 0 ]; then
	echo "$fails failure(s)" >&2
	exit 1
fi
echo "cli_safety: all passed"
