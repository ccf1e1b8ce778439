#!/bin/sh
# tests/probes/cli_suite.sh - perfreg suite end to end with small budgets:
# `suite list`, `suite run` storing a session and comparing the next one
# with it (verdict table and environment diff), --json, --no-store,
# `suite ab` by variant and by size, Ctrl-C (130, what finished stored),
# and one-line errors for unknown probes and variants.  No timing is
# checked: only that the figures are there with their units.
#
# usage: cli_suite.sh PERFREG
set -u
P=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
db=$tmp/s.db
unset PERFREG_DB XDG_DATA_HOME

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

has() { # file pattern what
	grep -q -- "$2" "$1" || fail "$3: no '$2' in $(cat "$1")"
}

# Like has, on the text with its lines joined (sentences are wrapped at
# 100 columns).
hasf() { # file pattern what
	tr '\n' ' ' < "$1" | tr -s ' ' > "$1.flat"
	grep -q -- "$2" "$1.flat" || fail "$3: no '$2' in $(cat "$1")"
}

# The sessions FIRST..LAST of database DB a plan keeps (NEW the session
# compared, FIRST..NEW the sessions of the two configurations), space
# separated: not those whose own stability check called a figure (the
# tags regressions= and improvements= above 0), nor those starved of CPU
# (the tag pace= above 4 times the low median of its peers' paces, the
# other sessions of FIRST..NEW, or above 8 whatever they are:
# pr_suite_left_out).  A real session on a noisy machine may be called
# (the CI of stop 30: session 3 called one improvement,
# syscall.clock_gettime) or starved (a loaded one: paces of 9 to 11), and
# is then left out, as it should be: what the real sessions below are
# compared with is read from the store, not assumed.
kept() { # db first last new
	sqlite3 -separator ' ' "$1" "SELECT s.id,
	    coalesce((SELECT CAST(value AS REAL) FROM tag t WHERE t.session_id = s.id
	        AND t.key = 'pace'), 0),
	    coalesce((SELECT sum(CAST(value AS INTEGER)) FROM tag t WHERE t.session_id = s.id
	        AND t.key IN ('regressions', 'improvements')), 0)
	    FROM session s WHERE s.id BETWEEN $2 AND $4 ORDER BY s.id" |
	awk -v last="$3" '{ id[NR] = $1; pace[NR] = $2; calls[NR] = $3; n = NR }
	    END {
		for (i = 1; i <= n; i++) {
			if (id[i] > last || calls[i] > 0)
				continue
			m = 0
			for (j = 1; j <= n; j++)
				if (j != i && pace[j] > 0)
					v[++m] = pace[j]
			for (a = 2; a <= m; a++)
				for (b = a; b > 1 && v[b - 1] > v[b]; b--) {
					t = v[b]; v[b] = v[b - 1]; v[b - 1] = t
				}
			med = m > 0 ? v[int((m + 1) / 2)] : 0
			lim = med > 0 && 4 * med < 8 ? 4 * med : 8
			if (pace[i] > 0 && pace[i] > lim)
				continue
			printf "%s ", id[i]
		} }'
}

# The words a report names sessions IDS... by: "session 4", "3 sessions,
# 1 to 3" (consecutive, or more than 4), "sessions 1, 3, 4".
names() { # ids...
	awk -v ids="$*" 'BEGIN { n = split(ids, v, " "); gaps = 0
		for (i = 2; i <= n; i++) gaps += v[i] != v[i - 1] + 1
		if (n == 1) print "session " v[1]
		else if (!gaps || n > 4) print n " sessions, " v[1] " to " v[n]
		else { s = "sessions " v[1]; for (i = 2; i <= n; i++) s = s ", " v[i]; print s } }'
}

# A stand-in worker, $tmp/iworker (tests/probes/stand_in.sh: block F G).
. "$(dirname "$0")/stand_in.sh"

# Every line at most 100 columns.
narrow() { # file what
	awk 'length($0) > 100 { print FILENAME ":" NR ": " length($0) ": " $0; bad = 1 }
	    END { exit bad }' "$1" >&2 || fail "$2: lines wider than 100 columns"
}

"$P" suite list > "$tmp/out" || fail "suite list: status $?"
for p in copy crypto pipe-digest handoff random syscall fault tcp; do
	has "$tmp/out" "^$p " "suite list names $p"
done

# A first session is the baseline; the next is compared with it.
"$P" suite run syscall --quick --budget 2 --db "$db" > "$tmp/out" \
    2> "$tmp/err" || fail "first suite run: $(cat "$tmp/err")"
has "$tmp/out" "^timers: each probe names its own; resolution of CLOCK_MONOTONIC" "timers named"
has "$tmp/out" "syscall.getppid .* ns/call" "getppid figure with unit"
has "$tmp/out" "(lower is better)" "direction"
hasf "$tmp/out" "the first quick suite session of configuration [0-9a-f]\{8\} on this host" \
    "first session is the baseline of its kind"
hasf "$tmp/out" "run \`perfreg suite --quick\` again" "the hint names --quick"
head -1 "$tmp/out" | grep -q "^stored as session 1, the first quick suite session" ||
    fail "the first session: what it is comes first: $(head -1 "$tmp/out")"
narrow "$tmp/out" "first session"
# The first session's paragraph and the timers are apart.
awk '/^timers:/ { exit prev != "" } { prev = $0 }' "$tmp/out" ||
    fail "first session: no blank line before 'timers:': $(cat "$tmp/out")"
"$P" suite run syscall --quick --budget 2 --db "$db" --all > "$tmp/out" \
    2> "$tmp/err" || fail "second suite run: $(cat "$tmp/err")"
# What each real session is compared with is read from the store (kept,
# above): session 1 starved of CPU leaves session 2 nothing to compare.
if [ -n "$(kept "$db" 1 1 2)" ]; then
	hasf "$tmp/out" "^[^ ]* figures*: .* stability check: nothing in the environment changed (configuration [0-9a-f]*): session 2 against this configuration's earlier --quick sessions (session 1); the unit is the session" \
	    "stability check, compared with session 1, after the summary"
	head -1 "$tmp/out" | grep -q "^2 figures: [0-9]* regressions*, [0-9]* improvements*, [0-9]* unchanged (within 1%), [0-9]* inconclusive$" ||
	    fail "the summary line first: $(head -1 "$tmp/out")"
	hasf "$tmp/out" "method: the between-session noise cannot be estimated (one session a side, or too few figures to learn it from): each figure's log ratio against a bound" \
	    "one session a side: the bound decides, and the method says so"
	hasf "$tmp/out" "note: the between-session noise cannot be estimated (one session a side, .*: all 2 figures" \
	    "the note of one session a side, said once"
	has "$tmp/out" "^syscall$" "the group's heading"
	has "$tmp/out" "^  getppid .*ns/call" "verdict row"
	narrow "$tmp/out" "second session, --all"
	has "$tmp/out" "^environment: unchanged since session 1: no item that moves performance differs" \
	    "environment unchanged"
else
	hasf "$tmp/out" "stored as session 2; not compared: every earlier --quick session it could be compared with was starved of CPU and left out: session 1 (pace" \
	    "session 1 starved: said"
fi
"$P" suite run syscall --quick --budget 2 --db "$db" --json > "$tmp/out" \
    2> "$tmp/err" || fail "suite --json: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/json3"
