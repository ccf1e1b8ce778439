#!/bin/sh
# tests/monitor/cli_suite_monitor.sh - `perfreg suite --monitor` and
# `suite ab --monitor` end to end.  suite run: the monitors' figures go
# through the worker processes and are stored with each sample (show
# counts them apart), never in the probe lines, the verdict table or
# the --json probes; the JSON has the list of explanations ([] when no
# figure changed), the text the explanation of a figure that changed.
# suite ab handoff inline against pipe (a round trip to another thread
# through a pipe against a function call: a thousand times slower, and a
# context switch or two a round trip where inline has none): the figure
# is explained, the process the unit, and the child-own context switches
# (perf) are among the metrics that changed, where perf can be had.  A bad
# set is refused before anything runs; without --monitor nothing of this
# is there.  Every explanation's heading gives its verdict's change, in
# `suite` and `suite ab`.  No figure's size is checked beyond that.
#
# usage: cli_suite_monitor.sh PERFREG
set -u
P=$1
tmp=${KEEP_TMP:-$(mktemp -d)}
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
fails=0
unset PERFREG_DB XDG_DATA_HOME PERFREG_SUITE_ENV
db=$tmp/perfreg.db

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

has() { # file pattern what
	grep -q -- "$2" "$1" || fail "$3: no '$2' in $(head -c 2000 "$1")"
}

hasnt() { # file pattern what
	grep -q -- "$2" "$1" && fail "$3: '$2' in $(grep -- "$2" "$1" | head -3)"
}

json() { # file expression of d
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# Every explanation's heading gives its verdict's change (the verdict's
# geometric change, not the arithmetic change of the processes' means).
headlines() { # file what
	python3 - "$1" <<'EOF' || fail "$2: an explanation's change is not its verdict's"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["name"]: r for r in d.get("comparison", d)["metrics"]}
bad = [(e["primary"], e["primary_change"], rows[e["primary"]]["change_pct"])
       for e in d["explanations"]
       if abs(100 * e["primary_change"] - rows[e["primary"]]["change_pct"])
       > 1e-9 * max(1, abs(rows[e["primary"]]["change_pct"]))]
print(bad or "", file=sys.stderr, end="")
sys.exit(1 if bad else 0)
EOF
}

# A bad set: exit 2, the word named, nothing stored.
"$P" suite run syscall --quick --budget 1 --db "$db" --monitor bogus \
    > "$tmp/bad.out" 2> "$tmp/bad.err"
[ $? -eq 2 ] || fail "suite --monitor bogus: not exit 2"
has "$tmp/bad.err" "suite run: --monitor: unknown monitor 'bogus'" "suite --monitor bogus"
[ ! -s "$tmp/bad.out" ] || fail "suite --monitor bogus wrote a report"

# A loaded machine starves real sessions (paces of 8 to 11 wall s a CPU
# s at load 20-31: left out of any base, so nothing is compared) and its
# stability check may call a figure (an incident, left out too); what is
# checked here is the monitors' way through the comparison, so the
# earlier sessions' stored paces and calls are planted, as their values
# are below: a pace of 1, no call.
unstarve() { # db
	sqlite3 "$1" "UPDATE tag SET value = '1' WHERE key = 'pace';
	    UPDATE tag SET value = '0' WHERE key IN ('regressions', 'improvements')" ||
	    fail "the planted paces"
}

# Two sessions of two processes with monitors (the second compared with
# the first), then one without.
for i in 1 2; do
	"$P" suite run syscall --quick --budget 2 --processes 2 --db "$db" \
	    --monitor stat,softirqs --json > "$tmp/s$i.json" 2> "$tmp/s$i.err" ||
	    fail "suite run --monitor, session $i: $(cat "$tmp/s$i.err")"
	unstarve "$db"
done
[ "$(json "$tmp/s2.json" "isinstance(d.get('explanations'), list)")" = True ] ||
    fail "suite --monitor --json: no list of explanations"
[ "$(json "$tmp/s2.json" "any(m['name'].startswith('mon.') for p in d['probes'] for m in p['metrics'])")" = False ] ||
    fail "suite --monitor --json: a monitor figure among the probe's"
[ "$(json "$tmp/s2.json" "any(r['name'].startswith('mon.') for r in d['comparison']['metrics'])")" = False ] ||
    fail "suite --monitor --json: a monitor figure in the comparison"
[ "$(json "$tmp/s2.json" "all(e['primary'].startswith('syscall.') and e['unit'] == 'processes' for e in d['explanations'])")" = True ] ||
    fail "suite --monitor --json: an explanation not of a syscall figure on processes"
"$P" show suite --db "$db" > "$tmp/show.txt" 2> "$tmp/err" ||
    fail "show suite: $(cat "$tmp/err")"
has "$tmp/show.txt" "monitor figures (mon\.\*, in --json)" "show's count of the stored monitors"
hasnt "$tmp/show.txt" "^  *mon\." "show's table"
"$P" show --db "$db" --session 2 --json > "$tmp/show.json" 2> "$tmp/err" ||
    fail "show --session 2: $(cat "$tmp/err")"
