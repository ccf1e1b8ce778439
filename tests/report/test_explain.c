/*
 * tests/report/test_explain.c - the explanation (perfreg/explain.h) on
 * planted datasets of known co-movement: the primary is built as
 * y = 100 + 0.5 a + 0.25 e + noise, where a moves from 100 to 200 (it
 * accounts for 50 of the primary's change of 60, a share of 5/6) and e
 * from 100 to 140 (10 of 60, 1/6); b changes from 50 to 60 without any
 * part in y (its sd 5); c moves with y but does not change; d is noise.  The
 * ranking must be a, e, then b (changed, its share near 0), the
 * shares near 5/6 and 1/6, r large for a, and c and d changed in few of
 * the 20 datasets (no change is planted in them).  A/A: 400 sessions of
 * 20 side metrics with no change anywhere give an empty explanation in
 * at least 93% of them (BH at 5%; the rate is measured on 2,000
 * sessions in bench/explain-sim).  The work/efficiency split with
 * planted instructions and cycles, and the sentence when they are
 * absent.  The explanation as a section of the report model
 * (pr_report_explain): its text, Markdown and JSON forms, names from
 * outside escaped, the top 10 and "N more in --json", the notes; and
 * built from a session of `perfreg run` (pr_report_run_explain): the
 * primary taken from the roles, the side metrics and the monitors' figures
 * of the counted runs, nothing without monitors; and from two parsed
 * tool outputs, the tool's own figures (pr_report_dataset_explain_parsed);
 * and the suite's, per process (pr_report_suite_ab_explain).  System-wide counters
 * per second of their run (a timer that ticks with any run's length is
 * no explanation), and metrics with no spread within the sides ranked
 * by their own change, after the others.  Fixed seeds throughout.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/explain.h"
#include "perfreg/report.h"
#include "perfreg/report_html.h"
#include "perfreg/report_model.h"
#include "perfreg/report_run.h"
#include "perfreg/rng.h"
#include "perfreg/runner.h"
#include "perfreg/monitor.h"
#include "perfreg/probe.h"
#include "perfreg/store.h"
#include "perfreg/suite.h"

#include "fixture.h"

#define N 30
#define M 5

/* cmocka 1.1 has no assert_double_equal. */
#define assert_near(got, want, tol) assert_true(fabs((got) - (want)) <= (tol))

static double ybase[N], ynew[N], xb[M][N], xn[M][N];

static void
plant(uint64_t seed)
{
	struct pr_rng r;
	size_t i, s;

	pr_rng_seed(&r, seed);
	for (s = 0; s < 2; s++)
		for (i = 0; i < N; i++) {
			double *x[M], a, e, b, noise;
			size_t j;

			for (j = 0; j < M; j++)
				x[j] = s ? &xn[j][i] : &xb[j][i];
			a = (s ? 200 : 100) + 10 * pr_rng_normal(&r);
			e = (s ? 140 : 100) + 10 * pr_rng_normal(&r);
			b = (s ? 60 : 50) + 5 * pr_rng_normal(&r);
			noise = pr_rng_normal(&r);
			*x[0] = a;
			*x[1] = b;
			(s ? ynew : ybase)[i] =
			    100 + 0.5 * a + 0.25 * e + noise;
			*x[2] =
			    (s ? ynew : ybase)[i] - 0.5 * a + pr_rng_normal(&r);
			*x[3] = 7 + pr_rng_normal(&r);
			*x[4] = e;
			/* c (x[2]) follows y's unexplained part and e, and
			 * would change with e: take e's change out. */
			*x[2] -= s ? 10 : 0;
		}
}

static void
input(struct pr_explain_input *in, const double **mb, const double **mn,
    const char *const *names)
{
	size_t j;

	memset(in, 0, sizeof(*in));
	for (j = 0; j < M; j++) {
		mb[j] = xb[j];
		mn[j] = xn[j];
	}
	in->primary = "elapsed";
	in->nmetrics = M;
	in->names = names;
	in->base.primary = ybase;
	in->base.metric = mb;
	in->base.n = N;
	in->new_.primary = ynew;
	in->new_.metric = mn;
	in->new_.n = N;
}

static void
test_ranking(void **state)
{
	static const char *const names[M] = { "a", "b", "c", "d", "e" };
	const double *mb[M], *mn[M];
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	uint64_t seed;
	size_t k, false_pos = 0;

	(void)state;
	for (seed = 1; seed <= 20; seed++) {
		plant(seed);
		input(&in, mb, mn, names);
		assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
		assert_true(e.nchanged >= 3);
		assert_string_equal(names[e.items[0].metric], "a");
		assert_string_equal(names[e.items[1].metric], "e");
		assert_true(fabs(e.items[0].share - 5.0 / 6) < 0.2);
		assert_true(fabs(e.items[1].share - 1.0 / 6) < 0.15);
		assert_true(e.items[0].r > 0.8);
		/* a: +100% with an interval around it. */
		assert_true(e.items[0].lo < e.items[0].change &&
		    e.items[0].change < e.items[0].hi && e.items[0].lo > 0.8);
		assert_true(fabs(e.items[0].change - 1) < 0.1);
		for (k = 2; k < e.n; k++) {
			const char *nm = names[e.items[k].metric];

			if (strcmp(nm, "b") == 0) {
				assert_true(e.items[k].changed);
				assert_true(fabs(e.items[k].share) < 0.1);
			} else if (e.items[k].changed)
				false_pos++; /* c or d: no change planted */
		}
		assert_non_null(strstr(e.split, "no work/efficiency split"));
		pr_explain_release(&e);
	}
	/* 2 null metrics x 20 datasets at a 5% false discovery rate. */
	print_message("false positives: %zu of 40\n", false_pos);
	assert_true(false_pos <= 4);
}

/* Swapping the roles fails the ranking: b made the driver of y. */
static void
test_ranking_follows_the_data(void **state)
{
	static const char *const names[M] = { "a", "b", "c", "d", "e" };
	const double *mb[M], *mn[M];
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	size_t i;

	(void)state;
	plant(3);
	/* y now moves with b run by run (b: 50 -> 60, slope 6 = 60). */
	for (i = 0; i < N; i++) {
		ybase[i] = 100 + 6 * xb[1][i] + 0.1 * xb[3][i];
		ynew[i] = 100 + 6 * xn[1][i] + 0.1 * xn[3][i];
	}
	input(&in, mb, mn, names);
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_string_equal(names[e.items[0].metric], "b");
	assert_true(e.items[0].r > 0.9);
	pr_explain_release(&e);
}

static void
test_aa(void **state)
{
	enum { K = 20, S = 400 };
	static double ab[K][N], an[K][N], pb[N], pn[N];
	const double *mb[K], *mn[K];
	const char *names[K];
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	struct pr_rng r;
	size_t s, i, j, empty = 0;

	(void)state;
	pr_rng_seed(&r, 42);
	for (j = 0; j < K; j++) {
		mb[j] = ab[j];
		mn[j] = an[j];
		names[j] = "x";
	}
	memset(&in, 0, sizeof(in));
	in.primary = "elapsed";
	in.nmetrics = K;
	in.names = names;
	in.base = (struct pr_explain_side){ pb, mb, N, NULL };
	in.new_ = (struct pr_explain_side){ pn, mn, N, NULL };
	for (s = 0; s < S; s++) {
		for (i = 0; i < N; i++) {
			pb[i] = 10 + pr_rng_normal(&r);
			pn[i] = 10 + pr_rng_normal(&r);
			for (j = 0; j < K; j++) {
				ab[j][i] = 100 + 5 * pr_rng_normal(&r) +
				    (double)j * pb[i];
				an[j][i] = 100 + 5 * pr_rng_normal(&r) +
				    (double)j * pn[i];
			}
		}
		assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
		assert_int_equal(e.n, K);
		empty += e.nchanged == 0;
		pr_explain_release(&e);
	}
	print_message("A/A: empty in %zu of %d\n", empty, S);
	assert_true(empty >= S * 93 / 100);
}

/*
 * The primary in logs (pr_explain_input.log_primary): its change is the
 * geometric one, exp(mean log new - mean log base) - 1, computed here
 * apart, which differs from the arithmetic one on skewed data; a side
 * metric that is the log of the primary then moves with it exactly (r
 * 1, a share of 1 of the log change), and a primary at or below 0 is an
 * error naming it.
 */
