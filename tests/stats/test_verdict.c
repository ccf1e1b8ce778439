/*
 * tests/stats/test_verdict.c - pr_compare, its verdict, and Holm's
 * correction (src/stats/verdict.c).
 *
 * The reference figures come from tests/stats/data/verdict.txt, written
 * by tests/stats/gen_verdict_fixtures.R, which re-implements the rule of
 * perfreg/verdict.h in R (t.test, wilcox.test, p.adjust, integrate and
 * an enumeration of every permutation).  The rest checks what needs no
 * reference: Holm's bookkeeping in pr_compare_holm, the untested seed
 * 000, errors, reproducibility, large inputs.
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

#include "perfreg/describe.h"
#include "perfreg/error.h"
#include "perfreg/ratio.h"
#include "perfreg/rng.h"
#include "perfreg/sample.h"
#include "perfreg/ttest.h"
#include "perfreg/verdict.h"
#include "fixture.h"

#define FIXTURE "tests/stats/data/verdict.txt"
#define MAXV 4096

struct notename {
	const char *name;
	unsigned bit;
};

static const struct notename notenames[] = {
	{ "untested", PR_NOTE_UNTESTED },
	{ "direction_assumed", PR_NOTE_DIRECTION_ASSUMED },
	{ "quantised", PR_NOTE_QUANTISED },
	{ "negligible", PR_NOTE_NEGLIGIBLE },
	{ "adaptive", PR_NOTE_ADAPTIVE },
	{ "nonnormal", PR_NOTE_NONNORMAL },
	{ "no_ci", PR_NOTE_NO_CI },
	{ "maxtest", PR_NOTE_MAXTEST },
};

static unsigned
note_bits(const char *list, int line)
{
	char buf[256], *p, *save;
	unsigned bits = 0;
	size_t i;

	snprintf(buf, sizeof(buf), "%s", list);
	for (p = strtok_r(buf, ",", &save); p != NULL;
	     p = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(notenames) / sizeof(notenames[0]); i++)
			if (strcmp(p, notenames[i].name) == 0)
				break;
		if (i == sizeof(notenames) / sizeof(notenames[0]))
			fail_msg("%s:%d: unknown note %s", FIXTURE, line, p);
		bits |= notenames[i].bit;
	}
	return bits;
}

static double
num(const char *s, int line)
{
	char *end;
	double v = strtod(s, &end);

	if (*end != '\0')
		fail_msg("%s:%d: bad number '%s'", FIXTURE, line, s);
	return v;
}

/* The generator's big_data(): the same IEEE operations in the same
 * order. */
static size_t
big_data(double *v, size_t n, unsigned long k, unsigned long slow, double scale)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = scale * (i % 5 == slow ? 1.1 : 1.0) *
		    (1 + 0.02 * ((double)((i * k) % 10007) / 10007.0 - 0.5));
	pr_sort_doubles(v, n);
	return n;
}

static size_t
values(const char *list, double *v, int line)
{
	char buf[1 << 16], *p, *save;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (p = strtok_r(buf, ",", &save); p != NULL && n < MAXV;
	     p = strtok_r(NULL, ",", &save))
		v[n++] = num(p, line);
	pr_sort_doubles(v, n);
	return n;
}

/* The value of KEY=... in the line's tokens, or NULL. */
static const char *
field(char **tok, int ntok, const char *key)
{
	size_t len = strlen(key);
	int i;

	for (i = 0; i < ntok; i++)
		if (strncmp(tok[i], key, len) == 0 && tok[i][len] == '=')
			return tok[i] + len + 1;
	return NULL;
}

static void
close_to(double got, double want, double tol, const char *name,
    const char *what, int line)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s:%d: %s: %s %.17g, want %.17g (tolerance %g)",
		    FIXTURE, line, name, what, got, want, tol);
}

static double
rel(double want, double r)
{
	return r * (fabs(want) > 1 ? fabs(want) : 1);
}

