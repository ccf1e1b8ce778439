/*
 * bench/monitor-cost.c - what the monitors of `perfreg run --monitor`
 * cost a run by themselves, source by source: the reading before a run
 * (pr_monitor_begin) and the one after it with the deltas appended to a
 * run's fresh dataset (pr_monitor_end), in a loop with no command in
 * between, as the runner calls them around each run.  Both the wall
 * time and the process's CPU time are taken: on a loaded machine the
 * wall time of a read is its CPU time plus the time spent waiting for a
 * CPU, which is the machine's, so the CPU time is the cost that does not
 * depend on the load (on a quiet machine the two agree).
 * bench/monitor-overhead.sh runs it after its whole-session rounds.
 *
 * usage: monitor-cost [-n N] [SET...]
 *   N begin/end pairs a set (default 2000); each SET as `--monitor`
 *   takes it (default: none perf stat softirqs interrupts
 *   interrupts-full vmstat vmstat-full schedstat default default,vmstat
 *   all; default,vmstat is the default before vmstat left it).
 * Prints a line a set: "SET wall_us cpu_us figures" per run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/monitor.h"

static double
now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One set: N pairs, the figures of the last run.  0, or -1. */
static int
cost(const char *spec, long n)
{
	struct pr_monitor *m = NULL;
	struct pr_dataset d;
	struct pr_error err;
	unsigned set;
	double w0, c0, w, c;
	size_t figs = 0;
	long i;

	if (pr_monitor_parse_set(spec, &set, &err) != PR_OK ||
	    pr_monitor_new(set, NULL, &m, &err) != PR_OK) {
		fprintf(stderr, "monitor-cost: %s\n", err.msg);
		return -1;
	}
	w0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i <= n; i++) {
		if (i == 1) {
			/* The first pair warms the buffers up. */
			w0 = now(CLOCK_MONOTONIC);
			c0 = now(CLOCK_PROCESS_CPUTIME_ID);
		}
		pr_dataset_init(&d);
		if (pr_monitor_begin(m, &err) != PR_OK ||
		    pr_monitor_end(m, &d, &err) != PR_OK) {
			fprintf(stderr, "monitor-cost: %s\n", err.msg);
			pr_dataset_release(&d);
			pr_monitor_free(m);
			return -1;
		}
		figs = d.n;
		pr_dataset_release(&d);
	}
	w = (now(CLOCK_MONOTONIC) - w0) / (double)n;
	c = (now(CLOCK_PROCESS_CPUTIME_ID) - c0) / (double)n;
	printf("%-16s %8.1f %8.1f %8zu\n", spec, w * 1e6, c * 1e6, figs);
	pr_monitor_free(m);
	return 0;
}

int
main(int argc, char **argv)
{
	static const char *const sets[] = { "none", "perf", "stat", "softirqs",
		"interrupts", "interrupts-full", "vmstat", "vmstat-full",
		"schedstat", "default", "default,vmstat", "all" };
	long n = 2000;
	int i = 1, rc = 0;
	size_t k;

	if (argc > 2 && strcmp(argv[1], "-n") == 0) {
		n = strtol(argv[2], NULL, 10);
		i = 3;
	}
	if (n < 1) {
		fprintf(stderr, "usage: monitor-cost [-n N] [SET...]\n");
		return 2;
	}
	printf("%-16s %8s %8s %8s\n", "set", "wall_us", "cpu_us", "figures");
	if (i == argc)
		for (k = 0; k < sizeof(sets) / sizeof(sets[0]); k++)
			rc |= cost(sets[k], n) != 0;
	for (; i < argc; i++)
		rc |= cost(argv[i], n) != 0;
	return rc;
}
