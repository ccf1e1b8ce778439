/*
 * tests/fixture.c - the fixtures of tests/fixture.h: reports, metrics and
 * comparisons with the figures a test gives, rendering to a string, and
 * sorted samples from a seeded generator.  Nothing here decides a
 * figure: every number comes from the calling test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/buf.h"
#include "perfreg/sample.h"
#include "fixture.h"

void
fx_report(struct pr_report *r, struct pr_report_metric *m, size_t n,
    const char *base, const char *new)
{
	memset(r, 0, sizeof(*r));
	r->base_source = base;
	r->new_source = new;
	r->conf = 0.95;
	r->equivalence_pct = 1;
	r->metrics = m;
	r->n = n;
}

void
fx_metric(struct pr_report_metric *m, const char *name, const char *unit,
    const double *bv, size_t bn, const double *nv, size_t nn)
{
	memset(m, 0, sizeof(*m));
	m->name = name;
	m->unit = unit;
	m->base_values = bv;
	m->base_n = bn;
	m->new_values = nv;
	m->new_n = nn;
	m->cmp.base.n = bn;
	m->cmp.new.n = nn;
}

void
fx_side(struct pr_summary *s, double mean, double median, double sd)
{
	s->mean = mean;
	s->median = median;
	s->stddev = sd;
	s->defined = PR_SUM_STDDEV;
}

void
fx_tested(struct pr_comparison *c, enum pr_method method, double change_pct,
    double lo, double hi, double p, enum pr_verdict v)
{
	c->better = PR_BETTER_LOWER;
	c->method = method;
	c->tested = 1;
	c->have_change = 1;
	c->change_pct = change_pct;
	c->have_ci = 1;
	c->ci_lo_pct = lo;
	c->ci_hi_pct = hi;
	c->p_value = c->p_adjusted = p;
	c->verdict = v;
}

char *
fx_render_model(const struct pr_report_model *m, enum pr_report_format f)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	struct pr_error err;

	pr_error_clear(&err);
	assert_int_equal(pr_report_model_render(&b, m, f, &err), PR_OK);
	assert_int_equal(pr_buf_addc(&b, '\0', &err), PR_OK);
	return pr_buf_detach(&b, NULL);
}

void
fx_sorted_pair(size_t n, uint64_t seed,
    void (*draw)(struct pr_rng *rng, double *a, double *b), double **a,
    double **b)
{
	struct pr_rng rng;
	size_t i;

	*a = malloc(n * sizeof(**a));
	*b = malloc(n * sizeof(**b));
	assert_non_null(*a);
	assert_non_null(*b);
	pr_rng_seed(&rng, seed);
	for (i = 0; i < n; i++)
		draw(&rng, &(*a)[i], &(*b)[i]);
	pr_sort_doubles(*a, n);
	pr_sort_doubles(*b, n);
}
