/*
 * stats/distrib.c - normal and Student's t distribution functions, the
 * regularized incomplete beta function and their inverses.
 *
 * Methods and references:
 * - Normal: the cdf and sf through the C99 erfc of libm (both tails keep
 *   full relative accuracy because each is an erfc of a non-negative
 *   argument when it is the small one).  The quantile by Wichura's
 *   algorithm AS 241 (PPND16, Applied Statistics 37, 1988, about 1e-16),
 *   polished by one Halley step on erfc.
 * - log Gamma and log Beta: Stirling's series with eight correction terms
 *   for arguments >= 10 and libm's lgamma_r below; log B(a, b) for large a
 *   and b is assembled so that the large terms cancel analytically
 *   (Abramowitz and Stegun 6.1.41, 6.2.2).
 * - Incomplete beta I_x(a, b): the continued fraction of Abramowitz and
 *   Stegun 26.5.8 in its even contraction, evaluated by the modified Lentz
 *   method (Lentz 1976; Thompson and Barnett 1986) on the side
 *   x < (a + 1) / (a + b + 2), where it converges, with the symmetry
 *   I_x(a, b) = 1 - I_{1-x}(b, a) on the other side; when the side's
 *   first argument is at most 1e-3 the value there is near 1, and its
 *   complement comes from the hypergeometric series (A&S 26.5.4) with
 *   the log-gamma differences in powers of a (see ibeta_tiny_c).  Its terms are
 *   rewritten around lambda = a - (a + b) x, computed exactly (fma and
 *   compensated sums), so that near the limit no digits are lost to the
 *   rounding of x (see betacf).  The prefactor x^a (1-x)^b / B(a, b) is
 *   formed in log space, and for large a and b in the form of DiDonato
 *   and Morris (ACM TOMS 18, 1992, "BRCOMP") whose exponent
 *   -a rlog1(.) - b rlog1(.) has no cancellation.  Callers pass both x and
 *   1 - x, so that neither tail is lost to rounding.  Convergence takes
 *   tens of terms, up to about (a + b)^(1/3) at the mean of large a and b;
 *   beyond a, b ~ 1e15 there, NaN.
 * - Student's t: P(T > t) = I_{df/(df+t^2)}(df/2, 1/2) / 2 (A&S 26.7.1),
 *   with df/(df+t^2) and t^2/(df+t^2) computed separately, in logs where
 *   df/(df+t^2) would underflow (df below 1 and huge t); the normal for
 *   df above 1e30, where the two agree to double precision.
 * - Inverses: a safeguarded Newton iteration on log I in log x, started
 *   from A&S 26.5.22 or the tail approximations of I, bracketed so that it
 *   always converges; the t quantile is then polished by Newton steps on
 *   log P(T > t) in log t (the tail is nearly a power of t), which also
 *   finds quantiles whose x underflows, and gives +-inf beyond DBL_MAX.
 *
 * - Polygamma: psi, psi' and psi'' by the recurrences
 *   psi(x) = psi(x + 1) - 1 / x (and its derivatives) up to x >= 10, then
 *   the asymptotic series in 1 / x^2 with the Bernoulli numbers
 *   (A&S 6.3.18, 6.4.11), whose first omitted term is below 1e-17
 *   relative there.
 *
 * Invariants: every function is pure (no static state, no errno or signgam
 * use beyond what libm does), so all are thread-safe.
 */
#include <float.h>
#include <math.h>

#include "perfreg/distrib.h"
#include "stats/nsum.h"

#include "core/banned.h"

#define LN_SQRT_2PI 0.91893853320467274178032973640562 /* log(sqrt(2 pi)) */
#define SQRT_2PI 2.50662827463100050241576528481105
#define SQRT1_2 0.70710678118654752440084436210485
#define EULER_GAMMA 0.57721566490153286060651209008240
/* Up to this first argument of the continued fraction's side, the
 * complement of I there comes from ibeta_tiny_c: 1 - I would keep about
 * 1e-16 / a of its digits. */
#define TINY_A 1e-3

/* ---- normal ---------------------------------------------------------- */

double
pr_norm_cdf(double x)
{
	if (isnan(x))
		return NAN;
	return 0.5 * erfc(-x * SQRT1_2);
}

double
pr_norm_sf(double x)
{
	if (isnan(x))
		return NAN;
	return 0.5 * erfc(x * SQRT1_2);
}

static double
poly(const double *c, int n, double x)
{
	double r = c[n - 1];
	int i;

	for (i = n - 2; i >= 0; i--)
		r = r * x + c[i];
	return r;
}

/*
 * The lower-tail quantile by AS 241 for 0 < p <= 0.5 (a negative x or 0),
 * with q = 0.5 - p passed in to keep its accuracy near the centre.
 */
