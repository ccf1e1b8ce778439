/*
 * probes/fault.c - the cost of first touching fresh anonymous memory, in
 * ns per 4 KiB page of memory (lower is better): map a region, write one
 * byte in every 4 KiB page, unmap; only the writes are timed.  Variant
 * "4k" asks for small pages (MADV_NOHUGEPAGE, so that THP "always" does
 * not change it); "thp" maps a 2 MiB-aligned region with MADV_HUGEPAGE,
 * where one fault fills a whole 2 MiB page, and is reported per 4 KiB
 * too, so that the two compare directly (`suite ab fault --a 4k --b
 * thp`).  The notes give the THP mode and defrag setting (/sys/kernel/mm/
 * transparent_hugepage) and how much of a 32 MiB trial touch the kernel
 * really put in huge pages (AnonHugePages of the region in /proc/self/
 * smaps): a thp variant that got small pages says so.  THP "never" leaves
 * it out.  Init doubles each variant's region from 2 MiB until faulting
 * it takes 5 ms (at most 32 MiB), and the notes give the size.
 *
 * Deliberately not measured: unmapping, faults on file-backed or shared
 * memory, reads of untouched pages (they map the shared zero page), NUMA
 * placement, khugepaged's later collapsing, and whether each sample (not
 * only the trial) got huge pages.  In a virtual machine a first touch
 * may include the host's cost of backing the guest's page.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "perfreg/probe.h"
#include "probes/probeutil.h"
#include "core/banned.h"

enum { SMALL, HUGE, NVAR };
#define REGION_MAX ((size_t)32 << 20)
#define TARGET_NS 5e6 /* a region is doubled until it takes this long */
#define HUGE_SIZE ((size_t)2 << 20)
#define PAGE 4096
#define THP_DIR "/sys/kernel/mm/transparent_hugepage/"

static const char *const variants[] = { "4k", "thp", NULL };

struct fault {
	int var[NVAR];
	size_t region[NVAR]; /* bytes faulted a sample, 2 to 32 MiB */
	size_t n;
	int named; /* variant part in the names (no variant selected) */
	volatile sig_atomic_t *cancel;
	struct pr_probe_pin pin;
};

/* The bracketed word of a THP setting ("always [madvise] never"). */
static void
thp_setting(const char *file, char *out, size_t size)
{
	char line[256] = "", *a, *b;
	FILE *f;

	snprintf(out, size, "unknown");
	if ((f = fopen(file, "re")) == NULL)
		return;
	if (fgets(line, sizeof(line), f) != NULL &&
	    (a = strchr(line, '[')) != NULL && (b = strchr(a, ']')) != NULL)
		snprintf(out, size, "%.*s", (int)(b - a - 1), a + 1);
	fclose(f);
}

/* AnonHugePages in kB of the mapping holding addr, or -1. */
static long
huge_kb(uintptr_t addr)
{
	unsigned long lo, hi;
	char *line = NULL;
	size_t cap = 0;
	long kb = -1;
	int in = 0;
	FILE *f;

	if ((f = fopen("/proc/self/smaps", "re")) == NULL)
		return -1;
	/* NOLINTBEGIN(cert-err34-c): the kernel's own numbers, in range */
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = lo <= addr && addr < hi;
		else if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	/* NOLINTEND(cert-err34-c) */
	free(line);
	fclose(f);
	return kb;
}

/* Maps, advises and touches one region; *ns is the touching time, and
 * *kb (when not NULL) what smaps says went into huge pages. */
static enum pr_status
touch(int var, size_t size, double *ns, long *kb, struct pr_error *err)
{
	size_t len = size + (var == HUGE ? HUGE_SIZE : 0), i;
	unsigned char *m, *p;
	double t0;

	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (m == MAP_FAILED)
		return pr_error_set(err, PR_EIO, "fault: mmap of %zu bytes: %s",
		    len, strerror(errno));
	p = var == SMALL ? m
			 : (unsigned char *)(((uintptr_t)m + HUGE_SIZE - 1) &
			       ~(uintptr_t)(HUGE_SIZE - 1));
	if (madvise(p, size, var == SMALL ? MADV_NOHUGEPAGE : MADV_HUGEPAGE) !=
		0 &&
	    var == HUGE) {
		pr_error_set(err, PR_EIO, "fault: madvise(MADV_HUGEPAGE): %s",
		    strerror(errno));
		munmap(m, len);
		return PR_EIO;
	}
	t0 = pr_probe_now_ns();
	for (i = 0; i < size; i += PAGE)
		((volatile unsigned char *)p)[i] = 1;
	*ns = (double)(pr_probe_now_ns() - t0);
	if (kb != NULL)
		*kb = huge_kb((uintptr_t)p);
	munmap(m, len);
	return PR_OK;
}

static void
fini(void *state)
{
	struct fault *f = state;

	if (f == NULL)
		return;
	pr_probe_unpin(&f->pin);
	free(f);
}

