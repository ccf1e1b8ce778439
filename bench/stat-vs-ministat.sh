#!/bin/sh
# bench/stat-vs-ministat.sh - `perfreg stat` against ministat on the same
# two files: wall time, CPU time (user + system) and peak resident
# memory, the median of RUNS runs of each, interleaved (perfreg, ministat,
# perfreg, ...) so that both see the same machine, with the quartiles of
# the ratios of each round (perfreg's time over the ministat of the same
# round); and whether their figures agree (N, Min, Max, Avg,
# Stddev and the "Difference at 95.0% confidence" lines; the median is
# left out on purpose: perfreg averages the two middle values of an even
# count, ministat does not).
#
# Usage: bench/stat-vs-ministat.sh [-r RUNS] [-s SHAPES] [-c CMDS] [-k]
#                                   [-d DATADIR] [-C] [VALUES...]
#   VALUES  values per file, default 100000 1000000 10000000
#   -r      runs of each tool per size, default 5
#   -c      the perfreg commands timed against ministat, default "stat";
#           "stat compare" also times `perfreg compare A B` on the same
#           files in the same interleaved rounds (its figures are its
#           own, so only stat's are checked against ministat's)
#   -s      the number formats, default "f6 g17 int": f6 run times in
#           seconds with 6 decimals (9 bytes a value), g17 doubles
#           around 100 printed in full with %.17g (19 bytes, what a
#           script that prints doubles writes), int integer nanoseconds
#           (8 bytes)
#   -k      keep the data directory (printed) instead of removing it
#   -C      cold: do not read the two files into the page cache before
#           each timed run (see "cached" below)
#   -d      the data files are kept in DATADIR (made if missing) as
#           SHAPE-VALUES-SEED.txt and used again by later runs with the
#           same -d: awk takes about 14 s of CPU a file of 10^7 values, so
#           a second run saves most of its cost.  A file is written
#           under a temporary name and renamed, so an interrupted run
#           leaves no half file behind.
# Environment: PERFREG, the binary to time; by default perfreg is built
# optimised in build/bench.  PERFREG_OLD, another perfreg (old main, say)
# timed in the same rounds: its rows are "old-stat", "old-compare", and
# its ratios are also against the ministat of the same rounds.  TMPDIR, where the data go (about 9 bytes a
# value: 180 MB for two files of 10^7).
#
# Needs ministat, GNU time (/usr/bin/time) and GNU date (Debian packages
# ministat, time, coreutils), awk and cmake.  The data are seeded: two
# samples, the second 1.3% slower (means 1.50 and 1.52 s, standard
# deviation 1% of the mean), in each shape of -s.
#
# The page cache: this VM's kernel pages out memory not touched for
# about a minute (DAMON's "pageout" scheme, kdamond; 2026-12-03: age 12
# aggregations of 5 s, up to 128 MiB a second), page cache included, so
# data files written or read a minute before are mostly read from disk
# again, and both tools' wall times then hold the disk's.  By default each
# timed run is preceded by a read of the two files (cat, not timed), and
# the "cached" column gives the smallest share of the two files' pages
# that fincore (util-linux) found resident at the start of a run of that
# row: 100 when every run read from memory.  -C leaves the cache alone
# (cold runs, the share as found).  "-" when fincore is missing.
#
# Targets at 10^7 values (issue 16): time ratio (perfreg / ministat) at
# most 0.10 for every shape, peak memory at most 1.1 times the 8 bytes a
# value perfreg must hold, identical figures.  The script prints whether each is met, and
# exits 1 when the figures differ, 2 on a usage or setup error.
set -eu

runs=5
keep=0
cold=0
cache=
shapes="f6 g17 int"
cmds=stat
while getopts r:s:c:kd:C opt; do
	case $opt in
	r) runs=$OPTARG ;;
	s) shapes=$OPTARG ;;
	c) cmds=$OPTARG ;;
	k) keep=1 ;;
	d) cache=$OPTARG ;;
	C) cold=1 ;;
	*) echo "usage: $0 [-r RUNS] [-s SHAPES] [-c CMDS] [-k] [-d DATADIR]" \
		"[-C] [VALUES...]" >&2
		exit 2 ;;
	esac
