/*
 * tests/report/test_report.c - the writers of perfreg/report.h on
 * hand-built comparisons: the JSON parses back with every field, the
 * words follow the direction, no writer prints nan or inf, the Markdown
 * and CSV tables have the right columns, the text table is aligned, and
 * values get sensible units.
 */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "perfreg/buf.h"
#include "perfreg/report.h"
#include "fixture.h"

static void
summary(struct pr_summary *s, size_t n, double mean, double sd)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->mean = s->median = s->min = s->max = mean;
	if (n >= 2) {
		s->stddev = sd;
		s->var = sd * sd;
		s->defined = PR_SUM_STDDEV | PR_SUM_QUARTILES | PR_SUM_MAD;
		s->min = mean - sd;
		s->max = mean + sd;
	}
}

static const double tasklet[] = { 4.83, 5.16, 4.87 };
static const double threadirq[] = { 5.30, 5.18, 5.61 };

/*
 * Three metrics: a time with a significant regression (Welch), one
 * throughput measured once per side (untested), and a metric without a
 * known direction whose new side has zero spread (inconclusive).
 */
static void
build(struct pr_report *r, struct pr_report_metric m[3])
{
	struct pr_comparison *c;

	fx_metric(&m[0], "elapsed", "s", tasklet, 3, threadirq, 3);
	c = &m[0].cmp;
	summary(&c->base, 3, 4.953333, 0.18009);
	summary(&c->new, 3, 5.363333, 0.220076);
	fx_tested(c, PR_METHOD_WELCH, 12.1, 8.04, 16.3, 0.0012,
	    PR_VERDICT_REGRESSION);
	c->p_adjusted = 0.0024;
	c->holm_m = 2;

	fx_metric(&m[1], "16 bytes", "bytes/s", NULL, 0, NULL, 0);
	c = &m[1].cmp;
	summary(&c->base, 1, 586200, 0);
	summary(&c->new, 1, 564750, 0);
	c->better = PR_BETTER_HIGHER;
	c->method = PR_METHOD_NONE;
	c->tested = 0;
	c->change_pct = -3.659;
	c->have_change = 1;
	c->notes = PR_NOTE_UNTESTED;
	c->p_value = NAN;
	c->p_adjusted = NAN;
	c->verdict = PR_VERDICT_INCONCLUSIVE;

	fx_metric(&m[2], "rounds", "", NULL, 0, NULL, 0);
	m[2].better_assumed = 1;
	c = &m[2].cmp;
	summary(&c->base, 3, 7.2397, 0.018);
	summary(&c->new, 3, 7.02, 0);
	fx_tested(c, PR_METHOD_WELCH, -0.5, -1.6, 0.7, 0.3,
	    PR_VERDICT_INCONCLUSIVE);
	c->notes = PR_NOTE_QUANTISED | PR_NOTE_HOLM;
	c->resolution = 0.01;
	c->holm_m = 2;
	c->runs_needed = 17;

	fx_report(r, m, 3, "base.csv", "new.csv");
	r->holm_m = 2;
}

static char *
render(const struct pr_report *r, enum pr_report_format f)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	struct pr_error err;

	assert_int_equal(pr_report_compare(&b, r, f, &err), PR_OK);
	assert_non_null(b.data);
	return pr_buf_detach(&b, NULL);
}

static int
contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay != '\0'; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return 1;
	return 0;
}

static json_t *
get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (v == NULL)
		fail_msg("JSON field '%s' is missing", key);
	return v;
}

static void
check_side(json_t *side, size_t n, int sd_defined)
{
	assert_true(json_is_object(side));
	assert_int_equal(json_integer_value(get(side, "n")), n);
	assert_true(json_is_real(get(side, "mean")));
	assert_true(json_is_real(get(side, "median")));
	if (sd_defined)
		assert_true(json_is_real(get(side, "stddev")));
	else
		assert_true(json_is_null(get(side, "stddev")));
}

