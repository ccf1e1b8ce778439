/*
 * tests/core/test_numparse.c - pr_parse_double against strtod, bit for bit.
 *
 * The numbers reader's one-go lines (core/swar.h) the same way, last:
 * the short plain line, and the longer decimal line with its digits
 * converted by pr_parse_decimal.
 *
 * Fixed cases (famous hard conversions, ties, subnormals, overflow, the
 * syntax strtod accepts or stops at, the inputs perfreg rejects on
 * purpose), then random strings from a fixed seed: random digits with
 * random lengths, points, leading and trailing zeros, exponents, and
 * decimal forms of random doubles and of exact midpoints between
 * adjacent doubles (the strings that decide ties).  Each is compared with
 * glibc's strtod: same bits, same end, and PR_ERANGE exactly where strtod
 * overflows.
 *
 * About 10^6 random strings by default; under valgrind or with
 * PERFREG_TEST_QUICK=1 1/100 of that; PERFREG_NUMPARSE_COUNT=N runs N
 * (a long run, by hand: PERFREG_NUMPARSE_COUNT=100000000).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/error.h"
#include "perfreg/numparse.h"
#include "perfreg/rng.h"
#include "core/swar.h"

static unsigned long
count_random(void)
{
	const char *s;

	if ((s = getenv("PERFREG_NUMPARSE_COUNT")) != NULL && *s != '\0')
		return strtoul(s, NULL, 10);
	if ((s = getenv("PERFREG_TEST_QUICK")) != NULL && *s != '\0' &&
	    strcmp(s, "0") != 0)
		return 10000;
	/* Under valgrind (its preload library is in LD_PRELOAD), which is
	 * some 50 times slower. */
	if ((s = getenv("LD_PRELOAD")) != NULL && strstr(s, "vgpreload"))
		return 10000;
	return 1000000;
}

static uint64_t
bits(double x)
{
	uint64_t b;

	memcpy(&b, &x, sizeof(b));
	return b;
}

/*
 * Compares pr_parse_double with strtod on the NUL-terminated string s.
 * The parse is run on an exact-length heap copy without a terminator, so
 * ASan catches any read past end.  Returns 0 when they agree.
 */
static int
check(const char *s)
{
	size_t len = strlen(s);
	char *copy, *send;
	const char *stop;
	double want, got = 12345.0;
	enum pr_status st;
	struct pr_error err;
	int overflow;

	errno = 0;
	want = strtod(s, &send);
	/* Overflow, and nonzero text that rounds to 0: PR_ERANGE. */
	overflow = errno == ERANGE && (isinf(want) || want == 0);
	copy = malloc(len > 0 ? len : 1);
	assert_non_null(copy);
	memcpy(copy, s, len);
	pr_error_clear(&err);
	st = pr_parse_double(copy, copy + len, &stop, &got, &err);
	if (overflow) {
		if (st != PR_ERANGE || stop != copy || got != 12345.0)
			goto bad;
	} else if (st != PR_OK || bits(got) != bits(want) ||
	    (size_t)(stop - copy) != (size_t)(send - s)) {
		goto bad;
	}
	free(copy);
	return 0;
bad:
	print_error("mismatch on '%s': strtod %a (%016llx) end %zu%s, "
		    "pr_parse_double status %d %a (%016llx) end %zu: %s\n",
	    s, want, (unsigned long long)bits(want), (size_t)(send - s),
	    overflow ? " ERANGE" : "", (int)st, got,
	    (unsigned long long)bits(got), (size_t)(stop - copy), err.msg);
	free(copy);
	return 1;
}

