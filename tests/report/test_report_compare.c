/*
 * tests/report/test_report_compare.c - the comparisons of `perfreg
 * compare` built in the library, on synthetic data: two datasets
 * (perfreg/report_compare.h: metrics paired by name, one-sided metrics
 * noted, disagreeing units and directions refused, constant metrics not
 * tested, the gate and its threshold), and a campaign's pair of
 * variants (perfreg/report_campaign.h: the boot level and its boot
 * means, the run level with its warning, Welch's t by default, hosts
 * compared one by one and across, a host that ran one side named and
 * left out, one host alone not gating, --host, the changes within a
 * variant between sessions); large metrics sorted in place give the same
 * comparison as sorted copies; the secondary figures no report shows
 * are left out, the shown ones equal to the full pr_compare's.  The statistics themselves (pr_compare,
 * pr_campaign_hosts) are checked against references in tests/stats;
 * here the decisions around them are.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "perfreg/buf.h"
#include "perfreg/report_campaign.h"
#include "perfreg/report_compare.h"
#include "perfreg/report_model.h"
#include "perfreg/rng.h"
#include "perfreg/sample.h"
#include "perfreg/verdict.h"

static void
add(struct pr_dataset *d, const char *name, const char *unit, enum pr_better b,
    const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(pr_dataset_add(d, name, unit, b, v[i], NULL),
		    PR_OK);
}

static const double slow[] = { 10.0, 10.2, 9.9, 10.1, 10.0, 10.1 };
static const double fast[] = { 12.0, 12.1, 11.9, 12.2, 12.0, 12.1 };
static const double same[] = { 7, 7, 7, 7, 7, 7 };

static void
test_datasets(void **state)
{
	struct pr_dataset a, b;
	struct pr_report_compare_opts o;
	struct pr_report_compare_result r;
	struct pr_error err;

	(void)state;
	pr_dataset_init(&a);
	pr_dataset_init(&b);
	add(&a, "t", "s", PR_BETTER_LOWER, slow, 6);
	add(&a, "only_a", "s", PR_BETTER_LOWER, slow, 6);
	add(&a, "k", "", PR_BETTER_UNKNOWN, same, 6);
	add(&a, "rss", "KiB", PR_BETTER_UNKNOWN, slow, 6);
	add(&b, "rss", "KiB", PR_BETTER_UNKNOWN, slow, 6);
	add(&b, "k", "", PR_BETTER_UNKNOWN, same, 6);
	add(&b, "t", "s", PR_BETTER_LOWER, fast, 6);
	add(&b, "only_b", "s", PR_BETTER_LOWER, fast, 6);
	pr_report_compare_opts_init(&o);
	o.gate = 1;
	assert_int_equal(pr_report_compare_datasets(&a, &b, "a", "b", &o, &r,
			     &err),
	    PR_OK);
	/* t is primary (the only metric with a known direction), rss a side
	 * metric, k constant: not tested. */
	assert_int_equal(r.report.n, 1);
	assert_string_equal(r.rm[0].name, "t");
	assert_int_equal(r.rm[0].cmp.verdict, PR_VERDICT_REGRESSION);
	assert_non_null(r.report.side);
	assert_int_equal(r.report.side->n, 1);
	assert_string_equal(r.report.side->metrics[0].name, "rss");
	assert_int_equal(r.report.side->metrics[0].better_assumed, 1);
	assert_int_equal(r.report.n_not_tested, 1);
	assert_string_equal(r.report.not_tested[0], "k");
	/* The one-sided metrics in order, then the gate. */
	assert_int_equal(r.nnote, 3);
	assert_string_equal(r.note[0],
	    "warning: metric 'only_a' is only in a; not compared");
	assert_string_equal(r.note[1],
	    "warning: metric 'only_b' is only in b; not compared");
	assert_non_null(strstr(r.note[2], "regression in 't': "));
	assert_int_equal(r.regression, 1);
	pr_report_compare_result_release(&r);

	/* A threshold above the change does not gate. */
	o.threshold_pct = 25;
	assert_int_equal(pr_report_compare_datasets(&a, &b, "a", "b", &o, &r,
			     &err),
	    PR_OK);
	assert_int_equal(r.regression, 0);
	assert_int_equal(r.nnote, 2);
	pr_report_compare_result_release(&r);

	/* --column keeps the named metrics; one not in both is refused. */
	{
		const char *col[] = { "only_a" };

		o.column = col;
		o.ncolumn = 1;
		assert_int_equal(pr_report_compare_datasets(&a, &b, "a", "b",
				     &o, &r, &err),
		    PR_EINVAL);
		assert_string_equal(err.msg,
		    "compare: no metric 'only_a' in both a and b");
		assert_int_equal(r.report.n, 0);
		assert_null(r.rm);
		pr_report_compare_result_release(&r);
		o.column = NULL;
		o.ncolumn = 0;
	}
	/* Forced direction: t is then an improvement. */
	o.force_better = PR_BETTER_HIGHER;
	assert_int_equal(pr_report_compare_datasets(&a, &b, "a", "b", &o, &r,
			     &err),
	    PR_OK);
	assert_int_equal(r.rm[0].cmp.verdict, PR_VERDICT_IMPROVEMENT);
	assert_int_equal(r.regression, 0);
	pr_report_compare_result_release(&r);
	pr_dataset_release(&a);
	pr_dataset_release(&b);
}

