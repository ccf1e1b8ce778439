/*
 * cli/cmd_compare.c - `perfreg compare BASE NEW`: reads two inputs (at once,
 * pr_read_any_each), compares them metric by metric, and writes the
 * report.
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

#include "cli/cli_html.h"
#include "cli/cmd.h"
#include "perfreg/dataset.h"
#include "perfreg/env.h"
#include "perfreg/explain.h"
#include "perfreg/parse.h"
#include "perfreg/read.h"
#include "perfreg/report.h"
#include "perfreg/report_campaign.h"
#include "perfreg/report_compare.h"
#include "perfreg/report_model.h"
#include "perfreg/store.h"
#include "perfreg/verdict.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_compare_entry;

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
	const char *html;  /* --html file */
	const char *host;  /* --host */
	const char *parse; /* --parse: a benchmark format, or NULL */
	double conf_pct;   /* -c */
	/* --column (several: read every metric, keep these) and --primary */
	const char **column, **primary;
	size_t ncolumn, nprimary;
};

/* --column (ival 0) and --primary (ival 1): a metric name, repeatable. */
static int
add_name(void *base, const struct opt *opt, const char *name)
{
	struct compare_opts *o = base;
	const char ***list = opt->ival ? &o->primary : &o->column;
	size_t *n = opt->ival ? &o->nprimary : &o->ncolumn;
	const char **nl;

	if (*name == '\0') {
		cli_errorf("compare: --%s: expected a metric name",
		    opt->ival ? "primary" : "column");
		return -1;
	}
	if ((nl = realloc(*list, (*n + 1) * sizeof(*nl))) == NULL) {
		cli_errorf("out of memory");
		return -1;
	}
	*list = nl;
	nl[(*n)++] = name;
	/* One column is read alone (its reader checks it); several are
	 * picked from all that were read. */
	if (!opt->ival)
		o->read.column = o->ncolumn == 1 ? nl[0] : NULL;
	return 0;
}

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
	char list[256];

	(void)opt;
	if (pr_format_parse(arg, &o->read.format, &err) != PR_OK) {
		cli_errorf("compare: --format: expected %s, got '%s'",
		    pr_format_names(list, sizeof(list), 1), arg);
		return -1;
	}
	return 0;
}

/* --parse: a benchmark format of perfreg/parse.h, checked here. */
static int
parse_bench(void *base, const struct opt *opt, const char *arg)
{
	struct compare_opts *o = base;
	struct pr_parser *p = NULL;
	struct pr_error err;
	int rc = 0;

	(void)opt;
	pr_error_clear(&err);
	if (pr_parser_new(&p, &err) != PR_OK ||
	    pr_parser_set_format(p, arg, &err) != PR_OK) {
		cli_errorf("compare: --parse: %s", err.msg);
		rc = -1;
	}
	pr_parser_free(p);
	o->parse = arg;
	return rc;
}

/* --format's help, the names from the library's list of inputs. */
static const char format_help[] = "input format: "
#define PR_INPUT(name, NAME) #name ", "
#include "perfreg/parse_formats.def"
#undef PR_INPUT
				  "or auto (the default: detected from the "
				  "content)";

/* --parse's help, the names from the library's list of formats. */
static const char parse_help[] = "read both inputs as the output of fmt: "
				 "auto (detected), "
#define PR_FORMAT(name) #name ", "
#include "perfreg/parse_formats.def"
#undef PR_FORMAT
				 "as `perfreg parse` reads them (default: "
				 "detected in a file the --format formats "
				 "do not read)";

