#!/bin/sh
# bench/run-overhead.sh - what perfreg run costs per run, against the floor
# (bench/spawn-floor: a bare posix_spawn + wait4 loop) and against
# hyperfine -N, all running /bin/true N times, in one invocation.
#
# usage: bench/run-overhead.sh BUILD_DIR [N [REPS]]
#   BUILD_DIR holds perfreg and bench/spawn-floor (a Release build gives
#   the figures worth quoting); N runs per tool (default 2000), REPS
#   rounds of the three tools, interleaved so that drift of the machine
#   falls on all three alike (default 7).  hyperfine is skipped when it
#   is not installed.
#
# Each figure is the tool's whole elapsed time divided by N (so it
# includes perfreg's and hyperfine's start and final analysis, spread
# over the runs).  On a shared machine the load changes between rounds,
# so each round's ratios to that round's floor are printed, and their
# median is the result, with quartiles and range: the tools of a round
# shared its load.  CPU time (user + system, from GNU time, of the tool
# and the commands it ran) is less sensitive to the load than wall time
# and is given as ratios to the floor's the same way.  perfreg runs with
# --monitor none, as hyperfine reads nothing around a run; its own figure,
# from its JSON (time per run spent outside the measured commands), is
# printed too, and as a ratio to the floor, (floor + own) / floor: less
# sensitive to the load than whole-tool times, since it is measured
# inside one process per round.  A sixth loop runs perfreg with its
# default monitors (issue 13), for its own time with them.
#
# Two more loops price perfreg's spawning apart from its session: the
# floor's loop through pr_spawn_run (spawn-floor -m spawn: two pipes,
# /dev/null, a process group, pidfd and poll, the group's kill), and the
# same with the safety against escaped processes that perfreg run has
# (-m reap: a child subreaper, a wait4 for orphans after each run).
# spawn/floor is what perfreg's way of spawning costs, reap/spawn what
# the safety costs.
#
# PERFREG_OLD=PATH (another build's perfreg, say main's) adds a seventh
# loop in the same rotation, run as the perfreg loop is, and prints its
# ratio to the floor and its own time beside the new build's: a change
# measured before and after in the same rounds.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"

build=${1:?usage: run-overhead.sh BUILD_DIR [N [REPS]]}
n=${2:-2000}
reps=${3:-7}
perfreg=$build/perfreg
floor=$build/bench/spawn-floor
[ -x "$perfreg" ] || { echo "run-overhead: no $perfreg" >&2; exit 2; }
[ -x "$floor" ] || { echo "run-overhead: no $floor" >&2; exit 2; }
[ -x /usr/bin/time ] ||
    { echo "run-overhead: no /usr/bin/time (GNU time)" >&2; exit 2; }
