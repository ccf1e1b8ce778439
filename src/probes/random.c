/*
 * probes/random.c - the cost in ns of one request for random bytes
 * (lower is better) per request size 16 B to 4 KiB (16, 64, 256, 512,
 * 1024, 4096; --quick: 16, 64, 512, 4096) by getrandom(2) with flags 0,
 * and by the RDRAND and RDSEED instructions (x86-64, where CPUID offers
 * them: leaf 1 ECX bit 30, leaf 7 EBX bit 18, and the operating system's
 * CPU flags do too when the caller knows them), a 64-bit word each.  Seed
 * 003 is this question: a kernel drawing 16 bytes of RDRAND instead of
 * 512 ran the machine 9.3% faster.  An instruction that returns no value
 * (carry clear) is retried after a pause up to RETRIES times (more is an
 * error); init notes the failed tries of a trial draw and refuses an
 * instruction that returns one word every time (some AMD firmware gives
 * all ones).  An instruction that gives no value in RETRIES tries while
 * sampling (RDSEED at a load of 40 on this AMD EPYC) is left out from
 * then on (PR_ENOTFOUND, perfreg/probe.h), the other variants measured
 * on; asked for by name, it is an error.  A byte of each request feeds a volatile sink.
 * Each process gives a figure its best sample (the suite's figure rule,
 * perfreg/probe.h): a request's cost is fixed work, and the slow samples
 * are other work landing on it (on four A/A sessions the best sample
 * moved 0.018 in logs between sessions, the mean 0.119).  Not
 * measured: the quality of the bytes, entropy accounting (getrandom never
 * blocks once the pool is ready, as it is after boot), /dev/random.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "perfreg/probe.h"
#include "probes/probeutil.h"
#include "core/banned.h"

enum { GETRANDOM, RDRAND, RDSEED, NVAR };
#define NSIZES 6
#define TARGET_NS 1e6
#define RETRIES 100

static const char *const variants[] = { "getrandom", "rdrand", "rdseed", NULL };
static const size_t sizes[NSIZES] = { 16, 64, 256, 512, 1024, 4096 };

struct item {
	int var;
	size_t size;
	unsigned long reps;
	double ns; /* this sample's time */
	char name[48];
};

struct rnd {
	struct item items[NVAR * NSIZES];
	size_t n;
	unsigned long fails; /* instructions that returned no value */
	unsigned long taken; /* samples */
	int by_name;         /* the variant was asked for */
	int gone[NVAR];      /* left out while sampling */
	volatile sig_atomic_t *cancel;
	struct pr_probe_pin pin;
	unsigned char buf[4096];
	volatile unsigned char sink; /* a byte of each request */
};

int (*pr_probe_random_draw)(int rdseed, unsigned long long *w);

/* Whether the CPU offers the instruction of variant v. */
static int
offered(int v)
{
#if defined(__x86_64__)
	unsigned a, b, c, d;

	if (pr_probe_random_draw != NULL)
		return 1;
	if (v == RDRAND)
		return __get_cpuid(1, &a, &b, &c, &d) && (c >> 30 & 1);
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 18 & 1);
#else
	(void)v;
	return pr_probe_random_draw != NULL;
#endif
}

/* One word from the instruction of variant v into *w: 1, 0 when it gave
 * none, -1 when there is no such instruction here. */
static int
draw(int v, unsigned long long *w)
{
	unsigned char ok = 0;

	if (pr_probe_random_draw != NULL)
		return pr_probe_random_draw(v == RDSEED, w) != 0;
#if defined(__x86_64__)
	if (v == RDRAND)
		__asm__ volatile("rdrand %0; setc %1"
				 : "=&r"(*w), "=q"(ok)
				 :
				 : "cc");
	else
		__asm__ volatile("rdseed %0; setc %1"
				 : "=&r"(*w), "=q"(ok)
				 :
				 : "cc");
	return ok != 0;
#else
	(void)v, (void)ok;
	*w = 0;
	return -1;
#endif
}

static void
pause_cpu(void)
{
#if defined(__x86_64__)
	__asm__ volatile("pause");
#endif
}

