#!/bin/sh
# tests/run/cli_run.sh - perfreg run end to end, where its output is not
# deterministic enough for a golden case: the report's parts, --output
# written per run (and failing to be), --json with the raw runs, failed
# runs and their exit status, --max-failures, Ctrl-C (SIGINT), SIGTERM
# and SIGHUP giving the report of what finished with status 128 + the
# signal and no benchmark left running, commands that escape their
# process group, and stdout and stderr read apart.  No timing is
# checked.
#
# usage: cli_run.sh PERFREG PROGS_DIR
set -u
P=$1
PROGS=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

has() { # file pattern what
	grep -q -- "$2" "$1" || fail "$3: no '$2' in $(cat "$1")"
}

# Fails unless process pid is gone within 10 s (a kill is delivered
# asynchronously: this bounds a wait, it times nothing).
gone() { # pid what
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -KILL "$1"
		fail "$2: process $1 still runs"
	fi
}

# A plain session: report parts and status 0.
"$P" run -n 3 --seed 7 --output "$tmp/runs.jsonl" a=true b=true \
    > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 0 ] || fail "plain session: status $st: $(cat "$tmp/err")"
has "$tmp/out" "^baseline a: true  (3 runs ok, 0 failed)" "plain"
has "$tmp/out" "^session: 3 rounds of 3, shuffled order, seed 7" "plain"
has "$tmp/out" "^timer: CLOCK_MONOTONIC, resolution" "plain"
has "$tmp/out" "^wall_s " "plain"
has "$tmp/out" "^paired, round by round" "plain"
[ -s "$tmp/err" ] && fail "plain session wrote to stderr: $(cat "$tmp/err")"
# --output: one line per run, warm-ups included (2 + 6).
n=$(wc -l < "$tmp/runs.jsonl")
[ "$n" -eq 8 ] || fail "--output has $n lines, not 8"
has "$tmp/runs.jsonl" '"warmup":true' "--output"
has "$tmp/runs.jsonl" '"wall_s":' "--output"
# Appended, not overwritten.
"$P" run -n 1 --warmup 0 --output "$tmp/runs.jsonl" a=true > /dev/null
n=$(wc -l < "$tmp/runs.jsonl")
[ "$n" -eq 9 ] || fail "--output was not appended to: $n lines"

# --json: compare's object plus paired, session and runs.
"$P" run -n 2 --json a=true b=true > "$tmp/json" 2> "$tmp/err" ||
    fail "--json: status $?"
for key in '"metrics"' '"paired"' '"session"' '"runs"' \
    '"timer_resolution_s"' '"overhead_s"' '"seed": 1'; do
	has "$tmp/json" "$key" "--json"
done

# --markdown: the session as a list, compare's table, the paired table;
# a failed run's output is escaped (its ESC shown as ^[, never sent to a
# terminal) in text and in Markdown.
"$P" run -n 2 --markdown a=true b=true > "$tmp/md" 2> "$tmp/err" ||
    fail "--markdown: status $?"
for key in '^- baseline a: true' '^| metric | base | new' \
    '^| metric | change | 95% interval | p | pairs | note |' \
    '^| wall_s | '; do
	has "$tmp/md" "$key" "--markdown"
done
for fmt in "" --markdown; do
	"$P" run -n 1 --warmup 0 $fmt --shell a=true \
	    b='printf "x\033[2Jy\n"; exit 1' > "$tmp/esc" 2> "$tmp/err"
	[ $? -eq 2 ] || fail "escaped output $fmt: status"
	has "$tmp/esc" 'x^\[\[2Jy' "escaped output $fmt"
	if grep -q "$(printf '\033')" "$tmp/esc"; then
		fail "an ESC of a run's output reached the report $fmt"
	fi
done

