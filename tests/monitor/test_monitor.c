/*
 * tests/monitor/test_monitor.c - the monitors (perfreg/monitor.h): the
 * parsers of /proc/stat, softirqs, interrupts, vmstat and schedstat
 * against the files captured in tests/data/proc (every figure checked
 * is the capture's own number, worked out by hand in the comments),
 * the same files cut short at every length and damaged (no crash,
 * finite figures only), names from a file that cannot carry a control
 * character, the delta of two readings, a missing /proc as absent
 * sources with notes, and the perf counters: the child's counts
 * without perfreg's own (perfreg sleeps 100 times while the counters
 * run: 0 switches without a child; with one, the child's between a
 * lower bound its sleeps force and wait4's rusage count, which no load
 * moves), the arithmetic of scaling and subtraction on fixed readings,
 * the hardware events absent with one note where there is no PMU, and
 * the hardware path's group read run with software events standing
 * in.  No timing thresholds.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "monitor/internal.h"
#include "perfreg/monitor.h"
#include "perfreg/probe.h"
#include "perfreg/runner.h"
#include "perfreg/suite.h"
#include "perfreg/spawn.h"

static char *
slurp(const char *name, size_t *len)
{
	struct pr_buf b = PR_BUF_INIT(1u << 22);

	assert_int_equal(pr_mon_read_file("tests/data/proc", name, &b), 0);
	*len = b.len;
	return pr_buf_detach(&b, len);
}

static const struct pr_mon_value *
find(const struct pr_mon_snap *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i].name, name) == 0)
			return &s->v[i];
	return NULL;
}

static double
val(const struct pr_mon_snap *s, const char *name)
{
	const struct pr_mon_value *v = find(s, name);

	if (v == NULL)
		fail_msg("no figure %s", name);
	return v->value;
}

static void
test_stat(void **state)
{
	struct pr_mon_snap s;
	struct pr_error err;
	size_t len;
	char *buf = slurp("stat", &len);

	(void)state;
	pr_mon_snap_init(&s);
	assert_int_equal(pr_mon_parse_stat(buf, len, 100, &s, &err), PR_OK);
	assert_true(val(&s, "mon.stat.ctxt") == 59723102);
	assert_true(val(&s, "mon.stat.intr") == 18388783);
	assert_true(val(&s, "mon.stat.softirq") == 34911139);
	assert_true(val(&s, "mon.stat.forks") == 1994328);
	assert_true(val(&s, "mon.stat.procs_running") == 6);
	assert_true(find(&s, "mon.stat.procs_running")->gauge);
	assert_false(find(&s, "mon.stat.ctxt")->gauge);
	/* "cpu  1555015 17582 493054 810805 1604 0 12448 1127": user
	 * with nice, then system, idle, iowait, irq, softirq, steal. */
	assert_true(fabs(val(&s, "mon.stat.cpu_user_s") - 15725.97) < 1e-6);
	assert_true(fabs(val(&s, "mon.stat.cpu_system_s") - 4930.54) < 1e-6);
	assert_true(fabs(val(&s, "mon.stat.cpu_softirq_s") - 124.48) < 1e-6);
	assert_true(fabs(val(&s, "mon.stat.cpu_steal_s") - 11.27) < 1e-6);
	assert_true(val(&s, "mon.stat.cpu_irq_s") == 0);
	assert_string_equal(find(&s, "mon.stat.cpu_irq_s")->unit, "s");
	/* Only the machine's line, not cpu0's and cpu1's. */
	assert_int_equal(s.n, 13);
	pr_mon_snap_release(&s);
	free(buf);
}

static void
test_softirqs(void **state)
{
	struct pr_mon_snap s;
	struct pr_error err;
	size_t len;
	char *buf = slurp("softirqs", &len);

	(void)state;
	pr_mon_snap_init(&s);
	assert_int_equal(pr_mon_parse_softirqs(buf, len, &s, &err), PR_OK);
	/* 8769519 + 7133485, which /proc/stat's softirq line has too. */
	assert_true(val(&s, "mon.softirq.NET_RX") == 15903004);
	assert_true(val(&s, "mon.softirq.TIMER") == 993857 + 712581);
	assert_true(val(&s, "mon.softirq.TASKLET") == 5);
	assert_true(val(&s, "mon.softirq.HI") == 0);
	assert_int_equal(s.n, 10);
	pr_mon_snap_release(&s);
	free(buf);
}

static void
test_interrupts(void **state)
{
	struct pr_mon_snap s;
	struct pr_error err;
	size_t len;
	char *buf = slurp("interrupts", &len);
	static const char shared[] = "           CPU0       CPU1\n"
				     " 16:   5   7   IO-APIC  16-fasteoi   "
				     "ehci_hcd:usb1, i801_smbus\n"
				     "ERR:          3\n";

	(void)state;
	pr_mon_snap_init(&s);
	assert_int_equal(pr_mon_parse_interrupts(buf, len, &s, &err), PR_OK);
	assert_true(val(&s, "mon.irq.virtio3-rx") == 11608);
	assert_true(val(&s, "mon.irq.virtio1-req.0") == 2311157);
	assert_true(val(&s, "mon.irq.LOC") == 7228626 + 6348222);
	assert_true(val(&s, "mon.irq.RES") == 869406 + 674970);
	assert_true(val(&s, "mon.irq.ERR") == 0);
	/* Two lines with the action ACPI:Ged, IRQs 24 and 25. */
	assert_true(val(&s, "mon.irq.ACPI:Ged") == 1);
	assert_true(val(&s, "mon.irq.ACPI:Ged#25") == 1);
	assert_int_equal(s.n, 19 + 16);
	pr_mon_snap_release(&s);
	free(buf);

	pr_mon_snap_init(&s);
	assert_int_equal(pr_mon_parse_interrupts(shared, sizeof(shared) - 1, &s,
			     &err),
	    PR_OK);
	assert_true(val(&s, "mon.irq.ehci_hcd:usb1+i801_smbus") == 12);
	assert_true(val(&s, "mon.irq.ERR") == 3);
	pr_mon_snap_release(&s);
}

