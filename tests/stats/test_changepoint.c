/*
 * tests/stats/test_changepoint.c - the change-point detector
 * (src/stats/changepoint.c).
 *
 * Reference values come from tests/stats/data/changepoint.txt, written by
 * tests/stats/gen_changepoint_fixtures.py: the exact segmentation against
 * an exhaustive search of every segmentation of short series (rational
 * arithmetic), and the whole detector against a second implementation in
 * numpy (brute-force optimal partitioning, lstsq for the step test).  The
 * rest needs no reference: the pruned segmentation against a brute-force
 * one in C on longer series, a deterministic simulation of series without
 * change (false alarms near alpha, never far above), single outliers that
 * are spikes and never change points, a planted step found where it was
 * planted, the possible change at the end, and the errors; the O(1) step
 * test of the backward elimination against the direct one.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/changepoint.h"
#include "perfreg/error.h"
#include "perfreg/rng.h"
#include "stats/cp_step.h"

#define FIXTURE "tests/stats/data/changepoint.txt"
#define MAXTOK 4096

/* Splits line into at most MAXTOK whitespace-separated words. */
static size_t
split(char *line, char **tok)
{
	size_t n = 0;
	char *p = line;

	while (*p && n < MAXTOK) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			*p++ = '\0';
		if (!*p)
			break;
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
	}
	return n;
}

static double
num(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	assert_true(*end == '\0');
	return v;
}

static void
close_to(double got, double want, double tol, const char *what, int line)
{
	double scale = fabs(want) > 1 ? fabs(want) : 1;

	if (!(fabs(got - want) <= tol * scale))
		fail_msg("%s:%d: %s: got %.17g, want %.17g", FIXTURE, line,
		    what, got, want);
}

static enum pr_better
better_of(const char *s)
{
	if (strcmp(s, "lower") == 0)
		return PR_BETTER_LOWER;
	if (strcmp(s, "higher") == 0)
		return PR_BETTER_HIGHER;
	return PR_BETTER_UNKNOWN;
}

static const char *
verdict_name(enum pr_verdict v)
{
	switch (v) {
	case PR_VERDICT_REGRESSION:
		return "regression";
	case PR_VERDICT_IMPROVEMENT:
		return "improvement";
	case PR_VERDICT_EQUIVALENT:
		return "equivalent";
	default:
		return "inconclusive";
	}
}

static void
check_segment(char **tok, size_t nt, char **want, size_t nw, int line)
{
	size_t m = (size_t)num(tok[2]), n = (size_t)num(tok[4]), i, ncps, k;
	double pen = num(tok[3]), cost, *y, *w = NULL;
	size_t *cps;
	struct pr_error err;

	assert_true(nt >= 5 + n);
	y = malloc(n * sizeof(*y));
	for (i = 0; i < n; i++)
		y[i] = num(tok[5 + i]);
	if (nt > 5 + n) {
		assert_string_equal(tok[5 + n], "w");
		w = malloc(n * sizeof(*w));
		for (i = 0; i < n; i++)
			w[i] = num(tok[6 + n + i]);
	}
	assert_int_equal(pr_cp_segment(y, w, n, pen, m, &cps, &ncps, &cost,
			     &err),
	    PR_OK);
	close_to(cost, num(want[1]), 1e-9, tok[1], line);
	k = (size_t)num(want[2]);
	if (ncps != k)
		fail_msg("%s:%d: %s: %zu changes, want %zu", FIXTURE, line,
		    tok[1], ncps, k);
	assert_true(nw >= 3 + k);
	for (i = 0; i < k; i++)
		if (cps[i] != (size_t)num(want[3 + i]))
			fail_msg("%s:%d: %s: change %zu at %zu, want %s",
			    FIXTURE, line, tok[1], i, cps[i], want[3 + i]);
	free(cps);
	free(y);
	free(w);
}

