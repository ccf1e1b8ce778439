/*
 * cli/cmd_run.c - `perfreg run [options] NAME=COMMAND...`: runs the
 * commands repeatedly, interleaved in shuffled rounds, measures each run,
 * and compares every variant with the first (the baseline).
 *
 * The session itself is the library's (perfreg/runner.h); this file reads
 * the options, expands -L parameter scans into variants, shows progress
 * on a terminal, appends each finished run to --output as one JSON line
 * (flushed, so an interrupted session loses nothing that finished),
 * turns Ctrl-C into a clean stop, and writes the report: for each variant
 * after the first, compare's report (pr_compare with Holm's correction
 * over the metrics, written by perfreg/report.h) of baseline against
 * variant, then the paired analysis of the rounds (perfreg/paired.h),
 * with --monitor (on by default) the explanation of the change by the
 * side metrics and monitors read around each run (perfreg/explain.h,
 * perfreg/monitor.h), the failed runs, the order and seed, the timer resolution and perfreg's own
 * overhead per run.  With --until-decided the rounds go on until the
 * sequential test (perfreg/seq.h, through pr_session_decide) has decided
 * every chosen metric of every variant, or --max-runs / --max-time is
 * reached; its decisions keep their error rate whenever the session
 * stops, and the report gives them first.  SIGINT, SIGTERM and SIGHUP
 * stop the session alike.  Exit status: 0 done, 2 bad usage or a session
 * that could not run (or a variant without one successful run), 3
 * internal error (or --output not written), 128 + the signal when
 * interrupted (after the report of what finished).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_html.h"
#include "cli/cmd.h"
#include "cli/run_store.h"
#include "perfreg/dataset.h"
#include "perfreg/describe.h"
#include "perfreg/explain.h"
#include "perfreg/monitor.h"
#include "perfreg/paired.h"
#include "perfreg/parse.h"
#include "perfreg/primary.h"
#include "perfreg/report.h"
#include "perfreg/report_compare.h"
#include "perfreg/report_model.h"
#include "perfreg/report_run.h"
#include "perfreg/runner.h"
#include "perfreg/sample.h"
#include "perfreg/seq.h"
#include "perfreg/spawn.h"
#include "perfreg/verdict.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_run_entry;

#define REPORT_MAX ((size_t)256 << 20)
#define EXIT_INTERRUPTED 130
#define PARAMS_MAX 16
#define SHOWN_OUTPUT 300

/* The kinds of NAME=CMD options, in the table's ival. */
enum { OPT_SETUP = 1, OPT_PREPARE, OPT_CLEANUP, OPT_METRIC, OPT_DERIVE };

/* A NAME=CMD option (--setup, --prepare, --cleanup). */
struct hook {
	int kind; /* OPT_SETUP, OPT_PREPARE, OPT_CLEANUP */
	const char *arg;
};

struct run_cli {
	struct pr_runner_opts ro;
	struct pr_parser *parser;
	int json, markdown;
	enum pr_report_format format; /* from --json and --markdown */
	const char *html;             /* --html file */
	const char *output;
	struct pr_param params[PARAMS_MAX];
	char *param_buf[PARAMS_MAX];
	const char **param_vals[PARAMS_MAX];
	size_t np;
	struct hook *hooks;
	size_t nhooks;
	/* Progress and --output. */
	FILE *out;
	int out_failed;
	int tty;
	size_t total_runs;
	double last_progress; /* when the progress line was last drawn */
	/* --until-decided. */
	int until;
	int runs_set;        /* -n was given */
	size_t max_runs;     /* 0: the default, 200 */
	double max_time_s;   /* 0: no limit */
	const char **decide; /* --decide metrics */
	size_t ndecide;
	struct pr_seq_opts seq;
	double t0;     /* when the session started */
	int timed_out; /* --max-time stopped it */
	/* --primary metrics (perfreg/primary.h); the first error choosing
	 * them (a name that is not a metric), which stops the session. */
	const char **primary;
	size_t nprimary;
	int primary_failed;
	struct pr_error primary_err;
	/* --campaign. */
	const char *campaign, *variant, *db;
	char **tags;
	size_t ntags;
	int resume;
	char *variant_op; /* "NAME=COMMAND" built from --variant */
	struct run_store rs;
	/* Read by the table, applied after it. */
	double conf_pct; /* -c */
	int robust;
	int parse_set; /* --parse was given */
	uint64_t seen; /* opt_parse's rows given */
	/* --monitor: the set as given, and the monitor read around each
	 * run (NULL: none). */
	const char *monitor_spec;
	struct pr_monitor *mon;
};

static volatile sig_atomic_t interrupted, stop_signal;

/* SIGINT, SIGTERM and SIGHUP stop the session alike: the running command
 * is killed, what finished is reported, and the exit status says which
 * signal it was (128 + its number). */
static void
on_stop_signal(int sig)
{
	stop_signal = sig;
	interrupted = 1;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))

/* --output-limit: bytes, with K, M, G suffixes. */
static int
parse_bytes(void *base, const struct opt *o, const char *arg)
{
	struct run_cli *c = base;
	char *end;
	double x, mul = 1;

	(void)o;
	errno = 0;
	x = strtod(arg, &end);
	if (end != arg && *end != '\0' && end[1] == '\0') {
		switch (*end) {
		case 'K':
		case 'k':
			mul = 1024.0;
			end++;
			break;
		case 'M':
		case 'm':
			mul = 1024.0 * 1024;
			end++;
			break;
		case 'G':
		case 'g':
			mul = 1024.0 * 1024 * 1024;
			end++;
			break;
		default:
			break;
		}
	}
	x *= mul;
	if (end == arg || *end != '\0' || errno != 0 || !(x >= 0) ||
	    x > 1099511627776.0 || x != floor(x)) {
		cli_errorf("run: --output-limit: expected a number of bytes "
			   "(K, M, G suffixes) up to 1T, got '%s'",
		    arg);
		return -1;
	}
	c->ro.spawn.output_limit = (size_t)x;
	return 0;
}

/* -L name=a,b,...: a parameter scan. */
static int
parse_param(void *base, const struct opt *o, const char *arg)
{
	struct run_cli *c = base;
	const char *eq = strchr(arg, '=');
	char *buf, *p;
	size_t n = 1, i;

	(void)o;
	if (c->np >= PARAMS_MAX) {
		cli_errorf("run: -L: at most %d parameters", PARAMS_MAX);
		return -1;
	}
	if (eq == NULL || eq == arg || eq[1] == '\0') {
		cli_errorf("run: -L: expected name=value,value..., got '%s'",
		    arg);
		return -1;
	}
	for (p = (char *)eq + 1; *p != '\0'; p++)
		n += *p == ',';
	buf = strdup(arg);
	c->param_vals[c->np] = calloc(n, sizeof(char *));
	if (buf == NULL || c->param_vals[c->np] == NULL) {
		free(buf);
		cli_errorf("out of memory");
		return -1;
	}
	buf[eq - arg] = '\0';
	for (i = 0, p = buf + (eq - arg) + 1; i < n; i++) {
		c->param_vals[c->np][i] = p;
		/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): n counted the commas, so p has one more value */
		p = strchr(p, ',');
		if (p != NULL)
			*p++ = '\0';
	}
	for (i = 0; i < c->np; i++)
		if (strcmp(c->params[i].name, buf) == 0) {
			cli_errorf("run: -L: parameter '%s' given twice", buf);
			free(buf);
			free(c->param_vals[c->np]);
			return -1;
		}
	c->param_buf[c->np] = buf;
	c->params[c->np].name = buf;
	c->params[c->np].values = c->param_vals[c->np];
	c->params[c->np].n = n;
	c->np++;
	return 0;
}

