/*
 * bench/spawn-floor.c - the floor of any tool that runs a command and
 * waits for it: a bare posix_spawn + wait4 loop, nothing else (no pipe,
 * no process group, no timing per run, no bookkeeping).  perfreg run's
 * per-run cost is measured against it by bench/run-overhead.sh.
 *
 * usage: spawn-floor [N [PROGRAM]]   (default 2000 runs of /bin/true)
 * Prints: "floor N runs TOTAL_S s PER_RUN_US us/run".
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000, i;
	char *prog = argc > 2 ? argv[2] : "/bin/true";
	char *av[2];
	struct rusage ru;
	double t0, t;
	pid_t pid;
	int st, rc;

	if (n <= 0) {
		fprintf(stderr, "usage: spawn-floor [N [PROGRAM]]\n");
		return 2;
	}
	av[0] = prog;
	av[1] = NULL;
	t0 = now();
	for (i = 0; i < n; i++) {
		rc = posix_spawn(&pid, prog, NULL, NULL, av, environ);
		if (rc != 0) {
			fprintf(stderr, "spawn-floor: cannot run %s\n", prog);
			return 1;
		}
		while (wait4(pid, &st, 0, &ru) < 0)
			;
	}
	t = now() - t0;
	printf("floor %ld runs %.6f s %.2f us/run\n", n, t,
	    t / (double)n * 1e6);
	return 0;
}