static void
check_detect(char **tok, size_t nt, char **want, size_t nw, int line)
{
	size_t n = (size_t)num(tok[5]), i, j, k, ns;
	double *y, *v = NULL;
	struct pr_cp_opts o;
	struct pr_cp_result r;
	struct pr_error err;
	const char *name = tok[1];

	pr_cp_opts_init(&o);
	o.alpha = num(tok[2]);
	o.min_segment = (size_t)num(tok[3]);
	o.better = better_of(tok[4]);
	assert_true(nt >= 6 + n);
	y = malloc(n * sizeof(*y));
	for (i = 0; i < n; i++)
		y[i] = num(tok[6 + i]);
	if (nt > 6 + n) {
		v = malloc(n * sizeof(*v));
		for (i = 0; i < n; i++)
			v[i] = num(tok[7 + n + i]);
	}
	if (pr_cp_detect(y, v, n, &o, &r, &err) != PR_OK)
		fail_msg("%s:%d: %s: %s", FIXTURE, line, name, err.msg);
	if (r.candidates != (size_t)num(want[1]))
		fail_msg("%s:%d: %s: %zu candidates, want %s", FIXTURE, line,
		    name, r.candidates, want[1]);
	k = (size_t)num(want[2]);
	if (r.nchanges != k)
		fail_msg("%s:%d: %s: %zu changes, want %zu", FIXTURE, line,
		    name, r.nchanges, k);
	for (i = 0, j = 3; i < k; i++, j += 6) {
		const struct pr_cp_change *c = &r.changes[i];

		assert_true(j + 6 <= nw);
		if (c->index != (size_t)num(want[j]))
			fail_msg("%s:%d: %s: change at %zu, want %s", FIXTURE,
			    line, name, c->index, want[j]);
		close_to(c->step, num(want[j + 1]), 1e-8, "step", line);
		close_to(c->step_lo, num(want[j + 2]), 1e-8, "lo", line);
		close_to(c->step_hi, num(want[j + 3]), 1e-8, "hi", line);
		close_to(c->z, num(want[j + 4]), 1e-8, "z", line);
		assert_string_equal(verdict_name(c->verdict), want[j + 5]);
	}
	ns = (size_t)num(want[j]);
	if (r.nspikes != ns)
		fail_msg("%s:%d: %s: %zu spikes, want %zu", FIXTURE, line, name,
		    r.nspikes, ns);
	for (i = 0; i < ns; i++)
		assert_int_equal(r.spikes[i].index,
		    (size_t)num(want[j + 1 + i]));
	j += 1 + ns;
	assert_string_equal(want[j], "tail");
	if (strcmp(want[j + 1], "-") == 0) {
		if (r.tail.possible)
			fail_msg("%s:%d: %s: a possible change at %zu, want "
				 "none",
			    FIXTURE, line, name, r.tail.index);
	} else {
		assert_true(r.tail.possible);
		assert_int_equal(r.tail.index, (size_t)num(want[j + 1]));
		assert_int_equal(r.tail.needs, (size_t)num(want[j + 2]));
	}
	pr_cp_result_release(&r);
	free(y);
	free(v);
}

static void
test_fixtures(void **state)
{
	FILE *f = fopen(FIXTURE, "r");
	char *a = NULL, *b = NULL;
	size_t ca = 0, cb = 0, segs = 0, dets = 0;
	char **ta = malloc(MAXTOK * sizeof(*ta)),
	     **tb = malloc(MAXTOK * sizeof(*tb));
	int line = 0;

	(void)state;
	assert_non_null(f);
	while (getline(&a, &ca, f) > 0) {
		size_t na, nb;

		line++;
		if (a[0] == '#')
			continue;
		assert_true(getline(&b, &cb, f) > 0);
		line++;
		na = split(a, ta);
		nb = split(b, tb);
		if (strcmp(ta[0], "segment") == 0) {
			assert_string_equal(tb[0], "want-segment");
			check_segment(ta, na, tb, nb, line);
			segs++;
		} else if (strcmp(ta[0], "detect") == 0) {
			assert_string_equal(tb[0], "want-detect");
			check_detect(ta, na, tb, nb, line);
			dets++;
		} else
			fail_msg("%s:%d: unknown line '%s'", FIXTURE, line,
			    ta[0]);
	}
	assert_true(segs >= 40);
	assert_true(dets >= 10);
	free(a);
	free(b);
	free(ta);
	free(tb);
	fclose(f);
}

