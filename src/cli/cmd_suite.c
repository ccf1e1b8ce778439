/*
 * cli/cmd_suite.c - `perfreg suite`: runs the built-in probes
 * (perfreg/probe.h) with adaptive repetition (perfreg/suite.h), stores
 * the session with its environment snapshot in the results database
 * (campaign "suite", one variant per probe, one run per sample), and
 * compares it with this host's previous suite session: the verdict
 * table, then what differs in the environment.  `suite list` names the
 * probes; `suite run PROBE...` runs some; `suite ab PROBE --a X --b Y`
 * runs two variants of one probe interleaved in this boot and compares
 * them.
 *
 * Exit status: 0 done, 1 a regression against the baseline with
 * --fail-on-regression, 2 bad usage or a probe that failed, 3 internal
 * error, 130 interrupted (what finished is stored).
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "perfreg/env.h"
#include "perfreg/nested.h"
#include "perfreg/probe.h"
#include "perfreg/report.h"
#include "perfreg/store.h"
#include "perfreg/suite.h"
#include "perfreg/verdict.h"
#include "core/banned.h"

#define EXIT_INTERRUPTED 130
#define OUTPUT_MAX ((size_t)256 << 20)
#define SUITE_CAMPAIGN "suite"
#define HOST_MAX 256
/* Earlier sessions a suite is compared with, at most. */
#define HISTORY_MAX 20
#define BOOT_MAX 64

static const char usage[] =
    "suite [--quick] [--budget s] [--target pct] [--cpu n] "
    "[--baseline session] [--no-store] [--db target] "
    "[--fail-on-regression] [--json]\n"
    "       perfreg suite run [options] probe...\n"
    "       perfreg suite list\n"
    "       perfreg suite ab [--quick] [--cpu n] [-n rounds] [--seed n] "
    "[--json] probe --a x --b y";

static const char help[] =
    "Runs perfreg's built-in system probes (memory copy, crypto, pipe into "
    "a\n"
    "digest, random numbers, thread hand-off, system call, page faults, "
    "loopback\n"
    "TCP), each until its figures are known to +-1% or its share of the "
    "time\n"
    "budget is spent; stores the session and its environment in the "
    "results\n"
    "database; and, when this host has an earlier suite session, prints "
    "the\n"
    "verdict for every figure against it and what differs in the "
    "environment.\n"
    "\n"
    "  perfreg suite               all probes (within 10 minutes)\n"
    "  perfreg suite --quick       all probes, smaller, within a minute\n"
    "  perfreg suite run p...      the probes named\n"
    "  perfreg suite list          the probes and their variants\n"
    "  perfreg suite ab p --a x --b y   two variants (or sizes) of probe p,\n"
    "                              interleaved in this boot, compared\n"
    "\n"
    "options:\n"
    "  --quick               smaller sizes and a 40 s budget\n"
    "  --budget s            time budget of the whole suite in seconds\n"
    "                        (default 480; --quick 40)\n"
    "  --cpu n               pin the probes to CPU n (default: not pinned)\n"
    "  --target pct          stop a probe when every figure is known to "
    "+-pct\n"
    "                        percent (95% interval; default 1; 0: use "
    "the budget)\n"
    "  --baseline session    compare with this stored session (default: "
    "this\n"
    "                        host's latest earlier suite session)\n"
    "  --no-store            store nothing, compare with nothing\n"
    "  --db target           the database: a file (SQLite) or "
    "postgresql://...\n"
    "  --fail-on-regression  exit 1 when a figure regressed against the "
    "baseline\n"
    "  -n rounds             suite ab: rounds of A and B (default 20)\n"
    "  --seed n              suite ab: seed of the order in each round\n"
    "  --json                one JSON object with every figure\n";

enum {
	OPT_QUICK = 256,
	OPT_BUDGET,
	OPT_CPU,
	OPT_BASELINE,
	OPT_NOSTORE,
	OPT_DB,
	OPT_FAIL,
	OPT_JSON,
	OPT_A,
	OPT_B,
	OPT_SEED,
	OPT_TARGET
};

static const struct option longopts[] = {
	{ "a", required_argument, NULL, OPT_A },
	{ "b", required_argument, NULL, OPT_B },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "db", required_argument, NULL, OPT_DB },
	{ "fail-on-regression", no_argument, NULL, OPT_FAIL },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "no-store", no_argument, NULL, OPT_NOSTORE },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "target", required_argument, NULL, OPT_TARGET }, { NULL, 0, NULL, 0 }
};

struct suite_cli {
	struct pr_suite_opts so;
	int budget_set, json, no_store, gate;
	long long baseline;
	const char *db, *a, *b;
	int tty;
	double last_progress;
};

static volatile sig_atomic_t interrupted;