/* The figures of a comparison that must not depend on how it sorted. */
static void
same_comparison(const struct pr_comparison *x, const struct pr_comparison *y)
{
	assert_int_equal(x->verdict, y->verdict);
	assert_int_equal(x->method, y->method);
	assert_true(x->change_pct == y->change_pct);
	assert_true(x->ci_lo_pct == y->ci_lo_pct);
	assert_true(x->ci_hi_pct == y->ci_hi_pct);
	assert_true(x->p_value == y->p_value);
	assert_true(x->base.median == y->base.median);
	assert_true(x->new.median == y->new.median);
	assert_true(x->base.mean == y->base.mean);
	assert_true(x->new.q3 == y->new.q3);
}

/*
 * sort_in_place: a metric with more values a side than the report keeps
 * (100,000) is sorted in the datasets themselves and compares exactly as
 * on sorted copies; a smaller one keeps its run order in the datasets
 * and in the report (the JSON values and the HTML order plot), as
 * without the option.
 */
static void
test_sort_in_place(void **state)
{
	enum { BIG = 150000, SMALL = 500 };
	struct pr_dataset a[2], b[2];
	struct pr_report_compare_opts o;
	struct pr_report_compare_result r[2];
	struct pr_error err;
	struct pr_rng g;
	const struct pr_sample *s;
	size_t i, k, unsorted;
	double x;

	(void)state;
	pr_rng_seed(&g, 16);
	for (k = 0; k < 2; k++) {
		pr_dataset_init(&a[k]);
		pr_dataset_init(&b[k]);
	}
	for (i = 0; i < BIG; i++) {
		x = 100 + pr_rng_normal(&g);
		for (k = 0; k < 2; k++)
			assert_int_equal(pr_dataset_add(&a[k], "big", "s",
					     PR_BETTER_LOWER, x, NULL),
			    PR_OK);
		x = 100.5 + pr_rng_normal(&g);
		for (k = 0; k < 2; k++)
			assert_int_equal(pr_dataset_add(&b[k], "big", "s",
					     PR_BETTER_LOWER, x, NULL),
			    PR_OK);
	}
	for (i = 0; i < SMALL; i++)
		for (k = 0; k < 2; k++) {
			assert_int_equal(pr_dataset_add(&a[k], "small", "s",
					     PR_BETTER_LOWER,
					     (double)(SMALL - i), NULL),
			    PR_OK);
			assert_int_equal(pr_dataset_add(&b[k], "small", "s",
					     PR_BETTER_LOWER,
					     (double)(SMALL - i) + 1, NULL),
			    PR_OK);
		}
	for (k = 0; k < 2; k++) {
		pr_report_compare_opts_init(&o);
		o.sort_in_place = (int)k;
		pr_error_clear(&err);
		assert_int_equal(pr_report_compare_datasets(&a[k], &b[k], "a",
				     "b", &o, &r[k], &err),
		    PR_OK);
		assert_int_equal(r[k].nrm, 2);
	}
	for (i = 0; i < 2; i++) {
		assert_string_equal(r[0].rm[i].name, r[1].rm[i].name);
		same_comparison(&r[0].rm[i].cmp, &r[1].rm[i].cmp);
	}
	/* Without the option the big metric keeps its run order; with it
	 * the datasets hold it sorted, and the report none of it. */
	s = &pr_dataset_find(&a[0], "big")->values;
	for (unsorted = 0, i = 1; i < s->n; i++)
		unsorted += s->v[i] < s->v[i - 1];
	assert_true(unsorted > BIG / 4);
	for (k = 0; k < 2; k++) {
		s = &pr_dataset_find(k ? &b[1] : &a[1], "big")->values;
		for (unsorted = 0, i = 1; i < s->n; i++)
			unsorted += s->v[i] < s->v[i - 1];
		assert_int_equal(unsorted, 0);
	}
	for (i = 0; i < 2; i++)
		if (strcmp(r[1].rm[i].name, "big") == 0) {
			assert_null(r[1].rm[i].base_values);
			assert_int_equal(r[1].rm[i].base_n, 0);
		} else {
			/* The small one in run order (descending) in both. */
			assert_int_equal(r[1].rm[i].base_n, SMALL);
			assert_true(r[1].rm[i].base_values[0] == SMALL);
			assert_true(r[1].rm[i].new_values[SMALL - 1] == 2);
			s = &pr_dataset_find(&a[1], "small")->values;
			assert_true(s->v[0] == SMALL);
		}
	for (k = 0; k < 2; k++) {
		pr_report_compare_result_release(&r[k]);
		pr_dataset_release(&a[k]);
		pr_dataset_release(&b[k]);
	}
}

