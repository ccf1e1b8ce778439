/*
 * stats/changepoint.c - change points, spikes and a possible change at
 * the end of a series (the method is in perfreg/changepoint.h).
 *
 * The exact segmentation (step 2) is optimal partitioning over prefix
 * sums of the weighted values, centred on the series' median so that a
 * large common offset loses nothing.  Two exact prunings keep it near
 * linear: PELT's (a candidate last change s whose cost up to u already
 * exceeds the optimum F(u) can never be the last change of a later
 * optimum, u taken min_segment points back so that u itself may end a
 * segment there), and an interval one: the cost of ending the last
 * segment at s, as a function of that segment's mean mu, beats the one of
 * a newer candidate r only for mu inside a fixed interval (their
 * difference is F(s) - F(r) + the cost of s..r at mu, a parabola); a
 * candidate whose intersection of those intervals is empty is never the
 * optimum again.  PELT alone keeps every candidate of a series without
 * change; the intervals shrink like 1 / sqrt(length) and prune it.
 *
 * Confirmation (step 3) fits each candidate's window by weighted least
 * squares with the columns (1, t, step) and (1, t, t^2, step), t centred
 * and scaled by the window's length for conditioning, solving the normal
 * equations by Cholesky.  Removing the weakest candidate changes only its
 * neighbours' windows, so only they are tested again; the weakest is
 * found by a scan (the candidates are few next to n).  For unweighted
 * points the elimination first runs on an O(1) form of both tests from
 * compensated prefix sums (a random walk of 10^5 points has 7,000
 * candidates), then again on the direct tests, so that what is reported
 * is what the direct tests confirm.  Medians are by insertion sort for
 * the running windows and by selection for the scales.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/changepoint.h"
#include "perfreg/distrib.h"
#include "perfreg/sample.h"
#include "stats/cp_step.h"
#include "stats/nsum.h"

#define MAD_SCALE 1.482602218505602      /* 1 / Phi^-1(3/4) */
#define MEANABS_SCALE 1.2533141373155003 /* sqrt(pi / 2) */
#define RUNMED_HALF 3 /* the running median spans 2 * 3 + 1 points */
#define CLIP_S 3.0    /* clip at 3 scaled MADs from the running median */
#define PENALTY_K 2.0 /* beta = 2 sigma^2 ln n */
#define RHO_MAX 0.98
#define QUAD_FAST_MIN 64 /* the parabola's test from sums from this length */

void
pr_cp_opts_init(struct pr_cp_opts *o)
{
	o->alpha = PR_CP_ALPHA_DEFAULT;
	o->min_segment = PR_CP_MIN_SEGMENT_DEFAULT;
	o->conf = 0.95;
	o->equivalence_pct = 1.0;
	o->better = PR_BETTER_UNKNOWN;
	o->noise_sd = 0;
	o->noise_df = 0;
}

/* The end of the run of adjacent points from i with equal, non-NULL
 * keys. */
static size_t
key_run(const char *const *key, size_t n, size_t i)
{
	size_t j;

	for (j = i + 1; j < n && key[i] != NULL && key[j] != NULL &&
	     strcmp(key[i], key[j]) == 0;
	     j++)
		;
	return j;
}

/* The mean of y[i..j), each term divided first, so that no sum of large
 * values overflows. */
static double
run_mean(const double *y, size_t i, size_t j)
{
	double mean = 0;
	size_t k;

	for (k = i; k < j; k++)
		mean += y[k] / (double)(j - i);
	return mean;
}

void
pr_cp_replicate_sd(const double *y, const char *const *key, size_t n,
    double *sd, size_t *df)
{
	double ss = 0, big = 0;
	size_t i, j, k, d = 0;
	int pass;

	/* The squares are taken in units of the largest deviation: a
	 * spread of 1e197 among values of 1e200 has squares beyond a
	 * double, not its standard deviation. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i = j) {
			double mean;

			if ((j = key_run(key, n, i)) - i < 2)
				continue;
			mean = run_mean(y, i, j);
			for (k = i; k < j; k++) {
				double dev = fabs(y[k] - mean);

				if (pass == 0) {
					if (dev > big || isnan(dev))
						big = dev;
				} else if (big > 0 && isfinite(big))
					ss += (dev / big) * (dev / big);
			}
			if (pass == 0)
				d += j - i - 1;
		}
	*df = d;
	if (d == 0)
		*sd = 0;
	else if (big > 0 && isfinite(big))
		*sd = big * sqrt(ss / (double)d);
	else
		*sd = big; /* 0, infinite or NaN */
}

void
pr_cp_result_release(struct pr_cp_result *r)
{
	if (r == NULL)
		return;
	free(r->changes);
	free(r->spikes);
	memset(r, 0, sizeof(*r));
}

/*
 * Puts the k-th smallest of v[0..n-1] (0-based) at v[k], the smaller ones
 * before it and the larger after (Hoare's selection with a median of
 * three; expected O(n)).  The values are finite.
 */
