#!/usr/bin/python3
"""Reference values for pr_nested_predict (src/stats/nested.c).

Writes tests/stats/data/predict.txt: for each case the k base session
means, the new session mean x and the expected figures of the prediction
test, computed independently of the C code:

  M, S    exact: the inputs are converted to fractions (exact doubles);
  t       (x - M) / (S sqrt(1 + 1/k)) in mpmath at 60 digits;
  p       2 * sf(|t|, k - 1) from the regularised incomplete beta in
          mpmath, checked against scipy.stats.t.sf;
  q       the t quantile at (1 + conf) / 2, k - 1 df: mpmath findroot on
          the mpmath cdf from scipy.stats.t.ppf, checked against it;
  CI      Fieller: the roots of
          (M^2 - q^2 S^2 / k) rho^2 - 2 x M rho + (x^2 - q^2 S^2) = 0
          solved in mpmath, printed as 100 (rho - 1) (negated and
          swapped for a negative M, whose change is in percent of |M|;
          cut at -100% for positive values); '-' when
          M^2 <= q^2 S^2 / k (unbounded) or the percent is undefined;
  verdict the rule of perfreg/verdict.h applied to these figures.

Run with /usr/bin/python3 (scipy, mpmath) from the repository root:
  /usr/bin/python3 tests/stats/gen_predict.py > tests/stats/data/predict.txt
Line format (one case per line):
  case NAME BETTER CONF EQ X K B1 .. BK
  want TESTED T DF P CHANGE|- LO|- HI|- VERDICT NOTES
NOTES is a '|' list of NO_CI, NO_CHANGE, DEGENERATE, UNTESTED,
NEGLIGIBLE, ASSUMED or '-'.
"""
from fractions import Fraction

import mpmath as mp
import numpy as np
from scipy import stats

mp.mp.dps = 60


def mpf(v):
    f = Fraction(v)
    return mp.mpf(f.numerator) / f.denominator


def t_sf(t, df):
    # P(T > t), t >= 0: I_{df/(df+t^2)}(df/2, 1/2) / 2.
    x = df / (df + t * t)
    return mp.betainc(df / 2, mp.mpf(1) / 2, 0, x, regularized=True) / 2


def t_cdf(t, df):
    return 1 - t_sf(t, df) if t >= 0 else t_sf(-t, df)


def t_quantile(p, df):
    guess = stats.t.ppf(float(p), int(df))
    q = mp.findroot(lambda u: t_cdf(u, df) - p, mp.mpf(guess))
    assert abs(q - guess) <= 1e-9 * abs(q), (q, guess)
    return q


def reference(base, x, better, conf, eq):
    k = len(base)
    b = [mpf(v) for v in base]
    xx = mpf(x)
    m = sum(b) / k
    s2 = sum((v - m) ** 2 for v in b) / (k - 1)
    s = mp.sqrt(s2)
    df = mp.mpf(k - 1)
    notes = []
    if better == "unknown":
        notes.append("ASSUMED")
    diff = xx - m
    direction = (diff > 0) - (diff < 0)
    have_change = not (m == 0 or (xx != 0 and (xx < 0) != (m < 0)))
    # In percent of |M|, so that its sign is that of x - M (issue 12).
    change = 100 * diff / abs(m) if have_change else None
    if not have_change:
        notes += ["NO_CHANGE", "NO_CI"]
    if s == 0:
        notes += ["UNTESTED", "DEGENERATE"]
        if "NO_CI" not in notes:
            notes.append("NO_CI")
        return dict(tested=0, t=0, df=df, p=1, change=change, lo=None,
                    hi=None, verdict="inconclusive", notes=notes)
    t = diff / (s * mp.sqrt(1 + mp.mpf(1) / k))
    p = 2 * t_sf(abs(t), df)
    ps = 2 * stats.t.sf(abs(float(t)), k - 1)
    assert abs(p - ps) <= 1e-9 * p + 1e-300, (p, ps)
    q = t_quantile((1 + mpf(conf)) / 2, df)
    lo = hi = None
    if have_change:
        a = m * m - q * q * s2 / k
        if a > 0:
            bq = -2 * xx * m
            c = xx * xx - q * q * s2
            disc = bq * bq - 4 * a * c
            r1 = (-bq - mp.sqrt(disc)) / (2 * a)
            r2 = (-bq + mp.sqrt(disc)) / (2 * a)
            lo, hi = 100 * (min(r1, r2) - 1), 100 * (max(r1, r2) - 1)
            if m < 0:
                lo, hi = -hi, -lo
            # Positive values have a positive ratio: cut at -100%.
            if min(b) > 0 and xx > 0 and lo < -100:
                lo = mp.mpf(-100)
            # Cross-check the roots in double precision with numpy.
            rn = np.sort(np.roots([float(a), float(bq), float(c)]).real)
            assert abs(rn[0] - float(min(r1, r2))) <= 1e-6 * abs(rn[0])
        else:
            notes.append("NO_CI")
    alpha = 1 - mpf(conf)
    e = mpf(eq)
    if lo is not None and lo >= -e and hi <= e:
        verdict = "equivalent"
        if p < alpha:
            notes.append("NEGLIGIBLE")
    elif p < alpha and direction != 0 and (lo is None or lo > 0 or hi < 0):
        worse = direction < 0 if better == "higher" else direction > 0
        verdict = "regression" if worse else "improvement"
    else:
        verdict = "inconclusive"
    return dict(tested=1, t=t, df=df, p=p, change=change, lo=lo, hi=hi,
                verdict=verdict, notes=notes)


