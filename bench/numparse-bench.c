/*
 * bench/numparse-bench.c - pr_parse_double against strtod: throughput on
 * the kinds of numbers benchmarks print, and a check that both give the
 * same bits on every one of them.
 *
 * Usage: numparse-bench [COUNT]   (default 2000000 numbers per kind)
 *
 * For each kind, the numbers are written one per line into a buffer,
 * then parsed three times by each reader, keeping the fastest; the
 * output gives nanoseconds per number and the ratio strtod/perfreg.
 * Timing is wall-clock (CLOCK_MONOTONIC) on whatever else the machine is
 * doing: run it on a quiet machine.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perfreg/numparse.h"
#include "perfreg/rng.h"

struct kind {
	const char *name;
	int (*write)(struct pr_rng *r, char *buf, size_t size);
};

static int
w_time_s(struct pr_rng *r, char *buf, size_t size)
{
	/* A run time in seconds: hyperfine, ministat inputs. */
	return snprintf(buf, size, "%.6f", 1.5 + 0.03 * pr_rng_normal(r));
}

static int
w_ns(struct pr_rng *r, char *buf, size_t size)
{
	/* Integer nanoseconds, as Go benchmarks print. */
	return snprintf(buf, size, "%.0f",
	    floor(123456.0 * (1 + 0.02 * pr_rng_normal(r))));
}

static int
w_short(struct pr_rng *r, char *buf, size_t size)
{
	/* Throughput with two decimals, e.g. MB/s. */
	return snprintf(buf, size, "%.2f", 950.0 + 40 * pr_rng_normal(r));
}

static int
w_g17(struct pr_rng *r, char *buf, size_t size)
{
	/* Round-trip precision of a double: 17 significant digits. */
	return snprintf(buf, size, "%.17g",
	    exp(20 * (pr_rng_uniform(r) - 0.5)));
}

static int
w_exp(struct pr_rng *r, char *buf, size_t size)
{
	/* Scientific notation with large exponents. */
	return snprintf(buf, size, "%.9e",
	    pow(10.0, 200 * (pr_rng_uniform(r) - 0.5)));
}

static const struct kind kinds[] = {
	{ "%.6f seconds", w_time_s },
	{ "integer ns", w_ns },
	{ "%.2f", w_short },
	{ "%.17g", w_g17 },
	{ "%.9e wide", w_exp },
};

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double
run_strtod(const char *buf, size_t n, double *out)
{
	const char *p = buf;
	char *end;
	size_t i;
	double t0 = now_s();

	for (i = 0; i < n; i++) {
		out[i] = strtod(p, &end);
		p = end + 1;
	}
	return now_s() - t0;
}

static double
run_perfreg(const char *buf, const char *bufend, size_t n, double *out)
{
	const char *p = buf, *stop;
	size_t i;
	double t0 = now_s();

	for (i = 0; i < n; i++) {
		if (pr_parse_double(p, bufend, &stop, &out[i], NULL) != PR_OK) {
			fprintf(stderr, "numparse-bench: parse failed\n");
			exit(1);
		}
		p = stop + 1;
	}
	return now_s() - t0;
}

int
main(int argc, char **argv)
{
	size_t n = 2000000, i, k, len;
	struct pr_rng r;
	char *buf;
	double *a, *b, ts, tp, t;
	int rep;

	if (argc > 1)
		n = strtoul(argv[1], NULL, 10);
	if (n == 0)
		n = 1;
	buf = malloc(n * 40);
	a = malloc(n * sizeof(double));
	b = malloc(n * sizeof(double));
	if (buf == NULL || a == NULL || b == NULL) {
		fprintf(stderr, "numparse-bench: out of memory\n");
		return 1;
	}
	printf("%-14s %10s %12s %12s %7s\n", "kind", "numbers", "strtod ns",
	    "perfreg ns", "ratio");
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		pr_rng_seed(&r, 42 + k);
		len = 0;
		for (i = 0; i < n; i++) {
			len += (size_t)kinds[k].write(&r, buf + len, 39);
			buf[len++] = '\n';
		}
		ts = tp = HUGE_VAL;
		for (rep = 0; rep < 3; rep++) {
			if ((t = run_strtod(buf, n, a)) < ts)
				ts = t;
			if ((t = run_perfreg(buf, buf + len, n, b)) < tp)
				tp = t;
		}
		if (memcmp(a, b, n * sizeof(double)) != 0) {
			fprintf(stderr,
			    "numparse-bench: %s: results differ "
			    "from strtod\n",
			    kinds[k].name);
			return 1;
		}
		printf("%-14s %10zu %12.1f %12.1f %7.2f\n", kinds[k].name, n,
		    ts * 1e9 / (double)n, tp * 1e9 / (double)n, ts / tp);
	}
	free(buf);
	free(a);
	free(b);
	return 0;
}
