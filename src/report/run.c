/*
 * report/run.c - the sections of `perfreg run`'s report
 * (perfreg/report_run.h): the session, the summaries of one variant,
 * the paired analysis, the decisions of --until-decided and the runs,
 * each a PR_SECTION_WRITER section of the report model with its text,
 * Markdown and JSON forms.
 *
 * The statistics are computed when a section is added (the paired
 * analysis, the summaries) or given by the caller (the decisions); the
 * writers only lay them out.  Every byte from outside goes through
 * pr_report_escape in text and Markdown (and report_md_escape in
 * Markdown); JSON strings that are not valid UTF-8 are written with '?'
 * for their other bytes, as before.
 *
 * Invariants: a section's data is one allocation of its own struct with
 * the strings it owns, freed by its writer's free function; the session
 * sections hold only the borrowed session.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "perfreg/describe.h"
#include "perfreg/report_html.h"
#include "perfreg/report_run.h"
#include "perfreg/sample.h"
#include "report/internal.h"
#include "core/banned.h"

/* How much of a failed run's output the text shows. */
#define SHOWN_OUTPUT 300

/* Appends s escaped for a terminal, for Markdown, or as f wants it
 * (report/internal.h). */
static enum pr_status
esc(struct pr_buf *out, const char *s, struct pr_error *err)
{
	return report_esc(out, s, err);
}

static enum pr_status
md(struct pr_buf *out, const char *s, struct pr_error *err)
{
	return report_md(out, s, err);
}

static enum pr_status
word(struct pr_buf *out, const char *s, enum pr_report_format f,
    struct pr_error *err)
{
	return report_word(out, s, f, err);
}

/* Appends s left-aligned in a column of width (text), or as is. */
static enum pr_status
cell(struct pr_buf *out, const char *s, int width, enum pr_report_format f,
    struct pr_error *err)
{
	size_t start = out->len, w;
	enum pr_status st;

	if ((st = word(out, s, f, err)) != PR_OK || f == PR_REPORT_MARKDOWN)
		return st;
	for (w = out->len - start; w < (size_t)width && st == PR_OK; w++)
		st = pr_buf_addc(out, ' ', err);
	return st;
}

/* A JSON string of len bytes; bytes that are not valid UTF-8 become
 * '?'. */
static json_t *
jstr(const char *data, size_t len)
{
	json_t *j = json_stringn(data, len);
	char *copy;
	size_t i;

	if (j != NULL || (copy = malloc(len + 1)) == NULL)
		return j;
	for (i = 0; i < len; i++)
		copy[i] = (unsigned char)data[i] < 0x80 && data[i] != '\0'
		    ? data[i]
		    : '?';
	j = json_stringn(copy, len);
	free(copy);
	return j;
}

static json_t *
jstrz(const char *s)
{
	return s != NULL ? jstr(s, strlen(s)) : json_null();
}

/* Sets key of o to v; 0, or -1 (v dropped) when either failed. */
static int
jset(json_t *o, const char *key, json_t *v)
{
	return v == NULL || json_object_set_new(o, key, v) != 0 ? -1 : 0;
}

static json_t *
nomem_json(json_t *o, struct pr_error *err)
{
	json_decref(o);
	pr_error_set(err, PR_ENOMEM, "out of memory writing the JSON report");
	return NULL;
}

/* ---------------------------------------------------------------- *
 * The session
 * ---------------------------------------------------------------- */

static enum pr_status
session_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct pr_session *s = data;
	const char *item = f == PR_REPORT_MARKDOWN ? "- " : "";
	enum pr_status st = PR_OK;
	size_t i;

	for (i = 0; i < s->nv && st == PR_OK; i++)
		if ((st = pr_buf_addf(out, err, "%s%s", item,
			 i == 0 ? "baseline " : "variant  ")) != PR_OK ||
		    (st = word(out, s->v[i].name, f, err)) != PR_OK ||
		    (st = pr_buf_adds(out, ": ", err)) != PR_OK ||
		    (st = word(out, s->v[i].command, f, err)) != PR_OK ||
		    (st = pr_buf_addf(out, err, "  (%zu runs ok, %zu failed)\n",
			 s->v[i].runs_ok, s->v[i].runs_failed)) != PR_OK)
			return st;
	if ((st = pr_buf_addf(out, err,
		 "%ssession: %zu rounds of %zu, %s order, seed "
		 "%llu, %zu warm-up round%s, %zu runs in %.3f s; stopped: "
		 "%s\n",
		 item, s->rounds_done, s->opts.runs,
		 pr_order_str(s->opts.order), (unsigned long long)s->opts.seed,
		 s->opts.warmup, s->opts.warmup == 1 ? "" : "s", s->nruns,
		 s->elapsed_s, pr_stop_str(s->stop))) != PR_OK ||
	    (st = pr_buf_addf(out, err,
		 "%stimer: CLOCK_MONOTONIC, resolution %.3g s; "
		 "perfreg's own time per run %.3g s (not in the "
		 "measurements)\n",
		 item, s->clock_res_s, s->overhead_s)) != PR_OK)
		return st;
	if (s->opts.order == PR_ORDER_SEQUENTIAL && s->nv > 1)
		st = pr_buf_addf(out, err,
		    "%snote: sequential order (every run of one "
		    "variant, then the next): drift of the machine's speed "
		    "falls on one side and can look like a change; the pairs "
		    "are by run index, not by round\n",
		    item);
	return st;
}

