#!/bin/sh
# tests/probes/cli_suite_means.sh - the session-level comparison of
# `perfreg suite` takes each session's figure as the mean of that
# session's samples.  Four sessions of the syscall probe are stored; the
# fourth one's --json report must give, for every figure, the three
# earlier sessions' means as its base values and this session's mean as
# its new value, each equal (to rounding) to the mean of the samples the
# database holds for that session, computed here with SQLite's AVG.  The
# values themselves are whatever the machine measured: nothing is timed,
# only the arithmetic is checked.
#
# usage: cli_suite_means.sh PERFREG
set -u
P=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset PERFREG_DB XDG_DATA_HOME
db=$tmp/s.db

for i in 1 2 3; do
	"$P" suite run syscall --quick --budget 1 --db "$db" > "$tmp/out" \
	    2> "$tmp/err" || {
		echo "FAIL: suite session $i: $(cat "$tmp/err")" >&2
		exit 1
	}
done
"$P" suite run syscall --quick --budget 1 --db "$db" --json > "$tmp/json" \
    2> "$tmp/err" || {
	echo "FAIL: suite session 4 --json: $(cat "$tmp/err")" >&2
	exit 1
}

python3 - "$db" "$tmp/json" <<'EOF'
import json
import sqlite3
import sys

db, report = sys.argv[1], sys.argv[2]
con = sqlite3.connect(db)
rows = con.execute(
    "SELECT CAST(m.name AS TEXT), r.session_id, AVG(rm.value), COUNT(*) "
    "FROM run_metric rm JOIN run r ON r.id = rm.run_id "
    "JOIN metric m ON m.id = rm.metric_id "
    "WHERE r.ok AND NOT r.warmup "
    "GROUP BY m.id, r.session_id ORDER BY r.session_id").fetchall()
means = {}
for name, sid, mean, n in rows:
    means.setdefault(name, []).append((sid, mean, n))
with open(report) as f:
    cmp = json.load(f)["comparison"]
fails = 0


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


checked = 0
for m in cmp["metrics"]:
    want = means.get(m["name"])
    if want is None or len(want) != 4:
        print("FAIL: %s: %s sessions in the database" %
              (m["name"], "no" if want is None else len(want)))
        fails += 1
        continue
    if any(n < 2 for _, _, n in want):
        print("FAIL: %s: a session with fewer than 2 samples" % m["name"])
        fails += 1
    base, new = m["base"]["values"], m["new"]["values"]
    exp_base = [x for _, x, _ in want[:3]]
    exp_new = [want[3][1]]
    if len(base) != 3 or not all(map(close, base, exp_base)):
        print("FAIL: %s: base %s, the sessions' means are %s" %
              (m["name"], base, exp_base))
        fails += 1
    if len(new) != 1 or not close(new[0], exp_new[0]):
        print("FAIL: %s: new %s, the session's mean is %s" %
              (m["name"], new, exp_new))
        fails += 1
    checked += 1
if checked == 0:
    print("FAIL: no figure in the session-level comparison")
    fails += 1
sys.exit(1 if fails else 0)
EOF
st=$?
[ $st -eq 0 ] && echo "cli_suite_means: all passed"
exit $st
