/*
 * report/html.c - the report model, and series with change points, as
 * one self-contained HTML page with inline SVG (perfreg/report_html.h).
 *
 * The page is written in one pass into the caller's buffer.  Pictures are
 * drawn in a fixed coordinate box per plot; a value is mapped to it by a
 * struct axis (the range it covers, padded so that no dot touches an
 * edge).  Dots are path segments of zero length with round (base) or
 * square (new) caps: a few bytes each, and the two sides differ in shape
 * as well as in colour.  Verdicts are words in a cell whose class gives
 * the colour.  Every byte from outside passes through
 * pr_report_html_escape; ids and classes are made here.
 *
 * Invariants: the output is valid UTF-8 (the escaping makes invalid bytes
 * visible), every element opened is closed, and a non-finite figure is
 * written "-" and never reaches an SVG coordinate.
 */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/bisect_job.h"
#include "perfreg/distrib.h"
#include "perfreg/report_html.h"
#include "perfreg/verdict.h"
#include "report/decimal.h"
#include "report/internal.h"
#include "core/banned.h"

/* A plot's drawing box, in SVG user units. */
#define PLOT_W 420.0
#define PLOT_L 48.0 /* left margin: the side's label */
#define PLOT_R 12.0

#define TRY(x) \
	do { \
		if ((st = (x)) != PR_OK) \
			return st; \
	} while (0)

struct page {
	struct pr_buf *out;
	struct pr_error *err;
	size_t metric; /* panels written so far: the next id is m<metric+1> */
	size_t table;  /* tables written so far */
	/* The last Student quantile mean_half asked for, at probability
	 * tq_p and tq_df degrees of freedom (tq_df 0: none yet): the sides
	 * of a large comparison mostly share theirs. */
	double tq_p, tq_df, tq;
};

/* HTML-escaping of bytes already made safe by pr_report_escape. */
static enum pr_status
entities(struct pr_buf *out, const char *s, size_t len, struct pr_error *err)
{
	enum pr_status st = PR_OK;
	size_t i, run = 0;
	const char *ent;

	for (i = 0; i < len && st == PR_OK; i++) {
		switch (s[i]) {
		case '&':
			ent = "&amp;";
			break;
		case '<':
			ent = "&lt;";
			break;
		case '>':
			ent = "&gt;";
			break;
		case '"':
			ent = "&quot;";
			break;
		case '\'':
			ent = "&#39;";
			break;
		default:
			continue;
		}
		if ((st = pr_buf_add(out, s + run, i - run, err)) == PR_OK)
			st = pr_buf_adds(out, ent, err);
		run = i + 1;
	}
	if (st == PR_OK)
		st = pr_buf_add(out, s + run, len - run, err);
	return st;
}

enum pr_status
pr_report_html_escape(struct pr_buf *out, const char *s, size_t len, int flags,
    struct pr_error *err)
{
	struct pr_buf tmp = PR_BUF_INIT(out->max);
	enum pr_status st;
	size_t i;

	/* Printable ASCII (the usual case) needs no first pass. */
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			break;
	if (i == len)
		return entities(out, s, len, err);
	if ((st = pr_report_escape(&tmp, s, len, flags, err)) == PR_OK)
		st = entities(out, tmp.data != NULL ? tmp.data : "", tmp.len,
		    err);
	pr_buf_release(&tmp);
	return st;
}

enum pr_status
report_html_esc(struct pr_buf *out, const char *s, struct pr_error *err)
{
	if (s == NULL)
		return PR_OK;
	return pr_report_html_escape(out, s, strlen(s), 0, err);
}

enum pr_status
report_html_table(struct pr_buf *out, const struct report_html_table *t,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;
	size_t i;

	if (t->head != NULL && (st = pr_buf_adds(out, t->head, err)) != PR_OK)
		return st;
	for (i = 0; i < t->n && st == PR_OK; i++)
		if ((st = pr_buf_adds(out, "<tr><td>", err)) == PR_OK &&
		    (st = report_html_esc(out, t->name(t->data, i), err)) ==
			PR_OK &&
		    (st = pr_buf_adds(out, "</td>", err)) == PR_OK &&
		    (st = t->cells(out, t->data, i, err)) == PR_OK)
			st = pr_buf_adds(out, "</tr>", err);
	if (st == PR_OK && t->tail != NULL)
		st = pr_buf_adds(out, t->tail, err);
	return st;
}

/* s (may be NULL: nothing) escaped, on one line. */
static enum pr_status
esc(struct page *pg, const char *s)
{
	return report_html_esc(pg->out, s, pg->err);
}

static enum pr_status
add(struct page *pg, const char *s)
{
	return pr_buf_adds(pg->out, s, pg->err);
}

static enum pr_status addf(struct page *pg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static enum pr_status
addf(struct page *pg, const char *fmt, ...)
{
	enum pr_status st;
	va_list ap;

	va_start(ap, fmt);
	st = pr_buf_vaddf(pg->out, pg->err, fmt, ap);
	va_end(ap);
	return st;
}

/*
 * Appends fmt with each '@' replaced by the next of the n values v, at
 * one decimal as "%.1f" writes it, through report/decimal.h: most of a
 * large page is coordinates, and printf's exact conversion was most of
 * its writing time (issue 17).  SVGF makes v from its arguments.  A
 * coordinate is finite (axis_at clamps it); one that is not would be a
 * bug, and is refused with PR_EINVAL.
 */
static enum pr_status
svgf(struct page *pg, const char *fmt, const double *v, size_t n)
{
	enum pr_status st;
	char line[256];
	size_t len = 0, i = 0;
	int k;

	for (; *fmt != '\0'; fmt++) {
		if (len > sizeof(line) - REPORT_DEC_MAX) {
			TRY(pr_buf_add(pg->out, line, len, pg->err));
			len = 0;
		}
		if (*fmt != '@') {
			line[len++] = *fmt;
			continue;
		}
		assert(i < n);
		if (i >= n || (k = report_dec_fixed(line + len, v[i++], 1)) < 0)
			return pr_error_set(pg->err, PR_EINVAL,
			    "a coordinate of the page is not finite");
		len += (size_t)k;
	}
	assert(i == n);
	return pr_buf_add(pg->out, line, len, pg->err);
}

#define SVGF(pg, fmt, ...) \
	svgf(pg, fmt, (const double[]){ __VA_ARGS__ }, \
	    sizeof((const double[]){ __VA_ARGS__ }) / sizeof(double))

/* A figure for a table: 5 significant digits, or a percentage as every
 * report writes it (report_fmt_pct); "-" when undefined. */
static const char *
fig(char *buf, size_t size, int have, double x, int percent)
{
	if (!have || !isfinite(x))
		snprintf(buf, size, "-");
	else if (percent)
		report_fmt_pct(buf, size, x);
	else if (size < REPORT_DEC_MAX)
		snprintf(buf, size, "%.5g", x);
	else
		report_dec_g(buf, x, 5);
	return buf;
}

#define num(buf, size, have, x) fig(buf, size, have, x, 0)
#define pct(buf, size, have, x) fig(buf, size, have, x, 1)

/*
 * A rank test's row (method Mann-Whitney): its change is the
 * Hodges-Lehmann estimate, the median of the ratios of each new value to
 * each base value, and the figures of its two sides are their medians,
 * as the text, CSV and JSON reports say ("center": "median", "estimate":
 * "hodges-lehmann"; src/report/compare.c).
 */
static int
rank_row(const struct pr_comparison *c)
{
	return c->method == PR_METHOD_MWU;
}

/* ---- SVG helpers ---- */

struct axis {
	double lo, hi; /* the values at the two ends */
	double x0, x1; /* their coordinates */
};

/* An axis over [lo, hi] (finite), padded by 5% a side, onto [x0, x1]. */
static void
axis_init(struct axis *a, double lo, double hi, double x0, double x1)
{
	double pad;

	if (!(hi > lo)) {
		pad = fabs(lo) > 0 ? fabs(lo) * 0.01 : 1;
		lo -= pad;
		hi += pad;
	}
	pad = (hi - lo) * 0.05;
	a->lo = lo - pad;
	a->hi = hi + pad;
	a->x0 = x0;
	a->x1 = x1;
}

static double
axis_at(const struct axis *a, double v)
{
	double t = (v - a->lo) / (a->hi - a->lo);

	if (!isfinite(t))
		t = 0.5;
	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	return a->x0 + t * (a->x1 - a->x0);
}

/* The extent of the finite values of v[0..n-1] into *lo, *hi; 0 if none. */
static int
extent(const double *v, size_t n, double *lo, double *hi)
{
	size_t i;
	int any = 0;

	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (!any || v[i] < *lo)
			*lo = v[i];
		if (!any || v[i] > *hi)
			*hi = v[i];
		any = 1;
	}
	return any;
}

/* Opens an <svg> of the given height, labelled for screen readers (an
 * attribute, not a <title> element: two DOM nodes fewer a plot). */
static enum pr_status
svg_open(struct page *pg, double h, const char *cls, const char *title)
{
	enum pr_status st;

	TRY(addf(pg,
	    "<svg class=\"%s\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" "
	    "height=\"%.0f\" role=\"img\" aria-label=\"",
	    cls, PLOT_W, h, PLOT_W, h));
	TRY(esc(pg, title));
	return add(pg, "\">");
}

/* An axis label at x, y (text anchored middle). */
static enum pr_status
svg_label(struct page *pg, double x, double y, const char *anchor,
    const char *text)
{
	enum pr_status st;

	TRY(SVGF(pg, "<text x=\"@\" y=\"@\" text-anchor=\"", x, y));
	TRY(add(pg, anchor));
	TRY(add(pg, "\">"));
	TRY(esc(pg, text));
	return add(pg, "</text>");
}

