/*
 * stats/nsum.h - Neumaier's compensated summation (an improved Kahan
 * sum), shared by the incomplete beta's exact lambda (stats/distrib.c)
 * and the change-point detector's prefix sums (stats/changepoint.c):
 * the sum is *sum + *comp, with an error of about an ulp of the larger
 * partial sum whatever the number of terms.
 */
#ifndef PERFREG_STATS_NSUM_H
#define PERFREG_STATS_NSUM_H

#include <math.h>

/* Adds x to the compensated sum (*sum, *comp). */
static inline void
nsum(double *sum, double *comp, double x)
{
	double t = *sum + x;

	if (fabs(*sum) >= fabs(x))
		*comp += (*sum - t) + x;
	else
		*comp += (x - t) + *sum;
	*sum = t;
}

#endif /* PERFREG_STATS_NSUM_H */
