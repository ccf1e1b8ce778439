/*
 * probes/copy.c - memory copy MB/s (10^6 B/s, higher is better) for 64 B
 * to 64 MiB in powers of 4 (--quick: to 4 MiB in powers of 16) by libc's
 * memcpy (through a volatile pointer: no inline copy); `rep movsb`
 * (x86-64; notes say whether the CPU has ERMS and FSRM); a loop of 8-byte
 * words (an empty asm on each keeps it scalar, memcpy-free); read() from
 * a pipe fed by a thread (the kernel's copyout, seed 001's slow ERMS
 * path) and from /dev/zero (clear_user: zeroing, no source), N bytes by
 * read() calls until N arrived.  Buffers are distinct, page-aligned and
 * touched first; init checks that each copy variant copies every size
 * exactly; results feed a volatile sink; each metric times the repetitions
 * (found in init) that take 1 ms.  Not measured: unaligned or overlapping
 * copies, cold caches (sizes that fit a cache are copied warm), copyin.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "perfreg/probe.h"
#include "probes/probeutil.h"
#if defined(__x86_64__)
#include <cpuid.h>
#define X86 1
#define CPUID7(b, d) \
	__get_cpuid_count(7, 0, &(unsigned){ 0 }, (b), &(unsigned){ 0 }, (d))
#else
#define X86 0
#define CPUID7(b, d) 0
#define copy_movsb memcpy /* never called: init refuses rep-movsb */
#endif
#include "core/banned.h"

enum { MEMCPY, MOVSB, LOOP, PIPE, DEVZERO, NVAR };
#define NSIZES 11     /* 64 B * 4^i, i < NSIZES: up to 64 MiB */
#define TARGET_NS 1e6 /* each timed run takes about this long */

static const char *const variants[] = { "memcpy", "rep-movsb", "loop",
	"pipe-read", "devzero-read", NULL };

struct item {
	int var;
	size_t size;
	unsigned long reps;
	char name[48];
};

struct copy {
	struct item items[NVAR * NSIZES];
	size_t n, max;
	unsigned char *src, *dst;
	volatile sig_atomic_t *cancel;
	int pfd[2], zfd, feeding;
	pthread_t feeder;
	struct pr_probe_pin pin;
	volatile unsigned char sink; /* a byte of each result */
};

#if defined(__x86_64__)
static void *
copy_movsb(void *d, const void *s, size_t n)
{
	void *r = d;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
	return r;
}
#endif

static void *
copy_loop(void *d, const void *s, size_t n)
{
	uint64_t *dw = d;
	const uint64_t *sw = s;
	size_t i;

	for (i = 0; i < n / 8; i++) {
		uint64_t w = sw[i];

		/* Through a register the compiler cannot see into. */
		__asm__("" : "+r"(w));
		dw[i] = w;
	}
	return d;
}

static void *(*volatile copy_fns[])(void *, const void *, size_t) = { memcpy,
	copy_movsb, copy_loop };

static enum pr_status
timed(struct copy *c, const struct item *it, unsigned long reps, double *ns,
    struct pr_error *err)
{
	int fd = it->var == PIPE ? c->pfd[0] : c->zfd;
	struct timespec t0, t1;
	unsigned long r;
	size_t got;
	ssize_t n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (r = 0; r < reps; r++) {
		if (it->var < PIPE)
			copy_fns[it->var](c->dst, c->src, it->size);
		else
			for (got = 0; got<it->size; got += n> 0 ? (size_t)n : 0)
				if ((n = read(fd, c->dst + got,
					 it->size - got)) == 0 ||
				    (n < 0 && errno != EINTR))
					return pr_error_set(err, PR_EIO,
					    "copy: %s: %s", variants[it->var],
					    n == 0 ? "end of file"
						   : strerror(errno));
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*ns = pr_probe_ns_between(&t0, &t1);
	c->sink ^= c->dst[it->size - 1];
	return PR_OK;
}

/* The pipe's writer, until fini cancels it in write(). */
static void *
feed(void *arg)
{
	struct copy *c = arg;

	while (write(c->pfd[1], c->src, 65536) > 0 || errno == EINTR)
		;
	return NULL;
}

static void
fini(void *state)
{
	struct copy *c = state;

	if (c == NULL)
		return;
	if (c->feeding && pthread_cancel(c->feeder) == 0)
		pthread_join(c->feeder, NULL);
	close(c->pfd[0]);
	close(c->pfd[1]);
	close(c->zfd);
	pr_probe_unpin(&c->pin);
	free(c->src);
	free(c->dst);
	free(c);
}

/* Chooses the variants and sizes, allocates, starts the writer, pins. */
static enum pr_status
setup(struct copy *c, const struct pr_probe_opts *o, struct pr_buf *notes,
    struct pr_error *err)
{
	int v, found = o->variant == NULL, pipes = 0;
	unsigned b = 0, d = 0;
	enum pr_status st;
	struct item *it;
	size_t i, size;
	double ns;
	char p[32];

