#!/bin/sh
# bench/parse-sizes.sh - the hostile sizes of issue 12, timed per input
# size, with a peer reading the same input side by side in the same run:
# - `perfreg parse` of N Go benchmark lines, against awk collecting the
#   same values per benchmark name (what a script would do);
# - `perfreg compare` of a CSV with N columns and 3 rows against itself
#   (the reading and the statistics), against awk reading the columns;
# - `perfreg parse --metric 'x=\s+(\d+)'` on N bytes of spaces, against
#   `grep -cP` with the same expression (PCRE2 with its JIT).
# For each size: perfreg's seconds, the peer's, their ratio, and perfreg's
# growth against the previous size (about 2 for a doubling when linear,
# 4 when quadratic).
#
# Usage: bench/parse-sizes.sh [SCALE]
#   SCALE  multiplies the sizes (default 1: up to 40,000 Go lines, 30,000
#          columns, 200 KB of spaces, the sizes of the issue)
# Environment: PERFREG, the binary to time; by default perfreg is built
# optimised in build/bench.  Needs awk, grep and GNU date.
set -eu
scale=${1:-1}
case $scale in '' | *[!0-9]* | 0) echo "usage: $0 [SCALE]" >&2; exit 2 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"
bench_perfreg
dir=$(mktemp -d "${TMPDIR:-/tmp}/parse-sizes.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'exit 2' HUP INT TERM
export LC_ALL=C

now() { date +%s.%N; }
# secs CMD...: the wall seconds of CMD (its output and status ignored).
secs() {
	t0=$(now)
	"$@" >/dev/null 2>&1 || :
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }'
}
row() { # what size perfreg peer previous
	awk -v w="$1" -v n="$2" -v p="$3" -v q="$4" -v prev="$5" 'BEGIN {
		r = (q > 0) ? p / q : 0
		g = (prev > 0) ? sprintf("%.2f", p / prev) : "-"
		printf "%-10s %9d %10.3f %10.3f %8.2f %8s\n", w, n, p, q, r, g }'
}
printf '%-10s %9s %10s %10s %8s %8s\n' input size perfreg_s peer_s ratio growth

prev=0
for n in 5000 10000 20000 40000; do
	n=$((n * scale))
	awk -v n="$n" 'BEGIN { print "pkg: example.com/x"
		for (i = 0; i < n; i++)
			printf "BenchmarkF%d-8 \t 1000000\t %d.5 ns/op\t 12 B/op\n", i, i }' \
	    >"$dir/go.txt"
	p=$(secs "$PERFREG" parse "$dir/go.txt")
	q=$(secs awk '/^Benchmark/ { v[$1] = v[$1] " " $3 } END { for (k in v) print k, v[k] }' "$dir/go.txt")
	row gobench "$n" "$p" "$q" "$prev"
	prev=$p
done

prev=0
for n in 3750 7500 15000 30000; do
	n=$((n * scale))
	awk -v n="$n" 'BEGIN {
		for (r = 0; r < 4; r++) {
			for (i = 0; i < n; i++)
				printf "%s%s", i ? "," : "", r ? i + r : "c" i
			print "" } }' >"$dir/wide.csv"
	p=$(secs "$PERFREG" compare "$dir/wide.csv" "$dir/wide.csv")
	q=$(secs awk -F, 'NR > 1 { for (i = 1; i <= NF; i++) s[i] += $i } END { for (i in s) print i, s[i] }' "$dir/wide.csv")
	row csv-cols "$n" "$p" "$q" "$prev"
	prev=$p
done

prev=0
for n in 25000 50000 100000 200000; do
	n=$((n * scale))
	awk -v n="$n" 'BEGIN { printf "x"; for (i = 0; i < n; i++) printf " "; print "" }' \
	    >"$dir/spaces.txt"
	p=$(secs "$PERFREG" parse --format none --metric 'x=\s+(\d+)' "$dir/spaces.txt")
	q=$(secs grep -cP '\s+(\d+)' "$dir/spaces.txt")
	row regex "$n" "$p" "$q" "$prev"
	prev=$p
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
