#!/bin/sh
# tests/store/cli_store.sh - the results database from the command line,
# end to end against real SQLite files: `run --campaign` (both forms),
# sessions in two "boots" (PERFREG_BOOT_ID), `campaigns`, `show`,
# `compare --campaign` at boot and run level with the environment diff,
# --resume after a session killed with SIGKILL, `export` / `import`
# round trip, and one-line errors for a database that is a directory,
# corrupt, or missing.  With PERFREG_TEST_PG (a libpq connection string)
# the campaign part runs against PostgreSQL too.  No timing is checked.
#
# usage: cli_store.sh PERFREG
set -u
P=$1
. "$(dirname "$0")/testlib.sh"

# two_runs DB: waits until DB holds two runs (so that the session's
# signal handler is set: a SIGINT before it is lost, a background command
# of this shell ignoring SIGINT), at most 60 s: a bound that tells a slow
# machine (ASan under load) from a session that never started, not a
# timing; fails when they did not come.
two_runs() {
	i=0
	while [ $i -lt 1200 ]; do
		n=$(sqlite3 "$1" 'SELECT count(*) FROM run' 2>/dev/null)
		[ -n "$n" ] && [ "$n" -ge 2 ] && return 0
		sleep 0.05
		i=$((i + 1))
	done
	fail "two_runs: $1 holds ${n:-no} runs after 60 s"
	return 1
}

campaign() { # db label
	db=$1
	# Two variants, two boots each, the single-variant form.
	for boot in b1 b2; do
		for v in fast slow; do
			[ $v = fast ] && s=0 || s=0.02
			PERFREG_BOOT_ID=$boot "$P" run --db "$db" --campaign \
			    demo --variant $v -n 3 --warmup 0 --tag "git=abc'\"" \
			    -- sleep $s > "$tmp/out" 2> "$tmp/err" ||
			    fail "$2: run $v in $boot: $(cat "$tmp/err")"
		done
	done
	has "$tmp/err" "stored in campaign 'demo'" "$2: run says where"
	"$P" campaigns --db "$db" > "$tmp/out" 2> "$tmp/err" ||
	    fail "$2: campaigns: $(cat "$tmp/err")"
	has "$tmp/out" "^demo  *2  *4  *2  *1  *12  *0 " "$2: campaigns line"
	"$P" campaigns --db "$db" --json > "$tmp/out" ||
	    fail "$2: campaigns --json"
	has "$tmp/out" '"sessions": 4' "$2: campaigns --json"
	"$P" show --db "$db" demo > "$tmp/out" 2> "$tmp/err" ||
	    fail "$2: show: $(cat "$tmp/err")"
	has "$tmp/out" "^  fast  *2  *2  *6  *0  'sleep' '0'" "$2: show variant"
	has "$tmp/out" "git=abc'\"" "$2: show tag with quotes"
	has "$tmp/out" "kernel=" "$2: show kernel tag"
	"$P" compare --db "$db" --campaign demo > "$tmp/out" \
	    2> "$tmp/err" || fail "$2: compare --campaign: $(cat "$tmp/err")"
	has "$tmp/out" "^slow against fast: boot level, 2 boots (6 runs) and 2 boots (6 runs)" \
	    "$2: boot level"
	has "$tmp/out" "^wall_s " "$2: compare row"
	has "$tmp/out" "Welch" "$2: Welch on boot means"
	has "$tmp/out" "^environment: what differs between fast" "$2: env diff"
	[ -s "$tmp/err" ] && fail "$2: boot-level compare warned: $(cat "$tmp/err")"
	"$P" compare --db "$db" --campaign demo --json > "$tmp/out" ||
	    fail "$2: compare --campaign --json"
	has "$tmp/out" '"level": "boot"' "$2: json level"
	has "$tmp/out" '"env_diff"' "$2: json env diff"
	"$P" compare --db "$db" --campaign demo fast nope > /dev/null \
	    2> "$tmp/err"
	[ $? -eq 2 ] || fail "$2: unknown variant: status not 2"
	one_line_error "$tmp/err" "$2: unknown variant"
	has "$tmp/err" "no variant 'nope'" "$2: unknown variant"
	"$P" show --db "$db" nope > /dev/null 2> "$tmp/err"
	[ $? -eq 2 ] || fail "$2: show unknown campaign: status not 2"
	one_line_error "$tmp/err" "$2: show unknown campaign"
}

