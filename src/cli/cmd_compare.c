/*
 * cli/cmd_compare.c - `perfreg compare BASE NEW`: reads two inputs,
 * compares them metric by metric, and writes the report.
 *
 * Metrics are matched by name; a metric found on one side only is named
 * in a warning on stderr and left out.  The direction of a metric comes
 * from --higher-is-better / --lower-is-better when given, else from the
 * inputs (which must agree); when nobody says, lower is assumed and the
 * report says so.  With more than one tested metric the p-values get
 * Holm's correction (pr_compare_holm).  The exit status is 0 when the
 * comparison was made, 1 when --fail-on-regression found a regression
 * larger than --threshold, 2 for bad usage or input, 3 for an internal
 * failure (doc/perfreg.1, EXIT STATUS).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "perfreg/campaign.h"
#include "perfreg/dataset.h"
#include "perfreg/env.h"
#include "perfreg/nested.h"
#include "perfreg/read.h"
#include "perfreg/report.h"
#include "perfreg/store.h"
#include "perfreg/verdict.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_compare_entry;

/* Input values beyond this many per side are left out of --json. */
#define JSON_VALUES_MAX 100000
#define REPORT_MAX ((size_t)256 << 20)

struct compare_opts {
	struct pr_read_opts read;
	struct pr_verdict_opts verdict;
	enum pr_better force_better;
	enum pr_report_format report;
	int report_set;
	int gate;
	double threshold_pct;
	const char *campaign, *db;
	const char *host;  /* --host */
	const char *units; /* report.units */
	double conf_pct;   /* -c */
};

static int
parse_method(void *base, const struct opt *opt, const char *arg)
{
	enum pr_method *out = &((struct compare_opts *)base)->verdict.method;
	static const struct {
		const char *name;
		enum pr_method m;
	} methods[] = { { "auto", PR_METHOD_AUTO },
		{ "student", PR_METHOD_STUDENT }, { "welch", PR_METHOD_WELCH },
		{ "mwu", PR_METHOD_MWU } };
	size_t i;

	(void)opt;
	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (strcmp(arg, methods[i].name) == 0) {
			*out = methods[i].m;
			return 0;
		}
	cli_errorf("compare: --method: expected auto, student, welch or mwu, "
		   "got '%s'",
	    arg);
	return -1;
}

/* --markdown, --csv, --json: the format is the row's ival. */
static int
set_report(void *base, const struct opt *opt, const char *arg)
{
	struct compare_opts *o = base;
	enum pr_report_format f = (enum pr_report_format)opt->ival;

	(void)arg;
	if (o->report_set && o->report != f) {
		cli_errorf("compare: --markdown, --csv and --json exclude one "
			   "another");
		return -1;
	}
	o->report = f;
	o->report_set = 1;
	return 0;
}

/* --higher-is-better, --lower-is-better: the row's ival. */
static int
set_better(void *base, const struct opt *opt, const char *arg)
{
	struct compare_opts *o = base;
	enum pr_better b = (enum pr_better)opt->ival;

	(void)arg;
	if (o->force_better != PR_BETTER_UNKNOWN && o->force_better != b) {
		cli_errorf("compare: --higher-is-better and --lower-is-better "
			   "exclude one another");
		return -1;
	}
	o->force_better = b;
	return 0;
}

/* --format: an input format. */
static int
parse_format(void *base, const struct opt *opt, const char *arg)
{
	struct compare_opts *o = base;
	struct pr_error err;

	(void)opt;
	if (pr_format_parse(arg, &o->read.format, &err) != PR_OK) {
		cli_errorf("compare: --format: expected numbers, csv, "
			   "hyperfine, "
			   "gobench or perfreg, got '%s'",
		    arg);
		return -1;
	}
	return 0;
}

static const struct opt options[] = {
	OPT_CALL(0, "format", "fmt",
	    "input format: numbers, csv, hyperfine, gobench or perfreg "
	    "(default: detected from the content)",
	    parse_format, 0, 0),
	OPT_STRING(0, "column", "name",
	    "compare only the metric (CSV column) name", struct compare_opts,
	    read.column, OPT_NONEMPTY, "a column name"),
	OPT_CALL(0, "higher-is-better", NULL,
	    "every metric is better when higher (throughput)", set_better,
	    OPT_NOARG, PR_BETTER_HIGHER),
	OPT_CALL(0, "lower-is-better", NULL,
	    "every metric is better when lower (time)", set_better, OPT_NOARG,
	    PR_BETTER_LOWER),
	OPT_DOUBLE('c', "confidence", "pct",
	    "confidence level in percent (default 95)", struct compare_opts,
	    conf_pct, 0, 100, OPT_LO_OPEN | OPT_HI_OPEN | OPT_PCT_SIGN,
	    "a confidence in percent, above 0 and below 100"),
	OPT_DOUBLE(0, "equivalence", "pct",
	    "changes within +-pct percent are \"equivalent\" (default 1)",
	    struct compare_opts, verdict.equivalence_pct, 0, 100,
	    OPT_HI_OPEN | OPT_PCT_SIGN, "a percentage from 0 to below 100"),
	OPT_CALL(0, "method", "m", "auto, student, welch or mwu (default auto)",
	    parse_method, 0, 0),
	OPT_INT(0, "seed", "n",
	    "seed of the bootstrap intervals (default: fixed, so that reruns "
	    "agree)",
	    struct compare_opts, verdict.seed, 0, UINT64_MAX, NULL),
	OPT_FLAG(0, "fail-on-regression",
	    "exit 1 when any metric is a regression", struct compare_opts, gate,
	    1),
	OPT_DOUBLE(0, "threshold", "pct",
	    "only regressions larger than pct percent count (implies "
	    "--fail-on-regression)",
	    struct compare_opts, threshold_pct, 0, 1e6,
	    OPT_HI_OPEN | OPT_PCT_SIGN, "a percentage of 0 or more"),
	OPT_CALL(0, "markdown", NULL,
	    "a Markdown table, to paste into a bug report", set_report,
	    OPT_NOARG, PR_REPORT_MARKDOWN),
	OPT_CALL(0, "csv", NULL, "one CSV line per metric", set_report,
	    OPT_NOARG, PR_REPORT_CSV),
	OPT_CALL(0, "json", NULL, "a JSON object with every figure", set_report,
	    OPT_NOARG, PR_REPORT_JSON),
	OPT_GROUP(),
	OPT_STRING(0, "campaign", "name",
	    "compare the variants of a stored campaign: each against the first "
	    "(or the two named), with boots as the unit when each side has two "
	    "or more; the report ends with what differs in the environment",
	    struct compare_opts, campaign, 0, NULL),
	OPT_STRING(0, "host", "name",
	    "with --campaign: compare only the sessions run on host name (by "
	    "default a campaign from several hosts is compared host by host "
	    "and across hosts, the host as the unit)",
	    struct compare_opts, host, OPT_NONEMPTY, "a host name"),
	OPT_STRING(0, "db", "target",
	    "the database of --campaign (default: $PERFREG_DB, else "
	    "$XDG_DATA_HOME/perfreg/perfreg.db)",
	    struct compare_opts, db, 0, NULL),
	OPT_END(),
};

/* Parses the options; returns the index of the first operand, or -1
 * after printing what is wrong. */
