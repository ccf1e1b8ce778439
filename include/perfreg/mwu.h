/*
 * perfreg/mwu.h - the Mann-Whitney U (Wilcoxon rank-sum) test and the
 * Hodges-Lehmann shift estimate with its distribution-free interval.
 *
 * U counts the pairs (a_i, b_j) with b_j > a_i, plus one half for each
 * pair with b_j == a_i: U = 0 when every b is below every a, and U is
 * R's statistic W of wilcox.test(b, a) and scipy's mannwhitneyu(b, a).
 * p is two-sided.
 *
 * Method (PR_MWU_AUTO): without ties in the pooled sample and with
 * na, nb <= PR_MWU_EXACT_MAX, the p-value comes from the exact null
 * distribution of U (Mann and Whitney, Ann. Math. Statist. 18, 1947),
 * p = min(1, 2 min(P(U <= u), P(U >= u))); otherwise from the normal
 * approximation with mean na nb / 2, the variance corrected for ties,
 *   na nb / 12 * ((N + 1) - sum(t^3 - t) / (N (N - 1))),  N = na + nb,
 * t the sizes of the groups of equal values, and a continuity correction
 * of 0.5 towards the mean.  This is exactly R's wilcox.test(exact = NULL,
 * correct = TRUE), which also switches at 50 values a side.  (scipy's
 * method="auto" switches to the normal approximation above 8 values a
 * side; its method="exact" and method="asymptotic" give the two p-values
 * computed here.)  When every value is equal the variance is 0; then
 * z = 0 and p = 1.
 *
 * The Hodges-Lehmann estimate of the shift b - a is the median of the
 * na*nb pairwise differences b_j - a_i (the mean of the middle two for an
 * even count).  Its interval [D(k), D(na nb + 1 - k)], D(1) <= D(2) <= ...
 * the sorted differences, is the set of shifts that the two-sided test
 * at 1 - conf does not reject (Hodges and Lehmann, Ann. Math. Statist.
 * 34, 1963; Lehmann, "Nonparametrics", 1975, sec. 2.6; Bauer, JASA 67,
 * 1972):
 * - exact (the same condition as for the test): k is the smallest q with
 *   P(U <= q) >= (1 - conf)/2 under the exact null distribution, and the
 *   achieved coverage is 1 - 2 P(U <= k - 1) >= conf.  This is R's
 *   wilcox.test(conf.int = TRUE, exact = TRUE) to the last bit.
 * - normal: k = ceil(na nb / 2 - 0.5 - z sigma), z the (1 + conf)/2
 *   normal quantile and sigma the standard deviation of U with the tie
 *   correction of the values tied within a (and within b): the ties a
 *   shifted b - d has with a for a general shift d.  This is the exact
 *   solution of the equation R's wilcox.test(exact = FALSE, correct =
 *   TRUE) solves with uniroot(tol = 1e-4), so R's end points agree with
 *   these to about 1e-4 (R's estimate in this mode is likewise a root
 *   somewhere between the two middle differences; perfreg always reports
 *   their median).
 * When k < 1 the asked confidence needs more values than there are (3+3
 * at 95%): then lo and hi are the extreme differences, achieved_conf is
 * what they cover (exactly, or by the normal approximation), and the
 * status is PR_EUNDEF.
 *
 * The differences are never materialised: the k-th smallest is found by
 * a search on its value (see pr_mwu_diff_select), in O(na + nb) time per
 * step and O(1) extra memory.
 *
 * All functions are reentrant and thread-safe; they keep no state.  Inputs
 * must be sorted ascending and finite (PR_EINVAL otherwise: the check is
 * O(na + nb)), with na, nb >= 1 and na * nb <= 2^53 (PR_ELIMIT).
 */
#ifndef PERFREG_MWU_H
#define PERFREG_MWU_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/error.h"

/* The largest size a side may have for the automatic exact method. */
#define PR_MWU_EXACT_MAX 49
/* The largest size a side may have for pr_mwu_exact_p and the forced
 * exact method: the table of the distribution takes O(m n u) time and
 * O(min(m, n) u) memory for a tail up to u <= m n / 2 (8 MB at most). */
#define PR_MWU_EXACT_P_MAX 100

enum pr_mwu_method {
	PR_MWU_AUTO = 0, /* exact when possible, as described above */
	PR_MWU_EXACT,    /* exact; PR_EINVAL with ties, PR_ELIMIT when a
			  * side is larger than PR_MWU_EXACT_P_MAX */
	PR_MWU_NORMAL    /* the normal approximation, always */
};

struct pr_mwu {
	double u;  /* U statistic of b, as described above */
	double z;  /* standardised statistic (normal method), else 0;
		       * positive when b tends to be larger */
	double p;  /* two-sided p-value */
	int exact; /* 1: exact null distribution; 0: normal approx. */
	int ties;  /* 1 when any value occurs twice in the pooled data */
};

