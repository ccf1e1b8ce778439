/*
 * report/compare.c - the report of `perfreg compare`: text, Markdown, CSV
 * and JSON writers for a set of struct pr_comparison.
 *
 * The writers format what the statistics module decided; they decide
 * nothing themselves.  The text form is an aligned table (one row per
 * metric: base, new, change with its interval, p, verdict, n per side),
 * then one sentence per metric in words that follow the direction of the
 * metric, then notes about the data (one value per side, zero spread, a
 * direction that was assumed) and a footer naming the method and Holm's
 * correction.  Markdown carries the same content as a table and a list.
 * CSV and JSON carry every figure at full precision.
 *
 * Invariants: no writer prints "nan" or "inf": every double goes through
 * a check that turns an undefined figure into "-", an empty CSV field or
 * JSON null.  Values in text are shown with four significant digits and,
 * for units that take them (seconds, bytes, bits, operations, Hz), an SI
 * prefix; CSV uses the shortest decimal form that reads back to the same
 * double; JSON numbers have 15 significant digits.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "perfreg/report.h"
#include "report/internal.h"
#include "core/banned.h"

#define CELL_MAX 160

/* ---------------------------------------------------------------- *
 * Number formatting
 * ---------------------------------------------------------------- */

static int
defined(double x)
{
	return isfinite(x);
}

/* The confidence as a percentage: 0.95 -> "95", 0.995 -> "99.5". */
static void
fmt_conf(char *buf, size_t size, double conf)
{
	snprintf(buf, size, "%.10g", conf * 100.0);
}

