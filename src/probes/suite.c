/*
 * probes/suite.c - the suite driver: runs the built-in probes with
 * adaptive repetition (pr_suite_run) and two variants of one probe
 * interleaved (pr_suite_ab).  See perfreg/suite.h.
 *
 * Convergence uses the Student t interval of the mean of the samples so
 * far: half-width t(0.975, n-1) s / sqrt(n), relative to |mean|.  The
 * stopping rule only decides how long a probe runs; no test is made on
 * the way, so it inflates no error rate (the comparison with a baseline
 * is made afterwards on all samples).
 *
 * It is the mean's interval for every probe, the best-sample ones too,
 * and not the interval reported (pr_suite_result_stats: the processes'
 * or blocks' values, 3 degrees of freedom for 4 of them): a worker sees
 * one process only, and the spread between processes, which is most of
 * the reported interval, does not narrow with more samples in one, so a
 * rule on it would run every probe to its budget.  The question here is
 * only whether this process's samples have settled; a probe converged
 * may show a wider interval, and the verdicts use that one (the man
 * page's --target says so).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "perfreg/distrib.h"
#include "perfreg/monitor.h"
#include "perfreg/rng.h"
#include "perfreg/suite.h"
#include "probes/probeutil.h"
#include "core/banned.h"

double
pr_suite_cpu_s(void)
{
	struct rusage self, kids;

	if (getrusage(RUSAGE_SELF, &self) != 0 ||
	    getrusage(RUSAGE_CHILDREN, &kids) != 0)
		return 0;
	return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec +
		   kids.ru_utime.tv_sec + kids.ru_stime.tv_sec) +
	    (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec +
		kids.ru_utime.tv_usec + kids.ru_stime.tv_usec) *
	    1e-6;
}

double
pr_suite_pace_of(const struct pr_suite_result *r, size_t n, double *wall_s,
    double *cpu_s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (r[i].cpu_s > 0 && r[i].elapsed_s > 0) {
			*wall_s += r[i].elapsed_s;
			*cpu_s += r[i].cpu_s;
		}
	return *cpu_s > 0 ? *wall_s / *cpu_s : 0;
}

double
pr_suite_reserve(double pace, double budget_s, size_t earlier)
{
	double lo = PR_SUITE_RESERVE_S + PR_SUITE_RESERVE_SHARE * budget_s;
	double hi = PR_SUITE_RESERVE_MAX_SHARE * budget_s;
	double r;

	if (earlier > PR_SUITE_STORE_SESSIONS_MAX)
		earlier = PR_SUITE_STORE_SESSIONS_MAX;
	r = pace * PR_SUITE_STORE_CPU_S;
	if (earlier > PR_SUITE_STORE_SESSIONS_IN)
		r += pace * PR_SUITE_STORE_CPU_EACH_S *
		    (double)(earlier - PR_SUITE_STORE_SESSIONS_IN);

	if (!(r > lo))
		return lo;
	return r < hi ? r : hi > lo ? hi : lo;
}

void
pr_suite_opts_init(struct pr_suite_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cpu = -1;
	o->budget_s = 480.0;
	o->target_pct = 1.0;
	o->min_samples = 5;
	o->max_samples = 1000;
	o->rounds = 20;
	o->seed = 1;
}

double
pr_suite_halfwidth_pct(const double *v, size_t n)
{
	double mean = 0.0, ss = 0.0, d;
	size_t i;

	if (n < 2)
		return INFINITY;
	for (i = 0; i < n; i++)
		mean += (v[i] - mean) / (double)(i + 1);
	for (i = 0; i < n; i++) {
		d = v[i] - mean;
		ss += d * d;
	}
	if (!(fabs(mean) > 0.0) || !isfinite(ss))
		return INFINITY;
	return 100.0 * pr_t_quantile(0.975, (double)(n - 1)) *
	    sqrt(ss / (double)(n - 1) / (double)n) / fabs(mean);
}

/*
 * The widest half-width over the metrics of d, percent.  A metric with
 * fewer values than the longest is a part of the probe left out on the
 * way (PR_ENOTFOUND): its figures are frozen and go at the end
 * (pr_monitor_keep_complete), so they do not hold the probe back.
 */