static json_t *
session_json(const void *data, struct pr_error *err)
{
	const struct pr_session *s = data;
	json_t *o = json_object(), *vs = json_array(), *v;
	size_t i;

	if (o == NULL || jset(o, "variants", vs) != 0)
		return nomem_json(o, err);
	for (i = 0; i < s->nv; i++) {
		v = json_object();
		if (v == NULL || json_array_append_new(vs, v) != 0 ||
		    jset(v, "name", jstrz(s->v[i].name)) != 0 ||
		    jset(v, "command", jstrz(s->v[i].command)) != 0 ||
		    jset(v, "runs_ok",
			json_integer((json_int_t)s->v[i].runs_ok)) != 0 ||
		    jset(v, "runs_failed",
			json_integer((json_int_t)s->v[i].runs_failed)) != 0)
			return nomem_json(o, err);
	}
	if (jset(o, "order", json_string(pr_order_str(s->opts.order))) != 0 ||
	    jset(o, "seed", json_integer((json_int_t)s->opts.seed)) != 0 ||
	    jset(o, "runs", json_integer((json_int_t)s->opts.runs)) != 0 ||
	    jset(o, "warmup", json_integer((json_int_t)s->opts.warmup)) != 0 ||
	    jset(o, "rounds_done", json_integer((json_int_t)s->rounds_done)) !=
		0 ||
	    jset(o, "stopped", json_string(pr_stop_str(s->stop))) != 0 ||
	    jset(o, "elapsed_s", json_real(s->elapsed_s)) != 0 ||
	    jset(o, "timer_resolution_s", json_real(s->clock_res_s)) != 0 ||
	    jset(o, "overhead_s", json_real(s->overhead_s)) != 0 ||
	    jset(o, "drift_prone",
		json_boolean(s->opts.order == PR_ORDER_SEQUENTIAL)) != 0)
		return nomem_json(o, err);
	return o;
}

static const struct report_writer session_writer = { session_text, session_json,
	NULL };

enum pr_status
pr_report_run_session(struct pr_report_model *m, const char *key, int flags,
    const struct pr_session *s, struct pr_error *err)
{
	return report_model_writer(m, key, flags, &session_writer, (void *)s,
	    err);
}

/* ---------------------------------------------------------------- *
 * The summaries of one variant
 * ---------------------------------------------------------------- */

struct summary_row {
	char *name, *unit;
	struct pr_summary sum;
};

struct summaries {
	size_t n;
	struct summary_row row[];
};

static void
summaries_free(void *data)
{
	struct summaries *d = data;
	size_t i;

	for (i = 0; d != NULL && i < d->n; i++) {
		free(d->row[i].name);
		free(d->row[i].unit);
	}
	free(d);
}

static enum pr_status
summaries_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct summaries *d = data;
	const struct summary_row *r;
	enum pr_status st = PR_OK;
	size_t i;

	if (f == PR_REPORT_MARKDOWN && d->n > 0)
		st = pr_buf_adds(out,
		    "| metric | mean | unit | median | min | max | n |\n"
		    "|---|--:|---|--:|--:|--:|--:|\n",
		    err);
	for (i = 0; i < d->n && st == PR_OK; i++) {
		r = &d->row[i];
		if (f == PR_REPORT_MARKDOWN) {
			if ((st = pr_buf_adds(out, "| ", err)) != PR_OK ||
			    (st = md(out, r->name, err)) != PR_OK ||
			    (st = pr_buf_addf(out, err, " | %.6g | ",
				 r->sum.mean)) != PR_OK ||
			    (st = md(out, r->unit, err)) != PR_OK)
				break;
			st = pr_buf_addf(out, err,
			    " | %.6g | %.6g | %.6g | %zu |\n", r->sum.median,
			    r->sum.min, r->sum.max, r->sum.n);
			continue;
		}
		if ((st = cell(out, r->name, 14, f, err)) != PR_OK ||
		    (st = pr_buf_addf(out, err, " mean %.6g ", r->sum.mean)) !=
			PR_OK ||
		    (st = esc(out, r->unit, err)) != PR_OK)
			break;
		st = pr_buf_addf(out, err,
		    "  median %.6g  min %.6g  max %.6g  n %zu\n", r->sum.median,
		    r->sum.min, r->sum.max, r->sum.n);
	}
	return st;
}

static const struct report_writer summaries_writer = { summaries_text, NULL,
	summaries_free };

enum pr_status
pr_report_run_summaries(struct pr_report_model *m, int flags,
    const struct pr_session *s, struct pr_error *err)
{
	const struct pr_dataset *ds = &s->v[0].data;
	const struct pr_metric *mt;
	struct pr_sample sorted;
	struct summaries *d;
	struct summary_row *r;
	enum pr_status st;
	size_t i;

	if ((d = calloc(1, sizeof(*d) + ds->n * sizeof(d->row[0]))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < ds->n; i++) {
		mt = &ds->metrics[i];
		if (mt->values.n == 0)
			continue;
		r = &d->row[d->n];
		pr_sample_init(&sorted);
		st = pr_sample_copy(&sorted, &mt->values, err);
		if (st == PR_OK) {
			pr_sample_sort(&sorted);
			st = pr_summary_compute(sorted.v, sorted.n, &r->sum,
			    err);
		}
		pr_sample_release(&sorted);
		if (st != PR_OK) {
			summaries_free(d);
			return st;
		}
		d->n++;
		r->name = strdup(mt->name);
		r->unit = strdup(mt->unit != NULL ? mt->unit : "");
		if (r->name == NULL || r->unit == NULL) {
			summaries_free(d);
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		}
	}
	return report_model_writer(m, NULL, flags, &summaries_writer, d, err);
}

/* ---------------------------------------------------------------- *
 * The paired analysis
 * ---------------------------------------------------------------- */

/*
 * The rows of the paired analysis and of the decisions: per metric its
 * name and why it has no result (NULL: it has one), the paired
 * analysis (pairs, p) or the decision (r).  The two strings of the
 * section are the variant and the baseline (paired), or the method and
 * how the session stopped (decisions).
 */
struct row {
	char *name, *undefined;
	size_t pairs;
	struct pr_paired p;
	struct pr_seq_result r;
};

struct rows {
	char *one, *two;
	enum pr_order order;
	double alpha, equivalence_pct;
	size_t n;
	struct row row[];
};

static void
rows_free(void *data)
{
	struct rows *d = data;
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++) {
		free(d->row[i].name);
		free(d->row[i].undefined);
	}
	free(d->one);
	free(d->two);
	free(d);
}