/* Whether THP can be had; notes the mode and a trial touch. */
static enum pr_status
thp_check(struct pr_buf *notes, struct pr_error *err)
{
	char mode[32], defrag[32];
	enum pr_status st;
	long kb;
	double ns;

	thp_setting(THP_DIR "enabled", mode, sizeof(mode));
	thp_setting(THP_DIR "defrag", defrag, sizeof(defrag));
	if (strcmp(mode, "never") == 0 || strcmp(mode, "unknown") == 0)
		return pr_error_set(err, PR_ENOTFOUND,
		    "fault: thp: "
		    "transparent huge pages are %s",
		    mode[0] == 'n' ? "off (never)"
				   : "not in this kernel (" THP_DIR " absent)");
	if ((st = touch(HUGE, REGION_MAX, &ns, &kb, err)) != PR_OK)
		return st;
	if (kb < 0)
		pr_buf_addf(notes, NULL,
		    "fault: thp: THP '%s', defrag '%s'; "
		    "AnonHugePages unreadable in /proc/self/smaps: whether "
		    "the thp figures are of huge pages is unknown\n",
		    mode, defrag);
	else
		pr_buf_addf(notes, NULL,
		    "fault: thp: THP '%s', defrag '%s'; "
		    "a trial touch got %ld of %zu kB in huge pages%s\n",
		    mode, defrag, kb, REGION_MAX / 1024,
		    kb == 0 ? ": the thp "
			      "figures are of small pages"
			: (size_t)kb < REGION_MAX / 1024
			? ": the thp figures mix page sizes"
			: "");
	return PR_OK;
}

static enum pr_status
init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	struct pr_buf scratch = PR_BUF_INIT(4096);
	struct pr_error e2;
	enum pr_status st = PR_OK;
	struct fault *f;
	double ns;
	int v;

	*state = NULL;
	for (v = 0; o->variant != NULL && v < NVAR; v++)
		if (strcmp(o->variant, variants[v]) == 0)
			break;
	if (v == NVAR)
		return pr_error_set(err, PR_ENOTFOUND,
		    "fault: no variant "
		    "'%s' (4k, thp)",
		    o->variant);
	if (o->param != NULL)
		return pr_error_set(err, PR_ENOTFOUND,
		    "fault: no parameter "
		    "'%s' (its metrics have none)",
		    o->param);
	if ((f = calloc(1, sizeof(*f))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	f->cancel = o->cancel;
	f->named = o->variant == NULL;
	notes = notes != NULL ? notes : &scratch;
	err = err != NULL ? err : &e2;
	st = pr_probe_pin(&f->pin, "fault", o->cpu, err);
	for (v = 0; v < NVAR && st == PR_OK; v++) {
		if (o->variant != NULL && strcmp(o->variant, variants[v]) != 0)
			continue;
		if (v == HUGE && (st = thp_check(notes, err)) == PR_ENOTFOUND &&
		    o->variant == NULL) {
			pr_buf_addf(notes, NULL, "%s, left out\n", err->msg);
			st = PR_OK;
			continue;
		}
		f->var[f->n] = v;
		f->region[f->n] = HUGE_SIZE;
		while (st == PR_OK &&
		    (st = touch(v, f->region[f->n], &ns, NULL, err)) == PR_OK &&
		    ns < TARGET_NS && f->region[f->n] < REGION_MAX)
			f->region[f->n] *= 2;
		pr_buf_addf(notes, NULL, "fault: %s: %zu MiB a sample\n",
		    variants[v], f->region[f->n++] >> 20);
	}
	pr_buf_release(&scratch);
	if (st != PR_OK) {
		fini(f);
		return st;
	}
	*state = f;
	return PR_OK;
}

static enum pr_status
sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct fault *f = state;
	char name[32];
	enum pr_status st;
	double ns;
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->cancel != NULL && *f->cancel)
			return pr_error_set(err, PR_EINVAL, "interrupted");
		if ((st = touch(f->var[i], f->region[i], &ns, NULL, err)))
			return st;
		snprintf(name, sizeof(name), "fault%s%s", f->named ? "." : "",
		    f->named ? variants[f->var[i]] : "");
		st = pr_dataset_add(out, name, "ns/page", PR_BETTER_LOWER,
		    /* NOLINTNEXTLINE(bugprone-integer-division): whole pages */
		    (ns > 0 ? ns : 1) / (double)(f->region[i] / PAGE), err);
		if (st != PR_OK)
			return st;
	}
	return PR_OK;
}

const struct pr_probe pr_probe_fault = {
	"fault",
	"ns per 4 KiB of first-touched anonymous memory, small pages and THP",
	"clock_gettime(CLOCK_MONOTONIC)",
	variants,
	init,
	sample,
	fini,
	PR_PROBE_FIGURE_BEST,
};
