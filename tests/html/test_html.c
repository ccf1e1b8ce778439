/*
 * tests/html/test_html.c - the HTML page (perfreg/report_html.h) on
 * synthetic reports: one panel and one verdict cell per metric, one
 * strip, change and order plot per panel, every <svg> closed; and hostile
 * input - "<script>", "\"onload=", "</svg>", control bytes, invalid
 * UTF-8 - through every field that comes from outside (title, sources,
 * metric name and unit, text, headline, warning, every field of an
 * environment diff, series names and labels) arrives escaped: the only
 * script element is perfreg's own, no attribute is opened by input, the
 * page is valid UTF-8 without a control byte, and it refers to nothing
 * outside itself.  The browser test (tests/html/browser.sh) loads such
 * pages in Chromium.
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

#include "perfreg/bisect_job.h"
#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/explain.h"
#include "perfreg/report_bisect.h"
#include "perfreg/report_html.h"
#include "perfreg/report_model.h"
#include "perfreg/report_run.h"
#include "perfreg/runner.h"
#include "fixture.h"

/* Everything a page must not let through, in one string. */
#define HOSTILE \
	"<script>alert(1)</script>\"onload=alert(2) x='</svg><svg " \
	"onload=alert(3)>\x1b[2J\x07\x01\x7f\xff\xc3&amp;"

static const double bv[] = { 4.83, 5.16, 4.87, 4.91 };
static const double nv[] = { 5.30, 5.18, 5.61, 5.44 };

static void
metric(struct pr_report_metric *m, const char *name, const char *unit,
    enum pr_verdict v)
{
	struct pr_comparison *c = &m->cmp;

	fx_metric(m, name, unit, bv, 4, nv, 4);
	fx_side(&c->base, 4.9425, 4.89, 0.15);
	fx_side(&c->new, 5.3825, 5.37, 0.18);
	c->base.min = 4.83;
	c->base.max = 5.16;
	c->new.min = 5.18;
	c->new.max = 5.61;
	fx_tested(c, PR_METHOD_WELCH, 8.9, 1.5, 16.1, 0.01, v);
	c->holm_m = 1;
	c->conf = 0.95;
}

static size_t
count(const char *s, const char *what)
{
	size_t n = 0, len = strlen(what);

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += len;
	}
	return n;
}

/* 1 when s is valid UTF-8 with no control byte but newline. */
static int
clean_utf8(const unsigned char *s)
{
	size_t k, len;

	while (*s != '\0') {
		if (*s < 0x80) {
			if ((*s < 0x20 && *s != '\n') || *s == 0x7f)
				return 0;
			s++;
			continue;
		}
		len = *s >= 0xf0 ? 4 : *s >= 0xe0 ? 3 : *s >= 0xc2 ? 2 : 0;
		if (len == 0 || *s > 0xf4)
			return 0;
		for (k = 1; k < len; k++)
			if ((s[k] & 0xc0) != 0x80)
				return 0;
		/* C1 controls, U+0080 to U+009F. */
		if (len == 2 && s[0] == 0xc2 && s[1] < 0xa0)
			return 0;
		s += len;
	}
	return 1;
}

/* What every page must be, whatever went into it. */
static void
assert_safe(const char *page)
{
	assert_true(clean_utf8((const unsigned char *)page));
	/* perfreg's own script, and no other. */
	assert_int_equal(count(page, "<script"), 1);
	assert_int_equal(count(page, "</script"), 1);
	assert_null(strstr(page, "\"onload"));
	assert_null(strstr(page, "<svg onload"));
	assert_null(strstr(page, "'</svg>"));
	assert_int_equal(count(page, "<svg "), count(page, "</svg>"));
	/* Nothing fetched from outside. */
	assert_null(strstr(page, "src="));
	assert_null(strstr(page, "http:"));
	assert_null(strstr(page, "https:"));
	assert_null(strstr(page, "@import"));
	assert_non_null(strstr(page, "</body></html>\n"));
}