static int
str_in(const char *s, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

/*
 * How a value in this unit is scaled for people.  Seconds get m, u and n
 * below one; counts of bytes, bits, operations and the like (alone or
 * per second) get k, M, G, T, P above a thousand; an empty unit gets the
 * prefix on the number.  Any other unit (ns/op, KiB, %) is left alone,
 * because a prefix on a unit that already has one would mislead.
 */
enum scaling { SCALE_NONE, SCALE_TIME, SCALE_BIG };

static enum scaling
unit_scaling(const char *unit)
{
	static const char *const time_units[] = { "s", NULL };
	static const char *const counts[] = { "B", "b", "bit", "bits", "byte",
		"bytes", "op", "ops", "Hz", "req", "reqs", "requests", "pkt",
		"pkts", "packets", "frames", "events", "calls", "tx", "msg",
		"msgs", "messages", "items", NULL };
	static const char *const per[] = { "", "/s", "/sec", NULL };
	char num[32];
	const char *slash;
	size_t len;

	if (unit == NULL || unit[0] == '\0')
		return SCALE_BIG;
	if (str_in(unit, time_units))
		return SCALE_TIME;
	slash = strchr(unit, '/');
	len = slash != NULL ? (size_t)(slash - unit) : strlen(unit);
	if (len == 0 || len >= sizeof(num))
		return SCALE_NONE;
	memcpy(num, unit, len);
	num[len] = '\0';
	if (str_in(num, counts) && str_in(unit + len, per))
		return SCALE_BIG;
	return SCALE_NONE;
}

/* Decimals that give four significant digits to x (0 to 9). */
static int
decimals_for(double x)
{
	int d;

	if (x == 0 || !defined(x))
		return 3;
	d = 3 - (int)floor(log10(fabs(x)));
	if (d < 0)
		d = 0;
	if (d > 9)
		d = 9;
	return d;
}

/* The SI factor and prefix that suit x in unit (see unit_scaling). */
static double
scale_for(double x, const char *unit, const char **prefix)
{
	static const char *const big[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const small[] = { "", "m", "u", "n" };
	double f = 1.0, ax = fabs(x);
	int i;

	*prefix = "";
	if (!defined(x))
		return 1.0;
	switch (unit_scaling(unit)) {
	case SCALE_TIME:
		for (i = 0; i < 3 && ax > 0 && ax * f < 0.9995; i++)
			f *= 1000.0;
		*prefix = small[i];
		return f;
	case SCALE_BIG:
		for (i = 0; i < 6 && ax / f >= 999.95; i++)
			f *= 1000.0;
		*prefix = big[i];
		return 1.0 / f;
	case SCALE_NONE:
		break;
	}
	return 1.0;
}

/*
 * Formats x, and "+- sd" when sd_have, scaled by f with that prefix and
 * d decimals (-1: choose for x): "4.953 +- 0.188 s", "76.67 ms",
 * "35.90 Gbits/s", "12345678 ns/op".  pm is the plus-minus sign ("+-" or
 * the UTF-8 one).
 */
static void
fmt_scaled(char *buf, size_t size, double x, int sd_have, double sd,
    const char *unit, const char *pm, double f, const char *prefix, int d)
{
	const char *u = unit != NULL ? unit : "";
	char num[64], spread[80];

	if (!defined(x)) {
		snprintf(buf, size, "-");
		return;
	}
	if (!defined(sd))
		sd_have = 0;
	x *= f;
	sd *= f;
	if (fabs(x) >= 1e15 || (x != 0 && fabs(x) < 1e-9)) {
		snprintf(num, sizeof(num), "%.4g", x);
		d = -1;
	} else {
		if (d < 0)
			d = decimals_for(x);
		snprintf(num, sizeof(num), "%.*f", d, x);
	}
	spread[0] = '\0';
	if (sd_have) {
		if (d < 0)
			snprintf(spread, sizeof(spread), " %s %.3g", pm, sd);
		else
			snprintf(spread, sizeof(spread), " %s %.*f", pm, d, sd);
	}
	if (u[0] == '\0')
		snprintf(buf, size, "%s%s%s", num, spread, prefix);
	else
		snprintf(buf, size, "%s%s %s%s", num, spread, prefix, u);
}

/* ---------------------------------------------------------------- *
 * Words
 * ---------------------------------------------------------------- */

static int
has_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (; s != NULL && *s != '\0'; s++)
		if (strncasecmp(s, w, n) == 0)
			return 1;
	return 0;
}

static int
is_time(const char *name, const char *unit)
{
	static const char *const units[] = { "s", "ms", "us", "ns", "ps", "min",
		"h", "sec", "secs", "seconds", "msec", "usec", "nsec", "s/op",
		"ms/op", "us/op", "ns/op", "sec/op", "cycles", "cycles/op",
		NULL };

	if (unit != NULL && unit[0] != '\0')
		return str_in(unit, units) || strcmp(unit, "\xc2\xb5s") == 0 ||
		    strcmp(unit, "\xc2\xb5s/op") == 0;
	return has_word(name, "time") || has_word(name, "elapsed") ||
	    has_word(name, "latency") || has_word(name, "duration");
}

static int
is_rate(const char *name, const char *unit)
{
	size_t n;

	if (unit != NULL && unit[0] != '\0') {
		n = strlen(unit);
		if ((n > 2 && strcmp(unit + n - 2, "/s") == 0) ||
		    (n > 4 && strcmp(unit + n - 4, "/sec") == 0) ||
		    (n >= 3 && strcasecmp(unit + n - 3, "bps") == 0) ||
		    strcmp(unit, "Hz") == 0)
			return 1;
	}
	return has_word(name, "throughput") || has_word(name, "bitrate") ||
	    has_word(name, "bandwidth");
}

char *
pr_report_change_words(char *buf, size_t size, double change_pct,
    enum pr_better better, const char *name, const char *unit)
{
	char a[48];
	int up = change_pct > 0;

	if (size == 0)
		return buf;
	if (!defined(change_pct)) {
		snprintf(buf, size, "change undefined");
		return buf;
	}
	report_fmt_abs_pct(a, sizeof(a), change_pct);
	if (strcmp(a, "0%") == 0) {
		snprintf(buf, size, "0%% change");
		return buf;
	}
	if (better != PR_BETTER_HIGHER && is_time(name, unit))
		snprintf(buf, size, "%s %s", a, up ? "slower" : "faster");
	else if (better == PR_BETTER_HIGHER && is_rate(name, unit))
		snprintf(buf, size, "throughput %s %s", a,
		    up ? "higher" : "lower");
	else if (better == PR_BETTER_HIGHER)
		snprintf(buf, size, "%s %s", a,
		    up ? "higher (better)" : "lower (worse)");
	else
		snprintf(buf, size, "%s %s", a,
		    up ? "higher (worse)" : "lower (better)");
	return buf;
}

const char *
pr_report_method_slug(enum pr_method m)
{
	switch (m) {
	case PR_METHOD_AUTO:
		return "auto";
	case PR_METHOD_STUDENT:
		return "student";
	case PR_METHOD_WELCH:
		return "welch";
	case PR_METHOD_MWU:
		return "mwu";
	case PR_METHOD_NONE:
		return "none";
	case PR_METHOD_MODERATED:
		return "moderated";
	case PR_METHOD_SESSION_BOUND:
		return "session-bound";
	}
	return "none";
}

static const char *
better_word(enum pr_better b)
{
	return b == PR_BETTER_HIGHER ? "higher" : "lower";
}

/* What the method compares, for the footer. */
static const char *
method_what(enum pr_method m)
{
	switch (m) {
	case PR_METHOD_STUDENT:
		return "Student's t (pooled variance) on the means, with "
		       "Fieller's interval for their ratio";
	case PR_METHOD_WELCH:
		return "Welch's t on the means, with Fieller's interval for "
		       "their ratio";
	case PR_METHOD_MWU:
		return "Mann-Whitney U, with the Hodges-Lehmann estimate and "
		       "interval for the ratio (HL: the median of the ratios "
		       "of each new value to each base value) and the "
		       "medians as base and new";
	case PR_METHOD_MODERATED:
		return "the moderated t (empirical Bayes across figures) on "
		       "the log session means, with its interval for their "
		       "ratio";
	case PR_METHOD_SESSION_BOUND:
		return "one session a side: the log ratio against a bound on "
		       "the between-session noise, which is unknown";
	case PR_METHOD_AUTO:
	case PR_METHOD_NONE:
		break;
	}
	return "no test";
}

/* What change_pct estimates, for machines (CSV and JSON "estimate"). */
static const char *
estimate_slug(enum pr_method m)
{
	switch (m) {
	case PR_METHOD_MWU:
		return "hodges-lehmann";
	case PR_METHOD_MODERATED:
	case PR_METHOD_SESSION_BOUND:
		return "ratio-of-geometric-means";
	case PR_METHOD_AUTO:
	case PR_METHOD_STUDENT:
	case PR_METHOD_WELCH:
	case PR_METHOD_NONE:
		break;
	}
	return "ratio-of-means";
}

/* ---------------------------------------------------------------- *
 * What every writer needs to know about one metric
 * ---------------------------------------------------------------- */

struct facts {
	const struct pr_report_metric *m;
	const struct pr_comparison *c;
	const char *unit;
	enum pr_better better;
	int tested;
	int assumed;    /* direction assumed */
	int use_median; /* the method compares medians */
	int have_change, have_p, have_padj, have_ci;
	int base_sd, new_sd; /* the standard deviation is defined */
	char words[96];
	char why[64]; /* why it was not tested ("" when tested) */
};

static void
get_facts(const struct pr_report_metric *m, struct facts *f)
{
	const struct pr_comparison *c = &m->cmp;

	f->m = m;
	f->c = c;
	f->unit = m->unit != NULL ? m->unit : "";
	f->better =
	    c->better == PR_BETTER_HIGHER ? PR_BETTER_HIGHER : PR_BETTER_LOWER;
	f->tested = c->tested && c->method != PR_METHOD_NONE;
	f->assumed =
	    m->better_assumed || (c->notes & PR_NOTE_DIRECTION_ASSUMED) != 0;
	f->use_median = c->method == PR_METHOD_MWU;
	f->have_change = c->have_change && defined(c->change_pct);
	f->have_p = f->tested && defined(c->p_value);
	f->have_padj = f->tested && defined(c->p_adjusted);
	f->have_ci = f->tested && c->have_ci && defined(c->ci_lo_pct) &&
	    defined(c->ci_hi_pct);
	f->base_sd = c->base.n >= 2 && (c->base.defined & PR_SUM_STDDEV) &&
	    defined(c->base.stddev);
	f->new_sd = c->new.n >= 2 && (PR_SUM_STDDEV & c->new.defined) &&
	    defined(c->new.stddev);
	pr_report_change_words(f->words, sizeof(f->words),
	    f->have_change ? c->change_pct : NAN, f->better, m->name, f->unit);
	/* The same cases as the sentence of an untested metric. */
	f->why[0] = '\0';
	if (f->tested)
		return;
	if (c->base.n < 2 && c->new.n < 2)
		snprintf(f->why, sizeof(f->why), "one value per side");
	else if (c->base.n >= 2 && (c->notes & PR_NOTE_DEGENERATE))
		snprintf(f->why, sizeof(f->why),
		    "the base values are all equal");
	else
		snprintf(f->why, sizeof(f->why), "one value in %s",
		    c->base.n < 2 ? "base" : "new");
}

/*
 * The change from base to new of one figure of the sides (the median or
 * the mean) in percent, NAN when it has none (a base <= 0 or undefined).
 */
static double
side_change(double b, double n)
{
	if (!defined(b) || !defined(n) || !(b > 0))
		return NAN;
	return 100.0 * (n / b - 1.0);
}

/* Puts pre in front of the cell buf (size bytes, cut to fit). */
static void
prefix_cell(char *buf, size_t size, const char *pre)
{
	size_t np = strlen(pre), nb = strlen(buf);

	if (size == 0)
		return;
	if (np > size - 1)
		np = size - 1;
	if (nb > size - 1 - np)
		nb = size - 1 - np;
	memmove(buf + np, buf, nb);
	memcpy(buf, pre, np);
	buf[np + nb] = '\0';
}

/*
 * The base and new cells of a row: means with their spread, or medians
 * for Mann-Whitney, which mark says with "med " in front when the header
 * does not.  When both fall in the same SI scale they get the same
 * decimals (those of the larger), so that they line up: "100.5" and
 * "96.5", not "96.50".
 */
static void
fmt_sides(char *bbuf, char *nbuf, size_t size, const struct facts *f,
    const char *pm, int mark)
{
	const struct pr_summary *b = &f->c->base, *n = &f->c->new;
	double bx = f->use_median ? b->median : b->mean;
	double nx = f->use_median ? n->median : n->mean;
	const char *bp, *np;
	double bf = scale_for(bx, f->unit, &bp);
	double nf = scale_for(nx, f->unit, &np);
	int d = -1;

	if (bf == nf && defined(bx) && defined(nx))
		d = decimals_for(fabs(bx) > fabs(nx) ? bx * bf : nx * nf);
	fmt_scaled(bbuf, size, bx, f->base_sd && !f->use_median, b->stddev,
	    f->unit, pm, bf, bp, d);
	fmt_scaled(nbuf, size, nx, f->new_sd && !f->use_median, n->stddev,
	    f->unit, pm, nf, np, d);
	if (mark && f->use_median) {
		prefix_cell(bbuf, size, "med ");
		prefix_cell(nbuf, size, "med ");
	}
}

/*
 * The sentence for one metric, without the name: the verdict and the
 * change in words, with what the reader should make of it.
 */
static enum pr_status
add_sentence(struct pr_buf *out, const struct pr_report *r,
    const struct facts *f, struct pr_error *err)
{
	const struct pr_comparison *c = f->c;
	char conf[32], iv[112], p[32], padj[32], eq[48], fig[320];
	char words[128];
	enum pr_status st;
	size_t len = 0;

	/* A rank test's change is the Hodges-Lehmann estimate: say so. */
	snprintf(words, sizeof(words), "%s%s", f->words,
	    f->tested && f->use_median ? " by the Hodges-Lehmann estimate"
				       : "");

	fmt_conf(conf, sizeof(conf), r->conf);
	report_fmt_interval(iv, sizeof(iv), f->have_ci, c->ci_lo_pct,
	    c->ci_hi_pct);
	report_fmt_p(p, sizeof(p), f->have_p, c->p_value);
	report_fmt_p(padj, sizeof(padj), f->have_padj, c->p_adjusted);
	report_fmt_abs_pct(eq, sizeof(eq), r->equivalence_pct);

	if (!f->tested) {
		if (c->base.n < 2 && c->new.n < 2)
			return pr_buf_addf(out, err,
			    "%s in one run per side; "
			    "no test is possible without repeated runs",
			    words);
		if (c->base.n >= 2 && (c->notes & PR_NOTE_DEGENERATE))
			return pr_buf_addf(out, err,
			    "%s, but the base values "
			    "are all equal: their spread, and so the noise, "
			    "is unknown, and no test is possible",
			    words);
		return pr_buf_addf(out, err,
		    "%s, but with one value in %s "
		    "no test is possible without repeated runs on both sides",
		    words, c->base.n < 2 ? "base" : "new");
	}
	/* The figures behind the verdict, as far as they are defined. */
	fig[0] = '\0';
	if (f->have_ci)
		len += (size_t)snprintf(fig + len, sizeof(fig) - len,
		    "%s%% interval %s", conf, iv);
	if (f->have_p && len < sizeof(fig))
		len += (size_t)snprintf(fig + len, sizeof(fig) - len,
		    "%sp %s %s", len > 0 ? ", " : "", p[0] == '<' ? "<" : "=",
		    p[0] == '<' ? p + 1 : p);
	if (f->have_p && f->have_padj && r->holm_m > 1 && len < sizeof(fig))
		len += (size_t)snprintf(fig + len, sizeof(fig) - len,
		    " (%s after %s)", padj, r->side_bh ? "BH" : "Holm");
	switch (c->verdict) {
	case PR_VERDICT_REGRESSION:
	case PR_VERDICT_IMPROVEMENT:
		return pr_buf_addf(out, err, "%s: %s%s%s",
		    pr_verdict_str(c->verdict), words, len > 0 ? "; " : "",
		    fig);
	case PR_VERDICT_EQUIVALENT:
		if (!f->have_ci)
			return pr_buf_addf(out, err, "%s: %s",
			    pr_verdict_str(c->verdict), words);
		if (c->notes & PR_NOTE_NEGLIGIBLE)
			return pr_buf_addf(out, err,
			    "%s: %s, a change that is "
			    "significant (p %s %s) but negligible: the %s%% "
			    "interval %s lies inside [-%s, +%s]",
			    pr_verdict_str(c->verdict), words,
			    p[0] == '<' ? "<" : "=", p[0] == '<' ? p + 1 : p,
			    conf, iv, eq, eq);
		return pr_buf_addf(out, err,
		    "%s: %s, and the %s%% interval %s "
		    "lies inside [-%s, +%s]",
		    pr_verdict_str(c->verdict), words, conf, iv, eq, eq);
	case PR_VERDICT_INCONCLUSIVE:
		break;
	}
	if ((st = pr_buf_addf(out, err,
		 "%s: %s, not established at %s%% "
		 "confidence%s%s",
		 pr_verdict_str(c->verdict), words, conf, len > 0 ? "; " : "",
		 fig)) != PR_OK)
		return st;
	if (c->runs_needed > 0)
		return pr_buf_addf(out, err,
		    "; about %zu %s per side would "
		    "settle it",
		    c->runs_needed, r->units != NULL ? r->units : "runs");
	return pr_buf_addf(out, err, "; more %s are needed",
	    r->units != NULL ? r->units : "runs");
}

/* Writes one note line (prefix "note", "method" or "correction") to out
 * in the form of a writer: text, a Markdown list item. */
typedef enum pr_status (*note_fn)(struct pr_buf *out, const char *prefix,
    const char *text, struct pr_error *err);

/*
 * The note on spread, when it matters: a side whose values are all
 * equal, or a spread below the resolution of the data (the verdict
 * module then takes the spread of rounding as a floor).
 */
static enum pr_status
spread_note(struct pr_buf *line, const struct facts *f, struct pr_error *err)
{
	const struct pr_comparison *c = f->c;
	const struct pr_summary *b = &c->base, *n = &c->new;
	int bz = f->base_sd && b->stddev == 0 && defined(b->mean);
	int nz = f->new_sd && n->stddev == 0 && defined(n->mean);
	int quantised = (c->notes & PR_NOTE_QUANTISED) &&
	    defined(c->resolution) && c->resolution > 0;
	const char *u = f->unit, *sp = f->unit[0] != '\0' ? " " : "";
	char v[CELL_MAX], res[CELL_MAX];
	enum pr_status st;

	snprintf(res, sizeof(res), "%.15g%s%s", c->resolution, sp, u);
	if (bz && nz) {
		if ((st = pr_buf_addf(line, err,
			 "%s: the values of each side "
			 "are all equal (zero spread on both sides)",
			 f->m->name)) != PR_OK)
			return st;
		if (quantised)
			return pr_buf_addf(line, err,
			    "; the test assumes the "
			    "spread that rounding to %s can hide",
			    res);
		return pr_buf_adds(line,
		    (c->notes & PR_NOTE_DEGENERATE)
			? "; the interval is a single point"
			: "",
		    err);
	}
	if (bz || nz) {
		/* The value as the input gave it, not rounded for the table. */
		snprintf(v, sizeof(v), "%.15g%s%s", bz ? b->mean : n->mean, sp,
		    u);
		if ((st = pr_buf_addf(line, err,
			 "%s: the %zu %s values are all "
			 "%s (zero spread on that side)",
			 f->m->name, bz ? b->n : n->n, bz ? "base" : "new",
			 v)) != PR_OK)
			return st;
		if (quantised)
			return pr_buf_addf(line, err,
			    "; as they are given to "
			    "%s, the test assumes the spread that rounding to "
			    "%s can hide",
			    res, res);
		return pr_buf_adds(line,
		    "; the test rests on the spread of "
		    "the other side",
		    err);
	}
	if (quantised)
		return pr_buf_addf(line, err,
		    "%s: a side's spread is below the "
		    "resolution of the data (%s); the test assumes the spread "
		    "that rounding to %s can hide",
		    f->m->name, res, res);
	return PR_OK;
}

/*
 * A rank test's note when the medians or the means of the two sides
 * moved against its Hodges-Lehmann change (the median of the ratios of
 * each new value to each base value can rise while the medians fall,
 * and skewed values move the means against both): the figures, so that
 * the change shown is not taken for theirs.
 */
static enum pr_status
contrary_note(const struct facts *f, note_fn fn, struct pr_buf *out,
    struct pr_buf *line, struct pr_error *err)
{
	const struct pr_comparison *c = f->c;
	double hl = c->change_pct;
	double med = side_change(c->base.median, c->new.median);
	double mean = side_change(c->base.mean, c->new.mean);
	int cmed = defined(med) && med * hl < 0;
	int cmean = defined(mean) && mean * hl < 0;
	char a[CELL_MAX], b[CELL_MAX], pct[32], hpct[32];
	struct facts g = *f;
	enum pr_status st;

	if (!cmed && !cmean)
		return PR_OK;
	pr_buf_reset(line);
	report_fmt_pct(hpct, sizeof(hpct), hl);
	if ((st = pr_buf_addf(line, err,
		 "%s: the change shown, %s, is the Hodges-Lehmann estimate "
		 "the Mann-Whitney test is about (the median of the ratios "
		 "of each new value to each base value), but",
		 f->m->name, hpct)) != PR_OK)
		return st;
	/* The medians, then the means, each as the table would show it. */
	fmt_sides(a, b, sizeof(a), f, "+-", 0);
	report_fmt_pct(pct, sizeof(pct), med);
	if (cmed &&
	    (st = pr_buf_addf(line, err, " the medians moved %s (%s -> %s)%s",
		 pct, a, b, cmean ? " and" : "")) != PR_OK)
		return st;
	g.use_median = 0;
	g.base_sd = g.new_sd = 0;
	fmt_sides(a, b, sizeof(a), &g, "+-", 0);
	report_fmt_pct(pct, sizeof(pct), mean);
	if (cmean &&
	    (st = pr_buf_addf(line, err, " the means moved %s (%s -> %s)", pct,
		 a, b)) != PR_OK)
		return st;
	return fn(out, "note", line->data, err);
}

/* The other notes of the verdict module about one metric, one a line. */
static enum pr_status
method_notes(const struct facts *f, note_fn fn, struct pr_buf *out,
    struct pr_buf *line, struct pr_error *err)
{
	const struct pr_comparison *c = f->c;
	const char *name = f->m->name;
	enum pr_status st = PR_OK;

	if (f->tested && (c->notes & PR_NOTE_NONNORMAL)) {
		pr_buf_reset(line);
		if ((st = pr_buf_addf(line, err,
			 "%s: the values are skewed or "
			 "heavy-tailed, so the Mann-Whitney test on the "
			 "medians "
			 "decides, not a t test on the means",
			 name)) != PR_OK ||
		    (st = fn(out, "note", line->data, err)) != PR_OK)
			return st;
	}
	if (f->tested && f->use_median && f->have_change &&
	    (st = contrary_note(f, fn, out, line, err)) != PR_OK)
		return st;
	if (f->tested && (c->notes & PR_NOTE_FALLBACK)) {
		pr_buf_reset(line);
		if ((st = pr_buf_addf(line, err,
			 "%s: Mann-Whitney on ratios "
			 "needs values above 0; %s was used instead",
			 name, pr_method_str(c->method))) != PR_OK ||
		    (st = fn(out, "note", line->data, err)) != PR_OK)
			return st;
	}
	if (c->have_ci && c->holm_m > 1 &&
	    c->verdict == PR_VERDICT_INCONCLUSIVE &&
	    (c->ci_lo_pct > 0 || c->ci_hi_pct < 0)) {
		pr_buf_reset(line);
		if ((st = pr_buf_addf(line, err,
			 "%s: the interval excludes 0, "
			 "but after %s correction for %d metrics (p %.2g) "
			 "the "
			 "change is not established; intervals are not "
			 "adjusted "
			 "for the number of metrics",
			 name,
			 (c->notes & PR_NOTE_BH) ? "Benjamini-Hochberg's"
						 : "Holm's",
			 c->holm_m, c->p_adjusted)) != PR_OK ||
		    (st = fn(out, "note", line->data, err)) != PR_OK)
			return st;
	}
	if (c->notes & PR_NOTE_NO_CHANGE) {
		pr_buf_reset(line);
		if ((st = pr_buf_addf(line, err,
			 "%s: %s, so the change has "
			 "no percentage",
			 name,
			 c->base.mean == 0
			     ? "the base is 0"
			     : "the means have opposite signs")) != PR_OK ||
		    (st = fn(out, "note", line->data, err)) != PR_OK)
			return st;
	} else if (f->tested && (c->notes & PR_NOTE_NO_CI)) {
		pr_buf_reset(line);
		if ((st = pr_buf_addf(line, err,
			 "%s: no bounded interval for "
			 "the change: the base is not clearly away from 0, or "
			 "there are too few values",
			 name)) != PR_OK ||
		    (st = fn(out, "note", line->data, err)) != PR_OK)
			return st;
	}
	return st;
}

static enum pr_status
add_notes(struct pr_buf *out, const struct pr_report *r, const struct facts *fs,
    note_fn fn, struct pr_error *err)
{
	struct pr_buf line = PR_BUF_INIT(4096);
	enum pr_status st = PR_OK;
	size_t i, untested = 0;

	for (i = 0; i < r->n; i++)
		if (!fs[i].tested)
			untested++;
	if (untested == r->n && r->n > 1) {
		if ((st = pr_buf_addf(&line, err,
			 "the %zu metrics are different "
			 "measurements, not repeated runs of one, so they are "
			 "not "
			 "pooled into a test either",
			 r->n)) != PR_OK ||
		    (st = fn(out, "note", line.data, err)) != PR_OK)
			goto out;
	}
	for (i = 0; i < r->n; i++) {
		pr_buf_reset(&line);
		if (fs[i].tested) {
			if ((st = spread_note(&line, &fs[i], err)) != PR_OK)
				goto out;
			if (line.len > 0 &&
			    (st = fn(out, "note", line.data, err)) != PR_OK)
				goto out;
		}
		if ((st = method_notes(&fs[i], fn, out, &line, err)) != PR_OK)
			goto out;
		if (!fs[i].assumed)
			continue;
		pr_buf_reset(&line);
		if ((st = pr_buf_addf(&line, err,
			 "%s: direction assumed: the "
			 "input does not say whether higher or lower is "
			 "better; "
			 "lower is taken (--higher-is-better or "
			 "--lower-is-better "
			 "to say)",
			 fs[i].m->name)) != PR_OK ||
		    (st = fn(out, "note", line.data, err)) != PR_OK)
			goto out;
	}
out:
	pr_buf_release(&line);
	return st;
}

/* The footer: the method(s) that produced p and the intervals, Holm. */
static enum pr_status
add_footer(struct pr_buf *out, const struct pr_report *r,
    const struct facts *fs, note_fn fn, struct pr_error *err)
{
	struct pr_buf line = PR_BUF_INIT(4096);
	enum pr_method seen[PR_METHOD_NONE + 1];
	enum pr_status st = PR_OK;
	size_t i, j, nseen = 0;
	int rank = 0, means = 0;
	char conf[32];

	fmt_conf(conf, sizeof(conf), r->conf);
	for (i = 0; i < r->n; i++) {
		if (!fs[i].tested)
			continue;
		for (j = 0; j < nseen; j++)
			if (seen[j] == fs[i].c->method)
				break;
		if (j == nseen && nseen < PR_METHOD_NONE + 1)
			seen[nseen++] = fs[i].c->method;
	}
	if (nseen == 0) {
		st = fn(out, "method",
		    "none: no metric has repeated runs on "
		    "both sides",
		    err);
		goto out;
	}
	for (j = 0; j < nseen; j++) {
		if (seen[j] == PR_METHOD_MWU)
			rank = 1;
		else
			means = 1;
		if ((st = pr_buf_addf(&line, err, "%s%s", j > 0 ? "; " : "",
			 method_what(seen[j]))) != PR_OK)
			goto out;
	}
	/* A rank test's row is decided on the Hodges-Lehmann interval,
	 * not on its medians: the band is said of what the row shows. */
	if (rank && !means)
		st = pr_buf_addf(&line, err,
		    "; two-sided p; %s%% intervals for the Hodges-Lehmann "
		    "change in percent of base; equivalent means that "
		    "interval inside +-%g%% (the medians may differ by more)",
		    conf, r->equivalence_pct);
	else if (rank)
		st = pr_buf_addf(&line, err,
		    "; two-sided p; %s%% intervals for the change in percent "
		    "of base (on rank-test rows, marked HL, for the "
		    "Hodges-Lehmann change); equivalent means the interval "
		    "inside +-%g%%",
		    conf, r->equivalence_pct);
	else
		st = pr_buf_addf(&line, err,
		    "; two-sided p; %s%% intervals for "
		    "the change in percent of base; equivalent means inside "
		    "+-%g%%",
		    conf, r->equivalence_pct);
	if (st != PR_OK || (st = fn(out, "method", line.data, err)) != PR_OK)
		goto out;
	if (r->holm_m > 1 && r->side_bh) {
		pr_buf_reset(&line);
		if ((st = pr_buf_addf(&line, err,
			 "Benjamini-Hochberg's correction for %zu side "
			 "metrics, a family of their own: verdicts use the "
			 "adjusted p (p BH)",
			 r->holm_m)) != PR_OK ||
		    (st = fn(out, "correction", line.data, err)) != PR_OK)
			goto out;
	} else if (r->holm_m > 1) {
		pr_buf_reset(&line);
		if ((st = pr_buf_addf(&line, err,
			 "Holm's correction for %zu "
			 "metrics compared together: verdicts use the adjusted "
			 "p "
			 "(p Holm)",
			 r->holm_m)) != PR_OK ||
		    (st = fn(out, "correction", line.data, err)) != PR_OK)
			goto out;
	}
out:
	pr_buf_release(&line);
	return st;
}

/* ---------------------------------------------------------------- *
 * A table of cells, for the aligned text and the Markdown forms
 * ---------------------------------------------------------------- */

enum {
	COL_METRIC,
	COL_BASE,
	COL_NEW,
	COL_CHANGE,
	COL_CI,
	COL_P,
	COL_PADJ,
	COL_VERDICT,
	COL_N,
	NCOLS
};

struct table {
	size_t rows;
	char (*cell)[NCOLS][CELL_MAX];
	char **name; /* the metric column, which may be long */
};

static size_t
display_width(const char *s)
{
	size_t w = 0;

	/* UTF-8 continuation bytes take no column. */
	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

static void
table_release(struct table *t)
{
	free(t->cell);
	free(t->name);
	t->cell = NULL;
	t->name = NULL;
}

/*
 * Fills the table: row 0 is the header, row i + 1 metric i.  The names
 * are borrowed from the report (Markdown escapes them when writing).
 */
static enum pr_status
table_fill(struct table *t, const struct pr_report *r, const struct facts *fs,
    const char *pm, struct pr_error *err)
{
	size_t i;
	char conf[32];
	int all_median = 1; /* every row shows medians and HL */

	t->rows = r->n + 1;
	t->cell = calloc(t->rows, sizeof(*t->cell));
	t->name = calloc(t->rows, sizeof(*t->name));
	if (t->cell == NULL || t->name == NULL) {
		table_release(t);
		pr_error_set(err, PR_ENOMEM, "out of memory");
		return PR_ENOMEM;
	}
	fmt_conf(conf, sizeof(conf), r->conf);
	for (i = 0; i < r->n; i++)
		all_median = all_median && fs[i].use_median;
	/*
	 * A rank test is about the medians and the Hodges-Lehmann change:
	 * the header says so when every row is one, else each such row.
	 */
	t->name[0] = (char *)"metric";
	snprintf(t->cell[0][COL_BASE], CELL_MAX,
	    all_median ? "base median" : "base");
	snprintf(t->cell[0][COL_NEW], CELL_MAX,
	    all_median ? "new median" : "new");
	snprintf(t->cell[0][COL_CHANGE], CELL_MAX,
	    all_median ? "HL change" : "change");
	snprintf(t->cell[0][COL_CI], CELL_MAX, "%s%% interval", conf);
	snprintf(t->cell[0][COL_P], CELL_MAX, "p");
	snprintf(t->cell[0][COL_PADJ], CELL_MAX, "%s",
	    r->side_bh ? "p BH" : "p Holm");
	snprintf(t->cell[0][COL_VERDICT], CELL_MAX, "verdict");
	snprintf(t->cell[0][COL_N], CELL_MAX, "n");
	for (i = 0; i < r->n; i++) {
		const struct facts *f = &fs[i];
		const struct pr_comparison *c = f->c;
		char(*row)[CELL_MAX] = t->cell[i + 1];

		t->name[i + 1] = (char *)f->m->name;
		fmt_sides(row[COL_BASE], row[COL_NEW], CELL_MAX, f, pm,
		    !all_median);
		report_fmt_pct(row[COL_CHANGE], CELL_MAX,
		    f->have_change ? c->change_pct : NAN);
		if (!all_median && f->use_median)
			prefix_cell(row[COL_CHANGE], CELL_MAX, "HL ");
		report_fmt_interval(row[COL_CI], CELL_MAX, f->have_ci,
		    c->ci_lo_pct, c->ci_hi_pct);
		report_fmt_p(row[COL_P], CELL_MAX, f->have_p, c->p_value);
		report_fmt_p(row[COL_PADJ], CELL_MAX, f->have_padj,
		    c->p_adjusted);
		snprintf(row[COL_VERDICT], CELL_MAX, "%s",
		    f->tested ? pr_verdict_str(c->verdict) : "no test");
		snprintf(row[COL_N], CELL_MAX, "%zu+%zu", c->base.n, c->new.n);
	}
	return PR_OK;
}

static int
col_right(int col)
{
	return col == COL_BASE || col == COL_NEW || col == COL_CHANGE ||
	    col == COL_P || col == COL_PADJ || col == COL_N;
}

static const char *
cell_of(const struct table *t, size_t row, int col)
{
	return col == COL_METRIC ? t->name[row] : t->cell[row][col];
}

/* ---------------------------------------------------------------- *
 * Text
 * ---------------------------------------------------------------- */

static enum pr_status
text_line(struct pr_buf *out, const char *prefix, const char *text,
    struct pr_error *err)
{
	return pr_buf_addf(out, err, "%s: %s\n", prefix, text);
}

static enum pr_status
write_text(struct pr_buf *out, const struct pr_report *r,
    const struct facts *fs, struct pr_error *err)
{
	struct table t = { 0, NULL, NULL };
	size_t width[NCOLS] = { 0 };
	enum pr_status st;
	size_t i, w, pad;
	int col, last, holm = r->holm_m > 1;

	if ((st = table_fill(&t, r, fs, "+-", err)) != PR_OK)
		return st;
	if (r->base_source != NULL && r->new_source != NULL &&
	    (st = pr_buf_addf(out, err, "base: %s\nnew:  %s\n\n",
		 r->base_source, r->new_source)) != PR_OK)
		goto out;
	for (i = 0; i < t.rows; i++)
		for (col = 0; col < NCOLS; col++)
			if ((w = display_width(cell_of(&t, i, col))) >
			    width[col])
				width[col] = w;
	last = NCOLS - 1;
	for (i = 0; i < t.rows; i++) {
		for (col = 0; col < NCOLS; col++) {
			const char *s = cell_of(&t, i, col);

			if (col == COL_PADJ && !holm)
				continue;
			w = display_width(s);
			pad = width[col] - w;
			if (col > 0 &&
			    (st = pr_buf_adds(out, "  ", err)) != PR_OK)
				goto out;
			if (col_right(col))
				while (pad-- > 0)
					if ((st = pr_buf_addc(out, ' ', err)) !=
					    PR_OK)
						goto out;
			if ((st = pr_buf_adds(out, s, err)) != PR_OK)
				goto out;
			if (!col_right(col) && col != last)
				while (pad-- > 0)
					if ((st = pr_buf_addc(out, ' ', err)) !=
					    PR_OK)
						goto out;
		}
		if ((st = pr_buf_addc(out, '\n', err)) != PR_OK)
			goto out;
	}
	if ((st = pr_buf_addc(out, '\n', err)) != PR_OK)
		goto out;
	for (i = 0; i < r->n; i++) {
		if ((st = pr_buf_addf(out, err, "%s: ", fs[i].m->name)) !=
			PR_OK ||
		    (st = add_sentence(out, r, &fs[i], err)) != PR_OK ||
		    (st = pr_buf_addc(out, '\n', err)) != PR_OK)
			goto out;
	}
	if ((st = pr_buf_addc(out, '\n', err)) != PR_OK ||
	    (st = add_notes(out, r, fs, text_line, err)) != PR_OK ||
	    (st = add_footer(out, r, fs, text_line, err)) != PR_OK)
		goto out;
out:
	table_release(&t);
	return st;
}

/* ---------------------------------------------------------------- *
 * Markdown
 * ---------------------------------------------------------------- */

static enum pr_status
md_line(struct pr_buf *out, const char *prefix, const char *text,
    struct pr_error *err)
{
	enum pr_status st;

	if ((st = pr_buf_addf(out, err, "- %c%s: ", prefix[0] - 'a' + 'A',
		 prefix + 1)) != PR_OK ||
	    (st = report_md_escape(out, text, err)) != PR_OK)
		return st;
	return pr_buf_addc(out, '\n', err);
}

static enum pr_status
write_markdown(struct pr_buf *out, const struct pr_report *r,
    const struct facts *fs, struct pr_error *err)
{
	struct table t = { 0, NULL, NULL };
	struct pr_buf sentence = PR_BUF_INIT(4096);
	enum pr_status st;
	size_t i;
	int col, holm = r->holm_m > 1;
	char conf[32];

	if ((st = table_fill(&t, r, fs, "\xc2\xb1", err)) != PR_OK)
		return st;
	fmt_conf(conf, sizeof(conf), r->conf);
	if (r->base_source != NULL && r->new_source != NULL) {
		if ((st = pr_buf_adds(out, "perfreg compare: base ", err)) !=
			PR_OK ||
		    (st = report_md_escape(out, r->base_source, err)) !=
			PR_OK ||
		    (st = pr_buf_adds(out, ", new ", err)) != PR_OK ||
		    (st = report_md_escape(out, r->new_source, err)) != PR_OK ||
		    (st = pr_buf_addf(out, err, ", %s%% confidence\n\n",
			 conf)) != PR_OK)
			goto out;
	}
	for (i = 0; i < t.rows; i++) {
		for (col = 0; col < NCOLS; col++) {
			if (col == COL_PADJ && !holm)
				continue;
			if ((st = pr_buf_adds(out, "| ", err)) != PR_OK ||
			    (st = report_md_escape(out, cell_of(&t, i, col),
				 err)) != PR_OK ||
			    (st = pr_buf_addc(out, ' ', err)) != PR_OK)
				goto out;
		}
		if ((st = pr_buf_adds(out, "|\n", err)) != PR_OK)
			goto out;
		if (i > 0)
			continue;
		for (col = 0; col < NCOLS; col++) {
			if (col == COL_PADJ && !holm)
				continue;
			if ((st = pr_buf_adds(out,
				 col_right(col) ? "|---:" : "|:---", err)) !=
			    PR_OK)
				goto out;
		}
		if ((st = pr_buf_adds(out, "|\n", err)) != PR_OK)
			goto out;
	}
	if ((st = pr_buf_addc(out, '\n', err)) != PR_OK)
		goto out;
	for (i = 0; i < r->n; i++) {
		pr_buf_reset(&sentence);
		if ((st = add_sentence(&sentence, r, &fs[i], err)) != PR_OK ||
		    (st = pr_buf_adds(out, "- **", err)) != PR_OK ||
		    (st = report_md_escape(out, fs[i].m->name, err)) != PR_OK ||
		    (st = pr_buf_adds(out, "**: ", err)) != PR_OK ||
		    (st = report_md_escape(out, sentence.data, err)) != PR_OK ||
		    (st = pr_buf_addc(out, '\n', err)) != PR_OK)
			goto out;
	}
	if ((st = add_notes(out, r, fs, md_line, err)) != PR_OK ||
	    (st = add_footer(out, r, fs, md_line, err)) != PR_OK)
		goto out;
out:
	pr_buf_release(&sentence);
	table_release(&t);
	return st;
}

/* ---------------------------------------------------------------- *
 * CSV (RFC 4180)
 * ---------------------------------------------------------------- */

static enum pr_status
csv_str(struct pr_buf *out, const char *s, int first, struct pr_error *err)
{
	enum pr_status st;

	if (!first && (st = pr_buf_addc(out, ',', err)) != PR_OK)
		return st;
	/* Control bytes shown as text shows them, then the cell. */
	return report_csv_esc(out, s, err);
}

static enum pr_status
csv_num(struct pr_buf *out, int have, double x, struct pr_error *err)
{
	char num[40];

	num[0] = '\0';
	if (have)
		report_fmt_exact(num, sizeof(num), x);
	return csv_str(out, num, 0, err);
}

static enum pr_status
csv_side(struct pr_buf *out, const struct pr_summary *s, int sd_have,
    struct pr_error *err)
{
	enum pr_status st;
	char n[32];

	snprintf(n, sizeof(n), "%zu", s->n);
	if ((st = csv_str(out, n, 0, err)) != PR_OK ||
	    (st = csv_num(out, s->n > 0, s->mean, err)) != PR_OK ||
	    (st = csv_num(out, s->n > 0, s->median, err)) != PR_OK)
		return st;
	return csv_num(out, sd_have, s->stddev, err);
}

/*
 * One CSV line of metric f, after the ncsv extra cells, in the family
 * named family ("primary", "side" or "none").  A metric not tested
 * because it is constant (nt not NULL: its value) says so instead of a
 * verdict, as the text does.
 */
static enum pr_status
csv_row(struct pr_buf *out, const struct facts *f, const char *family,
    const double *nt, const char *const *cell, size_t ncsv,
    struct pr_error *err)
{
	const struct pr_comparison *c = f->c;
	int tested = f->tested && nt == NULL;
	enum pr_status st;
	size_t k;
	char n[32], why[64];

	for (k = 0; k < ncsv; k++)
		if ((st = csv_str(out, cell[k], 1, err)) != PR_OK ||
		    (st = pr_buf_addc(out, ',', err)) != PR_OK)
			return st;
	snprintf(n, sizeof(n), "%zu", c->runs_needed);
	if (nt != NULL)
		snprintf(why, sizeof(why), "constant %.6g", *nt);
	else
		snprintf(why, sizeof(why), "%s", f->why);
	if ((st = csv_str(out, f->m->name, 1, err)) != PR_OK ||
	    (st = csv_str(out, f->unit, 0, err)) != PR_OK ||
	    (st = csv_str(out, better_word(f->better), 0, err)) != PR_OK ||
	    (st = csv_str(out, f->assumed ? "1" : "0", 0, err)) != PR_OK ||
	    (st = csv_side(out, &c->base, f->base_sd, err)) != PR_OK ||
	    (st = csv_side(out, &c->new, f->new_sd, err)) != PR_OK ||
	    (st = csv_num(out, f->have_change, c->change_pct, err)) != PR_OK ||
	    (st = csv_num(out, tested && f->have_ci, c->ci_lo_pct, err)) !=
		PR_OK ||
	    (st = csv_num(out, tested && f->have_ci, c->ci_hi_pct, err)) !=
		PR_OK ||
	    (st = csv_num(out, tested && f->have_p, c->p_value, err)) !=
		PR_OK ||
	    (st = csv_num(out, tested && f->have_padj, c->p_adjusted, err)) !=
		PR_OK ||
	    (st = csv_str(out,
		 nt != NULL ? "not tested" : pr_verdict_str(c->verdict), 0,
		 err)) != PR_OK ||
	    (st = csv_str(out,
		 pr_report_method_slug(tested ? c->method : PR_METHOD_NONE), 0,
		 err)) != PR_OK ||
	    (st = csv_str(out, tested ? "1" : "0", 0, err)) != PR_OK ||
	    (st = csv_str(out, nt == NULL && c->runs_needed > 0 ? n : "", 0,
		 err)) != PR_OK ||
	    (st = csv_str(out, f->words, 0, err)) != PR_OK ||
	    (st = csv_str(out, family, 0, err)) != PR_OK ||
	    (st = csv_str(out,
		 nt != NULL
		     ? ""
		     : estimate_slug(tested ? c->method : PR_METHOD_NONE),
		 0, err)) != PR_OK ||
	    (st = csv_str(out,
		 nt != NULL ? ""
			    : (tested && f->use_median ? "median" : "mean"),
		 0, err)) != PR_OK ||
	    (st = csv_str(out, why, 0, err)) != PR_OK)
		return st;
	return pr_buf_addc(out, '\n', err);
}

/*
 * The CSV form: the header line when header, then a line per metric,
 * each after the ncsv extra columns (headers head, values cell).
 */
static enum pr_status
write_csv(struct pr_buf *out, const struct pr_report *r, const struct facts *fs,
    const char *const *head, const char *const *cell, size_t ncsv, int header,
    struct pr_error *err)
{
	enum pr_status st;
	size_t i, k;

	for (k = 0; header && k < ncsv; k++)
		if ((st = csv_str(out, head[k], 1, err)) != PR_OK ||
		    (st = pr_buf_addc(out, ',', err)) != PR_OK)
			return st;
	if (header &&
	    (st = pr_buf_adds(out,
		 "metric,unit,better,direction_assumed,"
		 "base_n,base_mean,base_median,base_stddev,"
		 "new_n,new_mean,new_median,new_stddev,"
		 "change_pct,ci_low_pct,ci_high_pct,p_value,p_adjusted,"
		 "verdict,method,tested,runs_needed,words,"
		 "family,estimate,center,why_not_tested\n",
		 err)) != PR_OK)
		return st;
	for (i = 0; i < r->n; i++)
		if ((st = csv_row(out, &fs[i], r->side_bh ? "side" : "primary",
			 NULL, cell, ncsv, err)) != PR_OK)
			return st;
	return PR_OK;
}

/* The rows of the metrics not tested because they are constant. */
static enum pr_status
write_csv_not_tested(struct pr_buf *out, const struct pr_report *r,
    const char *const *cell, size_t ncsv, struct pr_error *err)
{
	struct facts f;
	enum pr_status st;
	size_t i;

	for (i = 0; i < r->n_not_tested && r->not_tested_metrics != NULL; i++) {
		get_facts(&r->not_tested_metrics[i], &f);
		if ((st = csv_row(out, &f, "none", &r->not_tested_value[i],
			 cell, ncsv, err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

/* ---------------------------------------------------------------- *
 * JSON
 * ---------------------------------------------------------------- */

/* A number, or null when undefined.  NULL only when out of memory. */
static json_t *
jnum(int have, double x)
{
	return have && defined(x) ? json_real(x) : json_null();
}

/* Sets key to value in obj, taking the reference; 0 when out of memory
 * (value is released either way). */
static int
jset(json_t *obj, const char *key, json_t *value)
{
	return value != NULL && json_object_set_new(obj, key, value) == 0;
}

static json_t *
json_side(const struct pr_summary *s, int sd_have, const double *v, size_t nv)
{
	json_t *o, *a;
	size_t i;
	int ok;

	if ((o = json_object()) == NULL)
		return NULL;
	ok = jset(o, "n", json_integer((json_int_t)s->n)) &&
	    jset(o, "mean", jnum(s->n > 0, s->mean)) &&
	    jset(o, "median", jnum(s->n > 0, s->median)) &&
	    jset(o, "stddev", jnum(sd_have, s->stddev)) &&
	    jset(o, "min", jnum(s->n > 0, s->min)) &&
	    jset(o, "max", jnum(s->n > 0, s->max));
	if (ok && v != NULL) {
		ok = (a = json_array()) != NULL && jset(o, "values", a);
		for (i = 0; ok && i < nv; i++)
			ok = defined(v[i])
			    ? json_array_append_new(a, json_real(v[i])) == 0
			    : json_array_append_new(a, json_null()) == 0;
	}
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *
json_metric(const struct pr_report *r, const struct facts *f,
    struct pr_error *err)
{
	const struct pr_comparison *c = f->c;
	struct pr_buf sentence = PR_BUF_INIT(4096);
	json_t *o, *ci;
	int ok;

	if ((o = json_object()) == NULL)
		return NULL;
	ci = f->have_ci ? json_pack("[ff]", c->ci_lo_pct, c->ci_hi_pct)
			: json_null();
	ok = add_sentence(&sentence, r, f, err) == PR_OK &&
	    jset(o, "name", json_string(f->m->name)) &&
	    jset(o, "unit", json_string(f->unit)) &&
	    jset(o, "better", json_string(better_word(f->better))) &&
	    jset(o, "direction_assumed", json_boolean(f->assumed)) &&
	    jset(o, "base",
		json_side(&c->base, f->base_sd, f->m->base_values,
		    f->m->base_n)) &&
	    jset(o, "new",
		json_side(&c->new, f->new_sd, f->m->new_values, f->m->new_n)) &&
	    jset(o, "change_pct", jnum(f->have_change, c->change_pct)) &&
	    jset(o, "ci_pct", json_incref(ci)) &&
	    jset(o, "p_value", jnum(f->have_p, c->p_value)) &&
	    jset(o, "p_adjusted", jnum(f->have_padj, c->p_adjusted)) &&
	    jset(o, "verdict", json_string(pr_verdict_str(c->verdict))) &&
	    jset(o, "method",
		json_string(pr_report_method_slug(
		    f->tested ? c->method : PR_METHOD_NONE))) &&
	    jset(o, "tested", json_boolean(f->tested)) &&
	    jset(o, "runs_needed",
		c->runs_needed > 0 ? json_integer((json_int_t)c->runs_needed)
				   : json_null()) &&
	    jset(o, "words", json_string(f->words)) &&
	    jset(o, "summary",
		json_string(sentence.data != NULL ? sentence.data : "")) &&
	    jset(o, "family", json_string(r->side_bh ? "side" : "primary")) &&
	    jset(o, "estimate",
		json_string(
		    estimate_slug(f->tested ? c->method : PR_METHOD_NONE))) &&
	    jset(o, "center",
		json_string(f->tested && f->use_median ? "median" : "mean")) &&
	    jset(o, "why_not_tested",
		f->tested ? json_null() : json_string(f->why));
	/* ci is o's now, or not used when an earlier field failed. */
	json_decref(ci);
	pr_buf_release(&sentence);
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The report as a JSON object; NULL (with err set) on failure. */
static json_t *
json_report(const struct pr_report *r, const struct facts *fs,
    struct pr_error *err)
{
	struct pr_buf notes = PR_BUF_INIT(1 << 20);
	json_t *root, *metrics, *jn;
	char *line, *nl;
	size_t i;
	int ok;

	if ((root = json_object()) == NULL ||
	    (metrics = json_array()) == NULL) {
		json_decref(root);
		pr_error_set(err, PR_ENOMEM, "out of memory");
		return NULL;
	}
	ok = jset(root, "base_file",
		 r->base_source != NULL ? json_string(r->base_source)
					: json_null()) &&
	    jset(root, "new_file",
		r->new_source != NULL ? json_string(r->new_source)
				      : json_null()) &&
	    jset(root, "confidence", json_real(r->conf)) &&
	    jset(root, "equivalence_pct", json_real(r->equivalence_pct)) &&
	    jset(root, "holm", json_boolean(r->holm_m > 1)) &&
	    jset(root, "holm_m",
		json_integer((json_int_t)(r->holm_m > 1 ? r->holm_m : 0))) &&
	    jset(root, "metrics", metrics);
	for (i = 0; ok && i < r->n; i++)
		ok = (jn = json_metric(r, &fs[i], err)) != NULL &&
		    json_array_append_new(metrics, jn) == 0;
	/* The notes and the footer, one string per line, as in the text. */
	if (ok) {
		ok = add_notes(&notes, r, fs, text_line, err) == PR_OK &&
		    add_footer(&notes, r, fs, text_line, err) == PR_OK &&
		    (jn = json_array()) != NULL && jset(root, "notes", jn);
		for (line = notes.data; ok && line != NULL && *line != '\0';
		     line = nl + 1) {
			if ((nl = strchr(line, '\n')) == NULL)
				break;
			*nl = '\0';
			ok = json_array_append_new(jn, json_string(line)) == 0;
		}
	}
	pr_buf_release(&notes);
	if (ok && r->side_bh)
		ok =
		    jset(root, "correction", json_string("benjamini-hochberg"));
	if (ok && r->side != NULL && r->side->n > 0)
		ok = (jn = report_compare_json(r->side, err)) != NULL &&
		    jset(root, "side_metrics", jn);
	if (ok && r->n_not_tested > 0) {
		ok =
		    (jn = json_array()) != NULL && jset(root, "not_tested", jn);
		for (i = 0; ok && i < r->n_not_tested; i++)
			ok =
			    json_array_append_new(jn,
				json_pack("{s:s,s:f}", "name", r->not_tested[i],
				    "value", r->not_tested_value[i])) == 0;
	}
	if (!ok) {
		json_decref(root);
		pr_error_set(err, PR_ENOMEM,
		    "out of memory writing the JSON report");
		return NULL;
	}
	return root;
}

static enum pr_status
write_json(struct pr_buf *out, const struct pr_report *r,
    const struct facts *fs, struct pr_error *err)
{
	json_t *root;

	if ((root = json_report(r, fs, err)) == NULL)
		return PR_ENOMEM;
	return report_json_dump(out, root,
	    JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15),
	    err);
}

/* ---------------------------------------------------------------- *
 * Entry point
 * ---------------------------------------------------------------- */

/*
 * The names of a report as text may show them: a copy of r whose
 * metric names, units and sources went through pr_report_escape, so
 * that a control byte in a name (ESC[2J, an OSC 52 clipboard write, a
 * newline that would split a table row, a CR in a Markdown row) is shown
 * as ^[ and the like, never sent.  *copy gets the metrics and *names the
 * strings to free; NULL (ENOMEM) on failure.
 */
static const struct pr_report *
escaped(const struct pr_report *r, struct pr_report *copy,
    struct pr_report_metric **metrics, char ***names)
{
	struct pr_report_metric *m;
	char **v;
	size_t i, k = 0;

	*metrics = m = calloc(r->n, sizeof(*m));
	*names = v = calloc(2 * r->n + 3, sizeof(*v));
	if (m == NULL || v == NULL)
		return NULL;
	*copy = *r;
	copy->metrics = m;
	if (r->base_source != NULL &&
	    (copy->base_source = v[k++] =
		    pr_report_escape_str(r->base_source, 0)) == NULL)
		return NULL;
	if (r->new_source != NULL &&
	    (copy->new_source = v[k++] =
		    pr_report_escape_str(r->new_source, 0)) == NULL)
		return NULL;
	for (i = 0; i < r->n; i++) {
		m[i] = r->metrics[i];
		if ((m[i].name = v[k++] =
			    pr_report_escape_str(r->metrics[i].name, 0)) ==
		    NULL)
			return NULL;
		if (r->metrics[i].unit != NULL &&
		    (m[i].unit = v[k++] =
			    pr_report_escape_str(r->metrics[i].unit, 0)) ==
			NULL)
			return NULL;
	}
	return copy;
}

/*
 * Text and Markdown: after the primary metrics, the side metrics under a
 * heading, and the metrics not tested in one line per value ("avgtext,
 * swaps: constant 0, not tested").
 */
static enum pr_status
write_side(struct pr_buf *out, const struct pr_report *r,
    enum pr_report_format f, struct pr_error *err)
{
	enum pr_status st = PR_OK;
	size_t i, j;
	int first;
	char v[64];

	if (r->side != NULL && r->side->n > 0 &&
	    ((st = pr_buf_adds(out,
		  f == PR_REPORT_MARKDOWN
		      ? "\n**side metrics**, a family of their own "
			"(Benjamini-Hochberg):\n\n"
		      : "\nside metrics, a family of their own "
			"(Benjamini-Hochberg):\n\n",
		  err)) != PR_OK ||
		(st = pr_report_compare(out, r->side, f, err)) != PR_OK))
		return st;
	for (i = 0; i < r->n_not_tested && st == PR_OK; i++) {
		for (j = 0; j < i; j++)
			if (r->not_tested_value[j] == r->not_tested_value[i])
				break;
		if (j < i)
			continue; /* said with the first of its value */
		if (i == 0)
			st = pr_buf_addc(out, '\n', err);
		for (j = i, first = 1; j < r->n_not_tested && st == PR_OK;
		     j++) {
			if (r->not_tested_value[j] != r->not_tested_value[i])
				continue;
			if (!first)
				st = pr_buf_adds(out, ", ", err);
			if (st == PR_OK)
				st = pr_report_escape(out, r->not_tested[j],
				    strlen(r->not_tested[j]), 0, err);
			first = 0;
		}
		snprintf(v, sizeof(v), "%.6g", r->not_tested_value[i]);
		if (st == PR_OK)
			st = pr_buf_addf(out, err,
			    ": constant %s, not tested%s\n", v,
			    f == PR_REPORT_MARKDOWN ? "  " : "");
	}
	return st;
}

enum pr_status
pr_report_compare(struct pr_buf *out, const struct pr_report *r,
    enum pr_report_format f, struct pr_error *err)
{
	struct pr_report copy;
	struct pr_report_metric *em = NULL;
	struct facts *fs;
	enum pr_status st;
	char **names = NULL;
	size_t i;

	if (r == NULL || r->n == 0 || r->metrics == NULL)
		return pr_error_set(err, PR_EINVAL, "no metric to report");
	if ((f == PR_REPORT_TEXT || f == PR_REPORT_MARKDOWN) &&
	    (r = escaped(r, &copy, &em, &names)) == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	if ((fs = calloc(r->n, sizeof(*fs))) == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < r->n; i++)
		get_facts(&r->metrics[i], &fs[i]);
	switch (f) {
	case PR_REPORT_TEXT:
	case PR_REPORT_MARKDOWN:
		st = f == PR_REPORT_TEXT ? write_text(out, r, fs, err)
					 : write_markdown(out, r, fs, err);
		if (st == PR_OK)
			st = write_side(out, r, f, err);
		break;
	case PR_REPORT_CSV:
		st = report_compare_csv(out, r, NULL, NULL, 0, 1, err);
		break;
	case PR_REPORT_JSON:
		st = write_json(out, r, fs, err);
		break;
	default:
		st = pr_error_set(err, PR_EINVAL, "unknown report format %d",
		    (int)f);
		break;
	}
	free(fs);
out:
	for (i = 0; names != NULL && names[i] != NULL; i++)
		free(names[i]);
	free(names);
	free(em);
	return st;
}

json_t *
report_compare_json(const struct pr_report *r, struct pr_error *err)
{
	struct facts *fs;
	json_t *root;
	size_t i;

	if (r == NULL || r->n == 0 || r->metrics == NULL) {
		pr_error_set(err, PR_EINVAL, "no metric to report");
		return NULL;
	}
	if ((fs = calloc(r->n, sizeof(*fs))) == NULL) {
		pr_error_set(err, PR_ENOMEM, "out of memory");
		return NULL;
	}
	for (i = 0; i < r->n; i++)
		get_facts(&r->metrics[i], &fs[i]);
	root = json_report(r, fs, err);
	free(fs);
	return root;
}

enum pr_status
report_compare_csv(struct pr_buf *out, const struct pr_report *r,
    const char *const *head, const char *const *cell, size_t ncsv, int header,
    struct pr_error *err)
{
	struct facts *fs;
	enum pr_status st;
	size_t i;

	if (r == NULL || r->n == 0 || r->metrics == NULL)
		return pr_error_set(err, PR_EINVAL, "no metric to report");
	if ((fs = calloc(r->n, sizeof(*fs))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < r->n; i++)
		get_facts(&r->metrics[i], &fs[i]);
	st = write_csv(out, r, fs, head, cell, ncsv, header, err);
	free(fs);
	/* The side metrics follow as more rows of the same table, then
	 * those not tested. */
	if (st == PR_OK && r->side != NULL && r->side->n > 0)
		st = report_compare_csv(out, r->side, head, cell, ncsv, 0, err);
	if (st == PR_OK)
		st = write_csv_not_tested(out, r, cell, ncsv, err);
	return st;
}
