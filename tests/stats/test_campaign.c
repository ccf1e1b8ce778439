/*
 * tests/stats/test_campaign.c - two variants compared over several hosts
 * (src/stats/campaign.c): the verdict across hosts with the host as the
 * unit, and the F test of whether the hosts agree.
 *
 * Reference values come from tests/stats/data/campaign.txt, written by
 * tests/stats/gen_campaign.py (scipy's one-sample t test on the hosts'
 * log-ratios; the interaction F test as a comparison of two least-squares
 * fits with numpy, which the C code computes in closed form instead).
 * The per-host figures are pr_nested_compare's, checked in
 * test_nested.c; here their verdicts are only counted.  The rest checks
 * the summary line of three emulated hosts with a large change (which
 * pooling their boots called inconclusive), of hosts that disagree, and
 * the errors.
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
#include "perfreg/campaign.h"
#include "perfreg/error.h"
#include "perfreg/verdict.h"

#define FIXTURE "tests/stats/data/campaign.txt"

struct cside {
	double x[512];
	size_t boot[512], host[512], n;
};

struct tcase {
	char name[64], verdict[32];
	enum pr_better better;
	double conf, eq;
	struct cside s[2];
	int across, agree, line, runs;
	double change, lo, hi, p, f, df1, df2, fp;
	size_t nhosts, one_side, maxhost;
};

static void
close_to(double got, double want, double tol, const struct tcase *c,
    const char *what)
{
	double m = fabs(want) > 1e-300 ? fabs(want) : 1;

	if (!(fabs(got - want) <= tol * m))
		fail_msg("%s:%d: %s: %s: got %.17g, want %.17g", FIXTURE,
		    c->line, c->name, what, got, want);
}

/* Reads the next case; 0 at the end of the file. */
static int
read_case(FILE *f, int *line, struct tcase *c)
{
	char buf[512], better[16], side;
	size_t h, b;
	double v;
	struct cside *s;

	memset(c, 0, sizeof(*c));
	while (fgets(buf, sizeof(buf), f) != NULL) {
		++*line;
		if (buf[0] == '#')
			continue;
		if (strncmp(buf, "case ", 5) == 0) {
			assert_int_equal(sscanf(buf, "case %63s %15s %lf %lf",
					     c->name, better, &c->conf, &c->eq),
			    4);
			c->better = strcmp(better, "higher") == 0
			    ? PR_BETTER_HIGHER
			    : PR_BETTER_LOWER;
			c->line = *line;
		} else if (buf[0] == 'x') {
			assert_int_equal(sscanf(buf, "x %c %zu %zu %lf", &side,
					     &h, &b, &v),
			    4);
			s = &c->s[side == 'n'];
			assert_true(s->n < 512);
			s->x[s->n] = v;
			s->boot[s->n] = b;
			s->host[s->n++] = h;
			if (h > c->maxhost)
				c->maxhost = h;
		} else if (strcmp(buf, "across untested\n") == 0) {
			c->across = 0;
		} else if (strncmp(buf, "across ", 7) == 0) {
			assert_int_equal(sscanf(buf,
					     "across %lf %lf %lf %lf %31s",
					     &c->change, &c->lo, &c->hi, &c->p,
					     c->verdict),
			    5);
			c->across = 1;
		} else if (strcmp(buf, "agree none\n") == 0) {
			c->agree = 0;
		} else if (strncmp(buf, "agree ", 6) == 0) {
			assert_int_equal(sscanf(buf, "agree %lf %lf %lf %lf %d",
					     &c->f, &c->df1, &c->df2, &c->fp,
					     &c->runs),
			    5);
			c->agree = 1;
		} else if (strncmp(buf, "hosts ", 6) == 0) {
			assert_int_equal(sscanf(buf, "hosts %zu %zu",
					     &c->nhosts, &c->one_side),
			    2);
		} else if (strncmp(buf, "end", 3) == 0) {
			return 1;
		} else {
			fail_msg("%s:%d: unknown line", FIXTURE, *line);
		}
	}
	return 0;
}

static void
run_case(const struct tcase *c, struct pr_campaign_result *r)
{
	struct pr_campaign_side b = { c->s[0].x, c->s[0].boot, c->s[0].host,
		c->s[0].n };
	struct pr_campaign_side n = { c->s[1].x, c->s[1].boot, c->s[1].host,
		c->s[1].n };
	struct pr_verdict_opts o;
	struct pr_error err;

	pr_verdict_opts_init(&o);
	o.conf = c->conf;
	o.equivalence_pct = c->eq;
	pr_error_clear(&err);
	if (pr_campaign_hosts(&b, &n, c->maxhost + 1, c->better, &o, 0, r,
		&err) != PR_OK)
		fail_msg("%s: %s", c->name, err.msg);
}