python3 - "$tmp/show.json" <<'EOF' || fail "the stored samples: no mon.stat.ctxt, or not with every one"
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
ok = len(runs) >= 4 and all(
    "mon.stat.ctxt" in r["metrics"] and "mon.run.wall_s" in r["metrics"]
    for r in runs)
sys.exit(0 if ok else 1)
EOF
"$P" suite run syscall --quick --budget 2 --processes 2 --db "$db" \
    --all > "$tmp/s3.txt" 2> "$tmp/err" || fail "suite run --all: $(cat "$tmp/err")"
hasnt "$tmp/s3.txt" "mon\." "suite without --monitor (its probe lines, the table)"
hasnt "$tmp/s3.txt" "^explanation" "suite without --monitor"
"$P" suite run syscall --quick --budget 2 --processes 2 --db "$db" \
    --json > "$tmp/s4.json" 2> "$tmp/err" || fail "suite run --json: $(cat "$tmp/err")"
[ "$(json "$tmp/s4.json" "'explanations' in d")" = False ] ||
    fail "suite --json without --monitor: explanations"

# A figure that changed between stored sessions is explained from the
# store: three sessions of one configuration, their syscall figures made
# a thousandth of what they were in the database (a planted change large
# beside any load's: a quarter was inconclusive at load 17), then a
# session of another configuration (a kernel.release given by
# PERFREG_SUITE_ENV) compared with them: the syscall figures regress, and
# each one's explanation tests the monitors of its probe's processes
# (up to 2 a session; a budget of 4 s holds 2 at load 17, where one of
# 2 s held one process only, too few for an explanation).
"$P" env --json > "$tmp/env1" || fail "env --json"
awk '/"key": "kernel.release"/ { f = 1 }
    f && /"value"/ { sub(/"value": "[^"]*"/, "\"value\": \"9.9.9-test\""); f = 0 }
    { print }' "$tmp/env1" > "$tmp/env2"
cdb=$tmp/c.db
for i in 1 2 3; do
	PERFREG_SUITE_ENV=$tmp/env1 "$P" suite run syscall --quick --budget 2 \
	    --processes 2 --monitor stat,softirqs --db "$cdb" > /dev/null \
	    2> "$tmp/err" || fail "config 1, session $i: $(cat "$tmp/err")"
done
sqlite3 "$cdb" "UPDATE run_metric SET value = value / 1000 WHERE metric_id IN
    (SELECT id FROM metric WHERE CAST(name AS TEXT) LIKE 'syscall.%')" ||
    fail "the planted change"
unstarve "$cdb"
# The new configuration's sessions are the machine's too, and a loaded
# one is starved (then nothing is called): they run on a stand-in worker
# (PERFREG_SUITE_WORKER) with syscall's two figures at their real size
# (62 and 16 ns a call: a thousand times the planted base), a pace of
# 1.7 wall s a CPU s, and the monitors' figures of each process k
# (1, 2, ...) varying with k.
cat > "$tmp/cw" <<'EOW'
#!/bin/sh
d=$(dirname "$0")
k=$(cat "$d/cwk" 2> /dev/null || echo 0)
k=$((k + 1))
echo $k > "$d/cwk"
awk -v k=$k 'BEGIN { OFS = "\t"
	print "R", "syscall", "syscall", 8, 0.29, 0, 0, 1, 23.09, 0.0117, 0.174
	split("syscall.getppid ns/call 62|syscall.clock_gettime ns/call 16|mon.run.wall_s s 0.03|mon.stat.ctxt count 40|mon.softirq.TIMER count 9", f, "|")
	for (j = 1; j <= 5; j++) {
		split(f[j], m, " ")
		printf "M\t%s\t%s\tlower", m[1], m[2]
		for (i = 0; i < 8; i++)
			printf "%s%.6g", (i ? " " : "\t"), m[3] * (1 + 0.01 * i + (j > 2 ? 0.1 * k : 0))
		print ""
	}
	print "E" }'
EOW
chmod +x "$tmp/cw"
PERFREG_SUITE_WORKER=$tmp/cw PERFREG_SUITE_ENV=$tmp/env2 "$P" suite run syscall --quick --budget 4 \
    --processes 2 --monitor stat,softirqs --db "$cdb" --json \
    > "$tmp/c.json" 2> "$tmp/err" || fail "config 2: $(cat "$tmp/err")"
[ "$(json "$tmp/c.json" "d['summary']['regressions'] >= 1")" = True ] ||
    fail "the planted change: no regression: $(json "$tmp/c.json" "d['summary']")"
[ "$(json "$tmp/c.json" "len(d['explanations']) == d['summary']['regressions'] + d['summary']['improvements']")" = True ] ||
    fail "not one explanation a changed figure: $(json "$tmp/c.json" "[e['primary'] for e in d['explanations']]")"
[ "$(json "$tmp/c.json" "all(e['primary'].startswith('syscall.') and e['unit'] == 'processes' and e['tested'] >= 1 for e in d['explanations'])")" = True ] ||
    fail "an explanation not of a syscall figure, not on processes, or nothing tested"
