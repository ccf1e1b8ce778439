/*
 * stats/cp_step.h - the change-point detector's step test, for its tests
 * only (tests/stats/test_changepoint.c): the O(1) test from prefix sums
 * must agree with the direct one that the reports show.
 */
#ifndef PERFREG_STATS_CP_STEP_H
#define PERFREG_STATS_CP_STEP_H

#include <stddef.h>

/*
 * z^2 of the trend-adjusted step test of y[a..b) at c (a < c < b <= n),
 * unweighted, the local trend a line (quad 0) or a parabola (quad 1):
 * directly when fast is 0, else from the prefix sums of the whole of
 * y[0..n).  0 where the test cannot be made (fewer than 3 points, 5 for
 * the parabola, a singular design); NAN when out of memory.
 */
double pr_cp_step_z2(const double *y, size_t n, size_t a, size_t c, size_t b,
    int quad, int fast);

#endif /* PERFREG_STATS_CP_STEP_H */