/* Which values of n to draw: all, or at most PR_HTML_DOTS evenly spread. */
static size_t
dot_step(size_t n)
{
	return n <= PR_HTML_DOTS ? 1 : (n + PR_HTML_DOTS - 1) / PR_HTML_DOTS;
}

/* The dots of v at rows around y (a small deterministic jitter). */
static enum pr_status
strip_dots(struct page *pg, const struct axis *ax, const double *v, size_t n,
    double y, const char *cls)
{
	enum pr_status st;
	size_t i, step = dot_step(n);
	double jit;

	if (n == 0)
		return PR_OK;
	TRY(addf(pg, "<path class=\"%s\" d=\"", cls));
	for (i = 0; i < n; i += step) {
		if (!isfinite(v[i]))
			continue;
		/* Knuth's multiplicative hash of i spreads the dots over
		 * +-9 units so that equal values stay visible. */
		jit = (double)(((uint32_t)i * 2654435761u) >> 24) / 255.0 * 18 -
		    9;
		TRY(SVGF(pg, "M@ @h0", axis_at(ax, v[i]), y + jit));
	}
	return add(pg, "\"/>");
}

/* The half width of the Student interval of the mean of s into *half;
 * 0 when it is undefined (one value, no spread).  The quantile is the
 * last one's when p and the degrees of freedom are the same (the same
 * number, so the same page). */
static int
mean_half(struct page *pg, const struct pr_summary *s, double conf,
    double *half)
{
	double p = 0.5 + conf / 2, df = (double)s->n - 1;

	if (s->n < 2 || !(s->defined & PR_SUM_STDDEV) || !isfinite(s->stddev) ||
	    !isfinite(s->mean))
		return 0;
	if (pg->tq_df != df || pg->tq_p != p) {
		pg->tq = pr_t_quantile(p, df);
		pg->tq_p = p;
		pg->tq_df = df;
	}
	*half = pg->tq * s->stddev / sqrt((double)s->n);
	return isfinite(*half);
}

/* The mean of a side as a tick and the interval of the mean as a bar;
 * for a rank test (rank) its median as the tick, alone.  Segments of
 * the one path of class "mean" that strip_plot opens for both sides. */
static enum pr_status
mean_bar(struct page *pg, const struct axis *ax, const struct pr_summary *s,
    double conf, double y, int rank)
{
	enum pr_status st;
	double half, x = rank ? s->median : s->mean;

	if (s->n == 0 || !isfinite(x))
		return PR_OK;
	if (!rank && mean_half(pg, s, conf, &half))
		TRY(SVGF(pg, "M@ @H@M@ @v10M@ @v10",
		    axis_at(ax, s->mean - half), y + 16,
		    axis_at(ax, s->mean + half), axis_at(ax, s->mean - half),
		    y + 11, axis_at(ax, s->mean + half), y + 11));
	return SVGF(pg, "M@ @v26", axis_at(ax, x), y - 13);
}

/* Strip plot: each side's values on one axis, mean and its interval. */
static enum pr_status
strip_plot(struct page *pg, const struct pr_report_metric *m, double conf)
{
	const struct pr_comparison *c = &m->cmp;
	enum pr_status st;
	struct axis ax;
	double lo = c->base.min, hi = c->base.max, l2 = 0, h2 = 0;
	int rank = rank_row(c);
	char a[32], b[32];

	if (c->new.min < lo)
		lo = c->new.min;
	if (c->new.max > hi)
		hi = c->new.max;
	if (m->base_n > 0 && extent(m->base_values, m->base_n, &l2, &h2)) {
		lo = fmin(lo, l2);
		hi = fmax(hi, h2);
	}
	if (m->new_n > 0 && extent(m->new_values, m->new_n, &l2, &h2)) {
		lo = fmin(lo, l2);
		hi = fmax(hi, h2);
	}
	if (!rank && mean_half(pg, &c->base, conf, &l2)) {
		lo = fmin(lo, c->base.mean - l2);
		hi = fmax(hi, c->base.mean + l2);
	}
	if (!rank && mean_half(pg, &c->new, conf, &l2)) {
		lo = fmin(lo, c->new.mean - l2);
		hi = fmax(hi, c->new.mean + l2);
	}
	if (!isfinite(lo) || !isfinite(hi))
		return PR_OK;
	axis_init(&ax, lo, hi, PLOT_L, PLOT_W - PLOT_R);
	TRY(svg_open(pg, 110, "strip",
	    rank ? "each side's values, with the median"
		 : "each side's values, with the mean and its interval"));
	TRY(svg_label(pg, 4, 34, "start", "base"));
	TRY(svg_label(pg, 4, 74, "start", "new"));
	TRY(strip_dots(pg, &ax, m->base_values, m->base_n, 30, "dot base"));
	TRY(strip_dots(pg, &ax, m->new_values, m->new_n, 70, "dot new"));
	TRY(add(pg, "<path class=\"mean\" d=\""));
	TRY(mean_bar(pg, &ax, &c->base, conf, 30, rank));
	TRY(mean_bar(pg, &ax, &c->new, conf, 70, rank));
	TRY(add(pg, "\"/>"));
	TRY(addf(pg, "<path class=\"axis\" d=\"M%.0f 94H%.0f\"/>", PLOT_L,
	    PLOT_W - PLOT_R));
	TRY(svg_label(pg, PLOT_L, 107, "start", num(a, sizeof(a), 1, lo)));
	TRY(svg_label(pg, PLOT_W - PLOT_R, 107, "end",
	    num(b, sizeof(b), 1, hi)));
	if (m->unit != NULL && m->unit[0] != '\0')
		TRY(svg_label(pg, (PLOT_L + PLOT_W) / 2, 107, "middle",
		    m->unit));
	return add(pg, "</svg>");
}

/* The interval of the change (percent) against the +-equivalence band. */
static enum pr_status
change_plot(struct page *pg, const struct pr_comparison *c, double eq)
{
	enum pr_status st;
	struct axis ax;
	double lo = -2 * eq, hi = 2 * eq, y = 26;
	char t[48];

	if (!c->have_change || !isfinite(c->change_pct))
		return PR_OK;
	if (!(eq > 0))
		lo = -1, hi = 1;
	lo = fmin(lo, c->change_pct);
	hi = fmax(hi, c->change_pct);
	if (c->have_ci && isfinite(c->ci_lo_pct) && isfinite(c->ci_hi_pct)) {
		lo = fmin(lo, c->ci_lo_pct);
		hi = fmax(hi, c->ci_hi_pct);
	}
	axis_init(&ax, lo, hi, PLOT_L, PLOT_W - PLOT_R);
	TRY(svg_open(pg, 62, "change",
	    "the change in percent with its interval, against the "
	    "equivalence band"));
	if (eq > 0)
		TRY(SVGF(pg,
		    "<rect class=\"band\" x=\"@\" y=\"14\" width=\"@\" "
		    "height=\"32\"/>",
		    axis_at(&ax, -eq), axis_at(&ax, eq) - axis_at(&ax, -eq)));
	TRY(SVGF(pg, "<path class=\"zero\" d=\"M@ 14v34\"/>", axis_at(&ax, 0)));
	TRY(svg_label(pg, 4, y + 4, "start", rank_row(c) ? "HL" : "change"));
	if (c->have_ci && isfinite(c->ci_lo_pct) && isfinite(c->ci_hi_pct))
		TRY(SVGF(pg, "<path class=\"ci\" d=\"M@ @H@M@ @v12M@ @v12\"/>",
		    axis_at(&ax, c->ci_lo_pct), y, axis_at(&ax, c->ci_hi_pct),
		    axis_at(&ax, c->ci_lo_pct), y - 6,
		    axis_at(&ax, c->ci_hi_pct), y - 6));
	TRY(SVGF(pg, "<path class=\"dot est\" d=\"M@ @h0\"/>",
	    axis_at(&ax, c->change_pct), y));
	TRY(svg_label(pg, PLOT_L, 58, "start", pct(t, sizeof(t), 1, ax.lo)));
	TRY(svg_label(pg, PLOT_W - PLOT_R, 58, "end",
	    pct(t, sizeof(t), 1, ax.hi)));
	snprintf(t, sizeof(t), "shaded: equivalent within +-%g%%", eq);
	TRY(svg_label(pg, PLOT_L, 10, "start", t));
	return add(pg, "</svg>");
}

/* The x of value i of a side: its run's start on the time axis, or
 * its index. */
static double
order_x(const struct axis *ax, const double *at, size_t i)
{
	return axis_at(ax, at != NULL ? at[i] : (double)i);
}

/* The values of both sides in the order they ran: on one time axis
 * when the metric says when each run started (run's sessions:
 * interleaving and drift show), else each side in the order of its
 * values. */
