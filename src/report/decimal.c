/*
 * report/decimal.c - "%.*f" and "%.*g" without printf (report/decimal.h).
 *
 * glibc's printf converts a double exactly, through multiple-precision
 * arithmetic, which is most of the cost of a page of 1,000 metrics
 * (issue 17).  Here the value's magnitude a is scaled once by an exact
 * power of ten, y = a * 10^s or a / 10^s (10^s is exact for s <= 22), so
 * that y = fl(Y) with Y the exact product, |Y - y| <= ulp(y) / 2, and the
 * digits are those of the integer Y rounds to.  y - floor(y) is exact
 * while y < 2^52, so the rounding of Y is that of y unless y's fraction
 * lies within y * 2^-52 of one half: those ties and near-ties (0.25 at
 * one decimal, which glibc rounds to even), and values that need a
 * larger scale, go to snprintf, which is right by definition.  The
 * decimal exponent of a "%g" starts from log10 and is corrected until
 * 10^(prec-1) <= y < 10^prec; the comparisons are exact because those
 * bounds are representable and rounding is monotonic.
 * tests/html/test_decimal.c checks both against snprintf.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/decimal.h"
#include "core/banned.h"

static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
	1e22 };

/* 2^52: below it y - floor(y) is exact and y's integer fits uint64_t. */
#define EXACT_LIMIT 4503599627370496.0

/* The integer y rounds to into *q, when that is certainly the integer
 * the exact Y (|Y - y| <= ulp(y) / 2) rounds to; 0 for a tie or near-tie
 * or a y too large. */
static int
round_scaled(double y, uint64_t *q)
{
	double r, f;

	if (!(y < EXACT_LIMIT))
		return 0;
	r = floor(y);
	f = y - r;
	if (fabs(f - 0.5) <= y * 0x1p-52)
		return 0;
	*q = (uint64_t)r + (f > 0.5);
	return 1;
}

/* The n decimal digits of q (leading zeros included) at d. */
static void
digits(char *d, uint64_t q, int n)
{
	while (n-- > 0) {
		d[n] = (char)('0' + q % 10);
		q /= 10;
	}
}

static int
refuse(char *buf)
{
	buf[0] = '\0';
	return -1;
}

/* snprintf's "%.*g" (g) or "%.*f" of x. */
static int
by_printf(char *buf, int g, int prec, double x)
{
	int n = g ? snprintf(buf, REPORT_DEC_MAX, "%.*g", prec, x)
		  : snprintf(buf, REPORT_DEC_MAX, "%.*f", prec, x);

	return n >= 0 && n < REPORT_DEC_MAX ? n : refuse(buf);
}

int
report_dec_fixed_fast(char *buf, double x, int prec)
{
	uint64_t q, ip;
	char *p = buf;
	int n;

	if (!isfinite(x) || prec < 0 || prec > 4 || !(fabs(x) < 1e15) ||
	    !round_scaled(fabs(x) * p10[prec], &q))
		return refuse(buf);
	if (signbit(x))
		*p++ = '-';
	ip = q / (uint64_t)p10[prec];
	for (n = 1; n < 16 && (double)ip >= p10[n]; n++)
		;
	digits(p, ip, n);
	p += n;
	if (prec > 0) {
		*p++ = '.';
		digits(p, q % (uint64_t)p10[prec], prec);
		p += prec;
	}
	*p = '\0';
	return (int)(p - buf);
}

int
report_dec_fixed(char *buf, double x, int prec)
{
	int n = report_dec_fixed_fast(buf, x, prec);

	if (n >= 0 || !isfinite(x) || prec < 0 || prec > 4 || !(fabs(x) < 1e15))
		return n;
	return by_printf(buf, 0, prec, x);
}

int
report_dec_g_fast(char *buf, double x, int prec)
{
	double a = fabs(x), y = 0;
	uint64_t q;
	char d[24], *p = buf;
	int e, s, tries, i, last;

	/* Zero, subnormals and 16 or 17 digits are rare: printf's. */
	if (!isfinite(x) || prec < 1 || prec > 15 || a < 0x1p-1022)
		return refuse(buf);
	e = (int)floor(log10(a));
	for (tries = 0; tries < 3; tries++) {
		s = prec - 1 - e;
		if (s > 22 || s < -22)
			return refuse(buf);
		y = s >= 0 ? a * p10[s] : a / p10[-s];
		if (y < p10[prec - 1])
			e--;
		else if (y >= p10[prec])
			e++;
		else
			break;
	}
	if (tries == 3 || !round_scaled(y, &q))
		return refuse(buf);
	if (q == (uint64_t)p10[prec]) { /* 9.9999 rounded up to 10.000 */
		q /= 10;
		e++;
	}
	digits(d, q, prec);
	for (last = prec - 1; last > 0 && d[last] == '0'; last--)
		;
	if (signbit(x))
		*p++ = '-';
	if (e < -4 || e >= prec) {
		*p++ = d[0];
		if (last > 0) {
			*p++ = '.';
			memcpy(p, d + 1, (size_t)last);
			p += last;
		}
		*p++ = 'e';
		*p++ = e < 0 ? '-' : '+';
		e = e < 0 ? -e : e;
		if (e >= 100)
			*p++ = (char)('0' + e / 100);
		*p++ = (char)('0' + e / 10 % 10);
		*p++ = (char)('0' + e % 10);
	} else if (e >= 0) {
		memcpy(p, d, (size_t)e + 1);
		p += e + 1;
		if (last > e) {
			*p++ = '.';
			memcpy(p, d + e + 1, (size_t)(last - e));
			p += last - e;
		}
	} else {
		*p++ = '0';
		*p++ = '.';
		for (i = 0; i < -e - 1; i++)
			*p++ = '0';
		memcpy(p, d, (size_t)last + 1);
		p += last + 1;
	}
	*p = '\0';
	return (int)(p - buf);
}

int
report_dec_g(char *buf, double x, int prec)
{
	int n = report_dec_g_fast(buf, x, prec);

	if (n >= 0 || !isfinite(x) || prec < 1 || prec > 17)
		return n;
	return by_printf(buf, 1, prec, x);
}