/* Brute-force optimal partitioning, every last change tried. */
static double
brute(const double *y, size_t n, double pen, size_t m, size_t *cps,
    size_t *ncps)
{
	double *f = malloc((n + 1) * sizeof(*f));
	size_t *last = calloc(n + 1, sizeof(*last)), t, s, k = 0;
	double cost;

	f[0] = -pen;
	for (t = 1; t <= n; t++)
		f[t] = INFINITY;
	for (t = m; t <= n; t++)
		for (s = 0; s + m <= t; s++) {
			double sum = 0, ss = 0, mu, v;
			size_t i;

			if (!isfinite(f[s]))
				continue;
			for (i = s; i < t; i++)
				sum += y[i];
			mu = sum / (double)(t - s);
			for (i = s; i < t; i++)
				ss += (y[i] - mu) * (y[i] - mu);
			v = f[s] + ss + pen;
			if (v < f[t] - 1e-9 * (fabs(v) + 1)) {
				f[t] = v;
				last[t] = s;
			}
		}
	for (t = n; t > 0; t = last[t])
		if (last[t] > 0)
			k++;
	*ncps = k;
	for (t = n; t > 0; t = last[t])
		if (last[t] > 0)
			cps[--k] = last[t];
	cost = f[n];
	free(f);
	free(last);
	return cost;
}

/* The pruned segmentation finds the brute-force optimum on series long
 * enough for both prunings to act. */
static void
test_pruning_exact(void **state)
{
	struct pr_rng rng;
	int rep;

	(void)state;
	pr_rng_seed(&rng, 7);
	for (rep = 0; rep < 60; rep++) {
		size_t n = 20 + (size_t)pr_rng_below(&rng, 180), i, nb, np;
		size_t m = 1 + (size_t)pr_rng_below(&rng, 6), *cb, *cp;
		double *y = malloc(n * sizeof(*y)), pen, cost_b, cost_p;
		struct pr_error err;

		for (i = 0; i < n; i++)
			y[i] = pr_rng_normal(&rng) +
			    (rep % 3 && i > n / 3 ? 3 : 0) +
			    (rep % 2 && i > 2 * n / 3 ? -2 : 0);
		pen = 2 * log((double)n) * (rep % 4 ? 1 : 0.2);
		cb = malloc(n * sizeof(*cb));
		cost_b = brute(y, n, pen, m, cb, &nb);
		assert_int_equal(pr_cp_segment(y, NULL, n, pen, m, &cp, &np,
				     &cost_p, &err),
		    PR_OK);
		assert_true(fabs(cost_b - cost_p) <= 1e-9 * (fabs(cost_b) + 1));
		assert_int_equal(nb, np);
		for (i = 0; i < nb; i++)
			assert_int_equal(cb[i], cp[i]);
		free(cb);
		free(cp);
		free(y);
	}
}

/*
 * Series without change: white noise, AR(1) noise with rho 0.5 and
 * Student t with 3 df (heavy tails).  The confirmation's Bonferroni
 * threshold aims at alpha = 1% of series with a false change; the counts
 * below are for this seed (deterministic), and a bound that Binomial(400,
 * 0.01) exceeds with probability below 1e-4 (12 of 400) for white noise,
 * twice that for the AR and heavy-tailed series whose noise model is
 * approximate.
 */
