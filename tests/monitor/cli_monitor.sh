#!/bin/sh
# tests/monitor/cli_monitor.sh - `perfreg run --monitor` end to end: the
# monitors' figures in each run's JSON and in --output lines, the
# explanation section in text, Markdown and JSON (and none with
# `--monitor none`), and with --campaign the figures stored as metrics
# of the run under their reserved "mon." names: `show` counts them in
# one line and lists them in --json with "monitor": true, `history`
# keeps wall_s as its default metric, `compare --campaign` leaves them
# out of its table and ranks them in its explanation, on the runs, or on
# the boots' means when each variant ran in two boots (PERFREG_BOOT_ID).  Only /proc/stat
# is monitored where a source is needed (every Linux has it; perf may be
# refused); no figure's size is checked, only that it is there.  A
# benchmark's own metric under the reserved prefix fails its runs.
#
# usage: cli_monitor.sh PERFREG
set -u
P=$1
# KEEP_TMP=DIR keeps the files there for a look after a failure.
tmp=${KEEP_TMP:-$(mktemp -d)}
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
fails=0
unset PERFREG_DB XDG_DATA_HOME
export PERFREG_DB="$tmp/perfreg.db"

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

# json FILE EXPR: prints the Python expression EXPR of the document d.
json() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# A benchmark's own metric named like a monitor's is refused, with the
# reason, in every run (it would be stored and explained as a monitor).
"$P" run -n 2 --warmup 0 --monitor none --metric 'mon.x=v=([0-9]+)' \
    t='echo v=3' > "$tmp/own.out" 2> "$tmp/own.err"
[ $? -eq 2 ] || fail "run --metric mon.x: not exit 2"
has "$tmp/own.out" "metric 'mon.x' has the prefix 'mon.', which is the monitors'" \
    "run --metric mon.x"
hasnt "$tmp/own.out" "0 failed" "run --metric mon.x"

# run without --campaign: JSON and --output.  10 runs a side: a
# system-wide figure of 3 runs of `true` can be the same in every run of
# both sides (then it is not tested: it failed a CI run so).
"$P" run -n 10 --warmup 0 --monitor stat --json --output "$tmp/lines" \
    a=true b=true > "$tmp/run.json" 2> "$tmp/err" ||
    fail "run --monitor stat --json: $(cat "$tmp/err")"
[ "$(json "$tmp/run.json" "'mon.stat.ctxt' in d['runs'][0]['monitors']")" = True ] ||
    fail "run --json: no mon.stat.ctxt in the first run's monitors"
[ "$(json "$tmp/run.json" "'mon.stat.ctxt' in d['runs'][0]['metrics']")" = False ] ||
    fail "run --json: a monitor figure among the run's metrics"
[ "$(json "$tmp/run.json" "d['explanation']['primary']")" = wall_s ] ||
    fail "run --json: the explanation's primary is not wall_s"
[ "$(json "$tmp/run.json" "any(m['metric'] == 'mon.stat.ctxt' for m in d['explanation']['metrics'])")" = True ] ||
    fail "run --json: mon.stat.ctxt not tested in the explanation"
[ "$(json "$tmp/run.json" "all(m['system_wide'] for m in d['explanation']['metrics'] if m['metric'].startswith('mon.stat.'))")" = True ] ||
    fail "run --json: a mon.stat figure not marked system-wide"
[ "$(head -1 "$tmp/lines" | python3 -c "import json,sys; print('mon.stat.ctxt' in json.loads(sys.stdin.readline())['monitors'])")" = True ] ||
    fail "--output: no monitors in the first line"

# The explanation in text and Markdown, and its absence without monitors.
"$P" run -n 10 --warmup 0 --monitor stat a=true b=true > "$tmp/run.txt" \
    2> "$tmp/err" || fail "run --monitor stat: $(cat "$tmp/err")"
has "$tmp/run.txt" "^explanation: wall_s " "text explanation"
has "$tmp/run.txt" "side metrics changed" "text explanation's counts"
has "$tmp/run.txt" "  work/efficiency: " "text work/efficiency line"
"$P" run -n 10 --warmup 0 --monitor stat --markdown a=true b=true \
    > "$tmp/run.md" 2> "$tmp/err" || fail "run --markdown: $(cat "$tmp/err")"
has "$tmp/run.md" "^\*\*Explanation\*\*: wall_s " "Markdown explanation"
"$P" run -n 3 --warmup 0 --monitor none --json a=true b=true \
    > "$tmp/none.json" 2> "$tmp/err" || fail "run --monitor none: $(cat "$tmp/err")"
[ "$(json "$tmp/none.json" "'explanation' in d or any('monitors' in r for r in d['runs'])")" = False ] ||
    fail "--monitor none: monitors or an explanation"
"$P" run -n 3 --warmup 0 --monitor none a=true b=true > "$tmp/none.txt" \
    2> /dev/null
hasnt "$tmp/none.txt" "explanation" "--monitor none, text"

# --campaign: stored as metrics of the run, under "mon.".
for v in a b; do
	"$P" run --campaign c --variant $v -n 10 --warmup 0 --monitor stat \
	    -- true > /dev/null 2> "$tmp/err" ||
	    fail "run --campaign c --variant $v: $(cat "$tmp/err")"
