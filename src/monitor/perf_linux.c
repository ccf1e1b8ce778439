/*
 * monitor/perf_linux.c - the counters of the child and its descendants,
 * with Linux's perf_event_open(2).
 *
 * posix_spawn leaves no moment between the fork and the exec in which
 * the parent could attach counters to the child, so the counters are
 * perfreg's own, in two groups per kind of event: one with inherit,
 * which counts perfreg and every process it creates from then on (the
 * kernel adds a child's counts to its parent's counter when the child
 * exits, which is before pr_spawn_run returns), and one without, which
 * counts perfreg alone.  The child's figure is the difference.  Both
 * groups are enabled just before the spawn (perfreg's first) and
 * disabled just after the reap (the inherited one first), so that what
 * perfreg itself does in between is in both and cancels, up to the two
 * ioctl calls at the edges.  For work done in perfreg itself (the
 * suite's probes, PR_MON_OPT_SELF) the figure is the inherited group's
 * own count: the calling thread and every task it created since.
 *
 * Each group is read in one read() (PERF_FORMAT_GROUP) with its
 * time_enabled and time_running; a group the kernel multiplexed (more
 * hardware events than counters) is scaled by enabled / running over
 * the run, each group by its own before the subtraction, and the
 * largest scale is kept for the note; a group enabled that never ran
 * (another perf user held every counter) has unknown counts, so its
 * kind's figures are left out of that run, never zero
 * (pr_mon_perf_figure, tested with fixed readings).  A software group
 * is never multiplexed: its enabled and running times are equal, and
 * its child figure is exact (the kernel counts each context switch of
 * a task, where wait4's rusage counts it too).  Software
 * events (task-clock, context-switches, cpu-migrations, page-faults)
 * are always there; the hardware events (cycles, instructions,
 * branch-misses, cache-references, cache-misses) need a PMU, which a VM
 * often lacks: they are then absent, with one note, never zero.  Where
 * perf_event_paranoid refuses kernel counting, the events count user
 * space only, and a note says so; context switches and CPU migrations,
 * which the scheduler counts with the kernel's registers and so never
 * in user mode, are then absent rather than a constant 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "monitor/internal.h"
#include "perfreg/monitor.h"

#include "core/banned.h"

#define EV_MAX PR_MON_PERF_EV_MAX

struct ev {
	uint32_t type;
	uint64_t config;
	const char *name, *unit;
	double mult; /* into the unit */
	int kernel;  /* counted in the kernel only (the scheduler) */
};

static const struct ev sw_events[] = {
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task_clock_s", "s",
	    1e-9, 0 },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
	    "context_switches", "count", 1, 1 },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu_migrations",
	    "count", 1, 1 },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page_faults", "count",
	    1, 0 },
};

static const struct ev hw_events[] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", "count", 1,
	    0 },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions",
	    "count", 1, 0 },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "branch_misses",
	    "count", 1, 0 },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
	    "cache_references", "count", 1, 0 },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "cache_misses",
	    "count", 1, 0 },
};

/* The same events as software ones, for the test of the hardware path
 * on a machine without a PMU (pr_mon_perf_open_fake_hw). */
static const struct ev fake_hw_events[] = {
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cycles", "count", 1,
	    0 },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "instructions", "count",
	    1, 0 },
};

/* One group: the events, per event the last read counts, and the
 * reading of the run (the counts and times since the last read). */
struct group {
	const struct ev *ev;
	size_t n;
	int fd[EV_MAX];
	uint64_t last[EV_MAX], last_en, last_run;
	struct pr_mon_perf_read r;
};

/* A kind of events: its inherited group (all) and perfreg's (self). */
struct kind {
	int open;
	struct group all, self;
};

struct pr_mon_perf {
	struct kind sw, hw;
	int self;      /* PR_MON_OPT_SELF: the inherited group's count alone */
	int user_only; /* exclude_kernel: the kernel's events left out */
};

static long
peo(struct perf_event_attr *a, int group_fd)
{
	return syscall(SYS_perf_event_open, a, 0, -1, group_fd,
	    PERF_FLAG_FD_CLOEXEC);
}

static void
group_close(struct group *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (g->fd[i] >= 0)
			close(g->fd[i]);
	g->n = 0;
}

