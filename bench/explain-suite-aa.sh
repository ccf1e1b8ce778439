#!/bin/sh
# bench/explain-suite-aa.sh - the A/A rate of the suite's explanation
# for real (issue 13): SESSIONS sessions of `perfreg suite ab syscall
# --a getppid --b getppid --monitor default` (A and B the same variant),
# counting the sessions whose verdict calls a figure and those whose
# explanations name any monitor figure as changed; then a chain of CHAIN
# `perfreg suite run syscall --monitor default` sessions in one
# database, each compared with the ones before it, counted the same way.
# Nothing changes between the sides, so every call and every name is
# false.  Run it under nice 19.
#
# usage: bench/explain-suite-aa.sh PERFREG [SESSIONS [CHAIN]]
set -u
perfreg=${1:?usage: explain-suite-aa.sh PERFREG [SESSIONS [CHAIN]]}
sessions=${2:-200}
chain=${3:-40}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset PERFREG_DB XDG_DATA_HOME PERFREG_SUITE_ENV

count() { # file: "calls named" of its verdicts and explanations
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d.get("comparison", d).get("metrics", [])
calls = [r["name"] for r in rows
         if r.get("verdict") in ("regression", "improvement")]
named = [(e["primary"], m["metric"]) for e in d.get("explanations", [])
         for m in e["metrics"] if m["changed"]]
print(len(calls), len(named), " ".join(calls),
      " ".join("%s:%s" % n for n in named))
PY
}

tally() { # json session: counts its calls and names, says so when any
	line=$(count "$1") session=$2
	set -- $line
	[ "$1" -gt 0 ] && called=$((called + 1))
	[ "$2" -gt 0 ] && named=$((named + 1))
	if [ "$1" -gt 0 ] || [ "$2" -gt 0 ]; then
		echo "session $session: $line"
	fi
}

echo "suite ab A/A: $sessions sessions of syscall getppid against itself, --quick --processes 4 -n 2 --monitor default; load average $(cut -d' ' -f1-3 /proc/loadavg)"
called=0 named=0 i=1
while [ "$i" -le "$sessions" ]; do
	if "$perfreg" suite ab syscall --a getppid --b getppid --quick \
	    --processes 4 -n 2 --monitor default --json > "$tmp/ab.json" \
	    2> "$tmp/err"; then
		tally "$tmp/ab.json" "$i"
	else
		echo "session $i: failed: $(head -c 300 "$tmp/err")"
	fi
	i=$((i + 1))
done
echo "suite ab: $called of $sessions sessions called a figure, $named named a monitor figure; load average $(cut -d' ' -f1-3 /proc/loadavg)"

[ "$chain" -gt 1 ] || exit 0
echo "suite run chain: $chain sessions of syscall --quick --processes 2 --monitor default; load average $(cut -d' ' -f1-3 /proc/loadavg)"
db=$tmp/chain.db
called=0 named=0 i=1
while [ "$i" -le "$chain" ]; do
	if "$perfreg" suite run syscall --quick --budget 2 --processes 2 \
	    --monitor default --db "$db" --json > "$tmp/s.json" 2> "$tmp/err"; then
		[ "$i" -gt 1 ] && tally "$tmp/s.json" "$i"
	else
		echo "session $i: failed: $(head -c 300 "$tmp/err")"
	fi
	i=$((i + 1))
done
echo "suite run: $called of $((chain - 1)) compared sessions called a figure, $named named a monitor figure; load average $(cut -d' ' -f1-3 /proc/loadavg)"
