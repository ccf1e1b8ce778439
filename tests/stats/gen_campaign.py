#!/usr/bin/python3
"""Writes tests/stats/data/campaign.txt: reference values for the
comparison across hosts of src/stats/campaign.c (perfreg/campaign.h).

Run from the repository root with Debian's python3-scipy:

    /usr/bin/python3 tests/stats/gen_campaign.py

Everything is computed here independently of the C code:

- across hosts: each host's mean of boot means per side (numpy), the
  log-ratios d_h, and scipy.stats.ttest_1samp on them (t, p), the
  interval from scipy.stats.t.ppf, the change 100 (exp(mean) - 1);
- whether the hosts agree: the F test of the host-by-variant interaction
  as the comparison of two linear models fitted by least squares
  (numpy.linalg.lstsq): the additive model (one indicator a host, one for
  the new variant) against the full one (one mean a cell), on the log
  values of the units (boot means, or runs when no cell has two boots),
  F = ((RSS_add - RSS_full) / (H - 1)) / (RSS_full / (N - 2H)) and
  p = scipy.stats.f.sf; the C code uses the closed form of the same
  test instead;
- the verdict across hosts by the rule of perfreg/verdict.h.

The values are written with 17 significant digits, so the C test reads
the same doubles.  Line format:

    case NAME BETTER CONF EQ
    x SIDE HOST BOOT VALUE      (SIDE b or n; in boot order per side)
    across CHANGE LO HI P VERDICT | across untested
    agree F DF1 DF2 P RUNS | agree none
    hosts NHOSTS ONE_SIDE
    end
"""
import numpy as np
from scipy import stats

rng = np.random.default_rng(20261201)


def units(vals, by_boot):
    """vals: list of (boot, value) of one cell; the log units."""
    if not by_boot:
        return [np.log(v) for _, v in vals]
    out = {}
    order = []
    for b, v in vals:
        if b not in out:
            out[b] = []
            order.append(b)
        out[b].append(v)
    return [np.log(np.mean(out[b])) for b in order]


def boot_means(vals):
    out = {}
    for b, v in vals:
        out.setdefault(b, []).append(v)
    return [np.mean(x) for x in out.values()]


def verdict(tested, lo, hi, p, change, better, conf, eq):
    if not tested:
        return "inconclusive"
    if lo >= -eq and hi <= eq:
        return "equivalent"
    if p < 1 - conf and change != 0 and (lo > 0 or hi < 0):
        worse = change < 0 if better == "higher" else change > 0
        return "regression" if worse else "improvement"
    return "inconclusive"


def analyse(data, better, conf, eq):
    """data: list of (side, host, boot, value)."""
    hosts = sorted({h for _, h, _, _ in data})
    cells = {}
    for s, h, b, v in data:
        cells.setdefault((h, s), []).append((b, v))
    both = [h for h in hosts if (h, 'b') in cells and (h, 'n') in cells]
    one = len(hosts) - len(both)
    res = {"hosts": (len(both), one)}
    H = len(both)
    if H >= 2:
        d = np.array([np.log(np.mean(boot_means(cells[(h, 'n')])) /
                             np.mean(boot_means(cells[(h, 'b')])))
                      for h in both])
        t, p = stats.ttest_1samp(d, 0.0)
        m = d.mean()
        se = d.std(ddof=1) / np.sqrt(H)
        q = stats.t.ppf((1 + conf) / 2, H - 1)
        lo, hi = 100 * np.expm1(m - q * se), 100 * np.expm1(m + q * se)
        ch = 100 * np.expm1(m)
        res["across"] = (ch, lo, hi, p,
                         verdict(True, lo, hi, p, m, better, conf, eq))
        nb = sum(len({b for b, _ in cells[(h, s)]}) for h in both
                 for s in 'bn')
        by_boot = nb > 2 * H
        y, xa, xf = [], [], []
        for i, h in enumerate(both):
            for j, s in enumerate('bn'):
                for u in units(cells[(h, s)], by_boot):
                    y.append(u)
                    ra = [0.0] * (H + 1)
                    ra[i] = 1.0
                    ra[H] = float(j)
                    xa.append(ra)
                    rf = [0.0] * (2 * H)
                    rf[2 * i + j] = 1.0
                    xf.append(rf)
        y = np.array(y)
        N = len(y)
        if N > 2 * H:
            def rss(x):
                x = np.array(x)
                beta = np.linalg.lstsq(x, y, rcond=None)[0]
                r = y - x @ beta
                return float(r @ r)
            rf, ra = rss(xf), rss(xa)
            df1, df2 = H - 1, N - 2 * H
            f = ((ra - rf) / df1) / (rf / df2)
            res["agree"] = (f, df1, df2, stats.f.sf(f, df1, df2),
                            0 if by_boot else 1)
    return res