db=$tmp/a/b/perfreg.db
campaign "$db" sqlite
[ -f "$db" ] || fail "the database and its directories were not created"

# One boot a side: the run-level comparison and its warning.
for v in x y; do
	PERFREG_BOOT_ID=one "$P" run --db "$db" --campaign single --variant $v \
	    -n 3 --warmup 0 -- true > /dev/null 2>&1 || fail "single: run $v"
done
"$P" compare --db "$db" --campaign single > "$tmp/out" 2> "$tmp/err" ||
    fail "single: compare: $(cat "$tmp/err")"
has "$tmp/out" "run level" "single boot"
has "$tmp/err" "noise a reboot adds is unknown" "single boot warning"

# The multi-variant form records every variant in one session.
"$P" run --db "$db" --campaign multi -n 2 a=true b=true > /dev/null \
    2> "$tmp/err" || fail "multi: $(cat "$tmp/err")"
"$P" show --db "$db" multi > "$tmp/out" || fail "multi: show"
has "$tmp/out" "  done  *4  *0  a,b" "multi: one session, two variants"

# A tag key given twice keeps both values (show --json: [key, value]).
"$P" run --db "$db" --campaign tags --variant v -n 1 --warmup 0 --tag a=1 \
    --tag a=2 -- true > /dev/null 2>&1 || fail "tags: run"
"$P" show --db "$db" --json tags > "$tmp/out" || fail "tags: show --json"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
has "$tmp/flat" '\["a","1"\],\["a","2"\]' "tags: both values of a key"
# Run in a git work tree, a session gets git=COMMIT unless given one.
if head=$(git rev-parse --verify -q HEAD 2>/dev/null); then
	has "$tmp/flat" "\\[\"git\",\"$head\"\\]" "tags: git commit"
fi

# SIGKILL mid-session: every finished run is kept; --resume runs the rest.
PERFREG_BOOT_ID=k "$P" run --db "$db" --campaign killed --variant v -n 40 \
    --warmup 0 -- sleep 0.05 > /dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 600 ]; do
	n=$("$P" campaigns --db "$db" --json 2>/dev/null |
	    sed -n '/"killed"/,/}/s/.*"runs": \([0-9]*\).*/\1/p')
	[ -n "$n" ] && [ "$n" -ge 3 ] && break
	sleep 0.1
	i=$((i + 1))
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
before=$("$P" campaigns --db "$db" --json |
    sed -n '/"killed"/,/}/s/.*"runs": \([0-9]*\).*/\1/p')
[ -n "$before" ] && [ "$before" -ge 3 ] && [ "$before" -lt 40 ] ||
    fail "killed session: $before runs stored"
# Options other than --db go with the recorded session, not --resume.
"$P" run --db "$db" --campaign killed --resume -n 5 > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "--resume -n: status not 2"
has "$tmp/err" "'-n' does not go with it" "--resume -n"
PERFREG_BOOT_ID=k2 "$P" run --db "$db" --campaign killed --resume \
    > /dev/null 2> "$tmp/err" || fail "--resume: $(cat "$tmp/err")"
has "$tmp/err" "resuming session" "--resume says so"
after=$("$P" campaigns --db "$db" --json |
    sed -n '/"killed"/,/}/s/.*"runs": \([0-9]*\).*/\1/p')
[ "$after" = 40 ] || fail "--resume: $after runs in all, not 40"
"$P" run --db "$db" --campaign killed --resume > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "second --resume: status not 2"
has "$tmp/err" "no unfinished session" "second --resume"

# A session stopped by --max-failures can be resumed too.
"$P" run --db "$db" --campaign mf --variant v -n 3 --warmup 0 \
    --max-failures 1 -- false > /dev/null 2>&1
"$P" run --db "$db" --campaign mf --resume > /dev/null 2> "$tmp/err"
has "$tmp/err" "resuming session" "--resume after --max-failures"