static void
select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (hi > lo) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
		double p, t;

		/* The median of v[lo], v[mid], v[hi] as the pivot. */
		if (v[mid] < v[lo]) {
			t = v[mid], v[mid] = v[lo], v[lo] = t;
		}
		if (v[hi] < v[lo]) {
			t = v[hi], v[hi] = v[lo], v[lo] = t;
		}
		if (v[hi] < v[mid]) {
			t = v[hi], v[hi] = v[mid], v[mid] = t;
		}
		p = v[mid];
		while (i <= j) {
			while (v[i] < p)
				i++;
			while (p < v[j])
				j--;
			if (i <= j) {
				t = v[i], v[i] = v[j], v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		/* Now v[lo..j] <= p <= v[i..hi], and j < i. */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* The median of v[0..n-1], n >= 1; v is reordered.  Insertion sort for
 * the short windows of the running medians (one a point), selection
 * otherwise. */
static double
median_inplace(double *v, size_t n)
{
	size_t i, j, h = n / 2;
	double x, lo;

	if (n <= 2 * RUNMED_HALF + 1) {
		for (i = 1; i < n; i++) {
			x = v[i];
			for (j = i; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return n % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
	}
	select_kth(v, n, h);
	if (n % 2)
		return v[h];
	/* The lower middle is the largest of those before v[h]. */
	lo = v[0];
	for (i = 1; i < h; i++)
		if (v[i] > lo)
			lo = v[i];
	return 0.5 * (lo + v[h]);
}

/*
 * The scaled MAD of v[0..n-1] (v is overwritten), or, when it is 0, the
 * scaled mean absolute deviation from the median: the scale of a sample
 * whose values are mostly tied.
 */
static double
robust_scale(double *v, size_t n)
{
	double med, s, sum = 0;
	size_t i;

	if (n == 0)
		return 0;
	med = median_inplace(v, n);
	for (i = 0; i < n; i++)
		v[i] = fabs(v[i] - med);
	for (i = 0; i < n; i++)
		sum += v[i];
	s = MAD_SCALE * median_inplace(v, n);
	if (s == 0)
		s = MEANABS_SCALE * sum / (double)n;
	return s;
}

/* ---------------------------------------------------------------------
 * Step 2: the exact penalised segmentation.
 */

struct prefix {
	double *w, *wy, *wyy; /* n + 1 each */
};

static void
prefix_free(struct prefix *p)
{
	free(p->w);
	free(p->wy);
	free(p->wyy);
}

static enum pr_status
prefix_make(struct prefix *p, const double *y, const double *w, size_t n,
    double centre, struct pr_error *err)
{
	size_t i;

	p->w = malloc((n + 1) * sizeof(*p->w));
	p->wy = malloc((n + 1) * sizeof(*p->wy));
	p->wyy = malloc((n + 1) * sizeof(*p->wyy));
	if (p->w == NULL || p->wy == NULL || p->wyy == NULL) {
		prefix_free(p);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	p->w[0] = p->wy[0] = p->wyy[0] = 0;
	for (i = 0; i < n; i++) {
		double wi = w ? w[i] : 1, d = y[i] - centre;

		p->w[i + 1] = p->w[i] + wi;
		p->wy[i + 1] = p->wy[i] + wi * d;
		p->wyy[i + 1] = p->wyy[i] + wi * d * d;
	}
	return PR_OK;
}

/* The weighted sum of squares of points s..t-1 around their mean. */
static double
seg_cost(const struct prefix *p, size_t s, size_t t)
{
	double sw = p->w[t] - p->w[s], sy = p->wy[t] - p->wy[s];
	double c = p->wyy[t] - p->wyy[s] - (sw > 0 ? sy * sy / sw : 0);

	return c > 0 ? c : 0;
}

#define NEXCL 8

struct cand {
	size_t s;
	double lo, hi; /* where its last-segment mean can still be best */
	/* ... except where older candidates beat it: the NEXCL widest */
	double jlo[NEXCL], jhi[NEXCL];
	int nj;
};

/* Shrinks [c->lo, c->hi] by each excluded interval that covers one of
 * its ends (repeatedly: one cut may expose another); returns 0 when
 * nothing is left. */
static int
cand_trim(struct cand *c, double slack)
{
	int j, cut = 1;

	while (cut && c->lo <= c->hi + slack) {
		cut = 0;
		for (j = 0; j < c->nj; j++) {
			double a = c->jlo[j], b = c->jhi[j];

			if (a <= c->lo + slack && b >= c->hi - slack)
				return 0;
			if (a <= c->lo && b > c->lo) {
				c->lo = b;
				cut = 1;
			} else if (b >= c->hi && a < c->hi) {
				c->hi = a;
				cut = 1;
			}
		}
	}
	return c->lo <= c->hi + slack;
}

/* Adds the exclusion [a, b] to c, keeping the NEXCL widest. */
static void
cand_exclude(struct cand *c, double a, double b)
{
	int j, narrow = 0;

	if (c->nj < NEXCL) {
		c->jlo[c->nj] = a;
		c->jhi[c->nj++] = b;
		return;
	}
	for (j = 1; j < NEXCL; j++)
		if (c->jhi[j] - c->jlo[j] < c->jhi[narrow] - c->jlo[narrow])
			narrow = j;
	if (b - a > c->jhi[narrow] - c->jlo[narrow]) {
		c->jlo[narrow] = a;
		c->jhi[narrow] = b;
	}
}

enum pr_status
pr_cp_segment(const double *y, const double *w, size_t n, double penalty,
    size_t min_segment, size_t **cps, size_t *ncps, double *cost,
    struct pr_error *err)
{
	struct prefix p = { 0 };
	struct cand *act = NULL;
	double *f = NULL, centre;
	size_t *last = NULL, nact = 0, t, i, k, m = min_segment;
	enum pr_status st;

	*cps = NULL;
	*ncps = 0;
	*cost = 0;
	if (m < 1 || n < m || !(penalty >= 0) || !isfinite(penalty))
		return pr_error_set(err, PR_EINVAL,
		    "segmentation needs n >= min_segment >= 1 and a finite "
		    "penalty >= 0");
	centre = y[n / 2];
	if ((st = prefix_make(&p, y, w, n, centre, err)) != PR_OK)
		return st;
	f = malloc((n + 1) * sizeof(*f));
	last = malloc((n + 1) * sizeof(*last));
	act = malloc((n + 1) * sizeof(*act));
	if (f == NULL || last == NULL || act == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	f[0] = -penalty;
	last[0] = 0;
	for (t = 1; t <= n; t++) {
		f[t] = INFINITY;
		last[t] = 0;
	}
	for (t = m; t <= n; t++) {
		size_t u = t - m; /* the newest candidate allowed at t */
		double best = INFINITY;
		size_t arg = 0;

		/*
		 * Candidate u becomes eligible now.  Against each older
		 * candidate s: PELT's test; the interval where s still beats
		 * u (intersected into s's); and the interval where s beats
		 * u, the widest kept as u's exclusion.
		 */
		if (isfinite(f[u])) {
			struct cand *nu = &act[nact];

			nu->nj = 0;

			for (i = k = 0; i < nact; i++) {
				struct cand *c = &act[i];
				double len = p.w[u] - p.w[c->s];
				double mean =
				    len > 0 ? (p.wy[u] - p.wy[c->s]) / len : 0;
				double rss = seg_cost(&p, c->s, u);
				double d = f[u] - f[c->s] - rss;
				double tol = 1e-12 *
				    (fabs(f[u]) + fabs(f[c->s]) + penalty + 1);
				int keep = 1;

				if (len > 0 && d > 0) {
					/* s beats u only within mean +- hw,
					 * so u is no better there. */
					double hw = sqrt(d / len);
					double slack = 1e-9 * (hw + 1e-300);

					if (hw > slack)
						cand_exclude(nu,
						    mean - hw + slack,
						    mean + hw - slack);
				}
				/* PELT: F(s) + C(s, u) > F(u). */
				if (-d > tol)
					keep = 0;
				else if (len > 0) {
					double hw = sqrt(d > 0 ? d / len : 0);
					double lo = mean - hw, hi = mean + hw;
					double slack =
					    1e-12 * (fabs(mean) + hw + 1);

					if (lo > c->lo)
						c->lo = lo;
					if (hi < c->hi)
						c->hi = hi;
					keep = cand_trim(c, slack);
				}
				if (keep && k != i)
					act[k] = *c;
				k += keep;
			}
			/* The new candidate sits after the survivors. */
			act[k] = *nu;
			nact = k;
			act[nact].s = u;
			act[nact].lo = -INFINITY;
			act[nact].hi = INFINITY;
			nact++;
		}
		for (i = 0; i < nact; i++) {
			size_t s = act[i].s;
			double v = f[s] + seg_cost(&p, s, t) + penalty;

			if (v < best) {
				best = v;
				arg = s;
			}
		}
		f[t] = best;
		last[t] = arg;
	}
	if (!isfinite(f[n])) {
		st = pr_error_set(err, PR_EINVAL,
		    "no segmentation of %zu "
		    "points into segments of at least %zu",
		    n, m);
		goto out;
	}
	/* Walk back from n. */
	for (t = n, k = 0; t > 0; t = last[t])
		if (last[t] > 0)
			k++;
	if (k > 0) {
		if ((*cps = malloc(k * sizeof(**cps))) == NULL) {
			st = pr_error_set(err, PR_ENOMEM, "out of memory");
			goto out;
		}
		for (t = n, i = k; t > 0; t = last[t])
			if (last[t] > 0)
				(*cps)[--i] = last[t];
	}
	*ncps = k;
	*cost = f[n];
	st = PR_OK;
out:
	prefix_free(&p);
	free(f);
	free(last);
	free(act);
	return st;
}

/* ---------------------------------------------------------------------
 * Step 3: the trend-adjusted step test of one window.
 */

struct steptest {
	double step; /* the step coefficient */
	double var;  /* its variance, autocorrelation included */
	double z2;   /* step^2 / var, +inf for a noiseless step */
	double mean_before, mean_after;
};

/*
 * The step's variance and z^2 from the fit: ss the residual sum of
 * squares over dof (the points, or for the quadratic fit the points less
 * its four parameters), num the sum of lag-1 products of residuals within
 * each side, inv_step the step's entry of (X'WX)^-1.
 */
static void
step_finish(struct steptest *o, double step, double ss, double num, double dof,
    double inv_step)
{
	double rho = ss > 0 ? num / ss : 0;

	if (rho < 0)
		rho = 0;
	if (rho > RHO_MAX)
		rho = RHO_MAX;
	o->step = step;
	o->var = ss / dof * (1 + rho) / (1 - rho) * inv_step;
	o->z2 = o->var > 0 ? step * step / o->var : (step != 0 ? INFINITY : 0);
}

/*
 * Solves the p x p normal equations xtx beta = xty (p <= 4, the lower
 * triangle of xtx filled) by Cholesky; *inv_last gets the last diagonal
 * entry of xtx^-1 (1 / l[p-1][p-1]^2).  Returns 0 when a pivot falls to
 * 1e-12 of its diagonal (a singular design).
 */
static int
chol_solve(size_t p, double xtx[4][4], const double *xty, double *beta,
    double *inv_last)
{
	double l[4][4] = { { 0 } }, z[4];
	size_t i, j, k;

	for (j = 0; j < p; j++) {
		double d = xtx[j][j];

		for (k = 0; k < j; k++)
			d -= l[j][k] * l[j][k];
		if (!(d > 1e-12 * xtx[j][j]))
			return 0;
		l[j][j] = sqrt(d);
		for (i = j + 1; i < p; i++) {
			double v = xtx[i][j];

			for (k = 0; k < j; k++)
				v -= l[i][k] * l[j][k];
			l[i][j] = v / l[j][j];
		}
	}
	/* Solve L z = xty, L^T beta = z. */
	for (i = 0; i < p; i++) {
		double v = xty[i];

		for (k = 0; k < i; k++)
			v -= l[i][k] * z[k];
		z[i] = v / l[i][i];
	}
	for (i = p; i-- > 0;) {
		double v = z[i];

		for (k = i + 1; k < p; k++)
			v -= l[k][i] * beta[k];
		beta[i] = v / l[i][i];
	}
	*inv_last = 1 / (l[p - 1][p - 1] * l[p - 1][p - 1]);
	return 1;
}

/*
 * Fits y = b0 + b1 t [+ b2 t^2] + step [i >= c] over [a, b) by weighted
 * least squares (w NULL: all 1): the local trend a line, or with quad a
 * parabola.  a < c < b, b - a >= 3, and for quad b - a >= 5 (for fewer
 * points, or a singular design, z2 is 0: nothing is confirmed).
 */
static void
step_test(const double *y, const double *w, size_t a, size_t c, size_t b,
    int quad, struct steptest *o)
{
	double xtx[4][4] = { { 0 } }, xty[4] = { 0 }, beta[4], inv;
	double ss = 0, sw = 0, num = 0;
	double centre, scale, prev = 0, swl = 0, swr = 0, syl = 0, syr = 0;
	double off;
	size_t i, j, k, len = b - a, p = quad ? 4 : 3;

	memset(o, 0, sizeof(*o));
	if (len < 3 || (quad && len < 5) || c <= a || c >= b)
		return;
	/* The values are taken about the window's first: on a level far
	 * from 0 (1e6 with noise 1e-3) the normal equations of the raw
	 * values lost four digits of the step's z. */
	off = y[a];
	centre = 0.5 * (double)(a + b - 1);
	scale = (double)len;
	for (i = a; i < b; i++) {
		double wi = w ? w[i] : 1;
		double t = ((double)i - centre) / scale;
		double x[4] = { 1, t, t * t, i >= c ? 1.0 : 0.0 };

		if (!quad)
			x[2] = x[3];
		for (j = 0; j < p; j++) {
			for (k = 0; k <= j; k++)
				xtx[j][k] += wi * x[j] * x[k];
			xty[j] += wi * x[j] * (y[i] - off);
		}
		if (i < c) {
			swl += wi;
			syl += wi * (y[i] - off);
		} else {
			swr += wi;
			syr += wi * (y[i] - off);
		}
	}
	o->mean_before = syl / swl + off;
	o->mean_after = syr / swr + off;
	if (!chol_solve(p, xtx, xty, beta, &inv))
		return;
	for (i = a; i < b; i++) {
		double wi = w ? w[i] : 1;
		double t = ((double)i - centre) / scale;
		double f = beta[0] + beta[1] * t +
		    (quad ? beta[2] * t * t : 0) + (i >= c ? beta[p - 1] : 0);
		double rw = sqrt(wi) * ((y[i] - off) - f);

		ss += rw * rw;
		sw += 1;
		if (i != a && i != c)
			num += rw * prev;
		prev = rw;
	}
	/* The line's residual variance is over the points as before; the
	 * parabola's over its residual degrees of freedom, since in a window
	 * of 10 points its four parameters take a large share of it. */
	step_finish(o, beta[p - 1], ss, num, quad ? sw - 4 : sw, inv);
}

/*
 * The same test in O(1) from prefix sums, for unweighted points: the
 * backward elimination tests each candidate's window again after each
 * removal, which at O(window) made a random walk of 10^5 points (7,000
 * candidates) take seconds.  The sums of y, i y, y^2 and y_i y_(i-1) are
 * kept compensated (Neumaier), so that a difference of two prefixes is
 * accurate to about an ulp of the larger; the sums over the index are
 * closed forms.  With u = i - centre (the columns 1 and u orthogonal)
 * and d = [i >= c], the step is d~'y / d~'d~ for d~ the part of d
 * that 1 and u do not explain; the residual sum of squares and the lag-1
 * products of the residuals within each side follow from the same sums.
 */
struct csum {
	double *hi, *lo; /* the sum of the first i terms is hi[i] + lo[i] */
};

#define NFAST 5

struct fastsums {
	double centre; /* the values are taken about this */
	/* y_i, i y_i, y_i^2, y_i y_(i-1), i^2 y_i */
	struct csum y, iy, yy, yy1, iiy;
};

static void
fastsums_free(struct fastsums *f)
{
	struct csum *c[NFAST] = { &f->y, &f->iy, &f->yy, &f->yy1, &f->iiy };
	int k;

	for (k = 0; k < NFAST; k++) {
		free(c[k]->hi);
		free(c[k]->lo);
	}
}

static enum pr_status
fastsums_make(struct fastsums *f, const double *y, size_t n,
    struct pr_error *err)
{
	struct csum *c[NFAST] = { &f->y, &f->iy, &f->yy, &f->yy1, &f->iiy };
	double sum[NFAST] = { 0 }, comp[NFAST] = { 0 }, prev = 0;
	size_t i;
	int k, bad = 0;

	memset(f, 0, sizeof(*f));
	for (k = 0; k < NFAST; k++) {
		c[k]->hi = malloc((n + 1) * sizeof(double));
		c[k]->lo = malloc((n + 1) * sizeof(double));
		bad |= c[k]->hi == NULL || c[k]->lo == NULL;
	}
	if (bad) {
		fastsums_free(f);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	f->centre = y[n / 2];
	for (k = 0; k < NFAST; k++)
		c[k]->hi[0] = c[k]->lo[0] = 0;
	for (i = 0; i < n; i++) {
		double d = y[i] - f->centre;
		double x[NFAST] = { d, (double)i * d, d * d,
			i > 0 ? d * prev : 0, (double)i * (double)i * d };

		for (k = 0; k < NFAST; k++) {
			nsum(&sum[k], &comp[k], x[k]);
			c[k]->hi[i + 1] = sum[k];
			c[k]->lo[i + 1] = comp[k];
		}
		prev = d;
	}
	return PR_OK;
}

/* The sum of the terms s..t-1. */
static double
crange(const struct csum *c, size_t s, size_t t)
{
	return (c->hi[t] - c->hi[s]) + (c->lo[t] - c->lo[s]);
}

/* Over i in [p, q): the count, the sum of u = i - ctr and of u^2. */
static void
urange(size_t p, size_t q, double ctr, double *k, double *su, double *suu)
{
	double kk = (double)(q - p), m = 0.5 * (double)(p + q - 1) - ctr;

	*k = kk;
	*su = kk * m;
	*suu = kk * (kk * kk - 1) / 12 + kk * m * m;
}

/* The sum over i in [p, q) of (y_i - f_i)(y_(i-1) - f_(i-1)), with the
 * fit f_i = g + b1 (i - ctr); p >= 1. */
static double
lag_products(const struct fastsums *f, size_t p, size_t q, double ctr, double g,
    double b1)
{
	double k, su, suu, y1, uy1, y0, uy0, ff;

	if (q <= p)
		return 0;
	urange(p, q, ctr, &k, &su, &suu);
	y1 = crange(&f->y, p, q);
	uy1 = crange(&f->iy, p, q) - ctr * y1;
	y0 = crange(&f->y, p - 1, q - 1);
	uy0 = crange(&f->iy, p - 1, q - 1) - ctr * y0;
	ff = k * g * g + 2 * g * b1 * su + b1 * b1 * suu -
	    b1 * (k * g + b1 * su);
	return crange(&f->yy1, p, q) - ((g - b1) * y1 + b1 * uy1) -
	    ((g + b1) * y0 + b1 * uy0) + ff;
}

/* step_test's result for unweighted points, from the sums. */
static void
step_fast(const struct fastsums *f, size_t a, size_t c, size_t b,
    struct steptest *o)
{
	double ctr, len, r, k, sy, syy, syc, suy, suu, suc, su, dd, b0, b1, b2;
	double ss, num;

	memset(o, 0, sizeof(*o));
	if (b - a < 3 || c <= a || c >= b)
		return;
	ctr = 0.5 * (double)(a + b - 1);
	len = (double)(b - a);
	r = (double)(b - c);
	sy = crange(&f->y, a, b);
	syy = crange(&f->yy, a, b);
	syc = crange(&f->y, c, b);
	suy = crange(&f->iy, a, b) - ctr * sy;
	urange(a, b, ctr, &k, &su, &suu);
	urange(c, b, ctr, &k, &suc, &su);
	o->mean_before = (sy - syc) / (double)(c - a) + f->centre;
	o->mean_after = syc / r + f->centre;
	/* d~'d~, the Cholesky pivot of the step column. */
	dd = r - r * r / len - suc * suc / suu;
	if (!(dd > 1e-12 * r))
		return;
	b2 = (syc - r / len * sy - suc / suu * suy) / dd;
	b1 = (suy - b2 * suc) / suu;
	b0 = (sy - b2 * r) / len;
	ss = (syy - sy * sy / len) - b1 * suy - b2 * (syc - r * sy / len);
	if (!(ss > 0))
		ss = 0;
	num = lag_products(f, a + 1, c, ctr, b0, b1) +
	    lag_products(f, c + 1, b, ctr, b0 + b2, b1);
	step_finish(o, b2, ss, num, len, 1 / dd);
}

/* Over i in [p, q), u = i - ctr: s[k] = the sum of u^k, k = 0..4 (from
 * the symmetric sums about the range's middle, m from ctr). */
static void
upow(size_t p, size_t q, double ctr, double s[5])
{
	double k = (double)(q - p), m = 0.5 * (double)(p + q - 1) - ctr;
	double v2 = k * (k * k - 1) / 12;
	double v4 = k * (k * k - 1) * (3 * k * k - 7) / 240;

	s[0] = k;
	s[1] = k * m;
	s[2] = v2 + k * m * m;
	s[3] = 3 * m * v2 + k * m * m * m;
	s[4] = v4 + 6 * m * m * v2 + k * m * m * m * m;
}

/* Over i in [p, q): my[k] = the sum of u^k y_i, u = i - ctr, k = 0..2. */
static void
ymom(const struct fastsums *f, size_t p, size_t q, double ctr, double my[3])
{
	double s0 = crange(&f->y, p, q), s1 = crange(&f->iy, p, q);
	double s2 = crange(&f->iiy, p, q);

	my[0] = s0;
	my[1] = s1 - ctr * s0;
	my[2] = s2 - ctr * (2 * s1 - ctr * s0);
}

/* The sum over i in [p, q), p >= 1, of (y_i - g(u_i))(y_(i-1) - g(u_i - 1))
 * for the parabola g(u) = g[0] + g[1] u + g[2] u^2, u = i - ctr. */
static double
lag_products_quad(const struct fastsums *f, size_t p, size_t q, double ctr,
    const double g[3])
{
	/* h(u) = g(u - 1), k(u) = g(u + 1). */
	double h[3] = { g[0] - g[1] + g[2], g[1] - 2 * g[2], g[2] };
	double k[3] = { g[0] + g[1] + g[2], g[1] + 2 * g[2], g[2] };
	double my[3], my0[3], s[5], gh[5];

	if (q <= p)
		return 0;
	ymom(f, p, q, ctr, my);
	ymom(f, p - 1, q - 1, ctr, my0);
	upow(p, q, ctr, s);
	gh[0] = g[0] * h[0];
	gh[1] = g[0] * h[1] + g[1] * h[0];
	gh[2] = g[0] * h[2] + g[1] * h[1] + g[2] * h[0];
	gh[3] = g[1] * h[2] + g[2] * h[1];
	gh[4] = g[2] * h[2];
	/* y_i g(u_i - 1) summed over i; y_j g(u_j + 1) over j = i - 1. */
	return crange(&f->yy1, p, q) -
	    (h[0] * my[0] + h[1] * my[1] + h[2] * my[2]) -
	    (k[0] * my0[0] + k[1] * my0[1] + k[2] * my0[2]) +
	    (gh[0] * s[0] + gh[1] * s[1] + gh[2] * s[2] + gh[3] * s[3] +
		gh[4] * s[4]);
}

/* step_test's result with the parabola (quad) for unweighted points, from
 * the sums: the normal equations of (1, t, t^2, [i >= c]), t = u / len,
 * from closed-form sums of the powers of u and the moments of y. */
static void
step_fast_quad(const struct fastsums *f, size_t a, size_t c, size_t b,
    struct steptest *o)
{
	double xtx[4][4] = { { 0 } }, xty[4], beta[4], inv, s[5], sc[5];
	double my[3], myc[3], ctr, len, ss, num, g[3];
	size_t j, k;

	memset(o, 0, sizeof(*o));
	if (b - a < 5 || c <= a || c >= b)
		return;
	ctr = 0.5 * (double)(a + b - 1);
	len = (double)(b - a);
	upow(a, b, ctr, s);
	upow(c, b, ctr, sc);
	ymom(f, a, b, ctr, my);
	ymom(f, c, b, ctr, myc);
	o->mean_before = (my[0] - myc[0]) / (double)(c - a) + f->centre;
	o->mean_after = myc[0] / (double)(b - c) + f->centre;
	/* Column j of (1, t, t^2) against column k: the sum of t^(j+k). */
	for (j = 0; j < 3; j++) {
		for (k = 0; k <= j; k++)
			xtx[j][k] = s[j + k] / pow(len, (double)(j + k));
		xtx[3][j] = sc[j] / pow(len, (double)j);
		xty[j] = my[j] / pow(len, (double)j);
	}
	xtx[3][3] = sc[0];
	xty[3] = myc[0];
	if (!chol_solve(4, xtx, xty, beta, &inv))
		return;
	ss = crange(&f->yy, a, b);
	for (j = 0; j < 4; j++)
		ss -= beta[j] * xty[j];
	if (!(ss > 0))
		ss = 0;
	g[0] = beta[0];
	g[1] = beta[1] / len;
	g[2] = beta[2] / (len * len);
	num = lag_products_quad(f, a + 1, c, ctr, g);
	g[0] += beta[3];
	num += lag_products_quad(f, c + 1, b, ctr, g);
	step_finish(o, beta[3], ss, num, len - 4, inv);
}

double
pr_cp_step_z2(const double *y, size_t n, size_t a, size_t c, size_t b, int quad,
    int fast)
{
	struct fastsums fs;
	struct steptest t;

	if (!fast) {
		step_test(y, NULL, a, c, b, quad, &t);
		return t.z2;
	}
	if (fastsums_make(&fs, y, n, NULL) != PR_OK)
		return NAN;
	if (quad)
		step_fast_quad(&fs, a, c, b, &t);
	else
		step_fast(&fs, a, c, b, &t);
	fastsums_free(&fs);
	return t.z2;
}

/*
 * The strongest step at c in [n - m + 1, n) over [a, n) whose z^2 reaches
 * thr, or 0 when there is none; *t gets its test.
 */
static size_t
best_tail(const double *y, const double *w, size_t a, size_t n, size_t m,
    double thr, struct steptest *t)
{
	struct steptest cur;
	size_t c, bestc = 0;

	memset(t, 0, sizeof(*t));
	for (c = n - m + 1; c < n; c++) {
		if (c <= a + 1)
			continue;
		step_test(y, w, a, c, n, 0, &cur);
		if (cur.z2 >= thr && cur.z2 > t->z2) {
			*t = cur;
			bestc = c;
		}
	}
	return bestc;
}

/* ---------------------------------------------------------------------
 * The detector.
 */

/* The stronger of the two tests of the step at c over [a, b), the local
 * trend a line or a parabola, into *t; from the sums fs when given, else
 * directly.  The parabola's moments are taken about the window's middle
 * from sums over the whole series, which costs about (middle / length)^2
 * ulps: a window under QUAD_FAST_MIN points is tested directly, which
 * costs no more than the sums. */
static void
cand_test(const double *y, const double *w, const struct fastsums *fs, size_t a,
    size_t c, size_t b, struct steptest *t)
{
	struct steptest q;

	if (fs != NULL) {
		step_fast(fs, a, c, b, t);
		if (b - a >= QUAD_FAST_MIN)
			step_fast_quad(fs, a, c, b, &q);
		else
			step_test(y, w, a, c, b, 1, &q);
	} else {
		step_test(y, w, a, c, b, 0, t);
		step_test(y, w, a, c, b, 1, &q);
	}
	if (q.z2 > t->z2)
		*t = q;
}

/* The test of candidate i of cps[0..ncps), between its neighbours. */
static double
cand_z2(const double *y, const double *w, const struct fastsums *fs, size_t n,
    const size_t *cps, size_t ncps, size_t i)
{
	size_t a = i ? cps[i - 1] : 0;
	size_t b = i + 1 < ncps ? cps[i + 1] : n;
	struct steptest t;

	cand_test(y, w, fs, a, cps[i], b, &t);
	return t.z2;
}

/* Removes the weakest candidate while its z^2 is below thr, testing its
 * neighbours again after each removal; z2 has room for ncps values. */
static void
eliminate(const double *y, const double *w, const struct fastsums *fs, size_t n,
    size_t *cps, size_t *ncps, double *z2, double thr)
{
	size_t i, j, k = *ncps;

	for (i = 0; i < k; i++)
		z2[i] = cand_z2(y, w, fs, n, cps, k, i);
	while (k > 0) {
		j = 0;
		for (i = 1; i < k; i++)
			if (z2[i] < z2[j])
				j = i;
		if (z2[j] >= thr)
			break;
		memmove(&cps[j], &cps[j + 1], (k - j - 1) * sizeof(*cps));
		memmove(&z2[j], &z2[j + 1], (k - j - 1) * sizeof(*z2));
		k--;
		for (i = j ? j - 1 : 0; i <= j && i < k; i++)
			z2[i] = cand_z2(y, w, fs, n, cps, k, i);
	}
	*ncps = k;
}

static enum pr_status
check_opts(const struct pr_cp_opts *o, struct pr_error *err)
{
	if (!(o->alpha > 0 && o->alpha < 1))
		return pr_error_set(err, PR_EINVAL,
		    "alpha must lie in (0, 1), got %g", o->alpha);
	if (!(o->conf > 0 && o->conf < 1))
		return pr_error_set(err, PR_EINVAL,
		    "confidence must lie in (0, 1), got %g", o->conf);
	if (o->min_segment < 2)
		return pr_error_set(err, PR_EINVAL,
		    "a segment must hold at least 2 points, got %zu",
		    o->min_segment);
	if (!(o->equivalence_pct >= 0) || !isfinite(o->equivalence_pct))
		return pr_error_set(err, PR_EINVAL,
		    "equivalence must be a finite percentage >= 0");
	if (!(o->noise_sd >= 0) || !isfinite(o->noise_sd))
		return pr_error_set(err, PR_EINVAL,
		    "the noise must be a finite standard deviation >= 0");
	return PR_OK;
}

/* The median of the up to RUNMED_HALF points before i (side < 0) or
 * after it (side > 0); 0 when there are none (*have = 0). */
static double
side_median(const double *y, size_t n, size_t i, int side, int *have)
{
	double win[RUNMED_HALF];
	size_t lo, hi, j;

	if (side < 0) {
		lo = i >= RUNMED_HALF ? i - RUNMED_HALF : 0;
		hi = i;
	} else {
		lo = i + 1;
		hi = i + 1 + RUNMED_HALF < n ? i + 1 + RUNMED_HALF : n;
	}
	*have = hi > lo;
	if (!*have)
		return 0;
	for (j = lo; j < hi; j++)
		win[j - lo] = y[j];
	return median_inplace(win, hi - lo);
}

/*
 * Step 1: clips y into yc and records the spikes.  Clipping is against
 * the running median of 7 points centred on each one.  A spike is a point
 * that stands out, in the same direction, from the medians of its 3
 * neighbours on each side (never the first or last point): its score is the
 * smaller of the two residuals over the scale of all such one-sided
 * residuals, so a point at the edge of a step, which agrees with one
 * side, never is one, and under white noise the score exceeds z* less
 * often than one normal residual would.
 */
static enum pr_status
clip_spikes(const double *y, size_t n, double zstar, double *yc, double *tmp,
    struct pr_cp_result *out, struct pr_error *err)
{
	double *med = NULL, *e = NULL, *base = NULL, *sides = NULL, s, se;
	double win[2 * RUNMED_HALF + 1];
	size_t i, j, ns = 0, nsides = 0;
	enum pr_status st = PR_OK;

	med = malloc(n * sizeof(*med));
	e = malloc(n * sizeof(*e));
	base = malloc(n * sizeof(*base));
	sides = malloc(2 * n * sizeof(*sides));
	if (med == NULL || e == NULL || base == NULL || sides == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		size_t lo = i >= RUNMED_HALF ? i - RUNMED_HALF : 0;
		size_t hi = i + RUNMED_HALF + 1 < n ? i + RUNMED_HALF + 1 : n;
		double ml, mr, rl = 0, rr = 0;
		int hl, hr;

		for (j = lo; j < hi; j++)
			win[j - lo] = y[j];
		med[i] = median_inplace(win, hi - lo);
		tmp[i] = y[i] - med[i];
		ml = side_median(y, n, i, -1, &hl);
		mr = side_median(y, n, i, 1, &hr);
		if (hl)
			sides[nsides++] = rl = y[i] - ml;
		if (hr)
			sides[nsides++] = rr = y[i] - mr;
		if (hl && hr) {
			int agree = (rl > 0) == (rr > 0);

			base[i] = fabs(rl) <= fabs(rr) ? ml : mr;
			e[i] = agree ? (fabs(rl) <= fabs(rr) ? rl : rr) : 0;
		} else {
			/* The first and last points have one side: a point
			 * there may start a change as well as stand out. */
			base[i] = hl ? ml : mr;
			e[i] = 0;
		}
	}
	s = robust_scale(tmp, n);
	se = robust_scale(sides, nsides);
	for (i = 0; i < n; i++) {
		double r = y[i] - med[i];

		yc[i] = y[i];
		if (s > 0 && fabs(r) > CLIP_S * s)
			yc[i] = med[i] + (r > 0 ? CLIP_S : -CLIP_S) * s;
		if (se > 0 && fabs(e[i]) > zstar * se)
			ns++;
	}
	if (ns > 0) {
		out->spikes = calloc(ns, sizeof(*out->spikes));
		if (out->spikes == NULL) {
			st = pr_error_set(err, PR_ENOMEM, "out of memory");
			goto out;
		}
		for (i = 0; i < n; i++) {
			if (se > 0 && fabs(e[i]) > zstar * se) {
				struct pr_cp_spike *sp =
				    &out->spikes[out->nspikes++];

				sp->index = i;
				sp->value = y[i];
				sp->expected = base[i];
				sp->z = e[i] / se;
			}
		}
	}
out:
	free(med);
	free(e);
	free(base);
	free(sides);
	return st;
}

/* The weights of the points (see the header), or NULL for all 1. */
static enum pr_status
make_weights(const double *var, size_t n, double sigma, double **wout,
    struct pr_error *err)
{
	double *w, tau2, mv = 0, sum = 0;
	size_t i;

	*wout = NULL;
	if (var == NULL)
		return PR_OK;
	for (i = 0; i < n; i++)
		mv += var[i];
	mv /= (double)n;
	tau2 = sigma * sigma - mv;
	if (!(tau2 > 0))
		tau2 = 0.1 * sigma * sigma;
	if (!(tau2 > 0))
		return PR_OK; /* no noise at all: weights are moot */
	/* NOLINTNEXTLINE(clang-analyzer-optin.portability.UnixAPI): n > 0, mv was divided by it */
	if ((w = malloc(n * sizeof(*w))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		w[i] = 1 / (tau2 + var[i]);
		sum += w[i];
	}
	for (i = 0; i < n; i++)
		w[i] *= (double)n / sum;
	*wout = w;
	return PR_OK;
}

static void
fill_change(struct pr_cp_change *ch, const struct steptest *t, size_t a,
    size_t c, size_t b, double zconf, size_t n, const struct pr_cp_opts *o,
    int positive)
{
	double se = sqrt(t->var), p;

	memset(ch, 0, sizeof(*ch));
	ch->index = c;
	ch->seg_start = a;
	ch->seg_end = b;
	ch->before = t->mean_before;
	ch->after = t->mean_after;
	ch->step = t->step;
	ch->step_lo = t->step - zconf * se;
	ch->step_hi = t->step + zconf * se;
	ch->z = se > 0 ? t->step / se : (t->step > 0 ? INFINITY : -INFINITY);
	p = 4 * (double)n * pr_norm_sf(fabs(ch->z));
	ch->p_adjusted = p < 1 ? p : 1;
	if (ch->before > 0) {
		ch->change_pct = 100 * ch->step / ch->before;
		ch->ci_lo_pct = 100 * ch->step_lo / ch->before;
		ch->ci_hi_pct = 100 * ch->step_hi / ch->before;
		/* A positive level cannot fall by more than itself: a trend
		 * extrapolated past zero says nothing of that, so the change
		 * is then the one of the levels and the interval ends at
		 * -100%. */
		if (positive && ch->change_pct < -100)
			ch->change_pct = 100 * (ch->after / ch->before - 1);
		if (positive && ch->ci_lo_pct < -100)
			ch->ci_lo_pct = -100;
		ch->defined |= PR_CP_PCT;
	}
	if ((ch->defined & PR_CP_PCT) && ch->ci_lo_pct >= -o->equivalence_pct &&
	    ch->ci_hi_pct <= o->equivalence_pct)
		ch->verdict = PR_VERDICT_EQUIVALENT;
	else if (o->better == PR_BETTER_UNKNOWN)
		ch->verdict = PR_VERDICT_INCONCLUSIVE;
	else if ((ch->step > 0) == (o->better == PR_BETTER_LOWER))
		ch->verdict = PR_VERDICT_REGRESSION;
	else
		ch->verdict = PR_VERDICT_IMPROVEMENT;
}

static enum pr_status
detect(const double *y, const double *var, size_t n, const struct pr_cp_opts *o,
    struct pr_cp_result *out, struct pr_error *err)
{
	struct pr_cp_opts def;
	double *yc = NULL, *tmp = NULL, *w = NULL, *z2 = NULL, sigma, zstar;
	double zconf, thr, zconfirm, thr2;
	size_t *cps = NULL, ncps = 0, i, m;
	enum pr_status st;
	double cost;
	int positive = 1; /* every point > 0: a level cannot fall below 0 */

	memset(out, 0, sizeof(*out));
	if (o == NULL) {
		pr_cp_opts_init(&def);
		o = &def;
	}
	if ((st = check_opts(o, err)) != PR_OK)
		return st;
	if (n < PR_CP_MIN_POINTS)
		return pr_error_set(err, PR_EINVAL,
		    "a series needs at least %d points, got %zu",
		    PR_CP_MIN_POINTS, n);
	for (i = 0; i < n; i++) {
		if (!isfinite(y[i]))
			return pr_error_set(err, PR_EINVAL,
			    "point %zu is not a finite number", i + 1);
		positive &= y[i] > 0;
		if (var != NULL && !(var[i] >= 0 && isfinite(var[i])))
			return pr_error_set(err, PR_EINVAL,
			    "the variance of point %zu is not a finite "
			    "number >= 0",
			    i + 1);
	}
	m = o->min_segment;
	out->n = n;
	zstar = pr_norm_quantile(1 - o->alpha / (2 * (double)n));
	zconf = pr_norm_quantile(0.5 + o->conf / 2);
	thr = zstar * zstar;
	/* A candidate is confirmed by either of two tests (the local trend a
	 * line or a parabola): Bonferroni over both. */
	zconfirm = pr_norm_quantile(1 - o->alpha / (4 * (double)n));
	thr2 = zconfirm * zconfirm;
	out->threshold = zconfirm;
	yc = malloc(n * sizeof(*yc));
	tmp = malloc(n * sizeof(*tmp));
	if (yc == NULL || tmp == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto fail;
	}
	if ((st = clip_spikes(y, n, zstar, yc, tmp, out, err)) != PR_OK)
		goto fail;
	for (i = 0; i + 1 < n; i++)
		tmp[i] = yc[i + 1] - yc[i];
	sigma = robust_scale(tmp, n - 1) / sqrt(2.0);
	if (sigma == 0) {
		double mean = 0, ss = 0;

		for (i = 0; i + 1 < n; i++)
			mean += yc[i + 1] - yc[i];
		mean /= (double)(n - 1);
		for (i = 0; i + 1 < n; i++) {
			double d = yc[i + 1] - yc[i] - mean;

			ss += d * d;
		}
		sigma = sqrt(ss / (double)(n - 1)) / sqrt(2.0);
	}
	out->sigma = sigma;
	if (sigma == 0) {
		out->constant = 1;
		for (i = 1; i < n && y[i] == y[0]; i++)
			;
		out->all_equal = i == n;
		goto done;
	}
	if (o->noise_sd > 0) {
		sigma = out->sigma = o->noise_sd;
		out->noise_given = 1;
	}
	if ((st = make_weights(var, n, sigma, &w, err)) != PR_OK)
		goto fail;
	if (n >= 2 * m) {
		st = pr_cp_segment(yc, w, n,
		    PENALTY_K * sigma * sigma * log((double)n), m, &cps, &ncps,
		    &cost, err);
		if (st != PR_OK)
			goto fail;
	}
	out->candidates = ncps;
	/*
	 * Step 3: backward elimination, with the O(1) test from prefix sums
	 * for unweighted points, then again with the direct one, so that
	 * every change kept is confirmed by the test its report shows (the
	 * two agree to rounding; the second pass costs O(n) in all).
	 */
	if (ncps > 0) {
		if ((z2 = malloc(ncps * sizeof(*z2))) == NULL) {
			st = pr_error_set(err, PR_ENOMEM, "out of memory");
			goto fail;
		}
		if (w == NULL && ncps > 1) {
			struct fastsums fs;

			if ((st = fastsums_make(&fs, yc, n, err)) != PR_OK)
				goto fail;
			eliminate(yc, w, &fs, n, cps, &ncps, z2, thr2);
			fastsums_free(&fs);
		}
		eliminate(yc, w, NULL, n, cps, &ncps, z2, thr2);
	}
	/*
	 * Step 4: the last m - 1 points.  A step there is searched over the
	 * last segment, in the values as given (clipping against a running
	 * median would flatten a new level of fewer than 4 points); if the
	 * last confirmed change is itself better explained by a step in
	 * those points (the segmentation cannot put one there: segments hold
	 * m points), it is that step, not yet confirmed.
	 */
	if (ncps > 0) {
		struct steptest t, tl;
		size_t a = ncps > 1 ? cps[ncps - 2] : 0, c;

		cand_test(y, w, NULL, a, cps[ncps - 1], n, &t);
		c = best_tail(y, w, a, n, m, thr, &tl);
		if (c > 0 && tl.z2 > t.z2)
			ncps--;
	}
	{
		size_t a = ncps ? cps[ncps - 1] : 0, c;
		struct steptest t;

		c = best_tail(y, w, a, n, m, thr, &t);
		if (c > 0) {
			out->tail.possible = 1;
			out->tail.index = c;
			out->tail.needs = m - (n - c);
			out->tail.step = t.step;
			out->tail.z = t.var > 0 ? t.step / sqrt(t.var) : 0;
			if (t.mean_before > 0) {
				out->tail.change_pct =
				    100 * t.step / t.mean_before;
				if (positive && out->tail.change_pct < -100)
					out->tail.change_pct = 100 *
					    (t.mean_after / t.mean_before - 1);
				out->tail.have_pct = 1;
			}
		}
	}
	if (ncps > 0) {
		out->changes = calloc(ncps, sizeof(*out->changes));
		if (out->changes == NULL) {
			st = pr_error_set(err, PR_ENOMEM, "out of memory");
			goto fail;
		}
		for (i = 0; i < ncps; i++) {
			size_t a = i ? cps[i - 1] : 0;
			size_t b = i + 1 < ncps ? cps[i + 1] : n;
			struct steptest t;
			struct pr_cp_change ch;

			cand_test(yc, w, NULL, a, cps[i], b, &t);
			fill_change(&ch, &t, a, cps[i], b, zconf, n, o,
			    positive);
			if (ch.verdict != PR_VERDICT_EQUIVALENT)
				out->changes[out->nchanges++] = ch;
		}
	}
done:
	free(yc);
	free(tmp);
	free(w);
	free(z2);
	free(cps);
	return PR_OK;
fail:
	free(yc);
	free(tmp);
	free(w);
	free(z2);
	free(cps);
	pr_cp_result_release(out);
	return st;
}

/*
 * The tests square the values and sum the squares: values of magnitude
 * beyond 2^SCALE_EXP_MAX (or below 2^-SCALE_EXP_MAX) would overflow (or
 * vanish) there, so such a series is detected in units of a power of two
 * near its largest magnitude and the results scaled back.  A power of
 * two scales exactly, and series of ordinary magnitude are detected as
 * given, bit for bit.
 */
#define SCALE_EXP_MAX 256

static void
unscale(struct pr_cp_result *r, const double *y, int e)
{
	size_t i;

	for (i = 0; i < r->nchanges; i++) {
		struct pr_cp_change *c = &r->changes[i];

		c->before = ldexp(c->before, e);
		c->after = ldexp(c->after, e);
		c->step = ldexp(c->step, e);
		c->step_lo = ldexp(c->step_lo, e);
		c->step_hi = ldexp(c->step_hi, e);
	}
	for (i = 0; i < r->nspikes; i++) {
		/* As given: a point far below the series' magnitude may not
		 * survive the scaling. */
		r->spikes[i].value = y[r->spikes[i].index];
		r->spikes[i].expected = ldexp(r->spikes[i].expected, e);
	}
	r->tail.step = ldexp(r->tail.step, e);
	r->sigma = ldexp(r->sigma, e);
}

/* A noise given that the scaling by 2^-e takes to 0 or to infinity (or
 * its square) is beyond what values of this magnitude can resolve or
 * hold. */
static int
scaled_noise_ok(double sd, int e)
{
	double s = ldexp(sd, -e);

	return s != 0 && isfinite(s) && isfinite(s * s);
}

/* The largest |y[i]|, NaN when a y[i] is not finite. */
static double
max_abs(const double *y, size_t n)
{
	double maxabs = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(y[i]))
			return NAN;
		if (fabs(y[i]) > maxabs)
			maxabs = fabs(y[i]);
	}
	return maxabs;
}

/* Whether pr_cp_detect scales the values (by 2^-e into *e). */
static int
scaled(double maxabs, size_t n, int *e)
{
	if (n < PR_CP_MIN_POINTS || maxabs == 0 ||
	    (maxabs < ldexp(1, SCALE_EXP_MAX) &&
		maxabs > ldexp(1, -SCALE_EXP_MAX)))
		return 0;
	(void)frexp(maxabs, e);
	return 1;
}

int
pr_cp_noise_usable(const double *y, size_t n, double sd)
{
	double maxabs = max_abs(y, n);
	int e;

	if (!(sd > 0) || !isfinite(sd) || isnan(maxabs))
		return 0;
	return !scaled(maxabs, n, &e) || scaled_noise_ok(sd, e);
}

enum pr_status
pr_cp_detect(const double *y, const double *var, size_t n,
    const struct pr_cp_opts *o, struct pr_cp_result *out, struct pr_error *err)
{
	struct pr_cp_opts def, so;
	double maxabs, *ys = NULL, *vs = NULL;
	enum pr_status st;
	size_t i;
	int e;

	if (isnan(maxabs = max_abs(y, n)))
		return detect(y, var, n, o, out, err); /* the error */
	if (!scaled(maxabs, n, &e))
		return detect(y, var, n, o, out, err);
	if (o == NULL) {
		pr_cp_opts_init(&def);
		o = &def;
	}
	so = *o;
	so.noise_sd = ldexp(o->noise_sd, -e);
	memset(out, 0, sizeof(*out));
	if (o->noise_sd > 0 && isfinite(o->noise_sd) &&
	    !scaled_noise_ok(o->noise_sd, e))
		return pr_error_set(err, PR_EINVAL,
		    "the noise %.6g is out of range for values of magnitude "
		    "%.6g",
		    o->noise_sd, maxabs);
	ys = malloc(n * sizeof(*ys));
	if (var != NULL)
		vs = malloc(n * sizeof(*vs));
	if (ys == NULL || (var != NULL && vs == NULL)) {
		free(ys);
		free(vs);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		ys[i] = ldexp(y[i], -e);
		if (var != NULL)
			vs[i] =
			    isfinite(var[i]) ? ldexp(var[i], -2 * e) : var[i];
	}
	st = detect(ys, vs, n, &so, out, err);
	if (st == PR_OK)
		unscale(out, y, e);
	free(ys);
	free(vs);
	return st;
}
