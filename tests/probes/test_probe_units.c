/*
 * tests/probes/test_probe_units.c - the probes' unit conversions, checked
 * exactly with a clock the test controls.  This program defines its own
 * clock_gettime(), which the probes linked into it call instead of the C
 * library's: while the fake is on, CLOCK_MONOTONIC advances by exactly
 * 1.5 s at each reading (a whole second and half a second, so that both
 * the tv_sec and the tv_nsec part of a conversion count).  A probe's
 * calibration then settles on one repetition (1.5 s is more than its 1 ms
 * target), and every timed step lasts 1.5 s, so the figures are known in
 * advance: the copy probe's memcpy of 64 B reports 64 B / 1.5 s in MB/s,
 * the random probe's getrandom of 16 B 1.5e9 ns per request.  A factor
 * of 1e3 or 1e9 taken for another (ns for us, MB for kB) changes them by
 * a thousand.  Nothing real is timed; other clocks and the fake when off
 * go to the kernel.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfreg/probe.h"

/* The step of the fake clock, in ns. */
#define STEP_NS 1500000000LL

static int g_fake;
static long long g_now_ns;

int
clock_gettime(clockid_t clk, struct timespec *ts)
{
	if (g_fake && clk == CLOCK_MONOTONIC) {
		g_now_ns += STEP_NS;
		ts->tv_sec = (time_t)(g_now_ns / 1000000000LL);
		ts->tv_nsec = (long)(g_now_ns % 1000000000LL);
		return 0;
	}
	return (int)syscall(SYS_clock_gettime, clk, ts);
}

/* Runs probe p (variant, param, --quick, not pinned) under the fake
 * clock: init and one sample; returns the one metric's value, checking
 * its name and unit. */
static double
one_figure(const struct pr_probe *p, const char *variant, const char *param,
    const char *name, const char *unit)
{
	struct pr_probe_opts o = { 1, -1, variant, param, NULL, NULL };
	struct pr_dataset d;
	struct pr_error err;
	void *state = NULL;
	double v;

	g_fake = 1;
	g_now_ns = 1000000000LL;
	if (p->init(&o, &state, NULL, &err) != PR_OK) {
		g_fake = 0;
		fail_msg("%s init: %s", p->name, err.msg);
	}
	pr_dataset_init(&d);
	if (p->sample(state, &d, &err) != PR_OK) {
		g_fake = 0;
		fail_msg("%s sample: %s", p->name, err.msg);
	}
	g_fake = 0;
	p->fini(state);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.metrics[0].name, name);
	assert_string_equal(d.metrics[0].unit, unit);
	assert_int_equal(d.metrics[0].values.n, 1);
	v = d.metrics[0].values.v[0];
	pr_dataset_release(&d);
	return v;
}

/* a equals b to within rounding. */
static void
assert_close(double a, double b)
{
	if (!(fabs(a - b) <= 1e-12 * fabs(b)))
		fail_msg("%.17g, expected %.17g", a, b);
}

static void
test_copy_mb_per_s(void **state)
{
	double v;

	(void)state;
	v = one_figure(&pr_probe_copy, "memcpy", "64B", "copy", "MB/s");
	/* 64 bytes in 1.5 s: 42.67 bytes/s, 4.267e-5 MB/s. */
	assert_close(v, 64 / 1.5 / 1e6);
}

static void
test_random_ns_per_request(void **state)
{
	double v;

	(void)state;
	v = one_figure(&pr_probe_random, "getrandom", "16B", "random",
	    "ns/request");
	/* One request in 1.5 s. */
	assert_close(v, 1.5e9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_mb_per_s),
		cmocka_unit_test(test_random_ns_per_request),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