static void
on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static double
mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void
on_sample(const char *probe, size_t k, double elapsed, void *arg)
{
	struct suite_cli *c = arg;
	double t = mono_now();

	if (!c->tty || t - c->last_progress < 0.1)
		return;
	c->last_progress = t;
	fprintf(stderr, "\r%s: %zu samples, %.0f s\033[K", probe, k, elapsed);
	fflush(stderr);
}

static int
parse_number(const char *opt, const char *arg, double lo, double hi,
    double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(arg, &end);
	if (errno != 0 || end == arg || *end != '\0' || !(x >= lo) ||
	    !(x <= hi)) {
		cli_errorf("suite: %s: expected a number from %g to %g, got "
			   "'%s'",
		    opt, lo, hi, arg);
		return -1;
	}
	*out = x;
	return 0;
}

static int
parse_opts(int argc, char **argv, struct suite_cli *c)
{
	uint64_t seed;
	double x = 0;
	int ch;

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":n:", longopts, NULL)) != -1) {
		switch (ch) {
		case OPT_QUICK:
			c->so.quick = 1;
			break;
		case OPT_BUDGET:
			if (parse_number("--budget", optarg, 1, 86400, &x) != 0)
				return -1;
			c->so.budget_s = x;
			c->budget_set = 1;
			break;
		case OPT_CPU:
			if (parse_number("--cpu", optarg, 0, 65535, &x) != 0 ||
			    x != floor(x)) {
				if (x != floor(x))
					cli_errorf("suite: --cpu: expected a "
						   "CPU number, got '%s'",
					    optarg);
				return -1;
			}
			c->so.cpu = (int)x;
			break;
		case OPT_BASELINE:
			if (parse_number("--baseline", optarg, 1, 9e15, &x) !=
				0 ||
			    x != floor(x))
				return -1;
			c->baseline = (long long)x;
			break;
		case OPT_TARGET:
			if (parse_number("--target", optarg, 0, 100, &x) != 0)
				return -1;
			c->so.target_pct = x;
			break;
		case OPT_NOSTORE:
			c->no_store = 1;
			break;
		case OPT_DB:
			c->db = optarg;
			break;
		case OPT_FAIL:
			c->gate = 1;
			break;
		case OPT_JSON:
			c->json = 1;
			break;
		case OPT_A:
			c->a = optarg;
			break;
		case OPT_B:
			c->b = optarg;
			break;
		case 'n':
			if (parse_number("-n", optarg, 1, 1e6, &x) != 0 ||
			    x != floor(x))
				return -1;
			c->so.rounds = (size_t)x;
			break;
		case OPT_SEED:
			if (cli_parse_seed("suite", optarg, &seed) != 0)
				return -1;
			c->so.seed = seed;
			break;
		case ':':
			cli_errorf("suite: option '%s' needs an argument",
			    argv[optind - 1]);
			return -1;
		default:
			cli_errorf("suite: unknown option '%s'",
			    argv[optind - 1]);
			return -1;
		}
	}
	if (c->no_store && (c->baseline != 0 || c->db != NULL || c->gate)) {
		cli_errorf(
		    "suite: --no-store does not go with --baseline, --db "
		    "or --fail-on-regression");
		return -1;
	}
	if (!c->budget_set && c->so.quick)
		c->so.budget_s = 40;
	return optind;
}

static int
list_probes(void)
{
	const struct pr_probe *const *p;
	size_t i;

	for (p = pr_probes; *p != NULL; p++) {
		printf("%-12s %s\n%-12s variants:", (*p)->name, (*p)->summary,
		    "");
		for (i = 0; (*p)->variants != NULL && (*p)->variants[i] != NULL;
		     i++)
			printf(" %s", (*p)->variants[i]);
		printf("; timer: %s\n", (*p)->timer);
	}
	if (fflush(stdout) != 0) {
		cli_errorf("cannot write the output");
		return PR_EXIT_INTERNAL;
	}
	return PR_EXIT_OK;
}

/* The figures of each probe: mean, interval half-width, samples. */
static enum pr_status
figures_text(const struct pr_suite_result *r, size_t n, struct pr_buf *b,
    struct pr_error *err)
{
	const struct pr_metric *m;
	enum pr_status st = PR_OK;
	const char *line;
	struct timespec res, cres;
	double mean, h;
	size_t i, k, j, len;