def gen(hosts, boots, runs, effect, noise=0.02, boot_sd=0.03, speed=None):
    """hosts: count; boots/runs: per cell (int or callable(h, s));
    effect(h): the factor new / base on host h."""
    data = []
    for h in range(hosts):
        sp = speed[h] if speed else 1.0
        for s in 'bn':
            nbt = boots(h, s) if callable(boots) else boots
            for b in range(nbt):
                bf = 1 + boot_sd * rng.standard_normal()
                nr = runs(h, s) if callable(runs) else runs
                for _ in range(nr):
                    v = 100 * sp * bf * (1 + noise * rng.standard_normal())
                    if s == 'n':
                        v *= effect(h)
                    data.append((s, h, 1000 * h + 10 * b +
                                 (5 if s == 'n' else 0), v))
    return data


cases = [
    ("three_hosts_big", "lower",
     gen(3, 2, 5, lambda h: 0.155, speed=[1.0, 2.5, 0.6])),
    ("regress_on_two", "lower",
     gen(3, 3, 4, lambda h: 1.2 if h < 2 else 1.0, speed=[1.0, 1.7, 0.8],
         boot_sd=0.01)),
    ("two_hosts_same", "lower", gen(2, 3, 6, lambda h: 1.0, noise=0.01,
                                    boot_sd=0.005)),
    ("unbalanced", "higher",
     gen(4, lambda h, s: 1 + (h + (s == 'n')) % 3,
         lambda h, s: 2 + (3 * h + (s == 'b')) % 5,
         lambda h: 1.05, speed=[1, 3, 0.5, 2])),
    ("one_boot_cells", "lower", gen(3, 1, 8, lambda h: 1.1,
                                    speed=[1, 2, 4])),
    ("host_one_side", "lower",
     [r for r in gen(4, 2, 3, lambda h: 0.9, speed=[1, 2, 3, 4])
      if not (r[1] == 3 and r[0] == 'n')]),
    ("single_host", "lower", gen(1, 2, 4, lambda h: 1.3)),
]

with open("tests/stats/data/campaign.txt", "w") as out:
    out.write("# written by tests/stats/gen_campaign.py; do not edit\n")
    for name, better, data in cases:
        conf, eq = 0.95, 1.0
        out.write("case %s %s %r %r\n" % (name, better, conf, eq))
        for s in 'bn':
            rows = sorted((r for r in data if r[0] == s),
                          key=lambda r: r[2])
            for _, h, b, v in rows:
                out.write("x %s %d %d %.17g\n" % (s, h, b, v))
        r = analyse(data, better, conf, eq)
        if "across" in r:
            out.write("across %.17g %.17g %.17g %.17g %s\n" % r["across"])
        else:
            out.write("across untested\n")
        if "agree" in r:
            out.write("agree %.17g %d %d %.17g %d\n" % r["agree"])
        else:
            out.write("agree none\n")
        out.write("hosts %d %d\nend\n" % r["hosts"])