static void
test_log_primary(void **state)
{
	static const char *const names[1] = { "log_elapsed" };
	static double yb[N], yn[N], lb[N], ln_[N];
	const double *mb[1] = { lb }, *mn[1] = { ln_ };
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	struct pr_rng r;
	double sb = 0, sn = 0, ab = 0, an = 0, geo, ari;
	size_t i;

	(void)state;
	pr_rng_seed(&r, 1313);
	for (i = 0; i < N; i++) {
		yb[i] = 100 * exp(pr_rng_normal(&r));
		yn[i] = 10 * exp(0.2 * pr_rng_normal(&r));
		lb[i] = log(yb[i]);
		ln_[i] = log(yn[i]);
		sb += lb[i];
		sn += ln_[i];
		ab += yb[i];
		an += yn[i];
	}
	geo = expm1((sn - sb) / N);
	ari = an / ab - 1;
	assert_true(fabs(geo - ari) > 0.01);
	memset(&in, 0, sizeof(in));
	in.primary = "elapsed";
	in.nmetrics = 1;
	in.names = names;
	in.base = (struct pr_explain_side){ yb, mb, N, NULL };
	in.new_ = (struct pr_explain_side){ yn, mn, N, NULL };
	in.log_primary = 1;
	pr_error_clear(&err);
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_near(e.primary_change, geo, 1e-12);
	assert_int_equal(e.nchanged, 1);
	assert_near(e.items[0].r, 1, 1e-12);
	assert_near(e.items[0].share, 1, 1e-12);
	pr_explain_release(&e);

	/* In the values: the arithmetic change, and not a share of 1. */
	in.log_primary = 0;
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_near(e.primary_change, ari, 1e-12);
	assert_true(fabs(e.items[0].share - 1) > 0.01);
	pr_explain_release(&e);

	in.log_primary = 1;
	yn[3] = 0;
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "elapsed in logs"));
	assert_int_equal(e.n, 0);
}

/*
 * A side metric's p: Welch's t on the logs of its values when all are
 * above 0, else on the values.  Reference values from scipy
 * (tests/report/gen_explain_logt.py; R's t.test on log() agrees to 1e-13):
 * the CPU contention case's shape, whose one wild run (2791 among 110 to
 * 211) hid a change of +3000% from Welch's t on the values (p 0.045),
 * is found on the logs (p 2.9e-16) and named among 20 metrics of noise;
 * a quiet pair where the two agree; a 0 among the values: the values'
 * test.
 */
static void
test_log_test(void **state)
{
	static const double wa[20] = { 5, 7, 9, 6, 8, 5, 7, 9, 6, 8, 5, 7, 9, 6,
		8, 5, 7, 9, 6, 8 };
	static const double wb[20] = { 110, 147, 184, 119, 156, 193, 128, 165,
		202, 137, 174, 211, 146, 183, 118, 155, 192, 127, 164, 2791 };
	static const double qa[12] = { 100, 115, 109, 103, 118, 112, 106, 100,
		115, 109, 103, 118 };
	static const double qb[12] = { 104, 113, 122, 110, 119, 107, 116, 104,
		113, 122, 110, 119 };
	enum { K = 20 };
	static double za[20], noise_b[K][20], noise_n[K][20], yb[20], yn[20];
	const double *mb[K + 1], *mn[K + 1];
	const char *names[K + 1];
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	struct pr_rng r;
	size_t i, j;

	(void)state;
	pr_rng_seed(&r, 2791);
	for (i = 0; i < 20; i++) {
		yb[i] = 1 + 0.01 * pr_rng_normal(&r);
		yn[i] = 1.2 + 0.01 * pr_rng_normal(&r);
		for (j = 0; j < K; j++) {
			noise_b[j][i] = 100 + 5 * pr_rng_normal(&r);
			noise_n[j][i] = 100 + 5 * pr_rng_normal(&r);
		}
	}
	memset(&in, 0, sizeof(in));
	in.primary = "wall_s";
	in.names = names;
	in.base = (struct pr_explain_side){ yb, mb, 20, NULL };
	in.new_ = (struct pr_explain_side){ yn, mn, 20, NULL };
	for (j = 0; j < K; j++) {
		mb[j] = noise_b[j];
		mn[j] = noise_n[j];
		names[j] = "noise";
	}
	mb[K] = wa;
	mn[K] = wb;
	names[K] = "ctxsw_invol";
	in.nmetrics = K + 1;
	pr_error_clear(&err);
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_true(e.nchanged >= 1);
	assert_int_equal(e.items[0].metric, K);
	assert_true(e.items[0].log_test);
	assert_true(e.items[0].changed);
	assert_near(e.items[0].p / 2.9257691235818882e-16, 1, 1e-9);
	pr_explain_release(&e);

	/* A quiet pair: both tests near 0.126. */
	in.nmetrics = 1;
	mb[0] = qa;
	mn[0] = qb;
	in.base.n = in.new_.n = 12;
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_int_equal(e.n, 1);
	assert_true(e.items[0].log_test);
	assert_near(e.items[0].p, 0.12572736434822884, 1e-12);
	pr_explain_release(&e);

	/* A 0: Welch's t on the values. */
	memcpy(za, wa, sizeof(za));
	za[0] = 0;
	mb[0] = za;
	mn[0] = wb;
	in.base.n = in.new_.n = 20;
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_int_equal(e.n, 1);
	assert_false(e.items[0].log_test);
	assert_near(e.items[0].p, 0.044650096822435446, 1e-12);
	pr_explain_release(&e);
}

/* Whether the line of t that starts with start (a "\n" and its head)
 * holds want. */
static int
line_has(const char *t, const char *start, const char *want)
{
	const char *a = strstr(t, start), *end, *w;

	if (a == NULL)
		return 0;
	end = strchr(a + 1, '\n');
	w = strstr(a, want);
	return w != NULL && (end == NULL || w < end);
}

/* The explanation of in rendered as f, or as an HTML page when f is -1
 * (the caller frees). */
static char *
explained(const struct pr_explain_input *in, enum pr_report_format f)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_explain e;
	struct pr_error err;
	char *t;

	pr_error_clear(&err);
	assert_int_equal(pr_explain_compute(in, &e, &err), PR_OK);
	assert_int_equal(pr_report_explain(&m, "explanation", 0, &e, in, NULL,
			     0, &err),
	    PR_OK);
	if ((int)f == -1) {
		struct pr_buf b = PR_BUF_INIT(1 << 20);

		assert_int_equal(pr_report_html(&b, &m, "t", &err), PR_OK);
		t = pr_buf_detach(&b, NULL);
	} else
		t = fx_render_model(&m, f);
	pr_report_model_release(&m);
	pr_explain_release(&e);
	return t;
}

/* The "test" of the JSON item of the metric name. */
static const char *
json_test(json_t *j, const char *name)
{
	json_t *arr =
	    json_object_get(json_object_get(j, "explanation"), "metrics");
	size_t k;

	for (k = 0; k < json_array_size(arr); k++)
		if (strcmp(json_string_value(
			       json_object_get(json_array_get(arr, k),
				   "metric")),
			name) == 0)
			return json_string_value(
			    json_object_get(json_array_get(arr, k), "test"));
	return NULL;
}

/*
 * The heading says which test gave the p: the logs, the values, or the
 * logs but the values for the metrics with a value not above 0; then
 * each line tested on the values says so, in text and Markdown, and
 * the JSON's "test" of each item.  ctxsw_invol is tested on the logs,
 * faults (a 0 in its base) on the values; both changed.
 */
