/*
 * parse/each.c - several inputs read at once: pr_read_numbers_each (the
 * files of `perfreg stat`) and pr_read_any_each (the two sides of
 * `perfreg compare`).
 *
 * Each input is read on a thread of its own, with its own buffer and
 * sample or dataset, so that nothing is shared but the index of the next
 * input to take: stat and compare on two files of 10^7 values read in
 * about half the wall time on two cores, and n files scale to min(n,
 * cores).  Standard input cannot be shared and is read first, on the
 * calling thread, in order.  The errors do not depend on which thread
 * finished first: the one reported is that of the failing input with the
 * lowest index, and on failure every output is empty again.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfreg/read.h"
#include "parse/readers.h"
#include "core/sortkey.h"
#include "core/banned.h"

/* The work of pool_run: one(arg, i) for each i below n. */
struct pool {
	const char *const *paths;
	size_t n;
	void (*one)(void *arg, size_t i);
	void *arg;
	pthread_mutex_t lock;
	size_t next; /* the next path to claim, under lock */
};

static int
is_stdin(const char *path)
{
	return strcmp(path, "-") == 0;
}

/* A worker: claims the next file not yet taken until none is left. */
static void *
pool_worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		while (p->next < p->n && is_stdin(p->paths[p->next]))
			p->next++;
		i = p->next < p->n ? p->next++ : p->n;
		pthread_mutex_unlock(&p->lock);
		if (i == p->n)
			return NULL;
		p->one(p->arg, i);
	}
}

/*
 * Calls one(arg, i) for each of the n paths: standard input first, on
 * the calling thread in order, then the files on min(files, online
 * processors, PR_READ_THREADS_MAX) threads, the calling one included.
 * When a thread cannot be started, the others take its files.
 */
static void
pool_run(const char *const *paths, size_t n, void (*one)(void *, size_t),
    void *arg)
{
	struct pool p;
	pthread_t tid[PR_READ_THREADS_MAX];
	size_t i, nfiles = 0, nthreads = 0, want;
	long cpus;

	memset(&p, 0, sizeof(p));
	p.paths = paths;
	p.n = n;
	p.one = one;
	p.arg = arg;
	for (i = 0; i < n; i++)
		if (is_stdin(paths[i]))
			one(arg, i);
		else
			nfiles++;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	want = cpus > 1 ? (size_t)cpus : 1;
	want = want < nfiles ? want : nfiles;
	want = want < PR_READ_THREADS_MAX ? want : PR_READ_THREADS_MAX;
	pthread_mutex_init(&p.lock, NULL);
	for (; nthreads + 1 < want; nthreads++)
		if (pthread_create(&tid[nthreads], NULL, pool_worker, &p) != 0)
			break;
	(void)pool_worker(&p);
	for (i = 0; i < nthreads; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&p.lock);
}

/* The first failure of st[0, n), copied to err and *failed; PR_OK when
 * none failed. */
static enum pr_status
first_failure(const enum pr_status *st, const struct pr_error *errs, size_t n,
    size_t *failed, struct pr_error *err)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (st[i] != PR_OK) {
			if (err != NULL)
				*err = errs[i];
			if (failed != NULL)
				*failed = i;
			return st[i];
		}
	return PR_OK;
}

/* What each input gives back: its status and error. */
struct results {
	enum pr_status *st;
	struct pr_error *err;
};

static enum pr_status
results_alloc(struct results *r, size_t n, struct pr_error *err)
{
	r->st = calloc(n, sizeof(*r->st));
	r->err = calloc(n, sizeof(*r->err));
	if (r->st != NULL && r->err != NULL)
		return PR_OK;
	free(r->st);
	free(r->err);
	return pr_error_set(err, PR_ENOMEM,
	    "out of memory for reading %zu files", n);
}

/*
 * Reads the n paths with one (which fills r's entries), and gives back
 * the first failure; r is allocated and released here.
 */
static enum pr_status
read_all(const char *const *paths, size_t n, void (*one)(void *, size_t),
    void *arg, struct results *r, size_t *failed, struct pr_error *err)
{
	enum pr_status st;

	if (n == 0)
		return PR_OK;
	if ((st = results_alloc(r, n, err)) != PR_OK)
		return st;
	pool_run(paths, n, one, arg);
	st = first_failure(r->st, r->err, n, failed, err);
	free(r->st);
	free(r->err);
	return st;
}

/* --- numbers --- */

struct numbers_each {
	const char *const *paths;
	int column;
	const char *delims;
	int sort;
	struct pr_sample *out;
	struct results r;
};

/*
 * Reads paths[i] into out[i], sorting it when asked.  The values go into
 * a sample on this thread's stack and out[i] is written once at the end:
 * out[i] and out[i + 1] lie 32 bytes apart, often in one cache line, and
 * the reader updates its sample's count at every value, so that two
 * threads filling neighbours passed the line between the cores at every
 * value (stat on two files of 10^7 `%.17g` values: 0.94 s against 0.62,
 * whenever the array happened to start in the first half of a line;
 * bench/README.md, session 14).
 */
static void
numbers_one(void *arg, size_t i)
{
	struct numbers_each *a = arg;
	struct pr_sample s;
	uint64_t keys[2];

	pr_sample_init(&s);
	a->r.st[i] = pr_read_numbers_keys(a->paths[i], a->column, a->delims,
	    PR_READ_VALUES_MAX, &s, keys, &a->r.err[i]);
	if (a->r.st[i] == PR_OK && a->sort) {
		/* The reader found the range of the keys as it read: the
		 * sort's first pass need not look for it in memory. */
		pr_sort_doubles_keyed(s.v, s.n, keys[0], keys[1]);
		s.sorted = 1;
	}
	a->out[i] = s;
}

enum pr_status
pr_read_numbers_each(const char *const *paths, size_t n, int column,
    const char *delims, int sort, struct pr_sample *out, size_t *failed,
    struct pr_error *err)
{
	struct numbers_each a = { .paths = paths,
		.column = column,
		.delims = delims,
		.sort = sort,
		.out = out };
	enum pr_status st;
	size_t i;

	st = read_all(paths, n, numbers_one, &a, &a.r, failed, err);
	for (i = 0; st != PR_OK && i < n; i++) {
		pr_sample_release(&out[i]);
		pr_sample_init(&out[i]);
	}
	return st;
}

/* --- any format --- */

struct any_each {
	const char *const *paths;
	const struct pr_read_opts *o;
	const char *parse;
	struct pr_dataset *out;
	const char **used;
	struct results r;
};

static void
any_one(void *arg, size_t i)
{
	struct any_each *a = arg;

	a->r.st[i] = pr_read_any(a->paths[i], a->o, a->parse, &a->out[i],
	    a->used != NULL ? &a->used[i] : NULL, &a->r.err[i]);
}

enum pr_status
pr_read_any_each(const char *const *paths, size_t n,
    const struct pr_read_opts *o, const char *parse, struct pr_dataset *out,
    const char **used, size_t *failed, struct pr_error *err)
{
	struct any_each a = { .paths = paths,
		.o = o,
		.parse = parse,
		.out = out,
		.used = used };
	enum pr_status st;
	size_t i;

	st = read_all(paths, n, any_one, &a, &a.r, failed, err);
	for (i = 0; st != PR_OK && i < n; i++) {
		pr_dataset_release(&out[i]);
		pr_dataset_init(&out[i]);
	}
	return st;
}
