#!/usr/bin/python3
"""Writes tests/stats/data/ratio.txt: reference values for
src/stats/ratio.c, computed independently with scipy and exact
enumeration.

Run from the repository root with Debian's python3-scipy:

    /usr/bin/python3 tests/stats/gen_ratio_fixtures.py

Data sets are either listed or given by a formula that C and Python
evaluate to the same doubles (integer arithmetic and correctly rounded
IEEE operations only):

    form(n, k, scale, off)[i] = off + scale * (((i * k) % 10007) / 10007.0)
    for i = 0 .. n-1, then sorted ascending.

Line kinds (numbers printed with repr(), the shortest string that reads
back as the same double):

    median_se N X1..XN SE
        Bonett-Price standard error of the median of the listed data.
    median_se_form N K SCALE OFF SE
        the same for form(N, K, SCALE, OFF).
    asym KIND CONF NA KA SA OA NB KB SB OB RATIO LO HI
        pr_ratio_ci with na + nb > PR_RATIO_BOOT_MAX: the delta method on
        the log ratio; KIND is mean or median.
    boot KIND CONF LO_MIN LO_MAX HI_MIN HI_MAX NA X1..XNA NB Y1..YNB
        the exact bootstrap distribution of the ratio for a tiny data set,
        found by enumerating every resample of each side (n^n each): with
        Q its quantile function and q = (1 -+ conf)/2, LO_MIN = Q(q - d)
        and LO_MAX = Q(q + d), HI_MIN, HI_MAX likewise, d = 0.004.  A
        Monte Carlo bootstrap of 100000 replicates estimates the
        distribution function to about 0.0005, so its interval ends must
        fall within these brackets (d is 8 standard errors).

The standard error follows Bonett and Price (2002): c = max(1,
round(n/2 - sqrt(n))), se = (x_(n-c+1) - x_(c)) / (2 z0), z0 =
norm.ppf(1 - binom.cdf(c - 1, n, 1/2)); the generator checks itself
against the worked example of R package statpsych's ci.median
(SE 4.292277 for its 19 values).
"""

import itertools
import math
import os

import numpy as np
from scipy import stats

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                   "ratio.txt")
BOOT_MAX = 20000


def form(n, k, scale, off):
    v = [off + scale * (((i * k) % 10007) / 10007.0) for i in range(n)]
    v.sort()
    return v


def cround(x):
    # C's floor(x + 0.5), as ratio.c rounds; equal to R's round() for
    # the values n/2 - sqrt(n) takes (see ratio.h).
    return math.floor(x + 0.5)


def median_se(x):
    x = sorted(x)
    n = len(x)
    if n < 2:
        return 0.0
    c = max(1, cround(n / 2 - math.sqrt(n)))
    w = x[n - c] - x[c - 1]
    if w == 0:
        return 0.0
    p = stats.binom.cdf(c - 1, n, 0.5)
    z0 = stats.norm.ppf(1 - p)
    return w / (2 * z0)


def median(x):
    return float(np.median(np.array(x, dtype=float)))


def asym(kind, conf, a, b):
    if kind == "mean":
        sa, sb = math.fsum(a) / len(a), math.fsum(b) / len(b)
        sea = np.std(a, ddof=1) / math.sqrt(len(a))
        seb = np.std(b, ddof=1) / math.sqrt(len(b))
    else:
        sa, sb = median(a), median(b)
        sea, seb = median_se(a), median_se(b)
    r = sb / sa
    se = math.sqrt((sea / abs(sa)) ** 2 + (seb / abs(sb)) ** 2)
    z = stats.norm.ppf(0.5 + conf / 2)
    return r, r * math.exp(-z * se), r * math.exp(z * se)


def boot_dist(kind, x):
    """The exact bootstrap distribution of the statistic: {value: prob}."""
    n = len(x)
    d = {}
    for idx in itertools.product(range(n), repeat=n):
        s = [x[i] for i in idx]
        v = math.fsum(s) / n if kind == "mean" else median(s)
        d[v] = d.get(v, 0) + 1
    tot = n ** n
    return {v: c / tot for v, c in d.items()}