static int
parse_opts(int argc, char **argv, struct compare_opts *o)
{
	uint64_t seen;
	int first;

	memset(o, 0, sizeof(*o));
	pr_read_opts_init(&o->read);
	pr_verdict_opts_init(&o->verdict);
	o->force_better = PR_BETTER_UNKNOWN;
	o->report = PR_REPORT_TEXT;
	o->report_set = 0;
	o->gate = 0;
	o->threshold_pct = 0;
	o->campaign = NULL;
	o->db = NULL;
	o->host = NULL;
	o->units = NULL;
	o->conf_pct = 0;
	if ((first = opt_parse(&cmd_compare_entry, argc, argv, o, &seen)) < 0)
		return -1;
	if (seen & opt_bit(options, "confidence"))
		o->verdict.conf = o->conf_pct / 100.0;
	if (seen & opt_bit(options, "threshold"))
		o->gate = 1;
	if (o->db != NULL && o->campaign == NULL) {
		cli_usage_error(&cmd_compare_entry,
		    "--db goes with --campaign");
		return -1;
	}
	if (o->host != NULL && o->campaign == NULL) {
		cli_usage_error(&cmd_compare_entry,
		    "--host goes with --campaign");
		return -1;
	}
	if (o->campaign != NULL) {
		if (argc - first != 0 && argc - first != 2) {
			cli_usage_error(&cmd_compare_entry,
			    "--campaign takes no variant or two, got %d",
			    argc - first);
			return -1;
		}
		if (o->read.format != PR_FORMAT_AUTO) {
			cli_errorf("compare: --format does not go with "
				   "--campaign");
			return -1;
		}
		return first;
	}
	if (argc - first != 2) {
		cli_usage_error(&cmd_compare_entry,
		    "expected two inputs, base and new, got %d", argc - first);
		return -1;
	}
	if (strcmp(argv[first], "-") == 0 &&
	    strcmp(argv[first + 1], "-") == 0) {
		cli_errorf("compare: only one input can be standard input");
		return -1;
	}
	return first;
}

/* One row of the comparison, with what it borrows from the datasets. */
struct row {
	struct pr_metric *base, *new;
	struct pr_sample base_sorted, new_sorted;
};

static int
read_side(const char *path, const struct compare_opts *o, struct pr_dataset *d)
{
	struct pr_error err;
	enum pr_status st;

	pr_error_clear(&err);
	if ((st = pr_read_dataset(path, &o->read, d, &err)) != PR_OK) {
		cli_error(&err);
		return cli_exit_for(st);
	}
	if (d->n == 0) {
		cli_errorf("%s: no values", path);
		return PR_EXIT_USAGE;
	}
	return PR_EXIT_OK;
}

static const char *
better_name(enum pr_better b)
{
	return b == PR_BETTER_HIGHER ? "higher" : "lower";
}

/*
 * Pairs the metrics of the two sides by name into rows (in the order of
 * BASE), warns about metrics found on one side only, and settles the
 * unit and direction of each row.  Returns an exit status.
 */
static int
match_metrics(struct pr_dataset *base, struct pr_dataset *new,
    const char *bpath, const char *npath, const struct compare_opts *o,
    struct row *rows, struct pr_report_metric *rm, size_t *nrows)
{
	struct pr_metric *b, *n;
	size_t i, k = 0;

	for (i = 0; i < base->n; i++) {
		b = &base->metrics[i];
		if (o->read.column != NULL &&
		    strcmp(b->name, o->read.column) != 0)
			continue;
		if ((n = pr_dataset_find(new, b->name)) == NULL) {
			cli_errorf("warning: metric '%s' is only in %s; not "
				   "compared",
			    b->name, bpath);
			continue;
		}
		if (b->unit[0] != '\0' && n->unit[0] != '\0' &&
		    strcmp(b->unit, n->unit) != 0) {
			cli_errorf("metric '%s' is in %s in %s but in %s in %s",
			    b->name, b->unit, bpath, n->unit, npath);
			return PR_EXIT_USAGE;
		}
		memset(&rm[k], 0, sizeof(rm[k]));
		rm[k].name = b->name;
		rm[k].unit = b->unit[0] != '\0' ? b->unit : n->unit;
		if (o->force_better != PR_BETTER_UNKNOWN) {
			rm[k].cmp.better = o->force_better;
		} else if (b->better != PR_BETTER_UNKNOWN &&
		    n->better != PR_BETTER_UNKNOWN && b->better != n->better) {
			cli_errorf("metric '%s': %s says %s is better, %s says "
				   "%s (--higher-is-better or "
				   "--lower-is-better to "
				   "decide)",
			    b->name, bpath, better_name(b->better), npath,
			    better_name(n->better));
			return PR_EXIT_USAGE;
		} else {
			rm[k].cmp.better = b->better != PR_BETTER_UNKNOWN
			    ? b->better
			    : n->better;
		}
		if (rm[k].cmp.better == PR_BETTER_UNKNOWN) {
			rm[k].cmp.better = PR_BETTER_LOWER;
			rm[k].better_assumed = 1;
		}
		rows[k].base = b;
		rows[k].new = n;
		k++;
	}
	for (i = 0; i < new->n; i++) {
		n = &new->metrics[i];
		if (o->read.column != NULL &&
		    strcmp(n->name, o->read.column) != 0)
			continue;
		if (pr_dataset_find(base, n->name) == NULL)
			cli_errorf("warning: metric '%s' is only in %s; not "
				   "compared",
			    n->name, npath);
	}
	if (k == 0) {
		if (o->read.column != NULL)
			cli_errorf("compare: no metric '%s' in both %s and %s",
			    o->read.column, bpath, npath);
		else
			cli_errorf("compare: %s and %s have no metric in "
				   "common",
			    bpath, npath);
		return PR_EXIT_USAGE;
	}
	*nrows = k;
	return PR_EXIT_OK;
}

/* Runs pr_compare on each row, then Holm's correction over them. */
static int
compare_rows(struct row *rows, struct pr_report_metric *rm, size_t n,
    const struct compare_opts *o, size_t *holm_m)
{
	struct pr_comparison *cmp;
	struct pr_error err;
	enum pr_status st;
	enum pr_better better;
	size_t i;

	for (i = 0; i < n; i++) {
		pr_error_clear(&err);
		if (pr_sample_copy(&rows[i].base_sorted, &rows[i].base->values,
			&err) != PR_OK ||
		    pr_sample_copy(&rows[i].new_sorted, &rows[i].new->values,
			&err) != PR_OK) {
			cli_error(&err);
			return PR_EXIT_INTERNAL;
		}
		pr_sample_sort(&rows[i].base_sorted);
		pr_sample_sort(&rows[i].new_sorted);
		better = rm[i].cmp.better;
		if ((st = pr_compare(rows[i].base_sorted.v,
			 rows[i].base_sorted.n, rows[i].new_sorted.v,
			 rows[i].new_sorted.n, better, &o->verdict, &rm[i].cmp,
			 &err)) != PR_OK) {
			cli_errorf("compare: metric '%s': %s", rm[i].name,
			    err.msg);
			return st == PR_ENOMEM ? PR_EXIT_INTERNAL
					       : PR_EXIT_USAGE;
		}
		rm[i].cmp.better = better;
		if (rows[i].base->values.n <= JSON_VALUES_MAX &&
		    rows[i].new->values.n <= JSON_VALUES_MAX) {
			rm[i].base_values = rows[i].base->values.v;
			rm[i].base_n = rows[i].base->values.n;
			rm[i].new_values = rows[i].new->values.v;
			rm[i].new_n = rows[i].new->values.n;
		}
	}
	*holm_m = 0;
	if (n > 1) {
		cmp = malloc(n * sizeof(*cmp));
		if (cmp == NULL) {
			cli_errorf("out of memory");
			return PR_EXIT_INTERNAL;
		}
		for (i = 0; i < n; i++)
			cmp[i] = rm[i].cmp;
		pr_compare_holm(cmp, n, &o->verdict);
		for (i = 0; i < n; i++) {
			rm[i].cmp = cmp[i];
			if (cmp[i].tested && (size_t)cmp[i].holm_m > *holm_m)
				*holm_m = (size_t)cmp[i].holm_m;
		}
		free(cmp);
	}
	return PR_EXIT_OK;
}

/* The size of a regression in percent, in the bad direction. */
static double
regression_size(const struct pr_comparison *c)
{
	return c->better == PR_BETTER_HIGHER ? -c->change_pct : c->change_pct;
}

