/*
 * cli/cmd_suite.c - `perfreg suite`: runs the built-in probes
 * (perfreg/probe.h) with adaptive repetition (perfreg/suite.h), in
 * several fresh processes (workers: perfreg itself, `suite run
 * --worker`), stores the session with its environment snapshot in the
 * results database (campaign "suite", one variant per probe, one run per
 * sample, its process as its round), and
 * compares it with this host's previous suite session: the verdict
 * table, then what differs in the environment.  `suite list` names the
 * probes; `suite run PROBE...` runs some; `suite ab PROBE --a X --b Y`
 * runs two variants of one probe interleaved in this boot and compares
 * them.  With --monitor SET the monitors (perfreg/monitor.h) are read
 * around each sample, stored with it, and the figures that changed are
 * explained by them (perfreg/explain.h, pr_report_suite_explain).
 *
 * Exit status: 0 done, 1 a regression against the baseline with
 * --fail-on-regression, 2 bad usage or a probe that failed, 3 internal
 * error, 130 interrupted (what finished is stored).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_html.h"
#include "cli/cmd.h"
#include "perfreg/env.h"
#include "perfreg/explain.h"
#include "perfreg/history.h"
#include "perfreg/monitor.h"
#include "perfreg/nested.h"
#include "perfreg/numparse.h"
#include "perfreg/probe.h"
#include "perfreg/report.h"
#include "perfreg/report_cp.h"
#include "perfreg/report_model.h"
#include "perfreg/report_suite.h"
#include "perfreg/spawn.h"
#include "perfreg/store.h"
#include "perfreg/suite.h"
#include "perfreg/verdict.h"
#include "core/bug.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_suite_entry;
extern const struct cmd_entry cmd_suite_run_entry;
extern const struct cmd_entry cmd_suite_list_entry;
extern const struct cmd_entry cmd_suite_history_entry;
extern const struct cmd_entry cmd_suite_ab_entry;

#define EXIT_INTERRUPTED 130
#define OUTPUT_MAX ((size_t)256 << 20)
#define SUITE_CAMPAIGN "suite"
#define HOST_MAX 256
/* Earlier sessions a suite is compared with, at most. */
#define HISTORY_MAX 20
#define BOOT_MAX 64
#define BASELINE_MAX 200
/* suite ab: processes at most and by default, rounds a process. */
#define AB_PROCESSES_MAX 64
#define AB_PROCESSES 10
#define AB_ROUNDS 4
/* suite ab: what a best-sample probe's process value is. */
#define AB_BEST_WORDS "the smallest time, the largest throughput"
/* suite: processes by default (issue 10 item 7, bench/suite-sim's
 * process level: 4 processes kept A/A near 0.5% where one gave 12-14%
 * with slow processes). */
#define SUITE_PROCESSES 4
/* What a probe needs at the least (set-up and the floor of samples) on
 * a 2-core VM, full and --quick: a smaller budget cannot be held. */
#define PROBE_FLOOR_S 1.5
#define PROBE_FLOOR_QUICK_S 0.5
/* A suite worker that hangs before it is known to be late is killed
 * after this many times the budget and this many seconds. */
#define WORKER_TIMEOUT_SHARE 4
#define WORKER_TIMEOUT_S 300
/* A process's measured floor varies from process to process on a
 * loaded machine (at load 24-29 under nice 19 a second process took
 * far longer than the first): the processes left must fit this many
 * times it. */
#define FLOOR_SAFETY 1.5
/* What starting one more process (a worker) costs. */
#define PROCESS_START_S 0.1
/* How often the parent looks at a running worker, s. */
#define WATCH_EVERY_S 0.25
/* The margin promised past the budget: MARGIN_S plus MARGIN_SHARE. */
#define MARGIN_S 0.5
#define MARGIN_SHARE 0.05

struct suite_cli {
	struct pr_suite_opts so;
	int budget_set, json, no_store, gate, worker, rounds_set, all;
	int markdown, csv, processes_set;
	double t_start; /* when the command began */
	size_t processes;
	size_t procs_run;  /* suite: the processes run */
	double proc_floor; /* suite: a process's measured floor, s */
	double share;      /* suite run --worker: its budget, s */
	double budget;     /* suite: the budget asked for, s */
	int procs_stopped; /* suite: the last process was stopped */
	/* suite: what is kept of the budget for storing and comparing
	 * (pr_suite_reserve), at first and at the pace measured so far
	 * (0: not yet), and the CPU seconds they then took. */
	double reserve0_s, reserve_s, pace, store_cpu_s;
	size_t earlier; /* suite: sessions stored before this one */
	int late_said;
	const char *baseline;
	const char *db, *a, *b;
	const char *html; /* --html file */
	/* --monitor: the set as given (workers get it too) and the
	 * monitor of this process's samples. */
	const char *monitor_spec;
	struct pr_monitor *mon;
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
set_baseline(void *base, const struct opt *o, const char *arg)
{
	struct suite_cli *c = base;

	(void)o;
	if (arg[0] == '\0' || strlen(arg) > BASELINE_MAX) {
		cli_errorf("suite: --baseline: expected a session, a "
			   "configuration or a tag KEY=VALUE");
		return -1;
	}
	c->baseline = arg;
	return 0;
}

/* The rows the tables below share. */
#define ROW_QUICK \
	OPT_FLAG(0, "quick", "smaller sizes and a 40 s budget", \
	    struct suite_cli, so.quick, 1)
#define ROW_BUDGET \
	OPT_DOUBLE(0, "budget", "s", \
	    "time budget in seconds (default 480; --quick 40; suite ab 300)", \
	    struct suite_cli, so.budget_s, 1, 86400, 0, NULL)
#define ROW_CPU \
	OPT_INT(0, "cpu", "n", \
	    "pin the probes to CPU n (default: not pinned)", struct suite_cli, \
	    so.cpu, 0, 65535, "a CPU number")
#define ROW_DB \
	OPT_STRING(0, "db", "target", \
	    "the database: a file (SQLite) or postgresql://...", \
	    struct suite_cli, db, 0, NULL)
#define ROW_FAIL \
	OPT_FLAG(0, "fail-on-regression", \
	    "exit 1 when a figure regressed against the baseline", \
	    struct suite_cli, gate, 1)
#define ROW_ALL \
	OPT_FLAG(0, "all", "print every figure, not only those that changed", \
	    struct suite_cli, all, 1)
#define ROW_MARKDOWN \
	OPT_FLAG(0, "markdown", \
	    "the comparison as Markdown, for a bug report", struct suite_cli, \
	    markdown, 1)
#define ROW_CSV \
	OPT_FLAG(0, "csv", "the comparison as CSV, every figure", \
	    struct suite_cli, csv, 1)
#define ROW_WORKER \
	{ \
		.kind = OPTK_FLAG, .lname = "worker", .help = "", \
		.offset = offsetof(struct suite_cli, worker), .ival = 1, \
		.flags = OPT_HIDDEN \
	}
#define ROW_JSON \
	OPT_FLAG(0, "json", "one JSON object with every figure", \
	    struct suite_cli, json, 1)
#define ROW_MONITOR \
	OPT_STRING(0, "monitor", "set", \
	    "read monitors around each sample and explain the figures that " \
	    "changed by them: a set as run --monitor takes (default none)", \
	    struct suite_cli, monitor_spec, OPT_NONEMPTY, "a monitor set")

static const struct opt options[] = {
	ROW_QUICK,
	ROW_BUDGET,
	ROW_CPU,
	OPT_DOUBLE(0, "target", "pct",
	    "stop a probe when every figure is known to +-pct percent (95% "
	    "interval; default 1; 0: use the budget)",
	    struct suite_cli, so.target_pct, 0, 100, 0, NULL),
	OPT_CALL(0, "baseline", "x",
	    "compare with this stored session, these sessions of a "
	    "configuration, or the sessions with tag key=value (default: the "
	    "previous configuration's sessions, or this one's, but those "
	    "starved of CPU and those whose own check called a figure)",
	    set_baseline, 0, 0),
	OPT_FLAG(0, "no-store", "store nothing, compare with nothing",
	    struct suite_cli, no_store, 1),
	ROW_DB,
	ROW_FAIL,
	ROW_ALL,
	ROW_MARKDOWN,
	ROW_CSV,
	ROW_JSON,
	CLI_OPT_HTML(struct suite_cli, html),
	ROW_MONITOR,
	OPT_INT(0, "processes", "p",
	    "run the probes in p fresh processes, each a unit (default 4)",
	    struct suite_cli, processes, 1, PR_SUITE_PROCESSES_MAX, NULL),
	/* A worker of the suite and its share of the budget: perfreg runs
	 * itself so (run_processes). */
	ROW_WORKER,
	OPT_DOUBLE(0, "share", "s", "", struct suite_cli, share, 0.001, 86400,
	    OPT_HIDDEN, NULL),
	OPT_END(),
};

static const struct opt list_options[] = {
	OPT_END(),
};

static const struct opt history_options[] = {
	ROW_DB,
	ROW_JSON,
	OPT_END(),
};

static const struct opt ab_options[] = {
	OPT_STRING(0, "a", "x", "variant (or size) A", struct suite_cli, a,
	    OPT_INSYN, NULL),
	OPT_STRING(0, "b", "y", "variant (or size) B", struct suite_cli, b,
	    OPT_INSYN, NULL),
	OPT_INT(0, "processes", "p", "processes, each a unit (default 10)",
	    struct suite_cli, processes, 2, AB_PROCESSES_MAX, NULL),
	OPT_INT('n', NULL, "rounds", "rounds of A and B a process (default 4)",
	    struct suite_cli, so.rounds, 1, 1000000, NULL),
	OPT_INT(0, "seed", "n", "seed of the order in each round",
	    struct suite_cli, so.seed, 0, UINT64_MAX, NULL),
	ROW_QUICK,
	ROW_BUDGET,
	ROW_CPU,
	OPT_FLAG(0, "fail-on-regression",
	    "exit 1 when a figure of --b regressed against --a",
	    struct suite_cli, gate, 1),
	ROW_ALL,
	ROW_MARKDOWN,
	ROW_CSV,
	ROW_JSON,
	CLI_OPT_HTML(struct suite_cli, html),
	ROW_MONITOR,
	/* A worker of suite ab: perfreg runs itself so (ab_processes). */
	ROW_WORKER,
	OPT_END(),
};

static int
parse_opts(const struct cmd_entry *e, int argc, char **argv,
    struct suite_cli *c)
{
	uint64_t seen;
	int first;