static int
parser_get(struct run_cli *c)
{
	struct pr_error err;

	if (c->parser == NULL && pr_parser_new(&c->parser, &err) != PR_OK) {
		cli_error(&err);
		return -1;
	}
	return 0;
}

/* --parse fmt, --metric spec, --derive spec (the row's ival says). */
static int
parser_opt(void *base, const struct opt *o, const char *arg)
{
	struct run_cli *c = base;
	struct pr_error err;
	enum pr_status st;

	if (parser_get(c) != 0)
		return -1;
	pr_error_clear(&err);
	if (o->ival == 0) {
		if (pr_parser_set_format(c->parser, arg, &err) != PR_OK) {
			cli_errorf("run: --parse: %s", err.msg);
			return -1;
		}
		c->parse_set = 1;
		return 0;
	}
	st = o->ival == OPT_METRIC ? pr_parser_add_metric(c->parser, arg, &err)
				   : pr_parser_add_derive(c->parser, arg, &err);
	if (st != PR_OK) {
		cli_errorf("run: %s", err.msg);
		return -1;
	}
	c->ro.parse_output |= o->ival == OPT_METRIC;
	return 0;
}

/* --decide (ival 0) and --primary (ival 1): a metric name. */
static int
add_decide(void *base, const struct opt *o, const char *name)
{
	struct run_cli *c = base;
	const char ***list = o->ival ? &c->primary : &c->decide;
	size_t *n = o->ival ? &c->nprimary : &c->ndecide;
	const char **nd;

	if (*name == '\0') {
		cli_errorf("run: --%s: expected a metric name",
		    o->ival ? "primary" : "decide");
		return -1;
	}
	nd = realloc(*list, (*n + 1) * sizeof(*nd));
	if (nd == NULL) {
		cli_errorf("out of memory");
		return -1;
	}
	*list = nd;
	nd[(*n)++] = name;
	return 0;
}

/* A --tag key=value. */
static int
add_tag(void *base, const struct opt *o, const char *arg)
{
	struct run_cli *c = base;
	char **nt;
	const char *eq = strchr(arg, '=');

	(void)o;
	if (eq == NULL || eq == arg) {
		cli_errorf("run: --tag: expected key=value, got '%s'", arg);
		return -1;
	}
	if ((nt = realloc(c->tags, (c->ntags + 1) * sizeof(*nt))) == NULL) {
		cli_errorf("out of memory");
		return -1;
	}
	c->tags = nt;
	c->tags[c->ntags++] = (char *)arg;
	return 0;
}

/* --setup, --prepare, --cleanup NAME=CMD (the row's ival is the kind). */
static int
add_hook(void *base, const struct opt *o, const char *arg)
{
	struct run_cli *c = base;
	struct hook *nh;

	nh = realloc(c->hooks, (c->nhooks + 1) * sizeof(*nh));
	if (nh == NULL) {
		cli_errorf("out of memory");
		return -1;
	}
	c->hooks = nh;
	c->hooks[c->nhooks].kind = o->ival;
	c->hooks[c->nhooks++].arg = arg;
	return 0;
}

static int
set_order(void *base, const struct opt *o, const char *arg)
{
	struct run_cli *c = base;

	(void)o;
	if (strcmp(arg, "shuffled") == 0)
		c->ro.order = PR_ORDER_SHUFFLED;
	else if (strcmp(arg, "sequential") == 0)
		c->ro.order = PR_ORDER_SEQUENTIAL;
	else {
		cli_errorf("run: --order: expected shuffled or sequential, got "
			   "'%s'",
		    arg);
		return -1;
	}
	return 0;
}

static int
set_variant(void *base, const struct opt *o, const char *arg)
{
	struct run_cli *c = base;

	(void)o;
	if (arg[0] == '\0' || strchr(arg, '=') != NULL) {
		cli_errorf("run: --variant: expected a non-empty name without "
			   "'=', got '%s'",
		    arg);
		return -1;
	}
	c->variant = arg;
	return 0;
}

#define COUNT_MAX 100000000ULL

/* --parse's help, the names from the library's list of formats. */
static const char parse_help[] = "read metrics from each run's output: auto, "
#define PR_FORMAT(name) #name ", "
#include "perfreg/parse_formats.def"
#undef PR_FORMAT
				 "or none (only the --metric ones)";