# export / import: a round trip into a fresh database gives the same
# export, and importing again adds nothing.
"$P" export --db "$db" -o "$tmp/all.jsonl" || fail "export"
"$P" import --db "$tmp/copy.db" "$tmp/all.jsonl" > "$tmp/out" ||
    fail "import"
has "$tmp/out" "^imported 6 campaigns" "import counts"
"$P" export --db "$tmp/copy.db" -o "$tmp/again.jsonl" || fail "export 2"
cmp -s "$tmp/all.jsonl" "$tmp/again.jsonl" ||
    fail "export of the imported database differs"
"$P" import --db "$tmp/copy.db" "$tmp/all.jsonl" > "$tmp/out" ||
    fail "import twice"
has "$tmp/out" "0 sessions, 0 runs" "import twice adds nothing"
has "$tmp/out" "already there, left out" "import twice says why"
"$P" export --db "$db" demo > "$tmp/demo.jsonl" || fail "export demo"
grep -q '"killed"' "$tmp/demo.jsonl" && fail "export demo has other campaigns"
printf '{"format":"perfreg-export","version":1,"schema":1}\n{"type":"bogus"}\n' \
    > "$tmp/bad.jsonl"
"$P" import --db "$tmp/copy.db" "$tmp/bad.jsonl" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "bad import: status not 2"
one_line_error "$tmp/err" "bad import"
has "$tmp/err" "bad.jsonl:2" "bad import names the line"

# Databases that cannot be used: one line, status 2, nothing created.
mkdir "$tmp/dir.db"
"$P" run --db "$tmp/dir.db" --campaign c --variant v -n 1 -- true \
    > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "directory db: status not 2"
one_line_error "$tmp/err" "directory db"
head -c 8192 /dev/urandom > "$tmp/junk.db"
"$P" campaigns --db "$tmp/junk.db" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "junk db: status not 2"
one_line_error "$tmp/err" "junk db"
"$P" campaigns --db "$tmp/none.db" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "missing db: status not 2"
one_line_error "$tmp/err" "missing db"
[ -e "$tmp/none.db" ] && fail "campaigns created a database"
# The default: $PERFREG_DB, then $XDG_DATA_HOME/perfreg/perfreg.db.
XDG_DATA_HOME=$tmp/xdg "$P" run --campaign d --variant v -n 1 -- true \
    > /dev/null 2>&1 || fail "XDG default"
[ -f "$tmp/xdg/perfreg/perfreg.db" ] || fail "no db under XDG_DATA_HOME"
PERFREG_DB=$tmp/env.db "$P" run --campaign d --variant v -n 1 -- true \
    > /dev/null 2>&1 || fail "PERFREG_DB default"
[ -f "$tmp/env.db" ] || fail "PERFREG_DB not used"
# Usage errors.
"$P" run --variant v -- true > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "--variant without --campaign: status not 2"
has "$tmp/err" "go with --campaign" "--variant without --campaign"

