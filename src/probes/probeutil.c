/*
 * probes/probeutil.c - CPU pinning and the monotonic clock for the
 * built-in probes (probes/probeutil.h).
 */
#include "probes/probeutil.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "perfreg/suite.h"

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

enum pr_status
pr_suite_cpu_check(int cpu, struct pr_error *err)
{
	cpu_set_t set;
	char list[160];
	size_t len = 0;
	int i, j, w;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return pr_error_set(err, PR_EIO, "cannot read the CPU mask: %s",
		    strerror(errno));
	if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set))
		return PR_OK;
	list[0] = '\0';
	for (i = 0; i < CPU_SETSIZE && len + 16 < sizeof(list); i = j) {
		if (!CPU_ISSET(i, &set)) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < CPU_SETSIZE && CPU_ISSET(j, &set); j++)
			;
		w = j - 1 > i ? snprintf(list + len, sizeof(list) - len,
				    "%s%d-%d", len ? ", " : "", i, j - 1)
			      : snprintf(list + len, sizeof(list) - len, "%s%d",
				    len ? ", " : "", i);
		len += w > 0 ? (size_t)w : 0;
	}
	return pr_error_set(err, PR_EINVAL,
	    "CPU %d is not one this process may run on (%s%s)", cpu, list,
	    i < CPU_SETSIZE ? ", ..." : "");
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
