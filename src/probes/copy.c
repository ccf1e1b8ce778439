/*
 * probes/copy.c - memory copy throughput in MB/s (10^6 bytes a second,
 * higher is better) per size, 64 B to 64 MiB in powers of 4 (--quick:
 * 64 B to 4 MiB in powers of 16), by five routes: libc's memcpy (called
 * through a volatile pointer, so that the compiler cannot inline a copy
 * of its own); `rep movsb` (x86-64 only; the notes say whether the CPU
 * has ERMS and FSRM); a plain loop of 8-byte loads and stores (an empty
 * asm on each word keeps it scalar and out of memcpy's hands); and read()
 * from a pipe fed by a thread and from /dev/zero: the kernel's copy to
 * user memory (copyout), the path seed 001 found slow with ERMS.  A read
 * of size N is read() calls for the bytes still missing until N arrived.
 *
 * Source and destination are distinct page-aligned buffers, touched
 * before timing; init checks once that each copy variant copies every
 * size exactly and that /dev/zero gives zeros; a byte of each result goes
 * to a volatile sink.  Each metric times enough repetitions (calibrated
 * in init) for about a millisecond.  Deliberately not measured: unaligned
 * or overlapping copies, cold caches (a size that fits a cache is copied
 * warm, as a loop of copies sees it), copyin (write()), and the pipe's
 * wake-ups apart from its copies (the writer thread is never pinned).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "perfreg/probe.h"
#include "core/banned.h"

enum { MEMCPY, MOVSB, LOOP, PIPE, DEVZERO, NVAR };
#define NSIZES 11       /* 64 B * 4^i, i < NSIZES: up to 64 MiB */
#define TARGET_NS 1e6   /* each timed run takes about this long */
#define REPS_MAX (1UL << 30)
#define FEED_CHUNK 65536

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
	size_t n;
	unsigned char *src, *dst;
	size_t max;
	volatile sig_atomic_t *cancel;
	int pfd[2], zfd, feeding, pinned;
	cpu_set_t saved;
	pthread_t feeder;
	atomic_int stop;
};

static void *(*volatile memcpy_fn)(void *, const void *, size_t) = memcpy;
static volatile unsigned char sink;

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void
copy_libc(void *d, const void *s, size_t n)
{
	memcpy_fn(d, s, n);
}

static void
copy_movsb(void *d, const void *s, size_t n)
{
#if defined(__x86_64__)
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
#else
	(void)d, (void)s, (void)n;
#endif
}

static void
copy_loop(void *d, const void *s, size_t n)
{
	uint64_t *dw = d;
	const uint64_t *sw = s;
	size_t i;

	for (i = 0; i < n / 8; i++) {
		uint64_t w = sw[i];

		/* The word goes through a register the compiler cannot see
		 * into: no memcpy call, no vector copy. */
		__asm__("" : "+r"(w));
		dw[i] = w;
	}
}

static void (*const copy_fns[])(void *, const void *, size_t) = {
	copy_libc, copy_movsb, copy_loop
};

static enum pr_status
timed(struct copy *c, const struct item *it, unsigned long reps, double *ns,
    struct pr_error *err)
{
	int fd = it->var == PIPE ? c->pfd[0] : c->zfd;
	unsigned long r;
	size_t got;
	ssize_t n;
	double t0;

	t0 = now_ns();
	for (r = 0; r < reps; r++) {
		if (it->var < PIPE) {
			copy_fns[it->var](c->dst, c->src, it->size);
			continue;
		}
		for (got = 0; got < it->size; got += (size_t)n)
			if ((n = read(fd, c->dst + got, it->size - got)) <= 0 &&
			    (n == 0 || errno != EINTR))
				return pr_error_set(err, PR_EIO, "copy: %s: %s",
				    variants[it->var], n == 0 ? "end of file" :
				    strerror(errno));
			else if (n < 0)
				n = 0;
	}
	*ns = now_ns() - t0;
	sink ^= c->dst[it->size - 1];
	return PR_OK;
}

static void *
feed(void *arg)
{
	struct copy *c = arg;

	while (!atomic_load(&c->stop))
		if (write(c->pfd[1], c->src, FEED_CHUNK) < 0 && errno != EINTR)
			break;
	close(c->pfd[1]);
	return NULL;
}