for key in '"probes"' '"session": 3' '"unit": "ns/call"' '"better": "lower"' \
    '"figure": "best"'; do
	has "$tmp/out" "$key" "suite --json"
done
k3=$(kept "$db" 1 2 3)
if [ -n "$k3" ]; then
	for key in "\"baseline\": $(echo $k3 | awk '{ print $NF }')" '"comparison"' \
	    '"env_diff"'; do
		has "$tmp/out" "$key" "suite --json"
	done
	has "$tmp/json3" '"new_file": "session 3"' "third session: json"
	has "$tmp/json3" '"line": "2 figures: ' "third session: json summary"
fi
# From the third session on, sessions are the unit.  The base is
# sessions 1 to 3 but those their own check called (kept, above).
"$P" suite run syscall --quick --budget 2 --db "$db" --all > "$tmp/out" \
    2> "$tmp/err" || fail "fourth suite run: $(cat "$tmp/err")"
k4=$(kept "$db" 1 3 4)
if [ -z "$k4" ]; then
	hasf "$tmp/out" "stored as session 4; not compared: every earlier --quick session it could be compared with was" \
	    "every earlier session left out: said"
else
	b4=$(names $k4)
	hasf "$tmp/out" "session 4 against this configuration's earlier --quick sessions ($b4); the unit is the session" \
	    "session-level comparison"
	hasf "$tmp/out" "base is $b4, new is session 4" "one value a session"
fi
for s in 1 2 3; do
	case " $k4 " in
	*" $s "*) ;;
	*) hasf "$tmp/out" "session $s \(left out: it called [0-9]* [a-z]* against its base\|(pace [0-9.]* wall s a CPU s, above\)" \
	    "session $s, called by its own check or starved, left out and said" ;;
	esac
done
if [ -z "$k4" ]; then
	:
elif [ "$(echo $k4 | wc -w)" -ge 2 ]; then
	hasf "$tmp/out" "method: the moderated t of Smyth (2004), as limma computes it, on the log session means" \
	    "two sessions and more: the moderated t"
	hasf "$tmp/out" "p adjusted by Benjamini-Hochberg over 2 figures" "BH, named"
else
	hasf "$tmp/out" "method: the between-session noise cannot be estimated (one session a side" \
	    "one base session left: the bound"
fi
"$P" show --db "$db" suite > "$tmp/out" || fail "show suite"
has "$tmp/out" "^  syscall  *4  *1 " "suite sessions stored as campaign suite"
has "$tmp/out" "suite=quick" "suite sessions tagged"
# compare --campaign suite: a variant per probe, refused in one line
# that points to suite history (review of session 15, finding 14).
"$P" compare --campaign suite --db "$db" > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 2 ] || fail "compare --campaign suite: status $st, not 2"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "compare --campaign suite: not one line: $(cat "$tmp/err")"
has "$tmp/err" "^perfreg: compare: campaign 'suite' holds perfreg suite's sessions, a variant per probe: \`perfreg suite history\` lists them" \
    "compare --campaign suite: said"
# --baseline picks a session; a missing one is an error.
"$P" suite run syscall --quick --budget 1 --db "$db" --baseline 1 \
    > "$tmp/out" 2>&1 || fail "--baseline 1"
hasf "$tmp/out" "against the --baseline, session 1 " "--baseline 1"
n0=$(sqlite3 "$db" 'SELECT count(*) FROM session')
"$P" suite run syscall --quick --budget 1 --db "$db" --baseline 99 \
    > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "--baseline 99: status not 2"
has "$tmp/err" "no suite session, configuration or tag '99'" "--baseline 99"
# ... said before the probes run: no session stored.
[ "$(sqlite3 "$db" 'SELECT count(*) FROM session')" = "$n0" ] ||
    fail "--baseline 99 stored a session"

# Configurations: a change of kernel (a snapshot given by
# PERFREG_SUITE_ENV) compares this configuration's sessions with the
# previous configuration's, never a mix, and ends with the diff.
"$P" env --json > "$tmp/env1" || fail "env --json"
awk '/"key": "kernel.release"/ { f = 1 }
    f && /"value"/ { sub(/"value": "[^"]*"/, "\"value\": \"9.9.9-test\""); f = 0 }
    { print }' "$tmp/env1" > "$tmp/env2"
has "$tmp/env2" "9.9.9-test" "the changed snapshot"
block 1 1
cdb=$tmp/c.db
for i in 1 2; do
	PERFREG_SUITE_ENV=$tmp/env1 PERFREG_SUITE_WORKER=$tmp/iworker "$P" suite run syscall --quick --processes 1 \
	    --db "$cdb" > /dev/null 2> "$tmp/err" || fail "config 1: $(cat "$tmp/err")"
done
PERFREG_SUITE_ENV=$tmp/env2 PERFREG_SUITE_WORKER=$tmp/iworker "$P" suite run syscall --quick --processes 1 \
    --db "$cdb" > "$tmp/out" 2> "$tmp/err" || fail "config 2: $(cat "$tmp/err")"
hasf "$tmp/out" "the configuration changed: configuration [0-9a-f]* (session 3) against the previous configuration, [0-9a-f]* (2 sessions, 1 to 2), --quick sessions only" \
    "a change of configuration, against the previous configuration"
has "$tmp/out" "kernel.release .*-> 9.9.9-test" "the diff names the kernel"
# For a person: the summary first, then what is compared, the method,
# then the environment diff; every line within 100 columns.
head -1 "$tmp/out" | grep -q "^2 figures: " ||
    fail "config change: the summary line first: $(head -1 "$tmp/out")"
awk '/^the configuration changed/ { c = NR } /^method: / { m = NR }
    /^environment: what differs/ { e = NR }
    END { exit !(c > 1 && e > c && (m == 0 || (m > c && e > m))) }' "$tmp/out" ||
    fail "config change: summary, plan, method, environment out of order: $(cat "$tmp/out")"
narrow "$tmp/out" "config change"
PERFREG_SUITE_ENV=$tmp/env2 PERFREG_SUITE_WORKER=$tmp/iworker "$P" suite run syscall --quick --processes 1 \
    --db "$cdb" --json > "$tmp/out" 2> "$tmp/err" || fail "config 2 again: $(cat "$tmp/err")"
has "$tmp/out" '"kind": "change"' "the second session after the change"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
has "$tmp/flat" '"base_sessions":\[1,2\],"new_sessions":\[3,4\]' \
    "both of this configuration against both of the previous one"
# A full session after quick ones is the first of its own series.
PERFREG_SUITE_ENV=$tmp/env2 PERFREG_SUITE_WORKER=$tmp/iworker "$P" suite run syscall --processes 1 --db "$cdb" \
    > "$tmp/out" 2> "$tmp/err" || fail "full: $(cat "$tmp/err")"
