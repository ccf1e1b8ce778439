#!/bin/sh
# bench/explain-contention.sh - the pass rate of issue 13's CPU
# contention case (tests/monitor/cli_contention.sh) on this machine: the
# test run TIMES times with HOGS hogs, RUNS runs a side and an awk loop of
# ITER iterations, each pass or failure printed with the load average
# and its seconds, the failures' reasons kept, then the count.  What the
# gate on the test (PERFREG_TEST_CONTENTION) is decided on.  Run it
# under nice 19; it is one heavy job (HOGS busy loops on one CPU while b
# runs).
#
# usage: bench/explain-contention.sh PERFREG [TIMES [HOGS [RUNS [ITER]]]]
set -u
perfreg=${1:?usage: explain-contention.sh PERFREG [TIMES [HOGS [RUNS [ITER]]]]}
times=${2:-20}
hogs=${3:-24}
runs=${4:-20}
iter=${5:-1e6}
here=$(cd "$(dirname "$0")/.." && pwd)
keep=${EXPLAIN_CONTENTION_KEEP:-$(mktemp -d)}
echo "contention: $times tests of $hogs hogs, $runs runs a side, loop $iter; load average $(cut -d' ' -f1-3 /proc/loadavg)"
pass=0
i=1
while [ "$i" -le "$times" ]; do
	t0=$(date +%s)
	load=$(cut -d' ' -f1 /proc/loadavg)
	out=$(PERFREG_TEST_CONTENTION=1 PERFREG_CONTENTION_HOGS=$hogs \
	    PERFREG_CONTENTION_RUNS=$runs PERFREG_CONTENTION_LOOP=$iter \
	    PERFREG_CONTENTION_KEEP=$keep/fail-$i.json \
	    sh "$here/tests/monitor/cli_contention.sh" "$perfreg" 2>&1)
	rc=$?
	t1=$(date +%s)
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
		echo "test $i: pass (load $load, $((t1 - t0)) s)"
	elif [ "$rc" -eq 77 ]; then
		echo "test $i: skipped: $out"
		exit 77
	else
		echo "test $i: FAIL (load $load, $((t1 - t0)) s): $out"
	fi
	i=$((i + 1))
done
echo "passed: $pass of $times; load average at the end $(cut -d' ' -f1-3 /proc/loadavg); failures' JSON in $keep"