static void
test_json_fields(void **state)
{
	static const char *const fields[] = { "name", "unit", "better",
		"direction_assumed", "base", "new", "change_pct", "ci_pct",
		"p_value", "p_adjusted", "verdict", "method", "tested",
		"runs_needed", "words", "summary", NULL };
	struct pr_report_metric m[3];
	struct pr_report r;
	json_error_t jerr;
	json_t *root, *ms, *x, *v;
	char *s;
	size_t i;

	(void)state;
	build(&r, m);
	s = render(&r, PR_REPORT_JSON);
	root = json_loads(s, 0, &jerr);
	if (root == NULL)
		fail_msg("JSON does not parse: %s at line %d", jerr.text,
		    jerr.line);
	assert_float_equal(json_real_value(get(root, "confidence")), 0.95,
	    1e-12);
	assert_float_equal(json_real_value(get(root, "equivalence_pct")), 1.0,
	    1e-12);
	assert_true(json_is_true(get(root, "holm")));
	assert_int_equal(json_integer_value(get(root, "holm_m")), 2);
	assert_string_equal(json_string_value(get(root, "base_file")),
	    "base.csv");
	assert_true(json_is_array(get(root, "notes")));
	ms = get(root, "metrics");
	assert_int_equal(json_array_size(ms), 3);
	for (i = 0; i < 3; i++) {
		const char *const *f;

		for (f = fields; *f != NULL; f++)
			(void)get(json_array_get(ms, i), *f);
	}

	x = json_array_get(ms, 0);
	assert_string_equal(json_string_value(get(x, "name")), "elapsed");
	assert_string_equal(json_string_value(get(x, "unit")), "s");
	assert_string_equal(json_string_value(get(x, "better")), "lower");
	assert_string_equal(json_string_value(get(x, "verdict")), "regression");
	assert_string_equal(json_string_value(get(x, "method")), "welch");
	assert_true(json_is_true(get(x, "tested")));
	assert_true(json_is_false(get(x, "direction_assumed")));
	assert_float_equal(json_real_value(get(x, "change_pct")), 12.1, 1e-9);
	assert_float_equal(json_real_value(get(x, "p_value")), 0.0012, 1e-12);
	assert_float_equal(json_real_value(get(x, "p_adjusted")), 0.0024,
	    1e-12);
	v = get(x, "ci_pct");
	assert_int_equal(json_array_size(v), 2);
	assert_float_equal(json_real_value(json_array_get(v, 0)), 8.04, 1e-9);
	assert_float_equal(json_real_value(json_array_get(v, 1)), 16.3, 1e-9);
	assert_true(json_is_null(get(x, "runs_needed")));
	check_side(get(x, "base"), 3, 1);
	check_side(get(x, "new"), 3, 1);
	v = get(get(x, "new"), "values");
	assert_int_equal(json_array_size(v), 3);
	for (i = 0; i < 3; i++)
		assert_float_equal(json_real_value(json_array_get(v, i)),
		    threadirq[i], 1e-12);
	assert_string_equal(json_string_value(get(x, "words")), "12.1% slower");

	/* One value per side: nulls, not zeros, where there is no test. */
	x = json_array_get(ms, 1);
	assert_string_equal(json_string_value(get(x, "better")), "higher");
	assert_true(json_is_false(get(x, "tested")));
	assert_true(json_is_null(get(x, "p_value")));
	assert_true(json_is_null(get(x, "p_adjusted")));
	assert_true(json_is_null(get(x, "ci_pct")));
	assert_string_equal(json_string_value(get(x, "method")), "none");
	check_side(get(x, "base"), 1, 0);
	check_side(get(x, "new"), 1, 0);
	assert_null(json_object_get(get(x, "base"), "values"));
	assert_string_equal(json_string_value(get(x, "words")),
	    "throughput 3.7% lower");

	x = json_array_get(ms, 2);
	assert_true(json_is_true(get(x, "direction_assumed")));
	assert_int_equal(json_integer_value(get(x, "runs_needed")), 17);
	assert_string_equal(json_string_value(get(x, "verdict")),
	    "inconclusive");
	assert_float_equal(json_real_value(get(get(x, "new"), "stddev")), 0, 0);
	json_decref(root);
	free(s);
}

