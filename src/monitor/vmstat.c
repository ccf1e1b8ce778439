/*
 * monitor/vmstat.c - Linux's /proc/vmstat: "name value" lines (page
 * faults, allocation, reclaim and scanning, swapping, THP, NUMA,
 * compaction), each into mon.vm.<name>.  The nr_* lines are levels
 * (pages in use now) and are kept as gauges; every other line is a
 * counter.  Lines of other forms are skipped.  The figures are
 * system-wide.
 */
#include <string.h>

#include "monitor/internal.h"
#include "perfreg/monitor.h"

#include "core/banned.h"

enum pr_status
pr_mon_parse_vmstat(const char *buf, size_t len, struct pr_mon_snap *out,
    struct pr_error *err)
{
	const char *ls, *le, *p, *ws, *we, *vs, *ve;
	size_t pos = 0;
	double v;
	int gauge;
	enum pr_status st;

	while (pr_mon_line(buf, len, &pos, &ls, &le)) {
		p = ls;
		if (!pr_mon_word(&p, le, &ws, &we) ||
		    !pr_mon_word(&p, le, &vs, &ve) || !pr_mon_uint(vs, ve, &v))
			continue;
		gauge = we - ws > 3 && memcmp(ws, "nr_", 3) == 0;
		if ((st = pr_mon_snap_add(out, "vm.", ws, (size_t)(we - ws),
			 gauge ? "pages" : "count", v, gauge, err)) != PR_OK)
			return st;
	}
	return PR_OK;
}
