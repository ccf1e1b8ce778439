/*
 * probes/pipe_digest.c - the pipe-digest probe: 128 MiB (32 MiB quick) of
 * zeros through a pipe into an MD5 or SHA-256 digest computed in another
 * process, the shape of seed 002's `dd if=/dev/zero bs=1048576 count=128
 * | openssl dgst -md5`.
 *
 * Each sample forks a writer (dd's part: read(2) 1 MiB from /dev/zero,
 * write(2) it, count times) while this process reads the pipe in 8 KiB,
 * the size openssl dgst reads, into EVP_DigestUpdate (openssl dgst's
 * part).  Reported: wall time from fork to the reaped writer and the final
 * digest (clock_gettime(CLOCK_MONOTONIC); s, lower), CPU time of both
 * processes (user + system, getrusage RUSAGE_SELF and RUSAGE_CHILDREN
 * deltas; s, lower) and bytes over wall time (decimal MB/s, higher).
 * Every sample checks the digest against the digest of as many zero bytes
 * computed in init (the notes show it) and fails if they differ.
 *
 * Not measured: starting two programs (exec, dynamic linking, openssl's
 * configuration and providers: 10 to 40 ms of the pipeline's wall time on
 * a 2-core VM), and disk or page cache: nothing touches a file.
 */
#define _GNU_SOURCE /* cpu_set_t, for probes/probeutil.h */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "perfreg/probe.h"
#include "probes/probeutil.h"
#include "core/banned.h"

#define CHUNK (1 << 20) /* the writer's write size, dd's bs */
#define READ_SIZE 8192  /* openssl dgst's BUFSIZE */
#define NVAR 2

static const char *const variants[] = { "md5", "sha256", NULL };
static const char *const params[] = { "wall", "cpu", "throughput" };
static const char *const units[] = { "s", "s", "MB/s" };

struct state {
	EVP_MD *md[NVAR];
	EVP_MD_CTX *ctx;
	unsigned char want[NVAR][EVP_MAX_MD_SIZE];
	unsigned char *zeros, rbuf[READ_SIZE];
	char names[NVAR][3][48];
	long chunks;
	int on[NVAR];
	struct pr_probe_pin pin;
	volatile sig_atomic_t *cancel;
};

static double
tv(const struct rusage *r)
{
	return (double)(r->ru_utime.tv_sec + r->ru_stime.tv_sec) +
	    (double)(r->ru_utime.tv_usec + r->ru_stime.tv_usec) * 1e-6;
}

static void
pd_fini(void *state)
{
	struct state *s = state;
	int v;

	if (s == NULL)
		return;
	pr_probe_unpin(&s->pin);
	for (v = 0; v < NVAR; v++)
		EVP_MD_free(s->md[v]);
	EVP_MD_CTX_free(s->ctx);
	free(s->zeros);
	free(s);
}

/* The child, dd's part: only async-signal-safe calls after fork. */
static void
writer(int fd, unsigned char *buf, long chunks)
{
	int zfd = open("/dev/zero", O_RDONLY);
	size_t off;
	ssize_t w;

	while (zfd >= 0 && chunks-- > 0) {
		if (read(zfd, buf, CHUNK) != CHUNK)
			_exit(1);
		for (off = 0; off<CHUNK; off += w> 0 ? (size_t)w : 0)
			if ((w = write(fd, buf + off, CHUNK - off)) < 0 &&
			    errno != EINTR)
				_exit(1);
	}
	_exit(zfd >= 0 ? 0 : 2);
}

/* Reads the pipe into the digest; the byte count, or -1 (errno set). */
static long long
reader(struct state *s, int fd)
{
	long long total = 0;
	ssize_t r;

	for (;;) {
		if (s->cancel != NULL && *s->cancel) {
			errno = EINTR;
			return -1;
		}
		r = read(fd, s->rbuf, READ_SIZE);
		if (r == 0)
			return total;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || !EVP_DigestUpdate(s->ctx, s->rbuf, (size_t)r))
			return -1;
		total += r;
	}
}