/* Fills p (n a multiple of 8) from RDRAND or RDSEED. */
static enum pr_status
hw_fill(struct rnd *r, int v, unsigned char *p, size_t n, struct pr_error *err)
{
	unsigned long long w = 0;
	size_t i;
	int t, ok = 0;

	for (i = 0; i < n; i += 8) {
		for (t = 0; t < RETRIES; t++) {
			if ((ok = draw(v, &w)) != 0)
				break;
			r->fails++;
			pause_cpu();
		}
		if (ok < 0)
			return pr_error_set(err, PR_ENOTFOUND,
			    "random: %s needs x86-64", variants[v]);
		if (!ok)
			return pr_error_set(err, PR_EIO,
			    "random: %s gave no "
			    "value in %d tries",
			    variants[v], RETRIES);
		memcpy(p + i, &w, 8);
	}
	return PR_OK;
}

static enum pr_status
timed(struct rnd *r, const struct item *it, unsigned long reps, double *ns,
    struct pr_error *err)
{
	struct timespec t0, t1;
	enum pr_status st;
	unsigned long k;
	size_t got;
	ssize_t n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; k < reps; k++) {
		if (it->var != GETRANDOM) {
			if ((st = hw_fill(r, it->var, r->buf, it->size, err)))
				return st;
			continue;
		}
		for (got = 0; got<it->size; got += n> 0 ? (size_t)n : 0)
			if ((n = getrandom(r->buf + got, it->size - got, 0)) <
				0 &&
			    errno != EINTR)
				return pr_error_set(err, PR_EIO,
				    "random: "
				    "getrandom: %s",
				    strerror(errno));
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*ns = pr_probe_ns_between(&t0, &t1);
	r->sink ^= r->buf[it->size - 1];
	return PR_OK;
}

/* Whether the instruction of variant v gives varying words; notes the
 * failed tries of a trial draw of 4 KiB. */
static enum pr_status
sane(struct rnd *r, int v, struct pr_buf *notes, struct pr_error *err)
{
	uint64_t w[8];
	enum pr_status st;
	int k;

	r->fails = 0;
	/*
	 * An instruction the CPUID bit offers may still give nothing: the
	 * kernel hides RDSEED on AMD CPUs with its erratum (no "rdseed" in
	 * /proc/cpuinfo) while CPUID still sets the bit, and valgrind's
	 * emulation always fails it there.  At set-up that is "not usable
	 * here" (left out unless asked for), not a failure of the suite.
	 */
	if ((st = hw_fill(r, v, r->buf, sizeof(r->buf), err)) == PR_EIO)
		return pr_error_set(err, PR_ENOTFOUND,
		    "random: %s gave no value in %d tries at set-up: "
		    "unusable on this CPU",
		    variants[v], RETRIES);
	if (st != PR_OK)
		return st;
	memcpy(w, r->buf, sizeof(w));
	for (k = 1; k < 8 && w[k] == w[0]; k++)
		;
	if (k == 8)
		return pr_error_set(err, PR_ENOTFOUND,
		    "random: %s returns "
		    "the constant 0x%016llx: broken, not measured",
		    variants[v], (unsigned long long)w[0]);
	pr_buf_addf(notes, NULL,
	    "random: %s: %lu of %zu tries gave no value "
	    "(carry clear) and were retried\n",
	    variants[v], r->fails, sizeof(r->buf) / 8 + r->fails);
	return PR_OK;
}

static void
fini(void *state)
{
	struct rnd *r = state;

	if (r == NULL)
		return;
	pr_probe_unpin(&r->pin);
	free(r);
}

static enum pr_status
setup(struct rnd *r, const struct pr_probe_opts *o, struct pr_buf *notes,
    struct pr_error *err)
{
	int v, found = o->variant == NULL;
	enum pr_status st = PR_OK;
	char p[32];
	size_t i;

