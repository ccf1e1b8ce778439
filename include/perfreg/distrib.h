/*
 * perfreg/distrib.h - distribution functions written in the project.
 *
 * The normal and Student's t distribution functions and their inverses,
 * and the regularized incomplete beta function they rest on.  They are
 * written here because the BSD license rules out GPL libraries such as
 * GSL; the methods and references are in src/stats/distrib.c.
 *
 * Accuracy: every function is checked in tests/stats against about 7000
 * reference values from scipy, checked with mpmath at 40 digits
 * (tests/stats/gen_distrib_fixtures.py).  The bar is 1e-9
 * relative; the worst errors measured are 1e-13 for the normal and t
 * distribution functions and quantiles (df from 0.05 to 1e12, |t| up to
 * 1000, results down to 1e-300), 5e-13 for the incomplete beta (a, b from
 * 1e-3 to 1e4) and 1.3e-12 for its inverse.  Tail probabilities
 * keep that relative accuracy deep in the tails as long as the _sf
 * (survival, upper tail) forms are used instead of 1 - cdf: a p-value of
 * 1e-12 is right to its last digits.  Results below about 1e-300 may
 * lose relative accuracy and underflow to 0.  The incomplete beta needs
 * a and b not both beyond about 1e15 (NaN there, near the mean); the t
 * functions have no such limit (b is 1/2) and are the normal for df above
 * 1e30, where the two agree to double precision (against quadrature of
 * the density at df 1e32 to DBL_MAX: 1e-13, tests/stats/data/
 * distrib_tails.txt).  With a or b from 0.01 down to 5e-324 both I and
 * its complement keep their relative accuracy (worst 1.7e-12, at a = 2e-3,
 * where the complement is still 1 - I; below 1e-3 1e-14), also where one
 * of them is within 1e-100 of 1.
 *
 * All functions are pure and thread-safe (no global state; signgam is not
 * touched).  Arguments outside the domain give NaN (documented per
 * function); callers in the library check the domain before calling, so
 * a NaN never reaches the user.  Cost: the t and beta functions take a
 * continued fraction of tens of terms (up to a few hundred for a and b
 * near 1e4), about 0.3 us for pr_t_sf; the quantiles a handful of those
 * evaluations, about 5 us for pr_t_quantile.
 */
#ifndef PERFREG_DISTRIB_H
#define PERFREG_DISTRIB_H

/*
 * Standard normal: P(Z <= x), P(Z > x), and the x with P(Z <= x) = p.
 * pr_norm_quantile(0) = -inf, (1) = +inf; NaN for p outside [0, 1] and
 * for NaN arguments.
 */
double pr_norm_cdf(double x);
double pr_norm_sf(double x);
double pr_norm_quantile(double p);

/*
 * Student's t with df > 0 degrees of freedom: P(T <= t) and P(T > t).
 * df need not be an integer (Welch's test uses fractional df); df = +inf
 * gives the normal.  NaN for df <= 0 or NaN arguments; t = +-inf gives
 * 0 or 1.
 */
double pr_t_cdf(double t, double df);
double pr_t_sf(double t, double df);
/*
 * The t with P(T <= t) = p for p in (0, 1); -inf at p = 0, +inf at p = 1,
 * NaN for p outside [0, 1], df <= 0 or NaN.  For p > 1/2 the quantile is
 * computed from 1 - p, which is exact, so the upper tail is as accurate
 * as the lower one (up to the rounding of p itself).
 */
double pr_t_quantile(double p, double df);

/*
 * Regularized incomplete beta I_x(a, b) for finite a, b > 0 and x in
 * [0, 1]; NaN outside that domain.  The value on the side of the
 * continued fraction, x below (a + 1) / (a + b + 2), is accurate
 * relative; the other side is 1 minus it, except where the side's first
 * argument is at most 1e-3 (the value there is then near 1) and a series
 * gives the small complement with its relative accuracy (I_0.9(1,
 * 1e-100) = 2.3e-100, once 0; tests/stats/data/distrib_tails.txt).
 */
double pr_betainc(double a, double b, double x);
/* Its complement 1 - I_x(a, b), computed without cancellation. */
double pr_betainc_c(double a, double b, double x);
/*
 * The x in [0, 1] with I_x(a, b) = p, for p in [0, 1] (0 and 1 at the
 * ends; 0 when the root is below the smallest double); NaN outside the
 * domain.  Where I_x is nearly flat in x (a or b below 0.1) the root is
 * ill-conditioned, and its accuracy is that of I_x times 1 / a or 1 / b.
 */
double pr_betainc_inv(double a, double b, double p);

/*
 * log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b) for a, b > 0, with
 * an absolute error near 1e-15 times max(1, |log B|) also for large a and
 * b, where the three terms cancel; NaN outside the domain.  Thread-safe
 * (does not touch signgam).
 */
double pr_lbeta(double a, double b);

/*
 * The digamma function psi(x) = d/dx log Gamma(x) and its first two
 * derivatives, psi'(x) (trigamma) and psi''(x) (tetragamma), for x > 0
 * (NaN for x <= 0 or NaN; psi(+inf) = +inf, psi'(+inf) = psi''(+inf) = 0).
 * Accuracy against mpmath (tests/stats/data/distrib_small.txt, x from
 * 1e-6 to 1e7): psi to 1e-15 absolute times max(1, |psi|) (relative
 * accuracy is lost only near its root, x = 1.4616...), psi' to 1e-15
 * and psi'' to 1e-14 relative.  Used by limma's moderated t
 * (perfreg/moderated.h).
 */
double pr_digamma(double x);
double pr_trigamma(double x);
double pr_tetragamma(double x);

#endif /* PERFREG_DISTRIB_H */
