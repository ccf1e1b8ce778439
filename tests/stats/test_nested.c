/*
 * tests/stats/test_nested.c - the two-level (boot, run) comparison
 * (src/stats/nested.c).
 *
 * Reference values come from tests/stats/data/nested.txt, written by
 * tests/stats/gen_nested.py (exact fractions for the boot means and the
 * variance components, mpmath and scipy for Welch's t, its p-value and
 * Fieller's interval).  The rest checks what needs no reference: a
 * deterministic simulation in which the boot-level interval covers the
 * truth near its nominal rate while the run-level one does not, the
 * order of runs within a boot, the cap of the optimal runs per boot,
 * the untested case, and errors.
 *
 * The prediction test (pr_nested_predict) is checked against
 * tests/stats/data/predict.txt, written by tests/stats/gen_predict.py
 * (mpmath at 60 digits for t, p, the quantile and Fieller's roots,
 * cross-checked with scipy), by a simulation of sessions with a
 * session-level random effect (its false positives near 5% where the
 * sample-level test's are far above), by a report rendered from it, and
 * by its errors.
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

#include "perfreg/buf.h"
#include "perfreg/error.h"
#include "perfreg/nested.h"
#include "perfreg/report.h"
#include "perfreg/rng.h"
#include "perfreg/sample.h"
#include "perfreg/verdict.h"

#define FIXTURE "tests/stats/data/nested.txt"
#define MAXTOK 16

struct side {
	double *x;
	size_t *g;
	size_t n;
};

struct tcase {
	char name[64];
	enum pr_better better;
	double conf, eq, cost;
	struct side s[2];
	char *desc[2], *cmp;
	int line;
};

/* Agreement to tol relative to max(|want|, scale). */
static void
close_to(double got, double want, double tol, double scale,
    const struct tcase *c, const char *what)
{
	double m = fabs(want) > scale ? fabs(want) : scale;

	if (!(fabs(got - want) <= tol * m))
		fail_msg("%s:%d: %s: %s: got %.17g, want %.17g", FIXTURE,
		    c->line, c->name, what, got, want);
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
side_free(struct side *s)
{
	free(s->x);
	free(s->g);
	memset(s, 0, sizeof(*s));
}

static void
side_alloc(struct side *s, size_t n)
{
	s->n = n;
	s->x = malloc(n * sizeof(*s->x));
	s->g = malloc(n * sizeof(*s->g));
	assert_non_null(s->x);
	assert_non_null(s->g);
}

/* "list N G:X ..." or "form N G K SCALE OFF BK BSCALE" (see the
 * generator; the expression is evaluated in the same order). */
static void
parse_side(char *text, struct side *s)
{
	char *save, *p = strtok_r(text, " \n", &save), *end;
	size_t i, n, ng, b;
	unsigned long k, bk;
	double scale, off, bscale;

	assert_non_null(p);
	if (strcmp(p, "form") == 0) {
		n = (size_t)num(strtok_r(NULL, " ", &save));
		ng = (size_t)num(strtok_r(NULL, " ", &save));
		k = (unsigned long)num(strtok_r(NULL, " ", &save));
		scale = num(strtok_r(NULL, " ", &save));
		off = num(strtok_r(NULL, " ", &save));
		bk = (unsigned long)num(strtok_r(NULL, " ", &save));
		bscale = num(strtok_r(NULL, " \n", &save));
		side_alloc(s, n);
		for (i = 0; i < n; i++) {
			b = i * ng / n;
			s->g[i] = b;
			s->x[i] = off +
			    bscale * ((double)((b * bk) % 101) / 101.0) +
			    scale * ((double)((i * k) % 10007) / 10007.0);
		}
		return;
	}
	assert_string_equal(p, "list");
	n = (size_t)num(strtok_r(NULL, " \n", &save));
	side_alloc(s, n);
	for (i = 0; i < n; i++) {
		p = strtok_r(NULL, " \n", &save);
		assert_non_null(p);
		s->g[i] = (size_t)strtoull(p, &end, 10);
		assert_true(*end == ':');
		s->x[i] = num(end + 1);
	}
}

static char *
dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	assert_non_null(d);
	memcpy(d, s, n);
	return d;
}

/* Reads the next case of f into c; 0 at the end of the file. */
static int
read_case(FILE *f, int *line, struct tcase *c)
{
	char *buf = NULL, *p, *save;
	size_t cap = 0;
	int side;
	char better[16];

	memset(c, 0, sizeof(*c));
	while (getline(&buf, &cap, f) > 0) {
		++*line;
		if (buf[0] == '#')
			continue;
		if (strncmp(buf, "case ", 5) == 0) {
			assert_int_equal(sscanf(buf,
					     "case %63s %15s %lf %lf %lf",
					     c->name, better, &c->conf, &c->eq,
					     &c->cost),
			    5);
			c->better = strcmp(better, "higher") == 0
			    ? PR_BETTER_HIGHER
			    : PR_BETTER_LOWER;
			c->line = *line;
		} else if (strncmp(buf, "side ", 5) == 0) {
			side = strncmp(buf + 5, "base ", 5) == 0 ? 0 : 1;
			p = strchr(buf + 5, ' ');
			assert_non_null(p);
			parse_side(p + 1, &c->s[side]);
		} else if (strncmp(buf, "desc ", 5) == 0) {
			side = strncmp(buf + 5, "base ", 5) == 0 ? 0 : 1;
			p = strchr(buf + 5, ' ');
			assert_non_null(p);
			c->desc[side] = dup(p + 1);
		} else if (strncmp(buf, "cmp ", 4) == 0) {
			c->cmp = dup(buf + 4);
		} else if (strncmp(buf, "end", 3) == 0) {
			free(buf);
			return 1;
		} else {
			p = strtok_r(buf, " \n", &save);
			fail_msg("%s:%d: unknown line '%s'", FIXTURE, *line,
			    p != NULL ? p : "");
		}
	}
	free(buf);
	return 0;
}

