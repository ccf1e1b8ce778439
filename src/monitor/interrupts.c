/*
 * monitor/interrupts.c - Linux's /proc/interrupts: after the header of
 * CPU names, one line per interrupt source, "LABEL:" and a count per
 * CPU, then for a numbered line its chip, hardware IRQ, trigger and
 * action names ("ehci_hcd:usb1, i801_smbus"), for a named line (LOC,
 * RES, CAL, TLB, NMI...) a description.  Each line gives
 * mon.irq.<name>, the counts summed over the CPUs, where the name is
 * the action names for a numbered line (the last word, with those
 * before it that end in ',', joined by '+': a shared line keeps all its
 * actions) and
 * the label for a named one.  Two numbered lines with the same action
 * (a device's several queues share none, but MSI vectors may) are kept
 * apart by the IRQ number appended.  Lines of other forms are skipped.
 * The figures are system-wide.
 *
 * Generating /proc/interrupts costs the kernel 50 to 130 us on a small
 * VM, too much to read twice around every run of a 10 ms command, so
 * the default source reads it once, for the names of the numbered
 * lines (pr_mon_irqnames_parse), and takes each run's counts from the
 * "intr" line of /proc/stat, which the kernel writes for ten times
 * less: its first number is the total, then one count per IRQ number,
 * summed over the CPUs (pr_mon_parse_stat_intr).  What the total has
 * beyond the numbered lines is the CPU-local interrupts (LOC, RES,
 * CAL, TLB, ...), one figure, mon.irq.cpu_local; the "interrupts-full"
 * source reads /proc/interrupts itself every run for their split.
 */
#include <stdlib.h>
#include <string.h>

#include "monitor/internal.h"
#include "perfreg/monitor.h"

#include "core/banned.h"

#define WORDS_MAX 64

static int
numbered(const char *ws, const char *we)
{
	for (; ws < we; ws++)
		if (*ws < '0' || *ws > '9')
			return 0;
	return 1;
}

/* Does the word [ws, we) end in ','? */
static int
comma(const char *ws, const char *we)
{
	return we > ws && *(we - 1) == ',';
}

/* Records the IRQ number [ws, we) of the line whose figure comes next. */
static enum pr_status
add_irq(struct pr_mon_irqnames *n, const char *ws, const char *we,
    struct pr_error *err)
{
	double v;

	if (n->names.n >= n->cap) {
		size_t cap = n->cap ? 2 * n->cap : 64;
		unsigned long *irq = realloc(n->irq, cap * sizeof(*irq));

		if (irq == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		n->irq = irq;
		n->cap = cap;
	}
	n->irq[n->names.n] = pr_mon_uint(ws, we, &v) && v < 1e9
	    ? (unsigned long)v
	    : (unsigned long)-1;
	return PR_OK;
}

static int
seen(const struct pr_mon_snap *out, size_t from, const char *name, size_t len)
{
	size_t i, pl = strlen(PR_MON_PREFIX "irq.");

	for (i = from; i < out->n; i++)
		if (strlen(out->v[i].name) == pl + len &&
		    memcmp(out->v[i].name + pl, name, len) == 0)
			return 1;
	return 0;
}

/*
 * The parser of both: every line into out, or with names != NULL only
 * the numbered lines, each with its IRQ number in names->irq.
 */
static enum pr_status
parse(const char *buf, size_t len, struct pr_mon_snap *out,
    struct pr_mon_irqnames *names, struct pr_error *err)
{
	const char *ls, *le, *p, *ws, *we, *vs, *ve;
	const char *w[WORDS_MAX][2];
	char name[PR_MON_NAME_MAX];
	size_t pos = 0, ncpu = 0, n, nw, k, nl, from = out->n;
	double v, sum;
	enum pr_status st;