static char *
page_of(const struct pr_report_model *m, const char *title)
{
	struct pr_buf b = PR_BUF_INIT(64 << 20);
	struct pr_error err;

	pr_error_clear(&err);
	assert_int_equal(pr_report_html(&b, m, title, &err), PR_OK);
	return pr_buf_detach(&b, NULL);
}

static void
test_structure(void **state)
{
	struct pr_report_metric rm[4];
	struct pr_report r;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	char *p;

	(void)state;
	metric(&rm[0], "elapsed", "s", PR_VERDICT_REGRESSION);
	metric(&rm[1], "user", "s", PR_VERDICT_IMPROVEMENT);
	metric(&rm[2], "sys", "s", PR_VERDICT_EQUIVALENT);
	metric(&rm[3], "rss", "KiB", PR_VERDICT_INCONCLUSIVE);
	fx_report(&r, rm, 4, "a.csv", "b.csv");
	assert_int_equal(pr_report_model_textf(&m, PR_SECTION_HEADLINE, NULL, 0,
			     NULL, "headline"),
	    PR_OK);
	assert_int_equal(pr_report_model_comparison(&m, "c", 0, &r, NULL),
	    PR_OK);
	p = page_of(&m, "t");
	assert_safe(p);
	assert_int_equal(count(p, "<section class=\"panel\""), 4);
	assert_int_equal(count(p, "<td class=\"verdict "), 4);
	/* Each verdict is a word as well as a colour. */
	assert_non_null(
	    strstr(p, "class=\"verdict v-regression\">regression<"));
	assert_non_null(
	    strstr(p, "class=\"verdict v-improvement\">improvement<"));
	assert_non_null(
	    strstr(p, "class=\"verdict v-equivalent\">equivalent<"));
	assert_non_null(
	    strstr(p, "class=\"verdict v-inconclusive\">inconclusive<"));
	assert_non_null(strstr(p, "1 regression"));
	/* Three plots a panel; the table links to each panel. */
	assert_int_equal(count(p, "<svg class=\"strip\""), 4);
	assert_int_equal(count(p, "<svg class=\"change\""), 4);
	assert_int_equal(count(p, "<svg class=\"order\""), 4);
	assert_non_null(strstr(p, "<a href=\"#m4\">rss</a>"));
	assert_non_null(strstr(p, "id=\"m4\""));
	/* The numbers behind the picture, the values in order. */
	assert_non_null(strstr(p, "in order: 4.83 5.16 4.87 4.91"));
	free(p);
	pr_report_model_release(&m);
}

/* A rank test's row (Mann-Whitney, issue 11): the medians as its sides'
 * figures and the Hodges-Lehmann change, labelled, as the text report
 * shows them; the header says so when every row is one; the means
 * moving the other way are said.  The page used to show such rows with
 * the means and an unlabelled change. */
