/*
 * run/runner.c - a benchmark session: setup, warm-up rounds, counted
 * rounds in a per-round shuffled (or sequential) order, cleanup; each
 * run spawned and measured by run/spawn.c, its output parsed by the
 * parser of perfreg/parse.h, its metrics kept per run (for the raw data
 * and the pairing of rounds) and per variant (for the comparison).
 *
 * Invariants: s->runs holds every run that was started, in the order
 * they ran (seq == index); a variant's dataset holds exactly the
 * metrics of its successful counted runs; a run's `reason` is never
 * NULL.  The order of a round is a Fisher-Yates shuffle drawn from the
 * session's own xoshiro256** stream, so a seed reproduces it exactly.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/monitor.h"
#include "perfreg/rng.h"
#include "perfreg/runner.h"
#include "perfreg/seq.h"
#include "core/banned.h"

const char *const pr_run_builtin[PR_RUN_NBUILTIN] = { "wall_s", "user_s",
	"sys_s", "maxrss_kib", "ctxsw_vol", "ctxsw_invol" };
static const char *const builtin_unit[PR_RUN_NBUILTIN] = { "s", "s", "s", "KiB",
	"", "" };

void
pr_runner_opts_init(struct pr_runner_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->runs = 10;
	o->warmup = 1;
	o->order = PR_ORDER_SHUFFLED;
	o->seed = 1;
	pr_spawn_opts_init(&o->spawn);
}

const char *
pr_order_str(enum pr_order o)
{
	return o == PR_ORDER_SEQUENTIAL ? "sequential" : "shuffled";
}

const char *
pr_stop_str(enum pr_stop s)
{
	switch (s) {
	case PR_STOP_NONE:
		return "none";
	case PR_STOP_DONE:
		return "done";
	case PR_STOP_FAILURES:
		return "max-failures";
	case PR_STOP_INTERRUPTED:
		return "interrupted";
	case PR_STOP_HOOK:
		return "decided";
	case PR_STOP_BUDGET:
		return "undecided";
	}
	return "?";
}

void
pr_session_init(struct pr_session *s)
{
	memset(s, 0, sizeof(*s));
	pr_runner_opts_init(&s->opts);
}

static void
variant_release(struct pr_variant *v)
{
	free(v->name);
	free(v->command);
	pr_split_free(v->argv);
	free(v->exe);
	free(v->setup);
	free(v->prepare);
	free(v->cleanup);
	pr_dataset_release(&v->data);
}

static void
run_release(struct pr_run *r)
{
	free(r->reason);
	free(r->output);
	pr_dataset_release(&r->metrics);
	pr_dataset_release(&r->monitors);
}

void
pr_session_release(struct pr_session *s)
{
	size_t i;

	for (i = 0; i < s->nv; i++)
		variant_release(&s->v[i]);
	for (i = 0; i < s->nruns; i++)
		run_release(&s->runs[i]);
	free(s->v);
	free(s->runs);
	pr_session_init(s);
}

struct pr_variant *
pr_session_find(struct pr_session *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nv; i++)
		if (strcmp(s->v[i].name, name) == 0)
			return &s->v[i];
	return NULL;
}

static int
dup_opt(const char *in, char **out)
{
	*out = NULL;
	if (in == NULL)
		return 0;
	*out = strdup(in);
	return *out == NULL ? -1 : 0;
}

enum pr_status
pr_session_add_variant(struct pr_session *s, const char *name,
    const char *command, int shell, const char *setup, const char *prepare,
    const char *cleanup, struct pr_error *err)
{
	struct pr_variant v, *nv;
	enum pr_status st;
	size_t ncap;

	if (name == NULL || name[0] == '\0')
		return pr_error_set(err, PR_EINVAL, "a variant needs a name");
	if (pr_session_find(s, name) != NULL)
		return pr_error_set(err, PR_EINVAL,
		    "variant '%s' is given twice", name);
	if (s->nv >= PR_RUNNER_VARIANTS_MAX)
		return pr_error_set(err, PR_ELIMIT, "more than %d variants",
		    PR_RUNNER_VARIANTS_MAX);
	memset(&v, 0, sizeof(v));
	pr_dataset_init(&v.data);
	if (!shell &&
	    (st = pr_split_words(command, &v.argv, NULL, err)) != PR_OK) {
		variant_release(&v);
		return st;
	}
	if (s->nv == s->vcap) {
		ncap = s->vcap ? s->vcap * 2 : 4;
		nv = realloc(s->v, ncap * sizeof(*nv));
		if (nv == NULL)
			goto nomem;
		s->v = nv;
		s->vcap = ncap;
	}
	if ((v.name = strdup(name)) == NULL ||
	    (v.command = strdup(command)) == NULL ||
	    dup_opt(setup, &v.setup) != 0 ||
	    dup_opt(prepare, &v.prepare) != 0 ||
	    dup_opt(cleanup, &v.cleanup) != 0)
		goto nomem;
	s->v[s->nv++] = v;
	return PR_OK;
nomem:
	variant_release(&v);
	return pr_error_set(err, PR_ENOMEM, "out of memory");
}

/*
 * Runs a setup, prepare or cleanup command line.  Returns PR_OK with
 * res->outcome telling how it went, or an error of perfreg itself (or
 * of splitting the line).
 */