static void
test_famous(void **state)
{
	/* clang-format off */
	static const char *const cases[] = {
		"0", "-0", "+0", "0.0", "-0.0e5", "0e999999999", "-0e-99999",
		"00000", "0.000000000000000000000000000000000000000000000",
		"1", "-1", "+1", ".5", "5.", "-.5", "+5.", "1.e5", ".5e-3",
		"0.1", "0.2", "0.3", "3.14159", "1e22", "1e23", "9e22",
		"123456789012345678", "1234567890123456789",
		"12345678901234567890", "123456789012345678901234567890",
		/* 2^53 + 1 is a tie between 2^53 and 2^53 + 2: even wins. */
		"9007199254740993", "9007199254740995", "9007199254740993.0",
		"9007199254740993.00000000000000000000001",
		"9007199254740992.999999999999999999999",
		"4503599627370496.5", "4503599627370497.5",
		/* Ties between 1 and its successor. */
		"1.00000000000000011102230246251565404236316680908203125",
		"1.00000000000000011102230246251565404236316680908203124",
		"1.00000000000000011102230246251565404236316680908203126",
		"1.0000000000000001110223024625156540423631668090820312",
		/* The input that hung PHP and Java. */
		"2.2250738585072011e-308", "2.2250738585072012e-308",
		"2.2250738585072014e-308", "2.225073858507201e-308",
		"2.2250738585072013e-308",
		/* Largest double, the tie above it (overflows), and beyond. */
		"1.7976931348623157e308", "1.7976931348623158e308",
		"1.79769313486231580793728971405301e308",
		"1.79769313486231580793728971405302e308",
		"1.7976931348623159e308", "1e308", "1e309", "-1e309",
		"1e999", "-1e999", "1e100000000000000000000",
		/* Subnormals (accepted, as strtod does) and underflow to 0
		 * (PR_ERANGE: a silent zero otherwise). */
		"4.9406564584124654e-324", "5e-324", "3e-324",
		"2.4703282292062327e-324", "2.4703282292062328e-324",
		"2.47032822920623272088e-324", "1e-320", "1e-400",
		"-1e-400", "1e-99999999", "4.94065645841246544e-324",
		"2.2250738585072009e-308",
		/* Hard cases from the literature and other parsers' bugs. */
		"7.038531e-26", "9.9538452227e-280", "6.47660115e-260",
		"7.4e+47", "5.92e+48", "7.35e+66", "8.32116e+55",
		"4.1006e-184", "9.998e+307", "9.9538452227e-280",
		"1.448997445238699", "3.0540412e5", "1.797693134862315708e+308",
		"8.533e+68", "4.3e-309",
		("5.0216813883093446110686315385661331"
		 "328818843555712276103941e-324"),
		"9.3e-1", "0.16666666666666666", "0.3333333333333333",
		"72057594037927933", "72057594037927937",
		"1152921504606846976", "1152921504606846977",
		"18446744073709551615", "18446744073709551616",
		"18446744073709551617", "99999999999999999999",
		"9999999999999999999", "10000000000000000000",
		"0.000001", "1e-7", "123.456e-2", "1E+2", "1e+0", "1e-0",
		"0001.0000", "000000000000000000000000000000001",
		"1000000000000000000000000000000000000000000000000000000000",
		"1.00000000000000000000000000000000000000000000000000000001",
		/* strtod stops early: the caller sees stop before end. */
		"1e", "1e+", "1e-", "1E", "1.5x", "1e5e", "1e-5e", "12 34",
		"0x", "0xg", "0x.", "1..2", "1.2.3", "5,0", "1_000", "1e+-5",
		"-5-", "0.5.", "1ee5", "1e5.5",
	};
	/* clang-format on */
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		bad += check(cases[i]);
	assert_int_equal(bad, 0);
}

static void
expect_fail(const char *s, enum pr_status want, const char *msg)
{
	const char *stop = NULL;
	double x = 42.0;
	struct pr_error err;

	pr_error_clear(&err);
	assert_int_equal(pr_parse_double(s, s + strlen(s), &stop, &x, &err),
	    want);
	assert_ptr_equal(stop, s);
	assert_true(x == 42.0);
	assert_int_equal(err.status, want);
	assert_string_equal(err.msg, msg);
}

