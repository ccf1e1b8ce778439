/*
 * probes/syscall.c - the cost in ns of the cheapest system call,
 * getppid(2), made through syscall(SYS_getppid) so that no C library
 * cache can answer it (lower is better); and, as a reference, the cost of
 * clock_gettime(CLOCK_MONOTONIC), which the vDSO answers in user space
 * when the clocksource allows it (tsc, kvm-clock, the Hyper-V page) and
 * through a real system call otherwise: the notes name the clocksource,
 * the TSC-timecounter question of seed 000.  A kernel update that changes
 * the entry path (mitigations, audit, seccomp) shows in getppid; one that
 * changes the clocksource shows in clock_gettime.
 *
 * Each metric times enough calls (calibrated in init) for about a
 * millisecond, and the results go to a volatile sink.  Deliberately not
 * measured: system calls that do work (the entry and exit are the whole
 * cost here), the first call's cold caches, and other clocks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "perfreg/probe.h"
#include "probes/probeutil.h"
#include "core/banned.h"

enum { GETPPID, CLOCK, NVAR };
#define TARGET_NS 1e6
#define REPS_MAX (1UL << 30)
#define CLOCKSOURCE \
	"/sys/devices/system/clocksource/clocksource0/current_clocksource"

static const char *const variants[] = { "getppid", "clock_gettime", NULL };
static volatile long sink;

struct sys {
	int var[NVAR];
	unsigned long reps[NVAR];
	char name[NVAR][32];
	size_t n;
	volatile sig_atomic_t *cancel;
	struct pr_probe_pin pin;
};

static double
timed(int var, unsigned long reps)
{
	struct timespec ts;
	unsigned long k;
	long sum = 0;
	uint64_t t0;
	double ns;

	t0 = pr_probe_now_ns();
	if (var == GETPPID)
		for (k = 0; k < reps; k++)
			sum += syscall(SYS_getppid);
	else
		for (k = 0; k < reps; k++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sum += ts.tv_nsec;
		}
	ns = (double)(pr_probe_now_ns() - t0);
	sink = sum;
	return ns > 0 ? ns : 1;
}

/* Notes the clocksource the vDSO would have to read. */
static void
note_clock(struct pr_buf *notes)
{
	char cs[64] = "";
	ssize_t n = -1;
	int fd;

	if ((fd = open(CLOCKSOURCE, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, cs, sizeof(cs) - 1);
		close(fd);
	}
	if (n > 0) {
		cs[n] = '\0';
		cs[strcspn(cs, "\n")] = '\0';
	}
	pr_buf_addf(notes, NULL,
	    "syscall: clock_gettime: clocksource %s%s%s; "
	    "the vDSO reads tsc, kvm-clock and hyperv_clocksource_tsc_page "
	    "without a system call\n",
	    n > 0 ? "'" : "",
	    n > 0 ? cs : "unknown (" CLOCKSOURCE " unreadable)",
	    n > 0 ? "'" : "");
}

static void
fini(void *state)
{
	struct sys *s = state;

	if (s == NULL)
		return;
	pr_probe_unpin(&s->pin);
	free(s);
}

static enum pr_status
init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	struct sys *s;
	size_t i;
	int v;

	*state = NULL;
	for (v = 0; o->variant != NULL && v < NVAR; v++)
		if (strcmp(o->variant, variants[v]) == 0)
			break;
	if (v == NVAR)
		return pr_error_set(err, PR_ENOTFOUND,
		    "syscall: no variant "
		    "'%s' (getppid, clock_gettime)",
		    o->variant);
	if (o->param != NULL)
		return pr_error_set(err, PR_ENOTFOUND,
		    "syscall: no parameter "
		    "'%s' (its metrics have none)",
		    o->param);
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	s->cancel = o->cancel;
	for (v = 0; v < NVAR; v++) {
		if (o->variant != NULL && strcmp(o->variant, variants[v]) != 0)
			continue;
		s->var[s->n] = v;
		snprintf(s->name[s->n], sizeof(s->name[0]), "syscall%s%s",
		    o->variant ? "" : ".", o->variant ? "" : variants[v]);
		s->n++;
	}
	if (pr_probe_pin(&s->pin, "syscall", o->cpu, err) != PR_OK) {
		free(s);
		return PR_EIO;
	}
	if (notes != NULL && (o->variant == NULL || s->var[0] == CLOCK))
		note_clock(notes);
	for (i = 0; i < s->n; i++) {
		unsigned long reps = 1;
		double ns;

		while ((ns = timed(s->var[i], reps)) < TARGET_NS &&
		    reps < REPS_MAX)
			reps = ns < TARGET_NS / 64
			    ? reps * 64
			    : (unsigned long)((double)reps * TARGET_NS * 1.2 /
				  ns) +
				1;
		s->reps[i] = reps;
	}
	*state = s;
	return PR_OK;
}

static enum pr_status
sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct sys *s = state;
	enum pr_status st;
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->cancel != NULL && *s->cancel)
			return pr_error_set(err, PR_EINVAL, "interrupted");
		st = pr_dataset_add(out, s->name[i], "ns/call", PR_BETTER_LOWER,
		    timed(s->var[i], s->reps[i]) / (double)s->reps[i], err);
		if (st != PR_OK)
			return st;
	}
	return PR_OK;
}

const struct pr_probe pr_probe_syscall = {
	"syscall",
	"ns per getppid(2) system call, and per vDSO clock_gettime",
	"clock_gettime(CLOCK_MONOTONIC)",
	variants,
	init,
	sample,
	fini,
	PR_PROBE_FIGURE_BEST,
};