hf=$(command -v hyperfine || true)
old=${PERFREG_OLD:-}
[ -z "$old" ] || [ -x "$old" ] ||
    { echo "run-overhead: PERFREG_OLD: no $old" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
elapsed() { echo "$2 $1" | awk '{ printf "%.6f", $1 - $2 }'; }

per() { echo "$1 $n" | awk '{ printf "%.1f", $1 / $2 * 1e6 }'; }
ratio() { echo "$1 $2" | awk '{ printf "%.3f\n", $1 / $2 }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
spread() { bench_spread; }
# timed VAR CMD...: runs CMD, its output to $tmp/out; sets VAR to its
# wall time and VAR_cpu to its user + system time (s).
timed() {
	var=$1
	shift
	t0=$(now)
	/usr/bin/time -f '%U %S' -o "$tmp/cpu" "$@" > "$tmp/out" 2>"$tmp/err" ||
	    { echo "run-overhead: failed: $*" >&2; cat "$tmp/err" >&2; exit 2; }
	t1=$(now)
	eval "$var=\$(elapsed \"\$t0\" \"\$t1\")"
	eval "${var}_cpu=\$(tail -n 1 \"\$tmp/cpu\" | awk '{ printf \"%.2f\", \$1 + \$2 }')"
}
own_of() { sed -n 's/^ *"overhead_s": *\([0-9.eE+-]*\).*/\1/p' "$1" | head -n 1; }

loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }
echo "runs of /bin/true per tool: $n; $reps interleaved rounds; load average $(loadavg)"
echo "round  floor us/run  perfreg us/run  hyperfine us/run  perfreg/floor  hyperfine/floor  CPU perfreg/floor  CPU hyperfine/floor  perfreg own us/run  own, monitors  spawn/floor  reap/spawn"
for f in r_sp r_re r_pr r_hf c_pr c_hf c_sp own own_mon r_own r_old own_old; do
	: > "$tmp/$f"
done
run_floor() { timed tf "$floor" "$n" /bin/true; }
run_spawn() { timed ts "$floor" -m spawn "$n" /bin/true; }
run_reap() { timed tq "$floor" -m reap "$n" /bin/true; }
run_perfreg() {
	timed tp "$perfreg" run -n "$n" --warmup 0 --monitor none --json \
	    t=/bin/true
	own=$(own_of "$tmp/out")
}
run_monitors() {
	timed tm "$perfreg" run -n "$n" --warmup 0 --json t=/bin/true
	own_mon=$(own_of "$tmp/out")
}
run_old() {
	timed to "$old" run -n "$n" --warmup 0 --monitor none --json \
	    t=/bin/true
	own_old=$(own_of "$tmp/out")
}
run_hyperfine() {
	th=
	[ -n "$hf" ] || return 0
	timed th "$hf" -N --runs "$n" --style none --export-json "$tmp/hf.json" true
}

# The order of the loops rotates from round to round.
tools="floor perfreg hyperfine spawn reap monitors"
[ -z "$old" ] || tools="$tools old"
nt=$(echo $tools | wc -w)
r=1
while [ "$r" -le "$reps" ]; do
	k=$(( (r - 1) % nt ))
	set -- $tools $tools
	shift $k
	i=0
	for t in "$@"; do
		[ "$i" -lt "$nt" ] || break
		run_$t
		i=$((i + 1))
	done
	if [ -n "$old" ]; then
		ratio "$to" "$tf" >> "$tmp/r_old"
		echo "$own_old" | awk '{ printf "%.1f\n", $1 * 1e6 }' >> "$tmp/own_old"
		echo "round $r: old perfreg / floor $(tail -n 1 "$tmp/r_old"), old own us/run $(tail -n 1 "$tmp/own_old")"
	fi
	echo "$own" | awk '{ printf "%.1f\n", $1 * 1e6 }' >> "$tmp/own"
	echo "$own_mon" | awk '{ printf "%.1f\n", $1 * 1e6 }' >> "$tmp/own_mon"
	echo "$own $tf $n" | awk '{ printf "%.4f\n", 1 + $1 / ($2 / $3) }' \
	    >> "$tmp/r_own"
	ratio "$tp" "$tf" >> "$tmp/r_pr"
	ratio "$tp_cpu" "$tf_cpu" >> "$tmp/c_pr"
	rh=- ch=-
	if [ -n "$th" ]; then
		rh=$(ratio "$th" "$tf")
		ch=$(ratio "$th_cpu" "$tf_cpu")
		echo "$rh" >> "$tmp/r_hf"
		echo "$ch" >> "$tmp/c_hf"
	fi
	ratio "$ts" "$tf" >> "$tmp/r_sp"
	ratio "$ts_cpu" "$tf_cpu" >> "$tmp/c_sp"
	ratio "$tq" "$ts" >> "$tmp/r_re"
	printf '%5d  %12s  %14s  %16s  %13s  %15s  %17s  %19s  %18s  %13s  %11s  %10s\n' "$r" \
	    "$(per "$tf")" "$(per "$tp")" "$([ -n "$th" ] && per "$th" || echo -)" \
	    "$(ratio "$tp" "$tf")" "$rh" "$(tail -n 1 "$tmp/c_pr")" "$ch" \
	    "$(tail -n 1 "$tmp/own")" "$(tail -n 1 "$tmp/own_mon")" \
	    "$(tail -n 1 "$tmp/r_sp")" "$(tail -n 1 "$tmp/r_re")"
	r=$((r + 1))
done

echo "median perfreg run / floor:   $(spread < "$tmp/r_pr")"
if [ -n "$hf" ]; then
	echo "median hyperfine -N / floor:  $(spread < "$tmp/r_hf")"
fi
echo "median CPU time, perfreg run / floor:  $(spread < "$tmp/c_pr")"
if [ -n "$hf" ]; then
	echo "median CPU time, hyperfine -N / floor: $(spread < "$tmp/c_hf")"
fi
echo "median perfreg own time per run: $(spread < "$tmp/own") us"
echo "median perfreg own time per run with the default monitors: $(spread < "$tmp/own_mon") us"
echo "median pr_spawn_run loop / floor: $(spread < "$tmp/r_sp")"
echo "median CPU time, pr_spawn_run loop / floor: $(spread < "$tmp/c_sp")"
echo "median with the escape safety / without: $(spread < "$tmp/r_re")"
echo "load average at the end: $(loadavg)"
echo "median (floor + perfreg's own time) / floor: $(spread < "$tmp/r_own")"
if [ -n "$old" ]; then
	echo "median old perfreg ($old) / floor: $(spread < "$tmp/r_old")"
	echo "median old perfreg own time per run: $(spread < "$tmp/own_old") us"
fi
