#!/bin/sh
# bench/monitor-overhead.sh - what `perfreg run --monitor` costs a 10 ms
# run, against the same runs without monitors and against `perf stat`
# wrapping the same command (the peer tool: it counts the same software
# events of the command and its children), all in one invocation, in
# rounds whose order rotates so that the load of each round falls on the
# three alike.
#
# usage: bench/monitor-overhead.sh BUILD_DIR [N [ROUNDS [CMD]]]
#   BUILD_DIR holds perfreg (a Release build gives the figures worth
#   quoting); N runs per session (default 200); ROUNDS (default 7); CMD
#   the 10 ms command (default "sleep 0.01").
#
# Each round runs four sessions of N runs of CMD, each `perfreg run -n N
# --warmup 1 --json`:
#   none  --monitor none, the command itself;
#   mon   --monitor default (perf counters and the system-wide /proc set,
#         the interrupts counted from /proc/stat's intr line; /proc/vmstat
#         at the session's start and end only);
#   old   --monitor default,vmstat (the default before vmstat left it:
#         /proc/vmstat's subset read around each run too);
#   perf  --monitor none, the command wrapped in `perf stat -e
#         task-clock,context-switches,cpu-migrations,page-faults -x, -o
#         /dev/null --`.
# Two costs are read from each session's JSON: the command's measured
# wall time (the mean of wall_s: what monitoring adds to what is
# measured), and the time per run that is not the command's (the
# session's elapsed_s / runs - mean wall_s: perfreg's own time, with
# the monitors' reads in it).  The overhead of a way of monitoring is
# its total time per run (wall + own) minus that of "none", over the
# 10 ms of CMD; the ratios mon/none, old/none and perf/none of the total
# time per run are printed per round, and their medians are the result.  Last,
# each source's cost on its own: perfreg's own time per run (the time
# of a run's step minus the command's wall time, the monitors' reads in
# it) with --monitor SOURCE, N runs of /bin/true, against --monitor none;
# and bench/monitor-cost's reads alone, in wall and CPU time.
set -eu

build=${1:?usage: monitor-overhead.sh BUILD_DIR [N [ROUNDS [CMD]]]}
n=${2:-200}
reps=${3:-7}
cmd=${4:-sleep 0.01}
perfreg=$build/perfreg
[ -x "$perfreg" ] || { echo "monitor-overhead: no $perfreg" >&2; exit 2; }
perf=$(command -v perf || true)
[ -n "$perf" ] || { echo "monitor-overhead: no perf (apt-get install linux-perf)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# session NAME MONITOR CMD: runs it, prints "wall_us own_us" per run.
session() {
	"$perfreg" run -n "$n" --warmup 1 --monitor "$2" --shell --json \
	    "t=$3" > "$tmp/$1.json" 2> "$tmp/$1.err" ||
	    { cat "$tmp/$1.err" >&2; exit 1; }
	python3 - "$tmp/$1.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
runs = [r for r in d["runs"] if r["ok"] and not r["warmup"]]
wall = sum(r["metrics"]["wall_s"] for r in runs) / len(runs)
# Every run, warm-up included, took its share of the session.
total = d["session"]["elapsed_s"] / len(d["runs"])
print("%.1f %.1f" % (wall * 1e6, (total - wall) * 1e6))
EOF
}

pcmd="$perf stat -e task-clock,context-switches,cpu-migrations,page-faults -x, -o /dev/null -- $cmd"
echo "command: $cmd; $n runs a session; $reps rounds; load average $(loadavg)"
echo "round  none wall+own us  mon wall+own us  old wall+own us  perf wall+own us  mon/none  old/none  perf/none  mon overhead %  old overhead %  perf overhead %"
: > "$tmp/r_mon"; : > "$tmp/r_perf"; : > "$tmp/o_mon"; : > "$tmp/o_perf"
: > "$tmp/r_old"; : > "$tmp/o_old"
: > "$tmp/own_mon"; : > "$tmp/own_none"; : > "$tmp/w_mon"; : > "$tmp/w_none"
r=1
while [ "$r" -le "$reps" ]; do
	k=$(( (r - 1) % 4 ))
	set -- none mon old perf none mon old perf
	shift $k
	for t in $1 $2 $3 $4; do
		case $t in
		none) set -- $(session none none "$cmd"); wn=$1; on=$2 ;;
		mon) set -- $(session mon default "$cmd"); wm=$1; om=$2 ;;
		old) set -- $(session old default,vmstat "$cmd"); wo=$1; oo=$2 ;;
		perf) set -- $(session perf none "$pcmd"); wp=$1; op=$2 ;;
		esac
	done
	line=$(echo "$wn $on $wm $om $wp $op $wo $oo" | awk '{
		tn = $1 + $2; tm = $3 + $4; tp = $5 + $6; to = $7 + $8
		printf "%.1f %.1f %.1f %.4f %.4f %.2f %.2f %.1f %.4f %.2f",
		    tn, tm, tp, tm / tn, tp / tn, (tm - tn) / 10000 * 100,
		    (tp - tn) / 10000 * 100, to, to / tn,
		    (to - tn) / 10000 * 100 }')
	set -- $line
	echo "$4" >> "$tmp/r_mon"; echo "$5" >> "$tmp/r_perf"
	echo "$6" >> "$tmp/o_mon"; echo "$7" >> "$tmp/o_perf"
	echo "$9" >> "$tmp/r_old"; echo "${10}" >> "$tmp/o_old"
	echo "$om" >> "$tmp/own_mon"; echo "$on" >> "$tmp/own_none"
	echo "$wm" >> "$tmp/w_mon"; echo "$wn" >> "$tmp/w_none"
	printf '%5d  %15s  %15s  %15s  %16s  %8s  %8s  %9s  %14s  %14s  %15s\n' \
	    "$r" "$1" "$2" "$8" "$3" "$4" "$9" "$5" "$6" "${10}" "$7"
	r=$((r + 1))
done
echo "median mon/none:  $(median < "$tmp/r_mon")   (total time per run)"
echo "median old/none:  $(median < "$tmp/r_old")   (default,vmstat)"
echo "median perf/none: $(median < "$tmp/r_perf")"
echo "median overhead of --monitor default on a 10 ms run: $(median < "$tmp/o_mon") %"
echo "median overhead of --monitor default,vmstat on a 10 ms run: $(median < "$tmp/o_old") %"
echo "median overhead of perf stat on a 10 ms run:     $(median < "$tmp/o_perf") %"
echo "median command wall time, none / mon: $(median < "$tmp/w_none") / $(median < "$tmp/w_mon") us"
echo "median time per run outside the command, none / mon: $(median < "$tmp/own_none") / $(median < "$tmp/own_mon") us"
echo "perfreg's own time per run by source (/bin/true, $n runs; the reads before and after each run):"
for m in none perf stat softirqs interrupts interrupts-full vmstat vmstat-full schedstat default default,vmstat all; do
	"$perfreg" run -n "$n" --warmup 0 --monitor "$m" --json t=/bin/true \
	    2> /dev/null | python3 -c "
import json, sys
d = json.load(sys.stdin)
print('  %-15s %7.1f us' % ('$m', d['session']['overhead_s'] * 1e6))"
done
if [ -x "$build/bench/monitor-cost" ]; then
	echo "the reads alone, per run (bench/monitor-cost: 2,000 begin/end pairs a set, no command; CPU time does not grow with the load):"
	"$build/bench/monitor-cost" -n 2000 | sed 's/^/  /'
fi
echo "load average at the end: $(loadavg)"
