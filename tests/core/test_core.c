/*
 * tests/core/test_core.c - the capped buffer, the sample and its sort (and
 * the sorting network of its radix leaves), the error formatting, and the
 * random number generator.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/sortkey.h"
#include "core/sortnet.h"

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/rng.h"
#include "perfreg/sample.h"

static void
test_buf_cap(void **state)
{
	struct pr_buf b = PR_BUF_INIT(10);
	struct pr_error err;

	(void)state;
	assert_int_equal(pr_buf_adds(&b, "12345", &err), PR_OK);
	assert_int_equal(pr_buf_addf(&b, &err, "%d", 6789), PR_OK);
	assert_string_equal(b.data, "123456789");
	assert_int_equal(pr_buf_adds(&b, "ab", &err), PR_ELIMIT);
	/* A refused addition leaves the buffer as it was. */
	assert_string_equal(b.data, "123456789");
	assert_int_equal(pr_buf_addc(&b, 'x', &err), PR_OK);
	assert_int_equal(b.len, 10);
	assert_int_equal(pr_buf_addc(&b, 'y', &err), PR_ELIMIT);
	pr_buf_release(&b);
	assert_null(b.data);
}

/* pr_buf_addf formats into the room left and only again after growing:
 * text that does not fit must neither be kept in part (the terminator
 * back in place on refusal) nor lost when the buffer grows. */
static void
test_buf_addf_room(void **state)
{
	struct pr_buf b = PR_BUF_INIT(10), g = PR_BUF_INIT(1 << 20);
	struct pr_error err;
	char big[61];

	(void)state;
	assert_int_equal(pr_buf_adds(&b, "12345", &err), PR_OK);
	assert_int_equal(pr_buf_addf(&b, &err, "%s", "abcdefgh"), PR_ELIMIT);
	assert_int_equal(b.len, 5);
	assert_string_equal(b.data, "12345");
	assert_int_equal(pr_buf_addf(&b, &err, "%s", "abcde"), PR_OK);
	assert_string_equal(b.data, "12345abcde");
	pr_buf_release(&b);

	memset(big, 'x', 60);
	big[60] = '\0';
	assert_int_equal(pr_buf_adds(&g, big, &err), PR_OK);
	assert_int_equal(g.cap, 64);
	assert_int_equal(pr_buf_addf(&g, &err, "<%d>", 123456789), PR_OK);
	assert_int_equal(g.len, 71);
	assert_string_equal(g.data + 60, "<123456789>");
	assert_int_equal(pr_buf_addf(&g, &err, "%d", 7), PR_OK);
	assert_string_equal(g.data + 60, "<123456789>7");
	pr_buf_release(&g);
}

static void
test_buf_detach(void **state)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	size_t len = 99;
	char *s;
	int i;

	(void)state;
	s = pr_buf_detach(&b, &len);
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	free(s);
	for (i = 0; i < 1000; i++)
		assert_int_equal(pr_buf_addf(&b, NULL, "%03d", i), PR_OK);
	s = pr_buf_detach(&b, &len);
	assert_int_equal(len, 3000);
	assert_memory_equal(s + 2997, "999", 3);
	assert_null(b.data);
	free(s);
}