static double
worst_pct(const struct pr_dataset *d)
{
	double w = 0.0, h;
	size_t i, most = 0;

	if (d->n == 0)
		return INFINITY;
	for (i = 0; i < d->n; i++)
		if (d->metrics[i].values.n > most)
			most = d->metrics[i].values.n;
	for (i = 0; i < d->n; i++) {
		if (d->metrics[i].values.n < most)
			continue;
		h = pr_suite_halfwidth_pct(d->metrics[i].values.v,
		    d->metrics[i].values.n);
		if (!(h <= w))
			w = h;
	}
	return w;
}

void
pr_suite_results_free(struct pr_suite_result *r, size_t n)
{
	size_t i;

	for (i = 0; r != NULL && i < n; i++) {
		pr_dataset_release(&r[i].data);
		pr_dataset_release(&r[i].monitors);
		free(r[i].notes);
		free(r[i].skipped);
		free(r[i].process);
	}
	free(r);
}

/* The suite's clock: the caller's (tests) or CLOCK_MONOTONIC. */
static double
clk(const struct pr_suite_opts *o)
{
	return o->now != NULL ? o->now(o->arg) : pr_probe_now_s();
}

static int
cancelled(const struct pr_suite_opts *o)
{
	return o->cancel != NULL && *o->cancel != 0;
}

/* Starts a probe with popts into r; a probe that cannot run here is
 * marked skipped (PR_OK); other failures are returned. */
static enum pr_status
start(const struct pr_probe *p, const struct pr_probe_opts *popts,
    struct pr_suite_result *r, void **state, struct pr_error *err)
{
	struct pr_buf notes = PR_BUF_INIT(1 << 16);
	struct pr_error perr;
	enum pr_status st;