/*
 * The default interrupts source: the names of the numbered lines from
 * the captured /proc/interrupts, the counts from the captured
 * /proc/stat's intr line (the two were captured together: the numbered
 * lines' counts agree, 2,366,089 in all), and the CPU-local rest,
 * 18,388,783 - 2,366,089 = 16,022,694 (`awk` over the two files).
 */
static void
test_stat_intr(void **state)
{
	struct pr_mon_irqnames names;
	struct pr_mon_snap s;
	struct pr_error err;
	size_t len, slen;
	char *buf = slurp("interrupts", &len), *stat = slurp("stat", &slen);
	static const char noline[] = "cpu 1 2 3 4 5 6 7 8\nctxt 5\n";
	static const char bad[] = "intr 100 1 2 x 4\n";

	(void)state;
	pr_mon_irqnames_init(&names);
	assert_int_equal(pr_mon_irqnames_parse(buf, len, &names, &err), PR_OK);
	/* The 19 numbered lines, IRQs 24 to 43 (27 has none). */
	assert_int_equal(names.names.n, 19);
	assert_int_equal(names.irq[0], 24);
	assert_int_equal(names.irq[18], 43);
	assert_string_equal(names.names.v[1].name, "mon.irq.ACPI:Ged#25");
	pr_mon_snap_init(&s);
	assert_int_equal(pr_mon_parse_stat_intr(stat, slen, &names, &s, &err),
	    PR_OK);
	assert_int_equal(s.n, 19 + 1);
	assert_true(val(&s, "mon.irq.virtio3-rx") == 11608);
	assert_true(val(&s, "mon.irq.virtio1-req.0") == 2311157);
	assert_true(val(&s, "mon.irq.ACPI:Ged") == 1);
	assert_true(val(&s, "mon.irq.ACPI:Ged#25") == 1);
	assert_true(val(&s, "mon.irq.ttyS0") == 14);
	assert_true(val(&s, "mon.irq.cpu_local") == 16022694);
	assert_null(find(&s, "mon.irq.LOC"));

	/* No intr line: nothing; a word that is not a number: the counts
	 * before it, no total. */
	pr_mon_snap_clear(&s);
	assert_int_equal(pr_mon_parse_stat_intr(noline, sizeof(noline) - 1,
			     &names, &s, &err),
	    PR_OK);
	assert_int_equal(s.n, 0);
	assert_int_equal(pr_mon_parse_stat_intr(bad, sizeof(bad) - 1, &names,
			     &s, &err),
	    PR_OK);
	assert_int_equal(s.n, 0);
	pr_mon_snap_release(&s);
	pr_mon_irqnames_release(&names);
	free(buf);
	free(stat);
}

static void
test_vmstat_schedstat(void **state)
{
	struct pr_mon_snap s;
	struct pr_error err;
	size_t len;
	char *buf = slurp("vmstat", &len);

	(void)state;
	pr_mon_snap_init(&s);
	assert_int_equal(pr_mon_parse_vmstat(buf, len, &s, &err), PR_OK);
	assert_true(val(&s, "mon.vm.pgfault") == 912671436);
	assert_true(val(&s, "mon.vm.thp_fault_alloc") == 119292);
	assert_true(find(&s, "mon.vm.nr_free_pages")->gauge);
	assert_false(find(&s, "mon.vm.pgfault")->gauge);
	assert_int_equal(s.n, 192);
	/* The default set's lines: every figure of the whole file whose
	 * name the set has, and no other (the capture has all 29 of the
	 * table; an unsorted table would lose some to the bsearch). */
	{
		struct pr_mon_snap e;
		size_t i, want = 0;

		pr_mon_snap_init(&e);
		assert_int_equal(pr_mon_parse_vmstat_explain(buf, len, &e,
				     &err),
		    PR_OK);
		for (i = 0; i < s.n; i++)
			want += pr_mon_vmstat_explains(s.v[i].name + 7,
			    strlen(s.v[i].name + 7));
		assert_int_equal(e.n, want);
		assert_int_equal(e.n, 29);
		assert_true(val(&e, "mon.vm.pgfault") == 912671436);
		assert_non_null(find(&e, "mon.vm.pgmajfault"));
		assert_non_null(find(&e, "mon.vm.workingset_refault_file"));
		assert_non_null(find(&e, "mon.vm.allocstall_dma32"));
		assert_null(find(&e, "mon.vm.nr_free_pages"));
		assert_null(find(&e, "mon.vm.pgalloc_normal"));
		assert_false(pr_mon_vmstat_explains("pgfaul", 6));
		assert_false(pr_mon_vmstat_explains("pgfaults", 8));
		assert_true(pr_mon_vmstat_explains("pgfault 12", 7));
		pr_mon_snap_release(&e);
	}
	pr_mon_snap_release(&s);
	free(buf);

	buf = slurp("schedstat", &len);
	pr_mon_snap_init(&s);
	assert_int_equal(pr_mon_parse_schedstat(buf, len, &s, &err), PR_OK);
	assert_true(fabs(val(&s, "mon.sched.run_s") -
			(1207135862812.0 + 1198573456109.0) / 1e9) < 1e-6);
	assert_true(fabs(val(&s, "mon.sched.wait_s") -
			(95367093524.0 + 101293859376.0) / 1e9) < 1e-6);
	assert_true(val(&s, "mon.sched.timeslices") == 10851402 + 11095774);
	pr_mon_snap_release(&s);
	/* Another version's fields mean other things: nothing. */
	pr_mon_snap_init(&s);
	assert_int_equal(pr_mon_parse_schedstat("version 14\n", 11, &s, &err),
	    PR_OK);
	assert_int_equal(s.n, 0);
	pr_mon_snap_release(&s);
	free(buf);
}