	clock_getres(CLOCK_MONOTONIC, &res);
	clock_getres(CLOCK_THREAD_CPUTIME_ID, &cres);
	st = pr_buf_addf(b, err,
	    "timers: each probe names its own; "
	    "resolution of CLOCK_MONOTONIC %.0f ns, of CLOCK_THREAD_CPUTIME_ID "
	    "%.0f ns\neach figure is the mean of the samples, +- the "
	    "half-width of its 95%% interval\n\n",
	    (double)res.tv_sec * 1e9 + (double)res.tv_nsec,
	    (double)cres.tv_sec * 1e9 + (double)cres.tv_nsec);
	for (i = 0; i < n && st == PR_OK; i++) {
		if (r[i].skipped != NULL) {
			st = pr_buf_addf(b, err, "%s: not run here: %s\n",
			    r[i].label, r[i].skipped);
			continue;
		}
		st = pr_buf_addf(b, err,
		    "%s: %zu samples in %.1f s, %s "
		    "(timer %s)\n",
		    r[i].label, r[i].samples, r[i].elapsed_s,
		    r[i].converged    ? "every figure within the target"
			: r[i].capped ? "the most samples a probe takes"
				      : "its share of the budget spent",
		    r[i].probe->timer);
		for (line = r[i].notes;
		     st == PR_OK && line != NULL && *line != '\0';
		     line += len + (line[len] == '\n')) {
			len = strcspn(line, "\n");
			st = pr_buf_addf(b, err, "  note: %.*s\n", (int)len,
			    line);
		}
		for (k = 0; k < r[i].data.n && st == PR_OK; k++) {
			m = &r[i].data.metrics[k];
			mean = 0;
			for (j = 0; j < m->values.n; j++)
				mean +=
				    (m->values.v[j] - mean) / (double)(j + 1);
			h = pr_suite_halfwidth_pct(m->values.v, m->values.n);
			st = pr_buf_addf(b, err,
			    "  %-36s %14.6g %-6s %s%.2f%%"
			    "  (%s is better)\n",
			    m->name, mean, m->unit, isfinite(h) ? "+-" : "",
			    isfinite(h) ? h : 0.0,
			    m->better == PR_BETTER_HIGHER ? "higher" : "lower");
		}
	}
	return st;
}

static json_t *
figures_json(const struct pr_suite_result *r, size_t n)
{
	json_t *arr = json_array(), *o, *ms, *mo;
	const struct pr_metric *m;
	double mean, h;
	size_t i, k, j;

	for (i = 0; arr != NULL && i < n; i++) {
		ms = json_array();
		for (k = 0; ms != NULL && k < r[i].data.n; k++) {
			m = &r[i].data.metrics[k];
			mean = 0;
			for (j = 0; j < m->values.n; j++)
				mean +=
				    (m->values.v[j] - mean) / (double)(j + 1);
			h = pr_suite_halfwidth_pct(m->values.v, m->values.n);
			mo = json_pack("{s:s,s:s,s:s,s:f,s:o,s:I}", "name",
			    m->name, "unit", m->unit, "better",
			    m->better == PR_BETTER_HIGHER ? "higher" : "lower",
			    "mean", mean, "halfwidth_pct",
			    isfinite(h) ? json_real(h) : json_null(), "n",
			    (json_int_t)m->values.n);
			if (mo == NULL || json_array_append_new(ms, mo) != 0)
				goto fail;
		}
		o = json_pack("{s:s,s:I,s:f,s:b,s:b,s:s,s:s?,s:s,s:o}", "probe",
		    r[i].label, "samples", (json_int_t)r[i].samples,
		    "elapsed_s", r[i].elapsed_s, "converged", r[i].converged,
		    "capped", r[i].capped, "notes",
		    r[i].notes != NULL ? r[i].notes : "", "skipped",
		    r[i].skipped, "timer", r[i].probe->timer, "metrics", ms);
		if (o == NULL || json_array_append_new(arr, o) != 0)
			goto fail;
	}
	return arr;
fail:
	json_decref(arr);
	return NULL;
}

/* Stores the results as a session of campaign "suite". */
static int
store_results(struct pr_store *st, const struct pr_suite_result *r, size_t n,
    const struct pr_env *env, int quick, int64_t *session, const char *status)
{
	struct pr_store_session_new sn;
	struct pr_store_tag tag;
	struct pr_store_run sr;
	struct pr_dataset one;
	struct pr_error err;
	char host[HOST_MAX], boot[BOOT_MAX];
	struct timespec ts;
	int64_t vid;
	double elapsed = 0;
	size_t i, k, j;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	cli_hostname(host, sizeof(host));
	cli_boot_id(boot, sizeof(boot));
	clock_gettime(CLOCK_REALTIME, &ts);
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c(SUITE_CAMPAIGN);
	sn.host = host;
	sn.boot_id = boot;
	sn.args_json = NULL;
	sn.started = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
	sn.env = env;
	tag.key = pr_str_c("suite");
	tag.value = pr_str_c(quick ? "quick" : "full");
	sn.tags = &tag;
	sn.ntags = 1;
	pr_error_clear(&err);
	/* One transaction: a session that cannot be stored whole (a
	 * locked database, a full disk) leaves nothing behind. */
	if (pr_store_begin(st, &err) != PR_OK)
		goto fail;
	if (pr_store_session_begin(st, &sn, session, &err) != PR_OK)
		goto fail;
	for (i = 0; i < n; i++) {
		elapsed += r[i].elapsed_s;
		if (r[i].skipped != NULL || r[i].samples == 0)
			continue;
		if (pr_store_session_variant(st, *session, pr_str_c(r[i].label),
			r[i].probe->name, &vid, &err) != PR_OK)
			goto fail;
		for (k = 0; k < r[i].samples; k++) {
			pr_dataset_init(&one);
			for (j = 0; j < r[i].data.n; j++) {
				const struct pr_metric *m =
				    &r[i].data.metrics[j];

				if (k < m->values.n &&
				    pr_dataset_add(&one, m->name, m->unit,
					m->better, m->values.v[k],
					&err) != PR_OK) {
					pr_dataset_release(&one);
					goto fail;
				}
			}
			memset(&sr, 0, sizeof(sr));
			sr.variant = vid;
			sr.round = k;
			sr.seq = k;
			sr.ok = 1;
			sr.outcome = "ok";
			sr.reason = pr_str_c("");
			sr.metrics = &one;
			if (pr_store_add_run(st, *session, &sr, &err) !=
			    PR_OK) {
				pr_dataset_release(&one);
				goto fail;
			}
			pr_dataset_release(&one);
		}
	}
	if (pr_store_session_end(st, *session, status, elapsed, &err) !=
		PR_OK ||
	    pr_store_commit(st, &err) != PR_OK)
		goto fail;
	return PR_EXIT_OK;
fail:
	pr_store_rollback(st);
	*session = 0;
	cli_errorf("suite: cannot store the session: %s",
	    pr_error_format(&err, eb, sizeof(eb)));
	return PR_EXIT_USAGE;
}

