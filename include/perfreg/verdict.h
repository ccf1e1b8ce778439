/*
 * perfreg/verdict.h - comparing a metric between a base and a new sample,
 * and the verdict a kernel developer can paste into a bug report.
 *
 * pr_compare computes the library's tests on the two samples and picks
 * one primary method whose p-value and interval decide the verdict.  The
 * rule (src/stats/verdict.c has the details and references; the error
 * rates below are measured by bench/verdict-sim, see bench/README.md):
 *
 * 1. Fewer than 2 values on a side: no test (`tested` is 0).  The change
 *    is the plain ratio of the means, the verdict inconclusive, and
 *    PR_NOTE_UNTESTED says that no test is possible without repeated
 *    runs.  Such comparisons never enter a Holm family.
 * 2. Otherwise the primary method is a t test on the raw values:
 *    Student's pooled t when both sides have the same number of values
 *    (then it is the test ministat prints), Welch's t when they differ.
 *    The change is the ratio of the means, 100 * (mean_new / mean_base
 *    - 1), and its interval is Fieller's interval for that ratio, built
 *    from the same variances, degrees of freedom and t quantile as the
 *    test, so that the interval excludes 0% exactly when p < 1 - conf.
 * 3. With PR_VERDICT_ADAPT_MIN to PR_VERDICT_ADAPT_MAX values on each
 *    side, all positive, a selector in the manner of Hogg, Fisher and
 *    Randles (JASA 70, 1975) measures the skewness and tail weight of
 *    the pooled sample (it does not look at which side a value came
 *    from, so with no change it cannot favour a verdict).  When they are
 *    clearly not normal (PR_NOTE_NONNORMAL), p comes from a maximum
 *    test instead (PR_NOTE_MAXTEST): the larger of Student's |t| and the
 *    standardised Mann-Whitney rank sum, against its permutation
 *    distribution (PR_VERDICT_PERMS random splits seeded with
 *    opts.seed; its normal limit above PR_VERDICT_PERM_MAX values).
 *    The change and interval then come from the statistic that won:
 *    Fieller's interval of the ratio of means (method STUDENT/WELCH) or
 *    the Hodges-Lehmann estimate of the ratio new/base (the median of
 *    all pairwise ratios, a shift of the log values) with its
 *    distribution-free interval (method MWU).
 * 4. The variance of a side is never taken below resolution^2 / 12, the
 *    variance of rounding to the grid the values were printed on (0.01
 *    for "7.02"; found from the data, see `resolution`): equal values
 *    printed to 0.01 s only show that the spread is below about 0.01 s.
 *    PR_NOTE_QUANTISED says when this floor was used.
 *
 * Error rates (bench/verdict-sim, 20,000 trials a cell, sizes 3 to 30 a
 * side, six noise models, see bench/README.md): false positives within
 * simulation error of 5% in every cell (worst 5.11%); power within 0.11
 * points of ministat's rule for normal noise (0.56 where a true change
 * of exactly the band, 1%, is measured so precisely that its interval
 * fits inside the band and is called equivalent), and up to 44 points
 * higher for skewed (bimodal) and 12 points for heavy-tailed (t, 3 df)
 * noise.
 *
 * The verdict, with alpha = 1 - conf and p the (Holm-adjusted) p-value:
 * - PR_VERDICT_EQUIVALENT: the interval of the change lies inside
 *   [-equivalence_pct, +equivalence_pct].  This takes precedence: a
 *   change that is significant but whose whole interval is inside the
 *   band was detectable and is negligible (PR_NOTE_NEGLIGIBLE says so).
 *   With a (1 - alpha) interval this is the two one-sided tests
 *   procedure at level alpha/2 (Schuirmann, J. Pharmacokin. Biopharm.
 *   15, 1987), so "equivalent" is conservative;
 * - PR_VERDICT_REGRESSION / PR_VERDICT_IMPROVEMENT: p < alpha, the
 *   interval (when there is one) excludes 0%, and the change goes in the
 *   worse / better direction for the metric;
 * - PR_VERDICT_INCONCLUSIVE: neither; more runs are needed.  Never
 *   "no difference": failing to show a difference is not showing none.
 *
 * The direction PR_BETTER_UNKNOWN is treated as lower-is-better (times
 * are the most common input); PR_NOTE_DIRECTION_ASSUMED says so.
 *
 * Thread-safety: every function here is reentrant (no global state).
 * Ownership: struct pr_comparison holds no pointers; nothing to free.
 */