static void
test_rejected(void **state)
{
	static const char digits[] = "12345", big[] = "1e999";
	const char *stop;
	double x;

	(void)state;
	expect_fail("", PR_EPARSE, "expected a number, got ''");
	expect_fail("+", PR_EPARSE, "expected a number, got '+'");
	expect_fail("-", PR_EPARSE, "expected a number, got '-'");
	expect_fail(".", PR_EPARSE, "expected a number, got '.'");
	expect_fail("+-1", PR_EPARSE, "expected a number, got '+-1'");
	expect_fail("-+1", PR_EPARSE, "expected a number, got '-+1'");
	expect_fail("e5", PR_EPARSE, "expected a number, got 'e5'");
	expect_fail(".e5", PR_EPARSE, "expected a number, got '.e5'");
	expect_fail("abc", PR_EPARSE, "expected a number, got 'abc'");
	expect_fail("n/a", PR_EPARSE, "expected a number, got 'n/a'");
	/* No white space is skipped. */
	expect_fail(" 1", PR_EPARSE, "expected a number, got ' 1'");
	expect_fail("\t1", PR_EPARSE, "expected a number, got '\\x091'");
	/* Never valid measurements, though strtod takes them. */
	expect_fail("inf", PR_EPARSE, "not a finite number: 'inf'");
	expect_fail("-Infinity", PR_EPARSE, "not a finite number: '-Infinity'");
	expect_fail("+INF", PR_EPARSE, "not a finite number: '+INF'");
	expect_fail("NaN", PR_EPARSE, "not a finite number: 'NaN'");
	expect_fail("nan(0x1)", PR_EPARSE, "not a finite number: 'nan(0x1)'");
	expect_fail("-nan", PR_EPARSE, "not a finite number: '-nan'");
	expect_fail("0x1p3", PR_EPARSE,
	    "hexadecimal numbers are not accepted: '0x1p3'");
	expect_fail("-0X1A", PR_EPARSE,
	    "hexadecimal numbers are not accepted: '-0X1A'");
	expect_fail("0x.8p1", PR_EPARSE,
	    "hexadecimal numbers are not accepted: '0x.8p1'");
	/* Overflow, either sign, however written. */
	expect_fail("1e999", PR_ERANGE, "number out of range: '1e999'");
	expect_fail("-1e999", PR_ERANGE, "number out of range: '-1e999'");
	expect_fail("1e-400", PR_ERANGE,
	    "number out of range (too small, it would read as 0): '1e-400'");
	expect_fail("1.7976931348623159e308", PR_ERANGE,
	    "number out of range: '1.7976931348623159e308'");
	expect_fail("1e99999999999999999999999", PR_ERANGE,
	    "number out of range: '1e99999999999999999999999'");
	/* Binary junk is quoted escaped, long text cut. */
	expect_fail("\x01\xff", PR_EPARSE,
	    "expected a number, got '\\x01\\xff'");
	expect_fail("abcdefghijklmnopqrstuvwxyz0123456789", PR_EPARSE,
	    "expected a number, got 'abcdefghijklmnopqrstuvwxyz012345...'");

	/* Nothing at or past end is read: the digits beyond count not. */
	assert_int_equal(pr_parse_double(digits, &digits[3], &stop, &x, NULL),
	    PR_OK);
	assert_true(x == 123.0);
	assert_ptr_equal(stop, &digits[3]);
	assert_int_equal(pr_parse_double(big, &big[3], &stop, &x, NULL), PR_OK);
	assert_true(x == 1e9);
	assert_int_equal(pr_parse_double(big, &big[1], &stop, &x, NULL), PR_OK);
	assert_true(x == 1.0);
	assert_ptr_equal(stop, &big[1]);
	assert_int_equal(pr_parse_double("nan", "nan", &stop, &x, NULL),
	    PR_EPARSE);
}

static void
test_all(void **state)
{
	static const char t1[] = "1.5", t2[] = "1.5x", t3[] = "1e",
			  t4[] = "nan", t5[] = "1e999";
	struct pr_error err;
	double x = 0;

	(void)state;
	pr_error_clear(&err);
	assert_int_equal(pr_parse_double_all(t1, t1 + 3, &x, &err), PR_OK);
	assert_true(x == 1.5);
	assert_int_equal(pr_parse_double_all(t2, t2 + 4, &x, &err), PR_EPARSE);
	assert_string_equal(err.msg, "expected a number, got '1.5x'");
	assert_int_equal(pr_parse_double_all(t3, t3 + 2, &x, &err), PR_EPARSE);
	assert_string_equal(err.msg, "expected a number, got '1e'");
	assert_int_equal(pr_parse_double_all(t4, t4 + 3, &x, &err), PR_EPARSE);
	assert_string_equal(err.msg, "not a finite number: 'nan'");
	assert_int_equal(pr_parse_double_all(t5, t5 + 5, &x, &err), PR_ERANGE);
	assert_int_equal(pr_parse_double_all(t1, t1, &x, &err), PR_EPARSE);
	assert_true(x == 1.5);
}