struct collect {
	struct pr_dataset *d;
	const struct pr_suite_result *r; /* only these probes' runs */
	size_t n;
};

static int
collect_run(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct collect *c = arg;
	size_t i;

	if (!r->ok || r->warmup)
		return 0;
	for (i = 0; i < c->n; i++)
		if (c->r[i].skipped == NULL &&
		    strlen(c->r[i].label) == r->variant.n &&
		    memcmp(c->r[i].label, r->variant.p, r->variant.n) == 0)
			break;
	if (i == c->n)
		return 0;
	for (i = 0; i < r->nm; i++)
		if (pr_dataset_add(c->d, r->metric_names[i], r->metric_units[i],
			r->metric_better[i], r->metric_values[i], err) != PR_OK)
			return 1;
	return 0;
}

/* 1 when session s ran with the tag suite=kind and ran every probe of
 * r that ran now. */
static int
comparable(const struct pr_store_session_info *s, const char *kind,
    const struct pr_suite_result *r, size_t n)
{
	size_t i, k, len = strlen(kind);
	int tagged = 0;

	for (i = 0; i < s->ntags; i++)
		if (s->tags[i].key.n == 5 &&
		    memcmp(s->tags[i].key.p, "suite", 5) == 0 &&
		    s->tags[i].value.n == len &&
		    memcmp(s->tags[i].value.p, kind, len) == 0)
			tagged = 1;
	if (!tagged)
		return 0;
	for (i = 0; i < n; i++) {
		if (r[i].skipped != NULL || r[i].samples == 0)
			continue;
		for (k = 0; k < s->nvariants; k++)
			if (s->variants[k].n == strlen(r[i].label) &&
			    memcmp(s->variants[k].p, r[i].label,
				s->variants[k].n) == 0)
				break;
		if (k == s->nvariants)
			return 0;
	}
	return 1;
}

/*
 * The session to compare with: want, or this host's latest earlier
 * suite session that finished, of the same kind (--quick or not), and
 * ran every probe that ran now; 0 when there is none.
 */
static int
find_baseline(struct pr_store *st, int64_t session, long long want,
    const char *kind, const struct pr_suite_result *r, size_t nr, int64_t *out,
    int64_t *hist, size_t *nhist)
{
	struct pr_store_session_info *s = NULL;
	struct pr_error err;
	enum pr_status ps;
	char host[HOST_MAX];
	size_t n = 0, i;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	*out = 0;
	if (nhist != NULL)
		*nhist = 0;
	cli_hostname(host, sizeof(host));
	pr_error_clear(&err);
	ps = pr_store_sessions(st, pr_str_c(SUITE_CAMPAIGN), &s, &n, &err);
	if (ps == PR_ENOTFOUND)
		return PR_EXIT_OK;
	if (ps != PR_OK) {
		cli_errorf("suite: %s", pr_error_format(&err, eb, sizeof(eb)));
		return cli_exit_for(ps);
	}
	for (i = 0; i < n; i++) {
		if (want != 0) {
			if (s[i].id == (int64_t)want)
				*out = s[i].id;
			continue;
		}
		if (s[i].id != session && strcmp(s[i].host, host) == 0 &&
		    strcmp(s[i].status, "done") == 0 &&
		    comparable(&s[i], kind, r, nr)) {
			*out = s[i].id;
			/* The latest HISTORY_MAX, oldest first. */
			if (hist != NULL && *nhist == HISTORY_MAX) {
				memmove(hist, hist + 1,
				    (HISTORY_MAX - 1) * sizeof(*hist));
				(*nhist)--;
			}
			if (hist != NULL)
				hist[(*nhist)++] = s[i].id;
		}
	}
	if (hist != NULL && want != 0 && *out != 0) {
		hist[0] = *out;
		*nhist = 1;
	}
	pr_store_sessions_free(s, n);
	if (want != 0 && *out == 0) {
		cli_errorf("suite: --baseline: no suite session %lld", want);
		return PR_EXIT_USAGE;
	}
	return PR_EXIT_OK;
}