static void
test_which_test(void **state)
{
	static double ca[12], cb[12], fa[12], fb[12], yb[12], yn[12];
	const double *mb[2] = { ca, fa }, *mn[2] = { cb, fb };
	static const char *const names[2] = { "ctxsw_invol", "faults" };
	struct pr_explain_input in;
	struct pr_rng r;
	json_t *j;
	char *t;
	size_t i;

	(void)state;
	pr_rng_seed(&r, 13);
	for (i = 0; i < 12; i++) {
		yb[i] = 1 + 0.01 * pr_rng_normal(&r);
		yn[i] = 1.2 + 0.01 * pr_rng_normal(&r);
		ca[i] = 100 + 5 * pr_rng_normal(&r);
		cb[i] = 300 + 5 * pr_rng_normal(&r);
		fa[i] = (double)(i % 3);
		fb[i] = 50 + (double)(i % 4);
	}
	memset(&in, 0, sizeof(in));
	in.primary = "wall_s";
	in.names = names;
	in.base = (struct pr_explain_side){ yb, mb, 12, NULL };
	in.new_ = (struct pr_explain_side){ yn, mn, 12, NULL };
	in.nmetrics = 2;
	t = explained(&in, PR_REPORT_TEXT);
	assert_non_null(strstr(t,
	    "2 of 2 side metrics changed (Welch's t on the logs, on the "
	    "values for 1 metric with a value not above 0, "
	    "Benjamini-Hochberg"));
	assert_true(line_has(t, "\n  faults +", "), t on the values, r = "));
	assert_false(line_has(t, "\n  ctxsw_invol +", "t on the values"));
	free(t);
	t = explained(&in, PR_REPORT_MARKDOWN);
	assert_non_null(strstr(t,
	    "(Welch's t on the logs, on the values for 1 "
	    "metric with a value not above 0, "));
	assert_true(line_has(t, "\n- faults +", "), t on the values, r = "));
	assert_false(line_has(t, "\n- ctxsw_invol +", "t on the values"));
	free(t);
	t = explained(&in, PR_REPORT_JSON);
	assert_non_null(j = json_loads(t, 0, NULL));
	free(t);
	t = explained(&in, -1);
	assert_non_null(strstr(t,
	    "(Welch&#39;s t on the logs, on the values "
	    "for 1 metric with a value not above 0, "));
	assert_non_null(strstr(t, "<td>faults (t on the values)</td>"));
	assert_non_null(strstr(t, "<td>ctxsw_invol</td>"));
	assert_string_equal(json_test(j, "ctxsw_invol"), "welch_log");
	assert_string_equal(json_test(j, "faults"), "welch");
	json_decref(j);
	free(t);

	/* All on the values: the heading says so, the lines say nothing. */
	in.nmetrics = 1;
	mb[0] = fa;
	mn[0] = fb;
	t = explained(&in, PR_REPORT_TEXT);
	assert_non_null(strstr(t,
	    "1 of 1 side metrics changed (Welch's t on the values, "
	    "Benjamini-Hochberg"));
	assert_null(strstr(t, "t on the values, r ="));
	free(t);

	/* All on the logs: as before. */
	mb[0] = ca;
	mn[0] = cb;
	t = explained(&in, PR_REPORT_TEXT);
	assert_non_null(strstr(t,
	    "1 of 1 side metrics changed (Welch's t on the logs, "
	    "Benjamini-Hochberg"));
	assert_null(strstr(t, "on the values"));
	assert_int_equal(strncmp(t, "\nexplanation: wall_s +", 22), 0);
	free(t);

	/* What is compared, when given: in the heading, the JSON's
	 * "compared" (`perfreg bisect`: the culprit and its parent). */
	in.label = "b1 against its parent a0*";
	t = explained(&in, PR_REPORT_TEXT);
	assert_int_equal(strncmp(t,
			     "\nexplanation of b1 against its parent a0*: "
			     "wall_s +",
			     51),
	    0);
	free(t);
	t = explained(&in, PR_REPORT_MARKDOWN);
	assert_non_null(strstr(t,
	    "\n**Explanation** of b1 against its parent a0\\*: wall_s +"));
	free(t);
	t = explained(&in, PR_REPORT_JSON);
	assert_non_null(j = json_loads(t, 0, NULL));
	assert_string_equal(json_string_value(
				json_object_get(json_object_get(j,
						    "explanation"),
				    "compared")),
	    in.label);
	json_decref(j);
	free(t);
	t = explained(&in, -1);
	assert_non_null(
	    strstr(t, "<h3>explanation of b1 against its parent a0*</h3>"));
	free(t);
}

/*
 * A metric above 0 whose logs do not vary within either side (its runs
 * one ulp apart: the logs round to one value) gets its p from the
 * values, but not for a value not above 0: the heading says why each
 * was tested on the values (review finding 8 of session 10: it said
 * "with a value not above 0" of it).  ulps is tested on the values for
 * its logs, faults for its 0, ctxsw_invol on the logs; all changed.
 */
static void
test_which_test_constant_logs(void **state)
{
	static double ca[12], cb[12], ua[12], ub[12], fa[12], fb[12], yb[12],
	    yn[12];
	const double *mb[3] = { ca, ua, fa }, *mn[3] = { cb, ub, fb };
	static const char *const names[3] = { "ctxsw_invol", "ulps", "faults" };
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	struct pr_rng r;
	char *t;
	size_t i, k;

	(void)state;
	pr_rng_seed(&r, 13);
	for (i = 0; i < 12; i++) {
		yb[i] = 1 + 0.01 * pr_rng_normal(&r);
		yn[i] = 1.2 + 0.01 * pr_rng_normal(&r);
		ca[i] = 100 + 5 * pr_rng_normal(&r);
		cb[i] = 300 + 5 * pr_rng_normal(&r);
		ua[i] = i % 2 ? nextafter(1000.0, 2000.0) : 1000.0;
		ub[i] = i % 2 ? nextafter(1500.0, 2000.0) : 1500.0;
		fa[i] = (double)(i % 3);
		fb[i] = 50 + (double)(i % 4);
	}
	/* The premise: the values vary, their logs do not. */
	assert_true(ua[1] != ua[0] && log(ua[1]) == log(ua[0]));
	assert_true(ub[1] != ub[0] && log(ub[1]) == log(ub[0]));
	memset(&in, 0, sizeof(in));
	in.primary = "wall_s";
	in.names = names;
	in.base = (struct pr_explain_side){ yb, mb, 12, NULL };
	in.new_ = (struct pr_explain_side){ yn, mn, 12, NULL };
	in.nmetrics = 2;
	pr_error_clear(&err);
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_int_equal(e.nchanged, 2);
	for (k = 0; k < e.n; k++) {
		assert_int_equal(e.items[k].log_test, e.items[k].metric == 0);
		assert_int_equal(e.items[k].nonpositive, 0);
	}
	pr_explain_release(&e);
	t = explained(&in, PR_REPORT_TEXT);
	assert_non_null(strstr(t,
	    "2 of 2 side metrics changed (Welch's t on the logs, on the "
	    "values for 1 metric whose logs do not vary, "
	    "Benjamini-Hochberg"));
	assert_null(strstr(t, "not above 0"));
	assert_true(line_has(t, "\n  ulps +", "), t on the values"));
	free(t);
	t = explained(&in, -1);
	assert_non_null(strstr(t,
	    "(Welch&#39;s t on the logs, on the values "
	    "for 1 metric whose logs do not vary, "));
	free(t);

	/* Both reasons: each counted. */
	in.nmetrics = 3;
	t = explained(&in, PR_REPORT_TEXT);
	assert_non_null(strstr(t,
	    "3 of 3 side metrics changed (Welch's t on the logs, on the "
	    "values for 1 metric with a value not above 0 and 1 whose logs "
	    "do not vary, Benjamini-Hochberg"));
	free(t);
	t = explained(&in, PR_REPORT_MARKDOWN);
	assert_non_null(strstr(t,
	    "(Welch's t on the logs, on the values for 1 metric with a "
	    "value not above 0 and 1 whose logs do not vary, "));
	free(t);
}