static const struct opt options[] = {
	OPT_INT('n', "runs", "runs",
	    "counted runs of each variant (default 10)", struct run_cli,
	    ro.runs, 1, COUNT_MAX, NULL),
	OPT_INT(0, "warmup", "n",
	    "warm-up runs of each variant, not counted (default 1)",
	    struct run_cli, ro.warmup, 0, COUNT_MAX, NULL),
	OPT_FLAG(0, "shell", "run the commands with /bin/sh -c", struct run_cli,
	    ro.spawn.shell, 1),
	OPT_DOUBLE(0, "timeout", "s",
	    "kill a run (and its process group) after s seconds",
	    struct run_cli, ro.spawn.timeout_s, 0, 1e9, OPT_LO_OPEN,
	    "seconds above 0"),
	OPT_INT(0, "max-failures", "n",
	    "stop after n failed runs (default 10; 0: no limit)",
	    struct run_cli, ro.max_failures, 0, COUNT_MAX, NULL),
	OPT_CALL(0, "order", "shuffled|sequential",
	    "shuffled (default) or sequential (all runs of the first variant, "
	    "then the next: drift-prone)",
	    set_order, 0, 0),
	OPT_INT(0, "seed", "n", "seed of the shuffled order (default 1)",
	    struct run_cli, ro.seed, 0, COUNT_MAX, NULL),
	OPT_STRING(0, "output", "file.json",
	    "append every finished run to file.json, one JSON object a line",
	    struct run_cli, output, 0, NULL),
	OPT_STRING(0, "monitor", "set",
	    "side metrics read around each run: none, or a list of perf, "
	    "stat, softirqs, interrupts, interrupts-full, vmstat, vmstat-full, "
	    "schedstat, system, default, all (default: perf, stat, softirqs, "
	    "interrupts, schedstat; default,vmstat adds /proc/vmstat's memory "
	    "figures, read otherwise at the session's start and end only)",
	    struct run_cli, monitor_spec, OPT_NONEMPTY, "a monitor set"),
	OPT_CALL(0, "output-limit", "bytes",
	    "output kept per run (default 16M; K, M, G suffixes)", parse_bytes,
	    0, 0),
	OPT_CALL('L', "parameter-list", "name=a,b,...",
	    "run every variant once per value, with {name} replaced",
	    parse_param, OPT_REPEAT, 0),
	OPT_CALL(0, "setup", "NAME=CMD",
	    "run CMD once before the runs of variant NAME", add_hook,
	    OPT_REPEAT, OPT_SETUP),
	OPT_CALL(0, "prepare", "NAME=CMD",
	    "run CMD before each run of NAME, not timed", add_hook, OPT_REPEAT,
	    OPT_PREPARE),
	OPT_CALL(0, "cleanup", "NAME=CMD",
	    "run CMD once after the runs of NAME", add_hook, OPT_REPEAT,
	    OPT_CLEANUP),
	OPT_CALL(0, "parse", "fmt", parse_help, parser_opt, 0, 0),
	OPT_CALL(0, "metric", "spec",
	    "NAME=REGEX[:UNIT][:higher|lower]: a metric of your own",
	    parser_opt, OPT_REPEAT, OPT_METRIC),
	OPT_CALL(0, "derive", "spec",
	    "NAME=EXPR[:UNIT][:higher|lower]: a metric computed from others "
	    "(wall_s, user_s, sys_s, maxrss_kib, ctxsw_vol, ctxsw_invol and "
	    "the "
	    "parsed ones)",
	    parser_opt, OPT_REPEAT, OPT_DERIVE),
	OPT_FLAG(0, "json", "the report as JSON, with every run's raw data",
	    struct run_cli, json, 1),
	OPT_CALL(0, "primary", "metric",
	    "a primary metric (repeatable; default: the figures the parser "
	    "marks as the benchmark's result, --metric and --derive ones, "
	    "else wall_s): the headline, the Holm family and what "
	    "--until-decided decides",
	    add_decide, OPT_REPEAT, 1),
	OPT_FLAG(0, "markdown",
	    "the report as Markdown (tables and lists), for a bug report",
	    struct run_cli, markdown, 1),
	CLI_OPT_HTML(struct run_cli, html),
	OPT_GROUP(),
	OPT_FLAG(0, "until-decided",
	    "go on in rounds until every chosen metric of every variant is a "
	    "regression, an improvement or equivalent (an anytime-valid "
	    "sequential test that keeps its error rate whenever it stops)",
	    struct run_cli, until, 1),
	OPT_INT(0, "max-runs", "n",
	    "with --until-decided: at most n rounds (default 200)",
	    struct run_cli, max_runs, 2, COUNT_MAX, NULL),
	OPT_DOUBLE(0, "max-time", "s",
	    "with --until-decided: start no round after s seconds",
	    struct run_cli, max_time_s, 0, 1e9, OPT_LO_OPEN, "seconds above 0"),
	OPT_CALL(0, "decide", "metric",
	    "with --until-decided: a metric to decide (repeatable; default: "
	    "the primary metrics)",
	    add_decide, OPT_REPEAT, 0),
	OPT_FLAG(0, "robust",
	    "decide on the median log-ratio (sign test): for bimodal or "
	    "heavy-tailed noise",
	    struct run_cli, robust, 1),
	OPT_DOUBLE('c', "confidence", "pct",
	    "of the sequential decisions (default 95)", struct run_cli,
	    conf_pct, 50, 99.99, 0, "a percentage from 50 to 99.99"),
	OPT_DOUBLE(0, "equivalence", "pct",
	    "band of \"equivalent\" (default 1)", struct run_cli,
	    seq.equivalence_pct, 0, 100, 0, "a percentage from 0 to 100"),
	OPT_GROUP(),
	OPT_STRING(0, "campaign", "name",
	    "record the session, its environment and every run in the results "
	    "database under campaign name (each run committed as it finishes)",
	    struct run_cli, campaign, OPT_NONEMPTY, "a campaign name"),
	OPT_CALL(0, "variant", "name",
	    "with --campaign: run the one variant name, whose command is the "
	    "words after --",
	    set_variant, 0, 0),
	OPT_STRING(0, "db", "target",
	    "the database: a file (SQLite) or postgresql://... (default: "
	    "$PERFREG_DB, else $XDG_DATA_HOME/perfreg/perfreg.db)",
	    struct run_cli, db, 0, NULL),
	OPT_CALL(0, "tag", "key=value",
	    "a tag of the session (repeatable; kernel= and, in a git work "
	    "tree, "
	    "git= are added unless given)",
	    add_tag, OPT_REPEAT, 0),
	OPT_FLAG(0, "resume",
	    "continue this host's unfinished session of the campaign with its "
	    "own options",
	    struct run_cli, resume, 1),
	OPT_END(),
};

/* --variant NAME -- WORDS...: the operand "NAME=WORDS" with each word
 * single-quoted, so that splitting it gives the words back. */
static int
variant_op(struct run_cli *c, int argc, char **argv, int first)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	struct pr_error err;
	const char *p;
	int i;

	if (first >= argc) {
		cli_usage_error(&cmd_run_entry,
		    "--variant %s: expected the command after --", c->variant);
		return -1;
	}
	pr_error_clear(&err);
	if (pr_buf_addf(&b, &err, "%s=", c->variant) != PR_OK)
		goto fail;
	for (i = first; i < argc; i++) {
		if (i > first && pr_buf_addc(&b, ' ', &err) != PR_OK)
			goto fail;
		if (c->ro.spawn.shell) {
			if (pr_buf_adds(&b, argv[i], &err) != PR_OK)
				goto fail;
			continue;
		}
		if (pr_buf_addc(&b, '\'', &err) != PR_OK)
			goto fail;
		for (p = argv[i]; *p != '\0'; p++)
			if ((*p == '\'' ? pr_buf_adds(&b, "'\\''", &err)
					: pr_buf_addc(&b, *p, &err)) != PR_OK)
				goto fail;
		if (pr_buf_addc(&b, '\'', &err) != PR_OK)
			goto fail;
	}
	if (pr_buf_addc(&b, '\0', &err) != PR_OK)
		goto fail;
	c->variant_op = pr_buf_detach(&b, NULL);
	return 0;
fail:
	pr_buf_release(&b);
	cli_errorf("run: --variant: %s", err.msg);
	return -1;
}

/* Reads the options; returns the index of the first operand or -1. */
static int
parse_opts(int argc, char **argv, struct run_cli *c)
{
	int first;

	if ((first = opt_parse(&cmd_run_entry, argc, argv, c, &c->seen)) < 0)
		return -1;
	c->runs_set = (c->seen & opt_bit(options, "runs")) != 0;
	if (c->json && c->markdown) {
		cli_usage_error(&cmd_run_entry,
		    "--markdown and --json exclude one another");
		return -1;
	}
	c->format = c->json ? PR_REPORT_JSON
	    : c->markdown   ? PR_REPORT_MARKDOWN
			    : PR_REPORT_TEXT;
	/* Before anything runs: a typo in --html costs nothing. */
	if (cli_html_check("run", c->html) != PR_EXIT_OK)
		return -1;
	if (c->seen & opt_bit(options, "confidence"))
		c->seq.alpha = 1 - c->conf_pct / 100;
	if (c->robust)
		c->seq.method = PR_SEQ_METHOD_SIGN;
	if (!c->until &&
	    (c->max_runs != 0 || c->max_time_s != 0 || c->ndecide != 0 ||
		c->seq.method != PR_SEQ_METHOD_T)) {
		cli_usage_error(&cmd_run_entry,
		    "--max-runs, --max-time, --decide and --robust go with "
		    "--until-decided");
		return -1;
	}
	if (c->until && c->runs_set) {
		cli_usage_error(&cmd_run_entry,
		    "-n and --until-decided do not go together (--max-runs "
		    "bounds the rounds)");
		return -1;
	}
	if ((c->variant != NULL || c->resume || c->db != NULL ||
		c->ntags != 0) &&
	    c->campaign == NULL) {
		cli_usage_error(&cmd_run_entry,
		    "--variant, --resume, --db and --tag go with --campaign");
		return -1;
	}
	if (c->resume) {
		if (first < argc) {
			cli_usage_error(&cmd_run_entry,
			    "--resume takes no command: it runs the recorded "
			    "one");
			return -1;
		}
		return first;
	}
	if (c->variant != NULL)
		return variant_op(c, argc, argv, first) != 0 ? -1 : first;
	if (first >= argc) {
		cli_usage_error(&cmd_run_entry,
		    "expected at least one NAME=COMMAND");
		return -1;
	}
	return first;
}

