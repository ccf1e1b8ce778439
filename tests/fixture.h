/*
 * tests/fixture.h - the fixtures that the unit tests of several modules
 * build alike, written once (tests/fixture.c, linked into every unit
 * test by tests/CMakeLists.txt): a report of metrics and its metrics
 * with the figures a test chooses (struct pr_report of perfreg/report.h,
 * for the compare report, the model and the HTML page), the report
 * rendered to a string, and two sorted samples drawn from a seeded
 * generator (the verdict's large inputs).
 *
 * The builders only fill in what they are given: a test that wants a
 * figure of its own sets it after them, so that what each test asserts
 * stays next to the figures it depends on.  Failures are cmocka
 * failures of the calling test.
 */
#ifndef PERFREG_TESTS_FIXTURE_H
#define PERFREG_TESTS_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/report.h"
#include "perfreg/report_model.h"
#include "perfreg/rng.h"

/*
 * A report of the n metrics at m, cleared first: conf 0.95, the
 * equivalence margin 1%, the sources base and new (either may be NULL).
 */
void fx_report(struct pr_report *r, struct pr_report_metric *m, size_t n,
    const char *base, const char *new);

/*
 * Metric m cleared and named (unit: "" for none), with the values of its
 * sides (bn at bv, nn at nv; NULL and 0 for none, which the caller
 * keeps) and the sides' summaries counting them.
 */
void fx_metric(struct pr_report_metric *m, const char *name, const char *unit,
    const double *bv, size_t bn, const double *nv, size_t nn);

/*
 * The summary figures of a side with a standard deviation: mean, median
 * and sd (PR_SUM_STDDEV defined), the count and the rest left as they
 * are.
 */
void fx_side(struct pr_summary *s, double mean, double median, double sd);

/*
 * A comparison the test decided, lower being better: method, the change
 * in percent and its interval [lo, hi], the p-value (adjusted the same)
 * and the verdict.  The family (holm_m) is the caller's.
 */
void fx_tested(struct pr_comparison *c, enum pr_method method,
    double change_pct, double lo, double hi, double p, enum pr_verdict v);

/* The model m rendered in format f, a NUL-terminated string the caller
 * frees. */
char *fx_render_model(const struct pr_report_model *m, enum pr_report_format f);

/*
 * Two samples of n values each, a and b (malloc'ed, the caller frees),
 * draw called for each i with the generator seeded with seed, then each
 * sorted: the large inputs of the statistics' tests.
 */
void fx_sorted_pair(size_t n, uint64_t seed,
    void (*draw)(struct pr_rng *rng, double *a, double *b), double **a,
    double **b);

#endif /* PERFREG_TESTS_FIXTURE_H */
