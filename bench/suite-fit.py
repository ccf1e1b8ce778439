#!/usr/bin/python3
"""Fits bench/suite-sim's two-level model to real suite sessions.

Reads `perfreg suite --quick --json` outputs (one session a file, the same
host and configuration) and writes the model bench/suite-sim simulates:

  fig NAME PROBE BETTER LOGLEVEL TAU W SW
      LOGLEVEL the mean log session mean; W the geometric mean over the
      sessions of the within-session standard error of the log session
      mean, halfwidth_pct / 100 / 1.96 (the probes' 95% half-width of the
      mean over their samples); SW the standard deviation of log W over
      the sessions; TAU the between-session standard deviation of a log
      session mean beyond what W explains: var(log means) - mean(W^2),
      floored at 0.
  probe NAME RHO
      the mean correlation over the pairs of figures of the probe of
      their log session means across sessions (clamped to [0, 0.95]): a
      session effect shared by the probe's figures (the sim draws
      sqrt(RHO) of a figure's session effect from the probe's one).

Standard library only.  Usage:
  bench/suite-fit.py bench/data/suite-quick-*.json > bench/data/suite-model.txt
"""
import json
import math
import statistics as st
import sys


def main(paths):
    sessions = [json.load(open(p)) for p in paths]
    figs = {}
    for s in sessions:
        for p in s["probes"]:
            for m in p.get("metrics") or []:
                figs.setdefault(m["name"], {"probe": p["probe"],
                                            "better": m["better"],
                                            "v": []})["v"].append(
                    (m["mean"], m["halfwidth_pct"]))
    n = len(sessions)
    print("# bench/suite-fit.py on %d sessions: %s" % (n, " ".join(paths)))
    rows = {}
    for name, f in figs.items():
        v = [x for x in f["v"] if x[0] > 0]
        if len(v) < n or n < 3:
            continue
        y = [math.log(x[0]) for x in v]
        w = [max(x[1] / 100 / 1.96, 1e-4) for x in v]
        lw = [math.log(x) for x in w]
        tau2 = st.variance(y) - st.mean([x * x for x in w])
        rows[name] = y
        print("fig %s %s %s %.17g %.17g %.17g %.17g" % (
            name, f["probe"], f["better"], st.mean(y),
            math.sqrt(max(tau2, 0)), math.exp(st.mean(lw)), st.stdev(lw)))
    probes = {}
    for name, f in figs.items():
        if name in rows:
            probes.setdefault(f["probe"], []).append(rows[name])
    for p, ys in probes.items():
        cs = []
        for i in range(len(ys)):
            for j in range(i + 1, len(ys)):
                a, b = ys[i], ys[j]
                if st.stdev(a) > 0 and st.stdev(b) > 0:
                    cs.append(st.correlation(a, b))
        rho = st.mean(cs) if cs else 0
        print("probe %s %.6f" % (p, min(max(rho, 0), 0.95)))


main(sys.argv[1:])