hasf "$tmp/out" "the first full suite session of configuration" "full after quick"
hasf "$tmp/out" "the 4 --quick sessions are a series of their own" "series kept apart"
grep -q "baseline of this host" "$tmp/out" && fail "full calls itself the baseline of this host"
# suite history lists configurations with their sessions.
"$P" suite history --db "$cdb" > "$tmp/out" 2> "$tmp/err" || fail "history: $(cat "$tmp/err")"
has "$tmp/out" "^configuration [0-9a-f]*, quick sessions of .*: 1 2$" "history: first configuration"
has "$tmp/out" "^configuration [0-9a-f]*, quick sessions of .*: 3 4$" "history: second configuration"
has "$tmp/out" "^  changed since session 2: kernel.release$" "history: what changed"
has "$tmp/out" "^configuration [0-9a-f]*, full sessions of .*: 5$" "history: full series"
"$P" suite history --db "$cdb" --json > "$tmp/out" || fail "history --json"
has "$tmp/out" '"changed": "kernel.release"' "history --json"
# --baseline by configuration and by tag.
"$P" suite history --db "$cdb" > "$tmp/hist"
c1=$(sed -n 's/^configuration \([0-9a-f]*\), quick sessions of .*: 1 2$/\1/p' "$tmp/hist")
PERFREG_SUITE_ENV=$tmp/env2 PERFREG_SUITE_WORKER=$tmp/iworker "$P" suite run syscall --quick --processes 1 \
    --db "$cdb" --baseline "$c1" > "$tmp/out" 2> "$tmp/err" ||
    fail "--baseline CONFIG: $(cat "$tmp/err")"
hasf "$tmp/out" "against the --baseline, 2 sessions, 1 to 2 (configuration $c1)" \
    "--baseline CONFIG"
PERFREG_SUITE_ENV=$tmp/env2 PERFREG_SUITE_WORKER=$tmp/iworker "$P" suite run syscall --quick --processes 1 \
    --db "$cdb" --baseline suite=full > "$tmp/out" 2> "$tmp/err" ||
    fail "--baseline TAG: $(cat "$tmp/err")"
hasf "$tmp/out" "against the --baseline, session 5 " "--baseline TAG"

# --markdown: the comparison as a Markdown table, for a bug report.
fdb=$tmp/formats.db
fsuite() {
	PERFREG_SUITE_WORKER=$tmp/iworker "$P" suite run syscall --quick \
	    --processes 1 --db "$fdb" "$@"
}
block 1 1.01
fsuite > /dev/null 2> "$tmp/err" || fail "formats: first session: $(cat "$tmp/err")"
block 1.01 1
fsuite --markdown --all \
    > "$tmp/out" 2> "$tmp/err" || fail "--markdown: $(cat "$tmp/err")"
has "$tmp/out" "^| figure | base | new | unit | change |" "--markdown table"
has "$tmp/out" "^\*\*[0-9]* figures: " "--markdown: the summary first, in bold"
has "$tmp/out" "^| syscall.getppid | " "--markdown row"
# --csv: every figure, one line each after the header.
fsuite --csv \
    > "$tmp/out" 2> "$tmp/err" || fail "--csv: $(cat "$tmp/err")"
has "$tmp/out" "^metric," "--csv header"
has "$tmp/out" "^syscall.getppid," "--csv row"
# --html: the page, the text report as well (or instead with -).
fsuite --html "$tmp/s.html" \
    > "$tmp/out" 2> "$tmp/err" || fail "--html: $(cat "$tmp/err")"
has "$tmp/s.html" "class=\"panel\"" "--html: a panel per figure"
has "$tmp/s.html" "syscall.getppid" "--html: the figure named"
head -1 "$tmp/out" | grep -q "^[0-9]* figures: " || fail "--html: the text report too"
fsuite --html - \
    > "$tmp/out" 2> "$tmp/err" || fail "--html -: $(cat "$tmp/err")"
has "$tmp/out" "^<!DOCTYPE html>" "--html -: the page on standard output"
grep -q "^[0-9]* figures: " "$tmp/out" && fail "--html -: the text report as well"

# Budgets: one that the probes' floor cannot meet is said at the start;
# every run says where its time went.  (No time is checked.)
"$P" suite run syscall fault --quick --budget 1 --no-store > "$tmp/out" \
    2> "$tmp/err" || fail "budget 1: $(cat "$tmp/err")"
has "$tmp/err" "^perfreg: suite: note: a budget of 1 s cannot be held: 2 probes take about" \
    "a budget below the floor"
has "$tmp/out" "^time: [0-9.]* s of the 1 s budget: the probes [0-9.]* s, set-up, storing and comparing" \
    "the time line"
"$P" suite run syscall --quick --budget 3 --no-store --json > "$tmp/out" \
    2> "$tmp/err" || fail "budget 3: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "a budget that can be held: $(cat "$tmp/err")"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
has "$tmp/flat" '"timing":{"budget_s":3.0,"probes_s":[0-9.e+-]*,"total_s":[0-9.e+-]*,"over":\(true\|false\),"processes":[0-9]*,"stopped":false,"reserve_s":[0-9.e+-]*,"pace":[0-9.e+-]*,"store_cpu_s":[0-9.e+-]*}' \
    "timing in --json"

# --no-store: no database anywhere.
HOME=$tmp/home "$P" suite run syscall --quick --budget 1 --no-store \
    > "$tmp/out" 2>&1 || fail "--no-store: $(cat "$tmp/out")"
[ -e "$tmp/home" ] && fail "--no-store created $tmp/home"

# suite ab: by variant and by size.
"$P" suite ab syscall --a getppid --b clock_gettime -n 3 --quick --all \
    > "$tmp/out" 2> "$tmp/err" || fail "suite ab syscall: $(cat "$tmp/err")"
hasf "$tmp/out" "syscall, B against A: 10 processes, each 3 rounds of A and B interleaved" \
    "suite ab header"
hasf "$tmp/out" "the geometric means of each side's process bests (the smallest time, the largest throughput); change" \
    "suite ab: one value a process, its best sample (syscall's rule)"
has "$tmp/out" "^syscall  " "suite ab row without the variant in its name"
narrow "$tmp/out" "suite ab"
# The process is the unit: --processes of them, each a fresh perfreg
# whose samples come back as lines of its own.
"$P" suite ab syscall --a getppid --b clock_gettime -n 2 --processes 3 \
    --quick --json > "$tmp/out" 2> "$tmp/err" || fail "suite ab --processes: $(cat "$tmp/err")"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
has "$tmp/flat" '"base":{"n":3,' "suite ab --processes 3: three values a side"
# One figure: the prior of the moderated t needs two, so Welch's t on the
# process means decides it, not the one-session bound.
has "$tmp/flat" '"method":"welch"' "suite ab, one figure: Welch's t"
grep -q 'session-bound' "$tmp/flat" && fail "suite ab, one figure: decided by the bound"
"$P" suite ab syscall --a getppid --b clock_gettime -n 2 --worker \
    > "$tmp/out" 2> "$tmp/err" || fail "suite ab --worker: $(cat "$tmp/err")"
has "$tmp/out" "^R	A	syscall	2	" "worker's result A"
has "$tmp/out" "^R	B	syscall	2	" "worker's result B"
has "$tmp/out" "^M	syscall	ns/call	lower	[0-9.e+-]* [0-9.e+-]*$" "worker's figure"
# suite ab takes each process's figure by the probe's rule, as the suite
# does: a stand-in worker hands back syscall's samples 100 and 300 ns on
# side A and 110 and 500 on B in every process; syscall is a best-sample
# probe, so the values are 100 and 110, not the means 200 and 305.
printf 'R\tA\tsyscall\t2\t0.01\t0\t0\t0\t0.001\t0\t0.01\nM\tsyscall\tns/call\tlower\t100 300\nE\nR\tB\tsyscall\t2\t0.01\t0\t0\t0\t0.001\t0\t0.01\nM\tsyscall\tns/call\tlower\t110 500\nE\n' \
    > "$tmp/abblock"