/* Every parser over a file cut at every length, and with bytes damaged:
 * no crash, every figure finite and its name clean. */
static void
check_clean(const struct pr_mon_snap *s)
{
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		assert_true(isfinite(s->v[i].value));
		assert_memory_equal(s->v[i].name, "mon.", 4);
		for (j = 0; s->v[i].name[j] != '\0'; j++)
			assert_true(
			    s->v[i].name[j] > ' ' && s->v[i].name[j] < 127);
	}
}

static void
test_cut_and_damaged(void **state)
{
	static const char *files[] = { "stat", "softirqs", "interrupts",
		"vmstat", "schedstat" };
	struct pr_mon_snap s;
	struct pr_error err;
	size_t f, len, cut, step;
	char *buf;

	(void)state;
	pr_mon_snap_init(&s);
	for (f = 0; f < 5; f++) {
		buf = slurp(files[f], &len);
		step = len > 4000 ? 7 : 1;
		for (cut = 0; cut <= len; cut += step) {
			pr_mon_snap_clear(&s);
			assert_int_equal(pr_mon_parse_stat(buf, cut, 100, &s,
					     &err),
			    PR_OK);
			assert_int_equal(pr_mon_parse_softirqs(buf, cut, &s,
					     &err),
			    PR_OK);
			assert_int_equal(pr_mon_parse_interrupts(buf, cut, &s,
					     &err),
			    PR_OK);
			assert_int_equal(pr_mon_parse_vmstat(buf, cut, &s,
					     &err),
			    PR_OK);
			assert_int_equal(pr_mon_parse_vmstat_explain(buf, cut,
					     &s, &err),
			    PR_OK);
			assert_int_equal(pr_mon_parse_schedstat(buf, cut, &s,
					     &err),
			    PR_OK);
			check_clean(&s);
		}
		for (cut = 0; cut < len; cut += 13)
			buf[cut] = (char)(cut % 5 == 0 ? '\033' : 0x9b);
		pr_mon_snap_clear(&s);
		assert_int_equal(pr_mon_parse_interrupts(buf, len, &s, &err),
		    PR_OK);
		assert_int_equal(pr_mon_parse_vmstat(buf, len, &s, &err),
		    PR_OK);
		assert_int_equal(pr_mon_parse_softirqs(buf, len, &s, &err),
		    PR_OK);
		check_clean(&s);
		free(buf);
	}
	pr_mon_snap_release(&s);
}

static void
test_names_and_delta(void **state)
{
	struct pr_mon_snap a, b;
	struct pr_dataset d;
	struct pr_error err;
	static const char hostile[] = "\033[2J\r\nx";
	struct pr_metric *m;

	(void)state;
	pr_mon_snap_init(&a);
	pr_mon_snap_init(&b);
	pr_dataset_init(&d);
	assert_int_equal(pr_mon_snap_add(&a, "irq.", hostile,
			     sizeof(hostile) - 1, "count", 1, 0, &err),
	    PR_OK);
	assert_string_equal(a.v[0].name, "mon.irq.__2J__x");
	assert_int_equal(pr_mon_snap_add(&a, "t.", "c", 1, "count", 10, 0,
			     &err),
	    PR_OK);
	assert_int_equal(pr_mon_snap_add(&a, "t.", "g", 1, "count", 4, 1, &err),
	    PR_OK);
	assert_int_equal(pr_mon_snap_add(&a, "t.", "back", 4, "count", 9, 0,
			     &err),
	    PR_OK);
	assert_int_equal(pr_mon_snap_add(&a, "t.", "nan", 3, "count", NAN, 0,
			     &err),
	    PR_OK);
	assert_int_equal(a.n, 4); /* NaN left out */
	/* b in another order, with one figure a lacks. */
	assert_int_equal(pr_mon_snap_add(&b, "t.", "g", 1, "count", 8, 1, &err),
	    PR_OK);
	assert_int_equal(pr_mon_snap_add(&b, "t.", "c", 1, "count", 25, 0,
			     &err),
	    PR_OK);
	assert_int_equal(pr_mon_snap_add(&b, "t.", "back", 4, "count", 3, 0,
			     &err),
	    PR_OK);
	assert_int_equal(pr_mon_snap_add(&b, "t.", "new", 3, "count", 3, 0,
			     &err),
	    PR_OK);
	assert_int_equal(pr_mon_snap_delta(&a, &b, &d, &err), PR_OK);
	assert_int_equal(d.n, 2);
	assert_non_null(m = pr_dataset_find(&d, "mon.t.c"));
	assert_true(m->values.v[0] == 15);
	assert_non_null(m = pr_dataset_find(&d, "mon.t.g"));
	assert_true(m->values.v[0] == 6);
	assert_null(pr_dataset_find(&d, "mon.t.back"));
	assert_true(pr_monitor_is_metric("mon.t.c"));
	assert_false(pr_monitor_is_metric("wall_s"));
	pr_dataset_release(&d);
	pr_mon_snap_release(&a);
	pr_mon_snap_release(&b);
}

