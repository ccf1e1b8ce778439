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

From a database instead (one argument ending in .db: the suite sessions
stored there, each figure's session value recomputed from its samples as
the suite does, src/probes/process.c): per process (the stored round) its
mean or its best sample (the smallest time, the largest throughput), by
-r RULE: "mean" for every probe, "best" for every probe, or "suite" (the
default: the suite's rules, best for copy, crypto, handoff, random,
syscall and fault, PR_SUITE_PROBES_VERSION 6; "suite5" those of version
5, random its mean; "suite4" those of version 4, handoff its mean too); a
session of one process cut into 4 blocks in order for a best figure (its
samples as they are for a mean one); the session value the mean of its
units and W the standard error of its log from them (sd / sqrt(n) /
mean), so that the model is fitted under that rule from the same
sessions.

-x ID (repeatable, with a database): leave session ID out (one slowed on
purpose).  -v median (with a database): the session value the median of
its units (of an even number the mean of the two middle ones) and W the
mean's error times c_n, as pr_suite_session_value's
PR_SUITE_VALUE_MEDIAN (perfreg/suite.h); -v mean (the default) as above.

-s (with a database): besides, a session effect shared by every figure
(issue 10, session 15: the real stores show drifts of 1-5% in copy,
crypto and syscall at once between sessions): one factor over the
sessions, the first principal component of the figures' log session
values (each centred, scaled by its standard deviation; power iteration),
g_i with mean 0 and variance 1, and each figure's loading L_j, the
covariance of its log values with g, written as the fig line's 8th field
SHARED; TAU is then the rest, sqrt(max(TAU^2 - L_j^2, 0)).  A comment
line gives the share of the figures' scaled variance the factor takes
and, beside it, the mean share of the same fit on 50 sets of the values
each figure's sessions shuffled on its own (what noise alone gives with
this many sessions and figures): the first overstates the shared part
by about the second.

Standard library only.  Usage:
  bench/suite-fit.py bench/data/suite-quick-*.json > bench/data/suite-model.txt
  bench/suite-fit.py [-r mean|best|suite] [-v mean|median] [-s] [-x ID]...
      SESSIONS.db > MODEL