/* Checks one copy (a variant that does not copy is a bug, not a
 * measurement), then finds the repetitions that take TARGET_NS. */
static enum pr_status
prepare(struct copy *c, struct item *it, struct pr_error *err)
{
	unsigned long reps = 1;
	enum pr_status st;
	double ns;

	memset(c->dst, it->var == DEVZERO ? 0xa5 : 0, it->size);
	if ((st = timed(c, it, 1, &ns, err)) != PR_OK)
		return st;
	if (it->var == DEVZERO ? c->dst[0] != 0 ||
	    memcmp(c->dst, c->dst + 1, it->size - 1) != 0 :
	    it->var != PIPE && memcmp(c->dst, c->src, it->size) != 0)
		return pr_error_set(err, PR_EIO, "copy: %s of %zu bytes gave "
		    "wrong data", variants[it->var], it->size);
	for (;;) {
		if ((st = timed(c, it, reps, &ns, err)) != PR_OK)
			return st;
		if (ns >= TARGET_NS || reps >= REPS_MAX)
			break;
		reps = ns < TARGET_NS / 64 ? reps * 64 :
		    (unsigned long)((double)reps * TARGET_NS * 1.2 / ns) + 1;
	}
	it->reps = reps;
	return PR_OK;
}

static void
fini(void *state)
{
	struct copy *c = state;
	unsigned char b[4096];
	ssize_t r;

	if (c == NULL)
		return;
	if (c->feeding) {
		/* Drain until the writer sees stop and closes its end. */
		atomic_store(&c->stop, 1);
		while ((r = read(c->pfd[0], b, sizeof(b))) > 0 ||
		    (r < 0 && errno == EINTR))
			;
		pthread_join(c->feeder, NULL);
	} else if (c->pfd[1] >= 0)
		close(c->pfd[1]);
	if (c->pfd[0] >= 0)
		close(c->pfd[0]);
	if (c->zfd >= 0)
		close(c->zfd);
	if (c->pinned)
		sched_setaffinity(0, sizeof(c->saved), &c->saved);
	free(c->src);
	free(c->dst);
	free(c);
}

static int
has_movsb(struct pr_buf *notes)
{
#if defined(__x86_64__)
	unsigned a, b, cx, d;

	if (!__get_cpuid_count(7, 0, &a, &b, &cx, &d))
		b = d = 0;
	pr_buf_addf(notes, NULL, "copy: rep-movsb: CPU has %s, %s\n",
	    (b >> 9 & 1) ? "ERMS" : "no ERMS", (d >> 4 & 1) ? "FSRM" : "no FSRM");
	return 1;
#else
	(void)notes;
	return 0;
#endif
}

static enum pr_status
setup(struct copy *c, const struct pr_probe_opts *o, struct pr_buf *notes,
    struct pr_error *err)
{
	int v, found = o->variant == NULL, pipes = 0;
	enum pr_status st = PR_OK;
	size_t i, size;
	cpu_set_t one;
	char p[32];

