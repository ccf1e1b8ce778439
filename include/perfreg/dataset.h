/*
 * perfreg/dataset.h - named metrics, each with a unit, a direction and a
 * sample of values: what one input file (one side of a comparison) holds.
 *
 * A dataset owns its metrics, their names and units (but for the static
 * names pr_dataset_add_static borrows), and their samples.
 * Metric order is the order of first appearance in the input, and
 * comparisons keep it.  Lifecycle: pr_dataset_init -> add ->
 * pr_dataset_release.  Not thread-safe, not even pr_dataset_find (it
 * updates the name index).
 *
 * Lookup by name goes through a hash index once a dataset has more than
 * a few metrics, so that reading an input with tens of thousands of
 * metrics (a Go benchmark log, a wide CSV) stays linear.  The index is
 * private (the idx_ members): it catches up by itself with metrics
 * appended or dropped from the end of metrics[] directly, but a metric
 * must not be renamed in place, and a dataset must not be copied by
 * assignment (release one, init the other).
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
	unsigned flags; /* PR_METRIC_* bits; 0 when created */
	/* name and unit are the caller's, not copied nor freed (static
	 * strings; pr_dataset_add_static); 0 for pr_dataset_get's. */
	unsigned char borrowed;
};

/*
 * Bits of pr_metric.flags.  PR_METRIC_RESULT: the benchmark's own result
 * (openssl speed's throughput, iperf3's bitrate, hyperfine's time, a
 * --metric or --derive figure), as the parser of its format marks it;
 * perfreg/primary.h makes the primary metrics of a comparison from it.
 * Merging metrics (a parsed output into a run, runs into a variant)
 * keeps the bits of both.
 */
#define PR_METRIC_RESULT 0x1u
/*
 * PR_METRIC_RUN_ROW: the metric is a column of a table whose rows are
 * runs (a CSV with a `run` column, src/parse/csv.c), its k-th value the
 * k-th run's, so that its values line up with the other columns' and
 * the explanation (perfreg/explain.h) can pair them run by run.
 */
#define PR_METRIC_RUN_ROW 0x2u

struct pr_dataset {
	struct pr_metric *metrics;
	size_t n, cap;
	char *source;     /* file name it was read from, or NULL */
	size_t *idx_slot; /* private: open addressing, metric index + 1 */
	size_t idx_cap;   /* private: slots, a power of two, or 0 */
	size_t idx_n;     /* private: metrics[0, idx_n) are in the index */
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

/*
 * Appends n metrics to d, each with the one value v[i]: names[i] and
 * units[i] are borrowed, not copied, and must outlive d (static strings:
 * a runner's built-in metrics), and each value array holds one value,
 * so that n metrics cost n + 1 allocations instead of 3n + 1 (issue 16).
 * When d already holds metrics, this is n calls of pr_dataset_add (with
 * better as their direction).  PR_EINVAL when a value is not finite (d
 * unchanged then), PR_ENOMEM.
 */
enum pr_status pr_dataset_add_static(struct pr_dataset *d,
    const char *const *names, const char *const *units, enum pr_better better,
    const double *v, size_t n, struct pr_error *err);

#endif /* PERFREG_DATASET_H */
