/*
 * report/suite.c - the sections of `perfreg suite`'s report
 * (perfreg/report_suite.h): each probe's figures, and the comparison of
 * sessions for a person (summary line, what is compared, the table of
 * the figures that changed, notes said once, the method), each a
 * PR_SECTION_WRITER section of the report model with its text, Markdown
 * and JSON forms; the comparison's every figure is also a comparison
 * section (JSON and CSV only) in the form every command shares.
 *
 * The decisions are made before (pr_suite_compare, perfreg/suite.h);
 * these writers only lay them out.  Text lines are at most
 * PR_REPORT_SUITE_WIDTH bytes: sentences are wrapped at spaces (a word
 * longer than a line is cut), table rows sit under a heading per group
 * of figures, and a row name longer than its column goes on a line of
 * its own.
 *
 * Invariants: a section's data is one allocation of its own struct and
 * the arrays and strings it owns, freed by its writer's free function;
 * the probes section holds only the borrowed results.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "perfreg/moderated.h"
#include "perfreg/report_html.h"
#include "perfreg/report_suite.h"
#include "report/internal.h"
#include "core/banned.h"

#define WIDTH PR_REPORT_SUITE_WIDTH
/* The widest unit shown whole in the table; longer ones are cut. */
#define UNIT_MAX 12
/* Figures of a group that agree within this many points of percent are
 * given as one change in the summary. */
#define AGREE_PTS 5.0

/* The HTML forms, at the end of this file. */
static enum pr_status para_html(struct pr_buf *out, const void *data,
    struct pr_error *err);
static enum pr_status probes_html(struct pr_buf *out, const void *data,
    struct pr_error *err);
static enum pr_status summary_html(struct pr_buf *out, const void *data,
    struct pr_error *err);
static enum pr_status detail_html(struct pr_buf *out, const void *data,
    struct pr_error *err);

static enum pr_status
spaces(struct pr_buf *out, size_t n, struct pr_error *err)
{
	enum pr_status st = PR_OK;

	while (n-- > 0 && st == PR_OK)
		st = pr_buf_addc(out, ' ', err);
	return st;
}

/*
 * Appends the len bytes of text (escaped already, no newline in it) as
 * lines of at most WIDTH bytes, broken at spaces, each line after the
 * first indented by indent; a word longer than a line is cut.  Ends
 * with a newline.
 */
static enum pr_status
wrap(struct pr_buf *out, const char *text, size_t len, size_t indent,
    struct pr_error *err)
{
	const char *p = text, *end = text + len, *brk;
	enum pr_status st = PR_OK;
	size_t room, lead = 0;

	if (indent > WIDTH / 2)
		indent = WIDTH / 2;
	while (st == PR_OK) {
		room = WIDTH - lead;
		if ((size_t)(end - p) <= room) {
			if ((st = pr_buf_add(out, p, (size_t)(end - p), err)) ==
			    PR_OK)
				st = pr_buf_addc(out, '\n', err);
			break;
		}
		/* The last space that keeps the line within room. */
		for (brk = p + room; brk > p && *brk != ' '; brk--)
			;
		if (brk == p)
			brk = p + room;
		if ((st = pr_buf_add(out, p, (size_t)(brk - p), err)) !=
			PR_OK ||
		    (st = pr_buf_addc(out, '\n', err)) != PR_OK)
			break;
		p = brk;
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		lead = indent;
		st = spaces(out, lead, err);
	}
	return st;
}

/* Wraps what the buffer b holds (see wrap) onto out. */
static enum pr_status
wrap_buf(struct pr_buf *out, const struct pr_buf *b, size_t indent,
    struct pr_error *err)
{
	return wrap(out, b->data != NULL ? b->data : "", b->len, indent, err);
}

/* Sets key of o to v; 0, or -1 (v dropped) when either failed. */
static int
jset(json_t *o, const char *key, json_t *v)
{
	return v == NULL || json_object_set_new(o, key, v) != 0 ? -1 : 0;
}

/* A JSON string; bytes that are not valid UTF-8 as text shows them. */
static json_t *
jstr(const char *s)
{
	json_t *j;
	char *e;

	if (s == NULL)
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	if ((e = pr_report_escape_str(s, PR_ESCAPE_NEWLINE | PR_ESCAPE_TAB)) ==
	    NULL)
		return NULL;
	j = json_string(e);
	free(e);
	return j;
}

static json_t *
nomem_json(json_t *o, struct pr_error *err)
{
	json_decref(o);
	pr_error_set(err, PR_ENOMEM, "out of memory writing the JSON report");
	return NULL;
}

/* ---------------------------------------------------------------- *
 * Paragraphs
 * ---------------------------------------------------------------- */

struct para {
	int blank;
	size_t indent;
	char text[];
};

static void
para_free(void *data)
{
	free(data);
}

static enum pr_status
para_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct para *d = data;
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	enum pr_status st = PR_OK;
	const char *p;
	size_t len;

	if (d->blank)
		st = pr_buf_addc(out, '\n', err);
	for (p = d->text; st == PR_OK && *p != '\0';
	     p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		pr_buf_reset(&b);
		if ((st = pr_report_escape(&b, p, len, 0, err)) != PR_OK)
			break;
		if (f == PR_REPORT_MARKDOWN) {
			char *e;

			if ((st = pr_buf_addc(&b, '\0', err)) != PR_OK)
				break;
			if ((e = strdup(b.data)) == NULL) {
				st = pr_error_set(err, PR_ENOMEM,
				    "out of memory");
				break;
			}
			st = report_md_escape(out, e, err);
			free(e);
			if (st == PR_OK)
				st = pr_buf_adds(out, "\n", err);
		} else {
			st = wrap_buf(out, &b, d->indent, err);
		}
	}
	pr_buf_release(&b);
	return st;
}

static json_t *
para_json(const void *data, struct pr_error *err)
{
	const struct para *d = data;
	json_t *j = jstr(d->text);

	if (j == NULL)
		pr_error_set(err, PR_ENOMEM,
		    "out of memory writing the JSON report");
	return j;
}

static const struct report_writer para_writer = { para_text, para_json,
	para_free };