static void
test_false_alarms(void **state)
{
	struct pr_rng rng;
	int kind;

	(void)state;
	pr_rng_seed(&rng, 2026);
	for (kind = 0; kind < 3; kind++) {
		size_t alarms = 0, rep;

		for (rep = 0; rep < 400; rep++) {
			double y[150], prev = 0;
			struct pr_cp_result r;
			struct pr_error err;
			size_t i;

			for (i = 0; i < 150; i++) {
				double e = pr_rng_normal(&rng);

				if (kind == 1)
					e = prev = 0.5 * prev + e;
				else if (kind == 2) {
					double c = 0;
					int j;

					for (j = 0; j < 3; j++) {
						double g = pr_rng_normal(&rng);

						c += g * g;
					}
					e = e / sqrt(c / 3);
				}
				y[i] = 100 + e;
			}
			assert_int_equal(pr_cp_detect(y, NULL, 150, NULL, &r,
					     &err),
			    PR_OK);
			alarms += r.nchanges > 0;
			pr_cp_result_release(&r);
		}
		if (alarms > (kind == 0 ? 12u : 24u))
			fail_msg("kind %d: %zu of 400 series without change "
				 "had one",
			    kind, alarms);
	}
}

/* A lone outlier is a spike, never two change points; a planted step is
 * found at its index with an interval that holds it. */
static void
test_spike_and_step(void **state)
{
	struct pr_rng rng;
	double y[200];
	struct pr_cp_result r;
	struct pr_error err;
	struct pr_cp_opts o;
	size_t i;

	(void)state;
	pr_rng_seed(&rng, 11);
	for (i = 0; i < 200; i++)
		y[i] = 50 + 0.5 * pr_rng_normal(&rng);
	y[120] = 80;
	assert_int_equal(pr_cp_detect(y, NULL, 200, NULL, &r, &err), PR_OK);
	assert_int_equal(r.nchanges, 0);
	assert_int_equal(r.nspikes, 1);
	assert_int_equal(r.spikes[0].index, 120);
	assert_true(r.spikes[0].z > 10);
	pr_cp_result_release(&r);

	for (i = 0; i < 200; i++)
		y[i] = 50 + 0.5 * pr_rng_normal(&rng) + (i >= 137 ? 2.5 : 0);
	pr_cp_opts_init(&o);
	o.better = PR_BETTER_LOWER;
	assert_int_equal(pr_cp_detect(y, NULL, 200, &o, &r, &err), PR_OK);
	assert_int_equal(r.nchanges, 1);
	assert_int_equal(r.changes[0].index, 137);
	assert_true(r.changes[0].defined & PR_CP_PCT);
	assert_true(r.changes[0].ci_lo_pct < 5 && r.changes[0].ci_hi_pct > 5);
	assert_int_equal(r.changes[0].verdict, PR_VERDICT_REGRESSION);
	assert_true(r.changes[0].p_adjusted < 1e-6);
	pr_cp_result_release(&r);

	/* The same step higher-is-better is an improvement. */
	o.better = PR_BETTER_HIGHER;
	assert_int_equal(pr_cp_detect(y, NULL, 200, &o, &r, &err), PR_OK);
	assert_int_equal(r.changes[0].verdict, PR_VERDICT_IMPROVEMENT);
	pr_cp_result_release(&r);
}

/*
 * Values whose squares overflow (2^700) or vanish (2^-900) give the
 * changes, spikes and tail of the same series at ordinary magnitude, with
 * the levels scaled by the same power of two (the repro of the fuzzer's
 * crash: a series of 1e199 values failed with "a finite penalty", and
 * tiny values were called constant).
 */