static void
test_split(void **state)
{
	static const char *const names[2] = { "mon.perf.instructions",
		"mon.perf.cycles" };
	static double ib[N], in_[N], cb[N], cn[N];
	const double *mb[2] = { ib, cb }, *mn[2] = { in_, cn };
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	struct pr_rng r;
	size_t i;

	(void)state;
	pr_rng_seed(&r, 7);
	/* Same work, 12% more cycles per instruction. */
	for (i = 0; i < N; i++) {
		ib[i] = 1e9 * (1 + 0.01 * pr_rng_normal(&r));
		in_[i] = 1e9 * (1 + 0.01 * pr_rng_normal(&r));
		cb[i] = ib[i] * 1.00 * (1 + 0.01 * pr_rng_normal(&r));
		cn[i] = in_[i] * 1.12 * (1 + 0.01 * pr_rng_normal(&r));
		ybase[i] = cb[i] / 1e9;
		ynew[i] = cn[i] / 1e9;
	}
	memset(&in, 0, sizeof(in));
	in.primary = "elapsed";
	in.nmetrics = 2;
	in.names = names;
	in.base = (struct pr_explain_side){ ybase, mb, N, NULL };
	in.new_ = (struct pr_explain_side){ ynew, mn, N, NULL };
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_true(e.has_split);
	assert_false(e.work_changed);
	assert_true(e.cpi_changed);
	assert_true(fabs(e.cpi_change - 0.12) < 0.02);
	assert_non_null(strstr(e.split, "same work, slower per instruction"));
	pr_explain_release(&e);

	/* Less work, same CPI. */
	for (i = 0; i < N; i++) {
		in_[i] = 0.9 * ib[i] * (1 + 0.01 * pr_rng_normal(&r));
		cn[i] = in_[i] * (1 + 0.01 * pr_rng_normal(&r));
		ynew[i] = cn[i] / 1e9;
	}
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_true(e.work_changed);
	assert_false(e.cpi_changed);
	assert_non_null(strstr(e.split, "less work done"));
	pr_explain_release(&e);

	/* Too few runs of the primary. */
	in.base.n = 1;
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_EINVAL);
	assert_non_null(strstr(err.msg, "elapsed"));
}

/* How many lines of text start with prefix. */
static size_t
lines_with(const char *text, const char *prefix)
{
	const char *p = text;
	size_t n = 0;

	while (p != NULL && *p != '\0') {
		n += strncmp(p, prefix, strlen(prefix)) == 0;
		p = strchr(p, '\n');
		p = p != NULL ? p + 1 : NULL;
	}
	return n;
}

/* The planted data as a report section: the driver first, escaped; the
 * Markdown list; the JSON object with every tested metric. */
/*
 * A throughput that fell 92% from a base with a wide spread: the interval
 * is Fieller's, as the main metric's, and never below -100%.  The
 * difference's interval over the base mean, which the explanation gave
 * before, left out the base mean's error and went to -103.4% (iperf3
 * with 1 KiB writes: "sender_bitrate -91.8% [-158%, -25.2%]").
 * Reference: tests/report/gen_explain_fieller.py (scipy).
 */
static void
test_interval_positive(void **state)
{
	static double y0[N], y1[N], tb[N], tn[N];
	const double *mb[1] = { tb }, *mn[1] = { tn };
	const char *const names[1] = { "bitrate" };
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	size_t i;

	(void)state;
	for (i = 0; i < N; i++) {
		y0[i] = 10 + (double)(i % 3);
		y1[i] = 12 + (double)(i % 3);
		tb[i] = i % 2 == 0 ? 700 : 1300;
		tn[i] = i % 2 == 0 ? 75 : 85;
	}
	memset(&in, 0, sizeof(in));
	in.primary = "elapsed";
	in.nmetrics = 1;
	in.names = names;
	in.base.primary = y0;
	in.base.metric = mb;
	in.base.n = N;
	in.new_.primary = y1;
	in.new_.metric = mn;
	in.new_.n = N;
	pr_explain_init(&e);
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	for (i = 0; i < e.n && e.items[i].metric != 0; i++)
		;
	assert_true(i < e.n);
	assert_true(fabs(e.items[i].change + 0.92) < 1e-12);
	assert_true(fabs(e.items[i].lo + 0.92837819643796315) < 1e-9);
	assert_true(fabs(e.items[i].hi + 0.9095175300712961) < 1e-9);
	pr_explain_release(&e);
}

/* The rank of metric j in e (e->n when it was not tested). */
static size_t
rank_of(const struct pr_explain *e, size_t j)
{
	size_t k;

	for (k = 0; k < e->n && e->items[k].metric != j; k++)
		;
	return k;
}

/*
 * System-wide counters per second of their run.  The wall time goes
 * from about 1 s to about 2 s; mon.irq.LOC is a timer that ticks 1,000
 * times a second whatever the run does (its count doubles with the
 * wall time, r near 1); mon.stat.ctxt's rate goes from 5,000 to 8,000 a
 * second (+60%: the planted cause; sd 800 a run); mon.perf.context_switches is the
 * child's own and stays a count.  As counts, LOC ranks first; per
 * second, LOC has not changed and ctxt has, by about +60%.
 */
static void
test_per_second(void **state)
{
	static double w0[N], w1[N], l0[N], l1[N], c0[N], c1[N], p0[N], p1[N];
	const double *mb[3] = { l0, c0, p0 }, *mn[3] = { l1, c1, p1 };
	static const char *const names[3] = { "mon.irq.LOC", "mon.stat.ctxt",
		"mon.perf.context_switches" };
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	struct pr_rng r;
	size_t i, k;
	char *t;

	(void)state;
	pr_rng_seed(&r, 7);
	for (i = 0; i < N; i++) {
		w0[i] = 1 + 0.05 * pr_rng_normal(&r);
		w1[i] = 2 + 0.1 * pr_rng_normal(&r);
		l0[i] = 1000 * w0[i] + 5 * pr_rng_normal(&r);
		l1[i] = 1000 * w1[i] + 5 * pr_rng_normal(&r);
		c0[i] = (5000 + 800 * pr_rng_normal(&r)) * w0[i];
		c1[i] = (8000 + 800 * pr_rng_normal(&r)) * w1[i];
		p0[i] = 100 + 10 * pr_rng_normal(&r);
		p1[i] = 300 + 10 * pr_rng_normal(&r);
	}
	memset(&in, 0, sizeof(in));
	in.primary = "wall_s";
	in.nmetrics = 3;
	in.names = names;
	in.base = (struct pr_explain_side){ w0, mb, N, NULL };
	in.new_ = (struct pr_explain_side){ w1, mn, N, NULL };

	/* Counts: the timer's doubling looks like the best explanation. */
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_int_equal(e.items[0].metric, 0);
	assert_true(e.items[0].changed);
	assert_false(e.items[0].per_second);
	pr_explain_release(&e);

	in.base.seconds = w0;
	in.new_.seconds = w1;
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	k = rank_of(&e, 0);
	assert_true(k < e.n);
	assert_false(e.items[k].changed);
	assert_true(e.items[k].per_second);
	assert_true(fabs(e.items[k].base_mean - 1000) < 10);
	k = rank_of(&e, 1);
	assert_true(k < e.nchanged);
	assert_true(e.items[k].per_second);
	assert_true(fabs(e.items[k].change - 0.6) < 0.15);
	k = rank_of(&e, 2);
	assert_true(k < e.nchanged);
	assert_false(e.items[k].per_second);
	assert_true(fabs(e.items[k].change - 2) < 0.1);
	assert_int_equal(e.nchanged, 2);
	assert_int_equal(pr_report_explain(&m, "explanation", 0, &e, &in, NULL,
			     0, &err),
	    PR_OK);
	t = fx_render_model(&m, PR_REPORT_TEXT);
	assert_non_null(strstr(t, "\n  mon.stat.ctxt/s +"));
	assert_non_null(strstr(t, "\n  mon.perf.context_switches +"));
	assert_non_null(strstr(t, "per second of the run (/s)"));
	assert_null(strstr(t, "mon.irq.LOC"));
	free(t);
	pr_report_model_release(&m);
	pr_explain_release(&e);
}

/*
 * A metric with next to no spread within the sides: "faults" is 150 or
 * 151 in every base run and 12,000 or 12,001 in every new one (a
 * deterministic command's page faults), "pages" 10 or 11 against 110 or
 * 111 (a spread of 0.5 against a change of 100); "a" moves with the primary run by run (y = a / 10 + noise).  The
 * slope of the primary on faults within the sides is that of the odd and
 * even runs, noise: faults and pages have no share, and rank after a,
 * faults (+7,900%) before pages (+952%).
 */