# Names, commands and metrics an import may hold (invalid UTF-8, quotes,
# a NUL in a tag, no command): show and compare --campaign print them
# escaped, and their --json is valid JSON.
cat > "$tmp/odd.jsonl" <<'EOF'
{"format":"perfreg-export","version":1,"schema":1}
{"type":"campaign","name":{"base64":"YyJx/w=="}}
{"type":"variant","campaign":{"base64":"YyJx/w=="},"name":{"base64":"dv4x"},"command":{"base64":"ZWNobyD/"}}
{"type":"variant","campaign":{"base64":"YyJx/w=="},"name":"v2 \"q\"","command":null}
{"type":"session","key":1,"campaign":{"base64":"YyJx/w=="},"host":"h","boot_id":"b1","args":null,"status":"done","started":1700000100,"elapsed_s":1,"resumes":null,"tags":[[{"base64":"a/8="},{"base64":"YQBi"}]],"variants":[[{"base64":"dv4x"},{"base64":"ZWNobyD/"}],["v2 \"q\"",null]],"env":null}
{"type":"run","session":1,"variant":{"base64":"dv4x"},"round":0,"seq":0,"warmup":false,"ok":true,"outcome":"ok","exit_status":0,"signal":0,"reason":"","failed_in":null,"truncated":false,"start_s":0,"metrics":[["wall_s","s","lower",1.003],[{"base64":"bf8="},{"base64":"df4="},"higher",3.0]],"output":""}
{"type":"run","session":1,"variant":"v2 \"q\"","round":0,"seq":1,"warmup":false,"ok":true,"outcome":"ok","exit_status":0,"signal":0,"reason":"","failed_in":null,"truncated":false,"start_s":0,"metrics":[["wall_s","s","lower",1.503],[{"base64":"bf8="},{"base64":"df4="},"higher",3.0]],"output":""}
{"type":"run","session":1,"variant":{"base64":"dv4x"},"round":1,"seq":2,"warmup":false,"ok":true,"outcome":"ok","exit_status":0,"signal":0,"reason":"","failed_in":null,"truncated":false,"start_s":1,"metrics":[["wall_s","s","lower",1.013],[{"base64":"bf8="},{"base64":"df4="},"higher",4.0]],"output":""}
{"type":"run","session":1,"variant":"v2 \"q\"","round":1,"seq":3,"warmup":false,"ok":true,"outcome":"ok","exit_status":0,"signal":0,"reason":"","failed_in":null,"truncated":false,"start_s":1,"metrics":[["wall_s","s","lower",1.513],[{"base64":"bf8="},{"base64":"df4="},"higher",4.0]],"output":""}
{"type":"session","key":2,"campaign":{"base64":"YyJx/w=="},"host":"h","boot_id":"b2","args":null,"status":"done","started":1700000200,"elapsed_s":1,"resumes":null,"tags":[[{"base64":"a/8="},{"base64":"YQBi"}]],"variants":[[{"base64":"dv4x"},{"base64":"ZWNobyD/"}],["v2 \"q\"",null]],"env":null}
{"type":"run","session":2,"variant":{"base64":"dv4x"},"round":0,"seq":4,"warmup":false,"ok":true,"outcome":"ok","exit_status":0,"signal":0,"reason":"","failed_in":null,"truncated":false,"start_s":0,"metrics":[["wall_s","s","lower",1.006],[{"base64":"bf8="},{"base64":"df4="},"higher",4.0]],"output":""}
{"type":"run","session":2,"variant":"v2 \"q\"","round":0,"seq":5,"warmup":false,"ok":true,"outcome":"ok","exit_status":0,"signal":0,"reason":"","failed_in":null,"truncated":false,"start_s":0,"metrics":[["wall_s","s","lower",1.506],[{"base64":"bf8="},{"base64":"df4="},"higher",4.0]],"output":""}
{"type":"run","session":2,"variant":{"base64":"dv4x"},"round":1,"seq":6,"warmup":false,"ok":true,"outcome":"ok","exit_status":0,"signal":0,"reason":"","failed_in":null,"truncated":false,"start_s":1,"metrics":[["wall_s","s","lower",1.016],[{"base64":"bf8="},{"base64":"df4="},"higher",5.0]],"output":""}
{"type":"run","session":2,"variant":"v2 \"q\"","round":1,"seq":7,"warmup":false,"ok":true,"outcome":"ok","exit_status":0,"signal":0,"reason":"","failed_in":null,"truncated":false,"start_s":1,"metrics":[["wall_s","s","lower",1.516],[{"base64":"bf8="},{"base64":"df4="},"higher",5.0]],"output":""}
{"type":"end","campaigns":1,"sessions":2,"runs":8}
EOF
"$P" import --db "$tmp/odd.db" "$tmp/odd.jsonl" > /dev/null 2> "$tmp/err" ||
    fail "odd import: $(cat "$tmp/err")"
odd=$(printf 'c"q\377')
"$P" show --db "$tmp/odd.db" "$odd" > "$tmp/out" 2> "$tmp/err" ||
    fail "odd show: $(cat "$tmp/err")"