static void
test_error_format(void **state)
{
	struct pr_error err;
	char line[1024];

	(void)state;
	pr_error_clear(&err);
	assert_int_equal(pr_error_at(&err, PR_EPARSE, "old.txt", 17, 3,
			     "expected a number, got '%s'", "n/a"),
	    PR_EPARSE);
	assert_string_equal(pr_error_format(&err, line, sizeof(line)),
	    "old.txt:17: expected a number, got 'n/a'");
	pr_error_at(&err, PR_EIO, "gone.txt", 0, 0, "cannot open");
	assert_string_equal(pr_error_format(&err, line, sizeof(line)),
	    "gone.txt: cannot open");
	pr_error_set(&err, PR_EINVAL, "bad");
	assert_string_equal(pr_error_format(&err, line, sizeof(line)), "bad");
	assert_int_equal(pr_error_set(NULL, PR_ENOMEM, "x"), PR_ENOMEM);
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * pr_sort_doubles_keyed on a copy of v, given the range of its keys as a
 * reader finds it, must leave exactly what pr_sort_doubles leaves in v
 * (called after this).
 */
static double *
sort_keyed(const double *v, size_t n)
{
	double *c = malloc(n * sizeof(double) + 1);
	uint64_t lo = UINT64_MAX, hi = 0, k;
	size_t i;

	assert_non_null(c);
	memcpy(c, v, n * sizeof(double));
	for (i = 0; i < n; i++) {
		k = pr_sort_key(v[i]);
		lo = k < lo ? k : lo;
		hi = k > hi ? k : hi;
	}
	pr_sort_doubles_keyed(c, n, lo, hi);
	return c;
}

/*
 * A range narrower than the values (a reader that forgot some) is not
 * trusted: the keys outside it would have indexed past the sort's
 * counters (review of session 15, P3); the values are sorted all the
 * same, by the range found from them.
 */
static void
check_sort_narrow(const double *v, size_t n)
{
	double *c = malloc(n * sizeof(double) + 1), *ref;
	uint64_t lo = UINT64_MAX, hi = 0, k;
	size_t i;

	ref = malloc(n * sizeof(double) + 1);
	assert_non_null(c);
	assert_non_null(ref);
	memcpy(c, v, n * sizeof(double));
	memcpy(ref, v, n * sizeof(double));
	qsort(ref, n, sizeof(double), cmp);
	for (i = 0; i < n / 2; i++) {
		k = pr_sort_key(v[i]);
		lo = k < lo ? k : lo;
		hi = k > hi ? k : hi;
	}
	if (lo < hi) {
		pr_sort_doubles_keyed(c, n, lo, hi);
		for (i = 0; i < n; i++)
			if (!(ref[i] == c[i]))
				fail_msg("narrow range: sorted[%zu] is %a, not "
					 "%a",
				    i, c[i], ref[i]);
	}
	free(c);
	free(ref);
}

static void
check_sort(double *v, size_t n)
{
	double *ref = malloc(n * sizeof(double) + 1), *keyed;

	assert_non_null(ref);
	memcpy(ref, v, n * sizeof(double));
	qsort(ref, n, sizeof(double), cmp);
	keyed = sort_keyed(v, n);
	check_sort_narrow(v, n);
	pr_sort_doubles(v, n);
	assert_memory_equal(ref, v, n * sizeof(double));
	assert_memory_equal(keyed, v, n * sizeof(double));
	free(ref);
	free(keyed);
}

/* As check_sort, comparing values: -0 and +0 may come in either order. */
static void
check_sort_values(double *v, size_t n)
{
	double *ref = malloc(n * sizeof(double) + 1);
	size_t i;

	double *keyed;

	assert_non_null(ref);
	memcpy(ref, v, n * sizeof(double));
	qsort(ref, n, sizeof(double), cmp);
	keyed = sort_keyed(v, n);
	pr_sort_doubles(v, n);
	for (i = 0; i < n; i++)
		if (!(ref[i] == v[i]))
			fail_msg("sorted[%zu] is %a, not %a", i, v[i], ref[i]);
	assert_memory_equal(keyed, v, n * sizeof(double));
	free(ref);
	free(keyed);
}

/* A finite double with random bits: any sign, subnormals, extremes. */
static double
random_bits(struct pr_rng *r)
{
	uint64_t b;
	double x;

	do {
		b = pr_rng_next(r);
		if (pr_rng_below(r, 4) == 0)
			b &= 0x800fffffffffffffULL; /* subnormal or zero */
		memcpy(&x, &b, sizeof(x));
	} while (!isfinite(x));
	return x;
}

static void
test_sort(void **state)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 23, 24, 25, 100, 1000, 1023,
		1024, 1025, 5000, 70000, 100000 };
	struct pr_rng r;
	size_t i, k, n;
	double *v;

	(void)state;
	pr_rng_seed(&r, 42);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		n = sizes[k];
		v = malloc(n * sizeof(double) + 1);
		assert_non_null(v);
		/* random, few distinct values, sorted, reversed, negative */
		for (i = 0; i < n; i++)
			v[i] = pr_rng_normal(&r);
		check_sort(v, n);
		for (i = 0; i < n; i++)
			v[i] = (double)pr_rng_below(&r, 3);
		check_sort(v, n);
		for (i = 0; i < n; i++)
			v[i] = (double)i;
		check_sort(v, n);
		for (i = 0; i < n; i++)
			v[i] = -(double)i;
		check_sort(v, n);
		for (i = 0; i < n; i++)
			v[i] = 7.02;
		check_sort(v, n);
		/* The radix sort's cases: any bit pattern; neighbours that
		 * differ in the last bits only (every digit down to the
		 * lowest); timer quanta with many ties; both zeros, both
		 * signs, the extremes. */
		for (i = 0; i < n; i++)
			v[i] = random_bits(&r);
		check_sort(v, n);
		for (i = 0; i < n; i++)
			v[i] =
			    1.0 + (double)pr_rng_below(&r, 1 << 20) * 0x1p-52;
		check_sort(v, n);
		for (i = 0; i < n; i++)
			v[i] = (double)pr_rng_below(&r, 50) * 0.001 + 1.2;
		check_sort(v, n);
		for (i = 0; i < n; i++) {
			static const double special[] = { 0.0, -0.0, DBL_MAX,
				-DBL_MAX, DBL_MIN, -DBL_MIN, 0x1p-1074,
				-0x1p-1074, 1.0, -1.0 };

			v[i] = special[pr_rng_below(&r, 10)];
		}
		check_sort_values(v, n);
		free(v);
	}
}