static void
test_no_spread(void **state)
{
	static double y0[N], y1[N], f0[N], f1[N], g0[N], g1[N], a0[N], a1[N],
	    k0[N], k1[N];
	const double *mb[4] = { f0, g0, a0, k0 }, *mn[4] = { f1, g1, a1, k1 };
	static const char *const names[4] = { "faults", "pages", "a", "ticks" };
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	struct pr_rng r;
	size_t i;
	char *t;

	(void)state;
	pr_rng_seed(&r, 11);
	for (i = 0; i < N; i++) {
		a0[i] = 100 + 10 * pr_rng_normal(&r);
		a1[i] = 120 + 10 * pr_rng_normal(&r);
		y0[i] = a0[i] / 10 + 0.2 * pr_rng_normal(&r);
		y1[i] = a1[i] / 10 + 0.2 * pr_rng_normal(&r);
		f0[i] = 150 + (double)(i % 2);
		f1[i] = 12000 + (double)(i % 2);
		g0[i] = 10 + (double)(i % 2);
		g1[i] = 110 + (double)(i % 2);
		k0[i] = 50 + 5 * pr_rng_normal(&r);
		k1[i] = 60 + 5 * pr_rng_normal(&r);
	}
	memset(&in, 0, sizeof(in));
	in.primary = "elapsed";
	in.nmetrics = 3;
	in.names = names;
	in.base = (struct pr_explain_side){ y0, mb, N, NULL };
	in.new_ = (struct pr_explain_side){ y1, mn, N, NULL };
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_int_equal(e.nchanged, 3);
	assert_int_equal(e.items[0].metric, 2);
	assert_false(e.items[0].no_spread);
	assert_true(isfinite(e.items[0].share));
	assert_int_equal(e.items[1].metric, 0);
	assert_true(e.items[1].no_spread);
	assert_true(isnan(e.items[1].share));
	assert_int_equal(e.items[2].metric, 1);
	assert_true(e.items[2].no_spread);
	pr_explain_release(&e);
	/* A metric that changed beside the primary with a share below
	 * PR_EXPLAIN_SHARE_MIN (ticks: no part in it) ranks after those
	 * with no spread, which may be the cause. */
	in.nmetrics = 4;
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_int_equal(e.nchanged, 4);
	assert_int_equal(e.items[0].metric, 2);
	assert_true(e.items[0].share >= PR_EXPLAIN_SHARE_MIN);
	assert_int_equal(e.items[1].metric, 0);
	assert_int_equal(e.items[2].metric, 1);
	assert_int_equal(e.items[3].metric, 3);
	assert_false(e.items[3].no_spread);
	assert_true(e.items[3].share < PR_EXPLAIN_SHARE_MIN);
	assert_int_equal(pr_report_explain(&m, "explanation", 0, &e, &in, NULL,
			     0, &err),
	    PR_OK);
	t = fx_render_model(&m, PR_REPORT_TEXT);
	assert_non_null(strstr(t,
	    "(150.5 -> 1.2e+04), next to the same in every run of a side: "
	    "its share of the change cannot be measured\n"));
	free(t);
	pr_report_model_release(&m);
	pr_explain_release(&e);
}

static void
test_section(void **state)
{
	static const char *const names[M] = { "a\033]52;x", "b*|", "c", "d",
		"mon.stat.ctxt" };
	static const char *const units[M] = { "count", "s", "", "", "count" };
	static const char *const notes[] = { "hardware counters absent" };
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	const double *mb[M], *mn[M];
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	json_t *j, *arr;
	char *t;

	(void)state;
	plant(1);
	input(&in, mb, mn, names);
	in.units = units;
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_true(e.nchanged >= 3);
	assert_int_equal(pr_report_explain(&m, "explanation", 0, &e, &in, notes,
			     1, &err),
	    PR_OK);
	t = fx_render_model(&m, PR_REPORT_TEXT);
	assert_null(strchr(t, '\033'));
	assert_int_equal(strncmp(t, "\nexplanation: elapsed +", 23), 0);
	assert_non_null(strstr(t, "side metrics changed (Welch's t"));
	/* mon.stat.ctxt is e (planted second): system-wide, said so. */
	assert_non_null(strstr(t, "system-wide"));
	assert_non_null(strstr(t, "\n  a^[]52;x +"));
	assert_true(
	    strstr(t, "\n  a^[]52;x +") < strstr(t, "\n  mon.stat.ctxt +"));
	assert_non_null(strstr(t, "r = "));
	assert_non_null(strstr(t, "with elapsed, 8"));
	assert_non_null(strstr(t,
	    "\n  work/efficiency: no work/efficiency "
	    "split"));
	assert_non_null(strstr(t, "\n  note: hardware counters absent\n"));
	assert_null(strstr(t, "more in --json"));
	assert_null(strstr(t, "-0%"));
	free(t);
	t = fx_render_model(&m, PR_REPORT_MARKDOWN);
	assert_non_null(strstr(t, "**Explanation**: elapsed"));
	assert_non_null(strstr(t, "\n- a^[]52;x +"));
	assert_non_null(strstr(t, "\n- b\\*\\| +"));
	free(t);
	t = fx_render_model(&m, PR_REPORT_JSON);
	j = json_loads(t, 0, NULL);
	assert_non_null(j);
	arr = json_object_get(json_object_get(j, "explanation"), "metrics");
	assert_int_equal(json_array_size(arr), e.n);
	assert_string_equal(json_string_value(
				json_object_get(json_array_get(arr, 0),
				    "metric")),
	    names[0]);
	assert_true(
	    json_is_true(json_object_get(json_array_get(arr, 0), "changed")));
	assert_string_equal(json_string_value(
				json_object_get(json_object_get(j,
						    "explanation"),
				    "primary")),
	    "elapsed");
	assert_int_equal(json_integer_value(
			     json_object_get(json_object_get(j, "explanation"),
				 "changed")),
	    e.nchanged);
	assert_string_equal(
	    json_string_value(json_array_get(json_object_get(json_object_get(j,
								 "explanation"),
						 "monitor_notes"),
		0)),
	    notes[0]);
	json_decref(j);
	free(t);
	pr_report_model_release(&m);
	pr_explain_release(&e);
}

/* Two parsed tool outputs (a value a record, a record a run: `time`'s
 * elapsed, user and sys): the _parsed form explains the primary by the
 * tool's own figures, where pr_report_dataset_explain wants mon.*
 * figures and adds nothing. */
static void
test_parsed(void **state)
{
	static const char *const names[M] = { "user", "sys", "c", "d", "e" };
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_report_metric rm;
	struct pr_dataset d[2];
	struct pr_report r;
	struct pr_error err;
	size_t s, i, j;
	char *t;

	(void)state;
	plant(1);
	for (s = 0; s < 2; s++) {
		pr_dataset_init(&d[s]);
		for (i = 0; i < N; i++) {
			assert_int_equal(pr_dataset_add(&d[s], "elapsed", "s",
					     PR_BETTER_LOWER,
					     (s ? ynew : ybase)[i], &err),
			    PR_OK);
			for (j = 0; j < M; j++)
				assert_int_equal(pr_dataset_add(&d[s], names[j],
						     "s", PR_BETTER_LOWER,
						     (s ? xn : xb)[j][i], &err),
				    PR_OK);
		}
	}
	/* A metric with fewer values than the primary is not aligned. */
	assert_int_equal(pr_dataset_add(&d[0], "short", "", PR_BETTER_LOWER, 1,
			     &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d[1], "short", "", PR_BETTER_LOWER, 9,
			     &err),
	    PR_OK);
	memset(&rm, 0, sizeof(rm));
	rm.name = "elapsed";
	memset(&r, 0, sizeof(r));
	r.metrics = &rm;
	r.n = 1;
	assert_int_equal(pr_report_dataset_explain(&m, "explanation", 0, &d[0],
			     &d[1], &r, &err),
	    PR_OK);
	t = fx_render_model(&m, PR_REPORT_TEXT);
	assert_null(strstr(t, "explanation"));
	free(t);
	assert_int_equal(pr_report_dataset_explain_parsed(&m, "explanation", 0,
			     &d[0], &d[1], &r, &err),
	    PR_OK);
	t = fx_render_model(&m, PR_REPORT_TEXT);
	assert_int_equal(strncmp(t, "\nexplanation: elapsed +", 23), 0);
	assert_non_null(strstr(t, "of 5 side metrics changed"));
	/* a (user) accounts for 5/6 of the change: first. */
	assert_int_equal(strncmp(strstr(t, "\n  ") + 3, "user +", 6), 0);
	assert_null(strstr(t, "system-wide"));
	assert_null(strstr(t, "short"));
	assert_non_null(strstr(t,
	    "no work/efficiency split: the inputs have no instructions"));
	free(t);
	pr_report_model_release(&m);
	for (s = 0; s < 2; s++)
		pr_dataset_release(&d[s]);
}