/* The command line given to hook kind for the operand called name. */
static const char *
hook_for(const struct run_cli *c, int kind, const char *name)
{
	const char *found = NULL, *eq;
	size_t i;

	for (i = 0; i < c->nhooks; i++) {
		if (c->hooks[i].kind != kind)
			continue;
		eq = strchr(c->hooks[i].arg, '=');
		if (eq != NULL &&
		    strlen(name) == (size_t)(eq - c->hooks[i].arg) &&
		    strncmp(c->hooks[i].arg, name,
			(size_t)(eq - c->hooks[i].arg)) == 0)
			found = eq + 1;
	}
	return found;
}

/* Checks that every --setup/--prepare/--cleanup names an operand. */
static int
check_hooks(const struct run_cli *c, char **ops, int nops)
{
	const char *eq, *oeq;
	size_t i;
	int k;

	for (i = 0; i < c->nhooks; i++) {
		eq = strchr(c->hooks[i].arg, '=');
		if (eq == NULL || eq == c->hooks[i].arg) {
			cli_errorf("run: expected NAME=COMMAND, got '%s'",
			    c->hooks[i].arg);
			return -1;
		}
		for (k = 0; k < nops; k++) {
			oeq = strchr(ops[k], '=');
			if (oeq - ops[k] == eq - c->hooks[i].arg &&
			    strncmp(ops[k], c->hooks[i].arg,
				(size_t)(eq - c->hooks[i].arg)) == 0)
				break;
		}
		if (k == nops) {
			cli_errorf("run: '%.*s' in '%s' is not the name of a "
				   "command",
			    (int)(eq - c->hooks[i].arg), c->hooks[i].arg,
			    c->hooks[i].arg);
			return -1;
		}
	}
	return 0;
}

/* Adds one variant for the parameter choice ch (np may be 0). */
static int
add_one(struct pr_session *s, const struct run_cli *c, const char *name,
    const char *cmd, const size_t *ch)
{
	const char *hk[3] = { hook_for(c, OPT_SETUP, name),
		hook_for(c, OPT_PREPARE, name),
		hook_for(c, OPT_CLEANUP, name) };
	char *ename = NULL, *ecmd = NULL, *eh[3] = { NULL, NULL, NULL };
	struct pr_buf nb = PR_BUF_INIT(4096);
	struct pr_error err;
	enum pr_status st;
	size_t i;
	int rc = -1;

	pr_error_clear(&err);
	if ((st = pr_param_expand(name, c->params, c->np, ch, &ename, &err)) !=
		PR_OK ||
	    (st = pr_param_expand(cmd, c->params, c->np, ch, &ecmd, &err)) !=
		PR_OK)
		goto out;
	for (i = 0; i < 3; i++)
		if (hk[i] != NULL &&
		    (st = pr_param_expand(hk[i], c->params, c->np, ch, &eh[i],
			 &err)) != PR_OK)
			goto out;
	/* A name without {param} gets the values appended, so that every
	 * variant has its own name. */
	if ((st = pr_buf_adds(&nb, ename, &err)) != PR_OK)
		goto out;
	if (c->np > 0 && strcmp(ename, name) == 0) {
		for (i = 0; i < c->np && st == PR_OK; i++)
			st = pr_buf_addf(&nb, &err, "%s%s=%s", i ? "," : "/",
			    c->params[i].name, c->params[i].values[ch[i]]);
		if (st != PR_OK)
			goto out;
	}
	if ((st = pr_session_add_variant(s, nb.data, ecmd, c->ro.spawn.shell,
		 eh[0], eh[1], eh[2], &err)) != PR_OK)
		goto out;
	rc = 0;
out:
	if (rc != 0)
		cli_errorf("run: %s: %s", name, err.msg);
	pr_buf_release(&nb);
	free(ename);
	free(ecmd);
	for (i = 0; i < 3; i++)
		free(eh[i]);
	return rc;
}