done
for c in $cmds; do
	case $c in
	stat | compare) ;;
	*) echo "$0: -c: unknown command '$c' (stat or compare)" >&2
		exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 100000 1000000 10000000
case $runs in
'' | *[!0-9]* | 0) echo "$0: -r wants a positive number" >&2; exit 2 ;;
esac
for n in "$@"; do
	case $n in
	'' | *[!0-9]* | 0 | 1 | 2) echo "$0: bad size '$n' (3 or more)" >&2
		exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
for tool in ministat /usr/bin/time awk; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "$0: $tool is missing (scripts/deps.sh installs it)" >&2
		exit 2
	}
done
. "$root/bench/lib.sh"
bench_perfreg
# The rows: each command of -c, by this perfreg and by PERFREG_OLD.
rows=$cmds
if [ -n "${PERFREG_OLD:-}" ]; then
	[ -x "$PERFREG_OLD" ] ||
	    { echo "$0: $PERFREG_OLD is not executable" >&2; exit 2; }
	for c in $cmds; do
		rows="$rows old-$c"
	done
fi

if [ -n "$cache" ]; then
	mkdir -p "$cache" && cache=$(cd "$cache" && pwd) ||
	    { echo "$0: -d: cannot use '$cache'" >&2; exit 2; }
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/stat-vs-ministat.XXXXXX")
if [ "$keep" = 1 ]; then
	echo "data in $dir" >&2
else
	trap 'rm -rf "$dir"' EXIT
	trap 'exit 2' HUP INT TERM
fi

export LC_ALL=C

# gen SHAPE N SEED MEAN: N run times around MEAN seconds, approximately
# normal (sum of 12 uniforms), standard deviation 1% of the mean, in
# SHAPE: f6 seconds as %.6f, g17 the same times 66.67 (around 100) as
# %.17g, int nanoseconds as integers.
gen() {
	case $1 in
	f6) fmt='%.6f\n' scale=1 ;;
	g17) fmt='%.17g\n' scale=66.666666666666671 ;;
	int) fmt='%d\n' scale=1e9 ;;
	*) echo "$0: unknown shape '$1' (f6, g17 or int)" >&2; exit 2 ;;
	esac
	awk -v n="$2" -v seed="$3" -v mean="$4" -v fmt="$fmt" \
	    -v scale="$scale" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++) {
			s = 0
			for (k = 0; k < 12; k++)
				s += rand()
			x = (mean + 0.01 * mean * (s - 6)) * scale
			if (fmt == "%d\n")
				x = int(x)
			printf fmt, x
		}
	}'
}

# data SHAPE N SEED MEAN FILE: FILE made by gen, or, with -d, linked to
# the cached copy in the data directory (generated there first if it is
# not there yet).
gen_version=1 # bump when gen's output for the same arguments changes
data() {
	if [ -z "$cache" ]; then
		gen "$1" "$2" "$3" "$4" >"$5"
		return
	fi
	# Every argument of gen and its version in the name: a change of
	# either makes new files, never a stale one used again.
	f=$cache/v$gen_version-$1-$2-$3-$4.txt
	if [ ! -s "$f" ]; then
		gen "$1" "$2" "$3" "$4" >"$f.tmp.$$"
		mv "$f.tmp.$$" "$f"
	fi
	ln -sf "$f" "$5"
}

now_ns() {
	date +%s%N
}

# cached: the percentage of the two data files' pages in the page cache
# now (fincore), or -1 when fincore is missing.
cached() {
	command -v fincore >/dev/null 2>&1 || { echo -1; return; }
	fincore -b -n -o RES,SIZE "$dir/a.txt" "$dir/b.txt" |
	    awk '{ r += $1; s += $2 } END { p = s > 0 ? 100 * r / s : 0; printf "%.0f\n", (p > 100 ? 100 : p) }'
}

