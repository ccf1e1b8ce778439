/*
 * perfreg/distrib.h - distribution functions written in the project.
 *
 * The normal and Student's t distribution functions and their inverses,
 * and the regularized incomplete beta function they rest on.  They are
 * written here because the BSD license rules out GPL libraries such as
 * GSL.  Every function is checked in tests/stats against reference values
 * computed with scipy (tests/stats/gen_distrib_fixtures.py): distribution
 * functions agree to 1e-9 relative, also deep in the tails, where the
 * _sf (survival, upper tail) forms must be used instead of 1 - cdf.
 *
 * All functions are pure and thread-safe.  Arguments outside the domain
 * give NaN (documented per function); callers in the library check the
 * domain before calling, so a NaN never reaches the user.
 */
#ifndef PERFREG_DISTRIB_H
#define PERFREG_DISTRIB_H

/* Standard normal: P(Z <= x), P(Z > x), and the x with P(Z <= x) = p.
 * pr_norm_quantile(0) = -inf, (1) = +inf, outside [0, 1] NaN. */
double pr_norm_cdf(double x);
double pr_norm_sf(double x);
double pr_norm_quantile(double p);

/* Student's t with df > 0 degrees of freedom (df need not be an integer:
 * Welch's test uses fractional df; df = +inf gives the normal).  NaN for
 * df <= 0 or NaN arguments. */
double pr_t_cdf(double t, double df);
double pr_t_sf(double t, double df);
/* The t with P(T <= t) = p; p in (0, 1), else +-inf at 0/1, NaN outside. */
double pr_t_quantile(double p, double df);

/* Regularized incomplete beta I_x(a, b) for a, b > 0 and x in [0, 1]. */
double pr_betainc(double a, double b, double x);
/* Its complement 1 - I_x(a, b), computed without cancellation. */
double pr_betainc_c(double a, double b, double x);
/* The x in [0, 1] with I_x(a, b) = p, for p in [0, 1]. */
double pr_betainc_inv(double a, double b, double p);

/* log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a + b), accurate for large
 * arguments; thread-safe (does not touch signgam). */
double pr_lbeta(double a, double b);

#endif /* PERFREG_DISTRIB_H */
