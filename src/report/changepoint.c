/*
 * report/changepoint.c - change points as text (with a chart), markdown,
 * CSV and JSON (perfreg/report_cp.h).
 *
 * Labels and names come from the user's input: every one goes through
 * the escapers that every report uses (report/escape.c): report_esc
 * (control bytes as cat -v writes them, "^[" for ESC), report_md (the
 * same, then '|', '*', '`' and '\\' escaped), report_csv_esc (the same,
 * then a cell quoted when it must be, a leading = + - @ tab or CR
 * neutralised with a quote, as OWASP advises for CSV injection) or
 * report_json_str (invalid UTF-8 replaced by U+FFFD, jansson escapes the
 * rest).
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "perfreg/report_cp.h"
#include "report/internal.h"
#include "core/jsonout.h"
#include "core/banned.h"

#define CHART_COLS 66
#define CHART_ROWS 10
#define LABEL_SHOW 24 /* a label's bytes in a text table */

/* Appends s from outside for text, or for Markdown when md. */
static enum pr_status
put_text(struct pr_buf *b, const char *s, int md, struct pr_error *err)
{
	return md ? report_md(b, s, err) : report_esc(b, s, err);
}

static void
fmt_num(char *buf, size_t size, double v)
{
	snprintf(buf, size, "%.4g", v);
}

static const char *
verdict_word(const struct pr_cp_change *c)
{
	switch (c->verdict) {
	case PR_VERDICT_REGRESSION:
		return "regression";
	case PR_VERDICT_IMPROVEMENT:
		return "improvement";
	case PR_VERDICT_EQUIVALENT:
		return "equivalent";
	default:
		return c->step > 0 ? "change (up)" : "change (down)";
	}
}

static const char *
label_of(const struct pr_cp_report *r, size_t i)
{
	return r->series->label[i];
}

/* "[lo%, hi%]" or, without percentages, "[lo, hi]" of the step. */
static void
fmt_interval(char *buf, size_t size, const struct pr_cp_change *c)
{
	char a[32], b[32];

	if (c->defined & PR_CP_PCT) {
		report_fmt_pct(a, sizeof(a), c->ci_lo_pct);
		report_fmt_pct(b, sizeof(b), c->ci_hi_pct);
	} else {
		fmt_num(a, sizeof(a), c->step_lo);
		fmt_num(b, sizeof(b), c->step_hi);
	}
	snprintf(buf, size, "[%s, %s]", a, b);
}

static void
fmt_change(char *buf, size_t size, const struct pr_cp_change *c)
{
	if (c->defined & PR_CP_PCT)
		report_fmt_pct(buf, size, c->change_pct);
	else
		snprintf(buf, size, "%+.4g", c->step);
}

/* The chart row of v: hi the top, lo the bottom, beyond them the edge. */
static size_t
row_of(double v, double lo, double hi)
{
	if (!(hi > lo))
		return CHART_ROWS / 2;
	if (v >= hi)
		return 0;
	if (v <= lo)
		return CHART_ROWS - 1;
	return (size_t)lround((hi - v) / (hi - lo) * (CHART_ROWS - 1));
}

/* The chart: the points (a column's mean), each segment's level, '^'
 * under a change and 's' under a spike. */