def boot_case(kind, conf, a, b, d=0.004):
    da, db = boot_dist(kind, a), boot_dist(kind, b)
    rd = {}
    for va, pa in da.items():
        for vb, pb in db.items():
            r = vb / va
            rd[r] = rd.get(r, 0) + pa * pb
    atoms = sorted(rd)
    cdf = np.cumsum([rd[v] for v in atoms])

    def quant(p):
        return atoms[min(int(np.searchsorted(cdf, p - 1e-12)),
                         len(atoms) - 1)]
    out = []
    for q in (0.5 - conf / 2, 0.5 + conf / 2):
        out += [quant(q - d), quant(q + d)]
    return out


def main():
    lines = []
    ex = [30.2, 20.4, 15.1, 10.2, 10.5, 60.8, 20.8, 25.0, 20.7, 30.9, 10.8,
          5.1, 50.9, 40.0, 20.9, 10.8, 0, 20.5, 50.8]
    assert abs(median_se(ex) - 4.292277) < 5e-7, median_se(ex)
    listed = [ex, [1.0, 2.0], [3.0, 3.0, 3.0], [1.0, 2.0, 4.0],
              [4.83, 5.16, 4.87], [7.02, 7.02, 7.02],
              [7.258, 7.222, 7.239, 7.5, 7.1, 7.3, 7.05]]
    for x in listed:
        xs = sorted(x)
        lines.append("median_se %d %s %r" % (
            len(xs), " ".join(repr(v) for v in xs), median_se(xs)))
    for n, k in ((5, 17), (9, 31), (10, 97), (25, 1234), (49, 77),
                 (100, 4321), (1000, 7919), (12345, 6007),
                 (100000, 3571), (1000003, 7)):
        lines.append("median_se_form %d %d %r %r %r" % (
            n, k, 2.5, 10.0, median_se(form(n, k, 2.5, 10.0))))
    for kind in ("mean", "median"):
        for conf, (na, ka, sca, oa), (nb, kb, scb, ob) in (
                (0.95, (15000, 7919, 1.0, 10.0), (15000, 6007, 1.0, 10.5)),
                (0.99, (12000, 3571, 2.0, 5.0), (9000, 1234, 1.0, 5.2)),
                (0.90, (20001, 17, 0.5, 100.0), (20001, 31, 0.6, 99.0)),
                (0.95, (30000, 4321, 3.0, -20.0), (30000, 77, 3.0, -21.0))):
            assert na + nb > BOOT_MAX
            a = form(na, ka, sca, oa)
            b = form(nb, kb, scb, ob)
            r, lo, hi = asym(kind, conf, a, b)
            lines.append("asym %s %r %d %d %r %r %d %d %r %r %r %r %r" % (
                kind, conf, na, ka, sca, oa, nb, kb, scb, ob, r, lo, hi))
    for kind in ("mean", "median"):
        for conf, a, b in (
                (0.95, [4.83, 5.16, 4.87], [5.18, 5.30, 5.61]),
                (0.90, [1.0, 2.0, 3.5], [2.0, 2.5, 3.0, 9.0]),
                (0.95, [7.222, 7.239, 7.258], [7.019, 7.019, 7.028]),
                (0.80, [10.0, 11.0, 12.0, 15.0], [9.0, 13.0, 14.0]),
                (0.95, [2.0, 3.0, 5.0, 7.0, 11.0], [3.0, 4.0, 9.0]),
                (0.99, [-3.0, -2.0, -2.5], [-1.0, -2.0, -1.5, -1.2])):
            res = boot_case(kind, conf, sorted(a), sorted(b))
            lines.append("boot %s %r %s %d %s %d %s" % (
                kind, conf, " ".join(repr(v) for v in res), len(a),
                " ".join(repr(v) for v in sorted(a)), len(b),
                " ".join(repr(v) for v in sorted(b))))
    with open(OUT, "w") as f:
        f.write("# generated by tests/stats/gen_ratio_fixtures.py; "
                "do not edit\n")
        for ln in lines:
            f.write(ln + "\n")


if __name__ == "__main__":
    main()