static void
test_rank_rows(void **state)
{
	struct pr_report_metric rm[2];
	struct pr_report r;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	char *p;

	(void)state;
	metric(&rm[0], "latency", "ns", PR_VERDICT_REGRESSION);
	metric(&rm[1], "elapsed", "s", PR_VERDICT_REGRESSION);
	rm[0].cmp.method = PR_METHOD_MWU;
	/* The medians rose, the means fell (one slow base run). */
	rm[0].cmp.base.mean = 6315.6;
	rm[0].cmp.new.mean = 6198;
	rm[0].cmp.base.median = 6018;
	rm[0].cmp.new.median = 6198;
	rm[0].cmp.change_pct = 3.0;
	fx_report(&r, rm, 2, NULL, NULL);
	assert_int_equal(pr_report_model_comparison(&m, "c", 0, &r, NULL),
	    PR_OK);
	p = page_of(&m, "t");
	assert_safe(p);
	/* Mixed: each rank row marks its cells, the others do not. */
	assert_non_null(strstr(p, "<th>base mean &#177; sd</th>"));
	assert_non_null(strstr(p,
	    "<td class=\"n\">med 6018</td>"
	    "<td class=\"n\">med 6198</td>"));
	assert_non_null(strstr(p, ">HL +3.0%</td>"));
	assert_non_null(strstr(p, ">4.9425 &#177; 0.15</td>"));
	assert_non_null(strstr(p, ">+8.9%</td>"));
	assert_int_equal(count(p, ">HL +"), 1);
	assert_non_null(strstr(p, "slower by the Hodges-Lehmann estimate"));
	assert_int_equal(count(p, "by the Hodges-Lehmann estimate"), 1);
	assert_non_null(strstr(p,
	    "but the means moved -1.9% "
	    "(6315.6 &#8594; 6198)"));
	assert_non_null(strstr(p, "<tr><th>HL change</th><td>+3.0%</td>"));
	assert_int_equal(count(p, "the median |"), 1);
	free(p);
	pr_report_model_release(&m);

	/* Every row a rank test's: the header says it once. */
	r.n = 1;
	assert_int_equal(pr_report_model_comparison(&m, "c", 0, &r, NULL),
	    PR_OK);
	p = page_of(&m, "t");
	assert_non_null(strstr(p,
	    "<th>base median</th><th>new median</th>"
	    "<th>HL change</th>"));
	assert_non_null(strstr(p, "<td class=\"n\">6018</td>"));
	assert_null(strstr(p, "med 6018"));
	assert_null(strstr(p, "HL +3.0%"));
	free(p);
	pr_report_model_release(&m);
}

/* In a family of more than PR_HTML_OPEN metrics, the panels of metrics
 * with no change found (equivalent, inconclusive) are closed: a
 * <details> whose figures and pictures wait in a
 * <noscript> (one text node while scripting is on; the page's script
 * makes them when the panel opens), their numbers one line of text, not
 * two tables; a hostile name inside cannot end the <noscript>.  The
 * panels of changes stay open, with their tables.  Every panel was
 * built whole before (bench/README.md: the 1,000-metric page). */
static void
test_closed_panels(void **state)
{
	struct pr_report_metric rm[PR_HTML_OPEN + 1];
	struct pr_report r;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	const char *a, *b;
	size_t i;
	char *p;

	(void)state;
	metric(&rm[0], "slower", "s", PR_VERDICT_REGRESSION);
	metric(&rm[1], HOSTILE "</noscript><script>alert(9)</script>", "s",
	    PR_VERDICT_EQUIVALENT);
	metric(&rm[2], "faster", "s", PR_VERDICT_IMPROVEMENT);
	for (i = 3; i <= PR_HTML_OPEN; i++)
		metric(&rm[i], "unsure", "s", PR_VERDICT_INCONCLUSIVE);
	fx_report(&r, rm, PR_HTML_OPEN + 1, NULL, NULL);
	assert_int_equal(pr_report_model_comparison(&m, "c", 0, &r, NULL),
	    PR_OK);
	p = page_of(&m, "t");
	assert_safe(p);
	assert_int_equal(count(p, "<section class=\"panel\""),
	    PR_HTML_OPEN + 1);
	assert_int_equal(count(p, "<details><summary>"), PR_HTML_OPEN - 1);
	assert_int_equal(count(p, "<noscript>"), PR_HTML_OPEN - 1);
	assert_int_equal(count(p, "</noscript>"), PR_HTML_OPEN - 1);
	assert_null(strstr(p, "</noscript><script"));
	/* Open: m1 and m3; closed: m2 and m4, each whole inside. */
	assert_non_null(strstr(p, "id=\"m1\"><h3>slower "));
	assert_non_null(
	    strstr(p, "id=\"m4\" data-closed><details><summary><h3>unsure "));
	a = strstr(p, "id=\"m4\"");
	b = strstr(a, "</noscript></details>");
	assert_non_null(b);
	assert_true(strstr(a, "<svg class=\"strip\"") < b);
	assert_true(strstr(a, "<svg class=\"order\"") < b);
	assert_true(strstr(a, "in order: 4.83 5.16 4.87 4.91") < b);
	/* Its numbers one line: two tables for each open panel only. */
	assert_int_equal(count(p, "<table class=\"numbers\">"), 4);
	assert_int_equal(count(p,
			     "<b>base / new</b>: n 4 / 4; mean 4.9425 / "
			     "5.3825; "
			     "sd 0.15 / 0.18"),
	    PR_HTML_OPEN - 1);
	/* Every plot, open or closed; the script that makes them. */
	assert_int_equal(count(p, "<svg class=\"strip\""), PR_HTML_OPEN + 1);
	assert_non_null(strstr(p, "t.innerHTML=n.textContent"));
	free(p);
	pr_report_model_release(&m);

	/* A family of PR_HTML_OPEN metrics or fewer: every panel open. */
	r.n = PR_HTML_OPEN;
	assert_int_equal(pr_report_model_comparison(&m, "c", 0, &r, NULL),
	    PR_OK);
	p = page_of(&m, "t");
	assert_null(strstr(p, "<details>"));
	assert_null(strstr(p, "<noscript>"));
	assert_int_equal(count(p, "<table class=\"numbers\">"),
	    2 * PR_HTML_OPEN);
	free(p);
	pr_report_model_release(&m);
}