#define MANY 15

/* Fifteen changed metrics: ten shown, "5 more in --json". */
static void
test_top_ten(void **state)
{
	static double yb[N], yn[N], vb[MANY][N], vn[MANY][N];
	const double *mb[MANY], *mn[MANY];
	const char *names[MANY];
	char name[MANY][16];
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_explain_input in;
	struct pr_explain e;
	struct pr_error err;
	struct pr_rng r;
	size_t i, j;
	char *t;

	(void)state;
	pr_rng_seed(&r, 7);
	for (i = 0; i < N; i++) {
		yb[i] = 10 + pr_rng_normal(&r);
		yn[i] = 20 + pr_rng_normal(&r);
		for (j = 0; j < MANY; j++) {
			vb[j][i] =
			    (double)(j + 1) * yb[i] + 0.1 * pr_rng_normal(&r);
			vn[j][i] =
			    (double)(j + 1) * yn[i] + 0.1 * pr_rng_normal(&r);
		}
	}
	for (j = 0; j < MANY; j++) {
		snprintf(name[j], sizeof(name[j]), "m%zu", j);
		names[j] = name[j];
		mb[j] = vb[j];
		mn[j] = vn[j];
	}
	memset(&in, 0, sizeof(in));
	in.primary = "wall_s";
	in.nmetrics = MANY;
	in.names = names;
	in.base.primary = yb;
	in.base.metric = mb;
	in.base.n = N;
	in.new_.primary = yn;
	in.new_.metric = mn;
	in.new_.n = N;
	assert_int_equal(pr_explain_compute(&in, &e, &err), PR_OK);
	assert_int_equal(e.nchanged, MANY);
	assert_int_equal(pr_report_explain(&m, NULL, 0, &e, &in, NULL, 0, &err),
	    PR_OK);
	t = fx_render_model(&m, PR_REPORT_TEXT);
	assert_int_equal(lines_with(t, "  m"), PR_EXPLAIN_TOP);
	assert_non_null(strstr(t, "\n  5 more in --json\n"));
	assert_null(strstr(t, "system-wide"));
	assert_null(strstr(t, "note:"));
	free(t);
	pr_report_model_release(&m);
	pr_explain_release(&e);
}

/* One successful run of variant v with its metrics and monitors. */
static void
add_run(struct pr_session *s, size_t v, size_t round, double wall, double ops,
    double ctx, double noise, int monitors)
{
	struct pr_run *r;

	if (s->nruns == s->rcap) {
		s->rcap = s->rcap > 0 ? 2 * s->rcap : 16;
		s->runs = realloc(s->runs, s->rcap * sizeof(*s->runs));
		assert_non_null(s->runs);
	}
	r = &s->runs[s->nruns];
	memset(r, 0, sizeof(*r));
	r->variant = v;
	r->round = round;
	r->seq = s->nruns++;
	r->ok = 1;
	r->outcome = PR_SPAWN_OK;
	r->reason = strdup("");
	assert_non_null(r->reason);
	pr_dataset_init(&r->metrics);
	pr_dataset_init(&r->monitors);
	assert_int_equal(pr_dataset_add(&r->metrics, "wall_s", "s",
			     PR_BETTER_LOWER, wall, NULL),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&r->metrics, "ops", "1/s",
			     PR_BETTER_HIGHER, ops, NULL),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&s->v[v].data, "wall_s", "s",
			     PR_BETTER_LOWER, wall, NULL),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&s->v[v].data, "ops", "1/s",
			     PR_BETTER_HIGHER, ops, NULL),
	    PR_OK);
	if (monitors) {
		assert_int_equal(pr_dataset_add(&r->monitors,
				     "mon.perf.context_switches", "count",
				     PR_BETTER_LOWER, ctx, NULL),
		    PR_OK);
		assert_int_equal(pr_dataset_add(&r->monitors, "mon.stat.intr",
				     "count", PR_BETTER_LOWER, noise, NULL),
		    PR_OK);
	}
	s->v[v].runs_ok++;
}

/*
 * A session of two variants, 12 runs each: b's wall time is 50% longer,
 * with context switches that follow it run by run; ops falls (b does
 * less), intr is noise.  The roles decide the primary: wall_s (ops then
 * a side metric that changed) or ops.
 */
static void
make_session(struct pr_session *s, int monitors)
{
	struct pr_rng r;
	size_t i, v;

	pr_session_init(s);
	pr_runner_opts_init(&s->opts);
	assert_int_equal(pr_session_add_variant(s, "a", "true", 0, NULL, NULL,
			     NULL, NULL),
	    PR_OK);
	assert_int_equal(pr_session_add_variant(s, "b", "true", 0, NULL, NULL,
			     NULL, NULL),
	    PR_OK);
	pr_rng_seed(&r, 3);
	for (i = 0; i < 12; i++)
		for (v = 0; v < 2; v++) {
			double ctx = (v ? 1500 : 1000) + 50 * pr_rng_normal(&r);
			double wall = ctx / 1000 + 0.01 * pr_rng_normal(&r);

			add_run(s, v, i, wall, 1 / wall, ctx,
			    500 + 20 * pr_rng_normal(&r), monitors);
		}
	s->rounds_done = 12;
	s->stop = PR_STOP_DONE;
}

static json_t *
explanation(const struct pr_session *s, const enum pr_role *role, size_t *nsec)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_error err;
	json_t *j, *x;
	char *t;

	assert_int_equal(pr_report_run_explain(&m, "explanation", 0, s, 1, role,
			     NULL, 0, &err),
	    PR_OK);
	*nsec = m.n;
	t = fx_render_model(&m, PR_REPORT_JSON);
	j = json_loads(t, 0, NULL);
	assert_non_null(j);
	x = json_incref(json_object_get(j, "explanation"));
	json_decref(j);
	free(t);
	pr_report_model_release(&m);
	return x;
}

/* Whether the explanation's metrics hold name, and if so whether it
 * changed (-1: absent). */
static int
has_metric(json_t *x, const char *name)
{
	json_t *arr = json_object_get(x, "metrics");
	size_t i;

	for (i = 0; i < json_array_size(arr); i++)
		if (strcmp(json_string_value(
			       json_object_get(json_array_get(arr, i),
				   "metric")),
			name) == 0)
			return json_is_true(
			    json_object_get(json_array_get(arr, i), "changed"));
	return -1;
}

static void
test_run_session(void **state)
{
	/* The baseline's data: wall_s, then ops. */
	static const enum pr_role wall[] = { PR_ROLE_PRIMARY, PR_ROLE_SIDE };
	static const enum pr_role ops[] = { PR_ROLE_SIDE, PR_ROLE_PRIMARY };
	struct pr_session s;
	size_t nsec;
	json_t *x;

	(void)state;
	make_session(&s, 1);
	x = explanation(&s, wall, &nsec);
	assert_int_equal(nsec, 1);
	assert_string_equal(json_string_value(json_object_get(x, "primary")),
	    "wall_s");
	assert_true(
	    json_real_value(json_object_get(x, "primary_change")) > 0.4);
	/* Context switches drive it, and rank first. */
	assert_string_equal(json_string_value(json_object_get(
				json_array_get(json_object_get(x, "metrics"),
				    0),
				"metric")),
	    "mon.perf.context_switches");
	assert_int_equal(has_metric(x, "mon.perf.context_switches"), 1);
	assert_int_equal(has_metric(x, "ops"), 1);
	assert_int_equal(has_metric(x, "wall_s"), -1);
	assert_true(has_metric(x, "mon.stat.intr") >= 0);
	json_decref(x);
	x = explanation(&s, ops, &nsec);
	assert_string_equal(json_string_value(json_object_get(x, "primary")),
	    "ops");
	assert_int_equal(has_metric(x, "ops"), -1);
	assert_int_equal(has_metric(x, "wall_s"), 1);
	json_decref(x);
	pr_session_release(&s);
	/* No monitors: no explanation. */
	make_session(&s, 0);
	x = explanation(&s, wall, &nsec);
	assert_int_equal(nsec, 0);
	assert_null(x);
	pr_session_release(&s);
}