static void
check_words(double pct, enum pr_better b, const char *name, const char *unit,
    const char *want)
{
	char buf[96];

	assert_string_equal(pr_report_change_words(buf, sizeof(buf), pct, b,
				name, unit),
	    want);
}

static void
test_words(void **state)
{
	(void)state;
	check_words(12.1, PR_BETTER_LOWER, "elapsed", "s", "12.1% slower");
	check_words(-3.0, PR_BETTER_LOWER, "user", "s", "3.0% faster");
	check_words(-3.0, PR_BETTER_UNKNOWN, "user", "s", "3.0% faster");
	check_words(4.25, PR_BETTER_LOWER, "BenchmarkX", "ns/op",
	    "4.2% slower");
	check_words(2.0, PR_BETTER_LOWER, "wall time", "", "2.0% slower");
	check_words(-7.6, PR_BETTER_HIGHER, "64 bytes", "bytes/s",
	    "throughput 7.6% lower");
	check_words(5.5, PR_BETTER_HIGHER, "sender", "bits/s",
	    "throughput 5.5% higher");
	check_words(-40.2, PR_BETTER_HIGHER, "iperf3", "Gbps",
	    "throughput 40.2% lower");
	check_words(5.0, PR_BETTER_HIGHER, "score", "points",
	    "5.0% higher (better)");
	check_words(-5.0, PR_BETTER_HIGHER, "score", "", "5.0% lower (worse)");
	check_words(2.0, PR_BETTER_LOWER, "allocs", "B/op",
	    "2.0% higher (worse)");
	check_words(-0.25, PR_BETTER_LOWER, "allocs", "B/op",
	    "0.25% lower (better)");
	check_words(-0.042, PR_BETTER_LOWER, "rss", "KiB",
	    "0.042% lower (better)");
	check_words(150.0, PR_BETTER_LOWER, "elapsed", "ms", "150% slower");
	check_words(0.0, PR_BETTER_LOWER, "elapsed", "s", "0% change");
	check_words(NAN, PR_BETTER_LOWER, "elapsed", "s", "change undefined");
	check_words(INFINITY, PR_BETTER_HIGHER, "x", "", "change undefined");
}

static void
test_no_nan(void **state)
{
	static const enum pr_report_format fmts[] = { PR_REPORT_TEXT,
		PR_REPORT_MARKDOWN, PR_REPORT_CSV, PR_REPORT_JSON };
	struct pr_report_metric m[3];
	struct pr_report r;
	size_t i;
	char *s;

	(void)state;
	build(&r, m);
	/* Poison every figure a buggy upstream could leave undefined. */
	m[0].cmp.p_value = NAN;
	m[0].cmp.ci_hi_pct = INFINITY;
	m[0].cmp.base.stddev = NAN;
	m[2].cmp.change_pct = NAN;
	m[2].cmp.new.mean = -INFINITY;
	m[1].cmp.ci_lo_pct = NAN;
	m[1].cmp.have_ci = 1;
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		s = render(&r, fmts[i]);
		if (contains_ci(s, "nan") || contains_ci(s, "inf"))
			fail_msg("format %zu prints nan or inf:\n%s", i, s);
		free(s);
	}
}

static size_t
count_char(const char *s, char c)
{
	size_t n = 0;

	for (; *s != '\0' && *s != '\n'; s++)
		if (*s == c && (s[-1] != '\\'))
			n++;
	return n;
}