static enum pr_status
order_plot(struct page *pg, const struct pr_report_metric *m)
{
	enum pr_status st;
	struct axis ax, ay;
	double lo = 0, hi = 0, l2 = 0, h2 = 0, t0 = 0, t1 = 0;
	size_t i, step, n = m->base_n > m->new_n ? m->base_n : m->new_n;
	int side,
	    timed = m->base_at != NULL && m->new_at != NULL &&
	    extent(m->base_at, m->base_n, &t0, &t1) &&
	    extent(m->new_at, m->new_n, &l2, &h2);

	if (n < 2 || !extent(m->base_values, m->base_n, &lo, &hi))
		return PR_OK;
	if (timed) {
		t0 = fmin(t0, l2);
		t1 = fmax(t1, h2);
	}
	if (extent(m->new_values, m->new_n, &l2, &h2)) {
		lo = fmin(lo, l2);
		hi = fmax(hi, h2);
	}
	axis_init(&ax, timed ? t0 : 0, timed ? t1 : (double)(n - 1), PLOT_L,
	    PLOT_W - PLOT_R);
	/* Higher values up: the y axis runs from the bottom. */
	axis_init(&ay, lo, hi, 96, 8);
	TRY(svg_open(pg, 116, timed ? "order time" : "order",
	    timed ? "both sides' values on one time axis, in the order they "
		    "ran"
		  : "the values in the order they ran"));
	TRY(addf(pg, "<path class=\"axis\" d=\"M%.0f 4V100H%.0f\"/>",
	    PLOT_L - 4, PLOT_W - PLOT_R));
	for (side = 0; side < 2; side++) {
		const double *v = side == 0 ? m->base_values : m->new_values;
		const double *at = !timed ? NULL
		    : side == 0           ? m->base_at
					  : m->new_at;
		size_t k = side == 0 ? m->base_n : m->new_n;

		if (k == 0)
			continue;
		step = dot_step(k);
		TRY(addf(pg, "<path class=\"line %s\" d=\"",
		    side == 0 ? "base" : "new"));
		for (i = 0; i < k; i += step)
			if (isfinite(v[i]))
				TRY(SVGF(pg, i == 0 ? "M@ @" : "L@ @",
				    order_x(&ax, at, i), axis_at(&ay, v[i])));
		TRY(addf(pg, "\"/><path class=\"dot %s\" d=\"",
		    side == 0 ? "base" : "new"));
		for (i = 0; i < k; i += step)
			if (isfinite(v[i]))
				TRY(SVGF(pg, "M@ @h0", order_x(&ax, at, i),
				    axis_at(&ay, v[i])));
		TRY(add(pg, "\"/>"));
	}
	if (timed) {
		char b[32];

		snprintf(b, sizeof(b), "%.3g s later", t1 - t0);
		TRY(svg_label(pg, PLOT_L, 112, "start", "first run"));
		TRY(svg_label(pg, PLOT_W - PLOT_R, 112, "end", b));
	} else {
		TRY(svg_label(pg, PLOT_L, 112, "start", "first"));
		TRY(svg_label(pg, PLOT_W - PLOT_R, 112, "end", "last"));
	}
	return add(pg, "</svg>");
}

/* ---- comparisons ---- */

/* The verdict v in words (word, or v's own when NULL) and colour. */
static enum pr_status
verdict_cell(struct page *pg, const char *tag, enum pr_verdict v,
    const char *word)
{
	const char *w = pr_verdict_str(v);

	return addf(pg, "<%s class=\"verdict v-%s\">%s</%s>", tag, w,
	    word != NULL ? word : w, tag);
}

/* "12.1% slower", the words of the change. */
static enum pr_status
change_words(struct page *pg, const struct pr_report_metric *m)
{
	enum pr_status st;
	char w[128];

	if (!m->cmp.have_change)
		return add(pg, "change undefined");
	pr_report_change_words(w, sizeof(w), m->cmp.change_pct, m->cmp.better,
	    m->name, m->unit);
	if ((st = esc(pg, w)) != PR_OK || !m->cmp.tested || !rank_row(&m->cmp))
		return st;
	return add(pg, " by the Hodges-Lehmann estimate");
}

static enum pr_status
summary_line(struct page *pg, const struct pr_report *r)
{
	size_t count[4] = { 0, 0, 0, 0 }, i;
	static const enum pr_verdict order[4] = { PR_VERDICT_REGRESSION,
		PR_VERDICT_IMPROVEMENT, PR_VERDICT_EQUIVALENT,
		PR_VERDICT_INCONCLUSIVE };
	enum pr_status st;
	int first = 1;

	for (i = 0; i < r->n; i++)
		count[r->metrics[i].cmp.verdict & 3]++;
	TRY(addf(pg, "<p class=\"summary\" id=\"t%zu\">", pg->table));
	if (r->base_source != NULL && r->new_source != NULL) {
		TRY(add(pg, "<b>"));
		TRY(esc(pg, r->base_source));
		TRY(add(pg, "</b> &#8594; <b>"));
		TRY(esc(pg, r->new_source));
		TRY(add(pg, "</b>: "));
	}
	TRY(addf(pg, "%zu metric%s:", r->n, r->n == 1 ? "" : "s"));
	for (i = 0; i < 4; i++) {
		if (count[order[i]] == 0)
			continue;
		TRY(addf(pg, "%s <span class=\"verdict v-%s\">%zu %s</span>",
		    first ? "" : ",", pr_verdict_str(order[i]), count[order[i]],
		    pr_verdict_str(order[i])));
		first = 0;
	}
	return addf(pg, " (%g%% confidence, equivalent within +-%g%%)</p>",
	    r->conf * 100, r->equivalence_pct);
}

/* A side's figures: its mean and sd, or a rank test's median ("med "
 * in front when the header does not say so). */
static enum pr_status
side_cell(struct page *pg, const struct pr_summary *s, int rank, int mark)
{
	char a[32], b[32];

	if (rank)
		return addf(pg, "<td class=\"n\">%s%s</td>", mark ? "med " : "",
		    num(a, sizeof(a), s->n > 0, s->median));
	return addf(pg, "<td class=\"n\">%s &#177; %s</td>",
	    num(a, sizeof(a), s->n > 0, s->mean),
	    num(b, sizeof(b), (s->defined & PR_SUM_STDDEV) != 0, s->stddev));
}

static enum pr_status
verdict_table(struct page *pg, const struct pr_report *r, size_t first_id)
{
	enum pr_status st;
	size_t i;
	char a[48], b[48], p[32], v[REPORT_DEC_MAX];
	int all = r->n > 0, rank;

	/* A rank test is about the medians and the Hodges-Lehmann change:
	 * the header says so when every row is one, else each such row. */
	for (i = 0; i < r->n; i++)
		all = all && rank_row(&r->metrics[i].cmp);
	TRY(addf(pg,
	    "<table class=\"verdicts sortable\"><thead><tr><th>metric</th>"
	    "<th>%s</th><th>%s</th><th>%s</th><th>%g%% interval</th>"
	    "<th>p (adjusted)</th><th>verdict</th><th>n</th></tr></thead>"
	    "<tbody>",
	    all ? "base median" : "base mean &#177; sd",
	    all ? "new median" : "new mean &#177; sd",
	    all ? "HL change" : "change", r->conf * 100));
	for (i = 0; i < r->n; i++) {
		const struct pr_report_metric *m = &r->metrics[i];
		const struct pr_comparison *c = &m->cmp;

		TRY(addf(pg, "<tr><td><a href=\"#m%zu\">", first_id + i));
		TRY(esc(pg, m->name));
		TRY(add(pg, "</a>"));
		if (m->unit != NULL && m->unit[0] != '\0') {
			TRY(add(pg, " <span class=\"unit\">"));
			TRY(esc(pg, m->unit));
			TRY(add(pg, "</span>"));
		}
		TRY(add(pg, "</td>"));
		rank = rank_row(c);
		TRY(side_cell(pg, &c->base, rank, !all));
		TRY(side_cell(pg, &c->new, rank, !all));
		report_dec_g(v,
		    c->have_change && isfinite(c->change_pct) ? c->change_pct
							      : 0.0,
		    6);
		TRY(addf(pg, "<td class=\"n\" data-v=\"%s\">%s%s</td>", v,
		    rank && !all ? "HL " : "",
		    pct(a, sizeof(a), c->have_change, c->change_pct)));
		TRY(addf(pg, "<td class=\"n\">[%s, %s]</td>",
		    pct(a, sizeof(a), c->have_ci, c->ci_lo_pct),
		    pct(b, sizeof(b), c->have_ci, c->ci_hi_pct)));
		TRY(addf(pg, "<td class=\"n\">%s</td>",
		    num(p, sizeof(p), c->tested, c->p_adjusted)));
		TRY(verdict_cell(pg, "td", c->verdict, NULL));
		TRY(addf(pg, "<td class=\"n\">%zu+%zu</td></tr>", c->base.n,
		    c->new.n));
	}
	return add(pg, "</tbody></table>");
}

/* One row of the numbers table: a figure of each side. */
static enum pr_status
num_row(struct page *pg, const char *what, int have_a, double a, int have_b,
    double b)
{
	char x[32], y[32];

	return addf(pg, "<tr><th>%s</th><td>%s</td><td>%s</td></tr>", what,
	    num(x, sizeof(x), have_a, a), num(y, sizeof(y), have_b, b));
}

static enum pr_status
values_list(struct page *pg, const char *side, const double *v, size_t n)
{
	enum pr_status st;
	size_t i;
	char x[REPORT_DEC_MAX + 1];

	if (n == 0)
		return PR_OK;
	TRY(addf(pg, "<p class=\"values\"><b>%s</b>, in order:", side));
	x[0] = ' '; /* each value after a space, without printf */
	for (i = 0; i < n && i < PR_HTML_VALUES; i++) {
		num(x + 1, sizeof(x) - 1, 1, v[i]);
		TRY(add(pg, x));
	}
	if (n > PR_HTML_VALUES)
		TRY(addf(pg, " ... (%zu more)", n - PR_HTML_VALUES));
	return add(pg, "</p>");
}

