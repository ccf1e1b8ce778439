/*
 * perfreg/monitor.h - system monitors and counters taken around each run
 * of a session (issue 13): the side metrics that the explanation
 * (perfreg/explain.h) ranks against the primary metric.
 *
 * A monitor is a set of sources, each a file of src/monitor/:
 * - PR_MON_PERF (perf_linux.c): perf_event_open counters of the child
 *   and all its descendants (inherit): the software events task-clock,
 *   context-switches, cpu-migrations and page-faults always; the
 *   hardware events cycles, instructions, branch-misses,
 *   cache-references and cache-misses where a PMU exists (one group
 *   read with time_enabled and time_running; multiplexed counts are
 *   scaled by enabled / running and the largest scale is noted).
 *   Without a PMU the hardware events are absent, with one note, never
 *   zero;
 * - PR_MON_STAT (procstat.c): /proc/stat's ctxt, intr, softirq,
 *   processes, procs_running, procs_blocked and the machine's CPU time
 *   by kind (user, system, irq, softirq, steal, iowait, idle);
 * - PR_MON_SOFTIRQS (softirqs.c): /proc/softirqs per kind, summed over
 *   the CPUs;
 * - PR_MON_INTERRUPTS (interrupts.c): the numbered interrupt lines,
 *   named by their action ("virtio3-rx", "caam_jr") as /proc/interrupts
 *   has them when the monitor starts, counted each run from /proc/stat's
 *   "intr" line (summed over the CPUs), and the CPU-local interrupts
 *   (LOC, RES, CAL, TLB, ...) together as mon.irq.cpu_local: a tenth of
 *   the cost of reading /proc/interrupts around every run;
 * - PR_MON_INTERRUPTS_FULL (interrupts.c): /proc/interrupts itself read
 *   around every run, every line by its action or its label ("LOC",
 *   "RES"), summed over the CPUs; it replaces PR_MON_INTERRUPTS where
 *   both are asked for.  Not in the default set: the kernel takes 50 to
 *   130 us to write the file on a small VM;
 * - PR_MON_VMSTAT (vmstat.c): the figures of /proc/vmstat that explain
 *   a slowdown (page faults, paging and swapping, reclaim and its
 *   stalls, refaults, THP, compaction, migration, NUMA hinting, OOM
 *   kills: pr_mon_vmstat_explains), about 30 of its 190 lines.  Not in
 *   the default set: the kernel sums every counter of the file over the
 *   CPUs for each read, about 58 us of CPU a run on a small VM, more
 *   than the other default sources together, for figures that say
 *   nothing in most sessions (the child's own page faults are perf's).
 *   Where it is not read around each run, a monitor reads it at the
 *   session's start and end only, and names the memory pressure
 *   counters that moved in a note (pr_monitor_session_end);
 * - PR_MON_VMSTAT_FULL (vmstat.c): every line of /proc/vmstat, the nr_*
 *   levels too; it replaces PR_MON_VMSTAT where both are asked for.
 *   Not in the default set;
 * - PR_MON_SCHEDSTAT (schedstat.c): /proc/schedstat's run time, wait
 *   time and time slices summed over the CPUs, where the kernel has it.
 * Everything but PR_MON_PERF is system-wide: it includes what the other
 * processes of the machine did during the run, which a report says.
 *
 * Each figure is a delta per run (after minus before), attributed to
 * that run; a gauge (procs_running) is the mean of the two readings.
 * The metrics are named PR_MON_PREFIX "<source>.<name>" and kept apart
 * from the run's own metrics (struct pr_variant.monitors), so that they
 * never flood the main table.
 *
 * A source that this system does not have (another kernel, no /proc, a
 * file that is missing or unreadable, perf_event_open refused) is
 * absent, with one note, never an error.  The library reads /proc, which
 * is data; it never prints and never reads the environment.  Other
 * systems' backends (FreeBSD's hwpmc and sysctls, NetBSD's) slot in
 * beside Linux's behind the same functions: see doc/monitors.md.
 *
 * The parsers of the /proc files are pure functions over a buffer, for
 * the tests (tests/data/proc) and the fuzz targets: a line they do not
 * understand is skipped, never a crash, and every value they give is
 * finite.
 *
 * Lifecycle: pr_monitor_new -> (pr_monitor_begin, pr_monitor_end)... ->
 * pr_monitor_free.  Not thread-safe; one monitor per session.
 */
#ifndef PERFREG_MONITOR_H
#define PERFREG_MONITOR_H

#include <stddef.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"

enum pr_monitor_source {
	PR_MON_PERF = 1 << 0,
	PR_MON_STAT = 1 << 1,
	PR_MON_SOFTIRQS = 1 << 2,
	PR_MON_INTERRUPTS = 1 << 3,
	PR_MON_VMSTAT = 1 << 4,
	PR_MON_SCHEDSTAT = 1 << 5,
	PR_MON_INTERRUPTS_FULL = 1 << 6,
	PR_MON_VMSTAT_FULL = 1 << 7
};
#define PR_MON_ALL 0xffu
/* The default of `perfreg run --monitor`: all but the full
 * /proc/interrupts and /proc/vmstat (of which the session's start and
 * end are read: pr_monitor_session_end). */
