#!/usr/bin/python3
"""Writes tests/stats/data/ttest.txt and tests/stats/data/mwu.txt: reference
values for the two-sample tests of src/stats/ttest.c and src/stats/mwu.c,
computed with scipy, mpmath and exact rational arithmetic.

Run from anywhere with Debian's python3-scipy:

    /usr/bin/python3 tests/stats/gen_tests_fixtures.py

Samples are printed with repr() (the shortest string that reads back as the
same double), references with 17 significant digits.  The direction is
perfreg's: a is the base, b the new sample, diff = mean(b) - mean(a), and
U counts the pairs with b_j > a_i (scipy's mannwhitneyu(b, a)).

ttest.txt, one block per case:

    case NAME
    a N V...
    b N V...
    student CONF T P DF LO HI
    welch CONF T P DF LO HI
    welch undefined            (a side with one value)

  Every figure is computed here from the doubles of the samples without
  rounding: exact rational means and sums of squares (Python fractions),
  then the standard error, t, the Welch-Satterthwaite df, the two-sided
  p = 2 P(T > |t|) and the interval diff -+ q se, q the (1 + conf)/2
  quantile, with mpmath at 40 digits (the t distribution from the
  incomplete beta function).  t and p are checked against
  scipy.stats.ttest_ind(b, a, equal_var=True/False) to 1e-6 (scipy rounds
  the moments of nearly equal values, as in offset1e6) and every quantile
  against scipy.stats.t.ppf to 1e-8: scipy 1.10's t.ppf (cephes stdtrit)
  is only good to about 1e-9 (t.ppf(0.9975, 87) is 2.8803859445, the
  true quantile 2.8803859483), too coarse for a 1e-9 test of the interval,
  and scipy 1.10's ttest_ind gives no df or interval.  With one value on a
  side scipy gives NaN; Student's test is still defined (pooled variance
  from the other side, df = na + nb - 2) and is written.
  Needs Debian's python3-mpmath.

mwu.txt, one block per case, then a table of exact p-values:

    case NAME
    a N V...
    b N V...
    ties 0|1
    exact U P          scipy.stats.mannwhitneyu(method="exact"), no ties
    asymptotic U P Z   method="asymptotic", use_continuity=True; Z is the
                       signed standardised statistic computed here
    exactp M N U P

  The exactp lines are computed here with exact rational arithmetic: the
  frequencies of U are the coefficients of the Gaussian binomial
  [m+n choose m]_q, built with Python integers, and P = min(1, 2 P(U <=
  min(u, mn - u))).  Every case's exact p-value from scipy is checked
  against the same exact computation.
"""

import math
import os
import sys
from fractions import Fraction

import numpy as np
import scipy
import scipy.stats as st

import mpmath

mpmath.mp.dps = 40

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_T = os.path.join(HERE, "data", "ttest.txt")
OUT_U = os.path.join(HERE, "data", "mwu.txt")
CONFS = [0.8, 0.9, 0.95, 0.98, 0.99, 0.995]


def g(v):
    return "%.17g" % float(v)


def sample_line(name, xs):
    return "%s %d %s" % (name, len(xs), " ".join(repr(float(x)) for x in xs))


def close(x, y, tol):
    return abs(x - y) <= tol * max(abs(x), abs(y), 1e-300)


# The exact null distribution of U, with Python integers.
_freq_cache = {}


def u_frequencies(m, n):
    """Coefficients of the Gaussian binomial [m+n choose m]_q: the number
    of arrangements with U = k, k = 0..mn."""
    key = (min(m, n), max(m, n))
    if key in _freq_cache:
        return _freq_cache[key]
    m, n = key
    # prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), exact in integers.
    size = m * n + 1
    c = [0] * size
    c[0] = 1
    for i in range(1, m + 1):
        # multiply by (1 - q^(n+i)), then divide by (1 - q^i)
        s = n + i
        for k in range(size - 1, s - 1, -1):
            c[k] -= c[k - s]
        for k in range(i, size):
            c[k] += c[k - i]
    assert sum(c) == math.comb(m + n, m)
    assert all(v > 0 for v in c)
    _freq_cache[key] = c
    return c


def exact_p(u, m, n):
    c = u_frequencies(m, n)
    mn = m * n
    uu = min(u, mn - u)
    assert uu == int(uu)
    tail = Fraction(sum(c[: int(uu) + 1]), math.comb(m + n, m))
    return float(min(Fraction(1), 2 * tail))


def t_sf_mp(t, df):
    """P(T > t) for t >= 0 by I_x(df/2, 1/2) / 2, x = df / (df + t^2)."""
    t, df = mpmath.mpf(t), mpmath.mpf(df)
    x = df / (df + t * t)
    return mpmath.betainc(df / 2, mpmath.mpf(1) / 2, 0, x,
                          regularized=True) / 2