	if (pr_mon_line(buf, len, &pos, &ls, &le))
		for (p = ls; pr_mon_word(&p, le, &ws, &we);)
			ncpu += we - ws > 3 && memcmp(ws, "CPU", 3) == 0;
	if (ncpu == 0)
		return PR_OK;
	while (pr_mon_line(buf, len, &pos, &ls, &le)) {
		p = ls;
		if (!pr_mon_word(&p, le, &ws, &we) || we - ws < 2 ||
		    we[-1] != ':')
			continue;
		for (sum = 0, n = 0; n < ncpu && pr_mon_word(&p, le, &vs, &ve);
		     n++) {
			if (!pr_mon_uint(vs, ve, &v)) {
				p = vs;
				break;
			}
			sum += v;
		}
		if (n == 0)
			continue;
		we--; /* the ':' */
		if (!numbered(ws, we)) {
			if (names != NULL)
				continue;
			if ((st = pr_mon_snap_add(out, "irq.", ws,
				 (size_t)(we - ws), "count", sum, 0, err)) !=
			    PR_OK)
				return st;
			continue;
		}
		for (nw = 0; nw < WORDS_MAX && pr_mon_word(&p, le, &vs, &ve);
		     nw++) {
			w[nw][0] = vs;
			w[nw][1] = ve;
		}
		if (nw == 0)
			continue;
		/* The action names: the last word, and those before it
		 * that end in ','. */
		for (k = nw - 1; k > 0 && comma(w[k - 1][0], w[k - 1][1]);)
			k--;
		nl = 0;
		for (; k < nw && nl < sizeof(name) - 1; k++) {
			size_t wl = (size_t)(w[k][1] - w[k][0]);
			int more = k + 1 < nw;

			wl -= (size_t)more; /* the ',' */
			if (wl > sizeof(name) - 1 - nl)
				wl = sizeof(name) - 1 - nl;
			memcpy(name + nl, w[k][0], wl);
			nl += wl;
			if (more && nl < sizeof(name) - 1)
				name[nl++] = '+';
		}
		if (seen(out, from, name, nl) && nl < sizeof(name) - 1) {
			size_t il = (size_t)(we - ws);

			name[nl++] = '#';
			if (il > sizeof(name) - 1 - nl)
				il = sizeof(name) - 1 - nl;
			memcpy(name + nl, ws, il);
			nl += il;
		}
		if (names != NULL &&
		    (st = add_irq(names, ws, we, err)) != PR_OK)
			return st;
		if ((st = pr_mon_snap_add(out, "irq.", name, nl, "count", sum,
			 0, err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

enum pr_status
pr_mon_parse_interrupts(const char *buf, size_t len, struct pr_mon_snap *out,
    struct pr_error *err)
{
	return parse(buf, len, out, NULL, err);
}

void
pr_mon_irqnames_init(struct pr_mon_irqnames *n)
{
	memset(n, 0, sizeof(*n));
	pr_mon_snap_init(&n->names);
}

void
pr_mon_irqnames_release(struct pr_mon_irqnames *n)
{
	pr_mon_snap_release(&n->names);
	free(n->irq);
	pr_mon_irqnames_init(n);
}

enum pr_status
pr_mon_irqnames_parse(const char *buf, size_t len, struct pr_mon_irqnames *out,
    struct pr_error *err)
{
	return parse(buf, len, &out->names, out, err);
}

enum pr_status
pr_mon_parse_stat_intr(const char *buf, size_t len,
    const struct pr_mon_irqnames *names, struct pr_mon_snap *out,
    struct pr_error *err)
{
	const char *ls, *le, *p, *ws, *we;
	size_t pos = 0, pl = strlen(PR_MON_PREFIX), j = 0;
	double total, v, sum = 0;
	unsigned long k;
	enum pr_status st;

	while (pr_mon_line(buf, len, &pos, &ls, &le)) {
		p = ls;
		if (!pr_mon_word(&p, le, &ws, &we) || we - ws != 4 ||
		    memcmp(ws, "intr", 4) != 0)
			continue;
		if (!pr_mon_word(&p, le, &ws, &we) ||
		    !pr_mon_uint(ws, we, &total))
			return PR_OK;
		for (k = 0; pr_mon_word(&p, le, &ws, &we); k++) {
			if (!pr_mon_uint(ws, we, &v))
				return PR_OK;
			sum += v;
			while (j < names->names.n && names->irq[j] < k)
				j++;
			for (; j < names->names.n && names->irq[j] == k; j++) {
				const char *nm = names->names.v[j].name + pl;

				if ((st = pr_mon_snap_add(out, "", nm,
					 strlen(nm), "count", v, 0, err)) !=
				    PR_OK)
					return st;
			}
		}
		if (total >= sum)
			return pr_mon_snap_add(out, "irq.", "cpu_local", 9,
			    "count", total - sum, 0, err);
		return PR_OK;
	}
	return PR_OK;
}