static void
check_case(char **tok, int ntok, int line)
{
	static double a[MAXV], b[MAXV];
	struct pr_verdict_opts o;
	struct pr_comparison c;
	struct pr_error err;
	const char *name = field(tok, ntok, "name"), *s, *used;
	size_t na, nb;
	unsigned want, nowant;
	enum pr_better better;
	enum pr_method m;

	pr_verdict_opts_init(&o);
	s = field(tok, ntok, "better");
	better = strcmp(s, "lower") == 0 ? PR_BETTER_LOWER
	    : strcmp(s, "higher") == 0   ? PR_BETTER_HIGHER
					 : PR_BETTER_UNKNOWN;
	s = field(tok, ntok, "method");
	o.method = strcmp(s, "student") == 0 ? PR_METHOD_STUDENT
	    : strcmp(s, "welch") == 0        ? PR_METHOD_WELCH
	    : strcmp(s, "mwu") == 0          ? PR_METHOD_MWU
					     : PR_METHOD_AUTO;
	s = field(tok, ntok, "base");
	if (strcmp(s, "@big") == 0) {
		na = big_data(a, 2500, 7919, 0, 1.0);
		nb = big_data(b, 2500, 6007, 2, 1.001);
	} else {
		na = values(s, a, line);
		nb = values(field(tok, ntok, "new"), b, line);
	}
	if (pr_compare(a, na, b, nb, better, &o, &c, &err) != PR_OK)
		fail_msg("%s:%d: %s: %s", FIXTURE, line, name, err.msg);
	if (c.tested != atoi(field(tok, ntok, "tested")))
		fail_msg("%s:%d: %s: tested %d", FIXTURE, line, name, c.tested);
	used = field(tok, ntok, "used");
	m = strcmp(used, "student") == 0 ? PR_METHOD_STUDENT
	    : strcmp(used, "welch") == 0 ? PR_METHOD_WELCH
	    : strcmp(used, "mwu") == 0   ? PR_METHOD_MWU
					 : PR_METHOD_NONE;
	if (c.method != m)
		fail_msg("%s:%d: %s: method %s, want %s", FIXTURE, line, name,
		    pr_method_str(c.method), used);
	if (strcmp(pr_verdict_str(c.verdict), field(tok, ntok, "verdict")))
		fail_msg("%s:%d: %s: verdict %s", FIXTURE, line, name,
		    pr_verdict_str(c.verdict));
	close_to(c.change_pct, num(field(tok, ntok, "change"), line),
	    rel(num(field(tok, ntok, "change"), line), 1e-9), name, "change",
	    line);
	if ((s = field(tok, ntok, "lo")) != NULL) {
		if (!c.have_ci)
			fail_msg("%s:%d: %s: no interval", FIXTURE, line, name);
		close_to(c.ci_lo_pct, num(s, line), rel(num(s, line), 1e-9),
		    name, "lower end", line);
		s = field(tok, ntok, "hi");
		close_to(c.ci_hi_pct, num(s, line), rel(num(s, line), 1e-9),
		    name, "upper end", line);
	} else if (c.have_ci) {
		fail_msg("%s:%d: %s: an interval where none is expected",
		    FIXTURE, line, name);
	}
	if ((s = field(tok, ntok, "p")) != NULL)
		close_to(c.p_value, num(s, line),
		    num(field(tok, ntok, "ptol"), line) + 1e-300, name, "p",
		    line);
	if (c.runs_needed != (size_t)atol(field(tok, ntok, "runs")))
		fail_msg("%s:%d: %s: runs_needed %zu", FIXTURE, line, name,
		    c.runs_needed);
	if ((s = field(tok, ntok, "skew")) != NULL) {
		close_to(c.skewness, num(s, line), rel(num(s, line), 1e-9),
		    name, "skewness", line);
		s = field(tok, ntok, "tail");
		close_to(c.tail_weight, num(s, line), rel(num(s, line), 1e-9),
		    name, "tail weight", line);
	} else if (c.notes & PR_NOTE_ADAPTIVE) {
		fail_msg("%s:%d: %s: the selector ran", FIXTURE, line, name);
	}
	want = note_bits(field(tok, ntok, "notes"), line);
	s = field(tok, ntok, "nonotes");
	nowant = s != NULL ? note_bits(s, line) : 0;
	if ((c.notes & want) != want || (c.notes & nowant) != 0)
		fail_msg("%s:%d: %s: notes %#x, want %#x and not %#x", FIXTURE,
		    line, name, c.notes, want, nowant);
	/* Always: the secondary figures exist where they can. */
	if (c.tested && c.base.n >= 2 && c.new.n >= 2)
		assert_true(c.have_student && c.have_welch && c.have_mwu);
	assert_true(isfinite(c.change_pct) && isfinite(c.p_value));
	assert_true(c.p_adjusted == c.p_value);
}

/* The comma-separated numbers of list, in their order. */
static size_t
list_of(const char *list, double *v, size_t max, int line)
{
	char buf[4096], *q, *save;
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (q = strtok_r(buf, ",", &save); q != NULL && n < max;
	     q = strtok_r(NULL, ",", &save))
		v[n++] = num(q, line);
	return n;
}

static void
check_holm(char **tok, int ntok, int line)
{
	double p[64], want[64], got[64];
	size_t n, i;

	n = list_of(field(tok, ntok, "p"), p, 64, line);
	assert_int_equal(list_of(field(tok, ntok, "adj"), want, 64, line), n);
	pr_holm(p, n, got);
	for (i = 0; i < n; i++)
		close_to(got[i], want[i], 1e-15, "holm", "adjusted p", line);
}

static int
each_line(const char *kind, void (*fn)(char **, int, int))
{
	static char buf[1 << 17];
	char *tok[64], *p, *save;
	FILE *f = fopen(FIXTURE, "r");
	int line = 0, ntok, count = 0;

	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f) != NULL) {
		line++;
		if (buf[0] == '#')
			continue;
		ntok = 0;
		for (p = strtok_r(buf, " \n", &save); p != NULL && ntok < 64;
		     p = strtok_r(NULL, " \n", &save))
			tok[ntok++] = p;
		if (ntok == 0 || strcmp(tok[0], kind) != 0)
			continue;
		fn(tok + 1, ntok - 1, line);
		count++;
	}
	fclose(f);
	return count;
}