def t_ppf(p, df):
    """The quantile t with P(T <= t) = p > 1/2, by mpmath, checked
    against scipy."""
    q = st.t.ppf(p, float(df))
    target = 1 - mpmath.mpf(p)
    r = mpmath.findroot(lambda x: t_sf_mp(x, df) - target, mpmath.mpf(q))
    assert close(float(r), q, 1e-8), (p, df, q, r)
    return r


def moments(x):
    """The exact mean and sum of squared deviations of the doubles x."""
    fx = [Fraction(float(v)) for v in x]
    mean = sum(fx) / len(fx)
    return mean, sum((v - mean) ** 2 for v in fx)


def mp(fr):
    return mpmath.mpf(fr.numerator) / fr.denominator


def ttest_line(kind, a, b, conf):
    """One test computed exactly from the doubles of a and b, the
    distribution function and quantile by mpmath; t and p are checked
    against scipy's ttest_ind where scipy defines them."""
    na, nb = len(a), len(b)
    ma, ssa = moments(a)
    mb, ssb = moments(b)
    diff = mp(mb - ma)
    if kind == "student":
        df = mpmath.mpf(na + nb - 2)
        se = mpmath.sqrt(mp((ssa + ssb) / (na + nb - 2) *
                            (Fraction(1, na) + Fraction(1, nb))))
    else:
        va = ssa / (na - 1) / na
        vb = ssb / (nb - 1) / nb
        se = mpmath.sqrt(mp(va + vb))
        df = mp((va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1)))
    t = diff / se
    p = min(mpmath.mpf(1), 2 * t_sf_mp(abs(t), df))
    if na >= 2 and nb >= 2:
        r = st.ttest_ind(b, a, equal_var=(kind == "student"))
        # scipy rounds the means and variances of nearly equal values:
        # agreement to 1e-6 is what it can promise for offset1e6.
        assert close(float(r.statistic), float(t), 1e-6), (r, t)
        assert close(float(r.pvalue), float(p), 1e-6), (r, p)
    q = t_ppf((1 + conf) / 2, df)
    return "%s %s %s %s %s %s %s" % (
        kind, repr(conf), g(t), g(p), g(df), g(diff - q * se),
        g(diff + q * se))


def ttest_lines(a, b, conf):
    out = [ttest_line("student", a, b, conf)]
    if len(a) >= 2 and len(b) >= 2:
        out.append(ttest_line("welch", a, b, conf))
    else:
        out.append("welch undefined")
    return out


def has_ties(a, b):
    pooled = np.concatenate([a, b])
    return len(np.unique(pooled)) != len(pooled)


def mwu_lines(a, b):
    out = []
    ties = has_ties(a, b)
    out.append("ties %d" % int(ties))
    na, nb = len(a), len(b)
    if not ties and na <= 60 and nb <= 60:
        r = st.mannwhitneyu(b, a, alternative="two-sided", method="exact")
        u = float(r.statistic)
        p = float(r.pvalue)
        ref = exact_p(u, na, nb)
        assert close(p, ref, 1e-11), (p, ref)
        out.append("exact %s %s" % (g(u), g(p)))
    r = st.mannwhitneyu(b, a, alternative="two-sided", method="asymptotic",
                        use_continuity=True)
    u = float(r.statistic)
    p = float(r.pvalue)
    # The signed z of R's wilcox.test, computed independently.
    pooled = np.concatenate([a, b])
    _, counts = np.unique(pooled, return_counts=True)
    n = na + nb
    tie = float(np.sum(counts.astype(float) ** 3 - counts))
    var = na * nb / 12 * ((n + 1) - tie / (n * (n - 1)))
    du = u - na * nb / 2
    if var <= 1e-12 * na * nb * (n + 1):
        z = 0.0
    else:
        z = (du - math.copysign(0.5, du) if du != 0 else 0.0) / \
            math.sqrt(var)
        assert close(p, min(1.0, 2 * st.norm.sf(abs(z))), 1e-12) or \
            abs(z) < 1e-300, (p, z)
    if not np.isfinite(p):
        p = 1.0  # scipy 0/0 when every value is equal
    out.append("asymptotic %s %s %s" % (g(u), g(p), g(z)))
    return out