printf '#!/bin/sh\ncat "%s"\n' "$tmp/abblock" > "$tmp/abworker"
chmod +x "$tmp/abworker"
PERFREG_SUITE_WORKER=$tmp/abworker "$P" suite ab syscall --a getppid \
    --b getppid -n 2 --processes 3 --json > "$tmp/out" 2> "$tmp/err" ||
    fail "suite ab, stand-in worker: $(cat "$tmp/err")"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
hasf "$tmp/flat" '"base":{"n":3,"mean":100.0,' "suite ab: a best-sample probe's process value is its best"
hasf "$tmp/flat" '"new":{"n":3,"mean":110.0,"median":110.0,"stddev":0.0,' "suite ab: B's process values are its bests"
# The suite's worker: its results whole, the process index nowhere yet.
"$P" suite run --worker --share 0.5 --quick -- syscall fault > "$tmp/out" \
    2> "$tmp/err" || fail "suite run --worker: $(cat "$tmp/err")"
has "$tmp/out" "^R	syscall	syscall	[0-9]*	" "suite worker: syscall's result"
has "$tmp/out" "^R	fault	fault	[0-9]*	" "suite worker: fault's result"
has "$tmp/out" "^M	fault.4k	ns/page	lower	" "suite worker: a figure"
# The main suite in processes: each a unit, stored as its round.
pdb=$tmp/p.db
"$P" suite run syscall --quick --budget 8 --processes 3 --db "$pdb" --json \
    > "$tmp/out" 2> "$tmp/err" || fail "suite --processes 3: $(cat "$tmp/err")"
has "$tmp/out" '"processes": 3' "suite --processes 3: three processes"
[ "$(sqlite3 "$pdb" 'SELECT count(DISTINCT round) FROM run')" = 3 ] ||
    fail "suite --processes 3: rounds $(sqlite3 "$pdb" 'SELECT DISTINCT round FROM run')"
"$P" suite run syscall --quick --budget 8 --processes 3 --db "$pdb" --all \
    > "$tmp/out" 2> "$tmp/err" || fail "suite --processes 3 again: $(cat "$tmp/err")"
hasf "$tmp/out" "each figure is the mean of its process values (the process the unit; each process its mean, or its best sample where the probe's line says so)" \
    "processes: the timers line says the unit"
hasf "$tmp/out" "syscall: [0-9]* samples in [0-9.]* s, .*, in 3 processes, each process its best sample" \
    "processes: the probe line says syscall's rule"
hasf "$tmp/out" "syscall: [0-9]* samples in [0-9.]* s, .*, in 3 processes" \
    "processes: the probe line says how many"
# A budget that holds one process only: said on the time line.
"$P" suite run syscall fault --budget 2 --no-store > "$tmp/out" 2> "$tmp/err" ||
    fail "suite, budget of one process: $(cat "$tmp/err")"
hasf "$tmp/out" "one process, not 4: the budget holds no more" "one process: said"
"$P" suite ab syscall --a getppid --b clock_gettime --processes 1 \
    > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "suite ab --processes 1: status not 2"
"$P" suite ab random --a 16 --b 64 -n 2 --quick --all > "$tmp/out" \
    2> "$tmp/err" || fail "suite ab random sizes: $(cat "$tmp/err")"
has "$tmp/out" "^random$" "suite ab by size: the group"
has "$tmp/out" "^  getrandom " "suite ab by size drops the size"
"$P" suite ab syscall --a getppid --b nope -n 2 > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "suite ab unknown variant: status not 2"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "suite ab unknown: $(cat "$tmp/err")"

# Errors.
"$P" suite run nope --db "$db" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "unknown probe: status not 2"
has "$tmp/err" "no probe 'nope'" "unknown probe"
"$P" suite --a x > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || fail "--a without ab: status not 2"

# A database locked by another writer when the suite stores its session:
# one line naming it, status 2, nothing of the session stored.
before=$(sqlite3 "$db" 'SELECT count(*) FROM session')
PERFREG_DB_BUSY_MS=100 "$P" suite run syscall --quick --budget 1 --db "$db" \
    > /dev/null 2> "$tmp/err" &
pid=$!
(printf 'BEGIN IMMEDIATE;\n'; while kill -0 $pid 2>/dev/null; do
	sleep 0.05; done) | sqlite3 -cmd ".timeout 10000" "$db"
wait $pid
st=$?
[ $st -eq 2 ] || fail "locked db: status $st, not 2"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "locked db: $(cat "$tmp/err")"
has "$tmp/err" "cannot store the session: .*: database is locked" "locked db"
after=$(sqlite3 "$db" 'SELECT count(*) FROM session')
[ "$before" = "$after" ] || fail "locked db: sessions $before -> $after"

# A database another writer holds locked before the probes run: said
# at once, in one line, status 2, and nothing measured (review of session
# 15: a full suite's 8 minutes measured, then thrown away).
# The writer says when it holds its lock (a file) and holds it until the
# marker goes.
: > "$tmp/hold"
sqlite3 -cmd ".timeout 10000" "$db" "BEGIN IMMEDIATE; SELECT 1;" \
    ".shell touch '$tmp/locked'" \
    ".shell while [ -f '$tmp/hold' ]; do sleep 0.1; done" "COMMIT;" \
    > /dev/null 2>&1 &
holder=$!
i=0
while [ $i -lt 300 ] && [ ! -f "$tmp/locked" ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -f "$tmp/locked" ] || fail "the lock holder did not start"
before=$(sqlite3 "$db" 'SELECT count(*) FROM session')
PERFREG_DB_BUSY_MS=100 "$P" suite run syscall --quick --budget 1 \
    --db "$db" > "$tmp/out" 2> "$tmp/err"
st=$?
rm -f "$tmp/hold"
wait $holder
[ $st -eq 2 ] || fail "locked before: status $st, not 2"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "locked before: not one line: $(cat "$tmp/err")"
has "$tmp/err" "^perfreg: suite: cannot store the session: .*: database is locked by another writer (waited 100 ms); nothing measured$" \
    "locked before: said, nothing measured"
[ -s "$tmp/out" ] && fail "locked before: something measured: $(cat "$tmp/out")"
after=$(sqlite3 "$db" 'SELECT count(*) FROM session')
[ "$before" = "$after" ] || fail "locked before: sessions $before -> $after"

# Ctrl-C: status 130, the session is stored as interrupted.  A
# background command of sh starts with SIGINT ignored until perfreg sets
# its handler, which it does before its first worker starts: the signal
# is sent once a worker runs (review of session 16, finding 2: a fixed
# 2 s could come first on a loaded machine, and the suite then ran its
# 60 s budget and exited 0).
"$P" suite run syscall fault --target 0 --budget 60 --db "$db" \
    > "$tmp/out" 2>&1 &