static enum pr_status
numbers(struct page *pg, const struct pr_report_metric *m)
{
	const struct pr_comparison *c = &m->cmp;
	const struct pr_summary *a = &c->base, *b = &c->new;
	enum pr_status st;
	char x[48], y[48];
	int q =
	    (a->defined & PR_SUM_QUARTILES) && (b->defined & PR_SUM_QUARTILES);

	TRY(add(pg,
	    "<table class=\"numbers\"><thead><tr><th></th>"
	    "<th>base</th><th>new</th></tr></thead><tbody>"));
	TRY(addf(pg, "<tr><th>n</th><td>%zu</td><td>%zu</td></tr>", a->n,
	    b->n));
	TRY(num_row(pg, "mean", a->n > 0, a->mean, b->n > 0, b->mean));
	TRY(num_row(pg, "sd", (a->defined & PR_SUM_STDDEV) != 0, a->stddev,
	    (b->defined & PR_SUM_STDDEV) != 0, b->stddev));
	TRY(num_row(pg, "median", a->n > 0, a->median, b->n > 0, b->median));
	TRY(num_row(pg, "q1", q, a->q1, q, b->q1));
	TRY(num_row(pg, "q3", q, a->q3, q, b->q3));
	TRY(num_row(pg, "min", a->n > 0, a->min, b->n > 0, b->min));
	TRY(num_row(pg, "max", a->n > 0, a->max, b->n > 0, b->max));
	TRY(add(pg, "</tbody></table><table class=\"numbers\"><tbody>"));
	TRY(addf(pg, "<tr><th>%s</th><td>%s</td></tr>",
	    rank_row(c) ? "HL change" : "change",
	    pct(x, sizeof(x), c->have_change, c->change_pct)));
	TRY(addf(pg, "<tr><th>%g%% interval</th><td>[%s, %s]</td></tr>",
	    c->conf * 100, pct(x, sizeof(x), c->have_ci, c->ci_lo_pct),
	    pct(y, sizeof(y), c->have_ci, c->ci_hi_pct)));
	TRY(addf(pg, "<tr><th>p</th><td>%s</td></tr>",
	    num(x, sizeof(x), c->tested, c->p_value)));
	TRY(addf(pg, "<tr><th>p adjusted</th><td>%s</td></tr>",
	    num(x, sizeof(x), c->tested, c->p_adjusted)));
	TRY(addf(pg, "<tr><th>method</th><td>%s%s</td></tr>",
	    pr_report_method_slug(c->method),
	    rank_row(c) ? ": the change is the Hodges-Lehmann estimate (HL, "
			  "the median of the ratios of each new value to "
			  "each base value), the sides' figures their medians"
			: ""));
	TRY(addf(pg, "<tr><th>better</th><td>%s%s</td></tr>",
	    c->better == PR_BETTER_HIGHER ? "higher" : "lower",
	    m->better_assumed ? " (assumed)" : ""));
	if (c->verdict == PR_VERDICT_INCONCLUSIVE && c->runs_needed > 0)
		TRY(addf(pg,
		    "<tr><th>runs needed</th><td>about %zu a "
		    "side</td></tr>",
		    c->runs_needed));
	TRY(add(pg, "</tbody></table>"));
	TRY(values_list(pg, "base", m->base_values, m->base_n));
	return values_list(pg, "new", m->new_values, m->new_n);
}

/* The change of a side's figure b -> n in percent; NAN without one. */
static double
side_change(double b, double n)
{
	if (!isfinite(b) || !isfinite(n) || !(b > 0))
		return NAN;
	return 100.0 * (n / b - 1.0);
}

/* A rank test's note when the medians or the means moved against its
 * Hodges-Lehmann change, as the text report's: their figures, so that
 * the change shown is not taken for theirs. */
static enum pr_status
contrary(struct page *pg, const struct pr_comparison *c)
{
	double hl = c->change_pct,
	       med = side_change(c->base.median, c->new.median),
	       mean = side_change(c->base.mean, c->new.mean);
	int cmed = isfinite(med) && med * hl < 0,
	    cmean = isfinite(mean) && mean * hl < 0;
	enum pr_status st;
	char a[32], b[32], p[32];

	if (!c->tested || !rank_row(c) || !c->have_change || !isfinite(hl) ||
	    (!cmed && !cmean))
		return PR_OK;
	TRY(addf(pg,
	    "<p class=\"warning\">the change shown, %s, is the "
	    "Hodges-Lehmann estimate the Mann-Whitney test is about, but",
	    pct(p, sizeof(p), 1, hl)));
	if (cmed)
		TRY(addf(pg, " the medians moved %s (%s &#8594; %s)%s",
		    pct(p, sizeof(p), 1, med),
		    num(a, sizeof(a), 1, c->base.median),
		    num(b, sizeof(b), 1, c->new.median), cmean ? " and" : ""));
	if (cmean)
		TRY(addf(pg, " the means moved %s (%s &#8594; %s)",
		    pct(p, sizeof(p), 1, mean),
		    num(a, sizeof(a), 1, c->base.mean),
		    num(b, sizeof(b), 1, c->new.mean)));
	return add(pg, "</p>");
}

/* One figure of each side for numbers_line: " what a / b". */
static enum pr_status
line_pair(struct page *pg, const char *what, int have_a, double a, int have_b,
    double b)
{
	char x[32], y[32];

	return addf(pg, "; %s %s / %s", what, num(x, sizeof(x), have_a, a),
	    num(y, sizeof(y), have_b, b));
}

/* The numbers of a panel with no change found as one line of text, not
 * numbers' two tables (the metric's row of the verdict table has the
 * main ones): the same figures in a few DOM nodes. */
static enum pr_status
numbers_line(struct page *pg, const struct pr_report_metric *m)
{
	const struct pr_comparison *c = &m->cmp;
	const struct pr_summary *a = &c->base, *b = &c->new;
	enum pr_status st;
	char x[48], y[48], z[32];
	int sd_a = (a->defined & PR_SUM_STDDEV) != 0,
	    sd_b = (b->defined & PR_SUM_STDDEV) != 0,
	    q = (a->defined & PR_SUM_QUARTILES) &&
	    (b->defined & PR_SUM_QUARTILES);

	TRY(addf(pg, "<p class=\"values\"><b>base / new</b>: n %zu / %zu", a->n,
	    b->n));
	TRY(line_pair(pg, "mean", a->n > 0, a->mean, b->n > 0, b->mean));
	TRY(line_pair(pg, "sd", sd_a, a->stddev, sd_b, b->stddev));
	TRY(line_pair(pg, "median", a->n > 0, a->median, b->n > 0, b->median));
	TRY(line_pair(pg, "q1", q, a->q1, q, b->q1));
	TRY(line_pair(pg, "q3", q, a->q3, q, b->q3));
	TRY(line_pair(pg, "min", a->n > 0, a->min, b->n > 0, b->min));
	TRY(line_pair(pg, "max", a->n > 0, a->max, b->n > 0, b->max));
	TRY(addf(pg, "; %s %s, %g%% interval [%s, %s]",
	    rank_row(c) ? "HL change" : "change",
	    pct(x, sizeof(x), c->have_change, c->change_pct), c->conf * 100,
	    pct(y, sizeof(y), c->have_ci, c->ci_lo_pct),
	    pct(z, sizeof(z), c->have_ci, c->ci_hi_pct)));
	TRY(addf(pg, ", p %s (adjusted %s); method %s; %s is better%s",
	    num(x, sizeof(x), c->tested, c->p_value),
	    num(y, sizeof(y), c->tested, c->p_adjusted),
	    pr_report_method_slug(c->method),
	    c->better == PR_BETTER_HIGHER ? "higher" : "lower",
	    m->better_assumed ? " (assumed)" : ""));
	if (c->verdict == PR_VERDICT_INCONCLUSIVE && c->runs_needed > 0)
		TRY(addf(pg, "; runs needed: about %zu a side",
		    c->runs_needed));
	TRY(add(pg, "</p>"));
	TRY(values_list(pg, "base", m->base_values, m->base_n));
	return values_list(pg, "new", m->new_values, m->new_n);
}

/*
 * A metric's panel.  In a family of more than PR_HTML_OPEN metrics, one
 * with no change found (equivalent or inconclusive: most of a large
 * comparison) is closed: a <details> whose
 * summary is its name, verdict and change, its numbers one line of text,
 * and the rest inside a <noscript>.  With scripting on, the browser
 * reads a <noscript>'s content as one text node, not as elements, and
 * the page's script makes them when the panel is opened (by a click, a
 * link to it, or printing); with scripting off the browser makes them
 * itself and the panel opens by a click.  A page of 1,000 metrics thus
 * builds a small part of its DOM (bench/README.md, issue 17).  Nothing
 * from outside can end the <noscript> early: every '<' is escaped.
 */
