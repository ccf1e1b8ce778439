/*
 * cli/cmd_history.c - `perfreg history CAMPAIGN`: one point per stored
 * session of a campaign, in order of time, of a tag or of git commits,
 * and the change points of that series.
 *
 * A point is a session's mean of one metric of one variant over its
 * counted, successful runs, with the squared standard error of that mean
 * as the point's own variance (the session is the unit, as `suite` treats
 * it), so that a boundary between two noisy sessions is less sure than
 * between two tight ones.  The series goes to the same detector and
 * report as `perfreg changepoints` (perfreg/changepoint.h,
 * perfreg/report_cp.h), labelled with each session's date, commit or tag.
 * With --by commit the order is the first-parent history of HEAD in
 * --repo (`git rev-list --first-parent`, run without a shell); a session
 * whose commit is not on it is an error naming both.
 *
 * Exit status: 0 done, 1 a regression with --fail-on-regression, 2 bad
 * usage, an unknown campaign, variant or metric, too few sessions, or a
 * repository that git cannot read, 3 internal failure.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli_cp.h"
#include "cli/cli_html.h"
#include "cli/cmd.h"
#include "perfreg/changepoint.h"
#include "perfreg/explain.h"
#include "perfreg/history.h"
#include "perfreg/report_cp.h"
#include "perfreg/series.h"
#include "perfreg/spawn.h"
#include "perfreg/store.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_history_entry;

#define REPORT_MAX ((size_t)256 << 20)
#define GIT_OUTPUT_MAX ((size_t)256 << 20)

struct hist_cli {
	const char *db, *variant, *metric, *host, *by, *repo, *since;
	struct pr_cp_opts cp;
	size_t min_segment;
	int json, csv, markdown, no_chart, fail;
	const char *html;
};

static const struct opt options[] = {
	OPT_STRING(0, "db", "target",
	    "the results database (default $PERFREG_DB, else the user's)",
	    struct hist_cli, db, OPT_NONEMPTY, "a database"),
	OPT_STRING(0, "variant", "name",
	    "the variant (default the campaign's first)", struct hist_cli,
	    variant, OPT_NONEMPTY, "a variant name"),
	OPT_STRING(0, "metric", "name",
	    "the metric (default the first the benchmark's output gave, else "
	    "wall_s)",
	    struct hist_cli, metric, OPT_NONEMPTY, "a metric name"),
	OPT_STRING(0, "host", "name", "only the sessions of this host",
	    struct hist_cli, host, OPT_NONEMPTY, "a host name"),
	OPT_STRING(0, "by", "order",
	    "time (default), commit (first-parent order of --repo) or "
	    "tag:KEY",
	    struct hist_cli, by, OPT_NONEMPTY, "time, commit or tag:KEY"),
	OPT_STRING(0, "repo", "dir",
	    "the git repository of --by commit (default .)", struct hist_cli,
	    repo, OPT_NONEMPTY, "a directory"),
	OPT_STRING(0, "since", "date",
	    "only sessions started on or after YYYY-MM-DD (UTC)",
	    struct hist_cli, since, OPT_NONEMPTY, "a date YYYY-MM-DD"),
	OPT_GROUP(),
	CLI_CP_DETECTOR_ROWS(struct hist_cli, "history", "sessions"),
	OPT_FLAG(0, "fail-on-regression",
	    "exit 1 when a change is a regression", struct hist_cli, fail, 1),
	OPT_GROUP(),
	CLI_CP_OUTPUT_ROWS(struct hist_cli),
	OPT_END(),
};

/* One session's point. */
struct point {
	int64_t session;
	double started;
	double mean, var;
	const char *key; /* commit or tag value (the history's); NULL: time */
	size_t order;    /* commit: its first-parent position */
};

/* The commits of HEAD's first-parent history in repo, newest first, as
 * one buffer of lines; prints the error and returns the exit status. */
static int
git_history(const char *repo, struct pr_spawn_result *r)
{
	char *argv[] = { "git", "-C", (char *)repo, "rev-list",
		"--first-parent", "HEAD", NULL };
	struct pr_spawn_opts o;
	struct pr_error err;

	pr_spawn_opts_init(&o);
	o.output_limit = GIT_OUTPUT_MAX;
	o.timeout_s = 60;
	pr_spawn_result_init(r);
	if (pr_spawn_run(argv, &o, r, &err) != PR_OK) {
		cli_errorf("history: git: %s", err.msg);
		return PR_EXIT_INTERNAL;
	}
	if (r->outcome != PR_SPAWN_OK || r->exit_status != 0) {
		const char *e = r->errout.data ? r->errout.data : "";
		size_t n = strcspn(e, "\n");

		cli_errorf("history: --repo %s is not a git repository git can "
			   "read (%s%s%.*s)",
		    repo, r->reason[0] ? r->reason : "git failed",
		    n ? ": " : "", (int)(n > 200 ? 200 : n), e);
		return PR_EXIT_USAGE;
	}
	return PR_EXIT_OK;
}