/* Rows for n metrics with the section's two strings copied, or NULL. */
static struct rows *
rows_new(size_t n, const char *one, const char *two)
{
	struct rows *d;

	if ((d = calloc(1, sizeof(*d) + n * sizeof(d->row[0]))) == NULL)
		return NULL;
	if ((d->one = strdup(one)) == NULL || (d->two = strdup(two)) == NULL) {
		rows_free(d);
		return NULL;
	}
	return d;
}

/* Adds the next row, for the metric name, with undefined (may be NULL)
 * copied; PR_ENOMEM. */
static enum pr_status
row_add(struct rows *d, const char *name, const char *undefined,
    struct row **out)
{
	struct row *r = &d->row[d->n++];

	*out = r;
	if ((r->name = strdup(name)) == NULL ||
	    (undefined != NULL && (r->undefined = strdup(undefined)) == NULL))
		return PR_ENOMEM;
	return PR_OK;
}

/* The words after a paired change: why its spread says little. */
static const char *
paired_remark(const struct pr_paired *p)
{
	if (p->quantised)
		return "spread at the resolution floor";
	if (p->degenerate)
		return "no spread: no test";
	return NULL;
}

static enum pr_status
paired_md(struct pr_buf *out, const struct rows *d, struct pr_error *err)
{
	const struct row *r;
	enum pr_status st;
	const char *rem;
	size_t i;

	if ((st = pr_buf_adds(out,
		 "| metric | change | 95% interval | p | pairs | note |\n"
		 "|---|--:|---|--:|--:|---|\n",
		 err)) != PR_OK)
		return st;
	for (i = 0; i < d->n; i++) {
		r = &d->row[i];
		if ((st = pr_buf_adds(out, "| ", err)) != PR_OK ||
		    (st = md(out, r->name, err)) != PR_OK)
			return st;
		if (r->undefined != NULL) {
			if ((st = pr_buf_adds(out, " | - | - | - | - | ",
				 err)) != PR_OK ||
			    (st = md(out, r->undefined, err)) != PR_OK ||
			    (st = pr_buf_adds(out, " |\n", err)) != PR_OK)
				return st;
			continue;
		}
		st = pr_buf_addf(out, err, " | %+.2f%% | ", r->p.change_pct);
		if (st == PR_OK && r->p.have_ci)
			st = pr_buf_addf(out, err, "[%+.2f%%, %+.2f%%]",
			    r->p.ci_lo_pct, r->p.ci_hi_pct);
		else if (st == PR_OK)
			st = pr_buf_adds(out, "-", err);
		if (st == PR_OK && r->p.have_ci && r->p.have_t)
			st = pr_buf_addf(out, err, " | %.3g", r->p.p_value);
		else if (st == PR_OK)
			st = pr_buf_adds(out, " | -", err);
		rem = r->p.have_ci ? paired_remark(&r->p) : "no interval";
		if (st == PR_OK)
			st = pr_buf_addf(out, err, " | %zu | %s |\n", r->pairs,
			    rem != NULL ? rem : "");
		if (st != PR_OK)
			return st;
	}
	return PR_OK;
}

