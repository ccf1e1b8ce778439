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

#include "cli/cmd.h"
#include "perfreg/changepoint.h"
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
	OPT_DOUBLE(0, "alpha", "rate",
	    "false-alarm rate over a history without change (default 0.01)",
	    struct hist_cli, cp.alpha, 0, 0.5, OPT_LO_OPEN,
	    "a rate in (0, 0.5]"),
	OPT_INT(0, "min-segment", "n",
	    "sessions a level must hold to be confirmed (default 5)",
	    struct hist_cli, min_segment, 2, 1000000, NULL),
	OPT_DOUBLE(0, "equivalence", "pct",
	    "changes whose interval lies within +-pct are not reported "
	    "(default 1)",
	    struct hist_cli, cp.equivalence_pct, 0, 100, OPT_HI_OPEN,
	    "a percentage from 0 to 100 (excluded)"),
	OPT_FLAG(0, "fail-on-regression",
	    "exit 1 when a change is a regression", struct hist_cli, fail, 1),
	OPT_GROUP(),
	OPT_FLAG(0, "json", "a JSON object with every figure", struct hist_cli,
	    json, 1),
	OPT_FLAG(0, "csv", "CSV, one row a change, spike or possible change",
	    struct hist_cli, csv, 1),
	OPT_FLAG(0, "markdown", "markdown tables, for a bug report",
	    struct hist_cli, markdown, 1),
	OPT_FLAG(0, "no-chart", "leave the text chart out", struct hist_cli,
	    no_chart, 1),
	OPT_END(),
};

/* One session's point. */
struct point {
	int64_t session;
	double started;
	double sum, sumsq;
	size_t n;
	char *key;    /* commit or tag value; NULL for time */
	size_t order; /* commit: its first-parent position */
};

struct collect {
	struct pr_str variant;
	const char *metric; /* NULL: the first seen */
	char *chosen;       /* the metric's name once chosen */
	enum pr_better better;
	int better_set;
	struct point *p;
};

/* The figures the runner measures itself, not the benchmark's own. */
static int
runner_metric(const char *name)
{
	static const char *const own[] = { "wall_s", "user_s", "sys_s",
		"maxrss_kib", "ctxsw_vol", "ctxsw_invol", NULL };
	size_t i;

	for (i = 0; own[i] != NULL; i++)
		if (strcmp(own[i], name) == 0)
			return 1;
	return 0;
}

static int
on_run(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct collect *c = arg;
	size_t i;

	(void)err;
	if (r->warmup || !r->ok || r->variant.n != c->variant.n ||
	    memcmp(r->variant.p, c->variant.p, c->variant.n) != 0)
		return 0;
	if (c->chosen == NULL && c->metric == NULL) {
		/* The first figure of the benchmark's own output, else the
		 * wall time. */
		const char *pick = NULL;

		for (i = 0; i < r->nm && pick == NULL; i++)
			if (!runner_metric(r->metric_names[i]))
				pick = r->metric_names[i];
		for (i = 0; i < r->nm && pick == NULL; i++)
			/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): a stored run's metrics all have names */
			if (strcmp(r->metric_names[i], "wall_s") == 0)
				pick = r->metric_names[i];
		if (pick != NULL && (c->chosen = strdup(pick)) == NULL)
			return -1;
	}
	for (i = 0; i < r->nm; i++) {
		const char *name = r->metric_names[i];
		double v = r->metric_values[i];

		if (c->chosen == NULL) {
			if (c->metric == NULL || strcmp(c->metric, name) != 0)
				continue;
			if ((c->chosen = strdup(name)) == NULL)
				return -1;
		}
		/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): a stored run's metrics all have names */
		if (strcmp(c->chosen, name) != 0 || !isfinite(v))
			continue;
		if (!c->better_set) {
			c->better = r->metric_better[i];
			c->better_set = 1;
		}
		c->p->sum += v;
		c->p->sumsq += v * v;
		c->p->n++;
		break;
	}
	return 0;
}

/* The value of the session's tag key, copied (the caller frees it), or
 * NULL when it has none; *oom is set when the copy fails. */