/*
 * The report computes what it shows and nothing else: each row is
 * pr_compare's comparison of the sorted sides, to the bit in every
 * figure a report prints, without the secondary figures no report shows
 * (the ratio intervals, the Mann-Whitney test and Hodges-Lehmann shift
 * beside a t-test), which the full pr_compare has; with Mann-Whitney as
 * the method the test and its shift are the primary, and kept.
 */
static void
test_secondary_left_out(void **state)
{
	enum { N = 400 };
	struct pr_dataset a, b;
	struct pr_report_compare_opts o;
	struct pr_report_compare_result r;
	struct pr_comparison full;
	struct pr_error err;
	struct pr_rng g;
	double va[N], vb[N];
	size_t i;
	int mwu;

	(void)state;
	pr_rng_seed(&g, 15);
	for (i = 0; i < N; i++) {
		va[i] = 100 + pr_rng_normal(&g);
		vb[i] = 100.3 + pr_rng_normal(&g);
	}
	pr_dataset_init(&a);
	pr_dataset_init(&b);
	add(&a, "t", "s", PR_BETTER_LOWER, va, N);
	add(&b, "t", "s", PR_BETTER_LOWER, vb, N);
	pr_sort_doubles(va, N);
	pr_sort_doubles(vb, N);
	for (mwu = 0; mwu < 2; mwu++) {
		pr_report_compare_opts_init(&o);
		if (mwu)
			o.verdict.method = PR_METHOD_MWU;
		assert_int_equal(pr_report_compare_datasets(&a, &b, "a", "b",
				     &o, &r, &err),
		    PR_OK);
		assert_int_equal(r.nrm, 1);
		assert_int_equal(pr_compare(va, N, vb, N, PR_BETTER_LOWER,
				     &o.verdict, &full, &err),
		    PR_OK);
		same_comparison(&r.rm[0].cmp, &full);
		assert_int_equal(r.rm[0].cmp.notes, full.notes);
		assert_true(r.rm[0].cmp.rel_sd == full.rel_sd);
		assert_int_equal(r.rm[0].cmp.runs_needed, full.runs_needed);
		assert_int_equal(r.rm[0].cmp.tested, 1);
		assert_true(full.have_ratio_means && full.have_ratio_medians);
		assert_true(full.have_mwu && full.have_hl);
		assert_false(r.rm[0].cmp.have_ratio_means ||
		    r.rm[0].cmp.have_ratio_medians);
		assert_int_equal(r.rm[0].cmp.have_mwu, mwu);
		assert_int_equal(r.rm[0].cmp.have_hl_ratio, mwu);
		assert_false(r.rm[0].cmp.have_hl);
		pr_report_compare_result_release(&r);
	}
	pr_dataset_release(&a);
	pr_dataset_release(&b);
}