static enum pr_status
panel(struct page *pg, const struct pr_report *r,
    const struct pr_report_metric *m, size_t id)
{
	enum pr_status st;
	int closed = r->n > PR_HTML_OPEN &&
	    (m->cmp.verdict == PR_VERDICT_EQUIVALENT ||
		m->cmp.verdict == PR_VERDICT_INCONCLUSIVE);

	TRY(addf(pg, "<section class=\"panel\" id=\"m%zu\"%s<h3>", id,
	    closed ? " data-closed><details><summary>" : ">"));
	TRY(esc(pg, m->name));
	TRY(add(pg, " "));
	TRY(verdict_cell(pg, "span", m->cmp.verdict, NULL));
	TRY(add(pg, closed ? "</h3> " : "</h3><p>"));
	TRY(change_words(pg, m));
	TRY(add(pg, closed ? "</summary><noscript>" : "</p>"));
	TRY(contrary(pg, &m->cmp));
	if (rank_row(&m->cmp))
		TRY(add(pg,
		    "<p class=\"cap\">each run a dot (base &#9679;, new "
		    "&#9632;), the median |; the Hodges-Lehmann change and its "
		    "interval; the runs in order</p><div class=\"plots\">"));
	else
		TRY(addf(pg,
		    "<p class=\"cap\">each run a dot (base &#9679;, new "
		    "&#9632;), the mean | and its %g%% interval; the change "
		    "and "
		    "its interval; the runs in order</p><div class=\"plots\">",
		    r->conf * 100));
	TRY(strip_plot(pg, m, r->conf));
	TRY(change_plot(pg, &m->cmp, r->equivalence_pct));
	TRY(order_plot(pg, m));
	TRY(add(pg, "</div><div class=\"tables\">"));
	TRY(closed ? numbers_line(pg, m) : numbers(pg, m));
	return addf(pg,
	    "</div>%s<p class=\"back\"><a href=\"#t%zu\">back to the "
	    "table</a></p></section>",
	    closed ? "</noscript></details>" : "", pg->table);
}

/* The not-tested metrics of r, said once ("constant 0"). */
static enum pr_status
not_tested(struct page *pg, const struct pr_report *r)
{
	enum pr_status st;
	size_t i;
	char x[32];

	if (r->n_not_tested == 0 || r->not_tested == NULL)
		return PR_OK;
	TRY(add(pg, "<p class=\"cap\">not tested, one value on both sides:"));
	for (i = 0; i < r->n_not_tested; i++) {
		TRY(add(pg, i == 0 ? " " : "; "));
		TRY(esc(pg, r->not_tested[i]));
		if (r->not_tested_value != NULL)
			TRY(addf(pg, " (constant %s)",
			    num(x, sizeof(x), 1, r->not_tested_value[i])));
	}
	return add(pg, "</p>");
}

/* The table and the panels of one family (r's metrics, not its side). */
static enum pr_status
family(struct page *pg, const struct pr_report *r)
{
	enum pr_status st;
	size_t i, first = pg->metric + 1;

	pg->table++;
	TRY(summary_line(pg, r));
	TRY(verdict_table(pg, r, first));
	for (i = 0; i < r->n; i++)
		TRY(panel(pg, r, &r->metrics[i], first + i));
	pg->metric += r->n;
	return PR_OK;
}

/* A comparison: its primary metrics, then its side metrics (a family of
 * their own, perfreg/report.h) under their heading. */
static enum pr_status
comparison(struct page *pg, const struct pr_report *r)
{
	const struct pr_report *side = r->side;
	enum pr_status st;

	TRY(add(pg, "<section class=\"comparison\">"));
	TRY(family(pg, r));
	if (side != NULL && side->n > 0) {
		TRY(addf(pg,
		    "<h3 class=\"family\">side metrics, a family of their "
		    "own (%s)</h3>",
		    side->side_bh ? "Benjamini-Hochberg" : "Holm"));
		TRY(family(pg, side));
	}
	TRY(not_tested(pg, r));
	if (side != NULL)
		TRY(not_tested(pg, side));
	return add(pg, "</section>");
}

/* ---- environment diff ---- */

static enum pr_status
log_lines(struct page *pg, const char *side, char *const *l, size_t n,
    size_t max)
{
	enum pr_status st;
	size_t i;

	if (n == 0)
		return PR_OK;
	TRY(add(pg, "<p>kernel log lines only in "));
	TRY(esc(pg, side));
	TRY(add(pg, ":</p><ul class=\"log\">"));
	for (i = 0; i < n && i < max; i++) {
		TRY(add(pg, "<li><code>"));
		TRY(esc(pg, l[i]));
		TRY(add(pg, "</code></li>"));
	}
	if (n > max)
		TRY(addf(pg, "<li>... and %zu more</li>", n - max));
	return add(pg, "</ul>");
}

static enum pr_status
envdiff_table(struct page *pg, const struct pr_envdiff *d, const char *na,
    const char *nb, size_t log_max)
{
	size_t i, max = log_max > 0 ? log_max : 50;
	enum pr_status st;

	na = na != NULL ? na : "A";
	nb = nb != NULL ? nb : "B";
	TRY(add(pg,
	    "<section class=\"envdiff\"><h2>environment: what differs "
	    "between "));
	TRY(esc(pg, na));
	TRY(add(pg, " and "));
	TRY(esc(pg, nb));
	TRY(add(pg, "</h2>"));
	if (d->n == 0) {
		TRY(add(pg, "<p>nothing in the environment differs.</p>"));
	} else {
		TRY(add(pg,
		    "<table class=\"env\"><thead><tr><th>item</th>"
		    "<th>relevant</th><th>A</th><th>B</th><th>why</th>"
		    "</tr></thead><tbody>"));
		for (i = 0; i < d->n; i++) {
			const struct pr_envdiff_item *it = &d->items[i];

			TRY(addf(pg, "<tr class=\"%s\"><td><code>",
			    it->relevant ? "relevant" : "other"));
			TRY(esc(pg, it->key));
			TRY(addf(pg, "</code></td><td>%s</td><td>",
			    it->relevant ? "yes, moves performance" : "no"));
			TRY(esc(pg,
			    it->a != NULL ? it->a
					  : report_env_absent(it->key)));
			TRY(add(pg, "</td><td>"));
			TRY(esc(pg,
			    it->b != NULL ? it->b
					  : report_env_absent(it->key)));
			if (it->detail != NULL) {
				TRY(add(pg, " <small>"));
				TRY(esc(pg, it->detail));
				TRY(add(pg, "</small>"));
			}
			TRY(add(pg, "</td><td>"));
			TRY(esc(pg, it->reason));
			TRY(add(pg, "</td></tr>"));
		}
		TRY(add(pg, "</tbody></table>"));
	}
	if (!d->log_compared)
		TRY(add(pg,
		    "<p>the kernel logs were not compared: one was "
		    "unavailable.</p>"));
	TRY(log_lines(pg, na, d->log_a, d->nlog_a, max));
	TRY(log_lines(pg, nb, d->log_b, d->nlog_b, max));
	return add(pg, "</section>");
}

static enum pr_status
envdiff(struct page *pg, const struct pr_report_section *s)
{
	return envdiff_table(pg, s->envdiff, s->name_a, s->name_b, s->log_max);
}

enum pr_status
report_html_envdiff(struct pr_buf *out, const struct pr_envdiff *d,
    const char *na, const char *nb, size_t log_max, struct pr_error *err)
{
	struct page pg = { .out = out, .err = err };

	return envdiff_table(&pg, d, na, nb, log_max);
}

/* ---- bisection ---- */

/* A sequential decision as a verdict cell: its word and colour
 * ("undecided" while the test goes on). */
static enum pr_status
seq_cell(struct page *pg, enum pr_seq_decision d)
{
	switch (d) {
	case PR_SEQ_REGRESSION:
		return verdict_cell(pg, "td", PR_VERDICT_REGRESSION, NULL);
	case PR_SEQ_IMPROVEMENT:
		return verdict_cell(pg, "td", PR_VERDICT_IMPROVEMENT, NULL);
	case PR_SEQ_EQUIVALENT:
		return verdict_cell(pg, "td", PR_VERDICT_EQUIVALENT, NULL);
	case PR_SEQ_INCONCLUSIVE:
		return verdict_cell(pg, "td", PR_VERDICT_INCONCLUSIVE, NULL);
	case PR_SEQ_CONTINUE:
		break;
	}
	return verdict_cell(pg, "td", PR_VERDICT_INCONCLUSIVE, "undecided");
}

/* The posterior mass of commit i (a first bad commit: the single change
 * or one of several); 0 without a posterior. */
static double
bisect_mass(const struct pr_bisect_job *j, size_t i)
{
	if (!j->have_state || j->single == NULL || j->multi == NULL || i == 0)
		return 0;
	return j->single[i] + j->multi[i];
}

/* Commits on the x axis: each run at its commit as a dot (log scale,
 * as the search sees it), the posterior mass of each commit as a bar
 * below, the culprit and its parent marked. */