/* A long number goes to strtod on a heap copy; check it is whole. */
static void
test_long(void **state)
{
	static char buf[200000];
	size_t i, n;
	int bad = 0;

	(void)state;
	/* 0.1 followed by many zeros and a final 1: near 0.1, above it. */
	for (n = 100; n < sizeof(buf) - 16; n = n * 3 + 7) {
		buf[0] = '0';
		buf[1] = '.';
		buf[2] = '1';
		for (i = 3; i < n; i++)
			buf[i] = '0';
		buf[n] = '1';
		buf[n + 1] = '\0';
		bad += check(buf);
		memcpy(buf + n + 1, "e-5", 4);
		bad += check(buf);
	}
	/* The exact tie 2^53 + 1 padded with thousands of zeros: only the
	 * last digit says "above the tie". */
	for (n = 50; n < 100000; n *= 4) {
		memcpy(buf, "9007199254740993.", 17);
		for (i = 17; i < n; i++)
			buf[i] = '0';
		buf[n] = '\0';
		bad += check(buf);
		buf[n] = '1';
		buf[n + 1] = '\0';
		bad += check(buf);
	}
	/* Many integer digits. */
	for (i = 0; i < 5000; i++)
		buf[i] = (char)('1' + i % 9);
	buf[5000] = '\0';
	bad += check(buf);
	assert_int_equal(bad, 0);
}

static char *
put_digits(struct pr_rng *r, char *p, int n, int style)
{
	int i;

	for (i = 0; i < n; i++) {
		switch (style) {
		case 0:
			*p++ = (char)('0' + pr_rng_below(r, 10));
			break;
		case 1: /* runs of nines and zeros: carries, boundaries */
			*p++ = pr_rng_below(r, 4) == 0 ? '0' : '9';
			break;
		default: /* mostly zeros */
			*p++ = pr_rng_below(r, 8) == 0
			    ? (char)('0' + pr_rng_below(r, 10))
			    : '0';
			break;
		}
	}
	return p;
}

/* A random string in the grammar: sign, zeros, 1..40 significant digits,
 * a point anywhere, an exponent in -350..350. */
static void
random_text(struct pr_rng *r, char *buf)
{
	char *p = buf;
	int nd, point, style, i;
	long e;

	switch (pr_rng_below(r, 8)) {
	case 0:
		*p++ = '-';
		break;
	case 1:
		*p++ = '+';
		break;
	default:
		break;
	}
	nd = 1 + (int)pr_rng_below(r, 40);
	style = (int)pr_rng_below(r, 4);
	point = (int)pr_rng_below(r, (uint64_t)nd + 3);
	if (pr_rng_below(r, 4) == 0) /* leading zeros */
		for (i = (int)pr_rng_below(r, 6); i >= 0; i--)
			*p++ = '0';
	if (point > nd + 1)
		point = -1; /* no point */
	for (i = 0; i < nd; i++) {
		if (i == point)
			*p++ = '.';
		if (i == 0 && style != 2)
			*p++ = (char)('1' + pr_rng_below(r, 9));
		else
			p = put_digits(r, p, 1, style == 3 ? 0 : style);
	}
	if (point == nd)
		*p++ = '.';
	if (pr_rng_below(r, 4) == 0) /* trailing zeros */
		for (i = (int)pr_rng_below(r, 25); i >= 0; i--)
			*p++ = '0';
	if (pr_rng_below(r, 5) != 0) {
		*p++ = pr_rng_below(r, 2) ? 'e' : 'E';
		e = (long)pr_rng_below(r, 701) - 350;
		if (pr_rng_below(r, 3) == 0)
			e = (long)pr_rng_below(r, 45) - 22;
		if (e >= 0 && pr_rng_below(r, 2))
			*p++ = '+';
		p += snprintf(p, 16, "%ld", e);
	}
	*p = '\0';
}

