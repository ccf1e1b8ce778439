/*
 * monitor/internal.h - what the sources of src/monitor share: a cursor
 * over the lines of a buffer, the reading of a /proc file, and the
 * perf_event_open backend's interface (perf_linux.c, or the stub that
 * says the counters are absent on other systems).
 */
#ifndef PERFREG_MONITOR_INTERNAL_H
#define PERFREG_MONITOR_INTERNAL_H

#include <stddef.h>

#include "perfreg/buf.h"
#include "perfreg/monitor.h"

/* A line of buf: [*ls, *le) without its '\n'; 0 at the end. */
int pr_mon_line(const char *buf, size_t len, size_t *pos, const char **ls,
    const char **le);

/* The next word of [*p, e) (blanks skipped): [*ws, *we); 0 at the end. */
int pr_mon_word(const char **p, const char *e, const char **ws,
    const char **we);

/* A whole unsigned decimal number [ws, we) into *v; 0 when not one. */
int pr_mon_uint(const char *ws, const char *we, double *v);

/*
 * Reads root/name into b (cleared first), at most 4 MiB.  0, or -1 when
 * the file is missing, unreadable or larger (the source is then absent).
 */
int pr_mon_read_file(const char *root, const char *name, struct pr_buf *b);

/* The counters of the child and its descendants (perf_linux.c). */
struct pr_mon_perf;
/* Opens what it can; NULL when nothing (the reason in note[]). */
struct pr_mon_perf *pr_mon_perf_open(char *note, size_t notesz, char *hwnote,
    size_t hwnotesz);
/* As pr_mon_perf_open, with software events standing in for the
 * hardware ones (cycles: cpu-clock, instructions: task-clock), so that
 * the tests run the hardware path on a machine without a PMU. */
struct pr_mon_perf *pr_mon_perf_open_fake_hw(char *note, size_t notesz,
    char *hwnote, size_t hwnotesz);
/* As pr_mon_perf_open, counting user space only, as where
 * perf_event_paranoid refuses kernel counting: the events only the
 * kernel counts (context switches, CPU migrations: the scheduler's,
 * never in user mode, so always 0) are left out, with the note. */
struct pr_mon_perf *pr_mon_perf_open_user_only(char *note, size_t notesz,
    char *hwnote, size_t hwnotesz);
/* PR_MON_OPT_SELF: count the calling process and what it creates as a
 * whole, not only its children. */
void pr_mon_perf_set_self(struct pr_mon_perf *p, int self);
void pr_mon_perf_close(struct pr_mon_perf *p);
void pr_mon_perf_start(struct pr_mon_perf *p);
/* Stops the counters and appends the run's figures to out: the
 * largest multiplexing scale into *max_scale, and *not_run set to 1
 * when a group was enabled but never ran (its figures left out). */
enum pr_status pr_mon_perf_stop(struct pr_mon_perf *p, struct pr_mon_snap *out,
    double *max_scale, int *not_run, struct pr_error *err);

/* The most events in one perf group. */
#define PR_MON_PERF_EV_MAX 5

/* One perf group's reading over a run: the time it was enabled and the
 * time it ran (ns, its tasks' own time), and its raw counts. */
struct pr_mon_perf_read {
	double en, run;
	size_t n;
	double count[PR_MON_PERF_EV_MAX];
};

/* A reading's scale: enabled / running when the kernel multiplexed the
 * group (it ran part of the time), 1 when it ran the whole time or was
 * never enabled; 0 when it was enabled and never ran, its counts then
 * unknown, not zero. */
double pr_mon_perf_scale(const struct pr_mon_perf_read *r);

/* Event i's figure of a run: the inherited group's count (all: perfreg
 * and its children) less perfreg's own (self), each scaled by its own
 * group's scale, and never below 0; with self NULL (PR_MON_OPT_SELF)
 * all's count alone.  0 and *v, or -1 when a group's counts are
 * unknown (pr_mon_perf_scale 0). */
int pr_mon_perf_figure(const struct pr_mon_perf_read *all,
    const struct pr_mon_perf_read *self, size_t i, double *v);

#endif /* PERFREG_MONITOR_INTERNAL_H */
