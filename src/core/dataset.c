/*
 * core/dataset.c - named metrics with their samples.
 *
 * Lookup is linear: inputs hold a handful of metrics (seed 000 has five
 * block sizes; a Go benchmark file a few dozen), and order of first
 * appearance must be kept anyway.
 */
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
}

void
pr_dataset_release(struct pr_dataset *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->metrics[i].name);
		free(d->metrics[i].unit);
		pr_sample_release(&d->metrics[i].values);
	}
	free(d->metrics);
	free(d->source);
	pr_dataset_init(d);
}

struct pr_metric *
pr_dataset_find(struct pr_dataset *d, const char *name)
{
	size_t i;

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
	pr_sample_init(&m->values);
	d->n++;
	*out = m;
	return PR_OK;
}

enum pr_status
pr_dataset_add(struct pr_dataset *d, const char *name, const char *unit,
    enum pr_better better, double value, struct pr_error *err)
{
	struct pr_metric *m;
	enum pr_status st;

	if ((st = pr_dataset_get(d, name, unit, better, &m, err)) != PR_OK)
		return st;
	return pr_sample_push(&m->values, value, err);
}