static void
test_extreme_magnitudes(void **state)
{
	static const int exps[] = { 700, -900, 1000, -1000 };
	struct pr_rng rng;
	double y[200], ys[200];
	struct pr_cp_result r, rs;
	struct pr_error err;
	size_t i, k, j;

	(void)state;
	pr_rng_seed(&rng, 23);
	for (i = 0; i < 200; i++)
		y[i] = 50 + 0.5 * pr_rng_normal(&rng) + (i >= 90 ? 3 : 0);
	y[40] = 90;
	y[197] = y[198] = y[199] = 70;
	assert_int_equal(pr_cp_detect(y, NULL, 200, NULL, &r, &err), PR_OK);
	assert_int_equal(r.nchanges, 1);
	assert_int_equal(r.nspikes, 1);
	assert_true(r.tail.possible);
	for (k = 0; k < sizeof(exps) / sizeof(exps[0]); k++) {
		int e = exps[k];

		for (i = 0; i < 200; i++)
			ys[i] = ldexp(y[i], e - 6);
		assert_int_equal(pr_cp_detect(ys, NULL, 200, NULL, &rs, &err),
		    PR_OK);
		assert_int_equal(rs.constant, 0);
		assert_int_equal(rs.nchanges, r.nchanges);
		assert_int_equal(rs.nspikes, r.nspikes);
		assert_int_equal(rs.candidates, r.candidates);
		for (j = 0; j < r.nchanges; j++) {
			assert_int_equal(rs.changes[j].index,
			    r.changes[j].index);
			assert_true(fabs(rs.changes[j].z - r.changes[j].z) <=
			    1e-9 * fabs(r.changes[j].z));
			assert_true(fabs(rs.changes[j].change_pct -
					r.changes[j].change_pct) <= 1e-9);
			assert_true(fabs(ldexp(rs.changes[j].step, 6 - e) -
					r.changes[j].step) <=
			    1e-9 * fabs(r.changes[j].step));
		}
		for (j = 0; j < r.nspikes; j++) {
			assert_int_equal(rs.spikes[j].index, r.spikes[j].index);
			assert_true(
			    rs.spikes[j].value == ys[rs.spikes[j].index]);
		}
		assert_int_equal(rs.tail.possible, r.tail.possible);
		assert_int_equal(rs.tail.index, r.tail.index);
		assert_true(
		    fabs(ldexp(rs.sigma, 6 - e) - r.sigma) <= 1e-9 * r.sigma);
		pr_cp_result_release(&rs);
	}
	pr_cp_result_release(&r);

	/* The fuzzer's input: 1e199 and 9.1e200 among smaller values. */
	{
		static const double fz[] = { 1e199, 9.1e200, 9.1e10, 40.48e199,
			9, 40.48e199, 9.1e10, 40.48e199, 9.1e10, 9, 40.48e199,
			9.1e10, 4.01e11 };
		size_t nf = sizeof(fz) / sizeof(fz[0]);

		assert_int_equal(pr_cp_detect(fz, NULL, nf, NULL, &rs, &err),
		    PR_OK);
		for (j = 0; j < rs.nchanges; j++)
			assert_true(isfinite(rs.changes[j].step));
		assert_true(isfinite(rs.sigma) && rs.sigma > 0);
		pr_cp_result_release(&rs);
	}

	/* A spike far below the magnitude of the series: 2^-1070 among
	 * values of 2^1000 does not survive the scaling, but the spike's
	 * value is reported as given. */
	for (i = 0; i < 200; i++)
		ys[i] = ldexp(y[i], 994);
	ys[40] = ldexp(1, -1070);
	assert_int_equal(pr_cp_detect(ys, NULL, 200, NULL, &rs, &err), PR_OK);
	for (j = 0; j < rs.nspikes && rs.spikes[j].index != 40; j++)
		;
	assert_true(j < rs.nspikes);
	assert_true(rs.spikes[j].value == ldexp(1, -1070));
	pr_cp_result_release(&rs);

	/* A noise given that the scaling takes to 0 (or to infinity) is an
	 * error naming it, not a noise silently learnt instead. */
	{
		struct pr_cp_opts o;

		pr_cp_opts_init(&o);
		o.noise_sd = 1e-300;
		for (i = 0; i < 200; i++)
			ys[i] = ldexp(y[i], 994);
		memset(&rs, 0xa5, sizeof(rs)); /* zeroed on failure */
		assert_int_equal(pr_cp_detect(ys, NULL, 200, &o, &rs, &err),
		    PR_EINVAL);
		assert_null(rs.changes);
		assert_null(rs.spikes);
		assert_int_equal(rs.n, 0);
		assert_non_null(
		    strstr(err.msg, "noise 1e-300 is out of range"));
		/* pr_cp_noise_usable says so beforehand (a caller that
		 * derived the noise learns it instead). */
		assert_false(pr_cp_noise_usable(ys, 200, o.noise_sd));
		o.noise_sd = 1e300;
		for (i = 0; i < 200; i++)
			ys[i] = ldexp(y[i], -1000);
		assert_int_equal(pr_cp_detect(ys, NULL, 200, &o, &rs, &err),
		    PR_EINVAL);
		assert_non_null(strstr(err.msg, "out of range"));
		assert_false(pr_cp_noise_usable(ys, 200, o.noise_sd));
		assert_false(pr_cp_noise_usable(ys, 200, INFINITY));
		assert_false(pr_cp_noise_usable(ys, 200, NAN));
		assert_false(pr_cp_noise_usable(ys, 200, 0));
		/* Not scaled: any finite noise above 0 is taken. */
		assert_true(pr_cp_noise_usable(y, 200, 1e-300));
		assert_true(pr_cp_noise_usable(y, 200, 1e300));
		/* In range after the scaling: the noise is the one given. */
		o.noise_sd = ldexp(0.5, 994);
		for (i = 0; i < 200; i++)
			ys[i] = ldexp(y[i], 994);
		assert_true(pr_cp_noise_usable(ys, 200, o.noise_sd));
		assert_int_equal(pr_cp_detect(ys, NULL, 200, &o, &rs, &err),
		    PR_OK);
		assert_true(rs.noise_given);
		assert_true(rs.sigma == o.noise_sd);
		pr_cp_result_release(&rs);
	}
}