/*
 * The radix sort's 16-input sorting network on every input of zeros and
 * ones: by the 0-1 principle (Knuth, TAOCP vol. 3, 5.3.4) a network that
 * sorts all 2^16 of them sorts every input.  Each must come out as its
 * zeros then its ones, as many of each as went in; a comparator left out
 * or misplaced fails here.
 */
static void
test_sort_network(void **state)
{
	uint64_t k[16];
	unsigned m, i, ones, bad = 0;

	(void)state;
	for (m = 0; m < 1u << 16; m++) {
		for (ones = 0, i = 0; i < 16; i++) {
			k[i] = (m >> i) & 1;
			ones += (unsigned)k[i];
		}
		pr_sort_net16(k);
		for (i = 0; i < 16; i++)
			if (k[i] != (i >= 16 - ones))
				break;
		if (i < 16 && bad++ == 0)
			print_error("input %#06x: sorted[%u] is %u\n", m, i,
			    (unsigned)k[i]);
	}
	assert_int_equal(bad, 0);
}

/*
 * The buckets of the radix sort's first pass that take its LSD counting
 * sort (core/sample.c: 256 to 2^16 values): integers, whose keys share
 * their low bits and need no insertion sort after (nanoseconds around
 * 1.5e9, as bench/stat-vs-ministat.sh writes them, with two digits; a
 * narrow range of small integers with one digit; both signs and both
 * zeros); doubles printed in full (100 + noise: the insertion sort
 * after the digits); timer quanta with many ties; and a bucket of 30,000
 * values that differ in their last 20 bits only, beside 40,000 that
 * spread over all buckets, so that the digits leave them all equal and
 * the insertion sort gives up for the radix sort.
 */