def cases():
    """(name, a, b): base and new samples."""
    out = []
    f = lambda *v: np.array(v, dtype=float)
    out.append(("seed002_elapsed", f(4.83, 5.16, 4.87), f(5.30, 5.18, 5.61)))
    out.append(("seed003_user", f(7.258, 7.222, 7.239),
                f(7.019, 7.019, 7.028)))
    out.append(("seed003_elapsed", f(7.69, 7.67, 7.69), f(7.02, 7.02, 7.02)))
    rng = np.random.default_rng(20240521)
    for i in range(40):
        na, nb = rng.integers(2, 61, size=2)
        mu = rng.uniform(0.5, 100)
        sd = mu * rng.choice([0.005, 0.02, 0.05, 0.2])
        shift = mu * rng.choice([0, 0, 0.01, 0.03, 0.1])
        a = rng.normal(mu, sd, na)
        b = rng.normal(mu + shift, sd * rng.uniform(0.5, 2), nb)
        out.append(("normal%02d" % i, a, b))
    for i in range(15):
        na, nb = rng.integers(2, 61, size=2)
        s = rng.choice([0.03, 0.3, 1.0])
        a = rng.lognormal(0, s, na)
        b = rng.lognormal(rng.choice([0, 0.05, 0.5]), s, nb)
        out.append(("lognormal%02d" % i, a, b))
    for i in range(15):
        na, nb = rng.integers(2, 61, size=2)
        a = np.round(rng.normal(10, 1, na), 0 if i % 2 else 1)
        b = np.round(rng.normal(10.3, 1, nb), 0 if i % 2 else 1)
        out.append(("ties%02d" % i, a, b))
    # small sizes, no ties, every combination up to 5 + 5
    for na in range(1, 6):
        for nb in range(1, 6):
            if na + nb < 3:
                continue
            a = rng.normal(0, 1, na)
            b = rng.normal(0.8, 1, nb)
            out.append(("small%d_%d" % (na, nb), a, b))
    out.append(("one_base", f(10.0), f(10.4, 10.9, 10.6, 10.7)))
    out.append(("one_new", f(3.1, 3.3, 3.2, 3.25, 3.18), f(2.9)))
    out.append(("one_base_two", f(2.0), f(2.5, 2.75)))
    out.append(("zero_spread_base", f(7.02, 7.02, 7.02, 7.02),
                f(7.1, 7.3, 7.05, 7.2)))
    out.append(("zero_spread_new", f(1.5, 1.6, 1.55), f(1.7, 1.7)))
    # large locations, modest spread: cancellation in the variance
    out.append(("offset1e6", 1e6 + rng.normal(0, 1, 12),
                1e6 + rng.normal(0.5, 1, 9)))
    out.append(("offset1e9", 1e9 + rng.normal(0, 1e3, 20),
                1e9 + rng.normal(500, 1e3, 25)))
    # far apart: p deep in the tail
    out.append(("far_small", rng.normal(100, 1, 4), rng.normal(130, 1, 4)))
    out.append(("far_large", rng.normal(100, 1, 40),
                rng.normal(90, 1.5, 50)))
    out.append(("separated50", np.arange(50.0), np.arange(50.0) + 100))
    out.append(("separated49_60", np.arange(49.0) * 0.5,
                10 - np.arange(60.0) * 0.1 - 20))
    out.append(("interleaved", np.arange(0.0, 40, 2), np.arange(1.0, 40, 2)))
    out.append(("negative", -np.abs(rng.normal(5, 1, 7)),
                -np.abs(rng.normal(5.5, 1, 8))))
    return out


def main():
    tl = ["# ttest.txt: generated by tests/stats/gen_tests_fixtures.py "
          "with scipy %s; do not edit" % scipy.__version__]
    ul = ["# mwu.txt: generated by tests/stats/gen_tests_fixtures.py "
          "with scipy %s; do not edit" % scipy.__version__]
    for idx, (name, a, b) in enumerate(cases()):
        head = ["case " + name, sample_line("a", a), sample_line("b", b)]
        tl.extend(head)
        for conf in (0.95, CONFS[idx % len(CONFS)]):
            tl.extend(ttest_lines(a, b, conf))
        ul.extend(head)
        ul.extend(mwu_lines(a, b))
    grid = [(1, 1), (1, 2), (2, 1), (1, 5), (2, 2), (2, 3), (3, 3), (3, 5),
            (5, 3), (4, 7), (6, 6), (8, 8), (10, 10), (7, 20), (20, 15),
            (30, 30), (49, 49), (50, 50), (1, 100), (100, 3), (60, 80),
            (100, 100)]
    for m, n in grid:
        mn = m * n
        us = sorted(set([0, 1, 2, mn // 4, mn // 3, mn // 2, (mn + 1) // 2,
                         mn - 1, mn] + [int(mn * f) for f in
                                         (0.05, 0.1, 0.2, 0.4, 0.45)]))
        for u in us:
            if 0 <= u <= mn:
                ul.append("exactp %d %d %d %s" % (m, n, u,
                                                  g(exact_p(u, m, n))))
    with open(OUT_T, "w") as fh:
        fh.write("\n".join(tl) + "\n")
    with open(OUT_U, "w") as fh:
        fh.write("\n".join(ul) + "\n")
    print("wrote %s, %s" % (OUT_T, OUT_U))


if __name__ == "__main__":
    sys.exit(main())