	for (v = 0; v < NVAR; v++) {
		if (o->variant != NULL && strcmp(o->variant, variants[v]) != 0)
			continue;
		found = 1;
		if (v == MOVSB && !X86) {
			if (o->variant != NULL)
				return pr_error_set(err, PR_ENOTFOUND,
				    "copy: "
				    "rep-movsb needs x86-64");
			pr_buf_adds(notes,
			    "copy: rep-movsb: not x86-64, left "
			    "out\n",
			    NULL);
			continue;
		}
		if (v == MOVSB && CPUID7(&b, &d))
			pr_buf_addf(notes, NULL,
			    "copy: rep-movsb: CPU has %s, "
			    "%s\n",
			    (b >> 9 & 1) ? "ERMS" : "no ERMS",
			    (d >> 4 & 1) ? "FSRM" : "no FSRM");
		for (i = 0, size = 64; i < NSIZES; i++, size *= 4) {
			it = &c->items[c->n];
			snprintf(p, sizeof(p), "%zuB", size);
			if (o->param != NULL
				? strcmp(o->param, p) != 0
				: o->quick && (i % 2 != 0 || i > 8))
				continue;
			*it = (struct item){ v, size, 0, "" };
			snprintf(it->name, sizeof(it->name), "copy%s%s%s%s",
			    o->variant ? "" : ".",
			    o->variant ? "" : variants[v], o->param ? "" : ".",
			    o->param ? "" : p);
			c->max = size > c->max ? size : c->max;
			pipes |= v == PIPE;
			c->n++;
		}
	}
	if (!found || c->n == 0)
		return pr_error_set(err, PR_ENOTFOUND,
		    found
			? "copy: no size "
			  "'%s' (64B, 256B, ... 67108864B)"
			: "copy: no variant '%s' "
			  "(memcpy, rep-movsb, loop, pipe-read, devzero-read)",
		    found ? o->param : o->variant);
	if (posix_memalign((void **)&c->src, 4096, c->max) != 0 ||
	    posix_memalign((void **)&c->dst, 4096, c->max) != 0)
		return pr_error_set(err, PR_ENOMEM,
		    "copy: out of memory (2 x "
		    "%zu B)",
		    c->max);
	for (i = 0; i < c->max; i++)
		c->src[i] = (unsigned char)(i * 131 + 7);
	pr_buf_adds(notes, "copy: buffers distinct, page-aligned\n", NULL);
	if ((c->zfd = open("/dev/zero", O_RDONLY | O_CLOEXEC)) < 0)
		return pr_error_set(err, PR_EIO, "copy: /dev/zero: %s",
		    strerror(errno));
	/* The writer starts before pinning, so that it is never pinned. */
	if (pipes &&
	    (pipe2(c->pfd, O_CLOEXEC) != 0 ||
		pthread_create(&c->feeder, NULL, feed, c) != 0))
		return pr_error_set(err, PR_EIO,
		    "copy: cannot start a pipe "
		    "and its writer thread");
	if ((c->feeding = pipes) != 0)
		pr_buf_addf(notes, NULL,
		    "copy: pipe-read: a %d B pipe, its "
		    "writer unpinned\n",
		    fcntl(c->pfd[0], F_GETPIPE_SZ));
	if ((st = pr_probe_pin(&c->pin, "copy", o->cpu, err)) != PR_OK)
		return st;
	/* One checked copy (a wrong copy is a bug), then reps for 1 ms. */
	for (it = c->items, st = PR_OK; it < c->items + c->n && st == PR_OK;
	     it++) {
		memset(c->dst, it->var == DEVZERO ? 0xa5 : 0, it->size);
		if ((st = timed(c, it, 1, &ns, err)) != PR_OK)
			break;
		if (it->var == DEVZERO ? c->dst[0] != 0 ||
			    memcmp(c->dst, c->dst + 1, it->size - 1) != 0
				       : it->var != PIPE &&
			    memcmp(c->dst, c->src, it->size) != 0)
			return pr_error_set(err, PR_EIO,
			    "copy: %s of %zu B "
			    "gave wrong data",
			    variants[it->var], it->size);
		for (it->reps = 1;
		     (st = timed(c, it, it->reps, &ns, err)) == PR_OK &&
		     ns < TARGET_NS && it->reps < (1UL << 30);)
			it->reps = ns < TARGET_NS / 64
			    ? it->reps * 64
			    : (unsigned long)((double)it->reps * TARGET_NS *
				  1.2 / ns) +
				1;
	}
	return st;
}

static enum pr_status
init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	struct pr_buf scratch = PR_BUF_INIT(4096);
	enum pr_status st;
	struct copy *c;

	if ((*state = c = calloc(1, sizeof(*c))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	c->pfd[0] = c->pfd[1] = c->zfd = -1;
	c->cancel = o->cancel;
	st = setup(c, o, notes != NULL ? notes : &scratch, err);
	pr_buf_release(&scratch);
	if (st != PR_OK) {
		fini(c);
		*state = NULL;
	}
	return st;
}

static enum pr_status
sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct copy *c = state;
	enum pr_status st = PR_OK;
	struct item *it;
	double ns;

	for (it = c->items; it < c->items + c->n && st == PR_OK; it++) {
		if (c->cancel != NULL && *c->cancel)
			return pr_error_set(err, PR_EINVAL, "interrupted");
		if ((st = timed(c, it, it->reps, &ns, err)) == PR_OK)
			st = pr_dataset_add(out, it->name, "MB/s",
			    PR_BETTER_HIGHER,
			    (double)it->size * (double)it->reps * 1e3 /
				(ns > 0 ? ns : 1),
			    err);
	}
	return st;
}

const struct pr_probe pr_probe_copy = {
	"copy",
	"memory copy MB/s: memcpy, rep movsb, loop, pipe, /dev/zero read()",
	"clock_gettime(CLOCK_MONOTONIC)",
	variants,
	init,
	sample,
	fini,
	PR_PROBE_FIGURE_BEST,
};
