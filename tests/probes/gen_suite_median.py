#!/usr/bin/python3
"""Reference values of the suite's median session value (perfreg/suite.h,
pr_suite_session_value with PR_SUITE_VALUE_MEDIAN; tests/probes/
test_suite.c, test_session_median).

Run from the repository root with Debian's python3-scipy:

    /usr/bin/python3 tests/probes/gen_suite_median.py

Computed here independently of the C code:
1. c_n for n = 3..16, the standard deviation of the median of n standard
   normal values times sqrt(n) (the mean's is 1): Var(median) by
   integrating over the density of the middle order statistic (odd n) or
   the joint density of the two middle ones (even n; scipy.integrate).
   These are the constants of src/probes/compare.c and bench/suite-fit.py.
2. A check by simulation (numpy, 400,000 samples of n normal values a
   row): the variance of their median against the mean of the estimate
   c_n^2 s^2 / n (s^2 the sample variance, unbiased, so its mean is
   c_n^2 / n exactly): the estimate is unbiased for the median's variance.
3. The session value and the standard error of its log (c_n times the
   mean's, sd / sqrt(n) / mean) for a few sets of process values (numpy's
   median, mean and standard deviation, c_n from 1):
   the value test_session_median checks, the stalled process of
   bench/README.md among them.
"""
from math import factorial, sqrt, pi

import numpy as np
from scipy import integrate, stats


def var_median(n):
    phi, Phi = stats.norm.pdf, stats.norm.cdf
    if n % 2:
        r = n // 2 + 1
        c = factorial(n) / (factorial(r - 1) * factorial(n - r))
        return integrate.quad(
            lambda x: x * x * c * Phi(x) ** (r - 1) * (1 - Phi(x)) ** (n - r)
            * phi(x), -12, 12, epsabs=1e-13)[0]
    r = n // 2
    c = factorial(n) / (factorial(r - 1) * factorial(n - r - 1))
    return integrate.dblquad(
        lambda y, x: ((x + y) / 2) ** 2 * c * Phi(x) ** (r - 1)
        * (1 - Phi(y)) ** (n - r - 1) * phi(x) * phi(y),
        -10, 10, lambda x: x, lambda x: 10, epsabs=1e-11)[0]


C = {n: sqrt(n * var_median(n)) for n in range(3, 17)}
print("c_n, n = 3..16:", ", ".join("%.4f" % C[n] for n in range(3, 17)),
      "; the limit sqrt(pi / 2) = %.4f" % sqrt(pi / 2))

rng = np.random.default_rng(1)
for n in (3, 4, 5, 8):
    x = rng.standard_normal((400000, n))
    med = np.median(x, axis=1)
    est = C[n] ** 2 * x.var(axis=1, ddof=1) / n
    print("n = %d: Var(median) simulated %.5f, mean of c_n^2 s^2 / n %.5f"
          % (n, med.var(), est.mean()))


def value(v):
    v = np.array(v, dtype=float)
    n = len(v)
    m = v.mean()
    se = v.std(ddof=1) / sqrt(n) / m if n >= 2 else 0.0
    if n < 3:
        return m, se
    med = np.median(v)
    c = C[n] if n <= 16 else sqrt(pi / 2)
    return med, se * c


for v in ((1606, 46110, 1642, 1620), (100, 101, 103), (5, 4, 3, 2, 1),
          (2.0, 2.0, 2.0, 2.0), (10, 20)):
    med, se = value(v)
    print("%s: value %.17g se %.17g" % (" ".join("%g" % x for x in v),
                                        med, se))