/* A double with random bits (finite), or in a useful range. */
static double
random_double(struct pr_rng *r)
{
	uint64_t b;
	double x;

	do {
		b = pr_rng_next(r);
		switch (pr_rng_below(r, 4)) {
		case 0: /* subnormal or near the bottom */
			b &= 0x801fffffffffffffULL;
			break;
		case 1: /* magnitudes around benchmark figures, 1e-9..1e12 */
			b = (b & 0x800fffffffffffffULL) |
			    ((uint64_t)(1023 - 30 + pr_rng_below(r, 70)) << 52);
			break;
		default:
			break;
		}
		memcpy(&x, &b, sizeof(x));
	} while (!isfinite(x));
	return x;
}

/*
 * The exact decimal expansion of the midpoint between x and the next
 * double away from zero, in buf (%.800Le is exact: a midpoint has at
 * most 1075 binary places, 767 significant decimal digits).  Returns 0
 * when long double cannot hold the midpoint.
 */
static int
midpoint_text(double x, char *buf, size_t size)
{
	long double m;
	double y;
	char *e, *z;

	if (LDBL_MANT_DIG < 54 || x == 0)
		return 0;
	y = nextafter(x, x > 0 ? HUGE_VAL : -HUGE_VAL);
	if (!isfinite(y))
		return 0;
	m = (long double)x + ((long double)y - (long double)x) / 2;
	snprintf(buf, size, "%.800Le", m);
	/* Strip the zeros before the exponent; they must be many, or the
	 * expansion was not exact. */
	e = strchr(buf, 'e');
	assert_non_null(e);
	for (z = e; z[-1] == '0'; z--)
		;
	assert_true(e - z > 20);
	memmove(z, e, strlen(e) + 1);
	return 1;
}

static void
test_random(void **state)
{
	struct pr_rng r;
	unsigned long n = count_random(), i;
	static char buf[4096], tmp[4096];
	double x;
	int bad = 0, prec;
	size_t len;

	(void)state;
	pr_rng_seed(&r, 20260730);
	for (i = 0; i < n && bad < 10; i++) {
		switch (i % 8) {
		case 0:
		case 1:
		case 2:
		case 3:
			random_text(&r, buf);
			break;
		case 4:
		case 5:
		case 6: /* a random double in %g/%e forms, 1..17 digits */
			x = random_double(&r);
			prec = 1 + (int)pr_rng_below(&r, 17);
			snprintf(buf, sizeof(buf),
			    pr_rng_below(&r, 2) ? "%.*g" : "%.*e", prec, x);
			break;
		default: /* midpoints, exact, a hair above, and cut */
			x = random_double(&r);
			if (!midpoint_text(x, tmp, sizeof(tmp))) {
				snprintf(buf, sizeof(buf), "%.17g", x);
				break;
			}
			switch (pr_rng_below(&r, 3)) {
			case 0:
				snprintf(buf, sizeof(buf), "%s", tmp);
				break;
			case 1: /* a 1 after the last digit */
				len = (size_t)(strchr(tmp, 'e') - tmp);
				snprintf(buf, sizeof(buf), "%.*s1%s", (int)len,
				    tmp, tmp + len);
				break;
			default: /* cut to 16..26 significant digits */
				len = 17 + pr_rng_below(&r, 11);
				if (len > (size_t)(strchr(tmp, 'e') - tmp))
					len = (size_t)(strchr(tmp, 'e') - tmp);
				snprintf(buf, sizeof(buf), "%.*s%s", (int)len,
				    tmp, strchr(tmp, 'e'));
				break;
			}
			break;
		}
		bad += check(buf);
	}
	assert_int_equal(bad, 0);
}

/*
 * The shapes benchmarks and scripts print, millions of them, against
 * strtod: %.17g around 100 and across the range (17 significant digits,
 * the Eisel-Lemire path), integers of 1 to 20 digits (past 19 some are
 * dropped), exponent forms of 1 to 19 digits, %.6f and %.2f, with a
 * sign or leading zeros now and then.  The 8- and 4-digit steps of the
 * scanner meet every split of the digits around the point here.
 */