static void
test_set(void **state)
{
	struct pr_error err;
	unsigned set;

	(void)state;
	assert_int_equal(pr_monitor_parse_set("none", &set, &err), PR_OK);
	assert_int_equal(set, 0);
	assert_int_equal(pr_monitor_parse_set("default", &set, &err), PR_OK);
	assert_int_equal(set, PR_MON_DEFAULT);
	assert_int_equal(pr_monitor_parse_set("perf,softirqs", &set, &err),
	    PR_OK);
	assert_int_equal(set, PR_MON_PERF | PR_MON_SOFTIRQS);
	assert_int_equal(pr_monitor_parse_set("system", &set, &err), PR_OK);
	assert_int_equal(set,
	    PR_MON_ALL &
		~(unsigned)(PR_MON_PERF | PR_MON_INTERRUPTS_FULL |
		    PR_MON_VMSTAT | PR_MON_VMSTAT_FULL));
	/* vmstat is not in the default: the kernel builds the whole file
	 * for each read; "default,vmstat" adds it. */
	assert_false(PR_MON_DEFAULT & PR_MON_VMSTAT);
	assert_int_equal(pr_monitor_parse_set("default,vmstat", &set, &err),
	    PR_OK);
	assert_int_equal(set, PR_MON_DEFAULT | PR_MON_VMSTAT);
	assert_int_equal(pr_monitor_parse_set("vmstat-full", &set, &err),
	    PR_OK);
	assert_int_equal(set, PR_MON_VMSTAT_FULL);
	assert_false(PR_MON_DEFAULT & PR_MON_VMSTAT_FULL);
	assert_true(PR_MON_ALL & PR_MON_VMSTAT_FULL);
	assert_string_equal(pr_monitor_source_name(PR_MON_VMSTAT_FULL),
	    "vmstat-full");
	assert_int_equal(pr_monitor_parse_set("interrupts-full", &set, &err),
	    PR_OK);
	assert_int_equal(set, PR_MON_INTERRUPTS_FULL);
	assert_int_equal(pr_monitor_parse_set("all", &set, &err), PR_OK);
	assert_int_equal(set, PR_MON_ALL);
	assert_false(PR_MON_DEFAULT & PR_MON_INTERRUPTS_FULL);
	assert_int_equal(pr_monitor_parse_set("perf,bogus", &set, &err),
	    PR_EINVAL);
	assert_non_null(strstr(err.msg, "'bogus'"));
	assert_int_equal(pr_monitor_parse_set("", &set, &err), PR_EINVAL);
	assert_string_equal(pr_monitor_source_name(PR_MON_VMSTAT), "vmstat");
}

/* A /proc that is not there: every /proc source absent with a note, and
 * the readings give nothing, without an error. */
static void
test_missing_proc(void **state)
{
	struct pr_monitor *m;
	struct pr_dataset d;
	struct pr_error err;

	(void)state;
	pr_dataset_init(&d);
	assert_int_equal(pr_monitor_new(PR_MON_ALL & ~(unsigned)PR_MON_PERF,
			     "tests/data/proc/no-such-dir", &m, &err),
	    PR_OK);
	assert_int_equal(pr_monitor_active(m), 0);
	assert_int_equal(pr_monitor_nnotes(m), 5);
	assert_non_null(strstr(pr_monitor_note(m, 0), "/proc/stat"));
	assert_int_equal(pr_monitor_begin(m, &err), PR_OK);
	assert_int_equal(pr_monitor_end(m, &d, &err), PR_OK);
	assert_int_equal(d.n, 0);
	pr_monitor_free(m);

	/* The captures: read twice, every counter's delta is 0 and
	 * every gauge its value.  schedstat is there too. */
	assert_int_equal(pr_monitor_new(PR_MON_ALL & ~(unsigned)PR_MON_PERF,
			     "tests/data/proc", &m, &err),
	    PR_OK);
	assert_int_equal(pr_monitor_nnotes(m), 0);
	assert_int_equal(pr_monitor_begin(m, &err), PR_OK);
	assert_int_equal(pr_monitor_end(m, &d, &err), PR_OK);
	assert_true(pr_dataset_find(&d, "mon.stat.ctxt")->values.v[0] == 0);
	assert_true(
	    pr_dataset_find(&d, "mon.stat.procs_running")->values.v[0] == 6);
	assert_non_null(pr_dataset_find(&d, "mon.sched.wait_s"));
	assert_non_null(pr_dataset_find(&d, "mon.irq.LOC"));
	assert_non_null(pr_dataset_find(&d, "mon.softirq.NET_RX"));
	assert_non_null(pr_dataset_find(&d, "mon.vm.pgfault"));
	assert_non_null(pr_dataset_find(&d, "mon.vm.nr_free_pages"));
	assert_null(pr_dataset_find(&d, "mon.irq.cpu_local"));
	pr_monitor_free(m);
	pr_dataset_release(&d);

	/* The default set: the interrupts by IRQ from /proc/stat, the
	 * CPU-local ones as one figure, not by kind. */
	pr_dataset_init(&d);
	assert_int_equal(pr_monitor_new((PR_MON_DEFAULT | PR_MON_VMSTAT) &
				 ~(unsigned)PR_MON_PERF,
			     "tests/data/proc", &m, &err),
	    PR_OK);
	assert_int_equal(pr_monitor_nnotes(m), 0);
	assert_int_equal(pr_monitor_begin(m, &err), PR_OK);
	assert_int_equal(pr_monitor_end(m, &d, &err), PR_OK);
	assert_true(
	    pr_dataset_find(&d, "mon.irq.virtio3-rx")->values.v[0] == 0);
	assert_true(pr_dataset_find(&d, "mon.irq.cpu_local")->values.v[0] == 0);
	assert_null(pr_dataset_find(&d, "mon.irq.LOC"));
	assert_non_null(pr_dataset_find(&d, "mon.stat.ctxt"));
	/* and the vmstat set's lines only, not the levels. */
	assert_non_null(pr_dataset_find(&d, "mon.vm.pgfault"));
	assert_null(pr_dataset_find(&d, "mon.vm.nr_free_pages"));
	assert_null(pr_dataset_find(&d, "mon.vm.pgalloc_normal"));
	pr_monitor_free(m);
	pr_dataset_release(&d);

	/* Only the interrupts, of a /proc without interrupts: absent. */
	assert_int_equal(pr_monitor_new(PR_MON_INTERRUPTS,
			     "tests/data/proc/no-such-dir", &m, &err),
	    PR_OK);
	assert_int_equal(pr_monitor_active(m), 0);
	assert_int_equal(pr_monitor_nnotes(m), 1);
	assert_non_null(strstr(pr_monitor_note(m, 0), "monitor interrupts"));
	pr_monitor_free(m);
}