static void
test_cases(void **state)
{
	(void)state;
	assert_true(each_line("case", check_case) >= 22);
}

static void
test_holm_reference(void **state)
{
	(void)state;
	assert_true(each_line("holm", check_holm) >= 6);
}

/* A tested comparison with the given p and interval, as pr_compare
 * leaves it. */
static void
fake(struct pr_comparison *c, double p, double lo, double hi, int dir)
{
	memset(c, 0, sizeof(*c));
	c->tested = 1;
	c->method = PR_METHOD_STUDENT;
	c->better = PR_BETTER_LOWER;
	c->p_value = p;
	c->p_adjusted = p;
	c->holm_m = 1;
	c->have_change = 1;
	c->change_pct = (lo + hi) / 2;
	c->have_ci = 1;
	c->ci_lo_pct = lo;
	c->ci_hi_pct = hi;
	c->direction = dir;
	c->base.n = c->new.n = 5;
	c->rel_sd = 0.02;
}

static void
test_compare_holm(void **state)
{
	struct pr_comparison c[5];
	struct pr_verdict_opts o;

	(void)state;
	pr_verdict_opts_init(&o);
	/* 0.03 alone is a regression; with 0.01 and 0.04 beside it, Holm
	 * gives 0.06: inconclusive, and runs_needed appears. */
	fake(&c[0], 0.01, 2, 6, 1);
	fake(&c[1], 0.04, 0.5, 5, 1);
	fake(&c[2], 0.03, 0.8, 4, 1);
	/* Untested: not in the family, left alone. */
	memset(&c[3], 0, sizeof(c[3]));
	c[3].p_value = c[3].p_adjusted = 1;
	c[3].notes = PR_NOTE_UNTESTED;
	fake(&c[4], 0.2, -3, 5, 1);
	pr_compare_holm(c, 5, &o);
	assert_true(fabs(c[0].p_adjusted - 0.04) < 1e-15);
	assert_true(fabs(c[1].p_adjusted - 0.09) < 1e-15);
	assert_true(fabs(c[2].p_adjusted - 0.09) < 1e-15);
	assert_true(fabs(c[4].p_adjusted - 0.2) < 1e-15);
	assert_int_equal(c[0].verdict, PR_VERDICT_REGRESSION);
	assert_int_equal(c[2].verdict, PR_VERDICT_INCONCLUSIVE);
	assert_true(c[2].runs_needed > 5);
	/* In a family of 4 the runs are planned at alpha / 4: more than
	 * the same comparison needs alone at p 0.09. */
	{
		struct pr_comparison one;

		fake(&one, 0.09, 0.8, 4, 1);
		pr_compare_holm(&one, 1, &o);
		assert_int_equal(one.verdict, PR_VERDICT_INCONCLUSIVE);
		assert_true(
		    one.runs_needed > 5 && one.runs_needed < c[2].runs_needed);
	}
	assert_int_equal(c[0].runs_needed, 0);
	assert_int_equal(c[0].holm_m, 4);
	assert_true(c[0].notes & PR_NOTE_HOLM);
	assert_int_equal(c[3].holm_m, 0);
	assert_true(c[3].p_adjusted == 1);
	assert_int_equal(c[3].verdict, PR_VERDICT_INCONCLUSIVE);
	/* A family of one: no correction, no note. */
	fake(&c[0], 0.03, 0.8, 4, 1);
	pr_compare_holm(c, 1, &o);
	assert_true(c[0].p_adjusted == 0.03);
	assert_int_equal(c[0].holm_m, 1);
	assert_false(c[0].notes & PR_NOTE_HOLM);
	assert_int_equal(c[0].verdict, PR_VERDICT_REGRESSION);
	/* Higher is better flips the word. */
	c[0].better = PR_BETTER_HIGHER;
	pr_compare_holm(c, 1, NULL);
	assert_int_equal(c[0].verdict, PR_VERDICT_IMPROVEMENT);
	/* Significant, but the interval inside the band: equivalent. */
	fake(&c[0], 0.001, 0.2, 0.6, 1);
	pr_compare_holm(c, 1, &o);
	assert_int_equal(c[0].verdict, PR_VERDICT_EQUIVALENT);
	assert_true(c[0].notes & PR_NOTE_NEGLIGIBLE);
	/* p below alpha with an interval through 0: never significant. */
	fake(&c[0], 0.04, -0.5, 3, 1);
	pr_compare_holm(c, 1, &o);
	assert_int_equal(c[0].verdict, PR_VERDICT_INCONCLUSIVE);
}

static void
test_holm_ties_and_order(void **state)
{
	double p[] = { 0.5, 0.01, 0.01, 1.0, 0.0 }, adj[5];

	(void)state;
	pr_holm(p, 5, adj);
	/* sorted 0, .01, .01, .5, 1: 5*0, 4*.01, 3*.01 -> .04, 2*.5, 1 */
	assert_true(adj[4] == 0);
	assert_true(fabs(adj[1] - 0.04) < 1e-15);
	assert_true(fabs(adj[2] - 0.04) < 1e-15);
	assert_true(adj[0] == 1 && adj[3] == 1);
	pr_holm(p, 0, adj);
}

