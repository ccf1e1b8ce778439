/*
 * probes/handoff.c - the handoff probe: the round-trip latency of handing
 * a small work item to another thread and waiting for its answer, the
 * user-space face of seed 002's tasklet-versus-threaded-IRQ question
 * (wake-up and context-switch cost).
 *
 * Variants: "condvar" (pthread mutex and condition variable), "futex"
 * (raw FUTEX_WAIT/FUTEX_WAKE, a wake per hand-off), "pipe" (a pipe each
 * way, 4-byte messages), "spin" (busy-poll on an atomic word) and
 * "inline" (a call through a function pointer: the floor).  Each sample
 * makes 2,000 round trips (500 quick), times each with
 * clock_gettime(CLOCK_MONOTONIC), checks each answer, and reports the
 * median and 99th percentile (nearest rank) in ns, lower is better.  The
 * workers start in init, wait on their mechanism between samples, and are
 * joined in fini.  Spinners pause between polls, yield every 64 polls
 * (every poll when only one CPU is available, noted), and sleep on a
 * futex after 20,000 polls: a parked spinner burns no CPU between samples
 * and one CPU cannot hang the probe.  With a CPU given, the calling
 * thread is pinned before the workers start and they inherit the pin:
 * every hand-off is then a switch on one CPU.
 *
 * Not measured: throughput with many items in flight, queueing, thread
 * creation, and interrupt-context hand-off itself (tasklets are kernel).
 */
#define _GNU_SOURCE /* sched_setaffinity, syscall */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "perfreg/probe.h"
#include "probes/probeutil.h"
#include "core/banned.h"

enum { CONDVAR, FUTEX, PIPE, SPIN, INLINE, NVAR };
#define QUIT UINT32_MAX
#define SPIN_POLLS 20000
#define TRIPS 2000 /* round trips per sample; a quarter with quick */

static const char *const variants[] = { "condvar", "futex", "pipe", "spin",
	"inline", NULL };

struct lane {
	int kind, on, started, yield_every;
	uint32_t last; /* the calling thread's last request */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv[2];
	_Atomic uint32_t w[2], ans, sleepers; /* w[0] request, w[1] reply */
	int p[2][2];                          /* pipe k carries w[k] */
	char names[2][40];
};

struct state {
	struct lane lane[NVAR];
	double lat[TRIPS];
	int trips;
	struct pr_probe_pin pin;
	volatile sig_atomic_t *cancel;
};

static uint32_t
work(uint32_t x)
{
	return x * 2654435761u + 1;
}

static uint32_t (*volatile work_fn)(uint32_t) = work;

static void
futex(_Atomic uint32_t *w, int op, uint32_t v)
{
	syscall(SYS_futex, w, op | FUTEX_PRIVATE_FLAG, v, NULL, NULL, 0);
}

static void
post(struct lane *l, int k, uint32_t v)
{
	if (l->kind == PIPE) {
		while (write(l->p[k][1], &v, sizeof(v)) < 0 && errno == EINTR)
			;
		return;
	}
	if (l->kind == CONDVAR)
		pthread_mutex_lock(&l->mu);
	atomic_store(&l->w[k], v);
	if (l->kind == CONDVAR) {
		pthread_cond_signal(&l->cv[k]);
		pthread_mutex_unlock(&l->mu);
	} else if (l->kind == FUTEX || atomic_load(&l->sleepers) > 0) {
		futex(&l->w[k], FUTEX_WAKE, 1);
	}
}

/* Waits until w[k] is no longer old; returns its new value. */
static uint32_t
wait_ne(struct lane *l, int k, uint32_t old)
{
	uint32_t v = QUIT;
	int i;

	if (l->kind == PIPE) {
		while (read(l->p[k][0], &v, sizeof(v)) < 0 && errno == EINTR)
			;
		return v;
	}
	if (l->kind == CONDVAR) {
		pthread_mutex_lock(&l->mu);
		while ((v = atomic_load(&l->w[k])) == old)
			pthread_cond_wait(&l->cv[k], &l->mu);
		pthread_mutex_unlock(&l->mu);
		return v;
	}
	for (i = 0; l->kind == SPIN && i < SPIN_POLLS; i++) {
		if ((v = atomic_load(&l->w[k])) != old)
			return v;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
		if (i % l->yield_every == l->yield_every - 1)
			sched_yield();
	}
	atomic_fetch_add(&l->sleepers, 1);
	while ((v = atomic_load(&l->w[k])) == old)
		futex(&l->w[k], FUTEX_WAIT, old);
	atomic_fetch_sub(&l->sleepers, 1);
	return v;
}

static void *
worker(void *arg)
{
	struct lane *l = arg;
	uint32_t seq = 0;

	while ((seq = wait_ne(l, 0, seq)) != QUIT) {
		atomic_store(&l->ans, work(seq));
		post(l, 1, seq);
	}
	return NULL;
}

