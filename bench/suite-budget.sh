#!/bin/sh
# bench/suite-budget.sh - whether `perfreg suite` keeps its time budget:
# the whole command (start, the environment snapshot, the probes,
# storing, the comparison with the stored sessions, exit), timed from
# outside, against the budget and the margin the command promises past
# it (0.5 s plus 5% of the budget, src/cli/cmd_suite.c MARGIN_S and
# MARGIN_SHARE).  A budget below the probes' floor must be said at the
# start instead ("a budget of N s cannot be held: ..."); the script shows
# whether it was.
#
# Usage: bench/suite-budget.sh [-r RUNS] [CASES...]
#   CASES  budgets in seconds (the full probes with --budget N) or
#          "quick" (--quick: its 40 s budget); default: 1 10 16 quick
#   -r     runs of each case, default 2, each into the same fresh
#          database, so that every run after the first compares with the
#          earlier sessions (storing and comparing are part of the time)
# Environment: PERFREG, the binary to time; by default perfreg is built
# optimised in build/bench (as bench/stat-vs-ministat.sh does).
#
# Prints each run's wall time (date before and after), the command's own
# account (--json "timing": total_s, probes_s), the budget plus margin,
# "held" or "OVER", the note given ("start": the budget cannot be held,
# said at the start; "late": running late, said as soon as the measured
# floors showed it; "no"), whether a process was stopped at the bound
# (the budget and its margin: "stop"), and the processes the probes ran
# in; the load average at the start and the end.  Exits 1 when a run
# went over its budget and margin without a note, 2 on a usage or setup
# error.
# Needs python3 (the JSON) and GNU date (Debian packages python3,
# coreutils).  A run takes its budget: the default cases take about 3
# minutes.  This is a benchmark, not a test: it measures this machine.
set -eu

runs=2
while getopts r: opt; do
	case $opt in
	r) runs=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [CASES...]" >&2
		exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 1 10 16 quick
case $runs in
'' | *[!0-9]* | 0) echo "$0: -r wants a positive number" >&2; exit 2 ;;
esac
for c in "$@"; do
	case $c in
	quick) ;;
	'' | *[!0-9]* | 0) echo "$0: bad case '$c' (seconds or quick)" >&2
		exit 2 ;;
	esac
done
command -v python3 >/dev/null 2>&1 ||
    { echo "$0: python3 is missing" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"
bench_perfreg

dir=$(mktemp -d "${TMPDIR:-/tmp}/suite-budget.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'exit 2' HUP INT TERM
export LC_ALL=C

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %3s %8s %8s %8s %8s %8s  %-5s %-5s %-4s %s\n' "case" "run" \
    "budget" "+margin" "wall s" "total_s" "probes_s" "kept" "note" "stop" \
    "procs"
status=0
for c in "$@"; do
	if [ "$c" = quick ]; then
		opts=--quick
		budget=40
	else
		opts="--budget $c"
		budget=$c
	fi
	db=$dir/$c.db
	i=1
	while [ "$i" -le "$runs" ]; do
		t0=$(date +%s%N)
		rc=0
		# shellcheck disable=SC2086 # opts is two words on purpose
		"$PERFREG" suite $opts --db "$db" --json >"$dir/out.json" \
		    2>"$dir/err.txt" || rc=$?
		t1=$(date +%s%N)
		if [ "$rc" -ne 0 ]; then
			echo "$0: perfreg suite $opts exited $rc:" >&2
			cat "$dir/err.txt" >&2
			exit 2
		fi
		note=no
		head -n 1 "$dir/err.txt" | grep -q "cannot be held" && note=start
		[ "$note" = no ] && grep -q "running late" "$dir/err.txt" &&
		    note=late
		python3 - "$dir/out.json" "$budget" "$t0" "$t1" "$c" "$i" \
		    "$note" <<'EOF' || status=1
import json, sys
path, budget, t0, t1, case, run, note = sys.argv[1:]
t = json.load(open(path))["timing"]
budget = float(budget)
limit = budget + 0.5 + 0.05 * budget
wall = (int(t1) - int(t0)) / 1e9
kept = "held" if wall <= limit else "OVER"
print("%-6s %3s %8.1f %8.2f %8.2f %8.2f %8.2f  %-5s %-5s %-4s %s" % (case,
      run, budget, limit, wall, t["total_s"], t["probes_s"], kept, note,
      "stop" if t.get("stopped") else "-", t.get("processes", 1)))
sys.exit(1 if kept == "OVER" and note == "no" else 0)
EOF
		i=$((i + 1))
	done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