static double
figure(const struct pr_mon_snap *s, const char *name)
{
	const struct pr_mon_value *v = find(s, name);

	return v != NULL ? v->value : -1;
}

/* Runs cmd in a shell; the context switches wait4's rusage gave the
 * child and the descendants it waited for. */
static double
run_child(const char *cmd)
{
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	struct pr_error err;
	char *argv[2] = { (char *)cmd, NULL };
	double ctxsw;

	pr_spawn_opts_init(&o);
	o.shell = 1;
	pr_spawn_result_init(&r);
	assert_int_equal(pr_spawn_run(argv, &o, &r, &err), PR_OK);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	ctxsw = r.ctxsw_vol + r.ctxsw_invol;
	pr_spawn_result_release(&r);
	return ctxsw;
}

/* perfreg's own activity while the counters run: n sleeps, each a
 * voluntary context switch of perfreg's. */
static void
sleeps(size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		usleep(200);
}

static void
test_perf(void **state)
{
	char note[256] = "", hwnote[256] = "";
	struct pr_mon_perf *p;
	struct pr_mon_snap s;
	struct pr_error err;
	double scale = 1, ctxsw;
	int not_run = 0, kernel;

	(void)state;
	if ((p = pr_mon_perf_open(note, sizeof(note), hwnote,
		 sizeof(hwnote))) == NULL) {
		print_message("perf_event_open refused here: %s\n", note);
		skip();
	}
	/* Where the kernel is not counted (perf_event_paranoid), the
	 * scheduler's figures are absent: the path tested below. */
	kernel = strstr(note, "user space only") == NULL;
	pr_mon_snap_init(&s);
	/* perfreg alone sleeps 100 times (100 context switches of its
	 * own): none is a child's.  The inherited group runs inside
	 * perfreg's own, so its count of perfreg is never the larger: the
	 * figures are 0, at any load. */
	pr_mon_perf_start(p);
	sleeps(100);
	assert_int_equal(pr_mon_perf_stop(p, &s, &scale, &not_run, &err),
	    PR_OK);
	assert_true(
	    figure(&s, "mon.perf.context_switches") == (kernel ? 0 : -1));
	assert_true(figure(&s, "mon.perf.page_faults") == 0);
	assert_true(figure(&s, "mon.perf.task_clock_s") == 0);
	assert_true(figure(&s, "mon.perf.cpu_migrations") == (kernel ? 0 : -1));
	/* A child that runs a shell, a program and three 10 ms sleeps,
	 * while perfreg sleeps 100 times again.  The child's switches
	 * depend on the load (a loaded machine preempts it; under
	 * valgrind it is a fork of valgrind until its exec: 2 to 41 in 300
	 * runs at load 28), so the figure is checked against what holds at
	 * any load: each sleep blocks its process (or the process is
	 * preempted first), at least 3 switches; every switch the kernel
	 * counts for the child and its descendants is one wait4's rusage
	 * counts too, so perfreg's 100 are not in it. */
	pr_mon_snap_clear(&s);
	pr_mon_perf_start(p);
	sleeps(100);
	ctxsw = run_child("cat /proc/self/stat >/dev/null; sleep 0.01; "
			  "sleep 0.01; sleep 0.01");
	assert_int_equal(pr_mon_perf_stop(p, &s, &scale, &not_run, &err),
	    PR_OK);
	assert_int_equal(not_run, 0);
	assert_true(figure(&s, "mon.perf.page_faults") > 0);
	if (kernel) {
		assert_true(figure(&s, "mon.perf.context_switches") >= 3);
		assert_true(figure(&s, "mon.perf.context_switches") <= ctxsw);
	} else
		assert_null(find(&s, "mon.perf.context_switches"));
	assert_true(figure(&s, "mon.perf.task_clock_s") > 0);
	assert_true(figure(&s, "mon.perf.cpu_migrations") >= 0);
	/* No PMU: absent with a note, never zero; with one, there. */
	if (hwnote[0] != '\0') {
		assert_non_null(strstr(hwnote, "hardware counters absent"));
		assert_null(find(&s, "mon.perf.cycles"));
		assert_null(find(&s, "mon.perf.instructions"));
	} else
		assert_true(figure(&s, "mon.perf.instructions") > 0);
	pr_mon_snap_release(&s);
	pr_mon_perf_close(p);

	/* User space only (perf_event_paranoid 2 without CAP_PERFMON):
	 * the child's page faults still counted, its context switches and
	 * migrations absent with the note, not 0 (the sleeps' switches are
	 * there, the kernel never counts them in user mode). */
	note[0] = hwnote[0] = '\0';
	assert_non_null(p = pr_mon_perf_open_user_only(note, sizeof(note),
			    hwnote, sizeof(hwnote)));
	assert_non_null(strstr(note, "user space only"));
	assert_non_null(strstr(note,
	    "context switches and CPU migrations "
	    "absent"));
	pr_mon_snap_init(&s);
	pr_mon_perf_start(p);
	(void)run_child("cat /proc/self/stat >/dev/null; sleep 0.01");
	assert_int_equal(pr_mon_perf_stop(p, &s, &scale, &not_run, &err),
	    PR_OK);
	assert_true(figure(&s, "mon.perf.page_faults") > 0);
	assert_true(figure(&s, "mon.perf.task_clock_s") > 0);
	assert_null(find(&s, "mon.perf.context_switches"));
	assert_null(find(&s, "mon.perf.cpu_migrations"));
	pr_mon_snap_release(&s);
	pr_mon_perf_close(p);

	/* The hardware path (its group, its scale) with software events
	 * standing in for cycles and instructions. */
	hwnote[0] = '\0';
	assert_non_null(p = pr_mon_perf_open_fake_hw(note, sizeof(note), hwnote,
			    sizeof(hwnote)));
	assert_string_equal(hwnote, "");
	pr_mon_snap_init(&s);
	pr_mon_perf_start(p);
	(void)run_child("i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done");
	assert_int_equal(pr_mon_perf_stop(p, &s, &scale, &not_run, &err),
	    PR_OK);
	assert_true(figure(&s, "mon.perf.cycles") > 0);
	assert_true(figure(&s, "mon.perf.instructions") > 0);
	assert_true(scale >= 1);
	pr_mon_snap_release(&s);
	pr_mon_perf_close(p);
}