static void
test_markdown(void **state)
{
	struct pr_report_metric m[3];
	struct pr_report r;
	char *s, *line;
	size_t cols;

	(void)state;
	build(&r, m);
	m[2].name = "a|b";
	s = render(&r, PR_REPORT_MARKDOWN);
	line = strstr(s, "| metric ");
	assert_non_null(line);
	assert_memory_equal(line,
	    "| metric | base | new | change | "
	    "95% interval | p | p Holm | verdict | n |\n",
	    75);
	cols = count_char(line, '|');
	line = strchr(line, '\n') + 1;
	assert_memory_equal(line, "|:---|---:|", 10);
	assert_int_equal(count_char(line, '|'), cols);
	/* Every body row has as many cells, even with a '|' in a name. */
	line = strchr(line, '\n') + 1;
	assert_int_equal(count_char(line, '|'), cols);
	assert_non_null(strstr(s, "| a\\|b |"));
	assert_non_null(strstr(s, "4.953 \xc2\xb1 0.180 s"));
	assert_non_null(
	    strstr(s, "- **elapsed**: regression: 12.1% slower; 95%"));
	assert_non_null(strstr(s, "- Correction: Holm's correction for 2 "));
	free(s);

	/* Without Holm, no "p Holm" column. */
	r.holm_m = 0;
	r.n = 1;
	s = render(&r, PR_REPORT_MARKDOWN);
	assert_non_null(strstr(s,
	    "| metric | base | new | change | "
	    "95% interval | p | verdict | n |\n"));
	assert_null(strstr(s, "Holm"));
	free(s);
}

static size_t
csv_fields(const char *line)
{
	size_t n = 1;
	int quoted = 0;

	for (; *line != '\0' && (*line != '\n' || quoted); line++) {
		if (*line == '"')
			quoted = !quoted;
		else if (*line == ',' && !quoted)
			n++;
	}
	return n;
}

static void
test_csv(void **state)
{
	struct pr_report_metric m[3];
	struct pr_report r;
	char *s, *line;
	size_t want, rows = 0;

	(void)state;
	build(&r, m);
	m[1].name = "16 bytes, \"aligned\"";
	s = render(&r, PR_REPORT_CSV);
	want = csv_fields(s);
	assert_int_equal(want, 26);
	assert_memory_equal(s, "metric,unit,better,", 19);
	for (line = strchr(s, '\n') + 1; *line != '\0';
	     line = strchr(line, '\n') + 1) {
		assert_int_equal(csv_fields(line), want);
		rows++;
	}
	assert_int_equal(rows, 3);
	assert_non_null(strstr(s,
	    "\n\"16 bytes, \"\"aligned\"\"\",bytes/s,"
	    "higher,0,1,586200,586200,,1,564750,564750,,-3.659,,,,,"
	    "inconclusive,none,0,,"));
	/* Every row names its family, what the change estimates and, when
	 * untested, why. */
	assert_non_null(strstr(s,
	    ",throughput 3.7% lower,primary,ratio-of-means,mean,"
	    "one value per side\n"));
	assert_non_null(strstr(s,
	    "\nelapsed,s,lower,0,3,4.953333,4.953333,"
	    "0.18009,3,"));
	free(s);
}

static size_t
display_width(const char *s, size_t len)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

static void
test_text(void **state)
{
	struct pr_report_metric m[3];
	struct pr_report r;
	const char *line, *nl;
	size_t i, w0 = 0;
	char *s;

	(void)state;
	build(&r, m);
	s = render(&r, PR_REPORT_TEXT);
	assert_memory_equal(s, "base: base.csv\nnew:  new.csv\n\nmetric ", 36);
	/* The header and the three rows have the same width. */
	line = s + 30;
	for (i = 0; i < 4; i++) {
		nl = strchr(line, '\n');
		assert_non_null(nl);
		if (i == 0)
			w0 = display_width(line, (size_t)(nl - line));
		else
			assert_int_equal(display_width(line,
					     (size_t)(nl - line)),
			    w0);
		line = nl + 1;
	}
	assert_true(*line == '\n');
	assert_non_null(strstr(s, "4.953 +- 0.180 s"));
	assert_non_null(strstr(s, "586.2 kbytes/s"));
	assert_non_null(strstr(s, "[+8.0%, +16.3%]"));
	assert_non_null(strstr(s, "regression"));
	assert_non_null(strstr(s, "no test"));
	assert_non_null(strstr(s,
	    "\nelapsed: regression: 12.1% slower; 95% "
	    "interval [+8.0%, +16.3%], p = 0.0012 (0.0024 after Holm)\n"));
	assert_non_null(strstr(s,
	    "\n16 bytes: throughput 3.7% lower in one "
	    "run per side; no test is possible without repeated runs\n"));
	assert_non_null(strstr(s, "about 17 runs per side would settle it"));
	assert_non_null(strstr(s,
	    "note: rounds: the 3 new values are all "
	    "7.02 (zero spread on that side); as they are given to 0.01, the "
	    "test assumes the spread that rounding to 0.01 can hide\n"));
	assert_non_null(strstr(s, "note: rounds: direction assumed"));
	assert_non_null(strstr(s,
	    "method: Welch's t on the means, with Fieller's interval"));
	assert_non_null(strstr(s,
	    "correction: Holm's correction for 2 "
	    "metrics"));
	free(s);
}

