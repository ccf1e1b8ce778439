#!/usr/bin/python3
"""Writes tests/stats/data/seq.txt: reference values for the sequential
Bayes-factor t test of src/stats/seq.c, computed with scipy by
numerical integration, independently of the closed form in seq.c.

Run with Debian's python3-scipy:

    /usr/bin/python3 tests/stats/gen_seq_fixtures.py

Lines:

    bf N T G LOG_BF
    bound N G ALPHA C
    data CASE ALPHA G N D1 ... DN
    cs CASE LO_LOG HI_LOG T LOG_BF
    signbf K M LOG_BF
    sdata CASE ALPHA N D1 ... DN
    scs CASE LO_LOG HI_LOG MEDIAN LOG_BF_AT_0

bf: log of the Bayes factor of the scale-invariant t test, computed
from its definition as a double integral (scipy.integrate.quad, nested)
of the normal likelihood over the effect size delta ~ N(0, G) and the
scale sigma with the right Haar prior 1/sigma, over the same under
delta = 0 (the invariant-prior representation of Perez-Ortiz et al.,
Ann. Stat. 2024), each integrand scaled by its largest value so that
n = 10^4 does not overflow.  bound: the |t| where that integral
reaches 1 / ALPHA (scipy.optimize.brentq).  data/cs: a sequence of
log-ratios and its confidence sequence at the end, mean -+ C s / sqrt(N)
with C from the integral.  signbf: the sign test's Krichevsky-Trofimov
factor 2^M B(K + 1/2, M - K + 1/2) / B(1/2, 1/2) (scipy.special.betaln).
sdata/scs: its confidence sequence by brute force (the factor at every
value, ties dropped, and inside every gap; the closed hull of the
accepted points).  17 significant digits.
"""
import math
import os

import numpy as np
from scipy import integrate, optimize, special, stats

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data", "seq.txt")


def log_bf(n, t, g):
    """log of the integral over delta ~ N(0, g) and sigma (right Haar
    prior 1/sigma) of the likelihood with mean delta sigma, over the same
    with mean 0, for data with sqrt(n) mean / s = t (s = 1 by scale
    invariance).  With tau = 1/sigma the likelihood part of the integrand
    is exp(h(tau)), h = (n-1) log tau - ((t tau - sqrt(n) delta)^2 +
    nu tau^2) / 2; the denominator is the gamma integral
    Gamma(n/2) 2^(n/2-1) (t^2 + nu)^(-n/2)."""
    nu = n - 1
    sn = math.sqrt(n)
    a = t * t + nu
    log0 = (math.lgamma(n / 2) + (n / 2 - 1) * math.log(2) -
            n / 2 * math.log(a))

    def inner(delta):
        b = t * sn * delta
        tau = (b + math.sqrt(b * b + 4 * a * (n - 1))) / (2 * a)

        def h(x):
            return ((n - 1) * math.log(x) -
                    ((t * x - sn * delta) ** 2 + nu * x * x) / 2)

        hm = h(tau)
        w = 1 / math.sqrt(a + (n - 1) / (tau * tau))
        pts = [0, max(tau - 40 * w, tau / 2), tau, tau + 40 * w,
               tau + 80 * w]
        tot = 0.0
        for lo, hi in zip(pts[:-1], pts[1:]):
            if hi > lo:
                tot += integrate.quad(
                    lambda x: math.exp(h(x) - hm) if x > 0 else 0.0,
                    lo, hi, epsabs=0, epsrel=1e-13, limit=200)[0]
        tot += integrate.quad(lambda x: math.exp(h(x) - hm),
                              tau + 80 * w, math.inf, epsabs=0,
                              epsrel=1e-13, limit=200)[0]
        return hm + math.log(tot)

    def logf(delta):
        return (inner(delta) - delta * delta / (2 * g) -
                0.5 * math.log(2 * math.pi * g) - log0)

    sg = math.sqrt(g)
    lo, hi = -12 * sg - abs(t) / sn, 12 * sg + abs(t) / sn
    grid = np.linspace(lo, hi, 801)
    vals = np.array([logf(x) for x in grid])
    k = int(np.argmax(vals))
    peak = grid[k]
    m = vals[k]
    width = max(1 / sn, 1e-3)
    pts = sorted({lo, max(lo, peak - 12 * width), peak,
                  min(hi, peak + 12 * width), hi})
    total = 0.0
    for a_, b_ in zip(pts[:-1], pts[1:]):
        if b_ > a_:
            total += integrate.quad(lambda x: math.exp(logf(x) - m), a_,
                                    b_, epsabs=0, epsrel=1e-12,
                                    limit=200)[0]
    return m + math.log(total)


def bound(n, g, alpha):
    target = -math.log(alpha)
    sup = (n - 1) / 2 * math.log(1 + n * g)
    if sup <= target:
        return math.inf
    hi = 1.0
    while log_bf(n, hi, g) < target:
        hi *= 2
    return optimize.brentq(lambda t: log_bf(n, t, g) - target, 0, hi,
                           xtol=1e-14, rtol=1e-14)


def sign_lbf(k, m):
    if m == 0:
        return 0.0
    return (m * math.log(2) + special.betaln(k + 0.5, m - k + 0.5) -
            special.betaln(0.5, 0.5))


