/*
 * core/numparse.c - decimal text to double, exactly as strtod rounds it,
 * but fast on the short numbers benchmarks print.
 *
 * The text is scanned once: sign, up to 19 significant digits into a
 * uint64_t w (eight and four digits at a time where they are there, see
 * digits_fast), a decimal exponent q, and whether digits beyond the 19th
 * were dropped.  Then, in order:
 *
 * 1. Clinger's fast path (W. D. Clinger, "How to read floating point
 *    numbers accurately", PLDI 1990): when w <= 2^53 and |q| <= 22, both
 *    w and 10^|q| are exact doubles, and one IEEE multiplication or
 *    division rounds their product or quotient correctly.  Only used when
 *    FLT_EVAL_METHOD is 0 (no extended-precision double rounding).
 * 2. The Eisel-Lemire algorithm (D. Lemire, "Number parsing at a
 *    gigabyte per second", Software: Practice and Experience 51(8),
 *    2021): w times the 128 leading bits of 5^q (the generated table
 *    core/pow5.h) gives the 54 leading bits of the value, with a known
 *    bound on the error.  This implementation keeps the algorithm's
 *    original fallback rather than relying on the later proof that it is
 *    never needed: it computes the full 192-bit product and gives up
 *    whenever the error bound leaves the rounding undecided (the bits
 *    below the rounding position within one unit of a rounding boundary,
 *    exact ties where 5^q is not exact, subnormal and overflowing
 *    results).  When digits were dropped, the value lies between w*10^q
 *    and (w+1)*10^q; if both round to the same double, that is the
 *    answer.
 * 3. Otherwise strtod itself, on a NUL-terminated copy of exactly the
 *    text scanned (on the stack when short, malloc'd when long).
 *
 * So every result is strtod's, bit for bit, in the default rounding
 * mode; tests/core/test_numparse.c checks that on millions of strings.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/numparse.h"
#include "core/pow5.h"
#include "core/swar.h"
#include "core/banned.h"

__extension__ typedef unsigned __int128 u128;

/* The scanner's and the conversion's helpers are forced inline (see
 * core/swar.h): gcc keeps digits_fast, convert and lemire out of line. */
#define ALWAYS_INLINE PR_SWAR_INLINE

/* Numbers up to this many characters are copied to the stack for strtod. */
#define STACK_COPY 128
/* Exponents are clamped here while scanned; far beyond any double's. */
#define EXP_CLAMP 100000

static const double exact_pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
	1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
	1e20, 1e21, 1e22 };

