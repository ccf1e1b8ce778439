/*
 * tests/fuzz/fuzz_monitor.c - libFuzzer target for one reader of
 * /proc of the monitors (perfreg/monitor.h), chosen at build time by
 * FUZZ_READER: stat, softirqs, interrupts, vmstat or schedstat
 * (fuzz_monitor_<reader>).  The input is the file's text; the reader
 * must succeed (only memory can fail it) and give finite figures whose
 * names start with "mon." and hold no control character or blank.  The
 * stat target runs the intr line's reader too (with IRQs 0, 1 and 41
 * named), the interrupts target the reader of the lines' names.
 * scripts/fuzz.sh builds and runs them (seeds: tests/data/proc).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/monitor.h"

#ifndef FUZZ_READER
#error "FUZZ_READER must name a reader"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct pr_mon_irqnames names;
	struct pr_mon_snap s;
	struct pr_error err;
	enum pr_status st;
	size_t i, j;

	pr_mon_snap_init(&s);
	pr_mon_irqnames_init(&names);
	if (strcmp(FUZZ_READER, "stat") == 0) {
		static const char irqs[] =
		    "  CPU0\n 0: 1 a\n 1: 2 b\n41: 3 c\n";

		if (pr_mon_irqnames_parse(irqs, sizeof(irqs) - 1, &names,
			&err) != PR_OK ||
		    names.names.n != 3)
			abort();
		st = pr_mon_parse_stat(buf, size, 100, &s, &err);
		if (st == PR_OK)
			st =
			    pr_mon_parse_stat_intr(buf, size, &names, &s, &err);
	} else if (strcmp(FUZZ_READER, "softirqs") == 0) {
		st = pr_mon_parse_softirqs(buf, size, &s, &err);
	} else if (strcmp(FUZZ_READER, "interrupts") == 0) {
		st = pr_mon_parse_interrupts(buf, size, &s, &err);
		if (st == PR_OK)
			st = pr_mon_irqnames_parse(buf, size, &names, &err);
		for (i = 0; st == PR_OK && i < names.names.n; i++)
			if (strncmp(names.names.v[i].name, "mon.irq.", 8) != 0)
				abort();
	} else if (strcmp(FUZZ_READER, "vmstat") == 0) {
		/* The default set's lines and then the whole file. */
		st = pr_mon_parse_vmstat_explain(buf, size, &s, &err);
		if (st == PR_OK)
			st = pr_mon_parse_vmstat(buf, size, &s, &err);
	} else
		st = pr_mon_parse_schedstat(buf, size, &s, &err);
	if (st != PR_OK && st != PR_ELIMIT)
		abort();
	for (i = 0; i < s.n; i++) {
		if (!isfinite(s.v[i].value) ||
		    strncmp(s.v[i].name, "mon.", 4) != 0)
			abort();
		for (j = 0; s.v[i].name[j] != '\0'; j++)
			if ((unsigned char)s.v[i].name[j] <= ' ' ||
			    (unsigned char)s.v[i].name[j] >= 127)
				abort();
	}
	pr_mon_snap_release(&s);
	pr_mon_irqnames_release(&names);
	return 0;
}