static void
test_sort_lsd(void **state)
{
	static const size_t sizes[] = { 1 << 16, 300000, 1 << 20 };
	struct pr_rng r;
	size_t i, k, n;
	double *v;

	(void)state;
	pr_rng_seed(&r, 1616);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		n = sizes[k];
		v = malloc(n * sizeof(double) + 1);
		assert_non_null(v);
		for (i = 0; i < n; i++)
			v[i] = nearbyint(1.5e9 + 1.5e7 * pr_rng_normal(&r));
		check_sort_values(v, n);
		for (i = 0; i < n; i++)
			v[i] = (double)(((uint64_t)1 << 20) +
			    pr_rng_below(&r, (uint64_t)1 << 13));
		check_sort_values(v, n);
		for (i = 0; i < n; i++)
			v[i] = (double)pr_rng_below(&r, 1000001) - 500000;
		v[0] = -0.0;
		v[n / 2] = 0.0;
		v[n - 1] = -0.0;
		check_sort_values(v, n);
		for (i = 0; i < n; i++)
			v[i] = 100 + pr_rng_normal(&r);
		check_sort_values(v, n);
		for (i = 0; i < n; i++)
			v[i] =
			    nearbyint((1.5 + 0.015 * pr_rng_normal(&r)) * 1e6) /
			    1e6;
		check_sort_values(v, n);
		for (i = 0; i < n; i++)
			v[i] = i % 7 < 3
			    ? 1.0 + (double)pr_rng_below(&r, 1 << 20) * 0x1p-52
			    : 1.0 + pr_rng_uniform(&r);
		check_sort_values(v, n);
		free(v);
	}
}

/*
 * pr_sample_sort_both: two samples large enough for two threads (and
 * two small ones, sorted one after the other) come out as qsort sorts
 * them, each flagged sorted.  The last case puts 90% of the values in
 * one bucket of the first radix pass (the rest anywhere), so that the
 * levels below take the wide digits too.
 */
static void
test_sort_both(void **state)
{
	static const size_t sizes[][2] = { { 200000, 150000 }, { 10, 3000 },
		{ 0, 300000 }, { 300000, 10 } };
	struct pr_sample a, b;
	struct pr_rng r;
	double *ra, *rb;
	size_t i, k;

	(void)state;
	pr_rng_seed(&r, 16);
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		pr_sample_init(&a);
		pr_sample_init(&b);
		for (i = 0; i < sizes[k][0]; i++)
			assert_int_equal(pr_sample_push(&a,
					     k == 3 && i % 10 == 0
						 ? random_bits(&r)
						 : 100 + pr_rng_normal(&r),
					     NULL),
			    PR_OK);
		for (i = 0; i < sizes[k][1]; i++)
			assert_int_equal(pr_sample_push(&b, random_bits(&r),
					     NULL),
			    PR_OK);
		ra = malloc(a.n * sizeof(double) + 1);
		rb = malloc(b.n * sizeof(double) + 1);
		assert_non_null(ra);
		assert_non_null(rb);
		if (a.n > 0)
			memcpy(ra, a.v, a.n * sizeof(double));
		memcpy(rb, b.v, b.n * sizeof(double));
		qsort(ra, a.n, sizeof(double), cmp);
		qsort(rb, b.n, sizeof(double), cmp);
		pr_sample_sort_both(&a, &b);
		assert_int_equal(a.sorted, 1);
		assert_int_equal(b.sorted, 1);
		for (i = 0; i < a.n; i++)
			assert_true(a.v[i] == ra[i]);
		for (i = 0; i < b.n; i++)
			assert_true(b.v[i] == rb[i]);
		free(ra);
		free(rb);
		pr_sample_release(&a);
		pr_sample_release(&b);
	}
}

static void
test_sample(void **state)
{
	struct pr_sample s = PR_SAMPLE_INIT, c;
	struct pr_error err;
	int i;

	(void)state;
	for (i = 100; i > 0; i--)
		assert_int_equal(pr_sample_push(&s, i, &err), PR_OK);
	assert_int_equal(pr_sample_push(&s, NAN, &err), PR_EINVAL);
	assert_int_equal(pr_sample_push(&s, INFINITY, &err), PR_EINVAL);
	assert_int_equal(s.n, 100);
	pr_sample_sort(&s);
	assert_true(s.sorted);
	assert_true(s.v[0] == 1.0 && s.v[99] == 100.0);
	assert_int_equal(pr_sample_copy(&c, &s, &err), PR_OK);
	assert_int_equal(c.n, 100);
	assert_true(c.v[50] == 51.0);
	pr_sample_shrink(&c);
	assert_int_equal(c.cap, 100);
	pr_sample_release(&c);
	pr_sample_release(&s);
	pr_sample_release(&s); /* twice is harmless */
}