static int
gate(const struct pr_report_metric *rm, size_t n, const struct compare_opts *o)
{
	char words[96];
	size_t i;
	int hit = 0;

	for (i = 0; i < n; i++) {
		if (rm[i].cmp.verdict != PR_VERDICT_REGRESSION ||
		    !(regression_size(&rm[i].cmp) > o->threshold_pct))
			continue;
		pr_report_change_words(words, sizeof(words),
		    rm[i].cmp.change_pct, rm[i].cmp.better, rm[i].name,
		    rm[i].unit);
		cli_errorf("regression in '%s': %s (threshold %g%%)",
		    rm[i].name, words, o->threshold_pct);
		hit = 1;
	}
	return hit ? PR_EXIT_REGRESSION : PR_EXIT_OK;
}

/*
 * Compares base with new into res (its report borrows base, new, bname
 * and nname); *gated gets the --fail-on-regression status.  Returns an
 * exit status; res is empty unless it is PR_EXIT_OK.
 */
static int
compare_core(struct pr_dataset *base, struct pr_dataset *new, const char *bname,
    const char *nname, const struct compare_opts *o, struct cli_comparison *res,
    int *gated)
{
	struct pr_report_metric *rm = NULL;
	struct row *rows = NULL;
	size_t i, nrows = 0, holm_m = 0;
	int rc;

	*gated = PR_EXIT_OK;
	memset(res, 0, sizeof(*res));
	rows = calloc(base->n + 1, sizeof(*rows));
	rm = calloc(base->n + 1, sizeof(*rm));
	if (rows == NULL || rm == NULL) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	if ((rc = match_metrics(base, new, bname, nname, o, rows, rm,
		 &nrows)) != PR_EXIT_OK ||
	    (rc = compare_rows(rows, rm, nrows, o, &holm_m)) != PR_EXIT_OK)
		goto out;
	res->report.base_source = bname;
	res->report.new_source = nname;
	res->report.conf = o->verdict.conf;
	res->report.equivalence_pct = o->verdict.equivalence_pct;
	res->report.holm_m = holm_m;
	res->report.metrics = rm;
	res->report.n = nrows;
	res->report.units = o->units;
	res->rm = rm;
	rm = NULL;
	if (o->gate)
		*gated = gate(res->rm, nrows, o);
out:
	for (i = 0; rows != NULL && i < nrows; i++) {
		pr_sample_release(&rows[i].base_sorted);
		pr_sample_release(&rows[i].new_sorted);
	}
	free(rows);
	free(rm);
	return rc;
}

void
cli_comparison_release(struct cli_comparison *c)
{
	if (c == NULL)
		return;
	free(c->rm);
	memset(c, 0, sizeof(*c));
}

/* Appends the report of res in format f to out; an exit status. */
static int
compare_write(const struct cli_comparison *res, enum pr_report_format f,
    struct pr_buf *out)
{
	struct pr_error err;

	pr_error_clear(&err);
	if (pr_report_compare(out, &res->report, f, &err) != PR_OK) {
		cli_error(&err);
		return PR_EXIT_INTERNAL;
	}
	return PR_EXIT_OK;
}

/* The variant name s as a C string for reports (escaped). */
static char *
vname(struct pr_str s)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);

	if (cli_str_escape(&b, s, NULL) != PR_OK ||
	    pr_buf_addc(&b, '\0', NULL) != PR_OK) {
		pr_buf_release(&b);
		return NULL;
	}
	return pr_buf_detach(&b, NULL);
}

/*
 * The dataset of one variant: each boot's mean when boots (boot level),
 * else every run.
 */
static enum pr_status
side_dataset(const struct pr_store_variant_data *d, int boots,
    struct pr_dataset *out, struct pr_error *err)
{
	const struct pr_store_series *m;
	enum pr_status st = PR_OK;
	json_t *jn, *ju;
	size_t i, k, j, b;
	double mean;

	for (i = 0; i < d->nm && st == PR_OK; i++) {
		m = &d->m[i];
		/* Names and units as text (an import may hold any bytes). */
		jn = cli_str_json(pr_str_c(m->name));
		ju = cli_str_json(pr_str_c(m->unit));
		if (jn == NULL || ju == NULL)
			st = pr_error_set(err, PR_ENOMEM, "out of memory");
		for (k = 0; !boots && k < m->n && st == PR_OK; k++)
			st = pr_dataset_add(out, json_string_value(jn),
			    json_string_value(ju), m->better, m->value[k], err);
		for (k = 0; boots && k < m->n && st == PR_OK; k = j) {
			b = m->boot[k];
			mean = 0;
			for (j = k; j < m->n && m->boot[j] == b; j++)
				mean +=
				    (m->value[j] - mean) / (double)(j - k + 1);
			st = pr_dataset_add(out, json_string_value(jn),
			    json_string_value(ju), m->better, mean, err);
		}
		json_decref(jn);
		json_decref(ju);
	}
	return st;
}

struct campaign_cmp {
	struct pr_store *st;
	const struct compare_opts *o;
	struct pr_str campaign;
	struct pr_buf out;
	json_t *jarr;
	int gated;
	char **hosts;     /* every host seen, escaped */
	char **hosts_raw; /* ... as stored */
	size_t nhosts;
	size_t pair_hosts;                  /* hosts of the current pair */
	struct pr_str bvar, nvar;           /* the pair's variants, as stored */
	struct pr_store_session_info *sess; /* the campaign's sessions */
	size_t nsess;
	int sess_loaded;
};