static enum pr_status
chart(const struct pr_cp_report *r, struct pr_buf *b, struct pr_error *err)
{
	const struct pr_series *s = r->series;
	const struct pr_cp_result *res = r->result;
	char grid[CHART_ROWS][CHART_COLS + 1], axis[CHART_COLS + 1];
	/* Rows run from hi (top) to lo; a spike beyond them sits on the
	 * edge row. */
	double lo = INFINITY, hi = -INFINITY, sum[CHART_COLS];
	size_t cnt[CHART_COLS], nc = s->n < CHART_COLS ? s->n : CHART_COLS;
	size_t i, j, k = 0;
	enum pr_status st = PR_OK;
	char ylab[32];

	assert(s->n > 0); /* drawn for 2 points or more */
	for (i = 0, k = 0; i < s->n; i++) {
		if (k < res->nspikes && res->spikes[k].index == i) {
			k++;
			continue; /* spikes would squash the chart */
		}
		if (s->y[i] < lo)
			lo = s->y[i];
		if (s->y[i] > hi)
			hi = s->y[i];
	}
	if (!(lo <= hi))
		lo = hi = s->y[0];
	memset(grid, ' ', sizeof(grid));
	memset(axis, '-', sizeof(axis));
	for (j = 0; j < nc; j++) {
		sum[j] = 0;
		cnt[j] = 0;
	}
	for (i = 0, k = 0; i < s->n; i++) {
		if (k < res->nspikes && res->spikes[k].index == i) {
			k++;
			continue;
		}
		j = i * nc / s->n;
		sum[j] += s->y[i];
		cnt[j]++;
	}
	/* Segment levels first, the points over them. */
	for (k = 0; k <= res->nchanges; k++) {
		size_t a = k ? res->changes[k - 1].index : 0;
		size_t e = k < res->nchanges ? res->changes[k].index : s->n;
		double m = 0;

		m = k               ? res->changes[k - 1].after
		    : res->nchanges ? res->changes[0].before
				    : NAN;
		if (m != m) {
			for (i = a, m = 0; i < e; i++)
				m += s->y[i];
			m /= (double)(e > a ? e - a : 1);
		}
		if (m < lo)
			m = lo;
		if (m > hi)
			m = hi;
		for (i = a; i < e; i++) {
			size_t row = hi > lo ? (size_t)lround((hi - m) /
						   (hi - lo) * (CHART_ROWS - 1))
					     : CHART_ROWS / 2;

			grid[row][i * nc / s->n] = '-';
		}
	}
	for (j = 0; j < nc; j++) {
		double m = cnt[j] ? sum[j] / (double)cnt[j] : 0;
		size_t row = hi > lo
		    ? (size_t)lround((hi - m) / (hi - lo) * (CHART_ROWS - 1))
		    : CHART_ROWS / 2;

		if (cnt[j])
			grid[row][j] = '*';
	}
	for (k = 0; k < res->nspikes; k++) {
		j = res->spikes[k].index * nc / s->n;
		axis[j] = 's';
		grid[row_of(res->spikes[k].value, lo, hi)][j] = 's';
	}
	for (k = 0; k < res->nchanges; k++)
		axis[res->changes[k].index * nc / s->n] = '^';
	if (res->tail.possible)
		axis[res->tail.index * nc / s->n] = '?';
	for (i = 0; i < CHART_ROWS && st == PR_OK; i++) {
		size_t w = nc;

		while (w > 0 && grid[i][w - 1] == ' ')
			w--;
		if (i == 0)
			fmt_num(ylab, sizeof(ylab), hi);
		else if (i == CHART_ROWS - 1)
			fmt_num(ylab, sizeof(ylab), lo);
		else
			ylab[0] = '\0';
		st = pr_buf_addf(b, err, "%9s |%.*s\n", ylab, (int)w, grid[i]);
	}
	if (st == PR_OK)
		st = pr_buf_addf(b, err, "%9s +%.*s\n", "", (int)nc, axis);
	if (st == PR_OK)
		st = pr_buf_addf(b, err,
		    "%9s  * points (a column's mean), - the level of each "
		    "segment,\n%9s  ^ a change, s a spike, ? a possible "
		    "change\n",
		    "", "");
	return st;
}

/* " (label)" when the series' labels are a field of the input. */
static enum pr_status
put_label(struct pr_buf *b, const struct pr_cp_report *r, const char *lab,
    int md, struct pr_error *err)
{
	enum pr_status st;

	if (!r->series->labelled)
		return PR_OK;
	st = pr_buf_adds(b, " (", err);
	if (st == PR_OK)
		st = put_text(b, lab, md, err);
	return st == PR_OK ? pr_buf_addc(b, ')', err) : st;
}