static void
test_datasets_disagree(void **state)
{
	struct pr_dataset a, b;
	struct pr_report_compare_opts o;
	struct pr_report_compare_result r;
	struct pr_error err;

	(void)state;
	pr_report_compare_opts_init(&o);
	pr_dataset_init(&a);
	pr_dataset_init(&b);
	add(&a, "t", "s", PR_BETTER_LOWER, slow, 6);
	add(&b, "t", "ms", PR_BETTER_LOWER, fast, 6);
	assert_int_equal(pr_report_compare_datasets(&a, &b, "a", "b", &o, &r,
			     &err),
	    PR_EINVAL);
	assert_string_equal(err.msg, "metric 't' is in s in a but in ms in b");
	pr_report_compare_result_release(&r);
	pr_dataset_release(&b);
	pr_dataset_init(&b);
	add(&b, "t", "s", PR_BETTER_HIGHER, fast, 6);
	assert_int_equal(pr_report_compare_datasets(&a, &b, "a", "b", &o, &r,
			     &err),
	    PR_EINVAL);
	assert_non_null(
	    strstr(err.msg, "a says lower is better, b says higher"));
	pr_report_compare_result_release(&r);
	pr_dataset_release(&b);
	pr_dataset_init(&b);
	add(&b, "u", "s", PR_BETTER_LOWER, fast, 6);
	assert_int_equal(pr_report_compare_datasets(&a, &b, "a", "b", &o, &r,
			     &err),
	    PR_EINVAL);
	assert_string_equal(err.msg,
	    "compare: a and b have no metric in common");
	pr_report_compare_result_release(&r);
	pr_dataset_release(&a);
	pr_dataset_release(&b);
}

/* ---------------------------------------------------------------- *
 * Campaigns
 * ---------------------------------------------------------------- */

/*
 * A variant's runs: nb boots of k runs each, value base * factor[host of
 * the boot] + a small spread; boot j runs on host hosts[j] and was
 * first seen in session sess0 + j.
 */
struct fake {
	struct pr_store_variant_data d;
	struct pr_store_series m;
	char *ids[8];
	int64_t sid[8];
	size_t host[8];
	double v[64];
	size_t boot[64];
};

static void
fake(struct fake *f, size_t nb, size_t k, double base, const double *factor,
    const size_t *hosts, int64_t sess0)
{
	static char ids[8][16];
	size_t j, i, n = 0;

	memset(f, 0, sizeof(*f));
	for (j = 0; j < nb; j++) {
		snprintf(ids[j], sizeof(ids[j]), "boot%zu", j);
		f->ids[j] = ids[j];
		f->sid[j] = sess0 + (int64_t)j;
		f->host[j] = hosts[j];
		for (i = 0; i < k; i++, n++) {
			f->v[n] = base * factor[hosts[j]] *
			    (1 + 0.01 * (double)((n * 7 + j * 3) % 5) +
				0.003 * (double)j);
			f->boot[n] = j;
		}
	}
	f->m.name = (char *)"wall_s";
	f->m.unit = (char *)"s";
	f->m.better = PR_BETTER_LOWER;
	f->m.value = f->v;
	f->m.boot = f->boot;
	f->m.n = n;
	f->d.boot_ids = f->ids;
	f->d.boot_session = f->sid;
	f->d.nboots = nb;
	f->d.m = &f->m;
	f->d.nm = 1;
	f->d.nruns = n;
}

static const char *const hosts[] = { "h1", "h2", "h3" };
static const double factor[] = { 1.0, 2.5, 0.6 };

/* Renders m as JSON and parses it back for the checks. */
static json_t *
as_json(const struct pr_report_model *m)
{
	struct pr_buf out = PR_BUF_INIT(1 << 24);
	json_error_t je;
	json_t *j;

	assert_int_equal(pr_report_model_render(&out, m, PR_REPORT_JSON, NULL),
	    PR_OK);
	j = json_loadb(out.data, out.len, 0, &je);
	assert_non_null(j);
	pr_buf_release(&out);
	return j;
}