/* The environment diff of the first sessions of the two sides. */
static int
env_first(struct campaign_cmp *cc, const struct pr_store_variant_data *bd,
    const struct pr_store_variant_data *nd, const char *bn, const char *nn,
    json_t *jo)
{
	struct pr_env a, b;
	struct pr_envdiff diff;
	struct pr_buf jb = PR_BUF_INIT(REPORT_MAX);
	struct pr_error err;
	json_error_t je;
	json_t *j;
	int fa = 0, fb = 0, rc = PR_EXIT_INTERNAL;
	char na[PR_ERROR_MSG_MAX], nb[PR_ERROR_MSG_MAX];
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	pr_env_init(&a);
	pr_env_init(&b);
	memset(&diff, 0, sizeof(diff));
	pr_error_clear(&err);
	if (bd->nboots == 0 || nd->nboots == 0)
		return PR_EXIT_OK;
	if (pr_store_session_env(cc->st, bd->boot_session[0], &a, &fa, &err) !=
		PR_OK ||
	    pr_store_session_env(cc->st, nd->boot_session[0], &b, &fb, &err) !=
		PR_OK) {
		cli_errorf("compare: %s",
		    pr_error_format(&err, eb, sizeof(eb)));
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (!fa || !fb) {
		rc = PR_EXIT_OK;
		if (jo == NULL && cc->o->report != PR_REPORT_CSV &&
		    pr_buf_adds(&cc->out,
			"\nenvironment: no snapshot stored "
			"on one side\n",
			&err) != PR_OK)
			rc = PR_EXIT_INTERNAL;
		goto out;
	}
	if (pr_env_diff(&a, &b, &diff, &err) != PR_OK)
		goto out;
	if (jo != NULL) {
		if (pr_envdiff_to_json(&diff, &jb, &err) != PR_OK ||
		    (j = json_loadb(jb.data, jb.len, 0, &je)) == NULL ||
		    json_object_set_new(jo, "env_diff", j) != 0)
			goto out;
		rc = PR_EXIT_OK;
		goto out;
	}
	if (cc->o->report == PR_REPORT_CSV) {
		rc = PR_EXIT_OK;
		goto out;
	}
	snprintf(na, sizeof(na), "%s (session %lld)", bn,
	    (long long)bd->boot_session[0]);
	snprintf(nb, sizeof(nb), "%s (session %lld)", nn,
	    (long long)nd->boot_session[0]);
	if (pr_buf_addf(&cc->out, &err,
		"\nenvironment: what differs "
		"between %s and %s\n",
		na, nb) != PR_OK ||
	    pr_envdiff_format_text(&diff, na, nb, 20, &cc->out, &err) != PR_OK)
		goto out;
	rc = PR_EXIT_OK;
out:
	if (rc == PR_EXIT_INTERNAL && err.msg[0] != '\0')
		cli_error(&err);
	pr_buf_release(&jb);
	pr_envdiff_release(&diff);
	pr_env_release(&a);
	pr_env_release(&b);
	return rc;
}

static int
str_eq(struct pr_str a, struct pr_str b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

/* The index of session si's boot among d's boots, or -1. */
static long
session_boot(const struct pr_store_variant_data *d,
    const struct pr_store_session_info *si, struct pr_str var)
{
	size_t i;
	int ran = 0;

	for (i = 0; i < si->nvariants && !ran; i++)
		ran = str_eq(si->variants[i], var);
	for (i = 0; ran && i < d->nboots; i++)
		if (strcmp(d->boot_ids[i], si->boot_id) == 0)
			return (long)i;
	return -1;
}

/*
 * What changed between consecutive sessions of one variant (every
 * session of d's boots that ran var, in order of start): each diff that
 * holds a changed item or a relevant kernel log line, as text under
 * "environment: differs within variant X between boots 1 and 2", or an
 * object of the array jw.
 */
static int
within_part(struct campaign_cmp *cc, const struct pr_store_variant_data *d,
    struct pr_str var, const char *name, json_t *jw)
{
	struct pr_env a, b;
	struct pr_envdiff diff;
	struct pr_buf jb = PR_BUF_INIT(REPORT_MAX);
	struct pr_error err;
	json_error_t je;
	json_t *j, *o;
	size_t i;
	long prev = -1, pb = -1, boot;
	int fa = 0, fb = 0, rc = PR_EXIT_INTERNAL;
	char na[PR_ERROR_MSG_MAX], nb[PR_ERROR_MSG_MAX];
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	pr_env_init(&a);
	pr_env_init(&b);
	memset(&diff, 0, sizeof(diff));
	pr_error_clear(&err);
	if (!cc->sess_loaded) {
		if (pr_store_sessions(cc->st, cc->campaign, &cc->sess,
			&cc->nsess, &err) != PR_OK) {
			cli_errorf("compare: %s",
			    pr_error_format(&err, eb, sizeof(eb)));
			rc = PR_EXIT_USAGE;
			goto out;
		}
		cc->sess_loaded = 1;
	}
	for (i = 0; i < cc->nsess; i++) {
		if ((boot = session_boot(d, &cc->sess[i], var)) < 0)
			continue;
		pr_env_release(&b);
		pr_env_init(&b);
		if (pr_store_session_env(cc->st, cc->sess[i].id, &b, &fb,
			&err) != PR_OK) {
			cli_errorf("compare: %s",
			    pr_error_format(&err, eb, sizeof(eb)));
			rc = PR_EXIT_USAGE;
			goto out;
		}
		if (!fb)
			continue;
		if (prev >= 0 && fa) {
			pr_envdiff_release(&diff);
			if (pr_env_diff(&a, &b, &diff, &err) != PR_OK)
				goto out;
			if (diff.n > 0 || diff.nrel_a + diff.nrel_b > 0) {
				if (pb != boot) {
					snprintf(na, sizeof(na), "boot %ld",
					    pb + 1);
					snprintf(nb, sizeof(nb), "boot %ld",
					    boot + 1);
				} else {
					snprintf(na, sizeof(na), "session %lld",
					    (long long)cc->sess[prev].id);
					snprintf(nb, sizeof(nb), "session %lld",
					    (long long)cc->sess[i].id);
				}
				if (jw != NULL) {
					jb.len = 0;
					if (pr_envdiff_to_json(&diff, &jb,
						&err) != PR_OK ||
					    (j = json_loadb(jb.data, jb.len, 0,
						 &je)) == NULL)
						goto out;
					o = json_pack("{s:s,s:I,s:I,s:I,s:I,s:"
						      "o}",
					    "variant", name, "boot_a",
					    (json_int_t)pb + 1, "boot_b",
					    (json_int_t)boot + 1, "session_a",
					    (json_int_t)cc->sess[prev].id,
					    "session_b",
					    (json_int_t)cc->sess[i].id, "diff",
					    j);
					if (o == NULL ||
					    json_array_append_new(jw, o) != 0)
						goto out;
				} else if (cc->o->report != PR_REPORT_CSV &&
				    ((pb != boot
					     ? pr_buf_addf(&cc->out, &err,
						   "\nenvironment: differs "
						   "within variant %s between "
						   "boots %ld and %ld "
						   "(sessions %lld and "
						   "%lld)\n",
						   name, pb + 1, boot + 1,
						   (long long)cc->sess[prev].id,
						   (long long)cc->sess[i].id)
					     : pr_buf_addf(&cc->out, &err,
						   "\nenvironment: differs "
						   "within variant %s in boot "
						   "%ld between sessions %lld "
						   "and %lld\n",
						   name, boot + 1,
						   (long long)cc->sess[prev].id,
						   (long long)cc->sess[i]
						       .id)) != PR_OK ||
					pr_envdiff_format_text(&diff, na, nb,
					    20, &cc->out, &err) != PR_OK))
					goto out;
			}
		}
		pr_env_release(&a);
		a = b;
		pr_env_init(&b);
		fa = 1;
		prev = (long)i;
		pb = boot;
	}
	rc = PR_EXIT_OK;
out:
	if (rc == PR_EXIT_INTERNAL)
		cli_errorf("out of memory");
	pr_buf_release(&jb);
	pr_envdiff_release(&diff);
	pr_env_release(&a);
	pr_env_release(&b);
	return rc;
}

/*
 * The environment: the diff of the two sides' first sessions, then what
 * changed between the sessions of each side (within_part).
 */
static int
env_part(struct campaign_cmp *cc, const struct pr_store_variant_data *bd,
    const struct pr_store_variant_data *nd, const char *bn, const char *nn,
    json_t *jo)
{
	json_t *jw = NULL;
	int rc;

	if ((rc = env_first(cc, bd, nd, bn, nn, jo)) != PR_EXIT_OK)
		return rc;
	if (jo != NULL && (jw = json_array()) == NULL) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	if ((rc = within_part(cc, bd, cc->bvar, bn, jw)) == PR_EXIT_OK &&
	    (rc = within_part(cc, nd, cc->nvar, nn, jw)) == PR_EXIT_OK &&
	    jw != NULL && json_object_set_new(jo, "env_within", jw) != 0) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	if (rc != PR_EXIT_OK)
		json_decref(jw);
	return rc;
}

/*
 * The variance components of each metric on both sides (perfreg/nested.h):
 * how much of a run's variance comes from the boot it ran in.  Text
 * lines, or a "variance" array in jo.
 */
static int
variance_part(struct campaign_cmp *cc, const struct pr_store_variant_data *bd,
    const struct pr_store_variant_data *nd, json_t *jo)
{
	const struct pr_store_series *bm, *nm;
	struct pr_nested_side sb, sn;
	struct pr_nested_desc db, dn;
	struct pr_error err;
	json_t *arr = NULL, *o, *jn = NULL;
	size_t i, k;
	int head = 0;

	pr_error_clear(&err);
	if (jo != NULL && (arr = json_array()) == NULL)
		goto nomem;
	for (i = 0; i < bd->nm; i++) {
		bm = &bd->m[i];
		for (k = 0, nm = NULL; k < nd->nm && nm == NULL; k++)
			if (strcmp(nd->m[k].name, bm->name) == 0)
				nm = &nd->m[k];
		if (nm == NULL ||
		    (cc->o->read.column != NULL &&
			strcmp(bm->name, cc->o->read.column) != 0))
			continue;
		sb.x = bm->value;
		sb.group = bm->boot;
		sb.n = bm->n;
		sn.x = nm->value;
		sn.group = nm->boot;
		sn.n = nm->n;
		if (pr_nested_describe(&sb, "base", 0, &db, &err) != PR_OK ||
		    pr_nested_describe(&sn, "new", 0, &dn, &err) != PR_OK)
			continue;
		if (!(db.defined & PR_NESTED_ICC) &&
		    !(dn.defined & PR_NESTED_ICC))
			continue;
		if ((jn = cli_str_json(pr_str_c(bm->name))) == NULL)
			goto nomem;
		if (arr != NULL) {
			o = json_pack("{s:o,s:o,s:o}", "metric", jn,
			    "base_boot_share",
			    db.defined & PR_NESTED_ICC ? json_real(db.icc)
						       : json_null(),
			    "new_boot_share",
			    dn.defined & PR_NESTED_ICC ? json_real(dn.icc)
						       : json_null());
			jn = NULL; /* json_pack took it */
			if (o == NULL || json_array_append_new(arr, o) != 0)
				goto nomem;
			continue;
		}
		if (cc->o->report == PR_REPORT_CSV) {
			json_decref(jn);
			continue;
		}
		if (!head &&
		    pr_buf_adds(&cc->out,
			"\nshare of a run's variance "
			"that comes from its boot (base, new):\n",
			&err) != PR_OK)
			goto nomem;
		head = 1;
		if (pr_buf_addf(&cc->out, &err, "  %-24s ",
			json_string_value(jn)) != PR_OK)
			goto nomem;
		json_decref(jn);
		jn = NULL;
		if ((db.defined & PR_NESTED_ICC ? pr_buf_addf(&cc->out, &err,
						      "%5.1f%%", 100 * db.icc)
						: pr_buf_addf(&cc->out, &err,
						      "%6s", "-")) != PR_OK ||
		    (dn.defined & PR_NESTED_ICC
			    ? pr_buf_addf(&cc->out, &err, "  %5.1f%%\n",
				  100 * dn.icc)
			    : pr_buf_addf(&cc->out, &err, "  %6s\n", "-")) !=
			PR_OK)
			goto nomem;
	}
	if (arr != NULL && json_object_set_new(jo, "variance", arr) != 0) {
		arr = NULL;
		goto nomem;
	}
	return PR_EXIT_OK;
nomem:
	json_decref(jn);
	json_decref(arr);
	cli_errorf("out of memory");
	return PR_EXIT_INTERNAL;
}

/* A CSV field: quoted when it holds a comma, a quote or a blank. */
static enum pr_status
csv_field(struct pr_buf *b, const char *s, struct pr_error *err)
{
	enum pr_status st;

	if (strpbrk(s, ",\" \t") == NULL)
		return pr_buf_adds(b, s, err);
	if ((st = pr_buf_addc(b, '"', err)) != PR_OK)
		return st;
	for (; *s != '\0'; s++)
		if ((st = *s == '"' ? pr_buf_adds(b, "\"\"", err)
				    : pr_buf_addc(b, *s, err)) != PR_OK)
			return st;
	return pr_buf_addc(b, '"', err);
}

/*
 * Appends one pair's CSV report to the campaign's: the header once, with
 * the columns base and new first, and every line with the pair's names,
 * so that the whole is one table.
 */
static int
csv_pair(struct campaign_cmp *cc, const struct pr_buf *rep, const char *bn,
    const char *nn)
{
	struct pr_error err;
	const char *p = rep->data, *end = rep->data + rep->len, *nl;
	int first = 1;

	pr_error_clear(&err);
	for (; p != NULL && p < end; p = nl + 1, first = 0) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (first) {
			if (cc->out.len == 0 &&
			    (pr_buf_adds(&cc->out, "base,new,", &err) !=
				    PR_OK ||
				pr_buf_add(&cc->out, p, (size_t)(nl - p) + 1,
				    &err) != PR_OK))
				goto nomem;
			continue;
		}
		if (csv_field(&cc->out, bn, &err) != PR_OK ||
		    pr_buf_addc(&cc->out, ',', &err) != PR_OK ||
		    csv_field(&cc->out, nn, &err) != PR_OK ||
		    pr_buf_addc(&cc->out, ',', &err) != PR_OK ||
		    pr_buf_add(&cc->out, p, (size_t)(nl - p) + (nl < end),
			&err) != PR_OK)
			goto nomem;
	}
	return PR_EXIT_OK;
nomem:
	cli_error(&err);
	return PR_EXIT_INTERNAL;
}

/*
 * One comparison of bd and nd (of one host, or pooled when the campaign
 * has one): the level header, the report, the variance shares and the
 * environment diff, into cc->out or a new object appended to jarr (when
 * not NULL; else cc->jarr).  host names the host, NULL for none.
 */
static int
pair_body(struct campaign_cmp *cc, const struct pr_store_variant_data *bd,
    const struct pr_store_variant_data *nd, const char *bn, const char *nn,
    const char *host, json_t *jarr)
{
	struct pr_dataset base, new;
	struct cli_comparison res;
	struct compare_opts o;
	struct pr_buf rep = PR_BUF_INIT(REPORT_MAX);
	struct pr_error err;
	json_error_t je;
	json_t *jo = NULL, *jr;
	int boots, csv, rc = PR_EXIT_INTERNAL, gated = PR_EXIT_OK;
	enum pr_status st;
	char hb[PR_ERROR_MSG_MAX], nb[PR_ERROR_MSG_MAX];

	memset(&res, 0, sizeof(res));
	pr_dataset_init(&base);
	pr_dataset_init(&new);
	pr_error_clear(&err);
	if (jarr == NULL)
		jarr = cc->jarr;
	if (bd->nruns == 0 || nd->nruns == 0) {
		cli_errorf("compare: campaign variant '%s' has no successful "
			   "run stored%s%s",
		    bd->nruns == 0 ? bn : nn, host != NULL ? " on host " : "",
		    host != NULL ? host : "");
		rc = PR_EXIT_USAGE;
		goto out;
	}
	snprintf(hb, sizeof(hb), "%s%s", host != NULL ? "on host " : "",
	    host != NULL ? host : "");
	boots = bd->nboots >= 2 && nd->nboots >= 2;
	if (!boots)
		cli_errorf("warning: %s%s%s has %zu boot%s and %s has %zu: "
			   "runs "
			   "are treated as independent, and the noise a reboot "
			   "adds is unknown; run each variant in two boots or "
			   "more",
		    hb, host != NULL ? ", " : "", bn, bd->nboots,
		    bd->nboots == 1 ? "" : "s", nn, nd->nboots);
	if ((st = side_dataset(bd, boots, &base, &err)) != PR_OK ||
	    (st = side_dataset(nd, boots, &new, &err)) != PR_OK) {
		cli_errorf("compare: %s", err.msg);
		rc = cli_exit_for(st);
		goto out;
	}
	if (jarr != NULL) {
		if ((jo = json_pack("{s:s,s:s,s:s,s:I,s:I,s:I,s:I}", "base", bn,
			 "new", nn, "level", boots ? "boot" : "run",
			 "base_boots", (json_int_t)bd->nboots, "new_boots",
			 (json_int_t)nd->nboots, "base_runs",
			 (json_int_t)bd->nruns, "new_runs",
			 (json_int_t)nd->nruns)) == NULL ||
		    (host != NULL &&
			json_object_set_new(jo, "host",
			    cli_str_json(pr_str_c(host))) != 0)) {
			cli_errorf("out of memory");
			goto out;
		}
	} else if (cc->o->report != PR_REPORT_CSV &&
	    pr_buf_addf(&cc->out, &err,
		"%s%s against %s%s%s: %s level, %zu "
		"boot%s (%zu runs) and %zu boot%s (%zu runs)%s\n\n",
		cc->out.len > 0 ? "\n" : "", nn, bn, host != NULL ? " " : "",
		hb, boots ? "boot" : "run", bd->nboots,
		bd->nboots == 1 ? "" : "s", bd->nruns, nd->nboots,
		nd->nboots == 1 ? "" : "s", nd->nruns,
		boots ? "; each boot's "
			"mean is one value"
		      : "; WARNING: one boot a side cannot "
			"show the noise of a reboot") != PR_OK) {
		cli_error(&err);
		goto out;
	}
	/* Welch's t on the units, as perfreg/nested.h describes, unless
	 * --method says otherwise. */
	o = *cc->o;
	if (o.verdict.method == PR_METHOD_AUTO)
		o.verdict.method = PR_METHOD_WELCH;
	/* Welch decides: the rank tests and bootstrap ratios that would
	 * only be printed aside cost seconds at 10^5 runs a variant. */
	if (o.verdict.method == PR_METHOD_WELCH)
		o.verdict.flags |= PR_VERDICT_NO_RATIO | PR_VERDICT_NO_RANKS;
	o.units = boots ? "boots" : NULL;
	/* Across hosts the host is the unit: one host alone does not gate. */
	if (host != NULL && cc->pair_hosts > 1)
		o.gate = 0;
	csv = cc->o->report == PR_REPORT_CSV;
	if ((rc = compare_core(&base, &new, bn, nn, &o, &res, &gated)) !=
		PR_EXIT_OK ||
	    (rc = compare_write(&res, o.report,
		 jo != NULL || csv ? &rep : &cc->out)) != PR_EXIT_OK)
		goto out;
	snprintf(nb, sizeof(nb), "%s%s%s", nn, host != NULL ? "@" : "",
	    host != NULL ? host : "");
	if (csv && (rc = csv_pair(cc, &rep, bn, nb)) != PR_EXIT_OK)
		goto out;
	if (gated != PR_EXIT_OK)
		cc->gated = gated;
	if (jo != NULL) {
		rc = PR_EXIT_INTERNAL;
		if ((jr = json_loadb(rep.data, rep.len, 0, &je)) == NULL ||
		    json_object_set_new(jo, "report", jr) != 0) {
			cli_errorf("out of memory");
			goto out;
		}
	}
	if ((rc = variance_part(cc, bd, nd, jo)) != PR_EXIT_OK ||
	    (rc = env_part(cc, bd, nd, bn, nn, jo)) != PR_EXIT_OK)
		goto out;
	if (jo != NULL) {
		if (json_array_append_new(jarr, jo) != 0) {
			jo = NULL;
			cli_errorf("out of memory");
			rc = PR_EXIT_INTERNAL;
			goto out;
		}
		jo = NULL;
	}
out:
	cli_comparison_release(&res);
	json_decref(jo);
	pr_buf_release(&rep);
	pr_dataset_release(&base);
	pr_dataset_release(&new);
	return rc;
}

/* A copy of s, or NULL when out of memory. */
static char *
dupstr(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d != NULL)
		memcpy(d, s, n);
	return d;
}