static void
test_hostile(void **state)
{
	struct pr_report_metric rm[2];
	struct pr_report r;
	struct pr_report_model m = PR_REPORT_MODEL_INIT, *g = NULL;
	struct pr_envdiff_item it[2];
	struct pr_envdiff d;
	char *logs[2] = { (char *)HOSTILE, (char *)"clocksource: " HOSTILE };
	char *p;

	(void)state;
	metric(&rm[0], HOSTILE, HOSTILE, PR_VERDICT_REGRESSION);
	metric(&rm[1], "ok", "", PR_VERDICT_EQUIVALENT);
	fx_report(&r, rm, 2, HOSTILE, HOSTILE);
	memset(it, 0, sizeof(it));
	memset(&d, 0, sizeof(d));
	it[0].key = it[0].category = it[0].a = it[0].b = it[0].detail =
	    it[0].reason = (char *)HOSTILE;
	it[0].relevant = 1;
	it[1].key = it[1].category = it[1].reason = (char *)HOSTILE;
	it[1].kind = PR_ENVDIFF_ADDED;
	it[1].b = (char *)HOSTILE;
	d.items = it;
	d.n = 2;
	d.log_a = logs;
	d.nlog_a = 2;
	d.log_b = logs;
	d.nlog_b = 1;
	d.log_compared = 1;
	assert_int_equal(pr_report_model_textf(&m, PR_SECTION_TEXT, NULL, 0,
			     NULL, "%s\n", HOSTILE),
	    PR_OK);
	assert_int_equal(pr_report_model_textf(&m, PR_SECTION_HEADLINE, NULL, 0,
			     NULL, "%s", HOSTILE),
	    PR_OK);
	assert_int_equal(pr_report_model_textf(&m, PR_SECTION_WARNING, NULL, 0,
			     NULL, "%s", HOSTILE),
	    PR_OK);
	assert_int_equal(pr_report_model_comparison(&m, "c", 0, &r, NULL),
	    PR_OK);
	assert_int_equal(pr_report_model_envdiff(&m, "e", 0, &d, HOSTILE,
			     HOSTILE, 10, NULL),
	    PR_OK);
	assert_int_equal(pr_report_model_string(&m, "s", 0, HOSTILE, NULL),
	    PR_OK);
	/* A group renders the same way, and its panels get new ids. */
	assert_int_equal(pr_report_model_group(&m, "g", 0, &g, NULL), PR_OK);
	assert_int_equal(pr_report_model_comparison(g, "c", 0, &r, NULL),
	    PR_OK);
	p = page_of(&m, HOSTILE);
	assert_safe(p);
	/* The input is there, shown as text. */
	assert_true(count(p, "&lt;script&gt;alert(1)&lt;/script&gt;") > 10);
	assert_true(count(p, "&quot;onload=alert(2)") > 10);
	assert_true(count(p, "^[[2J^G^A^?M-^?") > 10);
	assert_non_null(strstr(p, "&amp;amp;"));
	assert_int_equal(count(p, "<section class=\"panel\""), 4);
	assert_non_null(strstr(p, "id=\"m4\""));
	assert_int_equal(count(p, "<td class=\"verdict "), 4);
	free(p);
	pr_report_model_release(&m);
}