static void
test_dataset(void **state)
{
	struct pr_dataset d;
	struct pr_metric *m;

	(void)state;
	pr_dataset_init(&d);
	assert_int_equal(pr_dataset_add(&d, "wall", "s", PR_BETTER_LOWER, 1.5,
			     NULL),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d, "rate", "B/s", PR_BETTER_UNKNOWN, 9,
			     NULL),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d, "wall", "ms", PR_BETTER_HIGHER, 2.5,
			     NULL),
	    PR_OK);
	assert_int_equal(d.n, 2);
	m = pr_dataset_find(&d, "wall");
	assert_non_null(m);
	/* The first unit and the first known direction stay. */
	assert_string_equal(m->unit, "s");
	assert_int_equal(m->better, PR_BETTER_LOWER);
	assert_int_equal(m->values.n, 2);
	assert_int_equal(pr_dataset_add(&d, "rate", "B/s", PR_BETTER_HIGHER, 9,
			     NULL),
	    PR_OK);
	assert_int_equal(pr_dataset_find(&d, "rate")->better, PR_BETTER_HIGHER);
	assert_null(pr_dataset_find(&d, "nope"));
	pr_dataset_release(&d);
}

/* pr_dataset_add_static: the names borrowed (the same pointers, never
 * freed: ASan and valgrind see no bad free), one value a metric, more
 * values pushed later, the fallback on a dataset that holds metrics
 * already, and a non-finite value refused with the dataset unchanged. */
static void
test_dataset_static(void **state)
{
	static const char *const names[3] = { "wall_s", "user_s", "rss" };
	static const char *const units[3] = { "s", "s", NULL };
	const double v[3] = { 1.5, 0.25, 4096 };
	const double bad[3] = { 1, NAN, 2 };
	struct pr_dataset d;
	struct pr_metric *m;
	size_t i;

	(void)state;
	pr_dataset_init(&d);
	assert_int_equal(pr_dataset_add_static(&d, names, units,
			     PR_BETTER_LOWER, bad, 3, NULL),
	    PR_EINVAL);
	assert_int_equal(d.n, 0);
	assert_int_equal(pr_dataset_add_static(&d, names, units,
			     PR_BETTER_LOWER, v, 3, NULL),
	    PR_OK);
	assert_int_equal(d.n, 3);
	for (i = 0; i < 3; i++) {
		m = &d.metrics[i];
		assert_ptr_equal(m->name, names[i]);
		assert_string_equal(m->unit, units[i] != NULL ? units[i] : "");
		assert_int_equal(m->borrowed, 1);
		assert_int_equal(m->better, PR_BETTER_LOWER);
		assert_int_equal(m->values.n, 1);
		assert_true(m->values.v[0] == v[i]);
	}
	assert_ptr_equal(pr_dataset_find(&d, "user_s"), &d.metrics[1]);
	/* A parser's metric after them, and more values for one of them. */
	assert_int_equal(pr_dataset_add(&d, "ops", "", PR_BETTER_HIGHER, 7,
			     NULL),
	    PR_OK);
	for (i = 0; i < 40; i++)
		assert_int_equal(pr_dataset_add(&d, "wall_s", "s",
				     PR_BETTER_LOWER, (double)i, NULL),
		    PR_OK);
	m = pr_dataset_find(&d, "wall_s");
	assert_int_equal(m->values.n, 41);
	assert_true(m->values.v[0] == 1.5 && m->values.v[40] == 39);
	assert_int_equal(pr_dataset_find(&d, "ops")->borrowed, 0);
	/* On a dataset with metrics: appended to the existing ones, copied. */
	assert_int_equal(pr_dataset_add_static(&d, names, units,
			     PR_BETTER_LOWER, v, 3, NULL),
	    PR_OK);
	assert_int_equal(d.n, 4);
	assert_int_equal(pr_dataset_find(&d, "rss")->values.n, 2);
	assert_int_equal(pr_dataset_find(&d, "user_s")->values.n, 2);
	pr_dataset_release(&d);
	assert_int_equal(d.n, 0);

	pr_dataset_init(&d);
	assert_int_equal(pr_dataset_add(&d, "x", "", PR_BETTER_LOWER, 1, NULL),
	    PR_OK);
	assert_int_equal(pr_dataset_add_static(&d, names, units,
			     PR_BETTER_LOWER, v, 3, NULL),
	    PR_OK);
	assert_int_equal(d.n, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(d.metrics[i].borrowed, 0);
	assert_true(d.metrics[1].name != names[0]);
	assert_string_equal(d.metrics[3].name, "rss");
	pr_dataset_release(&d);
}

/*
 * Past a few metrics lookup goes through a hash index: every metric is
 * found, in its place, also after metrics were dropped from the end
 * behind the index's back (as pr_parser_derive does on failure) and
 * others added in their place.
 */
static void
test_dataset_index(void **state)
{
	struct pr_dataset d;
	struct pr_metric *m;
	char name[32];
	size_t i, n = 5000;

	(void)state;
	pr_dataset_init(&d);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "m%zu", i);
		assert_int_equal(pr_dataset_add(&d, name, "s", PR_BETTER_LOWER,
				     (double)i, NULL),
		    PR_OK);
	}
	/* Again: values accumulate, no metric is made twice. */
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "m%zu", i);
		assert_int_equal(pr_dataset_add(&d, name, "s", PR_BETTER_LOWER,
				     (double)i, NULL),
		    PR_OK);
	}
	assert_int_equal(d.n, n);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "m%zu", i);
		m = pr_dataset_find(&d, name);
		assert_non_null(m);
		assert_ptr_equal(m, &d.metrics[i]);
		assert_int_equal(m->values.n, 2);
	}
	assert_null(pr_dataset_find(&d, "m5000"));
	/* Drop the last 100 by hand, add others: found, the dropped not. */
	for (i = n - 100; i < n; i++) {
		free(d.metrics[i].name);
		free(d.metrics[i].unit);
		pr_sample_release(&d.metrics[i].values);
	}
	d.n = n - 100;
	assert_null(pr_dataset_find(&d, "m4999"));
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "x%zu", i);
		assert_int_equal(pr_dataset_add(&d, name, "", PR_BETTER_UNKNOWN,
				     1, NULL),
		    PR_OK);
	}
	assert_int_equal(d.n, n);
	assert_ptr_equal(pr_dataset_find(&d, "x99"), &d.metrics[n - 1]);
	assert_ptr_equal(pr_dataset_find(&d, "m4899"), &d.metrics[n - 101]);
	assert_null(pr_dataset_find(&d, "m4900"));
	pr_dataset_release(&d);
}