pid=$!
i=0
has_child() { # pid: 0 when a process whose parent it is runs
	for f in /proc/[0-9]*/stat; do
		read -r _ _ _ pp _ < "$f" 2> /dev/null && [ "$pp" = "$1" ] &&
		    return 0
	done
	return 1
}
while [ $i -lt 600 ] && ! has_child $pid; do
	sleep 0.1
	i=$((i + 1))
done
has_child $pid || fail "interrupted suite: no worker after 60 s"
sleep 1
kill -INT $pid
wait $pid
st=$?
[ $st -eq 130 ] || fail "interrupted suite: status $st, not 130"
"$P" show --db "$db" suite > "$tmp/out" || fail "show after Ctrl-C"
has "$tmp/out" "interrupted" "interrupted session stored"

# A worker that runs late (issue 16, budgets that hold): a stand-in for
# perfreg's worker (PERFREG_SUITE_WORKER) hands back a real syscall
# result that says its floor took 100 s, then hangs.  The parent says it
# is late as soon as that result comes (fault, not measured yet, counts
# as the mean floor: 100 s more against a budget of 3), stops it at the
# bound, keeps syscall and says that fault's samples are lost; the
# session is stored with syscall's samples.  Nothing here depends on how
# long anything takes but the stand-in's start.
"$P" suite run --worker --share 0.3 --quick -- syscall > "$tmp/block" \
    2> "$tmp/err" || fail "worker for the slow stand-in: $(cat "$tmp/err")"
awk -F '\t' 'BEGIN { OFS = "\t" } $1 == "R" { $10 = 100 } { print }' \
    "$tmp/block" > "$tmp/block100"
printf '#!/bin/sh\ncat "%s"\nexec sleep 60\n' "$tmp/block100" > "$tmp/slow"
chmod +x "$tmp/slow"
sdb=$tmp/slow.db
PERFREG_SUITE_WORKER=$tmp/slow "$P" suite run syscall fault --quick \
    --budget 3 --processes 1 --db "$sdb" --all > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 0 ] || fail "slow worker: status $st: $(cat "$tmp/err")"
hasf "$tmp/err" "^perfreg: suite: note: running late: process 1 of 1 needs about [0-9.]* s more at the least" \
    "slow worker: late, said"
hasf "$tmp/err" "it will be stopped [0-9.]* s after the start (the budget and its margin, less storing and comparing), its unfinished probe lost" \
    "slow worker: the bound, told"
hasf "$tmp/err" "perfreg: suite: note: process 1 of 1 stopped [0-9.]* s after the start, at the budget's bound: 1 of its 2 probes kept (fault's samples in it lost)" \
    "slow worker: stopped, what is lost said"
hasf "$tmp/out" "process 1 stopped at the budget's bound" "slow worker: the time line"
hasf "$tmp/out" "fault: not run here: the suite was stopped at its budget's bound before it" \
    "slow worker: fault not run"
has "$tmp/out" "syscall.getppid" "slow worker: syscall kept"
n=$(sqlite3 "$sdb" "SELECT count(*) FROM run") || fail "slow worker: no database"
[ "${n:-0}" -gt 0 ] || fail "slow worker: nothing stored"
# A regression that comes back is called (review of session 15, finding
# 2): a stand-in worker hands back syscall's two figures, 8 samples each,
# the same in every session but for a factor: A, A, A, then B (10 times
# slower: called), A, and C (9 times slower).  B is an incident, not the
# baseline: session 5 and C are compared with the A sessions alone, the
# sentence that says what is compared says so, --json's plan too, and C
# fails the gate.
idb=$tmp/incident.db
isuite() {
	PERFREG_SUITE_WORKER=$tmp/iworker "$P" suite run syscall --quick \
	    --processes 1 --db "$idb" --fail-on-regression "$@" > "$tmp/out" 2> "$tmp/err"
}
for f in "1 1" "1.02 0.98" "0.99 1.01"; do
	block $f
	isuite || fail "incident: an A session: status $?: $(cat "$tmp/err")"
done
block 10 10
isuite
st=$?
[ $st -eq 1 ] || fail "incident: B: status $st, not 1"
head -1 "$tmp/out" | grep -q "^2 figures: 2 regressions" ||
    fail "incident: B not called: $(head -1 "$tmp/out")"
[ "$(sqlite3 "$idb" "SELECT value FROM tag WHERE session_id = 4 AND key = 'regressions'")" = 2 ] ||
    fail "incident: B's calls not stored: $(sqlite3 "$idb" "SELECT key, value FROM tag WHERE session_id = 4")"
block 1.01 1.02
isuite || fail "incident: A after B: status $?: $(cat "$tmp/out")"
hasf "$tmp/out" "session 5 against this configuration's earlier --quick sessions (3 sessions, 1 to 3); the unit is the session; session 4 left out: it called 2 regressions against its base" \
    "incident: A after B: compared with 1 to 3, B left out and said"
block 9 9
isuite --json
st=$?
[ $st -eq 1 ] || fail "incident: C passed the gate: status $st: $(cat "$tmp/out")"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
hasf "$tmp/flat" '"base_sessions":\[1,2,3,5\],"new_sessions":\[6\],"left_out":\[{"session":4,"reason":"called","pace":[0-9.e+-]*,"peers_median":null,"limit":null,"regressions":2,"improvements":0}\]' \
    "incident: C: the plan leaves B out, with its reason"
hasf "$tmp/flat" '"line":"2figures:2regressions' "incident: C called"
# A lock another writer takes while the probes run (a stand-in worker
# takes it, then hands back its samples): the session cannot be stored,
# said in one line, status 2, nothing of it stored, and the figures
# measured are still shown.  Waited for as the user chose
# ($PERFREG_DB_BUSY_MS); without it at least the default 5 s, so that a
# writer that lets go within them leaves the session stored.
ldb=$tmp/lock.db
block 1 1
PERFREG_SUITE_WORKER=$tmp/iworker "$P" suite run syscall --quick --processes 1 \
    --db "$ldb" > /dev/null 2> "$tmp/err" || fail "lock: first session: $(cat "$tmp/err")"
{
	echo '#!/bin/sh'
	echo "[ -f '$tmp/locked' ] || {"
	echo "	setsid sqlite3 -cmd '.timeout 10000' '$ldb' 'BEGIN IMMEDIATE; SELECT 1;' \\"
	echo "	    \".shell touch '$tmp/locked'\" \\"
	echo "	    \".shell while [ -f '$tmp/hold' ]; do sleep 0.1; done\" 'COMMIT;' \\"
	echo "	    > /dev/null 2>&1 < /dev/null &"
	echo "	while [ ! -f '$tmp/locked' ]; do sleep 0.1; done"
	echo "}"
	echo "cat '$tmp/iblock'"
} > "$tmp/lworker"
chmod +x "$tmp/lworker"
: > "$tmp/hold"
rm -f "$tmp/locked"
PERFREG_DB_BUSY_MS=100 PERFREG_SUITE_WORKER=$tmp/lworker "$P" suite run syscall \
    --quick --processes 1 --db "$ldb" > "$tmp/out" 2> "$tmp/err"
st=$?
rm -f "$tmp/hold"
while [ -f "$tmp/locked" ] && ! sqlite3 "$ldb" 'BEGIN IMMEDIATE; ROLLBACK;' 2> /dev/null; do
	sleep 0.1
