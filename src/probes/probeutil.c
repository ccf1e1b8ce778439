/*
 * probes/probeutil.c - CPU pinning and the monotonic clock for the
 * built-in probes (probes/probeutil.h).
 */
#include "probes/probeutil.h"

#include <errno.h>
#include <string.h>

#include "core/banned.h"

enum pr_status
pr_probe_pin(struct pr_probe_pin *p, const char *probe, int cpu,
    struct pr_error *err)
{
	cpu_set_t one;

	p->pinned = 0;
	if (cpu < 0)
		return PR_OK;
	if (cpu >= CPU_SETSIZE)
		return pr_error_set(err, PR_EIO,
		    "%s: cannot pin to CPU %d: no such CPU", probe, cpu);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_getaffinity(0, sizeof(p->saved), &p->saved) != 0 ||
	    sched_setaffinity(0, sizeof(one), &one) != 0)
		return pr_error_set(err, PR_EIO, "%s: cannot pin to CPU %d: %s",
		    probe, cpu, strerror(errno));
	/* Already on that CPU alone (a sibling state of the same probe,
	 * as in suite ab): nothing to undo, so that the finis of two such
	 * states put the original mask back in either order. */
	p->pinned = !CPU_EQUAL(&one, &p->saved);
	return PR_OK;
}

void
pr_probe_unpin(struct pr_probe_pin *p)
{
	if (p->pinned)
		(void)sched_setaffinity(0, sizeof(p->saved), &p->saved);
	p->pinned = 0;
}

uint64_t
pr_probe_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double
pr_probe_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double
pr_probe_ns_between(const struct timespec *t0, const struct timespec *t1)
{
	return (double)(t1->tv_sec - t0->tv_sec) * 1e9 +
	    (double)(t1->tv_nsec - t0->tv_nsec);
}

int
pr_probe_os_has(const char *flags, const char *flag)
{
	size_t len = strlen(flag);
	const char *p;

	if (flags == NULL)
		return 1;
	for (p = flags; (p = strstr(p, flag)) != NULL; p += len)
		if ((p == flags || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[len] == '\0' || p[len] == ' ' || p[len] == '\t' ||
			p[len] == '\n'))
			return 1;
	return 0;
}
