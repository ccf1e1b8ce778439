/*
 * monitor/softirqs.c - Linux's /proc/softirqs: one line per kind of
 * softirq ("NET_RX:", "TIMER:", "SCHED:", "TASKLET:", ...) with a count
 * per CPU, summed over the CPUs into mon.softirq.<KIND>.  The header
 * line (the CPU names) and lines of other forms are skipped; a line
 * whose counts stop early gives the sum of the counts it has.  The
 * figures are system-wide.
 */
#include "monitor/internal.h"
#include "perfreg/monitor.h"

#include "core/banned.h"

enum pr_status
pr_mon_parse_softirqs(const char *buf, size_t len, struct pr_mon_snap *out,
    struct pr_error *err)
{
	const char *ls, *le, *p, *ws, *we, *vs, *ve;
	size_t pos = 0, n;
	double v, sum;
	enum pr_status st;

	while (pr_mon_line(buf, len, &pos, &ls, &le)) {
		p = ls;
		if (!pr_mon_word(&p, le, &ws, &we) || we - ws < 2 ||
		    we[-1] != ':')
			continue;
		for (sum = 0, n = 0;
		     pr_mon_word(&p, le, &vs, &ve) && pr_mon_uint(vs, ve, &v);
		     n++)
			sum += v;
		if (n == 0)
			continue;
		if ((st = pr_mon_snap_add(out, "softirq.", ws,
			 (size_t)(we - 1 - ws), "count", sum, 0, err)) != PR_OK)
			return st;
	}
	return PR_OK;
}