/* The perf figure's arithmetic on fixed readings: each group scaled by
 * its own enabled / running before the subtraction, never below 0, and
 * a group enabled that never ran unknown, not zero. */
static void
test_perf_figure(void **state)
{
	struct pr_mon_perf_read all = { 1000, 1000, 1, { 150 } },
				self = { 900, 900, 1, { 100 } };
	double v = -1;

	(void)state;
	/* Both ran the whole time: the plain difference. */
	assert_true(pr_mon_perf_scale(&all) == 1);
	assert_int_equal(pr_mon_perf_figure(&all, &self, 0, &v), 0);
	assert_true(v == 50);
	/* Multiplexed: all ran a quarter of its time (x4: 400), self half
	 * of its (x2: 100). */
	all.run = 250;
	all.count[0] = 100;
	self.en = 1000;
	self.run = 500;
	self.count[0] = 50;
	assert_true(pr_mon_perf_scale(&all) == 4);
	assert_true(pr_mon_perf_scale(&self) == 2);
	assert_int_equal(pr_mon_perf_figure(&all, &self, 0, &v), 0);
	assert_true(v == 300);
	/* PR_MON_OPT_SELF: all's count alone, scaled. */
	assert_int_equal(pr_mon_perf_figure(&all, NULL, 0, &v), 0);
	assert_true(v == 400);
	/* perfreg's own the larger (the edges of the windows): 0. */
	self.count[0] = 300;
	assert_int_equal(pr_mon_perf_figure(&all, &self, 0, &v), 0);
	assert_true(v == 0);
	/* A group enabled that never ran: unknown, either group. */
	self.count[0] = 50;
	all.run = 0;
	all.count[0] = 0;
	assert_true(pr_mon_perf_scale(&all) == 0);
	v = -1;
	assert_int_equal(pr_mon_perf_figure(&all, &self, 0, &v), -1);
	assert_int_equal(pr_mon_perf_figure(&all, NULL, 0, &v), -1);
	all.run = 1000;
	self.run = 0;
	assert_int_equal(pr_mon_perf_figure(&all, &self, 0, &v), -1);
	assert_true(v == -1);
	/* Never enabled (no time at all): nothing counted, 0. */
	all.en = all.run = 0;
	self.en = self.run = 0;
	self.count[0] = 0;
	assert_true(pr_mon_perf_scale(&all) == 1);
	assert_int_equal(pr_mon_perf_figure(&all, &self, 0, &v), 0);
	assert_true(v == 0);
}

/* Writes text to dir/name. */
static void
put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* vmstat out of the set: read at the session's start and end only, and
 * one note names the memory pressure counters that grew (not the
 * faults, nor a counter that went back), none when nothing grew; vmstat
 * in the set, or no source at all: never read that way. */
static void
test_session_vmstat(void **state)
{
	char dir[] = "/tmp/perfreg-test-vmstat-XXXXXX", path[64];
	struct pr_monitor *m;
	struct pr_dataset d;
	struct pr_error err;
	const char *n;
	size_t nn;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "vmstat",
	    "nr_free_pages 100\npgfault 10\npgmajfault 5\n"
	    "pgscan_direct 7\nallocstall_normal 2\noom_kill 1\n");
	put(dir, "softirqs", "CPU0\nTIMER: 1\n");
	assert_int_equal(pr_monitor_new(PR_MON_DEFAULT & ~(unsigned)PR_MON_PERF,
			     dir, &m, &err),
	    PR_OK);
	/* The notes of the sources absent from dir. */
	nn = pr_monitor_nnotes(m);
	assert_int_equal(pr_monitor_session_end(m, &err), PR_OK);
	assert_int_equal(pr_monitor_nnotes(m), nn);
	pr_dataset_init(&d);
	assert_int_equal(pr_monitor_begin(m, &err), PR_OK);
	assert_int_equal(pr_monitor_end(m, &d, &err), PR_OK);
	assert_null(pr_dataset_find(&d, "mon.vm.pgfault"));
	assert_non_null(pr_dataset_find(&d, "mon.softirq.TIMER"));
	pr_dataset_release(&d);
	put(dir, "vmstat",
	    "nr_free_pages 900\npgfault 90\npgmajfault 5\n"
	    "pgscan_direct 5130\nallocstall_normal 3\noom_kill 0\n");
	assert_int_equal(pr_monitor_session_end(m, &err), PR_OK);
	assert_int_equal(pr_monitor_nnotes(m), nn + 1);
	n = pr_monitor_note(m, nn);
	assert_non_null(strstr(n, "memory pressure in the session"));
	assert_non_null(strstr(n, "system-wide"));
	assert_non_null(
	    strstr(n, ": pgscan_direct +5123, allocstall_normal +1;"));
	assert_null(strstr(n, "pgfault"));
	assert_null(strstr(n, "oom_kill"));
	assert_non_null(strstr(n, "add vmstat to --monitor"));
	assert_int_equal(pr_monitor_session_end(m, &err), PR_OK);
	assert_int_equal(pr_monitor_nnotes(m), nn + 1);
	pr_monitor_free(m);

	/* vmstat read around each run: no session note. */
	assert_int_equal(pr_monitor_new(PR_MON_VMSTAT, dir, &m, &err), PR_OK);
	put(dir, "vmstat", "pgscan_direct 9999\n");
	assert_int_equal(pr_monitor_session_end(m, &err), PR_OK);
	assert_int_equal(pr_monitor_nnotes(m), 0);
	pr_monitor_free(m);
	/* --monitor none reads nothing. */
	assert_int_equal(pr_monitor_new(0, dir, &m, &err), PR_OK);
	put(dir, "vmstat", "pgscan_direct 99999\n");
	assert_int_equal(pr_monitor_session_end(m, &err), PR_OK);
	assert_int_equal(pr_monitor_nnotes(m), 0);
	pr_monitor_free(m);
	/* Many counters that grew: the note says so and keeps its end. */
	put(dir, "vmstat",
	    "allocstall_dma32 0\nallocstall_movable 0\nallocstall_normal 0\n"
	    "compact_fail 0\ncompact_stall 0\npgmajfault 0\npgscan_direct 0\n"
	    "pgscan_kswapd 0\npgsteal_direct 0\npgsteal_kswapd 0\n"
	    "pswpin 0\npswpout 0\n");
	assert_int_equal(pr_monitor_new(PR_MON_SOFTIRQS, dir, &m, &err), PR_OK);
	put(dir, "vmstat",
	    "allocstall_dma32 1000000\nallocstall_movable 1000000\n"
	    "allocstall_normal 1000000\ncompact_fail 1000000\n"
	    "compact_stall 1000000\npgmajfault 1000000\n"
	    "pgscan_direct 1000000\npgscan_kswapd 1000000\n"
	    "pgsteal_direct 1000000\npgsteal_kswapd 1000000\n"
	    "pswpin 1000000\npswpout 1000000\n");
	assert_int_equal(pr_monitor_session_end(m, &err), PR_OK);
	assert_int_equal(pr_monitor_nnotes(m), 1);
	n = pr_monitor_note(m, 0);
	assert_non_null(strstr(n, " ...; add vmstat to --monitor"));
	assert_true(strlen(n) < 256);
	pr_monitor_free(m);
	snprintf(path, sizeof(path), "%s/vmstat", dir);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/softirqs", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* The suite's monitors (perfreg/suite.h): a result's monitor figures go
 * through a worker's text and back into its monitors, not its figures;
 * merged from two processes, a figure one of them lacks is dropped
 * (its values would no longer line up with the samples), as
 * pr_monitor_keep_complete drops one a sample lacked. */