/*
 * The sections with HTML forms of their own - run's session, decisions
 * and failed runs, the explanation, the bisection - with hostile input in
 * every string they show: each is a table or paragraphs of its own (no
 * section falls back to its text in a <pre>), and all of it escaped.
 */
static void
test_hostile_sections(void **state)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_variant v[2];
	struct pr_run run;
	struct pr_session s;
	struct pr_report_seq_row qr[2];
	struct pr_report_seq q;
	struct pr_explain e;
	struct pr_explain_item it[2];
	struct pr_explain_input in;
	struct pr_bisect_job j;
	struct pr_bisect_commit c[3];
	double single[3] = { 0, 0.02, 0.97 }, multi[3] = { 0, 0.005, 0.005 };
	double cv0[3] = { 1.0, 1.02, 0.99 }, cv2[3] = { 3.0, 3.1, 2.95 };
	const char *names[2] = { HOSTILE, "mon.irq." HOSTILE };
	const char *notes[1] = { HOSTILE };
	char out[] = "error: " HOSTILE "\nsecond line\t" HOSTILE "\n";
	char *p;
	size_t i;

	(void)state;
	memset(v, 0, sizeof(v));
	v[0].name = v[0].command = (char *)HOSTILE;
	v[1].name = (char *)"new " HOSTILE;
	v[1].command = (char *)"sleep 1 # " HOSTILE;
	v[1].runs_failed = 1;
	memset(&run, 0, sizeof(run));
	run.variant = 1;
	run.reason = (char *)HOSTILE;
	run.failed_in = "command";
	run.outcome = PR_SPAWN_EXIT;
	run.exit_status = 3;
	run.output = out;
	run.output_len = strlen(out);
	memset(&s, 0, sizeof(s));
	s.v = v;
	s.nv = 2;
	s.runs = &run;
	s.nruns = 1;
	s.opts.runs = 3;
	s.opts.order = PR_ORDER_SEQUENTIAL;
	memset(qr, 0, sizeof(qr));
	qr[0].name = HOSTILE;
	qr[0].r.decision = PR_SEQ_REGRESSION;
	qr[0].r.n = 8;
	qr[0].r.change_pct = 12;
	qr[0].r.bounded = 1;
	qr[0].r.lo_pct = 3;
	qr[0].r.hi_pct = 20;
	qr[1].name = HOSTILE;
	qr[1].undefined = HOSTILE;
	memset(&q, 0, sizeof(q));
	q.method = q.stopped = HOSTILE;
	q.alpha = 0.05;
	q.rows = qr;
	q.n = 2;
	pr_explain_init(&e);
	memset(it, 0, sizeof(it));
	for (i = 0; i < 2; i++) {
		it[i].metric = i;
		it[i].nb = it[i].nn = 5;
		it[i].base_mean = 10;
		it[i].new_mean = 20;
		it[i].change = 1;
		it[i].lo = 0.5;
		it[i].hi = 1.5;
		it[i].p = it[i].p_adj = 0.001;
		it[i].r = 0.9;
		it[i].share = 0.8;
		it[i].changed = i == 0;
	}
	e.items = it;
	e.n = 2;
	e.nchanged = 1;
	e.primary_change = 0.5;
	snprintf(e.split, sizeof(e.split), "%s", HOSTILE);
	memset(&in, 0, sizeof(in));
	in.primary = HOSTILE;
	in.nmetrics = 2;
	in.names = names;
	in.units = names;
	in.unit = HOSTILE;
	memset(c, 0, sizeof(c));
	for (i = 0; i < 3; i++) {
		snprintf(c[i].hash, sizeof(c[i].hash), "%040zu", i);
		c[i].subject = (char *)HOSTILE;
		c[i].built = 1;
	}
	c[0].v = cv0;
	c[0].n = 3;
	c[1].built = -1;
	c[1].skip_reason = (char *)HOSTILE;
	c[2].v = cv2;
	c[2].n = 3;
	memset(&j, 0, sizeof(j));
	j.c = c;
	j.n = 2;
	j.metric = (char *)HOSTILE;
	j.have_state = 1;
	j.single = single;
	j.multi = multi;
	j.st.lo = j.st.hi = 2;
	j.st.p_loc = 0.97;
	j.verdict = PR_BISECT_V_CULPRIT;
	j.confirmed_tried = 1;
	j.parent = 0;
	j.culprit = 2;
	j.confirm.decision = PR_SEQ_REGRESSION;
	j.confirm.change_pct = 200;
	j.confirm.bounded = 1;
	j.confirm.lo_pct = 150;
	j.confirm.hi_pct = 250;
	j.confirm_runs = 6;
	j.o.confidence = 0.95;
	assert_int_equal(pr_report_run_session(&m, NULL, 0, &s, NULL), PR_OK);
	assert_int_equal(pr_report_run_sequential(&m, NULL, 0, &q, NULL),
	    PR_OK);
	assert_int_equal(pr_report_explain(&m, NULL, 0, &e, &in, notes, 1,
			     NULL),
	    PR_OK);
	assert_int_equal(pr_report_run_runs(&m, NULL, 0, &s, NULL), PR_OK);
	assert_int_equal(pr_report_bisect(&m, &j, NULL), PR_OK);
	p = page_of(&m, "sections");
	assert_safe(p);
	/* Each section in its own form, none as text in a <pre>. */
	assert_null(strstr(p, "<pre class=\"text\">"));
	assert_int_equal(count(p, "<table class=\"variants\">"), 1);
	assert_int_equal(count(p, "<table class=\"sequential\">"), 1);
	assert_int_equal(count(p, "<section class=\"explanation\">"), 1);
	assert_int_equal(count(p, "<tr class=\"changed\">"), 1);
	assert_int_equal(count(p, "<pre class=\"output\">"), 1);
	assert_int_equal(count(p, "<section class=\"panel\" id=\"bisect\">"),
	    1);
	assert_int_equal(count(p, "<svg class=\"bisect\""), 1);
	/* The bisection's confirmation is its one verdict cell; the
	 * decisions of --until-decided are words in a span. */
	assert_int_equal(count(p, "<td class=\"verdict v-regression\">"), 1);
	assert_int_equal(count(p, "<span class=\"verdict v-regression\">"), 1);
	assert_non_null(strstr(p, "sequential order"));
	/* The input is there, shown as text, the output's lines kept. */
	assert_true(count(p, "&lt;script&gt;alert(1)&lt;/script&gt;") >= 15);
	assert_true(count(p, "^[[2J^G^A^?M-^?") >= 15);
	assert_non_null(strstr(p, "\nsecond line"));
	free(p);
	pr_report_model_release(&m);
}