/* One transfer through digest v: wall and CPU seconds. */
static enum pr_status
transfer(struct state *s, int v, double *wall, double *cpu,
    struct pr_error *err)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	struct rusage s0, c0, s1, c1;
	long long got;
	double t0;
	int fd[2], st, e;
	pid_t pid;

	if (!EVP_DigestInit_ex2(s->ctx, s->md[v], NULL))
		return pr_error_set(err, PR_EIO,
		    "pipe-digest: "
		    "EVP_DigestInit_ex2 %s failed",
		    variants[v]);
	if (pipe(fd) != 0)
		return pr_error_set(err, PR_EIO, "pipe-digest: pipe: %s",
		    strerror(errno));
	getrusage(RUSAGE_SELF, &s0);
	getrusage(RUSAGE_CHILDREN, &c0);
	t0 = pr_probe_now_s();
	if ((pid = fork()) < 0) {
		e = errno;
		close(fd[0]);
		close(fd[1]);
		return pr_error_set(err, PR_EIO, "pipe-digest: fork: %s",
		    strerror(e));
	}
	if (pid == 0) {
		close(fd[0]);
		writer(fd[1], s->zeros, s->chunks);
	}
	close(fd[1]);
	got = reader(s, fd[0]);
	e = errno;
	close(fd[0]);
	if (got < 0)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (got >= 0 && !EVP_DigestFinal_ex(s->ctx, md, NULL))
		return pr_error_set(err, PR_EIO,
		    "pipe-digest: "
		    "EVP_DigestFinal_ex %s failed",
		    variants[v]);
	*wall = pr_probe_now_s() - t0;
	getrusage(RUSAGE_SELF, &s1);
	getrusage(RUSAGE_CHILDREN, &c1);
	*cpu = tv(&s1) - tv(&s0) + tv(&c1) - tv(&c0);
	if (got < 0 && e == EINTR)
		return pr_error_set(err, PR_EINVAL, "interrupted");
	if (got < 0)
		return pr_error_set(err, PR_EIO, "pipe-digest: read: %s",
		    strerror(e));
	if (got != (long long)s->chunks * CHUNK || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		return pr_error_set(err, PR_EIO,
		    "pipe-digest: the writer "
		    "sent %lld of %lld bytes (%s failed)",
		    got, (long long)s->chunks * CHUNK,
		    WIFEXITED(st) && WEXITSTATUS(st) == 2 ? "open /dev/zero"
							  : "read or write");
	if (memcmp(md, s->want[v], (size_t)EVP_MD_get_size(s->md[v])) != 0)
		return pr_error_set(err, PR_EIO,
		    "pipe-digest: %s of the "
		    "bytes read is not that of zeros",
		    variants[v]);
	return PR_OK;
}

static enum pr_status
pd_init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	struct state *s;
	enum pr_status st = PR_OK;
	long i;
	int v, k, any = 0;
	char h[2 * EVP_MAX_MD_SIZE + 1];

	*state = NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL ||
	    (s->zeros = calloc(1, CHUNK)) == NULL ||
	    (s->ctx = EVP_MD_CTX_new()) == NULL) {
		pd_fini(s);
		return pr_error_set(err, PR_ENOMEM,
		    "pipe-digest: out of "
		    "memory");
	}
	s->chunks = o->quick ? 32 : 128;
	s->cancel = o->cancel;
	for (v = 0; v < NVAR; v++) {
		s->on[v] = !o->variant || strcmp(o->variant, variants[v]) == 0;
		any |= s->on[v];
		for (k = 0; k < 3; k++)
			snprintf(s->names[v][k], sizeof(s->names[v][k]),
			    "pipe-digest.%s%s%s", o->variant ? "" : variants[v],
			    o->variant ? "" : ".", params[k]);
	}
	if (!any || o->param != NULL) {
		pd_fini(s);
		return pr_error_set(err, PR_ENOTFOUND,
		    "pipe-digest: no %s "
		    "'%s' (%s)",
		    any ? "parameter" : "variant", any ? o->param : o->variant,
		    any ? "it has none" : "md5, sha256");
	}
	for (v = 0; v < NVAR && st == PR_OK; v++) {
		if (!s->on[v])
			continue;
		s->md[v] = EVP_MD_fetch(NULL, v == 0 ? "MD5" : "SHA256", NULL);
		if (s->md[v] == NULL ||
		    !EVP_DigestInit_ex2(s->ctx, s->md[v], NULL)) {
			st = pr_error_set(err, PR_ENOTFOUND,
			    "pipe-digest: "
			    "OpenSSL's default provider has no %s",
			    variants[v]);
			break;
		}
		for (i = 0; i < s->chunks; i++)
			EVP_DigestUpdate(s->ctx, s->zeros, CHUNK);
		EVP_DigestFinal_ex(s->ctx, s->want[v], NULL);
		for (k = 0; k < EVP_MD_get_size(s->md[v]); k++)
			snprintf(h + 2 * k, 3, "%02x", s->want[v][k]);
		if (notes != NULL)
			st = pr_buf_addf(notes, err,
			    "pipe-digest: %s of the "
			    "%ld zero bytes each sample must give: %s\n",
			    variants[v], s->chunks * CHUNK, h);
	}
	if (st == PR_OK)
		st = pr_probe_pin(&s->pin, "pipe-digest", o->cpu, err);
	if (st != PR_OK) {
		pd_fini(s);
		return st;
	}
	*state = s;
	return PR_OK;
}

static enum pr_status
pd_sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct state *s = state;
	enum pr_status st;
	double x[3];
	int v, k;

	for (v = 0; v < NVAR; v++) {
		if (!s->on[v])
			continue;
		if ((st = transfer(s, v, &x[0], &x[1], err)) != PR_OK)
			return st;
		x[0] = x[0] > 1e-9 ? x[0] : 1e-9;
		x[2] = (double)s->chunks * CHUNK / x[0] / 1e6;
		for (k = 0; k < 3; k++)
			if ((st = pr_dataset_add(out, s->names[v][k], units[k],
				 k == 2 ? PR_BETTER_HIGHER : PR_BETTER_LOWER,
				 x[k], err)) != PR_OK)
				return st;
	}
	return PR_OK;
}

const struct pr_probe pr_probe_pipe_digest = { "pipe-digest",
	"128 MiB of zeros through a pipe into MD5/SHA-256 in another process",
	"clock_gettime(CLOCK_MONOTONIC), getrusage", variants, pd_init,
	pd_sample, pd_fini, PR_PROBE_FIGURE_MEAN };
