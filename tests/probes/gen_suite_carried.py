#!/usr/bin/python3
"""Reference values of the suite's check that a change is carried by the
new session's processes (perfreg/suite.h, pr_suite_carried; tests/probes/
test_suite.c, test_carried).

Run from the repository root with Debian's python3-scipy:

    /usr/bin/python3 tests/probes/gen_suite_carried.py

Computed here independently of the C code, by scipy.stats.ttest_1samp
(the one-sample Student t of the process values against the base's
level, n - 1 df, two-sided): t, p and whether p < 0.05 (1 - conf at the
suite's conf 0.95), for process values of the kind the suite stores,
among them bench/README.md's stalled handoff.futex.p50 process of
real10.db's session 4 (one process of four 36 times the others': t is
not significant whatever the factor, 1 exactly when the other three sit
at the level), a change in all four processes, and two values.
"""
import numpy as np
from scipy import stats

CASES = [
    # (process values, the base's level)
    ([1415, 1405, 51478, 1408], 1433.6),
    ([1600, 1600, 1600, 46110], 1600),
    ([1600, 1600, 1600, 1e30], 1600),
    ([10, 11, 12, 13], 9),
    ([10, 11, 12, 13], 10),
    ([1300, 1290, 1310, 1295], 1433.6),
    ([5.0, 7.0], 1.0),
    ([2, 2, 2, 40], 2),
    ([2, 40, 40, 40], 2),
]

for v, level in CASES:
    r = stats.ttest_1samp(np.array(v, dtype=float), level)
    print("{ { %s }, %d, %.17g, %.17g, %.17g, %d }," % (
        ", ".join("%.17g" % x for x in v), len(v), level, r.statistic,
        r.pvalue, int(r.pvalue < 0.05)))