# run CMD...: runs CMD with its output in $dir/out.txt (after reading the
# two data files into the page cache, unless -C); prints its start and
# end (ns), its peak resident memory (KiB), its user and system CPU time
# (s, GNU time's hundredths) and the share of the files cached at its
# start (cached).
run() {
	[ "$cold" = 1 ] || cat "$dir/a.txt" "$dir/b.txt" >/dev/null
	c0=$(cached)
	t0=$(now_ns)
	/usr/bin/time -f '%M %U %S' -o "$dir/rss" "$@" \
	    >"$dir/out.txt" 2>"$dir/err.txt" ||
	    { echo "$0: failed: $*" >&2; cat "$dir/err.txt" >&2; exit 2; }
	t1=$(now_ns)
	echo "$t0 $t1 $(tail -n 1 "$dir/rss") $c0"
}

# The median of the first (or second) numbers of the lines of a file.
median() {
	sort -n -k "$2,$2" "$1" | awk -v k="$2" '
	    { v[NR] = $k }
	    END {
		if (NR % 2)
			print v[(NR + 1) / 2]
		else
			print (v[NR / 2] + v[NR / 2 + 1]) / 2
	    }'
}

# quartiles FILE: "q1-q3" of the numbers of FILE, one a line (type 7).
quartiles() {
	sort -g "$1" | awk '
	    { v[NR] = $1 }
	    function q(p,  h, j) {
		h = (NR - 1) * p; j = int(h)
		return (j + 1 >= NR) ? v[NR] : v[j + 1] + (h - j) * (v[j + 2] - v[j + 1])
	    }
	    END { printf "%.3f-%.3f", q(0.25), q(0.75) }'
}

# The figures both tools print: N Min Max Avg Stddev of each file (the
# median dropped) and the difference lines.
figures() {
	awk '
	    /^[x+] +[0-9]+ / { print $1, $2, $3, $4, $6, $7; next }
	    /^Difference at / { d = 4 }
	    /^No difference proven/ { print; next }
	    d > 0 { print; d--; if (d == 0) exit }' "$1"
}

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%11s %5s %9s %9s %9s %6s %11s %9s %9s %6s %11s %8s %8s %6s %6s %6s  %s\n' \
    "command" "shape" "values" "perfreg" "ministat" "wall" "wall" "perfreg" \
    "ministat" "CPU" "CPU" "perfreg" "ministat" "memory" "bytes" "cached" \
    "figures"
printf '%11s %5s %9s %9s %9s %6s %11s %9s %9s %6s %11s %8s %8s %6s %6s %6s\n' \
    "" "" "per file" "wall s" "wall s" "ratio" "quartiles" "CPU s" \
    "CPU s" "ratio" "quartiles" "MiB" "MiB" "ratio" "a value" "% min"