struct pr_shift {
	double estimate;      /* median of the pairwise differences b - a */
	double lo, hi;        /* interval for the shift */
	double achieved_conf; /* the exact coverage of the chosen order
			       * statistics (>= the asked confidence), or
			       * the asked one for the normal method; when
			       * PR_EUNDEF, the coverage of lo, hi */
	uint64_t k;           /* lo = D(k), hi = D(na nb + 1 - k); 0 when
			       * PR_EUNDEF (then lo = D(1), hi = D(na nb)) */
	int exact;
};

/* The test with PR_MWU_AUTO.  ENOMEM possible for the exact table. */
enum pr_status pr_mwu_test(const double *a, size_t na, const double *b,
    size_t nb, struct pr_mwu *out, struct pr_error *err);
/* The test with the given method. */
enum pr_status pr_mwu_test_with(const double *a, size_t na, const double *b,
    size_t nb, enum pr_mwu_method method, struct pr_mwu *out,
    struct pr_error *err);

/*
 * The exact two-sided p-value of U = u for sizes m, n without ties:
 * min(1, 2 P(U <= min(u, mn - u))).  u must be an integer in [0, m n]
 * (PR_EINVAL), m, n in [1, PR_MWU_EXACT_P_MAX] (PR_ELIMIT).  The null
 * probabilities come from the recursion on the largest observation,
 *   P_{m,n}(k) = n/(m+n) P_{m,n-1}(k - m) + m/(m+n) P_{m-1,n}(k),
 * in probabilities (no counts that overflow; no cancellation).  For 3+3
 * the smallest p is 2/20 = 0.1: the exact test never rejects at 5%.
 */
enum pr_status pr_mwu_exact_p(double u, size_t m, size_t n, double *p,
    struct pr_error *err);

/*
 * The Hodges-Lehmann shift of b against a at confidence conf (0 < conf <
 * 1), with PR_MWU_AUTO.  a and b sorted ascending; PR_EUNDEF when the
 * interval needs more data than there is (then the estimate is set, lo
 * and hi are the extreme differences and achieved_conf says what they
 * cover).  PR_ERANGE when a difference overflows.
 */
enum pr_status pr_hodges_lehmann(const double *a, size_t na, const double *b,
    size_t nb, double conf, struct pr_shift *out, struct pr_error *err);
/* The same with the given method (see pr_mwu_method). */
enum pr_status pr_hodges_lehmann_with(const double *a, size_t na,
    const double *b, size_t nb, double conf, enum pr_mwu_method method,
    struct pr_shift *out, struct pr_error *err);

/*
 * The k-th smallest (1 <= k <= na nb) of the differences b_j - a_i, each
 * rounded as the double subtraction rounds it, into *out.  The na nb
 * differences are never stored.  The search keeps an interval (L, H] of
 * values that holds the answer, with fewer than k differences <= L and
 * at least k <= H, and shrinks it by counting the differences <= a pivot
 * d in one pass with two pointers: b_j - a_i grows with j and falls with
 * i, so the first i with b_j - a_i <= d never moves back as j grows.
 * The pass also finds the largest difference <= d and the smallest > d,
 * which give the answer exactly when the count is k or k - 1.
 * - First bracket: when a side has more than 2048 values, both are cut
 *   into at most 2048 blocks of consecutive sorted values; the block
 *   corners bound every count from both sides in O(2048) steps, and
 *   bisecting on them brackets the answer within about 2 na nb / 2048
 *   differences without touching the data.
 * - Pivots interpolate the rank k - 1/2 between the counts at L and H;
 *   when one end has moved twice running, the pivot aims past k by twice
 *   the last miss, to bring the other end in (the stall of regula
 *   falsi).  Three pivots in a row that fail to halve the differences
 *   in (L, H] are followed by a bisection of the doubles in (L, H) in
 *   their binary order, so the search ends after at most 4 * 64 passes.
 * - Once at most 16384 differences lie in (L, H], one pass collects them
 *   into a buffer and a sort ends the search.
 * Typical work: 5 to 7 passes of na + nb steps for each order statistic
 * (a Hodges-Lehmann estimate and interval need three, about 20 passes in
 * all): measured 0.2 to 0.6 s for 10^6 and 4 to 6 s for 10^7 values a
 * side on a busy 2-core machine (gcc -O2); extra memory is
 * O(1): about 230 KiB whatever the sizes.  When that cannot be allocated
 * the search works without it, more slowly.  The approach follows the
 * selection of the k-th pairwise difference of Johnson and Mizoguchi
 * (SIAM J. Comput. 7, 1978) and Monahan (ACM TOMS 10, 1984), with a
 * search on the value in place of their row-wise candidate sets, which
 * need O(na + nb) memory.
 */
enum pr_status pr_mwu_diff_select(const double *a, size_t na, const double *b,
    size_t nb, uint64_t k, double *out, struct pr_error *err);

#endif /* PERFREG_MWU_H */
