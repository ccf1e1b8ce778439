/*
 * perfreg/report_compare.h - the comparison of two datasets as
 * `perfreg compare` makes it, in the library: metrics paired by name,
 * their units and directions settled, each pair compared (pr_compare of
 * perfreg/verdict.h), the families of perfreg/primary.h (primary
 * metrics under Holm, side metrics under Benjamini-Hochberg, constant
 * metrics not tested) and the --fail-on-regression gate.  The result is
 * a struct pr_report (perfreg/report.h) that a report model
 * (perfreg/report_model.h) can hold, and the lines a command shows on
 * its error stream ("metric 'x' is only in a.csv; not compared",
 * "regression in 'x': ..."), in order.
 *
 * Ownership: a result borrows the datasets and the two names it was
 * made from (its report's metric names point into the datasets): they
 * must outlive it.  It owns its rows, families and notes, freed by
 * pr_report_compare_result_release.  A result holds pointers into
 * itself (report.side): never copy it by value once filled.
 *
 * Nothing here prints, exits or reads the environment; distinct results
 * are independent (thread-safe on distinct datasets).
 */
#ifndef PERFREG_REPORT_COMPARE_H
#define PERFREG_REPORT_COMPARE_H

#include <stddef.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/primary.h"
#include "perfreg/report.h"
#include "perfreg/verdict.h"

struct pr_report_compare_opts {
	struct pr_verdict_opts verdict;
	/* PR_BETTER_UNKNOWN: from the inputs (which must agree), else
	 * lower, said as assumed. */
	enum pr_better force_better;
	/* The metrics to compare (none: every one in both) and the primary
	 * ones (none: perfreg/primary.h's rule); borrowed. */
	const char *const *column;
	size_t ncolumn;
	const char *const *primary;
	size_t nprimary;
	/* Without primary: the primary metrics stored with the data (the
	 * --primary of a campaign's sessions, perfreg/store.h), those that
	 * are metrics of the base (pr_primary_roles_stored); borrowed. */
	const char *const *stored_primary;
	size_t nstored_primary;
	const char *units; /* the report's units (NULL: runs) */
	/* Gate: a primary regression larger than threshold_pct percent
	 * sets the result's regression flag and is named in a note. */
	int gate;
	double threshold_pct;
	/* Nonzero: the caller gives up the run order of the datasets'
	 * values, so that a metric with more values a side than the report
	 * keeps (JSON, the HTML order plot: 100,000) is sorted in place
	 * instead of in sorted copies (no second copy of 10^7 values). */
	int sort_in_place;
};

/*
 * The families of a comparison: the report of the side metrics and the
 * metrics not tested, which the main report points to (its side and
 * not_tested members).
 */
struct pr_report_families {
	struct pr_report side;
	const char **nt_name; /* borrowed names; the array is owned */
	double *nt_value;
	size_t np, ns, nnt;
};

struct pr_report_compare_result {
	struct pr_report report;
	struct pr_report_metric *rm; /* report.metrics (owned) */
	size_t nrm; /* rows of rm: primary, side, then not tested */
	struct pr_report_families fam;
	/* Lines for the error stream, in order (owned), without a
	 * program-name prefix: "warning: ..." and "regression in ...". */
	char **note;
	size_t nnote;
	int regression; /* the gate found a regression */
};

/* Sets the defaults: those of pr_verdict_opts_init, directions from the
 * inputs, every metric, no gate. */
void pr_report_compare_opts_init(struct pr_report_compare_opts *o);

/*
 * Compares base (named bname in the report and messages) with new
 * (nname) into res (zeroed first).  Metrics are matched by name in the
 * order of base; one found on one side only, or without values on a
 * side, gets a warning note.  Each row's comparison is pr_compare's with
 * o->verdict and PR_VERDICT_NO_RATIO | PR_VERDICT_NO_RANKS added: a report
 * shows no secondary figure, so none is computed (have_ratio_means,
 * have_mwu and have_hl stay 0 unless the primary method made them).
 * Fails with PR_EINVAL (err says why, as "perfreg: " would follow it)
 * for units or directions that disagree, a --column or --primary name
 * that is not in both, no metric in common or a comparison that cannot
 * be made; PR_ENOMEM when out of memory.  On failure res keeps only its
 * notes (release it still).
 */
enum pr_status pr_report_compare_datasets(struct pr_dataset *base,
    struct pr_dataset *new_, const char *bname, const char *nname,
    const struct pr_report_compare_opts *o,
    struct pr_report_compare_result *res, struct pr_error *err);

void pr_report_compare_result_release(struct pr_report_compare_result *res);

/*
 * Splits the n rows of rm (compared by pr_compare, uncorrected), whose
 * roles are role[i] (pr_primary_roles of the base metric of each row;
 * changed here), into primary, side and not tested metrics: a row whose
 * values are one number on both sides is not tested; each family is
 * corrected (pr_primary_correct with vo); rm is reordered, the primary
 * rows first, then the side rows.  r (the report of rm, its other
 * members set) gets r->n = the primaries, holm_m, side and not_tested;
 * when no row is primary the side rows take their place (still
 * corrected as side metrics), and when every row is constant nothing is
 * split.  r then points into fam (released with
 * pr_report_families_release).  PR_ENOMEM leaves fam empty.
 */
enum pr_status pr_report_families_apply(struct pr_report *r,
    struct pr_report_metric *rm, size_t n, enum pr_role *role,
    const struct pr_verdict_opts *vo, struct pr_report_families *fam,
    struct pr_error *err);
void pr_report_families_release(struct pr_report_families *fam);

#endif /* PERFREG_REPORT_COMPARE_H */