static char *
as_text(const struct pr_report_model *m)
{
	struct pr_buf out = PR_BUF_INIT(1 << 24);

	assert_int_equal(pr_report_model_render(&out, m, PR_REPORT_TEXT, NULL),
	    PR_OK);
	assert_int_equal(pr_buf_addc(&out, '\0', NULL), PR_OK);
	return pr_buf_detach(&out, NULL);
}

static void
setup_campaign(struct pr_report_campaign *c)
{
	pr_report_campaign_init(c);
	c->campaign = "c";
	c->hosts = hosts;
	c->hosts_raw = hosts;
	c->nhosts = 3;
}

static void
test_campaign_boot_level(void **state)
{
	static const size_t on1[] = { 0, 0 };
	struct fake a, b;
	struct pr_report_campaign c;
	struct pr_report_campaign_variant va, vb;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	json_t *j, *p, *rep, *base;
	char *text;

	(void)state;
	fake(&a, 2, 3, 100, factor, on1, 1);
	fake(&b, 2, 3, 130, factor, on1, 1);
	setup_campaign(&c);
	c.nhosts = 1;
	va = (struct pr_report_campaign_variant){ "a", pr_str_c("a"), &a.d,
		a.host };
	vb = (struct pr_report_campaign_variant){ "b", pr_str_c("b"), &b.d,
		b.host };
	assert_int_equal(pr_report_campaign_pair(&m, &c, &va, &vb, NULL),
	    PR_OK);
	assert_int_equal(c.nnote, 0);
	j = as_json(&m);
	p = json_array_get(json_object_get(j, "comparisons"), 0);
	assert_string_equal(json_string_value(json_object_get(p, "level")),
	    "boot");
	assert_null(json_object_get(p, "host"));
	rep = json_object_get(p, "report");
	base =
	    json_object_get(json_array_get(json_object_get(rep, "metrics"), 0),
		"base");
	/* Each boot's mean is one value: the mean of the two boot means. */
	assert_int_equal(json_integer_value(json_object_get(base, "n")), 2);
	{
		double m0 = (a.v[0] + a.v[1] + a.v[2]) / 3;
		double m1 = (a.v[3] + a.v[4] + a.v[5]) / 3;

		assert_float_equal(json_real_value(
				       json_object_get(base, "mean")),
		    (m0 + m1) / 2, 1e-12);
	}
	assert_string_equal(json_string_value(json_object_get(
				json_array_get(json_object_get(rep, "metrics"),
				    0),
				"method")),
	    "welch");
	assert_true(json_is_array(json_object_get(p, "variance")));
	assert_true(json_is_array(json_object_get(p, "env_within")));
	json_decref(j);
	text = as_text(&m);
	assert_non_null(strstr(text,
	    "b against a: boot level, 2 boots (6 runs) and 2 boots (6 runs); "
	    "each boot's mean is one value\n"));
	assert_non_null(strstr(text, "share of a run's variance"));
	assert_non_null(strstr(text, "environment: no snapshot stored"));
	free(text);
	pr_report_model_release(&m);
	pr_report_campaign_release(&c);
}

static void
test_campaign_run_level(void **state)
{
	static const size_t on1[] = { 0 };
	struct fake a, b;
	struct pr_report_campaign c;
	struct pr_report_campaign_variant va, vb;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_error err;
	json_t *j;

	(void)state;
	fake(&a, 1, 6, 100, factor, on1, 1);
	fake(&b, 1, 6, 100, factor, on1, 1);
	setup_campaign(&c);
	va = (struct pr_report_campaign_variant){ "a", pr_str_c("a"), &a.d,
		a.host };
	vb = (struct pr_report_campaign_variant){ "b", pr_str_c("b"), &b.d,
		b.host };
	assert_int_equal(pr_report_campaign_pair(&m, &c, &va, &vb, &err),
	    PR_OK);
	assert_int_equal(c.nnote, 1);
	assert_string_equal(c.note[0],
	    "warning: a has 1 boot and b has 1: runs are treated as "
	    "independent, and the noise a reboot adds is unknown; run each "
	    "variant in two boots or more");
	j = as_json(&m);
	assert_string_equal(
	    json_string_value(json_object_get(json_array_get(json_object_get(j,
								 "comparisons"),
						  0),
		"level")),
	    "run");
	json_decref(j);
	pr_report_model_release(&m);
	/* A side without a run is an error naming it. */
	b.d.nruns = 0;
	assert_int_equal(pr_report_campaign_pair(&m, &c, &va, &vb, &err),
	    PR_EINVAL);
	assert_string_equal(err.msg,
	    "compare: campaign variant 'b' has no successful run stored");
	pr_report_model_release(&m);
	pr_report_campaign_release(&c);
}

