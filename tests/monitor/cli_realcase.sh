#!/bin/sh
# tests/monitor/cli_realcase.sh - the explanation of `perfreg run
# --monitor` on two real cases of issue 13, with effects planted large
# enough to hold on a loaded 2-core machine:
# - seed 002's shape: a pipe into a digest (dd | openssl dgst) against the
#   same pipeline with an extra hand-off stage (dd obs=512: a write per
#   512 bytes); the extra stage multiplies the context switches and the
#   system time (several hundred percent), far more than the user time.
#   Checked: both are named as changed, with increases above +100%.
# (The third, CPU contention beside hogs on the same CPU, is
# tests/monitor/cli_contention.sh, gated.)
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

if [ "$fails" -ne 0 ]; then
	echo "$fails failure(s)" >&2
	exit 1
fi
echo "cli_realcase: all passed"