done
"$P" run --campaign c --variant n -n 3 --warmup 0 --monitor none -- true \
    > /dev/null 2> "$tmp/err" || fail "run --monitor none --campaign: $(cat "$tmp/err")"
"$P" show c > "$tmp/show.txt" 2> "$tmp/err" || fail "show c: $(cat "$tmp/err")"
hasnt "$tmp/show.txt" " mon\." "show's table"
has "$tmp/show.txt" "^  a  .* and [0-9]* monitor figures (mon\.\*, in --json)" "show's count of a's monitors"
grep "^  n .*monitor figure" "$tmp/show.txt" > /dev/null &&
    fail "show: monitor figures for a variant run with --monitor none"
"$P" show --json c > "$tmp/show.json" 2> "$tmp/err" || fail "show --json c: $(cat "$tmp/err")"
[ "$(json "$tmp/show.json" "[m['monitor'] for m in d['medians'] if m['variant'] == 'a' and m['metric'] == 'mon.stat.ctxt']")" = "[True]" ] ||
    fail "show --json: mon.stat.ctxt of a not listed as a monitor"
[ "$(json "$tmp/show.json" "[m['monitor'] for m in d['medians'] if m['variant'] == 'a' and m['metric'] == 'wall_s']")" = "[False]" ] ||
    fail "show --json: wall_s of a listed as a monitor"
[ "$(json "$tmp/show.json" "[m['metric'] for m in d['medians'] if m['variant'] == 'n' and m['monitor']]")" = "[]" ] ||
    fail "show --json: monitors for --monitor none"
"$P" history c --variant a > "$tmp/hist.txt" 2>&1
has "$tmp/hist.txt" "wall_s" "history's default metric"
hasnt "$tmp/hist.txt" "mon\." "history's default metric"

# compare --campaign: the figures out of the table (and of its warnings),
# ranked in the explanation; none for the variant without monitors.
"$P" compare --campaign c a b > "$tmp/cmp.txt" 2> "$tmp/cmp.err" ||
    fail "compare --campaign c a b: $(cat "$tmp/cmp.err")"
sed -n '/^explanation: /q;p' "$tmp/cmp.txt" > "$tmp/cmp.table"
hasnt "$tmp/cmp.table" "mon\." "compare --campaign's table"
hasnt "$tmp/cmp.err" "mon\." "compare --campaign's warnings"
has "$tmp/cmp.txt" "^explanation: wall_s " "compare --campaign's explanation"
"$P" compare --campaign c a b --json > "$tmp/cmp.json" 2> "$tmp/err" ||
    fail "compare --campaign --json: $(cat "$tmp/err")"
[ "$(json "$tmp/cmp.json" "[x['explanation']['unit'] for x in d['comparisons']]")" = "['runs']" ] ||
    fail "compare --campaign --json: no explanation on the runs"
[ "$(json "$tmp/cmp.json" "any(m['metric'] == 'mon.stat.ctxt' for m in d['comparisons'][0]['explanation']['metrics'])")" = True ] ||
    fail "compare --campaign --json: mon.stat.ctxt not in the explanation"
"$P" compare --campaign c a n > "$tmp/cmpn.txt" 2> "$tmp/cmpn.err" ||
    fail "compare --campaign c a n: $(cat "$tmp/cmpn.err")"
hasnt "$tmp/cmpn.txt" "^explanation" "compare with a variant without monitors"
hasnt "$tmp/cmpn.err" "mon\." "compare --campaign's warnings, a against n"

# Two boots a variant (emulated by PERFREG_BOOT_ID): the boot level, and
# the explanation on the boots' means.
for b in boot-1 boot-2; do
	for v in a b; do
		PERFREG_BOOT_ID=$b "$P" run --db "$tmp/boots.db" --campaign k \
		    --variant $v -n 2 --warmup 0 --monitor stat -- true \
		    > /dev/null 2> "$tmp/err" ||
		    fail "run --campaign k --variant $v in $b: $(cat "$tmp/err")"
	done
done
"$P" compare --db "$tmp/boots.db" --campaign k --json > "$tmp/boots.json" \
    2> "$tmp/err" || fail "compare --campaign k --json: $(cat "$tmp/err")"
[ "$(json "$tmp/boots.json" "[(x['level'], x['explanation']['unit'], x['explanation']['metrics'][0]['n_base']) for x in d['comparisons']]")" = "[('boot', 'boots', 2)]" ] ||
    fail "compare --campaign at the boot level: $(json "$tmp/boots.json" "[(x.get('level'), x.get('explanation', {}).get('unit')) for x in d['comparisons']]")"
"$P" compare --db "$tmp/boots.db" --campaign k > "$tmp/boots.txt" 2>&1
has "$tmp/boots.txt" "(Welch's t on the logs of the boots, " "the explanation's unit in text"

if [ "$fails" -ne 0 ]; then
	echo "$fails failure(s)" >&2
	exit 1
fi
echo "cli_monitor: all passed"