/* The mean of n values. */
static double
mean_of(const double *v, size_t n)
{
	double m = 0;
	size_t i;

	for (i = 0; i < n; i++)
		m += (v[i] - m) / (double)(i + 1);
	return m;
}

/*
 * The session-level table: for every figure of this run, the means of
 * the earlier sessions hist (oldest first) against this session's mean
 * by the prediction test (perfreg/nested.h), Holm across figures.
 */
static int
session_table(struct pr_store *st, const int64_t *hist, size_t nh,
    const char *nname, const struct pr_suite_result *r, size_t n, int json,
    int gate, struct pr_buf *out, int *gated)
{
	struct pr_dataset hd[HISTORY_MAX];
	struct pr_report_metric *rm = NULL;
	struct pr_comparison *cmp = NULL;
	struct pr_verdict_opts vo;
	struct pr_report report;
	struct collect c;
	struct pr_error err;
	const struct pr_metric *m, *hm;
	double *bm = NULL, *xs = NULL;
	char bname[96], words[96];
	size_t i, k, h, nm = 0, total = 0, kk, holm = 0;
	int rc = PR_EXIT_INTERNAL;

	*gated = PR_EXIT_OK;
	pr_error_clear(&err);
	pr_verdict_opts_init(&vo);
	for (h = 0; h < nh; h++)
		pr_dataset_init(&hd[h]);
	for (h = 0; h < nh; h++) {
		c.d = &hd[h];
		c.r = r;
		c.n = n;
		if (pr_store_each_run(st, hist[h], collect_run, &c, &err) !=
		    PR_OK) {
			cli_errorf("suite: session %lld: %s",
			    (long long)hist[h], err.msg);
			rc = PR_EXIT_USAGE;
			goto out;
		}
	}
	for (i = 0; i < n; i++)
		total += r[i].data.n;
	rm = calloc(total + 1, sizeof(*rm));
	cmp = calloc(total + 1, sizeof(*cmp));
	bm = calloc((total + 1) * nh, sizeof(*bm));
	xs = calloc(total + 1, sizeof(*xs));
	if (rm == NULL || cmp == NULL || bm == NULL || xs == NULL) {
		cli_errorf("out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < r[i].data.n; k++) {
			m = &r[i].data.metrics[k];
			if (m->values.n == 0)
				continue;
			for (h = 0, kk = 0; h < nh; h++) {
				hm = pr_dataset_find(&hd[h], m->name);
				if (hm != NULL && hm->values.n > 0)
					bm[nm * nh + kk++] =
					    mean_of(hm->values.v, hm->values.n);
			}
			if (kk < 2)
				continue;
			xs[nm] = mean_of(m->values.v, m->values.n);
			if (pr_nested_predict(&bm[nm * nh], kk, xs[nm],
				m->better, &vo, &cmp[nm], &err) != PR_OK) {
				cli_errorf("suite: %s: %s", m->name, err.msg);
				rc = PR_EXIT_USAGE;
				goto out;
			}
			rm[nm].name = m->name;
			rm[nm].unit = m->unit;
			rm[nm].base_values = &bm[nm * nh];
			rm[nm].base_n = kk;
			rm[nm].new_values = &xs[nm];
			rm[nm].new_n = 1;
			nm++;
		}
	}
	if (nm == 0) {
		rc = PR_EXIT_OK;
		goto out;
	}
	if (nm > 1)
		pr_compare_holm(cmp, nm, &vo);
	for (i = 0; i < nm; i++) {
		rm[i].cmp = cmp[i];
		if (cmp[i].tested && (size_t)cmp[i].holm_m > holm)
			holm = (size_t)cmp[i].holm_m;
		if (cmp[i].verdict != PR_VERDICT_REGRESSION)
			continue;
		*gated = PR_EXIT_REGRESSION;
		if (!gate)
			continue;
		pr_report_change_words(words, sizeof(words), cmp[i].change_pct,
		    cmp[i].better, rm[i].name, rm[i].unit);
		cli_errorf("regression in '%s': %s", rm[i].name, words);
	}
	snprintf(bname, sizeof(bname), "%zu sessions, %lld to %lld", nh,
	    (long long)hist[0], (long long)hist[nh - 1]);
	memset(&report, 0, sizeof(report));
	report.base_source = bname;
	report.new_source = nname;
	report.conf = vo.conf;
	report.equivalence_pct = vo.equivalence_pct;
	report.holm_m = holm;
	report.metrics = rm;
	report.n = nm;
	report.units = "sessions";
	if (pr_report_compare(out, &report,
		json ? PR_REPORT_JSON : PR_REPORT_TEXT, &err) != PR_OK) {
		cli_error(&err);
		goto out;
	}
	rc = PR_EXIT_OK;
out:
	for (h = 0; h < nh; h++)
		pr_dataset_release(&hd[h]);
	free(rm);
	free(cmp);
	free(bm);
	free(xs);
	return rc;
}

