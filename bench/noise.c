/*
 * bench/noise.c - the noise models of bench/noise.h.
 *
 * Student's t with 3 df is drawn as Z / sqrt(chi2_3 / 3) and scaled by
 * sqrt(1/3) (its variance is 3), so that its standard deviation is 2%.
 */
#include <math.h>

#include "noise.h"

const char *const noise_model_name[NOISE_NMODELS] = { "normal 1%", "normal 2%",
	"normal 5%", "lognormal 0.03", "bimodal", "t3 2%", "drift +4%" };

double
noise_draw(enum noise_model m, struct pr_rng *r, double pos,
    double drift_rounds)
{
	double z, c, g;
	int i;

	switch (m) {
	case NOISE_NORMAL1:
		return 1 + 0.01 * pr_rng_normal(r);
	case NOISE_NORMAL2:
		return 1 + 0.02 * pr_rng_normal(r);
	case NOISE_NORMAL5:
		return 1 + 0.05 * pr_rng_normal(r);
	case NOISE_LOGNORMAL:
		return exp(0.03 * pr_rng_normal(r));
	case NOISE_BIMODAL:
		z = pr_rng_uniform(r) < 0.2 ? 1.10 : 1.0;
		return z * (1 + 0.01 * pr_rng_normal(r));
	case NOISE_T3:
		z = pr_rng_normal(r);
		for (c = 0, i = 0; i < 3; i++) {
			g = pr_rng_normal(r);
			c += g * g;
		}
		return 1 + 0.02 / sqrt(3.0) * z / sqrt(c / 3);
	case NOISE_DRIFT:
	case NOISE_NMODELS:
		break;
	}
	return (1 + 0.04 * pos / (2.0 * drift_rounds)) *
	    (1 + 0.02 * pr_rng_normal(r));
}