static enum pr_status
bisect_chart(struct page *pg, const struct pr_bisect_job *j)
{
	enum pr_status st;
	struct axis ax, ay;
	double lo = 0, hi = 0, x, m, l;
	size_t i, k, step;
	int any = 0;
	char a[32], b[32];

	for (i = 0; i <= j->n; i++)
		for (k = 0; k < j->c[i].n; k++) {
			if (!(j->c[i].v[k] > 0) || !isfinite(j->c[i].v[k]))
				continue;
			l = log(j->c[i].v[k]);
			if (!any || l < lo)
				lo = l;
			if (!any || l > hi)
				hi = l;
			any = 1;
		}
	if (!any)
		return PR_OK;
	axis_init(&ax, 0, (double)(j->n > 0 ? j->n : 1), PLOT_L,
	    PLOT_W - PLOT_R);
	axis_init(&ay, lo, hi, 112, 8);
	TRY(svg_open(pg, 196, "bisect",
	    "the runs at each commit, and the posterior of the first bad "
	    "commit"));
	TRY(addf(pg,
	    "<path class=\"axis\" d=\"M%.0f 4V116H%.0fM%.0f 176H%.0f\"/>",
	    PLOT_L - 4, PLOT_W - PLOT_R, PLOT_L - 4, PLOT_W - PLOT_R));
	if (j->confirmed_tried || j->verdict == PR_BISECT_V_CULPRIT)
		TRY(SVGF(pg, "<path class=\"cp\" d=\"M@ 4V176\"/>",
		    axis_at(&ax, (double)j->culprit - 0.5)));
	/* The mass, as bars from the bottom line up to 40 units for 1. */
	TRY(add(pg, "<path class=\"mass\" d=\""));
	for (i = 1; i <= j->n; i++)
		if ((m = bisect_mass(j, i)) > 0.001 && isfinite(m))
			TRY(SVGF(pg, "M@ 176V@", axis_at(&ax, (double)i),
			    176 - 40 * fmin(m, 1)));
	TRY(add(pg, "\"/><path class=\"dot base\" d=\""));
	for (i = 0; i <= j->n; i++) {
		step = dot_step(j->c[i].n);
		x = axis_at(&ax, (double)i);
		for (k = 0; k < j->c[i].n; k += step)
			if (j->c[i].v[k] > 0 && isfinite(j->c[i].v[k]))
				TRY(SVGF(pg, "M@ @h0",
				    x +
					(double)(((uint32_t)k * 2654435761u) >>
					    28) /
					    15.0 * 4 -
					2,
				    axis_at(&ay, log(j->c[i].v[k]))));
	}
	TRY(add(pg, "\"/>"));
	TRY(svg_label(pg, 4, 12, "start", num(b, sizeof(b), 1, exp(hi))));
	TRY(svg_label(pg, 4, 112, "start", num(a, sizeof(a), 1, exp(lo))));
	TRY(svg_label(pg, 4, 160, "start", "P"));
	TRY(svg_label(pg, PLOT_L, 190, "start", "good"));
	TRY(svg_label(pg, PLOT_W - PLOT_R, 190, "end", "bad"));
	return add(pg, "</svg>");
}

/* A commit: its short hash and subject (from outside: escaped). */
static enum pr_status
bisect_commit(struct page *pg, const struct pr_bisect_job *j, size_t i)
{
	enum pr_status st;

	TRY(addf(pg,
	    "<td><code>%.12s</code></td><td class=\"n\">%zu%s</td><td>",
	    j->c[i].hash, i,
	    i == 0          ? " (good)"
		: i == j->n ? " (bad)"
			    : ""));
	TRY(esc(pg, j->c[i].subject));
	return add(pg, "</td>");
}

enum pr_status
report_html_bisect(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct pr_bisect_job *j = data;
	struct page pg = { .out = out, .err = err };
	enum pr_status st;
	size_t i, k, measured = 0, skipped = 0;
	double mean;
	char a[48], b[48];

	for (i = 0; i <= j->n; i++) {
		measured += j->c[i].n > 0;
		skipped += j->c[i].built < 0;
	}
	TRY(add(&pg,
	    "<section class=\"panel\" id=\"bisect\"><h3>bisection of "));
	TRY(esc(&pg, j->metric != NULL ? j->metric : "-"));
	TRY(addf(&pg,
	    " (%s is better)</h3><p>%zu commits after <code>%.12s</code> up "
	    "to <code>%.12s</code> (first parents); %zu runs at %zu commits "
	    "(%zu failed), %zu builds, %zu skipped; %.1f s</p>",
	    j->metric_better == 1 ? "higher" : "lower", j->n, j->c[0].hash,
	    j->c[j->n].hash, j->runs, measured, j->runs_failed, j->builds,
	    skipped, j->elapsed_s));
	if (j->confirmed_tried) {
		TRY(addf(&pg,
		    "<table class=\"confirm\"><thead><tr><th>confirmation"
		    "</th><th>against its parent</th><th>rounds</th>"
		    "<th>change</th><th>%.0f%% confidence sequence</th>"
		    "<th>decision</th></tr></thead><tbody><tr>"
		    "<td><code>%.12s</code></td><td><code>%.12s</code></td>"
		    "<td class=\"n\">%zu</td>",
		    100 * j->o.confidence, j->c[j->culprit].hash,
		    j->c[j->parent].hash, j->confirm_runs));
		TRY(addf(&pg, "<td class=\"n\">%s</td><td class=\"n\">",
		    pct(a, sizeof(a), 1, j->confirm.change_pct)));
		if (j->confirm.bounded)
			TRY(addf(&pg, "[%s, %s]",
			    pct(a, sizeof(a), 1, j->confirm.lo_pct),
			    pct(b, sizeof(b), 1, j->confirm.hi_pct)));
		else
			TRY(add(&pg, "no bound yet"));
		TRY(add(&pg, "</td>"));
		TRY(seq_cell(&pg, j->confirm.decision));
		TRY(add(&pg, "</tr></tbody></table>"));
	}
	if (j->have_state)
		TRY(addf(&pg,
		    "<p>posterior: no change %.3f, several changes %.3f; the "
		    "first bad commit in positions %zu..%zu with P = %.3f</p>",
		    j->st.p_none, j->st.p_multi, j->st.lo, j->st.hi,
		    j->st.p_loc));
	TRY(add(&pg,
	    "<p class=\"cap\">each run a dot at its commit (log scale), "
	    "the posterior mass of each commit being the first bad one a "
	    "bar below, dashed: the commit confirmed</p><div "
	    "class=\"plots\">"));
	TRY(bisect_chart(&pg, j));
	TRY(add(&pg,
	    "</div><table class=\"search sortable\"><thead><tr><th>commit"
	    "</th><th>position</th><th>subject</th><th>runs</th>"
	    "<th>geometric mean</th><th>P first bad</th><th>note</th>"
	    "</tr></thead><tbody>"));
	for (i = 0; i <= j->n; i++) {
		if (j->c[i].n == 0 && j->c[i].built >= 0 &&
		    bisect_mass(j, i) < 0.001)
			continue;
		mean = 0;
		for (k = 0; k < j->c[i].n; k++)
			mean += log(j->c[i].v[k]);
		TRY(add(&pg, "<tr>"));
		TRY(bisect_commit(&pg, j, i));
		TRY(addf(&pg,
		    "<td class=\"n\">%zu</td><td class=\"n\">%s</td><td "
		    "class=\"n\">%s</td><td>",
		    j->c[i].n,
		    num(a, sizeof(a), j->c[i].n > 0,
			exp(mean / (double)(j->c[i].n > 0 ? j->c[i].n : 1))),
		    num(b, sizeof(b), j->have_state && i > 0,
			bisect_mass(j, i))));
		if (j->c[i].built < 0) {
			TRY(add(&pg, "skipped: "));
			TRY(esc(&pg,
			    j->c[i].skip_reason != NULL ? j->c[i].skip_reason
							: "skipped"));
		} else if (j->c[i].prior > 0)
			TRY(addf(&pg, "%zu measured before", j->c[i].prior));
		TRY(add(&pg, "</td></tr>"));
	}
	return add(&pg, "</tbody></table></section>\n");
}

/* ---- the page ---- */