static void
ho_fini(void *state)
{
	struct state *s = state;
	struct lane *l;
	int v, k;

	if (s == NULL)
		return;
	for (v = 0; v < NVAR; v++) {
		l = &s->lane[v];
		if (l->started) {
			post(l, 0, QUIT);
			pthread_join(l->thread, NULL);
		}
		for (k = 0; k < 4; k++)
			if (l->p[k / 2][k % 2] >= 0)
				close(l->p[k / 2][k % 2]);
		pthread_mutex_destroy(&l->mu);
		pthread_cond_destroy(&l->cv[0]);
		pthread_cond_destroy(&l->cv[1]);
	}
	pr_probe_unpin(&s->pin);
	free(s);
}

static enum pr_status
ho_init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	static const char *const params[] = { "p50", "p99" };
	enum pr_status st = PR_OK;
	struct state *s;
	struct lane *l;
	cpu_set_t set;
	int v, k, rc, any = 0, ncpu;

	if ((*state = s = calloc(1, sizeof(*s))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "handoff: out of memory");
	s->trips = o->quick ? TRIPS / 4 : TRIPS;
	s->cancel = o->cancel;
	for (v = 0; v < NVAR; v++) {
		l = &s->lane[v];
		l->kind = v;
		memset(l->p, -1, sizeof(l->p));
		pthread_mutex_init(&l->mu, NULL);
		pthread_cond_init(&l->cv[0], NULL);
		pthread_cond_init(&l->cv[1], NULL);
		l->on = !o->variant || strcmp(o->variant, variants[v]) == 0;
		any |= l->on;
		for (k = 0; k < 2; k++)
			snprintf(l->names[k], sizeof(l->names[k]),
			    "handoff.%s%s%s", o->variant ? "" : variants[v],
			    o->variant ? "" : ".", params[k]);
	}
	if (!any || o->param != NULL) {
		st = pr_error_set(err, PR_ENOTFOUND, "handoff: no %s '%s' (%s)",
		    any ? "parameter" : "variant", any ? o->param : o->variant,
		    any ? "it has none" : "condvar, futex, pipe, spin, inline");
		goto out;
	}
	if ((st = pr_probe_pin(&s->pin, "handoff", o->cpu, err)) != PR_OK)
		goto out;
	ncpu = sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
	for (v = 0; v < INLINE && st == PR_OK; v++) {
		l = &s->lane[v];
		l->yield_every = ncpu > 1 ? 64 : 1;
		if (!l->on)
			continue;
		if (v == PIPE && (pipe(l->p[0]) != 0 || pipe(l->p[1]) != 0))
			st = pr_error_set(err, PR_EIO, "handoff: pipe: %s",
			    strerror(errno));
		else if ((rc = pthread_create(&l->thread, NULL, worker, l)))
			st = pr_error_set(err, PR_EIO,
			    "handoff: "
			    "pthread_create: %s",
			    strerror(rc));
		l->started = st == PR_OK;
	}
	if (st == PR_OK && ncpu == 1 && s->lane[SPIN].on && notes != NULL)
		st = pr_buf_adds(notes,
		    "handoff: spin: one CPU available, the "
		    "pollers yield at every poll\n",
		    err);
out:
	if (st != PR_OK) {
		ho_fini(s);
		*state = NULL;
	}
	return st;
}

static enum pr_status
ho_sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct state *s = state;
	struct timespec t0, t1;
	struct lane *l;
	enum pr_status st;
	uint32_t seq, old, a;
	double q[2];
	int v, i, k;

	for (v = 0; v < NVAR; v++) {
		if (!(l = &s->lane[v])->on)
			continue;
		seq = l->last;
		for (i = 0; i < s->trips; i++) {
			if (s->cancel != NULL && *s->cancel)
				return pr_error_set(err, PR_EINVAL,
				    "interrupted");
			seq = seq + 1 >= QUIT ? 1 : seq + 1;
			clock_gettime(CLOCK_MONOTONIC, &t0);
			if (v == INLINE) {
				a = work_fn(seq);
			} else {
				old = atomic_load(&l->w[1]);
				post(l, 0, seq);
				a = wait_ne(l, 1, old) == seq
				    ? atomic_load(&l->ans)
				    : ~work(seq);
			}
			clock_gettime(CLOCK_MONOTONIC, &t1);
			if (a != work(seq))
				return pr_error_set(err, PR_EIO,
				    "handoff: %s: "
				    "wrong reply",
				    variants[v]);
			s->lat[i] = pr_probe_ns_between(&t0, &t1);
		}
		l->last = seq;
		pr_sort_doubles(s->lat, (size_t)s->trips);
		q[0] = s->lat[(s->trips + 1) / 2 - 1];
		q[1] = s->lat[(s->trips * 99 + 99) / 100 - 1];
		for (k = 0; k < 2; k++)
			if ((st = pr_dataset_add(out, l->names[k], "ns",
				 PR_BETTER_LOWER, q[k], err)) != PR_OK)
				return st;
	}
	return PR_OK;
}

const struct pr_probe pr_probe_handoff = { "handoff",
	"round trip to another thread: condvar, futex, pipe, spin vs inline",
	"clock_gettime(CLOCK_MONOTONIC)", variants, ho_init, ho_sample, ho_fini,
	PR_PROBE_FIGURE_BEST };