	if ((first = opt_parse(e, argc, argv, c, &seen)) < 0)
		return -1;
	c->budget_set = (seen & opt_bit(e->opts, "budget")) != 0;
	c->rounds_set = (seen & opt_bit(e->opts, "n")) != 0;
	c->processes_set = (seen & opt_bit(e->opts, "processes")) != 0;
	if (c->no_store && (c->baseline != NULL || c->db != NULL || c->gate)) {
		cli_usage_error(e,
		    "--no-store does not go with --baseline, --db or "
		    "--fail-on-regression");
		return -1;
	}
	if (!c->budget_set && c->so.quick)
		c->so.budget_s = 40;
	/* Before the probes: a typo in --html costs nothing. */
	if (!c->worker && cli_html_check(e->name, c->html) != PR_EXIT_OK)
		return -1;
	/* A CPU the probes cannot be pinned to is said before any runs
	 * (every probe would be skipped). */
	if (c->so.cpu >= 0 && !c->worker) {
		struct pr_error err;

		pr_error_clear(&err);
		if (pr_suite_cpu_check(c->so.cpu, &err) != PR_OK) {
			cli_errorf("%s: --cpu: %s", e->name, err.msg);
			return -1;
		}
	}
	return first;
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

/*
 * A report while it is built and rendered: the model, and what its
 * sections borrow (the comparison and its figures, the environment diff,
 * the base session's snapshot and the names of the two sessions).
 */
struct suite_report {
	struct pr_report_model m;
	struct pr_suite_cmp sc;
	struct pr_suite_figure *fig;
	struct pr_env benv;
	struct pr_envdiff diff;
	char ea[64], eb[64];
};

static void
suite_report_init(struct suite_report *r)
{
	memset(r, 0, sizeof(*r));
	pr_report_model_init(&r->m);
	pr_env_init(&r->benv);
}

static void
suite_report_release(struct suite_report *r)
{
	pr_report_model_release(&r->m);
	pr_suite_cmp_release(&r->sc);
	free(r->fig);
	pr_envdiff_release(&r->diff);
	pr_env_release(&r->benv);
	memset(r, 0, sizeof(*r));
}

/* 1 when a probe of r[0..n) took a sample. */
static int
any_measured(const struct pr_suite_result *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (r[i].skipped == NULL && r[i].samples > 0)
			return 1;
	return 0;
}

/* Renders the model as the options ask and writes it out; with --html
 * also (or with "-" instead) the page, titled title. */
static int
suite_report_write(const struct suite_cli *c, struct suite_report *rep,
    const char *title)
{
	struct pr_buf out = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_error err;
	int rc;

	if (c->html != NULL &&
	    ((rc = cli_html_model("suite", c->html, &rep->m, title)) !=
		    PR_EXIT_OK ||
		strcmp(c->html, "-") == 0))
		return rc;
	pr_error_clear(&err);
	if (pr_report_model_render(&out, &rep->m,
		c->json           ? PR_REPORT_JSON
		    : c->csv      ? PR_REPORT_CSV
		    : c->markdown ? PR_REPORT_MARKDOWN
				  : PR_REPORT_TEXT,
		&err) != PR_OK) {
		cli_error(&err);
		pr_buf_release(&out);
		return PR_EXIT_INTERNAL;
	}
	rc = cli_write(&out);
	pr_buf_release(&out);
	return rc;
}

/* Adds a paragraph (see pr_report_suite_para); PR_EXIT_*. */
static int
para(struct suite_report *rep, const char *key, int flags, int blank,
    size_t indent, const char *text)
{
	struct pr_error err;

	pr_error_clear(&err);
	if (pr_report_suite_para(&rep->m, key, flags, blank, indent, text,
		&err) != PR_OK) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	return PR_EXIT_OK;
}

/* The most history notes the text shows; the rest are counted. */
#define HISTORY_NOTES_SHOWN 8

/*
 * What the session just stored says about the suite's history of each
 * figure (the session is a point, as in `perfreg history suite`): the
 * changes it confirms and the ones it may start (perfreg/report_cp.h's
 * pr_history_note), as a section of text (at most HISTORY_NOTES_SHOWN
 * lines and a count of the rest) and, in JSON, an array "history" of
 * every line.  A history that cannot be read is left out: the session is
 * stored, and the note is a bonus.
 */
static int
history_notes(struct pr_store *st, int64_t session,
    const struct pr_suite_result *r, size_t n, struct suite_report *rep)
{
	struct pr_buf notes = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_buf text = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_history_query q;
	struct pr_history *hs = NULL;
	struct pr_store_session_info *ss = NULL;
	struct pr_store_variant_info *vs = NULL;
	struct pr_error err;
	const char **names = NULL;
	size_t i, j, lines = 0, nss = 0, nvs = 0;
	char *p, *e;
	int rc = PR_EXIT_OK;
	char what[300];

	pr_error_clear(&err);
	/* The campaign's sessions and variants listed once for all the
	 * probes' queries (each lists them itself when this fails). */
	if (pr_store_sessions(st, pr_str_c(SUITE_CAMPAIGN), &ss, &nss, &err) !=
		PR_OK ||
	    pr_store_variants(st, pr_str_c(SUITE_CAMPAIGN), &vs, &nvs, &err) !=
		PR_OK)
		pr_error_clear(&err);
	for (i = 0; i < n && rc == PR_EXIT_OK; i++) {
		size_t k = r[i].data.n;

		if (r[i].skipped != NULL || r[i].samples == 0 || k == 0)
			continue;
		names = calloc(k, sizeof(*names));
		hs = calloc(k, sizeof(*hs));
		if (names == NULL || hs == NULL) {
			rc = PR_EXIT_INTERNAL;
			break;
		}
		for (j = 0; j < k; j++)
			names[j] = r[i].data.metrics[j].name;
		pr_history_query_init(&q, pr_str_c(SUITE_CAMPAIGN));
		q.variant = r[i].label;
		if (ss != NULL && vs != NULL) {
			q.sessions = ss;
			q.nsessions = nss;
			q.variants = vs;
			q.nvariants = nvs;
		}
		if (pr_history_collect_many(st, &q, names, k, hs, &err) ==
		    PR_OK) {
			for (j = 0; j < k && rc == PR_EXIT_OK; j++) {
				/* A figure's name starts with its probe's. */
				snprintf(what, sizeof(what), "%.250s",
				    names[j]);
				if (pr_history_note(&hs[j], session, what, NULL,
					&notes, &err) == PR_ENOMEM)
					rc = PR_EXIT_INTERNAL;
			}
			for (j = 0; j < k; j++)
				pr_history_release(&hs[j]);
		}
		free(hs);
		free(names);
		hs = NULL;
		names = NULL;
	}
	free(hs);
	free(names);
	if (ss != NULL)
		pr_store_sessions_free(ss, nss);
	if (vs != NULL)
		pr_store_variants_free(vs, nvs);
	if (rc == PR_EXIT_OK && pr_buf_adds(&notes, "", &err) != PR_OK)
		rc = PR_EXIT_INTERNAL;
	if (rc == PR_EXIT_OK &&
	    pr_report_model_list(&rep->m, "history", 0, &err) != PR_OK)
		rc = PR_EXIT_INTERNAL;
	for (p = notes.data;
	     rc == PR_EXIT_OK && p != NULL && (e = strchr(p, '\n')) != NULL;
	     p = e + 1) {
		*e = '\0';
		if (pr_report_suite_para(&rep->m, "history",
			PR_SECTION_LIST | PR_SECTION_NO_TEXT, 0, 0, p,
			&err) != PR_OK)
			rc = PR_EXIT_INTERNAL;
		else if (lines < HISTORY_NOTES_SHOWN &&
		    pr_buf_addf(&text, &err, "%s  %s\n",
			lines == 0 ? "history:\n" : "", p) != PR_OK)
			rc = PR_EXIT_INTERNAL;
		lines++;
	}
	if (rc == PR_EXIT_OK && lines > HISTORY_NOTES_SHOWN &&
	    pr_buf_addf(&text, &err,
		"  and %zu more (perfreg history suite --variant PROBE "
		"--metric FIGURE)\n",
		lines - HISTORY_NOTES_SHOWN) != PR_OK)
		rc = PR_EXIT_INTERNAL;
	if (rc == PR_EXIT_OK && text.len > 0 &&
	    (pr_buf_adds(&text, "", &err) != PR_OK ||
		pr_report_suite_para(&rep->m, NULL, 0, 1, 4, text.data, &err) !=
		    PR_OK))
		rc = PR_EXIT_INTERNAL;
	if (rc != PR_EXIT_OK)
		cli_errorf("out of memory");
	pr_buf_release(&notes);
	pr_buf_release(&text);
	return rc;
}

/* Adds sample k of every figure of d (that has one) to one. */
static enum pr_status
add_sample(struct pr_dataset *one, const struct pr_dataset *d, size_t k,
    struct pr_error *err)
{
	const struct pr_metric *m;
	size_t j;