/*
 * The host of each boot of d into hob (d->nboots entries), as an index
 * into cc->hosts, which grows with every host not seen yet.
 */
static int
boot_hosts(struct campaign_cmp *cc, const struct pr_store_variant_data *d,
    size_t *hob)
{
	struct pr_store_session_info si;
	struct pr_error err;
	enum pr_status st;
	size_t j, h;
	char **nh;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	pr_error_clear(&err);
	for (j = 0; j < d->nboots; j++) {
		if ((st = pr_store_session_get(cc->st, d->boot_session[j], &si,
			 &err)) != PR_OK) {
			cli_errorf("compare: %s",
			    pr_error_format(&err, eb, sizeof(eb)));
			return cli_exit_for(st);
		}
		for (h = 0; h < cc->nhosts; h++)
			if (strcmp(cc->hosts_raw[h], si.host) == 0)
				break;
		if (h == cc->nhosts) {
			if ((nh = realloc(cc->hosts, (h + 1) * sizeof(*nh))) !=
			    NULL)
				cc->hosts = nh;
			if (nh != NULL &&
			    (nh = realloc(cc->hosts_raw,
				 (h + 1) * sizeof(*nh))) != NULL)
				cc->hosts_raw = nh;
			if (nh == NULL ||
			    (cc->hosts_raw[h] = dupstr(si.host)) == NULL) {
				pr_store_session_info_release(&si);
				cli_errorf("out of memory");
				return PR_EXIT_INTERNAL;
			}
			if ((cc->hosts[h] = vname(pr_str_c(si.host))) == NULL) {
				free(cc->hosts_raw[h]);
				pr_store_session_info_release(&si);
				cli_errorf("out of memory");
				return PR_EXIT_INTERNAL;
			}
			cc->nhosts++;
		}
		hob[j] = h;
		pr_store_session_info_release(&si);
	}
	return PR_EXIT_OK;
}

