#!/bin/sh
# tests/monitor/cli_realcase.sh - the explanation of `perfreg run
# --monitor` on two real cases of issue 13, with effects planted large
# enough to hold on a loaded 2-core machine:
# - seed 002's shape: a pipe into a digest (dd | openssl dgst) against the
#   same pipeline with an extra hand-off stage (dd obs=512: a write per
#   512 bytes); the extra stage multiplies the context switches and the
#   system time (several hundred percent), far more than the user time.
#   Checked: both are named as changed, with increases above +100%.
# - CPU contention beside four hogs on the same CPU (taskset), started
#   by the slower variant itself: the involuntary context switches
#   (below, where it is run);
# - fresh memory: dd with one 64 MiB buffer against 64 reads into a 1 MiB
#   one (the same bytes): the big buffer is faulted in page by page, some
#   48 times the page faults.  Checked: the child's page faults are named
#   as changed, with an increase above +1000%.
# The ranking by the share of the change is not asserted: on this loaded
# machine it is not stable in either case.  In the first the load moves
# the system-wide figures with the wall time (timer interrupts, the
# scheduler's softirqs: r near 1, a share near 1) and puts them first;
# in the second the page faults are the same number in every run of a
# side, so their within-side slope, and with it their share, is noise
# (it ranked them first in 2 of 3 sessions, last in the third).  Nor is
# the order of the changes: a figure near 0 on the base side (sys_s of
# dd into /dev/null) can change by +8000%.  No time is checked.  Skipped (77) when perf_event_open is
# refused (no mon.perf figures) or openssl is missing.
#
# usage: cli_realcase.sh PERFREG
set -u
P=$1
tmp=${KEEP_TMP:-$(mktemp -d)}
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

command -v openssl > /dev/null 2>&1 || { echo "SKIP: no openssl"; exit 77; }

# 12 runs a side: with 6 the context switches' +300% missed the 5% false
# discovery rate in a CI run at load ~2 (a run or two far out on a side).
"$P" run -n 12 --monitor perf,stat --shell --json \
    a='dd if=/dev/zero bs=1M count=30 2>/dev/null | openssl dgst -sha256 >/dev/null' \
    b='dd if=/dev/zero bs=1M count=30 2>/dev/null | dd obs=512 2>/dev/null | openssl dgst -sha256 >/dev/null' \
    > "$tmp/pipe.json" 2> "$tmp/err" || fail "pipeline run: $(cat "$tmp/err")"
python3 - "$tmp/pipe.json" > "$tmp/pipe.out" 2>&1 <<'EOF' || fail "pipeline: $(cat "$tmp/pipe.out")"
import json, sys
d = json.load(open(sys.argv[1]))
e = d["explanation"]
if not any(m["metric"].startswith("mon.perf.") for m in e["metrics"]):
    print("SKIP")
    sys.exit(0)
by = {m["metric"]: m for m in e["metrics"]}
ctx = [n for n in ("mon.perf.context_switches", "ctxsw_vol") if n in by]
sysm = [n for n in ("sys_s", "mon.stat.cpu_system_s") if n in by]
bad = []
for group, what in ((ctx, "context switches"), (sysm, "system time")):
    if not any(by[n]["changed"] and (by[n]["change"] or 0) > 1 for n in group):
        bad.append("%s not named with more than +100%%: %s" % (what,
            [(n, by[n]["change"], by[n]["changed"]) for n in group]))
print("; ".join(bad) if bad else "ok")
sys.exit(1 if bad else 0)
EOF
if grep -q SKIP "$tmp/pipe.out"; then
	echo "SKIP: no perf counters (perf_event_open refused)"
	exit 77
fi

"$P" run -n 6 --monitor perf,stat --json \
    a='dd if=/dev/zero bs=1M count=64 of=/dev/null' \
    b='dd if=/dev/zero bs=64M count=1 of=/dev/null' \
    > "$tmp/fault.json" 2> "$tmp/err" || fail "page-fault run: $(cat "$tmp/err")"
python3 - "$tmp/fault.json" > "$tmp/fault.out" 2>&1 <<'EOF' || fail "page faults: $(cat "$tmp/fault.out")"
import json, sys
e = json.load(open(sys.argv[1]))["explanation"]
pf = [m for m in e["metrics"] if m["metric"] == "mon.perf.page_faults"]
if not pf or not pf[0]["changed"] or (pf[0]["change"] or 0) < 10:
    print("page faults not named with more than +1000%%: %s"
          % [(m["metric"], m["change"], m["changed"]) for m in pf])
    sys.exit(1)