def fmt(v):
    return "-" if v is None else mp.nstr(v, 17, min_fixed=-5, max_fixed=5)


def cases():
    rng = np.random.default_rng(20261130)
    yield "k2_inside", "lower", 0.95, 1.0, 10.3, [10.0, 10.4]
    yield "k2_far", "lower", 0.95, 1.0, 30.0, [10.0, 10.05]
    yield "k3_far_lower", "lower", 0.95, 1.0, 112.0, [100.2, 99.8, 100.5]
    yield "k3_inside", "lower", 0.9, 1.0, 100.6, [100.2, 99.8, 100.5]
    base5 = [2012.5, 1990.25, 2003.0, 1998.75, 2007.5]
    yield "k5_higher_regr", "higher", 0.95, 1.0, 1850.0, base5
    yield "k5_higher_impr", "higher", 0.95, 1.0, 2150.0, base5
    yield "k5_lower_impr", "lower", 0.99, 1.0, 1850.0, base5
    yield "k5_unknown", "unknown", 0.95, 1.0, 2150.0, base5
    b20 = [float(v) for v in 50 + 0.8 * rng.standard_normal(20)]
    yield "k20_inside", "lower", 0.95, 1.0, float(np.mean(b20) + 0.9), b20
    yield "k20_far", "lower", 0.95, 1.0, float(np.mean(b20) * 1.08), b20
    yield "k20_edge", "higher", 0.95, 2.0, float(np.mean(b20) - 1.75), b20
    b10 = [float(v) for v in 1e3 * (1 + 2e-4 * rng.standard_normal(10))]
    yield "equiv", "lower", 0.95, 1.0, float(np.mean(b10) * 1.001), b10
    yield "equiv_plain", "higher", 0.95, 1.0, float(np.mean(b10) * 1.0001), \
        b10
    b20s = [float(v) for v in 1e3 * (1 + 1e-4 * rng.standard_normal(20))]
    yield "negligible", "lower", 0.95, 1.0, float(np.mean(b20s) * 1.005), \
        b20s
    yield "unbounded", "lower", 0.95, 1.0, 0.3, [1.0, -0.5]
    yield "unbounded_k5", "higher", 0.95, 1.0, 2.0, \
        [0.5, -0.25, 1.5, 0.1, -0.6]
    yield "opposite", "lower", 0.95, 1.0, -0.5, [1.0, 1.2, 0.9]
    yield "zero_base", "lower", 0.95, 1.0, 0.5, [-1.0, 1.0]
    yield "negative", "lower", 0.95, 1.0, -12.5, [-10.0, -10.5, -9.75]
    # Issue 10: a throughput's interval below -100%, now cut there.
    yield "wide_throughput", "higher", 0.95, 1.0, 20.0, \
        [100.0, 300.0, 200.0, 250.0, 50.0]
    yield "s_zero", "lower", 0.95, 1.0, 6.0, [5.0, 5.0, 5.0]
    yield "s_zero_same", "higher", 0.95, 1.0, 5.0, [5.0, 5.0]
    bo = [1e9 + v for v in (0.25, 0.5, -0.125, 0.375)]
    yield "offset", "lower", 0.95, 1e-7, 1e9 + 3.0, bo
    yield "x_equal_m", "lower", 0.95, 1.0, 2.0, [1.0, 3.0]


def main():
    print("# generated by tests/stats/gen_predict.py; do not edit")
    for name, better, conf, eq, x, base in cases():
        r = reference(base, x, better, conf, eq)
        print("case %s %s %r %r %r %d %s" % (
            name, better, conf, eq, x, len(base),
            " ".join(repr(float(v)) for v in base)))
        print("want %d %s %s %s %s %s %s %s %s" % (
            r["tested"], fmt(r["t"]), fmt(r["df"]), fmt(r["p"]),
            fmt(r["change"]), fmt(r["lo"]), fmt(r["hi"]), r["verdict"],
            "|".join(r["notes"]) or "-"))


main()
