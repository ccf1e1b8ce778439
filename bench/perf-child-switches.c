/*
 * bench/perf-child-switches.c - the perf monitor's context switches of
 * a child against the load (session 16: a CI run failed on a test's
 * "fewer than 50", a bound on the child's own switches).  Rounds of what
 * tests/monitor/test_monitor.c's test_perf does, through the runner's
 * path (pr_monitor_begin, pr_spawn_run, pr_monitor_end with the perf
 * source): perfreg sleeps 100 times (100 switches of its own) with no
 * child, then again around a child (CMD, default the test's).  Prints
 * the child's figure's spread and checks the relations the test asserts
 * at any load: 0 without a child, at least MIN with one, and at most
 * the child's wait4 rusage count (ctxsw_vol + ctxsw_invol).  Run it
 * beside a load, and under valgrind (the CI runs the unit tests so):
 * the spread grows with the load, the relations hold.
 *
 * usage: perf-child-switches [-n N] [-m MIN] [CMD]
 * Prints "rounds N  child switches min/median/max A/B/C  rusage - perf
 * min/max D/E  over 50: K  relations broken: R"; exit 1 when R > 0, 77
 * when perf is refused.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/monitor.h"
#include "perfreg/spawn.h"

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One window: perfreg's 100 sleeps and, with cmd, the child; the
 * child's context switches (-1: absent) and its rusage count. */
static int
window(struct pr_monitor *m, const char *cmd, double *cs, double *ru)
{
	struct pr_dataset d;
	struct pr_error err;
	struct pr_metric *x;
	int i, rc = 0;

	pr_dataset_init(&d);
	*ru = 0;
	*cs = -1;
	if (pr_monitor_begin(m, &err) != PR_OK)
		return -1;
	for (i = 0; i < 100; i++)
		usleep(200);
	if (cmd != NULL) {
		struct pr_spawn_opts o;
		struct pr_spawn_result r;
		char *argv[2] = { (char *)cmd, NULL };

		pr_spawn_opts_init(&o);
		o.shell = 1;
		pr_spawn_result_init(&r);
		if (pr_spawn_run(argv, &o, &r, &err) != PR_OK ||
		    r.outcome != PR_SPAWN_OK)
			rc = -1;
		*ru = r.ctxsw_vol + r.ctxsw_invol;
		pr_spawn_result_release(&r);
	}
	if (pr_monitor_end(m, &d, &err) != PR_OK)
		rc = -1;
	x = pr_dataset_find(&d, "mon.perf.context_switches");
	*cs = x != NULL && x->values.n > 0 ? x->values.v[0] : -1;
	pr_dataset_release(&d);
	return rc;
}

int
main(int argc, char **argv)
{
	const char *cmd = "cat /proc/self/stat >/dev/null; sleep 0.01; "
			  "sleep 0.01; sleep 0.01";
	long n = 200, k, over = 0, broken = 0;
	double min = 3, *v, dmin = 1e300, dmax = -1e300, cs, ru;
	struct pr_monitor *m;
	struct pr_error err;
	int c;

	while ((c = getopt(argc, argv, "n:m:")) != -1) {
		if (c == 'n')
			n = strtol(optarg, NULL, 10);
		else if (c == 'm')
			min = strtod(optarg, NULL);
		else {
			fprintf(stderr,
			    "usage: perf-child-switches [-n N] "
			    "[-m MIN] [CMD]\n");
			return 2;
		}
	}
	if (optind < argc)
		cmd = argv[optind];
	if (n < 1 || (v = calloc((size_t)n, sizeof(*v))) == NULL)
		return 2;
	if (pr_monitor_new(PR_MON_PERF, NULL, &m, &err) != PR_OK)
		return 2;
	if (!(pr_monitor_active(m) & PR_MON_PERF)) {
		fprintf(stderr, "perf refused here\n");
		return 77;
	}
	for (k = 0; k < n; k++) {
		if (window(m, NULL, &cs, &ru) != 0 || cs != 0)
			broken++;
		if (window(m, cmd, &cs, &ru) != 0 || cs < min || cs > ru)
			broken++;
		v[k] = cs;
		over += cs >= 50;
		if (ru - cs < dmin)
			dmin = ru - cs;
		if (ru - cs > dmax)
			dmax = ru - cs;
	}
	qsort(v, (size_t)n, sizeof(*v), cmp);
	printf("rounds %ld  child switches min/median/max %g/%g/%g  "
	       "rusage - perf min/max %g/%g  over 50: %ld  relations "
	       "broken: %ld\n",
	    n, v[0], v[n / 2], v[n - 1], dmin, dmax, over, broken);
	pr_monitor_free(m);
	free(v);
	return broken > 0;
}