/* The position of commit (a full or abbreviated id, at least 4 hex
 * digits) in the rev-list output, oldest 0; (size_t)-1 when absent. */
static size_t
commit_order(const struct pr_spawn_result *r, const char *commit,
    size_t ncommits)
{
	const char *p = r->output.data;
	size_t k = 0, len = strlen(commit);

	if (p == NULL || len < 4)
		return (size_t)-1;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l >= len && strncasecmp(p, commit, len) == 0)
			return ncommits - 1 - k;
		k++;
		if (e == NULL)
			break;
		p = e + 1;
	}
	return (size_t)-1;
}

static size_t
count_lines(const char *p)
{
	size_t n = 0;

	for (; p && *p; p++)
		n += *p == '\n';
	return n;
}

static const char *by_tag;

static int
cmp_points(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	int c;

	if (by_tag != NULL) {
		c = strverscmp(x->key, y->key);
		if (c != 0)
			return c;
	} else if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	if (x->started != y->started)
		return x->started < y->started ? -1 : 1;
	return x->session < y->session ? -1 : x->session > y->session;
}

/* YYYY-MM-DD as seconds since the epoch (UTC), or -1. */
static double
parse_date(const char *s)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%d", &tm);
	if (end == NULL || *end != '\0')
		return -1;
	return (double)timegm(&tm);
}

/* The explanation of the latest change of the series (pts[0..n) its
 * points) by the variant's other metrics, into more (perfreg/explain.h:
 * nothing without monitor figures or with fewer than 2 sessions a
 * side). */
