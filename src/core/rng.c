/*
 * core/rng.c - xoshiro256** seeded by splitmix64.
 *
 * Reference: D. Blackman and S. Vigna, "Scrambled linear pseudorandom
 * number generators", ACM TOMS 47(4), 2021.  Written from the published
 * description.  pr_rng_below uses Lemire's multiply-and-reject method
 * ("Fast random integer generation in an interval", ACM TOMACS 2019).
 */
#include <math.h>
#include <stdint.h>

#include "perfreg/rng.h"
#include "core/banned.h"

__extension__ typedef unsigned __int128 u128;

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void
pr_rng_seed(struct pr_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t
pr_rng_next(struct pr_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double
pr_rng_uniform(struct pr_rng *r)
{
	return (double)(pr_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t
pr_rng_below(struct pr_rng *r, uint64_t n)
{
	u128 m;
	uint64_t lo, t;

	m = (u128)pr_rng_next(r) * n;
	lo = (uint64_t)m;
	if (lo < n) {
		t = -n % n;
		while (lo < t) {
			m = (u128)pr_rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double
pr_rng_normal(struct pr_rng *r)
{
	double u, v, s;

	do {
		u = 2.0 * pr_rng_uniform(r) - 1.0;
		v = 2.0 * pr_rng_uniform(r) - 1.0;
		s = u * u + v * v;
	} while (s >= 1.0 || s == 0.0);
	return u * sqrt(-2.0 * log(s) / s);
}