/*
 * The noise of repeats: the pooled standard deviation within runs of
 * equal keys (NULL keys and single points stand alone), and the same in
 * units of 2^600 (each value and the result exactly scaled), where the
 * squares of the deviations would overflow a double (review finding 3b
 * of session 10).  Values: keys a a a b c c d: deviations about 2, 5
 * and 8, about 11 and 13; 3 df.
 */
static void
test_replicate_sd(void **state)
{
	static const char *const key[] = { "a", "a", "a", "b", "c", "c", NULL,
		NULL };
	const double y[] = { 1, 3, 5, 100, 10, 14, 7, 7 };
	double ys[8], sd, sds;
	size_t df, i;

	(void)state;
	/* (1-3)^2 + 0 + (5-3)^2 + (10-12)^2 + (14-12)^2 = 16, over 3 df */
	pr_cp_replicate_sd(y, key, 8, &sd, &df);
	assert_int_equal(df, 3);
	assert_true(fabs(sd - sqrt(16.0 / 3)) <= 1e-15 * sqrt(16.0 / 3));
	for (i = 0; i < 8; i++)
		ys[i] = ldexp(y[i], 600);
	pr_cp_replicate_sd(ys, key, 8, &sds, &df);
	assert_int_equal(df, 3);
	assert_true(isfinite(sds));
	assert_true(fabs(sds - ldexp(sd, 600)) <= 1e-15 * ldexp(sd, 600));
	/* No repeated key (c, NULL, NULL): nothing. */
	pr_cp_replicate_sd(y + 5, key + 5, 3, &sd, &df);
	assert_int_equal(df, 0);
	assert_true(sd == 0);
}

/* A step in the last points is possible, with the points it needs; once
 * those points exist it is a change. */
static void
test_tail(void **state)
{
	struct pr_rng rng;
	double y[110];
	struct pr_cp_result r;
	struct pr_error err;
	size_t i;

	(void)state;
	pr_rng_seed(&rng, 5);
	for (i = 0; i < 110; i++)
		y[i] = 10 + 0.1 * pr_rng_normal(&rng) + (i >= 102 ? 1 : 0);
	assert_int_equal(pr_cp_detect(y, NULL, 104, NULL, &r, &err), PR_OK);
	assert_int_equal(r.nchanges, 0);
	assert_true(r.tail.possible);
	assert_int_equal(r.tail.index, 102);
	assert_int_equal(r.tail.needs, 3);
	pr_cp_result_release(&r);
	assert_int_equal(pr_cp_detect(y, NULL, 110, NULL, &r, &err), PR_OK);
	assert_int_equal(r.nchanges, 1);
	assert_int_equal(r.changes[0].index, 102);
	assert_false(r.tail.possible);
	pr_cp_result_release(&r);
}