#define PR_MON_DEFAULT \
	(PR_MON_ALL & \
	    ~(unsigned)(PR_MON_INTERRUPTS_FULL | PR_MON_VMSTAT | \
		PR_MON_VMSTAT_FULL))

/*
 * A flag of pr_monitor_new's set, not a source: the perf counters count
 * the calling process (its thread that calls pr_monitor_begin) and every
 * thread and process created after pr_monitor_new, not only the children
 * spawned between pr_monitor_begin and pr_monitor_end: for work done in
 * the process itself, as the suite's probes do (perfreg/suite.h).
 */
#define PR_MON_OPT_SELF (1u << 16)

/* Every monitor metric's name starts with this. */
#define PR_MON_PREFIX "mon."

/* The wall time of a sample, which the suite adds beside its monitors'
 * figures (perfreg/suite.h): the explanation takes the system-wide
 * counters per second of it, and never ranks it. */
#define PR_MON_WALL PR_MON_PREFIX "run.wall_s"

/* Longest metric name a source gives (longer ones are cut). */
#define PR_MON_NAME_MAX 64

/* One figure of a reading. */
struct pr_mon_value {
	char name[PR_MON_NAME_MAX]; /* PR_MON_PREFIX "<source>.<name>" */
	const char *unit;           /* static: "s", "count", "" */
	double value;               /* finite */
	int gauge; /* 1: a level (mean of the readings), 0: a counter */
};

/* A reading of one or several sources: figures in the order read. */
struct pr_mon_snap {
	struct pr_mon_value *v;
	size_t n, cap;
};

void pr_mon_snap_init(struct pr_mon_snap *s);
void pr_mon_snap_release(struct pr_mon_snap *s);
void pr_mon_snap_clear(struct pr_mon_snap *s);

/*
 * Appends a figure named prefix followed by name (cut to fit; every
 * character outside [A-Za-z0-9_.:+#-] becomes '_', so that a name from a
 * file never carries a control character into a report).  A value that
 * is not finite is left out.  PR_ENOMEM, or PR_ELIMIT past 4096 figures.
 */
enum pr_status pr_mon_snap_add(struct pr_mon_snap *s, const char *prefix,
    const char *name, size_t namelen, const char *unit, double value, int gauge,
    struct pr_error *err);

/*
 * Adds to `out` the figures of `after` that `before` has too: a
 * counter's after - before, a gauge's mean of the two; a counter that
 * went backwards (a counter wrapped, a CPU went offline) is left out.
 * Each is one value appended to the metric of that name (lower is
 * better, the figure's unit).
 */
enum pr_status pr_mon_snap_delta(const struct pr_mon_snap *before,
    const struct pr_mon_snap *after, struct pr_dataset *out,
    struct pr_error *err);

/*
 * The parsers: each reads the text of one /proc file in buf[0, len)
 * (need not be NUL-terminated) and appends its figures to out.
 * clk_tck is the kernel's USER_HZ (sysconf(_SC_CLK_TCK)), > 0.  Only
 * PR_ENOMEM and PR_ELIMIT fail; a file of another form gives fewer
 * figures, or none.
 */
enum pr_status pr_mon_parse_stat(const char *buf, size_t len, double clk_tck,
    struct pr_mon_snap *out, struct pr_error *err);
enum pr_status pr_mon_parse_softirqs(const char *buf, size_t len,
    struct pr_mon_snap *out, struct pr_error *err);
enum pr_status pr_mon_parse_interrupts(const char *buf, size_t len,
    struct pr_mon_snap *out, struct pr_error *err);
enum pr_status pr_mon_parse_vmstat(const char *buf, size_t len,
    struct pr_mon_snap *out, struct pr_error *err);
/* As pr_mon_parse_vmstat, only the lines pr_mon_vmstat_explains names. */
enum pr_status pr_mon_parse_vmstat_explain(const char *buf, size_t len,
    struct pr_mon_snap *out, struct pr_error *err);
/* Is this /proc/vmstat line name (len bytes) one of the vmstat set's? */
int pr_mon_vmstat_explains(const char *name, size_t len);
/*
 * Is it a memory pressure counter (swapping, reclaim
 * scans and steals, allocation stalls, compaction stalls and failures,
 * huge page fallbacks, refaults, OOM kills), which the session's note
 * names when it moved (pr_monitor_session_end)?
 */
int pr_mon_vmstat_pressure(const char *name, size_t len);
enum pr_status pr_mon_parse_schedstat(const char *buf, size_t len,
    struct pr_mon_snap *out, struct pr_error *err);

