#!/usr/bin/python3
# tests/report/gen_explain_logt.py - the reference values of
# test_explain's test_log_test: Welch's t on the logs of a side metric's
# values (scipy.stats.ttest_ind(equal_var=False) on np.log), the test the
# explanation makes of a metric whose values are all above 0, and Welch's
# t on the values themselves, which it made before.  The data: the shape
# of the CPU contention case that failed (bench/README.md): 20 runs a
# side, the base's involuntary context switches 5 to 9 a run, the new
# side's 110 to 211 but for one run of 2791.  On the values that one run
# hides a change of about +3000% (p about 0.05, not significant after
# Benjamini-Hochberg over a few dozen metrics); on the logs it does not.
# A second pair without a wild run checks the statistic where both
# tests agree.  Prints the C arrays and the p-values test_explain holds.
import numpy as np
from scipy import stats

a = np.array([5 + (7 * i) % 5 for i in range(20)], dtype=float)
b = np.array([110 + (37 * i) % 102 for i in range(19)] + [2791], dtype=float)
c = np.array([100 + 3 * ((5 * i) % 7) for i in range(12)], dtype=float)
d = np.array([104 + 3 * ((3 * i) % 7) for i in range(12)], dtype=float)


def arr(name, x):
    print("static const double %s[%d] = { %s };"
          % (name, len(x), ", ".join("%g" % v for v in x)))


for name, x in (("wa", a), ("wb", b), ("qa", c), ("qb", d)):
    arr(name, x)
for what, x, y in (("wild", a, b), ("quiet", c, d)):
    print("%s: welch p %.17g, welch on logs p %.17g, t on logs %.17g" % (
        what,
        stats.ttest_ind(y, x, equal_var=False).pvalue,
        stats.ttest_ind(np.log(y), np.log(x), equal_var=False).pvalue,
        stats.ttest_ind(np.log(y), np.log(x), equal_var=False).statistic))
# A value of 0: no logs, Welch's t on the values.
z = a.copy()
z[0] = 0
print("zero: welch p %.17g" % stats.ttest_ind(b, z, equal_var=False).pvalue)