static void
case_free(struct tcase *c)
{
	side_free(&c->s[0]);
	side_free(&c->s[1]);
	free(c->desc[0]);
	free(c->desc[1]);
	free(c->cmp);
}

/* Splits a copy of s into at most MAXTOK tokens. */
static int
split(const char *s, char *copy, size_t size, char **tok)
{
	char *p, *save;
	int n = 0;

	snprintf(copy, size, "%s", s);
	for (p = strtok_r(copy, " \n", &save); p != NULL && n < MAXTOK;
	     p = strtok_r(NULL, " \n", &save))
		tok[n++] = p;
	return n;
}

/* A figure with its bit in defined, or '-' with the bit clear and 0. */
static void
check_fig(const struct tcase *c, const char *want, double got, unsigned defined,
    unsigned bit, double tol, double scale, const char *what)
{
	if (strcmp(want, "-") == 0) {
		if (defined & bit)
			fail_msg("%s:%d: %s: %s is defined (%.17g), want '-'",
			    FIXTURE, c->line, c->name, what, got);
		assert_true(got == 0);
		return;
	}
	if (!(defined & bit))
		fail_msg("%s:%d: %s: %s is not defined, want %s", FIXTURE,
		    c->line, c->name, what, want);
	close_to(got, num(want), tol, scale, c, what);
}

static void
check_desc(const struct tcase *c, const char *want,
    const struct pr_nested_desc *d)
{
	char copy[1024], *t[MAXTOK];
	double scale;

	assert_int_equal(split(want, copy, sizeof(copy), t), 10);
	assert_int_equal(d->n, (size_t)num(t[0]));
	assert_int_equal(d->ngroups, (size_t)num(t[1]));
	assert_int_equal(d->runs_min, (size_t)num(t[2]));
	assert_int_equal(d->runs_max, (size_t)num(t[3]));
	close_to(d->mean, num(t[4]), 1e-14, 0, c, "mean of boot means");
	check_fig(c, t[5], d->var_means, d->defined, PR_NESTED_VAR_MEANS, 1e-12,
	    0, "variance of boot means");
	check_fig(c, t[6], d->var_within, d->defined, PR_NESTED_VAR_WITHIN,
	    1e-12, 0, "within-boot variance");
	/* T_2^2 is a difference: its error is relative to the terms. */
	scale = d->var_means > d->var_within ? d->var_means : d->var_within;
	check_fig(c, t[7], d->var_between, d->defined, PR_NESTED_VAR_BETWEEN,
	    1e-12, scale, "between-boot variance");
	check_fig(c, t[8], d->icc, d->defined, PR_NESTED_ICC, 1e-11, 1e-3,
	    "boot share (icc)");
	if (strcmp(t[9], "-") == 0) {
		assert_false(d->defined & PR_NESTED_RUNS_OPT);
		assert_int_equal(d->runs_per_boot_opt, 0);
	} else {
		assert_true(d->defined & PR_NESTED_RUNS_OPT);
		if (d->runs_per_boot_opt != (size_t)num(t[9]))
			fail_msg("%s:%d: %s: runs per boot %zu, want %s",
			    FIXTURE, c->line, c->name, d->runs_per_boot_opt,
			    t[9]);
	}
}

static void
check_cmp(const struct tcase *c, const struct pr_nested_result *r)
{
	const struct pr_comparison *m = &r->cmp;
	char copy[1024], *t[MAXTOK];
	double p, k;

	assert_int_equal(split(c->cmp, copy, sizeof(copy), t), 11);
	assert_int_equal(r->single_boot, (int)num(t[0]));
	assert_int_equal(m->tested, (int)num(t[1]));
	close_to(m->base.mean, num(t[2]), 1e-14, 0, c, "base mean");
	close_to(m->new.mean, num(t[3]), 1e-14, 0, c, "new mean");
	assert_string_equal(pr_verdict_str(m->verdict), t[10]);
	if (!m->tested)
		return;
	assert_int_equal(m->method, PR_METHOD_WELCH);
	/*
	 * The means are doubles: at a large offset (1e9 + 100) their
	 * rounding alone moves the difference, and all that rests on it,
	 * by about DBL_EPSILON * |mean| / |diff|.
	 */
	k = fabs(num(t[3]) - num(t[2]));
	k = k > 0 ? 1e-15 * fabs(num(t[2])) / k : 0;
	close_to(m->primary_t.t, num(t[4]), 1e-10 + k, 0, c, "t");
	close_to(m->primary_t.df, num(t[5]), 1e-10, 0, c, "df");
	p = num(t[6]);
	if (p == 0) {
		if (!(m->p_value <= 1e-300))
			fail_msg("%s:%d: %s: p %.17g, want 0", FIXTURE, c->line,
			    c->name, m->p_value);
	} else {
		close_to(m->p_value, p, 1e-9 + 100 * k, 0, c, "p");
	}
	assert_true(m->have_change);
	assert_true(m->have_ci);
	close_to(m->change_pct, num(t[7]), 1e-10 + k, 1e-3, c, "change");
	close_to(m->ci_lo_pct, num(t[8]), 1e-9 + k, 1e-3, c, "interval low");
	close_to(m->ci_hi_pct, num(t[9]), 1e-9 + k, 1e-3, c, "interval high");
}