static void
test_units(void **state)
{
	struct pr_report_metric m[1];
	struct pr_report r;
	struct pr_comparison *c = &m[0].cmp;
	char *s;

	(void)state;
	fx_metric(&m[0], "user", "s", NULL, 0, NULL, 0);
	fx_report(&r, m, 1, NULL, NULL);
	r.conf = 0.99;
	r.equivalence_pct = 2;
	summary(&c->base, 3, 0.09, 0.01);
	summary(&c->new, 3, 0.07666667, 0.0305505);
	fx_tested(c, PR_METHOD_WELCH, -0.2, -0.5, 0.4, 0.5,
	    PR_VERDICT_EQUIVALENT);
	s = render(&r, PR_REPORT_TEXT);
	assert_non_null(strstr(s, "90.00 +- 10.00 ms"));
	assert_non_null(strstr(s, "76.67 +- 30.55 ms"));
	assert_non_null(strstr(s, "99% interval"));
	assert_non_null(strstr(s,
	    "equivalent: 0.20% faster, and the 99% "
	    "interval [-0.50%, +0.40%] lies inside [-2.0%, +2.0%]"));
	assert_null(strstr(s, "base:"));
	free(s);

	m[0].name = "sender";
	m[0].unit = "bits/s";
	summary(&c->base, 1, 35.9e9, 0);
	summary(&c->new, 1, 37.2e9, 0);
	c->tested = 0;
	c->method = PR_METHOD_NONE;
	c->better = PR_BETTER_HIGHER;
	c->change_pct = 3.62;
	s = render(&r, PR_REPORT_TEXT);
	assert_non_null(strstr(s, "35.90 Gbits/s"));
	assert_non_null(strstr(s, "37.20 Gbits/s"));
	assert_non_null(strstr(s, "method: none"));
	free(s);

	/* Units that already carry a prefix are left alone. */
	m[0].unit = "ns/op";
	summary(&c->base, 1, 12345678, 0);
	s = render(&r, PR_REPORT_TEXT);
	assert_non_null(strstr(s, "12345678 ns/op"));
	free(s);
}