/* Seed 000: one openssl run per kernel, five block sizes (KB/s). */
static void
test_seed000(void **state)
{
	static const double old_k[] = { 586.20, 2357.87, 8246.75, 25685.88,
		79916.91 };
	static const double new_k[] = { 564.75, 2189.04, 7663.60, 24059.08,
		78188.69 };
	struct pr_comparison c[5];
	struct pr_error err;
	int i;

	(void)state;
	for (i = 0; i < 5; i++) {
		assert_int_equal(pr_compare(&old_k[i], 1, &new_k[i], 1,
				     PR_BETTER_HIGHER, NULL, &c[i], &err),
		    PR_OK);
		assert_int_equal(c[i].tested, 0);
		assert_int_equal(c[i].method, PR_METHOD_NONE);
		assert_int_equal(c[i].verdict, PR_VERDICT_INCONCLUSIVE);
		assert_true(c[i].notes & PR_NOTE_UNTESTED);
		assert_true(c[i].have_change && !c[i].have_ci);
		assert_true(fabs(c[i].change_pct -
				100 * (new_k[i] / old_k[i] - 1)) < 1e-12);
		assert_true(c[i].direction < 0);
		assert_int_equal(c[i].runs_needed, 0);
	}
	/* They form no Holm family. */
	pr_compare_holm(c, 5, NULL);
	for (i = 0; i < 5; i++) {
		assert_int_equal(c[i].holm_m, 0);
		assert_int_equal(c[i].verdict, PR_VERDICT_INCONCLUSIVE);
		assert_false(c[i].notes & PR_NOTE_HOLM);
	}
}

/*
 * Values below 1e-6 (seconds of a fast operation) are not multiples of 1:
 * the grid of 1.5e-7 is 1e-8, and the test is the one of the same data
 * scaled to 1.5, not one swamped by a floor of 1^2/12.
 */
static void
test_tiny_values_grid(void **state)
{
	double a[] = { 3.1e-7, 3.2e-7, 3.25e-7, 3.3e-7 };
	double b[] = { 4.0e-7, 4.1e-7, 4.15e-7, 4.2e-7 };
	double a1[4], b1[4];
	struct pr_verdict_opts o;
	struct pr_comparison c, ref;
	size_t i;

	(void)state;
	pr_verdict_opts_init(&o);
	for (i = 0; i < 4; i++) {
		a1[i] = a[i] * 1e7;
		b1[i] = b[i] * 1e7;
	}
	assert_int_equal(pr_compare(a1, 4, b1, 4, PR_BETTER_LOWER, &o, &ref,
			     NULL),
	    PR_OK);
	assert_int_equal(pr_compare(a, 4, b, 4, PR_BETTER_LOWER, &o, &c, NULL),
	    PR_OK);
	assert_false(c.notes & PR_NOTE_QUANTISED);
	assert_int_equal(c.verdict, PR_VERDICT_REGRESSION);
	if (!(fabs(c.p_value - ref.p_value) <= 1e-9 * ref.p_value))
		fail_msg("p %.17g at 1e-7, %.17g at 1", c.p_value, ref.p_value);
}

static void
test_secondary(void **state)
{
	double a[] = { 4.83, 4.87, 5.16 }, b[] = { 5.18, 5.30, 5.61 };
	struct pr_verdict_opts o;
	struct pr_comparison c, d;
	struct pr_ttest t;
	struct pr_error err;

	(void)state;
	pr_verdict_opts_init(&o);
	assert_int_equal(pr_compare(a, 3, b, 3, PR_BETTER_LOWER, &o, &c, &err),
	    PR_OK);
	/* ministat's figures, untouched by the resolution floor. */
	assert_int_equal(pr_ttest_student(&c.base, &c.new, 0.95, &t, &err),
	    PR_OK);
	assert_true(
	    c.have_student && c.student.p == t.p && c.student.ci_lo == t.ci_lo);
	assert_true(c.have_welch && c.have_mwu && c.have_hl);
	assert_true(c.mwu.exact && fabs(c.mwu.p - 0.1) < 1e-12);
	assert_true(c.have_ratio_means && c.have_ratio_medians);
	assert_int_equal(c.ratio_means.method, PR_RATIO_BOOTSTRAP);
	assert_true(fabs(c.ratio_means.ratio -
			5.3633333333333333 / 4.9533333333333333) < 1e-12);
	assert_true(fabs(c.resolution - 0.01) < 1e-15);
	assert_true(c.conf == 0.95 && c.equivalence_pct == 1.0);
	assert_true(c.rel_sd > 0);
	/* The same call again: the same bytes (reproducible bootstrap). */
	assert_int_equal(pr_compare(a, 3, b, 3, PR_BETTER_LOWER, &o, &d, &err),
	    PR_OK);
	assert_memory_equal(&c, &d, sizeof(c));
	/* Primary only: the verdict, change and interval are the same. */
	o.flags = PR_VERDICT_PRIMARY_ONLY;
	assert_int_equal(pr_compare(a, 3, b, 3, PR_BETTER_LOWER, &o, &d, &err),
	    PR_OK);
	assert_int_equal(d.verdict, c.verdict);
	assert_true(d.change_pct == c.change_pct && d.p_value == c.p_value &&
	    d.ci_lo_pct == c.ci_lo_pct && d.ci_hi_pct == c.ci_hi_pct);
	assert_false(d.have_student || d.have_ratio_means);
	assert_int_equal(d.runs_needed, 0);
	/* No ratio intervals only. */
	o.flags = PR_VERDICT_NO_RATIO;
	assert_int_equal(pr_compare(a, 3, b, 3, PR_BETTER_LOWER, &o, &d, &err),
	    PR_OK);
	assert_true(d.have_student && !d.have_ratio_means);
	assert_int_equal(d.runs_needed, c.runs_needed);
	/* No rank figures only. */
	o.flags = PR_VERDICT_NO_RANKS;
	assert_int_equal(pr_compare(a, 3, b, 3, PR_BETTER_LOWER, &o, &d, &err),
	    PR_OK);
	assert_true(d.have_student && d.have_welch && d.have_ratio_means);
	assert_false(d.have_mwu || d.have_hl);
	assert_int_equal(d.verdict, c.verdict);
	/* A band of 0: nothing is equivalent, and with no change to detect
	 * the runs needed are unknown. */
	pr_verdict_opts_init(&o);
	o.equivalence_pct = 0;
	assert_int_equal(pr_compare(a, 3, a, 3, PR_BETTER_LOWER, &o, &d, &err),
	    PR_OK);
	assert_int_equal(d.verdict, PR_VERDICT_INCONCLUSIVE);
	assert_int_equal(d.runs_needed, 0);
	assert_true(d.p_value == 1 && d.change_pct == 0);
}

