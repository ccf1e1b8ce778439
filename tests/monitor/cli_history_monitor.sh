#!/bin/sh
# tests/monitor/cli_history_monitor.sh PERFREG - `perfreg history`'s
# explanation of its latest change: campaigns of 12 sessions of
# `run --campaign --monitor` whose command reads
# 1 MiB from /dev/zero in one block for 6 sessions, then 256 MiB (about
# 65,000 more page faults a run, and a run about 200 times slower: a
# change no load can hide; with 2 MiB against 64 MiB, a 2-core machine at
# load 8-10 once made a session before the change as slow as those after
# it, and the change point came a session early).  Checks that the history explains the change by the sessions
# before it against those after, the session the unit, and names the page
# faults (text, Markdown, JSON, HTML); that a campaign stored with --monitor
# none has no explanation; and that changepoints on a plain series has
# none (it has no side metrics).
set -u
P=$1
. "$(dirname "$0")/../store/testlib.sh"
export PERFREG_DB="$tmp/db.sqlite"

json() { # file expression on d
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

perf=0
"$P" run -n 2 --warmup 0 --monitor perf --json t=true 2> /dev/null |
    python3 -c "import json,sys; d=json.load(sys.stdin); sys.exit(0 if 'mon.perf.page_faults' in d['runs'][0]['monitors'] else 1)" &&
	perf=1
[ $perf -eq 1 ] || echo "cli_history_monitor: no perf counters here: the page faults are not checked by name"

# sessions CAMPAIGN MONITOR: the 12 sessions.
sessions() {
	k=0
	while [ $k -lt 12 ]; do
		bs=1M
		[ $k -ge 6 ] && bs=256M
		"$P" run --campaign "$1" --variant dd -n 3 --warmup 0 --monitor "$2" \
		    -- dd if=/dev/zero of=/dev/null bs=$bs count=1 \
		    > /dev/null 2> "$tmp/err" || fail "$1 session $k: $(cat "$tmp/err")"
		k=$((k + 1))
	done
}
# hm with the perf counters alone (10 side metrics at most: the text's
# top 10 shows them all), hd with the default set (with the system-wide
# figures more than 10 may change under load, and the page faults, which
# have no spread within a session's runs, rank after those with a share
# of at least 10%: checked in JSON).
sessions hm perf
sessions hd default
sessions plain none

"$P" history hm > "$tmp/out" 2> "$tmp/err" || fail "history: $(cat "$tmp/err")"
has "$tmp/out" "^explanation of the 6 sessions before .* s7 against the 6 from it on: wall_s +" \
    "text: the explanation of the change"
has "$tmp/out" "(Welch's t on the logs of the sessions" "text: the session the unit"
[ $perf -eq 1 ] &&
	has "$tmp/out" "^  mon\.perf\.page_faults +[0-9]" "text: the page faults named"
"$P" history --markdown hm > "$tmp/md" 2> "$tmp/err" || fail "markdown: $(cat "$tmp/err")"
has "$tmp/md" "^\*\*Explanation\*\* of the 6 sessions before " "markdown: the explanation"
[ $perf -eq 1 ] && has "$tmp/md" "^- mon\.perf\.page_faults +[0-9]" "markdown: the page faults"
"$P" history --json hd > "$tmp/json" 2> "$tmp/err" || fail "json: $(cat "$tmp/err")"
[ "$(json "$tmp/json" "d['series'][0]['explanation']['unit']")" = sessions ] ||
	fail "json: no explanation by sessions: $(head -c 300 "$tmp/json")"
[ "$(json "$tmp/json" "d['series'][0]['explanation']['compared'].startswith('the 6 sessions before ')")" = True ] ||
	fail "json: what is compared"
[ "$(json "$tmp/json" "len(d['series'][0]['changes'])")" -ge 1 ] || fail "json: no change"
if [ $perf -eq 1 ]; then
	[ "$(json "$tmp/json" "[(m['changed'], m['n_base'], m['n_new']) for m in d['series'][0]['explanation']['metrics'] if m['metric'] == 'mon.perf.page_faults']")" = "[(True, 6, 6)]" ] ||
		fail "json: the page faults, a session a unit: $(json "$tmp/json" "d['series'][0]['explanation']['metrics'][:3]")"
fi
# The primary is wall_s: the system-wide counters are taken per second of
# it, as a boot's are in compare --campaign (gauges such as procs_running
# are not rates, and are not).
[ "$(json "$tmp/json" "any(m['per_second'] for m in d['series'][0]['explanation']['metrics'] if m['system_wide'])")" = True ] ||
	fail "json: the system-wide figures not per second of wall_s"
# The HTML page too (it had the series and no explanation).
"$P" history --html - hm > "$tmp/html" 2> "$tmp/err" || fail "html: $(cat "$tmp/err")"
has "$tmp/html" "<h3>explanation of the 6 sessions before .* s7 against the 6 from it on</h3>" \
    "html: the explanation of the change"
has "$tmp/html" "Welch&#39;s t on the logs of the sessions" "html: the session the unit"
[ $perf -eq 1 ] && has "$tmp/html" "<td>mon\.perf\.page_faults" "html: the page faults named"
"$P" history --csv hd > "$tmp/csv" 2> "$tmp/err" || fail "csv: $(cat "$tmp/err")"
grep -q "xplanation" "$tmp/csv" && fail "csv: an explanation in the CSV"

# Without monitors, nothing to explain by.
"$P" history plain > "$tmp/out" 2> "$tmp/err" || fail "plain: $(cat "$tmp/err")"
has "$tmp/out" "1 change" "plain: the change found"
grep -q "^explanation" "$tmp/out" && fail "plain: an explanation without monitors"
"$P" history --html - plain > "$tmp/html" 2> "$tmp/err" || fail "plain html: $(cat "$tmp/err")"
grep -q "<h3>explanation" "$tmp/html" && fail "plain html: an explanation without monitors"
"$P" history --json plain > "$tmp/json" 2> "$tmp/err" || fail "plain json: $(cat "$tmp/err")"
[ "$(json "$tmp/json" "'explanation' in d['series'][0]")" = False ] ||
	fail "plain json: an explanation without monitors"

# changepoints on a plain series: no side metrics, no explanation.
i=0
while [ $i -lt 24 ]; do
	[ $i -lt 12 ] && echo $((100 + i % 3)) || echo $((150 + i % 3))
	i=$((i + 1))
done > "$tmp/series.txt"
"$P" changepoints "$tmp/series.txt" > "$tmp/out" 2> "$tmp/err" || fail "changepoints: $(cat "$tmp/err")"
has "$tmp/out" "1 change" "changepoints: the change found"
grep -q "xplanation" "$tmp/out" && fail "changepoints: an explanation"

[ $fails -eq 0 ] && echo "cli_history_monitor: all passed"
exit $((fails > 0))