	for (v = 0; v < NVAR; v++) {
		if (o->variant != NULL && strcmp(o->variant, variants[v]) != 0)
			continue;
		found = 1;
		if (v == MOVSB && !has_movsb(notes)) {
			if (o->variant != NULL)
				return pr_error_set(err, PR_ENOTFOUND,
				    "copy: rep-movsb needs x86-64");
			pr_buf_adds(notes, "copy: rep-movsb: not x86-64, left "
			    "out\n", NULL);
			continue;
		}
		for (i = 0, size = 64; i < NSIZES; i++, size *= 4) {
			struct item *it = &c->items[c->n];

			snprintf(p, sizeof(p), "%zuB", size);
			if (o->param != NULL ? strcmp(o->param, p) != 0 :
			    o->quick && (i % 2 != 0 || i > 8))
				continue;
			it->var = v;
			it->size = size;
			snprintf(it->name, sizeof(it->name), "copy%s%s%s%s",
			    o->variant ? "" : ".", o->variant ? "" : variants[v],
			    o->param ? "" : ".", o->param ? "" : p);
			c->max = size > c->max ? size : c->max;
			pipes |= v == PIPE;
			c->n++;
		}
	}
	if (!found)
		return pr_error_set(err, PR_ENOTFOUND, "copy: no variant '%s' "
		    "(memcpy, rep-movsb, loop, pipe-read, devzero-read)",
		    o->variant);
	if (c->n == 0)
		return pr_error_set(err, PR_ENOTFOUND, "copy: no size '%s' "
		    "(64B, 256B, ... 67108864B: 64 B times a power of 4)",
		    o->param);
	if (posix_memalign((void **)&c->src, 4096, c->max) != 0 ||
	    posix_memalign((void **)&c->dst, 4096, c->max) != 0)
		return pr_error_set(err, PR_ENOMEM, "copy: out of memory for "
		    "two buffers of %zu bytes", c->max);
	for (i = 0; i < c->max; i++)
		c->src[i] = (unsigned char)(i * 131 + 7);
	memset(c->dst, 0, c->max);
	pr_buf_adds(notes, "copy: source and destination distinct, "
	    "page-aligned (4096 B)\n", NULL);
	if ((c->zfd = open("/dev/zero", O_RDONLY | O_CLOEXEC)) < 0)
		return pr_error_set(err, PR_EIO, "copy: /dev/zero: %s",
		    strerror(errno));
	/* The writer starts before pinning, so that it is never pinned. */
	if (pipes && (pipe2(c->pfd, O_CLOEXEC) != 0 ||
	    pthread_create(&c->feeder, NULL, feed, c) != 0))
		return pr_error_set(err, PR_EIO, "copy: cannot set up a pipe "
		    "and its writer thread");
	c->feeding = pipes;
	if (pipes)
		pr_buf_addf(notes, NULL, "copy: pipe-read: pipe of %d B, fed "
		    "by an unpinned thread\n", fcntl(c->pfd[0], F_GETPIPE_SZ));
	CPU_ZERO(&one);
	CPU_SET(o->cpu >= 0 ? o->cpu : 0, &one);
	if (o->cpu >= 0 && (sched_getaffinity(0, sizeof(c->saved),
	    &c->saved) != 0 || sched_setaffinity(0, sizeof(one), &one) != 0))
		return pr_error_set(err, PR_EIO, "copy: cannot pin to CPU %d: "
		    "%s", o->cpu, strerror(errno));
	c->pinned = o->cpu >= 0;
	for (i = 0; i < c->n && st == PR_OK; i++)
		st = prepare(c, &c->items[i], err);
	return st;
}

static enum pr_status
init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	struct pr_buf scratch = PR_BUF_INIT(4096);
	struct copy *c;
	enum pr_status st;

	*state = NULL;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	c->pfd[0] = c->pfd[1] = c->zfd = -1;
	c->cancel = o->cancel;
	atomic_init(&c->stop, 0);
	st = setup(c, o, notes != NULL ? notes : &scratch, err);
	pr_buf_release(&scratch);
	if (st != PR_OK)
		fini(c);
	else
		*state = c;
	return st;
}

static enum pr_status
sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct copy *c = state;
	enum pr_status st;
	struct item *it;
	double ns;
	size_t k;

	for (k = 0; k < c->n; k++) {
		if (c->cancel != NULL && *c->cancel)
			return pr_error_set(err, PR_EINVAL, "interrupted");
		it = &c->items[k];
		if ((st = timed(c, it, it->reps, &ns, err)) != PR_OK)
			return st;
		if (ns <= 0)
			ns = 1; /* below the timer's resolution */
		st = pr_dataset_add(out, it->name, "MB/s", PR_BETTER_HIGHER,
		    (double)it->size * (double)it->reps * 1e3 / ns, err);
		if (st != PR_OK)
			return st;
	}
	return PR_OK;
}

const struct pr_probe pr_probe_copy = {
	"copy",
	"memory copy MB/s: memcpy, rep movsb, word loop, pipe and /dev/zero "
	    "read()",
	"clock_gettime(CLOCK_MONOTONIC)",
	variants,
	init,
	sample,
	fini,
};