/* The maximum test draws its permutations from opts.seed. */
static void
test_maxtest_seed(void **state)
{
	double a[12], b[12];
	struct pr_verdict_opts o;
	struct pr_comparison c1, c2, c3;
	struct pr_error err;
	int i;

	(void)state;
	for (i = 0; i < 12; i++) {
		a[i] = (i % 5 == 0 ? 1.1 : 1.0) * (1 + 0.001 * i);
		b[i] = 1.01 * (i % 5 == 1 ? 1.1 : 1.0) * (1 + 0.001 * (11 - i));
	}
	pr_sort_doubles(a, 12);
	pr_sort_doubles(b, 12);
	pr_verdict_opts_init(&o);
	o.flags = PR_VERDICT_PRIMARY_ONLY;
	assert_int_equal(pr_compare(a, 12, b, 12, PR_BETTER_LOWER, &o, &c1,
			     &err),
	    PR_OK);
	assert_true(c1.notes & PR_NOTE_MAXTEST);
	assert_int_equal(pr_compare(a, 12, b, 12, PR_BETTER_LOWER, &o, &c2,
			     &err),
	    PR_OK);
	assert_memory_equal(&c1, &c2, sizeof(c1));
	o.seed = 2;
	assert_int_equal(pr_compare(a, 12, b, 12, PR_BETTER_LOWER, &o, &c3,
			     &err),
	    PR_OK);
	/* Another stream of permutations: p moves by Monte Carlo error
	 * (a few standard errors of 2000 draws), the estimate not at all. */
	assert_true(c3.p_value != c1.p_value);
	assert_true(fabs(c3.p_value - c1.p_value) < 0.03);
	assert_true(c3.change_pct == c1.change_pct);
}

static void
test_errors(void **state)
{
	double a[] = { 1, 2, 3 }, bad[] = { 3, 2, 1 }, nan_v[] = { 1, NAN };
	struct pr_verdict_opts o;
	struct pr_comparison c;
	struct pr_error err;

	(void)state;
	pr_verdict_opts_init(&o);
	assert_int_equal(pr_compare(a, 0, a, 3, PR_BETTER_LOWER, &o, &c, &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "at least one value"));
	assert_int_equal(pr_compare(NULL, 3, a, 3, PR_BETTER_LOWER, &o, &c,
			     &err),
	    PR_EINVAL);
	assert_int_equal(pr_compare(bad, 3, a, 3, PR_BETTER_LOWER, &o, &c,
			     &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "not sorted"));
	assert_int_equal(pr_compare(a, 3, nan_v, 2, PR_BETTER_LOWER, &o, &c,
			     &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "not finite"));
	o.conf = 1;
	assert_int_equal(pr_compare(a, 3, a, 3, PR_BETTER_LOWER, &o, &c, &err),
	    PR_EINVAL);
	pr_verdict_opts_init(&o);
	o.equivalence_pct = -1;
	assert_int_equal(pr_compare(a, 3, a, 3, PR_BETTER_LOWER, &o, &c, &err),
	    PR_EINVAL);
	o.equivalence_pct = INFINITY;
	assert_int_equal(pr_compare(a, 3, a, 3, PR_BETTER_LOWER, &o, &c, &err),
	    PR_EINVAL);
	pr_verdict_opts_init(&o);
	o.method = (enum pr_method)99;
	assert_int_equal(pr_compare(a, 3, a, 3, PR_BETTER_LOWER, &o, &c, &err),
	    PR_EINVAL);
	pr_verdict_opts_init(&o);
	o.boot_reps = 3;
	assert_int_equal(pr_compare(a, 3, a, 3, PR_BETTER_LOWER, &o, &c, &err),
	    PR_EINVAL);
	assert_int_equal(pr_compare(a, 3, a, 3, (enum pr_better)7, NULL, &c,
			     &err),
	    PR_EINVAL);
	/* A failed call leaves nothing half-filled. */
	assert_int_equal(c.tested, 0);
	assert_int_equal(c.base.n, 0);
	/* A NULL error is fine. */
	assert_int_equal(pr_compare(bad, 3, a, 3, PR_BETTER_LOWER, NULL, &c,
			     NULL),
	    PR_EINVAL);
}