static char *
tag_of(const struct pr_store_session_info *s, const char *key, int *oom)
{
	size_t i, kl = strlen(key);
	char *v;

	for (i = 0; i < s->ntags; i++)
		if (s->tags[i].key.n == kl &&
		    memcmp(s->tags[i].key.p, key, kl) == 0) {
			v = strndup(s->tags[i].value.p, s->tags[i].value.n);
			*oom = v == NULL;
			return v;
		}
	return NULL;
}

static int
has_variant(const struct pr_store_session_info *s, struct pr_str v)
{
	size_t i;

	for (i = 0; i < s->nvariants; i++)
		if (s->variants[i].n == v.n &&
		    memcmp(s->variants[i].p, v.p, v.n) == 0)
			return 1;
	return 0;
}

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

static int
exec_history(int argc, char **argv)
{
	struct pr_buf out = PR_BUF_INIT(REPORT_MAX);
	struct pr_store *st = NULL;
	struct pr_store_session_info *ss = NULL;
	struct pr_store_variant_info *vs = NULL;
	struct pr_spawn_result git;
	struct pr_series series;
	struct pr_cp_result res;
	struct pr_cp_report rep;
	struct point *pts = NULL;
	struct collect col;
	struct hist_cli o;
	struct pr_error err;
	struct pr_str campaign;
	double since = -1, *var = NULL;
	size_t nss = 0, nvs = 0, npts = 0, i, skipped = 0, ncommits = 0;
	size_t matched = 0;
	int first, status = PR_EXIT_OK, by_commit = 0, have_git = 0;
	char name[512];
	enum pr_status rc;

	memset(&o, 0, sizeof(o));
	memset(&col, 0, sizeof(col));
	memset(&res, 0, sizeof(res));
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
	campaign.p = argv[first];
	campaign.n = strlen(argv[first]);
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
	if ((rc = pr_store_variants(st, campaign, &vs, &nvs, &err)) != PR_OK ||
	    (rc = pr_store_sessions(st, campaign, &ss, &nss, &err)) != PR_OK) {
		cli_errorf("history: %s", err.msg);
		status = cli_exit_for(rc);
		goto out;
	}
	if (nvs == 0 || nss == 0) {
		cli_errorf("history: campaign '%s' has no sessions",
		    argv[first]);
		status = PR_EXIT_USAGE;
		goto out;
	}
	if (o.variant != NULL) {
		for (i = 0; i < nvs; i++)
			if (vs[i].name.n == strlen(o.variant) &&
			    memcmp(vs[i].name.p, o.variant, vs[i].name.n) == 0)
				break;
		if (i == nvs) {
			cli_errorf("history: campaign '%s' has no variant '%s'",
			    argv[first], o.variant);
			status = PR_EXIT_USAGE;
			goto out;
		}
		col.variant = vs[i].name;
	} else
		col.variant = vs[0].name;
	col.metric = o.metric;
	if ((pts = calloc(nss, sizeof(*pts))) == NULL) {
		cli_errorf("out of memory");
		status = PR_EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < nss; i++) {
		const struct pr_store_session_info *s = &ss[i];
		struct point *p = &pts[npts];
		char *key = NULL;
		int oom = 0;

		if (!has_variant(s, col.variant) ||
		    (o.host != NULL && strcmp(s->host, o.host) != 0) ||
		    (since >= 0 && s->started < since))
			continue;
		matched++;
		if (by_commit || by_tag != NULL)
			key = tag_of(s, by_commit ? "git" : by_tag, &oom);
		if (oom) {
			cli_errorf("out of memory");
			status = PR_EXIT_INTERNAL;
			goto out;
		}
		if (by_commit && key == NULL) {
			cli_errorf("history: session %lld has no git commit "
				   "(tag git=...): --by commit needs one on "
				   "every session",
			    (long long)s->id);
			status = PR_EXIT_USAGE;
			goto out;
		}
		if (by_tag != NULL && key == NULL) {
			skipped++;
			continue;
		}
		memset(p, 0, sizeof(*p));
		p->session = s->id;
		p->started = s->started;
		p->key = key;
		col.p = p;
		if ((rc = pr_store_each_run(st, s->id, on_run, &col, &err)) !=
		    PR_OK) {
			cli_errorf("history: %s", err.msg);
			free(key);
			p->key = NULL;
			status = cli_exit_for(rc);
			goto out;
		}
		if (p->n == 0) {
			free(key);
			p->key = NULL;
			skipped++;
			continue;
		}
		if (by_commit) {
			p->order = commit_order(&git, key, ncommits);
			if (p->order == (size_t)-1) {
				cli_errorf("history: session %lld's commit %s "
					   "is "
					   "not on the first-parent history of "
					   "HEAD in %s",
				    (long long)s->id, key, o.repo);
				free(key);
				p->key = NULL;
				status = PR_EXIT_USAGE;
				goto out;
			}
		}
		npts++;
	}
	if (matched == 0) {
		cli_errorf("history: 0 sessions of '%s' ran variant "
			   "'%.*s'%s%s%s",
		    argv[first], (int)col.variant.n, col.variant.p,
		    o.host ? " on host " : "", o.host ? o.host : "",
		    o.since ? " in the time given (--since)" : "");
		status = PR_EXIT_USAGE;
		goto out;
	}
	if (col.chosen == NULL) {
		if (o.metric != NULL)
			cli_errorf("history: no session of variant '%.*s' has "
				   "metric '%s'",
			    (int)col.variant.n, col.variant.p, o.metric);
		else
			cli_errorf("history: variant '%.*s' has no successful "
				   "run with a metric",
			    (int)col.variant.n, col.variant.p);
		status = PR_EXIT_USAGE;
		goto out;
	}
	if (npts < PR_CP_MIN_POINTS) {
		cli_errorf("history: %zu session%s of '%s' with %s: change "
			   "points need at least %d",
		    npts, npts == 1 ? "" : "s", argv[first], col.chosen,
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
		double mean = p->sum / (double)p->n;
		double ss2 = p->sumsq - (double)p->n * mean * mean;
		char lab[PR_SERIES_LABEL_MAX], date[32];
		time_t t = (time_t)p->started;
		struct tm tm;

		series.y[i] = mean;
		var[i] = p->n >= 2 && ss2 > 0
		    ? ss2 / (double)(p->n - 1) / (double)p->n
		    : 0;
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
	o.cp.better = col.better;
	if ((rc = pr_cp_detect(series.y, var, npts, &o.cp, &res, &err)) !=
	    PR_OK) {
		cli_errorf("history: %s", err.msg);
		status = cli_exit_for(rc);
		goto out;
	}
	snprintf(name, sizeof(name), "%s, variant %.*s, %s, by %s", argv[first],
	    (int)(col.variant.n > 100 ? 100 : col.variant.n), col.variant.p,
	    col.chosen,
	    by_commit    ? "commit"
		: by_tag ? o.by
			 : "time");
	rep.name = name;
	rep.series = &series;
	rep.result = &res;
	rep.opts = &o.cp;
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
		    skipped, skipped == 1 ? "" : "s", col.chosen,
		    by_tag ? ", or no tag " : "", by_tag ? by_tag : "");
	if (rc != PR_OK) {
		cli_error(&err);
		status = PR_EXIT_INTERNAL;
		goto out;
	}
	status = cli_write(&out);
	if (status == PR_EXIT_OK && o.fail)
		for (i = 0; i < res.nchanges; i++)
			if (res.changes[i].verdict == PR_VERDICT_REGRESSION)
				status = PR_EXIT_REGRESSION;
out:
	for (i = 0; pts != NULL && i < npts; i++)
		free(pts[i].key);
	free(pts);
	free(var);
	free(col.chosen);
	pr_series_release(&series);
	pr_cp_result_release(&res);
	if (ss != NULL)
		pr_store_sessions_free(ss, nss);
	if (vs != NULL)
		pr_store_variants_free(vs, nvs);
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
