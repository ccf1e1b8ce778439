#!/usr/bin/python3
"""Writes tests/stats/data/moderated_welch.txt: reference values for the
one-figure case of src/stats/moderated.c (perfreg/moderated.h): when the
prior of the moderated t cannot be estimated (fewer than two figures with
residual degrees of freedom) and no prior is given, a figure with two or
more units (sessions, or the processes of `suite ab`) on each side is
tested by Welch's t on the logs of its unit means.

Run from the repository root with Debian's python3-scipy:

    /usr/bin/python3 tests/stats/gen_moderated_welch.py

Everything is computed here independently of the C code: the logs of the
values (numpy), Welch's t and its two-sided p by
scipy.stats.ttest_ind(equal_var=False), the Welch-Satterthwaite degrees
of freedom from their formula (scipy 1.10 does not return them; the
script checks that scipy.stats.t.sf at that df gives scipy's p), the 95%
interval of the log ratio D +- q se with q the t quantile by mpmath at 40
digits (scipy's t.ppf is off by 1e-9 relative at df near 1; the two are
checked to agree to 1e-6), the change and its
ends as 100 (exp(x) - 1), and the verdict by the rule of
perfreg/verdict.h (equivalent when the whole interval lies within +-1%,
even when p < 0.05; else regression or improvement when p < 0.05 and the
interval excludes 0%, the direction from BETTER; else inconclusive).  A case whose logs
have no spread on either side is untested.

Values are written with 17 significant digits, so the C test reads the
same doubles.  Line format:

    case NAME BETTER
    b VALUE...                  (the base side's unit means)
    n VALUE...                  (the new side's)
    expect CHANGE LO HI T DF P VERDICT | untested CHANGE
    end
"""
import math
import warnings

import mpmath as mp
import numpy as np
from scipy import stats

rng = np.random.default_rng(20261201)
out = []


def g(x):
    return "%.17g" % x


def case(name, better, base, new):
    base = np.asarray(base, dtype=float)
    new = np.asarray(new, dtype=float)
    out.append("case %s %s" % (name, better))
    out.append("b " + " ".join(g(v) for v in base))
    out.append("n " + " ".join(g(v) for v in new))
    lb, ln = np.log(base), np.log(new)
    d = ln.mean() - lb.mean()
    va, vb = lb.var(ddof=1), ln.var(ddof=1)
    if va == 0 and vb == 0:
        out.append("expect untested " + g(100 * math.expm1(d)))
        out.append("end")
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        # scipy warns of precision loss when one side has no spread.
        r = stats.ttest_ind(ln, lb, equal_var=False)
    qa, qb = va / len(lb), vb / len(ln)
    se = math.sqrt(qa + qb)
    df = (qa + qb) ** 2 / (qa ** 2 / (len(lb) - 1) + qb ** 2 / (len(ln) - 1))
    p = 2 * stats.t.sf(abs(r.statistic), df)
    assert abs(p - r.pvalue) <= 1e-12 * max(p, 1e-300), (name, p, r.pvalue)
    assert abs(r.statistic - d / se) <= 1e-12 * abs(r.statistic)
    q = t_quantile(0.975, df)
    assert abs(q - stats.t.ppf(0.975, df)) <= 1e-6 * q
    lo, hi = 100 * math.expm1(d - q * se), 100 * math.expm1(d + q * se)
    ch = 100 * math.expm1(d)
    if lo >= -1 and hi <= 1:
        verdict = "equivalent"
    elif r.pvalue < 0.05 and (lo > 0 or hi < 0):
        worse = (ch > 0) == (better == "lower")
        verdict = "regression" if worse else "improvement"
    else:
        verdict = "inconclusive"
    out.append("expect %s %s %s %s %s %s %s" % (
        g(ch), g(lo), g(hi), g(r.statistic), g(df), g(r.pvalue), verdict))
    out.append("end")


def t_quantile(p, df):
    """The t quantile by mpmath at 40 digits: scipy 1.10's stdtrit is off
    by 1e-9 relative at df near 1 (tests/stats/README.md)."""
    mp.mp.dps = 40
    d = mp.mpf(df)

    def lower(t):
        return mp.betainc(d / 2, mp.mpf(1) / 2, 0, d / (d + t * t),
                          regularized=True) / 2 - (1 - mp.mpf(p))

    return float(mp.findroot(lower, stats.t.ppf(p, df)))


def lognormal(n, mean, rel):
    return mean * np.exp(rel * rng.standard_normal(n))


# The report's case: `suite ab syscall --a getppid --b clock_gettime`,
# 10 processes a side, about 388 against 55 ns a call.
case("ab-syscall-10", "lower", lognormal(10, 388, 0.03), lognormal(10, 55, 0.02))
# An A/A pair of 10 processes: nothing.
case("aa-10", "lower", lognormal(10, 100, 0.02), lognormal(10, 100, 0.02))
# A 5% slowdown of a throughput measured to 1% a process.
case("tput-5pct-10", "higher", lognormal(10, 1000, 0.01), lognormal(10, 950, 0.01))
# The same improvement, fewer processes.
case("tput-up-3", "higher", lognormal(3, 1000, 0.01), lognormal(3, 1100, 0.01))
# Two a side, the least Welch takes.
case("two-two", "lower", [10.0, 10.4], [12.0, 12.1])
case("two-five", "lower", [5.0, 5.3], lognormal(5, 5.1, 0.05))
# Unequal variances, unequal sizes.
case("unequal", "lower", lognormal(4, 20, 0.001), lognormal(12, 20.5, 0.08))
# One side without spread: df from the other side.
case("one-flat", "higher", [7.0, 7.0, 7.0], [7.5, 7.7, 7.4, 7.6])
# Precise and unchanged: equivalent.
case("equiv-10", "lower", lognormal(10, 50, 0.0005), lognormal(10, 50.01, 0.0005))
# A large drop (-90%) with noisy processes.
case("drop-90", "higher", lognormal(6, 4300, 0.1), lognormal(6, 430, 0.3))
# No spread on either side: untested.
case("flat", "lower", [3.0, 3.0], [4.0, 4.0, 4.0])

print("# tests/stats/data/moderated_welch.txt: written by "
      "tests/stats/gen_moderated_welch.py (scipy %s); do not edit"
      % __import__("scipy").__version__)
print("\n".join(out))