	*state = NULL;
	pr_error_clear(&perr);
	st = p->init(popts, state, &notes, &perr);
	if (pr_buf_addc(&notes, '\0', err) != PR_OK) {
		pr_buf_release(&notes);
		if (st == PR_OK)
			p->fini(*state);
		*state = NULL;
		return PR_ENOMEM;
	}
	r->notes = pr_buf_detach(&notes, NULL);
	if (st == PR_OK)
		return PR_OK;
	*state = NULL;
	if (st == PR_ENOMEM)
		return pr_error_set(err, st, "%s: %s", p->name, perr.msg);
	if ((r->skipped = strdup(
		 perr.msg[0] != '\0' ? perr.msg : pr_status_str(st))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	return PR_OK;
}

/* Adds the line msg to r's notes. */
static enum pr_status
add_note(struct pr_suite_result *r, const char *msg, struct pr_error *err)
{
	size_t len = r->notes != NULL ? strlen(r->notes) : 0;
	char *n;

	if ((n = realloc(r->notes, len + strlen(msg) + 2)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	memcpy(n + len, msg, strlen(msg));
	n[len + strlen(msg)] = '\n';
	n[len + strlen(msg) + 1] = '\0';
	r->notes = n;
	return PR_OK;
}

static enum pr_status
sample(const struct pr_probe *p, void *state, struct pr_suite_result *r,
    const struct pr_suite_opts *o, struct pr_error *err)
{
	struct pr_error perr;
	enum pr_status st;
	double t = 0;

	if (o->monitor != NULL) {
		if ((st = pr_monitor_begin(o->monitor, err)) != PR_OK)
			return st;
		t = clk(o);
	}
	pr_error_clear(&perr);
	st = p->sample(state, &r->data, &perr);
	/* A part of the probe left out: the sample stands, the reason
	 * goes to the notes (its figures are dropped at the end). */
	if (st == PR_ENOTFOUND)
		st = add_note(r, perr.msg, err);
	else if (st != PR_OK)
		return pr_error_set(err, st, "%s: %s", p->name, perr.msg);
	if (st != PR_OK)
		return st;
	if (o->monitor != NULL &&
	    ((st = pr_dataset_add(&r->monitors, PR_MON_WALL, "s",
		  PR_BETTER_LOWER, clk(o) - t, err)) != PR_OK ||
		(st = pr_monitor_end(o->monitor, &r->monitors, err)) != PR_OK))
		return st;
	r->samples++;
	return PR_OK;
}

enum pr_status
pr_suite_run(const struct pr_probe *const *probes, size_t n,
    const struct pr_suite_opts *o, struct pr_suite_result **out, size_t *nout,
    struct pr_error *err)
{
	struct pr_suite_result *res, *r;
	struct pr_probe_opts popts;
	enum pr_status st = PR_OK;
	double t0, tp, ts, deadline, longest, floors = 0, cpu;
	void *state;
	size_t i, nfloors = 0;

	*out = NULL;
	*nout = 0;
	if (n == 0)
		return pr_error_set(err, PR_EINVAL, "no probes to run");
	if ((res = calloc(n, sizeof(*res))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	*out = res;
	memset(&popts, 0, sizeof(popts));
	popts.quick = o->quick;
	popts.cpu = o->cpu;
	popts.cpu_flags = o->cpu_flags;
	popts.cancel = o->cancel;
	t0 = clk(o);
	for (i = 0; i < n; i++) {
		r = &res[i];
		r->probe = probes[i];
		r->label = probes[i]->name;
		pr_dataset_init(&r->data);
		r->worst_pct = INFINITY;
		*nout = i + 1;
		if (cancelled(o))
			return pr_error_set(err, PR_EINVAL, "interrupted");
		tp = clk(o);
		cpu = pr_suite_cpu_s();
		/* The share of what is left: a probe that overran its share
		 * (its set-up, its floor of samples) shortens the others'. */
		deadline = tp + (t0 + o->budget_s - tp) / (double)(n - i);
		longest = 0;
		if ((st = start(probes[i], &popts, r, &state, err)) != PR_OK)
			return st;
		if (r->skipped != NULL) {
			if (o->on_probe != NULL)
				o->on_probe(r, o->arg);
			continue;
		}
		for (;;) {
			if (cancelled(o)) {
				st =
				    pr_error_set(err, PR_EINVAL, "interrupted");
				break;
			}
			/* A sample that would end past the deadline is not
			 * begun, once the floor of samples is taken. */
			ts = clk(o);
			if (r->samples >= PR_SUITE_SAMPLES_FLOOR &&
			    ts + longest > deadline) {
				r->budget_cut = 1;
				break;
			}
			if ((st = sample(probes[i], state, r, o, err)) != PR_OK)
				break;
			if (clk(o) - ts > longest)
				longest = clk(o) - ts;
			if (r->samples == PR_SUITE_SAMPLES_FLOOR)
				r->floor_s = clk(o) - tp;
			if (o->on_sample != NULL)
				o->on_sample(probes[i]->name, r->samples,
				    clk(o) - t0, o->arg);
			if (r->samples >= 2)
				r->worst_pct = worst_pct(&r->data);
			if (r->samples < o->min_samples)
				continue;
			if (o->target_pct > 0 &&
			    r->worst_pct <= o->target_pct) {
				r->converged = 1;
				break;
			}
			if (o->max_samples != 0 &&
			    r->samples >= o->max_samples) {
				r->capped = 1;
				break;
			}
		}
		probes[i]->fini(state);
		/* A part left out on the way no longer has a value for
		 * every sample: its figures go, so that values line up
		 * with samples. */
		if (st == PR_OK)
			st =
			    pr_monitor_keep_complete(&r->data, r->samples, err);
		if (st == PR_OK)
			st = pr_monitor_keep_complete(&r->monitors, r->samples,
			    err);
		r->elapsed_s = clk(o) - tp;
		r->cpu_s = pr_suite_cpu_s() - cpu;
		if (r->samples < PR_SUITE_SAMPLES_FLOOR)
			r->floor_s = r->elapsed_s;
		if (st != PR_OK)
			return st;
		if (o->on_probe != NULL)
			o->on_probe(r, o->arg);
		floors += r->floor_s;
		nfloors++;
		/* Running late: the floors measured here say the probes
		 * left cannot be run within what is left. */
		if (o->on_late != NULL && i + 1 < n &&
		    floors / (double)nfloors * (double)(n - i - 1) >
			t0 + o->budget_s - clk(o)) {
			o->on_late(floors / (double)nfloors *
				(double)(n - i - 1),
			    t0 + o->budget_s - clk(o), o->arg);
		}
	}
	return PR_OK;
}

/* Selects side s of probe p into popts: a variant or a parameter. */
static enum pr_status
select_side(const struct pr_probe *p, const char *s,
    struct pr_probe_opts *popts, char *param, size_t psize,
    struct pr_error *err)
{
	size_t i, len;

	popts->variant = NULL;
	popts->param = NULL;
	for (i = 0; p->variants != NULL && p->variants[i] != NULL; i++) {
		if (strcmp(p->variants[i], s) == 0) {
			popts->variant = s;
			return PR_OK;
		}
	}
	len = strlen(s);
	if (len == 0 || len + 2 > psize)
		return pr_error_set(err, PR_ENOTFOUND,
		    "%s: no variant or "
		    "parameter '%s'",
		    p->name, s);
	memcpy(param, s, len + 1);
	if (strspn(s, "0123456789") == len)
		memcpy(param + len, "B", 2);
	popts->param = param;
	return PR_OK;
}

enum pr_status
pr_suite_ab(const struct pr_probe *p, const char *a, const char *b,
    const struct pr_suite_opts *o, struct pr_suite_result **out,
    struct pr_error *err)
{
	struct pr_suite_result *res;
	struct pr_probe_opts popts[2];
	char param[2][64];
	const char *side[2];
	void *state[2] = { NULL, NULL };
	enum pr_status st = PR_OK;
	struct pr_rng rng;
	double t0, tr;
	size_t round, k, first;
	int i;

	*out = NULL;
	t0 = clk(o);
	side[0] = a;
	side[1] = b;
	if ((res = calloc(2, sizeof(*res))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	*out = res;
	for (i = 0; i < 2; i++) {
		res[i].probe = p;
		res[i].label = i == 0 ? "A" : "B";
		res[i].worst_pct = INFINITY;
		pr_dataset_init(&res[i].data);
		memset(&popts[i], 0, sizeof(popts[i]));
		popts[i].quick = o->quick;
		popts[i].cpu = o->cpu;
		popts[i].cpu_flags = o->cpu_flags;
		popts[i].cancel = o->cancel;
		if ((st = select_side(p, side[i], &popts[i], param[i],
			 sizeof(param[i]), err)) != PR_OK)
			goto out;
		if ((st = start(p, &popts[i], &res[i], &state[i], err)) !=
		    PR_OK)
			goto out;
		if (res[i].skipped != NULL) {
			st = pr_error_set(err, PR_ENOTFOUND, "%s: %s: %s",
			    p->name, side[i], res[i].skipped);
			goto out;
		}
	}
	pr_rng_seed(&rng, o->seed);
	for (round = 0; round < o->rounds; round++) {
		tr = clk(o);
		first = (size_t)pr_rng_below(&rng, 2);
		for (k = 0; k < 2; k++) {
			i = (int)((first + k) % 2);
			if (cancelled(o)) {
				st =
				    pr_error_set(err, PR_EINVAL, "interrupted");
				goto out;
			}
			if ((st = sample(p, state[i], &res[i], o, err)) !=
			    PR_OK)
				goto out;
			if (o->on_sample != NULL)
				o->on_sample(res[i].label, res[i].samples,
				    clk(o) - t0, o->arg);
		}
		/* The next round is not begun when a round like this one
		 * would end past the budget (set-up included). */
		if (clk(o) + (clk(o) - tr) > t0 + o->budget_s)
			break;
	}
	for (i = 0; i < 2; i++) {
		res[i].elapsed_s = clk(o) - t0;
		res[i].worst_pct = worst_pct(&res[i].data);
		res[i].converged = res[i].worst_pct <= o->target_pct;
		if ((st = pr_monitor_keep_complete(&res[i].data, res[i].samples,
			 err)) != PR_OK ||
		    (st = pr_monitor_keep_complete(&res[i].monitors,
			 res[i].samples, err)) != PR_OK)
			goto out;
	}
out:
	for (i = 0; i < 2; i++)
		if (state[i] != NULL)
			p->fini(state[i]);
	return st;
}
