/*
 * tests/fuzz/fuzz_stats.c - libFuzzer target for the statistics entry
 * points that `stat`, `compare` and `run` call on the user's numbers:
 * pr_summary_compute, pr_ttest_student and pr_ttest_welch, pr_mwu_test,
 * pr_compare (and pr_compare_holm over its two comparisons), and the t
 * distribution (pr_t_cdf, pr_t_quantile).
 *
 * The first byte chooses how the rest becomes numbers (raw 8-byte
 * doubles, or 2-byte integers scaled by 1/100 so that ties, grids and
 * small samples are common), the direction, the method and the
 * confidence; the second says where the base sample ends.  At most 48
 * values a side, so that an execution stays fast (pr_compare's bootstrap
 * and permutations).  Checked: no crash or sanitizer report, a p-value
 * in [0, 1], an interval whose ends are in order, a summary whose
 * minimum <= median <= maximum, a CDF in [0, 1]; a non-finite value is
 * refused with a message.  scripts/fuzz.sh builds and runs it (seeds:
 * tests/fuzz/seeds/stats).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/describe.h"
#include "perfreg/distrib.h"
#include "perfreg/error.h"
#include "perfreg/mwu.h"
#include "perfreg/ratio.h"
#include "perfreg/sample.h"
#include "perfreg/ttest.h"
#include "perfreg/verdict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SIDE_MAX 48

static int
p_ok(double p)
{
	return p >= 0.0 && p <= 1.0;
}

/* Decodes the numbers; returns how many. */
static size_t
numbers(const uint8_t *p, size_t n, int raw, double *v, size_t max)
{
	size_t k = 0;

	while (k < max && n >= (raw ? 8u : 2u)) {
		if (raw) {
			memcpy(&v[k], p, 8);
			p += 8;
			n -= 8;
		} else {
			int16_t x;

			memcpy(&x, p, 2);
			v[k] = (double)x / 100.0;
			p += 2;
			n -= 2;
		}
		k++;
	}
	return k;
}

/* The summary of the n sorted values, checked. */
static int
summary(const double *v, size_t n, struct pr_summary *s)
{
	struct pr_error err;
	enum pr_status st;

	st = pr_summary_compute(v, n, s, &err);
	if (st != PR_OK) {
		if (err.msg[0] == '\0')
			abort();
		return 0;
	}
	if (!(s->min <= s->median && s->median <= s->max))
		abort();
	return 1;
}

static void
ttests(const struct pr_summary *a, const struct pr_summary *b, double conf)
{
	struct pr_ttest t;
	struct pr_error err;

	if (pr_ttest_student(a, b, conf, &t, &err) == PR_OK &&
	    (!p_ok(t.p) || t.ci_lo > t.ci_hi))
		abort();
	if (pr_ttest_welch(a, b, conf, &t, &err) == PR_OK &&
	    (!p_ok(t.p) || t.ci_lo > t.ci_hi))
		abort();
}

static void
check_comparison(const struct pr_comparison *c)
{
	if (!p_ok(c->p_value) || !p_ok(c->p_adjusted))
		abort();
	if (c->have_ci && c->ci_lo_pct > c->ci_hi_pct)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum pr_method methods[] = { PR_METHOD_AUTO,
		PR_METHOD_STUDENT, PR_METHOD_WELCH, PR_METHOD_MWU };
	static const double confs[] = { 0.95, 0.9, 0.99, 0.5 };
	double v[2 * SIDE_MAX], *a = v, *b;
	struct pr_summary sa, sb;
	struct pr_verdict_opts o;
	struct pr_comparison c[2];
	struct pr_mwu m;
	struct pr_error err;
	enum pr_better better;
	size_t n, na, nb, i;
	int raw, finite = 1;
	double p, q, df;

	if (size < 2)
		return 0;
	raw = data[0] & 1;
	better = (enum pr_better)((data[0] >> 1) % 3);
	pr_verdict_opts_init(&o);
	o.method = methods[(data[0] >> 3) & 3];
	o.conf = confs[(data[0] >> 5) & 3];
	/* The fewest replicates pr_ratio_ci takes: fast executions. */
	o.boot_reps = PR_RATIO_BOOT_REPS_MIN;
	n = numbers(data + 2, size - 2, raw, v, 2 * SIDE_MAX);
	na = n == 0 ? 0 : data[1] % (n + 1);
	if (na > SIDE_MAX)
		na = SIDE_MAX;
	nb = n - na;
	if (nb > SIDE_MAX)
		nb = SIDE_MAX;
	b = v + na;
	for (i = 0; i < na + nb; i++)
		if (!isfinite(v[i]))
			finite = 0;
	pr_sort_doubles(a, na);
	pr_sort_doubles(b, nb);

	/* The t distribution at the first two values as (t, df), any df > 0
	 * down to the smallest subnormal (issue 12: pr_t_cdf(3, 2.8e-310)
	 * was -inf): the CDF is in [0, 1] and the quantile of a probability
	 * in [0, 1) is a number (+-inf beyond the doubles), never NaN. */
	if (n >= 2) {
		df = fabs(v[1]);
		if (df > 0 && !isnan(df)) {
			p = pr_t_cdf(v[0], df);
			if (!isnan(v[0]) && !p_ok(p))
				abort();
			if (isfinite(v[0])) {
				q = pr_t_quantile(fmod(fabs(v[0]), 1.0), df);
				if (isnan(q))
					abort();
			}
		}
	}
	if (!finite) {
		/* Refused, with a message. */
		if (na > 0 && nb > 0 &&
		    (pr_compare(a, na, b, nb, better, &o, &c[0], &err) !=
			    PR_EINVAL ||
			err.msg[0] == '\0'))
			abort();
		return 0;
	}
	if (na > 0 && nb > 0 && summary(a, na, &sa) && summary(b, nb, &sb))
		ttests(&sa, &sb, o.conf);
	if (na > 0 && nb > 0 && pr_mwu_test(a, na, b, nb, &m, &err) == PR_OK &&
	    !p_ok(m.p))
		abort();
	if (na == 0 || nb == 0)
		return 0;
	if (pr_compare(a, na, b, nb, better, &o, &c[0], &err) != PR_OK) {
		if (err.msg[0] == '\0')
			abort();
		return 0;
	}
	check_comparison(&c[0]);
	/* The same pair the other way round, and the two as a family. */
	if (pr_compare(b, nb, a, na, better, &o, &c[1], &err) != PR_OK)
		return 0;
	check_comparison(&c[1]);
	pr_compare_holm(c, 2, &o);
	check_comparison(&c[0]);
	check_comparison(&c[1]);
	return 0;
}