done
[ $st -eq 2 ] || fail "locked after: status $st, not 2"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "locked after: not one line: $(cat "$tmp/err")"
has "$tmp/err" "^perfreg: suite: cannot store the session: .*: database is locked by another writer (waited 100 ms)$" \
    "locked after: said"
has "$tmp/out" "syscall.getppid" "locked after: figures shown although not stored"
[ "$(sqlite3 "$ldb" 'SELECT count(*) FROM session')" = 1 ] ||
    fail "locked after: a session stored"
# Without $PERFREG_DB_BUSY_MS: the writer lets go 1 s after the worker
# took the lock; the session waits for it and is stored.
: > "$tmp/hold"
rm -f "$tmp/locked"
( while [ ! -f "$tmp/locked" ]; do sleep 0.1; done; sleep 1; rm -f "$tmp/hold" ) &
letgo=$!
PERFREG_SUITE_WORKER=$tmp/lworker "$P" suite run syscall --quick --processes 1 \
    --db "$ldb" > "$tmp/out" 2> "$tmp/err" || fail "lock let go: status $?: $(cat "$tmp/err")"
wait $letgo
has "$tmp/out" "stability check" "lock let go: stored and compared"
[ "$(sqlite3 "$ldb" 'SELECT count(*) FROM session')" = 2 ] ||
    fail "lock let go: not stored"
# A CPU the probes cannot be pinned to is refused before anything runs
# (review of session 15, finding 9: `--cpu 99` skipped all 8 probes,
# exited 0 and stored an empty session as the configuration's baseline).
cdb=$tmp/cpu.db
"$P" suite run syscall --quick --cpu 1000 --db "$cdb" > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 2 ] || fail "--cpu 1000: status $st, not 2"
has "$tmp/err" "^perfreg: suite run: --cpu: CPU 1000 is not one this process may run on ([0-9, -]*)$" \
    "--cpu 1000: said"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "--cpu 1000: not one line: $(cat "$tmp/err")"
[ ! -e "$cdb" ] || [ "$(sqlite3 "$cdb" "SELECT count(*) FROM session")" = 0 ] ||
    fail "--cpu 1000: a session was stored"
# --html that cannot be written: said before the probes, nothing stored.
"$P" suite run syscall --quick --html "$tmp/no/dir/x.html" --db "$cdb" \
    > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 2 ] || fail "--html unwritable: status $st, not 2"
has "$tmp/err" "^perfreg: suite run: --html: cannot write $tmp/no/dir/x.html: No such file or directory$" \
    "--html unwritable: said"
[ ! -e "$cdb" ] || [ "$(sqlite3 "$cdb" "SELECT count(*) FROM session")" = 0 ] ||
    fail "--html unwritable: a session was stored"
# ... and a session in which no probe took a sample is not stored: a
# stand-in worker is perfreg's own, pinned to that CPU (workers are not
# checked), so that every probe says "cannot pin".
printf '#!/bin/sh\nshift 3\nexec "%s" suite run --worker --cpu 1000 "$@"\n' "$P" > "$tmp/nopin"
chmod +x "$tmp/nopin"
PERFREG_SUITE_WORKER=$tmp/nopin "$P" suite run syscall fault --quick \
    --processes 1 --db "$cdb" > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 2 ] || fail "no probe ran: status $st, not 2: $(cat "$tmp/err")"
has "$tmp/err" "^perfreg: suite: no probe ran here (each said why above); nothing stored$" \
    "no probe ran: said"
[ ! -e "$cdb" ] || [ "$(sqlite3 "$cdb" "SELECT count(*) FROM session")" = 0 ] ||
    fail "no probe ran: a session was stored"
# The reserve for storing and comparing grows with the pace measured: a
# stand-in worker hands back a real syscall result that says it took 10 s
# of wall time for 0.1 s of CPU (pace 100): 150 s of CPU storing at that
# pace is more than 25% of a 3 s budget, so 0.75 s is kept, and the time
# line and --json say so.
awk -F '\t' 'BEGIN { OFS = "\t" } $1 == "R" { $5 = 10; $11 = 0.1 } { print }' \
    "$tmp/block" > "$tmp/block-pace"
printf '#!/bin/sh\ncat "%s"\n' "$tmp/block-pace" > "$tmp/pace"
chmod +x "$tmp/pace"
PERFREG_SUITE_WORKER=$tmp/pace "$P" suite run syscall --quick --budget 3 \
    --processes 1 --no-store --json > "$tmp/out" 2> "$tmp/err" ||
    fail "pace 100: $(cat "$tmp/err")"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
has "$tmp/flat" '"reserve_s":0.75,"pace":100.0,"store_cpu_s":[0-9.e+-]*}' \
    "pace 100: the reserve at its cap, 25% of the budget"
PERFREG_SUITE_WORKER=$tmp/pace "$P" suite run syscall --quick --budget 3 \
    --processes 1 --no-store > "$tmp/out" 2> "$tmp/err" ||
    fail "pace 100, text: $(cat "$tmp/err")"
hasf "$tmp/out" "0.8 s kept for them, grown with the probes' pace); the probes' pace 100.00 wall s a CPU s" \
    "pace 100: the time line"
# ... and with the sessions stored before (review of s12, finding 2):
# at pace 2, 2 x 1.5 s of CPU with up to 5 earlier sessions (3.0 s of a
# 60 s budget), and 0.15 s more for each beyond them: 3.6 s at the
# eighth session (7 earlier).
awk -F '\t' 'BEGIN { OFS = "\t" } $1 == "R" { $5 = 0.2; $11 = 0.1 } { print }' \
    "$tmp/block" > "$tmp/block-pace2"
printf '#!/bin/sh\ncat "%s"\n' "$tmp/block-pace2" > "$tmp/pace2"
chmod +x "$tmp/pace2"
k=1
while [ $k -le 8 ]; do
	PERFREG_SUITE_WORKER=$tmp/pace2 "$P" suite run syscall --quick \
	    --budget 60 --processes 1 --db "$tmp/hist.db" --json \
	    > "$tmp/out" 2> "$tmp/err" || fail "history $k: $(cat "$tmp/err")"
	tr -d ' \n' < "$tmp/out" > "$tmp/flat.$k"
	k=$((k + 1))
done
has "$tmp/flat.1" '"reserve_s":3.0,"pace":2.0,' "history: the reserve at no earlier session"
has "$tmp/flat.6" '"reserve_s":3.0,"pace":2.0,' "history: the reserve at 5 earlier sessions"
has "$tmp/flat.8" '"reserve_s":3\.600*[0-9]\{0,2\},"pace":2.0,' "history: the reserve at 7 earlier sessions"
# The pace rule (perfreg/suite.h, pr_suite_cmp_pace): a session whose
# probes' pace is far above its base sessions' (a starved session) has
# none of its figures called.  Session 1 at pace 1 (the real block), then
# session 2 three times as slow: at pace 1 a regression, exit 1 with
# --fail-on-regression; at pace 100 (above 4 times 1) not called, the
# summary line says why, exit 0.
# A worker's block made steady: pace 1 (0.1 s of wall time and of CPU),
# each figure's samples its first one's value, then within +-0.2% of it,
# so that the machine's load cannot widen the session's error past what a
# change three times as large is called at.
steady() { # block out
	awk -F '\t' 'BEGIN { OFS = "\t" } $1 == "R" { $5 = 0.1; $11 = 0.1 }
	    $1 == "M" { n = split($5, v, " "); s = ""
	        for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") v[1] * (1 + 0.001 * (i % 5 - 2))
	        $5 = s }
	    { print }' "$1" > "$2"
}
steady "$tmp/block" "$tmp/block-1"
awk -F '\t' 'BEGIN { OFS = "\t" } $1 == "M" { n = split($5, v, " "); s = ""
    for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") v[i] * 3; $5 = s }
    { print }' "$tmp/block-1" > "$tmp/block-x3"
