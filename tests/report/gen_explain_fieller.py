#!/usr/bin/python3
# tests/report/gen_explain_fieller.py - the reference values of
# test_explain's test_interval_positive: Fieller's interval of the ratio of
# two means (Welch's standard errors and df) for a throughput that fell
# 92% from a base with a wide spread, solved as the quadratic
# (mb - rho ma)^2 = q^2 (vb/n + rho^2 va/n) with scipy's t quantile, and
# the interval of the difference over the base mean that the explanation
# gave before (below -100%).
import numpy as np
from scipy import stats

n = 30
a = np.array([700.0 if i % 2 == 0 else 1300.0 for i in range(n)])
b = np.array([75.0 if i % 2 == 0 else 85.0 for i in range(n)])
va, vb = a.var(ddof=1), b.var(ddof=1)
se = np.sqrt(va / n + vb / n)
df = se**4 / ((va / n) ** 2 / (n - 1) + (vb / n) ** 2 / (n - 1))
q = stats.t.ppf(0.975, df)
ma, mb = a.mean(), b.mean()
A = ma**2 - q * q * va / n
B = -2 * ma * mb
C = mb**2 - q * q * vb / n
disc = B * B - 4 * A * C
lo = (-B - np.sqrt(disc)) / (2 * A) - 1
hi = (-B + np.sqrt(disc)) / (2 * A) - 1
print("change %.17g" % ((mb - ma) / ma))
print("fieller %.17g %.17g" % (lo, hi))
print("old lower end %.17g" % (((mb - ma) - q * se) / ma))
