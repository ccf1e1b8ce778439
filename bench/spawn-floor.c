/*
 * bench/spawn-floor.c - the floor of any tool that runs a command and
 * waits for it: a bare posix_spawn + wait4 loop, nothing else (no pipe,
 * no process group, no timing per run, no bookkeeping).  perfreg run's
 * per-run cost is measured against it by bench/run-overhead.sh.
 *
 * With -m the same loop runs through perfreg's own spawning instead, so
 * that its parts can be priced in one process: "spawn" is pr_spawn_run
 * with attributes prepared once (a pipe for each stream, /dev/null, a
 * process group, a pidfd and poll, the kill of the group, wait4); "reap"
 * adds the safety of perfreg run against escaped processes (a child
 * subreaper, and after each run the wait4 that finds no orphan).
 *
 * usage: spawn-floor [-m bare|spawn|reap] [N [PROGRAM]]
 *   (default: bare, 2000 runs of /bin/true)
 * Prints: "MODE N runs TOTAL_S s PER_RUN_US us/run" (MODE "floor" for
 * bare).
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfreg/spawn.h"

extern char **environ;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* n runs of prog through pr_spawn_run; 0 or 1 on a failure. */
static int
perfreg_loop(long n, char *prog, int reap)
{
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	struct pr_spawner *sp;
	char *av[2] = { prog, NULL };
	long i;

	if (pr_spawner_new(&sp, NULL) != PR_OK)
		return 1;
	pr_spawn_opts_init(&o);
	o.path = prog;
	o.spawner = sp;
	if (reap)
		o.reap_orphans = pr_spawn_subreaper() == 0;
	pr_spawn_result_init(&r);
	for (i = 0; i < n; i++)
		if (pr_spawn_run(av, &o, &r, NULL) != PR_OK ||
		    r.outcome != PR_SPAWN_OK) {
			fprintf(stderr, "spawn-floor: cannot run %s\n", prog);
			return 1;
		}
	pr_spawn_result_release(&r);
	pr_spawner_free(sp);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *mode = "bare";
	char *prog, *av[2];
	struct rusage ru;
	double t0, t;
	long n, i;
	pid_t pid;
	int st, rc;

	if (argc > 2 && strcmp(argv[1], "-m") == 0) {
		mode = argv[2];
		argc -= 2;
		argv += 2;
	}
	n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
	prog = argc > 2 ? argv[2] : "/bin/true";
	if (n <= 0 ||
	    (strcmp(mode, "bare") != 0 && strcmp(mode, "spawn") != 0 &&
		strcmp(mode, "reap") != 0)) {
		fprintf(stderr,
		    "usage: spawn-floor [-m bare|spawn|reap] [N [PROGRAM]]\n");
		return 2;
	}
	av[0] = prog;
	av[1] = NULL;
	t0 = now();
	if (strcmp(mode, "bare") != 0) {
		if (perfreg_loop(n, prog, strcmp(mode, "reap") == 0) != 0)
			return 1;
	} else
		for (i = 0; i < n; i++) {
			rc = posix_spawn(&pid, prog, NULL, NULL, av, environ);
			if (rc != 0) {
				fprintf(stderr, "spawn-floor: cannot run %s\n",
				    prog);
				return 1;
			}
			while (wait4(pid, &st, 0, &ru) < 0)
				;
		}
	t = now() - t0;
	printf("%s %ld runs %.6f s %.2f us/run\n",
	    strcmp(mode, "bare") == 0 ? "floor" : mode, n, t,
	    t / (double)n * 1e6);
	return 0;
}