static double
ppnd16(double p, double q)
{
	static const double a[8] = { 3.3871328727963666080e0,
		1.3314166789178437745e+2, 1.9715909503065514427e+3,
		1.3731693765509461125e+4, 4.5921953931549871457e+4,
		6.7265770927008700853e+4, 3.3430575583588128105e+4,
		2.5090809287301226727e+3 };
	static const double b[8] = { 1.0, 4.2313330701600911252e+1,
		6.8718700749205790830e+2, 5.3941960214247511077e+3,
		2.1213794301586595867e+4, 3.9307895800092710610e+4,
		2.8729085735721942674e+4, 5.2264952788528545610e+3 };
	static const double c[8] = { 1.42343711074968357734e0,
		4.63033784615654529590e0, 5.76949722146069140550e0,
		3.64784832476320460504e0, 1.27045825245236838258e0,
		2.41780725177450611770e-1, 2.27238449892691845833e-2,
		7.74545014278341407640e-4 };
	static const double d[8] = { 1.0, 2.05319162663775882187e0,
		1.67638483018380384940e0, 6.89767334985100004550e-1,
		1.48103976427480074590e-1, 1.51986665636164571966e-2,
		5.47593808499534494600e-4, 1.05075007164441684324e-9 };
	static const double e[8] = { 6.65790464350110377720e0,
		5.46378491116411436990e0, 1.78482653991729133580e0,
		2.96560571828504891230e-1, 2.65321895265761230930e-2,
		1.24266094738807843860e-3, 2.71155556874348757815e-5,
		2.01033439929228813265e-7 };
	static const double f[8] = { 1.0, 5.99832206555887937690e-1,
		1.36929880922735805310e-1, 1.48753612908506148525e-2,
		7.86869131145613259100e-4, 1.84631831751005468180e-5,
		1.42151175831644588870e-7, 2.04426310338993978564e-15 };
	double r;

	if (q <= 0.425) {
		r = 0.180625 - q * q;
		return -q * poly(a, 8, r) / poly(b, 8, r);
	}
	r = sqrt(-log(p));
	if (r <= 5) {
		r -= 1.6;
		return -poly(c, 8, r) / poly(d, 8, r);
	}
	r -= 5;
	return -poly(e, 8, r) / poly(f, 8, r);
}

