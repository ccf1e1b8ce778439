/*
 * cli/cmd_bisect.c - `perfreg bisect --good REV --bad REV [options] --
 * BENCH...`: finds the commit that changed the benchmark's figure,
 * through the noise, and confirms it against its parent.
 *
 * The bisection is the library's (perfreg/bisect_job.h: the range, the
 * work trees, the builds, the interleaved runs, the search and the
 * confirmation); this file reads the options, makes the directory of the
 * work trees (under $TMPDIR, removed at the end), stores the bisection
 * as it runs (a campaign per bisection, a variant per commit, named by
 * its hash, every run committed before the next starts; a failed build
 * as a failed run of that commit), continues a stored one with
 * --resume (its values given back to the search, so nothing is measured
 * twice), takes the environment snapshot at the start and says when it
 * changed by the end, turns SIGINT, SIGTERM and SIGHUP into a clean stop,
 * and writes the report through the report model.  With --monitor (on
 * by default, as for `perfreg run`) the monitors are read around each
 * run and stored as metrics of the run, and a confirmed culprit is
 * explained against its parent from every stored run of the two
 * (perfreg/explain.h, as `compare --campaign` explains).
 *
 * Exit status: 0 a verdict (culprit, not confirmed, not reproduced,
 * several changes, undecided within budget); 2 bad usage or bad input
 * (not a repository, unknown revisions, not ancestors, good = bad, an
 * end that does not build, a run without the metric), with what was
 * measured stored; 3 internal failure; 128 + the signal when
 * interrupted, after the report of what was measured.
 */
/* nftw(3) and struct FTW (X/Open, which _GNU_SOURCE includes). */
#define _GNU_SOURCE

#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_html.h"
#include "cli/cmd.h"
#include "cli/run_store.h"
#include "perfreg/bisect_job.h"
#include "perfreg/env.h"
#include "perfreg/explain.h"
#include "perfreg/monitor.h"
#include "perfreg/parse.h"
#include "perfreg/report_bisect.h"
#include "perfreg/report_model.h"
#include "perfreg/spawn.h"
#include "perfreg/store.h"
#include "core/banned.h"

extern const struct cmd_entry cmd_bisect_entry;
extern const struct cmd_entry cmd_bisect_run_step_entry;

#define REPORT_MAX ((size_t)64 << 20)
#define WORKDIR_PREFIX "perfreg-bisect-"
#define HOST_MAX 256
#define BOOT_MAX 64

struct bisect_cli {
	const char *good, *bad, *build, *metric, *parse, *repo, *campaign;
	const char *db, *seed_arg;
	const char *monitor_spec; /* --monitor, as given */
	size_t max_runs;
	double max_time_s, build_timeout_s, timeout_s, conf_pct, equiv_pct;
	int json, markdown, resume;
	const char *html; /* --html file */
	int step;         /* `bisect run-step`: one commit for git bisect run */
};

/* The store of one bisection: the session is begun at the first event
 * (the metric is known by then), a variant id per commit. */
struct bstore {
	struct pr_store *st;
	const char *campaign;
	int64_t session, resumes;
	int64_t *vid; /* per position, 0 until made */
	size_t seq;
	char *args_json;
	const char *workdir;
	struct pr_env env; /* the snapshot of the start */
	int have_env;
	double started;
	/* What the current session holds: the search (0) or the
	 * confirmation (1) of culprit against parent.  Each confirmation
	 * is a session of its own, tagged bisect.confirm, so that a resume
	 * can give its rounds back to it. */
	int phase;
	size_t ph_parent, ph_culprit;
	int tty;          /* progress on stderr (a terminal, not --json) */
	double shown;     /* when progress was last shown */
	int progress_out; /* a progress line is on the terminal */
};

static volatile sig_atomic_t interrupted, stop_signal;

static void
on_stop_signal(int sig)
{
	stop_signal = sig;
	interrupted = 1;
}

/*
 * The rows `bisect` and `bisect run-step` share, declared once with each
 * command's own help where it differs.  --repo, --build, --build-timeout,
 * --metric and --parse: where the commits are, how each is built and
 * read.
 */
#define BISECT_COMMIT_ROWS(REPO, BUILD, METRIC, PARSE) \
	OPT_STRING(0, "repo", "dir", REPO, struct bisect_cli, repo, \
	    OPT_NONEMPTY, NULL), \
	    OPT_STRING(0, "build", "cmd", BUILD, struct bisect_cli, build, \
		OPT_NONEMPTY, NULL), \
	    OPT_DOUBLE(0, "build-timeout", "s", \
		"a build's time limit (default 600; 0: none)", \
		struct bisect_cli, build_timeout_s, 0, 1e9, 0, "seconds"), \
	    OPT_STRING(0, "metric", "name", METRIC, struct bisect_cli, metric, \
		OPT_NONEMPTY, NULL), \
	    OPT_STRING(0, "parse", "format", PARSE, struct bisect_cli, parse, \
		OPT_NONEMPTY, NULL)

/* --max-runs, --max-time, --timeout, --confidence, --equivalence and
 * --seed: the budget and the test. */
#define BISECT_BUDGET_ROWS(MAX_RUNS, CONFIDENCE, EQUIVALENCE) \
	OPT_INT(0, "max-runs", "n", MAX_RUNS, struct bisect_cli, max_runs, 6, \
	    100000000, "a number of runs"), \
	    OPT_DOUBLE(0, "max-time", "s", \
		"stop measuring after this long (default: no limit)", \
		struct bisect_cli, max_time_s, 0, 1e9, OPT_LO_OPEN, \
		"seconds"), \
	    OPT_DOUBLE(0, "timeout", "s", \
		"a run's time limit (default: none)", struct bisect_cli, \
		timeout_s, 0, 1e9, 0, "seconds"), \
	    OPT_DOUBLE(0, "confidence", "p", CONFIDENCE, struct bisect_cli, \
		conf_pct, 50, 100, OPT_LO_OPEN | OPT_HI_OPEN | OPT_PCT_SIGN, \
		"a percentage"), \
	    OPT_DOUBLE(0, "equivalence", "pct", EQUIVALENCE, \
		struct bisect_cli, equiv_pct, 0, 100, \
		OPT_LO_OPEN | OPT_HI_OPEN | OPT_PCT_SIGN, "a percentage"), \
	    OPT_STRING(0, "seed", "n", \
		"seed of the shuffled order (default 1)", struct bisect_cli, \
		seed_arg, 0, NULL)