static void
test_strings(void **state)
{
	(void)state;
	assert_string_equal(pr_verdict_str(PR_VERDICT_REGRESSION),
	    "regression");
	assert_string_equal(pr_verdict_str(PR_VERDICT_IMPROVEMENT),
	    "improvement");
	assert_string_equal(pr_verdict_str(PR_VERDICT_EQUIVALENT),
	    "equivalent");
	assert_string_equal(pr_verdict_str(PR_VERDICT_INCONCLUSIVE),
	    "inconclusive");
	assert_string_equal(pr_verdict_str((enum pr_verdict)42), "?");
	assert_string_equal(pr_method_str(PR_METHOD_STUDENT), "Student's t");
	assert_string_equal(pr_method_str(PR_METHOD_WELCH), "Welch's t");
	assert_string_equal(pr_method_str(PR_METHOD_MWU), "Mann-Whitney U");
	assert_string_equal(pr_method_str((enum pr_method)42), "?");
	assert_string_equal(pr_better_str(PR_BETTER_HIGHER), "higher");
	assert_string_equal(pr_better_str(PR_BETTER_LOWER), "lower");
	assert_string_equal(pr_better_str(PR_BETTER_UNKNOWN), "lower");
}

/* Large inputs take the bounded paths: no adaptation above
 * PR_VERDICT_ADAPT_MAX; the normal limit of the maximum test above
 * PR_VERDICT_PERM_MAX; the asymptotic ratio intervals. */
/* A fifth of the values 10% slower, both sides, 1% noise. */
static void
draw_bimodal(struct pr_rng *rng, double *a, double *b)
{
	*a = (pr_rng_uniform(rng) < 0.2 ? 1.1 : 1.0) *
	    (1 + 0.01 * pr_rng_normal(rng));
	*b = (pr_rng_uniform(rng) < 0.2 ? 1.1 : 1.0) *
	    (1 + 0.01 * pr_rng_normal(rng));
}

static void
test_large(void **state)
{
	size_t n = PR_VERDICT_ADAPT_MAX + 1;
	struct pr_verdict_opts o;
	struct pr_comparison c;
	struct pr_error err;
	double *a, *b;

	(void)state;
	fx_sorted_pair(n, 5, draw_bimodal, &a, &b);
	pr_verdict_opts_init(&o);
	o.flags = PR_VERDICT_PRIMARY_ONLY;
	assert_int_equal(pr_compare(a, n, b, n, PR_BETTER_LOWER, &o, &c, &err),
	    PR_OK);
	assert_int_equal(c.method, PR_METHOD_STUDENT);
	assert_false(c.notes & PR_NOTE_ADAPTIVE);
	assert_int_equal(c.verdict, PR_VERDICT_EQUIVALENT);
	/* 20000 a side: adaptive, the maximum test's normal limit, and the
	 * secondary figures with their bounded methods. */
	pr_verdict_opts_init(&o);
	assert_int_equal(pr_compare(a, 20000, b, 20000, PR_BETTER_LOWER, &o, &c,
			     &err),
	    PR_OK);
	assert_true(c.notes & PR_NOTE_MAXTEST);
	assert_true(c.p_value >= 0 && c.p_value <= 1);
	assert_int_equal(c.verdict, PR_VERDICT_EQUIVALENT);
	assert_true(c.have_ratio_means && c.have_ratio_medians);
	assert_int_equal(c.ratio_means.method, PR_RATIO_ASYMPTOTIC);
	assert_true(c.have_hl && !c.hl.exact);
	free(a);
	free(b);
}

/* The figures of one side equal pr_summary_compute's, bit for bit. */
static void
same_summary(const struct pr_summary *got, const double *x, size_t n)
{
	struct pr_summary want;

	assert_int_equal(pr_summary_compute(x, n, &want, NULL), PR_OK);
	assert_int_equal(got->n, want.n);
	assert_int_equal(got->defined, want.defined);
	assert_memory_equal(&got->min, &want.min, sizeof(double));
	assert_memory_equal(&got->max, &want.max, sizeof(double));
	assert_memory_equal(&got->mean, &want.mean, sizeof(double));
	assert_memory_equal(&got->median, &want.median, sizeof(double));
	assert_memory_equal(&got->q1, &want.q1, sizeof(double));
	assert_memory_equal(&got->q3, &want.q3, sizeof(double));
	assert_memory_equal(&got->stddev, &want.stddev, sizeof(double));
	assert_memory_equal(&got->var, &want.var, sizeof(double));
	assert_memory_equal(&got->mad, &want.mad, sizeof(double));
	assert_memory_equal(&got->cv, &want.cv, sizeof(double));
}

