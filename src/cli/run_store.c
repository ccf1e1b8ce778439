/*
 * cli/run_store.c - `perfreg run --campaign`: a session recorded in the
 * results database as it runs (every finished run committed before the
 * next starts, perfreg/store.h), and the lookup behind --resume.
 * With --monitor a run's monitor figures are stored as metrics of the
 * run beside its own, under their reserved "mon." names
 * (perfreg/monitor.h, doc/schema.md): no schema of their own.
 */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/run_store.h"
#include "perfreg/changepoint.h"
#include "perfreg/env.h"
#include "perfreg/history.h"
#include "perfreg/report_cp.h"
#include "perfreg/spawn.h"
#include "core/banned.h"

#define HOST_MAX 256
#define BOOT_MAX 64

static double
unix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * args as a JSON array of strings in *out; NULL, with a warning, when an
 * argument is not UTF-8 text (JSON cannot hold it: the session is stored
 * but cannot be resumed).  Returns an exit status.
 */
static int
args_json(char *const *args, size_t n, char **out)
{
	json_t *a = json_array(), *j, *raw;
	size_t i;

	*out = NULL;
	for (i = 0; a != NULL && i < n; i++) {
		/* json_string fails on memory or on a byte string that is
		 * not UTF-8; json_stringn_nocheck only on memory. */
		if ((j = json_string(args[i])) == NULL &&
		    (raw = json_stringn_nocheck(args[i], strlen(args[i]))) !=
			NULL) {
			json_decref(raw);
			cli_errorf("run: warning: argument %zu is not UTF-8 "
				   "text: the session cannot be resumed",
			    i + 1);
			json_decref(a);
			return PR_EXIT_OK;
		}
		if (json_array_append_new(a, j) != 0) {
			json_decref(a);
			a = NULL;
		}
	}
	if (a == NULL || (*out = json_dumps(a, JSON_COMPACT)) == NULL) {
		json_decref(a);
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	json_decref(a);
	return PR_EXIT_OK;
}

/*
 * The commit checked out in the current directory (`git rev-parse
 * --verify -q HEAD`, 5 s at most) into buf; 0 when there is none (not a
 * work tree, git not installed, no commit yet).
 */
static int
git_commit(char *buf, size_t size)
{
	char *argv[] = { "git", "rev-parse", "--verify", "-q", "HEAD", NULL };
	struct pr_spawn_opts so;
	struct pr_spawn_result res;
	size_t n;
	int ok = 0;

	pr_spawn_opts_init(&so);
	so.timeout_s = 5;
	so.output_limit = 256;
	pr_spawn_result_init(&res);
	if (pr_spawn_run(argv, &so, &res, NULL) == PR_OK &&
	    res.outcome == PR_SPAWN_OK && res.output.data != NULL) {
		n = strspn(res.output.data, "0123456789abcdef");
		if (n >= 40 && n < size) {
			memcpy(buf, res.output.data, n);
			buf[n] = '\0';
			ok = 1;
		}
	}
	pr_spawn_result_release(&res);
	return ok;
}

/* Splits "key=value" tags; adds kernel=RELEASE from the snapshot and
 * git=COMMIT when run in a git work tree, unless given. */
static int
make_tags(char *const *tags, size_t ntags, const struct pr_env *env,
    struct pr_store_tag **out, size_t *nout, char *commit, size_t csize)
{
	const struct pr_env_item *rel = pr_env_get(env, "kernel.release");
	struct pr_store_tag *t;
	const char *eq;
	size_t i, k = 0;
	int have_kernel = 0, have_git = 0;

	if ((t = calloc(ntags + 2, sizeof(*t))) == NULL) {
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	for (i = 0; i < ntags; i++) {
		eq = strchr(tags[i], '=');
		t[k].key.p = tags[i];
		t[k].key.n = (size_t)(eq - tags[i]);
		t[k].value = pr_str_c(eq + 1);
		if (t[k].key.n == 6 && memcmp(tags[i], "kernel", 6) == 0)
			have_kernel = 1;
		if (t[k].key.n == 3 && memcmp(tags[i], "git", 3) == 0)
			have_git = 1;
		k++;
	}
	if (!have_git && git_commit(commit, csize)) {
		t[k].key = pr_str_c("git");
		t[k].value = pr_str_c(commit);
		k++;
	}
	if (!have_kernel && rel != NULL && rel->value != NULL) {
		t[k].key = pr_str_c("kernel");
		t[k].value = pr_str_c(rel->value);
		t[k].value.n = strcspn(rel->value, "\n");
		k++;
	}
	*out = t;
	*nout = k;
	return PR_EXIT_OK;
}

/* The session a --resume continues is "resumed" from now on. */
static enum pr_status
mark_resumed(struct pr_store *st, int64_t id, struct pr_error *err)
{
	struct pr_store_session_info si;
	enum pr_status ps;

	memset(&si, 0, sizeof(si));
	if ((ps = pr_store_session_get(st, id, &si, err)) != PR_OK)
		return ps;
	ps = pr_store_session_end(st, id, "resumed", si.elapsed_s, err);
	pr_store_session_info_release(&si);
	return ps;
}

int
run_store_begin(struct run_store *rs, const char *db, const char *campaign,
    const struct pr_session *s, char *const *tags, size_t ntags,
    const char *const *primary, size_t nprimary, char *const *args,
    size_t nargs, int64_t resumes)
{
	struct pr_store_session_new sn;
	struct pr_store_tag *t = NULL;
	struct pr_env_opts eo;
	struct pr_error err;
	struct pr_env env;
	char host[HOST_MAX], boot[BOOT_MAX], commit[128], *aj = NULL;
	size_t i, nt = 0;
	int rc;

	memset(rs, 0, sizeof(*rs));
	if ((rc = cli_store_open("run", db, PR_STORE_CREATE, &rs->st)) !=
	    PR_EXIT_OK)
		return rc;
	pr_env_init(&env);
	cli_env_opts(&eo);
	pr_error_clear(&err);
	rc = PR_EXIT_INTERNAL;
	if (pr_env_capture(&env, &eo, &err) != PR_OK) {
		cli_error(&err);
		goto out;
	}
	if ((rc = make_tags(tags, ntags, &env, &t, &nt, commit,
		 sizeof(commit))) != PR_EXIT_OK)
		goto out;
	if ((rc = args_json(args, nargs, &aj)) != PR_EXIT_OK)
		goto out;
	rc = PR_EXIT_INTERNAL;
	cli_hostname(host, sizeof(host));
	cli_boot_id(boot, sizeof(boot));
	memset(&sn, 0, sizeof(sn));
	sn.campaign = pr_str_c(campaign);
	sn.host = host;
	sn.boot_id = boot;
	sn.args_json = aj;
	sn.started = unix_now();
	sn.env = &env;
	sn.tags = t;
	sn.ntags = nt;
	sn.resumes = resumes;
	sn.pid = (int64_t)getpid();
	sn.primary = primary;
	sn.nprimary = nprimary;
	if ((rs->vid = calloc(s->nv, sizeof(*rs->vid))) == NULL) {
		cli_errorf("out of memory");
		goto out;
	}
	rs->nv = s->nv;
	if (pr_store_session_begin(rs->st, &sn, &rs->session, &err) != PR_OK) {
		cli_errorf("run: %s: %s", pr_store_target(rs->st), err.msg);
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (resumes != 0 && mark_resumed(rs->st, resumes, &err) != PR_OK) {
		cli_errorf("run: %s: %s", pr_store_target(rs->st), err.msg);
		rc = PR_EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < s->nv; i++) {
		if (pr_store_session_variant(rs->st, rs->session,
			pr_str_c(s->v[i].name), s->v[i].command, &rs->vid[i],
			&err) != PR_OK) {
			cli_errorf("run: %s: %s", pr_store_target(rs->st),
			    err.msg);
			rc = PR_EXIT_USAGE;
			goto out;
		}
	}
	rc = PR_EXIT_OK;
out:
	free(aj);
	free(t);
	pr_env_release(&env);
	return rc;
}

/* The run's metrics, then its monitors' figures, into out (copies,
 * flags kept): what is stored of a run with monitors. */
static enum pr_status
stored_metrics(const struct pr_run *r, struct pr_dataset *out,
    struct pr_error *err)
{
	const struct pr_dataset *ds[2] = { &r->metrics, &r->monitors };
	const struct pr_metric *src;
	struct pr_metric *m;
	enum pr_status st;
	size_t k, i;

	for (k = 0; k < 2; k++)
		for (i = 0; i < ds[k]->n; i++) {
			src = &ds[k]->metrics[i];
			if ((st = pr_dataset_get(out, src->name, src->unit,
				 src->better, &m, err)) != PR_OK ||
			    (m->values.n == 0 &&
				(st = pr_sample_copy(&m->values, &src->values,
				     err)) != PR_OK))
				return st;
			m->flags |= src->flags;
		}
	return PR_OK;
}

void
run_store_fill(struct pr_store_run *sr, const struct pr_run *r)
{
	memset(sr, 0, sizeof(*sr));
	sr->warmup = r->warmup;
	sr->ok = r->ok;
	sr->outcome = pr_spawn_outcome_str(r->outcome);
	sr->exit_status = r->exit_status;
	sr->signal = r->signal;
	sr->reason = pr_str_c(r->reason);
	sr->failed_in = r->failed_in;
	sr->output.p = r->output;
	sr->output.n = r->output != NULL ? r->output_len : 0;
	sr->truncated = r->truncated;
	sr->metrics = &r->metrics;
}

enum pr_status
run_store_monitors(struct pr_store_run *sr, const struct pr_run *r,
    struct pr_dataset *all, struct pr_error *err)
{
	enum pr_status st;

	if (r->monitors.n == 0)
		return PR_OK;
	if ((st = stored_metrics(r, all, err)) == PR_OK)
		sr->metrics = all;
	return st;
}

void
run_store_add(struct run_store *rs, const struct pr_session *s,
    const struct pr_run *r)
{
	struct pr_dataset all;
	struct pr_store_run sr;
	struct pr_error err;
	enum pr_status st;

	if (rs->st == NULL || rs->failed)
		return;
	(void)s;
	run_store_fill(&sr, r);
	sr.variant = rs->vid[r->variant];
	sr.round = r->round;
	sr.seq = r->seq;
	sr.start_s = r->start_s;
	pr_error_clear(&err);
	pr_dataset_init(&all);
	if (run_store_monitors(&sr, r, &all, &err) != PR_OK) {
		pr_dataset_release(&all);
		rs->failed = 1;
		snprintf(rs->msg, sizeof(rs->msg),
		    "run %zu could not be stored: %s", r->seq + 1, err.msg);
		return;
	}
	st = pr_store_add_run(rs->st, rs->session, &sr, &err);
	pr_dataset_release(&all);
	if (st != PR_OK) {
		rs->failed = 1;
		snprintf(rs->msg, sizeof(rs->msg),
		    "%s: run %zu could not be "
		    "stored: %s",
		    pr_store_target(rs->st), r->seq + 1, err.msg);
	}
}

int
run_store_end(struct run_store *rs, const struct pr_session *s, int decided)
{
	struct pr_error err;
	const char *status;

	if (rs->st == NULL)
		return PR_EXIT_OK;
	if (rs->failed)
		status = "failed";
	else if (decided)
		status = "decided";
	else
		status = pr_stop_str(s->stop);
	pr_error_clear(&err);
	if (pr_store_session_end(rs->st, rs->session, status, s->elapsed_s,
		&err) != PR_OK) {
		/* After a run that could not be stored, the caller's one
		 * line says it (the session stays resumable). */
		if (!rs->failed)
			cli_errorf("run: %s: %s", pr_store_target(rs->st),
			    err.msg);
		return PR_EXIT_USAGE;
	}
	return PR_EXIT_OK;
}

void
run_store_close(struct run_store *rs)
{
	pr_store_close(rs->st);
	free(rs->vid);
	memset(rs, 0, sizeof(*rs));
}

struct count {
	struct pr_str *names;
	size_t *runs, n;
	int nomem;
};

static int
count_run(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct count *c = arg;
	struct pr_str *nn;
	size_t i, *nr;

	if (r->warmup ||
	    (!r->ok && r->outcome != NULL &&
		strcmp(r->outcome, "interrupted") == 0))
		return 0;
	for (i = 0; i < c->n; i++)
		if (c->names[i].n == r->variant.n &&
		    memcmp(c->names[i].p, r->variant.p, r->variant.n) == 0)
			break;
	if (i == c->n) {
		nn = realloc(c->names, (c->n + 1) * sizeof(*nn));
		if (nn != NULL)
			c->names = nn;
		nr = realloc(c->runs, (c->n + 1) * sizeof(*nr));
		if (nr != NULL)
			c->runs = nr;
		if (nn == NULL || nr == NULL) {
			c->nomem = 1;
			pr_error_set(err, PR_ENOMEM, "out of memory");
			return 1;
		}
		/* The names are only compared while the walk lasts. */
		c->names[i].p = NULL;
		c->names[i].n = r->variant.n;
		if ((c->names[i].p = malloc(r->variant.n + 1)) == NULL) {
			c->nomem = 1;
			pr_error_set(err, PR_ENOMEM, "out of memory");
			return 1;
		}
		memcpy((char *)c->names[i].p, r->variant.p, r->variant.n);
		c->runs[i] = 0;
		c->n++;
	}
	c->runs[i]++;
	return 0;
}

static int
parse_args(const char *aj, char ***args, size_t *nargs)
{
	json_error_t je;
	json_t *a, *v;
	size_t i, n;
	char **out;

	if (aj == NULL || (a = json_loads(aj, 0, &je)) == NULL ||
	    !json_is_array(a)) {
		cli_errorf("run: --resume: the session did not record its "
			   "arguments");
		return PR_EXIT_USAGE;
	}
	n = json_array_size(a);
	if ((out = calloc(n + 1, sizeof(*out))) == NULL) {
		json_decref(a);
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	json_array_foreach(a, i, v)
	{
		if (!json_is_string(v) ||
		    (out[i] = strdup(json_string_value(v))) == NULL) {
			while (i > 0)
				free(out[--i]);
			free(out);
			json_decref(a);
			cli_errorf("run: --resume: bad recorded arguments");
			return PR_EXIT_USAGE;
		}
	}
	json_decref(a);
	*args = out;
	*nargs = n;
	return PR_EXIT_OK;
}

/* Prints "perfreg: run: --resume: session N recorded: perfreg ARGS" with
 * every argument quoted for the shell and its control bytes escaped. */
static int
show_resumed(int64_t id, char *const *args, size_t n)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	enum pr_status st = PR_OK;
	const char *a;
	size_t i;

	for (i = 0; i < n && st == PR_OK; i++) {
		a = args[i];
		st = pr_buf_adds(&b, " ", NULL);
		if (st == PR_OK && a[0] != '\0' &&
		    strspn(a,
			"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789-_=.,/:+@%") == strlen(a)) {
			st = pr_buf_adds(&b, a, NULL);
			continue;
		}
		if (st == PR_OK)
			st = pr_buf_adds(&b, "'", NULL);
		for (; st == PR_OK && *a != '\0'; a++)
			st = *a == '\''
			    ? pr_buf_adds(&b, "'\\''", NULL)
			    : cli_str_escape(&b, pr_str_c((char[]){ *a, 0 }),
				  NULL);
		if (st == PR_OK)
			st = pr_buf_adds(&b, "'", NULL);
	}
	if (st != PR_OK) {
		pr_buf_release(&b);
		cli_errorf("out of memory");
		return PR_EXIT_INTERNAL;
	}
	cli_errorf("run: --resume: session %lld recorded: perfreg run%s",
	    (long long)id, b.data != NULL ? b.data : "");
	pr_buf_release(&b);
	return PR_EXIT_OK;
}

/* 1 when s is running now: recorded in this boot on this host by a
 * process that still exists and runs this program. */
static int
still_running(const struct pr_store_session_info *s)
{
	char boot[BOOT_MAX], host[HOST_MAX], a[64], pe[4096], me[4096];
	ssize_t n, m;

	if (s->pid <= 0 || s->pid > INT32_MAX || s->pid == (int64_t)getpid())
		return 0;
	cli_boot_id(boot, sizeof(boot));
	cli_hostname(host, sizeof(host));
	if (strcmp(boot, s->boot_id) != 0 || strcmp(host, s->host) != 0)
		return 0;
	if (kill((pid_t)s->pid, 0) != 0 && errno != EPERM)
		return 0;
	/* A process with that id runs: the same program, or a pid reused
	 * after a crash (then not ours). */
	snprintf(a, sizeof(a), "/proc/%lld/exe", (long long)s->pid);
	n = readlink(a, pe, sizeof(pe) - 1);
	m = readlink("/proc/self/exe", me, sizeof(me) - 1);
	if (n <= 0 || m <= 0)
		return 1;
	return n == m && memcmp(pe, me, (size_t)n) == 0;
}

int
run_store_find_resume(const char *db, const char *campaign, char ***args,
    size_t *nargs, int64_t *session, size_t *done)
{
	struct pr_store_session_info si, prev;
	struct pr_store *st = NULL;
	struct count c;
	struct pr_error err;
	enum pr_status pst;
	char host[HOST_MAX];
	int64_t id, next;
	size_t i, hops;
	int rc;

	*args = NULL;
	*nargs = 0;
	*done = 0;
	memset(&c, 0, sizeof(c));
	memset(&si, 0, sizeof(si));
	if ((rc = cli_store_open("run", db, PR_STORE_WRITE, &st)) != PR_EXIT_OK)
		return rc;
	cli_hostname(host, sizeof(host));
	pr_error_clear(&err);
	pst = pr_store_find_unfinished(st, pr_str_c(campaign), host, &si, &err);
	if (pst == PR_ENOTFOUND) {
		cli_errorf("run: --resume: campaign '%s' has no unfinished "
			   "session on %s",
		    campaign, host);
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if (pst != PR_OK) {
		cli_errorf("run: %s: %s", pr_store_target(st), err.msg);
		rc = cli_exit_for(pst);
		goto out;
	}
	*session = si.id;
	if (still_running(&si)) {
		cli_errorf("run: --resume: session %lld of campaign '%s' is "
			   "still running (process %lld on this host)",
		    (long long)si.id, campaign, (long long)si.pid);
		rc = PR_EXIT_USAGE;
		goto out;
	}
	if ((rc = parse_args(si.args_json, args, nargs)) != PR_EXIT_OK)
		goto out;
	/* The arguments come from the database, not from this command
	 * line: say what will run before anything does. */
	if ((rc = show_resumed(si.id, *args, *nargs)) != PR_EXIT_OK)
		goto out;
	/* Count the runs of the whole chain of resumed sessions. */
	for (id = si.id, hops = 0; id != 0 && hops < 10000; id = next, hops++) {
		if ((pst = pr_store_each_run(st, id, count_run, &c, &err)) !=
		    PR_OK) {
			cli_errorf("run: %s: %s", pr_store_target(st), err.msg);
			rc = cli_exit_for(pst);
			goto out;
		}
		memset(&prev, 0, sizeof(prev));
		if ((pst = pr_store_session_get(st, id, &prev, &err)) !=
		    PR_OK) {
			cli_errorf("run: %s: %s", pr_store_target(st), err.msg);
			rc = cli_exit_for(pst);
			goto out;
		}
		next = prev.resumes != id ? prev.resumes : 0;
		pr_store_session_info_release(&prev);
	}
	for (i = 0; i < c.n; i++)
		if (i == 0 || c.runs[i] < *done)
			*done = c.runs[i];
	if (c.n < si.nvariants)
		*done = 0;
	rc = PR_EXIT_OK;
out:
	for (i = 0; i < c.n; i++)
		free((char *)c.names[i].p);
	free(c.names);
	free(c.runs);
	pr_store_session_info_release(&si);
	pr_store_close(st);
	return rc;
}

/* The history note of one variant of the session just stored. */
static void
note_variant(struct run_store *rs, const char *campaign, const char *variant)
{
	struct pr_buf out = PR_BUF_INIT((size_t)1 << 20);
	struct pr_history_query q;
	struct pr_history h;
	struct pr_error err;
	char what[600];

	pr_history_query_init(&q, pr_str_c(campaign));
	q.variant = variant;
	pr_error_clear(&err);
	if (pr_history_collect(rs->st, &q, &h, &err) != PR_OK)
		return; /* the session is stored; the note is a bonus */
	snprintf(what, sizeof(what), "'%.200s' variant %.200s, %.150s",
	    campaign, variant, h.metric ? h.metric : "");
	if (pr_history_note(&h, rs->session, what, NULL, &out, &err) == PR_OK &&
	    out.len > 0) {
		const char *p = out.data, *e;

		for (; (e = strchr(p, '\n')) != NULL; p = e + 1)
			cli_errorf("run: %.*s", (int)(e - p), p);
	}
	pr_buf_release(&out);
	pr_history_release(&h);
}

void
run_store_note_history(struct run_store *rs, const char *campaign,
    const struct pr_session *s)
{
	size_t i;

	if (rs->st == NULL)
		return;
	for (i = 0; i < s->nv; i++)
		note_variant(rs, campaign, s->v[i].name);
}