static int
add_variants(struct pr_session *s, const struct run_cli *c, char **ops,
    int nops)
{
	size_t ch[PARAMS_MAX] = { 0 }, i;
	char *name, *eq;
	int k, rc;

	if (check_hooks(c, ops, nops) != 0)
		return -1;
	for (k = 0; k < nops; k++) {
		eq = strchr(ops[k], '=');
		if (eq == NULL || eq == ops[k]) {
			cli_errorf("run: expected NAME=COMMAND, got '%s'",
			    ops[k]);
			return -1;
		}
		name = strdup(ops[k]);
		if (name == NULL) {
			cli_errorf("out of memory");
			return -1;
		}
		name[eq - ops[k]] = '\0';
		memset(ch, 0, sizeof(ch));
		/* Every combination of the -L values, the last parameter
		 * varying fastest. */
		for (;;) {
			rc = add_one(s, c, name, eq + 1, ch);
			if (rc != 0)
				break;
			for (i = c->np; i > 0; i--) {
				if (++ch[i - 1] < c->params[i - 1].n)
					break;
				ch[i - 1] = 0;
			}
			if (i == 0)
				break;
		}
		free(name);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* The paired change of wall_s of variant 1, for the progress line. */
static void
progress(const struct pr_session *s, const struct pr_run *r, struct run_cli *c)
{
	struct pr_paired p;
	double left, t = pr_spawn_now();
	size_t n;

	/* At most ten lines a second: a terminal is slow to draw. */
	if (t - c->last_progress < 0.1 && s->nruns < c->total_runs)
		return;
	c->last_progress = t;
	fprintf(stderr, "\r%zu/%zu runs, %.1f s", s->nruns, c->total_runs,
	    r->start_s);
	if (s->nruns > 0 && s->nruns < c->total_runs) {
		left = r->start_s / (double)s->nruns *
		    (double)(c->total_runs - s->nruns);
		fprintf(stderr, ", ~%.0f s left", left);
	}
	if (s->nv > 1 &&
	    pr_session_paired(s, 1, "wall_s", 0.95, s->clock_res_s, &p, &n,
		NULL) == PR_OK &&
	    p.have_ci)
		fprintf(stderr, "; %s vs %s: %+.1f%% [%+.1f%%, %+.1f%%]",
		    s->v[1].name, s->v[0].name, p.change_pct, p.ci_lo_pct,
		    p.ci_hi_pct);
	fputs("\033[K", stderr);
	fflush(stderr);
}

static void
on_run(const struct pr_session *s, const struct pr_run *r, void *arg)
{
	struct run_cli *c = arg;
	struct pr_buf line = PR_BUF_INIT(REPORT_MAX);

	if (c->rs.st != NULL && !c->rs.failed) {
		run_store_add(&c->rs, s, r);
		if (c->rs.failed)
			interrupted = 1;
	}
	if (c->out != NULL && !c->out_failed) {
		if (pr_report_run_line(&line, s, r, NULL) != PR_OK ||
		    fwrite(line.data, 1, line.len, c->out) != line.len ||
		    fflush(c->out) != 0)
			c->out_failed = 1;
		pr_buf_release(&line);
	}
	if (c->tty)
		progress(s, r, c);
}

/*
 * The roles of the baseline's metrics (perfreg/primary.h), into *role
 * (the caller frees it); PR_ENOTFOUND for a --primary name that is not
 * a metric, PR_ENOMEM.
 */
static enum pr_status
run_roles(const struct pr_session *s, const struct run_cli *c,
    enum pr_role **role, struct pr_error *err)
{
	const struct pr_dataset *d = &s->v[0].data;
	enum pr_status st;

	if ((*role = calloc(d->n + 1, sizeof(**role))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	if ((st = pr_primary_roles(d, c->primary, c->nprimary, *role, err)) !=
	    PR_OK) {
		free(*role);
		*role = NULL;
	}
	return st;
}

/*
 * The k-th metric that --until-decided decides, or NULL past the last:
 * the --decide metrics; else the primary metrics of the baseline
 * (perfreg/primary.h: --primary, the parser's results, else wall_s).
 * Side metrics, constant or without a direction, never hold a session
 * up.
 */
static const char *
decide_name(const struct pr_session *s, const struct run_cli *c, size_t k)
{
	const struct pr_dataset *d = &s->v[0].data;
	enum pr_role *role;
	const char *name = NULL;
	size_t i, j = 0;

	if (c->ndecide > 0)
		return k < c->ndecide ? c->decide[k] : NULL;
	if (d->n == 0)
		return k == 0 ? "wall_s" : NULL;
	if (run_roles(s, c, &role, NULL) != PR_OK)
		return NULL;
	for (i = 0; i < d->n && name == NULL; i++)
		if (role[i] == PR_ROLE_PRIMARY && j++ == k)
			name = d->metrics[i].name;
	free(role);
	return name;
}

/* The sequential decision of variant vi on metric name. */
static enum pr_status
decide_one(const struct pr_session *s, const struct run_cli *c, size_t vi,
    const char *name, struct pr_seq_result *r, struct pr_error *err)
{
	struct pr_seq_opts o = c->seq;
	const struct pr_metric *m;
	size_t i;

	/* The direction is the metric's (unknown: lower is better). */
	for (i = 0; i < s->v[0].data.n; i++) {
		m = &s->v[0].data.metrics[i];
		/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): a dataset's metrics all have names */
		if (strcmp(m->name, name) == 0)
			o.better = m->better == PR_BETTER_HIGHER
			    ? PR_BETTER_HIGHER
			    : PR_BETTER_LOWER;
	}
	return pr_session_decide(s, vi, name, &o, r, err);
}

/*
 * The should_stop hook of --until-decided, after every round: stop when
 * every chosen metric of every variant has a decision, or --max-time has
 * passed.  Asking after every round is allowed: the decisions are
 * anytime-valid.
 */
static int
until_hook(const struct pr_session *s, void *arg)
{
	struct run_cli *c = arg;
	struct pr_seq_result r;
	enum pr_role *role;
	const char *name;
	size_t vi, k;
	int decided = 1;

	/* A --primary that is not a metric stops at once: the report
	 * says why. */
	if (c->ndecide == 0 && s->v[0].data.n > 0) {
		pr_error_clear(&c->primary_err);
		if (run_roles(s, c, &role, &c->primary_err) != PR_OK) {
			c->primary_failed = 1;
			return -1;
		}
		free(role);
	}
	for (vi = 1; vi < s->nv && decided; vi++)
		for (k = 0; decided && (name = decide_name(s, c, k)) != NULL;
		     k++)
			if (decide_one(s, c, vi, name, &r, NULL) != PR_OK ||
			    r.decision == PR_SEQ_CONTINUE ||
			    r.decision == PR_SEQ_INCONCLUSIVE)
				decided = 0;
	if (decided)
		return 1;
	if (c->max_time_s > 0 && pr_spawn_now() - c->t0 >= c->max_time_s) {
		c->timed_out = 1;
		return -1;
	}
	return 0;
}

/* How the session of --until-decided ended, in words. */
static const char *
until_stop(const struct pr_session *s, const struct run_cli *c)
{
	switch (s->stop) {
	case PR_STOP_HOOK:
		return "every primary metric decided";
	case PR_STOP_BUDGET:
		if (c->primary_failed)
			return "--primary names no metric";
		return c->timed_out ? "undecided within budget: --max-time "
				      "reached"
				    : "undecided within budget: --max-runs "
				      "reached";
	case PR_STOP_DONE:
		return "done";
	case PR_STOP_FAILURES:
		return "--max-failures reached";
	case PR_STOP_INTERRUPTED:
		return "interrupted";
	case PR_STOP_NONE:
		break;
	}
	return "not run";
}

/*
 * The decisions of --until-decided for variant vi, added to m as a
 * section (key and flags as pr_report_run_sequential takes them).
 */
static enum pr_status
sequential_add(struct pr_report_model *m, const char *key, int flags,
    const struct pr_session *s, const struct run_cli *c, size_t vi,
    struct pr_error *err)
{
	struct pr_report_seq_row *rows;
	struct pr_report_seq q;
	struct pr_error *why;
	const char *name;
	enum pr_status st;
	size_t k, n = 0;

	while (decide_name(s, c, n) != NULL)
		n++;
	rows = calloc(n + 1, sizeof(*rows));
	why = calloc(n + 1, sizeof(*why));
	if (rows == NULL || why == NULL) {
		free(rows);
		free(why);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	for (k = 0; k < n && (name = decide_name(s, c, k)) != NULL; k++) {
		rows[k].name = name;
		pr_error_clear(&why[k]);
		if (decide_one(s, c, vi, name, &rows[k].r, &why[k]) != PR_OK)
			rows[k].undefined = why[k].msg;
	}
	q.method = c->seq.method == PR_SEQ_METHOD_SIGN
	    ? "sequential sign test on the median log-ratio"
	    : "sequential Bayes-factor t test on the mean log-ratio";
	q.alpha = c->seq.alpha;
	q.equivalence_pct = c->seq.equivalence_pct;
	q.stopped = until_stop(s, c);
	q.rows = rows;
	q.n = n;
	st = pr_report_run_sequential(m, key, flags, &q, err);
	free(rows);
	free(why);
	return st;
}

/* One variant's comparison with the baseline: what its report section
 * borrows, alive until the report is written.  res holds pointers into
 * itself, so a variant_report is never copied. */
struct variant_report {
	struct pr_report_compare_result res;
	const char **names; /* the metrics compared, for the paired part */
	size_t nrows;
	double **at; /* 2 nrows: when each side's values were measured */
};

static void
variant_report_release(struct variant_report *v)
{
	size_t i;

	for (i = 0; v->at != NULL && i < 2 * v->nrows; i++)
		free(v->at[i]);
	free(v->at);
	pr_report_compare_result_release(&v->res);
	free(v->names);
	memset(v, 0, sizeof(*v));
}

/* The HTML page's order plot: when each value of each row of v was
 * measured (pr_report_run_times), so that both sides share a time axis.
 * Returns an exit status. */
static int
variant_times(const struct pr_session *s, size_t vi, struct variant_report *v)
{
	struct pr_report_metric *m;
	struct pr_error err;
	size_t i;

	pr_error_clear(&err);
	if ((v->at = calloc(2 * v->nrows + 1, sizeof(*v->at))) == NULL) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	for (i = 0; i < v->nrows; i++) {
		m = &v->res.rm[i];
		if (pr_report_run_times(s, 0, m->name, m->base_n, &v->at[2 * i],
			&err) != PR_OK ||
		    pr_report_run_times(s, vi, m->name, m->new_n,
			&v->at[2 * i + 1], &err) != PR_OK) {
			cli_error(&err);
			return PR_EXIT_INTERNAL;
		}
		m->base_at = v->at[2 * i];
		m->new_at = v->at[2 * i + 1];
	}
	return PR_EXIT_OK;
}

/*
 * Compares variant vi with the baseline into v as compare compares two
 * files (perfreg/report_compare.h): every metric both have values of,
 * paired by name in the baseline's order, the primary metrics of
 * --primary or the usual rule, the families corrected.  Returns an exit
 * status (v->nrows is 0 unless PR_EXIT_OK).
 */
static int
report_variant(struct pr_session *s, const struct run_cli *c, size_t vi,
    struct variant_report *v)
{
	struct pr_dataset *bd = &s->v[0].data, *nd = &s->v[vi].data;
	struct pr_report_compare_opts o;
	struct pr_metric *nm;
	enum pr_role *role;
	struct pr_error err;
	size_t i, both = 0;

	pr_error_clear(&err);
	if (run_roles(s, c, &role, &err) != PR_OK) {
		cli_errorf("run: %s", err.msg);
		return err.status == PR_ENOMEM ? PR_EXIT_INTERNAL
					       : PR_EXIT_USAGE;
	}
	free(role);
	for (i = 0; i < bd->n; i++)
		if (bd->metrics[i].values.n > 0 &&
		    (nm = pr_dataset_find(nd, bd->metrics[i].name)) != NULL &&
		    nm->values.n > 0)
			both++;
	if (both == 0) {
		cli_errorf("run: nothing to compare between '%s' and '%s' "
			   "(no successful runs on one side)",
		    s->v[0].name, s->v[vi].name);
		return PR_EXIT_USAGE;
	}
	pr_report_compare_opts_init(&o);
	o.primary = (const char *const *)c->primary;
	o.nprimary = c->nprimary;
	/* The notes (a metric of one variant only) are not shown: a
	 * variant's runs can fail where the baseline's did not. */
	if (pr_report_compare_datasets(bd, nd, s->v[0].name, s->v[vi].name, &o,
		&v->res, &err) != PR_OK) {
		cli_errorf("run: %s", err.msg);
		return err.status == PR_ENOMEM ? PR_EXIT_INTERNAL
					       : PR_EXIT_USAGE;
	}
	/* The paired part follows the table's order. */
	v->nrows = v->res.nrm;
	if ((v->names = calloc(v->nrows + 1, sizeof(*v->names))) == NULL) {
		cli_errorf("out of memory");
		v->nrows = 0;
		return PR_EXIT_INTERNAL;
	}
	for (i = 0; i < v->nrows; i++)
		v->names[i] = v->res.rm[i].name;
	return variant_times(s, vi, v);
}

/*
 * The explanation of variant vi (perfreg/explain.h) from the monitors'
 * figures, against the first primary metric of the baseline, with the
 * monitor's notes: nothing without --monitor.
 */
static enum pr_status
explain_add(struct pr_report_model *g, const struct pr_session *s,
    const struct run_cli *c, size_t vi, struct pr_error *err)
{
	const char **notes;
	enum pr_role *role;
	enum pr_status st;
	size_t i, nn;

	if (c->mon == NULL)
		return PR_OK;
	if ((st = run_roles(s, c, &role, err)) != PR_OK)
		return st;
	nn = pr_monitor_nnotes(c->mon);
	if ((notes = calloc(nn + 1, sizeof(*notes))) == NULL) {
		free(role);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	for (i = 0; i < nn; i++)
		notes[i] = pr_monitor_note(c->mon, i);
	st = pr_report_run_explain(g, "explanation", 0, s, vi, role, notes, nn,
	    err);
	free(notes);
	free(role);
	return st;
}

/* --monitor: the set (default: PR_MON_DEFAULT) and the monitor the runner reads
 * around each run.  Returns an exit status. */
static int
monitor_open(struct run_cli *c)
{
	struct pr_error err;
	unsigned set = PR_MON_DEFAULT;

	pr_error_clear(&err);
	if (c->monitor_spec != NULL &&
	    pr_monitor_parse_set(c->monitor_spec, &set, &err) != PR_OK) {
		cli_errorf("run: --monitor: %s; see 'perfreg run --help'",
		    err.msg);
		return PR_EXIT_USAGE;
	}
	if (set == 0)
		return PR_EXIT_OK;
	if (pr_monitor_new(set, NULL, &c->mon, &err) != PR_OK) {
		cli_error(&err);
		return PR_EXIT_INTERNAL;
	}
	c->ro.monitor = c->mon;
	return PR_EXIT_OK;
}

/*
 * Fills m with the report of session s: the session; for one variant
 * its summaries; for each other variant the decisions of
 * --until-decided, compare's report of baseline against it, the paired
 * analysis and, with monitors, the explanation; the runs.  In JSON, a
 * session of two variants is compare's object with "paired",
 * "explanation", "sequential", "session" and "runs" added; otherwise
 * {"comparisons": [...], "session", "runs"}.
 */
static enum pr_status
fill_report(struct pr_report_model *m, const struct pr_session *s,
    const struct run_cli *c, const struct variant_report *vr, size_t nok,
    struct pr_error *err)
{
	struct pr_report_model *g;
	enum pr_status st;
	size_t vi;
	int one = s->nv == 2 && nok == 1;

	if ((st = pr_report_run_session(m, NULL, 0, s, err)) != PR_OK)
		return st;
	if (s->nv == 1 &&
	    ((st = pr_report_model_textf(m, PR_SECTION_TEXT, NULL, 0, err,
		  "\n")) != PR_OK ||
		(st = pr_report_run_summaries(m, 0, s, err)) != PR_OK))
		return st;
	if (!one &&
	    (st = pr_report_model_list(m, "comparisons", 0, err)) != PR_OK)
		return st;
	for (vi = 1; vi < s->nv; vi++) {
		if ((st = pr_report_model_textf(m, PR_SECTION_TEXT, NULL, 0,
			 err, "\n")) != PR_OK)
			return st;
		if (vr[vi].nrows == 0)
			continue;
		g = m;
		if (!one &&
		    (st = pr_report_model_group(m, "comparisons",
			 PR_SECTION_LIST, &g, err)) != PR_OK)
			return st;
		/* The decisions come first in text, last in JSON. */
		if ((c->until &&
			(st = sequential_add(g, NULL, 0, s, c, vi, err)) !=
			    PR_OK) ||
		    (st = pr_report_model_comparison(g, NULL, PR_SECTION_INLINE,
			 &vr[vi].res.report, err)) != PR_OK ||
		    (st = pr_report_run_paired(g, "paired", 0, s, vi,
			 vr[vi].names, vr[vi].nrows, err)) != PR_OK ||
		    (st = explain_add(g, s, c, vi, err)) != PR_OK ||
		    (c->until &&
			(st = sequential_add(g, "sequential",
			     PR_SECTION_NO_TEXT, s, c, vi, err)) != PR_OK))
			return st;
	}
	if ((st = pr_report_run_session(m, "session", PR_SECTION_NO_TEXT, s,
		 err)) != PR_OK)
		return st;
	return pr_report_run_runs(m, "runs", 0, s, err);
}

/* Writes the page of m, the report of session s, to --html; an exit
 * status. */
static int
run_html(const struct pr_report_model *m, const struct pr_session *s,
    const struct run_cli *c)
{
	struct pr_buf title = PR_BUF_INIT(1 << 16);
	struct pr_error err;
	enum pr_status st;
	size_t vi;
	int rc = PR_EXIT_INTERNAL;

	pr_error_clear(&err);
	st = pr_buf_adds(&title, "perfreg run", &err);
	for (vi = 0; vi < s->nv && st == PR_OK; vi++)
		st = pr_buf_addf(&title, &err, "%s%s", vi == 0 ? " " : ", ",
		    s->v[vi].name);
	if (st != PR_OK)
		cli_error(&err);
	else
		rc = cli_html_model("run", c->html, m, title.data);
	pr_buf_release(&title);
	return rc;
}

static int
write_report(struct pr_session *s, const struct run_cli *c)
{
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_buf out = PR_BUF_INIT(REPORT_MAX);
	struct variant_report *vr;
	struct pr_error err;
	size_t vi, nok = 0;
	int rc = PR_EXIT_OK, rc2;

	if ((vr = calloc(s->nv, sizeof(*vr))) == NULL) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	for (vi = 1; vi < s->nv; vi++) {
		rc2 = report_variant(s, c, vi, &vr[vi]);
		if (rc2 == PR_EXIT_INTERNAL) {
			rc = rc2;
			goto out;
		}
		if (rc2 != PR_EXIT_OK) {
			vr[vi].nrows = 0;
			rc = rc2;
		} else
			nok++;
	}
	pr_error_clear(&err);
	if (fill_report(&m, s, c, vr, nok, &err) != PR_OK ||
	    ((c->html == NULL || strcmp(c->html, "-") != 0) &&
		pr_report_model_render(&out, &m, c->format, &err) != PR_OK)) {
		cli_error(&err);
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	/* --html: the page first; "-" writes it instead of the report. */
	if (c->html != NULL && (rc2 = run_html(&m, s, c)) != PR_EXIT_OK)
		rc = rc2;
	if (c->html == NULL || strcmp(c->html, "-") != 0) {
		rc2 = cli_write(&out);
		if (rc2 != PR_EXIT_OK)
			rc = rc2;
	}
out:
	pr_report_model_release(&m);
	for (vi = 0; vi < s->nv; vi++)
		variant_report_release(&vr[vi]);
	free(vr);
	pr_buf_release(&out);
	return rc;
}

static void
run_cli_release(struct run_cli *c)
{
	size_t i;

	pr_parser_free(c->parser);
	for (i = 0; i < c->np; i++) {
		free(c->param_buf[i]);
		free(c->param_vals[i]);
	}
	free(c->hooks);
	free(c->decide);
	free(c->primary);
	pr_monitor_free(c->mon);
	free(c->tags);
	free(c->variant_op);
	run_store_close(&c->rs);
}

/*
 * A variant none of whose counted runs succeeded is an error (status 2),
 * with one variant too: its figures are missing, not zero (`run
 * A=nosuchcmd` said nothing and exited 0).  With several variants the
 * report has said so already ("nothing to compare").
 */
static int
all_failed(const struct pr_session *s)
{
	size_t i;

	for (i = 0; i < s->nv; i++)
		if (s->v[i].runs_ok == 0) {
			if (s->nv == 1)
				cli_errorf("run: no run of '%s' succeeded",
				    s->v[i].name);
			return PR_EXIT_USAGE;
		}
	return PR_EXIT_OK;
}

/*
 * The session: argv as given to `perfreg run`, or the arguments a
 * session recorded when resumes is set (then done counted rounds are
 * already stored, and the session goes to db, where it was found, NULL
 * for the default, whatever --db it recorded; the recorded campaign must
 * be campaign).
 */
static int
run_main(int argc, char **argv, int64_t resumes, size_t done, const char *db,
    const char *campaign)
{
	struct run_cli c;
	struct pr_session s;
	struct pr_error err;
	struct sigaction sa, old[NSTOP];
	int first, rc = PR_EXIT_OK, wrc = PR_EXIT_OK;
	size_t i;
	enum pr_status st;

	memset(&c, 0, sizeof(c));
	pr_runner_opts_init(&c.ro);
	pr_seq_opts_init(&c.seq);
	c.ro.max_failures = 10;
	pr_session_init(&s);
	if ((first = parse_opts(argc, argv, &c)) < 0) {
		rc = PR_EXIT_USAGE;
		goto out;
	}
	/* Recorded arguments come from the database (an import, say). */
	if (resumes != 0 &&
	    (c.resume || c.campaign == NULL ||
		strcmp(c.campaign, campaign) != 0)) {
		cli_errorf("run: --resume: session %lld did not record the "
			   "arguments of a session of campaign '%s'",
		    (long long)resumes, campaign);
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (c.parser != NULL && !c.parse_set && !c.ro.parse_output &&
	    pr_parser_set_format(c.parser, "none", NULL) != PR_OK) {
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	if (c.parse_set)
		c.ro.parse_output = 1;
	c.ro.parser = c.parser;
	if (resumes != 0)
		c.db = db;
	if ((c.variant_op != NULL
		    ? add_variants(&s, &c, &c.variant_op, 1)
		    : add_variants(&s, &c, argv + first, argc - first)) != 0) {
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (c.until) {
		if (s.nv < 2) {
			cli_errorf("run: --until-decided needs at least two "
				   "variants to compare");
			rc = PR_EXIT_USAGE;
			goto out;
		}
		if (c.ro.order == PR_ORDER_SEQUENTIAL) {
			cli_errorf("run: --until-decided needs rounds: it "
				   "does not go with --order sequential");
			rc = PR_EXIT_USAGE;
			goto out;
		}
		c.ro.runs = c.max_runs != 0 ? c.max_runs : 200;
		if (resumes != 0 && done < c.ro.runs)
			c.ro.runs -= done;
		c.seq.max_runs = c.ro.runs;
		c.ro.should_stop = until_hook;
	}
	if (c.output != NULL && (c.out = fopen(c.output, "a")) == NULL) {
		cli_errorf("run: cannot open %s: %s", c.output,
		    strerror(errno));
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (resumes != 0 && !c.until) {
		if (done >= c.ro.runs) {
			cli_errorf("run: --resume: the %zu rounds of campaign "
				   "'%s' are all stored; nothing left to run",
			    done, c.campaign);
			rc = PR_EXIT_USAGE;
			goto out;
		}
		c.ro.runs -= done;
	}
	/* The resumed rounds get orders of their own, not the first ones
	 * again. */
	if (resumes != 0)
		c.ro.seed += (uint64_t)done;
	if (resumes != 0)
		cli_errorf("run: resuming session %lld of campaign '%s': %zu "
			   "rounds stored, %zu to run",
		    (long long)resumes, c.campaign, done, c.ro.runs);
	if ((rc = monitor_open(&c)) != PR_EXIT_OK)
		goto out;
	c.ro.keep_output = c.campaign != NULL;
	if (c.campaign != NULL &&
	    (rc = run_store_begin(&c.rs, c.db, c.campaign, &s, c.tags, c.ntags,
		 c.primary, c.nprimary, argv + 1, (size_t)(argc - 1),
		 resumes)) != PR_EXIT_OK)
		goto out;
	/* The progress line goes to stderr: whether stdout is piped (into
	 * tee, say) does not matter. */
	c.tty = isatty(STDERR_FILENO);
	c.total_runs = s.nv * (c.ro.runs + c.ro.warmup);
	c.ro.on_run = on_run;
	c.ro.arg = &c;
	interrupted = 0;
	stop_signal = 0;
	c.ro.spawn.cancel = &interrupted;
	/* What a command leaves running in other process groups (setsid,
	 * setpgid) is re-parented to perfreg, which kills it after the run;
	 * perfreg has no other children. */
	c.ro.spawn.reap_orphans = pr_spawn_subreaper() == 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSTOP; i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	/* No SA_RESTART: the wait must see EINTR.  A second signal gets
	 * the default action. */
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &sa, &old[i]);
	pr_error_clear(&err);
	c.t0 = pr_spawn_now();
	st = pr_session_run(&s, &c.ro, &err);
	for (i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &old[i], NULL);
	/* The session's memory pressure, where vmstat was not read around
	 * each run: a note of the explanation. */
	if (st == PR_OK && c.mon != NULL)
		st = pr_monitor_session_end(c.mon, &err);
	if (c.tty)
		fputs("\r\033[K", stderr);
	/* The report is still written, from what is in memory. */
	if (c.out_failed) {
		cli_errorf("run: cannot write to %s", c.output);
		wrc = PR_EXIT_INTERNAL;
	}
	if (c.rs.failed) {
		cli_errorf("run: %s; the session stopped, the runs before it "
			   "are stored",
		    c.rs.msg);
		run_store_end(&c.rs, &s, 0);
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (c.rs.st != NULL) {
		if ((rc = run_store_end(&c.rs, &s,
			 c.until && s.stop == PR_STOP_HOOK)) != PR_EXIT_OK)
			goto out;
		cli_errorf("run: session %lld stored in campaign '%s' (%s)",
		    (long long)c.rs.session, c.campaign,
		    pr_store_target(c.rs.st));
		run_store_note_history(&c.rs, c.campaign, &s);
	}
	if (st != PR_OK) {
		cli_error(&err);
		rc = cli_exit_for(st);
		goto out;
	}
	if (s.stop == PR_STOP_INTERRUPTED)
		cli_errorf("run: interrupted%s; the report covers the %zu runs "
			   "that finished",
		    stop_signal == SIGTERM      ? " (SIGTERM)"
			: stop_signal == SIGHUP ? " (SIGHUP)"
						: "",
		    s.nruns -
			(s.nruns > 0 &&
			    s.runs[s.nruns - 1].outcome ==
				PR_SPAWN_INTERRUPTED));
	else if (s.stop == PR_STOP_FAILURES)
		cli_errorf("run: stopped after %zu failed runs "
			   "(--max-failures)",
		    s.failures);
	if (c.primary_failed) {
		cli_errorf("run: %s", c.primary_err.msg);
		rc = PR_EXIT_USAGE;
		goto out;
	}
	rc = write_report(&s, &c);
	if (rc == PR_EXIT_OK)
		rc = wrc;
	if (rc == PR_EXIT_OK && s.stop != PR_STOP_INTERRUPTED)
		rc = all_failed(&s);
	if (rc == PR_EXIT_OK && s.stop == PR_STOP_INTERRUPTED)
		rc = stop_signal > 0 ? 128 + stop_signal : EXIT_INTERRUPTED;
out:
	if (c.out != NULL && fclose(c.out) != 0 && rc == PR_EXIT_OK) {
		cli_errorf("run: cannot write to %s", c.output);
		rc = PR_EXIT_INTERNAL;
	}
	pr_session_release(&s);
	run_cli_release(&c);
	return rc;
}

/*
 * With --resume the session runs with the options it recorded: any
 * option but --campaign, --db and --resume is refused rather than
 * ignored.
 */
static int
resume_only(const struct run_cli *c)
{
	uint64_t other = c->seen &
	    ~(opt_bit(options, "campaign") | opt_bit(options, "db") |
		opt_bit(options, "resume"));
	const struct opt *o;
	int i;

	if (other == 0)
		return 0;
	for (i = 0; !(other & ((uint64_t)1 << i)); i++)
		;
	o = &options[i];
	if (o->sname != 0)
		cli_usage_error(&cmd_run_entry,
		    "--resume runs the session with the options it recorded: "
		    "'-%c' does not go with it",
		    o->sname);
	else
		cli_usage_error(&cmd_run_entry,
		    "--resume runs the session with the options it recorded: "
		    "'--%s' does not go with it",
		    o->lname);
	return -1;
}

static int
exec_run(int argc, char **argv)
{
	struct run_cli c;
	char **args = NULL, **av = NULL;
	size_t nargs = 0, done = 0, i;
	int64_t resumes = 0;
	int first, rc;

	memset(&c, 0, sizeof(c));
	pr_runner_opts_init(&c.ro);
	pr_seq_opts_init(&c.seq);
	first = parse_opts(argc, argv, &c);
	if (first < 0 || !c.resume) {
		run_cli_release(&c);
		return first < 0 ? PR_EXIT_USAGE
				 : run_main(argc, argv, 0, 0, NULL, NULL);
	}
	if (resume_only(&c) != 0) {
		run_cli_release(&c);
		return PR_EXIT_USAGE;
	}
	rc = run_store_find_resume(c.db, c.campaign, &args, &nargs, &resumes,
	    &done);
	if (rc == PR_EXIT_OK && (av = calloc(nargs + 2, sizeof(*av))) == NULL) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
	}
	if (rc == PR_EXIT_OK) {
		av[0] = argv[0];
		for (i = 0; i < nargs; i++)
			av[i + 1] = args[i];
		rc = run_main((int)nargs + 1, av, resumes, done, c.db,
		    c.campaign);
	}
	for (i = 0; i < nargs; i++)
		free(args[i]);
	free(args);
	free(av);
	run_cli_release(&c);
	return rc;
}

static const char about[] =
    "Runs each COMMAND repeatedly, in rounds that run every variant once "
    "in a\n"
    "shuffled order, measures every run (wall time, user and system time, "
    "max\n"
    "RSS, context switches, and metrics parsed from its output), and "
    "compares\n"
    "each variant with the first one.  Commands are split into words as "
    "a\n"
    "shell would, but run without a shell unless --shell is given.\n";

static const char epilogue[] =
    "Ctrl-C, SIGTERM and SIGHUP stop the session and report what finished.  "
    "Exit\n"
    "status: 0 done, 2 bad usage, a session that could not run or a variant "
    "with\n"
    "no successful run, 3 internal error, 128 + the signal when interrupted "
    "(130\n"
    "for Ctrl-C).\n";

const struct cmd_entry cmd_run_entry = { .name = "run",
	.synopsis = "[options] NAME=COMMAND...\n"
		    "--campaign name --variant name [options] -- command "
		    "[arg...]\n"
		    "--campaign name --resume [--db target]",
	.about = about,
	.opts = options,
	.epilogue = epilogue,
	.exec = exec_run };