static void
test_fixture(void **state)
{
	struct pr_nested_side sb, sn;
	struct pr_nested_desc d;
	struct pr_nested_result r;
	struct pr_verdict_opts o;
	struct pr_error err;
	struct tcase c;
	FILE *f = fopen(FIXTURE, "r");
	int line = 0, ncase = 0, single = 0;

	(void)state;
	assert_non_null(f);
	while (read_case(f, &line, &c)) {
		assert_non_null(c.desc[0]);
		assert_non_null(c.desc[1]);
		assert_non_null(c.cmp);
		sb = (struct pr_nested_side){ c.s[0].x, c.s[0].g, c.s[0].n };
		sn = (struct pr_nested_side){ c.s[1].x, c.s[1].g, c.s[1].n };
		assert_int_equal(pr_nested_describe(&sb, "base", c.cost, &d,
				     &err),
		    PR_OK);
		check_desc(&c, c.desc[0], &d);
		assert_int_equal(pr_nested_describe(&sn, "new", c.cost, &d,
				     &err),
		    PR_OK);
		check_desc(&c, c.desc[1], &d);
		pr_verdict_opts_init(&o);
		o.conf = c.conf;
		o.equivalence_pct = c.eq;
		if (pr_nested_compare(&sb, &sn, c.better, &o, c.cost, &r,
			&err) != PR_OK)
			fail_msg("%s:%d: %s: %s", FIXTURE, c.line, c.name,
			    err.msg);
		check_desc(&c, c.desc[0], &r.base);
		check_desc(&c, c.desc[1], &r.new_);
		check_cmp(&c, &r);
		single += r.single_boot;
		ncase++;
		case_free(&c);
	}
	case_free(&c);
	fclose(f);
	assert_true(ncase >= 10);
	assert_true(single >= 2);
}

/*
 * Simulation: 400 A/A comparisons of 5 boots x 10 runs a side, boot
 * effect sd 1, run noise sd 0.5, around 100.  The boot-level interval
 * must cover the true change (0%) near its 95%; the run-level one,
 * which takes the 50 correlated runs as independent, is far too narrow.
 */
static void
test_coverage(void **state)
{
	enum { TRIALS = 400, BOOTS = 5, RUNS = 10, N = BOOTS * RUNS };
	double x[2][N], sorted[2][N];
	size_t g[N];
	struct pr_nested_side s[2];
	struct pr_nested_result r;
	struct pr_comparison naive;
	struct pr_verdict_opts o;
	struct pr_error err;
	struct pr_rng rng;
	int trial, side, j, k, nested_cov = 0, naive_cov = 0;
	double b;

	(void)state;
	pr_verdict_opts_init(&o);
	o.method = PR_METHOD_WELCH;
	o.flags = PR_VERDICT_PRIMARY_ONLY;
	pr_rng_seed(&rng, 20261130);
	for (j = 0; j < N; j++)
		g[j] = (size_t)(j / RUNS);
	for (trial = 0; trial < TRIALS; trial++) {
		for (side = 0; side < 2; side++) {
			for (j = 0; j < BOOTS; j++) {
				b = 100 + pr_rng_normal(&rng);
				for (k = 0; k < RUNS; k++)
					x[side][j * RUNS + k] =
					    b + 0.5 * pr_rng_normal(&rng);
			}
			s[side] = (struct pr_nested_side){ x[side], g, N };
			memcpy(sorted[side], x[side], sizeof(x[side]));
			pr_sort_doubles(sorted[side], N);
		}
		assert_int_equal(pr_nested_compare(&s[0], &s[1],
				     PR_BETTER_LOWER, &o, 10, &r, &err),
		    PR_OK);
		assert_false(r.single_boot);
		assert_true(r.cmp.have_ci);
		nested_cov += r.cmp.ci_lo_pct <= 0 && r.cmp.ci_hi_pct >= 0;
		assert_int_equal(pr_compare(sorted[0], N, sorted[1], N,
				     PR_BETTER_LOWER, &o, &naive, &err),
		    PR_OK);
		assert_true(naive.have_ci);
		naive_cov += naive.ci_lo_pct <= 0 && naive.ci_hi_pct >= 0;
		/* The boot effect dominates: its share is estimated large. */
		assert_true(r.base.defined & PR_NESTED_ICC);
	}
	print_message("coverage of 95%% intervals over %d trials: boots "
		      "%.3f, runs %.3f\n",
	    TRIALS, (double)nested_cov / TRIALS, (double)naive_cov / TRIALS);
	assert_true(nested_cov >= 0.90 * TRIALS);
	assert_true(naive_cov < 0.80 * TRIALS);
}

/* The order of the runs within a boot does not matter; boot sizes do
 * not weigh the boot means. */