/*
 * The names of /proc/interrupts' numbered lines: names.v[i] is the
 * figure pr_mon_parse_interrupts gives for the line of IRQ irq[i]
 * (ULONG_MAX when the number is not one), in the file's order.
 */
struct pr_mon_irqnames {
	struct pr_mon_snap names;
	unsigned long *irq;
	size_t cap;
};
void pr_mon_irqnames_init(struct pr_mon_irqnames *n);
void pr_mon_irqnames_release(struct pr_mon_irqnames *n);
/* Appends the numbered lines of the /proc/interrupts text in buf. */
enum pr_status pr_mon_irqnames_parse(const char *buf, size_t len,
    struct pr_mon_irqnames *out, struct pr_error *err);
/*
 * Reads the "intr" line of the /proc/stat text in buf: the count of
 * each IRQ that names has (in ascending order, as the file lists them),
 * under its name, and mon.irq.cpu_local, the total less every numbered
 * IRQ's count.  Nothing when there is no such line; the figures up to
 * a word that is not a number when there is one.
 */
enum pr_status pr_mon_parse_stat_intr(const char *buf, size_t len,
    const struct pr_mon_irqnames *names, struct pr_mon_snap *out,
    struct pr_error *err);

/*
 * Parses a set: "none", "default", "all", or a comma-separated list of
 * "perf", "stat", "softirqs", "interrupts", "interrupts-full", "vmstat",
 * "vmstat-full", "schedstat" and "system" (the default set but perf).
 * PR_EINVAL naming the unknown word.
 */
enum pr_status pr_monitor_parse_set(const char *spec, unsigned *set,
    struct pr_error *err);

/* The name of one source ("perf", "stat", ...). */
const char *pr_monitor_source_name(enum pr_monitor_source src);

struct pr_monitor;

/*
 * Prepares the sources of `set`.  proc_root is where /proc is ("/proc"
 * when NULL; a test points it at a directory of captured files).  A
 * source that cannot be had is dropped with a note.  *out is freed with
 * pr_monitor_free.  PR_ENOMEM only.
 */
enum pr_status pr_monitor_new(unsigned set, const char *proc_root,
    struct pr_monitor **out, struct pr_error *err);
void pr_monitor_free(struct pr_monitor *m);

/* The sources still in use (a subset of the set asked for). */
unsigned pr_monitor_active(const struct pr_monitor *m);

/*
 * The notes: one line each about what is absent and why, or how a
 * figure was scaled ("hardware counters absent: no PMU (perf_event_open
 * cycles: No such file or directory)").  Borrowed until the monitor is
 * freed.
 */
size_t pr_monitor_nnotes(const struct pr_monitor *m);
const char *pr_monitor_note(const struct pr_monitor *m, size_t i);

/*
 * Takes the "before" reading, just before the child is spawned, and
 * starts the counters; pr_monitor_end, just after the child was reaped,
 * takes the "after" reading and appends each figure's delta to out (one
 * value a metric).  Only PR_ENOMEM and PR_ELIMIT fail: a source that
 * fails to read in a run gives no figures for that run.
 */
enum pr_status pr_monitor_begin(struct pr_monitor *m, struct pr_error *err);
enum pr_status pr_monitor_end(struct pr_monitor *m, struct pr_dataset *out,
    struct pr_error *err);

/*
 * After the session's last run: where /proc/vmstat was not read around
 * each run (neither vmstat nor vmstat-full in the set, but some source
 * is), it was read when the monitor was made; it is read again, and
 * when a memory pressure counter grew in between, one note names each
 * with its growth ("memory pressure in the session (system-wide,
 * /proc/vmstat at start and end): pgscan_direct +5123, ...; add vmstat
 * to --monitor to attribute it to runs").  Only PR_ENOMEM and
 * PR_ELIMIT fail.  A second call after a note adds none.
 */
enum pr_status pr_monitor_session_end(struct pr_monitor *m,
    struct pr_error *err);

/*
 * Keeps in d only the metrics with exactly n values, in their order:
 * where a source failed in one sample of n, or a counter went backwards,
 * that figure's values no longer line up with the samples, and it is
 * dropped rather than misattributed.  PR_ENOMEM (d is then unchanged).
 */
enum pr_status pr_monitor_keep_complete(struct pr_dataset *d, size_t n,
    struct pr_error *err);

/* Is this metric a monitor's (its name starts with PR_MON_PREFIX)? */
int pr_monitor_is_metric(const char *name);

/*
 * Is this a system-wide counter (a monitor's figure but the child's own
 * mon.perf.*, the gauges mon.stat.procs_running, procs_blocked and
 * mon.vm.nr_*, and PR_MON_WALL)?  Such a figure grows with the length of a run whatever
 * the run did, and the explanation takes it per second of its run.
 */
int pr_monitor_is_rate(const char *name);

#endif /* PERFREG_MONITOR_H */