/* The x coordinates of the first k dots of the path of class cls after
 * s, into x; how many were read. */
static size_t
dots_x(const char *s, const char *cls, double *x, size_t k)
{
	char key[64];
	const char *p;
	size_t i = 0;

	snprintf(key, sizeof(key), "class=\"%s\" d=\"", cls);
	if ((p = strstr(s, key)) == NULL)
		return 0;
	p += strlen(key);
	while (i < k && *p == 'M') {
		x[i++] = strtod(p + 1, (char **)&p);
		while (*p != '\0' && *p != 'M' && *p != '"')
			p++;
	}
	return i;
}

/*
 * Both sides on one time axis (run's sessions): the order plot puts each
 * value at its run's start, so that shuffled rounds show interleaved -
 * base, new, base, new - where the order of the values alone would draw
 * both sides' first runs at the same x.
 */
static void
test_order_time(void **state)
{
	static const double bat[] = { 0.0, 2.0, 4.0, 6.0 };
	static const double nat[] = { 1.0, 3.0, 5.0, 7.0 };
	struct pr_report_metric rm[1];
	struct pr_report r;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	const char *svg;
	double bx[2], nx[2];
	char *p;

	(void)state;
	metric(&rm[0], "wall_s", "s", PR_VERDICT_REGRESSION);
	rm[0].base_at = bat;
	rm[0].new_at = nat;
	fx_report(&r, rm, 1, NULL, NULL);
	assert_int_equal(pr_report_model_comparison(&m, "c", 0, &r, NULL),
	    PR_OK);
	p = page_of(&m, "order");
	assert_safe(p);
	assert_non_null(svg = strstr(p, "<svg class=\"order time\""));
	assert_int_equal(dots_x(svg, "dot base", bx, 2), 2);
	assert_int_equal(dots_x(svg, "dot new", nx, 2), 2);
	assert_true(bx[0] < nx[0] && nx[0] < bx[1] && bx[1] < nx[1]);
	assert_non_null(strstr(svg, "7 s later"));
	free(p);
	pr_report_model_release(&m);
	/* Without the times: each side in the order of its values. */
	rm[0].base_at = rm[0].new_at = NULL;
	assert_int_equal(pr_report_model_comparison(&m, "c", 0, &r, NULL),
	    PR_OK);
	p = page_of(&m, "order");
	assert_null(strstr(p, "order time"));
	assert_non_null(svg = strstr(p, "<svg class=\"order\""));
	assert_int_equal(dots_x(svg, "dot base", bx, 1), 1);
	assert_int_equal(dots_x(svg, "dot new", nx, 1), 1);
	assert_true(bx[0] == nx[0]);
	free(p);
	pr_report_model_release(&m);
}