static void
test_campaign_hosts(void **state)
{
	/* Two boots on each of three hosts; b is 30% slower everywhere,
	 * and on h3 only a ran. */
	static const size_t ha[] = { 0, 0, 1, 1, 2, 2 };
	static const size_t hb[] = { 0, 0, 1, 1 };
	struct fake a, b;
	struct pr_report_campaign c;
	struct pr_report_campaign_variant va, vb;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	json_t *j, *p, *per, *across;
	char *text;

	(void)state;
	fake(&a, 6, 3, 100, factor, ha, 1);
	fake(&b, 4, 3, 130, factor, hb, 1);
	setup_campaign(&c);
	c.cmp.gate = 1;
	va = (struct pr_report_campaign_variant){ "a", pr_str_c("a"), &a.d,
		a.host };
	vb = (struct pr_report_campaign_variant){ "b", pr_str_c("b"), &b.d,
		b.host };
	assert_int_equal(pr_report_campaign_pair(&m, &c, &va, &vb, NULL),
	    PR_OK);
	assert_int_equal(c.nnote, 1);
	assert_string_equal(c.note[0],
	    "warning: host h3 ran only a: not compared");
	/* Two hosts ran both: across hosts needs more than two for a
	 * verdict to gate (t on 1 df), so only the per-host verdicts exist,
	 * and they do not gate. */
	assert_int_equal(c.regression, 0);
	j = as_json(&m);
	p = json_array_get(json_object_get(j, "comparisons"), 0);
	per = json_object_get(p, "per_host");
	assert_int_equal(json_array_size(per), 2);
	assert_string_equal(json_string_value(
				json_object_get(json_array_get(per, 1),
				    "host")),
	    "h2");
	assert_string_equal(
	    json_string_value(json_object_get(
		json_array_get(
		    json_object_get(json_object_get(json_array_get(per, 0),
					"report"),
			"metrics"),
		    0),
		"verdict")),
	    "regression");
	across = json_array_get(json_object_get(p, "across_hosts"), 0);
	assert_int_equal(json_integer_value(json_object_get(across, "hosts")),
	    2);
	assert_int_equal(json_integer_value(
			     json_object_get(across, "hosts_one_side")),
	    1);
	json_decref(j);
	text = as_text(&m);
	assert_non_null(strstr(text, "b against a on host h1: boot level"));
	assert_non_null(strstr(text, "\nb against a on host h2: boot level"));
	assert_non_null(strstr(text, "b against a across 2 hosts"));
	free(text);
	pr_report_model_release(&m);

	/* --host h2: that host only, no verdict across hosts, and one host
	 * gates. */
	c.host = "h2";
	assert_int_equal(pr_report_campaign_pair(&m, &c, &va, &vb, NULL),
	    PR_OK);
	assert_int_equal(c.regression, 1);
	j = as_json(&m);
	p = json_array_get(json_object_get(j, "comparisons"), 0);
	assert_int_equal(json_array_size(json_object_get(p, "per_host")), 1);
	assert_null(json_object_get(p, "across_hosts"));
	json_decref(j);
	pr_report_model_release(&m);
	c.host = "nope";
	assert_int_equal(pr_report_campaign_pair(&m, &c, &va, &vb, NULL),
	    PR_EINVAL);
	pr_report_model_release(&m);
	pr_report_campaign_release(&c);
}