/* Milliseconds with three decimals (a grid step of 0.001), new 1.3%
 * slower. */
static void
draw_ms(struct pr_rng *rng, double *a, double *b)
{
	*a = round(1000 * (1.5 + 0.015 * pr_rng_normal(rng))) / 1000;
	*b = round(1000 * (1.52 + 0.015 * pr_rng_normal(rng))) / 1000;
}

/*
 * From 2^18 values in all, pr_compare describes the new side on a second
 * thread: the same summaries and grid step as one thread's, and the
 * error the sequential order meets first (base before new, checks before
 * summaries).
 */
static void
test_large_described_concurrently(void **state)
{
	size_t n = (size_t)1 << 18, small = 7;
	struct pr_verdict_opts o;
	struct pr_comparison c;
	struct pr_error err;
	double *a, *b, t;

	(void)state;
	fx_sorted_pair(n, 16, draw_ms, &a, &b);
	pr_verdict_opts_init(&o);
	o.flags = PR_VERDICT_PRIMARY_ONLY;
	assert_int_equal(pr_compare(a, n, b, n, PR_BETTER_LOWER, &o, &c, &err),
	    PR_OK);
	same_summary(&c.base, a, n);
	same_summary(&c.new, b, n);
	assert_true(c.resolution == 0.001);
	assert_int_equal(c.verdict, PR_VERDICT_REGRESSION);
	/* A small base beside a large new side takes the thread too. */
	assert_int_equal(pr_compare(a + n / 2, small, b, n, PR_BETTER_LOWER, &o,
			     &c, &err),
	    PR_OK);
	same_summary(&c.base, a + n / 2, small);
	same_summary(&c.new, b, n);
	/* Errors: the new side's only; then the base's before the new's. */
	b[n - 2] = b[n - 1] + 1;
	assert_int_equal(pr_compare(a, n, b, n, PR_BETTER_LOWER, &o, &c, &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "new values are not sorted"));
	assert_int_equal(c.base.n, 0);
	t = a[1];
	a[1] = a[0] - 1;
	a[0] = t;
	assert_int_equal(pr_compare(a, n, b, n, PR_BETTER_LOWER, &o, &c, &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "base values are not sorted at 2"));
	b[n - 1] = NAN;
	assert_int_equal(pr_compare(a, n, b, n, PR_BETTER_LOWER, &o, &c, &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "base values are not sorted at 2"));
	free(a);
	free(b);
}

/* Normal with 1% noise, new 2% higher. */
static void
draw_shift2(struct pr_rng *rng, double *a, double *b)
{
	*a = 1 + 0.01 * pr_rng_normal(rng);
	*b = 1.02 + 0.01 * pr_rng_normal(rng);
}

/*
 * Above PR_VERDICT_RANKS_MAX values a side the secondary rank figures
 * are left out (bounded work); the primary test and the ratio intervals
 * are still there.
 */
static void
test_ranks_bounded(void **state)
{
	size_t n = PR_VERDICT_RANKS_MAX + 1;
	struct pr_comparison c;
	struct pr_error err;
	double *a, *b;

	(void)state;
	fx_sorted_pair(n, 61, draw_shift2, &a, &b);
	assert_int_equal(pr_compare(a, n, b, n, PR_BETTER_LOWER, NULL, &c,
			     &err),
	    PR_OK);
	assert_int_equal(c.verdict, PR_VERDICT_REGRESSION);
	assert_true(c.have_student && c.have_welch);
	assert_false(c.have_mwu);
	assert_false(c.have_hl);
	assert_true(c.have_ratio_means && c.have_ratio_medians);
	/* One value fewer on one side is not enough. */
	assert_int_equal(pr_compare(a, n, b, n - 1, PR_BETTER_LOWER, NULL, &c,
			     &err),
	    PR_OK);
	assert_false(c.have_hl);
	free(a);
	free(b);
}

static void
test_opposite_signs(void **state)
{
	/* 2 to -6 is not "400% lower": the test stands, the percentage is
	 * undefined, and so is a zero base. */
	static const double a[] = { 1, 2, 3 }, b[] = { -7, -6, -5 };
	static const double z[] = { -1, 0, 1 };
	struct pr_verdict_opts o;
	struct pr_comparison c;

	(void)state;
	pr_verdict_opts_init(&o);
	assert_int_equal(pr_compare(a, 3, b, 3, PR_BETTER_LOWER, &o, &c, NULL),
	    PR_OK);
	assert_false(c.have_change);
	assert_false(c.have_ci);
	assert_true(c.notes & PR_NOTE_NO_CHANGE);
	assert_true(c.tested);
	assert_true(c.p_value < 0.001);
	assert_int_equal(c.verdict, PR_VERDICT_IMPROVEMENT);
	assert_int_equal(pr_compare(z, 3, a, 3, PR_BETTER_LOWER, &o, &c, NULL),
	    PR_OK);
	assert_false(c.have_change);
	assert_true(c.notes & PR_NOTE_NO_CHANGE);
	/* Same signs, negative: an ordinary percentage. */
	assert_int_equal(pr_compare(b, 3, b, 3, PR_BETTER_LOWER, &o, &c, NULL),
	    PR_OK);
	assert_true(c.have_change);
	assert_false(c.notes & PR_NOTE_NO_CHANGE);
}