#ifndef PERFREG_VERDICT_H
#define PERFREG_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/better.h"
#include "perfreg/describe.h"
#include "perfreg/error.h"
#include "perfreg/mwu.h"
#include "perfreg/ratio.h"
#include "perfreg/ttest.h"

/* Values a side from which the adaptive selector runs, and above which it
 * does not (the maximum test and the Hodges-Lehmann ratio need scratch
 * copies of the data: at most 17 bytes a value, 3.4 MB).  PR_VERDICT_POWER
 * is the power behind runs_needed. */
#define PR_VERDICT_ADAPT_MIN 10
#define PR_VERDICT_ADAPT_MAX 100000
/* Permutations of the maximum test, and the pooled size above which its
 * normal limit is used instead. */
#define PR_VERDICT_PERMS 2000
#define PR_VERDICT_PERM_MAX 4000
#define PR_VERDICT_POWER 0.8
#define PR_VERDICT_RUNS_MAX 1000000000
/* Above this many values on a side the secondary Mann-Whitney test and
 * Hodges-Lehmann shift are left out, as with PR_VERDICT_NO_RANKS (unless
 * the primary method needs them): the shift's search makes dozens of
 * passes over both sides, about 1.7 s of CPU at 10^7 values a side, for
 * figures no report shows.  So a comparison's work stays O(n) passes. */
#define PR_VERDICT_RANKS_MAX 1000000

enum pr_verdict {
	PR_VERDICT_INCONCLUSIVE = 0,
	PR_VERDICT_REGRESSION,
	PR_VERDICT_IMPROVEMENT,
	PR_VERDICT_EQUIVALENT
};

/* The primary method that produced change_pct, its interval and p. */
enum pr_method {
	PR_METHOD_AUTO = 0,     /* in options: let pr_compare choose */
	PR_METHOD_STUDENT,      /* pooled t on the means, Fieller interval */
	PR_METHOD_WELCH,        /* Welch t on the means, Fieller interval */
	PR_METHOD_MWU,          /* Mann-Whitney U with Hodges-Lehmann ratio */
	PR_METHOD_NONE,         /* no test possible (one value a side) */
	PR_METHOD_MODERATED,    /* suite sessions: empirical-Bayes moderated t
			      * on the log session means (moderated.h) */
	PR_METHOD_SESSION_BOUND /* suite, one session a side: the change
				 * against a bound on the between-session
				 * noise, which is unknown (moderated.h) */
};

/* Bits of pr_verdict_opts.flags. */
enum {
	/* Compute only what decides the verdict: no secondary tests, no
	 * ratio intervals and no runs_needed (the verdict, change and
	 * interval are the same; used by bench/verdict-sim). */
	PR_VERDICT_PRIMARY_ONLY = 1 << 0,
	/* Skip the bootstrap / asymptotic ratio intervals only. */
	PR_VERDICT_NO_RATIO = 1 << 1,
	/* Skip the secondary Mann-Whitney test and Hodges-Lehmann shift
	 * (unless the primary method needs them): the shift's search
	 * costs about a second per million values a side. */
	PR_VERDICT_NO_RANKS = 1 << 2
};

struct pr_verdict_opts {
	double conf;            /* confidence, 0.95 by default */
	double equivalence_pct; /* +- band of "equivalent", 1.0 */
	enum pr_method method;  /* PR_METHOD_AUTO by default */
	uint64_t seed;          /* bootstrap seed, 1 by default */
	unsigned boot_reps;     /* 0: PR_RATIO_BOOT_REPS */
	unsigned flags;         /* PR_VERDICT_* bits, 0 by default */
};

/* Fills o with the defaults above. */
void pr_verdict_opts_init(struct pr_verdict_opts *o);