	if ((st = pr_probe_pin(&r->pin, "random", o->cpu, err)) != PR_OK)
		return st;
	for (v = 0; v < NVAR; v++) {
		if (o->variant != NULL && strcmp(o->variant, variants[v]) != 0)
			continue;
		found = 1;
		if (v != GETRANDOM && !offered(v))
			st = pr_error_set(err, PR_ENOTFOUND,
			    "random: %s: not "
			    "offered by this CPU",
			    variants[v]);
		else if (v != GETRANDOM &&
		    !pr_probe_os_has(o->cpu_flags, variants[v]))
			st = pr_error_set(err, PR_ENOTFOUND,
			    "random: %s: offered by CPUID but not by the "
			    "operating system (not among its CPU flags: the "
			    "kernel hides it)",
			    variants[v]);
		else if (v != GETRANDOM)
			st = sane(r, v, notes, err);
		if (st != PR_OK && (o->variant != NULL || st != PR_ENOTFOUND))
			return st;
		if (st != PR_OK) {
			pr_buf_addf(notes, NULL, "%s, left out\n", err->msg);
			st = PR_OK;
			continue;
		}
		for (i = 0; i < NSIZES; i++) {
			struct item *it = &r->items[r->n];

			snprintf(p, sizeof(p), "%zuB", sizes[i]);
			if (o->param != NULL ? strcmp(o->param, p) != 0
					     : o->quick && (i == 2 || i == 4))
				continue;
			*it = (struct item){ v, sizes[i], 0, 0, "" };
			snprintf(it->name, sizeof(it->name), "random%s%s%s%s",
			    o->variant ? "" : ".",
			    o->variant ? "" : variants[v], o->param ? "" : ".",
			    o->param ? "" : p);
			r->n++;
		}
	}
	if (!found || r->n == 0)
		return pr_error_set(err, PR_ENOTFOUND,
		    found
			? "random: no "
			  "size '%s' (16B, 64B, 256B, 512B, 1024B, 4096B)"
			: "random: no variant '%s' (getrandom, rdrand, rdseed)",
		    found ? o->param : o->variant);
	for (i = 0; i < r->n && st == PR_OK; i++) {
		unsigned long reps = 1;
		double ns;

		while ((st = timed(r, &r->items[i], reps, &ns, err)) == PR_OK &&
		    ns < TARGET_NS && reps < (1UL << 30))
			reps = ns < TARGET_NS / 64
			    ? reps * 64
			    : (unsigned long)((double)reps * TARGET_NS * 1.2 /
				  ns) +
				1;
		r->items[i].reps = reps;
	}
	return st;
}

static enum pr_status
init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	struct pr_buf scratch = PR_BUF_INIT(4096);
	struct pr_error e2;
	struct rnd *r;
	enum pr_status st;

	*state = NULL;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	r->cancel = o->cancel;
	r->by_name = o->variant != NULL;
	st = setup(r, o, notes != NULL ? notes : &scratch,
	    err != NULL ? err : &e2);
	pr_buf_release(&scratch);
	if (st != PR_OK)
		fini(r);
	else
		*state = r;
	return st;
}

/*
 * A sample: every item timed first, then added.  An instruction that
 * gives nothing now is left out from here on, unless it was asked for
 * by name; the others go on.  It is left out of this sample whole, its
 * sizes timed before the failure too, so that each of its figures has
 * one value fewer than the samples and all of them go (a variant's
 * figures are all kept or all dropped).  Every instruction that failed
 * in the sample is named, once.
 */
static enum pr_status
sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct rnd *r = state;
	enum pr_status st = PR_OK;
	struct item *it;
	char names[64] = "";
	unsigned gone = 0;
	int v;

	r->taken++;
	for (it = r->items; it < r->items + r->n && st == PR_OK; it++) {
		if (r->cancel != NULL && *r->cancel)
			return pr_error_set(err, PR_EINVAL, "interrupted");
		if (r->gone[it->var])
			continue;
		st = timed(r, it, it->reps, &it->ns, err);
		if (st == PR_EIO && it->var != GETRANDOM && !r->by_name) {
			r->gone[it->var] = 1;
			gone |= 1U << it->var;
			st = PR_OK;
		}
	}
	for (it = r->items; it < r->items + r->n && st == PR_OK; it++)
		if (!r->gone[it->var])
			st = pr_dataset_add(out, it->name, "ns/request",
			    PR_BETTER_LOWER,
			    (it->ns > 0 ? it->ns : 1) / (double)it->reps, err);
	if (st != PR_OK || gone == 0)
		return st;
	for (v = 0; v < NVAR; v++)
		if (gone >> v & 1)
			snprintf(names + strlen(names),
			    sizeof(names) - strlen(names), "%s%s",
			    names[0] != '\0' ? " and " : "", variants[v]);
	return pr_error_set(err, PR_ENOTFOUND,
	    "random: %s gave no value in %d tries at sample %lu, left out "
	    "from then on",
	    names, RETRIES, r->taken);
}

const struct pr_probe pr_probe_random = {
	"random",
	"ns per request of random bytes: getrandom(2), RDRAND, RDSEED",
	"clock_gettime(CLOCK_MONOTONIC)",
	variants,
	init,
	sample,
	fini,
	PR_PROBE_FIGURE_BEST,
};
