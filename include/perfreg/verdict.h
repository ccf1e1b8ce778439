/*
 * perfreg/verdict.h - comparing a metric between a base and a new sample,
 * and the verdict a kernel developer can paste into a bug report.
 *
 * pr_compare runs every test of the library on the two samples and picks
 * one primary method whose p-value and interval decide the verdict (the
 * rule is documented in src/stats/verdict.c and the man page, and its
 * error rates are measured by bench/verdict-sim).  The verdict is:
 * - PR_VERDICT_REGRESSION / PR_VERDICT_IMPROVEMENT: the change is
 *   significant at 1 - conf (after Holm's correction when several
 *   metrics are compared) and its direction is worse / better for the
 *   metric;
 * - PR_VERDICT_EQUIVALENT: the interval of the change lies inside
 *   +-equivalence_pct;
 * - PR_VERDICT_INCONCLUSIVE: neither; more runs are needed.  Never
 *   "no difference": failing to show a difference is not showing none.
 *
 * The change is always reported as a percentage of the base:
 * 100 * (new / base - 1), its interval likewise.
 */
#ifndef PERFREG_VERDICT_H
#define PERFREG_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/describe.h"
#include "perfreg/error.h"
#include "perfreg/mwu.h"
#include "perfreg/ratio.h"
#include "perfreg/ttest.h"

enum pr_better {
	PR_BETTER_UNKNOWN = 0, /* direction not known: "higher"/"lower" */
	PR_BETTER_HIGHER,      /* throughput: higher is better */
	PR_BETTER_LOWER        /* time: lower is better */
};

enum pr_verdict {
	PR_VERDICT_INCONCLUSIVE = 0,
	PR_VERDICT_REGRESSION,
	PR_VERDICT_IMPROVEMENT,
	PR_VERDICT_EQUIVALENT
};

/* The primary method that produced change_pct, its interval and p. */
enum pr_method {
	PR_METHOD_AUTO = 0, /* in options: let pr_compare choose */
	PR_METHOD_STUDENT,  /* pooled t on the means */
	PR_METHOD_WELCH,    /* Welch t on the means */
	PR_METHOD_MWU,      /* Mann-Whitney U with Hodges-Lehmann shift */
	PR_METHOD_NONE      /* no test possible (one value a side) */
};

struct pr_verdict_opts {
	double conf;            /* confidence, 0.95 by default */
	double equivalence_pct; /* +- band of "equivalent", 1.0 */
	enum pr_method method;  /* PR_METHOD_AUTO by default */
	uint64_t seed;          /* bootstrap seed */
	unsigned boot_reps;     /* 0: PR_RATIO_BOOT_REPS */
};

/* Fills o with the defaults above. */
void pr_verdict_opts_init(struct pr_verdict_opts *o);

struct pr_comparison {
	struct pr_summary base, new;
	enum pr_better better;

	enum pr_method method; /* the primary method */
	int tested;            /* 0: no test possible (n < 2 a side) */
	double change_pct;     /* 100 * (new/base - 1) by the method */
	int have_ci;
	double ci_lo_pct, ci_hi_pct;
	double p_value;        /* of the primary method, unadjusted */
	double p_adjusted;     /* after Holm (== p_value for one metric) */
	int holm_m;            /* number of metrics in the Holm family */
	enum pr_verdict verdict;
	/* When inconclusive: runs per side that would likely settle it
	 * (80% power at the observed change, or an interval narrow enough
	 * to show equivalence); 0 when unknown. */
	size_t runs_needed;

	/* Every secondary figure, each with a flag that says whether it
	 * could be computed for this data. */
	int have_student, have_welch, have_mwu, have_hl;
	int have_ratio_means, have_ratio_medians;
	struct pr_ttest student, welch;
	struct pr_mwu mwu;
	struct pr_shift hl;
	struct pr_ratio_ci ratio_means, ratio_medians;
};

/*
 * Compares base (nb values) with new (nn values); both arrays are sorted
 * ascending and finite.  nb, nn >= 1.  With one value on a side,
 * `tested` is 0, the change is the plain ratio and the verdict
 * inconclusive.  Returns PR_EINVAL for empty input or bad options.
 */
enum pr_status pr_compare(const double *base, size_t nb, const double *new_,
    size_t nn, enum pr_better better, const struct pr_verdict_opts *o,
    struct pr_comparison *out, struct pr_error *err);

/*
 * Applies Holm's step-down correction to the p-values of n comparisons
 * made together (several metrics) and recomputes their verdicts with the
 * adjusted p-values.  Untested comparisons do not count in the family.
 */
void pr_compare_holm(struct pr_comparison *c, size_t n,
    const struct pr_verdict_opts *o);

/* Holm-adjusted p-values: adj[i] for p[i], monotone, capped at 1. */
void pr_holm(const double *p, size_t n, double *adj);

const char *pr_verdict_str(enum pr_verdict v);  /* "regression", ... */
const char *pr_method_str(enum pr_method m);    /* "Welch's t", ... */
const char *pr_better_str(enum pr_better b);    /* "higher"/"lower" */

#endif /* PERFREG_VERDICT_H */