# Failed runs are listed with their reason and output; a variant with no
# successful run cannot be compared: status 2.
"$P" run -n 2 a=true b="$PROGS/prog_exit3" > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 2 ] || fail "failing variant: status $st"
has "$tmp/out" "^failed: b, counted run 1: exit status 3$" "failures"
has "$tmp/out" "^    to stdout$" "failures"
has "$tmp/out" "^    to stderr$" "failures"
has "$tmp/err" "nothing to compare between 'a' and 'b'" "failures"

# --max-failures stops the session.
"$P" run -n 50 --max-failures 3 a=true b=false > "$tmp/out" 2> "$tmp/err"
has "$tmp/err" "stopped after 3 failed runs" "--max-failures"
has "$tmp/out" "stopped: max-failures" "--max-failures"

# Timeout: the run is killed and reported.
"$P" run -n 1 --warmup 0 --timeout 0.2 a=true b="$PROGS/prog_hang" \
    > "$tmp/out" 2> "$tmp/err"
has "$tmp/out" "failed: b, counted run 1: timed out after 0.2 s" "timeout"

# Ctrl-C: the running command is killed, the report covers what
# finished, status 130.  A background command of this shell starts with
# SIGINT ignored, until perfreg sets its handler: a Ctrl-C sent before
# that is lost and the session never ends.  So the signal goes once the
# command (a warm-up run of the hang program, which never finishes, so
# that no run has finished) has written that it started: perfreg's
# handler is set before its first run.  The wait is a bound, not a
# timing.
rm -f "$tmp/started"
"$P" run -n 1000 --output "$tmp/int.jsonl" --shell \
    a="touch $tmp/started; exec $PROGS/prog_hang" \
    > "$tmp/out" 2> "$tmp/err" &
pid=$!
i=0
while [ ! -e "$tmp/started" ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -e "$tmp/started" ] || {
	fail "Ctrl-C: the benchmark never started"
	kill -KILL $pid
}
kill -INT $pid
wait $pid
st=$?
[ $st -eq 130 ] || fail "Ctrl-C: status $st, not 130"
has "$tmp/err" "interrupted; the report covers the 0 runs that finished" \
    "Ctrl-C"
has "$tmp/out" "stopped: interrupted" "Ctrl-C"

# SIGTERM and SIGHUP are Ctrl-C: the running command is killed (it used
# to go on running under init), the report covers what finished, and the
# status is 128 + the signal.  The command writes its pid, then execs
# into a long sleep; perfreg gets the signal once the pid is there (a
# bounded wait, not a timing).
for sig in TERM:15 HUP:1; do
	num=${sig#*:}
	sig=${sig%:*}
	rm -f "$tmp/sleeper"
	"$P" run -n 1000 --warmup 0 --shell \
	    a="echo \$\$ > $tmp/sleeper.tmp; mv $tmp/sleeper.tmp $tmp/sleeper; exec sleep 37" \
	    > "$tmp/out" 2> "$tmp/err" &
	pid=$!
	i=0
	while [ ! -s "$tmp/sleeper" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	spid=$(cat "$tmp/sleeper" 2>/dev/null)
	kill -$sig $pid
	wait $pid
	st=$?
	want=$((128 + num))
	[ $st -eq $want ] || fail "SIG$sig: status $st, not $want"
	has "$tmp/err" "interrupted (SIG$sig); the report covers the 0 runs" \
	    "SIG$sig"
	has "$tmp/out" "stopped: interrupted" "SIG$sig"
	if [ -n "$spid" ]; then
		gone "$spid" "SIG$sig: the benchmark"
	else
		fail "SIG$sig: the benchmark never started"
	fi
done

# A command that moves itself into perfreg's process group is still
# killed at the timeout (this waited forever in wait4); timeout(1) only
# bounds a failure.
timeout 120 "$P" run -n 1 --warmup 0 --timeout 1 a="$PROGS/prog_setpgid_hang" \
    > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 124 ] && fail "setpgid escapee: perfreg hung"
[ $st -eq 2 ] || fail "setpgid escapee: status $st, not 2"
has "$tmp/out" "failed: a, counted run 1: timed out after 1 s" "setpgid"

# A grandchild that left the group (setsid) is killed after the run:
# perfreg is its subreaper.
"$P" run -n 1 --warmup 0 a="$PROGS/prog_escape $tmp/escapee" \
    > "$tmp/out" 2> "$tmp/err" || fail "escapee: status $?"
epid=$(cat "$tmp/escapee" 2>/dev/null)
if [ -z "$epid" ]; then
	fail "escapee: no pid written"
else
	gone "$epid" "escapee"
fi

# A variant all of whose runs failed is an error, alone too (it exited 0).
"$P" run -n 2 a=perfreg-test-no-such-command > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 2 ] || fail "a command that cannot run: status $st, not 2"
has "$tmp/err" "no run of 'a' succeeded" "no such command"
"$P" run -n 2 a=false > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "a command that always fails: not status 2"

