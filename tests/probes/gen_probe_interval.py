#!/usr/bin/python3
"""Prints the reference values of test_probe_interval (tests/probes/
test_suite.c): the 95% interval, in percent of the mean, of a figure
measured in two processes, as the suite's probe lines give it.

Run from the repository root with Debian's python3-scipy:

    /usr/bin/python3 tests/probes/gen_probe_interval.py

Computed here independently of the C code: the mean and the standard
error of the mean of the process values (numpy), the Student quantile
t(0.975, n - 1) (scipy.stats.t.ppf, not perfreg's distrib.c), the
relative half-width h = t se / mean (the half-width of the interval of
log(mean) by the delta method, the scale the verdicts test on) and the
interval's ends 100 (e^-h - 1) and 100 (e^h - 1).  For comparison, the
interval of the mean of the logs (scipy.stats.t.interval on log values,
relative to the geometric mean) is printed beside it: close, not equal,
which is why the test names the delta method.
"""
import numpy as np
from scipy import stats

for a, b in ((4, 6), (1, 9), (99.5, 100.5)):
    v = np.array([a, b], dtype=float)
    m = v.mean()
    se = v.std(ddof=1) / np.sqrt(len(v))
    h = stats.t.ppf(0.975, len(v) - 1) * se / m
    lo, hi = 100 * np.expm1(-h), 100 * np.expm1(h)
    lv = np.log(v)
    llo, lhi = stats.t.interval(0.95, len(v) - 1, loc=lv.mean(),
                                scale=lv.std(ddof=1) / np.sqrt(len(v)))
    g = np.exp(lv.mean())
    print(f"{a:g} {b:g}: mean {m:.17g} h {100 * h:.17g}% "
          f"interval [{lo:.17g}%, {hi:.17g}%]; "
          f"of the logs [{100 * (np.exp(llo) / g - 1):.4g}%, "
          f"{100 * (np.exp(lhi) / g - 1):.4g}%]")
