/*
 * monitor/schedstat.c - Linux's /proc/schedstat (version 15 and later,
 * Documentation/scheduler/sched-stats.rst): each "cpuN" line's last
 * three fields, the time tasks ran and waited to run on that CPU (ns)
 * and the time slices run, summed over the CPUs into
 * mon.sched.run_s, mon.sched.wait_s (the run-queue delay: what a CPU
 * hog beside the benchmark adds) and mon.sched.timeslices.  A file of
 * another version, or a kernel without CONFIG_SCHEDSTATS (no file),
 * gives nothing.  The figures are system-wide.
 */
#include <string.h>

#include "monitor/internal.h"
#include "perfreg/monitor.h"

#include "core/banned.h"

enum pr_status
pr_mon_parse_schedstat(const char *buf, size_t len, struct pr_mon_snap *out,
    struct pr_error *err)
{
	const char *ls, *le, *p, *ws, *we;
	double f[16], v, run = 0, wait = 0, slices = 0, ver = 0;
	size_t pos = 0, n, cpus = 0;
	enum pr_status st;

	while (pr_mon_line(buf, len, &pos, &ls, &le)) {
		p = ls;
		if (!pr_mon_word(&p, le, &ws, &we))
			continue;
		if ((size_t)(we - ws) == 7 && memcmp(ws, "version", 7) == 0) {
			if (pr_mon_word(&p, le, &ws, &we))
				(void)pr_mon_uint(ws, we, &ver);
			continue;
		}
		if (we - ws < 4 || memcmp(ws, "cpu", 3) != 0 ||
		    !pr_mon_uint(ws + 3, we, &v))
			continue;
		for (n = 0; pr_mon_word(&p, le, &ws, &we) && n < 16 &&
		     pr_mon_uint(ws, we, &v);
		     n++)
			f[n] = v;
		if (n < 9)
			continue;
		run += f[n - 3];
		wait += f[n - 2];
		slices += f[n - 1];
		cpus++;
	}
	if (ver < 15 || cpus == 0)
		return PR_OK;
	if ((st = pr_mon_snap_add(out, "sched.", "run_s", 5, "s", run / 1e9, 0,
		 err)) != PR_OK ||
	    (st = pr_mon_snap_add(out, "sched.", "wait_s", 6, "s", wait / 1e9,
		 0, err)) != PR_OK)
		return st;
	return pr_mon_snap_add(out, "sched.", "timeslices", 10, "count", slices,
	    0, err);
}
