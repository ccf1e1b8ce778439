/*
 * perfreg/nested.h - comparing two variants measured over several boots:
 * runs nested in boots, the boot as the unit of analysis.
 *
 * Runs made in one boot share that boot's state (page placement, cache
 * colouring, the timer the kernel picked, the order drivers came up in),
 * so they are not independent draws: their spread says nothing about how
 * much a reboot moves the result.  Following T. Kalibera and R. Jones,
 * "Rigorous Benchmarking in Reasonable Time" (ISMM 2013; the revised
 * version, whose T_2^2 subtracts S_1^2 / r_1), the measurements form a
 * two-level design, boots above runs, and the unit of analysis is the
 * boot:
 *
 * - When each side has at least 2 boots, the comparison is pr_compare on
 *   the boot means (each boot weighs 1 however many runs it has): Welch's
 *   t test with the Welch-Satterthwaite df and Fieller's interval of the
 *   ratio of the means of the boot means, from the same variances, df and
 *   t quantile, so the interval excludes 0% exactly when p < 1 - conf.
 *   The variance of a side's mean is its sample variance of boot means
 *   over the number of boots, S_2^2 / n_boots, as in Kalibera and Jones.
 * - When a side has a single boot, the boot-to-boot variance cannot be
 *   estimated: the comparison falls back to the runs as units (pr_compare
 *   with Welch's t on all the values) and `single_boot` is set.  A report
 *   must then warn that the reboot's own noise is unknown and the interval
 *   may be far too narrow.
 *
 * The verdict, its vocabulary (regression, improvement, equivalent,
 * inconclusive, untested) and the decision rule are those of
 * perfreg/verdict.h, applied to the units above; only the method differs
 * (always Welch: the caller's opts.method is ignored) and the secondary
 * rank tests and bootstrap ratios are not computed (their figures in
 * `cmp` are flagged absent).  cmp.runs_needed counts units per side:
 * boots (at the current runs per boot) unless single_boot.  pr_compare's
 * resolution floor applies to the units: boot means that all lie on a
 * decimal grid have their variance raised to at least h^2 / 12.
 *
 * Variance components of a side (struct pr_nested_desc), with g boots,
 * r_j runs in boot j, boot means m_j and K&J's numbering (level 1 the
 * runs, level 2 the boots):
 *   S_1^2 = T_1^2 = sum_j sum_k (x_jk - m_j)^2 / sum_j (r_j - 1),
 *           the pooled within-boot variance (var_within);
 *   S_2^2 = sum_j (m_j - mean m)^2 / (g - 1), the sample variance of the
 *           boot means (var_means);
 *   T_2^2 = S_2^2 - S_1^2 * hm, hm = (1/g) sum_j 1 / r_j, the unbiased
 *           estimate of the boot-to-boot variance (var_between; it can be
 *           negative when the boots differ less than the runs suggest).
 *           With r runs in every boot hm is 1 / r, K&J's formula; with
 *           unequal boots E[S_2^2] = tau^2 + sigma^2 hm, so the estimate
 *           stays unbiased.
 *   icc  = T_2^2 / (T_2^2 + T_1^2) with T_2^2 taken as 0 when negative:
 *           the share of a single run's variance that comes from the boot.
 *   runs_per_boot_opt = ceil(sqrt(boot_cost * T_1^2 / T_2^2)), K&J's
 *           optimal number of repetitions at the lower level for a fixed
 *           budget, boot_cost the cost of a boot (the reboot and set-up,
 *           without its runs) in units of the cost of one run; at least 1
 *           and at most PR_NESTED_RUNS_MAX.
 * A figure that the data cannot give has its bit clear in `defined` and
 * holds 0, never NaN.
 *
 * Thread-safety: reentrant, no global state.  Ownership: the sides are
 * only read; the results hold no pointers, nothing to free.
 */
#ifndef PERFREG_NESTED_H
#define PERFREG_NESTED_H

#include <stddef.h>

#include "perfreg/error.h"
#include "perfreg/verdict.h"

/* The largest runs_per_boot_opt reported (a larger optimum is capped). */
#define PR_NESTED_RUNS_MAX 1000000

/*
 * One variant's values: x[i] was measured in boot group[i].  The values
 * are ordered by boot: group is nondecreasing, and each maximal run of
 * equal indices is one boot (the indices themselves need not start at 0
 * or be consecutive, so a store's boot numbers can be passed as they
 * are).  Within a boot the values may be in any order.
 */
struct pr_nested_side {
	const double *x;
	const size_t *group;
	size_t n;
};

/* Bits of pr_nested_desc.defined. */
enum {
	PR_NESTED_VAR_MEANS = 1 << 0,   /* >= 2 boots */
	PR_NESTED_VAR_WITHIN = 1 << 1,  /* a boot with >= 2 runs */
	PR_NESTED_VAR_BETWEEN = 1 << 2, /* both of the above */
	PR_NESTED_ICC = 1 << 3,         /* ... and T_1^2 + T_2^2 > 0 */
	PR_NESTED_RUNS_OPT = 1 << 4     /* ... boot_cost > 0, T_2^2 > 0 */
};

struct pr_nested_desc {
	size_t n;                  /* values */
	size_t ngroups;            /* boots */
	size_t runs_min, runs_max; /* fewest and most runs in a boot */
	double mean;               /* mean of the boot means */
	double var_means;   /* S_2^2: sample variance of the boot means */
	double var_within;  /* S_1^2 = T_1^2: pooled within-boot variance */
	double var_between; /* T_2^2: boot-to-boot variance, may be < 0 */
	double icc;         /* boot-level share of a run's variance */
	size_t runs_per_boot_opt; /* K&J's optimum, see above */
	unsigned defined;         /* PR_NESTED_* bits */
};