/* The comparison with the baseline and the environment diff. */
static int
against_baseline(struct pr_store *st, const int64_t *hist, size_t nhist,
    int64_t session, const struct pr_suite_result *r, size_t n,
    const struct pr_env *env, int json, int gate, json_t *root,
    struct pr_buf *out, int *gated)
{
	int64_t base = hist[nhist - 1];
	struct pr_dataset bd, nd;
	struct pr_buf rep = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_env benv;
	struct pr_envdiff diff;
	struct collect c;
	struct pr_error err;
	json_error_t je;
	json_t *j;
	char bname[64], nname[64];
	size_t i, k, j2;
	int found = 0, rc = PR_EXIT_INTERNAL;

	pr_dataset_init(&bd);
	pr_dataset_init(&nd);
	pr_env_init(&benv);
	memset(&diff, 0, sizeof(diff));
	pr_error_clear(&err);
	c.d = &bd;
	c.r = r;
	c.n = n;
	if (pr_store_each_run(st, base, collect_run, &c, &err) != PR_OK ||
	    pr_store_session_env(st, base, &benv, &found, &err) != PR_OK) {
		cli_errorf("suite: baseline session %lld: %s", (long long)base,
		    err.msg);
		rc = PR_EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < r[i].data.n; k++)
			for (j2 = 0; j2 < r[i].data.metrics[k].values.n; j2++)
				if (pr_dataset_add(&nd,
					r[i].data.metrics[k].name,
					r[i].data.metrics[k].unit,
					r[i].data.metrics[k].better,
					r[i].data.metrics[k].values.v[j2],
					&err) != PR_OK)
					goto out;
	snprintf(bname, sizeof(bname), "session %lld", (long long)base);
	if (session != 0)
		snprintf(nname, sizeof(nname), "session %lld",
		    (long long)session);
	else
		snprintf(nname, sizeof(nname), "this run");
	if (bd.n == 0 || nd.n == 0) {
		rc = PR_EXIT_OK;
		goto out;
	}
	if (nhist >= 2) {
		if (!json &&
		    pr_buf_addf(out, &err,
			"\nagainst the %zu earlier "
			"suite sessions of this host (%lld to %lld): the unit "
			"is "
			"the session, each one's mean a value, and the test "
			"asks "
			"whether this session's mean lies outside their "
			"spread:\n\n",
			nhist, (long long)hist[0],
			(long long)hist[nhist - 1]) != PR_OK)
			goto out;
		if ((rc = session_table(st, hist, nhist, nname, r, n, json,
			 gate, json ? &rep : out, gated)) != PR_EXIT_OK)
			goto out;
	} else {
		if (!json &&
		    pr_buf_addf(out, &err,
			"\nagainst the baseline, "
			"%s.\nWARNING: one earlier session: its samples and "
			"this session's are compared as if independent, but "
			"the "
			"samples of a session share its load, frequency and "
			"cache state, so this table overstates how sure the "
			"verdicts are; from the third session on, perfreg "
			"compares sessions and knows their noise.\n\n",
			bname) != PR_OK)
			goto out;
		if ((rc = cli_compare_datasets(&bd, &nd, bname, nname,
			 json ? PR_REPORT_JSON : PR_REPORT_TEXT, gate,
			 json ? &rep : out, gated)) != PR_EXIT_OK)
			goto out;
	}
	rc = PR_EXIT_INTERNAL;
	if (json &&
	    ((j = json_loadb(rep.data, rep.len, 0, &je)) == NULL ||
		json_object_set_new(root, "comparison", j) != 0))
		goto out;
	if (found && env != NULL) {
		if (pr_env_diff(&benv, env, &diff, &err) != PR_OK)
			goto out;
		if (json) {
			pr_buf_reset(&rep);
			if (pr_envdiff_to_json(&diff, &rep, &err) != PR_OK ||
			    (j = json_loadb(rep.data, rep.len, 0, &je)) ==
				NULL ||
			    json_object_set_new(root, "env_diff", j) != 0)
				goto out;
		} else if (pr_buf_addf(out, &err,
			       "\nenvironment: what differs "
			       "between %s and %s\n",
			       bname, nname) != PR_OK ||
		    pr_envdiff_format_text(&diff, bname, nname, 20, out,
			&err) != PR_OK) {
			goto out;
		}
	}
	rc = PR_EXIT_OK;
out:
	if (rc == PR_EXIT_INTERNAL)
		cli_errorf("suite: %s",
		    err.msg[0] != '\0' ? err.msg : "out of memory");
	pr_buf_release(&rep);
	pr_envdiff_release(&diff);
	pr_env_release(&benv);
	pr_dataset_release(&bd);
	pr_dataset_release(&nd);
	return rc;
}