/* Opens a group; 0, or the errno of the first event that failed. */
static int
group_open(struct group *g, const struct ev *ev, size_t n, int inherit,
    int user_only)
{
	struct perf_event_attr a;
	size_t i;
	long fd;

	memset(g, 0, sizeof(*g));
	g->ev = ev;
	for (i = 0; i < n; i++) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = ev[i].type;
		a.config = ev[i].config;
		a.disabled = i == 0;
		a.inherit = (unsigned)inherit;
		a.exclude_kernel = (unsigned)user_only;
		a.exclude_hv = (unsigned)user_only;
		a.read_format = PERF_FORMAT_GROUP |
		    PERF_FORMAT_TOTAL_TIME_ENABLED |
		    PERF_FORMAT_TOTAL_TIME_RUNNING;
		if ((fd = peo(&a, i == 0 ? -1 : g->fd[0])) < 0) {
			int e = errno;

			group_close(g);
			return e != 0 ? e : EINVAL;
		}
		g->fd[i] = (int)fd;
		g->n = i + 1;
	}
	return 0;
}

double
pr_mon_perf_scale(const struct pr_mon_perf_read *r)
{
	if (r->run > 0 && r->en > r->run)
		return r->en / r->run;
	return r->en > 0 && r->run <= 0 ? 0 : 1;
}

int
pr_mon_perf_figure(const struct pr_mon_perf_read *all,
    const struct pr_mon_perf_read *self, size_t i, double *v)
{
	double sa = pr_mon_perf_scale(all), ss = 1;

	if (sa == 0 || (self != NULL && (ss = pr_mon_perf_scale(self)) == 0))
		return -1;
	*v = all->count[i] * sa - (self != NULL ? self->count[i] * ss : 0);
	if (*v < 0)
		*v = 0;
	return 0;
}

/* Reads a group: its raw counts and times since the last read into
 * g->r, and its scale into *max_scale when larger; -1 on failure. */
static int
group_read(struct group *g, double *max_scale)
{
	uint64_t b[3 + EV_MAX];
	ssize_t want = (ssize_t)((3 + g->n) * sizeof(uint64_t));
	double scale;
	size_t i;

	if (g->n == 0 || read(g->fd[0], b, (size_t)want) != want ||
	    b[0] != g->n)
		return -1;
	g->r.en = (double)(b[1] - g->last_en);
	g->r.run = (double)(b[2] - g->last_run);
	g->r.n = g->n;
	for (i = 0; i < g->n; i++) {
		g->r.count[i] = (double)(b[3 + i] - g->last[i]);
		g->last[i] = b[3 + i];
	}
	g->last_en = b[1];
	g->last_run = b[2];
	if ((scale = pr_mon_perf_scale(&g->r)) > *max_scale)
		*max_scale = scale;
	return 0;
}

static int
kind_open(struct kind *k, const struct ev *ev, size_t n, int *user_only)
{
	int e;

	if ((e = group_open(&k->all, ev, n, 1, *user_only)) != 0 &&
	    (e == EACCES || e == EPERM) && !*user_only) {
		*user_only = 1;
		e = group_open(&k->all, ev, n, 1, 1);
	}
	if (e != 0)
		return e;
	if ((e = group_open(&k->self, ev, n, 0, *user_only)) != 0) {
		group_close(&k->all);
		return e;
	}
	k->open = 1;
	return 0;
}

static void
kind_close(struct kind *k)
{
	if (!k->open)
		return;
	group_close(&k->all);
	group_close(&k->self);
	k->open = 0;
}