static enum pr_status
text_one(const struct pr_cp_report *r, int md, int with_chart, struct pr_buf *b,
    struct pr_error *err)
{
	const struct pr_cp_result *res = r->result;
	size_t k;
	enum pr_status st;
	char sig[64], conf[32];

	int lw = r->series->labelled ? LABEL_SHOW : 0;
	char interval[48];

	fmt_num(sig, sizeof(sig), res->sigma);
	if (res->noise_given)
		snprintf(sig + strlen(sig), sizeof(sig) - strlen(sig),
		    " from repeats, %zu df", r->opts->noise_df);
	snprintf(conf, sizeof(conf), "%.10g", r->opts->conf * 100);
	snprintf(interval, sizeof(interval), "%s%% interval", conf);
	if ((st = md ? pr_buf_adds(b, "### ", err) : PR_OK) != PR_OK ||
	    (st = put_text(b, r->name, md, err)) != PR_OK)
		return st;
	/* The detector finds no noise when every point is the one before
	 * plus the same amount: all equal, or a straight line. */
	if (res->all_equal)
		return pr_buf_addf(b, err,
		    ": %zu points, all equal: nothing to detect\n", res->n);
	if (res->constant)
		return pr_buf_addf(b, err,
		    ": %zu points on a straight line (no noise between "
		    "neighbours): nothing to detect\n",
		    res->n);
	st = pr_buf_addf(b, err,
	    ": %zu points: %zu change%s, %zu spike%s%s (noise sd %s, "
	    "false-alarm rate %.10g%%)\n",
	    res->n, res->nchanges, res->nchanges == 1 ? "" : "s", res->nspikes,
	    res->nspikes == 1 ? "" : "s",
	    res->tail.possible ? ", 1 possible" : "", sig,
	    r->opts->alpha * 100);
	if (st == PR_OK && res->nchanges > 0) {
		st = md ? pr_buf_addf(b, err,
			      "\n| point | label | before | after | change "
			      "| %s%% interval | p | verdict |\n|---:|---|---:|"
			      "---:|---:|---|---:|---|\n",
			      conf)
			: pr_buf_addf(b, err,
			      "\n%7s  %-*s %11s %11s %9s  %-20s %8s  %s\n",
			      "point", lw, lw ? "label" : "", "before", "after",
			      "change", interval, "p", "verdict");
	}
	for (k = 0; st == PR_OK && k < res->nchanges; k++) {
		const struct pr_cp_change *c = &res->changes[k];
		const char *lab = label_of(r, c->index);
		char be[32], af[32], ch[32], iv[80], p[32];
		size_t ll = strlen(lab);

		fmt_num(be, sizeof(be), c->before);
		fmt_num(af, sizeof(af), c->after);
		fmt_change(ch, sizeof(ch), c);
		fmt_interval(iv, sizeof(iv), c);
		report_fmt_p(p, sizeof(p), 1, c->p_adjusted);
		if (md) {
			st = pr_buf_addf(b, err, "| %zu | ", c->index + 1);
			if (st == PR_OK)
				st = put_text(b, lab, 1, err);
			if (st == PR_OK)
				st = pr_buf_addf(b, err,
				    " | %s | %s | %s | %s | %s | %s |\n", be,
				    af, ch, iv, p, verdict_word(c));
			continue;
		}
		{
			/* The label escaped, cut to the column's width. */
			struct pr_buf lb =
			    PR_BUF_INIT(4 * PR_SERIES_LABEL_MAX + 8);

			st = put_text(&lb, lab, 0, err);
			ll = st == PR_OK ? lb.len : 0;
			if (ll > (size_t)lw)
				ll = (size_t)lw;
			if (st == PR_OK)
				st = pr_buf_addf(b, err, "%7zu  %.*s",
				    c->index + 1, (int)ll,
				    lb.data ? lb.data : "");
			pr_buf_release(&lb);
		}
		if (st == PR_OK)
			st = pr_buf_addf(b, err,
			    "%*s %11s %11s %9s  %-20s %8s  %s\n",
			    (int)((size_t)lw - ll), "", be, af, ch, iv, p,
			    verdict_word(c));
	}
	if (st == PR_OK && res->nspikes > 0)
		st = pr_buf_adds(b,
		    md ? "\nSpikes (single points, not "
			 "changes):\n\n"
		       : "\nspikes (single points, not changes):\n",
		    err);
	for (k = 0; st == PR_OK && k < res->nspikes; k++) {
		const struct pr_cp_spike *sp = &res->spikes[k];
		const char *lab = label_of(r, sp->index);
		char v[32], e[32];

		fmt_num(v, sizeof(v), sp->value);
		fmt_num(e, sizeof(e), sp->expected);
		st = pr_buf_addf(b, err, "%spoint %zu", md ? "- " : "  ",
		    sp->index + 1);
		if (st == PR_OK)
			st = put_label(b, r, lab, md, err);
		if (st == PR_OK)
			st = pr_buf_addf(b, err,
			    ": %s where its neighbours say %s (%+.1f sd)\n", v,
			    e, sp->z);
	}
	if (st == PR_OK && res->tail.possible) {
		const char *lab = label_of(r, res->tail.index);
		char ch[32];

		if (res->tail.have_pct)
			report_fmt_pct(ch, sizeof(ch), res->tail.change_pct);
		else
			snprintf(ch, sizeof(ch), "%+.4g", res->tail.step);
		st = pr_buf_addf(b, err, "\npossible change at point %zu",
		    res->tail.index + 1);
		if (st == PR_OK)
			st = put_label(b, r, lab, md, err);
		if (st == PR_OK)
			st = pr_buf_addf(b, err,
			    ": %s, too recent to confirm: %zu more point%s "
			    "would tell\n",
			    ch, res->tail.needs,
			    res->tail.needs == 1 ? "" : "s");
	}
	if (st == PR_OK && with_chart && !md && res->n >= 2) {
		st = pr_buf_addc(b, '\n', err);
		if (st == PR_OK)
			st = chart(r, b, err);
	}
	return st;
}