struct pr_nested_result {
	struct pr_nested_desc base, new_;
	/* A side has one boot: the units are runs and the interval ignores
	 * the boot-to-boot variance, which is unknown. */
	int single_boot;
	/* The comparison of the units (boot means, or runs when
	 * single_boot): cmp.base and cmp.new describe the units, so their
	 * means are the means of the boot means (or of all runs);
	 * change_pct, ci_lo_pct, ci_hi_pct, p_value, primary_t (t, df) and
	 * verdict are the figures above. */
	struct pr_comparison cmp;
};

/*
 * The variance components of one side (see above).  boot_cost >= 0 and
 * finite; 0 leaves runs_per_boot_opt undefined.  Errors: PR_EINVAL for
 * an empty side, a NULL array, a value that is not finite or boot indices
 * that decrease (the message names the side, "sample" when name is
 * NULL, and the value's 1-based position); PR_ERANGE when a sum of squares
 * overflows; PR_ENOMEM when scratch memory for the boot means cannot be
 * had.  On failure *out is zeroed.  O(n + g log g).
 */
enum pr_status pr_nested_describe(const struct pr_nested_side *s,
    const char *name, double boot_cost, struct pr_nested_desc *out,
    struct pr_error *err);

/*
 * Compares new_ with base as described above.  better and o as for
 * pr_compare (o may be NULL for the defaults; o->conf and
 * o->equivalence_pct are used, o->method is ignored, o->flags gains
 * PR_VERDICT_NO_RATIO | PR_VERDICT_NO_RANKS); boot_cost as for
 * pr_nested_describe.  Errors are those of pr_nested_describe and
 * pr_compare; on failure *out is zeroed.  Several metrics compared
 * together: copy their cmp into one array for pr_compare_holm.  Scratch memory O(g) for the
 * boot means, O(n) when single_boot (a sorted copy of the runs), freed
 * before returning.  Deterministic.
 */
enum pr_status pr_nested_compare(const struct pr_nested_side *base,
    const struct pr_nested_side *new_, enum pr_better better,
    const struct pr_verdict_opts *o, double boot_cost,
    struct pr_nested_result *out, struct pr_error *err);

/*
 * The prediction test: one new session against k >= 2 earlier ones.
 *
 * A suite session's samples share the session's state (other load, clock
 * frequency, caches), so the session is the unit: base holds the means
 * m_1..m_k of k earlier sessions (mean M, sample standard deviation S,
 * k - 1 df) and x the mean of the new session.  With no change x is one
 * more draw from the population of the m_i, so
 *   t = (x - M) / (S sqrt(1 + 1/k)) ~ t(k - 1),  p = 2 P(T > |t|),
 * Student's pooled t with the new side contributing no variance (it has
 * 0 df).  The change is 100 (x / M - 1) and its interval Fieller's for
 * rho = x / M with var(x) = S^2 and var(M) = S^2 / k: the rho with
 * (x - rho M)^2 <= q^2 S^2 (1 + rho^2 / k), q the t quantile at
 * (1 + conf) / 2 with k - 1 df, bounded when M^2 > q^2 S^2 / k.  It
 * excludes 0% exactly when p < 1 - conf.
 *
 * *out is filled as pr_compare would: base the summary of the k values,
 * new that of x (n 1, no spread), method PR_METHOD_STUDENT, tested 1,
 * change_pct, have_ci and the interval, p_value = p_adjusted (holm_m 1),
 * primary_t (diff x - M, se S sqrt(1 + 1/k), t, df k - 1, p, the interval
 * of the difference, pooled_sd S), and the verdict by
 * pr_verdict_decide (direction from better, o->equivalence_pct,
 * o->conf; o->method, seed, boot_reps and flags are checked as by
 * pr_compare but otherwise ignored).  No
 * secondary figures (their have_* flags are 0).  runs_needed and rel_sd
 * are 0: more earlier sessions do not shrink the spread of the one new
 * session, so no number of sessions per side can be promised (and with
 * rel_sd 0, pr_compare_holm keeps runs_needed 0).  No resolution floor
 * (resolution 0, never PR_NOTE_QUANTISED): the values are means of
 * sessions, not figures printed to a grid.  Notes:
 * PR_NOTE_DIRECTION_ASSUMED for PR_BETTER_UNKNOWN; PR_NOTE_NO_CHANGE
 * (and PR_NOTE_NO_CI) when M is 0 or x and M have opposite signs, the
 * test standing; PR_NOTE_NO_CI when the interval is unbounded.
 *
 * S = 0 (all k base values equal): the session-to-session spread is
 * unknown and there is no test.  Conservatively the comparison is then
 * untested, as pr_compare's with one value a side: tested 0, method
 * PR_METHOD_NONE, p_value = p_adjusted = 1, holm_m 0 (it never enters a
 * Holm family), verdict inconclusive, notes PR_NOTE_UNTESTED |
 * PR_NOTE_DEGENERATE | PR_NOTE_NO_CI; the change is still given.
 *
 * Errors: PR_EINVAL for base NULL, k < 2, a value that is not finite
 * (the message names it), or options or a direction that pr_compare
 * would refuse (pr_verdict_opts_check); PR_ERANGE when x - M or the
 * spread overflows; PR_ENOMEM when a sorted copy of base (k doubles,
 * freed before returning) cannot be had.  On failure *out is zeroed.
 * o may be NULL for the defaults.  Reentrant; base is only read.
 */
enum pr_status pr_nested_predict(const double *base, size_t k, double x,
    enum pr_better better, const struct pr_verdict_opts *o,
    struct pr_comparison *out, struct pr_error *err);

#endif /* PERFREG_NESTED_H */
