#!/bin/sh
# Builds the libFuzzer targets of the parsers (clang, ASan+UBSan) in
# build/fuzz (or $FUZZ_BUILD) and runs each for SECONDS seconds (default 30), seeded with
# the captured outputs under tests/data.  The seeds are copied into a
# fresh corpus directory, so the tree is never written to; crashes, leaks
# and timeouts are kept in build/fuzz/artifacts/TARGET/.  Exits non-zero
# when any target found one.
#
# usage: scripts/fuzz.sh [SECONDS [TARGET...]]
#   CI: scripts/fuzz.sh 30
# The mutation seed is FUZZ_SEED (1 by default), so that a run can be
# repeated; set FUZZ_SEED=0 for a random one when fuzzing by hand.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-30}
[ $# -gt 0 ] && shift
# One target per format of `perfreg parse`, from the library's list, and
# the others.
names=$(sed -n 's/^PR_FORMAT(\([a-z0-9_]*\)).*/\1/p' \
    include/perfreg/parse_formats.def)
formats=$(for n in $names; do printf 'fuzz_parse_%s ' "$n"; done)
# The input formats of `stat` and `compare`, which fuzz_read reads.
inputs=$(sed -n 's/^PR_INPUT(\([a-z0-9_]*\),.*/\1/p' \
    include/perfreg/parse_formats.def)
targets=${*:-"$formats fuzz_parse_auto fuzz_parse_metric fuzz_parse_derive
fuzz_read fuzz_numbers fuzz_numparse fuzz_import fuzz_jsonl fuzz_series
fuzz_monitor_stat fuzz_monitor_softirqs fuzz_monitor_interrupts
fuzz_monitor_vmstat fuzz_monitor_schedstat fuzz_envdiff fuzz_stats"}
build=${FUZZ_BUILD:-build/fuzz}

# Warnings are the business of the dev and asan builds, not of this one.
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
    -DPERFREG_FUZZ=ON -DPERFREG_BENCH=OFF -DPERFREG_WERROR=OFF >/dev/null
# shellcheck disable=SC2086
cmake --build "$build" -j "$(nproc)" --target $targets >/dev/null

# The seeds of a target: the captures of its format (and the bad inputs).
seeds() {
	case $1 in
	fuzz_parse_metric) echo tests/fuzz/seeds/metric ;;
	fuzz_parse_derive) echo tests/fuzz/seeds/derive ;;
	fuzz_numbers | fuzz_numparse) echo tests/data/numbers tests/data/stat ;;
	fuzz_series) echo tests/data/series tests/data/numbers ;;
	fuzz_import | fuzz_jsonl) echo tests/fuzz/seeds/import ;;
	fuzz_monitor_*) echo tests/data/proc ;;
	fuzz_envdiff) echo tests/fuzz/seeds/envdiff ;;
	fuzz_stats) echo tests/fuzz/seeds/stats ;;
	# The inputs of `compare`: the captures of each (tests/data/<name>).
	fuzz_read)
		for n in $inputs; do
			[ -d "tests/data/$n" ] && echo "tests/data/$n"
		done ;;
	# A format of `perfreg parse`, and auto: the captures of every
	# format (tests/data/<name>, and dd's beside time's), as a parser
	# must also refuse the others' outputs, and the seeds' reports.
	fuzz_parse_*)
		for n in $names dd seeds; do
			[ -d "tests/data/$n" ] && echo "tests/data/$n"
		done ;;
	esac
	echo tests/data/parse-bad
}

fail=0
for t in $targets; do
	corpus=$build/corpus/$t
	art=$build/artifacts/$t
	rm -rf "$corpus"
	mkdir -p "$corpus" "$art"
	for d in $(seeds "$t"); do
		find "$d" -maxdepth 1 -type f -exec cp {} "$corpus/" \;
	done
	echo "== $t: ${secs}s, $(ls "$corpus" | wc -l) seeds"
	if ! "$build/fuzz/$t" -seed="${FUZZ_SEED:-1}" \
	    -max_total_time="$secs" -timeout=10 \
	    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
	    -artifact_prefix="$art/" "$corpus" >"$build/$t.log" 2>&1; then
		echo "fuzz: $t failed; see $build/$t.log and $art/" >&2
		tail -40 "$build/$t.log" >&2
		fail=1
	else
		grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' \
		    "$build/$t.log" | tr '\n' ' '
		echo
	fi
done
exit $fail