awk -F '\t' 'BEGIN { OFS = "\t" } $1 == "R" { $5 = 10; $11 = 0.1 } { print }' \
    "$tmp/block-x3" > "$tmp/block-x3-pace"
for w in block-1 block-x3 block-x3-pace; do
    printf '#!/bin/sh\ncat "%s"\n' "$tmp/$w" > "$tmp/w-$w"
    chmod +x "$tmp/w-$w"
done
for k in 1 100; do
    rm -f "$tmp/pace.db"
    PERFREG_SUITE_WORKER=$tmp/w-block-1 "$P" suite run syscall --quick \
        --budget 3 --processes 1 --db "$tmp/pace.db" > /dev/null \
        2> "$tmp/err" || fail "pace rule, session 1: $(cat "$tmp/err")"
    w=block-x3
    [ $k -eq 1 ] || w=block-x3-pace
    # The same second session in --json, from a copy of the store: its
    # summary says whether the session was starved.
    cp "$tmp/pace.db" "$tmp/pace-json.db"
    PERFREG_SUITE_WORKER=$tmp/w-$w "$P" suite run syscall --quick \
        --budget 3 --processes 1 --db "$tmp/pace-json.db" --json \
        > "$tmp/out" 2> "$tmp/err" ||
        fail "pace $k, --json: $(cat "$tmp/err")"
    tr -d ' \n' < "$tmp/out" > "$tmp/flat"
    starved=false
    [ $k -eq 1 ] || starved=true
    has "$tmp/flat" "\"summary\":{[^}]*\"starved\":$starved" \
        "pace $k: summary.starved is $starved"
    rm -f "$tmp/pace-json.db"*
    PERFREG_SUITE_WORKER=$tmp/w-$w "$P" suite run syscall --quick \
        --budget 3 --processes 1 --db "$tmp/pace.db" --fail-on-regression \
        > "$tmp/out" 2> "$tmp/err"
    st=$?
    if [ $k -eq 1 ]; then
        [ $st -eq 1 ] || fail "pace 1: status $st, not 1: $(cat "$tmp/err")"
        has "$tmp/out" "^2 figures: 2 regressions" "pace 1: called"
    else
        [ $st -eq 0 ] || fail "pace 100: status $st, not 0: $(cat "$tmp/err")"
        hasf "$tmp/out" "^2 figures: 0 regressions, 0 improvements, 0 unchanged (within 1%), 2 inconclusive: not called, the new session was starved of CPU (pace 100 wall s a CPU s, above 4)" \
            "pace 100: the summary line"
        hasf "$tmp/out" "note: the new session was starved of CPU, its figures not called: its probes' pace was 100 wall s a CPU s, above 4 times the largest of its base sessions' (1)" \
            "pace 100: the note"
    fi
done
# Starved earlier sessions (perfreg/suite.h, pr_suite_plan) are left out
# of the comparison, and the output says which and why.  In one SQLite
# store: session 1 at pace 1, session 2 three times as slow at pace 100
# (starved: not called itself), session 3 at pace 1 as session 1.  Session
# 3's base is session 1 alone (session 2's pace is above 4 times the low
# median of its peers', sessions 1 and 3: 1); its figures are not called
# against a base that holds the starved session.  Then session 4, again at
# pace 1: its base is sessions 1 and 3, session 2 still left out.
rm -f "$tmp/left.db"
for w in block-1 block-x3-pace block-1 block-1; do
    PERFREG_SUITE_WORKER=$tmp/w-$w "$P" suite run syscall --quick \
        --budget 3 --processes 1 --db "$tmp/left.db" --fail-on-regression \
        --json > "$tmp/left.json" 2> "$tmp/err"
    st=$?
    [ $st -eq 0 ] || fail "left out, $w: status $st: $(cat "$tmp/err")"
done
tr -d ' \n' < "$tmp/left.json" > "$tmp/flat"
has "$tmp/flat" '"base_sessions":\[1,3\],"new_sessions":\[4\],"left_out":\[{"session":2,"reason":"starved","pace":100.0,"peers_median":1.0,"limit":4.0,"regressions":null,"improvements":null}\]' \
    "left out: the plan in --json"
n=$(sqlite3 "$tmp/left.db" "SELECT count(*) FROM session") ||
    fail "left out: no database"
[ "${n:-0}" -eq 4 ] || fail "left out: $n sessions stored, not 4"
PERFREG_SUITE_WORKER=$tmp/w-block-1 "$P" suite run syscall --quick \
    --budget 3 --processes 1 --db "$tmp/left.db" > "$tmp/out" 2> "$tmp/err" ||
    fail "left out, text: $(cat "$tmp/err")"
hasf "$tmp/out" "against this configuration's earlier --quick sessions (sessions 1, 3, 4); the unit is the session; left out as starved of CPU (figures that measured the scheduler, not the code): session 2 (pace 100 wall s a CPU s, above 4 times its peers' median, 1)" \
    "left out: the text says which and why"
narrow "$tmp/out" "left out"
# Every earlier session starved: not compared, said.
rm -f "$tmp/left.db"
for w in block-x3-pace block-1; do
    PERFREG_SUITE_WORKER=$tmp/w-$w "$P" suite run syscall --quick \
        --budget 3 --processes 1 --db "$tmp/left.db" > "$tmp/out" \
        2> "$tmp/err" || fail "all left out, $w: $(cat "$tmp/err")"
done
hasf "$tmp/out" "stored as session 2; not compared: every earlier --quick session it could be compared with was starved of CPU and left out: session 1 (pace 100 wall s a CPU s, above 4 times its peers' median, 1)" \
    "all left out: said"
# A series starved alike (every session at pace 100, as at nice 19 beside
# busy processes): not compared either, the level holding whatever the
# peers' pace (review of s12, finding 1: before, 4 times the peers' 100).
rm -f "$tmp/left.db"
for w in block-x3-pace block-x3-pace; do
    PERFREG_SUITE_WORKER=$tmp/w-$w "$P" suite run syscall --quick \
        --budget 3 --processes 1 --db "$tmp/left.db" --fail-on-regression \
        > "$tmp/out" 2> "$tmp/err" || fail "starved alike, $w: status $?: $(cat "$tmp/err")"
done
hasf "$tmp/out" "stored as session 2; not compared: every earlier --quick session it could be compared with was starved of CPU and left out: session 1 (pace 100 wall s a CPU s, above 8 whatever its peers', their median 100)" \
    "starved alike: said"
