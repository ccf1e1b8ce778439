#!/usr/bin/python3
"""Each process's value of one suite figure, session by session.

usage: bench/suite-procs.py [-r suite|suite4|mean|best] [-c CUT] DB FIGURE

Reads the suite sessions of a database and prints, per session, the value
each of its processes (the stored round) gives FIGURE by the rule -r (as
bench/suite-fit.py takes it: "suite" the rules of PR_SUITE_PROBES_VERSION
5, best sample for copy, crypto, handoff, syscall and fault; "suite4"
version 4's, handoff its mean; "mean" or "best" for every probe), then the
quartiles over all processes.  With -c CUT, the share of processes above
CUT and the geometric means above and below it, and their ratio: the two
modes of a figure the scheduler's placement decides by process (what
bench/suite-sim -O takes).  Standard library only.
"""
import math
import sqlite3
import statistics as st
import sys

BEST = {"suite": ("copy", "crypto", "handoff", "syscall", "fault"),
        "suite4": ("copy", "crypto", "syscall", "fault"), "mean": (),
        "best": None}


def main(args):
    rule, cut = "suite", None
    while len(args) > 2 and args[0] in ("-r", "-c"):
        if args[0] == "-r":
            rule = args[1]
        else:
            cut = float(args[1])
        args = args[2:]
    if rule not in BEST or len(args) != 2:
        sys.exit(__doc__)
    db, name = args
    best = BEST[rule] is None or name.split(".")[0] in BEST[rule]
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT r.session_id, r.round, rm.value, m.better FROM run_metric rm "
        "JOIN run r ON r.id = rm.run_id JOIN metric m ON m.id = rm.metric_id "
        "WHERE CAST(m.name AS TEXT) = ? AND r.ok AND NOT r.warmup "
        "ORDER BY r.session_id, r.id", (name,)).fetchall()
    if not rows:
        sys.exit("suite-procs.py: no figure %s in %s" % (name, db))
    data, higher = {}, False
    for sid, rnd, v, better in rows:
        data.setdefault(sid, {}).setdefault(rnd, []).append(v)
        higher = better in (1, "1", "higher")
    allv = []
    for sid in sorted(data):
        vals = []
        for rnd in sorted(data[sid]):
            v = data[sid][rnd]
            vals.append((max(v) if higher else min(v)) if best
                        else st.mean(v))
        allv += vals
        print("session %s: %s" % (sid, " ".join("%.4g" % x for x in vals)))
    allv.sort()
    n = len(allv)
    print("%d processes (%s): min %.4g, quartiles %.4g %.4g %.4g, max %.4g" % (
        n, "best sample" if best else "mean", allv[0], allv[n // 4],
        allv[n // 2], allv[3 * n // 4], allv[-1]))
    if cut is not None:
        hi = [x for x in allv if x > cut]
        lo = [x for x in allv if x <= cut]
        if hi and lo:
            gh = math.exp(st.mean(math.log(x) for x in hi))
            gl = math.exp(st.mean(math.log(x) for x in lo))
            print("above %g: %d of %d (%.2f), geometric means %.4g above, "
                  "%.4g below, ratio %.3g" % (cut, len(hi), n, len(hi) / n,
                                              gh, gl, gh / gl))


main(sys.argv[1:])
