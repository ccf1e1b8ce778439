#!/usr/bin/python3
"""Writes tests/stats/data/describe.txt: reference descriptive statistics
for src/stats/describe.c, computed with numpy and scipy.

Run from the repository root with Debian's python3-scipy:

    /usr/bin/python3 tests/stats/gen_describe_fixtures.py

A sample is given either by its values or by a generator the C test can
repeat bit for bit:

    sample NAME V1 V2 ...
    lcg NAME N SEED OFFSET SCALE
        N values OFFSET + SCALE * (s >> 44), where s starts at SEED and
        each value first steps s = s * 6364136223846793005 +
        1442695040888963407 (mod 2^64); SCALE is a power of two, so every
        value is an exact double
    expect NAME N MIN MAX MEAN MEDIAN Q1 Q3 STDDEV VAR MAD CV

Figures come from numpy (mean, median, quantile with the default linear
method, which is R's type 7, std and var with ddof=1) and
scipy.stats.median_abs_deviation (scale=1); cv = std / |mean|.  A figure
that is undefined (the spread of one value, the cv of a zero mean) is
written as `-`.  The mean and variance are also computed exactly with
fractions, and it is the exactly rounded values that are written; where
numpy is off by more than 1e-14 relative (a rounded mean near 1e9 costs
numpy's variance digits), a comment line says so.  Values are printed with
repr() (shortest round-trip form).
"""

import decimal
import math
import os
import random
import sys
from fractions import Fraction

import numpy as np
import scipy
import scipy.stats as st

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                   "describe.txt")
MASK = (1 << 64) - 1
lines = []


def fmt(v):
    return repr(float(v))


def lcg_values(n, seed, offset, scale):
    s = seed
    out = []
    for _ in range(n):
        s = (s * 6364136223846793005 + 1442695040888963407) & MASK
        out.append(offset + scale * (s >> 44))
    return out


def exact_mean_var(xs):
    fs = [Fraction(x) for x in xs]
    n = len(fs)
    mean = sum(fs) / n
    var = sum((f - mean) ** 2 for f in fs) / (n - 1) if n > 1 else None
    return mean, var


def close(a, b, tol=1e-14):
    return math.isclose(a, b, rel_tol=tol, abs_tol=1e-300)


def describe(name, xs):
    x = np.array(xs, dtype=np.float64)
    n = len(x)
    mean = float(np.mean(x))
    emean, evar = exact_mean_var(xs)
    if not close(mean, float(emean)):
        lines.append("# %s: numpy mean %r, exact %r (used)" % (
            name, mean, float(emean)))
    mean = float(emean)
    med = float(np.median(x))
    q1, q3 = (float(v) for v in np.quantile(x, [0.25, 0.75]))
    mad = float(st.median_abs_deviation(x, scale=1.0))
    if n >= 2:
        var = float(np.var(x, ddof=1))
        if not close(var, float(evar)):
            lines.append("# %s: numpy var %r, exact %r (used)" % (
                name, var, float(evar)))
        var = float(evar)
        # The square root of the exact variance, which stays right where
        # the variance itself underflows (sample "tiny").
        with decimal.localcontext() as ctx:
            ctx.prec = 60
            sd = float((decimal.Decimal(evar.numerator) /
                        decimal.Decimal(evar.denominator)).sqrt())
        sds, vars_ = fmt(sd), fmt(var)
        cv = fmt(sd / abs(mean)) if mean != 0 else "-"
    else:
        sds = vars_ = cv = "-"
    lines.append("expect %s %d %s %s %s %s %s %s %s %s %s %s" % (
        name, n, fmt(x.min()), fmt(x.max()), fmt(mean), fmt(med), fmt(q1),
        fmt(q3), sds, vars_, fmt(mad), cv))


def sample(name, xs):
    lines.append("sample %s %s" % (name, " ".join(fmt(v) for v in xs)))
    describe(name, xs)


def lcg(name, n, seed, offset, scale):
    lines.append("lcg %s %d %d %s %s" % (name, n, seed, fmt(offset),
                                        fmt(scale)))
    describe(name, lcg_values(n, seed, offset, scale))


def main():
    rng = random.Random(20240521)
    sample("one", [42.5])
    sample("one_negative", [-0.001])
    sample("two", [1.0, 3.0])
    sample("two_equal", [5.0, 5.0])
    sample("odd", [3.1, 1.2, 5.5, 2.2, 4.8])
    sample("even", [10.0, 2.0, 38.0, 23.0, 38.0, 23.0])
    sample("ties", [2.0, 2.0, 2.0, 3.0, 3.0, 7.0, 7.0, 7.0, 7.0])
    sample("zero_mean", [-2.0, -1.0, 0.0, 1.0, 2.0])
    sample("all_zero", [0.0, 0.0, 0.0])
    sample("negative", [-5.25, -3.5, -7.0, -4.125])
    # Seed 003: user and elapsed times, 3 runs per kernel.
    sample("seed003_user", [7.019, 7.019, 7.028])
    sample("seed003_elapsed", [7.02, 7.02, 7.02])
    # Seed 002: elapsed seconds, threaded IRQ and tasklet kernels.
    sample("seed002_threaded", [5.30, 5.18, 5.61])
    sample("seed002_tasklet", [4.83, 5.16, 4.87])
    sample("tiny", [1e-300, 2e-300, 4e-300, 8e-300])
    sample("huge", [1e153, 2e153, 3e153, 5e153])
    sample("offset_1e9", [1e9 + rng.gauss(0, 1e-3) for _ in range(101)])
    sample("offset_1e9_even", [1e9 + rng.gauss(0, 1) for _ in range(200)])
    sample("lognormal", [math.exp(rng.gauss(0, 2)) for _ in range(1000)])
    sample("normal_1001", [rng.gauss(100, 15) for _ in range(1001)])
    lcg("lcg_1e6_offset", 1000000, 12345, 1e9, 2.0 ** -20)
    lcg("lcg_100000", 100000, 7, 0.0, 1.0)
    lcg("lcg_99999_neg", 99999, 99, -5e5, 2.0 ** -10)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("# Reference values for tests/stats/test_describe.c, written"
                " by tests/stats/gen_describe_fixtures.py\n")
        f.write("# scipy %s, numpy %s\n" % (scipy.__version__,
                                            np.__version__))
        for line in lines:
            f.write(line + "\n")
    print("%s: %d samples" % (OUT, sum(1 for x in lines
                                       if x.startswith("expect"))),
          file=sys.stderr)


if __name__ == "__main__":
    main()