static void
test_invariance(void **state)
{
	double xa[] = { 10.1, 10.3, 10.2, 11.05, 10.95, 11.0, 10.52 };
	double xb[] = { 10.3, 10.1, 10.2, 11.0, 11.05, 10.95, 10.52 };
	double xn[] = { 11.31, 11.42, 11.9, 11.83, 11.22, 11.18 };
	/* The third boot repeated: its mean unchanged, more runs. */
	double xc[] = { 10.1, 10.3, 10.2, 11.05, 10.95, 11.0, 10.52, 10.52,
		10.52, 10.52 };
	size_t ga[] = { 0, 0, 0, 1, 1, 1, 2 };
	size_t gn[] = { 0, 0, 1, 1, 2, 2 };
	size_t gc[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2, 2 };
	struct pr_nested_side a = { xa, ga, 7 }, b = { xb, ga, 7 };
	struct pr_nested_side c = { xc, gc, 10 }, n = { xn, gn, 6 };
	struct pr_nested_result ra, rb, rc;

	(void)state;
	assert_int_equal(pr_nested_compare(&a, &n, PR_BETTER_LOWER, NULL, 0,
			     &ra, NULL),
	    PR_OK);
	assert_int_equal(pr_nested_compare(&b, &n, PR_BETTER_LOWER, NULL, 0,
			     &rb, NULL),
	    PR_OK);
	assert_int_equal(pr_nested_compare(&c, &n, PR_BETTER_LOWER, NULL, 0,
			     &rc, NULL),
	    PR_OK);
	assert_true(fabs(ra.cmp.change_pct - rb.cmp.change_pct) <= 1e-12);
	assert_true(fabs(ra.cmp.p_value - rb.cmp.p_value) <= 1e-12);
	assert_true(fabs(ra.cmp.change_pct - rc.cmp.change_pct) <= 1e-12);
	assert_true(fabs(ra.cmp.ci_lo_pct - rc.cmp.ci_lo_pct) <= 1e-12);
	assert_true(fabs(ra.cmp.p_value - rc.cmp.p_value) <= 1e-12);
	/* Boot cost 0: no optimum; the within variance differs. */
	assert_false(ra.base.defined & PR_NESTED_RUNS_OPT);
	assert_int_equal(rc.base.runs_max, 4);
	assert_int_equal(rc.base.runs_min, 3);
}

/*
 * The two-level worked example of Kalibera and Jones (3 executions of 4
 * iterations), with the figures the paper prints to one decimal: mean
 * 6.5, S_1^2 = T_1^2 = 12.7, S_2^2 = 3.6, T_2^2 = 0.4.  With a boot
 * costing 20 / 3 runs, sqrt(20/3 * 12.722 / 0.38194) = 14.90: 15 runs.
 */
static void
test_kj_example(void **state)
{
	double x[] = { 9, 5, 8, 3, 10, 6, 7, 11, 1, 12, 2, 4 };
	size_t g[] = { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2 };
	struct pr_nested_side s = { x, g, 12 };
	struct pr_nested_desc d;

	(void)state;
	assert_int_equal(pr_nested_describe(&s, NULL, 20.0 / 3, &d, NULL),
	    PR_OK);
	assert_int_equal(d.ngroups, 3);
	assert_true(fabs(d.mean - 6.5) < 1e-12);
	assert_true(fabs(d.var_within - 12.7) < 0.05);
	assert_true(fabs(d.var_means - 3.6) < 0.05);
	assert_true(fabs(d.var_between - 0.4) < 0.05);
	assert_int_equal(d.runs_per_boot_opt, 15);
}

/* A huge boot cost: the optimum is capped. */
static void
test_runs_cap(void **state)
{
	double x[] = { 10.1, 10.3, 10.2, 11.05, 10.95, 11.0, 10.52, 10.61,
		10.49 };
	size_t g[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2 };
	struct pr_nested_side s = { x, g, 9 };
	struct pr_nested_desc d;

	(void)state;
	assert_int_equal(pr_nested_describe(&s, NULL, 1e15, &d, NULL), PR_OK);
	assert_true(d.defined & PR_NESTED_RUNS_OPT);
	assert_int_equal(d.runs_per_boot_opt, PR_NESTED_RUNS_MAX);
	/* sqrt(100 * 0.0054667 / 0.15938) = 1.85: 2 runs. */
	assert_int_equal(pr_nested_describe(&s, NULL, 100, &d, NULL), PR_OK);
	assert_int_equal(d.runs_per_boot_opt, 2);
}

/* One run in one boot: nothing to test, and the report must say so. */
static void
test_untested(void **state)
{
	double xb[] = { 7.1 }, xn[] = { 7.0, 7.2, 7.3, 7.1 };
	size_t gb[] = { 0 }, gn[] = { 0, 0, 1, 1 };
	struct pr_nested_side b = { xb, gb, 1 }, n = { xn, gn, 4 };
	struct pr_nested_result r;

	(void)state;
	assert_int_equal(pr_nested_compare(&b, &n, PR_BETTER_LOWER, NULL, 1, &r,
			     NULL),
	    PR_OK);
	assert_true(r.single_boot);
	assert_false(r.cmp.tested);
	assert_int_equal(r.cmp.verdict, PR_VERDICT_INCONCLUSIVE);
	assert_true(r.cmp.notes & PR_NOTE_UNTESTED);
	assert_int_equal(r.base.defined, 0);
	assert_true(fabs(r.cmp.change_pct - 100 * (7.15 - 7.1) / 7.1) < 1e-12);
}