/*
 * Issue 12: negative values gave "improvement: 11.6% higher (worse)".
 * The change is in percent of |base|, so its sign is that of new - base:
 * -5.5 to -4.73 is +13.9% (higher), worse when lower is better, and the
 * interval is around it.
 */
static void
test_negative_percent(void **state)
{
	static const double a[] = { -6, -5.5, -5 }, b[] = { -4.9, -4.8, -4.5 };
	struct pr_comparison c;

	(void)state;
	assert_int_equal(pr_compare(a, 3, b, 3, PR_BETTER_LOWER, NULL, &c,
			     NULL),
	    PR_OK);
	assert_true(c.have_change);
	assert_int_equal(c.direction, 1);
	assert_true(c.change_pct > 13.9 && c.change_pct < 14.0);
	assert_true(c.have_ci);
	assert_true(c.ci_lo_pct < c.change_pct && c.change_pct < c.ci_hi_pct);
	/* The interval is minus that of the ratio: [-2.0%, +27.7%]. */
	assert_true(c.ci_lo_pct > -2.1 && c.ci_lo_pct < -1.9);
	assert_true(c.ci_hi_pct > 27.6 && c.ci_hi_pct < 27.8);
	/* Lower is better and the values rose: never an improvement. */
	assert_int_not_equal(c.verdict, PR_VERDICT_IMPROVEMENT);
	assert_int_equal(pr_compare(b, 3, a, 3, PR_BETTER_LOWER, NULL, &c,
			     NULL),
	    PR_OK);
	assert_int_equal(c.direction, -1);
	assert_true(c.change_pct < 0);
}

/*
 * Issue 10 and 12: a throughput's interval below -100% ([-439%, +300%]
 * for 100..103 against 1 and 60).  Positive values have a positive
 * ratio, and the interval is cut at -100%.
 */
static void
test_interval_above_minus_100(void **state)
{
	static const double a[] = { 100, 101, 102, 103 }, b[] = { 1, 60 };
	struct pr_comparison c;

	(void)state;
	assert_int_equal(pr_compare(a, 4, b, 2, PR_BETTER_HIGHER, NULL, &c,
			     NULL),
	    PR_OK);
	assert_true(c.have_ci);
	assert_true(c.ci_lo_pct >= -100);
	assert_true(c.ci_lo_pct == -100);
	assert_true(c.ci_hi_pct > 299 && c.ci_hi_pct < 301);
	assert_int_equal(c.verdict, PR_VERDICT_INCONCLUSIVE);
}

/*
 * fuzz_stats: a new mean of about 1e-173 against 0.6 put the upper end of
 * the interval at -100.00000000000001 by rounding, below its lower end,
 * which the cut had set to -100 (tests/fuzz/seeds/stats/ci-below-cut).
 */
static void
test_interval_both_ends_at_cut(void **state)
{
	static const double base[] = { 5.274713450932732e-256,
		2.841321139066013e-173, 2.841321139066013e-173,
		2.841321139066013e-173, 2.841321139066013e-173,
		3.0517578125e-05, 1.0, 1.0000268075980392, 1.02, 1.07, 1.08,
		1.08, 1.09, 1.1 },
			    new[] = { 2.8412777839460932e-173,
				    2.841321139066013e-173,
				    2.841321139066013e-173,
				    2.841321139066013e-173,
				    2.841321139066013e-173 };
	struct pr_verdict_opts o;
	struct pr_comparison c;

	(void)state;
	pr_verdict_opts_init(&o);
	o.boot_reps = PR_RATIO_BOOT_REPS_MIN;
	assert_int_equal(pr_compare(base, 14, new, 5, (enum pr_better)1, &o, &c,
			     NULL),
	    PR_OK);
	if (c.have_ci) {
		assert_true(c.ci_lo_pct >= -100 && c.ci_hi_pct >= -100);
		assert_true(c.ci_lo_pct <= c.ci_hi_pct);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_interval_both_ends_at_cut),
		cmocka_unit_test(test_holm_reference),
		cmocka_unit_test(test_compare_holm),
		cmocka_unit_test(test_holm_ties_and_order),
		cmocka_unit_test(test_seed000),
		cmocka_unit_test(test_tiny_values_grid),
		cmocka_unit_test(test_secondary),
		cmocka_unit_test(test_maxtest_seed),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_large_described_concurrently),
		cmocka_unit_test(test_ranks_bounded),
		cmocka_unit_test(test_opposite_signs),
		cmocka_unit_test(test_negative_percent),
		cmocka_unit_test(test_interval_above_minus_100),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