static const struct opt options[] = {
	OPT_CALL(0, "format", "fmt", format_help, parse_format, 0, 0),
	OPT_CALL(0, "parse", "fmt", parse_help, parse_bench, 0, 0),
	OPT_CALL(0, "column", "name",
	    "compare only the metric (CSV column) name (repeatable: each "
	    "one named)",
	    add_name, OPT_REPEAT, 0),
	OPT_CALL(0, "primary", "name",
	    "a primary metric (repeatable; default: the benchmark's own "
	    "results, else every metric with a known direction): the "
	    "verdict table, headline and Holm family; the others follow "
	    "as side metrics (Benjamini-Hochberg)",
	    add_name, OPT_REPEAT, 1),
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
	CLI_OPT_HTML(struct compare_opts, html),
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
	o->html = NULL;
	o->host = NULL;
	o->parse = NULL;
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
		if (o->read.format != PR_FORMAT_AUTO || o->parse != NULL) {
			cli_errorf("compare: --%s does not go with --campaign",
			    o->parse != NULL ? "parse" : "format");
			return -1;
		}
		return first;
	}
	if (argc - first != 2) {
		cli_usage_error(&cmd_compare_entry,
		    "expected two inputs, base and new, got %d", argc - first);
		return -1;
	}
	if (o->parse != NULL && o->read.format != PR_FORMAT_AUTO) {
		cli_errorf("compare: --parse and --format name two formats; "
			   "give one");
		return -1;
	}
	if (strcmp(argv[first], "-") == 0 &&
	    strcmp(argv[first + 1], "-") == 0) {
		cli_errorf("compare: only one input can be standard input");
		return -1;
	}
	return first;
}

/* Reads both sides at once (pr_read_any_each), into d[0] and d[1]. */
static int
read_sides(const char *bpath, const char *npath, const struct compare_opts *o,
    struct pr_dataset *d, const char **used)
{
	const char *paths[2] = { bpath, npath };
	struct pr_error err;
	enum pr_status st;
	int i;

	pr_error_clear(&err);
	if ((st = pr_read_any_each(paths, 2, &o->read, o->parse, d, used, NULL,
		 &err)) != PR_OK) {
		cli_error(&err);
		return cli_exit_for(st);
	}
	for (i = 0; i < 2; i++)
		if (d[i].n == 0) {
			cli_errorf("%s: no values", paths[i]);
			return PR_EXIT_USAGE;
		}
	return PR_EXIT_OK;
}

/* The library's options of the comparison, from the command's. */
static void
cmp_opts(const struct compare_opts *o, struct pr_report_compare_opts *co)
{
	pr_report_compare_opts_init(co);
	co->verdict = o->verdict;
	co->force_better = o->force_better;
	co->column = o->column;
	co->ncolumn = o->ncolumn;
	co->primary = o->primary;
	co->nprimary = o->nprimary;
	co->gate = o->gate;
	co->threshold_pct = o->threshold_pct;
}

/* Prints notes[from, n) on stderr, each a line. */
static void
print_notes(char *const *note, size_t n, size_t from)
{
	for (; from < n; from++)
		cli_errorf("%s", note[from]);
}

/* Writes the model m in format f to stdout; an exit status. */
static int
write_model(const struct pr_report_model *m, enum pr_report_format f)
{
	struct pr_buf out = PR_BUF_INIT(REPORT_MAX);
	struct pr_error err;
	int rc;

	pr_error_clear(&err);
	if (pr_report_model_render(&out, m, f, &err) != PR_OK) {
		cli_error(&err);
		rc = PR_EXIT_INTERNAL;
	} else {
		rc = cli_write(&out);
	}
	pr_buf_release(&out);
	return rc;
}

/* Writes the page of m, the comparison of bname and nname (or of the
 * campaign: "--campaign" and its name), to o->html; an exit status. */