static void
expect_error(const struct pr_nested_side *b, const struct pr_nested_side *n,
    double cost, enum pr_status want, const char *msg)
{
	struct pr_nested_result r;
	struct pr_error err;

	memset(&r, 0xff, sizeof(r));
	pr_error_clear(&err);
	assert_int_equal(pr_nested_compare(b, n, PR_BETTER_LOWER, NULL, cost,
			     &r, &err),
	    want);
	assert_string_equal(err.msg, msg);
	assert_int_equal(r.single_boot, 0);
	assert_int_equal(r.cmp.verdict, PR_VERDICT_INCONCLUSIVE);
	assert_true(r.base.n == 0 && r.new_.ngroups == 0);
}

static void
test_errors(void **state)
{
	double x[] = { 1, 2, 3, 4 }, bad[] = { 1, 2, NAN, 4 };
	size_t g[] = { 0, 0, 1, 1 }, down[] = { 0, 1, 1, 0 };
	struct pr_nested_side ok = { x, g, 4 }, empty = { x, g, 0 };
	struct pr_nested_side nan = { bad, g, 4 }, unordered = { x, down, 4 };
	struct pr_nested_side nogroup = { x, NULL, 4 };
	struct pr_nested_desc d;
	struct pr_verdict_opts o;
	struct pr_nested_result r;

	(void)state;
	expect_error(&empty, &ok, 1, PR_EINVAL,
	    "base has no values to compare");
	expect_error(&ok, &nogroup, 1, PR_EINVAL,
	    "new has no values to compare");
	expect_error(&ok, NULL, 1, PR_EINVAL, "new has no values to compare");
	expect_error(&ok, &nan, 1, PR_EINVAL, "new value 3 is not finite");
	expect_error(&unordered, &ok, 1, PR_EINVAL,
	    "base value 4: boot 0 after boot 1, values must be ordered by "
	    "boot");
	expect_error(&ok, &ok, -1, PR_EINVAL,
	    "cost of a boot must be a finite number of runs >= 0, got -1");
	expect_error(&ok, &ok, INFINITY, PR_EINVAL,
	    "cost of a boot must be a finite number of runs >= 0, got inf");
	assert_int_equal(pr_nested_describe(&nan, "new", 1, &d, NULL),
	    PR_EINVAL);
	assert_int_equal(d.n, 0);
	/* pr_compare's own checks still apply. */
	pr_verdict_opts_init(&o);
	o.conf = 1.5;
	assert_int_equal(pr_nested_compare(&ok, &ok, PR_BETTER_LOWER, &o, 1, &r,
			     NULL),
	    PR_EINVAL);
	/* Overflowing spread. */
	{
		double big[] = { -1e300, 1e300, 0, 1 };
		struct pr_nested_side s = { big, g, 4 };

		expect_error(&s, &ok, 1, PR_ERANGE,
		    "base: the spread within boots overflows");
	}
}

#define PFIXTURE "tests/stats/data/predict.txt"
#define PMAX 64

static double
pnum(const char *s, int line)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '\0')
		fail_msg("%s:%d: bad number '%s'", PFIXTURE, line, s);
	return v;
}

/* got within tol of want relative to max(|want|, scale). */
static void
pnear(double got, const char *want, double tol, double scale, int line,
    const char *name, const char *what)
{
	double w = pnum(want, line), m = fabs(w) > scale ? fabs(w) : scale;

	if (!(fabs(got - w) <= tol * m))
		fail_msg("%s:%d: %s: %s: got %.17g, want %s", PFIXTURE, line,
		    name, what, got, want);
}

static unsigned
pnotes(const char *s)
{
	static const struct {
		const char *name;
		unsigned bit;
	} tab[] = {
		{ "NO_CI", PR_NOTE_NO_CI },
		{ "NO_CHANGE", PR_NOTE_NO_CHANGE },
		{ "DEGENERATE", PR_NOTE_DEGENERATE },
		{ "UNTESTED", PR_NOTE_UNTESTED },
		{ "NEGLIGIBLE", PR_NOTE_NEGLIGIBLE },
		{ "ASSUMED", PR_NOTE_DIRECTION_ASSUMED },
	};
	unsigned bits = 0;
	size_t i, n;

	while (*s != '\0' && strcmp(s, "-") != 0) {
		n = strcspn(s, "|");
		for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
			if (strlen(tab[i].name) == n &&
			    strncmp(s, tab[i].name, n) == 0)
				break;
		assert_true(i < sizeof(tab) / sizeof(tab[0]));
		bits |= tab[i].bit;
		s += n + (s[n] == '|');
	}
	return bits;
}