static void
test_shapes(void **state)
{
	struct pr_rng r;
	unsigned long n = count_random(), i;
	char buf[128], num[96];
	double x;
	int bad = 0, prec, nd, k;

	(void)state;
	pr_rng_seed(&r, 16016);
	for (i = 0; i < n && bad < 10; i++) {
		switch (i % 6) {
		case 0: /* a script's doubles around 100 */
			x = 100 + 3 * pr_rng_normal(&r);
			snprintf(num, sizeof(num), "%.17g", x);
			break;
		case 1: /* 17 digits across the range */
			x = random_double(&r);
			snprintf(num, sizeof(num), "%.17g", x);
			break;
		case 2: /* integers of 1 to 20 digits */
			nd = 1 + (int)pr_rng_below(&r, 20);
			num[0] = (char)('1' + pr_rng_below(&r, 9));
			for (k = 1; k < nd; k++)
				num[k] = (char)('0' + pr_rng_below(&r, 10));
			num[nd] = '\0';
			break;
		case 3: /* exponent forms */
			x = random_double(&r);
			prec = (int)pr_rng_below(&r, 19);
			snprintf(num, sizeof(num),
			    pr_rng_below(&r, 2) ? "%.*e" : "%.*E", prec, x);
			break;
		case 4: /* run times with 6 decimals */
			x = 1.5 * exp(pr_rng_normal(&r));
			snprintf(num, sizeof(num), "%.6f", x);
			break;
		default: /* short decimals, integer parts of 0 to 12 digits */
			x = ldexp(pr_rng_uniform(&r),
			    (int)pr_rng_below(&r, 40));
			snprintf(num, sizeof(num), "%.*f",
			    (int)pr_rng_below(&r, 10), x);
			break;
		}
		switch (num[0] == '-' ? 7 : pr_rng_below(&r, 8)) {
		case 0:
			snprintf(buf, sizeof(buf), "-%s", num);
			break;
		case 1:
			snprintf(buf, sizeof(buf), "+%s", num);
			break;
		case 2:
			snprintf(buf, sizeof(buf), "000%s", num);
			break;
		default:
			snprintf(buf, sizeof(buf), "%s", num);
			break;
		}
		bad += check(buf);
	}
	assert_int_equal(bad, 0);
}

/*
 * The numbers reader's line in one go (core/swar.h, pr_swar_plain_line):
 * random lines of 1 to 17 characters of digits with 0 to 2 points,
 * leading zeros, then a newline or another end ('e', ' ', '\r', a digit
 * past 16 bytes), padded with random bytes to the 16 it reads.  Where it
 * takes a line, the value must be strtod's, bit for bit, and the newline
 * where it says; it must take every line of 1 to 15 digits with at most
 * one point after the first digit and a newline, and refuse every other.
 */
static void
test_plain_line(void **state)
{
	struct pr_rng r;
	unsigned long n = count_random(), i;
	char line[32], *end;
	const char *nl;
	double x, want;
	int bad = 0, len, k, dots, digits, plain, got;

	(void)state;
	pr_rng_seed(&r, 16017);
	for (i = 0; i < n && bad < 10; i++) {
		len = 1 + (int)pr_rng_below(&r, 17);
		dots = 0;
		digits = 0;
		for (k = 0; k < len; k++) {
			if (k > 0 && pr_rng_below(&r, 8) == 0) {
				line[k] = '.';
				dots++;
			} else {
				line[k] = (char)(pr_rng_below(&r, 3) == 0
					? '0'
					: '0' + pr_rng_below(&r, 10));
				digits++;
			}
		}
		if (pr_rng_below(&r, 50) == 0)
			line[0] = pr_rng_below(&r, 2) ? '-' : '.';
		switch (pr_rng_below(&r, 12)) {
		case 0:
			line[len] = 'e';
			break;
		case 1:
			line[len] = ' ';
			break;
		case 2:
			line[len] = '\r';
			break;
		default:
			line[len] = '\n';
			break;
		}
		for (k = len + 1; k < (int)sizeof(line); k++)
			line[k] = (char)pr_rng_below(&r, 256);
		plain = line[0] >= '0' && line[0] <= '9' && dots <= 1 &&
		    digits <= 15 && len + 1 <= 16 && line[len] == '\n';
		got = pr_swar_plain_line(line, &x, &nl);
		if (got != plain) {
			bad++;
			print_error("plain line '%.*s' (end 0x%02x): taken %d, "
				    "want %d\n",
			    len, line, (unsigned char)line[len], got, plain);
			continue;
		}
		if (!got)
			continue;
		line[len] = '\0';
		want = strtod(line, &end);
		line[len] = '\n';
		if (nl != line + len || end != line + len ||
		    bits(x) != bits(want)) {
			bad++;
			print_error("plain line '%.*s': %.17g, strtod %.17g, "
				    "newline at %d\n",
			    len, line, x, want, (int)(nl - line));
		}
	}
	assert_int_equal(bad, 0);
}