static enum pr_status
paired_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct rows *d = data;
	const struct row *r;
	enum pr_status st;
	const char *rem;
	size_t i;

	if ((st = pr_buf_addf(out, err,
		 "\n%saired, round by round (%s order; "
		 "mean of the per-round log-ratios ",
		 f == PR_REPORT_MARKDOWN ? "P" : "p",
		 pr_order_str(d->order))) != PR_OK ||
	    (st = word(out, d->one, f, err)) != PR_OK ||
	    (st = pr_buf_addc(out, '/', err)) != PR_OK ||
	    (st = word(out, d->two, f, err)) != PR_OK ||
	    (st = pr_buf_adds(out, ", one-sample t):\n", err)) != PR_OK)
		return st;
	if (f == PR_REPORT_MARKDOWN)
		return (st = pr_buf_addc(out, '\n', err)) != PR_OK
		    ? st
		    : paired_md(out, d, err);
	for (i = 0; i < d->n; i++) {
		r = &d->row[i];
		if ((st = pr_buf_adds(out, "  ", err)) != PR_OK ||
		    (st = cell(out, r->name, 14, f, err)) != PR_OK)
			return st;
		if (r->undefined != NULL)
			st = pr_buf_adds(out, " undefined: ", err) != PR_OK
			    ? PR_ENOMEM
			    : esc(out, r->undefined, err);
		else if (!r->p.have_ci)
			st = pr_buf_addf(out, err,
			    " %+.2f%% (%zu pair: no interval)", r->p.change_pct,
			    r->pairs);
		else {
			/* Without a test there is no p: "p -", never "p
			 * -0". */
			st = pr_buf_addf(out, err,
			    " %+.2f%%  95%% interval [%+.2f%%, %+.2f%%]  p ",
			    r->p.change_pct, r->p.ci_lo_pct, r->p.ci_hi_pct);
			if (st == PR_OK)
				st = r->p.have_t ? pr_buf_addf(out, err, "%.3g",
						       r->p.p_value)
						 : pr_buf_adds(out, "-", err);
			rem = paired_remark(&r->p);
			if (st == PR_OK)
				st = pr_buf_addf(out, err, "  %zu pairs%s%s%s",
				    r->pairs, rem != NULL ? "  (" : "",
				    rem != NULL ? rem : "",
				    rem != NULL ? ")" : "");
		}
		if (st != PR_OK || (st = pr_buf_addc(out, '\n', err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

static json_t *
paired_json(const void *data, struct pr_error *err)
{
	const struct rows *d = data;
	const struct row *r;
	json_t *arr = json_array(), *o;
	size_t i;

	if (arr == NULL)
		return nomem_json(arr, err);
	for (i = 0; i < d->n; i++) {
		r = &d->row[i];
		o = json_object();
		if (o == NULL || json_array_append_new(arr, o) != 0 ||
		    jset(o, "name", jstrz(r->name)) != 0 ||
		    jset(o, "pairs", json_integer((json_int_t)r->pairs)) != 0)
			return nomem_json(arr, err);
		if (r->undefined != NULL) {
			if (jset(o, "undefined", jstrz(r->undefined)) != 0)
				return nomem_json(arr, err);
			continue;
		}
		if (jset(o, "change_pct", json_real(r->p.change_pct)) != 0 ||
		    jset(o, "ci_pct",
			r->p.have_ci
			    ? json_pack("[ff]", r->p.ci_lo_pct, r->p.ci_hi_pct)
			    : json_null()) != 0 ||
		    jset(o, "p_value",
			r->p.have_t ? json_real(r->p.p_value) : json_null()) !=
			0 ||
		    jset(o, "quantised", json_boolean(r->p.quantised)) != 0)
			return nomem_json(arr, err);
	}
	return arr;
}

static const struct report_writer paired_writer = { paired_text, paired_json,
	rows_free };

enum pr_status
pr_report_run_paired(struct pr_report_model *m, const char *key, int flags,
    const struct pr_session *s, size_t vi, const char *const *names, size_t n,
    struct pr_error *err)
{
	struct rows *d;
	struct row *r;
	struct pr_error e;
	struct pr_paired p;
	size_t i, pairs;
	int ok;

	if (vi == 0 || vi >= s->nv)
		return pr_error_set(err, PR_EINVAL,
		    "no variant %zu to pair with the baseline", vi);
	if ((d = rows_new(n, s->v[vi].name, s->v[0].name)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	d->order = s->opts.order;
	for (i = 0; i < n; i++) {
		pr_error_clear(&e);
		memset(&p, 0, sizeof(p));
		pairs = 0;
		ok = pr_session_paired(s, vi, names[i], 0.95,
			 pr_session_resolution(s, names[i]), &p, &pairs,
			 &e) == PR_OK;
		if (row_add(d, names[i], ok ? NULL : e.msg, &r) != PR_OK) {
			rows_free(d);
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		}
		r->pairs = pairs;
		r->p = p;
	}
	return report_model_writer(m, key, flags, &paired_writer, d, err);
}

/* ---------------------------------------------------------------- *
 * The decisions of --until-decided
 * ---------------------------------------------------------------- */

static const char *
decision_word(const struct pr_seq_result *r)
{
	return r->decision == PR_SEQ_CONTINUE
	    ? "undecided"
	    : pr_seq_decision_str(r->decision);
}

static enum pr_status
seq_row_md(struct pr_buf *out, const struct rows *d, const struct row *r,
    struct pr_error *err)
{
	enum pr_status st;

	if ((st = pr_buf_adds(out, "| ", err)) != PR_OK ||
	    (st = md(out, r->name, err)) != PR_OK)
		return st;
	if (r->undefined != NULL)
		return (st = pr_buf_adds(out, " | undefined: ", err)) !=
			    PR_OK ||
			(st = md(out, r->undefined, err)) != PR_OK
		    ? st
		    : pr_buf_adds(out, " | - | - | - |\n", err);
	if ((st = pr_buf_addf(out, err, " | %s | %+.2f%% | ",
		 decision_word(&r->r), r->r.change_pct)) != PR_OK)
		return st;
	st = r->r.bounded ? pr_buf_addf(out, err, "[%+.2f%%, %+.2f%%]",
				r->r.lo_pct, r->r.hi_pct)
			  : pr_buf_adds(out, "no bound yet", err);
	(void)d;
	return st != PR_OK
	    ? st
	    : pr_buf_addf(out, err, " | %zu%s |\n", r->r.n,
		  r->r.quantised ? " (spread at the resolution floor)" : "");
}

static enum pr_status
seq_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct rows *d = data;
	const struct row *r;
	enum pr_status st;
	size_t i;

	if ((st = pr_buf_addf(out, err,
		 "%sntil decided (%s, per round; anytime-valid: the chance "
		 "that any decision below is wrong is at most %.3g%%, however "
		 "the session stopped; %s):\n",
		 f == PR_REPORT_MARKDOWN ? "U" : "u", d->one, 100 * d->alpha,
		 d->two)) != PR_OK)
		return st;
	if (f == PR_REPORT_MARKDOWN &&
	    (st = pr_buf_addf(out, err,
		 "\n| metric | decision | change | %.3g%% confidence sequence "
		 "| rounds |\n|---|---|--:|---|--:|\n",
		 100 * (1 - d->alpha))) != PR_OK)
		return st;
	for (i = 0; i < d->n; i++) {
		r = &d->row[i];
		if (f == PR_REPORT_MARKDOWN) {
			if ((st = seq_row_md(out, d, r, err)) != PR_OK)
				return st;
			continue;
		}
		if ((st = pr_buf_adds(out, "  ", err)) != PR_OK ||
		    (st = cell(out, r->name, 14, f, err)) != PR_OK)
			return st;
		if (r->undefined != NULL) {
			if ((st = pr_buf_adds(out, " undefined: ", err)) !=
				PR_OK ||
			    (st = esc(out, r->undefined, err)) != PR_OK ||
			    (st = pr_buf_addc(out, '\n', err)) != PR_OK)
				return st;
			continue;
		}
		if ((st = pr_buf_addf(out, err, " %-12s %+.2f%%  ",
			 decision_word(&r->r), r->r.change_pct)) != PR_OK ||
		    (st = r->r.bounded
			    ? pr_buf_addf(out, err,
				  "%.3g%% confidence sequence [%+.2f%%, "
				  "%+.2f%%]",
				  100 * (1 - d->alpha), r->r.lo_pct,
				  r->r.hi_pct)
			    : pr_buf_adds(out, "no bound yet", err)) != PR_OK ||
		    (st = pr_buf_addf(out, err, "  %zu rounds%s\n", r->r.n,
			 r->r.quantised ? "  (spread at the resolution floor)"
					: "")) != PR_OK)
			return st;
	}
	return pr_buf_addf(out, err,
	    "%snote: the tables below analyse the same runs as if their "
	    "number had been fixed in advance; after a sequential stop their "
	    "p-values describe, the decisions above decide\n\n",
	    f == PR_REPORT_MARKDOWN ? "\n" : "");
}

static json_t *
seq_json(const void *data, struct pr_error *err)
{
	const struct rows *d = data;
	const struct row *r;
	json_t *o = json_object(), *arr = json_array(), *one;
	size_t i;

	if (o == NULL || jset(o, "method", jstrz(d->one)) != 0 ||
	    jset(o, "alpha", json_real(d->alpha)) != 0 ||
	    jset(o, "equivalence_pct", json_real(d->equivalence_pct)) != 0 ||
	    jset(o, "stopped", jstrz(d->two)) != 0 ||
	    jset(o, "metrics", arr) != 0)
		return nomem_json(o, err);
	for (i = 0; i < d->n; i++) {
		r = &d->row[i];
		one = json_object();
		if (one == NULL || json_array_append_new(arr, one) != 0 ||
		    jset(one, "name", jstrz(r->name)) != 0)
			return nomem_json(o, err);
		if (r->undefined != NULL) {
			if (jset(one, "undefined", jstrz(r->undefined)) != 0)
				return nomem_json(o, err);
			continue;
		}
		if (jset(one, "decision",
			json_string(pr_seq_decision_str(r->r.decision))) != 0 ||
		    jset(one, "rounds", json_integer((json_int_t)r->r.n)) !=
			0 ||
		    jset(one, "change_pct", json_real(r->r.change_pct)) != 0 ||
		    jset(one, "cs_pct",
			r->r.bounded
			    ? json_pack("[ff]", r->r.lo_pct, r->r.hi_pct)
			    : json_null()) != 0 ||
		    jset(one, "quantised", json_boolean(r->r.quantised)) != 0)
			return nomem_json(o, err);
	}
	return o;
}

static const struct report_writer seq_writer = { seq_text, seq_json,
	rows_free };

enum pr_status
pr_report_run_sequential(struct pr_report_model *m, const char *key, int flags,
    const struct pr_report_seq *q, struct pr_error *err)
{
	struct rows *d;
	struct row *r;
	size_t i;

	if ((d = rows_new(q->n, q->method, q->stopped)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	d->alpha = q->alpha;
	d->equivalence_pct = q->equivalence_pct;
	for (i = 0; i < q->n; i++) {
		if (row_add(d, q->rows[i].name, q->rows[i].undefined, &r) !=
		    PR_OK) {
			rows_free(d);
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		}
		r->r = q->rows[i].r;
	}
	return report_model_writer(m, key, flags, &seq_writer, d, err);
}

/* ---------------------------------------------------------------- *
 * The runs
 * ---------------------------------------------------------------- */

static json_t *
run_json(const struct pr_session *s, const struct pr_run *r,
    struct pr_error *err)
{
	json_t *o = json_object(), *m = json_object();
	const struct pr_metric *mt;
	size_t i;

	if (o == NULL || m == NULL) {
		json_decref(m);
		return nomem_json(o, err);
	}
	if (jset(o, "variant", jstrz(s->v[r->variant].name)) != 0 ||
	    jset(o, "seq", json_integer((json_int_t)r->seq)) != 0 ||
	    jset(o, "round", json_integer((json_int_t)r->round)) != 0 ||
	    jset(o, "warmup", json_boolean(r->warmup)) != 0 ||
	    jset(o, "ok", json_boolean(r->ok)) != 0 ||
	    jset(o, "outcome", json_string(pr_spawn_outcome_str(r->outcome))) !=
		0 ||
	    jset(o, "exit_status",
		r->exit_status >= 0 ? json_integer(r->exit_status)
				    : json_null()) != 0 ||
	    jset(o, "signal",
		r->signal > 0 ? json_integer(r->signal) : json_null()) != 0 ||
	    jset(o, "reason", jstrz(r->reason)) != 0 ||
	    jset(o, "failed_in", jstrz(r->failed_in)) != 0 ||
	    jset(o, "start_s", json_real(r->start_s)) != 0) {
		json_decref(m);
		return nomem_json(o, err);
	}
	for (i = 0; i < r->metrics.n; i++) {
		mt = &r->metrics.metrics[i];
		if (jset(m, mt->name,
			mt->values.n == 1 && isfinite(mt->values.v[0])
			    ? json_real(mt->values.v[0])
			    : json_null()) != 0) {
			json_decref(m);
			return nomem_json(o, err);
		}
	}
	if (jset(o, "metrics", m) != 0)
		return nomem_json(o, err);
	/* The monitors' figures (perfreg/monitor.h), apart from metrics. */
	if (r->monitors.n > 0) {
		if ((m = json_object()) == NULL || jset(o, "monitors", m) != 0)
			return nomem_json(o, err);
		for (i = 0; i < r->monitors.n; i++) {
			mt = &r->monitors.metrics[i];
			if (jset(m, mt->name,
				mt->values.n == 1 && isfinite(mt->values.v[0])
				    ? json_real(mt->values.v[0])
				    : json_null()) != 0)
				return nomem_json(o, err);
		}
	}
	if (r->output != NULL &&
	    (jset(o, "output", jstr(r->output, r->output_len)) != 0 ||
		jset(o, "output_truncated", json_boolean(r->truncated)) != 0))
		return nomem_json(o, err);
	return o;
}

static enum pr_status
runs_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct pr_session *s = data;
	const struct pr_run *r;
	const char *p, *end, *nl;
	enum pr_status st;
	size_t i, shown;
	int first = 1;

	for (i = 0; i < s->nruns; i++) {
		r = &s->runs[i];
		if (r->ok || r->outcome == PR_SPAWN_INTERRUPTED)
			continue;
		if ((st = pr_buf_addf(out, err, "%s%sailed: ",
			 first || f == PR_REPORT_MARKDOWN ? "\n" : "",
			 f == PR_REPORT_MARKDOWN ? "F" : "f")) != PR_OK ||
		    (st = word(out, s->v[r->variant].name, f, err)) != PR_OK ||
		    (st = pr_buf_addf(out, err,
			 ", %s run %zu: ", r->warmup ? "warm-up" : "counted",
			 r->round + 1)) != PR_OK ||
		    (st = word(out, r->reason, f, err)) != PR_OK ||
		    (st = pr_buf_addc(out, '\n', err)) != PR_OK)
			return st;
		first = 0;
		/* Markdown: an indented code block, which no line of the
		 * output can end (each starts with four spaces). */
		if (f == PR_REPORT_MARKDOWN && r->output_len > 0 &&
		    (st = pr_buf_addc(out, '\n', err)) != PR_OK)
			return st;
		shown =
		    r->output_len < SHOWN_OUTPUT ? r->output_len : SHOWN_OUTPUT;
		for (p = r->output, end = p + shown; p != NULL && p < end;
		     p = nl + 1) {
			nl = memchr(p, '\n', (size_t)(end - p));
			if (nl == NULL)
				nl = end;
			if ((st = pr_buf_adds(out, "    ", err)) != PR_OK ||
			    (st = pr_report_escape(out, p, (size_t)(nl - p),
				 PR_ESCAPE_TAB, err)) != PR_OK ||
			    (st = pr_buf_addc(out, '\n', err)) != PR_OK)
				return st;
		}
		if (shown < r->output_len &&
		    (st = pr_buf_addf(out, err,
			 "    ... (%zu bytes of output%s)\n", r->output_len,
			 r->truncated ? ", and more not kept" : "")) != PR_OK)
			return st;
	}
	return PR_OK;
}

static json_t *
runs_json(const void *data, struct pr_error *err)
{
	const struct pr_session *s = data;
	json_t *arr = json_array(), *o;
	size_t i;

	if (arr == NULL)
		return nomem_json(arr, err);
	for (i = 0; i < s->nruns; i++) {
		if ((o = run_json(s, &s->runs[i], err)) == NULL) {
			json_decref(arr);
			return NULL;
		}
		if (json_array_append_new(arr, o) != 0)
			return nomem_json(arr, err);
	}
	return arr;
}

static size_t
runs_count(const void *data)
{
	return ((const struct pr_session *)data)->nruns;
}

static json_t *
runs_item(const void *data, size_t i, struct pr_error *err)
{
	const struct pr_session *s = data;

	return run_json(s, &s->runs[i], err);
}

static const struct report_writer runs_writer = { runs_text, runs_json, NULL };

static const struct report_stream runs_stream = { runs_count, runs_item };

const struct report_stream *
report_json_stream(const struct report_writer *w)
{
	return w == &runs_writer ? &runs_stream : NULL;
}

enum pr_status
pr_report_run_runs(struct pr_report_model *m, const char *key, int flags,
    const struct pr_session *s, struct pr_error *err)
{
	return report_model_writer(m, key, flags, &runs_writer, (void *)s, err);
}

/* ---------------------------------------------------------------- *
 * The HTML forms (perfreg/report_html.h): tables of the same rows,
 * every string from outside through report_html_esc
 * ---------------------------------------------------------------- */

/* "+8.3%" or "-" into buf. */
static const char *
hpct(char *buf, size_t size, int have, double x)
{
	if (!have || !isfinite(x))
		snprintf(buf, size, "-");
	else
		report_fmt_pct(buf, size, x);
	return buf;
}

static enum pr_status
session_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct pr_session *s = data;
	enum pr_status st;
	size_t i;

	if ((st = pr_buf_adds(out,
		 "<section class=\"session\"><table class=\"variants\"><thead>"
		 "<tr><th></th><th>name</th><th>command</th><th>runs ok</th>"
		 "<th>failed</th></tr></thead><tbody>",
		 err)) != PR_OK)
		return st;
	for (i = 0; i < s->nv; i++)
		if ((st = pr_buf_addf(out, err, "<tr><td>%s</td><td>",
			 i == 0 ? "baseline" : "variant")) != PR_OK ||
		    (st = report_html_esc(out, s->v[i].name, err)) != PR_OK ||
		    (st = pr_buf_adds(out, "</td><td><code>", err)) != PR_OK ||
		    (st = report_html_esc(out, s->v[i].command, err)) !=
			PR_OK ||
		    (st = pr_buf_addf(out, err,
			 "</code></td><td class=\"n\">%zu</td><td "
			 "class=\"n\">%zu</td></tr>",
			 s->v[i].runs_ok, s->v[i].runs_failed)) != PR_OK)
			return st;
	if ((st = pr_buf_addf(out, err,
		 "</tbody></table><p>session: %zu rounds of %zu, %s order, "
		 "seed %llu, %zu warm-up round%s, %zu runs in %.3f s; "
		 "stopped: %s; timer CLOCK_MONOTONIC, resolution %.3g s; "
		 "perfreg's own time per run %.3g s (not in the "
		 "measurements)</p>",
		 s->rounds_done, s->opts.runs, pr_order_str(s->opts.order),
		 (unsigned long long)s->opts.seed, s->opts.warmup,
		 s->opts.warmup == 1 ? "" : "s", s->nruns, s->elapsed_s,
		 pr_stop_str(s->stop), s->clock_res_s, s->overhead_s)) != PR_OK)
		return st;
	if (s->opts.order == PR_ORDER_SEQUENTIAL && s->nv > 1 &&
	    (st = pr_buf_adds(out,
		 "<p class=\"warning\"><b>note:</b> sequential order (every "
		 "run of one variant, then the next): drift of the machine's "
		 "speed falls on one side and can look like a change</p>",
		 err)) != PR_OK)
		return st;
	return pr_buf_adds(out, "</section>\n", err);
}

static const char *
summary_name(const void *data, size_t i)
{
	return ((const struct summaries *)data)->row[i].name;
}

static enum pr_status
summary_cells(struct pr_buf *out, const void *data, size_t i,
    struct pr_error *err)
{
	const struct summary_row *r = &((const struct summaries *)data)->row[i];
	enum pr_status st;

	if ((st = pr_buf_addf(out, err, "<td class=\"n\">%.6g</td><td>",
		 r->sum.mean)) != PR_OK ||
	    (st = report_html_esc(out, r->unit, err)) != PR_OK)
		return st;
	return pr_buf_addf(out, err,
	    "</td><td class=\"n\">%.6g</td><td class=\"n\">%.6g"
	    "</td><td class=\"n\">%.6g</td><td class=\"n\">%zu</td>",
	    r->sum.median, r->sum.min, r->sum.max, r->sum.n);
}

static enum pr_status
summaries_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct report_html_table t = {
		"<table class=\"summaries sortable\"><thead><tr><th>metric"
		"</th><th>mean</th><th>unit</th><th>median</th><th>min</th>"
		"<th>max</th><th>n</th></tr></thead><tbody>",
		"</tbody></table>\n", ((const struct summaries *)data)->n, data,
		summary_name, summary_cells
	};

	return report_html_table(out, &t, err);
}

/* The name of row i of run's paired and sequential tables. */
static const char *
row_name(const void *data, size_t i)
{
	return ((const struct rows *)data)->row[i].name;
}

static enum pr_status
paired_cells(struct pr_buf *out, const void *data, size_t i,
    struct pr_error *err)
{
	const struct row *r = &((const struct rows *)data)->row[i];
	enum pr_status st;
	const char *rem;
	char a[32], b[32], c[32];

	if (r->undefined != NULL) {
		if ((st = pr_buf_addf(out, err,
			 "<td class=\"n\">-</td><td class=\"n\">-</td><td "
			 "class=\"n\">-</td><td class=\"n\">%zu</td><td>"
			 "undefined: ",
			 r->pairs)) != PR_OK ||
		    (st = report_html_esc(out, r->undefined, err)) != PR_OK)
			return st;
		return pr_buf_adds(out, "</td>", err);
	}
	rem = r->p.have_ci ? paired_remark(&r->p) : "no interval";
	report_fmt_interval(b, sizeof(b), r->p.have_ci, r->p.ci_lo_pct,
	    r->p.ci_hi_pct);
	report_fmt_p(c, sizeof(c), r->p.have_ci && r->p.have_t, r->p.p_value);
	return pr_buf_addf(out, err,
	    "<td class=\"n\">%s</td><td class=\"n\">%s</td><td "
	    "class=\"n\">%s</td><td class=\"n\">%zu</td><td>%s</td>",
	    hpct(a, sizeof(a), 1, r->p.change_pct), b, c, r->pairs,
	    rem != NULL ? rem : "");
}

static enum pr_status
paired_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct rows *d = data;
	const struct report_html_table t = { NULL, "</tbody></table>\n", d->n,
		data, row_name, paired_cells };
	enum pr_status st;

	if ((st = pr_buf_addf(out, err,
		 "<h3>paired, round by round</h3><p class=\"cap\">%s order; "
		 "the mean of the per-round log-ratios ",
		 pr_order_str(d->order))) != PR_OK ||
	    (st = report_html_esc(out, d->one, err)) != PR_OK ||
	    (st = pr_buf_adds(out, "/", err)) != PR_OK ||
	    (st = report_html_esc(out, d->two, err)) != PR_OK ||
	    (st = pr_buf_adds(out,
		 ", one-sample t</p><table class=\"paired sortable\"><thead>"
		 "<tr><th>metric</th><th>change</th><th>95% interval</th>"
		 "<th>p</th><th>pairs</th><th>note</th></tr></thead><tbody>",
		 err)) != PR_OK)
		return st;
	return report_html_table(out, &t, err);
}

/* A sequential decision's verdict colour ("undecided" is
 * inconclusive's). */
static const char *
decision_class(const struct pr_seq_result *r)
{
	return r->decision == PR_SEQ_CONTINUE
	    ? "inconclusive"
	    : pr_seq_decision_str(r->decision);
}

static enum pr_status
seq_cells(struct pr_buf *out, const void *data, size_t i, struct pr_error *err)
{
	const struct row *r = &((const struct rows *)data)->row[i];
	enum pr_status st;
	char a[32], b[48];

	if (r->undefined != NULL) {
		if ((st = pr_buf_adds(out,
			 "<td colspan=\"4\">undefined: ", err)) != PR_OK ||
		    (st = report_html_esc(out, r->undefined, err)) != PR_OK)
			return st;
		return pr_buf_adds(out, "</td>", err);
	}
	if (r->r.bounded)
		report_fmt_interval(b, sizeof(b), 1, r->r.lo_pct, r->r.hi_pct);
	else
		snprintf(b, sizeof(b), "no bound yet");
	/* A span, not a verdict cell: the page's verdict cells are its
	 * comparisons' rows. */
	return pr_buf_addf(out, err,
	    "<td><span class=\"verdict v-%s\">%s</span></td><td "
	    "class=\"n\">%s</td><td class=\"n\">%s</td><td "
	    "class=\"n\">%zu%s</td>",
	    decision_class(&r->r), decision_word(&r->r),
	    hpct(a, sizeof(a), 1, r->r.change_pct), b, r->r.n,
	    r->r.quantised ? " (spread at the resolution floor)" : "");
}

static enum pr_status
seq_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct rows *d = data;
	const struct report_html_table t = { NULL,
		"</tbody></table><p class=\"cap\">the tables below analyse "
		"the same runs as if their number had been fixed in advance; "
		"after a sequential stop their p-values describe, the "
		"decisions above decide</p>\n",
		d->n, data, row_name, seq_cells };
	enum pr_status st;

	if ((st = pr_buf_adds(out, "<h3>until decided</h3><p class=\"cap\">",
		 err)) != PR_OK ||
	    (st = report_html_esc(out, d->one, err)) != PR_OK ||
	    (st = pr_buf_addf(out, err,
		 ", per round; anytime-valid: the chance that any decision "
		 "below is wrong is at most %.3g%%, however the session "
		 "stopped; ",
		 100 * d->alpha)) != PR_OK ||
	    (st = report_html_esc(out, d->two, err)) != PR_OK ||
	    (st = pr_buf_addf(out, err,
		 "</p><table class=\"sequential\"><thead><tr><th>metric</th>"
		 "<th>decision</th><th>change</th><th>%.3g%% confidence "
		 "sequence</th><th>rounds</th></tr></thead><tbody>",
		 100 * (1 - d->alpha))) != PR_OK)
		return st;
	return report_html_table(out, &t, err);
}

static enum pr_status
runs_html(struct pr_buf *out, const void *data, struct pr_error *err)
{
	const struct pr_session *s = data;
	const struct pr_run *r;
	enum pr_status st;
	size_t i, shown;

	for (i = 0; i < s->nruns; i++) {
		r = &s->runs[i];
		if (r->ok || r->outcome == PR_SPAWN_INTERRUPTED)
			continue;
		if ((st = pr_buf_adds(out,
			 "<p class=\"warning\"><b>failed:</b> ", err)) !=
			PR_OK ||
		    (st = report_html_esc(out, s->v[r->variant].name, err)) !=
			PR_OK ||
		    (st = pr_buf_addf(out, err,
			 ", %s run %zu: ", r->warmup ? "warm-up" : "counted",
			 r->round + 1)) != PR_OK ||
		    (st = report_html_esc(out, r->reason, err)) != PR_OK ||
		    (st = pr_buf_adds(out, "</p>", err)) != PR_OK)
			return st;
		if (r->output_len == 0)
			continue;
		shown =
		    r->output_len < SHOWN_OUTPUT ? r->output_len : SHOWN_OUTPUT;
		/* A tab as ^I, as every control byte on the page. */
		if ((st = pr_buf_adds(out, "<pre class=\"output\">", err)) !=
			PR_OK ||
		    (st = pr_report_html_escape(out, r->output, shown,
			 PR_ESCAPE_NEWLINE, err)) != PR_OK ||
		    (shown < r->output_len &&
			(st = pr_buf_addf(out, err,
			     "\n... (%zu bytes of output%s)", r->output_len,
			     r->truncated ? ", and more not kept" : "")) !=
			    PR_OK) ||
		    (st = pr_buf_adds(out, "</pre>\n", err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

report_html_fn
report_run_html(const struct report_writer *w)
{
	if (w == &session_writer)
		return session_html;
	if (w == &summaries_writer)
		return summaries_html;
	if (w == &paired_writer)
		return paired_html;
	if (w == &seq_writer)
		return seq_html;
	if (w == &runs_writer)
		return runs_html;
	return NULL;
}

enum pr_status
pr_report_run_times(const struct pr_session *s, size_t vi, const char *name,
    size_t n, double **at, struct pr_error *err)
{
	const struct pr_run *r;
	const struct pr_metric *mt;
	size_t i, j, k, got = 0;

	*at = NULL;
	if (vi >= s->nv || n == 0)
		return PR_OK;
	if ((*at = malloc(n * sizeof(**at))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < s->nruns; i++) {
		r = &s->runs[i];
		if (r->variant != vi || !r->ok || r->warmup)
			continue;
		for (k = 0; k < r->metrics.n; k++) {
			mt = &r->metrics.metrics[k];
			/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): a dataset's metrics all have names */
			if (strcmp(mt->name, name) != 0)
				continue;
			if (got + mt->values.n > n)
				goto unaligned;
			for (j = 0; j < mt->values.n; j++)
				(*at)[got++] = r->start_s;
		}
	}
	if (got == n)
		return PR_OK;
unaligned:
	free(*at);
	*at = NULL;
	return PR_OK;
}

enum pr_status
pr_report_run_line(struct pr_buf *out, const struct pr_session *s,
    const struct pr_run *r, struct pr_error *err)
{
	json_t *j;

	if ((j = run_json(s, r, err)) == NULL)
		return err != NULL ? err->status : PR_ENOMEM;
	return report_json_dump(out, j, JSON_COMPACT, err);
}
