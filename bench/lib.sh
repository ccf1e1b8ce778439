# shellcheck shell=sh disable=SC2154 # root is the caller's
# Shell helpers the benchmarks of bench/ share; sourced, never run.
#
# bench_build TARGET builds TARGET of an optimised perfreg tree in
# build/bench (tests off, warnings not errors, so that a benchmark runs
# on a compiler the project does not test with).  bench_perfreg sets
# PERFREG to the perfreg binary to time: the one the caller named in
# PERFREG, or build/bench's, built on the way.  Both need root, the
# repository's top directory, set before this file is sourced.

bench_build() {
	echo "building $1 (Release) in build/bench ..." >&2
	cmake -S "$root" -B "$root/build/bench" -DCMAKE_BUILD_TYPE=Release \
	    -DPERFREG_TESTS=OFF -DPERFREG_WERROR=OFF >/dev/null
	cmake --build "$root/build/bench" --target "$1" -j 2 >/dev/null
}

bench_perfreg() {
	if [ -z "${PERFREG:-}" ]; then
		bench_build perfreg_cli
		PERFREG=$root/build/bench/perfreg
	fi
	[ -x "$PERFREG" ] || {
		echo "$0: $PERFREG is not executable" >&2
		exit 2
	}
}

# bench_spread: "median (quartiles q1-q3, range min-max)" of the numbers
# on stdin, three decimals ("-" when there are none).
bench_spread() {
	sort -g | awk '
	    { v[NR] = $1 }
	    function q(p,  h, j) {
		h = (NR - 1) * p; j = int(h)
		return (j + 1 >= NR) ? v[NR] : v[j + 1] + (h - j) * (v[j + 2] - v[j + 1])
	    }
	    END {
		if (NR == 0) { print "-"; exit }
		printf "%.3f (quartiles %.3f-%.3f, range %.3f-%.3f)\n",
		    q(0.5), q(0.25), q(0.75), v[1], v[NR]
	    }'
}
