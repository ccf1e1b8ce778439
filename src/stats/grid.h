/*
 * stats/grid.h - the decimal grid a sample was printed to, found in the
 * summary's own passes (stats/describe.c), for pr_compare's resolution
 * (stats/verdict.c).
 */
#ifndef PERFREG_STATS_GRID_H
#define PERFREG_STATS_GRID_H

#include <stddef.h>

#include "perfreg/describe.h"
#include "perfreg/error.h"

/*
 * The grid step of x: the largest 10^-k, k = 0..9, such that every value
 * is an integer multiple of it (to within the error of reading a decimal
 * into a double), or 0 when there is none; a value beyond 10^12 grid
 * units met before the first value off the grid ends the search with 0.
 */
double pr_grid_step(const double *x, size_t n);

/*
 * pr_summary_compute(sorted, n, out, err), and on success *grid =
 * pr_grid_step(sorted, n), the same figures to the bit, the grid's scan
 * made within the summary's second pass instead of one of its own (on
 * failure *grid is 0).
 */
enum pr_status pr_summary_grid(const double *sorted, size_t n,
    struct pr_summary *out, double *grid, struct pr_error *err);

#endif /* PERFREG_STATS_GRID_H */
