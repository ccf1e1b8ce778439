#!/bin/sh
# bench/startup.sh - what starting perfreg costs, one build against
# another in the same rounds (issue 16: libpq loaded only for a
# postgresql:// store).
#
# usage: bench/startup.sh NEW_PERFREG OLD_PERFREG [K [ROUNDS]]
#   Each round runs `perfreg --version` K times (default 200) with the
#   new build, then with the old, then `perfreg stat` on a file of three
#   values K times with each; the order of the two builds alternates from
#   round to round (default 15 rounds), so that drift of the machine falls
#   on both alike.  Each figure is a loop's elapsed time divided by K: it
#   includes the shell's fork and exec, the same for both builds, so the
#   difference of the two is what the builds differ by and the ratio
#   understates it.  The medians over the rounds are printed with
#   quartiles, and the number of shared libraries each build loads (ldd).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"

new=${1:?usage: startup.sh NEW_PERFREG OLD_PERFREG [K [ROUNDS]]}
old=${2:?usage: startup.sh NEW_PERFREG OLD_PERFREG [K [ROUNDS]]}
k=${3:-200}
reps=${4:-15}
for p in "$new" "$old"; do
	[ -x "$p" ] || { echo "startup: no $p" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '1\n2\n3\n' > "$tmp/v"

now() { date +%s%N; }
# loop PERFREG ARGS...: K runs; prints microseconds a run.
loop() {
	p=$1
	shift
	t0=$(now)
	i=0
	while [ "$i" -lt "$k" ]; do
		"$p" "$@" > /dev/null
		i=$((i + 1))
	done
	t1=$(now)
	echo "$t0 $t1 $k" | awk '{ printf "%.1f\n", ($2 - $1) / $3 / 1e3 }'
}
spread() { bench_spread; }
libs() { ldd "$1" 2>/dev/null | grep -c '=>\|ld-linux' || true; }

echo "startup: $k runs a loop, $reps rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "shared libraries loaded (ldd): new $(libs "$new"), old $(libs "$old")"
echo "round  version new us  old us  new/old  stat new us  old us  new/old"
: > "$tmp/rv"
: > "$tmp/rs"
: > "$tmp/dv"
: > "$tmp/ds"
r=1
while [ "$r" -le "$reps" ]; do
	if [ $((r % 2)) -eq 1 ]; then
		vn=$(loop "$new" --version)
		vo=$(loop "$old" --version)
		so=$(loop "$old" stat "$tmp/v")
		sn=$(loop "$new" stat "$tmp/v")
	else
		vo=$(loop "$old" --version)
		vn=$(loop "$new" --version)
		sn=$(loop "$new" stat "$tmp/v")
		so=$(loop "$old" stat "$tmp/v")
	fi
	rv=$(echo "$vn $vo" | awk '{ printf "%.3f", $1 / $2 }')
	rs=$(echo "$sn $so" | awk '{ printf "%.3f", $1 / $2 }')
	echo "$rv" >> "$tmp/rv"
	echo "$rs" >> "$tmp/rs"
	echo "$vo $vn" | awk '{ printf "%.3f\n", ($1 - $2) / 1e3 }' >> "$tmp/dv"
	echo "$so $sn" | awk '{ printf "%.3f\n", ($1 - $2) / 1e3 }' >> "$tmp/ds"
	printf '%5d  %14s  %6s  %7s  %11s  %6s  %7s\n' "$r" "$vn" "$vo" "$rv" \
	    "$sn" "$so" "$rs"
	r=$((r + 1))
done
echo "median --version new / old: $(spread < "$tmp/rv")"
echo "median --version old - new: $(spread < "$tmp/dv") ms a run"
echo "median stat new / old: $(spread < "$tmp/rs")"
echo "median stat old - new: $(spread < "$tmp/ds") ms a run"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
