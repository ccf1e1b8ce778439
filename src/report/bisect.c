/*
 * report/bisect.c - the report of `perfreg bisect` (perfreg/report_bisect.h):
 * the verdict in one sentence, then the range and metric, the culprit
 * with the change of its confirmation (the anytime-valid interval of
 * perfreg/seq.h) and the posterior of its neighbours, or the commits that
 * hold the mass, the runs and builds used, skipped commits and the
 * commits measured, as text, Markdown and one JSON object.
 *
 * Percentages of a level come from the log scale of the search: a step
 * of d log units is a change of 100 (e^d - 1) %.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/report.h"
#include "perfreg/report_bisect.h"
#include "report/internal.h"
#include "core/banned.h"

#define NEIGHBOURS 2
#define MEASURED_SHOWN 12

static double
pct(double d)
{
	return 100 * expm1(d);
}

/* Appends s (from outside) escaped; in Markdown also for Markdown. */
static enum pr_status
put(struct pr_buf *out, const char *s, enum pr_report_format f,
    struct pr_error *err)
{
	char *e;
	enum pr_status st;

	if (f != PR_REPORT_MARKDOWN)
		return pr_report_escape(out, s, strlen(s), 0, err);
	if ((e = pr_report_escape_str(s, 0)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	st = report_md_escape(out, e, err);
	free(e);
	return st;
}

/* "commit 17 3c4d5e6f7a8b" */
static enum pr_status
commit_ref(struct pr_buf *out, const struct pr_bisect_job *j, size_t pos,
    struct pr_error *err)
{
	return pr_buf_addf(out, err, "%.12s (%s%zu)", j->c[pos].hash,
	    pos == 0          ? "good, "
		: pos == j->n ? "bad, "
			      : "",
	    pos);
}

static const char *
better_str(int b)
{
	return b == 1 ? "higher is better" : "lower is better";
}

/* The two confirmed changes in order of position, into c[0], c[1]. */
static void
two_changes(const struct pr_bisect_job *j, struct pr_bisect_confirmation *c)
{
	c[0] = j->first;
	c[1] = pr_bisect_job_confirmation(j);
	if (c[1].culprit < c[0].culprit) {
		struct pr_bisect_confirmation x = c[0];

		c[0] = c[1];
		c[1] = x;
	}
}

/* "several changes: 2 commits moved METRIC, each confirmed against its
 * parent: HASH "subject" +X% [lo, hi], HASH ..." */
static enum pr_status
several_line(struct pr_buf *out, const struct pr_bisect_job *j, int md,
    struct pr_error *err)
{
	struct pr_bisect_confirmation c[2];
	enum pr_status st;
	size_t i;

	two_changes(j, c);
	if ((st = pr_buf_adds(out, "several changes: 2 commits moved ", err)) !=
		PR_OK ||
	    (st = put(out, j->metric, md ? PR_REPORT_MARKDOWN : PR_REPORT_TEXT,
		 err)) != PR_OK ||
	    (st = pr_buf_adds(out,
		 ", each confirmed against its parent: ", err)) != PR_OK)
		return st;
	for (i = 0; i < 2; i++) {
		const struct pr_seq_result *r = &c[i].result;

		if ((st = pr_buf_addf(out, err, "%s%s%.12s%s \"", i ? ", " : "",
			 md ? "**" : "", j->c[c[i].culprit].hash,
			 md ? "**" : "")) != PR_OK ||
		    (st = put(out, j->c[c[i].culprit].subject,
			 md ? PR_REPORT_MARKDOWN : PR_REPORT_TEXT, err)) !=
			PR_OK ||
		    (st = pr_buf_addf(out, err, "\" %+.3g%% [%+.3g%%, %+.3g%%]",
			 r->change_pct, r->lo_pct, r->hi_pct)) != PR_OK)
			return st;
	}
	return PR_OK;
}

/* "confirmation: HASH against its parent HASH, N interleaved rounds..." */
static enum pr_status
confirmation_line(struct pr_buf *out, const struct pr_bisect_job *j,
    const char *item, const struct pr_bisect_confirmation *c,
    struct pr_error *err)
{
	char before[64] = "";

	if (c->before > 0)
		snprintf(before, sizeof(before), " (%zu before a resume)",
		    c->before);
	return pr_buf_addf(out, err,
	    "%sconfirmation: %.12s against its parent %.12s, %zu "
	    "interleaved rounds%s, anytime-valid sequential %s test at "
	    "%.0f%%: %s, %+.3g%% [%+.3g%%, %+.3g%%]\n",
	    item, j->c[c->culprit].hash, j->c[c->parent].hash, c->runs, before,
	    c->method == PR_SEQ_METHOD_SIGN ? "sign" : "t",
	    100 * j->o.confidence, pr_seq_decision_str(c->result.decision),
	    c->result.change_pct, c->result.lo_pct, c->result.hi_pct);
}

static enum pr_status
headline(struct pr_buf *out, const struct pr_bisect_job *j, int md,
    struct pr_error *err)
{
	const struct pr_bisect_state *s = &j->st;
	const struct pr_seq_result *r = &j->confirm;
	const char *why;
	enum pr_status st;
	size_t c = j->culprit;

	switch (j->verdict) {
	case PR_BISECT_V_CULPRIT:
		if ((st = pr_buf_addf(out, err, "%sculprit: %.12s ",
			 md ? "**" : "", j->c[c].hash)) != PR_OK ||
		    (st = pr_buf_adds(out, "\"", err)) != PR_OK ||
		    (st = put(out, j->c[c].subject,
			 md ? PR_REPORT_MARKDOWN : PR_REPORT_TEXT, err)) !=
			PR_OK)
			return st;
		if ((st = pr_buf_addf(out, err,
			 "\"%s: %s%.3g%% [%+.3g%%, %+.3g%%] against its "
			 "parent, %s",
			 md ? "**" : "", r->change_pct >= 0 ? "+" : "",
			 r->change_pct, r->lo_pct, r->hi_pct,
			 pr_seq_decision_str(r->decision))) != PR_OK)
			return st;
		/* Next to skipped commits the change is known to a range. */
		if (j->parent + 1 < c)
			st = pr_buf_addf(out, err,
			    " (or one of the %zu skipped commits before it)",
			    c - j->parent - 1);
		return st;
	case PR_BISECT_V_NOT_CONFIRMED:
		return pr_buf_addf(out, err,
		    "not confirmed: the search pointed at %.12s, but it and "
		    "its "
		    "parent are equivalent (%+.3g%% [%+.3g%%, %+.3g%%], within "
		    "+-%g%%)",
		    j->c[c].hash, r->change_pct, r->lo_pct, r->hi_pct,
		    j->o.equiv_pct);
	case PR_BISECT_V_NOT_REPRODUCED:
		return pr_buf_addf(out, err,
		    "not reproduced: --good and --bad do not differ (%+.3g%%, "
		    "within +-%g%%); no commit to name",
		    pct(s->ends_log), j->o.equiv_pct);
	case PR_BISECT_V_SEVERAL:
		if (j->first.culprit != 0)
			return several_line(out, j, md, err);
		return pr_buf_addf(out, err,
		    "several changes: more than one commit moved %s "
		    "(P = %.3f); the commits holding the mass are listed below",
		    j->metric, s->p_multi);
	case PR_BISECT_V_UNDECIDED:
		/* What stopped it: the budget, or (budget left) no run that
		 * would add information. */
		why = j->budget_hit ? "undecided within budget"
				    : "undecided with budget left (no run "
				      "would add information)";
		if (s->lo == s->hi)
			return pr_buf_addf(out, err,
			    "%s: most likely %.12s (P = %.3f, needs %.2f)", why,
			    j->c[s->hi].hash, s->p_loc, j->o.confidence);
		return pr_buf_addf(out, err,
		    "%s: most likely between %.12s and %.12s (P = %.3f, "
		    "needs %.2f)",
		    why, j->c[s->lo].hash, j->c[s->hi].hash, s->p_loc,
		    j->o.confidence);
	case PR_BISECT_V_NONE:
		break;
	}
	return pr_buf_adds(out, "interrupted: no verdict yet", err);
}

/* The commits with the most posterior mass (single and multi), up to
 * k, into idx; returns how many. */
static size_t
top_commits(const struct pr_bisect_job *j, size_t *idx, size_t k)
{
	size_t i, m = 0, w;
	double p;

	for (i = 1; i <= j->n && j->single != NULL; i++) {
		p = j->single[i] + j->multi[i];
		if (p < 0.05)
			continue;
		for (w = m;
		     w > 0 && j->single[idx[w - 1]] + j->multi[idx[w - 1]] < p;
		     w--)
			if (w < k)
				idx[w] = idx[w - 1];
		if (w < k) {
			idx[w] = i;
			if (m < k)
				m++;
		}
	}
	return m;
}

static enum pr_status
body_text(struct pr_buf *out, const void *data, enum pr_report_format f,
    struct pr_error *err)
{
	const struct pr_bisect_job *j = data;
	const struct pr_bisect_state *s = &j->st;
	const char *item = f == PR_REPORT_MARKDOWN ? "- " : "";
	enum pr_status st;
	size_t i, lo, hi, measured = 0, skipped = 0, shown = 0, top[8], nt;
	double mean;

	if ((st = pr_buf_addf(out, err,
		 "%srange: %zu commits after %.12s up to %.12s (first "
		 "parents); metric ",
		 item, j->n, j->c[0].hash, j->c[j->n].hash)) != PR_OK ||
	    (st = put(out, j->metric != NULL ? j->metric : "-", f, err)) !=
		PR_OK ||
	    (st = pr_buf_addf(out, err, " (%s)\n",
		 better_str(j->metric_better))) != PR_OK)
		return st;
	if (j->verdict == PR_BISECT_V_SEVERAL && j->first.culprit != 0) {
		struct pr_bisect_confirmation c[2];

		two_changes(j, c);
		if ((st = confirmation_line(out, j, item, &c[0], err)) !=
			PR_OK ||
		    (st = confirmation_line(out, j, item, &c[1], err)) != PR_OK)
			return st;
	} else if (j->confirmed_tried) {
		struct pr_bisect_confirmation c = pr_bisect_job_confirmation(j);

		if ((st = confirmation_line(out, j, item, &c, err)) != PR_OK)
			return st;
	}
	if (j->have_state && j->single != NULL) {
		if ((st = pr_buf_addf(out, err,
			 "%sposterior: no change %.3f, several changes %.3f",
			 item, s->p_none, s->p_multi)) != PR_OK)
			return st;
		if (j->verdict == PR_BISECT_V_SEVERAL ||
		    j->verdict == PR_BISECT_V_UNDECIDED) {
			nt = top_commits(j, top, 8);
			for (i = 0; i < nt && st == PR_OK; i++)
				st = pr_buf_addf(out, err, "%s%.12s (%zu) %.3f",
				    i == 0 ? "; most mass: " : ", ",
				    j->c[top[i]].hash, top[i],
				    j->single[top[i]] + j->multi[top[i]]);
		} else if (s->lo >= 1) {
			lo = s->lo > NEIGHBOURS ? s->lo - NEIGHBOURS : 1;
			hi = s->hi + NEIGHBOURS <= j->n ? s->hi + NEIGHBOURS
							: j->n;
			for (i = lo; i <= hi && st == PR_OK; i++)
				st = pr_buf_addf(out, err, "%s%zu %.3f",
				    i == lo ? "; first bad commit: " : ", ", i,
				    j->single[i]);
		}
		if (st == PR_OK && s->modes == 2)
			st = pr_buf_addf(out, err,
			    "; noise in two modes, %.0f%% of the runs %+.3g%%",
			    100 * s->mode_share, pct(s->mode_shift));
		if (st == PR_OK)
			st = pr_buf_addc(out, '\n', err);
		if (st != PR_OK)
			return st;
	}
	for (i = 0; i <= j->n; i++) {
		measured += j->c[i].n > 0;
		skipped += j->c[i].built < 0;
	}
	if ((st = pr_buf_addf(out, err,
		 "%sruns: %zu at %zu commits (%zu failed), builds: %zu, "
		 "skipped: %zu; %.1f s (a run %.3g s, a build %.3g s)\n",
		 item, j->runs, measured, j->runs_failed, j->builds, skipped,
		 j->elapsed_s, j->run_cost_s, j->build_cost_s)) != PR_OK)
		return st;
	if (j->bound_at > 0 &&
	    (st = pr_buf_addf(out, err,
		 "%sbudget: a build priced as a run from run %zu on (the runs "
		 "left were fewer than a build's price for each bit still to "
		 "learn)\n",
		 item, j->bound_at)) != PR_OK)
		return st;
	if (j->runs_prior > 0 &&
	    (st = pr_buf_addf(out, err,
		 "%sresumed: %zu of the runs were measured before\n", item,
		 j->runs_prior)) != PR_OK)
		return st;
	if (j->refuted > 0 &&
	    (st = pr_buf_addf(out, err,
		 "%srefuted: %zu confirmation%s found the commit named equal "
		 "to its parent and sent the search back (at most %d)\n",
		 item, j->refuted, j->refuted == 1 ? "" : "s",
		 PR_BISECT_JOB_REFUTED_MAX)) != PR_OK)
		return st;
	for (i = 0; i <= j->n; i++) {
		if (j->c[i].built >= 0)
			continue;
		if ((st = pr_buf_addf(out, err, "%sskipped ", item)) != PR_OK ||
		    (st = commit_ref(out, j, i, err)) != PR_OK ||
		    (st = pr_buf_adds(out, ": ", err)) != PR_OK ||
		    (st = put(out,
			 j->c[i].skip_reason != NULL ? j->c[i].skip_reason
						     : "skipped",
			 f, err)) != PR_OK ||
		    (st = pr_buf_addc(out, '\n', err)) != PR_OK)
			return st;
	}
	for (i = 0; i <= j->n && shown < MEASURED_SHOWN; i++) {
		size_t k;

		if (j->c[i].n == 0)
			continue;
		mean = 0;
		for (k = 0; k < j->c[i].n; k++)
			mean += log(j->c[i].v[k]);
		mean = exp(mean / (double)j->c[i].n);
		if ((st = pr_buf_addf(out, err, "%s%s", item,
			 shown == 0 || f == PR_REPORT_MARKDOWN
			     ? "measured "
			     : "         ")) != PR_OK ||
		    (st = commit_ref(out, j, i, err)) != PR_OK ||
		    (st = pr_buf_addf(out, err,
			 ": %zu runs, geometric mean %.4g ", j->c[i].n,
			 mean)) != PR_OK ||
		    (st = pr_buf_adds(out, "\"", err)) != PR_OK ||
		    (st = put(out, j->c[i].subject, f, err)) != PR_OK ||
		    (st = pr_buf_adds(out, "\"\n", err)) != PR_OK)
			return st;
		shown++;
	}
	return PR_OK;
}

static int
jset(json_t *o, const char *key, json_t *v)
{
	return v == NULL || json_object_set_new(o, key, v) != 0 ? -1 : 0;
}

/* A string from outside: as it is when UTF-8, else escaped (cat -v). */
static json_t *
jtext(const char *s)
{
	json_t *v;
	char *e;

	if (s == NULL)
		return json_null();
	if ((v = json_string(s)) != NULL)
		return v;
	if ((e = pr_report_escape_str(s, 0)) == NULL)
		return NULL;
	v = json_string(e);
	free(e);
	return v;
}

static json_t *
jcommit(const struct pr_bisect_job *j, size_t pos)
{
	json_t *o = json_object();

	if (o == NULL || jset(o, "position", json_integer((json_int_t)pos)) ||
	    jset(o, "hash", json_string(j->c[pos].hash)) ||
	    jset(o, "subject", jtext(j->c[pos].subject))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A confirmed (or tried) change: the commit, its parent, the decision,
 * the change and its interval, the rounds; NULL when out of memory. */
static json_t *
jconfirmation(const struct pr_bisect_job *j,
    const struct pr_bisect_confirmation *k)
{
	json_t *c = jcommit(j, k->culprit), *x;
	int bad = 0;

	if (c == NULL)
		return NULL;
	bad |= jset(c, "parent", jcommit(j, k->parent));
	bad |= jset(c, "decision",
	    json_string(pr_seq_decision_str(k->result.decision)));
	bad |= jset(c, "change_pct", json_real(k->result.change_pct));
	x = json_array();
	bad |= jset(c, "ci_pct", x);
	if (x != NULL) {
		bad |= json_array_append_new(x,
		    k->result.bounded ? json_real(k->result.lo_pct)
				      : json_null());
		bad |= json_array_append_new(x,
		    k->result.bounded ? json_real(k->result.hi_pct)
				      : json_null());
	}
	bad |= jset(c, "rounds", json_integer((json_int_t)k->runs));
	bad |= jset(c, "rounds_before", json_integer((json_int_t)k->before));
	bad |= jset(c, "method",
	    json_string(k->method == PR_SEQ_METHOD_SIGN
		    ? "anytime-valid sequential sign test"
		    : "anytime-valid sequential t test"));
	if (bad) {
		json_decref(c);
		return NULL;
	}
	return c;
}

static json_t *
body_json(const void *data, struct pr_error *err)
{
	const struct pr_bisect_job *j = data;
	const struct pr_bisect_state *s = &j->st;
	json_t *o = json_object(), *a, *c, *x;
	size_t i, k, top[8], nt;
	double mean;
	int bad = 0;

	if (o == NULL)
		goto nomem;
	bad |=
	    jset(o, "verdict", json_string(pr_bisect_verdict_str(j->verdict)));
	bad |= jset(o, "metric", jtext(j->metric));
	bad |= jset(o, "better",
	    json_string(j->metric_better == 1 ? "higher" : "lower"));
	bad |= jset(o, "good", jcommit(j, 0));
	bad |= jset(o, "bad", jcommit(j, j->n));
	bad |= jset(o, "commits", json_integer((json_int_t)j->n));
	if (j->verdict == PR_BISECT_V_CULPRIT ||
	    j->verdict == PR_BISECT_V_NOT_CONFIRMED ||
	    (j->verdict == PR_BISECT_V_UNDECIDED && j->confirmed_tried)) {
		struct pr_bisect_confirmation cur =
		    pr_bisect_job_confirmation(j);

		bad |= jset(o, "culprit", jconfirmation(j, &cur));
	} else {
		bad |= jset(o, "culprit", json_null());
	}
	/* Several changes confirmed: both, in order of position. */
	if (j->verdict == PR_BISECT_V_SEVERAL && j->first.culprit != 0) {
		struct pr_bisect_confirmation two[2];

		two_changes(j, two);
		a = json_array();
		bad |= jset(o, "changes", a);
		for (i = 0; a != NULL && i < 2; i++)
			bad |=
			    json_array_append_new(a, jconfirmation(j, &two[i]));
	}
	if (j->have_state) {
		x = json_object();
		bad |= jset(o, "posterior", x);
		if (x != NULL) {
			bad |= jset(x, "none", json_real(s->p_none));
			bad |= jset(x, "several", json_real(s->p_multi));
			bad |= jset(x, "location_p", json_real(s->p_loc));
			bad |= jset(x, "location",
			    json_pack("[II]", (json_int_t)s->lo,
				(json_int_t)s->hi));
			bad |= jset(x, "ends_change_pct",
			    json_real(pct(s->ends_log)));
			bad |= jset(x, "noise_modes",
			    json_integer((json_int_t)s->modes));
			bad |= jset(x, "second_mode_share",
			    s->modes == 2 ? json_real(s->mode_share)
					  : json_null());
			bad |= jset(x, "second_mode_pct",
			    s->modes == 2 ? json_real(pct(s->mode_shift))
					  : json_null());
			a = json_array();
			bad |= jset(x, "commits", a);
			nt = top_commits(j, top, 8);
			for (i = 0; a != NULL && i < nt; i++) {
				c = jcommit(j, top[i]);
				bad |= json_array_append_new(a, c);
				if (c != NULL) {
					bad |= jset(c, "p_single",
					    json_real(j->single[top[i]]));
					bad |= jset(c, "p_several",
					    json_real(j->multi[top[i]]));
				}
			}
		}
	}
	bad |= jset(o, "runs", json_integer((json_int_t)j->runs));
	bad |= jset(o, "runs_failed", json_integer((json_int_t)j->runs_failed));
	bad |= jset(o, "runs_before", json_integer((json_int_t)j->runs_prior));
	bad |= jset(o, "refuted", json_integer((json_int_t)j->refuted));
	bad |= jset(o, "builds", json_integer((json_int_t)j->builds));
	bad |= jset(o, "elapsed_s", json_real(j->elapsed_s));
	bad |= jset(o, "budget_reached", json_boolean(j->budget_hit));
	bad |= jset(o, "build_priced_as_run_from",
	    j->bound_at > 0 ? json_integer((json_int_t)j->bound_at)
			    : json_null());
	bad |= jset(o, "interrupted", json_boolean(j->interrupted));
	a = json_array();
	bad |= jset(o, "skipped", a);
	for (i = 0; a != NULL && i <= j->n; i++) {
		if (j->c[i].built >= 0)
			continue;
		c = jcommit(j, i);
		bad |= json_array_append_new(a, c);
		if (c != NULL)
			bad |= jset(c, "reason", jtext(j->c[i].skip_reason));
	}
	a = json_array();
	bad |= jset(o, "measured", a);
	for (i = 0; a != NULL && i <= j->n; i++) {
		if (j->c[i].n == 0)
			continue;
		mean = 0;
		for (k = 0; k < j->c[i].n; k++)
			mean += log(j->c[i].v[k]);
		c = jcommit(j, i);
		bad |= json_array_append_new(a, c);
		if (c != NULL) {
			bad |= jset(c, "runs",
			    json_integer((json_int_t)j->c[i].n));
			bad |= jset(c, "geomean",
			    json_real(exp(mean / (double)j->c[i].n)));
		}
	}
	if (bad)
		goto nomem;
	return o;
nomem:
	json_decref(o);
	pr_error_set(err, PR_ENOMEM, "out of memory writing the JSON report");
	return NULL;
}

static const struct report_writer bisect_writer = { body_text, body_json,
	NULL };

/* The page's form of the bisection is html.c's. */
report_html_fn
report_bisect_html(const struct report_writer *w)
{
	return w == &bisect_writer ? report_html_bisect : NULL;
}

enum pr_status
pr_report_bisect(struct pr_report_model *m, const struct pr_bisect_job *j,
    struct pr_error *err)
{
	struct pr_buf h;
	enum pr_status st;

	pr_buf_init(&h, (size_t)1 << 16);
	if ((st = headline(&h, j, 0, err)) == PR_OK)
		st = pr_report_model_textf(m, PR_SECTION_HEADLINE, "headline",
		    0, err, "%s", h.data);
	pr_buf_release(&h);
	if (st != PR_OK)
		return st;
	return report_model_writer(m, NULL, PR_SECTION_INLINE, &bisect_writer,
	    (void *)j, err);
}

int
pr_report_bisect_step_answer(const struct pr_bisect_job *j)
{
	if (j->c[1].built < 0)
		return 125;
	if (j->verdict == PR_BISECT_V_CULPRIT)
		return j->confirm.decision == PR_SEQ_REGRESSION ? 1 : 0;
	if (j->verdict == PR_BISECT_V_NOT_CONFIRMED)
		return 0;
	return 125;
}

enum pr_status
pr_report_bisect_step(struct pr_report_model *m, const struct pr_bisect_job *j,
    struct pr_error *err)
{
	const struct pr_seq_result *r = &j->confirm;
	int ans = pr_report_bisect_step_answer(j);
	const char *word = ans == 1 ? "bad" : ans == 0 ? "good" : "skip";
	struct pr_buf h;
	enum pr_status st;

	pr_buf_init(&h, (size_t)1 << 16);
	if ((st = pr_buf_addf(&h, err, "%s: %.12s \"", word, j->c[1].hash)) !=
		PR_OK ||
	    (st = put(&h, j->c[1].subject, PR_REPORT_TEXT, err)) != PR_OK ||
	    (st = pr_buf_adds(&h, "\"", err)) != PR_OK)
		goto out;
	if (j->c[1].built < 0) {
		if ((st = pr_buf_adds(&h, ": ", err)) == PR_OK)
			st = put(&h,
			    j->c[1].skip_reason != NULL ? j->c[1].skip_reason
							: "skipped",
			    PR_REPORT_TEXT, err);
	} else if (!j->confirmed_tried || r->n == 0) {
		st = pr_buf_adds(&h, ": not measured (interrupted)", err);
	} else {
		st = pr_buf_addf(&h, err,
		    ": %+.3g%% [%+.3g%%, %+.3g%%] against --good %.12s, %s "
		    "(%zu interleaved rounds)",
		    r->change_pct, r->lo_pct, r->hi_pct, j->c[0].hash,
		    j->verdict == PR_BISECT_V_UNDECIDED
			? "undecided within budget"
			: pr_seq_decision_str(r->decision),
		    r->n);
	}
	if (st == PR_OK)
		st = pr_report_model_textf(m, PR_SECTION_HEADLINE, "headline",
		    0, err, "%s", h.data);
	if (st == PR_OK)
		st = pr_report_model_string(m, "answer", PR_SECTION_NO_TEXT,
		    word, err);
	if (st == PR_OK)
		st = pr_report_model_integer(m, "exit", PR_SECTION_NO_TEXT, 1,
		    ans, err);
	if (st == PR_OK)
		st = pr_report_model_string(m, "commit", PR_SECTION_NO_TEXT,
		    j->c[1].hash, err);
	if (st == PR_OK)
		st = pr_report_model_string(m, "subject", PR_SECTION_NO_TEXT,
		    j->c[1].subject, err);
	if (st == PR_OK)
		st = pr_report_model_string(m, "good", PR_SECTION_NO_TEXT,
		    j->c[0].hash, err);
	if (st == PR_OK)
		st = pr_report_model_string(m, "decision", PR_SECTION_NO_TEXT,
		    j->confirmed_tried && r->n > 0
			? pr_seq_decision_str(r->decision)
			: NULL,
		    err);
	if (st == PR_OK)
		st = pr_report_model_real(m, "change_pct", PR_SECTION_NO_TEXT,
		    r->n > 0, r->change_pct, err);
	if (st == PR_OK)
		st = pr_report_model_real(m, "ci_lo_pct", PR_SECTION_NO_TEXT,
		    r->bounded, r->lo_pct, err);
	if (st == PR_OK)
		st = pr_report_model_real(m, "ci_hi_pct", PR_SECTION_NO_TEXT,
		    r->bounded, r->hi_pct, err);
	if (st == PR_OK)
		st = pr_report_model_integer(m, "rounds", PR_SECTION_NO_TEXT, 1,
		    (int64_t)r->n, err);
	if (st == PR_OK)
		st = pr_report_model_string(m, "reason", PR_SECTION_NO_TEXT,
		    j->c[1].built < 0 ? j->c[1].skip_reason : NULL, err);
out:
	pr_buf_release(&h);
	return st;
}