/*
 * The longer decimal line: lines near its shape (up to 9 digits, a '.'
 * or not, up to 17 after it, a sign or a second '.' at times, another
 * end than '\n', random bytes after), taken exactly when they have its
 * shape, and then pr_parse_decimal of its digits equals strtod's bits,
 * as the reader puts them into the sample.
 */
static void
test_decimal_line(void **state)
{
	struct pr_rng r;
	unsigned long n = count_random(), i, taken = 0, converted = 0;
	char line[40], *end;
	const char *nl;
	double x, want;
	uint64_t w;
	unsigned frac;
	int bad = 0, len, k, ni, nf, shape, got;

	(void)state;
	pr_rng_seed(&r, 15017);
	for (i = 0; i < n && bad < 10; i++) {
		ni = (int)pr_rng_below(&r, 10);
		nf = (int)pr_rng_below(&r, 18);
		len = 0;
		for (k = 0; k < ni; k++)
			line[len++] = (char)(pr_rng_below(&r, 4) == 0
				? '0'
				: '0' + pr_rng_below(&r, 10));
		if (pr_rng_below(&r, 16) != 0)
			line[len++] = '.';
		for (k = 0; k < nf; k++)
			line[len++] = (char)(pr_rng_below(&r, 4) == 0
				? '0'
				: '0' + pr_rng_below(&r, 10));
		if (len > 0 && pr_rng_below(&r, 40) == 0)
			line[pr_rng_below(&r, (uint64_t)len)] =
			    pr_rng_below(&r, 2) ? '-' : '.';
		line[len] = pr_rng_below(&r, 12) == 0 ? ' ' : '\n';
		for (k = len + 1; k < (int)sizeof(line); k++)
			line[k] = (char)pr_rng_below(&r, 256);
		/* The shape, from the text itself. */
		for (k = 0; k < len && line[k] >= '0' && line[k] <= '9'; k++)
			;
		ni = k;
		shape = ni >= 1 && ni <= 7 && line[k] == '.';
		for (k = ni + 1;
		     shape && k < len && line[k] >= '0' && line[k] <= '9'; k++)
			;
		nf = k - ni - 1;
		shape = shape && k == len && nf <= 15 && ni + nf <= 19 &&
		    line[len] == '\n';
		got = pr_swar_decimal_line(line, &w, &frac, &nl);
		if (got != shape) {
			bad++;
			print_error("decimal line '%.*s' (end 0x%02x): taken "
				    "%d, want %d\n",
			    len, line, (unsigned char)line[len], got, shape);
			continue;
		}
		if (!got)
			continue;
		taken++;
		if (nl != line + len || frac != (unsigned)nf) {
			bad++;
			print_error("decimal line '%.*s': newline at %d, %u "
				    "decimals\n",
			    len, line, (int)(nl - line), frac);
			continue;
		}
		if (w == 0)
			x = 0;
		else if (!pr_parse_decimal(w, -(long)frac, &x))
			continue;
		converted++;
		line[len] = '\0';
		want = strtod(line, &end);
		line[len] = '\n';
		if (end != line + len || bits(x) != bits(want)) {
			bad++;
			print_error("decimal line '%.*s': %.17g, strtod "
				    "%.17g\n",
			    len, line, x, want);
		}
	}
	assert_int_equal(bad, 0);
	/* The shape is met often, and nearly always decided. */
	assert_true(taken > n / 20);
	assert_true(converted > taken - taken / 1000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_famous),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_all),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_plain_line),
		cmocka_unit_test(test_decimal_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