/* Bits of pr_comparison.notes: facts a report should mention. */
enum {
	PR_NOTE_UNTESTED = 1 << 0,          /* < 2 values on a side: no test */
	PR_NOTE_DIRECTION_ASSUMED = 1 << 1, /* better unknown: lower */
	PR_NOTE_QUANTISED = 1 << 2,    /* a variance was raised to h^2/12 */
	PR_NOTE_NEGLIGIBLE = 1 << 3,   /* significant, inside the band */
	PR_NOTE_ADAPTIVE = 1 << 4,     /* the selector ran (skewness and
				       * tail_weight are set) */
	PR_NOTE_NONNORMAL = 1 << 5,    /* ... and chose Mann-Whitney */
	PR_NOTE_NO_CI = 1 << 6,        /* no bounded interval for the change
				       * (base mean not clearly nonzero, or
				       * too few values for Hodges-Lehmann) */
	PR_NOTE_DEGENERATE = 1 << 7,   /* zero spread on both sides and no
				       * grid: the interval is a point */
	PR_NOTE_HOLM = 1 << 8,         /* p adjusted by Holm (holm_m > 1) */
	PR_NOTE_NO_CHANGE = 1 << 9,    /* the base mean is 0, or the means
				       * have opposite signs: no percent */
	PR_NOTE_FALLBACK = 1 << 10,    /* forced Mann-Whitney impossible
				       * (values <= 0): t test used */
	PR_NOTE_MAXTEST = 1 << 11,     /* p is the maximum test's (means
				       * and ranks, permutation); method
				       * names the winner, which gave the
				       * change and its interval */
	PR_NOTE_BH = 1 << 12,          /* p adjusted by Benjamini-Hochberg
				       * (holm_m is the family size) */
	PR_NOTE_ONE_SESSION = 1 << 13, /* one session a side: the
					* between-session noise is unknown,
					* the change is held against a bound
					* (PR_METHOD_SESSION_BOUND) */
	PR_NOTE_PRIOR = 1 << 14,       /* the between-session variance was
					* shrunk towards this host's history
					* (a prior given by the caller) */
	PR_NOTE_NOT_POSITIVE = 1 << 15 /* a session mean <= 0: no ratio,
					* untested (moderated.h) */
};

struct pr_comparison {
	struct pr_summary base, new;
	enum pr_better better; /* as given (see PR_NOTE_DIRECTION_ASSUMED) */

	enum pr_method method; /* the primary method */
	int tested;            /* 0: no test possible (n < 2 a side) */
	double change_pct;     /* 100 * (new/base - 1) by the method; 0 when
				* have_change is 0 */
	int have_ci;
	double ci_lo_pct, ci_hi_pct;
	double p_value;    /* of the primary method, unadjusted; 1 when
				* untested (print a dash, not this) */
	double p_adjusted; /* after Holm (== p_value for one metric) */
	int holm_m;        /* number of metrics in the Holm family:
				* 1 after pr_compare, 0 when untested */
	enum pr_verdict verdict;
	/* When inconclusive: runs per side that would likely settle it
	 * (80% power at the observed change, or an interval narrow enough
	 * to show equivalence, whichever is fewer; at alpha / holm_m in a
	 * Holm family); 0 when unknown (no spread can be estimated, or
	 * more than PR_VERDICT_RUNS_MAX). */
	size_t runs_needed;

	/* Every secondary figure, each with a flag that says whether it
	 * could be computed for this data.  student and welch are on the
	 * raw values exactly as given (ministat's figures, without the
	 * resolution floor); mwu is rank-based; hl is the shift new - base
	 * in the units of the data. */
	int have_student, have_welch, have_mwu, have_hl;
	int have_ratio_means, have_ratio_medians;
	struct pr_ttest student, welch;
	struct pr_mwu mwu;
	struct pr_shift hl;
	struct pr_ratio_ci ratio_means, ratio_medians;

	/* Added by the verdict module. */
	int have_change; /* change_pct is defined (base mean != 0) */
	int direction;   /* sign of the estimated change new - base:
				* -1, 0 or +1 */
	unsigned notes;  /* PR_NOTE_* bits */
	double conf;     /* the confidence used */
	double equivalence_pct;
	double resolution;         /* the decimal grid of all the values
				* (0.01 for "7.02"), 0 when none found */
	struct pr_ttest primary_t; /* the primary t test (method STUDENT or
				    * WELCH), with the resolution floor */
	int have_hl_ratio;         /* method MWU: hl_ratio holds the shift of
				* the log values (estimate, lo, hi); the
				* change is 100 * (exp(shift) - 1) */
	struct pr_shift hl_ratio;
	double skewness;    /* selector: Hogg's Q1 of the pooled sample */
	double tail_weight; /* selector: Hogg's Q2 of the pooled sample */
	double rel_sd;      /* spread of one run relative to the base
				* as the primary method sees it (basis of
				* runs_needed); 0 when unknown */
};