static int
compare_html(const struct pr_report_model *m, const char *bname,
    const char *nname, const struct compare_opts *o)
{
	struct pr_buf title = PR_BUF_INIT(1 << 16);
	struct pr_error err;
	int rc = PR_EXIT_INTERNAL;

	pr_error_clear(&err);
	if (pr_buf_addf(&title, &err, "perfreg compare %s %s", bname, nname) !=
	    PR_OK)
		cli_error(&err);
	else
		rc = cli_html_model("compare", o->html, m, title.data);
	pr_buf_release(&title);
	return rc;
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

/* s made text (cli_str_json: as it is when valid UTF-8, else escaped),
 * a copy replacing *s; -1 when out of memory. */
static int
text_of(char **s)
{
	json_t *j = cli_str_json(pr_str_c(*s));
	const char *t;
	char *c;
	size_t n;

	if (j == NULL)
		return -1;
	t = json_string_value(j);
	n = strlen(t) + 1;
	if ((c = malloc(n)) == NULL) {
		json_decref(j);
		return -1;
	}
	memcpy(c, t, n);
	json_decref(j);
	free(*s);
	*s = c;
	return 0;
}

/* What compare --campaign read from the store. */
struct campaign_cmp {
	struct pr_store *st;
	const struct compare_opts *o;
	struct pr_str campaign;
	char **hosts;     /* every host seen, escaped */
	char **hosts_raw; /* ... as stored */
	size_t nhosts;
};

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
			    (cc->hosts_raw[h] = strdup(si.host)) == NULL) {
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
 * Loads variant v of the campaign into *d, its names and units made
 * text, and its boots' hosts into *hob (allocated); an exit status.
 */
static int
load_variant(struct campaign_cmp *cc, const struct pr_store_variant_info *v,
    struct pr_store_variant_data *d, size_t **hob)
{
	struct pr_error err;
	enum pr_status st;
	size_t i;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	pr_error_clear(&err);
	if ((st = pr_store_load_variant(cc->st, cc->campaign, v->name, d,
		 &err)) != PR_OK) {
		cli_errorf("compare: %s",
		    pr_error_format(&err, eb, sizeof(eb)));
		return cli_exit_for(st);
	}
	/* Names and units as text (an import may hold any bytes). */
	for (i = 0; i < d->nm; i++)
		if (text_of(&d->m[i].name) != 0 ||
		    text_of(&d->m[i].unit) != 0) {
			cli_errorf("out of memory");
			return PR_EXIT_INTERNAL;
		}
	if ((*hob = calloc(d->nboots + 1, sizeof(**hob))) == NULL) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	return boot_hosts(cc, d, *hob);
}

/*
 * One comparison of the campaign, variant nv against variant bv, added
 * to m by the library (perfreg/report_campaign.h); an exit status.
 */
static int
campaign_pair(struct campaign_cmp *cc, struct pr_report_campaign *cr,
    struct pr_report_model *m, const struct pr_store_variant_info *bv,
    const struct pr_store_variant_info *nv)
{
	struct pr_store_variant_data bd, nd;
	struct pr_report_campaign_variant b, n;
	struct pr_error err;
	enum pr_status st;
	size_t *hb = NULL, *hn = NULL, from = cr->nnote;
	int rc;

	memset(&bd, 0, sizeof(bd));
	memset(&nd, 0, sizeof(nd));
	memset(&b, 0, sizeof(b));
	memset(&n, 0, sizeof(n));
	pr_error_clear(&err);
	if ((b.name = vname(bv->name)) == NULL ||
	    (n.name = vname(nv->name)) == NULL) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	if ((rc = load_variant(cc, bv, &bd, &hb)) != PR_EXIT_OK ||
	    (rc = load_variant(cc, nv, &nd, &hn)) != PR_EXIT_OK)
		goto out;
	b.raw = bv->name;
	b.data = &bd;
	b.boot_host = hb;
	n.raw = nv->name;
	n.data = &nd;
	n.boot_host = hn;
	cr->hosts = (const char *const *)cc->hosts;
	cr->hosts_raw = (const char *const *)cc->hosts_raw;
	cr->nhosts = cc->nhosts;
	st = pr_report_campaign_pair(m, cr, &b, &n, &err);
	print_notes(cr->note, cr->nnote, from);
	if (st != PR_OK) {
		cli_errorf("%s", err.msg);
		rc = cli_exit_for(st);
	}
out:
	pr_store_variant_data_release(&bd);
	pr_store_variant_data_release(&nd);
	free(hb);
	free(hn);
	free((char *)b.name);
	free((char *)n.name);
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

/* The campaign's sessions and their snapshots (what the report's
 * environment parts compare). */
struct sessions {
	struct pr_store_session_info *info;
	struct pr_env *env;
	struct pr_report_campaign_session *rs;
	size_t n;
};

static void
sessions_release(struct sessions *s)
{
	size_t i;

	for (i = 0; s->env != NULL && i < s->n; i++)
		pr_env_release(&s->env[i]);
	free(s->env);
	free(s->rs);
	pr_store_sessions_free(s->info, s->n);
	memset(s, 0, sizeof(*s));
}

/* 1 when a session of s is one of perfreg suite's (its tag "suite"). */
static int
suite_sessions(const struct sessions *s)
{
	size_t i, t;

	for (i = 0; i < s->n; i++)
		for (t = 0; t < s->info[i].ntags; t++)
			if (s->info[i].tags[t].key.n == 5 &&
			    memcmp(s->info[i].tags[t].key.p, "suite", 5) == 0)
				return 1;
	return 0;
}

/* Loads the sessions of the campaign with their snapshots; an exit
 * status. */
static int
sessions_load(struct campaign_cmp *cc, struct sessions *s)
{
	struct pr_error err;
	size_t i;
	int found;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	pr_error_clear(&err);
	if (pr_store_sessions(cc->st, cc->campaign, &s->info, &s->n, &err) !=
	    PR_OK) {
		cli_errorf("compare: %s",
		    pr_error_format(&err, eb, sizeof(eb)));
		return PR_EXIT_USAGE;
	}
	s->env = calloc(s->n + 1, sizeof(*s->env));
	s->rs = calloc(s->n + 1, sizeof(*s->rs));
	if (s->env == NULL || s->rs == NULL) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	for (i = 0; i < s->n; i++) {
		pr_env_init(&s->env[i]);
		found = 0;
		if (pr_store_session_env(cc->st, s->info[i].id, &s->env[i],
			&found, &err) != PR_OK) {
			cli_errorf("compare: %s",
			    pr_error_format(&err, eb, sizeof(eb)));
			return PR_EXIT_USAGE;
		}
		s->rs[i].id = s->info[i].id;
		s->rs[i].boot_id = s->info[i].boot_id;
		s->rs[i].variants = s->info[i].variants;
		s->rs[i].nvariants = s->info[i].nvariants;
		s->rs[i].env = found ? &s->env[i] : NULL;
	}
	return PR_EXIT_OK;
}

/*
 * compare --campaign NAME [A B]: every variant against the first, or B
 * against A, each followed by the environment diff.
 */
static int
compare_campaign(const struct compare_opts *o, int nops, char **ops)
{
	struct pr_store_variant_info *v = NULL;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_report_campaign cr;
	struct campaign_cmp cc;
	struct sessions ss;
	struct pr_error err;
	enum pr_status st;
	json_t *jc = NULL;
	size_t n = 0, i;
	long a = 0, b = -1;
	int rc;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	memset(&cc, 0, sizeof(cc));
	memset(&ss, 0, sizeof(ss));
	pr_report_campaign_init(&cr);
	cc.o = o;
	cc.campaign = pr_str_c(o->campaign);
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
	if ((rc = sessions_load(&cc, &ss)) != PR_EXIT_OK)
		goto out;
	/* The suite's sessions (tagged suite=quick|full) hold a variant per
	 * probe: comparing one probe's figures with another's says nothing
	 * (review of session 15, finding 14: 50 warnings, then "copy and
	 * crypto have no metric in common"). */
	if (suite_sessions(&ss)) {
		cli_errorf("compare: campaign '%s' holds perfreg suite's "
			   "sessions, a variant per probe: `perfreg suite "
			   "history` lists them, `perfreg suite --baseline "
			   "SESSION` compares with one",
		    o->campaign);
		rc = PR_EXIT_USAGE;
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
	cmp_opts(o, &cr.cmp);
	cr.campaign = o->campaign;
	cr.host = o->host;
	cr.sess = ss.rs;
	cr.nsess = ss.n;
	if ((jc = cli_str_json(cc.campaign)) == NULL ||
	    pr_report_model_string(&m, "campaign", 0, json_string_value(jc),
		&err) != PR_OK ||
	    pr_report_model_list(&m, "comparisons", 0, &err) != PR_OK) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	for (i = 0; i < n && rc == PR_EXIT_OK; i++) {
		if (b >= 0 ? (long)i != b : (long)i == a)
			continue;
		rc = campaign_pair(&cc, &cr, &m, &v[a], &v[i]);
	}
	if (rc == PR_EXIT_OK && o->html != NULL)
		rc = compare_html(&m, "--campaign", o->campaign, o);
	if (rc != PR_EXIT_OK ||
	    ((o->html == NULL || strcmp(o->html, "-") != 0) &&
		(rc = write_model(&m, o->report)) != PR_EXIT_OK))
		goto out;
	rc = cr.regression ? PR_EXIT_REGRESSION : PR_EXIT_OK;
out:
	json_decref(jc);
	pr_report_model_release(&m);
	pr_report_campaign_release(&cr);
	sessions_release(&ss);
	for (i = 0; i < cc.nhosts; i++) {
		free(cc.hosts[i]);
		free(cc.hosts_raw[i]);
	}
	free(cc.hosts);
	free(cc.hosts_raw);
	pr_store_variants_free(v, n);
	pr_store_close(cc.st);
	return rc;
}

/* compare BASE NEW: two inputs read, compared and reported. */
static int
compare_files(const struct compare_opts *o, const char *bpath,
    const char *npath)
{
	struct pr_dataset side[2], cb, cn;
	struct pr_report_compare_opts co;
	struct pr_report_compare_result res;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_error err;
	enum pr_status st;
	const char *bname = strcmp(bpath, "-") == 0 ? "<stdin>" : bpath;
	const char *nname = strcmp(npath, "-") == 0 ? "<stdin>" : npath;
	const char *used[2] = { NULL, NULL };
	int rc, mon, runs;

	memset(&res, 0, sizeof(res));
	pr_dataset_init(&side[0]);
	pr_dataset_init(&side[1]);
	pr_dataset_init(&cb);
	pr_dataset_init(&cn);
	pr_error_clear(&err);
	if ((rc = read_sides(bpath, npath, o, side, used)) != PR_EXIT_OK)
		goto out;
	cmp_opts(o, &co);
	/* Large inputs may be sorted in place unless the explanation of two
	 * tools' outputs or of two tables of runs (a CSV with a `run`
	 * column) reads them in run order after the comparison (the
	 * monitors' explanation reads side[], not the stripped copies). */
	runs = pr_explain_runs_table(&side[0], &side[1]);
	co.sort_in_place = (used[0] == NULL || used[1] == NULL) && !runs;
	/* Monitor figures (run --monitor's, exported) go to the
	 * explanation, not the table; the inputs stay in run order for it. */
	mon = pr_explain_has_monitors(&side[0], &side[1]);
	if (mon &&
	    (pr_explain_strip_monitors(&side[0], &cb, &err) != PR_OK ||
		pr_explain_strip_monitors(&side[1], &cn, &err) != PR_OK)) {
		cli_error(&err);
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	st = pr_report_compare_datasets(mon ? &cb : &side[0],
	    mon ? &cn : &side[1], bname, nname, &co, &res, &err);
	print_notes(res.note, res.nnote, 0);
	if (st != PR_OK) {
		cli_errorf("%s", err.msg);
		rc = cli_exit_for(st);
		goto out;
	}
	/* JSON: the comparison's members are the document's. */
	if (pr_report_model_comparison(&m, "comparison", PR_SECTION_INLINE,
		&res.report, &err) != PR_OK ||
	    (mon &&
		pr_report_dataset_explain(&m, "explanation", 0, &side[0],
		    &side[1], &res.report, &err) != PR_OK) ||
	    /* Two tools' outputs or tables of runs: their other figures
	     * explain. */
	    (!mon && ((used[0] != NULL && used[1] != NULL) || runs) &&
		pr_report_dataset_explain_parsed(&m, "explanation", 0, &side[0],
		    &side[1], &res.report, &err) != PR_OK)) {
		cli_error(&err);
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	if (o->html != NULL &&
	    (rc = compare_html(&m, bname, nname, o)) != PR_EXIT_OK)
		goto out;
	if ((o->html == NULL || strcmp(o->html, "-") != 0) &&
	    (rc = write_model(&m, o->report)) != PR_EXIT_OK)
		goto out;
	rc = res.regression ? PR_EXIT_REGRESSION : PR_EXIT_OK;
out:
	pr_report_model_release(&m);
	pr_report_compare_result_release(&res);
	pr_dataset_release(&side[0]);
	pr_dataset_release(&side[1]);
	pr_dataset_release(&cb);
	pr_dataset_release(&cn);
	return rc;
}

static int
exec_compare(int argc, char **argv)
{
	struct compare_opts o;
	int first, rc;

	if ((first = parse_opts(argc, argv, &o)) < 0)
		rc = PR_EXIT_USAGE;
	else if (o.campaign != NULL)
		rc = compare_campaign(&o, argc - first, argv + first);
	else
		rc = compare_files(&o, argv[first], argv[first + 1]);
	free(o.column);
	free(o.primary);
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