static void
test_campaign_across_gates(void **state)
{
	/* Three hosts, b 30% slower on each: across hosts a regression,
	 * which gates. */
	static const size_t h[] = { 0, 0, 1, 1, 2, 2 };
	struct fake a, b;
	struct pr_report_campaign c;
	struct pr_report_campaign_variant va, vb;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	size_t i;
	int across = 0;

	(void)state;
	fake(&a, 6, 3, 100, factor, h, 1);
	fake(&b, 6, 3, 130, factor, h, 1);
	setup_campaign(&c);
	c.cmp.gate = 1;
	va = (struct pr_report_campaign_variant){ "a", pr_str_c("a"), &a.d,
		a.host };
	vb = (struct pr_report_campaign_variant){ "b", pr_str_c("b"), &b.d,
		b.host };
	assert_int_equal(pr_report_campaign_pair(&m, &c, &va, &vb, NULL),
	    PR_OK);
	assert_int_equal(c.regression, 1);
	for (i = 0; i < c.nnote; i++) {
		/* Per host nothing gates; across hosts it does. */
		assert_null(strstr(c.note[i], "regression in"));
		across += strstr(c.note[i],
			      "regression across hosts: wall_s +") != NULL;
	}
	assert_int_equal(across, 1);
	pr_report_model_release(&m);
	pr_report_campaign_release(&c);
}

static void
test_campaign_within(void **state)
{
	static const size_t on1[] = { 0, 0 };
	struct pr_env e1, e2;
	struct pr_report_campaign_session s[3];
	struct pr_str vars[2];
	struct fake a, b;
	struct pr_report_campaign c;
	struct pr_report_campaign_variant va, vb;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	json_t *j, *w;
	char *text;
	size_t i;

	(void)state;
	pr_env_init(&e1);
	pr_env_init(&e2);
	assert_int_equal(pr_env_add(&e1, "clocksource.current", "clock", "tsc",
			     NULL, NULL),
	    PR_OK);
	assert_int_equal(pr_env_add(&e2, "clocksource.current", "clock", "hpet",
			     NULL, NULL),
	    PR_OK);
	fake(&a, 2, 3, 100, factor, on1, 1);
	fake(&b, 2, 3, 100, factor, on1, 1);
	vars[0] = pr_str_c("a");
	vars[1] = pr_str_c("b");
	/* Boot 0 is session 1; boot 1 sessions 2 (no snapshot) and 3. */
	for (i = 0; i < 3; i++) {
		s[i].id = (int64_t)i + 1;
		s[i].boot_id = i == 0 ? "boot0" : "boot1";
		s[i].variants = vars;
		s[i].nvariants = 2;
	}
	s[0].env = &e1;
	s[1].env = NULL;
	s[2].env = &e2;
	a.sid[1] = b.sid[1] = 2;
	setup_campaign(&c);
	c.nhosts = 1;
	c.sess = s;
	c.nsess = 3;
	va = (struct pr_report_campaign_variant){ "a", pr_str_c("a"), &a.d,
		a.host };
	vb = (struct pr_report_campaign_variant){ "b", pr_str_c("b"), &b.d,
		b.host };
	assert_int_equal(pr_report_campaign_pair(&m, &c, &va, &vb, NULL),
	    PR_OK);
	j = as_json(&m);
	w = json_object_get(json_array_get(json_object_get(j, "comparisons"),
				0),
	    "env_within");
	/* Sessions 1 and 3 compared (2 has no snapshot), for each variant. */
	assert_int_equal(json_array_size(w), 2);
	assert_string_equal(json_string_value(
				json_object_get(json_array_get(w, 1),
				    "variant")),
	    "b");
	assert_int_equal(json_integer_value(
			     json_object_get(json_array_get(w, 0),
				 "session_b")),
	    3);
	assert_int_equal(json_integer_value(
			     json_object_get(json_array_get(w, 0), "boot_b")),
	    2);
	json_decref(j);
	text = as_text(&m);
	assert_non_null(strstr(text,
	    "environment: differs within variant a between boots 1 and 2 "
	    "(sessions 1 and 3)"));
	/* The first sessions of both sides have the same snapshot. */
	assert_non_null(strstr(text,
	    "environment: what differs between a "
	    "(session 1) and b (session 1)"));
	free(text);
	pr_report_model_release(&m);
	pr_report_campaign_release(&c);
	pr_env_release(&e1);
	pr_env_release(&e2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_datasets),
		cmocka_unit_test(test_datasets_disagree),
		cmocka_unit_test(test_sort_in_place),
		cmocka_unit_test(test_secondary_left_out),
		cmocka_unit_test(test_campaign_boot_level),
		cmocka_unit_test(test_campaign_run_level),
		cmocka_unit_test(test_campaign_hosts),
		cmocka_unit_test(test_campaign_across_gates),
		cmocka_unit_test(test_campaign_within),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
