/*
 * perfreg/probe.h - built-in system probes: small C benchmarks inside
 * perfreg, one per class of system regression (memory copy, crypto,
 * pipes, random numbers, thread hand-off, system calls, page faults,
 * loopback TCP), run by `perfreg suite` (src/probes/suite.c).
 *
 * A probe is a table of functions.  The suite calls init once, then
 * sample repeatedly, interleaving probes and (for `suite ab`) variants,
 * until every metric's estimate is tight enough or the time budget is
 * spent, then fini.  One sample call takes one measurement of every
 * metric the probe reports (a few milliseconds to about 100 ms in all,
 * scaled by the probe itself) and appends one value per metric to the
 * dataset it is given, with unit and direction ("MB/s" higher-is-better,
 * "ns" lower-is-better...).  Every call must report the same metrics.
 *
 * Metric names are "PROBE.VARIANT.PARAMETER" ("copy.memcpy.4096B",
 * "random.getrandom.16B").  With opts.variant set (`suite ab copy --a
 * memcpy --b rep-movsb`), the probe measures that variant only and drops
 * the variant part from its names ("copy.4096B"), so that two variants
 * report metrics of the same names and compare pair by pair.  A variant
 * that this machine cannot run (rep-movsb off x86-64, RDRAND without the
 * CPU flag) is PR_ENOTFOUND from init with a one-line reason; in a full
 * run the probe leaves it out and says so in its notes.
 *
 * Honesty: each probe consumes its results (the optimiser cannot drop
 * the work), touches its buffers before timing, pins nothing unless
 * opts.cpu >= 0, and names its timer.  Each source file in src/probes/
 * stands alone, under 300 lines, and opens with what it measures and
 * what it deliberately does not.
 *
 * Ownership: the state is the probe's, released by fini (which accepts
 * NULL).  Thread-safety: probes may start threads or processes of their
 * own inside sample and must have joined/reaped them before returning.
 * The library never prints.
 */
#ifndef PERFREG_PROBE_H
#define PERFREG_PROBE_H

#include <signal.h>
#include <stddef.h>

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/error.h"

struct pr_probe_opts {
	int quick;           /* --quick: fewer sizes, smaller buffers */
	int cpu;             /* -1: no pinning; else pin to this CPU */
	const char *variant; /* NULL: every variant (names with variant) */
	const char *param;   /* NULL: every parameter; else only this one
			      * ("4096B"): `suite ab random --a 16 --b 512`
			      * selects by parameter when the probe's
			      * variants are sizes */
	/* Set by a signal handler; a probe checks it between steps and
	 * returns PR_EINVAL "interrupted" when set. */
	volatile sig_atomic_t *cancel;
	/* The CPU flags the operating system reports (/proc/cpuinfo's
	 * "flags" line on Linux: words separated by spaces), read by the
	 * caller; NULL: not known.  An instruction is offered only when
	 * CPUID has it and, when known, these flags do too: the kernel
	 * hides an instruction it found broken (RDSEED on some AMD CPUs)
	 * while CPUID still sets its bit. */
	const char *cpu_flags;
};

/*
 * What one process of a probe contributes to a session's figure (issue
 * 10): the mean of its samples, or its best sample (the smallest time,
 * the largest throughput).  A probe whose work is fixed (a copy, a
 * cipher, a system call, a fault) and whose slow samples are other
 * work landing on it takes the best: between A/A sessions it moved
 * 1.6-12 times less than the mean there (bench/README.md, "candidate
 * figures measured").  The best sample hides a
 * regression that slows only some samples (a tail); a probe whose
 * figures are waits across processes or streams (pipes, TCP) keeps the
 * mean.  The hand-off probe takes the best since PR_SUITE_PROBES_VERSION
 * 5: each of its samples is already a distribution (500 or 2000 round
 * trips, their median and 99th percentile), and a sample's 99th
 * percentile on a busy machine is a scheduler's timeslice whenever a
 * thread was preempted (an A/A session called handoff.spin.p99 +13077%
 * on the mean), so its best sample is the window without.
 */
enum pr_probe_figure {
	PR_PROBE_FIGURE_MEAN = 0, /* each process its mean (the default) */
	PR_PROBE_FIGURE_BEST      /* each process its best sample */
};

struct pr_probe {
	const char *name;    /* "copy" */
	const char *summary; /* one line for `perfreg suite list` */
	const char *timer;   /* "clock_gettime(CLOCK_MONOTONIC)" */
	/* The variants `suite ab` can name, NULL-terminated. */
	const char *const *variants;
	/*
	 * Prepares the probe (buffers, threads, keys).  notes (may be
	 * NULL) gets lines the report should show ("rep-movsb: CPU has
	 * ERMS, FSRM", "rdrand: not offered by this CPU, left out").
	 * Errors: PR_ENOTFOUND (variant unknown or not on this machine),
	 * PR_ENOMEM, PR_EIO (a system call failed: named in the message).
	 */
	enum pr_status (*init)(const struct pr_probe_opts *o, void **state,
	    struct pr_buf *notes, struct pr_error *err);
	/*
	 * One measurement of every metric, appended to out.  PR_ENOTFOUND:
	 * the sample was taken, but one part of the probe (a variant: an
	 * instruction that gave no value) cannot go on; its figures are
	 * left out from this sample on, and err says why in a line for
	 * the notes ("random: rdseed gave no value in 100 tries at sample
	 * 12, left out").  The suite keeps the sample, adds the line to
	 * the probe's notes and leaves that part's figures out of the
	 * result; other errors end the probe.
	 */
	enum pr_status (
	    *sample)(void *state, struct pr_dataset *out, struct pr_error *err);
	void (*fini)(void *state);
	/* Each process's figure (PR_PROBE_FIGURE_MEAN when left out). */
	enum pr_probe_figure figure;
};

/* Every built-in probe, NULL-terminated, in the order the suite runs
 * them (src/probes/registry.c). */
extern const struct pr_probe *const pr_probes[];

/* The probe called name, or NULL. */
const struct pr_probe *pr_probe_find(const char *name);

/* pr_probe_copy, pr_probe_crypto, ...: one per line of
 * perfreg/probes.def, each defined in src/probes/NAME.c. */
#define PR_PROBE(name) extern const struct pr_probe pr_probe_##name;
#include "perfreg/probes.def"
#undef PR_PROBE

#endif /* PERFREG_PROBE_H */
