/*
 * monitor/procstat.c - Linux's /proc/stat: the machine's context
 * switches (ctxt), interrupts (intr, the total), softirqs (softirq, the
 * total), forks (processes), the run queue (procs_running and
 * procs_blocked, gauges) and the CPU time of all CPUs by kind from the
 * "cpu" line, converted from USER_HZ ticks to seconds: user (with
 * nice), system, idle, iowait, irq, softirq and steal.  irq and softirq
 * are where a threaded IRQ's or a tasklet's cost lands, which the
 * child's rusage never sees; steal is the hypervisor's share.  The
 * figures are system-wide (proc(5)).  Lines of other forms are skipped.
 */
#include <string.h>

#include "monitor/internal.h"
#include "perfreg/monitor.h"

#include "core/banned.h"

static const char *const cpunames[] = { "cpu_user_s", "cpu_nice_s",
	"cpu_system_s", "cpu_idle_s", "cpu_iowait_s", "cpu_irq_s",
	"cpu_softirq_s", "cpu_steal_s" };

static int
is(const char *ws, const char *we, const char *word)
{
	return (size_t)(we - ws) == strlen(word) &&
	    memcmp(ws, word, (size_t)(we - ws)) == 0;
}

static enum pr_status
add(struct pr_mon_snap *out, const char *name, const char *unit, double v,
    int gauge, struct pr_error *err)
{
	return pr_mon_snap_add(out, "stat.", name, strlen(name), unit, v, gauge,
	    err);
}

static enum pr_status
cpu_line(const char *p, const char *le, double clk_tck, struct pr_mon_snap *out,
    struct pr_error *err)
{
	const char *ws, *we;
	double t[8], v;
	size_t k;
	enum pr_status st;

	for (k = 0; k < 8 && pr_mon_word(&p, le, &ws, &we); k++) {
		if (!pr_mon_uint(ws, we, &v))
			return PR_OK;
		t[k] = v / clk_tck;
	}
	if (k < 8)
		return PR_OK;
	t[0] += t[1]; /* user time with nice */
	for (k = 0; k < 8; k++) {
		if (k == 1)
			continue;
		if ((st = add(out, cpunames[k], "s", t[k], 0, err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

enum pr_status
pr_mon_parse_stat(const char *buf, size_t len, double clk_tck,
    struct pr_mon_snap *out, struct pr_error *err)
{
	static const struct {
		const char *key, *name;
		int gauge;
	} keys[] = {
		{ "ctxt", "ctxt", 0 },
		{ "intr", "intr", 0 },
		{ "softirq", "softirq", 0 },
		{ "processes", "forks", 0 },
		{ "procs_running", "procs_running", 1 },
		{ "procs_blocked", "procs_blocked", 1 },
	};
	const char *ls, *le, *p, *ws, *we, *vs, *ve;
	size_t pos = 0, k;
	double v;
	enum pr_status st;

	if (!(clk_tck > 0))
		clk_tck = 100;
	while (pr_mon_line(buf, len, &pos, &ls, &le)) {
		p = ls;
		if (!pr_mon_word(&p, le, &ws, &we))
			continue;
		if (is(ws, we, "cpu")) {
			if ((st = cpu_line(p, le, clk_tck, out, err)) != PR_OK)
				return st;
			continue;
		}
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (is(ws, we, keys[k].key))
				break;
		if (k == sizeof(keys) / sizeof(keys[0]) ||
		    !pr_mon_word(&p, le, &vs, &ve) || !pr_mon_uint(vs, ve, &v))
			continue;
		if ((st = add(out, keys[k].name, "count", v, keys[k].gauge,
			 err)) != PR_OK)
			return st;
	}
	return PR_OK;
}