static enum pr_status
explain_latest(struct pr_report_model *more, struct pr_store *st,
    const struct pr_history_query *q, const struct pr_history *h,
    const struct point *pts, size_t n, const struct pr_cp_result *res,
    const struct pr_series *series, struct pr_error *err)
{
	const struct pr_cp_change *c;
	int64_t *ids;
	enum pr_status rc;
	size_t i;

	if (res->nchanges == 0)
		return PR_OK;
	c = &res->changes[res->nchanges - 1];
	if ((ids = calloc(n + 1, sizeof(*ids))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		ids[i] = pts[i].session;
	rc = pr_report_history_explain(more, "explanation", 0, st, q, h, ids, n,
	    c, series->label[c->index], err);
	free(ids);
	return rc;
}

static int
exec_history(int argc, char **argv)
{
	struct pr_buf out = PR_BUF_INIT(REPORT_MAX);
	struct pr_store *st = NULL;
	struct pr_spawn_result git;
	struct pr_history_query q;
	struct pr_history h;
	struct pr_series series;
	struct pr_cp_result res;
	struct pr_cp_report rep;
	struct pr_report_model more = PR_REPORT_MODEL_INIT;
	struct point *pts = NULL;
	struct hist_cli o;
	struct pr_error err;
	double since = -1, *var = NULL;
	size_t npts = 0, i, skipped = 0, ncommits = 0;
	int first, status = PR_EXIT_OK, by_commit = 0, have_git = 0;
	char name[512], title[600];
	enum pr_status rc;

	memset(&o, 0, sizeof(o));
	memset(&res, 0, sizeof(res));
	memset(&h, 0, sizeof(h));
	pr_series_init(&series);
	pr_cp_opts_init(&o.cp);
	o.min_segment = PR_CP_MIN_SEGMENT_DEFAULT;
	o.repo = ".";
	by_tag = NULL;
	if ((first = opt_parse(&cmd_history_entry, argc, argv, &o, NULL)) < 0)
		return PR_EXIT_USAGE;
	if (argc - first != 1)
		return cli_usage_error(&cmd_history_entry,
		    "expected one campaign, got %d operands", argc - first);
	if (o.json + o.csv + o.markdown > 1)
		return cli_usage_error(&cmd_history_entry,
		    "--json, --csv and --markdown exclude each other");
	if (o.by != NULL && strcmp(o.by, "time") != 0) {
		if (strcmp(o.by, "commit") == 0)
			by_commit = 1;
		else if (strncmp(o.by, "tag:", 4) == 0 && o.by[4] != '\0')
			by_tag = o.by + 4;
		else
			return cli_usage_error(&cmd_history_entry,
			    "--by: expected time, commit or tag:KEY, got '%s'",
			    o.by);
	}
	if (o.since != NULL && (since = parse_date(o.since)) < 0)
		return cli_usage_error(&cmd_history_entry,
		    "--since: expected a date YYYY-MM-DD, got '%s'", o.since);
	o.cp.min_segment = o.min_segment;
	if (by_commit) {
		if ((status = git_history(o.repo, &git)) != PR_EXIT_OK) {
			pr_spawn_result_release(&git);
			return status;
		}
		have_git = 1;
		ncommits = count_lines(git.output.data);
	}
	if ((status = cli_store_open("history", o.db, PR_STORE_READ, &st)) !=
	    PR_EXIT_OK)
		goto out;
	pr_error_clear(&err);
	pr_history_query_init(&q, pr_str_c(argv[first]));
	q.variant = o.variant;
	q.metric = o.metric;
	q.host = o.host;
	q.since = since;
	q.tag = by_commit ? "git" : by_tag;
	if ((rc = pr_history_collect(st, &q, &h, &err)) != PR_OK) {
		cli_errorf("history: %s", err.msg);
		status = cli_exit_for(rc);
		goto out;
	}
	if (h.matched == 0) {
		cli_errorf("history: 0 sessions of '%s' ran variant "
			   "'%.*s'%s%s%s",
		    argv[first], (int)h.variant_len, h.variant,
		    o.host ? " on host " : "", o.host ? o.host : "",
		    o.since ? " in the time given (--since)" : "");
		status = PR_EXIT_USAGE;
		goto out;
	}
	if (h.metric == NULL) {
		if (o.metric != NULL)
			cli_errorf("history: no session of variant '%.*s' has "
				   "metric '%s'",
			    (int)h.variant_len, h.variant, o.metric);
		else
			cli_errorf("history: variant '%.*s' has no successful "
				   "run with a metric",
			    (int)h.variant_len, h.variant);
		status = PR_EXIT_USAGE;
		goto out;
	}
	skipped = h.skipped;
	if ((pts = calloc(h.n ? h.n : 1, sizeof(*pts))) == NULL) {
		cli_errorf("out of memory");
		status = PR_EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < h.n; i++) {
		const struct pr_history_point *hp = &h.points[i];
		struct point *p = &pts[npts];

		if (by_commit && hp->key == NULL) {
			cli_errorf("history: session %lld has no git commit "
				   "(tag git=...): --by commit needs one on "
				   "every session",
			    (long long)hp->session);
			status = PR_EXIT_USAGE;
			goto out;
		}
		if (by_tag != NULL && hp->key == NULL) {
			skipped++;
			continue;
		}
		p->session = hp->session;
		p->started = hp->started;
		p->mean = hp->mean;
		p->var = hp->var;
		p->key = hp->key;
		if (by_commit) {
			p->order = commit_order(&git, p->key, ncommits);
			if (p->order == (size_t)-1) {
				cli_errorf("history: session %lld's commit %s "
					   "is not on the first-parent history "
					   "of HEAD in %s",
				    (long long)p->session, p->key, o.repo);
				status = PR_EXIT_USAGE;
				goto out;
			}
		}
		npts++;
	}
	if (npts < PR_CP_MIN_POINTS) {
		cli_errorf("history: %zu session%s of '%s' with %s: change "
			   "points need at least %d",
		    npts, npts == 1 ? "" : "s", argv[first], h.metric,
		    PR_CP_MIN_POINTS);
		status = PR_EXIT_USAGE;
		goto out;
	}
	if (by_commit || by_tag != NULL)
		qsort(pts, npts, sizeof(*pts), cmp_points);
	series.y = calloc(npts, sizeof(*series.y));
	series.label = calloc(npts, sizeof(*series.label));
	var = calloc(npts, sizeof(*var));
	if (series.y == NULL || series.label == NULL || var == NULL) {
		cli_errorf("out of memory");
		status = PR_EXIT_INTERNAL;
		goto out;
	}
	series.n = npts;
	series.labelled = 1;
	for (i = 0; i < npts; i++) {
		const struct point *p = &pts[i];
		char lab[PR_SERIES_LABEL_MAX], date[32];
		time_t t = (time_t)p->started;
		struct tm tm;

		series.y[i] = p->mean;
		var[i] = p->var;
		gmtime_r(&t, &tm);
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
		if (p->key != NULL)
			snprintf(lab, sizeof(lab), "%.*s s%lld",
			    by_commit ? 12 : 200, p->key,
			    (long long)p->session);
		else
			snprintf(lab, sizeof(lab), "%s s%lld", date,
			    (long long)p->session);
		if ((series.label[i] = strdup(lab)) == NULL) {
			cli_errorf("out of memory");
			status = PR_EXIT_INTERNAL;
			goto out;
		}
	}
	o.cp.better = h.better;
	/* Sessions of one commit (or tag value) repeat one measurement:
	 * their spread is the noise, where there are enough of them and
	 * the detector can take it for values of this magnitude (else the
	 * noise is learnt, as without repeats). */
	if (by_commit || by_tag != NULL) {
		const char **keys = calloc(npts, sizeof(*keys));
		double sd;
		size_t df;

		if (keys == NULL) {
			cli_errorf("out of memory");
			status = PR_EXIT_INTERNAL;
			goto out;
		}
		for (i = 0; i < npts; i++)
			keys[i] = pts[i].key;
		pr_cp_replicate_sd(series.y, keys, npts, &sd, &df);
		free(keys);
		if (df >= PR_CP_REPLICATE_DF_MIN &&
		    pr_cp_noise_usable(series.y, npts, sd)) {
			o.cp.noise_sd = sd;
			o.cp.noise_df = df;
		}
	}
	if ((rc = pr_cp_detect(series.y, var, npts, &o.cp, &res, &err)) !=
	    PR_OK) {
		cli_errorf("history: %s", err.msg);
		status = cli_exit_for(rc);
		goto out;
	}
	if (res.all_equal) {
		cli_errorf("history: %s, variant %.*s, %s: %zu points, all "
			   "equal: nothing to detect",
		    argv[first],
		    (int)(h.variant_len > 100 ? 100 : h.variant_len), h.variant,
		    h.metric, npts);
		status = PR_EXIT_USAGE;
		goto out;
	}
	snprintf(name, sizeof(name), "%s, variant %.*s, %s, by %s", argv[first],
	    (int)(h.variant_len > 100 ? 100 : h.variant_len), h.variant,
	    h.metric,
	    by_commit    ? "commit"
		: by_tag ? o.by
			 : "time");
	memset(&rep, 0, sizeof(rep));
	rep.name = name;
	rep.series = &series;
	rep.result = &res;
	rep.opts = &o.cp;
	if ((rc = explain_latest(&more, st, &q, &h, pts, npts, &res, &series,
		 &err)) != PR_OK) {
		cli_errorf("history: %s", err.msg);
		status = cli_exit_for(rc);
		goto out;
	}
	if (more.n > 0)
		rep.more = &more;
	if (o.html != NULL) {
		const double *const vars[1] = { var };

		snprintf(title, sizeof(title), "perfreg history %s", name);
		if ((status = cli_html_cp("history", o.html, &rep, 1, vars,
			 title)) != PR_EXIT_OK)
			goto out;
		if (strcmp(o.html, "-") == 0)
			goto gate;
	}
	rc = pr_cp_format(&rep, 1,
	    o.json           ? PR_CP_JSON
		: o.csv      ? PR_CP_CSV
		: o.markdown ? PR_CP_MARKDOWN
			     : PR_CP_TEXT,
	    !o.no_chart, &out, &err);
	if (rc == PR_OK && skipped > 0 && !o.json && !o.csv)
		rc = pr_buf_addf(&out, &err,
		    "\n%zu session%s of the variant left out (no successful "
		    "run with %s%s%s)\n",
		    skipped, skipped == 1 ? "" : "s", h.metric,
		    by_tag ? ", or no tag " : "", by_tag ? by_tag : "");
	if (rc != PR_OK) {
		cli_error(&err);
		status = PR_EXIT_INTERNAL;
		goto out;
	}
	status = cli_write(&out);
gate:
	if (status == PR_EXIT_OK && o.fail)
		for (i = 0; i < res.nchanges; i++)
			if (res.changes[i].verdict == PR_VERDICT_REGRESSION)
				status = PR_EXIT_REGRESSION;
out:
	pr_report_model_release(&more);
	free(pts);
	free(var);
	pr_series_release(&series);
	pr_cp_result_release(&res);
	pr_history_release(&h);
	if (have_git)
		pr_spawn_result_release(&git);
	pr_store_close(st);
	pr_buf_release(&out);
	return status;
}

static const char about[] =
    "One point per stored session of CAMPAIGN (its mean of one metric of "
    "one\n"
    "variant, with the standard error of that mean), ordered by time, by "
    "a tag,\n"
    "or by git commit in the first-parent order of --repo, and the change "
    "points\n"
    "of that history: where the figure changed, by how much with its "
    "interval,\n"
    "the verdict by the metric's direction, spikes, and a change too "
    "recent to\n"
    "confirm.  The detector is that of `perfreg changepoints`.\n";

static const char epilogue[] =
    "Exit status: 0 done, 1 a regression with --fail-on-regression, 2 bad "
    "usage,\n"
    "an unknown campaign, variant or metric, fewer than 4 sessions, or a "
    "repository\n"
    "git cannot read, 3 internal error.\n";

const struct cmd_entry cmd_history_entry = { .name = "history",
	.synopsis = "[options] campaign",
	.about = about,
	.opts = options,
	.epilogue = epilogue,
	.exec = exec_history };