/* A positive series whose level falls to a tenth after a rising trend:
 * the trend-adjusted step extrapolates below zero, but no change of a
 * positive figure is below -100%, nor is its interval's end, for a
 * confirmed change and a possible one alike.  (Before the rule the tail
 * of this series was said to change by about -150%.) */
static void
test_pct_floor(void **state)
{
	double y[20];
	struct pr_cp_result r;
	struct pr_error err;
	size_t i;

	(void)state;
	for (i = 0; i < 20; i++)
		y[i] = i < 10 ? 100 + 10 * (double)i + (i % 2 ? 0.5 : -0.5)
			      : 10 + (i % 2 ? 0.05 : -0.05);
	assert_int_equal(pr_cp_detect(y, NULL, 20, NULL, &r, &err), PR_OK);
	assert_true(r.nchanges >= 1);
	for (i = 0; i < r.nchanges; i++) {
		assert_true(r.changes[i].defined & PR_CP_PCT);
		assert_true(r.changes[i].change_pct >= -100);
		assert_true(r.changes[i].ci_lo_pct >= -100);
	}
	pr_cp_result_release(&r);
	assert_int_equal(pr_cp_detect(y, NULL, 12, NULL, &r, &err), PR_OK);
	assert_true(r.tail.possible);
	assert_true(r.tail.have_pct);
	assert_true(r.tail.change_pct >= -100 && r.tail.change_pct < -80);
	pr_cp_result_release(&r);
}

/* A point's own variance: the same step between noisy points is less
 * sure than between tight ones. */
static void
test_weights(void **state)
{
	struct pr_rng rng;
	double y[60], tight[60], loose[60];
	struct pr_cp_result a, b;
	struct pr_error err;
	size_t i;

	(void)state;
	pr_rng_seed(&rng, 3);
	for (i = 0; i < 60; i++) {
		y[i] = 100 + pr_rng_normal(&rng) + (i >= 30 ? 4 : 0);
		tight[i] = 0.01;
		loose[i] = i >= 25 && i < 35 ? 25 : 0.01;
	}
	assert_int_equal(pr_cp_detect(y, tight, 60, NULL, &a, &err), PR_OK);
	assert_int_equal(pr_cp_detect(y, loose, 60, NULL, &b, &err), PR_OK);
	assert_int_equal(a.nchanges, 1);
	assert_true(
	    b.nchanges == 0 || fabs(b.changes[0].z) < fabs(a.changes[0].z));
	pr_cp_result_release(&a);
	pr_cp_result_release(&b);
}