static int
select_probes(int argc, char **argv, int first, const struct pr_probe ***out,
    size_t *n)
{
	const struct pr_probe **p;
	size_t k = 0;
	int i;

	for (i = 0; pr_probes[i] != NULL; i++)
		;
	if ((p = calloc((size_t)(i > argc ? i : argc) + 1, sizeof(*p))) ==
	    NULL) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	if (first >= argc) {
		for (i = 0; pr_probes[i] != NULL; i++)
			p[k++] = pr_probes[i];
	}
	for (i = first; i < argc; i++) {
		if ((p[k] = pr_probe_find(argv[i])) == NULL) {
			cli_errorf("suite: no probe '%s' (perfreg suite list "
				   "names them)",
			    argv[i]);
			free(p);
			return PR_EXIT_USAGE;
		}
		k++;
	}
	*out = p;
	*n = k;
	return PR_EXIT_OK;
}

static int
run_suite(struct suite_cli *c, const struct pr_probe **probes, size_t np)
{
	struct pr_suite_result *r = NULL;
	struct pr_buf out = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_store *st = NULL;
	struct pr_env env;
	struct pr_env_opts eo;
	struct pr_error err;
	enum pr_status s;
	json_t *root = NULL, *j;
	int64_t session = 0, base = 0, hist[HISTORY_MAX];
	size_t nr = 0, nhist = 0;
	int rc = PR_EXIT_OK, gated = PR_EXIT_OK, cut = 0;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	pr_env_init(&env);
	pr_error_clear(&err);
	if (!c->no_store &&
	    (rc = cli_store_open("suite", c->db, PR_STORE_CREATE, &st)) !=
		PR_EXIT_OK)
		goto out;
	/* An unknown --baseline is said before the probes run. */
	if (st != NULL && c->baseline != 0 &&
	    (rc = find_baseline(st, 0, c->baseline, "", NULL, 0, &base, NULL,
		 NULL)) != PR_EXIT_OK)
		goto out;
	pr_env_opts_init(&eo);
	if (pr_env_capture(&env, &eo, &err) != PR_OK) {
		cli_error(&err);
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	s = pr_suite_run(probes, np, &c->so, &r, &nr, &err);
	if (c->tty)
		fputs("\r\033[K", stderr);
	if (s != PR_OK) {
		cut = 1;
		if (!interrupted) {
			cli_errorf("suite: %s",
			    pr_error_format(&err, eb, sizeof(eb)));
			if (st != NULL)
				(void)store_results(st, r, nr, &env,
				    c->so.quick, &session, "failed");
			rc = cli_exit_for(s);
			goto out;
		}
		cli_errorf("suite: interrupted; what finished is kept");
	}
	if (st != NULL &&
	    (rc = store_results(st, r, nr, &env, c->so.quick, &session,
		 cut ? "interrupted" : "done")) != PR_EXIT_OK) {
		/* Not stored, but measured: show the figures even so. */
		if (!c->json && figures_text(r, nr, &out, &err) == PR_OK)
			(void)cli_write(&out);
		goto out;
	}
	if (c->json && (root = json_object()) == NULL) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	if (root != NULL) {
		j = figures_json(r, nr);
		if (j == NULL || json_object_set_new(root, "probes", j) != 0 ||
		    json_object_set_new(root, "session",
			session != 0 ? json_integer(session) : json_null()) !=
			0) {
			cli_errorf("out of memory");
			rc = PR_EXIT_INTERNAL;
			goto out;
		}
	} else if (figures_text(r, nr, &out, &err) != PR_OK) {
		cli_error(&err);
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	if (st != NULL && !cut) {
		if ((rc = find_baseline(st, session, c->baseline,
			 c->so.quick ? "quick" : "full", r, nr, &base, hist,
			 &nhist)) != PR_EXIT_OK)
			goto out;
		if (base != 0)
			rc = against_baseline(st, hist, nhist, session, r, nr,
			    &env, c->json, c->gate, root, &out, &gated);
		else if (!c->json)
			rc =
			    pr_buf_addf(&out, &err,
				"\nstored as session "
				"%lld, the baseline of this host: run `perfreg "
				"suite` again after an update to see what "
				"changed\n",
				(long long)session) == PR_OK
			    ? PR_EXIT_OK
			    : PR_EXIT_INTERNAL;
		if (rc != PR_EXIT_OK)
			goto out;
		if (root != NULL &&
		    json_object_set_new(root, "baseline",
			base != 0 ? json_integer(base) : json_null()) != 0) {
			rc = PR_EXIT_INTERNAL;
			goto out;
		}
	}
	if (root != NULL) {
		if ((rc = cli_write_json(root)) != PR_EXIT_OK)
			goto out;
	} else if ((rc = cli_write(&out)) != PR_EXIT_OK) {
		goto out;
	}
	rc = cut ? EXIT_INTERRUPTED : c->gate ? gated : PR_EXIT_OK;
out:
	json_decref(root);
	pr_suite_results_free(r, nr);
	pr_env_release(&env);
	pr_buf_release(&out);
	pr_store_close(st);
	return rc;
}

static int
run_ab(struct suite_cli *c, int argc, char **argv, int first)
{
	struct pr_suite_result *r = NULL;
	struct pr_buf out = PR_BUF_INIT(OUTPUT_MAX);
	const struct pr_probe *p;
	struct pr_error err;
	char an[128], bn[128];
	enum pr_status s;
	int rc, gated;

	if (argc - first != 1 || c->a == NULL || c->b == NULL) {
		cli_errorf("suite ab: expected one probe, --a and --b");
		return cli_usage(&cmd_suite_entry);
	}
	if ((p = pr_probe_find(argv[first])) == NULL) {
		cli_errorf("suite ab: no probe '%s' (perfreg suite list names "
			   "them)",
		    argv[first]);
		return PR_EXIT_USAGE;
	}
	if (!c->budget_set)
		c->so.budget_s = c->so.quick ? 40 : 300;
	pr_error_clear(&err);
	s = pr_suite_ab(p, c->a, c->b, &c->so, &r, &err);
	if (c->tty)
		fputs("\r\033[K", stderr);
	if (s != PR_OK) {
		cli_errorf("suite ab: %s", err.msg);
		pr_suite_results_free(r, r != NULL ? 2 : 0);
		return interrupted ? EXIT_INTERRUPTED : cli_exit_for(s);
	}
	snprintf(an, sizeof(an), "A: %s %s", p->name, c->a);
	snprintf(bn, sizeof(bn), "B: %s %s", p->name, c->b);
	if (!c->json &&
	    pr_buf_addf(&out, &err,
		"%s, interleaved in %zu "
		"rounds (%.1f s); B against A:\n\n",
		p->name, r[0].samples, r[0].elapsed_s) != PR_OK) {
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	rc = cli_compare_datasets(&r[0].data, &r[1].data, an, bn,
	    c->json ? PR_REPORT_JSON : PR_REPORT_TEXT, c->gate, &out, &gated);
	if (rc == PR_EXIT_OK)
		rc = cli_write(&out);
	if (rc == PR_EXIT_OK && c->gate)
		rc = gated;
out:
	pr_buf_release(&out);
	pr_suite_results_free(r, 2);
	return rc;
}

static int
exec_suite(int argc, char **argv)
{
	const struct pr_probe **probes = NULL;
	struct suite_cli c;
	struct sigaction sa, old;
	const char *sub = NULL;
	size_t np = 0;
	int first, rc;

	memset(&c, 0, sizeof(c));
	pr_suite_opts_init(&c.so);
	if (argc > 1 &&
	    (strcmp(argv[1], "list") == 0 || strcmp(argv[1], "run") == 0 ||
		strcmp(argv[1], "ab") == 0)) {
		sub = argv[1];
		argc--;
		argv++;
	}
	if ((first = parse_opts(argc, argv, &c)) < 0)
		return cli_usage(&cmd_suite_entry);
	if (sub != NULL && strcmp(sub, "list") == 0) {
		if (first != argc) {
			cli_errorf("suite list: unexpected argument '%s'",
			    argv[first]);
			return cli_usage(&cmd_suite_entry);
		}
		return list_probes();
	}
	if ((c.a != NULL || c.b != NULL) &&
	    (sub == NULL || strcmp(sub, "ab") != 0)) {
		cli_errorf("suite: --a and --b go with `suite ab`");
		return cli_usage(&cmd_suite_entry);
	}
	if (sub == NULL && first != argc) {
		cli_errorf("suite: unexpected argument '%s' (`suite run "
			   "PROBE...` runs some probes)",
		    argv[first]);
		return cli_usage(&cmd_suite_entry);
	}
	if (sub != NULL && strcmp(sub, "run") == 0 && first == argc) {
		cli_errorf("suite run: expected at least one probe");
		return cli_usage(&cmd_suite_entry);
	}
	c.tty = isatty(STDERR_FILENO);
	c.so.on_sample = on_sample;
	c.so.arg = &c;
	interrupted = 0;
	c.so.cancel = &interrupted;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGINT, &sa, &old);
	if (sub != NULL && strcmp(sub, "ab") == 0) {
		rc = run_ab(&c, argc, argv, first);
	} else if ((rc = select_probes(argc, argv, first, &probes, &np)) ==
	    PR_EXIT_OK) {
		rc = run_suite(&c, probes, np);
	}
	sigaction(SIGINT, &old, NULL);
	free(probes);
	return rc;
}

const struct cmd_entry cmd_suite_entry = { .name = "suite",
	.usage = usage,
	.help = help,
	.exec = exec_suite };
