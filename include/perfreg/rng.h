/*
 * perfreg/rng.h - a small, seeded, reproducible random number generator.
 *
 * xoshiro256** (Blackman and Vigna, "Scrambled linear pseudorandom number
 * generators", 2018), seeded through splitmix64.  The same seed gives the
 * same stream on every platform, so bootstrap intervals and simulations
 * are reproducible.  Not for cryptography.  Each struct pr_rng is
 * independent; sharing one between threads needs outside locking.
 */
#ifndef PERFREG_RNG_H
#define PERFREG_RNG_H

#include <stdint.h>

struct pr_rng {
	uint64_t s[4];
};

void pr_rng_seed(struct pr_rng *r, uint64_t seed);
uint64_t pr_rng_next(struct pr_rng *r);
/* Uniform in [0, 1), 53 random bits. */
double pr_rng_uniform(struct pr_rng *r);
/* Uniform integer in [0, n), without modulo bias; n > 0. */
uint64_t pr_rng_below(struct pr_rng *r, uint64_t n);
/* Standard normal deviate (polar method, no cached spare). */
double pr_rng_normal(struct pr_rng *r);

#endif /* PERFREG_RNG_H */