/* The suite's form (pr_report_suite_ab_explain, `suite ab --monitor`):
 * 6 processes a side, 5 samples each; each process has a level a of
 * context switches (100 on A, 200 on B, sd 10 between processes) that
 * its figure x.ns follows (100 + 0.5 a, a share of the whole change),
 * and a system-wide counter that does not change; y.ns does not change
 * and gets no explanation.  The process is the unit: the processes'
 * means are the values (6 a side, said in the heading), the sample time
 * is no side metric, and with one process a side there is nothing. */
#define NP 6
#define NS 5
static void
plant_suite(struct pr_dataset *f, struct pr_dataset *mo, int side,
    struct pr_rng *r)
{
	struct pr_error err;
	size_t u, k;

	for (u = 0; u < NP; u++) {
		double a = (side ? 200 : 100) + 10 * pr_rng_normal(r);

		pr_dataset_init(&f[u]);
		pr_dataset_init(&mo[u]);
		for (k = 0; k < NS; k++) {
			double cs = a + pr_rng_normal(r);

			assert_int_equal(pr_dataset_add(&f[u], "x.ns", "ns",
					     PR_BETTER_LOWER,
					     100 + 0.5 * cs + pr_rng_normal(r),
					     &err),
			    PR_OK);
			assert_int_equal(pr_dataset_add(&f[u], "y.ns", "ns",
					     PR_BETTER_LOWER,
					     50 + pr_rng_normal(r), &err),
			    PR_OK);
			assert_int_equal(pr_dataset_add(&mo[u],
					     "mon.perf.context_switches",
					     "count", PR_BETTER_LOWER, cs,
					     &err),
			    PR_OK);
			assert_int_equal(pr_dataset_add(&mo[u], "mon.stat.intr",
					     "count", PR_BETTER_LOWER,
					     1000 + 30 * pr_rng_normal(r),
					     &err),
			    PR_OK);
			assert_int_equal(pr_dataset_add(&mo[u], PR_MON_WALL,
					     "s", PR_BETTER_LOWER,
					     0.01 *
						 (1 + 0.01 * pr_rng_normal(r)),
					     &err),
			    PR_OK);
		}
	}
}

static void
test_suite_ab(void **state)
{
	static const struct pr_suite_figure fig[] = {
		{ "x.ns", "ns", PR_BETTER_LOWER },
		{ "y.ns", "ns", PR_BETTER_LOWER },
	};
	struct pr_dataset fa[NP], ma[NP], fb[NP], mb[NP];
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_suite_cmp c;
	struct pr_error err;
	struct pr_rng r;
	json_t *j, *arr, *x;
	size_t u, i, xi = 99;
	char *t;

	(void)state;
	pr_rng_seed(&r, 7);
	plant_suite(fa, ma, 0, &r);
	plant_suite(fb, mb, 1, &r);
	memset(&c, 0, sizeof(c));
	assert_int_equal(pr_suite_compare(fa, NP, fb, NP, fig, 2, NULL, &c,
			     &err),
	    PR_OK);
	for (i = 0; i < c.n; i++)
		if (c.index[i] == 0)
			xi = i;
	assert_true(xi < c.n);
	assert_true(pr_suite_changed(&c, xi));
	assert_int_equal(pr_report_model_list(&m, "explanations", 0, &err),
	    PR_OK);
	assert_int_equal(pr_report_suite_ab_explain(&m, "explanations",
			     PR_SECTION_LIST, fa, ma, fb, mb, NP, &c, fig, NULL,
			     0, &err),
	    PR_OK);
	t = fx_render_model(&m, PR_REPORT_TEXT);
	assert_non_null(strstr(t, "\nexplanation: x.ns +"));
	assert_non_null(strstr(t, "(Welch's t on the logs of the processes,"));
	assert_non_null(strstr(t, "\n  mon.perf.context_switches +"));
	assert_null(strstr(t, "explanation: y.ns"));
	assert_null(strstr(t, "run.wall_s"));
	free(t);
	t = fx_render_model(&m, PR_REPORT_JSON);
	assert_non_null(j = json_loads(t, 0, NULL));
	arr = json_object_get(j, "explanations");
	assert_int_equal(json_array_size(arr), 1);
	x = json_array_get(arr, 0);
	assert_string_equal(json_string_value(json_object_get(x, "primary")),
	    "x.ns");
	x = json_array_get(json_object_get(x, "metrics"), 0);
	assert_string_equal(json_string_value(json_object_get(x, "metric")),
	    "mon.perf.context_switches");
	assert_true(json_is_true(json_object_get(x, "changed")));
	json_decref(j);
	free(t);
	pr_report_model_release(&m);

	/* One process a side: no explanation, no error. */
	pr_report_model_init(&m);
	assert_int_equal(pr_report_suite_ab_explain(&m, "explanations",
			     PR_SECTION_LIST, fa, ma, fb, mb, 1, &c, fig, NULL,
			     0, &err),
	    PR_OK);
	t = fx_render_model(&m, PR_REPORT_TEXT);
	assert_null(strstr(t, "explanation"));
	free(t);
	pr_report_model_release(&m);
	pr_suite_cmp_release(&c);
	for (u = 0; u < NP; u++) {
		pr_dataset_release(&fa[u]);
		pr_dataset_release(&ma[u]);
		pr_dataset_release(&fb[u]);
		pr_dataset_release(&mb[u]);
	}
}

/* The first explanation of m (released here) is of primary, its heading
 * the verdict's change, and its first side metric mon.perf.log_x (the
 * log of each process's value) takes the whole of the log change. */
static void
check_log_whole(struct pr_report_model *m, const char *primary, double change)
{
	json_t *j, *x, *it;
	char *t = fx_render_model(m, PR_REPORT_JSON);

	assert_non_null(j = json_loads(t, 0, NULL));
	x = json_array_get(json_object_get(j, "explanations"), 0);
	assert_non_null(x);
	assert_string_equal(json_string_value(json_object_get(x, "primary")),
	    primary);
	assert_near(json_real_value(json_object_get(x, "primary_change")),
	    change, 1e-12);
	it = json_array_get(json_object_get(x, "metrics"), 0);
	assert_string_equal(json_string_value(json_object_get(it, "metric")),
	    "mon.perf.log_x");
	assert_near(json_real_value(json_object_get(it, "share")), 1, 1e-9);
	json_decref(j);
	free(t);
	pr_report_model_release(m);
}

/*
 * The suite's explanation's heading is the verdict's change: suite ab's
 * processes, each one's samples all alike, the base's spread wide and
 * the new one's narrow, so that the verdict's geometric change of the
 * process means (the moderated t on their logs) is far from their
 * arithmetic change; the heading gives the verdict's, and a monitor
 * figure that is the log of the process's figure takes the whole of the
 * log change (share 1: the figure was taken in logs).
 */
static void
test_suite_headline(void **state)
{
	static const struct pr_suite_figure fig[] = {
		{ "x.ns", "ns", PR_BETTER_LOWER },
	};
	struct pr_dataset f[2][NP], mo[2][NP];
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_suite_cmp c;
	struct pr_error err;
	struct pr_rng r;
	double sum[2] = { 0, 0 }, ari, v;
	size_t u, k, s;

	(void)state;
	pr_rng_seed(&r, 1314);
	for (s = 0; s < 2; s++)
		for (u = 0; u < NP; u++) {
			v = s ? 50 * exp(0.05 * pr_rng_normal(&r))
			      : 100 * exp(pr_rng_normal(&r));
			sum[s] += v;
			pr_dataset_init(&f[s][u]);
			pr_dataset_init(&mo[s][u]);
			for (k = 0; k < NS; k++) {
				assert_int_equal(pr_dataset_add(&f[s][u],
						     "x.ns", "ns",
						     PR_BETTER_LOWER, v, &err),
				    PR_OK);
				assert_int_equal(pr_dataset_add(&mo[s][u],
						     "mon.perf.log_x", "",
						     PR_BETTER_LOWER, log(v),
						     &err),
				    PR_OK);
				assert_int_equal(pr_dataset_add(&mo[s][u],
						     PR_MON_WALL, "s",
						     PR_BETTER_LOWER, 0.01,
						     &err),
				    PR_OK);
			}
		}
	ari = sum[1] / sum[0] - 1;
	memset(&c, 0, sizeof(c));
	assert_int_equal(pr_suite_compare(f[0], NP, f[1], NP, fig, 1, NULL, &c,
			     &err),
	    PR_OK);
	assert_int_equal(c.n, 1);
	assert_true(pr_suite_changed(&c, 0));
	print_message("verdict %+.3f%%, arithmetic %+.3f%%\n",
	    c.cmp[0].change_pct, 100 * ari);
	assert_true(fabs(c.cmp[0].change_pct - 100 * ari) > 1);
	assert_int_equal(pr_report_model_list(&m, "explanations", 0, &err),
	    PR_OK);
	assert_int_equal(pr_report_suite_ab_explain(&m, "explanations",
			     PR_SECTION_LIST, f[0], mo[0], f[1], mo[1], NP, &c,
			     fig, NULL, 0, &err),
	    PR_OK);
	check_log_whole(&m, "x.ns", c.cmp[0].change_pct / 100);
	pr_suite_cmp_release(&c);
	for (s = 0; s < 2; s++)
		for (u = 0; u < NP; u++) {
			pr_dataset_release(&f[s][u]);
			pr_dataset_release(&mo[s][u]);
		}
}