has "$tmp/out" '^  v\\xfe1  .*  echo \\xff$' "odd show: command escaped"
has "$tmp/out" '^  v2 "q"  .*  -$' "odd show: no command"
"$P" show --db "$tmp/odd.db" --json "$odd" > "$tmp/out" 2> "$tmp/err" ||
    fail "odd show --json: $(cat "$tmp/err")"
python3 -m json.tool "$tmp/out" > /dev/null || fail "odd show --json: not JSON"
has "$tmp/out" '"metric": "m\\\\xff"' "odd show --json: metric escaped"
"$P" show --db "$tmp/odd.db" --json --session 1 > "$tmp/out" \
    2> "$tmp/err" || fail "odd show --session --json: $(cat "$tmp/err")"
python3 -m json.tool "$tmp/out" > /dev/null ||
    fail "odd show --session --json: not JSON"
"$P" compare --db "$tmp/odd.db" --campaign "$odd" > "$tmp/out" \
    2> "$tmp/err" || fail "odd compare: $(cat "$tmp/err")"
has "$tmp/out" '^m\\xff ' "odd compare: metric escaped"
"$P" compare --db "$tmp/odd.db" --campaign "$odd" --json > "$tmp/out" \
    2> "$tmp/err" || fail "odd compare --json: $(cat "$tmp/err")"
python3 -m json.tool "$tmp/out" > /dev/null ||
    fail "odd compare --json: not JSON"
# An argument that is not UTF-8 is run and stored (not resumable).
"$P" run --db "$tmp/odd.db" --campaign odd2 --variant "$(printf 'v\377')" \
    -n 1 -- printf "$(printf 'x\377')" > /dev/null 2> "$tmp/err" ||
    fail "run with a non-UTF-8 argument: $(cat "$tmp/err")"
has "$tmp/err" "is not UTF-8 text: the session cannot be resumed" \
    "run with a non-UTF-8 argument"
# --variant words with quotes, blanks and backslashes run as given.
printf '#!/bin/sh\nfor a in "$@"; do printf "[%%s]" "$a"; done > "$0.out"\n' \
    > "$tmp/argv.sh"
chmod +x "$tmp/argv.sh"
"$P" run --db "$tmp/odd.db" --campaign words --variant w -n 1 --warmup 0 \
    -- "$tmp/argv.sh" "a b" "it's" 'back\slash' '"dq"' '' > /dev/null \
    2> "$tmp/err" || fail "words: $(cat "$tmp/err")"
[ "$(cat "$tmp/argv.sh.out")" = "[a b][it's][back\\slash][\"dq\"][]" ] ||
    fail "words: ran with $(cat "$tmp/argv.sh.out")"
# --resume continues in the database it found the session in, whatever
# --db it recorded, and refuses recorded arguments of another campaign
# or holding --resume.
rdb=$tmp/r1.db
"$P" run --db "$rdb" --campaign R -n 30 --warmup 0 a='sleep 0.05' \
    > /dev/null 2>&1 &
pid=$!
two_runs "$rdb"
kill -INT $pid
wait $pid
sqlite3 "$rdb" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null
mv "$rdb" "$tmp/r2.db"
for a in '["--db","r1.db","--campaign","R","--resume"]' \
    '["--campaign","OTHER","-n","2","a=true"]'; do
	sqlite3 "$tmp/r2.db" "UPDATE session SET args_json = '$a' WHERE id = 1"
	"$P" run --db "$tmp/r2.db" --campaign R --resume > /dev/null \
	    2> "$tmp/err"
	[ $? -eq 2 ] || fail "--resume with $a: status not 2"
	has "$tmp/err" "did not record the arguments" "--resume with $a"
done
sqlite3 "$tmp/r2.db" "UPDATE session SET args_json = \
    '[\"--db\",\"$rdb\",\"--campaign\",\"R\",\"-n\",\"30\",\"--warmup\",\"0\",\"a=sleep 0\"]' \
    WHERE id = 1"
PERFREG_DB=$tmp/r2.db "$P" run --campaign R --resume > /dev/null \
    2> "$tmp/err" || fail "--resume in r2.db: $(cat "$tmp/err")"