"""
import json
import math
import statistics as st
import sys


# The best-sample probes of PR_SUITE_PROBES_VERSION 6 ("suite"), 5
# ("suite5", before random took its best sample) and 4 ("suite4", before
# handoff did).
BEST_PROBES = ("copy", "crypto", "handoff", "random", "syscall", "fault")
BEST_PROBES_5 = ("copy", "crypto", "handoff", "syscall", "fault")
BEST_PROBES_4 = ("copy", "crypto", "syscall", "fault")


# c_n of perfreg/suite.h's median rule, n = 0..16 (tests/probes/
# gen_suite_median.py), sqrt(pi / 2) above.
MEDIAN_C = (1, 1, 1, 1.1602, 1.0922, 1.1976, 1.1351, 1.2137, 1.1599,
            1.2227, 1.1761, 1.2283, 1.1875, 1.2322, 1.1960, 1.2351, 1.2025)


def from_db(path, rule, leave=(), value="mean"):
    """figs as main() builds them, from the sessions of a database."""
    import sqlite3
    con = sqlite3.connect(path)
    rows = con.execute(
        "SELECT CAST(m.name AS TEXT), m.better, r.session_id, r.round, "
        "rm.value FROM run_metric rm JOIN run r ON r.id = rm.run_id "
        "JOIN metric m ON m.id = rm.metric_id JOIN session s "
        "ON s.id = r.session_id WHERE r.ok AND NOT r.warmup "
        "ORDER BY r.session_id, r.id").fetchall()
    data, higher = {}, {}
    rows = [r for r in rows if r[2] not in leave]
    for name, better, sid, rnd, v in rows:
        if name.startswith("mon."):
            continue
        data.setdefault(name, {}).setdefault(sid, {}).setdefault(
            rnd, []).append(v)
        # The store's direction: 1 is PR_BETTER_HIGHER (perfreg/better.h).
        higher[name] = better in (1, "1", "higher")
    nsess = len({sid for _, _, sid, _, _ in rows})
    figs = {}
    for name, sess in data.items():
        probe = name.split(".")[0]
        best = (rule == "best" or (rule == "suite" and probe in BEST_PROBES)
                or (rule == "suite5" and probe in BEST_PROBES_5)
                or (rule == "suite4" and probe in BEST_PROBES_4))
        f = figs.setdefault(name, {"probe": probe, "v": [],
                                   "better": "higher" if higher[name]
                                   else "lower"})
        for sid in sorted(sess):
            procs = list(sess[sid].values())
            if len(procs) >= 2:
                chunks = procs
            elif best:
                v = procs[0]
                k = min(4, len(v))
                chunks = [v[b * len(v) // k:(b + 1) * len(v) // k]
                          for b in range(k)]
            else:
                chunks = [[x] for x in procs[0]]
            if best:
                units = [max(c) if higher[name] else min(c) for c in chunks]
            else:
                units = [st.mean(c) for c in chunks]
            m = st.mean(units)
            se = (st.stdev(units) / math.sqrt(len(units)) / m
                  if len(units) >= 2 and m > 0 else 0)
            if value == "median" and len(units) >= 3:
                med = st.median(units)
                c = (MEDIAN_C[len(units)] if len(units) < len(MEDIAN_C)
                     else math.sqrt(math.pi / 2))
                se, m = se * c, med
            # As the JSON's 95% half-width would give it back.
            f["v"].append((m, se * 100 * 1.96))
    return figs, nsess


def top_factor(rows, iters=200):
    """The first principal component over the sessions of rows (each a
    figure's values, centred and scaled here): g (mean 0, variance 1) and
    the share of the scaled variance it takes."""
    z = []
    for y in rows:
        m, sd = st.mean(y), st.stdev(y)
        if sd > 0:
            z.append([(v - m) / sd for v in y])
    n = len(z[0])
    g = [1.0 if i % 2 == 0 else -1.0 for i in range(n)]
    g = [v - st.mean(g) for v in g]
    for _ in range(iters):
        # g <- Z^T Z g, normalised.
        zg = [sum(a * b for a, b in zip(r, g)) for r in z]
        g = [sum(zg[k] * z[k][i] for k in range(len(z))) for i in range(n)]
        norm = math.sqrt(sum(v * v for v in g)) or 1
        g = [v / norm for v in g]
    lam = sum(sum(a * b for a, b in zip(r, g)) ** 2 for r in z)
    total = sum(sum(v * v for v in r) for r in z)
    sd = st.stdev(g)
    return [v / sd for v in g], lam / total


def main(args):
    rule, leave, value, shared = "suite", [], "mean", False
    while args and args[0] == "-s" or (
            len(args) >= 2 and args[0] in ("-r", "-x", "-v")):
        if args[0] == "-s":
            shared = True
            args = args[1:]
            continue
        if args[0] == "-v":
            value = args[1]
            if value not in ("mean", "median"):
                sys.exit("suite-fit.py: -v takes mean or median")
        elif args[0] == "-x":
            if not args[1].isdigit():
                sys.exit("suite-fit.py: -x takes a session id")
            leave.append(int(args[1]))
        else:
            rule = args[1]
        args = args[2:]
    if rule not in ("mean", "best", "suite", "suite5", "suite4"):
        sys.exit("suite-fit.py: -r takes mean, best, suite, suite5 "
                 "or suite4")
    paths = args
    if len(paths) == 1 and paths[0].endswith(".db"):
        figs, n = from_db(paths[0], rule, leave, value)
        print("# bench/suite-fit.py -r %s -v %s%s on the %d sessions of %s%s"
              % (rule, value, " -s" if shared else "", n,
                 paths[0].rsplit("/", 1)[-1],
                 "".join(" -x %d" % x for x in leave)))
    else:
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
        print("# bench/suite-fit.py on %d sessions: %s" %
              (n, " ".join(paths)))
    rows = {}
    for name, f in figs.items():
        v = [x for x in f["v"] if x[0] > 0]
        if len(v) < n or n < 3:
            continue
        rows[name] = [math.log(x[0]) for x in v]
    g = None
    if shared:
        if len(paths) != 1 or not paths[0].endswith(".db"):
            sys.exit("suite-fit.py: -s goes with a database")
        import random
        g, share = top_factor(list(rows.values()))
        rng = random.Random(1)
        null = []
        for _ in range(50):
            sh = []
            for y in rows.values():
                y = list(y)
                rng.shuffle(y)
                sh.append(y)
            null.append(top_factor(sh)[1])
        print("# the shared session effect takes %.3f of the figures' "
              "scaled variance; shuffled sessions: %.3f (mean of 50)"
              % (share, st.mean(null)))
    for name, f in figs.items():
        if name not in rows:
            continue
        v = [x for x in f["v"] if x[0] > 0]
        y = rows[name]
        w = [max(x[1] / 100 / 1.96, 1e-4) for x in v]
        lw = [math.log(x) for x in w]
        tau2 = st.variance(y) - st.mean([x * x for x in w])
        if g is None:
            print("fig %s %s %s %.17g %.17g %.17g %.17g" % (
                name, f["probe"], f["better"], st.mean(y),
                math.sqrt(max(tau2, 0)), math.exp(st.mean(lw)),
                st.stdev(lw)))
            continue
        my = st.mean(y)
        load = sum((a - my) * b for a, b in zip(y, g)) / (len(y) - 1)
        print("fig %s %s %s %.17g %.17g %.17g %.17g %.17g" % (
            name, f["probe"], f["better"], my,
            math.sqrt(max(tau2 - load * load, 0)), math.exp(st.mean(lw)),
            st.stdev(lw), load))
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