# --html that cannot be written is said before anything runs (review of
# session 15, finding 10: suite measured 14 s, stored, then failed):
# one line, exit 2, the command never started; a directory is refused.
for h in "$tmp/no/such/dir/x.html" "$tmp"; do
	"$P" run -n 2 --html "$h" "a=touch $tmp/ran" > "$tmp/out" 2> "$tmp/err"
	st=$?
	[ $st -eq 2 ] || fail "--html $h: status $st, not 2"
	has "$tmp/err" "^perfreg: run: --html: cannot write $h: " "--html $h: said"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "--html $h: not one line"
	[ ! -e "$tmp/ran" ] || fail "--html $h: the command ran"
done
"$P" run -n 2 --html "$tmp/ok.html" "a=true" > "$tmp/out" 2> "$tmp/err" ||
    fail "--html ok: $(cat "$tmp/err")"
has "$tmp/ok.html" "^<!DOCTYPE html>" "--html ok: the page"
ls "$tmp" | grep -q 'ok.html.tmp' && fail "--html ok: a temporary file left"

# --output that cannot be written is a failure (it exited 0), and the
# report is still written; a name that cannot be opened is bad usage.
if [ -w /dev/full ]; then
	"$P" run -n 1 --output /dev/full a=true > "$tmp/out" 2> "$tmp/err"
	st=$?
	[ $st -eq 3 ] || fail "--output /dev/full: status $st, not 3"
	has "$tmp/err" "cannot write to /dev/full" "--output /dev/full"
	has "$tmp/out" "^baseline a: true" "--output /dev/full"
fi
"$P" run -n 1 --output '' a=true > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "--output '': not status 2"
"$P" run -n 1 --output "$tmp" a=true > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "--output DIR: not status 2"

# Standard output and standard error are read apart: a time line cut by
# a line on stdout (seed 002's pipeline by chance) is whole again.
"$P" run -n 2 --json --parse time a="$PROGS/prog_interleave" \
    > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 0 ] || fail "interleaved streams: status $st: $(cat "$tmp/err")"
has "$tmp/out" '"elapsed": 4.83' "interleaved streams"
has "$tmp/out" '"sys": 2.5' "interleaved streams"
# And seed 002's own pipeline, with the real tools.  The digest (stdout)
# is a line of its own, first, in every run's output, whatever dd and
# time wrote meanwhile.  dd's summary and time's figures both go to
# stderr, from two processes at about the same moment, and can still cut
# each other (a few runs in a hundred under load): no capture can part
# two writers of one stream, so such a run is a failed run with its
# reason, and only the other runs are required to have their figures.
if [ -x /usr/bin/time ] && command -v openssl > /dev/null &&
    command -v dd > /dev/null; then
	"$P" run -n 5 --shell --parse time --json \
	    a='dd if=/dev/zero bs=1048576 count=8 | /usr/bin/time openssl dgst -md5' \
	    > "$tmp/out" 2> "$tmp/err"
	st=$?
	[ $st -eq 0 ] || fail "seed 002 pipeline: status $st: $(cat "$tmp/err")"
	for m in elapsed user sys dd_rate; do
		has "$tmp/out" "\"$m\": " "seed 002 pipeline"
	done
	md5='MD5(stdin)= 96995b58d4cbf6aaa9041b4f00c7f6ae\n'
	if grep -o '"output": "[^"]\{0,48\}' "$tmp/out" |
	    grep -v -F "\"output\": \"$md5" | grep -q .; then
		fail "seed 002 pipeline: stdout mixed into stderr: $(cat "$tmp/out")"
	fi