[ "$(json "$tmp/c.json" "all(not m['metric'].startswith('mon.run.') for e in d['explanations'] for m in e['metrics'])")" = True ] ||
    fail "the sample time ranked as a side metric"
headlines "$tmp/c.json" "suite --monitor"
PERFREG_SUITE_WORKER=$tmp/cw PERFREG_SUITE_ENV=$tmp/env2 "$P" suite run syscall --quick --budget 4 \
    --processes 2 --monitor stat,softirqs --db "$cdb" > "$tmp/c.txt" \
    2> "$tmp/err" || fail "config 2 (text): $(cat "$tmp/err")"
has "$tmp/c.txt" "^explanation: syscall\." "the text's explanation"
has "$tmp/c.txt" "(Welch's t on the logs of the processes," "the text's unit"

# suite ab: inline against pipe, four processes of 2 rounds.
"$P" suite ab handoff --a inline --b pipe --quick --processes 4 -n 2 \
    --monitor perf,stat --json > "$tmp/ab.json" 2> "$tmp/err" ||
    fail "suite ab --monitor: $(cat "$tmp/err")"
[ "$(json "$tmp/ab.json" "len(d['explanations']) >= 1")" = True ] ||
    fail "suite ab --monitor: no explanation of the slower round trip"
[ "$(json "$tmp/ab.json" "all(e['unit'] == 'processes' for e in d['explanations'])")" = True ] ||
    fail "suite ab --monitor: not the processes as the unit"
headlines "$tmp/ab.json" "suite ab --monitor"
if "$P" run -n 2 --warmup 0 --monitor perf --json t=true 2> /dev/null |
    python3 -c "import json,sys; d=json.load(sys.stdin); sys.exit(0 if 'mon.perf.context_switches' in d['runs'][0]['monitors'] else 1)"; then
	[ "$(json "$tmp/ab.json" "any(m['metric'] == 'mon.perf.context_switches' and m['changed'] for e in d['explanations'] for m in e['metrics'])")" = True ] ||
	    fail "suite ab --monitor: the context switches did not change with a pipe"
else
	echo "note: perf_event_open refused here: the perf figures not checked" >&2
fi
"$P" suite ab handoff --a inline --b pipe --quick --processes 4 -n 2 \
    --monitor perf,stat > "$tmp/ab.txt" 2> "$tmp/err" ||
    fail "suite ab --monitor (text): $(cat "$tmp/err")"
has "$tmp/ab.txt" "^explanation: handoff" "suite ab --monitor's text"
has "$tmp/ab.txt" "(Welch's t on the logs of the processes," "suite ab --monitor's unit"

# suite ab explains the figure the verdict took: syscall is a best-sample
# probe, so each process's value is its best sample, not its mean.  A
# stand-in worker (PERFREG_SUITE_WORKER) gives process k (1..3) the
# samples 100+k and 400-20k on A (best rising with k, mean falling) and
# 200+k and 800-40k on B, with k and 10+k context switches a sample: the
# switches rise with the best samples (r > 0), against the means they
# would fall (r < 0, as before the fix).
cat > "$tmp/abw" <<'EOW'
#!/bin/sh
d=$(dirname "$0")
k=$(cat "$d/abk" 2> /dev/null || echo 0)
k=$((k + 1))
echo $k > "$d/abk"
printf 'R\tA\tsyscall\t2\t0.01\t0\t0\t0\t0.001\t0\t0.01\n'
printf 'M\tsyscall\tns/call\tlower\t%d %d\n' $((100 + k)) $((400 - 20 * k))
printf 'M\tmon.run.wall_s\ts\tlower\t0.01 0.01\nM\tmon.stat.ctxt\tcount\tlower\t%d %d\nE\n' $k $k
printf 'R\tB\tsyscall\t2\t0.01\t0\t0\t0\t0.001\t0\t0.01\n'
printf 'M\tsyscall\tns/call\tlower\t%d %d\n' $((200 + k)) $((800 - 40 * k))
printf 'M\tmon.run.wall_s\ts\tlower\t0.01 0.01\nM\tmon.stat.ctxt\tcount\tlower\t%d %d\nE\n' $((10 + k)) $((10 + k))
EOW
chmod +x "$tmp/abw"
rm -f "$tmp/abk"
PERFREG_SUITE_WORKER=$tmp/abw "$P" suite ab syscall --a getppid --b getppid \
    -n 2 --processes 3 --monitor stat --json > "$tmp/abw.json" 2> "$tmp/err" ||
    fail "suite ab --monitor, stand-in worker: $(cat "$tmp/err")"
[ "$(json "$tmp/abw.json" "[m['r'] > 0.5 for e in d['explanations'] for m in e['metrics'] if m['metric'] == 'mon.stat.ctxt'] == [True]")" = True ] ||
    fail "suite ab --monitor: the explanation did not take the best samples"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)" >&2; exit 1; }
echo "cli_suite_monitor: ok"