# Figures not gated (perfreg/suite.h, pr_suite_ungated): a busy-polling
# hand-off's are shown but never called.  A stand-in hands back a real
# handoff result made deterministic (each figure within +-0.2% of its first
# sample) at pace 1; in session 2 handoff.spin.p99 is 100 times and
# handoff.futex.p50 3 times as slow.  futex.p50 is called (exit 1 with
# --fail-on-regression), spin.p99 is not, and the note and --json say what
# its test would have said; with spin.p99 alone slower, exit 0.
"$P" suite run --worker --share 0.2 --quick -- handoff > "$tmp/hblock" \
    2> "$tmp/err" || fail "handoff worker: $(cat "$tmp/err")"
steady "$tmp/hblock" "$tmp/h-1"
for w in spin futex; do
    awk -F '\t' -v w=$w 'BEGIN { OFS = "\t" }
        $1 == "M" && ($2 == "handoff.spin.p99" ||
            (w == "futex" && $2 == "handoff.futex.p50")) {
            k = $2 == "handoff.spin.p99" ? 100 : 3
            n = split($5, v, " "); s = ""
            for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") v[i] * k
            $5 = s }
        { print }' "$tmp/h-1" > "$tmp/h-$w"
done
for w in 1 spin futex; do
    printf '#!/bin/sh\ncat "%s"\n' "$tmp/h-$w" > "$tmp/w-h-$w"
    chmod +x "$tmp/w-h-$w"
done
for w in spin futex; do
    rm -f "$tmp/gate.db"
    PERFREG_SUITE_WORKER=$tmp/w-h-1 "$P" suite run handoff --quick \
        --budget 3 --processes 1 --db "$tmp/gate.db" > /dev/null \
        2> "$tmp/err" || fail "gate, session 1: $(cat "$tmp/err")"
    PERFREG_SUITE_WORKER=$tmp/w-h-$w "$P" suite run handoff --quick \
        --budget 3 --processes 1 --db "$tmp/gate.db" --fail-on-regression \
        > "$tmp/out" 2> "$tmp/err"
    st=$?
    hasf "$tmp/out" "note: not called, as these figures are not gated (a busy-polling hand-off measures whether the scheduler ran both threads at once, not the code's cost; perfreg(1), suite): handoff.spin.p99" \
        "gate, $w: the note"
    narrow "$tmp/out" "gate, $w"
    if [ $w = spin ]; then
        [ $st -eq 0 ] || fail "gate, spin: status $st, not 0: $(cat "$tmp/err")"
        has "$tmp/out" "^10 figures: 0 regressions" "gate, spin: not called"
    else
        [ $st -eq 1 ] || fail "gate, futex: status $st, not 1: $(cat "$tmp/err")"
        has "$tmp/out" "^10 figures: 1 regression (handoff.futex.p50 +200%)" \
            "gate, futex: the gated figure called"
    fi
done
rm -f "$tmp/gate.db"
PERFREG_SUITE_WORKER=$tmp/w-h-1 "$P" suite run handoff --quick --budget 3 \
    --processes 1 --db "$tmp/gate.db" > /dev/null 2> "$tmp/err" ||
    fail "gate, --json, session 1: $(cat "$tmp/err")"
PERFREG_SUITE_WORKER=$tmp/w-h-spin "$P" suite run handoff --quick \
    --budget 3 --processes 1 --db "$tmp/gate.db" --json > "$tmp/out" \
    2> "$tmp/err" || fail "gate, --json: $(cat "$tmp/err")"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
has "$tmp/flat" '"not_gated":\[{"name":"handoff.spin.p50","would_be":null},{"name":"handoff.spin.p99","would_be":"regression"}\]' \
    "gate: --json summary.not_gated"
# A change carried by the processes (perfreg/suite.h, pr_suite_carried):
# four processes a session; in session 3 the second process alone is
# three times as slow in both figures (a stalled process), which moves
# the mean of the four by +50%: not called, a note and --json's
# summary.not_carried say what the mean gave; exit 0 with
# --fail-on-regression.  Session 3 instead with all four processes three
# times as slow: called, exit 1.
cat > "$tmp/w-stall" <<EOS
#!/bin/sh
n=\$(cat "$tmp/stall.n" 2>/dev/null || echo 0)
echo \$((n + 1)) > "$tmp/stall.n"
if [ "\$n" -eq 1 ]; then cat "$tmp/block-x3"; else cat "$tmp/block-1"; fi
EOS
chmod +x "$tmp/w-stall"
rm -f "$tmp/carried.db"
for i in 1 2; do
    PERFREG_SUITE_WORKER=$tmp/w-block-1 "$P" suite run syscall --quick \
        --budget 3 --processes 4 --db "$tmp/carried.db" > /dev/null \
        2> "$tmp/err" || fail "carried, session $i: $(cat "$tmp/err")"
done
cp "$tmp/carried.db" "$tmp/carried-json.db"
cp "$tmp/carried.db" "$tmp/carried-all.db"
rm -f "$tmp/stall.n"
PERFREG_SUITE_WORKER=$tmp/w-stall "$P" suite run syscall --quick \
    --budget 3 --processes 4 --db "$tmp/carried-json.db" --json \
    > "$tmp/out" 2> "$tmp/err" || fail "carried, --json: $(cat "$tmp/err")"
tr -d ' \n' < "$tmp/out" > "$tmp/flat"
has "$tmp/flat" '"not_carried":\[{"name":"syscall\.[a-z_]*","would_be":"regression"},{"name":"syscall\.[a-z_]*","would_be":"regression"}\]' \
    "carried: --json summary.not_carried"
rm -f "$tmp/stall.n"
PERFREG_SUITE_WORKER=$tmp/w-stall "$P" suite run syscall --quick \
    --budget 3 --processes 4 --db "$tmp/carried.db" --fail-on-regression \
    > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 0 ] || fail "carried, a stalled process: status $st, not 0: $(cat "$tmp/err")"
has "$tmp/out" "^2 figures: 0 regressions" "carried: a stalled process not called"
hasf "$tmp/out" "note: not called, as the new session's processes do not carry the change: their values, taken together, do not differ from the base's (a one-sample t at p >= 0.05): they disagree, and some apart from the others moved the session's mean (perfreg(1), STATISTICAL METHODS): all 2 figures" \
    "carried: the note"
narrow "$tmp/out" "carried"
PERFREG_SUITE_WORKER=$tmp/w-block-x3 "$P" suite run syscall --quick \
    --budget 3 --processes 4 --db "$tmp/carried-all.db" --fail-on-regression \
    > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 1 ] || fail "carried, every process: status $st, not 1: $(cat "$tmp/err")"
has "$tmp/out" "^2 figures: 2 regressions" "carried: every process slower, called"
rm -f "$tmp/carried.db"* "$tmp/carried-json.db"* "$tmp/carried-all.db"* \
    "$tmp/stall.n"
# A stand-in that ends inside a result: an error naming it, not a crash.
head -n 2 "$tmp/block" > "$tmp/cut"
printf '#!/bin/sh\ncat "%s"\n' "$tmp/cut" > "$tmp/short"
chmod +x "$tmp/short"
PERFREG_SUITE_WORKER=$tmp/short "$P" suite run syscall --quick --budget 3 \
    --processes 1 --no-store > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 3 ] || fail "short worker: status $st, not 3: $(cat "$tmp/err")"
has "$tmp/err" "^perfreg: suite: process 1: line 2: the text ends inside a result" \
    "short worker: said"

[ $fails -eq 0 ] || exit 1
echo "cli_suite: ok"