static void
test_fixtures(void **state)
{
	struct pr_campaign_result r;
	struct tcase *c = malloc(sizeof(*c));
	FILE *f = fopen(FIXTURE, "r");
	int line = 0, ncases = 0;
	size_t h, sum;

	(void)state;
	assert_non_null(c);
	assert_non_null(f);
	while (read_case(f, &line, c)) {
		ncases++;
		run_case(c, &r);
		assert_int_equal(r.nhosts, c->nhosts);
		assert_int_equal(r.nhosts_one_side, c->one_side);
		assert_int_equal(r.across.tested, c->across);
		if (c->across) {
			close_to(r.across.change_pct, c->change, 1e-9, c,
			    "change");
			close_to(r.across.ci_lo_pct, c->lo, 1e-9, c, "lo");
			close_to(r.across.ci_hi_pct, c->hi, 1e-9, c, "hi");
			close_to(r.across.p_value, c->p, 1e-9, c, "p");
			assert_string_equal(pr_verdict_str(r.across.verdict),
			    c->verdict);
		} else {
			assert_int_equal(r.across.verdict,
			    PR_VERDICT_INCONCLUSIVE);
		}
		assert_int_equal(r.have_f, c->agree);
		if (c->agree) {
			close_to(r.f, c->f, 1e-9, c, "F");
			close_to(r.df1, c->df1, 0, c, "df1");
			close_to(r.df2, c->df2, 0, c, "df2");
			close_to(r.f_p, c->fp, 1e-9, c, "F p");
			assert_int_equal(r.f_on_runs, c->runs);
			assert_int_equal(r.consistent, !(c->fp < 0.05));
		}
		for (h = 0, sum = 0; h < 4; h++)
			sum += r.nverdict[h];
		assert_int_equal(sum, r.nhosts);
		pr_campaign_hosts_release(&r);
	}
	fclose(f);
	free(c);
	assert_true(ncases >= 7);
}

/* The summary line of the named fixture case. */
static void
summary_of(const char *name, char *out, size_t size,
    struct pr_campaign_result *r)
{
	struct tcase *c = malloc(sizeof(*c));
	struct pr_buf b = PR_BUF_INIT(4096);
	struct pr_error err;
	FILE *f = fopen(FIXTURE, "r");
	int line = 0, found = 0;

	assert_non_null(c);
	assert_non_null(f);
	while (!found && read_case(f, &line, c))
		found = strcmp(c->name, name) == 0;
	assert_true(found);
	run_case(c, r);
	pr_error_clear(&err);
	assert_int_equal(pr_campaign_hosts_summary(r, &b, &err), PR_OK);
	assert_true(b.len < size);
	memcpy(out, b.data, b.len);
	out[b.len] = '\0';
	pr_buf_release(&b);
	fclose(f);
	free(c);
}

/*
 * Three hosts whose speeds differ by a factor of 4, each 84.5% faster:
 * one improvement across hosts and on every host, the hosts consistent.
 */
static void
test_summary_consistent(void **state)
{
	struct pr_campaign_result r;
	char s[512];

	(void)state;
	summary_of("three_hosts_big", s, sizeof(s), &r);
	assert_int_equal(r.across.verdict, PR_VERDICT_IMPROVEMENT);
	assert_int_equal(r.agreeing, 3);
	assert_int_equal(r.nverdict[PR_VERDICT_IMPROVEMENT], 3);
	assert_non_null(strstr(s,
	    "consistent on 3 of 3 hosts: improvement "
	    "on 3"));
	pr_campaign_hosts_release(&r);
}

/* 20% slower on two hosts, unchanged on the third: the hosts differ. */
static void
test_summary_differs(void **state)
{
	struct pr_campaign_result r;
	char s[512];

	(void)state;
	summary_of("regress_on_two", s, sizeof(s), &r);
	assert_false(r.consistent);
	assert_int_equal(r.nverdict[PR_VERDICT_REGRESSION], 2);
	assert_non_null(strstr(s, "differs between hosts: regression on 2, "));
	assert_non_null(strstr(s, "F(2, 12)"));
	pr_campaign_hosts_release(&r);
}

static void
test_errors(void **state)
{
	double x[] = { 1, 2, 3 }, bad[] = { 1, NAN, 3 };
	size_t g[] = { 0, 0, 1 }, h[] = { 0, 0, 1 }, hbig[] = { 0, 0, 5 },
	       gdown[] = { 1, 0, 0 };
	struct pr_campaign_side a = { x, g, h, 3 }, s;
	struct pr_campaign_result r;
	struct pr_error err;

	(void)state;
	s = a;
	s.x = bad;
	assert_int_equal(pr_campaign_hosts(&a, &s, 2, PR_BETTER_LOWER, NULL, 0,
			     &r, &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "new: value 2 is not finite"));
	assert_null(r.host);
	s = a;
	s.host = hbig;
	assert_int_equal(pr_campaign_hosts(&s, &a, 2, PR_BETTER_LOWER, NULL, 0,
			     &r, &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "base: value 3: host 5 of 2"));
	s = a;
	s.boot = gdown;
	assert_int_equal(pr_campaign_hosts(&a, &s, 2, PR_BETTER_LOWER, NULL, 0,
			     &r, &err),
	    PR_EINVAL);
	s = a;
	s.n = 0;
	assert_int_equal(pr_campaign_hosts(&a, &s, 2, PR_BETTER_LOWER, NULL, 0,
			     &r, &err),
	    PR_EINVAL);
	pr_campaign_hosts_release(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_summary_consistent),
		cmocka_unit_test(test_summary_differs),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