print("ok")
EOF

# CPU contention, planted by the test rather than left to the machine's
# load: the same CPU-bound awk loop pinned with taskset to one CPU, alone
# (a) and beside four busy shell loops pinned to the same CPU that
# variant b's command starts before the loop and kills after it (b).
# The hogs are b's own descendants, so that they run exactly during b's
# runs, and their CPU time and context switches are b's (rusage and the
# inherited perf counters count the children that were waited for).
# What does not depend on the machine's load: each of b's five tasks is
# preempted at every time slice, as a's one is, and the four hogs run as
# long as b's loop, so that b's involuntary context switches are several
# times a's whatever else is runnable.  The loop's wall time grows too,
# but by how much does depend on it: with k hogs pinned beside it and
# the machine's other L runnable tasks balanced over the 2 CPUs (the
# scheduler moves them off the CPU the pinned tasks crowd), the loop's
# share of a CPU falls from about 2 / (L + 1) to 2 / (L + 1 + k), so
# that two hogs slowed it +200% on a quiet machine but only +15% at load
# 18 under `ctest -j2`.  Four hogs give (L + 5) / (L + 1): +21% at load
# 18, x5 on a quiet machine.
# Checked: wall_s slower (more than +5%), the involuntary context
# switches (rusage's ctxsw_invol, or the child's perf context switches,
# which count them too) named as changed by more than +100% and among
# the first 10 shown.  Still only with PERFREG_TEST_CONTENTION=1: beside
# three CPU hogs at load 29 to 32 (`ctest --repeat until-fail:20`) it
# passed 18 times and failed the 19th, the involuntary switches +120%
# but not significant at the 5% false discovery rate (a's runs, sharing
# their CPU with some 15 other tasks, vary too much for 16 runs).  Next:
# more hogs and runs, measured the same way before the gate goes.
cpu=
[ "${PERFREG_TEST_CONTENTION:-0}" = 1 ] &&
    cpu=$(taskset -pc $$ 2> /dev/null | sed 's/.*: *//; s/[,-].*//')
if [ -n "$cpu" ]; then
	loop="awk 'BEGIN { for (i = 0; i < 3e6; i++) s += i }'"
	hog="taskset -c $cpu sh -c 'while :; do :; done'"
	hogs="$hog & h1=\$!; $hog & h2=\$!; $hog & h3=\$!; $hog & h4=\$!"
	"$P" run -n 16 --monitor perf,stat --shell --json \
	    a="taskset -c $cpu $loop" \
	    b="$hogs; taskset -c $cpu $loop; kill \$h1 \$h2 \$h3 \$h4; wait 2> /dev/null; true" \
	    > "$tmp/hog.json" 2> "$tmp/err" || fail "hog run: $(cat "$tmp/err")"
	python3 - "$tmp/hog.json" > "$tmp/hog.out" 2>&1 <<'EOF' || fail "hog: $(cat "$tmp/hog.out")"
import json, sys
e = json.load(open(sys.argv[1]))["explanation"]
bad = []
if not (e["primary_change"] or 0) > 0.05:
    bad.append("wall_s not slower by more than 5%%: %s" % e["primary_change"])
shown = [m["metric"] for m in e["metrics"] if m["changed"]][:10]
cs = [m for m in e["metrics"] if m["changed"] and (m["change"] or 0) > 1
      and m["metric"] in ("ctxsw_invol", "mon.perf.context_switches")]
if not cs:
    bad.append("neither ctxsw_invol nor mon.perf.context_switches named "
               "with more than +100%%: %s"
               % [(m["metric"], m["change"], m["changed"])
                  for m in e["metrics"] if "ctxsw" in m["metric"]
                  or "context_switches" in m["metric"]])
elif not any(m["metric"] in shown for m in cs):
    bad.append("the context switches not among the first 10: %s" % shown)
print("; ".join(bad) if bad else "ok")
sys.exit(1 if bad else 0)
EOF
else
	echo "cli_realcase: the CPU contention case not run (PERFREG_TEST_CONTENTION=1 and taskset)"
fi

if [ "$fails" -ne 0 ]; then
	echo "$fails failure(s)" >&2
	exit 1
fi
echo "cli_realcase: all passed"