static const struct opt options[] = {
	OPT_STRING(0, "good", "rev",
	    "a revision where the figure is as it should be", struct bisect_cli,
	    good, OPT_NONEMPTY | OPT_INSYN, NULL),
	OPT_STRING(0, "bad", "rev", "a later revision where it changed",
	    struct bisect_cli, bad, OPT_NONEMPTY | OPT_INSYN, NULL),
	BISECT_COMMIT_ROWS("the git repository (default: the current "
			   "directory)",
	    "build each commit with this shell command, in its work tree; a "
	    "failed build skips the commit",
	    "the figure to bisect (default: the primary metric, else wall_s); "
	    "NAME=REGEX defines it from the output",
	    "read the benchmark's output as this format (see 'perfreg parse "
	    "--help')"),
	OPT_STRING(0, "monitor", "set",
	    "side metrics read around each run, which explain a culprit "
	    "against its parent: none, or a set as 'perfreg run --monitor' "
	    "takes (default: perf, stat, softirqs, interrupts, schedstat)",
	    struct bisect_cli, monitor_spec, OPT_NONEMPTY, "a monitor set"),
	OPT_GROUP(),
	BISECT_BUDGET_ROWS("runs in all, search and confirmation (default "
			   "2000)",
	    "posterior mass that names a commit, and the confirmation's level "
	    "(default 95%)",
	    "ends closer than this are \"not reproduced\" (default 1%)"),
	OPT_GROUP(),
	OPT_STRING(0, "campaign", "name",
	    "store it as this campaign (default: bisect-GOOD-BAD, short "
	    "hashes)",
	    struct bisect_cli, campaign, OPT_NONEMPTY, NULL),
	OPT_FLAG(0, "resume",
	    "continue the campaign's bisection that was cut short, measuring "
	    "nothing twice",
	    struct bisect_cli, resume, 1),
	CLI_OPT_DB(struct bisect_cli, db),
	OPT_GROUP(),
	OPT_FLAG(0, "json", "write the report as JSON", struct bisect_cli, json,
	    1),
	OPT_FLAG(0, "markdown", "write the report as Markdown",
	    struct bisect_cli, markdown, 1),
	CLI_OPT_HTML(struct bisect_cli, html),
	OPT_END(),
};

static const struct opt step_options[] = {
	OPT_STRING(0, "good", "rev",
	    "the reference: a revision where the figure is as it should be",
	    struct bisect_cli, good, OPT_NONEMPTY | OPT_INSYN, NULL),
	BISECT_COMMIT_ROWS("the git repository, whose HEAD is the commit under "
			   "test (default: the current directory)",
	    "build both commits with this shell command, each in a work tree "
	    "of its own; HEAD failing to build is a skip (125)",
	    "the figure (default: the primary metric, else wall_s); "
	    "NAME=REGEX defines it from the output",
	    "read the benchmark's output as this format"),
	OPT_GROUP(),
	BISECT_BUDGET_ROWS("runs of both commits in all (default 200); "
			   "undecided by then is a skip",
	    "one minus the error rate of the test (default 95%)",
	    "a change within this is good (default 1%)"),
	OPT_GROUP(),
	OPT_STRING(0, "campaign", "name",
	    "store it as this campaign (default: bisect-run-GOOD, a short "
	    "hash)",
	    struct bisect_cli, campaign, OPT_NONEMPTY, NULL),
	CLI_OPT_DB(struct bisect_cli, db),
	OPT_GROUP(),
	OPT_FLAG(0, "json", "write the answer as JSON", struct bisect_cli, json,
	    1),
	OPT_END(),
};