status=0
: >"$dir/last"
for shape in $shapes; do
for n in "$@"; do
	data "$shape" "$n" 1 1.50 "$dir/a.txt"
	data "$shape" "$n" 2 1.52 "$dir/b.txt"
	: >"$dir/m.times"
	for c in $rows; do
		: >"$dir/p.$c.times"
	done
	# One round: each perfreg command (old ones after new ones), then
	# ministat.
	i=0
	while [ "$i" -lt "$runs" ]; do
		for c in $rows; do
			case $c in
			old-*) bin=$PERFREG_OLD sub=${c#old-} ;;
			*) bin=$PERFREG sub=$c ;;
			esac
			run "$bin" "$sub" "$dir/a.txt" "$dir/b.txt" \
			    >>"$dir/p.$c.times"
			[ "$c" = stat ] && figures "$dir/out.txt" >"$dir/p.fig"
		done
		run ministat "$dir/a.txt" "$dir/b.txt" >>"$dir/m.times"
		figures "$dir/out.txt" >"$dir/m.fig"
		i=$((i + 1))
	done
	# Per run: wall s, peak KiB, CPU s (user + system), % cached.
	awk '{ printf "%.6f %d %.2f %d\n", ($2 - $1) / 1e9, $3, $4 + $5, $6 }' \
	    "$dir/m.times" >"$dir/m.s"
	ms=$(median "$dir/m.s" 1)
	mk=$(median "$dir/m.s" 2)
	mc=$(median "$dir/m.s" 3)
	for c in $rows; do
		awk '{ printf "%.6f %d %.2f %d\n", ($2 - $1) / 1e9, $3, $4 + $5, $6 }' \
		    "$dir/p.$c.times" >"$dir/p.s"
		# The least cached start of this row's runs and ministat's.
		ca=$(cat "$dir/p.s" "$dir/m.s" | awk 'NR == 1 || $4 < m { m = $4 } END { print (m < 0 ? "-" : m) }')
		ps=$(median "$dir/p.s" 1)
		pk=$(median "$dir/p.s" 2)
		pc=$(median "$dir/p.s" 3)
		# The ratios of each round: this command's run over the
		# ministat of the same round.
		paste -d' ' "$dir/p.s" "$dir/m.s" |
		    awk '{ print $1 / $5 }' >"$dir/r.wall"
		paste -d' ' "$dir/p.s" "$dir/m.s" |
		    awk '{ print ($7 > 0 ? $3 / $7 : 0) }' >"$dir/r.cpu"
		wq=$(quartiles "$dir/r.wall")
		cq=$(quartiles "$dir/r.cpu")
		if [ "$c" != stat ]; then
			same="(not checked)"
		elif [ -s "$dir/p.fig" ] && cmp -s "$dir/p.fig" "$dir/m.fig"
		then
			same=identical
		else
			same=DIFFERENT
			status=1
			diff "$dir/m.fig" "$dir/p.fig" | sed 's/^/    /' >&2 || :
		fi
		awk -v c="$c" -v sh="$shape" -v n="$n" -v ps="$ps" -v ms="$ms" \
		    -v pc="$pc" -v mc="$mc" -v wq="$wq" -v cq="$cq" \
		    -v pk="$pk" -v mk="$mk" -v same="$same" -v ca="$ca" 'BEGIN {
			printf "%11s %5s %9d %9.3f %9.3f %6.3f %11s %9.2f" \
			    " %9.2f %6.3f %11s %8.1f %8.1f %6.3f %6.2f %6s  %s\n",
			    c, sh, n, ps, ms, ps / ms, wq, pc, mc,
			    (mc > 0 ? pc / mc : 0), cq, pk / 1024, mk / 1024,
			    pk / mk, pk * 1024 / (16 * n), ca, same
		}'
		echo "$c $shape $n $ps $ms $pk $pc $mc $wq $cq $ca $same" \
		    >"$dir/last.$c"
	done
done
for c in $rows; do
	cat "$dir/last.$c" >>"$dir/last"
done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

# The targets, judged at the last size given, for each command and shape.
awk -v runs="$runs" -v cold="$cold" '{
	n = $3; t = $4 / $5; m = $6 * 1024 / (16 * n)
	u = $8 > 0 ? $7 / $8 : 0
	printf "\n%s, %s at %d values per file (median of %d runs):\n", $1,
	    $2, n, runs
	printf "  time:    perfreg takes %.3f of ministat'"'"'s time " \
	    "(target <= 0.10): %s; each round %s\n", t,
	    t <= 0.10 ? "met" : "NOT met", $9
	printf "  CPU:     %.3f of ministat'"'"'s user + system time; " \
	    "each round %s\n", u, $10
	printf "  memory:  %.2f times the 8 bytes a value held " \
	    "(target <= 1.1): %s\n", m, m <= 1.1 ? "met" : "NOT met"
	printf "  cache:   at least %s%% of the files in the page cache at " \
	    "the start of each run (%s)\n", $11,
	    cold ? "-C: as found" : "read into it before each run"
	$1 = $2 = $3 = $4 = $5 = $6 = $7 = $8 = $9 = $10 = $11 = ""
	sub(/^ +/, "")
	printf "  figures: %s\n", $0
	if (n < 10000000)
		printf "(the targets are set for 10^7 values per file)\n"
}' "$dir/last"
exit "$status"
