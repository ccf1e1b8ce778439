/*
 * bench/noise.h - the simulated noise models of bench/verdict-sim and
 * bench/seq-sim (issues 2 and 3): one multiplicative draw around 1 per
 * run, from a seeded struct pr_rng, so both simulations draw the same
 * numbers for the same seed.
 */
#ifndef PERFREG_BENCH_NOISE_H
#define PERFREG_BENCH_NOISE_H

#include "perfreg/rng.h"

enum noise_model {
	NOISE_NORMAL1 = 0, /* normal, CV 1% */
	NOISE_NORMAL2,     /* normal, CV 2% */
	NOISE_NORMAL5,     /* normal, CV 5% */
	NOISE_LOGNORMAL,   /* lognormal, sigma 0.03 */
	NOISE_BIMODAL,     /* 80% at 1.0, 20% at 1.10, each with CV 1% */
	NOISE_T3,          /* Student t, 3 df, scaled to sd 2% */
	NOISE_DRIFT,       /* normal CV 2% on a +4% linear drift */
	NOISE_NMODELS
};

/* "normal 1%", ... */
extern const char *const noise_model_name[NOISE_NMODELS];

/*
 * One draw of model m.  pos is the position in the session, in rounds,
 * used by NOISE_DRIFT only: the speed drifts by +4% over 2 * drift_rounds
 * rounds.
 */
double noise_draw(enum noise_model m, struct pr_rng *r, double pos,
    double drift_rounds);

#endif /* PERFREG_BENCH_NOISE_H */