static void
test_suite_monitors(void **state)
{
	const struct pr_probe *p = pr_probe_find("syscall");
	const struct pr_probe *const probes[] = { p };
	struct pr_suite_result r[2], *back = NULL, into;
	struct pr_buf text = PR_BUF_INIT(1 << 20);
	struct pr_error err;
	size_t nback = 0, i;

	(void)state;
	assert_non_null(p);
	memset(r, 0, sizeof(r));
	for (i = 0; i < 2; i++) {
		r[i].probe = p;
		r[i].label = p->name;
		r[i].samples = 2;
		assert_int_equal(pr_dataset_add(&r[i].data, "syscall.x_ns",
				     "ns", PR_BETTER_LOWER, 10.5, &err),
		    PR_OK);
		assert_int_equal(pr_dataset_add(&r[i].data, "syscall.x_ns",
				     "ns", PR_BETTER_LOWER, 11.25, &err),
		    PR_OK);
		assert_int_equal(pr_dataset_add(&r[i].monitors, "mon.stat.ctxt",
				     "count", PR_BETTER_LOWER, 3 + (double)i,
				     &err),
		    PR_OK);
		assert_int_equal(pr_dataset_add(&r[i].monitors, "mon.stat.ctxt",
				     "count", PR_BETTER_LOWER, 0.1, &err),
		    PR_OK);
	}
	/* Process 0 also had a figure process 1 did not. */
	assert_int_equal(pr_dataset_add(&r[0].monitors, "mon.softirq.NET_RX",
			     "count", PR_BETTER_LOWER, 1, &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&r[0].monitors, "mon.softirq.NET_RX",
			     "count", PR_BETTER_LOWER, 2, &err),
	    PR_OK);
	assert_int_equal(pr_suite_results_write(&r[0], 1, &text, &err), PR_OK);
	assert_int_equal(pr_suite_results_read(text.data, text.len, probes, 1,
			     &back, &nback, &err),
	    PR_OK);
	assert_int_equal(nback, 1);
	assert_int_equal(back[0].data.n, 1);
	assert_null(pr_dataset_find(&back[0].data, "mon.stat.ctxt"));
	assert_int_equal(back[0].monitors.n, 2);
	assert_true(
	    pr_dataset_find(&back[0].monitors, "mon.stat.ctxt")->values.v[1] ==
	    0.1);
	pr_suite_results_free(back, nback);

	/* A worker's monitor figure with fewer values than samples is not
	 * a worker's. */
	pr_buf_reset(&text);
	r[1].samples = 3;
	assert_int_equal(pr_suite_results_write(&r[1], 1, &text, &err), PR_OK);
	assert_int_equal(pr_suite_results_read(text.data, text.len, probes, 1,
			     &back, &nback, &err),
	    PR_EPARSE);
	assert_non_null(strstr(err.msg, "'mon.stat.ctxt'"));
	r[1].samples = 2;

	memset(&into, 0, sizeof(into));
	into.probe = p;
	assert_int_equal(pr_suite_results_merge(&into, &r[0], 1, 0, &err),
	    PR_OK);
	assert_int_equal(into.monitors.n, 2);
	assert_int_equal(pr_suite_results_merge(&into, &r[1], 1, 1, &err),
	    PR_OK);
	assert_int_equal(into.samples, 4);
	assert_int_equal(into.monitors.n, 1);
	assert_int_equal(pr_dataset_find(&into.monitors, "mon.stat.ctxt")
			     ->values.n,
	    4);
	assert_true(
	    pr_dataset_find(&into.monitors, "mon.stat.ctxt")->values.v[2] == 4);
	assert_null(pr_dataset_find(&into.monitors, "mon.softirq.NET_RX"));
	pr_dataset_release(&into.data);
	pr_dataset_release(&into.monitors);
	free(into.process);
	free(into.notes);
	for (i = 0; i < 2; i++) {
		pr_dataset_release(&r[i].data);
		pr_dataset_release(&r[i].monitors);
	}
	pr_buf_release(&text);
}