/* pr_report_run_times: a counted, successful run's start for each of
 * its values of the metric, in order; warm-ups, failed runs and other
 * variants left out; NULL when the values do not line up. */
static void
test_run_times(void **state)
{
	struct pr_variant v[2];
	struct pr_run run[5];
	struct pr_session s;
	double *at = NULL;
	size_t i;

	(void)state;
	memset(v, 0, sizeof(v));
	memset(run, 0, sizeof(run));
	for (i = 0; i < 5; i++) {
		pr_dataset_init(&run[i].metrics);
		assert_int_equal(pr_dataset_add(&run[i].metrics, "wall_s", "s",
				     PR_BETTER_LOWER, 1.0 + (double)i, NULL),
		    PR_OK);
		run[i].ok = 1;
		run[i].start_s = 0.5 * (double)i;
	}
	run[0].warmup = 1;
	run[2].variant = 1;
	run[3].ok = 0;
	memset(&s, 0, sizeof(s));
	s.v = v;
	s.nv = 2;
	s.runs = run;
	s.nruns = 5;
	assert_int_equal(pr_report_run_times(&s, 0, "wall_s", 2, &at, NULL),
	    PR_OK);
	assert_non_null(at);
	assert_true(at[0] == 0.5 && at[1] == 2.0);
	free(at);
	assert_int_equal(pr_report_run_times(&s, 1, "wall_s", 1, &at, NULL),
	    PR_OK);
	assert_non_null(at);
	assert_true(at[0] == 1.0);
	free(at);
	/* Values that do not line up: no times. */
	assert_int_equal(pr_report_run_times(&s, 0, "wall_s", 3, &at, NULL),
	    PR_OK);
	assert_null(at);
	assert_int_equal(pr_report_run_times(&s, 0, "user_s", 2, &at, NULL),
	    PR_OK);
	assert_null(at);
	for (i = 0; i < 5; i++)
		pr_dataset_release(&run[i].metrics);
}