static struct pr_mon_perf *
perf_open(const struct ev *hw, size_t nhw, int user_only, char *note,
    size_t notesz, char *hwnote, size_t hwnotesz)
{
	struct pr_mon_perf *p;
	int e;

	if ((p = calloc(1, sizeof(*p))) == NULL) {
		snprintf(note, notesz, "monitor perf absent: out of memory");
		return NULL;
	}
	if ((e = kind_open(&p->sw, sw_events,
		 sizeof(sw_events) / sizeof(sw_events[0]), &user_only)) != 0) {
		snprintf(note, notesz,
		    "monitor perf absent: perf_event_open: %s", strerror(e));
		free(p);
		return NULL;
	}
	if ((e = kind_open(&p->hw, hw, nhw, &user_only)) != 0)
		snprintf(hwnote, hwnotesz,
		    "hardware counters absent (cycles, instructions, "
		    "branch-misses, cache-references, cache-misses): %s",
		    e == ENOENT || e == EOPNOTSUPP
			? "no PMU on this machine (a VM often has none)"
			: strerror(e));
	if ((p->user_only = user_only) != 0)
		snprintf(note, notesz,
		    "perf counters count user space only "
		    "(kernel/perf_event_paranoid): context switches and CPU "
		    "migrations absent (only the kernel counts them)");
	return p;
}

struct pr_mon_perf *
pr_mon_perf_open(char *note, size_t notesz, char *hwnote, size_t hwnotesz)
{
	return perf_open(hw_events, sizeof(hw_events) / sizeof(hw_events[0]), 0,
	    note, notesz, hwnote, hwnotesz);
}

struct pr_mon_perf *
pr_mon_perf_open_user_only(char *note, size_t notesz, char *hwnote,
    size_t hwnotesz)
{
	return perf_open(hw_events, sizeof(hw_events) / sizeof(hw_events[0]), 1,
	    note, notesz, hwnote, hwnotesz);
}

struct pr_mon_perf *
pr_mon_perf_open_fake_hw(char *note, size_t notesz, char *hwnote,
    size_t hwnotesz)
{
	return perf_open(fake_hw_events,
	    sizeof(fake_hw_events) / sizeof(fake_hw_events[0]), 0, note, notesz,
	    hwnote, hwnotesz);
}

void
pr_mon_perf_close(struct pr_mon_perf *p)
{
	if (p == NULL)
		return;
	kind_close(&p->sw);
	kind_close(&p->hw);
	free(p);
}

void
pr_mon_perf_set_self(struct pr_mon_perf *p, int self)
{
	p->self = self;
}

void
pr_mon_perf_start(struct pr_mon_perf *p)
{
	struct kind *k[2] = { &p->sw, &p->hw };
	size_t i;

	for (i = 0; i < 2; i++)
		if (k[i]->open)
			(void)ioctl(k[i]->self.fd[0], PERF_EVENT_IOC_ENABLE,
			    PERF_IOC_FLAG_GROUP);
	for (i = 0; i < 2; i++)
		if (k[i]->open)
			(void)ioctl(k[i]->all.fd[0], PERF_EVENT_IOC_ENABLE,
			    PERF_IOC_FLAG_GROUP);
}

enum pr_status
pr_mon_perf_stop(struct pr_mon_perf *p, struct pr_mon_snap *out,
    double *max_scale, int *not_run, struct pr_error *err)
{
	struct kind *k[2] = { &p->sw, &p->hw };
	double unused = 1;
	size_t i, j;
	enum pr_status st;

	for (i = 0; i < 2; i++)
		if (k[i]->open)
			(void)ioctl(k[i]->all.fd[0], PERF_EVENT_IOC_DISABLE,
			    PERF_IOC_FLAG_GROUP);
	for (i = 0; i < 2; i++)
		if (k[i]->open)
			(void)ioctl(k[i]->self.fd[0], PERF_EVENT_IOC_DISABLE,
			    PERF_IOC_FLAG_GROUP);
	for (i = 0; i < 2; i++) {
		struct group *a = &k[i]->all, *s = &k[i]->self;

		if (!k[i]->open ||
		    group_read(a, i == 1 ? max_scale : &unused) ||
		    group_read(s, i == 1 ? max_scale : &unused))
			continue;
		for (j = 0; j < a->n; j++) {
			double v;

			if (p->user_only && a->ev[j].kernel)
				continue;
			if (pr_mon_perf_figure(&a->r, p->self ? NULL : &s->r, j,
				&v) != 0) {
				*not_run = 1;
				break;
			}
			if ((st = pr_mon_snap_add(out, "perf.", a->ev[j].name,
				 strlen(a->ev[j].name), a->ev[j].unit,
				 v * a->ev[j].mult, 0, err)) != PR_OK)
				return st;
		}
	}
	return PR_OK;
}