static void
test_errors(void **state)
{
	double y[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, v[8] = { 0 };
	struct pr_cp_result r;
	struct pr_cp_opts o;
	struct pr_error err;
	size_t *cps, ncps;
	double cost;

	(void)state;
	assert_int_equal(pr_cp_detect(y, NULL, 3, NULL, &r, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "at least 4 points"));
	y[5] = NAN;
	assert_int_equal(pr_cp_detect(y, NULL, 8, NULL, &r, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "point 6"));
	y[5] = 6;
	v[2] = -1;
	assert_int_equal(pr_cp_detect(y, v, 8, NULL, &r, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "point 3"));
	pr_cp_opts_init(&o);
	o.alpha = 0;
	assert_int_equal(pr_cp_detect(y, NULL, 8, &o, &r, &err), PR_EINVAL);
	pr_cp_opts_init(&o);
	o.min_segment = 1;
	assert_int_equal(pr_cp_detect(y, NULL, 8, &o, &r, &err), PR_EINVAL);
	assert_int_equal(pr_cp_segment(y, NULL, 8, -1, 1, &cps, &ncps, &cost,
			     &err),
	    PR_EINVAL);
	/* All equal: constant, nothing changes. */
	for (int i = 0; i < 8; i++)
		y[i] = 3;
	assert_int_equal(pr_cp_detect(y, NULL, 8, NULL, &r, &err), PR_OK);
	assert_true(r.constant);
	assert_true(r.all_equal);
	assert_int_equal(r.nchanges, 0);
	pr_cp_result_release(&r);
	pr_cp_result_release(&r); /* a released result releases again */
	/* A straight line is constant (no noise) but not all equal. */
	for (int i = 0; i < 8; i++)
		y[i] = 3 + 0.5 * i;
	assert_int_equal(pr_cp_detect(y, NULL, 8, NULL, &r, &err), PR_OK);
	assert_true(r.constant);
	assert_false(r.all_equal);
	pr_cp_result_release(&r);
}

/*
 * The O(1) step test from prefix sums (the backward elimination's, issue
 * 14) against the direct one on random windows of a random walk far from
 * 0, a white noise with steps, and a tiny noise on a large level (where
 * the direct test, before it took the values about the window's first,
 * was off by 1e-4 against numpy's lstsq): they must agree to rounding,
 * with the local trend a line and a parabola.
 */
static void
test_step_fast(void **state)
{
	enum { N = 3000 };
	struct pr_rng rng;
	double *y = malloc(N * sizeof(*y)), worst[2] = { 0, 0 };
	size_t i, k, tested[2] = { 0, 0 };
	int kind, quad;

	(void)state;
	assert_non_null(y);
	pr_rng_seed(&rng, 11);
	for (kind = 0; kind < 3; kind++) {
		double acc = 1e6;

		for (i = 0; i < N; i++) {
			acc += pr_rng_normal(&rng);
			if (kind == 0)
				y[i] = acc;
			else if (kind == 1)
				y[i] = pr_rng_normal(&rng) +
				    (double)(i / 300 % 2) * 2;
			else
				y[i] = 1e9 + 1e-3 * pr_rng_normal(&rng) +
				    (i >= N / 2 ? 1e-3 : 0);
		}
		for (k = 0; k < 400; k++) {
			size_t a = (size_t)pr_rng_below(&rng, N - 3);
			size_t b =
			    a + 3 + (size_t)pr_rng_below(&rng, N - a - 2);
			size_t c =
			    a + 1 + (size_t)pr_rng_below(&rng, b - a - 1);
			for (quad = 0; quad < 2; quad++) {
				double slow =
				    pr_cp_step_z2(y, N, a, c, b, quad, 0);
				double fast =
				    pr_cp_step_z2(y, N, a, c, b, quad, 1);
				double e;

				assert_true(fast >= 0);
				/* Three points leave no residual: both
				 * are rounding over rounding there; the
				 * detector tests the parabola from the
				 * sums from 64 points. */
				if (b - a < (quad ? 64 : 6))
					continue;
				e = fabs(fast - slow) / fmax(slow, 1e-3);
				if (e > worst[quad])
					worst[quad] = e;
				tested[quad]++;
			}
		}
	}
	for (quad = 0; quad < 2; quad++) {
		print_message("step test from sums (%s): %zu windows, worst "
			      "error %.3g\n",
		    quad ? "parabola" : "line", tested[quad], worst[quad]);
		assert_true(tested[quad] > 1000);
		assert_true(worst[quad] < 1e-6);
	}
	free(y);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_pruning_exact),
		cmocka_unit_test(test_false_alarms),
		cmocka_unit_test(test_spike_and_step),
		cmocka_unit_test(test_extreme_magnitudes),
		cmocka_unit_test(test_replicate_sd),
		cmocka_unit_test(test_tail),
		cmocka_unit_test(test_pct_floor),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_step_fast),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
