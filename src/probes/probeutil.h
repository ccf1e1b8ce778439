/*
 * probes/probeutil.h - what every built-in probe needs and used to write
 * for itself: pinning the calling thread to the CPU of --cpu and putting
 * its old mask back, and the monotonic clock in nanoseconds.  Internal
 * to src/probes/ (not part of the library's API).
 *
 * A pin (struct pr_probe_pin) remembers the mask it replaced; unpinning
 * a pin that pinned nothing is a no-op, so a probe's fini can call it
 * unconditionally.  A pin to the CPU the thread is already alone on pins
 * nothing, so that two states of one probe (suite ab) can be finished
 * in either order and leave the original mask.  Threads a probe starts after pinning inherit the
 * pin (handoff relies on it).  Thread-safety: each function acts on the
 * calling thread only.  Nothing here prints.
 */
#ifndef PERFREG_PROBES_PROBEUTIL_H
#define PERFREG_PROBES_PROBEUTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* cpu_set_t, sched_setaffinity */
#endif
#include <sched.h>
#include <stdint.h>
#include <time.h>

#include "perfreg/error.h"

struct pr_probe_pin {
	int pinned; /* 1: saved holds the mask to put back */
	cpu_set_t saved;
};

/*
 * Pins the calling thread to CPU cpu when cpu >= 0 (nothing otherwise,
 * PR_OK), remembering its mask in p.  Errors: PR_EIO "PROBE: cannot pin
 * to CPU N: why" (the probe's name in front), p left unpinned.
 */
enum pr_status pr_probe_pin(struct pr_probe_pin *p, const char *probe, int cpu,
    struct pr_error *err);

/* Puts the mask p saved back; a no-op when p pinned nothing. */
void pr_probe_unpin(struct pr_probe_pin *p);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t pr_probe_now_ns(void);

/* CLOCK_MONOTONIC in seconds. */
double pr_probe_now_s(void);

/* t1 - t0 in nanoseconds, as a double. */
double pr_probe_ns_between(const struct timespec *t0,
    const struct timespec *t1);

/*
 * 1 when the word flag is among the operating system's CPU flags
 * (pr_probe_opts.cpu_flags: words separated by spaces) or those are not
 * known (NULL); 0 when they are known and lack it.
 */
int pr_probe_os_has(const char *flags, const char *flag);

/*
 * For tests only (tests/probes/test_probes_a.c): a stand-in for the
 * RDRAND (rdseed 0) and RDSEED (1) instructions of the random probe,
 * offered whatever CPUID says; NULL (the default): the instructions.
 * Gives 1 and a word in *w, or 0 for no value (carry clear).
 */
extern int (*pr_probe_random_draw)(int rdseed, unsigned long long *w);

#endif /* PERFREG_PROBES_PROBEUTIL_H */