[ -e "$rdb" ] && fail "--resume went to the recorded --db"
n=$(sqlite3 "$tmp/r2.db" 'SELECT count(*) FROM run WHERE ok')
[ "$n" -eq 30 ] || fail "--resume in r2.db: $n runs, not 30"
# A missing file leaves no new database; export -o gives the file the
# mode the umask gives, as `>` does.
"$P" import --db "$tmp/new.db" "$tmp/nofile" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "import of a missing file: status not 2"
one_line_error "$tmp/err" "import of a missing file"
[ -e "$tmp/new.db" ] && fail "import of a missing file created the database"
(umask 022 && "$P" export --db "$tmp/odd.db" -o "$tmp/odd2.jsonl") ||
    fail "export -o"
[ "$(stat -c %a "$tmp/odd2.jsonl")" = 644 ] ||
    fail "export -o: mode $(stat -c %a "$tmp/odd2.jsonl"), not 644"
# Standard output that cannot be written: one line, status 3.
"$P" campaigns --db "$tmp/odd.db" --json > /dev/full 2> "$tmp/err"
[ $? -eq 3 ] || fail "campaigns --json > /dev/full: status not 3"
one_line_error "$tmp/err" "campaigns --json > /dev/full"
# Errors about the database name it.
"$P" show --db "$tmp/odd.db" nope > /dev/null 2> "$tmp/err"
has "$tmp/err" "odd.db: no campaign 'nope'" "unknown campaign names the db"
"$P" campaigns --db "$tmp/junk.db" > /dev/null 2> "$tmp/err"
has "$tmp/err" "junk.db: " "corrupt db named"

# A database locked by another writer in the middle of a session: one
# line naming it, status 2, the runs before it kept, the session left
# resumable.
ldb=$tmp/locked.db
PERFREG_DB_BUSY_MS=100 "$P" run --db "$ldb" --campaign locked --variant v \
    -n 60 --warmup 0 -- sleep 0.05 > /dev/null 2> "$tmp/lerr" &
pid=$!
two_runs "$ldb"
(printf '.timeout 10000\nBEGIN IMMEDIATE;\n'; while kill -0 $pid 2>/dev/null; do
	sleep 0.05; done) | sqlite3 "$ldb"
wait $pid
st=$?
[ $st -eq 2 ] || fail "locked db: status $st, not 2"
one_line_error "$tmp/lerr" "locked db"
has "$tmp/lerr" "locked.db: run [0-9]* could not be stored: database is locked" \
    "locked db"
n=$(sqlite3 "$ldb" 'SELECT count(*) FROM run')
[ "$n" -ge 2 ] || fail "locked db: $n runs kept"
"$P" run --db "$ldb" --campaign locked --resume > /dev/null 2> "$tmp/err" ||
    fail "resume after a lock: $(cat "$tmp/err")"
has "$tmp/err" "resuming session 1" "resume after a lock"
n=$(sqlite3 "$ldb" 'SELECT count(*) FROM run')
[ "$n" -eq 60 ] || fail "resume after a lock: $n runs in all, not 60"

if [ -z "${PERFREG_TEST_PG:-}" ] && [ "${PERFREG_REQUIRE_PG:-0}" = 1 ]; then
	fail "PERFREG_REQUIRE_PG=1 but no PostgreSQL server (PERFREG_TEST_PG)"
fi
if [ -n "${PERFREG_TEST_PG:-}" ]; then
	campaign "$PERFREG_TEST_PG" postgresql
	# SQLite -> PostgreSQL -> SQLite keeps every byte.
	"$P" import --db "$PERFREG_TEST_PG" "$tmp/demo.jsonl" > /dev/null ||
	    fail "import into postgresql"
	"$P" export --db "$PERFREG_TEST_PG" demo > "$tmp/pgdemo.jsonl" ||
	    fail "export from postgresql"
	grep -c '"type":"run"' "$tmp/pgdemo.jsonl" > "$tmp/n"
	[ "$(cat "$tmp/n")" -ge 12 ] || fail "postgresql export: $(cat "$tmp/n") runs"
	echo "cli_store: postgresql part ran"
fi

[ $fails -eq 0 ] || exit 1
echo "cli_store: ok"
