#!/bin/sh
# tests/probes/cli_suite_means.sh - the session-level comparison of
# `perfreg suite` takes each session's figure as its probe's rule says,
# recomputed here from the samples the database holds.  Five sessions of
# the syscall probe (each process its best sample) and the pipe-digest
# probe (each process its mean) are stored, two of one process, two of two
# processes (--processes 2), and a fifth of one process with --json; its
# report must give, for every figure, the earlier sessions' values as its
# base values (the four, but for those its plan left out: a real session
# its own stability check called, the tags regressions= and improvements=
# in the store say which, or one starved of CPU; each left out must be
# one the store or its pace accounts for) and its own as its new value,
# each equal (to
# rounding) to what SQLite's rows give: per process (the stored round)
# the mean or the best sample, the session's value their mean; a session
# of one process cut into 4 blocks of its samples in order (block b of n
# samples [b n / 4, (b + 1) n / 4)), each block's best, for syscall, and
# its samples' mean for pipe-digest.  The values themselves are whatever the
# machine measured: nothing is timed, only the arithmetic is checked.
#
# usage: cli_suite_means.sh PERFREG
set -u
P=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset PERFREG_DB XDG_DATA_HOME
db=$tmp/s.db

for i in 1 2 3 4; do
	case $i in
	1 | 2) opts="--budget 2" ;;
	*) opts="--budget 6 --processes 2" ;;
	esac
	# shellcheck disable=SC2086
	"$P" suite run syscall pipe-digest --quick $opts --db "$db" > "$tmp/out" \
	    2> "$tmp/err" || {
		echo "FAIL: suite session $i: $(cat "$tmp/err")" >&2
		exit 1
	}
done
"$P" suite run syscall pipe-digest --quick --budget 2 --db "$db" --json \
    > "$tmp/json" 2> "$tmp/err" || {
	echo "FAIL: suite session 5 --json: $(cat "$tmp/err")" >&2
	exit 1
}

python3 - "$db" "$tmp/json" <<'EOF'
import json
import sqlite3
import sys
from collections import OrderedDict

db, report = sys.argv[1], sys.argv[2]
con = sqlite3.connect(db)
rows = con.execute(
    "SELECT CAST(m.name AS TEXT), m.better, r.session_id, r.round, "
    "rm.value FROM run_metric rm JOIN run r ON r.id = rm.run_id "
    "JOIN metric m ON m.id = rm.metric_id "
    "WHERE r.ok AND NOT r.warmup ORDER BY r.session_id, r.id").fetchall()
# name -> session -> round -> values, in the order taken
data = OrderedDict()
higher = {}
for name, better, sid, rnd, v in rows:
    data.setdefault(name, OrderedDict()).setdefault(
        sid, OrderedDict()).setdefault(rnd, []).append(v)
    # The store's direction: 1 is PR_BETTER_HIGHER (perfreg/better.h).
    higher[name] = better in (1, "1", "higher")


def best_rule(name):
    return name.split(".")[0] in ("copy", "crypto", "handoff", "random",
                                  "syscall", "fault")


def unit(v, name):
    if best_rule(name):
        return max(v) if higher[name] else min(v)
    return sum(v) / len(v)


def session_value(procs, name):
    if len(procs) >= 2:
        units = [unit(v, name) for v in procs.values()]
    else:
        v = list(procs.values())[0]
        if best_rule(name):
            k = min(4, len(v))
            units = [unit(v[b * len(v) // k:(b + 1) * len(v) // k], name)
                     for b in range(k)]
        else:
            units = v
    return sum(units) / len(units)


with open(report) as f:
    rep = json.load(f)
cmp = rep.get("comparison")
fails = 0

# What the plan compares, checked against the store: sessions 1 to 4 are
# the base but those left out, each for a reason the store holds.
calls = {}
for sid, key, value in con.execute(
        "SELECT session_id, CAST(key AS TEXT), CAST(value AS TEXT) FROM tag "
        "WHERE key IN ('regressions', 'improvements')"):
    calls.setdefault(sid, {})[key] = int(value)
plan = rep["plan"]
base_ids = plan["base_sessions"]
left = {lo["session"]: lo for lo in plan["left_out"]}
if plan["new_sessions"] != [5]:
    print("FAIL: new sessions %s, not [5]" % plan["new_sessions"])
    fails += 1
if sorted(base_ids + list(left)) != [1, 2, 3, 4]:
    print("FAIL: base %s and left out %s are not sessions 1 to 4" %
          (base_ids, sorted(left)))
    fails += 1
for sid in base_ids:
    if sum(calls.get(sid, {}).values()) != 0:
        print("FAIL: session %d in the base, its check called %s" %
              (sid, calls[sid]))
        fails += 1
for sid, lo in left.items():
    c = calls.get(sid, {})
    if lo["reason"] == "called":
        if (sum(c.values()) == 0 or
                c.get("regressions") != lo["regressions"] or
                c.get("improvements") != lo["improvements"]):
            print("FAIL: session %d left out as called %s, the store has %s"
                  % (sid, lo, c))
            fails += 1
    elif lo["reason"] != "starved" or not lo["pace"] > lo["limit"]:
        print("FAIL: session %d left out: %s" % (sid, lo))
        fails += 1


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


if not base_ids:
    # A machine so loaded that every earlier session was starved of CPU
    # (each one's pace checked above): nothing is compared, so no
    # arithmetic to check; said, not failed.
    if cmp:
        print("FAIL: no base session, yet a comparison")
        fails += 1
    print("cli_suite_means: note: every earlier session left out (%s): "
          "no comparison to check" % sorted(left))
    sys.exit(1 if fails else 0)
checked = {"best": 0, "mean": 0}
procs_seen = set()
for m in cmp["metrics"]:
    name = m["name"]
    sess = data.get(name)
    if sess is None or len(sess) != 5:
        print("FAIL: %s: %s sessions in the database" %
              (name, "no" if sess is None else len(sess)))
        fails += 1
        continue
    want = {sid: session_value(p, name) for sid, p in sess.items()}
    for p in sess.values():
        procs_seen.add(len(p))
    base, new = m["base"]["values"], m["new"]["values"]
    wb = [want[sid] for sid in base_ids if sid in want]
    if len(base) != len(wb) or not all(map(close, base, wb)):
        print("FAIL: %s: base %s, the sessions' values are %s" %
              (name, base, wb))
        fails += 1
    if len(new) != 1 or not close(new[0], want.get(5, float("nan"))):
        print("FAIL: %s: new %s, the session's value is %s" %
              (name, new, want.get(5)))
        fails += 1
    checked["best" if best_rule(name) else "mean"] += 1
for rule, n in checked.items():
    if n == 0:
        print("FAIL: no %s figure in the session-level comparison" % rule)
        fails += 1
if 1 not in procs_seen or not any(n >= 2 for n in procs_seen):
    print("FAIL: sessions of %s processes, not of one and of two" %
          sorted(procs_seen))
    fails += 1
sys.exit(1 if fails else 0)
EOF
st=$?
[ $st -eq 0 ] && echo "cli_suite_means: all passed"
exit $st
