/*
 * monitor/vmstat.c - Linux's /proc/vmstat: "name value" lines (page
 * faults, allocation, reclaim and scanning, swapping, THP, NUMA,
 * compaction), each into mon.vm.<name>.  The nr_* lines are levels
 * (pages in use now) and are kept as gauges; every other line is a
 * counter.  Lines of other forms are skipped.  The figures are
 * system-wide.
 *
 * The vmstat set reads only the counters that say why a run got slower
 * (the table below: a fault, a page read or swapped, reclaim and the
 * allocations it stalled, a refault, a huge page or its fallback,
 * compaction, a migration, a NUMA hinting fault, an OOM kill), about 30
 * of the file's 190 lines; the rest (the nr_* levels, the allocations
 * and frees by zone, the unevictable and balloon pages, ...) moves with
 * any run and costs a metric a figure, so that only `--monitor
 * vmstat-full` keeps it.  Neither is in the default set (the kernel
 * builds the whole file for each read, the default's largest cost); the
 * second table's memory pressure counters are what a monitor compares
 * at the session's start and end instead (pr_monitor_session_end).
 */
#include <stdlib.h>
#include <string.h>

#include "monitor/internal.h"
#include "perfreg/monitor.h"

#include "core/banned.h"

/* The default set's lines, sorted (strcmp) for bsearch. */
static const char *const explains[] = {
	"allocstall_dma32",
	"allocstall_movable",
	"allocstall_normal",
	"compact_fail",
	"compact_migrate_scanned",
	"compact_stall",
	"compact_success",
	"numa_hint_faults",
	"numa_pages_migrated",
	"oom_kill",
	"pgfault",
	"pgmajfault",
	"pgmigrate_success",
	"pgpgin",
	"pgpgout",
	"pgrefill",
	"pgscan_direct",
	"pgscan_kswapd",
	"pgsteal_direct",
	"pgsteal_kswapd",
	"pswpin",
	"pswpout",
	"thp_collapse_alloc",
	"thp_fault_alloc",
	"thp_fault_fallback",
	"thp_split_page",
	"thp_split_pmd",
	"workingset_refault_anon",
	"workingset_refault_file",
};
#define NEXPLAINS (sizeof(explains) / sizeof(explains[0]))

/* The memory pressure counters of the session's note, sorted: those of
 * the table above that stay still on a machine with memory to spare
 * (not the faults, major ones included: any program started from a file
 * not in the page cache takes some; nor the paging of any file read, the
 * huge pages given, the migrations). */
static const char *const pressure[] = {
	"allocstall_dma32",
	"allocstall_movable",
	"allocstall_normal",
	"compact_fail",
	"compact_stall",
	"oom_kill",
	"pgscan_direct",
	"pgscan_kswapd",
	"pgsteal_direct",
	"pgsteal_kswapd",
	"pswpin",
	"pswpout",
	"thp_fault_fallback",
	"workingset_refault_anon",
	"workingset_refault_file",
};
#define NPRESSURE (sizeof(pressure) / sizeof(pressure[0]))

/* The key of a bsearch: a name that need not be NUL-terminated. */
struct key {
	const char *s;
	size_t len;
};

static int
cmp_key(const void *k, const void *e)
{
	const struct key *key = k;
	const char *name = *(const char *const *)e;
	size_t nl = strlen(name);
	int c = strncmp(key->s, name, key->len < nl ? key->len : nl);

	if (c != 0)
		return c;
	return key->len < nl ? -1 : key->len > nl;
}

int
pr_mon_vmstat_explains(const char *name, size_t len)
{
	struct key k = { name, len };

	return bsearch(&k, explains, NEXPLAINS, sizeof(explains[0]), cmp_key) !=
	    NULL;
}

int
pr_mon_vmstat_pressure(const char *name, size_t len)
{
	struct key k = { name, len };

	return bsearch(&k, pressure, NPRESSURE, sizeof(pressure[0]), cmp_key) !=
	    NULL;
}

static enum pr_status
parse(const char *buf, size_t len, int all, struct pr_mon_snap *out,
    struct pr_error *err)
{
	const char *ls, *le, *p, *ws, *we, *vs, *ve;
	size_t pos = 0;
	double v;
	int gauge;
	enum pr_status st;

	while (pr_mon_line(buf, len, &pos, &ls, &le)) {
		p = ls;
		if (!pr_mon_word(&p, le, &ws, &we))
			continue;
		if (!all && !pr_mon_vmstat_explains(ws, (size_t)(we - ws)))
			continue;
		if (!pr_mon_word(&p, le, &vs, &ve) || !pr_mon_uint(vs, ve, &v))
			continue;
		gauge = we - ws > 3 && memcmp(ws, "nr_", 3) == 0;
		if ((st = pr_mon_snap_add(out, "vm.", ws, (size_t)(we - ws),
			 gauge ? "pages" : "count", v, gauge, err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

enum pr_status
pr_mon_parse_vmstat(const char *buf, size_t len, struct pr_mon_snap *out,
    struct pr_error *err)
{
	return parse(buf, len, 1, out, err);
}

enum pr_status
pr_mon_parse_vmstat_explain(const char *buf, size_t len,
    struct pr_mon_snap *out, struct pr_error *err)
{
	return parse(buf, len, 0, out, err);
}