/* Spins until this thread has used ms milliseconds of CPU. */
static void
spin_cpu(double ms)
{
	struct timespec a, b;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		x = x + 1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((double)(b.tv_sec - a.tv_sec) * 1e3 +
		(double)(b.tv_nsec - a.tv_nsec) * 1e-6 <
	    ms);
}

/* PR_MON_OPT_SELF (the suite's probes run in perfreg): the perf counters
 * count this process's own work between begin and end; without it only
 * children's, and this process's CPU time is not in them.  Where perf is
 * refused, both are absent. */
static void
test_perf_self(void **state)
{
	struct pr_monitor *m;
	struct pr_dataset d;
	struct pr_error err;
	struct pr_metric *x;
	int self;

	(void)state;
	for (self = 0; self < 2; self++) {
		assert_int_equal(pr_monitor_new(PR_MON_PERF |
					 (self ? PR_MON_OPT_SELF : 0),
				     NULL, &m, &err),
		    PR_OK);
		pr_dataset_init(&d);
		assert_int_equal(pr_monitor_begin(m, &err), PR_OK);
		spin_cpu(20);
		assert_int_equal(pr_monitor_end(m, &d, &err), PR_OK);
		x = pr_dataset_find(&d, "mon.perf.task_clock_s");
		if (!(pr_monitor_active(m) & PR_MON_PERF)) {
			assert_null(x);
		} else {
			assert_non_null(x);
			/* 20 ms of CPU spun: all of it counted, or none. */
			if (self)
				assert_true(x->values.v[0] >= 0.019);
			else
				assert_true(x->values.v[0] == 0);
		}
		pr_dataset_release(&d);
		pr_monitor_free(m);
	}
}

/* pr_monitor_keep_complete: only the figures with a value in every
 * sample stay, in their order, with their values. */
static void
test_keep_complete(void **state)
{
	struct pr_dataset d;
	struct pr_error err;

	(void)state;
	pr_dataset_init(&d);
	assert_int_equal(pr_dataset_add(&d, "mon.a", "count", PR_BETTER_LOWER,
			     1, &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d, "mon.b", "s", PR_BETTER_LOWER, 2,
			     &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d, "mon.c", "s", PR_BETTER_LOWER, 3,
			     &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d, "mon.a", "count", PR_BETTER_LOWER,
			     4, &err),
	    PR_OK);
	assert_int_equal(pr_dataset_add(&d, "mon.c", "s", PR_BETTER_LOWER, 5,
			     &err),
	    PR_OK);
	assert_int_equal(pr_monitor_keep_complete(&d, 2, &err), PR_OK);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.metrics[0].name, "mon.a");
	assert_string_equal(d.metrics[1].name, "mon.c");
	assert_string_equal(d.metrics[1].unit, "s");
	assert_true(d.metrics[1].values.v[1] == 5);
	assert_null(pr_dataset_find(&d, "mon.b"));
	assert_non_null(pr_dataset_find(&d, "mon.c"));
	assert_int_equal(pr_monitor_keep_complete(&d, 2, &err), PR_OK);
	assert_int_equal(d.n, 2);
	assert_int_equal(pr_monitor_keep_complete(&d, 3, &err), PR_OK);
	assert_int_equal(d.n, 0);
	pr_dataset_release(&d);
	/* The sample time is not a system-wide counter. */
	assert_false(pr_monitor_is_rate(PR_MON_WALL));
	assert_true(pr_monitor_is_rate("mon.stat.ctxt"));
}

/* The runner's hook: every run, warm-ups included, gets its figures,
 * kept apart from its metrics. */
static void
test_runner_hook(void **state)
{
	struct pr_session s;
	struct pr_runner_opts o;
	struct pr_monitor *m;
	struct pr_error err;
	size_t i;

	(void)state;
	assert_int_equal(pr_monitor_new(PR_MON_STAT | PR_MON_PERF, NULL, &m,
			     &err),
	    PR_OK);
	pr_session_init(&s);
	assert_int_equal(pr_session_add_variant(&s, "a", "true", 0, NULL, NULL,
			     NULL, &err),
	    PR_OK);
	pr_runner_opts_init(&o);
	o.runs = 3;
	o.monitor = m;
	assert_int_equal(pr_session_run(&s, &o, &err), PR_OK);
	assert_int_equal(s.nruns, 4);
	for (i = 0; i < s.nruns; i++) {
		assert_non_null(
		    pr_dataset_find(&s.runs[i].monitors, "mon.stat.ctxt"));
		assert_null(
		    pr_dataset_find(&s.runs[i].metrics, "mon.stat.ctxt"));
	}
	assert_null(pr_dataset_find(&s.v[0].data, "mon.stat.ctxt"));
	pr_session_release(&s);
	pr_monitor_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat),
		cmocka_unit_test(test_softirqs),
		cmocka_unit_test(test_interrupts),
		cmocka_unit_test(test_stat_intr),
		cmocka_unit_test(test_vmstat_schedstat),
		cmocka_unit_test(test_cut_and_damaged),
		cmocka_unit_test(test_names_and_delta),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_missing_proc),
		cmocka_unit_test(test_session_vmstat),
		cmocka_unit_test(test_perf),
		cmocka_unit_test(test_perf_figure),
		cmocka_unit_test(test_runner_hook),
		cmocka_unit_test(test_suite_monitors),
		cmocka_unit_test(test_keep_complete),
		cmocka_unit_test(test_perf_self),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