/*
 * The runs of d on host h (hob: each boot's host) into out, a copy that
 * pr_store_variant_data_release frees.  out->nruns is the most values
 * of a metric, since the store counts runs for the whole variant only.
 */
static int
variant_subset(const struct pr_store_variant_data *d, const size_t *hob,
    size_t h, struct pr_store_variant_data *out)
{
	const struct pr_store_series *m;
	struct pr_store_series *o;
	size_t *map = NULL, i, k, n;

	memset(out, 0, sizeof(*out));
	if ((map = calloc(d->nboots + 1, sizeof(*map))) == NULL ||
	    (out->boot_ids = calloc(d->nboots + 1, sizeof(char *))) == NULL ||
	    (out->boot_session = calloc(d->nboots + 1, sizeof(int64_t))) ==
		NULL ||
	    (out->m = calloc(d->nm + 1, sizeof(*out->m))) == NULL)
		goto nomem;
	for (i = 0; i < d->nboots; i++) {
		if (hob[i] != h)
			continue;
		map[i] = out->nboots;
		out->boot_session[out->nboots] = d->boot_session[i];
		if ((out->boot_ids[out->nboots++] = dupstr(d->boot_ids[i])) ==
		    NULL)
			goto nomem;
	}
	for (i = 0; i < d->nm; i++) {
		m = &d->m[i];
		for (k = 0, n = 0; k < m->n; k++)
			n += hob[m->boot[k]] == h;
		if (n == 0)
			continue;
		o = &out->m[out->nm++];
		o->better = m->better;
		if ((o->name = dupstr(m->name)) == NULL ||
		    (o->unit = dupstr(m->unit)) == NULL ||
		    (o->value = malloc(n * sizeof(double))) == NULL ||
		    (o->boot = malloc(n * sizeof(size_t))) == NULL)
			goto nomem;
		for (k = 0; k < m->n; k++)
			if (hob[m->boot[k]] == h) {
				o->value[o->n] = m->value[k];
				o->boot[o->n++] = map[m->boot[k]];
			}
		if (o->n > out->nruns)
			out->nruns = o->n;
	}
	free(map);
	return PR_EXIT_OK;
nomem:
	free(map);
	pr_store_variant_data_release(out);
	cli_errorf("out of memory");
	return PR_EXIT_INTERNAL;
}

/* The host of value k of series m of a side whose boots have hosts hob. */
static void
campaign_side(const struct pr_store_series *m, const size_t *hob, size_t *host,
    struct pr_campaign_side *s)
{
	size_t k;

	for (k = 0; k < m->n; k++)
		host[k] = hob[m->boot[k]];
	s->x = m->value;
	s->boot = m->boot;
	s->host = host;
	s->n = m->n;
}

/* The direction of a campaign metric as compare_core would take it. */
static enum pr_better
metric_better(const struct compare_opts *o, const struct pr_store_series *m)
{
	return o->force_better != PR_BETTER_UNKNOWN ? o->force_better
						    : m->better;
}

/*
 * The verdicts across hosts (perfreg/campaign.h), metric by metric: text
 * lines into cc->out or an "across_hosts" array in jo.  Gates on a
 * regression across hosts.
 */