fi

# --until-decided: a three-fold slower variant is decided a regression
# long before --max-runs, the report leads with the sequential decision,
# and the JSON carries it.  The metric decided is not a time: each
# command prints "t N", N from a counter file of its own (100 + k mod 5
# for a's k-th run, 300 + k mod 5 for b's), so that the values, the
# pairs of each round and hence the decision are the same on a loaded
# machine as on an idle one.
counted() { # variant base: a shell command printing the next value
	echo "k=\$(cat '$tmp/count-$1' 2>/dev/null || echo 0);" \
	    "echo \$((k + 1)) > '$tmp/count-$1'; echo \"t \$(($2 + k % 5))\""
}
until_run() { # extra options...
	rm -f "$tmp/count-a" "$tmp/count-b"
	"$P" run --until-decided --max-runs 60 --shell \
	    --metric 't=^t ([0-9]+)$:ms:lower' "$@" \
	    a="$(counted a 100)" b="$(counted b 300)"
}
until_run > "$tmp/out" 2> "$tmp/err" || fail "until-decided: status $?"
has "$tmp/out" "stopped: decided" "until-decided"
has "$tmp/out" "every primary metric decided" "until-decided"
has "$tmp/out" "^  t  *regression .* 7 rounds$" "until-decided"
# The fixed-n table of the same runs: its interval is the 95% one.
has "$tmp/out" "  95% interval " "until-decided: confidence of the table"
has "$tmp/out" \
    "^t  *101.9 +- 1.3 ms  *301.9 +- 1.3 ms  *+196%  *\[+193%, +200%\] " \
    "until-decided: the table's row of t"
# ... and so is the paired one, round by round.
has "$tmp/out" \
    "^  t  *+196.37%  95% interval \[+193.99%, +198.78%\]  p 5.31e-14  7 pairs" \
    "until-decided: the paired row of t"
until_run --json > "$tmp/out" 2> "$tmp/err" || fail "until json: $?"
has "$tmp/out" '"decision": "regression"' "until-decided json"
has "$tmp/out" '"stopped": "every primary metric decided"' "until-decided json"
has "$tmp/out" '"confidence": 0.9499999' "until-decided json: confidence"
# The robust (sign test) decision finds it too.
until_run --robust > "$tmp/out" 2> "$tmp/err" || fail "robust: status $?"
has "$tmp/out" "sequential sign test on the median" "until-decided robust"
has "$tmp/out" "^  t  *regression " "until-decided robust"
# Nothing changes: no decision can come from 3 rounds, so --max-runs
# ends it, undecided ("inconclusive"), never a regression.
"$P" run --until-decided --max-runs 3 --decide wall_s a=true b=true \
    > "$tmp/out" 2> "$tmp/err" || fail "until max-runs: status $?"
has "$tmp/out" "undecided within budget: --max-runs reached" \
    "until-decided max-runs"
has "$tmp/out" "stopped: undecided" "until-decided max-runs"
has "$tmp/out" "^  wall_s         inconclusive " "until-decided max-runs"
# --max-time: no round starts after it.
"$P" run --until-decided --max-time 0.3 a="sleep 0.05" b="sleep 0.05" \
    > "$tmp/out" 2> "$tmp/err" || fail "until max-time: status $?"