def sign_cs(d, alpha):
    x = np.sort(np.asarray(d, dtype=float))
    lim = -math.log(alpha)
    cand = list(np.unique(x))
    u = np.unique(x)
    cand += [(a + b) / 2 for a, b in zip(u[:-1], u[1:])]
    cand += [u[0] - 1, u[-1] + 1]
    ok = []
    for th in cand:
        k = int(np.sum(x > th))
        m = int(np.sum(x != th))
        if sign_lbf(k, m) < lim:
            ok.append(th)
    lo, hi = min(ok), max(ok)
    # A gap accepted at its midpoint is accepted all along: close it.
    if lo not in u:
        below = u[u < lo]
        lo = below[-1] if len(below) else -math.inf
    if hi not in u:
        above = u[u > hi]
        hi = above[0] if len(above) else math.inf
    return lo, hi


def main():
    lines = []
    for n, t, g in [(2, 0.5, 0.25), (2, 3.0, 1.0), (3, 1.0, 0.25),
                    (5, 0.0, 0.25), (5, 2.5, 0.25), (10, 1.5, 0.5),
                    (10, -4.0, 0.25), (30, 3.0, 0.25), (30, 0.2, 2.0),
                    (100, 2.0, 0.25), (100, 6.0, 0.25), (1000, 4.0, 0.25),
                    (10000, 3.5, 0.25), (10000, 40.0, 0.25),
                    (10000, 0.5, 0.01)]:
        lines.append("bf %d %.17g %.17g %.17g" % (n, t, g, log_bf(n, t, g)))
    for n, g, alpha in [(6, 0.25, 0.05), (7, 0.25, 0.05), (8, 0.25, 0.05),
                        (10, 0.25, 0.05), (20, 0.25, 0.05),
                        (50, 0.25, 0.01), (200, 0.25, 0.05),
                        (200, 1.0, 0.1), (1000, 0.25, 0.05),
                        (5, 1.0, 0.05)]:
        c = bound(n, g, alpha)
        lines.append("bound %d %.17g %.17g %s" % (
            n, g, alpha, "inf" if math.isinf(c) else "%.17g" % c))
    rng = np.random.default_rng(20261130)
    cases = [
        ("reg3pct", 0.05, 0.25,
         np.log(1.03 * (1 + 0.02 * rng.standard_normal(20)) /
                (1 + 0.02 * rng.standard_normal(20)))),
        ("aa", 0.05, 0.25,
         np.log((1 + 0.01 * rng.standard_normal(40)) /
                (1 + 0.01 * rng.standard_normal(40)))),
        ("impr99", 0.01, 1.0,
         np.log(0.9 * (1 + 0.05 * rng.standard_normal(15)) /
                (1 + 0.05 * rng.standard_normal(15)))),
    ]
    for name, alpha, g, d in cases:
        n = len(d)
        lines.append("data %s %.17g %.17g %d %s" % (
            name, alpha, g, n, " ".join(repr(float(x)) for x in d)))
        mean = float(np.mean(d))
        s = float(np.std(d, ddof=1))
        se = s / math.sqrt(n)
        c = bound(n, g, alpha)
        t = mean / se
        lines.append("cs %s %.17g %.17g %.17g %.17g" % (
            name, mean - c * se, mean + c * se, t, log_bf(n, t, g)))
    # The sign method: the Krichevsky-Trofimov factor from scipy's
    # betaln, and the confidence sequence by brute force: the factor at
    # every data value (ties dropped) and at the midpoint of every gap,
    # the hull of the accepted ones.
    for k, m in [(0, 1), (1, 1), (3, 5), (7, 7), (0, 12), (30, 40),
                 (500, 1000), (620, 1000), (9000, 10000)]:
        lines.append("signbf %d %d %.17g" % (k, m, sign_lbf(k, m)))
    sign_cases = [
        ("sreg", 0.05, np.round(np.log(
            1.05 * (1 + 0.02 * rng.standard_normal(25)) /
            (1 + 0.02 * rng.standard_normal(25))), 4)),
        ("sties", 0.05, np.array([0.0] * 14 + [0.01, -0.01, 0.02, 0.0,
                                               0.03, 0.0])),
        ("sbimodal", 0.1, np.log(
            np.where(rng.random(60) < 0.2, 1.1, 1.0) * 1.02 *
            (1 + 0.01 * rng.standard_normal(60)) /
            (np.where(rng.random(60) < 0.2, 1.1, 1.0) *
             (1 + 0.01 * rng.standard_normal(60))))),
    ]
    for name, alpha, d in sign_cases:
        lines.append("sdata %s %.17g %d %s" % (
            name, alpha, len(d), " ".join(repr(float(x)) for x in d)))
        lo, hi = sign_cs(d, alpha)
        pos = int(np.sum(d > 0))
        neg = int(np.sum(d < 0))
        lines.append("scs %s %s %s %.17g %.17g" % (
            name, "%.17g" % lo, "%.17g" % hi, float(np.median(d)),
            sign_lbf(pos, pos + neg)))
    with open(OUT, "w") as f:
        f.write("# generated by tests/stats/gen_seq_fixtures.py\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