static int
across_part(struct campaign_cmp *cc, const struct pr_store_variant_data *bd,
    const struct pr_store_variant_data *nd, const size_t *hb, const size_t *hn,
    const char *bn, const char *nn, json_t *jo)
{
	const struct pr_store_series *bm, *nm;
	struct pr_campaign_side sb, sn;
	struct pr_campaign_result r;
	struct pr_buf line = PR_BUF_INIT(4096);
	struct pr_error err;
	const struct pr_comparison *c;
	json_t *arr = NULL, *e, *jn;
	size_t i, k, *hostb = NULL, *hostn = NULL;
	int rc = PR_EXIT_INTERNAL, head = 0;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	memset(&r, 0, sizeof(r));
	pr_error_clear(&err);
	if (jo != NULL && (arr = json_array()) == NULL)
		goto nomem;
	for (i = 0; i < bd->nm; i++) {
		bm = &bd->m[i];
		for (k = 0, nm = NULL; k < nd->nm && nm == NULL; k++)
			if (strcmp(nd->m[k].name, bm->name) == 0)
				nm = &nd->m[k];
		if (nm == NULL || bm->n == 0 || nm->n == 0 ||
		    (cc->o->read.column != NULL &&
			strcmp(bm->name, cc->o->read.column) != 0))
			continue;
		free(hostb);
		free(hostn);
		hostb = malloc(bm->n * sizeof(*hostb));
		hostn = malloc(nm->n * sizeof(*hostn));
		if (hostb == NULL || hostn == NULL)
			goto nomem;
		campaign_side(bm, hb, hostb, &sb);
		campaign_side(nm, hn, hostn, &sn);
		if (pr_campaign_hosts(&sb, &sn, cc->nhosts,
			metric_better(cc->o, bm), &cc->o->verdict, 0, &r,
			&err) != PR_OK) {
			cli_errorf("compare: %s: %s", bm->name,
			    pr_error_format(&err, eb, sizeof(eb)));
			rc = PR_EXIT_USAGE;
			goto out;
		}
		c = &r.across;
		line.len = 0;
		if (pr_campaign_hosts_summary(&r, &line, &err) != PR_OK ||
		    pr_buf_addc(&line, '\0', &err) != PR_OK)
			goto nomem;
		if (cc->o->gate && c->verdict == PR_VERDICT_REGRESSION &&
		    fabs(c->change_pct) > cc->o->threshold_pct) {
			cli_errorf("regression across hosts: %s %+.1f%%",
			    bm->name, c->change_pct);
			cc->gated = PR_EXIT_REGRESSION;
		}
		if (arr != NULL) {
			if ((jn = cli_str_json(pr_str_c(bm->name))) == NULL)
				goto nomem;
			e = json_pack("{s:o,s:I,s:I,s:b,s:s,s:s,s:I,s:b}",
			    "metric", jn, "hosts", (json_int_t)r.nhosts,
			    "hosts_one_side", (json_int_t)r.nhosts_one_side,
			    "tested", c->tested, "verdict",
			    pr_verdict_str(c->verdict), "summary", line.data,
			    "agreeing", (json_int_t)r.agreeing, "consistent",
			    r.consistent);
			if (e == NULL || json_array_append_new(arr, e) != 0)
				goto nomem;
			if (c->tested &&
			    (json_object_set_new(e, "change_pct",
				 json_real(c->change_pct)) != 0 ||
				json_object_set_new(e, "ci_lo_pct",
				    json_real(c->ci_lo_pct)) != 0 ||
				json_object_set_new(e, "ci_hi_pct",
				    json_real(c->ci_hi_pct)) != 0 ||
				json_object_set_new(e, "p_value",
				    json_real(c->p_value)) != 0 ||
				json_object_set_new(e, "df",
				    json_real(c->primary_t.df)) != 0))
				goto nomem;
			if (r.have_f &&
			    json_object_set_new(e, "agreement",
				json_pack("{s:f,s:f,s:f,s:f,s:s}", "f", r.f,
				    "df1", r.df1, "df2", r.df2, "p_value",
				    r.f_p, "units",
				    r.f_on_runs ? "runs" : "boots")) != 0)
				goto nomem;
		} else if (cc->o->report != PR_REPORT_CSV) {
			if (!head &&
			    pr_buf_addf(&cc->out, &err,
				"\n%s against %s across %zu hosts, the host as "
				"the unit (one-sample t on the hosts' "
				"log-ratios of their means):\n",
				nn, bn, r.nhosts) != PR_OK)
				goto nomem;
			head = 1;
			if ((c->tested
				    ? pr_buf_addf(&cc->out, &err,
					  "  %-24s %+.1f%% [%+.1f%%, %+.1f%%] "
					  "p = %.2g  %s\n",
					  bm->name, c->change_pct, c->ci_lo_pct,
					  c->ci_hi_pct, c->p_value,
					  pr_verdict_str(c->verdict))
				    : pr_buf_addf(&cc->out, &err,
					  "  %-24s untested (%s)\n", bm->name,
					  r.nhosts < 2
					      ? "fewer than 2 hosts ran both"
					      : "no spread or a mean <= 0")) !=
				PR_OK ||
			    pr_buf_addf(&cc->out, &err, "    %s\n",
				line.data) != PR_OK)
				goto nomem;
		}
		pr_campaign_hosts_release(&r);
	}
	if (arr != NULL && json_object_set_new(jo, "across_hosts", arr) != 0) {
		arr = NULL;
		goto nomem;
	}
	arr = NULL;
	rc = PR_EXIT_OK;
	goto out;
nomem:
	cli_errorf("out of memory");
	rc = PR_EXIT_INTERNAL;
out:
	pr_campaign_hosts_release(&r);
	json_decref(arr);
	pr_buf_release(&line);
	free(hostb);
	free(hostn);
	return rc;
}

/*
 * One comparison of the campaign: variant nv against variant bv.  With
 * sessions from several hosts (after --host), each host is compared on
 * its own and the verdict across hosts takes the host as the unit.
 */
static int
campaign_pair(struct campaign_cmp *cc, const struct pr_store_variant_info *bv,
    const struct pr_store_variant_info *nv)
{
	struct pr_store_variant_data bd, nd, sb, sn;
	struct pr_error err;
	json_t *jo = NULL, *jper = NULL;
	char *bn = vname(bv->name), *nn = vname(nv->name);
	size_t *hb = NULL, *hn = NULL, h, sel = SIZE_MAX, *used = NULL;
	int rc = PR_EXIT_INTERNAL;
	enum pr_status st;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	memset(&bd, 0, sizeof(bd));
	memset(&nd, 0, sizeof(nd));
	memset(&sb, 0, sizeof(sb));
	memset(&sn, 0, sizeof(sn));
	pr_error_clear(&err);
	cc->bvar = bv->name;
	cc->nvar = nv->name;
	if (bn == NULL || nn == NULL) {
		cli_errorf("out of memory");
		goto out;
	}
	if ((st = pr_store_load_variant(cc->st, cc->campaign, bv->name, &bd,
		 &err)) != PR_OK ||
	    (st = pr_store_load_variant(cc->st, cc->campaign, nv->name, &nd,
		 &err)) != PR_OK) {
		cli_errorf("compare: %s",
		    pr_error_format(&err, eb, sizeof(eb)));
		rc = cli_exit_for(st);
		goto out;
	}
	if ((hb = calloc(bd.nboots + 1, sizeof(*hb))) == NULL ||
	    (hn = calloc(nd.nboots + 1, sizeof(*hn))) == NULL) {
		cli_errorf("out of memory");
		goto out;
	}
	if ((rc = boot_hosts(cc, &bd, hb)) != PR_EXIT_OK ||
	    (rc = boot_hosts(cc, &nd, hn)) != PR_EXIT_OK)
		goto out;
	rc = PR_EXIT_INTERNAL;
	if (cc->o->host != NULL) {
		for (h = 0; h < cc->nhosts && sel == SIZE_MAX; h++)
			if (strcmp(cc->hosts_raw[h], cc->o->host) == 0)
				sel = h;
		if (sel == SIZE_MAX) {
			cli_errorf("compare: campaign '%s' has no run of %s "
				   "or %s on host '%s'",
			    cc->o->campaign, bn, nn, cc->o->host);
			rc = PR_EXIT_USAGE;
			goto out;
		}
	}
	/* The hosts this pair ran on (after --host). */
	if ((used = calloc(cc->nhosts + 1, sizeof(*used))) == NULL) {
		cli_errorf("out of memory");
		goto out;
	}
	for (h = 0; h < bd.nboots; h++)
		used[hb[h]] |= 1;
	for (h = 0; h < nd.nboots; h++)
		used[hn[h]] |= 2;
	cc->pair_hosts = 0;
	for (h = 0; h < cc->nhosts; h++)
		cc->pair_hosts += used[h] != 0 && (sel == SIZE_MAX || h == sel);
	if (cc->pair_hosts <= 1 && sel == SIZE_MAX) {
		rc = pair_body(cc, &bd, &nd, bn, nn, NULL, NULL);
		goto out;
	}
	if (cc->jarr != NULL &&
	    ((jo = json_pack("{s:s,s:s}", "base", bn, "new", nn)) == NULL ||
		(jper = json_array()) == NULL ||
		json_object_set(jo, "per_host", jper) != 0)) {
		cli_errorf("out of memory");
		goto out;
	}
	for (h = 0; h < cc->nhosts; h++) {
		if (sel != SIZE_MAX ? h != sel : used[h] != 3) {
			if (sel == SIZE_MAX && used[h] != 0)
				cli_errorf("warning: host %s ran only %s: not "
					   "compared",
				    cc->hosts[h], used[h] == 1 ? bn : nn);
			continue;
		}
		if ((rc = variant_subset(&bd, hb, h, &sb)) != PR_EXIT_OK ||
		    (rc = variant_subset(&nd, hn, h, &sn)) != PR_EXIT_OK ||
		    (rc = pair_body(cc, &sb, &sn, bn, nn, cc->hosts[h],
			 jper)) != PR_EXIT_OK)
			goto out;
		pr_store_variant_data_release(&sb);
		pr_store_variant_data_release(&sn);
	}
	if (sel == SIZE_MAX &&
	    (rc = across_part(cc, &bd, &nd, hb, hn, bn, nn, jo)) != PR_EXIT_OK)
		goto out;
	if (jo != NULL) {
		if (json_array_append_new(cc->jarr, jo) != 0) {
			jo = NULL;
			cli_errorf("out of memory");
			rc = PR_EXIT_INTERNAL;
			goto out;
		}
		jo = NULL;
	}
	rc = PR_EXIT_OK;
out:
	json_decref(jo);
	json_decref(jper);
	pr_store_variant_data_release(&sb);
	pr_store_variant_data_release(&sn);
	pr_store_variant_data_release(&bd);
	pr_store_variant_data_release(&nd);
	free(hb);
	free(hn);
	free(used);
	free(bn);
	free(nn);
	return rc;
}

