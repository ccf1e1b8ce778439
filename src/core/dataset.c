/*
 * core/dataset.c - named metrics with their samples.
 *
 * Metrics are kept in order of first appearance.  Lookup is linear up
 * to IDX_MIN metrics (most inputs hold a handful: seed 000 has five block
 * sizes), and through a hash index of metric positions beyond, so that
 * an input with n metrics is read in O(n) lookups of O(1) rather than
 * O(n^2) string comparisons (40,000 Go benchmarks took 65 s).  The index
 * stores positions, not pointers, so that growing metrics[] does not
 * invalidate it; every hit is confirmed with strcmp, and the index
 * catches up with metrics appended (or rebuilds after metrics dropped)
 * behind its back.  When it cannot be allocated, lookup stays linear.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/dataset.h"
#include "core/banned.h"

void
pr_dataset_init(struct pr_dataset *d)
{
	d->metrics = NULL;
	d->n = 0;
	d->cap = 0;
	d->source = NULL;
	d->idx_slot = NULL;
	d->idx_cap = 0;
	d->idx_n = 0;
}

void
pr_dataset_release(struct pr_dataset *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		if (!d->metrics[i].borrowed) {
			free(d->metrics[i].name);
			free(d->metrics[i].unit);
		}
		pr_sample_release(&d->metrics[i].values);
	}
	free(d->metrics);
	free(d->source);
	free(d->idx_slot);
	pr_dataset_init(d);
}

/* Below this many metrics a linear scan is as fast as hashing. */
#define IDX_MIN 16

/* FNV-1a, 64 bits. */
static uint64_t
hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void
idx_put(size_t *slot, size_t cap, const char *name, size_t i)
{
	size_t k = (size_t)hash(name) & (cap - 1);

	while (slot[k] != 0)
		k = (k + 1) & (cap - 1);
	slot[k] = i + 1;
}

/*
 * Brings the index up to metrics[0, n), at most half full.  Returns 0
 * when it cannot (no memory): the caller then scans.
 */
static int
idx_sync(struct pr_dataset *d)
{
	size_t cap, i, *slot;

	if (d->idx_n > d->n) {
		/* Metrics were dropped from the end: start again. */
		if (d->idx_slot != NULL)
			memset(d->idx_slot, 0,
			    d->idx_cap * sizeof(*d->idx_slot));
		d->idx_n = 0;
	}
	if (d->idx_n == d->n && d->idx_slot != NULL)
		return 1;
	if (d->n >= d->idx_cap / 2) {
		for (cap = d->idx_cap ? d->idx_cap : 64; d->n >= cap / 2;
		     cap *= 2)
			if (cap > SIZE_MAX / 4 / sizeof(*slot))
				return 0;
		if ((slot = calloc(cap, sizeof(*slot))) == NULL)
			return 0;
		free(d->idx_slot);
		d->idx_slot = slot;
		d->idx_cap = cap;
		d->idx_n = 0;
	}
	for (i = d->idx_n; i < d->n; i++)
		idx_put(d->idx_slot, d->idx_cap, d->metrics[i].name, i);
	d->idx_n = d->n;
	return 1;
}

struct pr_metric *
pr_dataset_find(struct pr_dataset *d, const char *name)
{
	size_t i, k;

	if (d->n > IDX_MIN && idx_sync(d)) {
		for (k = (size_t)hash(name) & (d->idx_cap - 1);
		     d->idx_slot[k] != 0; k = (k + 1) & (d->idx_cap - 1)) {
			i = d->idx_slot[k] - 1;
			if (strcmp(d->metrics[i].name, name) == 0)
				return &d->metrics[i];
		}
		return NULL;
	}
	for (i = 0; i < d->n; i++)
		if (strcmp(d->metrics[i].name, name) == 0)
			return &d->metrics[i];
	return NULL;
}

enum pr_status
pr_dataset_get(struct pr_dataset *d, const char *name, const char *unit,
    enum pr_better better, struct pr_metric **out, struct pr_error *err)
{
	struct pr_metric *m;
	size_t ncap;

	if ((m = pr_dataset_find(d, name)) != NULL) {
		if (m->better == PR_BETTER_UNKNOWN)
			m->better = better;
		*out = m;
		return PR_OK;
	}
	if (d->n == d->cap) {
		ncap = d->cap ? d->cap * 2 : 8;
		m = realloc(d->metrics, ncap * sizeof(*m));
		if (m == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		d->metrics = m;
		d->cap = ncap;
	}
	m = &d->metrics[d->n];
	m->name = strdup(name);
	m->unit = strdup(unit != NULL ? unit : "");
	if (m->name == NULL || m->unit == NULL) {
		free(m->name);
		free(m->unit);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	m->better = better;
	m->flags = 0;
	m->borrowed = 0;
	pr_sample_init(&m->values);
	d->n++;
	*out = m;
	return PR_OK;
}

enum pr_status
pr_dataset_add(struct pr_dataset *d, const char *name, const char *unit,
    enum pr_better better, double value, struct pr_error *err)
{
	struct pr_metric *m = NULL;
	enum pr_status st;

	if ((st = pr_dataset_get(d, name, unit, better, &m, err)) != PR_OK)
		return st;
	return pr_sample_push(&m->values, value, err);
}

enum pr_status
pr_dataset_add_static(struct pr_dataset *d, const char *const *names,
    const char *const *units, enum pr_better better, const double *v, size_t n,
    struct pr_error *err)
{
	struct pr_metric *m;
	enum pr_status st;
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return pr_error_set(err, PR_EINVAL,
			    "value is not finite");
	if (d->n > 0) {
		for (i = 0; i < n; i++)
			if ((st = pr_dataset_add(d, names[i], units[i], better,
				 v[i], err)) != PR_OK)
				return st;
		return PR_OK;
	}
	if (n == 0)
		return PR_OK;
	if (n > d->cap) {
		if (n > SIZE_MAX / sizeof(*m))
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		if ((m = realloc(d->metrics, n * sizeof(*m))) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		d->metrics = m;
		d->cap = n;
	}
	for (i = 0; i < n; i++) {
		m = &d->metrics[i];
		pr_sample_init(&m->values);
		if ((m->values.v = malloc(sizeof(double))) == NULL) {
			d->n = i; /* the ones before are whole */
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		}
		m->values.v[0] = v[i];
		m->values.n = m->values.cap = 1;
		/* Borrowed: never written through, never freed. */
		m->name = (char *)names[i];
		m->unit = (char *)(units[i] != NULL ? units[i] : "");
		m->better = better;
		m->flags = 0;
		m->borrowed = 1;
		d->n = i + 1;
	}
	return PR_OK;
}
