/*
 * core/swar.h - digits eight at a time (SWAR, as in fast_float and
 * simdjson), and the common line of a number file read in one go: the
 * helpers of pr_parse_double (core/numparse.c) and of the numbers
 * reader's fast path (parse/numbers.c), inline in both.
 *
 * The bytes are loaded least significant first, checked to be all
 * '0'..'9' in one test, and combined by three multiplications.
 * Assembling the word byte by byte keeps it independent of the host's
 * byte order; compilers make it one load on little-endian machines.
 */
#ifndef PERFREG_CORE_SWAR_H
#define PERFREG_CORE_SWAR_H

#include <float.h>
#include <stdint.h>

/* Forced inline: gcc keeps such helpers out of line at -O2, and calling
 * them cost a fifth of the time of a short number (bench/numparse-bench,
 * 2026-12-01: %.17g 32.0 -> 27.4 ns, integers 11.7 -> 9.3 ns). */
#define PR_SWAR_INLINE static inline __attribute__((always_inline))

#define PR_SWAR_ONES 0x0101010101010101ULL
#define PR_SWAR_HIGH 0x8080808080808080ULL

PR_SWAR_INLINE uint64_t
pr_swar_load8(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	return (uint64_t)u[0] | (uint64_t)u[1] << 8 | (uint64_t)u[2] << 16 |
	    (uint64_t)u[3] << 24 | (uint64_t)u[4] << 32 | (uint64_t)u[5] << 40 |
	    (uint64_t)u[6] << 48 | (uint64_t)u[7] << 56;
}

/*
 * The high bit of each byte of v that is not '0'..'9'.  Exact up to and
 * including the first such byte; above it a borrow or carry from it may
 * flag or unflag bytes, so only the lowest flag is to be trusted.
 */
PR_SWAR_INLINE uint64_t
pr_swar_nondigits(uint64_t v)
{
	return ((v + 0x46 * PR_SWAR_ONES) | (v - 0x30 * PR_SWAR_ONES)) &
	    PR_SWAR_HIGH;
}

/* The eight digits of v ('0'..'9' each, the first in the low byte) as a
 * number. */
PR_SWAR_INLINE uint64_t
pr_swar_eight(uint64_t v)
{
	v -= 0x30 * PR_SWAR_ONES;
	v = v * 10 + (v >> 8);
	return ((v & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32)) +
		   ((v >> 16) & 0x000000ff000000ffULL) *
		       (1 + (10000ULL << 32))) >>
	    32;
}

/* The first n (1 to 8) digits of v as a number: moved to the top and
 * '0's put below them. */
PR_SWAR_INLINE uint64_t
pr_swar_first(uint64_t v, unsigned n)
{
	if (n < 8)
		v = v << (8 * (8 - n)) | (0x30 * PR_SWAR_ONES) >> (8 * n);
	return pr_swar_eight(v);
}

/*
 * The common line of a number file: 1 to 15 digits, at most one '.'
 * after the first of them, then '\n' ("1502345678", "1.500123",
 * "007."), in the 16 bytes at p (all readable).  Its value into *out and
 * the newline's place into *nl, 1; else 0, for the general reader.
 * The value is exact (w < 10^15 < 2^53) or w / 10^k with k <= 14, which
 * IEEE division rounds correctly: the bits strtod and pr_parse_double
 * give (its Clinger path).  Needs a double evaluated as a double.
 */
PR_SWAR_INLINE int
pr_swar_plain_line(const char *p, double *out, const char **nl)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
		1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14 };
	static const uint64_t u10[] = { 1, 10, 100, 1000, 10000, 100000,
		1000000, 10000000 };
	uint64_t v0 = pr_swar_load8(p), v1 = pr_swar_load8(p + 8), f, m, w;
	unsigned k, dot, n, frac = 0;

#if FLT_EVAL_METHOD != 0
	return 0;