static enum pr_status
csv_all(const struct pr_cp_report *r, size_t n, struct pr_buf *b,
    struct pr_error *err)
{
	size_t i, k;
	enum pr_status st = pr_buf_adds(b,
	    "series,kind,point,label,before,after,change_pct,lo_pct,hi_pct,"
	    "step,p_adjusted,verdict\n",
	    err);

	for (i = 0; st == PR_OK && i < n; i++) {
		const struct pr_cp_result *res = r[i].result;

		for (k = 0; st == PR_OK && k < res->nchanges; k++) {
			const struct pr_cp_change *c = &res->changes[k];
			int pct = (c->defined & PR_CP_PCT) != 0;

			st = report_csv_esc(b, r[i].name, err);
			if (st == PR_OK)
				st = pr_buf_addf(b, err, ",change,%zu,",
				    c->index + 1);
			if (st == PR_OK)
				st = report_csv_esc(b,
				    label_of(&r[i], c->index), err);
			if (st == PR_OK && pct)
				st = pr_buf_addf(b, err,
				    ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%."
				    "17g,"
				    "%s\n",
				    c->before, c->after, c->change_pct,
				    c->ci_lo_pct, c->ci_hi_pct, c->step,
				    c->p_adjusted, verdict_word(c));
			else if (st == PR_OK)
				st = pr_buf_addf(b, err,
				    ",%.17g,%.17g,,,,%.17g,%.17g,%s\n",
				    c->before, c->after, c->step, c->p_adjusted,
				    verdict_word(c));
		}
		for (k = 0; st == PR_OK && k < res->nspikes; k++) {
			const struct pr_cp_spike *sp = &res->spikes[k];

			st = report_csv_esc(b, r[i].name, err);
			if (st == PR_OK)
				st = pr_buf_addf(b, err, ",spike,%zu,",
				    sp->index + 1);
			if (st == PR_OK)
				st = report_csv_esc(b,
				    label_of(&r[i], sp->index), err);
			if (st == PR_OK)
				st = pr_buf_addf(b, err,
				    ",%.17g,%.17g,,,,,,spike\n", sp->expected,
				    sp->value);
		}
		if (st == PR_OK && res->tail.possible) {
			st = report_csv_esc(b, r[i].name, err);
			if (st == PR_OK)
				st = pr_buf_addf(b, err, ",possible,%zu,",
				    res->tail.index + 1);
			if (st == PR_OK)
				st = report_csv_esc(b,
				    label_of(&r[i], res->tail.index), err);
			if (st == PR_OK && res->tail.have_pct)
				st = pr_buf_addf(b, err,
				    ",,,%.17g,,,%.17g,,possible\n",
				    res->tail.change_pct, res->tail.step);
			else if (st == PR_OK)
				st = pr_buf_addf(b, err,
				    ",,,,,,%.17g,,possible\n", res->tail.step);
		}
	}
	return st;
}