static const char style[] =
    "<style>\n"
    "body{font:14px/1.4 system-ui,sans-serif;margin:1em auto;max-width:"
    "1100px;padding:0 1em;color:#111;background:#fff}\n"
    "h1{font-size:1.4em}h2{font-size:1.2em}h3{font-size:1.05em}\n"
    "table{border-collapse:collapse;margin:.5em 0}\n"
    "th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;"
    "vertical-align:top}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "thead th{background:#f3f3f3}.sortable th{cursor:pointer}\n"
    ".verdict{font-weight:600;padding:0 4px;border-radius:3px}\n"
    ".v-regression{background:#fdd;color:#900}\n"
    ".v-improvement{background:#dfd;color:#060}\n"
    ".v-equivalent{background:#def;color:#035}\n"
    ".v-inconclusive{background:#eee;color:#444}\n"
    ".warning{border-left:4px solid #c60;padding-left:.5em}\n"
    ".text{white-space:pre-wrap}.unit{color:#666}\n"
    ".panel{border-top:1px solid #ccc;margin-top:1em;break-inside:avoid}\n"
    /* A panel off the screen is not laid out until it comes near: the
     * page of 1,000 metrics lays out what is shown (bench/README.md).
     * Printing lays out every one. */
    ".comparison .panel{content-visibility:auto;"
    "contain-intrinsic-size:auto 760px}\n"
    /* A closed panel is marked by an attribute, not found by :has(),
     * which cost up to a second of style work on that page. */
    ".comparison .panel[data-closed]{contain-intrinsic-size:auto 60px}\n"
    ".panel summary{cursor:pointer}.panel summary h3{display:inline}\n"
    ".plots svg{display:block;margin:.3em 0;max-width:100%}\n"
    ".tables{display:flex;gap:1em;flex-wrap:wrap;align-items:flex-start}\n"
    ".values,.cap{font-size:.85em;color:#333;word-wrap:break-word}\n"
    "svg text{font-size:11px;fill:#333}\n"
    "svg .dot{fill:none;stroke-width:6}\n"
    "svg .base{stroke:#1f5fa8;stroke-linecap:round}\n"
    "svg .new{stroke:#c2410c;stroke-linecap:square}\n"
    "svg .line{fill:none;stroke-width:1;stroke-opacity:.5}\n"
    "svg .est{stroke:#111;stroke-linecap:round;stroke-width:8}\n"
    "svg .mean{stroke:#111;stroke-width:2;fill:none}\n"
    "svg .ci{stroke:#111;stroke-width:2;fill:none}\n"
    "svg .axis,svg .zero{stroke:#888;fill:none}\n"
    "svg .band{fill:#cfe3f7}\n"
    "svg .cp{stroke:#900;stroke-width:1.5;stroke-dasharray:4 3}\n"
    "svg .level{stroke:#111;stroke-width:2;fill:none}\n"
    "svg .lvci{fill:#111;fill-opacity:.12}\n"
    "svg .spike{stroke:#900;stroke-width:7;stroke-linecap:square}\n"
    "svg .mass{stroke:#555;stroke-width:5}\n"
    "tr.relevant td:first-child{font-weight:600}\n"
    "@media print{.back{display:none}summary{list-style:none}a{color:inherit;"
    "text-decoration:none}}\n"
    "</style>\n";

/* Sorting of a table by a click on its header; the page is whole
 * without it. */
static const char script[] =
    "<script>\n"
    "document.querySelectorAll('table.sortable').forEach(function(t){\n"
    " t.querySelectorAll('thead th').forEach(function(th,i){\n"
    "  th.addEventListener('click',function(){\n"
    "   var b=t.tBodies[0],r=Array.prototype.slice.call(b.rows),"
    "d=th.dataset.d==='1'?-1:1;th.dataset.d=d>0?'1':'0';\n"
    "   function k(x){var c=x.cells[i],v=c.dataset.v!==undefined?"
    "c.dataset.v:c.textContent,f=parseFloat(v);return isNaN(f)?v:f;}\n"
    "   r.sort(function(x,y){var a=k(x),c=k(y);return (a<c?-1:a>c?1:0)"
    "*d;});\n"
    "   r.forEach(function(x){b.appendChild(x);});});});});\n"
    /* A closed panel's content is made from its <noscript> when it is
     * opened; it opens when a link leads to it, and every one for
     * printing. */
    "function mk(d){var n=d.querySelector(':scope>noscript'),t;if(!n)"
    "return;t=document.createElement('template');t.innerHTML=n.textContent;"
    "n.replaceWith(t.content);}\n"
    "document.addEventListener('toggle',function(e){if(e.target.open&&"
    "e.target.tagName==='DETAILS')mk(e.target);},true);\n"
    "function op(){var e=location.hash&&document.getElementById("
    "location.hash.slice(1)),d=e&&e.querySelector(':scope>details');"
    "if(d){mk(d);d.open=true;}}\n"
    "addEventListener('hashchange',op);op();\n"
    "addEventListener('beforeprint',function(){document.querySelectorAll("
    "'.panel>details').forEach(function(d){mk(d);d.open=true;});});\n"
    "document.documentElement.dataset.sortable="
    "document.querySelectorAll('table.sortable').length;\n"
    "</script>\n";

static enum pr_status
page_open(struct page *pg, const char *title)
{
	enum pr_status st;

	TRY(add(pg,
	    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	    "charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width\">\n<meta "
	    "http-equiv=\"Content-Security-Policy\" "
	    "content=\"default-src 'none'; style-src 'unsafe-inline'; "
	    "script-src 'unsafe-inline'; img-src data:\">\n<title>"));
	TRY(esc(pg, title));
	TRY(add(pg, "</title>\n"));
	TRY(add(pg, style));
	TRY(add(pg, "</head><body>\n<h1>"));
	TRY(esc(pg, title));
	return add(pg, "</h1>\n");
}

static enum pr_status
page_close(struct page *pg)
{
	enum pr_status st;

	TRY(add(pg,
	    "<p class=\"gen\"><small>written by perfreg</small></p>\n"));
	TRY(add(pg, script));
	return add(pg, "</body></html>\n");
}

/* The text form of a PR_SECTION_WRITER section in a <pre>. */
static enum pr_status
writer_text(struct page *pg, const struct pr_report_section *s)
{
	struct pr_buf t = PR_BUF_INIT(pg->out->max);
	enum pr_status st;

	if ((st = s->writer->text(&t, s->data, PR_REPORT_TEXT, pg->err)) ==
		PR_OK &&
	    (st = add(pg, "<pre class=\"text\">")) == PR_OK &&
	    (st = pr_report_html_escape(pg->out, t.data != NULL ? t.data : "",
		 t.len, PR_ESCAPE_NEWLINE | PR_ESCAPE_TAB, pg->err)) == PR_OK)
		st = add(pg, "</pre>\n");
	pr_buf_release(&t);
	return st;
}

static enum pr_status render_model(struct page *pg,
    const struct pr_report_model *m);

/* The HTML form of the sections of writer w (report/internal.h), or
 * NULL: each module that has writers answers for its own. */
static report_html_fn
html_form(const struct report_writer *w)
{
	static report_html_fn (*const lookup[])(
	    const struct report_writer *) = { report_suite_html,
		report_bisect_html, report_run_html, report_explain_html,
		report_campaign_html };
	report_html_fn f;
	size_t i;

	for (i = 0; i < sizeof(lookup) / sizeof(lookup[0]); i++)
		if ((f = lookup[i](w)) != NULL)
			return f;
	return NULL;
}

static enum pr_status
render_section(struct page *pg, const struct pr_report_section *s)
{
	enum pr_status st;
	const char *t = s->text != NULL ? s->text : "";
	report_html_fn form;

	switch (s->kind) {
	case PR_SECTION_TEXT:
		if (s->flags & PR_SECTION_NO_TEXT)
			return PR_OK;
		TRY(add(pg, "<p class=\"text\">"));
		TRY(pr_report_html_escape(pg->out, t, strlen(t),
		    PR_ESCAPE_NEWLINE, pg->err));
		return add(pg, "</p>\n");
	case PR_SECTION_HEADLINE:
		TRY(add(pg, "<p class=\"headline\"><b>"));
		TRY(esc(pg, t));
		return add(pg, "</b></p>\n");
	case PR_SECTION_WARNING:
		TRY(add(pg, "<p class=\"warning\"><b>WARNING:</b> "));
		TRY(esc(pg, t));
		return add(pg, "</p>\n");
	case PR_SECTION_COMPARISON:
		if (s->comparison.n == 0)
			return PR_OK;
		return comparison(pg, &s->comparison);
	case PR_SECTION_ENVDIFF:
		return envdiff(pg, s);
	case PR_SECTION_GROUP:
		TRY(add(pg, "<section class=\"group\">"));
		TRY(render_model(pg, s->group));
		return add(pg, "</section>\n");
	case PR_SECTION_INTEGER:
	case PR_SECTION_REAL:
	case PR_SECTION_BOOL:
	case PR_SECTION_STRING:
	case PR_SECTION_LIST_HEAD:
		/* Values for programs: JSON only. */
		break;
	case PR_SECTION_WRITER:
		/* A section with its own writers (run's): its text form,
		 * preformatted, until it gets pictures of its own. */
		if (s->writer == NULL || (s->flags & PR_SECTION_NO_TEXT))
			return PR_OK;
		if ((form = html_form(s->writer)) != NULL)
			return form(pg->out, s->data, pg->err);
		if (s->writer->text == NULL)
			return PR_OK;
		return writer_text(pg, s);
	}
	return PR_OK;
}

static enum pr_status
render_model(struct page *pg, const struct pr_report_model *m)
{
	enum pr_status st;
	size_t i;

	for (i = 0; m != NULL && i < m->n; i++)
		TRY(render_section(pg, &m->sec[i]));
	return PR_OK;
}

enum pr_status
pr_report_html(struct pr_buf *out, const struct pr_report_model *m,
    const char *title, struct pr_error *err)
{
	struct page pg = { .out = out, .err = err };
	enum pr_status st;

	TRY(page_open(&pg, title != NULL ? title : "perfreg report"));
	TRY(render_model(&pg, m));
	return page_close(&pg);
}

/* ---- series with change points ---- */

static enum pr_status
cp_chart(struct page *pg, const struct pr_cp_report *r, const double *var)
{
	const struct pr_series *s = r->series;
	const struct pr_cp_result *res = r->result;
	enum pr_status st;
	struct axis ax, ay;
	double lo = 0, hi = 0, x0, x1, half;
	size_t i, k, step, start, end;
	char a[32], b[32];

	if (s == NULL || s->n == 0 || !extent(s->y, s->n, &lo, &hi))
		return PR_OK;
	for (i = 0; var != NULL && i < s->n; i++)
		if (isfinite(s->y[i]) && var[i] > 0 && isfinite(var[i])) {
			half = 1.96 * sqrt(var[i]);
			lo = fmin(lo, s->y[i] - half);
			hi = fmax(hi, s->y[i] + half);
		}
	axis_init(&ax, 0, (double)(s->n > 1 ? s->n - 1 : 1), PLOT_L,
	    PLOT_W - PLOT_R);
	axis_init(&ay, lo, hi, 150, 8);
	TRY(svg_open(pg, 176, "series",
	    "the series in order, with its change points, levels and "
	    "spikes"));
	TRY(addf(pg, "<path class=\"axis\" d=\"M%.0f 4V156H%.0f\"/>",
	    PLOT_L - 4, PLOT_W - PLOT_R));
	/* The level of each segment, with the interval of each change's
	 * step shaded at the level after it. */
	for (k = 0; res != NULL && k <= res->nchanges; k++) {
		double level;

		start = k == 0 ? 0 : res->changes[k - 1].index;
		end = k < res->nchanges ? res->changes[k].index : s->n;
		if (end <= start)
			continue;
		level = k < res->nchanges ? res->changes[k].before
		    : res->nchanges > 0   ? res->changes[k - 1].after
					  : NAN;
		if (!isfinite(level))
			continue;
		x0 = axis_at(&ax, (double)start);
		x1 = axis_at(&ax, (double)(end - 1));
		if (k > 0 && isfinite(res->changes[k - 1].step_lo) &&
		    isfinite(res->changes[k - 1].step_hi)) {
			const struct pr_cp_change *c = &res->changes[k - 1];
			double ylo = axis_at(&ay, c->before + c->step_hi),
			       yhi = axis_at(&ay, c->before + c->step_lo);

			half = yhi - ylo;
			TRY(SVGF(pg,
			    "<rect class=\"lvci\" x=\"@\" y=\"@\" "
			    "width=\"@\" height=\"@\"/>",
			    x0, ylo, x1 - x0 > 1 ? x1 - x0 : 1,
			    half > 0.5 ? half : 0.5));
		}
		TRY(SVGF(pg, "<path class=\"level\" d=\"M@ @H@\"/>", x0,
		    axis_at(&ay, level), x1));
	}
	step = dot_step(s->n);
	if (var != NULL) {
		double zq = pr_norm_quantile(
		    0.5 + (r->opts != NULL ? r->opts->conf : 0.95) / 2);

		TRY(add(pg, "<path class=\"ci\" d=\""));
		for (i = 0; i < s->n; i += step) {
			if (!isfinite(s->y[i]) || !(var[i] > 0) ||
			    !isfinite(var[i]))
				continue;
			half = zq * sqrt(var[i]);
			x0 = axis_at(&ax, (double)i);
			TRY(SVGF(pg, "M@ @V@", x0, axis_at(&ay, s->y[i] + half),
			    axis_at(&ay, s->y[i] - half)));
		}
		TRY(add(pg, "\"/>"));
	}
	TRY(add(pg, "<path class=\"line base\" d=\""));
	for (i = 0; i < s->n; i += step)
		if (isfinite(s->y[i]))
			TRY(SVGF(pg, i == 0 ? "M@ @" : "L@ @",
			    axis_at(&ax, (double)i), axis_at(&ay, s->y[i])));
	TRY(add(pg, "\"/><path class=\"dot base\" d=\""));
	for (i = 0; i < s->n; i += step)
		if (isfinite(s->y[i]))
			TRY(SVGF(pg, "M@ @h0", axis_at(&ax, (double)i),
			    axis_at(&ay, s->y[i])));
	TRY(add(pg, "\"/>"));
	for (k = 0; res != NULL && k < res->nchanges; k++)
		TRY(SVGF(pg, "<path class=\"cp\" d=\"M@ 4V156\"/>",
		    axis_at(&ax, (double)res->changes[k].index - 0.5)));
	if (res != NULL && res->nspikes > 0) {
		TRY(add(pg, "<path class=\"spike\" d=\""));
		for (k = 0; k < res->nspikes; k++)
			TRY(SVGF(pg, "M@ @h0",
			    axis_at(&ax, (double)res->spikes[k].index),
			    axis_at(&ay, res->spikes[k].value)));
		TRY(add(pg, "\"/>"));
	}
	TRY(svg_label(pg, 4, 12, "start", num(b, sizeof(b), 1, hi)));
	TRY(svg_label(pg, 4, 150, "start", num(a, sizeof(a), 1, lo)));
	TRY(svg_label(pg, PLOT_L, 170, "start",
	    s->label != NULL && s->label[0] != NULL ? s->label[0] : "first"));
	TRY(svg_label(pg, PLOT_W - PLOT_R, 170, "end",
	    s->label != NULL && s->label[s->n - 1] != NULL ? s->label[s->n - 1]
							   : "last"));
	return add(pg, "</svg>");
}

/* The label of point i, or its 1-based number. */
static enum pr_status
cp_where(struct page *pg, const struct pr_series *s, size_t i)
{
	if (s->label != NULL && i < s->n && s->label[i] != NULL)
		return esc(pg, s->label[i]);
	return addf(pg, "point %zu", i + 1);
}

static enum pr_status
cp_series(struct page *pg, const struct pr_cp_report *r, const double *var)
{
	const struct pr_cp_result *res = r->result;
	enum pr_status st;
	size_t k;
	char a[48], b[48], c[48];

	pg->metric++;
	TRY(addf(pg, "<section class=\"panel\" id=\"m%zu\"><h3>", pg->metric));
	TRY(esc(pg, r->name));
	TRY(addf(pg, "</h3><p>%zu points, %zu change%s, %zu spike%s</p>",
	    r->series != NULL ? r->series->n : 0,
	    res != NULL ? res->nchanges : 0,
	    res != NULL && res->nchanges == 1 ? "" : "s",
	    res != NULL ? res->nspikes : 0,
	    res != NULL && res->nspikes == 1 ? "" : "s"));
	TRY(add(pg,
	    "<p class=\"cap\">each point a dot (with its interval "
	    "when known), the level of each segment a line, shaded: "
	    "the interval of the level after a change, dashed: a "
	    "change, red squares: spikes</p><div class=\"plots\">"));
	TRY(cp_chart(pg, r, var));
	TRY(add(pg, "</div>"));
	if (res != NULL && res->nchanges > 0) {
		TRY(addf(pg,
		    "<table class=\"changes\"><thead><tr><th>where</th>"
		    "<th>before</th><th>after</th><th>change</th><th>%g%% "
		    "interval</th><th>p (adjusted)</th><th>verdict</th></tr>"
		    "</thead><tbody>",
		    r->opts != NULL ? r->opts->conf * 100 : 95.0));
		for (k = 0; k < res->nchanges; k++) {
			const struct pr_cp_change *ch = &res->changes[k];
			int hp = (ch->defined & PR_CP_PCT) != 0;

			TRY(add(pg, "<tr><td>"));
			TRY(cp_where(pg, r->series, ch->index));
			TRY(addf(pg,
			    "</td><td class=\"n\">%s</td><td "
			    "class=\"n\">%s</td><td class=\"n\">%s</td>",
			    num(a, sizeof(a), 1, ch->before),
			    num(b, sizeof(b), 1, ch->after),
			    pct(c, sizeof(c), hp, ch->change_pct)));
			TRY(addf(pg, "<td class=\"n\">[%s, %s]</td>",
			    pct(a, sizeof(a), hp, ch->ci_lo_pct),
			    pct(b, sizeof(b), hp, ch->ci_hi_pct)));
			TRY(addf(pg, "<td class=\"n\">%s</td>",
			    num(a, sizeof(a), 1, ch->p_adjusted)));
			/* Without a direction a change is neither: "up" or "down", as in
			 * the text report. */
			TRY(verdict_cell(pg, "td", ch->verdict,
			    ch->verdict != PR_VERDICT_INCONCLUSIVE ? NULL
				: ch->step > 0 ? "change (up)"
					       : "change (down)"));
			TRY(add(pg, "</tr>"));
		}
		TRY(add(pg, "</tbody></table>"));
	}
	if (res != NULL && res->nspikes > 0) {
		TRY(add(pg, "<p>spikes:"));
		for (k = 0; k < res->nspikes; k++) {
			TRY(add(pg, k == 0 ? " " : "; "));
			TRY(cp_where(pg, r->series, res->spikes[k].index));
			TRY(addf(pg, " %s (expected %s)",
			    num(a, sizeof(a), 1, res->spikes[k].value),
			    num(b, sizeof(b), 1, res->spikes[k].expected)));
		}
		TRY(add(pg, "</p>"));
	}
	if (res != NULL && res->tail.possible) {
		TRY(add(pg,
		    "<p class=\"warning\">a change may be starting at "));
		TRY(cp_where(pg, r->series, res->tail.index));
		TRY(addf(pg, " (%zu more point%s to confirm it)</p>",
		    res->tail.needs, res->tail.needs == 1 ? "" : "s"));
	}
	return add(pg, "</section>\n");
}

enum pr_status
pr_report_html_cp(struct pr_buf *out, const struct pr_cp_report *r, size_t n,
    const double *const *var, const char *title, struct pr_error *err)
{
	struct page pg = { .out = out, .err = err };
	enum pr_status st;
	size_t i;

	TRY(page_open(&pg, title != NULL ? title : "perfreg change points"));
	/* The summary: a row a series, linked to its panel. */
	TRY(add(&pg,
	    "<table class=\"verdicts sortable\" id=\"t1\"><thead><tr>"
	    "<th>series</th><th>points</th><th>changes</th>"
	    "<th>regressions</th><th>improvements</th><th>spikes</th>"
	    "</tr></thead><tbody>"));
	for (i = 0; i < n; i++) {
		const struct pr_cp_result *res = r[i].result;
		size_t k, reg = 0, imp = 0;

		for (k = 0; res != NULL && k < res->nchanges; k++) {
			reg += res->changes[k].verdict == PR_VERDICT_REGRESSION;
			imp +=
			    res->changes[k].verdict == PR_VERDICT_IMPROVEMENT;
		}
		TRY(addf(&pg, "<tr><td><a href=\"#m%zu\">", i + 1));
		TRY(esc(&pg, r[i].name));
		TRY(addf(&pg,
		    "</a></td><td class=\"n\">%zu</td><td class=\"n\">%zu</td>"
		    "<td class=\"n\">%zu</td><td class=\"n\">%zu</td><td "
		    "class=\"n\">%zu</td></tr>",
		    r[i].series != NULL ? r[i].series->n : 0,
		    res != NULL ? res->nchanges : 0, reg, imp,
		    res != NULL ? res->nspikes : 0));
	}
	TRY(add(&pg, "</tbody></table>\n"));
	for (i = 0; i < n; i++) {
		TRY(cp_series(&pg, &r[i], var != NULL ? var[i] : NULL));
		/* What follows the series (history's explanation of its
		 * latest change), as the other formats show it. */
		if (r[i].more != NULL)
			TRY(render_model(&pg, r[i].more));
	}
	return page_close(&pg);
}