/* The notes of the verdict module reach the report. */
static void
test_notes(void **state)
{
	struct pr_report_metric m[3];
	struct pr_report r;
	json_t *root, *x;
	char *s;

	(void)state;
	build(&r, m);
	m[0].cmp.method = PR_METHOD_MWU;
	m[0].cmp.notes = PR_NOTE_ADAPTIVE | PR_NOTE_NONNORMAL;
	m[0].cmp.base.median = 4.87;
	m[0].cmp.new.median = 5.30;
	m[1].cmp.tested = 1;
	m[1].cmp.method = PR_METHOD_WELCH;
	m[1].cmp.have_change = 0;
	m[1].cmp.change_pct = 0;
	m[1].cmp.notes = PR_NOTE_NO_CHANGE;
	m[1].cmp.base.mean = 0;
	m[2].cmp.notes = PR_NOTE_NEGLIGIBLE | PR_NOTE_QUANTISED;
	m[2].cmp.verdict = PR_VERDICT_EQUIVALENT;
	m[2].cmp.p_value = 0.001;
	m[2].cmp.ci_lo_pct = -0.8;
	m[2].cmp.ci_hi_pct = -0.2;
	m[2].better_assumed = 0;
	m[2].cmp.new.stddev = 0.01;
	s = render(&r, PR_REPORT_TEXT);
	/* Mann-Whitney rows show medians, without a +- spread. */
	assert_non_null(strstr(s, "  med 4.870 s  "));
	assert_non_null(strstr(s, "  med 5.300 s  "));
	assert_non_null(strstr(s,
	    "note: elapsed: the values are skewed or "
	    "heavy-tailed, so the Mann-Whitney test on the medians decides"));
	assert_non_null(strstr(s,
	    "note: 16 bytes: the base is 0, so the "
	    "change has no percentage\n"));
	assert_non_null(strstr(s, "16 bytes: inconclusive: change undefined"));
	assert_non_null(strstr(s,
	    "rounds: equivalent: 0.50% lower (better), "
	    "a change that is significant (p = 0.0010) but negligible: the "
	    "95% interval [-0.80%, -0.20%] lies inside [-1.0%, +1.0%]\n"));
	assert_non_null(strstr(s,
	    "Mann-Whitney U, with the Hodges-Lehmann "
	    "estimate"));
	assert_non_null(strstr(s,
	    "note: rounds: a side's spread is below the "
	    "resolution of the data (0.01)"));
	assert_null(strstr(s, "direction assumed"));
	free(s);

	/* The verdict module's own flag for an assumed direction counts. */
	m[2].cmp.notes |= PR_NOTE_DIRECTION_ASSUMED;
	s = render(&r, PR_REPORT_JSON);
	root = json_loads(s, 0, NULL);
	assert_non_null(root);
	x = json_array_get(get(root, "metrics"), 2);
	assert_true(json_is_true(get(x, "direction_assumed")));
	x = json_array_get(get(root, "metrics"), 1);
	assert_true(json_is_null(get(x, "change_pct")));
	x = json_array_get(get(root, "metrics"), 0);
	assert_string_equal(json_string_value(get(x, "method")), "mwu");
	json_decref(root);
	free(s);
}

/*
 * A Mann-Whitney row among t rows, whose means fell while its medians
 * and its Hodges-Lehmann change rose: the row marks its medians and its
 * change, the sentence names the estimate, a note gives the means that
 * moved the other way, and CSV and JSON say what the change estimates
 * and which figure of the sides the test is about.
 */