static void
test_hostile_series(void **state)
{
	double y[12] = { 10, 10.1, 9.9, 10, 10.2, 10, 12, 12.1, 11.9, 12, 30,
		12 };
	char *labels[12];
	struct pr_series s;
	struct pr_cp_result res;
	struct pr_cp_opts o;
	struct pr_cp_report r;
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	struct pr_error err;
	char *p;
	size_t i;

	(void)state;
	for (i = 0; i < 12; i++)
		labels[i] = (char *)HOSTILE;
	memset(&s, 0, sizeof(s));
	s.y = y;
	s.label = labels;
	s.n = 12;
	s.labelled = 1;
	s.column = (char *)HOSTILE;
	pr_cp_opts_init(&o);
	o.min_segment = 3;
	pr_error_clear(&err);
	assert_int_equal(pr_cp_detect(y, NULL, 12, &o, &res, &err), PR_OK);
	memset(&r, 0, sizeof(r)); /* no sections after the series */
	r.name = HOSTILE;
	r.series = &s;
	r.result = &res;
	r.opts = &o;
	assert_int_equal(pr_report_html_cp(&b, &r, 1, NULL, HOSTILE, &err),
	    PR_OK);
	p = pr_buf_detach(&b, NULL);
	assert_safe(p);
	assert_int_equal(count(p, "<section class=\"panel\""), 1);
	assert_int_equal(count(p, "<svg class=\"series\""), 1);
	assert_true(res.nchanges >= 1);
	assert_int_equal(count(p, "<td class=\"verdict "), res.nchanges);
	assert_int_equal(count(p, "<path class=\"cp\""), res.nchanges);
	free(p);
	pr_cp_result_release(&res);
}

/* The escaping alone: what each byte becomes. */
static void
test_escape(void **state)
{
	struct pr_buf b = PR_BUF_INIT(1024);
	static const char in[] = "a<b>&\"c'\x1b\n\xe9";

	(void)state;
	assert_int_equal(pr_report_html_escape(&b, in, sizeof(in) - 1, 0, NULL),
	    PR_OK);
	assert_string_equal(b.data, "a&lt;b&gt;&amp;&quot;c&#39;^[^JM-i");
	pr_buf_reset(&b);
	assert_int_equal(pr_report_html_escape(&b, "x\ny", 3, PR_ESCAPE_NEWLINE,
			     NULL),
	    PR_OK);
	assert_string_equal(b.data, "x\ny");
	pr_buf_release(&b);
}

/* A buffer too small for the page fails cleanly. */
static void
test_limit(void **state)
{
	struct pr_report_metric rm;
	struct pr_report r;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_buf b = PR_BUF_INIT(2000);
	struct pr_error err;

	(void)state;
	metric(&rm, "elapsed", "s", PR_VERDICT_REGRESSION);
	fx_report(&r, &rm, 1, NULL, NULL);
	assert_int_equal(pr_report_model_comparison(&m, "c", 0, &r, NULL),
	    PR_OK);
	pr_error_clear(&err);
	assert_int_equal(pr_report_html(&b, &m, "t", &err), PR_ELIMIT);
	pr_buf_release(&b);
	pr_report_model_release(&m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_rank_rows),
		cmocka_unit_test(test_closed_panels),
		cmocka_unit_test(test_hostile_series),
		cmocka_unit_test(test_hostile_sections),
		cmocka_unit_test(test_order_time),
		cmocka_unit_test(test_run_times),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