#endif
	f = pr_swar_nondigits(v0);
	k = f != 0 ? (unsigned)__builtin_ctzll(f) >> 3
		   : 8 +
		((f = pr_swar_nondigits(v1)) != 0
			? (unsigned)__builtin_ctzll(f) >> 3
			: 8);
	if (k == 0 || k == 16)
		return 0;
	if (p[k] == '.') {
		/* The '.' taken out: the bytes above it move down one. */
		dot = k;
		if (dot < 8) {
			m = ((uint64_t)1 << (8 * dot)) - 1;
			v0 = (v0 & m) | ((v0 >> 8) & ~m) | v1 << 56;
			v1 >>= 8;
		} else {
			m = ((uint64_t)1 << (8 * (dot - 8))) - 1;
			v1 = (v1 & m) | ((v1 >> 8) & ~m);
		}
		/* The first non-digit after it, one byte down now (the top
		 * byte of v1 is 0, never a digit); at 15 it is past the 16
		 * bytes. */
		f = pr_swar_nondigits(v0);
		k = f != 0 ? (unsigned)__builtin_ctzll(f) >> 3
			   : 8 +
			((unsigned)__builtin_ctzll(pr_swar_nondigits(v1)) >> 3);
		if (k >= 15 || p[k + 1] != '\n')
			return 0;
		n = k;
		frac = k - dot;
		*nl = p + k + 1;
	} else if (p[k] == '\n') {
		n = k;
		*nl = p + k;
	} else
		return 0;
	/* n <= 15 digits, the first in the low byte of v0. */
	if (n <= 8)
		w = pr_swar_first(v0, n);
	else
		w = pr_swar_eight(v0) * u10[n - 8] + pr_swar_first(v1, n - 8);
	*out = frac == 0 ? (double)w : (double)w / p10[frac];
	return 1;
}

/*
 * The longer decimal line ("%.17g" of a value around 100 is
 * "100.17234567891234"): 1 to 7 digits, a '.', 0 to 15 digits, '\n', at
 * most 19 digits in all, in the 24 bytes at p (all readable).  All its
 * digits as one number into *w (< 10^19), how many follow the '.' into
 * *frac and the newline's place into *nl, 1; else 0.  The value is w /
 * 10^frac: pr_parse_double scans this w and exponent from the same text
 * (no digit dropped), so pr_parse_decimal(w, -frac) gives its bits.
 */
PR_SWAR_INLINE int
pr_swar_decimal_line(const char *p, uint64_t *w, unsigned *frac,
    const char **nl)
{
	static const uint64_t u10[] = { 1, 10, 100, 1000, 10000, 100000,
		1000000, 10000000, 100000000, 1000000000, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL };
	uint64_t v0 = pr_swar_load8(p), a, b, f, ip, fr;
	unsigned dot, fl;

	if ((f = pr_swar_nondigits(v0)) == 0)
		return 0;
	dot = (unsigned)__builtin_ctzll(f) >> 3;
	if (dot == 0 || p[dot] != '.')
		return 0;
	a = pr_swar_load8(p + dot + 1);
	b = pr_swar_load8(p + dot + 9);
	if ((f = pr_swar_nondigits(a)) != 0)
		fl = (unsigned)__builtin_ctzll(f) >> 3;
	else if ((f = pr_swar_nondigits(b)) != 0)
		fl = 8 + ((unsigned)__builtin_ctzll(f) >> 3);
	else
		return 0;
	if (p[dot + 1 + fl] != '\n' || dot + fl > 19)
		return 0;
	ip = pr_swar_first(v0, dot);
	if (fl == 0)
		fr = 0;
	else if (fl <= 8)
		fr = pr_swar_first(a, fl);
	else
		fr = pr_swar_eight(a) * u10[fl - 8] + pr_swar_first(b, fl - 8);
	/* ip < 10^dot, so ip 10^fl + fr < 10^(dot + fl) <= 10^19 < 2^64. */
	*w = ip * u10[fl] + fr;
	*frac = fl;
	*nl = p + dot + 1 + fl;
	return 1;
}

/*
 * The double nearest to w * 10^q as pr_parse_double finds it for the
 * digits w (no digit dropped) and decimal exponent q of a number, w > 0:
 * 1, or 0 when its fast paths leave the rounding undecided (then
 * pr_parse_double on the text asks strtod).  core/numparse.c.
 */
int pr_parse_decimal(uint64_t w, long q, double *out);

#endif /* PERFREG_CORE_SWAR_H */