static int
jset(json_t *o, const char *k, json_t *v)
{
	return v != NULL && json_object_set_new(o, k, v) == 0;
}

static json_t *
json_one(const struct pr_cp_report *r)
{
	const struct pr_cp_result *res = r->result;
	json_t *o = json_object(), *ch = json_array(), *sp = json_array();
	size_t k;
	int ok = o && ch && sp;

	for (k = 0; ok && k < res->nchanges; k++) {
		const struct pr_cp_change *c = &res->changes[k];
		json_t *e = json_object();
		int pct = (c->defined & PR_CP_PCT) != 0;

		ok = e &&
		    jset(e, "point", json_integer((json_int_t)c->index + 1)) &&
		    jset(e, "label", report_json_str(label_of(r, c->index))) &&
		    jset(e, "before", report_json_num(c->before)) &&
		    jset(e, "after", report_json_num(c->after)) &&
		    jset(e, "step", report_json_num(c->step)) &&
		    jset(e, "step_interval",
			report_json_pair(c->step_lo, c->step_hi)) &&
		    jset(e, "change_pct",
			pct ? report_json_num(c->change_pct) : json_null()) &&
		    jset(e, "interval_pct",
			pct ? report_json_pair(c->ci_lo_pct, c->ci_hi_pct)
			    : json_null()) &&
		    jset(e, "z", report_json_num(c->z)) &&
		    jset(e, "p_adjusted", report_json_num(c->p_adjusted)) &&
		    jset(e, "verdict",
			json_string(c->verdict == PR_VERDICT_INCONCLUSIVE
				? "change"
				: verdict_word(c))) &&
		    jset(e, "segment",
			json_pack("[I,I]", (json_int_t)c->seg_start + 1,
			    (json_int_t)c->seg_end)) &&
		    json_array_append_new(ch, e) == 0;
		if (!ok && e)
			json_decref(e);
	}
	for (k = 0; ok && k < res->nspikes; k++) {
		const struct pr_cp_spike *s = &res->spikes[k];
		json_t *e = json_object();

		ok = e &&
		    jset(e, "point", json_integer((json_int_t)s->index + 1)) &&
		    jset(e, "label", report_json_str(label_of(r, s->index))) &&
		    jset(e, "value", report_json_num(s->value)) &&
		    jset(e, "expected", report_json_num(s->expected)) &&
		    jset(e, "z", report_json_num(s->z)) &&
		    json_array_append_new(sp, e) == 0;
		if (!ok && e)
			json_decref(e);
	}
	ok = ok && jset(o, "name", report_json_str(r->name)) &&
	    jset(o, "points", json_integer((json_int_t)res->n)) &&
	    jset(o, "constant", json_boolean(res->constant)) &&
	    jset(o, "noise_sd", report_json_num(res->sigma)) &&
	    jset(o, "noise_from",
		json_string(res->noise_given ? "repeats" : "neighbours")) &&
	    jset(o, "noise_df",
		json_integer(
		    (json_int_t)(res->noise_given ? r->opts->noise_df : 0))) &&
	    jset(o, "threshold_z", report_json_num(res->threshold)) &&
	    jset(o, "alpha", json_real(r->opts->alpha)) &&
	    jset(o, "min_segment",
		json_integer((json_int_t)r->opts->min_segment)) &&
	    jset(o, "candidates", json_integer((json_int_t)res->candidates));
	if (ok) {
		ok = json_object_set_new(o, "changes", ch) == 0;
		ch = NULL;
	}
	if (ok) {
		ok = json_object_set_new(o, "spikes", sp) == 0;
		sp = NULL;
	}
	if (ok && res->tail.possible) {
		json_t *t = json_object();

		ok = t &&
		    jset(t, "point",
			json_integer((json_int_t)res->tail.index + 1)) &&
		    jset(t, "label",
			report_json_str(label_of(r, res->tail.index))) &&
		    jset(t, "needs",
			json_integer((json_int_t)res->tail.needs)) &&
		    jset(t, "step", report_json_num(res->tail.step)) &&
		    jset(t, "change_pct",
			res->tail.have_pct
			    ? report_json_num(res->tail.change_pct)
			    : json_null()) &&
		    json_object_set_new(o, "possible", t) == 0;
	} else if (ok)
		ok = jset(o, "possible", json_null());
	json_decref(ch);
	json_decref(sp);
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

enum pr_status
pr_cp_format(const struct pr_cp_report *r, size_t n, enum pr_cp_format f,
    int with_chart, struct pr_buf *out, struct pr_error *err)
{
	enum pr_status st = PR_OK;
	size_t i;

	if (f == PR_CP_CSV)
		return csv_all(r, n, out, err);
	if (f == PR_CP_JSON) {
		json_t *root = json_object(), *a = json_array();
		char *s;

		for (i = 0; root && a && i < n; i++) {
			json_t *one = json_one(&r[i]), *more = NULL;

			if (one != NULL && r[i].more != NULL &&
			    ((more = report_model_json(r[i].more, err)) ==
				    NULL ||
				json_object_update(one, more) != 0)) {
				json_decref(more);
				json_decref(one);
				one = NULL;
			} else
				json_decref(more);
			if (one == NULL || json_array_append_new(a, one) != 0) {
				json_decref(a);
				json_decref(root);
				return pr_error_set(err, PR_ENOMEM,
				    "out of memory");
			}
		}
		if (root == NULL || a == NULL ||
		    json_object_set_new(root, "series", a) != 0 ||
		    (s = pr_jsonout_dumps(root,
			 JSON_INDENT(2) | JSON_REAL_PRECISION(17))) == NULL) {
			json_decref(root);
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		}
		json_decref(root);
		st = pr_buf_adds(out, s, err);
		free(s);
		return st == PR_OK ? pr_buf_addc(out, '\n', err) : st;
	}
	for (i = 0; st == PR_OK && i < n; i++) {
		if (i > 0)
			st = pr_buf_addc(out, '\n', err);
		if (st == PR_OK)
			st = text_one(&r[i], f == PR_CP_MARKDOWN, with_chart,
			    out, err);
		if (st == PR_OK && r[i].more != NULL)
			st = pr_report_model_render(out, r[i].more,
			    f == PR_CP_MARKDOWN ? PR_REPORT_MARKDOWN
						: PR_REPORT_TEXT,
			    err);
	}
	return st;
}

/* Whether r has a change within 2 points of index. */
static int
has_change_near(const struct pr_cp_result *r, size_t index)
{
	size_t k;

	for (k = 0; k < r->nchanges; k++)
		if (r->changes[k].index + 2 >= index &&
		    r->changes[k].index <= index + 2)
			return 1;
	return 0;
}

enum pr_status
pr_cp_session_note(const char *what, const double *y, const double *var,
    const int64_t *ids, size_t n, const struct pr_cp_opts *o,
    struct pr_buf *out, struct pr_error *err)
{
	struct pr_cp_result now, before;
	enum pr_status st;
	size_t k;
	char ch[32], iv[80], p[32];

	memset(&now, 0, sizeof(now));
	memset(&before, 0, sizeof(before));
	if (n < PR_CP_MIN_POINTS + 1)
		return PR_OK;
	if ((st = pr_cp_detect(y, var, n, o, &now, err)) != PR_OK ||
	    (st = pr_cp_detect(y, var, n - 1, o, &before, err)) != PR_OK)
		goto out;
	for (k = 0; st == PR_OK && k < now.nchanges; k++) {
		const struct pr_cp_change *c = &now.changes[k];

		if (has_change_near(&before, c->index))
			continue;
		fmt_change(ch, sizeof(ch), c);
		fmt_interval(iv, sizeof(iv), c);
		report_fmt_p(p, sizeof(p), 1, c->p_adjusted);
		st = pr_buf_adds(out, "history of ", err);
		if (st == PR_OK)
			st = put_text(out, what, 0, err);
		if (st == PR_OK)
			st = pr_buf_addf(out, err,
			    ": session %lld confirms a change that starts at "
			    "session %lld: %s %s, %s (p %s)\n",
			    (long long)ids[n - 1], (long long)ids[c->index], ch,
			    iv, verdict_word(c), p);
	}
	if (st == PR_OK && now.tail.possible) {
		if (now.tail.have_pct)
			report_fmt_pct(ch, sizeof(ch), now.tail.change_pct);
		else
			snprintf(ch, sizeof(ch), "%+.4g", now.tail.step);
		st = pr_buf_adds(out, "history of ", err);
		if (st == PR_OK)
			st = put_text(out, what, 0, err);
		if (st == PR_OK && now.tail.index + 1 == n)
			st = pr_buf_addf(out, err,
			    ": session %lld may start a change (%s)",
			    (long long)ids[n - 1], ch);
		else if (st == PR_OK)
			st = pr_buf_addf(out, err,
			    ": sessions %lld to %lld may start a change (%s)",
			    (long long)ids[now.tail.index],
			    (long long)ids[n - 1], ch);
		if (st == PR_OK)
			st = pr_buf_addf(out, err,
			    "; %zu more session%s would confirm or rule it "
			    "out\n",
			    now.tail.needs, now.tail.needs == 1 ? "" : "s");
	}
out:
	pr_cp_result_release(&now);
	pr_cp_result_release(&before);
	return st;
}

enum pr_status
pr_history_note(const struct pr_history *h, int64_t session, const char *what,
    const struct pr_cp_opts *o, struct pr_buf *out, struct pr_error *err)
{
	double *y = NULL, *var = NULL;
	int64_t *ids = NULL;
	struct pr_cp_opts oo;
	enum pr_status st = PR_OK;
	size_t i;

	if (h->metric == NULL || h->n <= PR_CP_MIN_POINTS ||
	    h->points[h->n - 1].session != session)
		return PR_OK;
	y = calloc(h->n, sizeof(*y));
	var = calloc(h->n, sizeof(*var));
	ids = calloc(h->n, sizeof(*ids));
	if (y == NULL || var == NULL || ids == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < h->n; i++) {
		y[i] = h->points[i].mean;
		var[i] = h->points[i].var;
		ids[i] = h->points[i].session;
	}
	if (o == NULL) {
		pr_cp_opts_init(&oo);
		oo.better = h->better;
		o = &oo;
	}
	st = pr_cp_session_note(what, y, var, ids, h->n, o, out, err);
out:
	free(y);
	free(var);
	free(ids);
	return st;
}