static int
isdig(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static int
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
ishex(char c)
{
	return isdig(c) || (lower(c) >= 'a' && lower(c) <= 'f');
}

static int
prefix_ci(const char *p, const char *end, const char *word)
{
	for (; *word != '\0'; p++, word++)
		if (p == end || lower(*p) != *word)
			return 0;
	return 1;
}

/*
 * Writes [s, end) for an error message: at most 32 bytes, bytes outside
 * printable ASCII as \xNN, "..." when cut.
 */
static const char *
quote(const char *s, const char *end, char *buf, size_t size)
{
	size_t o = 0, i;
	unsigned char c;

	for (i = 0; s + i < end && i < 32 && o + 5 < size; i++) {
		c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f)
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
	}
	if (s + i < end && o + 4 < size) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

static int
clz64(uint64_t x)
{
	return __builtin_clzll(x);
}

/* Four digits at once, as core/swar.h takes eight. */
ALWAYS_INLINE uint32_t
load4(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 |
	    (uint32_t)u[3] << 24;
}

ALWAYS_INLINE int
all4(uint32_t v)
{
	return ((v + 0x46464646U) | (v - 0x30303030U)) & 0x80808080U ? 0 : 1;
}

ALWAYS_INLINE uint32_t
four(uint32_t v)
{
	v -= 0x30303030U;
	v = v * 10 + (v >> 8);
	return (v & 0xff) * 100 + ((v >> 16) & 0xff);
}

/*
 * Adds the digits at *pp to w, eight and four at a time while they stay
 * within the 19 significant digits a uint64_t holds; the caller's loop
 * takes the rest one by one.  Returns how many were taken.
 */
ALWAYS_INLINE int
digits_fast(const char **pp, const char *end, uint64_t *w, int nd)
{
	const char *p = *pp;
	uint64_t v;
	uint32_t u;
	int n = 0;

	while (nd + n <= 11 && end - p >= 8 &&
	    pr_swar_nondigits(v = pr_swar_load8(p)) == 0) {
		*w = *w * 100000000 + pr_swar_eight(v);
		p += 8;
		n += 8;
	}
	if (nd + n <= 15 && end - p >= 4 && all4(u = load4(p))) {
		*w = *w * 10000 + four(u);
		p += 4;
		n += 4;
	}
	*pp = p;
	return n;
}

/*
 * Eisel-Lemire: the bits of the double nearest to w * 10^q (w > 0), or 0
 * when the rounding cannot be decided here (the caller then asks strtod).
 * See the paragraph at the top of the file for the error argument.
 */
ALWAYS_INLINE int
lemire(uint64_t w, long q, uint64_t *bits)
{
	const struct pow5 *t;
	uint64_t p0, p1, p2, m, mask, rem;
	u128 a, b;
	int lz, shift, upper;
	long be;

	if (q < PR_POW5_QMIN || q > PR_POW5_QMAX)
		return 0;
	t = &pow5[q - PR_POW5_QMIN];
	lz = clz64(w);
	w <<= lz;
	/* P = w * (hi:lo), 192 bits exact: p2:p1:p0. */
	a = (u128)w * t->hi;
	b = (u128)w * t->lo;
	p0 = (uint64_t)b;
	p1 = (uint64_t)a + (uint64_t)(b >> 64);
	p2 = (uint64_t)(a >> 64) + (p1 < (uint64_t)a);
	/* P >= 2^190: the top bit is bit 191 or bit 190.  Keep 54 bits: the
	 * 53 of the double and one rounding bit. */
	upper = (int)(p2 >> 63);
	shift = upper + 9;
	mask = ((uint64_t)1 << shift) - 1;
	m = p2 >> shift;
	rem = p2 & mask;
	/* The biased binary exponent of the result before rounding. */
	be = (long)upper + t->e2 + q - lz + 1086;
	if (be <= 0 || be >= 2047)
		return 0;
	if (q >= 0 && q <= 55) {
		/* 5^q is exact in the table, so P is exactly the value. */
		if ((m & 1) && rem == 0 && p1 == 0 && p0 == 0) {
			m >>= 1;
			m += m & 1;
		} else {
			m = (m + (m & 1)) >> 1;
		}
	} else {
		/* The true product lies in [P, P + w), w < 2^64: the bits
		 * below the rounding bit must stay clear of both ends.  Then
		 * they are nonzero, so there is no tie. */
		if (rem == 0 && p1 == 0)
			return 0;
		if (rem == mask && p1 == UINT64_MAX)
			return 0;
		m = (m + (m & 1)) >> 1;
	}
	if (m == (uint64_t)1 << 53) {
		m >>= 1;
		be++;
		if (be >= 2047)
			return 0;
	}
	*bits = ((uint64_t)be << 52) | (m & (((uint64_t)1 << 52) - 1));
	return 1;
}

/* The double nearest to w * 10^q, w > 0; 0 when undecided. */
ALWAYS_INLINE int
convert(uint64_t w, long q, double *out)
{
	uint64_t bits;

#if FLT_EVAL_METHOD == 0
	if (w <= (uint64_t)1 << 53 && q >= -22 && q <= 22) {
		if (q >= 0)
			*out = (double)w * exact_pow10[q];
		else
			*out = (double)w / exact_pow10[-q];
		return 1;
	}
#endif
	if (!lemire(w, q, &bits))
		return 0;
	memcpy(out, &bits, sizeof(*out));
	return 1;
}

int
pr_parse_decimal(uint64_t w, long q, double *out)
{
	return convert(w, q, out);
}

/* strtod on a NUL-terminated copy of [s, e), the whole of a number. */
static enum pr_status
slow(const char *s, const char *e, const char *end, double *out,
    struct pr_error *err)
{
	char stack[STACK_COPY + 1], *copy = stack, *stop, qb[160];
	size_t len = (size_t)(e - s);
	double x;
	int saved = errno, range;

	if (len > STACK_COPY && (copy = malloc(len + 1)) == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory reading a number of %zu characters", len);
	memcpy(copy, s, len);
	copy[len] = '\0';
	errno = 0;
	x = strtod(copy, &stop);
	range = errno == ERANGE;
	errno = saved;
	if (copy != stack)
		free(copy);
	/* The scanner and strtod agree on the syntax: it used it all. */
	if (stop != copy + len)
		return pr_error_set(err, PR_EPARSE,
		    "expected a number, got '%s'",
		    quote(s, end, qb, sizeof(qb)));
	if (range && isinf(x))
		return pr_error_set(err, PR_ERANGE, "number out of range: '%s'",
		    quote(s, end, qb, sizeof(qb)));
	*out = x;
	return PR_OK;
}

enum pr_status
pr_parse_double(const char *s, const char *end, const char **stop, double *out,
    struct pr_error *err)
{
	const char *p = s, *d, *ex;
	uint64_t w = 0;
	long q = 0, e = 0;
	int neg = 0, nd = 0, any = 0, dropped = 0, eneg = 0, k;
	double x = 0, y = 0;
	enum pr_status st;
	char qb[160];

	*stop = s;
	if (p < end && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	d = p;
	/* Leading zeros are not significant. */
	while (p < end && *p == '0') {
		p++;
		any = 1;
	}
	if ((k = digits_fast(&p, end, &w, nd)) > 0) {
		nd += k;
		any = 1;
	}
	for (; p < end && isdig(*p); p++) {
		any = 1;
		if (nd < 19) {
			w = w * 10 + (uint64_t)(*p - '0');
			nd++;
		} else {
			dropped |= *p != '0';
			q++;
		}
	}
	if (p < end && *p == '.') {
		p++;
		if (nd == 0)
			for (; p < end && *p == '0'; p++) {
				any = 1;
				q--;
			}
		if ((k = digits_fast(&p, end, &w, nd)) > 0) {
			nd += k;
			q -= k;
			any = 1;
		}
		for (; p < end && isdig(*p); p++) {
			any = 1;
			if (nd < 19) {
				w = w * 10 + (uint64_t)(*p - '0');
				nd++;
				q--;
			} else {
				dropped |= *p != '0';
			}
		}
	}
	if (!any) {
		if (prefix_ci(d, end, "inf") || prefix_ci(d, end, "nan"))
			return pr_error_set(err, PR_EPARSE,
			    "not a finite number: '%s'",
			    quote(s, end, qb, sizeof(qb)));
		return pr_error_set(err, PR_EPARSE,
		    "expected a number, got '%s'",
		    quote(s, end, qb, sizeof(qb)));
	}
	/* strtod reads "0x1p3" as hexadecimal; perfreg rejects it rather
	 * than read it as 0 followed by junk. */
	if (p == d + 1 && *d == '0' && p < end && lower(*p) == 'x' &&
	    ((p + 1 < end && ishex(p[1])) ||
		(p + 2 < end && p[1] == '.' && ishex(p[2]))))
		return pr_error_set(err, PR_EPARSE,
		    "hexadecimal numbers are not accepted: '%s'",
		    quote(s, end, qb, sizeof(qb)));
	/* An exponent counts only with at least one digit, as in strtod:
	 * "1e" and "1e+" are 1 followed by other text. */
	if (p < end && lower(*p) == 'e') {
		ex = p + 1;
		if (ex < end && (*ex == '+' || *ex == '-'))
			eneg = *ex++ == '-';
		if (ex < end && isdig(*ex)) {
			for (; ex < end && isdig(*ex); ex++)
				if (e < EXP_CLAMP)
					e = e * 10 + (*ex - '0');
			q += eneg ? -e : e;
			p = ex;
		}
	}
	if (w == 0) {
		*out = neg ? -0.0 : 0.0;
		*stop = p;
		return PR_OK;
	}
	if (e < EXP_CLAMP) {
		if (!dropped) {
			if (convert(w, q, &x))
				goto done;
		} else if (convert(w, q, &x) && convert(w + 1, q, &y) &&
		    x == y) {
			goto done;
		}
	}
	if ((st = slow(s, p, end, &x, err)) != PR_OK)
		return st;
	neg = 0; /* strtod gave the sign */
done:
	/* Nonzero digits that round to 0 would be a silent zero. */
	if (x == 0)
		return pr_error_set(err, PR_ERANGE,
		    "number out of range (too "
		    "small, it would read as 0): '%s'",
		    quote(s, end, qb, sizeof(qb)));
	*out = neg ? -x : x;
	*stop = p;
	return PR_OK;
}

enum pr_status
pr_parse_double_all(const char *s, const char *end, double *out,
    struct pr_error *err)
{
	const char *stop;
	double x = 0;
	enum pr_status st;
	char qb[160];

	if ((st = pr_parse_double(s, end, &stop, &x, err)) != PR_OK)
		return st;
	if (stop != end)
		return pr_error_set(err, PR_EPARSE,
		    "expected a number, got '%s'",
		    quote(s, end, qb, sizeof(qb)));
	*out = x;
	return PR_OK;
}