static double
unix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* perfreg's arguments as a JSON array (what --resume runs again). */
static char *
args_to_json(int argc, char **argv)
{
	json_t *a = json_array();
	char *s = NULL;
	int i;

	for (i = 0; a != NULL && i < argc; i++)
		if (json_array_append_new(a, json_string(argv[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	if (a != NULL)
		s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return s;
}

static int
rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

/* Removes a work tree directory perfreg made (its name says so). */
static void
remove_workdir(const char *dir)
{
	const char *base = strrchr(dir, '/');

	base = base != NULL ? base + 1 : dir;
	if (strncmp(base, WORKDIR_PREFIX, strlen(WORKDIR_PREFIX)) != 0)
		return;
	(void)nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Begins the stored session at the first event. */
static int
store_begin(struct bstore *b, const struct pr_bisect_job *j,
    struct pr_error *err)
{
	struct pr_store_session_new sn;
	struct pr_store_tag t[8];
	struct pr_store_session_info si;
	char host[HOST_MAX], boot[BOOT_MAX], pair[90], with[90], refuted[24];
	size_t nt = 0;

	if (b->session != 0)
		return 0;
	if (b->vid == NULL &&
	    (b->vid = calloc(j->n + 1, sizeof(*b->vid))) == NULL) {
		pr_error_set(err, PR_ENOMEM, "out of memory");
		return -1;
	}
	memset(b->vid, 0, (j->n + 1) * sizeof(*b->vid));
	t[nt].key = pr_str_c("bisect.good");
	t[nt++].value = pr_str_c(j->c[0].hash);
	t[nt].key = pr_str_c("bisect.bad");
	t[nt++].value = pr_str_c(j->c[j->n].hash);
	t[nt].key = pr_str_c("bisect.workdir");
	t[nt++].value = pr_str_c(b->workdir);
	if (j->metric != NULL) {
		t[nt].key = pr_str_c("bisect.metric");
		t[nt++].value = pr_str_c(j->metric);
	}
	/* The refutes so far: a resume gives back the largest. */
	snprintf(refuted, sizeof(refuted), "%zu", j->refuted);
	t[nt].key = pr_str_c("bisect.refuted");
	t[nt++].value = pr_str_c(refuted);
	if (b->phase) {
		snprintf(pair, sizeof(pair), "%s %s", j->c[b->ph_parent].hash,
		    j->c[b->ph_culprit].hash);
		t[nt].key = pr_str_c("bisect.confirm");
		t[nt++].value = pr_str_c(pair);
	}
	/* A confirmation by the sign test (two modes of the noise when it
	 * began) continues by it after a resume. */
	if (b->phase && j->confirm_method == PR_SEQ_METHOD_SIGN) {
		t[nt].key = pr_str_c("bisect.method");
		t[nt++].value = pr_str_c("sign");
	}
	/* The second confirmation of a "several changes" names the first:
	 * a resume counts the two, both equivalent, as one refute. */
	if (b->phase && j->first.culprit != 0 &&
	    (j->first.parent != b->ph_parent ||
		j->first.culprit != b->ph_culprit)) {
		snprintf(with, sizeof(with), "%s %s",
		    j->c[j->first.parent].hash, j->c[j->first.culprit].hash);
		t[nt].key = pr_str_c("bisect.with");
		t[nt++].value = pr_str_c(with);
	}
	cli_hostname(host, sizeof(host));
	cli_boot_id(boot, sizeof(boot));
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c(b->campaign);
	sn.host = host;
	sn.boot_id = boot;
	sn.args_json = b->args_json;
	sn.started = b->started;
	sn.env = b->have_env ? &b->env : NULL;
	sn.tags = t;
	sn.ntags = nt;
	sn.resumes = b->resumes;
	sn.pid = (int64_t)getpid();
	if (pr_store_session_begin(b->st, &sn, &b->session, err) != PR_OK)
		return -1;
	if (b->resumes != 0) {
		memset(&si, 0, sizeof(si));
		if (pr_store_session_get(b->st, b->resumes, &si, err) != PR_OK)
			return -1;
		if (pr_store_session_end(b->st, b->resumes, "resumed",
			si.elapsed_s, err) != PR_OK) {
			pr_store_session_info_release(&si);
			return -1;
		}
		pr_store_session_info_release(&si);
	}
	return 0;
}

/*
 * The session for the run the job makes now: the current one while the
 * job's phase (search, or the confirmation of one culprit) is the same,
 * else a new session that resumes it (the old one ends "resumed").
 */
static int
store_phase(struct bstore *b, const struct pr_bisect_job *j,
    struct pr_error *err)
{
	int want = j->confirming;

	if (b->session != 0 &&
	    (want != b->phase ||
		(want &&
		    (b->ph_parent != j->parent ||
			b->ph_culprit != j->culprit)))) {
		b->resumes = b->session;
		b->session = 0;
	}
	if (b->session == 0) {
		b->phase = want;
		b->ph_parent = j->parent;
		b->ph_culprit = j->culprit;
	}
	return store_begin(b, j, err);
}

static int
variant_id(struct bstore *b, const struct pr_bisect_job *j, size_t pos,
    struct pr_error *err)
{
	if (b->vid[pos] == 0 &&
	    pr_store_session_variant(b->st, b->session,
		pr_str_c(j->c[pos].hash), j->c[pos].subject, &b->vid[pos],
		err) != PR_OK)
		return -1;
	return 0;
}

/*
 * One line of progress on the terminal, rewritten in place at most ten
 * times a second: runs and builds so far, the commit being measured,
 * and the most probable first changed commit with its probability.
 * Only hashes and numbers: nothing from outside reaches the terminal.
 */
static void
progress(struct bstore *b, const struct pr_bisect_job *j, size_t pos)
{
	double now;

	if (!b->tty)
		return;
	now = unix_now();
	if (b->progress_out && now - b->shown < 0.1)
		return;
	b->shown = now;
	b->progress_out = 1;
	fprintf(stderr, "\r\033[Kbisect: %zu runs, %zu builds, at %.12s",
	    j->runs + j->runs_failed - j->runs_prior, j->builds,
	    j->c[pos].hash);
	if (j->have_state && j->st.lo == j->st.hi && j->st.hi <= j->n)
		fprintf(stderr, "; most likely %.12s (%.0f%%)",
		    j->c[j->st.hi].hash, 100 * j->st.p_loc);
	else if (j->have_state && j->st.lo < j->st.hi && j->st.hi <= j->n)
		fprintf(stderr,
		    "; most likely %zu commits up to %.12s (%.0f%%)",
		    j->st.hi - j->st.lo + 1, j->c[j->st.hi].hash,
		    100 * j->st.p_loc);
	fflush(stderr);
}

/* Clears the progress line before anything else is written. */
static void
progress_clear(struct bstore *b)
{
	if (b->progress_out) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		b->progress_out = 0;
	}
}

static int
hook_run(void *arg, const struct pr_bisect_job *j, size_t pos,
    const struct pr_session *s, const struct pr_run *r, struct pr_error *err)
{
	struct bstore *b = arg;
	struct pr_store_run sr;
	struct pr_dataset all;
	enum pr_status st;

	(void)s;
	if (store_phase(b, j, err) != 0 || variant_id(b, j, pos, err) != 0)
		return -1;
	run_store_fill(&sr, r);
	sr.variant = b->vid[pos];
	sr.round = j->rounds + r->round;
	sr.seq = b->seq++;
	sr.start_s = unix_now() - b->started;
	/* With --monitor, its figures as metrics of the run. */
	pr_dataset_init(&all);
	if ((st = run_store_monitors(&sr, r, &all, err)) == PR_OK)
		st = pr_store_add_run(b->st, b->session, &sr, err);
	pr_dataset_release(&all);
	if (st != PR_OK)
		return -1;
	progress(b, j, pos);
	return 0;
}

/* A failed build is stored as a failed run of its commit ("prepare":
 * the benchmark did not run), with the build's output. */
static int
hook_build(void *arg, const struct pr_bisect_job *j, size_t pos,
    struct pr_error *err)
{
	struct bstore *b = arg;
	const struct pr_bisect_commit *c = &j->c[pos];
	struct pr_store_run sr;

	if (c->built >= 0) {
		progress(b, j, pos);
		return 0;
	}
	if (store_phase(b, j, err) != 0 || variant_id(b, j, pos, err) != 0)
		return -1;
	memset(&sr, 0, sizeof(sr));
	sr.variant = b->vid[pos];
	sr.round = j->rounds;
	sr.seq = b->seq++;
	sr.outcome = "exit";
	sr.exit_status = -1;
	sr.reason = pr_str_c(c->skip_reason);
	sr.failed_in = "prepare";
	sr.output = pr_str_c(c->build_output);
	sr.start_s = unix_now() - b->started;
	return pr_store_add_run(b->st, b->session, &sr, err) == PR_OK ? 0 : -1;
}

/* What --resume gives back: every stored run of the chain of sessions. */
struct prior {
	struct pr_bisect_job *j;
	size_t *failed;
	int bad;
	struct pr_error err;
	/* In a confirmation's session: its two positions, the current
	 * round's values (0 parent, 1 culprit), and the pairs of every
	 * such session, tagged with the session's place in the chain
	 * (0 the newest). */
	int confirm;
	size_t cparent, cculprit, round;
	double val[2];
	int have[2];
	size_t sess;
	size_t refuted; /* the largest bisect.refuted of the chain */
	struct cpair {
		size_t sess, parent, culprit;
		double base, new_;
	} * pairs;
	size_t npairs, cap;
};

/* A confirmation round's values as a pair, once both are read. */
static int
prior_pair(struct prior *p, size_t pos, size_t round, double v,
    struct pr_error *err)
{
	int w = pos == p->cparent ? 0 : pos == p->cculprit ? 1 : -1;

	if (!p->confirm || w < 0)
		return 0;
	if (round != p->round)
		p->have[0] = p->have[1] = 0;
	p->round = round;
	p->val[w] = v;
	p->have[w] = 1;
	if (!(p->have[0] && p->have[1]))
		return 0;
	p->have[0] = p->have[1] = 0;
	if (p->npairs == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct cpair *np = realloc(p->pairs, cap * sizeof(*np));

		if (np == NULL) {
			pr_error_set(err, PR_ENOMEM, "out of memory");
			return -1;
		}
		p->pairs = np;
		p->cap = cap;
	}
	p->pairs[p->npairs].sess = p->sess;
	p->pairs[p->npairs].parent = p->cparent;
	p->pairs[p->npairs].culprit = p->cculprit;
	p->pairs[p->npairs].base = p->val[0];
	p->pairs[p->npairs++].new_ = p->val[1];
	return 0;
}

/* Two positions of this range, parent before culprit, from a tag's
 * value "PARENT CULPRIT" (two hashes): 1, or 0 when it is not one. */
static int
tag_pair(const struct pr_bisect_job *j, const struct pr_str *v, size_t *pa,
    size_t *pc)
{
	char a[41], c[41];

	if (v->n != 81 || v->p[40] != ' ')
		return 0;
	memcpy(a, v->p, 40);
	a[40] = '\0';
	memcpy(c, v->p + 41, 40);
	c[40] = '\0';
	*pa = pr_bisect_job_find(j, a);
	*pc = pr_bisect_job_find(j, c);
	return *pa != (size_t)-1 && *pc != (size_t)-1 && *pa < *pc;
}

/* 1 when tag i of si has the key key. */
static int
tag_is(const struct pr_store_session_info *si, size_t i, const char *key)
{
	size_t n = strlen(key);

	return si->tags[i].key.n == n && memcmp(si->tags[i].key.p, key, n) == 0;
}

/*
 * Whether the session is a confirmation's (tag bisect.confirm "PARENT
 * CULPRIT", two hashes of this range): sets p->confirm and the two; its
 * refutes so far (tag bisect.refuted, a whole number) into p->refuted
 * when larger; for the second confirmation of a "several changes" (tag
 * bisect.with, the first's two hashes), the link between the two
 * (pr_bisect_job_prior_several); and a confirmation's sign test (tag
 * bisect.method=sign, pr_bisect_job_prior_method).  -1 on error (out of memory).
 */
static int
prior_session(struct prior *p, const struct pr_store_session_info *si,
    struct pr_error *err)
{
	char a[24];
	size_t i, pa, pc, wa = 0, wc = 0;
	int with = 0, sign = 0;

	p->confirm = 0;
	p->have[0] = p->have[1] = 0;
	p->round = (size_t)-1;
	for (i = 0; i < si->ntags; i++) {
		const struct pr_str *v = &si->tags[i].value;

		if (tag_is(si, i, "bisect.refuted") && v->n > 0 &&
		    v->n < sizeof(a)) {
			memcpy(a, v->p, v->n);
			a[v->n] = '\0';
			if (strspn(a, "0123456789") == v->n && v->n < 8 &&
			    (pa = strtoul(a, NULL, 10)) > p->refuted)
				p->refuted = pa;
		}
		if (tag_is(si, i, "bisect.confirm") &&
		    tag_pair(p->j, v, &pa, &pc)) {
			p->confirm = 1;
			p->cparent = pa;
			p->cculprit = pc;
		}
		if (tag_is(si, i, "bisect.with"))
			with = tag_pair(p->j, v, &wa, &wc);
		if (tag_is(si, i, "bisect.method"))
			sign = v->n == 4 && memcmp(v->p, "sign", 4) == 0;
	}
	if (p->confirm && sign &&
	    pr_bisect_job_prior_method(p->j, p->cparent, p->cculprit,
		PR_SEQ_METHOD_SIGN, err) != PR_OK)
		return -1;
	if (p->confirm && with && (wa != p->cparent || wc != p->cculprit) &&
	    pr_bisect_job_prior_several(p->j, p->cparent, p->cculprit, wa, wc,
		err) != PR_OK)
		return -1;
	return 0;
}

/* The search's id of a stored run's round: unique per session and
 * round (sessions below 2^30), below PR_BISECT_JOB_LIVE_ROUNDS. */
static uint64_t
prior_round(const struct pr_store_run_rec *r)
{
	if (r->session <= 0 || r->session >= ((int64_t)1 << 30) ||
	    r->round >= ((size_t)1 << 31))
		return 0;
	return ((uint64_t)r->session << 32) + (uint64_t)r->round + 1;
}

static int
prior_run(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct prior *p = arg;
	char hash[41];
	size_t pos, i;

	if (r->warmup || r->variant.n != 40)
		return 0;
	memcpy(hash, r->variant.p, 40);
	hash[40] = '\0';
	if ((pos = pr_bisect_job_find(p->j, hash)) == (size_t)-1)
		return 0;
	if (!r->ok) {
		if (r->failed_in != NULL &&
		    strcmp(r->failed_in, "prepare") == 0 && pos > 0 &&
		    pos < p->j->n)
			return pr_bisect_job_prior_skip(p->j, pos, r->reason.p,
				   err) == PR_OK
			    ? 0
			    : -1;
		if (r->outcome == NULL ||
		    strcmp(r->outcome, "interrupted") != 0)
			p->failed[pos]++;
		return 0;
	}
	for (i = 0; i < r->nm; i++)
		if (strcmp(r->metric_names[i], p->j->metric) == 0) {
			if (pr_bisect_job_prior(p->j, pos, r->metric_values[i],
				prior_round(r), err) != PR_OK)
				return -1;
			return prior_pair(p, pos, r->round, r->metric_values[i],
			    err);
		}
	return 0;
}

/* The chain of sessions that --resume continues, oldest first, into
 * *ids; the oldest's snapshot is where the environment is compared. */
static int
load_priors(struct pr_store *st, int64_t last, struct pr_bisect_job *j,
    int64_t *first, struct pr_error *err)
{
	struct pr_store_session_info si;
	struct prior p;
	int64_t id = last;
	size_t i, k, guard = 0;
	int rc = -1;

	memset(&p, 0, sizeof(p));
	p.j = j;
	if ((p.failed = calloc(j->n + 1, sizeof(size_t))) == NULL) {
		pr_error_set(err, PR_ENOMEM, "out of memory");
		return -1;
	}
	*first = last;
	while (id != 0 && guard++ < 100000) {
		memset(&si, 0, sizeof(si));
		if (pr_store_session_get(st, id, &si, err) != PR_OK)
			goto out;
		if (prior_session(&p, &si, err) != 0 ||
		    pr_store_each_run(st, id, prior_run, &p, err) != PR_OK) {
			pr_store_session_info_release(&si);
			goto out;
		}
		*first = id;
		id = si.resumes;
		pr_store_session_info_release(&si);
		p.sess++;
	}
	/* The confirmations' rounds, oldest session first, each session's
	 * in its order: the sequences continue from them. */
	for (k = p.sess; k-- > 0;)
		for (i = 0; i < p.npairs; i++)
			if (p.pairs[i].sess == k &&
			    pr_bisect_job_prior_pair(j, p.pairs[i].parent,
				p.pairs[i].culprit, p.pairs[i].base,
				p.pairs[i].new_, err) != PR_OK)
				goto out;
	pr_bisect_job_prior_refuted(j, p.refuted);
	for (i = 1; i < j->n; i++)
		if (j->c[i].n == 0 && p.failed[i] >= 3 &&
		    pr_bisect_job_prior_skip(j, i,
			"the benchmark failed (in the earlier session)",
			err) != PR_OK)
			goto out;
	rc = 0;
out:
	free(p.failed);
	free(p.pairs);
	return rc;
}

/* The stored arguments of the session --resume continues, as an argv
 * (the caller frees each and the array). */
static int
stored_args(const char *json, char ***out, int *argc)
{
	json_t *a = json_loads(json, 0, NULL);
	char **v;
	size_t i, n;

	if (a == NULL || !json_is_array(a)) {
		json_decref(a);
		return -1;
	}
	n = json_array_size(a);
	if ((v = calloc(n + 2, sizeof(*v))) == NULL) {
		json_decref(a);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const char *s = json_string_value(json_array_get(a, i));

		if (s == NULL || (v[i] = strdup(s)) == NULL) {
			while (i-- > 0)
				free(v[i]);
			free(v);
			json_decref(a);
			return -1;
		}
	}
	json_decref(a);
	*out = v;
	*argc = (int)n;
	return 0;
}

static void
free_args(char **v, int n)
{
	int i;

	if (v == NULL)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The environment now against the snapshot of the start: a warning and
 * the diff when something changed. */
static int
env_check(struct pr_report_model *m, const struct pr_env *start,
    struct pr_envdiff *d, int *have)
{
	struct pr_env_opts eo;
	struct pr_env now;
	struct pr_error err;
	size_t i;

	*have = 0;
	pr_env_init(&now);
	cli_env_opts(&eo);
	pr_error_clear(&err);
	if (pr_env_capture(&now, &eo, &err) != PR_OK ||
	    pr_env_diff(start, &now, d, &err) != PR_OK) {
		pr_env_release(&now);
		return 0; /* nothing to say: the snapshot failed */
	}
	pr_env_release(&now);
	*have = 1;
	for (i = 0; i < d->n; i++)
		if (strncmp(d->items[i].key, "proc.", 5) != 0)
			break;
	if (d->n == 0)
		return 0;
	if (pr_report_model_textf(m, PR_SECTION_WARNING, "warnings",
		PR_SECTION_LIST, &err,
		"the environment changed during the bisection (%zu item%s, "
		"first %s): the figures before and after may not compare",
		d->n, d->n == 1 ? "" : "s", d->items[0].key) != PR_OK ||
	    pr_report_model_envdiff(m, "env_changes", 0, d, "start", "end", 5,
		&err) != PR_OK) {
		cli_error(&err);
		return -1;
	}
	return 0;
}

/* The explanation of the confirmed change of c (culprit against its
 * parent) from every stored run of the two commits in the campaign:
 * the search's and the confirmation's, and those of the sessions a
 * --resume continued, with the monitor's notes[0..nnotes) (what is
 * absent and why).  Nothing when their runs have no monitor figure. */
static enum pr_status
explain_one(struct pr_report_model *m, struct pr_store *st,
    const char *campaign, const int64_t *sess, size_t nsess,
    const struct pr_bisect_job *j, const struct pr_bisect_confirmation *c,
    const char *const *notes, size_t nnotes, struct pr_error *err)
{
	struct pr_store_variant_data bd, nd;
	char label[96];
	enum pr_status s;

	memset(&bd, 0, sizeof(bd));
	memset(&nd, 0, sizeof(nd));
	snprintf(label, sizeof(label), "%.12s against its parent %.12s",
	    j->c[c->culprit].hash, j->c[c->parent].hash);
	if ((s = pr_store_load_variant_in(st, pr_str_c(campaign),
		 pr_str_c(j->c[c->parent].hash), sess, nsess, &bd, err)) ==
		PR_OK &&
	    (s = pr_store_load_variant_in(st, pr_str_c(campaign),
		 pr_str_c(j->c[c->culprit].hash), sess, nsess, &nd, err)) ==
		PR_OK)
		s = pr_report_store_explain(m, "explanations", PR_SECTION_LIST,
		    &bd, &nd, 0, j->metric, NULL, 0, label, notes, nnotes, err);
	else if (s == PR_ENOTFOUND)
		s = PR_OK; /* a commit with no stored run: nothing to explain */
	pr_store_variant_data_release(&bd);
	pr_store_variant_data_release(&nd);
	return s;
}

/* The explanations of the verdict's confirmed changes: the culprit's,
 * or both of "several changes", from the runs of this bisection's
 * sessions (last, and the chain it resumes): not those of another
 * bisection of the same range in the campaign; each with the notes of
 * the monitor mon (what is absent and why), as `run` gives them. */
static enum pr_status
explain_culprit(struct pr_report_model *m, struct pr_store *st,
    const char *campaign, int64_t last, const struct pr_bisect_job *j,
    const struct pr_monitor *mon, struct pr_error *err)
{
	struct pr_bisect_confirmation c = pr_bisect_job_confirmation(j);
	struct pr_store_session_info si;
	enum pr_status s = PR_OK;
	int64_t *sess = NULL, *grown, id = last;
	size_t n = 0, cap = 0, i, nn = pr_monitor_nnotes(mon);
	const char **notes = calloc(nn + 1, sizeof(*notes));

	if (notes == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < nn; i++)
		notes[i] = pr_monitor_note(mon, i);
	while (s == PR_OK && id != 0 && n < 100000) {
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			if ((grown = realloc(sess, cap * sizeof(*sess))) ==
			    NULL) {
				s = pr_error_set(err, PR_ENOMEM,
				    "out of memory");
				break;
			}
			sess = grown;
		}
		sess[n++] = id;
		memset(&si, 0, sizeof(si));
		if ((s = pr_store_session_get(st, id, &si, err)) == PR_OK)
			id = si.resumes;
		pr_store_session_info_release(&si);
	}
	/* Under "several changes" j->first is always set (confirm_two). */
	if (s == PR_OK && n > 0 && j->verdict == PR_BISECT_V_SEVERAL)
		s = explain_one(m, st, campaign, sess, n, j, &j->first, notes,
		    nn, err);
	if (s == PR_OK && n > 0 &&
	    (j->verdict == PR_BISECT_V_CULPRIT ||
		j->verdict == PR_BISECT_V_SEVERAL))
		s = explain_one(m, st, campaign, sess, n, j, &c, notes, nn,
		    err);
	free(sess);
	free(notes);
	return s;
}

static int
bisect_exec(int argc, char **argv, struct bisect_cli *c, int first,
    int64_t resumes, const char *stored_metric, char *args_json)
{
	struct pr_bisect_job_opts o;
	struct pr_bisect_job *j = NULL;
	struct pr_parser *parser = NULL;
	struct pr_monitor *mon = NULL;
	struct pr_report_model m = PR_REPORT_MODEL_INIT;
	struct pr_envdiff ed;
	struct pr_env_opts eo;
	struct pr_error err;
	struct bstore b;
	struct pr_buf out;
	struct sigaction sa, old[3];
	const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	char *tmp = NULL, *metric_name = NULL, campaign[128];
	const char *tmpdir;
	enum pr_status st;
	int rc = PR_EXIT_INTERNAL, have_ed = 0, i, handlers = 0;
	int64_t oldest = 0;
	uint64_t seed = 1;
	unsigned mset = c->step ? 0 : PR_MON_DEFAULT;

	memset(&b, 0, sizeof(b));
	memset(&ed, 0, sizeof(ed));
	pr_env_init(&b.env);
	pr_buf_init(&out, REPORT_MAX);
	pr_error_clear(&err);
	if (c->seed_arg != NULL &&
	    cli_parse_seed("bisect", c->seed_arg, &seed) != 0) {
		rc = PR_EXIT_USAGE;
		goto out;
	}
	pr_bisect_job_opts_init(&o);
	o.repo = c->repo != NULL ? c->repo : ".";
	o.good = c->good;
	o.bad = c->bad;
	o.build = c->build;
	o.build_timeout_s = c->build_timeout_s;
	o.bench = argv + first;
	o.max_runs = c->max_runs;
	o.max_time_s = c->max_time_s;
	o.run_timeout_s = c->timeout_s;
	o.confidence = c->conf_pct / 100;
	o.equiv_pct = c->equiv_pct;
	o.seed = seed;
	o.cancel = &interrupted;
	o.step_only = c->step;
	if (c->parse != NULL || (c->metric != NULL && strchr(c->metric, '='))) {
		if (pr_parser_new(&parser, &err) != PR_OK)
			goto lib_error;
		if (pr_parser_set_format(parser,
			c->parse != NULL ? c->parse : "none", &err) != PR_OK) {
			rc = cli_usage_error(&cmd_bisect_entry, "--parse: %s",
			    err.msg);
			goto out;
		}
	}
	if (c->metric != NULL && strchr(c->metric, '=') != NULL) {
		if (pr_parser_add_metric(parser, c->metric, &err) != PR_OK) {
			rc = cli_usage_error(&cmd_bisect_entry, "--metric: %s",
			    err.msg);
			goto out;
		}
		metric_name = strndup(c->metric, strcspn(c->metric, "="));
		if (metric_name == NULL)
			goto nomem;
		o.metric = metric_name;
	} else {
		o.metric = c->metric != NULL ? c->metric : stored_metric;
	}
	o.parser = parser;
	if (c->monitor_spec != NULL &&
	    pr_monitor_parse_set(c->monitor_spec, &mset, &err) != PR_OK) {
		rc = cli_usage_error(&cmd_bisect_entry, "--monitor: %s",
		    err.msg);
		goto out;
	}
	if (mset != 0 && pr_monitor_new(mset, NULL, &mon, &err) != PR_OK)
		goto lib_error;
	o.monitor = mon;
	tmpdir = getenv("TMPDIR");
	if (tmpdir == NULL || tmpdir[0] == '\0')
		tmpdir = "/tmp";
	if ((tmp = malloc(strlen(tmpdir) + sizeof(WORKDIR_PREFIX) + 8)) == NULL)
		goto nomem;
	snprintf(tmp, strlen(tmpdir) + sizeof(WORKDIR_PREFIX) + 8,
	    "%s/" WORKDIR_PREFIX "XXXXXX", tmpdir);
	if (mkdtemp(tmp) == NULL) {
		cli_errorf("bisect: cannot make a directory in %s: %s", tmpdir,
		    strerror(errno));
		rc = PR_EXIT_USAGE;
		free(tmp);
		tmp = NULL;
		goto out;
	}
	o.workdir = tmp;
	o.on_run = hook_run;
	o.on_build = hook_build;
	o.arg = &b;
	if ((st = pr_bisect_job_new(&o, &j, &err)) != PR_OK)
		goto lib_error;
	if (c->campaign != NULL)
		snprintf(campaign, sizeof(campaign), "%s", c->campaign);
	else if (c->step)
		snprintf(campaign, sizeof(campaign), "bisect-run-%.12s",
		    j->c[0].hash);
	else
		snprintf(campaign, sizeof(campaign), "bisect-%.12s-%.12s",
		    j->c[0].hash, j->c[j->n].hash);
	b.campaign = campaign;
	b.workdir = tmp;
	b.started = unix_now();
	b.resumes = resumes;
	b.args_json = args_json;
	b.tty = !c->json && isatty(STDERR_FILENO);
	if ((rc = cli_store_open("bisect", c->db, PR_STORE_CREATE, &b.st)) !=
	    PR_EXIT_OK)
		goto out;
	rc = PR_EXIT_INTERNAL;
	if (resumes != 0 && load_priors(b.st, resumes, j, &oldest, &err) != 0)
		goto lib_error;
	cli_env_opts(&eo);
	if (oldest != 0) {
		int found = 0;

		if (pr_store_session_env(b.st, oldest, &b.env, &found, &err) !=
		    PR_OK)
			goto lib_error;
		b.have_env = found;
	}
	if (!b.have_env) {
		pr_env_release(&b.env);
		pr_env_init(&b.env);
		b.have_env = pr_env_capture(&b.env, &eo, NULL) == PR_OK;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	handlers = 1;
	st = c->step ? pr_bisect_job_step(j, &err) : pr_bisect_job_run(j, &err);
	progress_clear(&b);
	pr_bisect_job_cleanup(j);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	handlers = 0;
	if (b.session != 0) {
		struct pr_error e2;

		pr_error_clear(&e2);
		(void)pr_store_session_end(b.st, b.session,
		    st != PR_OK          ? "failed"
			: j->interrupted ? "interrupted"
			: j->budget_hit  ? "undecided"
					 : "done",
		    j->elapsed_s, &e2);
	}
	if (st != PR_OK)
		goto lib_error;
	if ((c->step ? pr_report_bisect_step(&m, j, &err)
		     : pr_report_bisect(&m, j, &err)) != PR_OK ||
	    (!c->step && mon != NULL &&
		explain_culprit(&m, b.st, campaign,
		    b.session != 0 ? b.session : b.resumes, j, mon,
		    &err) != PR_OK))
		goto lib_error;
	if (b.have_env && env_check(&m, &b.env, &ed, &have_ed) != 0)
		goto out;
	if (pr_report_model_string(&m, "campaign", PR_SECTION_NO_CSV, campaign,
		&err) != PR_OK ||
	    pr_report_model_integer(&m, "session", PR_SECTION_NO_CSV,
		b.session != 0, b.session, &err) != PR_OK ||
	    ((c->html == NULL || strcmp(c->html, "-") != 0) &&
		pr_report_model_render(&out, &m,
		    c->json           ? PR_REPORT_JSON
			: c->markdown ? PR_REPORT_MARKDOWN
				      : PR_REPORT_TEXT,
		    &err) != PR_OK))
		goto lib_error;
	/* --html: the page; "-" writes it instead of the report. */
	if (c->html != NULL) {
		char title[64];

		snprintf(title, sizeof(title), "perfreg bisect %.12s..%.12s",
		    j->c[0].hash, j->c[j->n].hash);
		if ((rc = cli_html_model("bisect", c->html, &m, title)) !=
		    PR_EXIT_OK)
			goto out;
	}
	if ((c->html == NULL || strcmp(c->html, "-") != 0) &&
	    (rc = cli_write(&out)) != PR_EXIT_OK)
		goto out;
	rc = j->interrupted ? 128 + (stop_signal ? stop_signal : SIGINT)
	    : c->step       ? pr_report_bisect_step_answer(j)
			    : PR_EXIT_OK;
	goto out;
nomem:
	cli_errorf("out of memory");
	rc = PR_EXIT_INTERNAL;
	goto out;
lib_error:
	cli_errorf("bisect: %s", err.msg);
	rc = cli_exit_for(err.status);
	if (j != NULL && j->runs > 0 && b.session != 0)
		cli_errorf("bisect: the %zu runs measured are stored in "
			   "campaign '%s' (--resume continues)",
		    j->runs, campaign);
out:
	if (handlers)
		for (i = 0; i < 3; i++)
			sigaction(sigs[i], &old[i], NULL);
	pr_report_model_release(&m);
	if (have_ed)
		pr_envdiff_release(&ed);
	pr_bisect_job_free(j);
	if (tmp != NULL) {
		remove_workdir(tmp);
		free(tmp);
	}
	if (b.st != NULL)
		pr_store_close(b.st);
	free(b.vid);
	pr_env_release(&b.env);
	pr_parser_free(parser);
	pr_monitor_free(mon);
	free(metric_name);
	pr_buf_release(&out);
	return rc;
}

static void
defaults(struct bisect_cli *c)
{
	memset(c, 0, sizeof(*c));
	c->max_runs = 2000;
	c->build_timeout_s = 600;
	c->conf_pct = 95;
	c->equiv_pct = 1;
}

/* --resume: the unfinished bisection of the campaign on this host. */
static int
resume(struct bisect_cli *c)
{
	struct pr_store_session_info si;
	struct pr_store *st = NULL;
	struct pr_error err;
	struct bisect_cli c2;
	char host[HOST_MAX], **v = NULL, **pv = NULL, *metric = NULL;
	int n = 0, first, rc;
	size_t i;

	if (c->campaign == NULL)
		return cli_usage_error(&cmd_bisect_entry,
		    "--resume needs --campaign NAME (the bisection's campaign, "
		    "as 'perfreg campaigns' lists it)");
	if ((rc = cli_store_open("bisect", c->db, PR_STORE_WRITE, &st)) !=
	    PR_EXIT_OK)
		return rc;
	cli_hostname(host, sizeof(host));
	memset(&si, 0, sizeof(si));
	pr_error_clear(&err);
	if (pr_store_find_unfinished(st, pr_str_c(c->campaign), host, &si,
		&err) != PR_OK) {
		cli_errorf("bisect: --resume: campaign '%s' has no bisection "
			   "that was cut short on this host",
		    c->campaign);
		pr_store_close(st);
		return PR_EXIT_USAGE;
	}
	for (i = 0; i < si.ntags; i++)
		if (si.tags[i].key.n == 13 &&
		    memcmp(si.tags[i].key.p, "bisect.metric", 13) == 0) {
			free(metric);
			metric = strdup(si.tags[i].value.p);
		} else if (si.tags[i].key.n == 14 &&
		    memcmp(si.tags[i].key.p, "bisect.workdir", 14) == 0)
			remove_workdir(si.tags[i].value.p);
	pr_store_close(st);
	if (si.args_json == NULL || stored_args(si.args_json, &v, &n) != 0) {
		cli_errorf("bisect: --resume: session %lld of '%s' has no "
			   "arguments to run again",
		    (long long)si.id, c->campaign);
		pr_store_session_info_release(&si);
		free(metric);
		return PR_EXIT_USAGE;
	}
	/* opt_parse reorders its vector: parse a copy, free v. */
	if ((pv = calloc((size_t)n + 1, sizeof(*pv))) == NULL) {
		cli_errorf("out of memory");
		rc = PR_EXIT_INTERNAL;
		goto out;
	}
	memcpy(pv, v, (size_t)n * sizeof(*pv));
	defaults(&c2);
	if ((first = opt_parse(&cmd_bisect_entry, n, pv, &c2, NULL)) < 0 ||
	    first >= n) {
		rc = PR_EXIT_USAGE;
		goto out;
	}
	c2.campaign = c->campaign;
	c2.db = c->db;
	c2.json = c->json;
	c2.markdown = c->markdown;
	c2.html = c->html;
	rc = bisect_exec(n, pv, &c2, first, si.id, metric, si.args_json);
out:
	free(pv);
	pr_store_session_info_release(&si);
	free_args(v, n);
	free(metric);
	return rc;
}

static int
exec_bisect(int argc, char **argv)
{
	struct bisect_cli c;
	char *aj;
	int first, rc;

	defaults(&c);
	if ((first = opt_parse(&cmd_bisect_entry, argc, argv, &c, NULL)) < 0)
		return PR_EXIT_USAGE;
	if (c.resume)
		return first < argc ? cli_usage_error(&cmd_bisect_entry,
					  "--resume runs the stored command; "
					  "give no benchmark")
				    : resume(&c);
	if (c.good == NULL || c.bad == NULL)
		return cli_usage_error(&cmd_bisect_entry,
		    "--good REV and --bad REV are needed");
	if (first >= argc)
		return cli_usage_error(&cmd_bisect_entry,
		    "no benchmark command (after --)");
	if (c.json && c.markdown)
		return cli_usage_error(&cmd_bisect_entry,
		    "--json and --markdown exclude each other");
	if ((rc = cli_html_check("bisect", c.html)) != PR_EXIT_OK)
		return rc;
	if ((aj = args_to_json(argc, argv)) == NULL) {
		cli_errorf("bisect: warning: an argument is not UTF-8 text: "
			   "the bisection cannot be resumed");
	}
	rc = bisect_exec(argc, argv, &c, first, 0, NULL, aj);
	free(aj);
	return rc;
}

/*
 * `bisect run-step`: git bisect run's answer for its HEAD.  Every
 * failure exits 255, which makes git bisect stop: any of 1 .. 127 but
 * 125 would mark the commit bad.
 */
static int
exec_run_step(int argc, char **argv)
{
	struct bisect_cli c;
	int first, rc;

	defaults(&c);
	c.max_runs = 200;
	c.step = 1;
	if ((first = opt_parse(&cmd_bisect_run_step_entry, argc, argv, &c,
		 NULL)) < 0)
		return 255;
	if (c.good == NULL) {
		(void)cli_usage_error(&cmd_bisect_run_step_entry,
		    "--good REV is needed");
		return 255;
	}
	if (first >= argc) {
		(void)cli_usage_error(&cmd_bisect_run_step_entry,
		    "no benchmark command (after --)");
		return 255;
	}
	c.bad = "HEAD";
	rc = bisect_exec(argc, argv, &c, first, 0, NULL, NULL);
	if (rc == 0 || rc == 1 || rc == 125 || rc >= 128)
		return rc;
	return 255;
}

static const char about[] =
    "Finds the first-parent commit after --good, up to --bad, that changed "
    "the\n"
    "benchmark's figure, through the noise: each commit is checked out into a "
    "work\n"
    "tree of its own (never yours) and built once with --build; the commit "
    "under\n"
    "test and the ends of the current bracket run in shuffled rounds; the "
    "next\n"
    "commit and its runs are chosen by expected information per cost, until "
    "one\n"
    "commit holds --confidence of the posterior; that commit is then "
    "confirmed\n"
    "against its parent by the anytime-valid sequential test of `perfreg run\n"
    "--until-decided`.  Stored as it runs (a campaign per bisection, a variant "
    "per\n"
    "commit); --resume continues one that was cut short.\n";

static const char epilogue[] =
    "Exit status: 0 a verdict (culprit, not confirmed, not reproduced, "
    "several\n"
    "changes, undecided within budget), 2 bad usage or bad input (what was "
    "measured\n"
    "stays stored), 3 internal error, 128+N when stopped by signal N.\n";

const struct cmd_entry cmd_bisect_entry = {
	.name = "bisect",
	.synopsis =
	    "--good REV --bad REV [options] -- BENCH...\n"
	    "--resume --campaign NAME [--db TARGET] [--json] [--html FILE]",
	.about = about,
	.opts = options,
	.epilogue = epilogue,
	.exec = exec_bisect,
};

static const char step_about[] =
    "One step of `git bisect run`: measures the repository's HEAD (the "
    "commit\n"
    "git bisect checked out) against --good, each checked out into a work "
    "tree\n"
    "of its own (never yours) and built there with --build, in interleaved\n"
    "rounds decided by the anytime-valid sequential test of `perfreg run\n"
    "--until-decided`; stored as a campaign (a variant per commit).  Use:\n"
    "  git bisect start BAD GOOD\n"
    "  git bisect run perfreg bisect run-step --good GOOD -- ./bench\n";

static const char step_epilogue[] =
    "Exit status (what git bisect run expects): 0 good (equivalent within\n"
    "--equivalence, or better), 1 bad (a regression), 125 skip (HEAD does "
    "not\n"
    "build, its benchmark fails, or undecided within --max-runs), 255 for "
    "bad\n"
    "usage, bad input or an internal error (git bisect stops), 128+N when\n"
    "stopped by signal N.\n";

const struct cmd_entry cmd_bisect_run_step_entry = {
	.name = "bisect run-step",
	.synopsis = "--good REV [options] -- BENCH...",
	.about = step_about,
	.opts = step_options,
	.epilogue = step_epilogue,
	.exec = exec_run_step,
};
