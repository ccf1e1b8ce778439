/*
 * bisect/job.c - a bisection in a git repository (perfreg/bisect_job.h):
 * git for the range and the work trees, /bin/sh for the builds, the
 * runner for interleaved measurements, perfreg/bisect.h for where to
 * measure next, and perfreg/seq.h (through pr_session_decide) for the
 * confirmation of a culprit against its parent.
 *
 * Invariants: positions 0 (good) and n (bad) are never skipped; a value
 * reaches the search exactly once (commit c[pos].v mirrors what the
 * search holds); every run, failed or not, goes through the on_run hook
 * before the next starts, so that a store keeps what was measured
 * whatever happens next.  git runs with its arguments as words (no
 * shell); commands of the user run with /bin/sh -c after a `cd` into
 * the commit's work tree, every word quoted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/bisect_job.h"
#include "perfreg/buf.h"
#include "perfreg/primary.h"
#include "perfreg/spawn.h"
#include "core/banned.h"

#define GIT_TIMEOUT_S 120
#define GIT_OUTPUT_MAX ((size_t)64 << 20)
#define BUILD_OUTPUT_MAX ((size_t)1 << 20)
#define RANGE_MAX 1000000
#define FAIL_SKIP 3
#define CONFIRM_ROUNDS_MAX 100
#define BATCH_VARIANTS 3

void
pr_bisect_job_opts_init(struct pr_bisect_job_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->max_runs = 2000;
	o->build_timeout_s = 600;
	o->confidence = 0.95;
	o->equiv_pct = 1;
	o->seed = 1;
}

const char *
pr_bisect_verdict_str(enum pr_bisect_verdict v)
{
	switch (v) {
	case PR_BISECT_V_CULPRIT:
		return "culprit";
	case PR_BISECT_V_NOT_CONFIRMED:
		return "not confirmed";
	case PR_BISECT_V_NOT_REPRODUCED:
		return "not reproduced";
	case PR_BISECT_V_SEVERAL:
		return "several changes";
	case PR_BISECT_V_UNDECIDED:
		return "undecided within budget";
	case PR_BISECT_V_NONE:
		break;
	}
	return "interrupted";
}

/* The first line of s (at most 200 bytes) into buf. */
static const char *
first_line(const char *s, char *buf, size_t size)
{
	size_t n;

	if (s == NULL)
		s = "";
	while (*s == '\n')
		s++;
	n = strcspn(s, "\n");
	if (n > 200)
		n = 200;
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

/* The first line of a build's output that says "error", else its
 * start: what a one-line reason should show of a compiler's output. */
static const char *
error_line(const char *s)
{
	const char *e = strstr(s, "error");

	if (e == NULL)
		return s;
	while (e > s && e[-1] != '\n')
		e--;
	return e;
}

/*
 * Runs `git -C dir ARGS...` and returns its standard output in *out (the
 * caller's, NULL-terminated text; may be NULL to discard); *ok is 1 when
 * it exited 0, else 0 with why (one line of its standard error).
 * PR_EIO when git could not run at all.
 */
static enum pr_status
git(const char *dir, const char *const *args, char **out, int *ok, char *why,
    size_t whysize, struct pr_error *err)
{
	const char *argv[24];
	struct pr_spawn_opts so;
	struct pr_spawn_result r;
	enum pr_status st;
	size_t i, k = 0;

	argv[k++] = "git";
	argv[k++] = "-C";
	argv[k++] = dir;
	for (i = 0; args[i] != NULL && k < 23; i++)
		argv[k++] = args[i];
	argv[k] = NULL;
	pr_spawn_opts_init(&so);
	so.timeout_s = GIT_TIMEOUT_S;
	so.output_limit = GIT_OUTPUT_MAX;
	pr_spawn_result_init(&r);
	*ok = 0;
	if (out != NULL)
		*out = NULL;
	if (why != NULL && whysize > 0)
		why[0] = '\0';
	/* NOLINTNEXTLINE(bugprone-multi-level-implicit-pointer-conversion): posix argv */
	st = pr_spawn_run((char *const *)argv, &so, &r, err);
	if (st != PR_OK)
		goto done;
	if (r.outcome == PR_SPAWN_NOEXEC) {
		st = pr_error_set(err, PR_EIO, "cannot run git: %s", r.reason);
		goto done;
	}
	if (r.outcome == PR_SPAWN_OK) {
		*ok = 1;
		if (out != NULL) {
			if (r.output.data == NULL &&
			    (st = pr_buf_adds(&r.output, "", err)) != PR_OK)
				goto done;
			*out = pr_buf_detach(&r.output, NULL);
		}
	} else if (why != NULL) {
		first_line(r.errout.data != NULL && r.errout.len > 0
			? r.errout.data
			: r.reason,
		    why, whysize);
	}
done:
	pr_spawn_result_release(&r);
	return st;
}

/* Appends s quoted for /bin/sh ('...', a quote as '\''). */
static enum pr_status
shquote(struct pr_buf *b, const char *s, struct pr_error *err)
{
	enum pr_status st;

	if ((st = pr_buf_addc(b, '\'', err)) != PR_OK)
		return st;
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			st = pr_buf_adds(b, "'\\''", err);
		else
			st = pr_buf_addc(b, *s, err);
		if (st != PR_OK)
			return st;
	}
	return pr_buf_addc(b, '\'', err);
}

/* "cd 'DIR' && " into b. */
static enum pr_status
cd_prefix(struct pr_buf *b, const char *dir, struct pr_error *err)
{
	enum pr_status st;

	if ((st = pr_buf_adds(b, "cd ", err)) != PR_OK ||
	    (st = shquote(b, dir, err)) != PR_OK)
		return st;
	return pr_buf_adds(b, " && ", err);
}

static int
is_hex40(const char *s)
{
	return strspn(s, "0123456789abcdef") == 40;
}

/* The commit rev names in the repository, into hash (41 bytes). */
static enum pr_status
resolve(const char *top, const char *what, const char *rev, char *hash,
    struct pr_error *err)
{
	char spec[512], *out = NULL, why[256];
	const char *args[] = { "rev-parse", "--verify", "--quiet", spec, NULL };
	enum pr_status st;
	int ok;

	if (rev[0] == '\0' || rev[0] == '-' || strlen(rev) > 400)
		return pr_error_set(err, PR_EINVAL, "%s: unknown revision '%s'",
		    what, rev);
	snprintf(spec, sizeof(spec), "%s^{commit}", rev);
	if ((st = git(top, args, &out, &ok, why, sizeof(why), err)) != PR_OK)
		return st;
	if (!ok || !is_hex40(out)) {
		free(out);
		return pr_error_set(err, PR_EINVAL,
		    "%s: unknown revision '%s' (not a commit of %s)", what, rev,
		    top);
	}
	memcpy(hash, out, 40);
	hash[40] = '\0';
	free(out);
	return PR_OK;
}

/* Whether a is an ancestor of b: 1, 0, or -1 with err set. */
static int
is_ancestor(const char *top, const char *a, const char *b, struct pr_error *err)
{
	const char *args[] = { "merge-base", "--is-ancestor", a, b, NULL };
	int ok;

	if (git(top, args, NULL, &ok, NULL, 0, err) != PR_OK)
		return -1;
	return ok;
}

static void
commit_release(struct pr_bisect_commit *c)
{
	free(c->subject);
	free(c->dir);
	free(c->skip_reason);
	free(c->build_output);
	free(c->v);
	free(c->rd);
	memset(c, 0, sizeof(*c));
}