/*
 * Compares base (nb values) with new (nn values); both arrays sorted
 * ascending and finite (checked: PR_EINVAL otherwise).  nb, nn >= 1.
 * With one value on a side, `tested` is 0, the change is the plain
 * ratio and the verdict inconclusive.  o may be NULL for the defaults.
 * Returns PR_EINVAL for empty or unsorted input or bad options,
 * PR_ENOMEM when scratch memory (for the maximum test, the
 * Hodges-Lehmann ratio and the bootstrap; none for the t test) cannot be
 * had.  Work: O(nb + nn) for the t test; the maximum test adds
 * PR_VERDICT_PERMS * min(nb + nn, PR_VERDICT_PERM_MAX) steps; the
 * secondary figures add O(n log n) (Hodges-Lehmann, up to
 * PR_VERDICT_RANKS_MAX values a side) and the bounded bootstrap of
 * pr_ratio_ci.  From 2^18 values in all, with more than one CPU, the new
 * side is checked and described on a second thread (same figures).
 * Deterministic: the same data and options give the same result.
 */
enum pr_status pr_compare(const double *base, size_t nb, const double *new_,
    size_t nn, enum pr_better better, const struct pr_verdict_opts *o,
    struct pr_comparison *out, struct pr_error *err);

/*
 * Applies Holm's step-down correction to the p-values of n comparisons
 * made together (several metrics) and recomputes their verdicts and
 * runs_needed with the adjusted p-values.  Untested comparisons do not
 * count in the family.  The intervals are not widened: an interval that
 * excludes 0% next to an "inconclusive" verdict means the change was
 * not significant after the correction.  o may be NULL for the
 * defaults; its conf and equivalence_pct must be those given to
 * pr_compare.  In the unlikely case that memory for 2m doubles cannot be
 * had, Bonferroni's adjustment (m p, never below Holm's) is used.
 */
void pr_compare_holm(struct pr_comparison *c, size_t n,
    const struct pr_verdict_opts *o);

/*
 * The checks pr_compare makes of its options and direction: PR_OK, or
 * PR_EINVAL with a one-line message (confidence outside (0, 1), a
 * negative or non-finite band, an unknown method or direction, bootstrap
 * replicates out of range).
 */
enum pr_status pr_verdict_opts_check(const struct pr_verdict_opts *o,
    enum pr_better better, struct pr_error *err);

/*
 * The decision rule above, for comparisons built outside pr_compare (as
 * pr_nested_predict does): sets c->verdict, and PR_NOTE_NEGLIGIBLE in
 * c->notes, from c->tested, c->have_ci, c->ci_lo_pct, c->ci_hi_pct,
 * c->p_adjusted, c->direction, c->better, c->conf (alpha = 1 - conf) and
 * c->equivalence_pct; reads and changes nothing else.  Untested
 * comparisons are inconclusive.
 */
void pr_verdict_decide(struct pr_comparison *c);

/*
 * Fieller's interval (JRSS B 16, 1954) of the change of a mean, in
 * percent of the base's magnitude, 100 (new - base) / |base|, the interval
 * pr_compare gives its t methods.  ma and mb are the two means, ea and eb
 * their standard errors relative to |ma|, q the t quantile of the
 * confidence (0 for none).  positive says no value of either side is
 * below 0 (times, throughputs, counts; 0 included): the ratio is then at
 * least 0 and the interval is cut at -100% at both ends.  Returns 0 with *lo <= *hi, or -1
 * when the set is not a finite interval (the base mean is not clear of 0 at
 * this confidence, or ma is 0); *lo and *hi are then NaN.
 */
int pr_fieller_pct(double ma, double mb, double ea, double eb, double q,
    int positive, double *lo, double *hi);

/* Holm-adjusted p-values: adj[i] for p[i], monotone, capped at 1.  adj
 * must not overlap p.  O(n log n); O(n^2) when memory for n indices
 * cannot be had (never fails). */
void pr_holm(const double *p, size_t n, double *adj);

/* Benjamini-Hochberg adjusted p-values (R's p.adjust(p, "BH")): adj[i]
 * for p[i], the running minimum from the largest p down of n p_(r) / r,
 * capped at 1.  adj must not overlap p.  O(n log n); Bonferroni's n p
 * (never below BH's) when memory for n indices cannot be had (never
 * fails). */
void pr_bh(const double *p, size_t n, double *adj);

/* Static strings, never NULL ("?" for values out of range). */
const char *pr_verdict_str(enum pr_verdict v); /* "regression", ... */
const char *pr_method_str(enum pr_method m);   /* "Welch's t", ... */
const char *pr_better_str(enum pr_better b);   /* "higher"/"lower" */

#endif /* PERFREG_VERDICT_H */