double
pr_norm_quantile(double p)
{
	double x, lo, err, u;
	int upper;

	if (isnan(p) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	/* Work in the lower tail; 1 - p is exact for p >= 0.5. */
	upper = p > 0.5;
	lo = upper ? 1 - p : p;
	x = ppnd16(lo, 0.5 - lo);
	/*
	 * One Halley step on Phi(x) = lo: the error of erfc is a few ulps,
	 * so the step can only improve the polynomial's last bits.
	 */
	err = pr_norm_cdf(x) - lo;
	u = err * SQRT_2PI * exp(0.5 * x * x);
	if (isfinite(u))
		x -= u / (1 + 0.5 * x * u);
	return upper ? -x : x;
}

/* ---- log Gamma, log Beta --------------------------------------------- */

/* lgamma(x) - ((x - 0.5) log x - x + log sqrt(2 pi)) for x >= 10. */
static double
stirlerr(double x)
{
	/* B_2k / (2k (2k - 1)), k = 1..8. */
	static const double s[8] = { 1.0 / 12, -1.0 / 360, 1.0 / 1260,
		-1.0 / 1680, 1.0 / 1188, -691.0 / 360360, 1.0 / 156,
		-3617.0 / 122400 };
	double r = 1 / x, r2 = r * r;

	return r * poly(s, 8, r2);
}

/*
 * log Gamma(x) for x > 0, thread-safe: Stirling's series from 10 up, and
 * below that libm's lgamma_r (lgamma itself writes the global signgam),
 * which is within an ulp or two of the result where the recurrence down
 * from 10 would lose a few digits to cancellation.
 */
static double
lgam(double x)
{
	int sign;

	if (x >= 10)
		return (x - 0.5) * log(x) - x + LN_SQRT_2PI + stirlerr(x);
	return lgamma_r(x, &sign);
}

/* log Gamma(b) - log Gamma(a + b) for b >= 10, a > 0. */
static double
lgamratio(double a, double b)
{
	double s = a + b;

	return a - (b - 0.5) * log1p(a / b) - a * log(s) + stirlerr(b) -
	    stirlerr(s);
}

double
pr_lbeta(double a, double b)
{
	double t, s;

	if (isnan(a) || isnan(b) || a <= 0 || b <= 0)
		return NAN;
	if (a > b) {
		t = a;
		a = b;
		b = t;
	}
	if (isinf(b))
		return -INFINITY;
	if (a >= 10) {
		/*
		 * (a-.5) log a + (b-.5) log b - (s-.5) log s, rewritten as
		 * (a-.5) log(a/s) + (b-.5) log(b/s) - .5 log s.
		 */
		s = a + b;
		return LN_SQRT_2PI - 0.5 * log(s) + (a - 0.5) * log(a / s) +
		    (b - 0.5) * log1p(-a / s) + stirlerr(a) + stirlerr(b) -
		    stirlerr(s);
	}
	if (b >= 10)
		return lgam(a) + lgamratio(a, b);
	return lgam(a) + lgam(b) - lgam(a + b);
}

/* ---- incomplete beta ------------------------------------------------- */

/* e - log(1 + e) for e > -1, without cancellation near 0. */
static double
rlog1(double e)
{
	double t, t2, sum, term;
	int k;

	if (e < -0.5 || e > 0.5)
		return e - log1p(e);
	/* log1p(e) = 2 atanh(t), t = e / (2 + e); e - 2t = t e. */
	t = e / (2 + e);
	t2 = t * t;
	sum = 0;
	term = t * t2;
	for (k = 3; k < 60; k += 2) {
		sum += term / k;
		term *= t2;
		if (fabs(term) < 1e-18 * fabs(sum))
			break;
	}
	return t * e - 2 * sum;
}

/* log(x) for x in (0, 1] given y = 1 - x, accurate for both ends. */
static double
logx(double x, double y)
{
	return x < 0.5 ? log(x) : log1p(-y);
}

/*
 * a log(x / x0) - a e with x0 = a / (a + b) and e = x / x0 - 1, that is
 * -a rlog1(e); e from its numerator x s - a, the ratio x s / a directly
 * when it is far from 1 (then 1 + e would lose its relative accuracy).
 */
static double
rterm(double a, double x, double s)
{
	double e = (x * s - a) / a;

	if (e >= -0.5 && e <= 0.5)
		return -a * rlog1(e);
	return -a * (e - log(x * (s / a)));
}

/*
 * log(x^a y^b / B(a, b)), y = 1 - x, 0 < x < 1, with lx = log x and
 * ly = log y given (lx may be exact where x itself underflows).
 */
static double
lpowterm(double a, double b, double x, double y, double lx, double ly)
{
	double s;

	if (a >= 10 && b >= 10) {
		/*
		 * x^a y^b / B = (x/x0)^a (y/y0)^b sqrt(ab/s) / sqrt(2 pi)
		 * / exp(D(a) + D(b) - D(s)); the first-order terms a e_a and
		 * b e_b of the logs cancel exactly, leaving rterm's.
		 */
		s = a + b;
		return rterm(a, x, s) + rterm(b, y, s) +
		    0.5 * log(a * (b / s)) - LN_SQRT_2PI -
		    (stirlerr(a) + stirlerr(b) - stirlerr(s));
	}
	return a * lx + b * ly - pr_lbeta(a, b);
}

/*
 * log(x^a y^b / (a B(a, b))), the prefactor of the continued fraction
 * with its 1 / a: for a below 1 from log(a B(a, b)) = lgamma(a + 1) +
 * lgamma(b) - lgamma(a + b), so that a subnormal a (the t distribution at
 * a subnormal df) neither overflows 1 / a nor leaves x^a y^b / B(a, b) a
 * subnormal with few digits (issue 12: pr_t_cdf(3, 2.8e-310) was -inf).
 */
static double
lpowterm_a(double a, double b, double x, double y, double lx, double ly)
{
	double lab;

	if (a >= 1)
		return lpowterm(a, b, x, y, lx, ly) - log(a);
	if (b >= 10)
		lab = lgam(a + 1) + lgamratio(a, b);
	else
		lab = lgam(a + 1) + lgam(b) - lgam(a + b);
	return a * lx + b * ly - lab;
}

/*
 * lambda = a - (a + b) x and 1 + lambda, with no rounding but the last:
 * a + b as an exact sum sh + sl, (a + b) x as exact products (fma), all
 * summed with compensation.  From x when x <= 1/2, else from the exact
 * y as s y - b, so that the one of x and y that is exact is used.
 */
static void
lambda(double a, double b, double x, double y, double *lam, double *lam1)
{
	double sh, sl, bv, p, e, sum = 0, comp = 0;

	sh = a + b;
	bv = sh - a;
	sl = (a - (sh - bv)) + (b - bv);
	if (x <= 0.5) {
		p = sh * x;
		e = fma(sh, x, -p);
		nsum(&sum, &comp, a);
		nsum(&sum, &comp, -p);
		nsum(&sum, &comp, -e);
		nsum(&sum, &comp, -sl * x);
	} else {
		p = sh * y;
		e = fma(sh, y, -p);
		nsum(&sum, &comp, -b);
		nsum(&sum, &comp, p);
		nsum(&sum, &comp, e);
		nsum(&sum, &comp, sl * y);
	}
	*lam = sum + comp;
	nsum(&sum, &comp, 1);
	*lam1 = sum + comp;
}

/*
 * The continued fraction of A&S 26.5.8 for I_x(a, b) / (x^a y^b / (a B)),
 * 1 / (1 + d1 / (1 + d2 / (1 + ...))) with
 *   d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),
 *   d(2m)   = m(b-m) x / ((a+2m-1)(a+2m)),
 * converging for x < (a + 1) / (a + b + 2).  It is evaluated in its even
 * contraction 1 / (B0 + A1 / (B1 + A2 / (B2 + ...))), with
 * B0 = 1 + d1, Bm = 1 + d(2m) + d(2m+1), Am = -d(2m-1) d(2m), which takes
 * half the steps.
 *
 * Near the convergence limit 1 + d(2m+1) is a small difference, which
 * formed as written would lose the digits of a and b to the rounding of
 * x.  With lambda = a - (a + b) x, exact (above), and s = a + b:
 *   (a+2m)(a+2m+1) (1 + d(2m+1))
 *     = [a + 2m + 4m^2 + 3am - m a (a+m) / s] + (a+m)(s+m) lambda / s,
 * where the bracket is positive and at least half its first terms, and
 * lambda > -1 on this side of the limit, so that only B0, proportional
 * to 1 + lambda, can be small, and it is computed exactly.
 */
static double
betacf(double a, double b, double x, double y)
{
	const double tiny = 1e-300;
	double c, d, g, alpha, beta, kd2m, kdodd, m, q, k, s = a + b;
	double lam, lam1, a2m;
	long j;

	/*
	 * The terms are scaled by k = a + 1 (Bm by k, Am by k^2; the fraction
	 * is then k times smaller): for large a they are O(1 / a) and
	 * O(1 / a^2), which would underflow near a = 1e300.  k B0 = 1 + lambda.
	 */
	k = a + 1;
	lambda(a, b, x, y, &lam, &lam1);
	g = lam1;
	if (fabs(g) < tiny)
		g = tiny;
	c = g;
	d = 0;
	for (j = 1; j < 1000000; j++) {
		/*
		 * Integer parts are summed first: a + 2m - 2 written as
		 * (a + 2m) - 2 would cancel to a with a rounding error of
		 * 2m ulps, a large relative error when a is small.  Quotients
		 * are taken pairwise so that a and b up to 1e300 fit, and
		 * a / s before (a + m) / s, which overflows when a and b
		 * are both subnormal.
		 */
		m = (double)j;
		a2m = a + 2 * m;
		kd2m = m * (b - m) * (k / (a + (2 * m - 1))) * (x / a2m);
		/* -d(2m-1) = (a+m-1)(a+b+m-1) x / ((a+2m-2)(a+2m-1)) */
		alpha = kd2m * (k * ((a + (m - 1)) / (a + (2 * m - 2)))) *
		    ((s + (m - 1)) / (a + (2 * m - 1))) * x;
		q = ((a + m) / a2m) * ((s + m) / (a + (2 * m + 1)));
		kdodd = k *
		    ((((1 + 3 * m) * (a / a2m) + (2 * m + 4 * m * m) / a2m) -
			 m * ((a / s) * ((a + m) / a2m))) /
			    (a + (2 * m + 1)) +
			q * (lam / s));
		beta = kd2m + kdodd;
		d = beta + alpha * d;
		if (fabs(d) < tiny)
			d = tiny;
		d = 1 / d;
		c = beta + alpha / c;
		if (fabs(c) < tiny)
			c = tiny;
		g *= c * d;
		/*
		 * c d - 1 is a difference of doubles near 1: 0, or at least
		 * half an ulp of 1 (1.1e-16) in size.  A tolerance below that
		 * (this test read < 1e-16) is met only when c d rounds to 1
		 * exactly, which the steps need not do: at df = 2 about one t
		 * in 2000 went round a million times and gave NaN.  Two ulps
		 * is reachable and costs no accuracy, since the terms left
		 * shrink geometrically.
		 */
		if (fabs(c * d - 1) <= 2 * DBL_EPSILON)
			return k / g;
	}
	/* Only a and b both beyond about 1e15 with x at their mean. */
	return NAN;
}

/*
 * Whether x lies beyond (a + 1) / (a + b + 2), where the continued
 * fraction must be taken for I_y(b, a); judged from the exact one of x and
 * y (y < (b + 1) / (a + b + 2) when x is near 1), since near the limit
 * for large a the rounding of x can put it on the wrong side.
 */
static int
cfswap(double a, double b, double x, double y)
{
	if (x <= 0.5)
		return x > (a + 1) / (a + b + 2);
	return y < (b + 1) / (a + b + 2);
}

/*
 * log Gamma(b + a) - log Gamma(b) for 0 < a <= TINY_A, accurate relative
 * to a psi(b) (not to the logs): for a <= 1e-5 as -log1p(a / b) + a
 * psi(1 + b) + a^2 psi'(1 + b) / 2 + a^3 psi''(1 + b) / 6, short by
 * O(a^4), below 1e-16 relative; above, where that is not enough, by the
 * recurrence up to b + n >= 10, -sum log1p(a / (b + j)) - lgamratio(a,
 * b + n), whose Stirling terms are differences of about 1e-2 with an
 * absolute error near 1e-18 (too much against a below 1e-5).
 */
static double
lgam_shift(double a, double b)
{
	double sum = 0, bj = b;
	int j = 0;

	if (a <= 1e-5)
		return -log1p(a / b) +
		    a *
		    (pr_digamma(1 + b) +
			a *
			    (0.5 * pr_trigamma(1 + b) +
				a * pr_tetragamma(1 + b) / 6));
	while (bj < 10) {
		sum -= log1p(a / bj);
		bj = b + (double)++j;
	}
	return sum - lgamratio(a, bj);
}

/*
 * 1 - I_x(a, b) for a <= TINY_A and a <= b, where I_x(a, b) is within
 * about a log(1 / x) of 1 and 1 minus it would keep only the digits of
 * that difference above an ulp of 1 (I_0.9(1, 1e-100) = 2.3e-100 came out
 * as 0).  From the hypergeometric series (A&S 26.5.4, 15.1.1)
 *   I_x(a, b) = E (1 + a S),  E = x^a Gamma(a + b) / (Gamma(a + 1) Gamma(b)),
 *   S = sum_(k >= 1) (1 - b)_k / k! x^k / (a + k),
 * the complement is -expm1(log E) - E a S.  log E is O(a) and is formed
 * without differences of large logs: lgam_shift, and log Gamma(1 + a) by
 * its Taylor series -gamma a + sum_(k >= 2) (-1)^k zeta(k) a^k / k to a^8
 * (A&S 6.1.33; the next term is below 1e-24 a here).  x lies below
 * (a + 1) / (a + b + 2) (the continued fraction's side), so b x is at
 * most about 1 and the terms of S fall like (b x)^k / k!, without
 * cancellation.  lx is log x.
 */
static double
ibeta_tiny_c(double a, double b, double x, double lx)
{
	/* zeta(2..8) / k with the sign (-1)^k. */
	static const double zk[] = { 0.82246703342411321824,
		-0.40068563438653142847, 0.27058080842778454788,
		-0.20738555102867398527, 0.16955717699740818995,
		-0.14404989676884611812, 0.12550966952474304243 };
	double g = 0, l, s = 0, t = 1, term;
	long k;
	int i;

	for (i = 6; i >= 0; i--)
		g = a * (zk[i] + g);
	g = a * (g - EULER_GAMMA);
	l = a * lx + lgam_shift(a, b) - g;
	for (k = 1; k < 100000; k++) {
		t *= ((double)k - b) / (double)k * x;
		term = t / (a + (double)k);
		s += term;
		if (fabs(term) <= 1e-17 * fabs(s))
			break;
	}
	return -expm1(l) - exp(l) * a * s;
}

/*
 * I_x(a, b) into *w and 1 - I_x(a, b) into *wc, given x and y = 1 - x,
 * each computed so that the smaller of the two is accurate to a few ulps
 * relative (the one near 1 from ibeta_tiny_c when the side's first
 * argument is tiny).  a, b > 0, 0 <= x <= 1.
 */
static void
ibeta(double a, double b, double x, double y, double *w, double *wc)
{
	double lp, v, vc;
	int swap = 0;

	if (x <= 0) {
		*w = 0;
		*wc = 1;
		return;
	}
	if (y <= 0) {
		*w = 1;
		*wc = 0;
		return;
	}
	if (cfswap(a, b, x, y)) {
		v = a;
		a = b;
		b = v;
		v = x;
		x = y;
		y = v;
		swap = 1;
	}
	lp = lpowterm_a(a, b, x, y, logx(x, y), logx(y, x));
	v = exp(lp) * betacf(a, b, x, y);
	if (v > 1)
		v = 1;
	vc = a <= TINY_A && a <= b ? ibeta_tiny_c(a, b, x, logx(x, y)) : 1 - v;
	if (swap) {
		*wc = v;
		*w = vc;
	} else {
		*w = v;
		*wc = vc;
	}
}

static int
badab(double a, double b)
{
	return isnan(a) || isnan(b) || a <= 0 || b <= 0 || isinf(a) || isinf(b);
}

/* I_x(a, b), or its complement when upper is set, with domain checks. */
static double
betainc_side(double a, double b, double x, int upper)
{
	double w, wc;

	if (badab(a, b) || isnan(x) || x < 0 || x > 1)
		return NAN;
	ibeta(a, b, x, 1 - x, &w, &wc);
	return upper ? wc : w;
}

double
pr_betainc(double a, double b, double x)
{
	return betainc_side(a, b, x, 0);
}

double
pr_betainc_c(double a, double b, double x)
{
	return betainc_side(a, b, x, 1);
}

/*
 * log I_x(a, b) at x = e^u, u < 0, into *li, and log of the density
 * times x / I, d log I / d u, into *ldl.  Works in logs throughout, so
 * that it stays exact where x (or I) underflows.
 */
static void
log_ibeta(double a, double b, double u, double *li, double *ldl)
{
	double x = exp(u), y = -expm1(u), ly, lp, v;

	ly = x < 0.5 ? log1p(-x) : log(y);
	lp = lpowterm(a, b, x, y, u, ly);
	if (!cfswap(a, b, x, y)) {
		*li = lpowterm_a(a, b, x, y, u, ly) + log(betacf(a, b, x, y));
	} else {
		/* Here I is the larger side: 1 - its complement. */
		v = exp(lpowterm_a(b, a, y, x, ly, u)) * betacf(b, a, y, x);
		*li = log1p(-fmin(v, 1));
	}
	*ldl = lp - ly - *li;
}

/*
 * Solves I_x(a, b) = p for x (and y = 1 - x), 0 < p <= 0.5, by Newton's
 * method on f(u) = log I_{e^u}(a, b) - log p in u = log x.  Steps in u are
 * relative steps in x, and f is nearly linear in u in the lower tail,
 * where I ~ x^a / (a B).  A bracket [ulo, uhi] kept from the signs of f
 * catches any step that leaves it; the bracket is then bisected (in u, a
 * geometric bisection in x).  A root below the smallest double gives 0.
 */
static void
ibeta_inv_lower(double a, double b, double p, double *xo, double *yo)
{
	double ulo = -INFINITY, uhi = 0, u, un, f, li, ldl, step, lb, lpt;
	double yp, h, lam, w, x, mean;
	int i;

	lb = pr_lbeta(a, b);
	lpt = log(p);
	mean = a / (a + b);
	if (a >= 1 && b >= 1) {
		/* A&S 26.5.22 with the upper normal quantile yp. */
		yp = -pr_norm_quantile(p);
		lam = (yp * yp - 3) / 6;
		h = 2 / (1 / (2 * a - 1) + 1 / (2 * b - 1));
		w = yp * sqrt(h + lam) / h -
		    (1 / (2 * b - 1) - 1 / (2 * a - 1)) *
			(lam + 5.0 / 6 - 2 / (3 * h));
		u = log(a) - log(a + b * exp(2 * w));
	} else {
		/* I ~ x^a / (a B) near 0, 1 - I ~ y^b / (b B) near 1. */
		u = (lpt + log(a) + lb) / a;
		if (!(u < log(mean))) {
			x = exp((log1p(-p) + log(b) + lb) / b);
			u = log1p(-x);
		}
	}
	if (!(u < 0) || isnan(u))
		u = log(mean);
	for (i = 0; i < 500; i++) {
		log_ibeta(a, b, u, &li, &ldl);
		f = li - lpt;
		if (f == 0)
			break;
		if (f < 0)
			ulo = u;
		else
			uhi = u;
		step = f / exp(ldl);
		/*
		 * A step below the rounding of u: u is the root.  Relative to
		 * u, so that y = 1 - x = -expm1(u) is right too when x is
		 * near 1.
		 */
		if (fabs(step) <= 2 * DBL_EPSILON * fabs(u))
			break;
		if (uhi < -760)
			break; /* x underflows to 0 whatever u is */
		un = u - step;
		if (!(un > ulo && un < uhi)) {
			if (isinf(ulo))
				un = u - fmax(1, 2 * fabs(u));
			else
				un = ulo + 0.5 * (uhi - ulo);
			/* The bracket is down to adjacent doubles. */
			if (!(un > ulo && un < uhi))
				break;
		}
		u = un;
	}
	*xo = exp(u);
	*yo = -expm1(u);
}

/* Solves I_x(a, b) = p with q = 1 - p given too, into x and y = 1 - x. */
static void
ibeta_inv(double a, double b, double p, double q, double *x, double *y)
{
	if (p <= 0) {
		*x = 0;
		*y = 1;
	} else if (q <= 0) {
		*x = 1;
		*y = 0;
	} else if (p <= 0.5)
		ibeta_inv_lower(a, b, p, x, y);
	else
		ibeta_inv_lower(b, a, q, y, x);
}

double
pr_betainc_inv(double a, double b, double p)
{
	double x, y;

	if (badab(a, b) || isnan(p) || p < 0 || p > 1)
		return NAN;
	ibeta_inv(a, b, p, 1 - p, &x, &y);
	return x;
}

/* ---- Student's t ----------------------------------------------------- */

/*
 * df / 2, the first parameter of the incomplete beta of the t
 * distribution.  Half the smallest subnormal rounds to 0, outside the
 * beta's domain; it is taken as the smallest subnormal instead, which
 * changes no result: at such a df P(T > t) is 1/2 to double precision
 * for every finite t, and every quantile but the median is infinite.
 */
static double
hdf(double df)
{
	double h = 0.5 * df;

	return h > 0 ? h : DBL_TRUE_MIN;
}

/* Beyond this t^2 / df, x = df / (df + t^2) is too close to underflow. */
#define T_R2_BIG 1e280

/*
 * log P(T > t) for t > 0 into *lsf, and the log of the slope
 * -d log P(T > t) / d log t = t pdf(t) / P(T > t) into *lslope.  Directly
 * while x = df / (df + t^2) is a normal double; in logs beyond, where x
 * (and P, for df above 2) would underflow: then log x is -log(1 + r^2)
 * with log r = log t - log sqrt(df), and I_x comes from log_ibeta.
 */
static void
t_tail_log(double t, double df, double *lsf, double *lslope)
{
	double r, r2, x, y, w, wc, lr, u, li, ldl;

	r = t / sqrt(df);
	r2 = r * r;
	if (r2 < T_R2_BIG) {
		x = 1 / (1 + r2);
		y = r2 / (1 + r2);
		ibeta(hdf(df), 0.5, x, y, &w, &wc);
		*lsf = log(0.5 * w);
		*lslope = log(t) - pr_lbeta(hdf(df), 0.5) - 0.5 * log(df) -
		    0.5 * (df + 1) * log1p(r2) - *lsf;
		return;
	}
	lr = log(t) - 0.5 * log(df);
	u = -(2 * lr + log1p(exp(-2 * lr)));
	log_ibeta(hdf(df), 0.5, u, &li, &ldl);
	*lsf = li - M_LN2;
	/* d log x / d log t = -2 y, and y = 1 here. */
	*lslope = ldl + M_LN2;
}

/* P(T > t) for t >= 0. */
static double
t_upper(double t, double df)
{
	double r, r2, w, wc, lsf, lslope;

	r = t / sqrt(df);
	r2 = r * r;
	if (r2 < T_R2_BIG) {
		ibeta(hdf(df), 0.5, 1 / (1 + r2), r2 / (1 + r2), &w, &wc);
		return 0.5 * w;
	}
	if (isinf(t))
		return 0;
	t_tail_log(t, df, &lsf, &lslope);
	return exp(lsf);
}

static int
baddf(double df)
{
	return isnan(df) || df <= 0;
}

/*
 * Beyond this df the t distribution is the normal to double precision:
 * log(P_t / P_normal) is about (t^4 - 2 t^2 - 1) / (4 df), below 1e-24
 * wherever the normal tail is a normal double (|t| < 38), and both
 * underflow beyond.
 */
#define T_DF_NORMAL 1e30

double
pr_t_sf(double t, double df)
{
	if (isnan(t) || baddf(df))
		return NAN;
	if (df > T_DF_NORMAL)
		return pr_norm_sf(t);
	if (t >= 0)
		return t_upper(t, df);
	return 1 - t_upper(-t, df);
}

double
pr_t_cdf(double t, double df)
{
	if (isnan(t) || baddf(df))
		return NAN;
	return pr_t_sf(-t, df);
}

double
pr_t_quantile(double p, double df)
{
	double q, lq, x, y, t, lsf, lslope, step, tlo = 0, thi = INFINITY;
	int upper, i;

	if (isnan(p) || baddf(df) || p < 0 || p > 1)
		return NAN;
	if (df > T_DF_NORMAL)
		return pr_norm_quantile(p);
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	/* Solve P(T > t) = q for t > 0; 1 - p is exact for p >= 0.5. */
	upper = p > 0.5;
	q = upper ? 1 - p : p;
	lq = log(q);
	if (q < 0.25) {
		/* 2q = I_x(df/2, 1/2), x = df / (df + t^2). */
		ibeta_inv(hdf(df), 0.5, 2 * q, 1 - 2 * q, &x, &y);
	} else {
		/* 1 - 2q (exact here) = I_y(1/2, df/2), y = t^2/(df+t^2). */
		ibeta_inv(0.5, hdf(df), 1 - 2 * q, 2 * q, &y, &x);
	}
	if (x > 1 / T_R2_BIG) {
		t = sqrt(df) * sqrt(y) / sqrt(x);
	} else {
		/*
		 * x underflows (df well below 1): start from the tail
		 * 2q ~ x^(df/2) / ((df/2) B(df/2, 1/2)), x ~ df / t^2.
		 */
		t = exp(0.5 * log(df) -
		    (log(2 * q) + log(hdf(df)) + pr_lbeta(hdf(df), 0.5)) / df);
		if (!(t < DBL_MAX))
			t = DBL_MAX;
	}
	/*
	 * Newton on log P(T > t) - log q in log t, where P is nearly a
	 * power of t in the tails; the steps multiply t, so that it keeps
	 * its precision.  A bracket [tlo, thi] from the signs catches steps
	 * that leave it.
	 */
	for (i = 0; i < 100 && t > 0; i++) {
		t_tail_log(t, df, &lsf, &lslope);
		if (lsf > lq)
			tlo = t;
		else
			thi = t;
		step = (lsf - lq) / exp(lslope);
		/*
		 * An infinite step (the slope underflows at a subnormal df)
		 * is a large one: cut to a factor e^700 like the others, so
		 * that a quantile beyond DBL_MAX still gives inf below.
		 */
		if (isnan(step))
			break;
		if (fabs(step) <= 2 * DBL_EPSILON)
			break;
		if (step > 700)
			step = 700;
		else if (step < -700)
			step = -700;
		if (tlo == DBL_MAX && step > 0)
			return upper ? INFINITY : -INFINITY; /* beyond range */
		t *= exp(step);
		if (!(t > tlo && t < thi)) {
			/* Geometric bisection; no finite upper end yet: up. */
			t = isinf(thi) ? fmin(tlo * 1e10, DBL_MAX)
				       : sqrt(tlo) * sqrt(thi);
			if (!(t > tlo && t < thi))
				break;
		}
	}
	return upper ? t : -t;
}

/* ---- polygamma --------------------------------------------------------- */

/* Below this the recurrence moves x up; at and above it the series. */
#define PSI_SERIES_MIN 10.0

double
pr_digamma(double x)
{
	double r = 0, z;

	if (isnan(x) || x <= 0)
		return NAN;
	if (isinf(x))
		return x;
	while (x < PSI_SERIES_MIN) {
		r -= 1 / x;
		x += 1;
	}
	z = 1 / (x * x);
	/* B_2k / (2k x^2k), k = 1..7. */
	return r + log(x) - 0.5 / x -
	    z *
	    (1.0 / 12 -
		z *
		    (1.0 / 120 -
			z *
			    (1.0 / 252 -
				z *
				    (1.0 / 240 -
					z *
					    (1.0 / 132 -
						z *
						    (691.0 / 32760 -
							z * (1.0 / 12)))))));
}

double
pr_trigamma(double x)
{
	double r = 0, z;

	if (isnan(x) || x <= 0)
		return NAN;
	if (isinf(x))
		return 0;
	while (x < PSI_SERIES_MIN) {
		r += 1 / (x * x);
		x += 1;
	}
	z = 1 / (x * x);
	/* 1/x + 1/(2x^2) + sum B_2k / x^(2k+1). */
	return r + 1 / x + 0.5 * z +
	    z / x *
	    (1.0 / 6 -
		z *
		    (1.0 / 30 -
			z *
			    (1.0 / 42 -
				z *
				    (1.0 / 30 -
					z *
					    (5.0 / 66 -
						z *
						    (691.0 / 2730 -
							z * (7.0 / 6)))))));
}

double
pr_tetragamma(double x)
{
	double r = 0, z;

	if (isnan(x) || x <= 0)
		return NAN;
	if (isinf(x))
		return 0;
	while (x < PSI_SERIES_MIN) {
		r -= 2 / (x * x * x);
		x += 1;
	}
	z = 1 / (x * x);
	/* -1/x^2 - 1/x^3 - sum (2k+1) B_2k / x^(2k+2). */
	return r - z - z / x -
	    z * z *
	    (0.5 -
		z *
		    (1.0 / 6 -
			z *
			    (1.0 / 6 -
				z *
				    (3.0 / 10 -
					z *
					    (5.0 / 6 -
						z *
						    (691.0 / 210 -
							z * (35.0 / 2)))))));
}