	for (j = 0; j < d->n; j++) {
		m = &d->metrics[j];
		if (k < m->values.n &&
		    pr_dataset_add(one, m->name, m->unit, m->better,
			m->values.v[k], err) != PR_OK)
			return PR_ENOMEM;
	}
	return PR_OK;
}

/*
 * A store another writer holds locked (or that cannot be written) is
 * said before the probes run, not after them (review of session 15: a
 * full suite's 8 minutes measured, then thrown away): a write
 * transaction begun and rolled back.
 */
static int
store_writable(struct pr_store *st)
{
	struct pr_error err;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	pr_error_clear(&err);
	if (pr_store_begin(st, &err) != PR_OK) {
		cli_errorf("suite: cannot store the session: %s; nothing "
			   "measured",
		    pr_error_format(&err, eb, sizeof(eb)));
		return PR_EXIT_USAGE;
	}
	pr_store_rollback(st);
	return PR_EXIT_OK;
}

/* Stores the results as a session of campaign "suite". */
static int
store_results(struct pr_store *st, const struct pr_suite_result *r, size_t n,
    const struct pr_env *env, int quick, const char *config, double pace,
    int64_t *session, const char *status)
{
	struct pr_store_session_new sn;
	struct pr_store_tag tag[3];
	struct pr_store_run sr;
	struct pr_dataset one;
	struct pr_error err;
	char host[HOST_MAX], boot[BOOT_MAX], pb[32];
	struct timespec ts;
	int64_t vid;
	double elapsed = 0;
	size_t i, k;
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
	tag[0].key = pr_str_c("suite");
	tag[0].value = pr_str_c(quick ? "quick" : "full");
	tag[1].key = pr_str_c("config");
	tag[1].value = pr_str_c(config);
	/* The probes' pace, for the pace rule of later sessions
	 * (pr_suite_cmp_pace); none when not measured. */
	snprintf(pb, sizeof(pb), "%.6g", pace);
	tag[2].key = pr_str_c("pace");
	tag[2].value = pr_str_c(pb);
	sn.tags = tag;
	sn.ntags = pace > 0 ? 3 : 2;
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
			/* --monitor: the sample's monitor figures too, kept
			 * apart by their names (mon.*). */
			if (add_sample(&one, &r[i].data, k, &err) != PR_OK ||
			    add_sample(&one, &r[i].monitors, k, &err) !=
				PR_OK) {
				pr_dataset_release(&one);
				goto fail;
			}
			memset(&sr, 0, sizeof(sr));
			sr.variant = vid;
			/* The round is the sample's process (of one
			 * process, each sample a round of its own, as
			 * before processes): loading groups by it. */
			sr.round = r[i].process != NULL ? r[i].process[k] : k;
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

/* A session's runs grouped by round (its process, or each sample its
 * own round in a session of one process). */
struct collect {
	const struct pr_suite_result *r; /* only these probes' runs */
	size_t n;
	struct pr_dataset *unit;
	size_t *round, nunits, cap, last;
};

static void
collect_release(struct collect *c)
{
	size_t i;

	for (i = 0; i < c->nunits; i++)
		pr_dataset_release(&c->unit[i]);
	free(c->unit);
	free(c->round);
	c->unit = NULL;
	c->round = NULL;
	c->nunits = c->cap = c->last = 0;
}

/* The dataset of round `round`, made when new; NULL when out of
 * memory. */
static struct pr_dataset *
collect_unit(struct collect *c, size_t round)
{
	size_t i;

	if (c->last < c->nunits && c->round[c->last] == round)
		return &c->unit[c->last];
	for (i = 0; i < c->nunits; i++)
		if (c->round[i] == round)
			return &c->unit[c->last = i];
	if (c->nunits == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16, *nr;
		struct pr_dataset *nu;

		if ((nr = realloc(c->round, cap * sizeof(*nr))) == NULL)
			return NULL;
		c->round = nr;
		if ((nu = realloc(c->unit, cap * sizeof(*nu))) == NULL)
			return NULL;
		c->unit = nu;
		c->cap = cap;
	}
	c->round[c->nunits] = round;
	pr_dataset_init(&c->unit[c->nunits]);
	c->last = c->nunits;
	return &c->unit[c->nunits++];
}

static int
collect_run(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct collect *c = arg;
	struct pr_dataset *d;
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
	if ((d = collect_unit(c, r->round)) == NULL) {
		pr_error_set(err, PR_ENOMEM, "out of memory");
		return 1;
	}
	for (i = 0; i < r->nm; i++)
		if (!pr_monitor_is_metric(r->metric_names[i]) &&
		    pr_dataset_add(d, r->metric_names[i], r->metric_units[i],
			r->metric_better[i], r->metric_values[i], err) != PR_OK)
			return 1;
	return 0;
}

/* The value of session s's tag key, or NULL. */
static const struct pr_str *
tag_of(const struct pr_store_session_info *s, const char *key)
{
	size_t i, len = strlen(key);

	for (i = 0; i < s->ntags; i++)
		if (s->tags[i].key.n == len &&
		    memcmp(s->tags[i].key.p, key, len) == 0)
			return &s->tags[i].value;
	return NULL;
}

static int
str_is(const struct pr_str *s, const char *c)
{
	return s != NULL && s->n == strlen(c) && memcmp(s->p, c, s->n) == 0;
}

/* 1 when session s ran every probe of r that ran now. */
static int
ran_probes(const struct pr_store_session_info *s,
    const struct pr_suite_result *r, size_t n)
{
	size_t i, k;

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
 * This database's suite sessions with their configurations: the tag
 * config= where the session has one, else the id computed from its
 * stored snapshot (sessions stored before configurations were tagged).
 */
struct history {
	struct pr_store_session_info *s;
	char (*config)[PR_SUITE_CONFIG_LEN];
	size_t n;
};

static void
history_free(struct history *h)
{
	pr_store_sessions_free(h->s, h->n);
	free(h->config);
	memset(h, 0, sizeof(*h));
}

static int
history_load(struct pr_store *st, struct history *h)
{
	const struct pr_str *t;
	struct pr_env e;
	struct pr_error err;
	enum pr_status ps;
	size_t i;
	int found;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	memset(h, 0, sizeof(*h));
	pr_error_clear(&err);
	ps =
	    pr_store_sessions(st, pr_str_c(SUITE_CAMPAIGN), &h->s, &h->n, &err);
	if (ps == PR_ENOTFOUND)
		return PR_EXIT_OK;
	if (ps != PR_OK) {
		cli_errorf("suite: %s", pr_error_format(&err, eb, sizeof(eb)));
		return cli_exit_for(ps);
	}
	if ((h->config = calloc(h->n + 1, sizeof(*h->config))) == NULL) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	for (i = 0; i < h->n; i++) {
		t = tag_of(&h->s[i], "config");
		if (t != NULL && t->n == PR_SUITE_CONFIG_LEN - 1) {
			memcpy(h->config[i], t->p, t->n);
			continue;
		}
		pr_env_init(&e);
		found = 0;
		if (pr_store_session_env(st, h->s[i].id, &e, &found, &err) !=
		    PR_OK) {
			pr_env_release(&e);
			cli_errorf("suite: session %lld: %s",
			    (long long)h->s[i].id,
			    pr_error_format(&err, eb, sizeof(eb)));
			return PR_EXIT_USAGE;
		}
		pr_suite_config_id(found ? &e : NULL, h->config[i]);
		pr_env_release(&e);
	}
	return PR_EXIT_OK;
}

/*
 * 1 when session i is one --baseline names: its id (all digits), its
 * configuration (8 hex digits) or a tag KEY=VALUE.
 */
static int
baseline_names(const struct history *h, size_t i, const char *want)
{
	const char *eq = strchr(want, '=');
	char *end;
	long long id;

	if (eq != NULL) {
		const struct pr_str *t;
		char key[64];

		if ((size_t)(eq - want) >= sizeof(key))
			return 0;
		memcpy(key, want, (size_t)(eq - want));
		key[eq - want] = '\0';
		t = tag_of(&h->s[i], key);
		return t != NULL && t->n == strlen(eq + 1) &&
		    memcmp(t->p, eq + 1, t->n) == 0;
	}
	if (strcmp(h->config[i], want) == 0)
		return 1;
	errno = 0;
	id = strtoll(want, &end, 10);
	return errno == 0 && end != want && *end == '\0' && id == h->s[i].id;
}

/* Checks, before the probes run, that --baseline names some session. */
static int
check_baseline(struct pr_store *st, const char *want)
{
	struct history h;
	size_t i;
	int rc, any = 0;

	if ((rc = history_load(st, &h)) != PR_EXIT_OK) {
		history_free(&h);
		return rc;
	}
	for (i = 0; i < h.n && !any; i++)
		any = baseline_names(&h, i, want);
	history_free(&h);
	if (!any) {
		cli_errorf("suite: --baseline: no suite session, configuration "
			   "or tag '%s' (perfreg suite history lists them)",
		    want);
		return PR_EXIT_USAGE;
	}
	return PR_EXIT_OK;
}

/* "session 4" or "sessions 1 to 3" (or "sessions 1, 3, 4" when not
 * consecutive, abbreviated past a few). */
static void
name_sessions(char *buf, size_t size, const int64_t *id, size_t n)
{
	size_t i, len;
	int gaps = 0;

	for (i = 1; i < n; i++)
		gaps |= id[i] != id[i - 1] + 1;
	if (n == 1)
		snprintf(buf, size, "session %lld", (long long)id[0]);
	else if (!gaps || n > 4)
		snprintf(buf, size, "%zu sessions, %lld to %lld", n,
		    (long long)id[0], (long long)id[n - 1]);
	else {
		snprintf(buf, size, "sessions %lld", (long long)id[0]);
		for (i = 1; i < n; i++) {
			len = strlen(buf);
			snprintf(buf + len, size - len, ", %lld",
			    (long long)id[i]);
		}
	}
}

/* Reads the runs of the n sessions ids (only r's probes) into d[]:
 * each session's samples grouped by process into one value a process,
 * its mean or its best sample by the probe's rule (pr_suite_unit_values;
 * a session of one process in blocks). */
/* The built-in probes, counted. */
static size_t
probes_count(void)
{
	size_t n = 0;

	while (pr_probes[n] != NULL)
		n++;
	return n;
}

static int
load_sessions(struct pr_store *st, const int64_t *ids, size_t n,
    const struct pr_suite_result *r, size_t nr, struct pr_dataset *d)
{
	struct collect c;
	struct pr_error err;
	size_t h;

	pr_error_clear(&err);
	memset(&c, 0, sizeof(c));
	c.r = r;
	c.n = nr;
	for (h = 0; h < n; h++) {
		if (pr_store_each_run(st, ids[h], collect_run, &c, &err) !=
		    PR_OK) {
			collect_release(&c);
			cli_errorf("suite: session %lld: %s", (long long)ids[h],
			    err.msg);
			return PR_EXIT_USAGE;
		}
		if (pr_suite_unit_values(c.unit, c.nunits, pr_probes,
			probes_count(), &d[h], &err) != PR_OK) {
			collect_release(&c);
			cli_errorf("out of memory");
			return PR_EXIT_INTERNAL;
		}
		collect_release(&c);
	}
	return PR_EXIT_OK;
}

/*
 * The comparison of the base sessions (or processes) bd[0..nb) with the
 * new ones nd[0..nn), every figure of r's probes decided together by
 * pr_suite_compare with its defaults (the moderated t, Benjamini-
 * Hochberg across the figures: what bench/suite-sim measured), added to
 * rep.  *gated says whether a figure regressed; with gate each
 * regression is also said on stderr.
 */
static int
compare_into(struct suite_report *rep, struct pr_dataset *bd, size_t nb,
    struct pr_dataset *nd, size_t nn, const char *bname, const char *nname,
    const struct pr_suite_result *r, size_t n, const char *unit,
    const char *intro, const struct suite_cli *c, int json_inline,
    const double *bpace, int *gated)
{
	struct pr_report_suite_cmp pc;
	struct pr_error err;
	size_t i, nf = 0;
	char words[96];

	*gated = PR_EXIT_OK;
	pr_error_clear(&err);
	if (pr_suite_figures(r, n, &rep->fig, &nf, &err) != PR_OK) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	if (nf == 0)
		return PR_EXIT_OK;
	/* Sessions (bpace given) take their value by the suite's rule
	 * (PR_SUITE_VALUE_SESSIONS); suite ab's processes the mean of their
	 * samples. */
	if (pr_suite_compare_value(bd, nb, nd, nn, rep->fig, nf, NULL,
		bpace != NULL ? PR_SUITE_VALUE_SESSIONS : PR_SUITE_VALUE_MEAN,
		&rep->sc, &err) != PR_OK) {
		cli_errorf("suite: %s", err.msg);
		return PR_EXIT_USAGE;
	}
	if (rep->sc.n == 0)
		return PR_EXIT_OK;
	/* Sessions: the figures that are not gated (pr_suite_ungated) and
	 * a starved new session's are not called, and the gate follows
	 * the verdicts shown. */
	if (bpace != NULL &&
	    pr_suite_cmp_gate(&rep->sc, rep->fig, &err) != PR_OK) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	if (bpace != NULL)
		pr_suite_cmp_pace(&rep->sc, c->pace, bpace, nb);
	for (i = 0; i < rep->sc.n; i++) {
		const struct pr_comparison *x = &rep->sc.cmp[i];
		const struct pr_suite_figure *f = &rep->fig[rep->sc.index[i]];

		if (x->verdict != PR_VERDICT_REGRESSION)
			continue;
		*gated = PR_EXIT_REGRESSION;
		if (!c->gate)
			continue;
		pr_report_change_words(words, sizeof(words), x->change_pct,
		    x->better, f->name, f->unit);
		cli_errorf("regression in '%s': %s", f->name, words);
	}
	memset(&pc, 0, sizeof(pc));
	pc.cmp = &rep->sc;
	pc.fig = rep->fig;
	pc.base_name = bname;
	pc.new_name = nname;
	pc.unit = unit;
	pc.intro = intro;
	/* suite ab of a best-sample probe: each process's value is its
	 * best sample, and the header and the method say so. */
	if (strcmp(unit, "process") == 0 && n == 1 && r[0].probe != NULL &&
	    r[0].probe->figure == PR_PROBE_FIGURE_BEST)
		pc.values = "process bests (" AB_BEST_WORDS ")";
	pc.all = c->all;
	pc.json_inline = json_inline;
	if (pr_report_suite_compare(&rep->m, &pc, &err) != PR_OK) {
		cli_error(&err);
		return PR_EXIT_INTERNAL;
	}
	return PR_EXIT_OK;
}

/* --monitor: the monitor's notes (what is absent, the session's memory
 * pressure), borrowed into *notes (free() the array). */
static enum pr_status
monitor_notes(const struct suite_cli *c, const char ***notes, size_t *n,
    struct pr_error *err)
{
	size_t i;

	*n = pr_monitor_nnotes(c->mon);
	if ((*notes = calloc(*n + 1, sizeof(**notes))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < *n; i++)
		(*notes)[i] = pr_monitor_note(c->mon, i);
	return PR_OK;
}

/* plan_intro's sentence without the sessions left out. */
static enum pr_status
plan_sentence(const struct pr_suite_plan *p, const char *bname,
    const char *nname, const char *kind, size_t moved, struct pr_buf *b,
    struct pr_error *err)
{
	switch (p->kind) {
	case PR_SUITE_PLAN_CHANGE:
		return pr_buf_addf(b, err,
		    "the configuration changed: configuration %s (%s) against "
		    "the previous configuration, %s (%s), %s sessions only; "
		    "the unit is the session",
		    p->config, nname, p->base_config, bname, kind);
	case PR_SUITE_PLAN_STABILITY:
		/* moved: items that move performance but are not part of a
		 * configuration differ (the environment section says
		 * which). */
		return pr_buf_addf(b, err,
		    moved ? "stability check: configuration %s is unchanged, "
			    "but items outside it differ (the environment "
			    "below says which): %s against this "
			    "configuration's earlier %s sessions (%s); the "
			    "unit is the session"
			  : "stability check: nothing in the environment "
			    "changed (configuration %s): %s against this "
			    "configuration's earlier %s sessions (%s); the "
			    "unit is the session",
		    p->config, nname, kind, bname);
	case PR_SUITE_PLAN_CHOSEN:
		return pr_buf_addf(b, err,
		    "%s (configuration %s) against the --baseline, %s "
		    "(configuration %s); the unit is the session",
		    nname, p->config, bname, p->base_config);
	case PR_SUITE_PLAN_NONE:
		break;
	}
	return pr_buf_adds(b, "", err);
}

/*
 * The sessions p left out as starved, "session 3 (pace 21.4 wall s a CPU
 * s, above 4 times its peers' median, 1.52)" each, after `lead`, into b;
 * nothing when none was.
 */
static enum pr_status
left_out_words(const struct pr_suite_plan *p, const char *lead,
    struct pr_buf *b, struct pr_error *err)
{
	enum pr_status st = PR_OK;
	size_t i, k = 0;

	for (i = 0; i < p->nleft && st == PR_OK; i++) {
		if (p->left_called[i])
			continue;
		st = pr_buf_addf(b, err,
		    "%s session %lld (pace %.3g wall s a CPU s, ",
		    k++ == 0 ? lead : ",", (long long)p->left[i],
		    p->left_pace[i]);
		if (st == PR_OK)
			st = p->left_peers[i] > 0 &&
				p->left_limit[i] < PR_SUITE_PACE_LEVEL
			    ? pr_buf_addf(b, err,
				  "above %g times its peers' median, %.3g)",
				  PR_SUITE_PACE_FACTOR, p->left_peers[i])
			    : p->left_peers[i] > 0
			    ? pr_buf_addf(b, err,
				  "above %g whatever its peers', their median "
				  "%.3g)",
				  p->left_limit[i], p->left_peers[i])
			    : pr_buf_addf(b, err,
				  "above %g, no peer's pace stored)",
				  p->left_limit[i]);
	}
	return st;
}

/*
 * The sessions p left out as incidents, "session 4 left out: it called
 * 21 regressions against its base" each, after `lead` (then "; "),
 * into b; nothing when none was.
 */
static enum pr_status
called_words(const struct pr_suite_plan *p, const char *lead, struct pr_buf *b,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;
	size_t i, k = 0, r, m;

	for (i = 0; i < p->nleft && st == PR_OK; i++) {
		if (!p->left_called[i])
			continue;
		r = p->left_reg[i];
		m = p->left_imp[i];
		st = pr_buf_addf(b, err, "%ssession %lld left out: it called ",
		    k++ == 0 ? lead : "; ", (long long)p->left[i]);
		if (st == PR_OK && r > 0)
			st = pr_buf_addf(b, err, "%zu regression%s%s", r,
			    r == 1 ? "" : "s", m > 0 ? " and " : "");
		if (st == PR_OK && m > 0)
			st = pr_buf_addf(b, err, "%zu improvement%s", m,
			    m == 1 ? "" : "s");
		if (st == PR_OK)
			st = pr_buf_adds(b, " against its base", err);
	}
	return st;
}

#define LEFT_OUT_LEAD \
	"; left out as starved of CPU (figures that measured the " \
	"scheduler, not the code):"

/* The sentence that says what is compared with what, into b. */
static enum pr_status
plan_intro(const struct pr_suite_plan *p, const char *bname, const char *nname,
    const char *kind, size_t moved, struct pr_buf *b, struct pr_error *err)
{
	enum pr_status st;

	if ((st = plan_sentence(p, bname, nname, kind, moved, b, err)) !=
		PR_OK ||
	    (st = left_out_words(p, LEFT_OUT_LEAD, b, err)) != PR_OK)
		return st;
	/* Incidents: an earlier session whose own stability check called
	 * figures is not this configuration's baseline. */
	if ((st = called_words(p, "; ", b, err)) != PR_OK)
		return st;
	/* A stability check in a configuration that began with a change:
	 * where, and how to compare that change again. */
	if (p->kind != PR_SUITE_PLAN_STABILITY || p->since_config == NULL)
		return PR_OK;
	return pr_buf_addf(b, err,
	    ". Configuration %s began at session %lld, after configuration "
	    "%s (its last session %lld); its first %d sessions were compared "
	    "with that one; to compare again: perfreg suite%s --baseline %s",
	    p->config, (long long)p->since, p->since_config,
	    (long long)p->since_prev, PR_SUITE_CHANGE_SESSIONS,
	    strcmp(kind, "--quick") == 0 ? " --quick" : "", p->since_config);
}

/* The pace stored with each of the sessions ids[0..n) (tag pace=), 0
 * where none is (sessions stored before it was), into pace. */
static void
base_paces(const struct history *h, const int64_t *ids, size_t n, double *pace)
{
	const struct pr_str *t;
	size_t i, k;

	for (k = 0; k < n; k++) {
		pace[k] = 0;
		for (i = 0; i < h->n && h->s[i].id != ids[k]; i++)
			;
		if (i == h->n || (t = tag_of(&h->s[i], "pace")) == NULL ||
		    t->n == 0)
			continue;
		if (pr_parse_double_all(t->p, t->p + t->n, &pace[k], NULL) !=
			PR_OK ||
		    !isfinite(pace[k]))
			pace[k] = 0;
	}
}

/* The count in session s's tag key (regressions=, improvements=), 0
 * when it has none or not a count. */
static size_t
tag_count(const struct pr_store_session_info *s, const char *key)
{
	const struct pr_str *t = tag_of(s, key);
	size_t i, v = 0;

	if (t == NULL || t->n == 0 || t->n > 9)
		return 0;
	for (i = 0; i < t->n; i++) {
		if (t->p[i] < '0' || t->p[i] > '9')
			return 0;
		v = 10 * v + (size_t)(t->p[i] - '0');
	}
	return v;
}

/*
 * A stability check's verdicts stored with its session (tags
 * regressions= and improvements=, the figures it called as shown): a
 * later plan leaves a session that called any out of its bases
 * (pr_suite_plan).  Errors are said and returned.
 */
static int
store_calls(struct pr_store *st, int64_t session, const struct pr_suite_cmp *sc)
{
	struct pr_store_tag tag[2];
	struct pr_error err;
	char rb[24], ib[24];
	size_t i, r = 0, m = 0;

	for (i = 0; i < sc->n; i++) {
		r += sc->cmp[i].verdict == PR_VERDICT_REGRESSION;
		m += sc->cmp[i].verdict == PR_VERDICT_IMPROVEMENT;
	}
	snprintf(rb, sizeof(rb), "%zu", r);
	snprintf(ib, sizeof(ib), "%zu", m);
	tag[0].key = pr_str_c("regressions");
	tag[0].value = pr_str_c(rb);
	tag[1].key = pr_str_c("improvements");
	tag[1].value = pr_str_c(ib);
	pr_error_clear(&err);
	if (pr_store_session_tags(st, session, tag, 2, &err) != PR_OK) {
		cli_errorf("suite: storing session %lld's verdicts: %s",
		    (long long)session, err.msg);
		return PR_EXIT_USAGE;
	}
	return PR_EXIT_OK;
}

/* The comparison the plan says and the environment diff, into rep. */
static int
against_plan(struct pr_store *st, const struct pr_suite_plan *p,
    const struct history *hist, const struct pr_suite_result *r, size_t n,
    const struct pr_env *env, const struct suite_cli *c,
    struct suite_report *rep, int *gated)
{
	struct pr_dataset bd[HISTORY_MAX], nd[HISTORY_MAX];
	double bpace[HISTORY_MAX];
	struct pr_buf intro = PR_BUF_INIT(1 << 16);
	struct pr_buf line = PR_BUF_INIT(1 << 16);
	struct pr_error err;
	const char *kind = c->so.quick ? "--quick" : "full";
	char bname[96], nname[96];
	size_t h, nb = p->nbase, nn = p->nnew, nnotes = 0, nrel;
	const char **notes = NULL;
	int found = 0, quiet, rc = PR_EXIT_INTERNAL;

	if (nb > HISTORY_MAX || nn > HISTORY_MAX)
		PR_BUG("a plan larger than HISTORY_MAX");
	for (h = 0; h < HISTORY_MAX; h++) {
		pr_dataset_init(&bd[h]);
		pr_dataset_init(&nd[h]);
	}
	pr_error_clear(&err);
	if ((rc = load_sessions(st, p->base, nb, r, n, bd)) != PR_EXIT_OK ||
	    (rc = load_sessions(st, p->new_, nn, r, n, nd)) != PR_EXIT_OK)
		goto out;
	base_paces(hist, p->base, nb, bpace);
	rc = PR_EXIT_INTERNAL;
	if (pr_store_session_env(st, p->base[nb - 1], &rep->benv, &found,
		&err) != PR_OK) {
		cli_errorf("suite: session %lld: %s",
		    (long long)p->base[nb - 1], err.msg);
		rc = PR_EXIT_USAGE;
		goto out;
	}
	name_sessions(bname, sizeof(bname), p->base, nb);
	name_sessions(nname, sizeof(nname), p->new_, nn);
	/* The environment diff first: a stability check's sentence says
	 * whether items outside the configuration moved. */
	nrel = 0;
	if (found && env != NULL) {
		if (pr_env_diff(&rep->benv, env, &rep->diff, &err) != PR_OK)
			goto out;
		for (h = 0; h < rep->diff.n; h++)
			nrel += rep->diff.items[h].relevant != 0;
	}
	if (plan_intro(p, bname, nname, kind,
		p->kind == PR_SUITE_PLAN_STABILITY ? nrel : 0, &intro,
		&err) != PR_OK)
		goto out;
	/* Sessions are the unit from one a side on: with one each, the
	 * moderated t's documented bound decides and says so. */
	if ((rc = compare_into(rep, bd, nb, nd, nn, bname, nname, r, n,
		 "session", intro.data, c, 0, bpace, gated)) != PR_EXIT_OK)
		goto out;
	/* A stability check's calls, for later plans. */
	if (p->kind == PR_SUITE_PLAN_STABILITY &&
	    (rc = store_calls(st, p->new_[nn - 1], &rep->sc)) != PR_EXIT_OK)
		goto out;
	rc = PR_EXIT_INTERNAL;
	/* --monitor: each changed figure explained by its probe's
	 * monitors, the process the unit. */
	if (c->mon != NULL && rep->fig != NULL &&
	    (monitor_notes(c, &notes, &nnotes, &err) != PR_OK ||
		pr_report_model_list(&rep->m, "explanations", 0, &err) !=
		    PR_OK ||
		pr_report_suite_explain(&rep->m, "explanations",
		    PR_SECTION_LIST | PR_SECTION_NO_CSV, st, p->base, nb,
		    p->new_, nn, r, n, &rep->sc, rep->fig, notes, nnotes,
		    &err) != PR_OK))
		goto out;
	if (found && env != NULL) {
		snprintf(rep->ea, sizeof(rep->ea), "session %lld",
		    (long long)p->base[nb - 1]);
		snprintf(rep->eb, sizeof(rep->eb), "session %lld",
		    (long long)p->new_[nn - 1]);
		/* Within a configuration, the items that move performance
		 * but are not part of it (the process environment's
		 * OPENSSL_ia32cap, GLIBC_TUNABLES...; the clocksources
		 * available) may still differ: then they are shown. */
		quiet = p->kind == PR_SUITE_PLAN_STABILITY && nrel == 0;
		if (quiet ? pr_buf_addf(&line, &err,
				"environment: unchanged since %s: no item "
				"that moves performance differs",
				rep->ea) != PR_OK
			: p->kind == PR_SUITE_PLAN_STABILITY
			? pr_buf_addf(&line, &err,
			      "environment: the configuration is unchanged "
			      "since %s, but %zu item%s that move%s "
			      "performance differ%s (not part of a "
			      "configuration)",
			      rep->ea, nrel, nrel == 1 ? "" : "s",
			      nrel == 1 ? "s" : "",
			      nrel == 1 ? "s" : "") != PR_OK
			: pr_buf_addf(&line, &err,
			      "environment: what differs between %s and %s",
			      rep->ea, rep->eb) != PR_OK)
			goto out;
		if ((rc = para(rep, NULL, 0, 1, 2, line.data)) != PR_EXIT_OK)
			goto out;
		rc = PR_EXIT_INTERNAL;
		if (pr_report_model_envdiff(&rep->m, "env_diff",
			quiet ? PR_SECTION_NO_TEXT : 0, &rep->diff, rep->ea,
			rep->eb, 20, &err) != PR_OK)
			goto out;
	}
	rc = PR_EXIT_OK;
out:
	if (rc == PR_EXIT_INTERNAL)
		cli_errorf("suite: %s",
		    err.msg[0] != '\0' ? err.msg : "out of memory");
	pr_buf_release(&intro);
	pr_buf_release(&line);
	free(notes);
	for (h = 0; h < HISTORY_MAX; h++) {
		pr_dataset_release(&bd[h]);
		pr_dataset_release(&nd[h]);
	}
	return rc;
}

/* How many sessions of the suite are stored (0 when none or unknown). */
static size_t
stored_sessions(struct pr_store *st)
{
	struct pr_store_campaign_info *ci = NULL;
	struct pr_error err;
	size_t i, n = 0, k = 0;

	pr_error_clear(&err);
	if (pr_store_campaigns(st, &ci, &n, &err) != PR_OK)
		return 0;
	for (i = 0; i < n; i++)
		if (str_is(&ci[i].name, SUITE_CAMPAIGN))
			k = ci[i].nsessions;
	pr_store_campaigns_free(ci, n);
	return k;
}

/*
 * The plan for the new session (perfreg/suite.h): the earlier sessions
 * that can be compared are this host's finished sessions of the same
 * kind that ran every probe that ran now, and any --baseline names.
 */
static int
make_plan(struct pr_store *st, int64_t session, const char *want,
    const char *kind, const char *config, double pace,
    const struct pr_suite_result *r, size_t nr, struct history *h,
    struct pr_suite_plan *p)
{
	struct pr_suite_sess *v;
	struct pr_error err;
	char host[HOST_MAX];
	size_t i, k = 0;
	int rc;

	memset(p, 0, sizeof(*p));
	if ((rc = history_load(st, h)) != PR_EXIT_OK)
		return rc;
	if ((v = calloc(h->n + 1, sizeof(*v))) == NULL) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	cli_hostname(host, sizeof(host));
	for (i = 0; i < h->n; i++) {
		if (h->s[i].id == session ||
		    strcmp(h->s[i].status, "done") != 0)
			continue;
		v[k].chosen = want != NULL && baseline_names(h, i, want);
		if (!v[k].chosen &&
		    (strcmp(h->s[i].host, host) != 0 ||
			!str_is(tag_of(&h->s[i], "suite"), kind) ||
			!ran_probes(&h->s[i], r, nr)))
			continue;
		v[k].id = h->s[i].id;
		v[k].config = h->config[i];
		base_paces(h, &v[k].id, 1, &v[k].pace);
		v[k].regressions = tag_count(&h->s[i], "regressions");
		v[k].improvements = tag_count(&h->s[i], "improvements");
		k++;
	}
	pr_error_clear(&err);
	if (pr_suite_plan(v, k, session, config, pace, HISTORY_MAX, p, &err) !=
	    PR_OK) {
		free(v);
		cli_error(&err);
		return PR_EXIT_INTERNAL;
	}
	free(v);
	if (want != NULL && p->kind != PR_SUITE_PLAN_CHOSEN) {
		cli_errorf("suite: --baseline: no finished suite session, "
			   "configuration or tag '%s'",
		    want);
		return PR_EXIT_USAGE;
	}
	return PR_EXIT_OK;
}

/* The plan in --json: "baseline" (the latest base session, or null),
 * "plan" {"kind", "configuration", "base_configuration",
 * "base_sessions", "new_sessions", "left_out" [{"session", "reason"
 * ("starved" or "called"), "pace", "peers_median", "limit",
 * "regressions", "improvements"}], "since_session",
 * "since_configuration", "since_previous_session"}: a starved session's
 * limit, a called one's counts, a stability check's change (where its
 * configuration began), null where they do not apply. */
static int
plan_model(const struct pr_suite_plan *p, struct suite_report *rep)
{
	static const char *const kinds[] = { "first", "stability", "change",
		"chosen" };
	struct pr_report_model *g, *lg;
	struct pr_error err;
	size_t i;
	int ok;

	pr_error_clear(&err);
	ok = pr_report_model_integer(&rep->m, "baseline", PR_SECTION_NO_CSV,
		 p->nbase > 0, p->nbase > 0 ? p->base[p->nbase - 1] : 0,
		 &err) == PR_OK &&
	    pr_report_model_group(&rep->m, "plan", PR_SECTION_NO_TEXT, &g,
		&err) == PR_OK &&
	    pr_report_model_string(g, "kind", 0, kinds[p->kind], &err) ==
		PR_OK &&
	    pr_report_model_string(g, "configuration", 0, p->config, &err) ==
		PR_OK &&
	    pr_report_model_string(g, "base_configuration", 0,
		p->nbase > 0 ? p->base_config : NULL, &err) == PR_OK &&
	    pr_report_model_list(g, "base_sessions", 0, &err) == PR_OK;
	for (i = 0; ok && i < p->nbase; i++)
		ok = pr_report_model_integer(g, "base_sessions",
			 PR_SECTION_LIST, 1, p->base[i], &err) == PR_OK;
	ok = ok && pr_report_model_list(g, "new_sessions", 0, &err) == PR_OK;
	for (i = 0; ok && i < p->nnew; i++)
		ok = pr_report_model_integer(g, "new_sessions", PR_SECTION_LIST,
			 1, p->new_[i], &err) == PR_OK;
	/* The sessions left out as starved: each one's pace, its peers'
	 * median pace (null: none stored) and the limit. */
	ok = ok && pr_report_model_list(g, "left_out", 0, &err) == PR_OK;
	for (i = 0; ok && i < p->nleft; i++)
		ok = pr_report_model_group(g, "left_out", PR_SECTION_LIST, &lg,
			 &err) == PR_OK &&
		    pr_report_model_integer(lg, "session", 0, 1, p->left[i],
			&err) == PR_OK &&
		    pr_report_model_string(lg, "reason", 0,
			p->left_called[i] ? "called" : "starved",
			&err) == PR_OK &&
		    pr_report_model_real(lg, "pace", 0, p->left_pace[i] > 0,
			p->left_pace[i], &err) == PR_OK &&
		    pr_report_model_real(lg, "peers_median", 0,
			p->left_peers[i] > 0, p->left_peers[i],
			&err) == PR_OK &&
		    pr_report_model_real(lg, "limit", 0, !p->left_called[i],
			p->left_limit[i], &err) == PR_OK &&
		    pr_report_model_integer(lg, "regressions", 0,
			p->left_called[i], (int64_t)p->left_reg[i],
			&err) == PR_OK &&
		    pr_report_model_integer(lg, "improvements", 0,
			p->left_called[i], (int64_t)p->left_imp[i],
			&err) == PR_OK;
	/* A stability check after a change: where this configuration
	 * began (null otherwise). */
	ok = ok &&
	    pr_report_model_integer(g, "since_session", 0,
		p->since_config != NULL, p->since, &err) == PR_OK &&
	    pr_report_model_string(g, "since_configuration", 0, p->since_config,
		&err) == PR_OK &&
	    pr_report_model_integer(g, "since_previous_session", 0,
		p->since_config != NULL, p->since_prev, &err) == PR_OK;
	if (!ok) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	return PR_EXIT_OK;
}

/* One series of `suite history`: a host, a kind, a configuration. */
struct series {
	const char *host, *kind, *config;
	size_t first, last; /* indices into the history */
	size_t nsessions;
	int64_t prev; /* the last session of the series before it
			     * (same host and kind), or 0 */
};

/* The configuration items that differ between sessions a and b, as
 * "key key..." into out (empty when a snapshot is missing). */
static int
config_changes(struct pr_store *st, int64_t a, int64_t b, struct pr_buf *out)
{
	struct pr_env ea, eb;
	struct pr_envdiff d;
	struct pr_error err;
	size_t i;
	int fa = 0, fb = 0, rc = PR_EXIT_INTERNAL;

	pr_env_init(&ea);
	pr_env_init(&eb);
	memset(&d, 0, sizeof(d));
	pr_error_clear(&err);
	pr_buf_reset(out);
	if (pr_store_session_env(st, a, &ea, &fa, &err) != PR_OK ||
	    pr_store_session_env(st, b, &eb, &fb, &err) != PR_OK) {
		cli_errorf("suite history: %s", err.msg);
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (fa && fb && pr_env_diff(&ea, &eb, &d, &err) != PR_OK)
		goto out;
	for (i = 0; i < d.n; i++)
		if (pr_suite_config_key(d.items[i].key) &&
		    (pr_buf_adds(out, out->len > 0 ? " " : "", &err) != PR_OK ||
			pr_buf_adds(out, d.items[i].key, &err) != PR_OK))
			goto out;
	if (pr_buf_adds(out, "", &err) != PR_OK)
		goto out;
	rc = PR_EXIT_OK;
out:
	if (rc == PR_EXIT_INTERNAL)
		cli_errorf("out of memory");
	pr_envdiff_release(&d);
	pr_env_release(&ea);
	pr_env_release(&eb);
	return rc;
}

/* The series of h in order of their first session. */
static struct series *
make_series(const struct history *h, size_t *ns)
{
	struct series *v;
	const struct pr_str *t;
	const char *kind;
	size_t i, k, n = 0;

	if ((v = calloc(h->n + 1, sizeof(*v))) == NULL)
		return NULL;
	for (i = 0; i < h->n; i++) {
		t = tag_of(&h->s[i], "suite");
		kind = str_is(t, "quick") ? "quick"
		    : str_is(t, "full")   ? "full"
					  : "?";
		for (k = n; k-- > 0;)
			if (strcmp(v[k].host, h->s[i].host) == 0 &&
			    strcmp(v[k].kind, kind) == 0)
				break;
		/* A series goes on while its host and kind keep the same
		 * configuration; a change starts a new one. */
		if (k != (size_t)-1 && strcmp(v[k].config, h->config[i]) == 0) {
			v[k].last = i;
			v[k].nsessions++;
			continue;
		}
		v[n].host = h->s[i].host;
		v[n].kind = kind;
		v[n].config = h->config[i];
		v[n].first = v[n].last = i;
		v[n].nsessions = 1;
		v[n].prev = k != (size_t)-1 ? h->s[v[k].last].id : 0;
		n++;
	}
	*ns = n;
	return v;
}

/* `suite history`: this database's suite sessions by configuration, as
 * a report: text a paragraph a series, JSON {"configurations": [...]}. */
static int
run_history(struct suite_cli *c)
{
	struct pr_buf ch = PR_BUF_INIT(1 << 20);
	struct pr_buf line = PR_BUF_INIT(1 << 20);
	struct pr_store *st = NULL;
	struct series *v = NULL;
	struct suite_report rep;
	struct pr_report_model *g;
	struct history h;
	struct pr_error err;
	size_t i, k, nv = 0;
	int rc, unfinished = 0, ok;
	char t0[32], t1[32];

	memset(&h, 0, sizeof(h));
	suite_report_init(&rep);
	pr_error_clear(&err);
	if ((rc = cli_store_open("suite history", c->db, PR_STORE_READ, &st)) !=
	    PR_EXIT_OK)
		goto out;
	if ((rc = history_load(st, &h)) != PR_EXIT_OK)
		goto out;
	rc = PR_EXIT_INTERNAL;
	if ((v = make_series(&h, &nv)) == NULL ||
	    pr_report_model_list(&rep.m, "configurations", 0, &err) != PR_OK)
		goto oom;
	if (nv == 0 &&
	    para(&rep, NULL, 0, 0, 0, "no suite session stored") != PR_EXIT_OK)
		goto out;
	for (k = 0; k < nv; k++) {
		if (v[k].prev != 0 &&
		    (rc = config_changes(st, v[k].prev, h.s[v[k].first].id,
			 &ch)) != PR_EXIT_OK)
			goto out;
		rc = PR_EXIT_INTERNAL;
		cli_time(h.s[v[k].first].started, t0, sizeof(t0));
		cli_time(h.s[v[k].last].started, t1, sizeof(t1));
		pr_buf_reset(&line);
		ok = pr_report_model_group(&rep.m, "configurations",
			 PR_SECTION_LIST, &g, &err) == PR_OK &&
		    pr_report_model_string(g, "configuration", 0, v[k].config,
			&err) == PR_OK &&
		    pr_report_model_string(g, "kind", 0, v[k].kind, &err) ==
			PR_OK &&
		    pr_report_model_string(g, "host", 0, v[k].host, &err) ==
			PR_OK &&
		    pr_report_model_list(g, "sessions", 0, &err) == PR_OK &&
		    pr_buf_addf(&line, &err,
			"configuration %s, %s sessions of %s, %s to %s:",
			v[k].config, v[k].kind, v[k].host, t0, t1) == PR_OK;
		for (i = v[k].first; ok && i <= v[k].last; i++) {
			if (strcmp(h.config[i], v[k].config) != 0 ||
			    strcmp(h.s[i].host, v[k].host) != 0 ||
			    !str_is(tag_of(&h.s[i], "suite"), v[k].kind))
				continue;
			if (strcmp(h.s[i].status, "done") != 0)
				unfinished = 1;
			ok =
			    pr_report_model_integer(g, "sessions",
				PR_SECTION_LIST, 1, h.s[i].id, &err) == PR_OK &&
			    pr_buf_addf(&line, &err, " %lld%s",
				(long long)h.s[i].id,
				strcmp(h.s[i].status, "done") == 0
				    ? ""
				    : "*") == PR_OK;
		}
		ok = ok &&
		    pr_report_model_string(g, "first", 0, t0, &err) == PR_OK &&
		    pr_report_model_string(g, "last", 0, t1, &err) == PR_OK &&
		    pr_report_model_string(g, "changed", 0,
			v[k].prev != 0 ? ch.data : NULL, &err) == PR_OK;
		if (ok && v[k].prev != 0)
			ok = pr_buf_addf(&line, &err,
				 "\n  changed since session %lld: %s",
				 (long long)v[k].prev,
				 ch.data != NULL && ch.data[0] != '\0'
				     ? ch.data
				     : "unknown (a snapshot is missing)") ==
			    PR_OK;
		if (!ok)
			goto oom;
		/* The series in words: text only (no key). */
		if (pr_report_suite_para(g, NULL, 0, 0, 4, line.data, &err) !=
		    PR_OK)
			goto oom;
	}
	if (unfinished &&
	    para(&rep, NULL, 0, 0, 0,
		"(* not finished: interrupted or failed, never compared)") !=
		PR_EXIT_OK)
		goto out;
	rc = suite_report_write(c, &rep, "perfreg suite history");
	goto out;
oom:
	cli_errorf("out of memory");
	rc = PR_EXIT_INTERNAL;
out:
	free(v);
	history_free(&h);
	suite_report_release(&rep);
	pr_buf_release(&ch);
	pr_buf_release(&line);
	pr_store_close(st);
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
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
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

/* What the output says when there is nothing to compare with, into b. */
static enum pr_status
first_of_kind(const struct history *h, int64_t session, int quick,
    const char *config, struct pr_buf *out, struct pr_error *err)
{
	const char *kind = quick ? "quick" : "full";
	char host[HOST_MAX];
	size_t i, other = 0;

	cli_hostname(host, sizeof(host));
	for (i = 0; i < h->n; i++)
		if (h->s[i].id != session && strcmp(h->s[i].host, host) == 0 &&
		    str_is(tag_of(&h->s[i], "suite"), quick ? "full" : "quick"))
			other++;
	if (pr_buf_addf(out, err,
		"stored as session %lld, the first %s suite session of "
		"configuration %s on this host: the baseline of its %s "
		"sessions",
		(long long)session, kind, config, kind) != PR_OK)
		return PR_ENOMEM;
	if (other > 0 &&
	    pr_buf_addf(out, err,
		" (the %zu %s sessions are a series of their own, never "
		"mixed with these)",
		other, quick ? "full" : "--quick") != PR_OK)
		return PR_ENOMEM;
	return pr_buf_addf(out, err,
	    "; run `perfreg suite%s` again to check that the figures are "
	    "stable, and after an update to see what changed",
	    quick ? " --quick" : "");
}

/* The resolutions of the probes' clocks, in nanoseconds. */
static void
clock_resolutions(double *mono_ns, double *cpu_ns)
{
	struct timespec res, cres;

	clock_getres(CLOCK_MONOTONIC, &res);
	clock_getres(CLOCK_THREAD_CPUTIME_ID, &cres);
	*mono_ns = (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
	*cpu_ns = (double)cres.tv_sec * 1e9 + (double)cres.tv_nsec;
}

/* Adds each probe's figures (in text only when shown). */
static int
probes_into(struct suite_report *rep, const struct pr_suite_result *r, size_t n,
    int shown)
{
	struct pr_error err;
	double mono, cpu;

	clock_resolutions(&mono, &cpu);
	pr_error_clear(&err);
	if (pr_report_suite_probes(&rep->m, "probes",
		PR_SECTION_NO_CSV | (shown ? 0 : PR_SECTION_NO_TEXT), r, n,
		mono, cpu, &err) != PR_OK) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	return PR_EXIT_OK;
}

/*
 * The suite and suite ab in several processes.  The samples of one
 * process share its placement in memory, the alignment of its buffers,
 * its pages and the CPU it started on, so they are not independent
 * replicates: in one process of five memcpy of 64 B ran 2-8 times slower
 * throughout (issue 10).  The parent runs its workers one after the
 * other, each a fresh exec of perfreg (`suite run --worker PROBE...` or
 * `suite ab ... --worker`, a new address space and new pages), each
 * with its share of the budget; the process is the unit of the
 * comparison, as the boot is for campaigns.  A worker writes its results
 * whole (pr_suite_results_write) on its standard output and nothing else
 * on success; on failure its error on standard error.
 */
static int
worker_write(const struct pr_suite_result *r, size_t n)
{
	struct pr_buf out = PR_BUF_INIT(OUTPUT_MAX);
	struct pr_error err;
	int rc;

	pr_error_clear(&err);
	if (pr_suite_results_write(r, n, &out, &err) != PR_OK) {
		pr_buf_release(&out);
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	rc = cli_write(&out);
	pr_buf_release(&out);
	return rc;
}

/* Starts a worker's argv: `perfreg suite SUB --worker` and the options
 * every worker gets from c (--quick, --cpu; cpu holds the number);
 * returns the next index. */
static int
worker_argv(const struct suite_cli *c, char **argv, const char *sub, char *cpu,
    size_t size)
{
	int k = 0;

	argv[k++] = (char *)"perfreg";
	argv[k++] = (char *)"suite";
	argv[k++] = (char *)sub;
	argv[k++] = (char *)"--worker";
	if (c->so.quick)
		argv[k++] = (char *)"--quick";
	if (c->so.cpu >= 0) {
		snprintf(cpu, size, "%d", c->so.cpu);
		argv[k++] = (char *)"--cpu";
		argv[k++] = cpu;
	}
	if (c->monitor_spec != NULL) {
		argv[k++] = (char *)"--monitor";
		argv[k++] = (char *)c->monitor_spec;
	}
	return k;
}

/* This program's path, for its workers. */
static int
self_exe(char *exe, size_t size, const char *what)
{
	ssize_t n;

	if ((n = readlink("/proc/self/exe", exe, size - 1)) <= 0) {
		cli_errorf("%s: cannot find perfreg itself: /proc/self/exe: %s",
		    what, strerror(errno));
		return PR_EXIT_INTERNAL;
	}
	exe[n] = '\0';
	return PR_EXIT_OK;
}

/* A note on stderr, after clearing the progress line. */
static void
note_line(const struct suite_cli *c)
{
	if (c->tty)
		fputs("\r\033[K", stderr);
}

/* What the parent knows of a running suite worker, from the results it
 * wrote so far (spawn's on_wait): each probe's result comes as soon as
 * the probe is done. */
struct watch {
	struct suite_cli *c;
	const struct pr_probe *const *probes;
	size_t np, i, of;
	double *floor_s; /* [np]: each probe's largest floor measured */
	double t_end;    /* when the probes' budget ends */
	double margin_s; /* the margin promised past the budget */
	double t_bound;  /* a worker still running then is stopped */
	/* t_end and t_bound with the first reserve (they move earlier
	 * as the reserve grows with the pace), and the results of the
	 * processes before this one. */
	double t_end0, bound0;
	const struct pr_suite_result *merged;
	double t_last; /* when its last probe was seen done, or it began */
	size_t whole;  /* bytes of its output that hold whole results */
	size_t done;   /* its probes done */
	/* spawn's cancel flag: set on Ctrl-C or at the bound; stop says
	 * which. */
	volatile sig_atomic_t cancel;
	int stop;
};

/*
 * The reserve for storing and comparing at the pace of the results
 * a[0..na) and b[0..nb) (the processes done and the running one's
 * finished probes), into c; with wt, its end of the probes' budget and
 * its bound move by as much as the reserve grew.
 */
static void
reserve_update(struct suite_cli *c, struct watch *wt,
    const struct pr_suite_result *a, size_t na, const struct pr_suite_result *b,
    size_t nb)
{
	double wall = 0, cpu = 0;

	(void)pr_suite_pace_of(a, na, &wall, &cpu);
	c->pace = pr_suite_pace_of(b, nb, &wall, &cpu);
	c->reserve_s = pr_suite_reserve(c->pace, c->budget, c->earlier);
	if (wt != NULL) {
		wt->t_end = wt->t_end0 - (c->reserve_s - c->reserve0_s);
		wt->t_bound = wt->bound0 - c->reserve_s;
	}
}

/* The running-late note, once a command: the measured floors show that
 * the budget will not be held. */
static void
say_late(struct suite_cli *c, const struct watch *wt, double need_s,
    double left_s)
{
	if (c->late_said)
		return;
	c->late_said = 1;
	note_line(c);
	cli_errorf("suite: note: running late: process %zu of %zu needs about "
		   "%.1f s more at the least at this machine's pace (the "
		   "set-up and %d samples of each probe left, as measured so "
		   "far), and %.1f s are left of the budget and its margin: "
		   "it will be stopped %.1f s after the start (the budget and "
		   "its margin, less storing and comparing), its unfinished "
		   "probe lost",
	    wt->i + 1, wt->of, need_s, PR_SUITE_SAMPLES_FLOOR,
	    left_s > 0 ? left_s : 0.0, wt->t_bound - c->t_start);
}

/* spawn's on_wait for a suite worker: reads the results it finished,
 * keeps their floors, and says when it runs late. */
static void
watch_worker(const struct pr_spawn_result *sr, double elapsed_s, void *arg)
{
	struct watch *wt = arg;
	struct pr_suite_result *res = NULL;
	struct pr_suite_pace_est est;
	struct pr_error err;
	double now = mono_now();
	size_t n, nres = 0, j;

	n = sr->output.data != NULL
	    ? pr_suite_results_whole(sr->output.data, sr->output.len)
	    : 0;
	if (n > wt->whole) {
		wt->whole = n;
		pr_error_clear(&err);
		/* Text that is not a worker's is said when it ends. */
		if (pr_suite_results_read(sr->output.data, n, wt->probes,
			wt->np, &res, &nres, &err) == PR_OK) {
			for (j = 0; j < nres && j < wt->np; j++) {
				if (res[j].probe != wt->probes[j])
					break;
				/* A skipped probe costs nothing, known. */
				if (res[j].skipped != NULL &&
				    wt->floor_s[j] <= 0)
					wt->floor_s[j] = 1e-9;
				if (res[j].floor_s > wt->floor_s[j])
					wt->floor_s[j] = res[j].floor_s;
			}
			wt->done = j;
			wt->t_last = now;
			reserve_update(wt->c, wt, wt->merged, wt->np, res, j);
		}
		pr_suite_results_free(res, nres);
	}
	if (wt->c->tty && wt->c->last_progress + 0.1 <= now) {
		wt->c->last_progress = now;
		fprintf(stderr,
		    "\rsuite: process %zu of %zu, %zu of %zu probes, %.0f s"
		    "\033[K",
		    wt->i + 1, wt->of, wt->done, wt->np, elapsed_s);
		fflush(stderr);
	}
	/* Late is past the budget and its margin: a last sample that ends
	 * a little after the budget is within the promise. */
	pr_suite_pace(wt->floor_s, wt->np, wt->done, now - wt->t_last,
	    wt->t_end + wt->margin_s - now, &est);
	if (est.late)
		say_late(wt->c, wt, est.need_s, wt->t_end + wt->margin_s - now);
	/* Stopped at the bound: a process after the first, or the first
	 * once its lateness (and the bound) was said.  A first process not
	 * yet known to be late is the only measurement of its probes there
	 * is: it runs on, and the time line says it went over. */
	if (interrupted) {
		wt->cancel = 1;
	} else if (now >= wt->t_bound && (wt->i > 0 || wt->c->late_said)) {
		wt->stop = 1;
		wt->cancel = 1;
	}
}

/*
 * Runs worker i (of `of`) as argv and reads its results, of the probes
 * probes[0..np), into *w (the caller's) and *nw; *wall_s gets its time.
 * With wt (the suite's workers) the worker is watched as it runs
 * (watch_worker) and may be stopped at the bound, a stop that is no
 * failure (*stopped set); a timeout is a hung worker; the whole results of a worker stopped, interrupted or
 * failed on the way are kept in *w.  A failure is said (the worker's
 * own line when it gave one) and its exit status returned:
 * EXIT_INTERRUPTED when interrupted.
 */
static int
spawn_worker(const char *what, const char *exe, char **argv, double timeout_s,
    size_t i, size_t of, const struct pr_probe *const *probes, size_t np,
    struct watch *wt, int *stopped, struct pr_suite_result **w, size_t *nw,
    double *wall_s)
{
	struct pr_spawn_opts so;
	struct pr_spawn_result sr;
	struct pr_error err;
	int rc = PR_EXIT_OK;
	size_t len;

	*w = NULL;
	*nw = 0;
	*stopped = 0;
	pr_spawn_opts_init(&so);
	so.path = exe;
	so.cancel = wt != NULL ? &wt->cancel : &interrupted;
	so.timeout_s = timeout_s;
	so.output_limit = OUTPUT_MAX;
	if (wt != NULL) {
		so.on_wait = watch_worker;
		so.wait_arg = wt;
		so.wait_every_s = WATCH_EVERY_S;
	}
	pr_spawn_result_init(&sr);
	pr_error_clear(&err);
	if (pr_spawn_run(argv, &so, &sr, &err) != PR_OK) {
		cli_errorf("%s: %s", what, err.msg);
		pr_spawn_result_release(&sr);
		return PR_EXIT_INTERNAL;
	}
	len = sr.output.len;
	if (sr.outcome == PR_SPAWN_INTERRUPTED && wt != NULL && wt->stop &&
	    !interrupted) {
		*stopped = 1;
	} else if (sr.outcome == PR_SPAWN_INTERRUPTED || interrupted) {
		rc = EXIT_INTERRUPTED;
	} else if (sr.outcome != PR_SPAWN_OK) {
		/* The worker said why on its standard error, a line of
		 * ours. */
		const char *o = sr.errout.data != NULL ? sr.errout.data : "";

		if (strncmp(o, "perfreg: ", 9) == 0 &&
		    sr.outcome == PR_SPAWN_EXIT)
			cli_errorf("%.*s", (int)strcspn(o + 9, "\n"), o + 9);
		else
			cli_errorf("%s: process %zu of %zu: %s", what, i + 1,
			    of, sr.reason);
		rc = sr.outcome == PR_SPAWN_EXIT && sr.exit_status > 0 &&
			sr.exit_status < 128
		    ? sr.exit_status
		    : PR_EXIT_USAGE;
	} else if (sr.truncated) {
		cli_errorf("%s: process %zu: its output went over %zu MiB",
		    what, i + 1, (size_t)(OUTPUT_MAX >> 20));
		rc = PR_EXIT_INTERNAL;
		len = 0;
	}
	/* A worker cut short leaves its finished probes whole. */
	if (sr.outcome != PR_SPAWN_OK && wt != NULL && sr.output.data != NULL)
		len = pr_suite_results_whole(sr.output.data, len);
	else if (sr.outcome != PR_SPAWN_OK)
		len = 0;
	if (len > 0 &&
	    pr_suite_results_read(sr.output.data, len, probes, np, w, nw,
		&err) != PR_OK) {
		cli_errorf("%s: process %zu: %s", what, i + 1, err.msg);
		rc = rc != PR_EXIT_OK ? rc : PR_EXIT_INTERNAL;
	} else if (len == 0 && sr.outcome == PR_SPAWN_OK && rc == PR_EXIT_OK) {
		cli_errorf("%s: process %zu: no results", what, i + 1);
		rc = PR_EXIT_INTERNAL;
	}
	*wall_s = sr.wall_s;
	pr_spawn_result_release(&sr);
	return rc;
}

/* suite run --worker: one process's share, each probe's result on
 * standard output as soon as the probe is done (so that a worker
 * stopped on the way leaves its finished probes), no report and nothing
 * stored. */
static void
worker_probe(const struct pr_suite_result *r, void *arg)
{
	int *rc = arg;

	if (*rc == PR_EXIT_OK)
		*rc = worker_write(r, 1);
}

static int
run_as_worker(struct suite_cli *c, const struct pr_probe **probes, size_t np)
{
	struct pr_suite_result *r = NULL;
	struct pr_error err;
	size_t nr = 0;
	int rc = PR_EXIT_OK;

	pr_error_clear(&err);
	c->so.on_late = NULL;
	c->so.on_sample = NULL;
	c->so.on_probe = worker_probe;
	c->so.arg = &rc;
	if (c->share > 0)
		c->so.budget_s = c->share;
	if (pr_suite_run(probes, np, &c->so, &r, &nr, &err) != PR_OK) {
		if (!interrupted)
			cli_errorf("suite: %s", err.msg);
		pr_suite_results_free(r, nr);
		return interrupted ? EXIT_INTERRUPTED : PR_EXIT_USAGE;
	}
	pr_suite_results_free(r, nr);
	return rc;
}

/* The worker's program: perfreg itself, or PERFREG_SUITE_WORKER's (for
 * tests: a stand-in that is slow at will). */
static int
worker_exe(char *exe, size_t size, const char *what)
{
	const char *e = getenv("PERFREG_SUITE_WORKER");

	if (e == NULL || e[0] == '\0')
		return self_exe(exe, size, what);
	if (strlen(e) >= size) {
		cli_errorf("%s: PERFREG_SUITE_WORKER: too long a path", what);
		return PR_EXIT_USAGE;
	}
	memcpy(exe, e, strlen(e) + 1);
	return PR_EXIT_OK;
}

/*
 * Runs the probes in `procs` workers one after the other into *out (np
 * results, the caller's, each sample with its process index), each
 * worker with an equal share of what is left of the budget.  After each
 * worker, what one process cannot be cut short of (the start of a
 * process and its probes' floors, measured) decides whether the
 * processes left fit: when not, fewer are run, and that is said then.
 * Each worker is watched as it runs: when its probes left cannot end
 * within the budget even at their measured floors, that is said at once
 * (say_late), and a worker still running at the bound (the budget and
 * its margin, less what storing and comparing keep) is stopped (the
 * first process only once said late), its finished probes kept, and no
 * process runs after it; a probe that no
 * process ran is marked skipped.  Returns PR_EXIT_OK, EXIT_INTERRUPTED
 * (what finished kept) or the failure's exit status (said; what
 * finished kept).
 */
static int
run_processes(struct suite_cli *c, const struct pr_probe **probes, size_t np,
    size_t procs, double min_s, struct pr_suite_result **out, size_t *nout)
{
	struct pr_suite_result *r, *w = NULL;
	struct pr_error err;
	struct watch wt;
	char exe[4096], budget[32], cpu[32], target[32];
	char **argv;
	double t0 = mono_now(), left, share, floor_s = 0, wall = 0, pf;
	double *floors = NULL, bound0;
	size_t i, nw = 0, j;
	int k, stopped = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	argv = calloc(np + 16, sizeof(*argv));
	floors = calloc(np, sizeof(*floors));
	if (argv == NULL || floors == NULL ||
	    (r = calloc(np, sizeof(*r))) == NULL) {
		free(argv);
		free(floors);
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	for (i = 0; i < np; i++) {
		r[i].probe = probes[i];
		r[i].label = probes[i]->name;
		r[i].worst_pct = INFINITY;
		pr_dataset_init(&r[i].data);
	}
	*out = r;
	*nout = np;
	/* The bound: the whole command within its budget and margin, what
	 * storing and comparing need kept (c->reserve_s, which grows with
	 * the pace measured); a budget said at the start not to hold (below
	 * the probes' estimated floors) counts as that estimate. */
	bound0 = c->budget > min_s ? c->budget : min_s;
	bound0 = c->t_start + bound0 + MARGIN_S + MARGIN_SHARE * c->budget;
	if ((rc = worker_exe(exe, sizeof(exe), "suite")) != PR_EXIT_OK)
		goto out;
	snprintf(target, sizeof(target), "%.17g", c->so.target_pct);
	for (i = 0; i < procs; i++) {
		left = t0 + c->so.budget_s - (c->reserve_s - c->reserve0_s) -
		    mono_now();
		if (i > 0 &&
		    (double)(procs - i) * FLOOR_SAFETY * floor_s > left) {
			size_t fit = left > FLOOR_SAFETY * floor_s
			    ? (size_t)(left / (FLOOR_SAFETY * floor_s))
			    : 0;

			/* Said now when --processes asked for them; the
			 * time line says it in any case. */
			if (c->processes_set) {
				note_line(c);
				cli_errorf("suite: note: a process of these "
					   "probes takes %.1f s at the least "
					   "here (its start, the probes' "
					   "set-up and %d samples each, "
					   "measured): %zu of the %zu "
					   "processes fit in the budget",
				    floor_s, PR_SUITE_SAMPLES_FLOOR, i + fit,
				    procs);
			}
			procs = i + fit;
			if (i >= procs)
				break;
		}
		share = left / (double)(procs - i);
		if ((i > 0 && share < 0.01) ||
		    bound0 - c->reserve_s - mono_now() < 0.01)
			break;
		snprintf(budget, sizeof(budget), "%.3f", share > 0 ? share : 0);
		k = worker_argv(c, argv, "run", cpu, sizeof(cpu));
		argv[k++] = (char *)"--share";
		argv[k++] = budget;
		argv[k++] = (char *)"--target";
		argv[k++] = target;
		argv[k++] = (char *)"--";
		for (j = 0; j < np; j++)
			argv[k++] = (char *)probes[j]->name;
		argv[k] = NULL;
		memset(&wt, 0, sizeof(wt));
		wt.c = c;
		wt.probes = probes;
		wt.np = np;
		wt.i = i;
		wt.of = procs;
		wt.floor_s = floors;
		wt.t_end0 = t0 + c->so.budget_s;
		wt.bound0 = bound0;
		wt.merged = r;
		reserve_update(c, &wt, r, np, NULL, 0);
		wt.margin_s = MARGIN_S + MARGIN_SHARE * c->budget;
		wt.t_last = mono_now();
		rc = spawn_worker("suite", exe, argv,
		    WORKER_TIMEOUT_SHARE * c->budget + WORKER_TIMEOUT_S, i,
		    procs, probes, np, &wt, &stopped, &w, &nw, &wall);
		pr_error_clear(&err);
		if (nw > np || (nw < np && rc == PR_EXIT_OK && !stopped)) {
			cli_errorf("suite: process %zu gave %zu results for "
				   "%zu probes",
			    i + 1, nw, np);
			rc = PR_EXIT_INTERNAL;
		} else if (nw > 0 &&
		    pr_suite_results_merge(r, w, nw, i, &err) != PR_OK) {
			cli_errorf("suite: %s", err.msg);
			rc = PR_EXIT_INTERNAL;
		}
		reserve_update(c, NULL, r, np, NULL, 0);
		if (stopped) {
			note_line(c);
			cli_errorf("suite: note: process %zu of %zu stopped "
				   "%.1f "
				   "s after the start, at the budget's bound: "
				   "%zu of its %zu probes kept%s%s%s",
			    i + 1, procs, mono_now() - c->t_start, nw, np,
			    nw < np ? " (" : "",
			    nw < np ? probes[nw]->name : "",
			    nw < np ? "'s samples in it lost)" : "");
		}
		/* What this process could not be cut short of: all but
		 * the probes' samples past their floors. */
		pf = wall;
		for (j = 0; j < nw; j++)
			pf -= w[j].elapsed_s - w[j].floor_s;
		if (pf > floor_s)
			floor_s = pf;
		pr_suite_results_free(w, nw);
		w = NULL;
		if (rc != PR_EXIT_OK || stopped) {
			i++;
			break;
		}
		if (c->tty) {
			fprintf(stderr,
			    "\rsuite: process %zu of %zu, %.0f s\033[K", i + 1,
			    procs, mono_now() - t0);
			fflush(stderr);
		}
	}
out:
	c->procs_run = i;
	c->procs_stopped = stopped;
	c->proc_floor = floor_s;
	/* A probe no process ran (the bound came first) says so. */
	for (j = 0; rc == PR_EXIT_OK && j < np; j++)
		if (r[j].samples == 0 && r[j].skipped == NULL &&
		    (r[j].skipped = strdup("the suite was stopped at its "
					   "budget's bound before it")) ==
			NULL) {
			cli_errorf("out of memory");
			rc = PR_EXIT_INTERNAL;
		}
	free(floors);
	free(argv);
	return rc;
}

static int
run_suite(struct suite_cli *c, const struct pr_probe **probes, size_t np)
{
	struct pr_suite_result *r = NULL;
	struct pr_buf line = PR_BUF_INIT(1 << 20);
	struct pr_store *st = NULL;
	struct pr_suite_plan plan;
	struct suite_report rep;
	struct history hist;
	struct pr_env env;
	struct pr_env_opts eo;
	struct pr_error err;
	struct pr_report_model *g;
	int64_t session = 0;
	size_t nr = 0, i, ncalled;
	int rc = PR_EXIT_OK, gated = PR_EXIT_OK, cut = 0;
	const char *envfile;
	double floor_s, budget, t_probes = 0, total, cpu_stored = 0;
	size_t procs, want_procs;
	int over;
	char config[PR_SUITE_CONFIG_LEN];

	if (c->worker)
		return run_as_worker(c, probes, np);
	pr_env_init(&env);
	pr_error_clear(&err);
	suite_report_init(&rep);
	memset(&plan, 0, sizeof(plan));
	memset(&hist, 0, sizeof(hist));
	floor_s =
	    (double)np * (c->so.quick ? PROBE_FLOOR_QUICK_S : PROBE_FLOOR_S);
	budget = c->budget = c->so.budget_s;
	/* The pace is not known yet: the least reserve. */
	c->reserve0_s = c->reserve_s = pr_suite_reserve(0, budget, 0);
	if (budget < floor_s + c->reserve0_s)
		cli_errorf("suite: note: a budget of %g s cannot be held: %zu "
			   "probes take about %.1f s at the least (their "
			   "set-up and %d samples each), and storing and "
			   "comparing %.1f s",
		    budget, np, floor_s, PR_SUITE_SAMPLES_FLOOR, c->reserve0_s);
	c->so.budget_s = budget - c->reserve0_s;
	if (c->so.budget_s < 0)
		c->so.budget_s = 0;
	/* The processes the budget holds, by the same estimate (each
	 * process also starts perfreg); the measured floors may cut them
	 * further (run_processes). */
	procs = want_procs = c->processes_set ? c->processes : SUITE_PROCESSES;
	if (procs > 1 &&
	    (double)procs * (floor_s + PROCESS_START_S) > c->so.budget_s) {
		size_t fit =
		    (size_t)(c->so.budget_s / (floor_s + PROCESS_START_S));

		fit = fit < 1 ? 1 : fit;
		if (c->processes_set)
			cli_errorf("suite: note: a budget of %g s holds %zu "
				   "of the %zu processes (each about %.1f s "
				   "at the least)%s",
			    budget, fit, procs, floor_s + PROCESS_START_S,
			    fit == 1 ? ": one process, its samples the unit, "
				       "the process-level variance not "
				       "measured"
				     : "");
		procs = fit;
	}
	if (!c->no_store &&
	    (rc = cli_store_open("suite", c->db, PR_STORE_CREATE, &st)) !=
		PR_EXIT_OK)
		goto out;
	/* An unknown --baseline is said before the probes run. */
	if (st != NULL && c->baseline != NULL &&
	    (rc = check_baseline(st, c->baseline)) != PR_EXIT_OK)
		goto out;
	if (st != NULL && (rc = store_writable(st)) != PR_EXIT_OK)
		goto out;
	/* Storing and comparing take longer with more sessions stored: the
	 * reserve at the measured pace counts them (pr_suite_reserve). */
	c->earlier = st != NULL ? stored_sessions(st) : 0;
	cli_env_opts(&eo);
	/* PERFREG_SUITE_ENV: a snapshot to record instead of this
	 * machine's, so that tests can change the configuration. */
	if ((envfile = getenv("PERFREG_SUITE_ENV")) != NULL &&
	    envfile[0] != '\0') {
		if ((rc = cli_env_load(envfile, &env)) != PR_EXIT_OK)
			goto out;
	} else if (pr_env_capture(&env, &eo, &err) != PR_OK) {
		cli_error(&err);
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	if (pr_suite_env_add(&env, &err) != PR_OK) {
		cli_error(&err);
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	pr_suite_config_id(&env, config);
	t_probes = mono_now();
	/* Every process is a worker, watched, even one alone: a worker
	 * that runs past the bound is stopped. */
	rc = run_processes(c, probes, np, procs,
	    floor_s + PROCESS_START_S + c->reserve0_s, &r, &nr);
	t_probes = mono_now() - t_probes;
	cpu_stored = pr_suite_cpu_s();
	/* What was measured is worth waiting for a lock as long. */
	cli_store_wait_for(st, t_probes);
	if (c->tty)
		fputs("\r\033[K", stderr);
	/* Only a note: out of memory, there is none. */
	if (c->mon != NULL)
		(void)pr_monitor_session_end(c->mon, &err);
	if (rc != PR_EXIT_OK) {
		/* Said already; what finished is kept. */
		cut = 1;
		if (!interrupted && rc != EXIT_INTERRUPTED) {
			if (st != NULL)
				(void)store_results(st, r, nr, &env,
				    c->so.quick, config, c->pace, &session,
				    "failed");
			goto out;
		}
		rc = PR_EXIT_OK;
		cli_errorf("suite: interrupted; what finished is kept");
	}
	/* No probe measured anything (each said why): a session without a
	 * figure would become its configuration's baseline.  Nothing is
	 * stored. */
	if (!cut && !any_measured(r, nr)) {
		cli_errorf("suite: no probe ran here (each said why above); "
			   "nothing stored");
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (st != NULL &&
	    (rc = store_results(st, r, nr, &env, c->so.quick, config, c->pace,
		 &session, cut ? "interrupted" : "done")) != PR_EXIT_OK) {
		/* Not stored, but measured: show the figures even so. */
		if (!c->json && probes_into(&rep, r, nr, 1) == PR_EXIT_OK)
			(void)suite_report_write(c, &rep, "perfreg suite");
		goto out;
	}
	if (st != NULL && !cut &&
	    (rc = make_plan(st, session, c->baseline,
		 c->so.quick ? "quick" : "full", config, c->pace, r, nr, &hist,
		 &plan)) != PR_EXIT_OK)
		goto out;
	/*
	 * For a person: the summary line first, then what is compared, the
	 * figures that changed and the environment diff; each probe's
	 * figures after them with --all, or when nothing is compared.
	 */
	if (plan.kind != PR_SUITE_PLAN_NONE) {
		if ((rc = against_plan(st, &plan, &hist, r, nr, &env, c, &rep,
			 &gated)) != PR_EXIT_OK)
			goto out;
	} else if (st != NULL && !cut) {
		for (i = 0, ncalled = 0; i < plan.nleft; i++)
			ncalled += plan.left_called[i] != 0;
		if (plan.nleft > 0
			? pr_buf_addf(&line, &err,
			      "stored as session %lld; not compared: every "
			      "earlier %s session it could be compared with "
			      "was %s",
			      (long long)session,
			      c->so.quick ? "--quick" : "full",
			      ncalled == 0 ? "starved of CPU and left out:"
					   : "left out") != PR_OK ||
			    left_out_words(&plan,
				ncalled == 0 ? "" : ", as starved of CPU:",
				&line, &err) != PR_OK ||
			    called_words(&plan, "; ", &line, &err) != PR_OK
			: first_of_kind(&hist, session, c->so.quick, config,
			      &line, &err) != PR_OK) {
			cli_errorf("out of memory");
			rc = PR_EXIT_INTERNAL;
			goto out;
		}
		if ((rc = para(&rep, NULL, 0, 0, 0, line.data)) != PR_EXIT_OK)
			goto out;
	}
	/* An empty line between the comparison (or a first session's
	 * paragraph) and the probes' figures. */
	if (((plan.kind != PR_SUITE_PLAN_NONE && c->all) ||
		(plan.kind == PR_SUITE_PLAN_NONE && st != NULL && !cut)) &&
	    (rc = para(&rep, NULL, 0, 1, 0, "")) != PR_EXIT_OK)
		goto out;
	if ((rc = probes_into(&rep, r, nr,
		 st == NULL || cut || c->all ||
		     plan.kind == PR_SUITE_PLAN_NONE)) != PR_EXIT_OK)
		goto out;
	pr_error_clear(&err);
	if (pr_report_model_integer(&rep.m, "session", 0, session != 0, session,
		&err) != PR_OK ||
	    pr_report_model_string(&rep.m, "configuration", 0, config, &err) !=
		PR_OK) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	if (st != NULL && !cut) {
		if ((rc = plan_model(&plan, &rep)) != PR_EXIT_OK)
			goto out;
		if ((rc = history_notes(st, session, r, nr, &rep)) !=
		    PR_EXIT_OK)
			goto out;
	}
	/* What the budget went to: the command so far, whole. */
	total = mono_now() - c->t_start;
	c->store_cpu_s = pr_suite_cpu_s() - cpu_stored;
	over = total > budget + MARGIN_S + MARGIN_SHARE * budget;
	pr_buf_reset(&line);
	if (pr_buf_addf(&line, &err,
		"time: %.1f s of the %g s budget: the probes %.1f s, set-up, "
		"storing and comparing %.1f s (storing and comparing %.2f s "
		"of CPU; %.1f s kept for them%s)%s",
		total, budget, t_probes, total - t_probes, c->store_cpu_s,
		c->reserve_s,
		c->reserve_s > c->reserve0_s ? ", grown with the probes' pace"
					     : "",
		!over ? ""
		    : total - t_probes > c->reserve_s
		    ? "; over the budget and its margin because set-up, "
		      "storing and comparing took longer than was kept for "
		      "them"
		    : "; over the budget and its margin because the probes' "
		      "set-up and their floor of samples took longer") !=
		PR_OK ||
	    (c->procs_stopped &&
		pr_buf_addf(&line, &err,
		    "; process %zu stopped at the budget's bound",
		    c->procs_run) != PR_OK) ||
	    (procs > 1 && c->procs_run < procs &&
		pr_buf_addf(&line, &err,
		    "; %zu of %zu processes, as one took %.1f s at the least "
		    "here",
		    c->procs_run, procs, c->proc_floor) != PR_OK) ||
	    (c->pace > 0 &&
		pr_buf_addf(&line, &err,
		    "; the probes' pace %.2f wall s a CPU s",
		    c->pace) != PR_OK) ||
	    (want_procs > 1 && procs == 1 &&
		pr_buf_addf(&line, &err,
		    "; one process, not %zu: the budget holds no more (the "
		    "process-level variance is not measured)",
		    want_procs) != PR_OK) ||
	    pr_report_model_group(&rep.m, "timing", PR_SECTION_NO_TEXT, &g,
		&err) != PR_OK ||
	    pr_report_model_real(g, "budget_s", 0, 1, budget, &err) != PR_OK ||
	    pr_report_model_real(g, "probes_s", 0, 1, t_probes, &err) !=
		PR_OK ||
	    pr_report_model_real(g, "total_s", 0, 1, total, &err) != PR_OK ||
	    pr_report_model_bool(g, "over", 0, over, &err) != PR_OK ||
	    pr_report_model_integer(g, "processes", 0, 1, (int64_t)c->procs_run,
		&err) != PR_OK ||
	    pr_report_model_bool(g, "stopped", 0, c->procs_stopped, &err) !=
		PR_OK ||
	    pr_report_model_real(g, "reserve_s", 0, 1, c->reserve_s, &err) !=
		PR_OK ||
	    pr_report_model_real(g, "pace", 0, c->pace > 0, c->pace, &err) !=
		PR_OK ||
	    pr_report_model_real(g, "store_cpu_s", 0, 1, c->store_cpu_s,
		&err) != PR_OK) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	if ((rc = para(&rep, NULL, 0, 1, 2, line.data)) != PR_EXIT_OK)
		goto out;
	pr_buf_reset(&line);
	if (pr_buf_addf(&line, &err, "perfreg suite: session %lld",
		(long long)session) != PR_OK) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	if ((rc = suite_report_write(c, &rep,
		 session != 0 ? line.data : "perfreg suite")) != PR_EXIT_OK)
		goto out;
	rc = cut ? EXIT_INTERRUPTED : c->gate ? gated : PR_EXIT_OK;
out:
	suite_report_release(&rep);
	pr_suite_plan_release(&plan);
	history_free(&hist);
	pr_suite_results_free(r, nr);
	pr_env_release(&env);
	pr_buf_release(&line);
	pr_store_close(st);
	return rc;
}

/* Runs the workers; da[i] and db[i] get process i's samples of A and B. */
static int
ab_processes(struct suite_cli *c, const struct pr_probe *p,
    struct pr_dataset *da, struct pr_dataset *db, struct pr_dataset *ma,
    struct pr_dataset *mb, double *elapsed_s)
{
	struct pr_suite_result *w = NULL;
	char exe[4096], rounds[32], seed[32], budget[32], cpu[32];
	char *argv[24];
	double t0 = mono_now(), wall;
	size_t i, nw = 0;
	int k, rc, stopped;

	if ((rc = worker_exe(exe, sizeof(exe), "suite ab")) != PR_EXIT_OK)
		return rc;
	snprintf(rounds, sizeof(rounds), "%zu", c->so.rounds);
	snprintf(budget, sizeof(budget), "%.3f",
	    c->so.budget_s / (double)c->processes);
	for (i = 0; i < c->processes && rc == PR_EXIT_OK; i++) {
		k = worker_argv(c, argv, "ab", cpu, sizeof(cpu));
		argv[k++] = (char *)"-n";
		argv[k++] = rounds;
		argv[k++] = (char *)"--budget";
		argv[k++] = budget;
		snprintf(seed, sizeof(seed), "%llu",
		    /* NOLINTNEXTLINE(bugprone-misplaced-widening-cast): 64-bit seeds wrap as they should */
		    (unsigned long long)(c->so.seed + i));
		argv[k++] = (char *)"--seed";
		argv[k++] = seed;
		argv[k++] = (char *)"--a";
		argv[k++] = (char *)c->a;
		argv[k++] = (char *)"--b";
		argv[k++] = (char *)c->b;
		argv[k++] = (char *)"--";
		argv[k++] = (char *)p->name;
		argv[k] = NULL;
		/* A worker that hangs is killed: its share of the budget and
		 * a minute. */
		rc = spawn_worker("suite ab", exe, argv,
		    c->so.budget_s / (double)c->processes + 60, i, c->processes,
		    &p, 1, NULL, &stopped, &w, &nw, &wall);
		if (rc != PR_EXIT_OK)
			break;
		if (nw != 2 || strcmp(w[0].label, "A") != 0 ||
		    strcmp(w[1].label, "B") != 0 || w[0].data.n == 0 ||
		    w[1].data.n == 0) {
			cli_errorf("suite ab: process %zu took no sample",
			    i + 1);
			rc = PR_EXIT_INTERNAL;
		} else {
			/* The samples move to da[i] and db[i]. */
			da[i] = w[0].data;
			db[i] = w[1].data;
			pr_dataset_init(&w[0].data);
			pr_dataset_init(&w[1].data);
			ma[i] = w[0].monitors;
			mb[i] = w[1].monitors;
			pr_dataset_init(&w[0].monitors);
			pr_dataset_init(&w[1].monitors);
		}
		pr_suite_results_free(w, nw);
		w = NULL;
		if (c->tty && rc == PR_EXIT_OK) {
			fprintf(stderr,
			    "\r%s: process %zu of %zu, %.0f s\033[K", p->name,
			    i + 1, c->processes, mono_now() - t0);
			fflush(stderr);
		}
	}
	*elapsed_s = mono_now() - t0;
	return rc;
}

static int
run_ab(struct suite_cli *c, int argc, char **argv, int first)
{
	struct pr_dataset da[AB_PROCESSES_MAX], db[AB_PROCESSES_MAX];
	struct pr_dataset ma[AB_PROCESSES_MAX], mb[AB_PROCESSES_MAX];
	struct pr_dataset ua[AB_PROCESSES_MAX], ub[AB_PROCESSES_MAX];
	struct pr_suite_result *r = NULL, tmpl;
	const char **notes = NULL;
	size_t nnotes = 0;
	struct pr_buf intro = PR_BUF_INIT(1 << 16);
	struct suite_report rep;
	const struct pr_probe *p;
	struct pr_error err;
	char an[128], bn[128];
	enum pr_status s;
	double elapsed = 0;
	size_t i;
	int rc, gated;

	if (argc - first != 1 || c->a == NULL || c->b == NULL)
		return cli_usage_error(&cmd_suite_ab_entry,
		    "expected one probe, --a and --b");
	if ((p = pr_probe_find(argv[first])) == NULL) {
		cli_errorf("suite ab: no probe '%s' (perfreg suite list names "
			   "them)",
		    argv[first]);
		return PR_EXIT_USAGE;
	}
	if (!c->budget_set)
		c->so.budget_s = c->so.quick ? 40 : 300;
	if (c->processes == 0)
		c->processes = AB_PROCESSES;
	if (!c->rounds_set)
		c->so.rounds = AB_ROUNDS;
	pr_error_clear(&err);
	suite_report_init(&rep);
	if (c->worker) {
		/* One process's share: samples out, no report. */
		s = pr_suite_ab(p, c->a, c->b, &c->so, &r, &err);
		if (s != PR_OK) {
			cli_errorf("suite ab: %s", err.msg);
			pr_suite_results_free(r, r != NULL ? 2 : 0);
			return interrupted ? EXIT_INTERRUPTED : cli_exit_for(s);
		}
		rc = worker_write(r, 2);
		pr_suite_results_free(r, 2);
		return rc;
	}
	for (i = 0; i < AB_PROCESSES_MAX; i++) {
		pr_dataset_init(&da[i]);
		pr_dataset_init(&db[i]);
		pr_dataset_init(&ma[i]);
		pr_dataset_init(&mb[i]);
		pr_dataset_init(&ua[i]);
		pr_dataset_init(&ub[i]);
	}
	if ((rc = ab_processes(c, p, da, db, ma, mb, &elapsed)) != PR_EXIT_OK)
		goto out;
	if (c->mon != NULL)
		(void)pr_monitor_session_end(c->mon, &err);
	if (c->tty)
		fputs("\r\033[K", stderr);
	snprintf(an, sizeof(an), "A: %s %s", p->name, c->a);
	snprintf(bn, sizeof(bn), "B: %s %s", p->name, c->b);
	/* Each process's value of a figure by the probe's rule, as in
	 * the suite: its best sample or its mean. */
	for (i = 0; i < c->processes; i++)
		if (pr_suite_ab_values(&da[i], pr_probes, probes_count(),
			&ua[i], &err) != PR_OK ||
		    pr_suite_ab_values(&db[i], pr_probes, probes_count(),
			&ub[i], &err) != PR_OK) {
			cli_errorf("out of memory");
			rc = PR_EXIT_INTERNAL;
			goto out;
		}
	if (pr_buf_addf(&intro, &err,
		"%s, B against A: %zu processes, each %zu rounds of A and B "
		"interleaved (%.1f s in all); the unit is the process, each "
		"one's %s a value",
		p->name, c->processes, c->so.rounds, elapsed,
		p->figure == PR_PROBE_FIGURE_BEST
		    ? "best sample (" AB_BEST_WORDS ")"
		    : "mean") != PR_OK) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.data = da[0];
	tmpl.label = "A";
	tmpl.probe = p;
	rc = compare_into(&rep, ua, c->processes, ub, c->processes, an, bn,
	    &tmpl, 1, "process", intro.data, c, 1, NULL, &gated);
	/* --monitor: each changed figure explained by the monitors. */
	if (rc == PR_EXIT_OK && c->mon != NULL && rep.fig != NULL &&
	    (monitor_notes(c, &notes, &nnotes, &err) != PR_OK ||
		pr_report_model_list(&rep.m, "explanations", 0, &err) !=
		    PR_OK ||
		pr_report_suite_ab_explain(&rep.m, "explanations",
		    PR_SECTION_LIST | PR_SECTION_NO_CSV, ua, ma, ub, mb,
		    c->processes, &rep.sc, rep.fig, notes, nnotes,
		    &err) != PR_OK)) {
		cli_errorf("suite ab: %s", err.msg);
		rc = PR_EXIT_INTERNAL;
	}
	if (rc == PR_EXIT_OK)
		rc = suite_report_write(c, &rep, "perfreg suite ab");
	if (rc == PR_EXIT_OK && c->gate)
		rc = gated;
out:
	if (c->tty)
		fputs("\r\033[K", stderr);
	suite_report_release(&rep);
	pr_buf_release(&intro);
	free(notes);
	for (i = 0; i < AB_PROCESSES_MAX; i++) {
		pr_dataset_release(&da[i]);
		pr_dataset_release(&db[i]);
		pr_dataset_release(&ma[i]);
		pr_dataset_release(&mb[i]);
		pr_dataset_release(&ua[i]);
		pr_dataset_release(&ub[i]);
	}
	return rc;
}

/* --monitor: the monitor of this process's samples (the perf counters
 * this process's own, PR_MON_OPT_SELF, since the probes run in it);
 * none by default.  Returns an exit status. */
static int
monitor_open(const struct cmd_entry *e, struct suite_cli *c)
{
	struct pr_error err;
	unsigned set = 0;

	pr_error_clear(&err);
	if (c->monitor_spec == NULL)
		return PR_EXIT_OK;
	if (pr_monitor_parse_set(c->monitor_spec, &set, &err) != PR_OK) {
		cli_errorf("%s: --monitor: %s; see 'perfreg %s --help'",
		    e->name, err.msg, e->name);
		return PR_EXIT_USAGE;
	}
	if (set == 0)
		return PR_EXIT_OK;
	if (pr_monitor_new(set | PR_MON_OPT_SELF, NULL, &c->mon, &err) !=
	    PR_OK) {
		cli_error(&err);
		return PR_EXIT_INTERNAL;
	}
	c->so.monitor = c->mon;
	return PR_EXIT_OK;
}

/*
 * The operating system's CPU flags, the first "flags" line of
 * /proc/cpuinfo (its words after the colon) into buf; NULL when there is
 * none: the probes then go by CPUID alone.  The kernel leaves out an
 * instruction it found broken (RDSEED on some AMD CPUs) that CPUID still
 * offers.
 */
static const char *
cpu_flags_read(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	const char *found = NULL;
	char *colon;

	if (f == NULL)
		return NULL;
	while (fgets(buf, (int)size, f) != NULL)
		if (strncmp(buf, "flags", 5) == 0 &&
		    (colon = strchr(buf, ':')) != NULL &&
		    strchr(buf, '\n') != NULL) {
			memmove(buf, colon + 1, strlen(colon + 1) + 1);
			buf[strcspn(buf, "\n")] = '\0';
			found = buf;
			break;
		}
	fclose(f);
	return found;
}

/* suite, suite run, suite list, suite history and suite ab: e says
 * which. */
static int
suite_main(const struct cmd_entry *e, int argc, char **argv)
{
	const struct pr_probe **probes = NULL;
	struct suite_cli c;
	struct sigaction sa, old;
	size_t np = 0;
	int first, rc;
	static char flags[16384];

	memset(&c, 0, sizeof(c));
	c.t_start = mono_now();
	pr_suite_opts_init(&c.so);
	if ((first = parse_opts(e, argc, argv, &c)) < 0)
		return PR_EXIT_USAGE;
	if (e == &cmd_suite_list_entry) {
		if (first != argc)
			return cli_unexpected(e, argv[first]);
		return list_probes();
	}
	if (e == &cmd_suite_history_entry) {
		if (first != argc)
			return cli_unexpected(e, argv[first]);
		return run_history(&c);
	}
	if (e == &cmd_suite_entry && first != argc)
		return cli_unexpected(e, argv[first]);
	if (e == &cmd_suite_run_entry && first == argc)
		return cli_usage_error(e, "expected at least one probe");
	if ((rc = monitor_open(e, &c)) != PR_EXIT_OK)
		return rc;
	c.tty = isatty(STDERR_FILENO);
	c.so.cpu_flags = cpu_flags_read(flags, sizeof(flags));
	c.so.on_sample = on_sample;
	c.so.arg = &c;
	interrupted = 0;
	c.so.cancel = &interrupted;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGINT, &sa, &old);
	if (e == &cmd_suite_ab_entry) {
		rc = run_ab(&c, argc, argv, first);
	} else if ((rc = select_probes(argc, argv, first, &probes, &np)) ==
	    PR_EXIT_OK) {
		rc = run_suite(&c, probes, np);
	}
	sigaction(SIGINT, &old, NULL);
	free(probes);
	pr_monitor_free(c.mon);
	return rc;
}

static int
exec_suite(int argc, char **argv)
{
	return suite_main(&cmd_suite_entry, argc, argv);
}

static int
exec_suite_run(int argc, char **argv)
{
	return suite_main(&cmd_suite_run_entry, argc, argv);
}

static int
exec_suite_list(int argc, char **argv)
{
	return suite_main(&cmd_suite_list_entry, argc, argv);
}

static int
exec_suite_history(int argc, char **argv)
{
	return suite_main(&cmd_suite_history_entry, argc, argv);
}

static int
exec_suite_ab(int argc, char **argv)
{
	return suite_main(&cmd_suite_ab_entry, argc, argv);
}

static const char about[] =
    "Runs perfreg's built-in system probes (`perfreg suite list` names "
    "them),\n"
    "each until its figures are known to +-1% or its share of the time\n"
    "budget is spent; stores the session and its environment in the "
    "results\n"
    "database; and compares it with the sessions of the previous\n"
    "configuration (kernel, microcode, mitigations, C library...) and "
    "what\n"
    "differs in the environment, for the first 3 sessions after a "
    "change;\n"
    "then, and when nothing changed, with this configuration's earlier\n"
    "sessions (variables such as OPENSSL_ia32cap are shown when they\n"
    "differ, but are not part of a configuration).  The probes run in\n"
    "--processes fresh processes (4), each a unit: a figure is called\n"
    "only when the new session's processes carry its change, not one of\n"
    "them alone.\n"
    "\n"
    "  perfreg suite               all probes (within 10 minutes)\n"
    "  perfreg suite --quick       all probes, smaller, within a minute\n"
    "  perfreg suite run p...      the probes named\n"
    "  perfreg suite list          the probes and their variants\n"
    "  perfreg suite history       the stored sessions by configuration\n"
    "  perfreg suite ab p --a x --b y   two variants (or sizes) of probe p,\n"
    "                              interleaved, in several processes\n"
    "\n"
    "'perfreg suite SUB --help' describes each.\n";

static const char epilogue[] =
    "Exit status: 0 done, 1 a regression with --fail-on-regression, 2 bad "
    "usage or\n"
    "a probe that failed, 3 internal error, 130 interrupted.\n";

const struct cmd_entry cmd_suite_entry = { .name = "suite",
	.synopsis = "[options]",
	.about = about,
	.opts = options,
	.epilogue = epilogue,
	.exec = exec_suite };

const struct cmd_entry cmd_suite_run_entry = { .name = "suite run",
	.synopsis = "[options] probe...",
	.about = "Runs the probes named (perfreg suite list names them), as "
		 "`perfreg suite`\n"
		 "runs them all, and compares their figures in the same way.\n",
	.opts = options,
	.epilogue = epilogue,
	.exec = exec_suite_run };

const struct cmd_entry cmd_suite_list_entry = { .name = "suite list",
	.synopsis = "",
	.about = "Names the probes, with their variants and timers.\n",
	.opts = list_options,
	.exec = exec_suite_list };

const struct cmd_entry cmd_suite_history_entry = { .name = "suite history",
	.synopsis = "[options]",
	.about = "Lists this database's suite sessions by configuration, and "
		 "what changed\n"
		 "from one configuration to the next.\n",
	.opts = history_options,
	.exec = exec_suite_history };

const struct cmd_entry cmd_suite_ab_entry = { .name = "suite ab",
	.synopsis = "[options] probe --a x --b y",
	.about = "Runs two variants (or sizes) of one probe, interleaved in "
		 "rounds of A and B,\n"
		 "in --processes fresh processes one after the other (each "
		 "process a unit),\n"
		 "and compares B with A.\n",
	.opts = ab_options,
	.epilogue = epilogue,
	.exec = exec_suite_ab };
