#!/bin/sh
# bench/compare-move.sh - what moving `perfreg compare` onto the report
# model (issue 9 item 1) costs: two perfreg binaries (before and after
# the change) and ministat, interleaved in rounds (old, new, ministat,
# then the next round), on the same inputs, so that all three see the
# same machine; the medians, and each perfreg as a ratio to ministat and
# new to old.
#
#  1. `compare` of two files of N values each (default 10^6, %.6f, the
#     second 1.3% slower) against `ministat -A` of the same files.
#  2. `compare --campaign` of K runs per variant (default 10^5, five
#     metrics a run, tests/store/gen_export.py) imported into SQLite;
#     ministat gets the wall-time values ("wall") of the two variants as files,
#     the peer's work on the same numbers.
#
# Usage: bench/compare-move.sh OLD NEW [N [K [ROUNDS]]]
#   OLD, NEW  perfreg binaries (release builds: scripts/build.sh), e.g.
#             a build of main before the change and build/release/perfreg
#   ROUNDS    default 5
# Needs ministat, python3, awk, bc, GNU date.  A command that fails is
# an error (its figures would be meaningless).  Prints the load average at the
# start and at the end: only ratios of one run mean anything on a shared
# machine.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OLD NEW [N [K [ROUNDS]]]" >&2; exit 2; }
OLD=$1 NEW=$2 N=${3:-1000000} K=${4:-100000} R=${5:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s%N; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
median() { sort -n | awk '{ v[NR] = $1 } END {
	print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# time_of FILE CMD...: appends the wall time of CMD in seconds to FILE.
time_of() {
	f=$1
	shift
	t0=$(now)
	"$@" > /dev/null 2> "$tmp/err" ||
	    { echo "$0: $*: $(head -1 "$tmp/err")" >&2; exit 1; }
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.4f\n", ($2 - $1) / 1e9 }' >> "$f"
}
report() { # label
	o=$(median < "$tmp/old") n=$(median < "$tmp/new") p=$(median < "$tmp/peer")
	printf '%s: old %.3f s, new %.3f s, ministat %.3f s; old/ministat %.3f, new/ministat %.3f, new/old %.3f\n' \
	    "$1" "$o" "$n" "$p" "$(echo "$o / $p" | bc -l)" \
	    "$(echo "$n / $p" | bc -l)" "$(echo "$n / $o" | bc -l)"
}

echo "load at start: $(load)"
awk -v n="$N" 'BEGIN { srand(7); for (i = 0; i < n; i++) {
	u = rand() + rand() + rand() - 1.5
	printf "%.6f\n", 1.50 * (1 + 0.02 * u) > "'"$tmp"'/a.txt"
	printf "%.6f\n", 1.52 * (1 + 0.02 * u) > "'"$tmp"'/b.txt" } }'
rm -f "$tmp/old" "$tmp/new" "$tmp/peer"
for i in $(seq "$R"); do
	time_of "$tmp/old" "$OLD" compare "$tmp/a.txt" "$tmp/b.txt"
	time_of "$tmp/new" "$NEW" compare "$tmp/a.txt" "$tmp/b.txt"
	time_of "$tmp/peer" ministat -A "$tmp/a.txt" "$tmp/b.txt"
done
report "1. compare, 2 x $N values"

python3 "$root/tests/store/gen_export.py" $((2 * K)) > "$tmp/c.jsonl"
# Each binary reads a store of its own schema (the store's schema may
# have moved between the two).
"$OLD" import --db "$tmp/old.db" "$tmp/c.jsonl" > /dev/null
"$NEW" import --db "$tmp/c.db" "$tmp/c.jsonl" > /dev/null
"$NEW" export --db "$tmp/c.db" | python3 -c '
import json, sys
out = {}
for line in sys.stdin:
    r = json.loads(line)
    if r.get("type") != "run" or r.get("warmup") or not r.get("ok"):
        continue
    for m in r["metrics"]:
        if m[0] == "wall":
            out.setdefault(r["variant"], []).append(m[3])
for i, (v, xs) in enumerate(sorted(out.items())):
    with open(sys.argv[1] + "/v%d.txt" % i, "w") as f:
        f.write("".join("%r\n" % x for x in xs))
' "$tmp"
rm -f "$tmp/old" "$tmp/new" "$tmp/peer"
for i in $(seq "$R"); do
	time_of "$tmp/old" "$OLD" compare --db "$tmp/old.db" --campaign bench
	time_of "$tmp/new" "$NEW" compare --db "$tmp/c.db" --campaign bench
	time_of "$tmp/peer" ministat -A "$tmp/v0.txt" "$tmp/v1.txt"
done
report "2. compare --campaign, $K runs a variant"
echo "load at end: $(load)"