/* Fills the range from `git log --first-parent` of good..bad. */
static enum pr_status
list_range(struct pr_bisect_job *j, const char *good, const char *bad,
    struct pr_error *err)
{
	char range[100], *out = NULL, *p, *line, *tab, why[256];
	const char *args[] = { "log", "--first-parent", "--reverse",
		"--format=%H %P%x09%s", range, NULL };
	const char *gargs[] = { "log", "-1", "--format=%s", good, NULL };
	size_t n = 0, cap = 0, k;
	char *gsubj = NULL;
	enum pr_status st;
	int ok;

	snprintf(range, sizeof(range), "%s..%s", good, bad);
	if ((st = git(j->toplevel, args, &out, &ok, why, sizeof(why), err)) !=
	    PR_OK)
		return st;
	if (!ok) {
		free(out);
		return pr_error_set(err, PR_EIO, "git log %s: %s", range, why);
	}
	/* Count the lines first: one commit each. */
	for (p = out; *p != '\0'; p++)
		if (*p == '\n')
			cap++;
	if (cap == 0 || cap > RANGE_MAX) {
		free(out);
		return pr_error_set(err, PR_EINVAL,
		    "%zu commits between --good and --bad", cap);
	}
	if ((j->c = calloc(cap + 1, sizeof(*j->c))) == NULL) {
		free(out);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	j->n = cap; /* so that a failure frees every entry */
	memcpy(j->c[0].hash, good, 41);
	for (line = out; *line != '\0' && n < cap; line = p + 1) {
		p = strchr(line, '\n');
		*p = '\0';
		if (strlen(line) < 40 || !is_hex40(line)) {
			free(out);
			return pr_error_set(err, PR_EIO,
			    "git log printed an unexpected line");
		}
		/* The first parent of the first commit must be good: else
		 * good is only reached through a merge's other parent. */
		if (n == 0 &&
		    (strlen(line) < 81 || memcmp(line + 41, good, 40) != 0)) {
			free(out);
			return pr_error_set(err, PR_EINVAL,
			    "--good %.12s is not on the first-parent line of "
			    "--bad %.12s (it is reached through a merge)",
			    good, bad);
		}
		n++;
		memcpy(j->c[n].hash, line, 40);
		j->c[n].hash[40] = '\0';
		tab = strchr(line, '\t');
		if ((j->c[n].subject = strdup(tab != NULL ? tab + 1 : "")) ==
		    NULL) {
			free(out);
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		}
	}
	free(out);
	if (n == 0 || strcmp(j->c[n].hash, bad) != 0)
		return pr_error_set(err, PR_EIO,
		    "git log did not end at --bad %.12s", bad);
	j->n = n;
	if ((st = git(j->toplevel, gargs, &gsubj, &ok, NULL, 0, err)) != PR_OK)
		return st;
	if (gsubj != NULL) {
		k = strcspn(gsubj, "\n");
		gsubj[k] = '\0';
	}
	j->c[0].subject = gsubj != NULL ? gsubj : strdup("");
	if (j->c[0].subject == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	return PR_OK;
}

/* The two commits of a step: good (0) and the commit under test (1),
 * with their subjects. */
static enum pr_status
two_commits(struct pr_bisect_job *j, const char *good, const char *bad,
    struct pr_error *err)
{
	const char *args[] = { "log", "-1", "--format=%s", NULL, NULL };
	enum pr_status st;
	size_t i;
	int ok;

	if ((j->c = calloc(2, sizeof(*j->c))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	j->n = 1;
	memcpy(j->c[0].hash, good, 41);
	memcpy(j->c[1].hash, bad, 41);
	for (i = 0; i < 2; i++) {
		char *subj = NULL;

		args[3] = j->c[i].hash;
		if ((st = git(j->toplevel, args, &subj, &ok, NULL, 0, err)) !=
		    PR_OK)
			return st;
		if (subj != NULL)
			subj[strcspn(subj, "\n")] = '\0';
		j->c[i].subject = subj != NULL ? subj : strdup("");
		if (j->c[i].subject == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	return PR_OK;
}

enum pr_status
pr_bisect_job_new(const struct pr_bisect_job_opts *o,
    struct pr_bisect_job **out, struct pr_error *err)
{
	const char *targs[] = { "rev-parse", "--show-toplevel", NULL };
	struct pr_bisect_job *j;
	char good[41], bad[41], why[256], *top = NULL;
	enum pr_status st;
	int ok, anc;

	*out = NULL;
	if (o->bench == NULL || o->bench[0] == NULL)
		return pr_error_set(err, PR_EINVAL, "no benchmark command");
	if (o->workdir == NULL || o->repo == NULL || o->good == NULL ||
	    o->bad == NULL)
		return pr_error_set(err, PR_EINVAL,
		    "a repository, --good and --bad are needed");
	if (!(o->confidence > 0.5 && o->confidence < 1) ||
	    !(o->equiv_pct > 0 && o->equiv_pct < 100) || o->max_runs < 6)
		return pr_error_set(err, PR_EINVAL, "bad bisection options");
	if ((st = git(o->repo, targs, &top, &ok, why, sizeof(why), err)) !=
	    PR_OK)
		return st;
	if (!ok) {
		free(top);
		return pr_error_set(err, PR_EINVAL,
		    "%s: not a git repository (git: %s)", o->repo, why);
	}
	top[strcspn(top, "\n")] = '\0';
	if ((j = calloc(1, sizeof(*j))) == NULL) {
		free(top);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	j->o = *o;
	j->toplevel = top;
	if (o->metric != NULL && (j->metric = strdup(o->metric)) == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto fail;
	}
	if ((st = resolve(top, "--good", o->good, good, err)) != PR_OK ||
	    (st = resolve(top, "--bad", o->bad, bad, err)) != PR_OK)
		goto fail;
	if (strcmp(good, bad) == 0) {
		/* run-step has no --bad: the commit under test is HEAD. */
		st = o->step_only
		    ? pr_error_set(err, PR_EINVAL,
			  "the commit to test (%s, %.12s) is --good '%s' "
			  "itself",
			  o->bad, good, o->good)
		    : pr_error_set(err, PR_EINVAL,
			  "--good '%s' and --bad '%s' are the same commit "
			  "(%.12s)",
			  o->good, o->bad, good);
		goto fail;
	}
	if (o->step_only) {
		if ((anc = is_ancestor(top, good, bad, err)) < 0) {
			st = err != NULL ? err->status : PR_EIO;
			goto fail;
		}
		if (!anc) {
			st = pr_error_set(err, PR_EINVAL,
			    "--good %.12s is not an ancestor of the commit "
			    "under test %.12s",
			    good, bad);
			goto fail;
		}
		if ((st = two_commits(j, good, bad, err)) != PR_OK)
			goto fail;
		*out = j;
		return PR_OK;
	}
	if ((anc = is_ancestor(top, good, bad, err)) < 0) {
		st = err != NULL ? err->status : PR_EIO;
		goto fail;
	}
	if (!anc) {
		anc = is_ancestor(top, bad, good, err);
		st = pr_error_set(err, PR_EINVAL,
		    anc == 1 ? "--good %.12s is a descendant of --bad %.12s, "
			       "not an ancestor (swapped?)"
			     : "--good %.12s is not an ancestor of --bad %.12s",
		    good, bad);
		goto fail;
	}
	if ((st = list_range(j, good, bad, err)) != PR_OK)
		goto fail;
	*out = j;
	return PR_OK;
fail:
	pr_bisect_job_free(j);
	return st;
}

size_t
pr_bisect_job_find(const struct pr_bisect_job *j, const char *hash)
{
	size_t i, len = strlen(hash);

	if (len < 7 || len > 40)
		return (size_t)-1;
	for (i = 0; i <= j->n; i++)
		if (strncmp(j->c[i].hash, hash, len) == 0)
			return i;
	return (size_t)-1;
}

/* Appends a value to commit pos, and to the search when there is one. */
static enum pr_status
push_value(struct pr_bisect_job *j, size_t pos, double v, uint64_t round,
    struct pr_error *err)
{
	struct pr_bisect_commit *c = &j->c[pos];
	enum pr_status st;
	double *nv;
	uint64_t *nr;

	if (!(isfinite(v) && v > 0))
		return pr_error_set(err, PR_EINVAL,
		    "commit %.12s: the metric '%s' is %g, not a number > 0",
		    c->hash, j->metric != NULL ? j->metric : "?", v);
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		if ((nv = realloc(c->v, c->cap * sizeof(*nv))) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		c->v = nv;
		if ((nr = realloc(c->rd, c->cap * sizeof(*nr))) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		c->rd = nr;
	}
	if (j->search != NULL &&
	    (st = pr_bisect_add_round(j->search, pos, v, round, err)) != PR_OK)
		return st;
	c->rd[c->n] = round;
	c->v[c->n++] = v;
	j->runs++;
	return PR_OK;
}

enum pr_status
pr_bisect_job_prior(struct pr_bisect_job *j, size_t pos, double value,
    uint64_t round, struct pr_error *err)
{
	enum pr_status st;

	if (pos > j->n || j->c[pos].built < 0)
		return pr_error_set(err, PR_EINVAL, "bad position %zu", pos);
	if (round >= PR_BISECT_JOB_LIVE_ROUNDS)
		return pr_error_set(err, PR_EINVAL, "bad round id");
	if ((st = push_value(j, pos, value, round, err)) != PR_OK)
		return st;
	j->c[pos].prior++;
	j->runs_prior++;
	return PR_OK;
}

enum pr_status
pr_bisect_job_prior_skip(struct pr_bisect_job *j, size_t pos,
    const char *reason, struct pr_error *err)
{
	struct pr_bisect_commit *c;

	if (pos == 0 || pos >= j->n)
		return pr_error_set(err, PR_EINVAL,
		    "an end of the range cannot be skipped");
	c = &j->c[pos];
	if (c->n > 0)
		return PR_OK; /* measured after all: keep its values */
	c->built = -1;
	free(c->skip_reason);
	if ((c->skip_reason = strdup(reason != NULL ? reason : "skipped")) ==
	    NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	return PR_OK;
}

/* Skips commit pos now (its build or every run failed). */
static enum pr_status
skip_now(struct pr_bisect_job *j, size_t pos, const char *reason,
    struct pr_error *err)
{
	struct pr_bisect_commit *c = &j->c[pos];

	if (pos == 0 || (pos == j->n && !j->o.step_only))
		return pr_error_set(err, PR_EINVAL, "%s %.12s: %s",
		    pos == 0 ? "--good" : "--bad", c->hash, reason);
	c->built = -1;
	free(c->skip_reason);
	if ((c->skip_reason = strdup(reason)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	if (j->search != NULL)
		return pr_bisect_skip(j->search, pos, err);
	return PR_OK;
}

/* Checks out and builds commit pos unless done; a failed build skips
 * it (an end: an error). */
static enum pr_status
ensure_built(struct pr_bisect_job *j, size_t pos, struct pr_error *err)
{
	struct pr_bisect_commit *c = &j->c[pos];
	const char *args[] = { "worktree", "add", "--detach", "--quiet", NULL,
		c->hash, NULL };
	struct pr_spawn_opts so;
	struct pr_spawn_result r;
	struct pr_buf cmd, path;
	char why[320], *line;
	enum pr_status st = PR_OK;
	double t0;
	int ok;

	if (c->built != 0)
		return PR_OK;
	pr_buf_init(&cmd, (size_t)1 << 20);
	pr_buf_init(&path, (size_t)1 << 16);
	pr_spawn_result_init(&r);
	t0 = pr_spawn_now();
	if ((st = pr_buf_addf(&path, err, "%s/%.12s-%zu", j->o.workdir, c->hash,
		 pos)) != PR_OK)
		goto out;
	args[4] = path.data;
	if ((st = git(j->toplevel, args, NULL, &ok, why, sizeof(why), err)) !=
	    PR_OK)
		goto out;
	if (!ok) {
		st = pr_error_set(err, PR_EIO,
		    "git worktree add %s for commit %.12s: %s", path.data,
		    c->hash, why);
		goto out;
	}
	c->dir = pr_buf_detach(&path, NULL);
	j->builds++;
	if (j->o.build != NULL) {
		if ((st = cd_prefix(&cmd, c->dir, err)) != PR_OK ||
		    (st = pr_buf_adds(&cmd, j->o.build, err)) != PR_OK)
			goto out;
		pr_spawn_opts_init(&so);
		so.shell = 1;
		so.timeout_s = j->o.build_timeout_s;
		so.output_limit = BUILD_OUTPUT_MAX;
		so.cancel = j->o.cancel;
		line = cmd.data;
		if ((st = pr_spawn_run(&line, &so, &r, err)) != PR_OK)
			goto out;
		if (r.outcome == PR_SPAWN_INTERRUPTED) {
			j->interrupted = 1;
			goto out;
		}
		/* Keep the output: stdout, then stderr. */
		if (r.errout.len > 0 &&
		    (st = pr_buf_add(&r.output, r.errout.data, r.errout.len,
			 err)) != PR_OK)
			goto out;
		if (r.output.len > 0)
			c->build_output = pr_buf_detach(&r.output, NULL);
		if (r.outcome != PR_SPAWN_OK) {
			char line1[220], msg[PR_ERROR_MSG_MAX + 256];

			snprintf(msg, sizeof(msg), "build failed: %s%s%s",
			    r.reason, c->build_output != NULL ? ": " : "",
			    c->build_output != NULL
				? first_line(error_line(c->build_output), line1,
				      sizeof(line1))
				: "");
			c->build_s = pr_spawn_now() - t0;
			if ((st = skip_now(j, pos, msg, err)) != PR_OK)
				goto out;
			goto hook;
		}
	}
	c->built = 1;
	c->build_s = pr_spawn_now() - t0;
hook:
	if (j->o.on_build != NULL && j->o.on_build(j->o.arg, j, pos, err) != 0)
		st = err != NULL && err->status != PR_OK ? err->status : PR_EIO;
out:
	pr_spawn_result_release(&r);
	pr_buf_release(&cmd);
	pr_buf_release(&path);
	return st;
}

/* One batch of interleaved runs: the runner's session over pos[0..k). */
/* The pairs of (parent, culprit), added when new; NULL: no memory. */
static struct pr_bisect_pairs *
pairs_for(struct pr_bisect_job *j, size_t parent, size_t culprit)
{
	struct pr_bisect_pairs *p;
	size_t i;

	for (i = 0; i < j->npairs; i++)
		if (j->pairs[i].parent == parent &&
		    j->pairs[i].culprit == culprit)
			return &j->pairs[i];
	p = realloc(j->pairs, (j->npairs + 1) * sizeof(*p));
	if (p == NULL)
		return NULL;
	j->pairs = p;
	p = &j->pairs[j->npairs++];
	memset(p, 0, sizeof(*p));
	p->parent = parent;
	p->culprit = culprit;
	return p;
}

static enum pr_status
pairs_add(struct pr_bisect_pairs *p, double base, double new_,
    struct pr_error *err)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;
		double *b = realloc(p->base, cap * sizeof(*b)), *n;

		if (b == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		p->base = b;
		if ((n = realloc(p->new_, cap * sizeof(*n))) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		p->new_ = n;
		p->cap = cap;
	}
	p->base[p->n] = base;
	p->new_[p->n++] = new_;
	return PR_OK;
}

enum pr_status
pr_bisect_job_prior_pair(struct pr_bisect_job *j, size_t parent, size_t culprit,
    double base, double new_, struct pr_error *err)
{
	struct pr_bisect_pairs *p;

	if (parent >= culprit || culprit > j->n)
		return pr_error_set(err, PR_EINVAL,
		    "bad confirmation positions %zu, %zu", parent, culprit);
	if (!(isfinite(base) && base > 0 && isfinite(new_) && new_ > 0))
		return pr_error_set(err, PR_EINVAL,
		    "a confirmation's values must be finite and > 0");
	if ((p = pairs_for(j, parent, culprit)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	return pairs_add(p, base, new_, err);
}

/*
 * The sequential decision on every pair of p, in round order, fed to a
 * fresh sequence with the options o and p's test (as pr_session_decide
 * does for one session's rounds).  The floor on the spread is the one the metric's
 * grid can hide.  PR_ENOTFOUND without pairs.
 */
static enum pr_status
decide_pairs(const struct pr_bisect_pairs *p, const struct pr_seq_opts *o,
    struct pr_seq_result *out, struct pr_error *err)
{
	struct pr_seq_opts so = *o;
	struct pr_seq q;
	double h = p->resolution, mb = 0, mn = 0;
	size_t i;
	enum pr_status st;

	so.method = p->method;
	memset(out, 0, sizeof(*out));
	if (p->n == 0)
		return pr_error_set(err, PR_ENOTFOUND, "no pairs yet");
	for (i = 0; i < p->n; i++) {
		mb += p->base[i] / (double)p->n;
		mn += p->new_[i] / (double)p->n;
	}
	if (so.sd_floor == 0 && h > 0)
		so.sd_floor =
		    sqrt(h * h / 12 * (1 / (mb * mb) + 1 / (mn * mn)));
	if ((st = pr_seq_init(&q, &so, err)) != PR_OK)
		return st;
	for (i = 0; i < p->n && st == PR_OK; i++)
		st = pr_seq_update_pair(&q, p->base[i], p->new_[i], err);
	if (st == PR_OK)
		pr_seq_query(&q, out);
	pr_seq_release(&q);
	return st;
}

struct batch {
	struct pr_bisect_job *j;
	const size_t *pos;
	size_t k;
	int failed; /* a value could not be used, or a hook failed */
	struct pr_error err;
	double wall_sum;
	size_t wall_n;
	/* The confirmation: its sequential options, its pairs, the values
	 * of the current round (variants 0 and 1), and the decision. */
	const struct pr_seq_opts *seq;
	struct pr_bisect_pairs *pairs;
	size_t cur_round;
	double val[2];
	int have[2];
	struct pr_seq_result res;
	int decided;
	double t0; /* when the batch started */
};

/* The first primary metric of a run's metrics (perfreg/primary.h). */
static enum pr_status
choose_metric(struct pr_bisect_job *j, const struct pr_dataset *d,
    struct pr_error *err)
{
	enum pr_role *role;
	enum pr_status st;
	size_t i;

	if ((role = calloc(d->n + 1, sizeof(*role))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	if ((st = pr_primary_roles(d, NULL, 0, role, err)) == PR_OK) {
		for (i = 0; i < d->n; i++)
			if (role[i] == PR_ROLE_PRIMARY)
				break;
		if (i == d->n)
			st = pr_error_set(err, PR_ENOTFOUND,
			    "the benchmark gives no metric");
		else if ((j->metric = strdup(d->metrics[i].name)) == NULL)
			st = pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	free(role);
	return st;
}

static void
on_run(const struct pr_session *s, const struct pr_run *r, void *arg)
{
	struct batch *b = arg;
	struct pr_bisect_job *j = b->j;
	size_t pos = b->pos[r->variant], i;
	const struct pr_metric *m = NULL;
	enum pr_status st = PR_OK;

	if (b->failed)
		return;
	j->seq++;
	if (!r->warmup && r->ok) {
		if (j->metric == NULL)
			st = choose_metric(j, &r->metrics, &b->err);
		for (i = 0; st == PR_OK && i < r->metrics.n; i++) {
			if (strcmp(r->metrics.metrics[i].name, "wall_s") == 0 &&
			    r->metrics.metrics[i].values.n == 1) {
				b->wall_sum +=
				    r->metrics.metrics[i].values.v[0];
				b->wall_n++;
			}
			if (strcmp(r->metrics.metrics[i].name, j->metric) == 0)
				m = &r->metrics.metrics[i];
		}
		if (st == PR_OK && (m == NULL || m->values.n != 1))
			st = pr_error_set(&b->err, PR_ENOTFOUND,
			    "commit %.12s: the benchmark's output has no "
			    "metric '%s'",
			    j->c[pos].hash, j->metric);
		if (st == PR_OK)
			j->metric_better = (int)m->better;
		if (st == PR_OK)
			st = push_value(j, pos, m->values.v[0],
			    PR_BISECT_JOB_LIVE_ROUNDS + j->rounds + r->round +
				1,
			    &b->err);
		if (st == PR_OK && b->pairs != NULL && r->variant < 2) {
			/* A confirmation round's pair, once both ran. */
			if (r->round != b->cur_round)
				b->have[0] = b->have[1] = 0;
			b->cur_round = r->round;
			b->val[r->variant] = m->values.v[0];
			b->have[r->variant] = 1;
			if (b->have[0] && b->have[1]) {
				st = pairs_add(b->pairs, b->val[0], b->val[1],
				    &b->err);
				b->pairs->now++;
				b->have[0] = b->have[1] = 0;
			}
		}
	} else if (!r->warmup) {
		j->c[pos].failed++;
		j->runs_failed++;
	}
	if (st != PR_OK) {
		b->failed = 1;
		/* The run is stored all the same (nothing measured is
		 * lost); the hook's error must not hide this one. */
		if (j->o.on_run != NULL) {
			struct pr_error e2;

			pr_error_clear(&e2);
			(void)j->o.on_run(j->o.arg, j, pos, s, r, &e2);
		}
		return;
	}
	if (j->o.on_run != NULL &&
	    j->o.on_run(j->o.arg, j, pos, s, r, &b->err) != 0) {
		if (b->err.status == PR_OK)
			b->err.status = PR_EIO;
		b->failed = 1;
	}
}

static int
out_of_time(const struct pr_bisect_job *j, double t0)
{
	return j->o.max_time_s > 0 &&
	    j->elapsed_s + (pr_spawn_now() - t0) >= j->o.max_time_s;
}

static int
should_stop(const struct pr_session *s, void *arg)
{
	struct batch *b = arg;
	struct pr_error e;

	if (b->failed)
		return -1;
	if (b->seq != NULL && b->pairs != NULL) {
		pr_error_clear(&e);
		b->pairs->resolution = pr_session_resolution(s, b->j->metric);
		if (decide_pairs(b->pairs, b->seq, &b->res, &e) == PR_OK &&
		    b->res.decision != PR_SEQ_CONTINUE) {
			b->decided = 1;
			return 1;
		}
	}
	if (out_of_time(b->j, b->t0))
		return -1;
	return 0;
}

/*
 * Runs rounds shuffled rounds of the commits pos[0..k) (each built) as
 * one runner session.  With seq, the confirmation: stops when the
 * sequential test of pos[1] against pos[0] decides (b->decided).
 */
static enum pr_status
run_batch(struct pr_bisect_job *j, const size_t *pos, size_t k, size_t rounds,
    const struct pr_seq_opts *seq, struct pr_bisect_pairs *pairs,
    struct batch *b, struct pr_error *err)
{
	struct pr_runner_opts ro;
	struct pr_session s;
	struct pr_buf cmd;
	char name[32];
	enum pr_status st = PR_OK;
	size_t i, w;
	double t0 = pr_spawn_now();

	memset(b, 0, sizeof(*b));
	b->j = j;
	b->pos = pos;
	b->k = k;
	b->seq = seq;
	b->pairs = pairs;
	b->cur_round = (size_t)-1;
	pr_error_clear(&b->err);
	pr_session_init(&s);
	pr_buf_init(&cmd, (size_t)1 << 20);
	for (i = 0; i < k && st == PR_OK; i++) {
		pr_buf_reset(&cmd);
		if ((st = cd_prefix(&cmd, j->c[pos[i]].dir, err)) != PR_OK ||
		    (st = pr_buf_adds(&cmd, "exec", err)) != PR_OK)
			break;
		for (w = 0; j->o.bench[w] != NULL && st == PR_OK; w++)
			if ((st = pr_buf_addc(&cmd, ' ', err)) == PR_OK)
				st = shquote(&cmd, j->o.bench[w], err);
		if (st != PR_OK)
			break;
		snprintf(name, sizeof(name), "c%zu", pos[i]);
		st = pr_session_add_variant(&s, name, cmd.data, 1, NULL, NULL,
		    NULL, err);
	}
	if (st != PR_OK)
		goto out;
	pr_runner_opts_init(&ro);
	ro.runs = rounds;
	ro.warmup = 0;
	ro.seed = j->o.seed + j->rounds;
	ro.max_failures = FAIL_SKIP;
	ro.spawn.shell = 1;
	ro.spawn.timeout_s = j->o.run_timeout_s;
	ro.spawn.cancel = j->o.cancel;
	ro.parser = j->o.parser;
	ro.parse_output = j->o.parser != NULL;
	ro.monitor = j->o.monitor;
	ro.on_run = on_run;
	ro.should_stop = should_stop;
	ro.arg = b;
	b->t0 = t0;
	st = pr_session_run(&s, &ro, err);
	j->rounds += s.rounds_done;
	if (b->wall_n > 0) {
		/* The run cost the search weighs: the latest mean. */
		j->run_cost_s = b->wall_sum / (double)b->wall_n;
	}
	if (st == PR_OK && b->failed)
		st = pr_error_set(err, b->err.status, "%s", b->err.msg);
	if (st == PR_OK && s.stop == PR_STOP_INTERRUPTED)
		j->interrupted = 1;
	/* A commit whose runs all failed is skipped. */
	for (i = 0; st == PR_OK && i < k; i++) {
		struct pr_bisect_commit *c = &j->c[pos[i]];

		if (c->n == 0 && c->failed >= FAIL_SKIP) {
			const struct pr_run *last = NULL;
			char why[PR_ERROR_MSG_MAX];
			size_t r;

			for (r = 0; r < s.nruns; r++)
				if (s.runs[r].variant == i && !s.runs[r].ok)
					last = &s.runs[r];
			snprintf(why, sizeof(why), "the benchmark failed: %s",
			    last != NULL ? last->reason : "?");
			st = skip_now(j, pos[i], why, err);
		}
	}
out:
	j->elapsed_s += pr_spawn_now() - t0;
	pr_buf_release(&cmd);
	pr_session_release(&s);
	return st;
}

static double
mean_log(const struct pr_bisect_commit *c)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < c->n; i++)
		sum += log(c->v[i]);
	return c->n > 0 ? sum / (double)c->n : 0;
}

/* Creates the search with the measured costs and gives it every value. */
static enum pr_status
make_search(struct pr_bisect_job *j, struct pr_error *err)
{
	struct pr_bisect_opts bo;
	enum pr_status st;
	size_t i, k, nb = 0;
	double bsum = 0;

	pr_bisect_opts_init(&bo, j->n);
	bo.confidence = j->o.confidence;
	bo.equiv = log1p(j->o.equiv_pct / 100);
	bo.fixed_rounds = PR_BISECT_JOB_FIXED_ROUNDS;
	bo.modes = PR_BISECT_JOB_MODES;
	for (i = 0; i <= j->n; i++)
		if (j->c[i].built == 1) {
			bsum += j->c[i].build_s;
			nb++;
		}
	if (j->run_cost_s > 0)
		bo.run_cost = fmax(j->run_cost_s, 1e-4);
	if (nb > 0 && j->run_cost_s > 0)
		bo.build_cost = fmax(bsum / (double)nb, 1e-3);
	j->build_cost_s = nb > 0 ? bsum / (double)nb : 0;
	j->price_build = bo.build_cost;
	j->price_run = bo.run_cost;
	/*
	 * The prior of a step is N(0, step_sd^2) on the log: with the
	 * library's 5% a change of 3x would be 22 standard deviations, and
	 * two steps of half of it far likelier than the one step there is.
	 * The step looked for is the one between the ends, so its prior
	 * scale is that change as measured (never below 5%).
	 */
	bo.step_sd =
	    fmax(bo.step_sd, fabs(mean_log(&j->c[j->n]) - mean_log(&j->c[0])));
	j->step_sd = bo.step_sd;
	pr_bisect_free(j->search);
	j->search = NULL;
	if ((st = pr_bisect_new(&bo, &j->search, err)) != PR_OK)
		return st;
	for (i = 0; i <= j->n; i++) {
		if (j->c[i].built < 0 &&
		    (st = pr_bisect_skip(j->search, i, err)) != PR_OK)
			return st;
		for (k = 0; k < j->c[i].n; k++)
			if ((st = pr_bisect_add_round(j->search, i,
				 j->c[i].v[k], j->c[i].rd[k], err)) != PR_OK)
				return st;
	}
	return PR_OK;
}

static enum pr_status
update_state(struct pr_bisect_job *j, struct pr_error *err)
{
	enum pr_status st;

	if ((st = pr_bisect_state(j->search, &j->st, err)) != PR_OK)
		return st;
	j->have_state = 1;
	if (j->single == NULL &&
	    ((j->single = calloc(j->n + 1, sizeof(double))) == NULL ||
		(j->multi = calloc(j->n + 1, sizeof(double))) == NULL))
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	return pr_bisect_posterior(j->search, j->single, j->multi, err);
}

static size_t
budget_left(const struct pr_bisect_job *j)
{
	size_t used = j->runs + j->runs_failed;

	return used >= j->o.max_runs ? 0 : j->o.max_runs - used;
}

/* The nearest measured commits on either side of the most probable
 * change: the good one before st.lo, the bad one at or after st.hi; or,
 * with at != SIZE_MAX (several changes being located), on either side of
 * commit at. */
static void
bracket(const struct pr_bisect_job *j, size_t at, size_t *g, size_t *bd)
{
	size_t i, lo = j->st.lo, hi = j->st.hi;

	if (at != SIZE_MAX) {
		lo = at;
		hi = at + 1;
	}
	*g = 0;
	*bd = j->n;
	for (i = lo; i-- > 0;)
		if (j->c[i].n > 0 && j->c[i].built >= 0) {
			*g = i;
			break;
		}
	for (i = hi; i <= j->n; i++)
		if (j->c[i].n > 0 && j->c[i].built >= 0) {
			*bd = i;
			break;
		}
}

double
pr_bisect_job_build_price(const struct pr_bisect_state *st, double confidence,
    double measured, double run_cost, size_t left)
{
	if (st->p_none > 1 - confidence)
		return measured;
	return (double)left * run_cost < measured * st->bits
	    ? fmin(measured, run_cost)
	    : measured;
}

/* The build's price for the next step (pr_bisect_job_build_price). */
static enum pr_status
price_build(struct pr_bisect_job *j, struct pr_error *err)
{
	double price = pr_bisect_job_build_price(&j->st, j->o.confidence,
	    j->price_build, j->price_run, budget_left(j));

	/* Once bound, bound: the runs left only fall. */
	if (price < j->price_build && j->bound_at == 0)
		j->bound_at = j->runs + j->runs_failed;
	if (j->bound_at > 0)
		price = fmin(price, j->price_run);
	return pr_bisect_set_costs(j->search, price, j->price_run, err);
}

/* The search loop, after both ends are measured. */
static enum pr_status
search(struct pr_bisect_job *j, double t0, struct pr_error *err)
{
	struct pr_bisect_step step;
	struct batch b;
	size_t pos[BATCH_VARIANTS], k, g, bd, left, rounds, i;
	enum pr_status st;

	for (;;) {
		if ((st = update_state(j, err)) != PR_OK)
			return st;
		if (j->interrupted || (j->o.cancel != NULL && *j->o.cancel)) {
			j->interrupted = 1;
			return PR_OK;
		}
		if (j->st.outcome != PR_BISECT_MEASURING)
			return PR_OK;
		left = budget_left(j);
		if (left < 2 || out_of_time(j, t0)) {
			j->budget_hit = 1;
			return PR_OK;
		}
		if ((st = price_build(j, err)) != PR_OK)
			return st;
		st = pr_bisect_next(j->search, &step, err);
		if (st == PR_EUNDEF) {
			pr_error_clear(err);
			return PR_OK; /* nothing left to learn */
		}
		if (st != PR_OK)
			return st;
		if ((st = ensure_built(j, step.pos, err)) != PR_OK)
			return st;
		if (j->interrupted)
			continue;
		if (j->c[step.pos].built < 0)
			continue;
		k = 0;
		pos[k++] = step.pos;
		bracket(j,
		    j->st.p_multi >= j->o.confidence ? step.pos : SIZE_MAX, &g,
		    &bd);
		/* Measured in an earlier session, an end of the bracket
		 * may not be built in this one. */
		if ((st = ensure_built(j, g, err)) != PR_OK ||
		    (st = ensure_built(j, bd, err)) != PR_OK)
			return st;
		if (j->interrupted)
			continue;
		for (i = 0; i < k && pos[i] != g; i++)
			;
		if (i == k && j->c[g].built > 0)
			pos[k++] = g;
		for (i = 0; i < k && pos[i] != bd; i++)
			;
		if (i == k && j->c[bd].built > 0)
			pos[k++] = bd;
		rounds = step.runs;
		if (rounds * k > left)
			rounds = left / k;
		if (rounds == 0) {
			j->budget_hit = 1;
			return PR_OK;
		}
		if ((st = run_batch(j, pos, k, rounds, NULL, NULL, &b, err)) !=
		    PR_OK)
			return st;
	}
}

/* The verdict a confirmation's decision gives: a change (either way)
 * confirms, equivalence does not, anything else is undecided. */
static enum pr_bisect_verdict
verdict_of(enum pr_seq_decision d)
{
	switch (d) {
	case PR_SEQ_REGRESSION:
	case PR_SEQ_IMPROVEMENT:
		return PR_BISECT_V_CULPRIT;
	case PR_SEQ_EQUIVALENT:
		return PR_BISECT_V_NOT_CONFIRMED;
	case PR_SEQ_CONTINUE:
	case PR_SEQ_INCONCLUSIVE:
		break;
	}
	return PR_BISECT_V_UNDECIDED;
}

/*
 * Confirms commit hi, the first changed one of lo .. hi, against its
 * parent (the nearest commit before lo that is not skipped); sets the
 * verdict.  share: the part of what is left of the budget it may use
 * (1: all, 2: half).
 */
static enum pr_status
confirm(struct pr_bisect_job *j, double t0, size_t lo, size_t hi, size_t share,
    struct pr_error *err)
{
	struct pr_seq_opts so;
	struct pr_seq_result res;
	struct pr_bisect_pairs *p;
	struct batch b;
	size_t pos[2], left, i;
	enum pr_status st;
	int capped;

	j->culprit = hi;
	j->parent = 0;
	for (i = lo; i-- > 0;)
		if (j->c[i].built >= 0) {
			j->parent = i;
			break;
		}
	if ((st = ensure_built(j, j->parent, err)) != PR_OK ||
	    (st = ensure_built(j, j->culprit, err)) != PR_OK)
		return st;
	if (j->interrupted)
		return PR_OK;
	if (j->c[j->parent].built < 0 || j->c[j->culprit].built < 0) {
		/* Its failed build left no parent to compare with: the
		 * search goes on (the commit is skipped now). */
		return PR_EUNDEF;
	}
	left = budget_left(j) / 2 / share;
	capped = left > CONFIRM_ROUNDS_MAX;
	if (capped)
		left = CONFIRM_ROUNDS_MAX;
	if (left < 2 || out_of_time(j, t0)) {
		j->budget_hit = 1;
		j->verdict = PR_BISECT_V_UNDECIDED;
		return PR_OK;
	}
	if ((p = pairs_for(j, j->parent, j->culprit)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	/* Its test, chosen before its first round and kept: the sign test
	 * when the search's fit has two modes of the noise (the t test on
	 * the log-ratios reads a pair with one run in each mode as a wide
	 * spread, and pays for it in rounds). */
	if (p->n == 0)
		p->method = j->have_state && j->st.modes == 2
		    ? PR_SEQ_METHOD_SIGN
		    : PR_SEQ_METHOD_T;
	j->confirm_method = p->method;
	pr_seq_opts_init(&so);
	so.alpha = 1 - j->o.confidence;
	so.equivalence_pct = j->o.equiv_pct;
	so.better = (enum pr_better)j->metric_better;
	so.max_runs = p->n + left;
	pos[0] = j->parent;
	pos[1] = j->culprit;
	j->confirmed_tried = 1;
	/* An earlier confirmation of the two may have decided already (its
	 * rounds given back by a resume); else its sequence goes on. */
	memset(&res, 0, sizeof(res));
	if (p->n > 0 && (st = decide_pairs(p, &so, &res, err)) != PR_OK)
		return st;
	if (p->n == 0 || res.decision == PR_SEQ_CONTINUE) {
		j->confirming = 1;
		st = run_batch(j, pos, 2, left, &so, p, &b, err);
		j->confirming = 0;
		if (st != PR_OK)
			return st;
		if (p->n > 0 && (st = decide_pairs(p, &so, &res, err)) != PR_OK)
			return st;
	}
	j->confirm = res;
	j->confirm_runs = res.n;
	j->confirm_before = p->n - p->now;
	if (j->interrupted)
		return PR_OK;
	/* Undecided at its cap of rounds with budget left, the search has
	 * another look (budget_hit stays 0); else the budget is spent. */
	j->verdict = verdict_of(res.decision);
	if (j->verdict == PR_BISECT_V_UNDECIDED &&
	    (!capped || budget_left(j) < 4 || out_of_time(j, t0)))
		j->budget_hit = 1;
	return PR_OK;
}

/* The step at commit k as measured: the mean log of the nearest
 * measured commit at or after k less that of the nearest before it. */
static double
step_at(const struct pr_bisect_job *j, size_t k)
{
	size_t lo = k, hi = k;

	while (lo > 0 && (lo == k || j->c[lo].n == 0))
		lo--;
	while (hi < j->n && j->c[hi].n == 0)
		hi++;
	return mean_log(&j->c[hi]) - mean_log(&j->c[lo]);
}

struct pr_bisect_confirmation
pr_bisect_job_confirmation(const struct pr_bisect_job *j)
{
	struct pr_bisect_confirmation c;

	c.verdict = j->verdict;
	c.parent = j->parent;
	c.culprit = j->culprit;
	c.result = j->confirm;
	c.runs = j->confirm_runs;
	c.before = j->confirm_before;
	c.method = j->confirm_method;
	return c;
}

/* The job's confirmation back from c. */
static void
restore_confirmation(struct pr_bisect_job *j,
    const struct pr_bisect_confirmation *c)
{
	j->verdict = c->verdict;
	j->parent = c->parent;
	j->culprit = c->culprit;
	j->confirm = c->result;
	j->confirm_runs = c->runs;
	j->confirm_before = c->before;
	j->confirm_method = c->method;
}

/*
 * "Several changes": each of the two changes the search located is
 * confirmed against its parent as a single culprit would be (the larger
 * step first, the one most likely real, with half of the budget), in
 * paired rounds that drift cannot move (noise that comes in bursts can
 * show the search a second step that is not there).  Both confirmed:
 * several changes (the first in j->first); one: that one is the culprit;
 * neither: not confirmed, or undecided within budget.
 */
static enum pr_status
confirm_two(struct pr_bisect_job *j, double t0, struct pr_error *err)
{
	size_t lo[2], hi[2], i, x;
	enum pr_status st;

	memset(&j->first, 0, sizeof(j->first));
	for (i = 0; i < 2; i++) {
		lo[i] = j->st.pair_lo[i];
		hi[i] = j->st.pair_hi[i];
	}
	if (fabs(step_at(j, hi[1])) > fabs(step_at(j, hi[0]))) {
		x = lo[0], lo[0] = lo[1], lo[1] = x;
		x = hi[0], hi[0] = hi[1], hi[1] = x;
	}
	for (i = 0; i < 2; i++) {
		if (i == 1)
			j->first = pr_bisect_job_confirmation(j);
		st = confirm(j, t0, lo[i], hi[i], 2 - i, err);
		if (st == PR_EUNDEF) {
			pr_error_clear(err);
			j->verdict = PR_BISECT_V_UNDECIDED;
			return PR_OK;
		}
		if (st != PR_OK || j->interrupted)
			return st;
	}
	if (j->first.verdict == PR_BISECT_V_CULPRIT &&
	    j->verdict == PR_BISECT_V_CULPRIT) {
		j->verdict = PR_BISECT_V_SEVERAL;
		return PR_OK;
	}
	if (j->first.verdict == PR_BISECT_V_CULPRIT ||
	    (j->first.verdict == PR_BISECT_V_UNDECIDED &&
		j->verdict == PR_BISECT_V_NOT_CONFIRMED))
		/* The first is the change (or the only one still open). */
		restore_confirmation(j, &j->first);
	memset(&j->first, 0, sizeof(j->first));
	return PR_OK;
}

/*
 * 1 when the search has another look (perfreg/bisect_job.h): the search,
 * which has a refuting confirmation's paired runs now, names where the
 * change is instead, or the same commit again, whose sequence then says
 * the same without a run.
 */
int
pr_bisect_job_again(struct pr_bisect_job *j)
{
	if (j->budget_hit || j->interrupted)
		return 0;
	if (j->verdict == PR_BISECT_V_UNDECIDED)
		return 1;
	if (j->verdict == PR_BISECT_V_NOT_CONFIRMED &&
	    j->refuted < PR_BISECT_JOB_REFUTED_MAX && budget_left(j) >= 4) {
		j->refuted++;
		return 1;
	}
	return 0;
}

void
pr_bisect_job_prior_refuted(struct pr_bisect_job *j, size_t refuted)
{
	if (refuted > PR_BISECT_JOB_REFUTED_MAX)
		refuted = PR_BISECT_JOB_REFUTED_MAX;
	if (refuted > j->refuted)
		j->refuted = refuted;
}

enum pr_status
pr_bisect_job_prior_several(struct pr_bisect_job *j, size_t parent,
    size_t culprit, size_t first_parent, size_t first_culprit,
    struct pr_error *err)
{
	struct pr_bisect_pairs *p;
	size_t f;

	if (parent >= culprit || culprit > j->n ||
	    first_parent >= first_culprit || first_culprit > j->n ||
	    (parent == first_parent && culprit == first_culprit))
		return pr_error_set(err, PR_EINVAL,
		    "bad confirmation positions %zu, %zu and %zu, %zu", parent,
		    culprit, first_parent, first_culprit);
	if ((p = pairs_for(j, first_parent, first_culprit)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	f = (size_t)(p - j->pairs);
	if ((p = pairs_for(j, parent, culprit)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	p->with = f + 1;
	return PR_OK;
}

enum pr_status
pr_bisect_job_prior_method(struct pr_bisect_job *j, size_t parent,
    size_t culprit, enum pr_seq_method method, struct pr_error *err)
{
	struct pr_bisect_pairs *p;

	if (parent >= culprit || culprit > j->n)
		return pr_error_set(err, PR_EINVAL,
		    "bad confirmation positions %zu, %zu", parent, culprit);
	if (method != PR_SEQ_METHOD_T && method != PR_SEQ_METHOD_SIGN)
		return pr_error_set(err, PR_EINVAL, "unknown test %d",
		    (int)method);
	if ((p = pairs_for(j, parent, culprit)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	p->method = method;
	return PR_OK;
}

/* Whether pair p was given back (nothing of it measured now) and its
 * pairs decide "equivalent" under so. */
static enum pr_status
given_back_equivalent(const struct pr_bisect_pairs *p, struct pr_seq_opts *so,
    int *eq, struct pr_error *err)
{
	struct pr_seq_result res;
	enum pr_status st;

	*eq = 0;
	if (p->n == 0 || p->now > 0)
		return PR_OK;
	so->max_runs = p->n + CONFIRM_ROUNDS_MAX;
	if ((st = decide_pairs(p, so, &res, err)) != PR_OK)
		return st;
	*eq = res.decision == PR_SEQ_EQUIVALENT;
	return PR_OK;
}

enum pr_status
pr_bisect_job_refuted_before(struct pr_bisect_job *j, struct pr_error *err)
{
	struct pr_seq_opts so;
	enum pr_status st;
	size_t i, k = 0;
	int eq, first_eq;

	pr_seq_opts_init(&so);
	so.alpha = 1 - j->o.confidence;
	so.equivalence_pct = j->o.equiv_pct;
	so.better = (enum pr_better)j->metric_better;
	for (i = 0; i < j->npairs; i++) {
		const struct pr_bisect_pairs *p = &j->pairs[i];

		if ((st = given_back_equivalent(p, &so, &eq, err)) != PR_OK)
			return st;
		if (!eq)
			continue;
		first_eq = 0;
		if (p->with > 0 && p->with <= j->npairs &&
		    (st = given_back_equivalent(&j->pairs[p->with - 1], &so,
			 &first_eq, err)) != PR_OK)
			return st;
		/* The second of a "several" whose first is equivalent too:
		 * the two were one refute, counted at the first. */
		k += !first_eq;
	}
	pr_bisect_job_prior_refuted(j, k);
	return PR_OK;
}

enum pr_status
pr_bisect_job_run(struct pr_bisect_job *j, struct pr_error *err)
{
	struct batch b;
	size_t ends[2] = { 0, j->n }, need = 0, tries;
	enum pr_status st;
	double t0 = pr_spawn_now() - j->elapsed_s;

	j->elapsed_s = 0;
	j->verdict = PR_BISECT_V_NONE;
	if ((st = ensure_built(j, 0, err)) != PR_OK ||
	    (st = ensure_built(j, j->n, err)) != PR_OK)
		return st;
	if (j->interrupted)
		return PR_OK;
	/* Both ends first, interleaved: three runs each (what the search
	 * asks of a commit first), fewer when measured before. */
	if (j->c[0].n < 3)
		need = 3 - j->c[0].n;
	if (j->c[j->n].n < 3 && 3 - j->c[j->n].n > need)
		need = 3 - j->c[j->n].n;
	if (need == 0 && j->metric == NULL)
		need = 1; /* the metric is chosen from a run */
	if (need > 0 &&
	    (st = run_batch(j, ends, 2, need, NULL, NULL, &b, err)) != PR_OK)
		return st;
	if (j->interrupted)
		return PR_OK;
	if (j->c[0].n == 0 || j->c[j->n].n == 0)
		return pr_error_set(err, PR_EINVAL,
		    "the benchmark gave no value at an end of the range");
	if ((st = make_search(j, err)) != PR_OK ||
	    (st = pr_bisect_job_refuted_before(j, err)) != PR_OK)
		return st;
	/* Each skip found while confirming sends the search back, and so
	 * does a confirmation at its cap of rounds. */
	for (tries = 0; tries <= j->n + 20; tries++) {
		if ((st = search(j, t0, err)) != PR_OK)
			return st;
		if (j->interrupted)
			return PR_OK;
		switch (j->st.outcome) {
		case PR_BISECT_NONE:
			j->verdict = PR_BISECT_V_NOT_REPRODUCED;
			return PR_OK;
		case PR_BISECT_SEVERAL:
			if ((st = confirm_two(j, t0, err)) != PR_OK)
				return st;
			if (pr_bisect_job_again(j))
				continue;
			return update_state(j, err);
		case PR_BISECT_MEASURING:
			j->verdict = PR_BISECT_V_UNDECIDED;
			return PR_OK;
		case PR_BISECT_CULPRIT:
			break;
		}
		st = confirm(j, t0, j->st.lo, j->st.hi, 1, err);
		if (st == PR_EUNDEF)
			continue;
		if (st != PR_OK)
			return st;
		if (pr_bisect_job_again(j))
			continue;
		return update_state(j, err);
	}
	j->verdict = PR_BISECT_V_UNDECIDED;
	return PR_OK;
}

enum pr_status
pr_bisect_job_step(struct pr_bisect_job *j, struct pr_error *err)
{
	struct pr_seq_opts so;
	struct pr_seq_result res;
	struct pr_bisect_pairs *p;
	struct batch b;
	size_t pos[2] = { 0, 1 }, left;
	enum pr_status st;

	if (!j->o.step_only || j->n != 1)
		return pr_error_set(err, PR_EINVAL, "not a step");
	j->verdict = PR_BISECT_V_NONE;
	j->parent = 0;
	j->culprit = 1;
	if ((st = ensure_built(j, 0, err)) != PR_OK ||
	    (st = ensure_built(j, 1, err)) != PR_OK)
		return st;
	if (j->interrupted || j->c[1].built < 0)
		return PR_OK;
	/* The metric and its direction come from a run: one round of the
	 * two first when they are not known (not part of the test). */
	if (j->metric == NULL) {
		if ((st = run_batch(j, pos, 2, 1, NULL, NULL, &b, err)) !=
		    PR_OK)
			return st;
		if (j->interrupted || j->c[1].built < 0)
			return PR_OK;
		if (j->c[0].n == 0)
			return pr_error_set(err, PR_EINVAL,
			    "the benchmark gave no value at --good");
	}
	left = budget_left(j) / 2;
	if (left < 2) {
		j->budget_hit = 1;
		j->verdict = PR_BISECT_V_UNDECIDED;
		return PR_OK;
	}
	if ((p = pairs_for(j, 0, 1)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	pr_seq_opts_init(&so);
	so.alpha = 1 - j->o.confidence;
	so.equivalence_pct = j->o.equiv_pct;
	so.better = (enum pr_better)j->metric_better;
	so.max_runs = left;
	j->confirmed_tried = 1;
	j->confirming = 1;
	st = run_batch(j, pos, 2, left, &so, p, &b, err);
	j->confirming = 0;
	if (st != PR_OK)
		return st;
	if (j->interrupted || j->c[1].built < 0)
		return PR_OK;
	memset(&res, 0, sizeof(res));
	if (p->n > 0 && (st = decide_pairs(p, &so, &res, err)) != PR_OK)
		return st;
	j->confirm = res;
	j->confirm_runs = res.n;
	j->verdict = verdict_of(res.decision);
	if (j->verdict == PR_BISECT_V_UNDECIDED)
		j->budget_hit = 1;
	return PR_OK;
}

void
pr_bisect_job_cleanup(struct pr_bisect_job *j)
{
	const char *args[] = { "worktree", "remove", "--force", NULL, NULL };
	const char *pargs[] = { "worktree", "prune", NULL };
	size_t i;
	int ok, any = 0;

	if (j == NULL || j->c == NULL)
		return;
	for (i = 0; i <= j->n; i++) {
		if (j->c[i].dir == NULL)
			continue;
		args[3] = j->c[i].dir;
		(void)git(j->toplevel, args, NULL, &ok, NULL, 0, NULL);
		free(j->c[i].dir);
		j->c[i].dir = NULL;
		any = 1;
	}
	if (any)
		(void)git(j->toplevel, pargs, NULL, &ok, NULL, 0, NULL);
}

void
pr_bisect_job_free(struct pr_bisect_job *j)
{
	size_t i;

	if (j == NULL)
		return;
	pr_bisect_job_cleanup(j);
	if (j->c != NULL)
		for (i = 0; i <= j->n; i++)
			commit_release(&j->c[i]);
	free(j->c);
	for (i = 0; i < j->npairs; i++) {
		free(j->pairs[i].base);
		free(j->pairs[i].new_);
	}
	free(j->pairs);
	free(j->toplevel);
	free(j->metric);
	free(j->single);
	free(j->multi);
	pr_bisect_free(j->search);
	free(j);
}