has "$tmp/out" "undecided within budget: --max-time reached" \
    "until-decided max-time"
has "$tmp/out" "stopped: undecided" "until-decided max-time"
# Usage errors.
"$P" run --until-decided a=true > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "until-decided with one variant: not status 2"
has "$tmp/err" "needs at least two variants" "until one variant"
"$P" run --until-decided -n 5 a=true b=true > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "until-decided with -n: not status 2"
"$P" run --max-runs 5 a=true b=true > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "--max-runs without --until-decided: not status 2"
"$P" run --until-decided --decide nosuch a=true b=true \
    --max-runs 3 > "$tmp/out" 2> "$tmp/err"
has "$tmp/out" "nosuch         undefined: " "until unknown metric"

# Stopping that stops (issue 11): with iperf3's many figures, the session
# stops once the primary metric, receiver_bitrate, is decided; the side
# metrics (retransmits at a constant 0, the CPU, the sender's bitrate)
# never hold it up to --max-runs.  Before, it ran all its rounds.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null)
if command -v iperf3 > /dev/null 2>&1 && [ -n "$port" ]; then
	iperf3 -s -p "$port" > "$tmp/iperf3-server" 2>&1 &
	srv=$!
	sleep 0.5
	# The server takes one client at a time and may still be closing the
	# last test when the next client comes ("the server is busy"), more
	# often on a loaded machine: each run retries until its client ran, and
	# prints only that client's output.  --max-runs leaves room for the
	# noise of a loaded machine; the check is that it stops before it.
	try="n=0; until iperf3 -c 127.0.0.1 -p $port -n 20M"
	try2="> $tmp/iperf3-run 2>&1; do n=\$((n + 1)); [ \$n -lt 50 ] || exit 1; sleep 0.1; done; cat $tmp/iperf3-run"
	"$P" run --until-decided --max-runs 40 --parse iperf3 --shell \
	    a="$try -l 128K $try2" b="$try -l 1K $try2" \
	    > "$tmp/out" 2> "$tmp/err" || fail "until iperf3: status $?"
	kill "$srv" 2>/dev/null
	wait "$srv" 2>/dev/null
	has "$tmp/out" "every primary metric decided" "until iperf3"
	has "$tmp/out" "stopped: decided" "until iperf3"
	has "$tmp/out" "^  receiver_bitrate regression " "until iperf3"
	sed -n '/^until decided/,/^note: the tables below/p' "$tmp/out" \
	    > "$tmp/until"
	has "$tmp/until" "receiver_bitrate" "until iperf3"
	grep -q "sender_retransmits\|cpu_host\|wall_s" "$tmp/until" &&
	    fail "until iperf3: a side metric was decided on: $(cat "$tmp/until")"
	grep -q "rounds of 40.*stopped: decided" "$tmp/out" ||
	    fail "until iperf3: did not stop by itself"
	has "$tmp/out" "^side metrics, a family of their own" "until iperf3"
else
	echo "cli_run: iperf3 or python3 missing, until-decided on iperf3 skipped"
fi

# A session stopped at its budget is stored "undecided", never
# "decided" (show said decided before).
"$P" run --db "$tmp/u.db" --campaign budget --until-decided --max-runs 3 \
    --decide wall_s a=true b=true > "$tmp/out" 2> "$tmp/err" ||
    fail "until stored: status $?"
"$P" show --db "$tmp/u.db" budget > "$tmp/show" 2>&1 ||
    fail "until stored: show status $?"
has "$tmp/show" "undecided" "until stored"
grep -q " decided" "$tmp/show" && fail "until stored: shown as decided"
"$P" run --until-decided --max-runs 3 --primary nosuch a=true b=true \
    > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] || fail "--primary nosuch: not status 2"
has "$tmp/err" "--primary: no metric 'nosuch'" "--primary nosuch"

[ $fails -eq 0 ] || exit 1
echo "cli_run: all passed"