static void
test_rng(void **state)
{
	struct pr_rng a, b;
	double sum = 0, sq = 0, x;
	int i, counts[5] = { 0 };

	(void)state;
	pr_rng_seed(&a, 1);
	pr_rng_seed(&b, 1);
	for (i = 0; i < 1000; i++)
		assert_true(pr_rng_next(&a) == pr_rng_next(&b));
	pr_rng_seed(&b, 2);
	assert_true(pr_rng_next(&a) != pr_rng_next(&b));
	for (i = 0; i < 100000; i++) {
		x = pr_rng_uniform(&a);
		assert_true(x >= 0.0 && x < 1.0);
		counts[pr_rng_below(&a, 5)]++;
		x = pr_rng_normal(&a);
		sum += x;
		sq += x * x;
	}
	/* 100000 normals: the mean is within 5 standard errors of 0 and
	 * the variance within 2% of 1; each of 5 cells near 20000. */
	assert_true(fabs(sum / 100000) < 5 / sqrt(100000));
	assert_true(fabs(sq / 100000 - 1) < 0.02);
	for (i = 0; i < 5; i++)
		assert_true(counts[i] > 19000 && counts[i] < 21000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf_cap),
		cmocka_unit_test(test_buf_addf_room),
		cmocka_unit_test(test_buf_detach),
		cmocka_unit_test(test_error_format),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_sort_network),
		cmocka_unit_test(test_sort_lsd),
		cmocka_unit_test(test_sort_both),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_dataset),
		cmocka_unit_test(test_dataset_index),
		cmocka_unit_test(test_dataset_static),
		cmocka_unit_test(test_rng),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