/* The index of the variant called name, or -1 (with a message). */
static long
find_variant(const struct pr_store_variant_info *v, size_t n, const char *name,
    const char *campaign)
{
	size_t i, len = strlen(name);

	for (i = 0; i < n; i++)
		if (v[i].name.n == len && memcmp(v[i].name.p, name, len) == 0)
			return (long)i;
	cli_errorf("compare: campaign '%s' has no variant '%s'", campaign,
	    name);
	return -1;
}

/*
 * compare --campaign NAME [A B]: every variant against the first, or B
 * against A, each followed by the environment diff.
 */
static int
compare_campaign(const struct compare_opts *o, int nops, char **ops)
{
	struct pr_store_variant_info *v = NULL;
	struct campaign_cmp cc;
	struct pr_error err;
	enum pr_status st;
	json_t *root = NULL;
	size_t n = 0, i;
	long a = 0, b = -1;
	int rc;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	memset(&cc, 0, sizeof(cc));
	cc.o = o;
	cc.campaign = pr_str_c(o->campaign);
	pr_buf_init(&cc.out, REPORT_MAX);
	if ((rc = cli_store_open("compare", o->db, PR_STORE_READ, &cc.st)) !=
	    PR_EXIT_OK)
		return rc;
	pr_error_clear(&err);
	if ((st = pr_store_variants(cc.st, cc.campaign, &v, &n, &err)) !=
	    PR_OK) {
		cli_errorf("compare: %s",
		    pr_error_format(&err, eb, sizeof(eb)));
		rc = cli_exit_for(st);
		goto out;
	}
	if (nops == 2 &&
	    ((a = find_variant(v, n, ops[0], o->campaign)) < 0 ||
		(b = find_variant(v, n, ops[1], o->campaign)) < 0)) {
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (nops == 0 && n < 2) {
		cli_errorf("compare: campaign '%s' has %zu variant%s; a "
			   "comparison needs two",
		    o->campaign, n, n == 1 ? "" : "s");
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (o->report == PR_REPORT_JSON &&
	    ((root = json_object()) == NULL ||
		(cc.jarr = json_array()) == NULL ||
		json_object_set_new(root, "campaign",
		    cli_str_json(cc.campaign)) != 0 ||
		json_object_set(root, "comparisons", cc.jarr) != 0)) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < n && rc == PR_EXIT_OK; i++) {
		if (b >= 0 ? (long)i != b : (long)i == a)
			continue;
		rc = campaign_pair(&cc, &v[a], &v[i]);
	}
	if (rc != PR_EXIT_OK)
		goto out;
	if (root != NULL) {
		if ((rc = cli_write_json(root)) != PR_EXIT_OK)
			goto out;
	} else if ((rc = cli_write(&cc.out)) != PR_EXIT_OK) {
		goto out;
	}
	rc = cc.gated;
out:
	json_decref(cc.jarr);
	json_decref(root);
	pr_buf_release(&cc.out);
	for (i = 0; i < cc.nhosts; i++) {
		free(cc.hosts[i]);
		free(cc.hosts_raw[i]);
	}
	free(cc.hosts);
	free(cc.hosts_raw);
	pr_store_sessions_free(cc.sess, cc.nsess);
	pr_store_variants_free(v, n);
	pr_store_close(cc.st);
	return rc;
}

int
cli_compare_datasets(struct pr_dataset *base, struct pr_dataset *new_,
    const char *bname, const char *nname, int gate, struct cli_comparison *res,
    int *gated)
{
	struct compare_opts o;

	memset(&o, 0, sizeof(o));
	pr_read_opts_init(&o.read);
	pr_verdict_opts_init(&o.verdict);
	o.force_better = PR_BETTER_UNKNOWN;
	o.gate = gate;
	return compare_core(base, new_, bname, nname, &o, res, gated);
}

static int
exec_compare(int argc, char **argv)
{
	struct pr_dataset base, new;
	struct pr_buf out = PR_BUF_INIT(REPORT_MAX);
	struct cli_comparison res;
	struct compare_opts o;
	const char *bpath, *npath;
	int first, rc, gated = PR_EXIT_OK;

	if ((first = parse_opts(argc, argv, &o)) < 0)
		return PR_EXIT_USAGE;
	if (o.campaign != NULL)
		return compare_campaign(&o, argc - first, argv + first);
	bpath = argv[first];
	npath = argv[first + 1];
	memset(&res, 0, sizeof(res));
	pr_dataset_init(&base);
	pr_dataset_init(&new);
	if ((rc = read_side(bpath, &o, &base)) != PR_EXIT_OK ||
	    (rc = read_side(npath, &o, &new)) != PR_EXIT_OK)
		goto out;
	if ((rc = compare_core(&base, &new,
		 strcmp(bpath, "-") == 0 ? "<stdin>" : bpath,
		 strcmp(npath, "-") == 0 ? "<stdin>" : npath, &o, &res,
		 &gated)) != PR_EXIT_OK ||
	    (rc = compare_write(&res, o.report, &out)) != PR_EXIT_OK)
		goto out;
	if ((rc = cli_write(&out)) == PR_EXIT_OK)
		rc = gated;
out:
	cli_comparison_release(&res);
	pr_buf_release(&out);
	pr_dataset_release(&base);
	pr_dataset_release(&new);
	return rc;
}

static const char about[] =
    "Compares the measurements in BASE (before a change) with those in NEW\n"
    "(after it), metric by metric, and says for each whether the change\n"
    "is a regression, an improvement, equivalent or inconclusive, by how\n"
    "much in percent, with an interval and a p-value.\n";

static const char epilogue[] =
    "Inputs may be \"-\" for standard input (one of them).  Exit status: "
    "0 compared,\n"
    "1 regression found with --fail-on-regression, 2 bad usage or input, "
    "3 internal\n"
    "error.\n";

const struct cmd_entry cmd_compare_entry = { .name = "compare",
	.synopsis = "[options] base new\n"
		    "[options] --campaign name [--db target] [variant variant]",
	.about = about,
	.opts = options,
	.epilogue = epilogue,
	.exec = exec_compare };