enum pr_status
pr_report_suite_para(struct pr_report_model *m, const char *key, int flags,
    int blank_before, size_t indent, const char *text, struct pr_error *err)
{
	size_t len = strlen(text);
	struct para *d;

	if ((d = malloc(sizeof(*d) + len + 1)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	d->blank = blank_before;
	d->indent = indent;
	memcpy(d->text, text, len + 1);
	return report_model_writer(m, key, flags, &para_writer, d, err);
}

/* ---------------------------------------------------------------- *
 * Each probe's figures
 * ---------------------------------------------------------------- */

struct probes {
	const struct pr_suite_result *r;
	size_t n;
	double mono_res_ns, cpu_res_ns;
};

static void
probes_free(void *data)
{
	free(data);
}

static const char *
stopped_why(const struct pr_suite_result *r)
{
	return r->converged ? "every figure within the target"
	    : r->capped     ? "the most samples a probe takes"
			    : "its share of the budget spent";
}

/*
 * A figure's 95% interval as percentages of its mean: h is the relative
 * half-width t s / (sqrt(n) mean) in percent, which is also the
 * half-width of the interval of the mean's log (the delta method, the
 * scale the verdicts test on), so the interval is [e^-h - 1, e^h - 1]:
 * never below -100%, however few the processes (issue 10, item 4: with
 * 2 processes a throughput's "+-698%" put its lower end at a negative
 * rate).
 */
static void
rel_interval(double h, double *lo, double *hi)
{
	*lo = 100.0 * expm1(-h / 100.0);
	*hi = 100.0 * expm1(h / 100.0);
}

/*
 * One end of rel_interval: 1 significant digit below 0.1%, 2 below 10%,
 * whole percents from there to 999999%, 2 significant digits above; a
 * lower end near -100% with the decimals it needs not to read "-100" (a
 * rate of zero); 0 without a sign.  Short, so that a figure's line keeps
 * its direction within 100 columns (review of s13, finding 7).
 */
static void
fmt_end(char *buf, size_t size, double x)
{
	double p = 1;
	int d;

	if (x == 0)
		(void)snprintf(buf, size, "0");
	else if (fabs(x) < 0.095)
		(void)snprintf(buf, size, "%+.1g", x);
	else if (fabs(x) < 9.95)
		(void)snprintf(buf, size, "%+.2g", x);
	else if (fabs(x) < 999999.5)
		(void)snprintf(buf, size, "%+.0f", x);
	else
		(void)snprintf(buf, size, "%+.2g", x);
	if (!(x > -100 && x < -99.5))
		return;
	for (d = 0; d < 9 && !(round(x * p) / p > -100); d++)
		p *= 10;
	(void)snprintf(buf, size, "%+.*f", d, x);
}

/* pre "[lo%, hi%]" post, the ends of rel_interval(h). */
static enum pr_status
add_interval(struct pr_buf *out, double h, const char *pre, const char *post,
    struct pr_error *err)
{
	char lo_s[32], hi_s[32];
	double lo, hi;

	rel_interval(h, &lo, &hi);
	fmt_end(lo_s, sizeof(lo_s), lo);
	fmt_end(hi_s, sizeof(hi_s), hi);
	return pr_buf_addf(out, err, "%s[%s%%, %s%%]%s", pre, lo_s, hi_s, post);
}

static enum pr_status
probes_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct probes *d = data;
	const struct pr_suite_result *r;
	const struct pr_metric *m;
	struct pr_buf line = PR_BUF_INIT(1 << 20);
	enum pr_status st;
	const char *note, *item = f == PR_REPORT_MARKDOWN ? "- " : "  ";
	double mean, h;
	size_t i, k, len;
	int multi = 0;

	for (i = 0; i < d->n; i++)
		multi |= d->r[i].processes >= 2;
	st = pr_buf_addf(&line, err,
	    "timers: each probe names its own; resolution of CLOCK_MONOTONIC "
	    "%.0f ns, CLOCK_THREAD_CPUTIME_ID %.0f ns; each figure is the "
	    "mean of %s, then its 95%% interval in percent of it (on the "
	    "log scale, as the verdicts are: never below -100%%)",
	    d->mono_res_ns, d->cpu_res_ns,
	    multi ? "its process values (the process the unit; each process "
		    "its mean, or its best sample where the probe's line says "
		    "so)"
		  : "the samples (or of blocks' best samples where the "
		    "probe's line says so)");
	if (st == PR_OK && (st = wrap_buf(out, &line, 0, err)) == PR_OK)
		st = pr_buf_addc(out, '\n', err);
	for (i = 0; i < d->n && st == PR_OK; i++) {
		r = &d->r[i];
		pr_buf_reset(&line);
		if ((st = report_word(&line, r->label, f, err)) != PR_OK)
			break;
		if (r->skipped != NULL) {
			if ((st = pr_buf_adds(&line,
				 ": not run here: ", err)) == PR_OK &&
			    (st = report_word(&line, r->skipped, f, err)) ==
				PR_OK)
				st = wrap_buf(out, &line, 2, err);
			continue;
		}
		if ((st = pr_buf_addf(&line, err,
			 ": %zu samples in %.1f s, %s (timer %s)", r->samples,
			 r->elapsed_s, stopped_why(r), r->probe->timer)) !=
			PR_OK ||
		    (r->processes >= 2 &&
			(st = pr_buf_addf(&line, err, ", in %zu processes",
			     r->processes)) != PR_OK) ||
		    (r->probe->figure == PR_PROBE_FIGURE_BEST &&
			(st = r->processes >= 2
				? pr_buf_adds(&line,
				      ", each process its best sample", err)
				: pr_buf_addf(&line, err,
				      ", each of %d blocks its best sample",
				      PR_SUITE_BLOCKS)) != PR_OK) ||
		    (st = wrap_buf(out, &line, 2, err)) != PR_OK)
			break;
		for (note = r->notes;
		     st == PR_OK && note != NULL && *note != '\0';
		     note += len + (note[len] == '\n')) {
			len = strcspn(note, "\n");
			pr_buf_reset(&line);
			if ((st = pr_buf_addf(&line, err, "%snote: ", item)) !=
				PR_OK ||
			    (st = pr_report_escape(&line, note, len, 0, err)) !=
				PR_OK)
				break;
			st = wrap_buf(out, &line, 4, err);
		}
		for (k = 0; k < r->data.n && st == PR_OK; k++) {
			m = &r->data.metrics[k];
			pr_suite_result_stats(r, m, &mean, &h);
			pr_buf_reset(&line);
			if ((st = pr_buf_adds(&line, item, err)) != PR_OK ||
			    (st = report_word(&line, m->name, f, err)) != PR_OK)
				break;
			len = line.len;
			if (len < 34 &&
			    (st = spaces(&line, 34 - len, err)) != PR_OK)
				break;
			if ((st = pr_buf_addf(&line, err, " %12.6g ", mean)) !=
				PR_OK ||
			    (st = report_word(&line, m->unit, f, err)) != PR_OK)
				break;
			if (isfinite(h))
				st = add_interval(&line, h, " ", "", err);
			if (st == PR_OK)
				st = pr_buf_addf(&line, err, "  (%s is better)",
				    m->better == PR_BETTER_HIGHER ? "higher"
								  : "lower");
			if (st == PR_OK)
				st = wrap_buf(out, &line, 4, err);
		}
	}
	pr_buf_release(&line);
	return st;
}

/* [lo, hi] of rel_interval as a JSON array; an end beyond a double (a
 * half-width above 70,000% in logs) is null, not an error (review of
 * s14, finding 5: json_real refuses infinities). */
static json_t *
pct_pair(double h)
{
	json_t *a = json_array();
	double lo, hi;

	rel_interval(h, &lo, &hi);
	if (a != NULL &&
	    (json_array_append_new(a,
		 isfinite(lo) ? json_real(lo) : json_null()) != 0 ||
		json_array_append_new(a,
		    isfinite(hi) ? json_real(hi) : json_null()) != 0)) {
		json_decref(a);
		return NULL;
	}
	return a;
}

static json_t *
probes_json(const void *data, struct pr_error *err)
{
	const struct probes *d = data;
	const struct pr_suite_result *r;
	const struct pr_metric *m;
	json_t *arr = json_array(), *o, *ms, *mo;
	double mean, h;
	size_t i, k;

	if (arr == NULL)
		return nomem_json(arr, err);
	for (i = 0; i < d->n; i++) {
		r = &d->r[i];
		if ((o = json_object()) == NULL ||
		    json_array_append_new(arr, o) != 0 ||
		    jset(o, "probe", jstr(r->label)) != 0 ||
		    jset(o, "samples", json_integer((json_int_t)r->samples)) !=
			0 ||
		    jset(o, "elapsed_s", json_real(r->elapsed_s)) != 0 ||
		    jset(o, "converged", json_boolean(r->converged)) != 0 ||
		    jset(o, "capped", json_boolean(r->capped)) != 0 ||
		    jset(o, "processes",
			json_integer(
			    (json_int_t)(r->processes > 0 ? r->processes
							  : 1))) != 0 ||
		    jset(o, "notes", jstr(r->notes != NULL ? r->notes : "")) !=
			0 ||
		    jset(o, "skipped", jstr(r->skipped)) != 0 ||
		    jset(o, "timer", jstr(r->probe->timer)) != 0 ||
		    jset(o, "figure",
			json_string(r->probe->figure == PR_PROBE_FIGURE_BEST
				? "best"
				: "mean")) != 0 ||
		    jset(o, "metrics", ms = json_array()) != 0)
			return nomem_json(arr, err);
		for (k = 0; k < r->data.n; k++) {
			m = &r->data.metrics[k];
			pr_suite_result_stats(r, m, &mean, &h);
			if ((mo = json_object()) == NULL ||
			    json_array_append_new(ms, mo) != 0 ||
			    jset(mo, "name", jstr(m->name)) != 0 ||
			    jset(mo, "unit", jstr(m->unit)) != 0 ||
			    jset(mo, "better",
				json_string(m->better == PR_BETTER_HIGHER
					? "higher"
					: "lower")) != 0 ||
			    jset(mo, "mean", json_real(mean)) != 0 ||
			    jset(mo, "halfwidth_pct",
				isfinite(h) ? json_real(h) : json_null()) !=
				0 ||
			    jset(mo, "interval_pct",
				isfinite(h) ? pct_pair(h) : json_null()) != 0 ||
			    jset(mo, "n",
				json_integer((json_int_t)m->values.n)) != 0)
				return nomem_json(arr, err);
		}
	}
	return arr;
}

static const struct report_writer probes_writer = { probes_text, probes_json,
	probes_free };

enum pr_status
pr_report_suite_probes(struct pr_report_model *m, const char *key, int flags,
    const struct pr_suite_result *r, size_t n, double mono_res_ns,
    double cpu_res_ns, struct pr_error *err)
{
	struct probes *d;

	if ((d = calloc(1, sizeof(*d))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	d->r = r;
	d->n = n;
	d->mono_res_ns = mono_res_ns;
	d->cpu_res_ns = cpu_res_ns;
	return report_model_writer(m, key, flags, &probes_writer, d, err);
}

/* ---------------------------------------------------------------- *
 * Lists of figures, grouped
 * ---------------------------------------------------------------- */

/* The length of the part of a figure's name before its last dot
 * ("crypto.aes-128-gcm" of "crypto.aes-128-gcm.16B"); 0 without one. */
static size_t
group_len(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot != NULL ? (size_t)(dot - name) : 0;
}

static int
same_group(const char *a, const char *b)
{
	size_t g = group_len(a);

	return g > 0 && group_len(b) == g && strncmp(a, b, g) == 0;
}

/* A group of the summary line: one name's figures better the same way,
 * so that its changes share a sign ("pipe-digest.sha256 wall,cpu
 * +140%..+151%; pipe-digest.sha256.throughput -59%", not one range from
 * a time's rise to a throughput's fall). */
static int
same_kind(const struct pr_suite_figure *a, const struct pr_suite_figure *b)
{
	return a->better == b->better && same_group(a->name, b->name);
}

/*
 * Appends the figures i of c with pick[i] set, grouped by name and the
 * way they are better (same_kind: "crypto.aes-128-gcm 16B..16384B;
 * copy.memcpy.64B"), each group said
 * where its first figure is; with change, each group's change as one
 * figure when they agree within AGREE_PTS points, else as a range.
 */
static enum pr_status
group_list(struct pr_buf *out, const struct pr_suite_cmp *c,
    const struct pr_suite_figure *fig, const unsigned char *pick, int change,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;
	const char *name, *first, *last;
	size_t i, k, g, count;
	double lo, hi, x;
	int any = 0;

	for (i = 0; i < c->n && st == PR_OK; i++) {
		if (!pick[i])
			continue;
		name = fig[c->index[i]].name;
		g = group_len(name);
		for (k = 0; k < i; k++)
			if (pick[k] &&
			    same_kind(&fig[c->index[k]], &fig[c->index[i]]))
				break;
		if (k < i)
			continue;
		first = last = name;
		count = 0;
		lo = hi = c->cmp[i].change_pct;
		for (k = i; k < c->n; k++) {
			if (!pick[k] ||
			    (k != i &&
				!same_kind(&fig[c->index[k]],
				    &fig[c->index[i]])))
				continue;
			last = fig[c->index[k]].name;
			count++;
			x = c->cmp[k].change_pct;
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
		}
		st = pr_buf_adds(out, any ? "; " : "", err);
		any = 1;
		if (st == PR_OK && (count == 1 || g == 0))
			st = report_esc(out, name, err);
		else if (st == PR_OK &&
		    (st = pr_report_escape(out, name, g, 0, err)) == PR_OK &&
		    (st = pr_buf_addc(out, ' ', err)) == PR_OK &&
		    (st = report_esc(out, first + g + 1, err)) == PR_OK &&
		    (st = pr_buf_adds(out, count == 2 ? "," : "..", err)) ==
			PR_OK)
			st = report_esc(out, last + group_len(last) + 1, err);
		if (st != PR_OK || !change)
			continue;
		st = hi - lo < AGREE_PTS
		    ? pr_buf_addf(out, err, " %+.0f%%", (lo + hi) / 2)
		    : pr_buf_addf(out, err, " %+.0f%%..%+.0f%%", lo, hi);
	}
	return st;
}

enum pr_status
pr_report_suite_summary(struct pr_buf *out, const struct pr_suite_cmp *c,
    const struct pr_suite_figure *fig, struct pr_error *err)
{
	struct pr_suite_counts n;
	unsigned char *pick;
	enum pr_status st;
	size_t i;

	pr_suite_count(c, &n);
	if ((pick = calloc(c->n + 1, 1)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	st = pr_buf_addf(out, err, "%zu figure%s: %zu regression%s", n.figures,
	    n.figures == 1 ? "" : "s", n.regressions,
	    n.regressions == 1 ? "" : "s");
	for (i = 0; i < c->n; i++)
		pick[i] = c->cmp[i].verdict == PR_VERDICT_REGRESSION;
	if (st == PR_OK && n.regressions > 0 &&
	    (st = pr_buf_adds(out, " (", err)) == PR_OK &&
	    (st = group_list(out, c, fig, pick, 1, err)) == PR_OK)
		st = pr_buf_addc(out, ')', err);
	if (st == PR_OK)
		st = pr_buf_addf(out, err, ", %zu improvement%s",
		    n.improvements, n.improvements == 1 ? "" : "s");
	for (i = 0; i < c->n; i++)
		pick[i] = c->cmp[i].verdict == PR_VERDICT_IMPROVEMENT;
	if (st == PR_OK && n.improvements > 0 &&
	    (st = pr_buf_adds(out, " (", err)) == PR_OK &&
	    (st = group_list(out, c, fig, pick, 1, err)) == PR_OK)
		st = pr_buf_addc(out, ')', err);
	if (st == PR_OK)
		st = pr_buf_addf(out, err,
		    ", %zu unchanged (within %g%%), %zu inconclusive",
		    n.unchanged, c->n > 0 ? c->cmp[0].equivalence_pct : 1.0,
		    n.inconclusive);
	if (st == PR_OK && c->starved)
		st = pr_buf_addf(out, err,
		    ": not called, the new session was starved of CPU (pace "
		    "%.3g wall s a CPU s, above %.3g)",
		    c->pace, c->pace_limit);
	free(pick);
	return st;
}

/* ---------------------------------------------------------------- *
 * The comparison
 * ---------------------------------------------------------------- */

struct cmp_data {
	const struct pr_suite_cmp *c;
	const struct pr_suite_figure *fig;
	struct pr_report_metric *rm; /* [c->n], for the comparison section */
	struct pr_report rep;
	char *base_name, *new_name, *unit, *intro, *values;
	int all;
	size_t family;      /* figures adjusted together */
	const char *padj;   /* "p BH", "p Holm" or "p" */
	const char *adjust; /* its name in words, or NULL */
};

static void
cmp_free(void *data)
{
	struct cmp_data *d = data;

	if (d == NULL)
		return;
	free(d->rm);
	free(d->base_name);
	free(d->new_name);
	free(d->unit);
	free(d->intro);
	free(d->values);
	free(d);
}

/* The geometric mean of v[0..n) (session means are positive); the
 * arithmetic mean when one is not. */
static double
gmean(const double *v, size_t n)
{
	double s = 0, a = 0;
	size_t i;
	int pos = n > 0;

	for (i = 0; i < n; i++) {
		a += (v[i] - a) / (double)(i + 1);
		if (v[i] > 0)
			s += log(v[i]);
		else
			pos = 0;
	}
	return pos ? exp(s / (double)n) : a;
}

static void
fmt_val(char *b, size_t size, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(b, size, "-");
	else if (a >= 1e4 && a < 1e10)
		snprintf(b, size, "%.0f", v);
	else
		snprintf(b, size, "%.4g", v);
}

static void
fmt_pct(char *b, size_t size, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(b, size, "-");
	else if (a < 100)
		snprintf(b, size, "%+.1f%%", v);
	else if (a < 1e6)
		snprintf(b, size, "%+.0f%%", v);
	else
		snprintf(b, size, "%+.2g%%", v);
}

static void
fmt_p(char *b, size_t size, const struct pr_comparison *c)
{
	if (!c->tested)
		snprintf(b, size, "-");
	else if (c->p_adjusted < 1e-4)
		snprintf(b, size, "<0.0001");
	else
		snprintf(b, size, "%.2g", c->p_adjusted);
}

/* One row's cells, formatted. */
struct row {
	char base[32], new_[32], change[32], ci[80], p[16];
	const char *verdict;
};

static void
make_row(const struct cmp_data *d, size_t i, struct row *r)
{
	const struct pr_suite_cmp *c = d->c;
	const struct pr_comparison *x = &c->cmp[i];
	const double *v = &c->values[i * c->base_stride];
	char lo[32], hi[32];

	fmt_val(r->base, sizeof(r->base), gmean(v, c->kb[i]));
	fmt_val(r->new_, sizeof(r->new_), gmean(v + c->nb, c->kn[i]));
	if (x->have_change)
		fmt_pct(r->change, sizeof(r->change), x->change_pct);
	else
		snprintf(r->change, sizeof(r->change), "-");
	if (x->have_ci) {
		fmt_pct(lo, sizeof(lo), x->ci_lo_pct);
		fmt_pct(hi, sizeof(hi), x->ci_hi_pct);
		snprintf(r->ci, sizeof(r->ci), "[%s, %s]", lo, hi);
	} else {
		snprintf(r->ci, sizeof(r->ci), "-");
	}
	fmt_p(r->p, sizeof(r->p), x);
	r->verdict = pr_verdict_str(x->verdict);
}

static int
shown(const struct cmp_data *d, size_t i)
{
	return d->all || pr_suite_changed(d->c, i);
}

/* The unit of figure i escaped and cut to UNIT_MAX bytes, into b. */
static enum pr_status
unit_cell(struct pr_buf *b, const char *unit, struct pr_error *err)
{
	enum pr_status st;

	pr_buf_reset(b);
	if ((st = report_esc(b, unit != NULL ? unit : "", err)) != PR_OK)
		return st;
	if (b->len > UNIT_MAX) {
		b->len = UNIT_MAX - 1;
		st = pr_buf_addc(b, '~', err);
	}
	return st == PR_OK ? pr_buf_addc(b, '\0', err) : st;
}

/* The width of the cells of the shown rows: base, new, unit, change,
 * interval, p, verdict. */
enum { C_BASE, C_NEW, C_UNIT, C_CHANGE, C_CI, C_P, C_VERDICT, C_N };

static const char *const heads[C_N] = { "base", "new", "unit", "change",
	"95% interval", NULL, "verdict" };

static enum pr_status
table_text(struct pr_buf *out, const struct cmp_data *d, struct pr_error *err)
{
	const struct pr_suite_cmp *c = d->c;
	struct pr_buf ub = PR_BUF_INIT(1 << 16), lb = PR_BUF_INIT(1 << 20);
	enum pr_status st = PR_OK;
	size_t w[C_N], wl = strlen("figure"), rest, i, k, g, len;
	const char *cells[C_N], *name, *prev = NULL;
	struct row r;

	for (k = 0; k < C_N; k++)
		w[k] = strlen(k == C_P ? d->padj : heads[k]);
	for (i = 0; i < c->n && st == PR_OK; i++) {
		if (!shown(d, i))
			continue;
		make_row(d, i, &r);
		name = d->fig[c->index[i]].name;
		if ((st = unit_cell(&ub, d->fig[c->index[i]].unit, err)) !=
		    PR_OK)
			break;
		cells[C_BASE] = r.base;
		cells[C_NEW] = r.new_;
		cells[C_UNIT] = ub.data;
		cells[C_CHANGE] = r.change;
		cells[C_CI] = r.ci;
		cells[C_P] = r.p;
		cells[C_VERDICT] = r.verdict;
		for (k = 0; k < C_N; k++)
			if (strlen(cells[k]) > w[k])
				w[k] = strlen(cells[k]);
		/* The row's name: the part after the group, indented. */
		pr_buf_reset(&lb);
		g = group_len(name);
		if ((st = report_esc(&lb, g > 0 ? name + g + 1 : name, err)) !=
		    PR_OK)
			break;
		len = lb.len + (g > 0 ? 2 : 0);
		if (len > wl)
			wl = len;
	}
	/* Two spaces after the name, then the columns and theirs. */
	rest = 1;
	for (k = 0; k < C_N; k++)
		rest += w[k] +
		    (k == C_BASE || k == C_NEW || k == C_UNIT || k == C_CHANGE
			    ? 1
			    : 2);
	if (wl + rest > WIDTH)
		wl = rest + 8 < WIDTH ? WIDTH - rest : 8;
	/* The header. */
	if (st == PR_OK && (st = pr_buf_adds(out, "figure", err)) == PR_OK)
		st = spaces(out, wl - strlen("figure"), err);
	for (k = 0; k < C_N && st == PR_OK; k++) {
		const char *h = k == C_P ? d->padj : heads[k];
		size_t sep = k == C_NEW || k == C_UNIT || k == C_CHANGE ? 1 : 2;
		int right =
		    k == C_BASE || k == C_NEW || k == C_CHANGE || k == C_P;

		if (k == C_VERDICT) {
			st = pr_buf_addf(out, err, "%*s%s", (int)sep, "", h);
			break;
		}
		st = right ? pr_buf_addf(out, err, "%*s%*s", (int)sep, "",
				 (int)w[k], h)
			   : pr_buf_addf(out, err, "%*s%-*s", (int)sep, "",
				 (int)w[k], h);
	}
	if (st == PR_OK)
		st = pr_buf_addc(out, '\n', err);
	for (i = 0; i < c->n && st == PR_OK; i++) {
		if (!shown(d, i))
			continue;
		make_row(d, i, &r);
		name = d->fig[c->index[i]].name;
		g = group_len(name);
		/* A group's heading when the group changes. */
		if (g > 0 && (prev == NULL || !same_group(prev, name))) {
			pr_buf_reset(&lb);
			if ((st = pr_report_escape(&lb, name, g, 0, err)) !=
				PR_OK ||
			    (st = wrap_buf(out, &lb, 0, err)) != PR_OK)
				break;
		}
		prev = name;
		pr_buf_reset(&lb);
		if ((st = spaces(&lb, g > 0 ? 2 : 0, err)) != PR_OK ||
		    (st = report_esc(&lb, g > 0 ? name + g + 1 : name, err)) !=
			PR_OK)
			break;
		if (lb.len > wl) {
			/* Too long for its column: a line of its own. */
			if ((st = wrap_buf(out, &lb, 4, err)) != PR_OK)
				break;
			st = spaces(out, wl, err);
		} else if ((st = pr_buf_add(out, lb.data, lb.len, err)) ==
		    PR_OK) {
			st = spaces(out, wl - lb.len, err);
		}
		if (st != PR_OK ||
		    (st = unit_cell(&ub, d->fig[c->index[i]].unit, err)) !=
			PR_OK)
			break;
		st =
		    pr_buf_addf(out, err, "  %*s %*s %-*s %*s  %-*s  %*s  %s\n",
			(int)w[C_BASE], r.base, (int)w[C_NEW], r.new_,
			(int)w[C_UNIT], ub.data, (int)w[C_CHANGE], r.change,
			(int)w[C_CI], r.ci, (int)w[C_P], r.p, r.verdict);
	}
	pr_buf_release(&ub);
	pr_buf_release(&lb);
	return st;
}

static enum pr_status
table_md(struct pr_buf *out, const struct cmp_data *d, struct pr_error *err)
{
	const struct pr_suite_cmp *c = d->c;
	enum pr_status st;
	struct row r;
	size_t i;

	st = pr_buf_addf(out, err,
	    "| figure | base | new | unit | change | 95%% interval | %s | "
	    "verdict | n |\n|---|---:|---:|---|---:|---|---:|---|---:|\n",
	    d->padj);
	for (i = 0; i < c->n && st == PR_OK; i++) {
		if (!shown(d, i))
			continue;
		make_row(d, i, &r);
		if ((st = pr_buf_adds(out, "| ", err)) != PR_OK ||
		    (st = report_md(out, d->fig[c->index[i]].name, err)) !=
			PR_OK ||
		    (st = pr_buf_addf(out, err, " | %s | %s | ", r.base,
			 r.new_)) != PR_OK ||
		    (st = report_md(out,
			 d->fig[c->index[i]].unit != NULL
			     ? d->fig[c->index[i]].unit
			     : "",
			 err)) != PR_OK)
			break;
		st = pr_buf_addf(out, err, " | %s | %s | %s | %s | %zu+%zu |\n",
		    r.change, r.ci, r.p, r.verdict, c->kb[i], c->kn[i]);
	}
	return st;
}

/* 1 when the figures were decided against the bound. */
static int
bound_method(const struct cmp_data *d)
{
	size_t i;

	for (i = 0; i < d->c->n; i++)
		if (d->c->cmp[i].tested)
			return d->c->cmp[i].method == PR_METHOD_SESSION_BOUND;
	return 0;
}

/* A note on the figures i with pick[i], said once: "lead: list" (or "lead:
 * all N figures"), as one paragraph. */
static enum pr_status
note(struct pr_buf *out, const struct cmp_data *d, const unsigned char *pick,
    enum pr_report_format f, const char *lead, struct pr_error *err)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	enum pr_status st;
	size_t i, k = 0;

	for (i = 0; i < d->c->n; i++)
		k += pick[i] != 0;
	if (k == 0)
		return PR_OK;
	st = pr_buf_addf(&b, err,
	    "%snote: %s: ", f == PR_REPORT_MARKDOWN ? "- " : "", lead);
	if (st == PR_OK && k == d->c->n && k > 1)
		st = pr_buf_addf(&b, err, "all %zu figures", k);
	else if (st == PR_OK)
		st = group_list(&b, d->c, d->fig, pick, 0, err);
	if (st == PR_OK)
		st = f == PR_REPORT_MARKDOWN
		    ? pr_buf_add(out, b.data, b.len, err) == PR_OK
			? pr_buf_addc(out, '\n', err)
			: PR_ENOMEM
		    : wrap_buf(out, &b, 2, err);
	pr_buf_release(&b);
	return st;
}

/* The pace rule's note (pr_suite_cmp_pace): every figure, the paces. */
static enum pr_status
starved_note(struct pr_buf *out, const struct cmp_data *d,
    enum pr_report_format f, struct pr_error *err)
{
	struct pr_buf lead = PR_BUF_INIT(4096);
	unsigned char *pick;
	enum pr_status st;
	const struct pr_suite_cmp *c = d->c;

	if ((pick = calloc(c->n + 1, 1)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	memset(pick, 1, c->n);
	if (c->base_pace > 0 && c->pace_limit < PR_SUITE_PACE_LEVEL)
		st = pr_buf_addf(&lead, err,
		    "the new session was starved of CPU, its figures not "
		    "called: its probes' pace was %.3g wall s a CPU s, above "
		    "%g times the largest of its base sessions' (%.3g)",
		    c->pace, PR_SUITE_PACE_FACTOR, c->base_pace);
	else if (c->base_pace > 0)
		st = pr_buf_addf(&lead, err,
		    "the new session was starved of CPU, its figures not "
		    "called: its probes' pace was %.3g wall s a CPU s, above "
		    "%g, the most a session's may be to be called, whatever "
		    "its base sessions' (the largest %.3g)",
		    c->pace, PR_SUITE_PACE_LEVEL, c->base_pace);
	else
		st = pr_buf_addf(&lead, err,
		    "the new session was starved of CPU, its figures not "
		    "called: its probes' pace was %.3g wall s a CPU s, above "
		    "%g (its base sessions have no pace stored)",
		    c->pace, PR_SUITE_PACE_LEVEL);
	if (st == PR_OK && (st = pr_buf_addc(&lead, '\0', err)) == PR_OK)
		st = note(out, d, pick, f, lead.data, err);
	if (st == PR_OK && f != PR_REPORT_MARKDOWN)
		st = pr_buf_addc(out, '\n', err);
	free(pick);
	pr_buf_release(&lead);
	return st;
}

/* The figures whose call a rule withheld: WITHHELD_GATE, not gated
 * (pr_suite_cmp_gate); WITHHELD_APART, not carried by the new session's
 * processes (PR_SUITE_VALUE_CARRIED, pr_suite_carried). */
enum withheld { WITHHELD_GATE, WITHHELD_APART };

/* 1 when figure i of c is in set w (a figure not gated is, whatever its
 * test gave); *would the verdict its test gave (inconclusive: none). */
static int
withheld(const struct pr_suite_cmp *c, enum withheld w, size_t i,
    enum pr_verdict *would)
{
	*would = PR_VERDICT_INCONCLUSIVE;
	if (w == WITHHELD_GATE) {
		if (c->ungated == NULL || c->ungated[i] == 0)
			return 0;
		if (c->ungated[i] == 2)
			*would = c->would[i];
		return 1;
	}
	if (c->apart == NULL || c->apart[i] == PR_VERDICT_INCONCLUSIVE)
		return 0;
	*would = c->apart[i];
	return 1;
}

/* The figures of set w whose test would have called them, said once. */
static enum pr_status
withheld_note(struct pr_buf *out, const struct cmp_data *d,
    enum pr_report_format f, enum withheld w, struct pr_error *err)
{
	const struct pr_suite_cmp *c = d->c;
	enum pr_verdict would;
	unsigned char *pick;
	enum pr_status st;
	size_t i, k = 0;

	if ((pick = calloc(c->n + 1, 1)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < c->n; i++) {
		pick[i] = withheld(c, w, i, &would) &&
		    would != PR_VERDICT_INCONCLUSIVE;
		k += pick[i];
	}
	st = k == 0
	    ? PR_OK
	    : note(out, d, pick, f,
		  w == WITHHELD_GATE
		      ? "not called, as these figures are not gated (a "
			"busy-polling hand-off measures whether the "
			"scheduler ran both threads at once, not the "
			"code's cost; perfreg(1), suite)"
		      : "not called, as the new session's processes do "
			"not carry the change: their values, taken "
			"together, do not differ from the base's (a "
			"one-sample t at p >= 0.05): they disagree, and "
			"some apart from the others moved the session's "
			"mean (perfreg(1), STATISTICAL METHODS)",
		  err);
	free(pick);
	return st;
}

/* The notes, each said once with the figures it applies to. */
static enum pr_status
notes(struct pr_buf *out, const struct cmp_data *d, enum pr_report_format f,
    struct pr_error *err)
{
	const struct pr_suite_cmp *c = d->c;
	struct pr_buf lead = PR_BUF_INIT(4096);
	enum pr_status st = PR_OK;
	unsigned char *pick;
	size_t i, k;

	if ((pick = calloc(c->n + 1, 1)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (k = 0; k < 6 && st == PR_OK; k++) {
		pr_buf_reset(&lead);
		for (i = 0; i < c->n; i++) {
			unsigned nb = c->cmp[i].notes;

			switch (k) {
			case 0:
				pick[i] = (nb & PR_NOTE_ONE_SESSION) != 0;
				break;
			case 1:
				pick[i] = (nb & PR_NOTE_NOT_POSITIVE) != 0;
				break;
			case 2:
				pick[i] = (nb & PR_NOTE_PRIOR) != 0;
				break;
			case 3:
				pick[i] = (nb & PR_NOTE_NEGLIGIBLE) != 0;
				break;
			case 4:
				pick[i] = !c->cmp[i].tested &&
				    !(nb &
					(PR_NOTE_NOT_POSITIVE |
					    PR_NOTE_ONE_SESSION));
				break;
			default:
				pick[i] =
				    c->kb[i] != c->nb || c->kn[i] != c->nn;
				break;
			}
		}
		switch (k) {
		case 0:
			st = bound_method(d)
			    ? pr_buf_addf(&lead, err,
				  "the between-%s noise cannot be estimated "
				  "(one %s a side, or too few figures to "
				  "learn it from): a figure is called only "
				  "beyond a bound, %g times the noise its "
				  "samples show",
				  d->unit, d->unit, PR_MODERATED_ONE_RATIO)
			    : pr_buf_addf(&lead, err,
				  "one %s a side: the between-%s noise of "
				  "these figures comes from the others alone",
				  d->unit, d->unit);
			break;
		case 1:
			st = pr_buf_addf(&lead, err,
			    "a %s mean is 0 or below, so no ratio, not tested",
			    d->unit);
			break;
		case 2:
			st = pr_buf_addf(&lead, err,
			    "the between-%s variance comes from this host's "
			    "history",
			    d->unit);
			break;
		case 3:
			st = pr_buf_adds(&lead,
			    "significant, but the whole interval lies within "
			    "the band: negligible",
			    err);
			break;
		case 4:
			st = pr_buf_adds(&lead,
			    "not tested (no spread to test against)", err);
			break;
		default:
			st = pr_buf_addf(&lead, err,
			    "measured in fewer %ss than the others (n in "
			    "--json)",
			    d->unit);
			break;
		}
		if (st == PR_OK &&
		    (st = pr_buf_addc(&lead, '\0', err)) == PR_OK)
			st = note(out, d, pick, f, lead.data, err);
	}
	free(pick);
	pr_buf_release(&lead);
	return st;
}

/* The method, in words. */
static enum pr_status
method(struct pr_buf *out, const struct cmp_data *d, enum pr_report_format f,
    struct pr_error *err)
{
	struct pr_buf b = PR_BUF_INIT(1 << 16);
	enum pr_method mth = PR_METHOD_NONE;
	enum pr_status st;
	size_t i;

	for (i = 0; i < d->c->n && mth == PR_METHOD_NONE; i++)
		if (d->c->cmp[i].tested)
			mth = d->c->cmp[i].method;
	if (mth == PR_METHOD_SESSION_BOUND)
		st = pr_buf_addf(&b, err,
		    "method: the between-%s noise cannot be estimated (one %s "
		    "a side, or too few figures to learn it from): each "
		    "figure's log ratio against a bound, %g times the noise "
		    "of its samples",
		    d->unit, d->unit, PR_MODERATED_ONE_RATIO);
	else if (mth == PR_METHOD_WELCH)
		st = pr_buf_addf(&b, err,
		    "method: Welch's t on each figure's log %s (too few "
		    "figures to borrow the between-%s variance from)",
		    d->values, d->unit);
	else if (mth == PR_METHOD_MODERATED)
		st = pr_buf_addf(&b, err,
		    "method: the moderated t of Smyth (2004), as limma "
		    "computes it, on the log %s: each figure's "
		    "between-%s variance is borrowed from all figures",
		    d->values, d->unit);
	else
		st = pr_buf_adds(&b, "method: no figure could be tested", err);
	if (st == PR_OK && mth != PR_METHOD_NONE)
		st = pr_buf_addf(&b, err,
		    "; the change is a ratio of geometric means, its %g%% "
		    "interval never below -100%%",
		    d->c->n > 0 ? 100 * d->c->cmp[0].conf : 95.0);
	if (st == PR_OK && mth != PR_METHOD_NONE && d->adjust != NULL)
		st = pr_buf_addf(&b, err, "; p adjusted by %s over %zu figures",
		    d->adjust, d->family);
	if (st == PR_OK && mth != PR_METHOD_NONE)
		st = pr_buf_addf(&b, err,
		    "; unchanged: the whole interval within %g%%",
		    d->c->n > 0 ? d->c->cmp[0].equivalence_pct : 1.0);
	if (st == PR_OK)
		st = f == PR_REPORT_MARKDOWN
		    ? pr_buf_add(out, b.data, b.len, err) == PR_OK
			? pr_buf_addc(out, '\n', err)
			: PR_ENOMEM
		    : wrap_buf(out, &b, 0, err);
	pr_buf_release(&b);
	return st;
}

static enum pr_status
summary_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct cmp_data *d = data;
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	enum pr_status st;

	if ((st = pr_report_suite_summary(&b, d->c, d->fig, err)) == PR_OK)
		st = f == PR_REPORT_MARKDOWN
		    ? pr_buf_addf(out, err, "**%.*s**\n\n", (int)b.len, b.data)
		    : wrap_buf(out, &b, 2, err);
	/* An empty line after it: it stands alone. */
	if (st == PR_OK && f != PR_REPORT_MARKDOWN)
		st = pr_buf_addc(out, '\n', err);
	pr_buf_release(&b);
	return st;
}

/* The figures of set w: [{"name", "would_be"}], would_be the verdict
 * their test gave before the rule (null: none made). */
static json_t *
withheld_json(const struct cmp_data *d, enum withheld w)
{
	const struct pr_suite_cmp *c = d->c;
	json_t *a = json_array(), *o;
	enum pr_verdict would;
	size_t i;

	for (i = 0; a != NULL && i < c->n; i++) {
		if (!withheld(c, w, i, &would))
			continue;
		o = json_object();
		if (o == NULL ||
		    jset(o, "name", jstr(d->fig[c->index[i]].name)) != 0 ||
		    jset(o, "would_be",
			would == PR_VERDICT_INCONCLUSIVE
			    ? json_null()
			    : jstr(would == PR_VERDICT_REGRESSION
				      ? "regression"
				      : "improvement")) != 0) {
			json_decref(o);
			json_decref(a);
			return NULL;
		}
		/* The array takes o, even when it fails. */
		if (json_array_append_new(a, o) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
summary_json(const void *data, struct pr_error *err)
{
	const struct cmp_data *d = data;
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	struct pr_suite_counts n;
	json_t *o;

	pr_suite_count(d->c, &n);
	if (pr_report_suite_summary(&b, d->c, d->fig, err) != PR_OK ||
	    pr_buf_addc(&b, '\0', err) != PR_OK) {
		pr_buf_release(&b);
		return NULL;
	}
	o = json_object();
	if (o == NULL ||
	    jset(o, "figures", json_integer((json_int_t)n.figures)) != 0 ||
	    jset(o, "regressions", json_integer((json_int_t)n.regressions)) !=
		0 ||
	    jset(o, "improvements", json_integer((json_int_t)n.improvements)) !=
		0 ||
	    jset(o, "unchanged", json_integer((json_int_t)n.unchanged)) != 0 ||
	    jset(o, "inconclusive", json_integer((json_int_t)n.inconclusive)) !=
		0 ||
	    jset(o, "starved", json_boolean(d->c->starved)) != 0 ||
	    jset(o, "line", jstr(b.data)) != 0 ||
	    jset(o, "not_gated", withheld_json(d, WITHHELD_GATE)) != 0 ||
	    jset(o, "not_carried", withheld_json(d, WITHHELD_APART)) != 0) {
		pr_buf_release(&b);
		return nomem_json(o, err);
	}
	pr_buf_release(&b);
	return o;
}

static const struct report_writer summary_writer = { summary_text, summary_json,
	cmp_free };

static enum pr_status
detail_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct cmp_data *d = data;
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	enum pr_status st = PR_OK;
	size_t i, k = 0;

	for (i = 0; i < d->c->n; i++)
		k += shown(d, i) != 0;
	if (d->intro != NULL) {
		if ((st = report_word(&b, d->intro, f, err)) == PR_OK)
			st = f == PR_REPORT_MARKDOWN
			    ? pr_buf_addf(out, err, "%.*s\n\n", (int)b.len,
				  b.data)
			    : wrap_buf(out, &b, 0, err);
		pr_buf_reset(&b);
	}
	if (st == PR_OK && d->c->starved)
		st = starved_note(out, d, f, err);
	if (st == PR_OK)
		st = withheld_note(out, d, f, WITHHELD_GATE, err);
	if (st == PR_OK)
		st = withheld_note(out, d, f, WITHHELD_APART, err);
	if (st == PR_OK && k == 0) {
		st = pr_buf_adds(out,
		    f == PR_REPORT_MARKDOWN ? "\n(--all shows every figure)\n"
					    : "(--all prints every figure)\n",
		    err);
		goto out;
	}
	if (st == PR_OK)
		st = pr_buf_addf(&b, err, "%s (%s): base is ",
		    d->all ? "every figure" : "the figures that changed",
		    d->all ? "without --all only those that changed"
			   : "--all prints every one");
	if (st == PR_OK &&
	    (st = report_word(&b, d->base_name, f, err)) == PR_OK &&
	    (st = pr_buf_adds(&b, ", new is ", err)) == PR_OK &&
	    (st = report_word(&b, d->new_name, f, err)) == PR_OK)
		st = pr_buf_addf(&b, err,
		    "; base and new are the geometric means of each side's %s; "
		    "change is new against base, with its %g%% interval",
		    d->values, 100 * d->c->cmp[0].conf);
	if (st == PR_OK && d->adjust != NULL)
		st = pr_buf_addf(&b, err, "; %s is the p after %s", d->padj,
		    d->adjust);
	if (st == PR_OK) {
		if (f == PR_REPORT_MARKDOWN) {
			if ((st = pr_buf_add(out, b.data, b.len, err)) == PR_OK)
				st = pr_buf_adds(out, "\n\n", err);
		} else {
			if ((st = pr_buf_addc(out, '\n', err)) == PR_OK)
				st = wrap_buf(out, &b, 0, err);
			if (st == PR_OK)
				st = pr_buf_addc(out, '\n', err);
		}
	}
	if (st == PR_OK)
		st = f == PR_REPORT_MARKDOWN ? table_md(out, d, err)
					     : table_text(out, d, err);
	if (st == PR_OK)
		st = pr_buf_addc(out, '\n', err);
	if (st == PR_OK)
		st = notes(out, d, f, err);
	if (st == PR_OK)
		st = method(out, d, f, err);
out:
	pr_buf_release(&b);
	return st;
}

static const struct report_writer detail_writer = { detail_text, NULL, NULL };

enum pr_status
pr_report_suite_compare(struct pr_report_model *m,
    const struct pr_report_suite_cmp *c, struct pr_error *err)
{
	const struct pr_suite_cmp *sc = c->cmp;
	struct cmp_data *d;
	enum pr_status st;
	size_t i, vl = strlen(c->values != NULL ? c->values : c->unit) + 7;
	const double *v;

	if ((d = calloc(1, sizeof(*d))) == NULL ||
	    (d->rm = calloc(sc->n + 1, sizeof(*d->rm))) == NULL ||
	    (d->base_name = strdup(c->base_name)) == NULL ||
	    (d->new_name = strdup(c->new_name)) == NULL ||
	    (d->unit = strdup(c->unit)) == NULL ||
	    (d->values = malloc(vl)) == NULL ||
	    (c->intro != NULL && (d->intro = strdup(c->intro)) == NULL)) {
		cmp_free(d);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	snprintf(d->values, vl, c->values != NULL ? "%s" : "%s means",
	    c->values != NULL ? c->values : c->unit);
	d->c = sc;
	d->fig = c->fig;
	d->all = c->all;
	d->padj = "p";
	for (i = 0; i < sc->n; i++) {
		v = &sc->values[i * sc->base_stride];
		d->rm[i].name = c->fig[sc->index[i]].name;
		d->rm[i].unit = c->fig[sc->index[i]].unit;
		d->rm[i].base_values = v;
		d->rm[i].base_n = sc->kb[i];
		d->rm[i].new_values = v + sc->nb;
		d->rm[i].new_n = sc->kn[i];
		d->rm[i].cmp = sc->cmp[i];
		if (!sc->cmp[i].tested || sc->cmp[i].holm_m <= 1)
			continue;
		if ((size_t)sc->cmp[i].holm_m > d->family)
			d->family = (size_t)sc->cmp[i].holm_m;
		if (sc->cmp[i].notes & PR_NOTE_BH) {
			d->padj = "p BH";
			d->adjust = "Benjamini-Hochberg";
		} else if (sc->cmp[i].notes & PR_NOTE_HOLM) {
			d->padj = "p Holm";
			d->adjust = "Holm";
		}
	}
	d->rep.base_source = d->base_name;
	d->rep.new_source = d->new_name;
	d->rep.conf = sc->n > 0 ? sc->cmp[0].conf : 0.95;
	d->rep.equivalence_pct = sc->n > 0 ? sc->cmp[0].equivalence_pct : 1;
	d->rep.holm_m = d->family;
	d->rep.side_bh = d->adjust != NULL && strcmp(d->padj, "p BH") == 0;
	d->rep.metrics = d->rm;
	d->rep.n = sc->n;
	d->rep.units =
	    strcmp(c->unit, "process") == 0 ? "processes" : "sessions";
	/* The summary section owns d (freed with the model, or by
	 * report_model_writer when it cannot be added); the others borrow
	 * it.  When a later one cannot be added, the model keeps what was
	 * added before, which stands on its own. */
	if ((st = report_model_writer(m, "summary", 0, &summary_writer, d,
		 err)) != PR_OK)
		return st;
	if ((st = report_model_writer(m, NULL, PR_SECTION_NO_CSV,
		 &detail_writer, d, err)) != PR_OK)
		return st;
	if (sc->n > 0 &&
	    (st = pr_report_model_comparison(m,
		 c->json_inline ? NULL : "comparison",
		 PR_SECTION_NO_TEXT | (c->json_inline ? PR_SECTION_INLINE : 0),
		 &d->rep, err)) != PR_OK)
		return st;
	return PR_OK;
}

/* ---------------------------------------------------------------- *
 * HTML forms (perfreg/report_html.h renders the rest of the page)
 * ---------------------------------------------------------------- */

/* s from outside, HTML-escaped. */
static enum pr_status
hesc(struct pr_buf *out, const char *s, struct pr_error *err)
{
	return pr_report_html_escape(out, s != NULL ? s : "",
	    s != NULL ? strlen(s) : 0, 0, err);
}

/* The len bytes of s as a paragraph of class cls, its lines broken
 * with <br>. */
static enum pr_status
hpara(struct pr_buf *out, const char *cls, const char *s, size_t len,
    struct pr_error *err)
{
	enum pr_status st;
	const char *p = s, *end = s + len, *nl;

	if ((st = pr_buf_addf(out, err, "<p class=\"%s\">", cls)) != PR_OK)
		return st;
	for (; st == PR_OK && p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (p != s && (st = pr_buf_adds(out, "<br>", err)) != PR_OK)
			break;
		st = pr_report_html_escape(out, p, (size_t)(nl - p), 0, err);
		if (nl == end)
			break;
	}
	return st == PR_OK ? pr_buf_adds(out, "</p>\n", err) : st;
}

static enum pr_status
para_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct para *d = data;

	if (d->text[0] == '\0')
		return PR_OK;
	return hpara(out, "text", d->text, strlen(d->text), err);
}

static enum pr_status
probes_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct probes *d = data;
	const struct pr_suite_result *r;
	const struct pr_metric *m;
	enum pr_status st;
	const char *note;
	double mean, h;
	size_t i, k, len;

	st = pr_buf_addf(out, err,
	    "<section class=\"probes\"><h2>each probe's figures</h2>"
	    "<p class=\"text\">the mean of each figure's process values "
	    "(each process its mean, or its best sample where the probe "
	    "says so), then its 95%% interval in percent of it (on the log "
	    "scale, as the verdicts are); timers: each probe names its own; "
	    "resolution of CLOCK_MONOTONIC %.0f ns, CLOCK_THREAD_CPUTIME_ID "
	    "%.0f ns</p>\n",
	    d->mono_res_ns, d->cpu_res_ns);
	for (i = 0; i < d->n && st == PR_OK; i++) {
		r = &d->r[i];
		if ((st = pr_buf_adds(out, "<h3>", err)) != PR_OK ||
		    (st = hesc(out, r->label, err)) != PR_OK ||
		    (st = pr_buf_adds(out, "</h3>\n<p class=\"text\">", err)) !=
			PR_OK)
			break;
		if (r->skipped != NULL) {
			if ((st = pr_buf_adds(out, "not run here: ", err)) ==
				PR_OK &&
			    (st = hesc(out, r->skipped, err)) == PR_OK)
				st = pr_buf_adds(out, "</p>\n", err);
			continue;
		}
		if ((st = pr_buf_addf(out, err,
			 "%zu samples in %.1f s, %s (timer ", r->samples,
			 r->elapsed_s, stopped_why(r))) != PR_OK ||
		    (st = hesc(out, r->probe->timer, err)) != PR_OK ||
		    (st = pr_buf_adds(out, ")</p>\n<ul class=\"notes\">",
			 err)) != PR_OK)
			break;
		for (note = r->notes;
		     st == PR_OK && note != NULL && *note != '\0';
		     note += len + (note[len] == '\n')) {
			len = strcspn(note, "\n");
			if ((st = pr_buf_adds(out, "<li>", err)) == PR_OK &&
			    (st = pr_report_html_escape(out, note, len, 0,
				 err)) == PR_OK)
				st = pr_buf_adds(out, "</li>", err);
		}
		if (st == PR_OK)
			st = pr_buf_adds(out,
			    "</ul>\n<table class=\"numbers\"><thead><tr>"
			    "<th>figure</th><th>mean</th><th>unit</th>"
			    "<th>95% "
			    "interval</th><th>better</th><th>n</th></tr>"
			    "</thead><tbody>",
			    err);
		for (k = 0; k < r->data.n && st == PR_OK; k++) {
			m = &r->data.metrics[k];
			pr_suite_result_stats(r, m, &mean, &h);
			if ((st = pr_buf_adds(out, "<tr><td>", err)) != PR_OK ||
			    (st = hesc(out, m->name, err)) != PR_OK ||
			    (st = pr_buf_addf(out, err,
				 "</td><td class=\"n\">%.6g</td><td>", mean)) !=
				PR_OK ||
			    (st = hesc(out, m->unit, err)) != PR_OK)
				break;
			st = isfinite(h)
			    ? add_interval(out, h, "</td><td class=\"n\">",
				  "</td>", err)
			    : pr_buf_adds(out, "</td><td class=\"n\">-</td>",
				  err);
			if (st == PR_OK)
				st = pr_buf_addf(out, err,
				    "<td>%s</td><td class=\"n\">%zu</td></tr>",
				    m->better == PR_BETTER_HIGHER ? "higher"
								  : "lower",
				    m->values.n);
		}
		if (st == PR_OK)
			st = pr_buf_adds(out, "</tbody></table>\n", err);
	}
	return st == PR_OK ? pr_buf_adds(out, "</section>\n", err) : st;
}

static enum pr_status
summary_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct cmp_data *d = data;
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	enum pr_status st;

	if ((st = pr_report_suite_summary(&b, d->c, d->fig, err)) == PR_OK &&
	    (st = pr_buf_adds(out, "<p class=\"headline\"><b>", err)) ==
		PR_OK &&
	    (st = pr_report_html_escape(out, b.data != NULL ? b.data : "",
		 b.len, 0, err)) == PR_OK)
		st = pr_buf_adds(out, "</b></p>\n", err);
	pr_buf_release(&b);
	return st;
}

/* The intro, the changed figures (every one with all) as a table, the
 * notes and the method; the comparison section after it has every
 * figure's panel. */
static enum pr_status
detail_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct cmp_data *d = data;
	const struct pr_suite_cmp *c = d->c;
	struct pr_buf t = PR_BUF_INIT(1 << 22);
	enum pr_status st = PR_OK;
	const char *p, *nl;
	struct row r;
	size_t i;

	if (d->intro != NULL)
		st = hpara(out, "text", d->intro, strlen(d->intro), err);
	if (st == PR_OK)
		st = pr_buf_addf(out, err,
		    "<table class=\"verdicts\"><thead><tr><th>figure</th>"
		    "<th>base</th><th>new</th><th>unit</th><th>change</th>"
		    "<th>%g%% interval</th><th>%s</th><th>verdict</th>"
		    "<th>n</th></tr></thead><tbody>",
		    c->n > 0 ? 100 * c->cmp[0].conf : 95.0, d->padj);
	for (i = 0; i < c->n && st == PR_OK; i++) {
		if (!shown(d, i))
			continue;
		make_row(d, i, &r);
		if ((st = pr_buf_adds(out, "<tr><td>", err)) != PR_OK ||
		    (st = hesc(out, d->fig[c->index[i]].name, err)) != PR_OK ||
		    (st = pr_buf_addf(out, err,
			 "</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
			 "<td>",
			 r.base, r.new_)) != PR_OK ||
		    (st = hesc(out, d->fig[c->index[i]].unit, err)) != PR_OK)
			break;
		st = pr_buf_addf(out, err,
		    "</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
		    "<td class=\"n\">%s</td><td class=\"verdict v-%s\">%s</td>"
		    "<td class=\"n\">%zu+%zu</td></tr>",
		    r.change, r.ci, r.p, r.verdict, r.verdict, c->kb[i],
		    c->kn[i]);
	}
	if (st == PR_OK)
		st = pr_buf_adds(out, "</tbody></table>\n", err);
	/* The notes and the method, as their text says them. */
	if (st == PR_OK &&
	    (st = notes(&t, d, PR_REPORT_MARKDOWN, err)) == PR_OK)
		st = method(&t, d, PR_REPORT_MARKDOWN, err);
	for (p = t.data; st == PR_OK && p != NULL && *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (strncmp(p, "- ", 2) == 0)
			p += 2;
		st = hpara(out, "text", p, (size_t)(nl - p), err);
		if (*nl == '\0')
			break;
	}
	pr_buf_release(&t);
	return st;
}

report_html_fn
report_suite_html(const struct report_writer *w)
{
	if (w == &para_writer)
		return para_html;
	if (w == &probes_writer)
		return probes_html;
	if (w == &summary_writer)
		return summary_html;
	if (w == &detail_writer)
		return detail_html;
	return NULL;
}
