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
# median is the result: the three tools of a round shared its load.
# perfreg's own figure, from its JSON (time per run spent outside the
# measured commands), is printed too, and as a ratio to the floor,
# (floor + own) / floor: less sensitive to the load than whole-tool
# times, since it is measured inside one process per round.
#
# Two more loops price perfreg's spawning apart from its session: the
# floor's loop through pr_spawn_run (spawn-floor -m spawn: two pipes,
# /dev/null, a process group, pidfd and poll, the group's kill), and the
# same with the safety against escaped processes that perfreg run has
# (-m reap: a child subreaper, a wait4 for orphans after each run).
# spawn/floor is what perfreg's way of spawning costs, reap/spawn what
# the safety costs.
set -eu

build=${1:?usage: run-overhead.sh BUILD_DIR [N [REPS]]}
n=${2:-2000}
reps=${3:-7}
perfreg=$build/perfreg
floor=$build/bench/spawn-floor
[ -x "$perfreg" ] || { echo "run-overhead: no $perfreg" >&2; exit 2; }
[ -x "$floor" ] || { echo "run-overhead: no $floor" >&2; exit 2; }
hf=$(command -v hyperfine || true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
elapsed() { echo "$2 $1" | awk '{ printf "%.6f", $1 - $2 }'; }

per() { echo "$1 $n" | awk '{ printf "%.1f", $1 / $2 * 1e6 }'; }
ratio() { echo "$1 $2" | awk '{ printf "%.3f\n", $1 / $2 }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }
echo "runs of /bin/true per tool: $n; $reps interleaved rounds; load average $(loadavg)"
echo "round  floor us/run  perfreg us/run  hyperfine us/run  perfreg/floor  hyperfine/floor  perfreg own us/run  spawn/floor  reap/spawn"
: > "$tmp/r_sp"
: > "$tmp/r_re"
: > "$tmp/r_pr"
: > "$tmp/r_hf"
: > "$tmp/own"
: > "$tmp/r_own"
run_floor() {
	t0=$(now); "$floor" "$n" /bin/true > /dev/null; t1=$(now)
	tf=$(elapsed "$t0" "$t1")
}
run_spawn() {
	t0=$(now); "$floor" -m spawn "$n" /bin/true > /dev/null; t1=$(now)
	ts=$(elapsed "$t0" "$t1")
}
run_reap() {
	t0=$(now); "$floor" -m reap "$n" /bin/true > /dev/null; t1=$(now)
	tq=$(elapsed "$t0" "$t1")
}
run_perfreg() {
	t0=$(now)
	"$perfreg" run -n "$n" --warmup 0 --json t=/bin/true > "$tmp/pr.json"
	t1=$(now)
	tp=$(elapsed "$t0" "$t1")
	own=$(sed -n 's/^ *"overhead_s": *\([0-9.eE+-]*\).*/\1/p' "$tmp/pr.json" | head -n 1)
}
run_hyperfine() {
	th=
	[ -n "$hf" ] || return 0
	t0=$(now)
	"$hf" -N --runs "$n" --style none --export-json "$tmp/hf.json" true > /dev/null 2>&1
	t1=$(now)
	th=$(elapsed "$t0" "$t1")
}

# The order of the five loops rotates from round to round.
tools="floor perfreg hyperfine spawn reap"
r=1
while [ "$r" -le "$reps" ]; do
	k=$(( (r - 1) % 5 ))
	set -- $tools $tools
	shift $k
	for t in $1 $2 $3 $4 $5; do
		run_$t
	done
	echo "$own" | awk '{ printf "%.1f\n", $1 * 1e6 }' >> "$tmp/own"
	echo "$own $tf $n" | awk '{ printf "%.4f\n", 1 + $1 / ($2 / $3) }' \
	    >> "$tmp/r_own"
	ratio "$tp" "$tf" >> "$tmp/r_pr"
	rh=-
	if [ -n "$th" ]; then
		rh=$(ratio "$th" "$tf")
		echo "$rh" >> "$tmp/r_hf"
	fi
	ratio "$ts" "$tf" >> "$tmp/r_sp"
	ratio "$tq" "$ts" >> "$tmp/r_re"
	printf '%5d  %12s  %14s  %16s  %13s  %15s  %18s  %11s  %10s\n' "$r" \
	    "$(per "$tf")" "$(per "$tp")" "$([ -n "$th" ] && per "$th" || echo -)" \
	    "$(ratio "$tp" "$tf")" "$rh" "$(tail -n 1 "$tmp/own")" \
	    "$(tail -n 1 "$tmp/r_sp")" "$(tail -n 1 "$tmp/r_re")"
	r=$((r + 1))
done

echo "median perfreg run / floor:   $(median < "$tmp/r_pr")"
if [ -n "$hf" ]; then
	echo "median hyperfine -N / floor:  $(median < "$tmp/r_hf")"
fi
echo "median perfreg own time per run: $(median < "$tmp/own") us"
echo "median pr_spawn_run loop / floor: $(median < "$tmp/r_sp")"
echo "median with the escape safety / without: $(median < "$tmp/r_re")"
echo "load average at the end: $(loadavg)"
echo "median (floor + perfreg's own time) / floor: $(median < "$tmp/r_own")"