static void
test_rank_estimate(void **state)
{
	struct pr_report_metric m[3];
	struct pr_report r;
	json_t *root, *x;
	char *s;

	(void)state;
	build(&r, m);
	m[0].cmp.method = PR_METHOD_MWU;
	m[0].cmp.base.mean = 6.3170;
	m[0].cmp.base.median = 6.0180;
	m[0].cmp.new.mean = 6.1980;
	m[0].cmp.new.median = 6.1980;
	m[0].cmp.change_pct = 3.0;
	s = render(&r, PR_REPORT_TEXT);
	/* Mixed with t rows, the header stays and the row is marked. */
	assert_non_null(strstr(s, "metric "));
	assert_null(strstr(s, "base median"));
	assert_non_null(strstr(s, "  med 6.018 s  "));
	assert_non_null(strstr(s, "  med 6.198 s  HL +3.0%  "));
	assert_non_null(strstr(s, "  7.240 +- 0.018  "));
	assert_non_null(strstr(s,
	    "elapsed: regression: 3.0% slower by the Hodges-Lehmann "
	    "estimate; "));
	/* The footer says what the band is of, on the rank-test row too. */
	assert_non_null(strstr(s,
	    "; two-sided p; 95% intervals for the change in percent of base "
	    "(on rank-test rows, marked HL, for the Hodges-Lehmann change); "
	    "equivalent means the interval inside +-1%\n"));
	assert_non_null(strstr(s,
	    "note: elapsed: the change shown, +3.0%, is the Hodges-Lehmann "
	    "estimate the Mann-Whitney test is about (the median of the "
	    "ratios of each new value to each base value), but the means "
	    "moved -1.9% (6.317 s -> 6.198 s)\n"));
	free(s);
	s = render(&r, PR_REPORT_MARKDOWN);
	assert_non_null(strstr(s, "| med 6.018 s | med 6.198 s | HL +3.0% |"));
	free(s);
	s = render(&r, PR_REPORT_CSV);
	assert_non_null(strstr(s,
	    "\nelapsed,s,lower,0,3,6.317,6.018,0.18009,3,6.198,6.198,"));
	assert_non_null(
	    strstr(s, ",3.0% slower,primary,hodges-lehmann,median,\n"));
	assert_non_null(
	    strstr(s, ",0.50% lower (better),primary,ratio-of-means,mean,\n"));
	free(s);
	s = render(&r, PR_REPORT_JSON);
	root = json_loads(s, 0, NULL);
	assert_non_null(root);
	x = json_array_get(get(root, "metrics"), 0);
	assert_string_equal(json_string_value(get(x, "estimate")),
	    "hodges-lehmann");
	assert_string_equal(json_string_value(get(x, "center")), "median");
	assert_string_equal(json_string_value(get(x, "family")), "primary");
	assert_true(json_is_null(get(x, "why_not_tested")));
	x = json_array_get(get(root, "metrics"), 1);
	assert_string_equal(json_string_value(get(x, "why_not_tested")),
	    "one value per side");
	assert_string_equal(json_string_value(get(x, "center")), "mean");
	json_decref(root);
	free(s);

	/* Medians that moved against the change are named too. */
	m[0].cmp.new.median = 5.9;
	s = render(&r, PR_REPORT_TEXT);
	assert_non_null(strstr(s,
	    "base value), but the medians moved -2.0% (6.018 s -> 5.900 s) "
	    "and the means moved"));
	free(s);
	/* Every row a rank test's: the header says it once. */
	m[1].cmp.method = PR_METHOD_MWU;
	m[1].cmp.tested = 1;
	m[2].cmp.method = PR_METHOD_MWU;
	s = render(&r, PR_REPORT_TEXT);
	assert_non_null(strstr(s, "base median"));
	assert_non_null(strstr(s, "new median"));
	assert_non_null(strstr(s, "HL change"));
	assert_null(strstr(s, " med "));
	assert_non_null(strstr(s,
	    "; two-sided p; 95% intervals for the Hodges-Lehmann change in "
	    "percent of base; equivalent means that interval inside +-1% "
	    "(the medians may differ by more)\n"));
	assert_null(strstr(s, "equivalent means inside"));
	free(s);
}

static void
test_errors(void **state)
{
	struct pr_report_metric m[3];
	struct pr_report r;
	struct pr_buf b = PR_BUF_INIT(100);
	struct pr_error err;

	(void)state;
	build(&r, m);
	assert_int_equal(pr_report_compare(&b, &r, PR_REPORT_TEXT, &err),
	    PR_ELIMIT);
	pr_buf_release(&b);
	assert_int_equal(pr_report_compare(&b, &r, PR_REPORT_JSON, &err),
	    PR_ELIMIT);
	pr_buf_release(&b);
	assert_int_equal(pr_report_compare(&b, &r, (enum pr_report_format)9,
			     &err),
	    PR_EINVAL);
	r.n = 0;
	assert_int_equal(pr_report_compare(&b, &r, PR_REPORT_CSV, &err),
	    PR_EINVAL);
	assert_string_equal(err.msg, "no metric to report");
	pr_buf_release(&b);
	assert_string_equal(pr_report_method_slug(PR_METHOD_MWU), "mwu");
	assert_string_equal(pr_report_method_slug(PR_METHOD_STUDENT),
	    "student");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_fields),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_no_nan),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_rank_estimate),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
