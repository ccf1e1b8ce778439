#!/usr/bin/python3
"""Between-session noise of candidate suite figures from stored samples.

For each figure of each session: per process (the stored round) the mean,
median, minimum (or maximum for higher-is-better figures: the best
sample) and 20% trimmed mean of its samples; the session's value is the
mean of its process values.  Prints, per probe, the median over its
figures of the between-session standard deviation of log(session value)
(what a 10% shift must beat: log(1.1) = 0.095) for each candidate.
usage: bench/suite-noise.py DB  (a database of a few `suite --quick`
sessions; issue 10, the noisy probes' power: which figure to choose)
"""
import math
import sqlite3
import statistics as st
import sys
from collections import defaultdict

con = sqlite3.connect(sys.argv[1])
rows = con.execute(
    "SELECT CAST(m.name AS TEXT), m.better, r.session_id, r.round, rm.value "
    "FROM run_metric rm JOIN run r ON r.id = rm.run_id "
    "JOIN metric m ON m.id = rm.metric_id WHERE r.ok AND NOT r.warmup")
data = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
better = {}
for name, b, sid, rnd, v in rows:
    data[name][sid][rnd].append(v)
    better[name] = b


def trim(v, f=0.2):
    v = sorted(v)
    k = int(len(v) * f)
    return st.mean(v[k:len(v) - k] or v)


def best(v, name):
    # The store's direction: 1 is PR_BETTER_HIGHER (perfreg/better.h).
    return max(v) if better[name] in (1, "1", "higher") else min(v)


cands = {"mean": lambda v, n: st.mean(v), "median": lambda v, n: st.median(v),
         "best": best, "trim20": lambda v, n: trim(v)}
per_probe = defaultdict(lambda: defaultdict(list))
for name, sess in data.items():
    if len(sess) < 3:
        continue
    for c, f in cands.items():
        vals = []
        for sid, procs in sess.items():
            pv = [f(v, name) for v in procs.values() if v]
            if pv and all(x > 0 for x in pv):
                vals.append(math.log(st.mean(pv)))
        if len(vals) >= 3:
            per_probe[name.split(".")[0]][c].append(st.stdev(vals))
print("probe        figures  " + "  ".join("%7s" % c for c in cands))
for p in sorted(per_probe):
    n = len(per_probe[p]["mean"])
    print("%-12s %7d  " % (p, n) + "  ".join(
        "%7.3f" % st.median(per_probe[p][c]) for c in cands))