/* One case: "case NAME BETTER CONF EQ X K B..." and its "want" line. */
static void
check_predict_case(char *cline, char *wline, int line)
{
	char *tok[PMAX + 8], *want[12], *save, *p;
	struct pr_verdict_opts o;
	struct pr_comparison c;
	struct pr_error err;
	double base[PMAX], x;
	enum pr_better better;
	const char *name;
	size_t k, i;
	int n = 0, nw = 0;
	unsigned bits;

	for (p = strtok_r(cline, " \n", &save); p != NULL && n < PMAX + 8;
	     p = strtok_r(NULL, " \n", &save))
		tok[n++] = p;
	for (p = strtok_r(wline, " \n", &save); p != NULL && nw < 12;
	     p = strtok_r(NULL, " \n", &save))
		want[nw++] = p;
	assert_true(n >= 7);
	assert_int_equal(nw, 10);
	assert_string_equal(want[0], "want");
	name = tok[1];
	better = strcmp(tok[2], "higher") == 0 ? PR_BETTER_HIGHER
	    : strcmp(tok[2], "lower") == 0     ? PR_BETTER_LOWER
					       : PR_BETTER_UNKNOWN;
	pr_verdict_opts_init(&o);
	o.conf = pnum(tok[3], line);
	o.equivalence_pct = pnum(tok[4], line);
	x = pnum(tok[5], line);
	k = (size_t)pnum(tok[6], line);
	assert_true(k <= PMAX && (size_t)n == 7 + k);
	for (i = 0; i < k; i++)
		base[i] = pnum(tok[7 + i], line);
	if (pr_nested_predict(base, k, x, better, &o, &c, &err) != PR_OK)
		fail_msg("%s:%d: %s: %s", PFIXTURE, line, name, err.msg);

	/* What every prediction comparison is. */
	assert_int_equal(c.base.n, k);
	assert_int_equal(c.new.n, 1);
	assert_true(c.new.mean == x);
	assert_int_equal(c.better, better);
	assert_true(c.conf == o.conf && c.equivalence_pct == o.equivalence_pct);
	assert_int_equal(c.runs_needed, 0);
	assert_true(c.rel_sd == 0);
	assert_int_equal(c.have_student | c.have_welch | c.have_mwu |
		c.have_ratio_means,
	    0);
	assert_true(c.p_adjusted == c.p_value);
	assert_true(c.primary_t.df == (double)(k - 1));
	assert_true(c.primary_t.diff == x - c.base.mean);
	assert_int_equal(c.direction, (x > c.base.mean) - (x < c.base.mean));
	assert_int_equal(c.tested, atoi(want[1]));
	if (c.tested) {
		assert_int_equal(c.method, PR_METHOD_STUDENT);
		assert_int_equal(c.holm_m, 1);
	} else {
		assert_int_equal(c.method, PR_METHOD_NONE);
		assert_int_equal(c.holm_m, 0);
	}
	pnear(c.primary_t.t, want[2], 1e-12, 1e-300, line, name, "t");
	pnear(c.primary_t.df, want[3], 0, 0, line, name, "df");
	pnear(c.p_value, want[4], 1e-9, 1e-300, line, name, "p");
	if (strcmp(want[5], "-") == 0) {
		assert_int_equal(c.have_change, 0);
		assert_true(c.change_pct == 0);
	} else {
		assert_int_equal(c.have_change, 1);
		pnear(c.change_pct, want[5], 1e-12, 1e-5, line, name, "change");
	}
	if (strcmp(want[6], "-") == 0) {
		assert_int_equal(c.have_ci, 0);
		assert_true(c.ci_lo_pct == 0 && c.ci_hi_pct == 0);
	} else {
		assert_int_equal(c.have_ci, 1);
		pnear(c.ci_lo_pct, want[6], 1e-11, 1e-5, line, name, "ci lo");
		pnear(c.ci_hi_pct, want[7], 1e-11, 1e-5, line, name, "ci hi");
		/* The interval and the test agree. */
		assert_int_equal(c.ci_lo_pct > 0 || c.ci_hi_pct < 0,
		    c.p_value < 1 - o.conf);
	}
	if (strcmp(pr_verdict_str(c.verdict), want[8]) != 0)
		fail_msg("%s:%d: %s: verdict %s, want %s", PFIXTURE, line, name,
		    pr_verdict_str(c.verdict), want[8]);
	bits = pnotes(want[9]);
	if (c.notes != bits)
		fail_msg("%s:%d: %s: notes %#x, want %#x", PFIXTURE, line, name,
		    c.notes, bits);
}

static void
test_predict_fixture(void **state)
{
	FILE *f = fopen(PFIXTURE, "r");
	char *cl = NULL, *wl = NULL;
	size_t ccap = 0, wcap = 0;
	int line = 0, cases = 0;

	(void)state;
	assert_non_null(f);
	while (getline(&cl, &ccap, f) > 0) {
		line++;
		if (cl[0] == '#')
			continue;
		assert_true(strncmp(cl, "case ", 5) == 0);
		assert_true(getline(&wl, &wcap, f) > 0);
		line++;
		check_predict_case(cl, wl, line - 1);
		cases++;
	}
	free(cl);
	free(wl);
	fclose(f);
	assert_true(cases >= 20);
}

/*
 * Sessions with a session-level random effect: each session's samples
 * are mu + u_s + e, u_s ~ N(0, 1) for the session and e ~ N(0, 1) for
 * the sample.  Nothing changes between the sessions, so every
 * "significant" result is a false positive.  The prediction test on the
 * session means keeps its 5% level; Welch's t on the samples as if
 * independent (what comparing sessions sample by sample does) does not.
 */
#define SIM_TRIALS 2000
#define SIM_K 5
#define SIM_N 20