/*
 * `suite --monitor`'s explanation from the store (pr_report_suite_explain)
 * takes each process's figure by its probe's rule, as the verdict does:
 * a best-sample probe's processes give their best sample, and its monitor
 * figures their mean.  Each stored process (a round) of the variant "bst"
 * has a best sample v and four samples far worse than it by a random
 * amount (slower for a time, lower for a throughput), and a monitor figure
 * log(v) + e in each sample, where the e are random and sum to zero in
 * the process; the base session's v are about 100, the new one's about
 * 50.  Taken by the rule, the figure is v and the monitor's mean log(v),
 * so the monitor takes the whole of the log change (share 1, as in
 * test_suite_headline); taking the figure as the processes' mean, or the
 * monitor by the figure's rule (its least sample), would not.
 */
static void
store_process(struct pr_store *st, int64_t sid, int64_t vid, size_t round,
    const struct pr_suite_figure *f, double v, struct pr_rng *r, size_t *seq)
{
	struct pr_store_run run;
	struct pr_dataset d;
	struct pr_error err;
	double e[NS], sum = 0;
	size_t k;

	for (k = 0; k + 1 < NS; k++)
		sum += e[k] = 0.3 * pr_rng_normal(r);
	e[NS - 1] = -sum;
	for (k = 0; k < NS; k++) {
		double worse = 1.5 + 3 * fabs(pr_rng_normal(r));
		double x = k == 2                  ? v
		    : f->better == PR_BETTER_LOWER ? v * worse
						   : v / worse;

		pr_dataset_init(&d);
		assert_int_equal(pr_dataset_add(&d, f->name, f->unit, f->better,
				     x, &err),
		    PR_OK);
		assert_int_equal(pr_dataset_add(&d, "mon.perf.log_x", "",
				     PR_BETTER_LOWER, log(v) + e[k], &err),
		    PR_OK);
		assert_int_equal(pr_dataset_add(&d, PR_MON_WALL, "s",
				     PR_BETTER_LOWER, 0.01, &err),
		    PR_OK);
		memset(&run, 0, sizeof(run));
		run.variant = vid;
		run.round = round;
		run.seq = (*seq)++;
		run.ok = 1;
		run.outcome = "ok";
		run.reason = pr_str_c("");
		run.start_s = (double)run.seq;
		run.metrics = &d;
		assert_int_equal(pr_store_add_run(st, sid, &run, &err), PR_OK);
		pr_dataset_release(&d);
	}
}

static void
store_rule_case(const struct pr_suite_figure *fig)
{
	static const struct pr_probe best = { .name = "bst",
		.figure = PR_PROBE_FIGURE_BEST };
	struct pr_dataset u[2][NP];
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_store_session_new sn;
	struct pr_suite_result res;
	struct pr_store *st = NULL;
	struct pr_suite_cmp c;
	struct pr_error err;
	struct pr_rng r;
	int64_t sid[2], vid;
	char dir[] = "/tmp/perfreg-explain-XXXXXX", db[64];
	size_t s, p, seq = 0;

	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof(db), "%s/s.db", dir);
	assert_int_equal(pr_store_open(db, PR_STORE_CREATE, &st, &err), PR_OK);
	pr_rng_seed(&r, 2718);
	for (s = 0; s < 2; s++) {
		memset(&sn, 0, sizeof(sn));
		sn.campaign = pr_str_c("suite");
		sn.host = "testhost";
		sn.boot_id = "b";
		sn.started = 1000 + (double)s;
		assert_int_equal(pr_store_session_begin(st, &sn, &sid[s], &err),
		    PR_OK);
		assert_int_equal(pr_store_session_variant(st, sid[s],
				     pr_str_c("bst"), "", &vid, &err),
		    PR_OK);
		for (p = 0; p < NP; p++) {
			double v =
			    (s ? 50 : 100) * exp(0.1 * pr_rng_normal(&r));

			store_process(st, sid[s], vid, p, fig, v, &r, &seq);
			/* The verdict's units: each process's best. */
			pr_dataset_init(&u[s][p]);
			assert_int_equal(pr_dataset_add(&u[s][p], fig->name,
					     fig->unit, fig->better, v, &err),
			    PR_OK);
		}
		assert_int_equal(pr_store_session_end(st, sid[s], "done", 1,
				     &err),
		    PR_OK);
	}
	memset(&c, 0, sizeof(c));
	assert_int_equal(pr_suite_compare(u[0], NP, u[1], NP, fig, 1, NULL, &c,
			     &err),
	    PR_OK);
	assert_true(pr_suite_changed(&c, 0));
	memset(&res, 0, sizeof(res));
	res.probe = &best;
	res.label = "bst";
	pr_dataset_init(&res.data);
	pr_dataset_init(&res.monitors);
	assert_int_equal(pr_dataset_add(&res.data, fig->name, fig->unit,
			     fig->better, 50, &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&res.monitors, "mon.perf.log_x", "",
			     PR_BETTER_LOWER, log(50), &err),
	    PR_OK);
	assert_int_equal(pr_report_model_list(&m, "explanations", 0, &err),
	    PR_OK);
	assert_int_equal(pr_report_suite_explain(&m, "explanations",
			     PR_SECTION_LIST, st, &sid[0], 1, &sid[1], 1, &res,
			     1, &c, fig, NULL, 0, &err),
	    PR_OK);
	check_log_whole(&m, fig->name, c.cmp[0].change_pct / 100);
	pr_suite_cmp_release(&c);
	pr_dataset_release(&res.data);
	pr_dataset_release(&res.monitors);
	for (s = 0; s < 2; s++)
		for (p = 0; p < NP; p++)
			pr_dataset_release(&u[s][p]);
	pr_store_close(st);
	assert_int_equal(unlink(db), 0);
	snprintf(db, sizeof(db), "%s/s.db-wal", dir);
	(void)unlink(db);
	snprintf(db, sizeof(db), "%s/s.db-shm", dir);
	(void)unlink(db);
	assert_int_equal(rmdir(dir), 0);
}

/* A time, where the best is the least sample, and a throughput, where it
 * is the greatest. */
static void
test_suite_store_rule(void **state)
{
	static const struct pr_suite_figure time_fig[] = {
		{ "bst.x.ns", "ns", PR_BETTER_LOWER },
	};
	static const struct pr_suite_figure rate_fig[] = {
		{ "bst.x.mbps", "MB/s", PR_BETTER_HIGHER },
	};

	(void)state;
	store_rule_case(time_fig);
	store_rule_case(rate_fig);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranking),
		cmocka_unit_test(test_ranking_follows_the_data),
		cmocka_unit_test(test_aa),
		cmocka_unit_test(test_log_primary),
		cmocka_unit_test(test_log_test),
		cmocka_unit_test(test_which_test),
		cmocka_unit_test(test_which_test_constant_logs),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_interval_positive),
		cmocka_unit_test(test_per_second),
		cmocka_unit_test(test_no_spread),
		cmocka_unit_test(test_section),
		cmocka_unit_test(test_parsed),
		cmocka_unit_test(test_top_ten),
		cmocka_unit_test(test_run_session),
		cmocka_unit_test(test_suite_ab),
		cmocka_unit_test(test_suite_headline),
		cmocka_unit_test(test_suite_store_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
