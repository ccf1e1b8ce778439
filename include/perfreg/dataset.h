/*
 * perfreg/dataset.h - named metrics, each with a unit, a direction and a
 * sample of values: what one input file (one side of a comparison) holds.
 *
 * A dataset owns its metrics, their names and units, and their samples.
 * Metric order is the order of first appearance in the input, and
 * comparisons keep it.  Lifecycle: pr_dataset_init -> add ->
 * pr_dataset_release.  Not thread-safe.
 */
#ifndef PERFREG_DATASET_H
#define PERFREG_DATASET_H

#include <stddef.h>

#include "perfreg/error.h"
#include "perfreg/sample.h"
#include "perfreg/better.h"

struct pr_metric {
	char *name; /* never NULL */
	char *unit; /* "" when unknown; never NULL */
	enum pr_better better;
	struct pr_sample values;
};

struct pr_dataset {
	struct pr_metric *metrics;
	size_t n, cap;
	char *source; /* file name it was read from, or NULL */
};

void pr_dataset_init(struct pr_dataset *d);
void pr_dataset_release(struct pr_dataset *d);

/* The metric called name, or NULL.  Borrowed until the dataset changes. */
struct pr_metric *pr_dataset_find(struct pr_dataset *d, const char *name);

/*
 * The metric called name, created (with the unit and direction given) if
 * absent.  An existing metric keeps its unit; an unknown direction is
 * filled in from `better`.  *out is borrowed until the dataset changes.
 */
enum pr_status pr_dataset_get(struct pr_dataset *d, const char *name,
    const char *unit, enum pr_better better, struct pr_metric **out,
    struct pr_error *err);

/* Appends a value to the metric called name (created as above). */
enum pr_status pr_dataset_add(struct pr_dataset *d, const char *name,
    const char *unit, enum pr_better better, double value,
    struct pr_error *err);

#endif /* PERFREG_DATASET_H */