static void
test_predict_sim(void **state)
{
	struct pr_verdict_opts o, ow;
	struct pr_comparison c;
	struct pr_rng rng;
	double means[SIM_K], all[SIM_K * SIM_N], nv[SIM_N], u, sum;
	size_t t, s, i, fp_pred = 0, fp_samples = 0;

	(void)state;
	pr_rng_seed(&rng, 20261130);
	pr_verdict_opts_init(&o);
	ow = o;
	ow.method = PR_METHOD_WELCH;
	ow.flags = PR_VERDICT_PRIMARY_ONLY;
	for (t = 0; t < SIM_TRIALS; t++) {
		for (s = 0; s <= SIM_K; s++) {
			u = pr_rng_normal(&rng);
			sum = 0;
			for (i = 0; i < SIM_N; i++) {
				double v = 100 + u + pr_rng_normal(&rng);

				sum += v;
				if (s < SIM_K)
					all[s * SIM_N + i] = v;
				else
					nv[i] = v;
			}
			if (s < SIM_K)
				means[s] = sum / SIM_N;
		}
		assert_int_equal(pr_nested_predict(means, SIM_K, sum / SIM_N,
				     PR_BETTER_LOWER, &o, &c, NULL),
		    PR_OK);
		fp_pred += c.p_value < 0.05;
		pr_sort_doubles(all, SIM_K * SIM_N);
		pr_sort_doubles(nv, SIM_N);
		assert_int_equal(pr_compare(all, SIM_K * SIM_N, nv, SIM_N,
				     PR_BETTER_LOWER, &ow, &c, NULL),
		    PR_OK);
		fp_samples += c.p_value < 0.05;
	}
	printf("false positives at 5%% over %d trials: sessions %.3f, "
	       "samples %.3f\n",
	    SIM_TRIALS, (double)fp_pred / SIM_TRIALS,
	    (double)fp_samples / SIM_TRIALS);
	/* Binomial sd of the rate at 5% over 2000 trials: 0.49 points. */
	if (!(fp_pred >= SIM_TRIALS * 3 / 100 &&
		fp_pred <= SIM_TRIALS * 7 / 100))
		fail_msg("prediction test: %zu false positives in %d", fp_pred,
		    SIM_TRIALS);
	if (!(fp_samples >= SIM_TRIALS * 30 / 100))
		fail_msg("sample-level test: only %zu false positives in %d",
		    fp_samples, SIM_TRIALS);
}

static int
has_ci(const char *hay, const char *needle)
{
	size_t i, n = strlen(needle);

	for (; *hay != '\0'; hay++) {
		for (i = 0; i < n && hay[i] != '\0' &&
		     (hay[i] | 0x20) == (needle[i] | 0x20);
		     i++)
			;
		if (i == n)
			return 1;
	}
	return 0;
}

static char *
render_predict(const struct pr_report *r, enum pr_report_format f)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	struct pr_error err;

	assert_int_equal(pr_report_compare(&b, r, f, &err), PR_OK);
	assert_non_null(b.data);
	return pr_buf_detach(&b, NULL);
}

/* A report of prediction comparisons: no NaN, no spread for new. */
static void
test_predict_report(void **state)
{
	double base[] = { 2012.5, 1990.25, 2003.0, 1998.75, 2007.5 };
	double same[] = { 5.0, 5.0, 5.0 };
	struct pr_report_metric m[3];
	struct pr_report r;
	enum pr_report_format fmts[] = { PR_REPORT_TEXT, PR_REPORT_JSON };
	char *txt;
	size_t i;

	(void)state;
	memset(m, 0, sizeof(m));
	m[0].name = "ops";
	m[0].unit = "ops/s";
	assert_int_equal(pr_nested_predict(base, 5, 1850, PR_BETTER_HIGHER,
			     NULL, &m[0].cmp, NULL),
	    PR_OK);
	m[1].name = "time";
	m[1].unit = "s";
	assert_int_equal(pr_nested_predict(base, 2, 2001, PR_BETTER_LOWER, NULL,
			     &m[1].cmp, NULL),
	    PR_OK);
	m[2].name = "flat";
	m[2].unit = "";
	assert_int_equal(pr_nested_predict(same, 3, 6, PR_BETTER_LOWER, NULL,
			     &m[2].cmp, NULL),
	    PR_OK);
	memset(&r, 0, sizeof(r));
	r.conf = 0.95;
	r.equivalence_pct = 1.0;
	r.metrics = m;
	r.n = 3;
	r.units = "sessions";
	for (i = 0; i < 2; i++) {
		txt = render_predict(&r, fmts[i]);
		if (getenv("PERFREG_SHOW_REPORT") != NULL)
			fputs(txt, stdout);
		if (has_ci(txt, "nan") || has_ci(txt, "inf\"") ||
		    has_ci(txt, " inf") || has_ci(txt, "e+308"))
			fail_msg("report %zu shows garbage:\n%s", i, txt);
		assert_true(has_ci(txt, "regression"));
		assert_true(has_ci(txt, "7.6"));
		/* The new side, one session, has no spread to show. */
		if (fmts[i] == PR_REPORT_JSON)
			assert_true(has_ci(txt,
			    "\"new\": {\n        "
			    "\"n\": 1,\n        \"mean\": 1850.0,\n        "
			    "\"median\": 1850.0,\n        \"stddev\": null"));
		else
			assert_true(has_ci(txt, "1.850 kops/s "));
		/* Equal base means: no test, and the report says why. */
		if (fmts[i] == PR_REPORT_TEXT)
			assert_true(has_ci(txt,
			    "the base values are all "
			    "equal: their spread, and so the noise, is "
			    "unknown"));
		free(txt);
	}
}