static enum pr_status
run_aux(const struct pr_session *s, const char *line,
    struct pr_spawn_result *res, struct pr_error *err)
{
	char **words = NULL;
	char *one[2];
	enum pr_status st;

	if (s->opts.spawn.shell) {
		one[0] = (char *)line;
		one[1] = NULL;
		return pr_spawn_run(one, &s->opts.spawn, res, err);
	}
	if ((st = pr_split_words(line, &words, NULL, err)) != PR_OK)
		return st;
	st = pr_spawn_run(words, &s->opts.spawn, res, err);
	pr_split_free(words);
	return st;
}

static enum pr_status
push_run(struct pr_session *s, struct pr_run *r, struct pr_error *err)
{
	struct pr_run *nr;
	size_t ncap;

	if (s->nruns == s->rcap) {
		ncap = s->rcap ? s->rcap * 2 : 64;
		nr = realloc(s->runs, ncap * sizeof(*nr));
		if (nr == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		s->runs = nr;
		s->rcap = ncap;
	}
	s->runs[s->nruns++] = *r;
	return PR_OK;
}

static enum pr_status
add_builtins(struct pr_dataset *d, const struct pr_spawn_result *res,
    struct pr_error *err)
{
	const double v[PR_RUN_NBUILTIN] = { res->wall_s, res->user_s,
		res->sys_s, res->maxrss_kib, res->ctxsw_vol, res->ctxsw_invol };

	/* The names are static: seven allocations a run, not nineteen. */
	return pr_dataset_add_static(d, pr_run_builtin, builtin_unit,
	    PR_BETTER_LOWER, v, PR_RUN_NBUILTIN, err);
}

/* Adds a successful counted run's metrics to its variant's dataset. */
static enum pr_status
count_run(struct pr_variant *v, struct pr_run *r, struct pr_error *err)
{
	struct pr_metric *src, *dst;
	enum pr_status st;
	size_t i, k;

	for (i = 0; i < r->metrics.n; i++) {
		src = &r->metrics.metrics[i];
		if ((st = pr_dataset_get(&v->data, src->name, src->unit,
			 src->better, &dst, err)) != PR_OK)
			return st;
		dst->flags |= src->flags;
		for (k = 0; k < src->values.n; k++)
			if ((st = pr_sample_push(&dst->values, src->values.v[k],
				 err)) != PR_OK)
				return st;
	}
	return PR_OK;
}

/*
 * Appends the command's standard error to its standard output in res,
 * so that res->output holds both, each stream whole: what a run keeps,
 * and what its parser reads.  A parser reads its own lines and skips the
 * others, so a tool that reports on stderr (time, dd, perf stat) and a
 * benchmark writing to stdout are both read, and a line of one is never
 * cut by a line of the other, as it was when both shared one pipe.
 * PR_ENOMEM only.
 */
static enum pr_status
join_output(struct pr_spawn_result *res, struct pr_error *err)
{
	if (res->errout.len == 0)
		return PR_OK;
	if (res->output.len == 0) {
		pr_buf_release(&res->output);
		res->output = res->errout;
		pr_buf_init(&res->errout, 0);
		return PR_OK;
	}
	res->output.max += res->errout.len;
	if (pr_buf_add(&res->output, res->errout.data, res->errout.len, NULL) !=
	    PR_OK)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	pr_buf_reset(&res->errout);
	return PR_OK;
}

/* Makes r a failed run with reason and the output of res (taken). */
static enum pr_status
fail_run(struct pr_run *r, struct pr_spawn_result *res, const char *stage,
    const char *prefix, const char *reason, struct pr_error *err)
{
	size_t len;

	r->failed_in = stage;
	free(r->reason);
	len = strlen(prefix) + strlen(reason) + 1;
	r->reason = malloc(len);
	if (r->reason == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	snprintf(r->reason, len, "%s%s", prefix, reason);
	r->ok = 0;
	free(r->output);
	r->output = NULL; /* run_release frees it again if joining fails */
	if (join_output(res, err) != PR_OK)
		return PR_ENOMEM;
	r->output = pr_buf_detach(&res->output, &r->output_len);
	if (r->output == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	r->truncated = res->truncated;
	return PR_OK;
}

/* Parses the output of a run that exited 0 into its metrics and
 * computes the derived ones; on failure r becomes a failed run. */
static enum pr_status
parse_run(struct pr_session *s, struct pr_variant *v, struct pr_run *r,
    struct pr_spawn_result *res, struct pr_error *err)
{
	const struct pr_runner_opts *o = &s->opts;
	struct pr_error perr;
	char name[PR_ERROR_FILE_MAX], msg[PR_ERROR_MSG_MAX + 64];
	enum pr_status st;
	size_t i;

	pr_error_clear(&perr);
	if ((st = join_output(res, err)) != PR_OK)
		return st;
	if (o->parse_output)
		snprintf(name, sizeof(name), "%s (%s run %zu)", v->name,
		    r->warmup ? "warm-up" : "counted", r->round + 1);
	if (o->parse_output &&
	    pr_parse_buffer(o->parser,
		res->output.data != NULL ? res->output.data : "",
		res->output.len, name, PR_PARSE_NO_DERIVE, &r->metrics, NULL,
		&perr) != PR_OK) {
		pr_error_format(&perr, msg, sizeof(msg));
		return fail_run(r, res, "parse",
		    "cannot parse its output: ", msg, err);
	}
	if (o->parser != NULL &&
	    (st = pr_parser_derive(o->parser, &r->metrics, &perr)) != PR_OK) {
		if (st == PR_ENOMEM)
			return pr_error_set(err, st, "out of memory");
		pr_error_format(&perr, msg, sizeof(msg));
		return fail_run(r, res, "parse", "cannot derive metrics: ", msg,
		    err);
	}
	/* The monitors' prefix is reserved: a benchmark's own "mon.x" would
	 * be stored, compared and explained as a monitor's figure.  Without
	 * a parser the run has only the built-in metrics. */
	for (i = o->parse_output || o->parser != NULL ? 0 : r->metrics.n;
	     i < r->metrics.n; i++)
		if (pr_monitor_is_metric(r->metrics.metrics[i].name)) {
			snprintf(msg, sizeof(msg),
			    "metric '%.64s' has the prefix '" PR_MON_PREFIX
			    "', which is the monitors' (rename it: --metric "
			    "NAME=REGEX, --derive NAME=EXPR)",
			    r->metrics.metrics[i].name);
			return fail_run(r, res, "parse", "", msg, err);
		}
	return PR_OK;
}

static void
check_stop(struct pr_session *s)
{
	const struct pr_runner_opts *o = &s->opts;

	if (s->stop != PR_STOP_NONE)
		return;
	if (o->spawn.cancel != NULL && *o->spawn.cancel)
		s->stop = PR_STOP_INTERRUPTED;
	else if (o->max_failures > 0 && s->failures >= o->max_failures)
		s->stop = PR_STOP_FAILURES;
}

/* One run of variant vi: prepare, spawn, record, parse, count. */
static enum pr_status
do_run(struct pr_session *s, size_t vi, size_t round, int warmup,
    double t_session, double *overhead_sum, size_t *overhead_n,
    struct pr_error *err)
{
	struct pr_variant *v = &s->v[vi];
	struct pr_spawn_opts so = s->opts.spawn;
	struct pr_spawn_result res;
	struct pr_run r;
	char *one[2];
	enum pr_status st;
	double t_step;
	int spawned = 0;

	memset(&r, 0, sizeof(r));
	r.variant = vi;
	r.round = round;
	r.seq = s->nruns;
	r.warmup = warmup;
	r.exit_status = -1;
	pr_dataset_init(&r.metrics);
	pr_dataset_init(&r.monitors);
	pr_spawn_result_init(&res);
	r.start_s = pr_spawn_now() - t_session;

	if (v->prepare != NULL) {
		if ((st = run_aux(s, v->prepare, &res, err)) != PR_OK)
			goto out;
		if (res.outcome != PR_SPAWN_OK) {
			r.outcome = res.outcome;
			if ((st = fail_run(&r, &res, "prepare",
				 "its prepare "
				 "command failed: ",
				 res.reason, err)) != PR_OK)
				goto out;
			goto record;
		}
	}

	t_step = pr_spawn_now();
	if (s->opts.monitor != NULL &&
	    (st = pr_monitor_begin(s->opts.monitor, err)) != PR_OK)
		goto out;
	if (s->opts.spawn.shell) {
		one[0] = v->command;
		one[1] = NULL;
		st = pr_spawn_run(one, &so, &res, err);
	} else {
		/* Walk the search path once, not on every run; a program
		 * that is not there yet (a setup command may build it) is
		 * looked up again next time. */
		if (v->exe == NULL)
			(void)pr_spawn_which(v->argv[0], so.search, &v->exe);
		so.path = v->exe;
		st = pr_spawn_run(v->argv, &so, &res, err);
	}
	if (st == PR_OK && s->opts.monitor != NULL)
		st = pr_monitor_end(s->opts.monitor, &r.monitors, err);
	if (st != PR_OK)
		goto out;
	spawned = 1;
	r.outcome = res.outcome;
	r.exit_status = res.exit_status;
	r.signal = res.signal;
	r.truncated = res.truncated;
	if (res.outcome != PR_SPAWN_NOEXEC &&
	    (st = add_builtins(&r.metrics, &res, err)) != PR_OK)
		goto out;
	if (res.outcome == PR_SPAWN_OK) {
		r.ok = 1;
		if ((r.reason = strdup("")) == NULL) {
			st = pr_error_set(err, PR_ENOMEM, "out of memory");
			goto out;
		}
		if ((st = parse_run(s, v, &r, &res, err)) != PR_OK)
			goto out;
		if (r.ok && s->opts.keep_output) {
			r.output = pr_buf_detach(&res.output, &r.output_len);
			if (r.output == NULL &&
			    (r.output = strdup("")) == NULL) {
				st = pr_error_set(err, PR_ENOMEM,
				    "out of memory");
				goto out;
			}
		}
	} else if ((st = fail_run(&r, &res, "command", "", res.reason, err)) !=
	    PR_OK)
		goto out;

record:
	if (r.ok && !warmup && (st = count_run(v, &r, err)) != PR_OK)
		goto out;
	if (r.ok)
		v->runs_ok += !warmup;
	else if (r.outcome != PR_SPAWN_INTERRUPTED) {
		v->runs_failed++;
		s->failures++;
	}
	if ((st = push_run(s, &r, err)) != PR_OK)
		goto out;
	memset(&r, 0, sizeof(r)); /* now the session's */
	if (s->opts.on_run != NULL)
		s->opts.on_run(s, &s->runs[s->nruns - 1], s->opts.arg);
	if (s->runs[s->nruns - 1].ok && s->runs[s->nruns - 1].output != NULL) {
		/* keep_output: a successful run's output lives until on_run
		 * has seen it. */
		free(s->runs[s->nruns - 1].output);
		s->runs[s->nruns - 1].output = NULL;
		s->runs[s->nruns - 1].output_len = 0;
	}
	if (spawned) {
		*overhead_sum += pr_spawn_now() - t_step - res.wall_s;
		(*overhead_n)++;
	}
	check_stop(s);
	st = PR_OK;
out:
	run_release(&r);
	pr_spawn_result_release(&res);
	return st;
}

static enum pr_status
run_setup(struct pr_session *s, size_t *nsetup, struct pr_error *err)
{
	struct pr_spawn_result res;
	enum pr_status st = PR_OK;
	size_t i, shown;

	pr_spawn_result_init(&res);
	for (i = 0; i < s->nv; i++, (*nsetup)++) {
		if (s->v[i].setup == NULL)
			continue;
		if ((st = run_aux(s, s->v[i].setup, &res, err)) != PR_OK)
			break;
		if (res.outcome != PR_SPAWN_OK) {
			if ((st = join_output(&res, err)) != PR_OK)
				break;
			shown = res.output.len < 200 ? res.output.len : 200;
			st = pr_error_set(err, PR_EINVAL,
			    "the setup command "
			    "of '%s' failed: %s%s%.*s",
			    s->v[i].name, res.reason,
			    shown ? "; its output: " : "", (int)shown,
			    shown ? res.output.data : "");
			break;
		}
	}
	pr_spawn_result_release(&res);
	return st;
}

/* Runs the cleanup of the first n variants; the first failure of
 * perfreg itself is returned, a failed cleanup command is ignored. */
static enum pr_status
run_cleanup(struct pr_session *s, size_t n, struct pr_error *err)
{
	struct pr_spawn_result res;
	struct pr_spawn_opts keep = s->opts.spawn;
	enum pr_status st = PR_OK, st2;
	size_t i;

	/* Cleanup runs even after Ctrl-C. */
	s->opts.spawn.cancel = NULL;
	pr_spawn_result_init(&res);
	for (i = 0; i < n; i++) {
		if (s->v[i].cleanup == NULL)
			continue;
		st2 = run_aux(s, s->v[i].cleanup, &res, err);
		if (st == PR_OK)
			st = st2;
	}
	pr_spawn_result_release(&res);
	s->opts.spawn = keep;
	return st;
}

static void
shuffle(struct pr_rng *rng, size_t *p, size_t n)
{
	size_t i, j, t;

	for (i = n; i > 1; i--) {
		j = (size_t)pr_rng_below(rng, (uint64_t)i);
		t = p[i - 1];
		p[i - 1] = p[j];
		p[j] = t;
	}
}

static enum pr_status
run_rounds(struct pr_session *s, double t0, double *osum, size_t *on,
    struct pr_error *err)
{
	const struct pr_runner_opts *o = &s->opts;
	struct pr_rng rng;
	enum pr_status st = PR_OK;
	size_t *perm, r, i, w;
	int stop;

	perm = malloc(s->nv * sizeof(*perm));
	if (perm == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	pr_rng_seed(&rng, o->seed);
	for (w = 0; w < o->warmup && s->stop == PR_STOP_NONE; w++)
		for (i = 0; i < s->nv && s->stop == PR_STOP_NONE; i++)
			if ((st = do_run(s, i, w, 1, t0, osum, on, err)) !=
			    PR_OK)
				goto out;
	if (o->order == PR_ORDER_SEQUENTIAL) {
		for (i = 0; i < s->nv && s->stop == PR_STOP_NONE; i++)
			for (r = 0; r < o->runs && s->stop == PR_STOP_NONE; r++)
				if ((st = do_run(s, i, r, 0, t0, osum, on,
					 err)) != PR_OK)
					goto out;
		if (s->stop == PR_STOP_NONE)
			s->rounds_done = o->runs;
		goto out;
	}
	for (r = 0; r < o->runs && s->stop == PR_STOP_NONE; r++) {
		for (i = 0; i < s->nv; i++)
			perm[i] = i;
		shuffle(&rng, perm, s->nv);
		for (i = 0; i < s->nv && s->stop == PR_STOP_NONE; i++)
			/* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): perm[0..nv) is filled above and do_run never changes nv */
			if ((st = do_run(s, perm[i], r, 0, t0, osum, on,
				 err)) != PR_OK)
				goto out;
		if (s->stop != PR_STOP_NONE)
			break;
		s->rounds_done = r + 1;
		if (o->should_stop != NULL &&
		    (stop = o->should_stop(s, o->arg)) != 0)
			s->stop = stop > 0 ? PR_STOP_HOOK : PR_STOP_BUDGET;
	}
	/* With a stopping rule, running out of rounds before it said
	 * "stop" is a budget reached, not a session done. */
	if (o->should_stop != NULL && s->stop == PR_STOP_NONE)
		s->stop = PR_STOP_BUDGET;
out:
	free(perm);
	return st;
}

enum pr_status
pr_session_run(struct pr_session *s, const struct pr_runner_opts *o,
    struct pr_error *err)
{
	struct pr_spawner *sp = NULL;
	enum pr_status st, st2;
	double t0, osum = 0;
	size_t on = 0, nsetup = 0;

	if (s->nv == 0)
		return pr_error_set(err, PR_EINVAL, "no commands to run");
	if (o->runs == 0)
		return pr_error_set(err, PR_EINVAL,
		    "the number of runs must be at least 1");
	s->opts = *o;
	s->stop = PR_STOP_NONE;
	s->clock_res_s = pr_spawn_clock_resolution();
	/* The spawn attributes are made once for the session's runs. */
	if (o->spawn.spawner == NULL) {
		if ((st = pr_spawner_new(&sp, err)) != PR_OK)
			return st;
		s->opts.spawn.spawner = sp;
	}
	t0 = pr_spawn_now();
	st = run_setup(s, &nsetup, err);
	if (st == PR_OK)
		st = run_rounds(s, t0, &osum, &on, err);
	if (st == PR_OK && s->stop == PR_STOP_NONE)
		s->stop = PR_STOP_DONE;
	st2 = run_cleanup(s, nsetup, st == PR_OK ? err : NULL);
	if (st == PR_OK)
		st = st2;
	s->opts.spawn.spawner = o->spawn.spawner;
	pr_spawner_free(sp);
	s->overhead_s = on > 0 ? osum / (double)on : 0;
	s->elapsed_s = pr_spawn_now() - t0;
	return st;
}

/* The value of metric name in a counted successful run, or NAN. */
static double
run_value(const struct pr_run *r, const char *name)
{
	size_t i;

	if (!r->ok || r->warmup)
		return NAN;
	for (i = 0; i < r->metrics.n; i++)
		if (strcmp(r->metrics.metrics[i].name, name) == 0)
			return r->metrics.metrics[i].values.n == 1
			    ? r->metrics.metrics[i].values.v[0]
			    : NAN;
	return NAN;
}

/*
 * The pairs of variant vi (> 0) and the baseline on metric name, in round
 * order: the rounds in which both succeeded and both have a value.  *base
 * and *new_ point into one block the caller frees with free(*base) (NULL
 * when there are none); *k pairs.  PR_ENOTFOUND when there is none.
 */
static enum pr_status
collect_pairs(const struct pr_session *s, size_t vi, const char *name,
    double **base, double **new_, size_t *k, struct pr_error *err)
{
	double *b, *n, *pb, *pn, x;
	size_t rounds = 0, i, m = 0;

	*base = *new_ = NULL;
	*k = 0;
	if (vi == 0 || vi >= s->nv)
		return pr_error_set(err, PR_EINVAL,
		    "variant %zu is not a variant to pair with the baseline",
		    vi);
	for (i = 0; i < s->nruns; i++)
		if (!s->runs[i].warmup && s->runs[i].round + 1 > rounds)
			rounds = s->runs[i].round + 1;
	if (rounds == 0)
		return pr_error_set(err, PR_ENOTFOUND,
		    "no counted runs of '%s'", s->v[vi].name);
	b = malloc(4 * rounds * sizeof(*b));
	if (b == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	n = b + rounds;
	pb = n + rounds;
	pn = pb + rounds;
	for (i = 0; i < rounds; i++)
		b[i] = n[i] = NAN;
	for (i = 0; i < s->nruns; i++) {
		if (s->runs[i].warmup)
			continue;
		x = run_value(&s->runs[i], name);
		if (s->runs[i].variant == 0)
			b[s->runs[i].round] = x;
		else if (s->runs[i].variant == vi)
			n[s->runs[i].round] = x;
	}
	/* The pairs are moved to the front of the block, in round order. */
	for (i = 0; i < rounds; i++)
		if (!isnan(b[i]) && !isnan(n[i])) {
			pb[m] = b[i];
			pn[m++] = n[i];
		}
	if (m == 0) {
		free(b);
		return pr_error_set(err, PR_ENOTFOUND,
		    "no round has values "
		    "of '%s' for both '%s' and '%s'",
		    name, s->v[0].name, s->v[vi].name);
	}
	memmove(b, pb, m * sizeof(*b));
	memmove(b + m, pn, m * sizeof(*b));
	*base = b;
	*new_ = b + m;
	*k = m;
	return PR_OK;
}

enum pr_status
pr_session_paired(const struct pr_session *s, size_t vi, const char *name,
    double conf, double resolution, struct pr_paired *out, size_t *npairs,
    struct pr_error *err)
{
	double *b, *n;
	size_t k;
	enum pr_status st;

	if (npairs != NULL)
		*npairs = 0;
	if ((st = collect_pairs(s, vi, name, &b, &n, &k, err)) != PR_OK)
		return st;
	if (npairs != NULL)
		*npairs = k;
	st = pr_paired_compare(b, n, k, conf, resolution, out, err);
	free(b);
	return st;
}

double
pr_session_resolution(const struct pr_session *s, const char *name)
{
	if (strcmp(name, "wall_s") == 0)
		return s->clock_res_s;
	if (strcmp(name, "user_s") == 0 || strcmp(name, "sys_s") == 0)
		return 1e-6;
	if (strcmp(name, "maxrss_kib") == 0 || strcmp(name, "ctxsw_vol") == 0 ||
	    strcmp(name, "ctxsw_invol") == 0)
		return 1;
	return 0;
}

enum pr_status
pr_session_decide(const struct pr_session *s, size_t vi, const char *name,
    const struct pr_seq_opts *o, struct pr_seq_result *out,
    struct pr_error *err)
{
	struct pr_seq_opts so = *o;
	struct pr_seq q;
	double *b, *n, h, mb = 0, mn = 0;
	size_t k, i;
	enum pr_status st;

	memset(out, 0, sizeof(*out));
	if ((st = collect_pairs(s, vi, name, &b, &n, &k, err)) != PR_OK)
		return st;
	/*
	 * The floor on the spread of a log-ratio that the grid h of the
	 * values can hide: rounding errors uniform on [-h/2, h/2] on both
	 * runs of a round, near the mean values (perfreg/seq.h).
	 */
	h = pr_session_resolution(s, name);
	for (i = 0; i < k; i++) {
		mb += b[i] / (double)k;
		mn += n[i] / (double)k;
	}
	if (so.sd_floor == 0 && h > 0 && mb > 0 && mn > 0)
		so.sd_floor =
		    sqrt(h * h / 12 * (1 / (mb * mb) + 1 / (mn * mn)));
	if ((st = pr_seq_init(&q, &so, err)) != PR_OK) {
		free(b);
		return st;
	}
	for (i = 0; i < k && st == PR_OK; i++)
		st = pr_seq_update_pair(&q, b[i], n[i], err);
	if (st == PR_OK)
		pr_seq_query(&q, out);
	pr_seq_release(&q);
	free(b);
	return st;
}

enum pr_status
pr_param_expand(const char *tmpl, const struct pr_param *params, size_t np,
    const size_t *choice, char **out, struct pr_error *err)
{
	struct pr_buf b = PR_BUF_INIT((size_t)1 << 24);
	const char *p = tmpl, *close;
	size_t i, len;
	enum pr_status st = PR_OK;

	*out = NULL;
	while (*p != '\0' && st == PR_OK) {
		if (*p == '{' && (close = strchr(p + 1, '}')) != NULL) {
			len = (size_t)(close - p - 1);
			for (i = 0; i < np; i++)
				if (strlen(params[i].name) == len &&
				    strncmp(params[i].name, p + 1, len) == 0)
					break;
			if (i < np) {
				st = pr_buf_adds(&b,
				    params[i].values[choice[i]], err);
				p = close + 1;
				continue;
			}
		}
		st = pr_buf_addc(&b, *p++, err);
	}
	if (st == PR_OK && (*out = pr_buf_detach(&b, NULL)) == NULL)
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
	pr_buf_release(&b);
	return st;
}