/* Holm over prediction comparisons: p adjusted, runs_needed stays 0. */
static void
test_predict_holm(void **state)
{
	double base[] = { 10.0, 10.2, 9.9, 10.1 };
	double same[] = { 1.0, 1.0 };
	struct pr_comparison c[3];

	(void)state;
	assert_int_equal(pr_nested_predict(base, 4, 10.6, PR_BETTER_LOWER, NULL,
			     &c[0], NULL),
	    PR_OK);
	assert_int_equal(pr_nested_predict(base, 4, 10.25, PR_BETTER_LOWER,
			     NULL, &c[1], NULL),
	    PR_OK);
	assert_int_equal(pr_nested_predict(same, 2, 2, PR_BETTER_LOWER, NULL,
			     &c[2], NULL),
	    PR_OK);
	pr_compare_holm(c, 3, NULL);
	assert_int_equal(c[0].holm_m, 2);
	assert_int_equal(c[2].holm_m, 0);
	assert_true(c[0].p_adjusted >= c[0].p_value);
	assert_true(c[0].p_adjusted == 2 * c[0].p_value ||
	    c[1].p_adjusted == 2 * c[1].p_value);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(c[i].runs_needed, 0);
	assert_int_equal(c[2].verdict, PR_VERDICT_INCONCLUSIVE);
}

/* Order of the base sessions and the scale of the data do not matter. */
static void
test_predict_invariance(void **state)
{
	double base[] = { 7.25, 7.5, 7.0, 7.375, 7.125, 7.3125 };
	double perm[] = { 7.3125, 7.0, 7.375, 7.25, 7.125, 7.5 };
	double scaled[6];
	struct pr_comparison a, b, c;
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++)
		scaled[i] = base[i] * 1024;
	assert_int_equal(pr_nested_predict(base, 6, 8.0, PR_BETTER_LOWER, NULL,
			     &a, NULL),
	    PR_OK);
	assert_int_equal(pr_nested_predict(perm, 6, 8.0, PR_BETTER_LOWER, NULL,
			     &b, NULL),
	    PR_OK);
	assert_int_equal(pr_nested_predict(scaled, 6, 8.0 * 1024,
			     PR_BETTER_LOWER, NULL, &c, NULL),
	    PR_OK);
	assert_int_equal(a.verdict, PR_VERDICT_REGRESSION);
	assert_true(a.p_value == b.p_value && a.ci_lo_pct == b.ci_lo_pct &&
	    a.ci_hi_pct == b.ci_hi_pct && a.primary_t.t == b.primary_t.t);
	/* A power of 2: the scaled figures are the same doubles. */
	assert_true(a.p_value == c.p_value && a.ci_lo_pct == c.ci_lo_pct &&
	    a.ci_hi_pct == c.ci_hi_pct && a.change_pct == c.change_pct);
	assert_int_equal(a.verdict, c.verdict);
}

static void
expect_predict(const double *base, size_t k, double x, enum pr_better b,
    const struct pr_verdict_opts *o, const char *msg)
{
	struct pr_comparison c;
	struct pr_error err;

	memset(&c, 0xff, sizeof(c));
	assert_int_equal(pr_nested_predict(base, k, x, b, o, &c, &err),
	    PR_EINVAL);
	assert_string_equal(err.msg, msg);
	assert_int_equal(c.base.n, 0);
	assert_int_equal(c.tested, 0);
}

static void
test_predict_errors(void **state)
{
	double ok[] = { 1, 2, 3 }, bad[] = { 1, INFINITY, 3 };
	struct pr_verdict_opts o;

	(void)state;
	expect_predict(ok, 1, 2, PR_BETTER_LOWER, NULL,
	    "the prediction test needs at least 2 base sessions, got 1");
	expect_predict(NULL, 3, 2, PR_BETTER_LOWER, NULL,
	    "the prediction test needs at least 2 base sessions, got 0");
	expect_predict(bad, 3, 2, PR_BETTER_LOWER, NULL,
	    "base session 2: mean is not finite");
	expect_predict(ok, 3, NAN, PR_BETTER_LOWER, NULL,
	    "new session: mean is not finite");
	expect_predict(ok, 3, 2, (enum pr_better)7, NULL,
	    "unknown direction 7");
	pr_verdict_opts_init(&o);
	o.conf = 1;
	expect_predict(ok, 3, 2, PR_BETTER_LOWER, &o,
	    "confidence must lie strictly between 0 and 1, got 1");
	pr_verdict_opts_init(&o);
	o.equivalence_pct = -1;
	expect_predict(ok, 3, 2, PR_BETTER_LOWER, &o,
	    "equivalence band must be a finite percentage >= 0, got -1");
	{
		double big[] = { -1e308, -1e308, -1e308 };
		struct pr_comparison c;

		assert_int_equal(pr_nested_predict(big, 3, 1e308,
				     PR_BETTER_LOWER, NULL, &c, NULL),
		    PR_ERANGE);
		assert_int_equal(c.base.n, 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_invariance),
		cmocka_unit_test(test_kj_example),
		cmocka_unit_test(test_runs_cap),
		cmocka_unit_test(test_untested),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_predict_fixture),
		cmocka_unit_test(test_predict_sim),
		cmocka_unit_test(test_predict_report),
		cmocka_unit_test(test_predict_holm),
		cmocka_unit_test(test_predict_invariance),
		cmocka_unit_test(test_predict_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
