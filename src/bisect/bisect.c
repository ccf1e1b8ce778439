/*
 * bisect/bisect.c - the posterior over where a change is in a range of
 * commits, and the choice of the next measurement (perfreg/bisect.h has
 * the model; this file its computation).
 *
 * The samples of each position are kept (as logs) for the whole search.
 * A fit is redone, warm-started from the last one, whenever the posterior
 * is asked for after new samples: EM for the t levels and the common
 * scale, then one Gaussian summary (m_j, v_j) per tested commit.  Tested
 * commits are kept in order of position in `tested`; gap g is the run of
 * untested positions between tested[g] and tested[g + 1] plus tested[g +
 * 1] itself, the commits that can be the first bad one with the data
 * split at the same place.  Every log-likelihood is of the centred levels
 * (the good end's level subtracted), so that the prefix sums do not
 * cancel.  Invariants: the ends are never skipped; a skipped position has
 * no samples.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/bisect.h"
#include "perfreg/distrib.h"

#define EM_MAX_ITER 200
#define EM_TOL 1e-12
#define SCALE_FLOOR 1e-7 /* log units: 0.1 ppm */
#define MI_GRID 241
#define NO_ROUND ((size_t)-1)
/* The second mode of the noise: EM's iterations at most, the iteration
 * at which a start whose likelihood gained less than half of BIC's price
 * is given up, the grid of the Fisher information's integral, and the
 * fewest degrees of freedom the fit needs. */
#define MODE_MAX_ITER 1000
#define MODE_GIVE_UP_ITER 50
#define MODE_GRID 4096
#define MODE_MIN_DF 10

/* A round of interleaved runs: its caller's id, its runs, its effect. */
struct round {
	uint64_t id;
	size_t k;
	double u; /* fitted effect (log), 0 while k < 2 */
};

struct pos {
	double *y;  /* log values */
	size_t *rd; /* each value's round (index in rounds), or NO_ROUND */
	size_t n, cap;
	int skipped;
	double m; /* fitted level (log) */
	int have_m;
};

struct pr_bisect {
	struct pr_bisect_opts o;
	struct pos *p; /* o.n + 1 */
	size_t total;
	size_t measured;
	int dirty;
	struct round *rounds;
	size_t nrounds, rcap;
	size_t unrounded; /* values added without a round */
	int paired;       /* the last fit used the rounds' effects */
	double tau2;      /* the rounds' variance t (random effects) */
	double hsum;      /* sum over rounds of h_r = W_r t / (W_r t + s^2) */

	/* The last fit, valid when !dirty. */
	double s;    /* scale */
	double infl; /* small-sample inflation of the variances */
	size_t T;
	size_t *tested;      /* T positions in order */
	double *mc, *v;      /* centred level and its variance, per tested */
	double *w, *s1, *s2; /* prefix sums of 1/v, m/v, m^2/v (T + 1) */
	double *lp_single;   /* log posterior of each gap (T - 1) */
	double *lp_pair;     /* log posterior of gap pairs g1 <= g2, (T-1)^2 */
	double *rsw, *rswy;  /* per round: sums of weights, weighted values */
	double lp_none, lp_multi, lp_single_all;
	int fitted;

	/* The noise's modes (o.modes 2): the last fit's choice, the second
	 * mode's share and shift (log), the scale of each mode, and the
	 * levels (per tested) of the two-mode fit, which the posterior uses
	 * when it is chosen; the one-mode fit (b->s, pos.m, round.u) stays
	 * the next fit's start.  The two-mode fit's round effects are EM's
	 * scratch (ut): nothing after the fit reads a round's effect. */
	int modes;
	double mp, md, s2m;
	double *m2, *mt, *ut; /* chosen levels; a start's levels, effects */
	double unit;          /* a run's variance of a level, before infl */
};

void
pr_bisect_opts_init(struct pr_bisect_opts *o, size_t n)
{
	memset(o, 0, sizeof(*o));
	o->n = n;
	o->confidence = 0.95;
	o->prior_none = 0.1;
	o->prior_multi = n >= 2 ? 0.1 : 0;
	o->step_sd = 0.05;
	o->equiv = 0.01;
	o->nu = 4;
	o->build_cost = 30;
	o->run_cost = 1;
	o->min_runs = 3;
	o->max_batch = 32;
	o->modes = 1;
}

/* Releases the arrays of the last fit. */
static void
free_fit(struct pr_bisect *b)
{
	free(b->tested);
	free(b->mc);
	free(b->v);
	free(b->w);
	free(b->s1);
	free(b->s2);
	free(b->lp_single);
	free(b->lp_pair);
	free(b->rsw);
	free(b->rswy);
	free(b->m2);
	free(b->mt);
	free(b->ut);
	b->rsw = b->rswy = NULL;
	b->m2 = b->mt = b->ut = NULL;
}

void
pr_bisect_free(struct pr_bisect *b)
{
	size_t i;

	if (b == NULL)
		return;
	if (b->p != NULL)
		for (i = 0; i <= b->o.n; i++) {
			free(b->p[i].y);
			free(b->p[i].rd);
		}
	free(b->p);
	free(b->rounds);
	free_fit(b);
	free(b);
}

static int
finite_pos(double x)
{
	return isfinite(x) && x > 0;
}

enum pr_status
pr_bisect_new(const struct pr_bisect_opts *o, struct pr_bisect **out,
    struct pr_error *err)
{
	struct pr_bisect *b;

	*out = NULL;
	if (o->n < 1 || o->n > ((size_t)1 << 24))
		return pr_error_set(err, PR_EINVAL,
		    "a bisection needs 1 to 16777216 commits, not %zu", o->n);
	if (!(o->confidence > 0.5 && o->confidence < 1))
		return pr_error_set(err, PR_EINVAL,
		    "confidence must be in (0.5, 1), not %g", o->confidence);
	if (!(o->prior_none > 0 && o->prior_multi >= 0 &&
		o->prior_none + o->prior_multi < 1) ||
	    (o->n < 2 && o->prior_multi > 0))
		return pr_error_set(err, PR_EINVAL,
		    "priors %g (no change) and %g (several) are not valid",
		    o->prior_none, o->prior_multi);
	if (!(o->equiv >= 0 && isfinite(o->equiv)))
		return pr_error_set(err, PR_EINVAL,
		    "the equivalence margin must be finite and >= 0, not %g",
		    o->equiv);
	if (!finite_pos(o->step_sd) || !finite_pos(o->nu) ||
	    !finite_pos(o->build_cost) || !finite_pos(o->run_cost))
		return pr_error_set(err, PR_EINVAL,
		    "step sd, nu and costs must be finite and positive");
	if (o->min_runs < 2 || o->max_batch < o->min_runs)
		return pr_error_set(err, PR_EINVAL,
		    "min_runs must be at least 2 and at most max_batch");
	if (o->modes != 1 && o->modes != 2)
		return pr_error_set(err, PR_EINVAL,
		    "the noise has 1 or 2 modes, not %u", o->modes);
	b = calloc(1, sizeof(*b));
	if (b == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	b->o = *o;
	b->p = calloc(o->n + 1, sizeof(*b->p));
	if (b->p == NULL) {
		free(b);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	b->dirty = 1;
	*out = b;
	return PR_OK;
}

/* The index of round id in b->rounds, added when new (searched from
 * the end: a caller adds its rounds in order). */
static enum pr_status
round_index(struct pr_bisect *b, uint64_t id, size_t *out, struct pr_error *err)
{
	size_t i;

	for (i = b->nrounds; i-- > 0;)
		if (b->rounds[i].id == id) {
			*out = i;
			return PR_OK;
		}
	if (b->nrounds == b->rcap) {
		size_t cap = b->rcap ? 2 * b->rcap : 64;
		struct round *r = realloc(b->rounds, cap * sizeof(*r));

		if (r == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		b->rounds = r;
		b->rcap = cap;
	}
	b->rounds[b->nrounds].id = id;
	b->rounds[b->nrounds].k = 0;
	b->rounds[b->nrounds].u = 0;
	*out = b->nrounds++;
	return PR_OK;
}

enum pr_status
pr_bisect_add(struct pr_bisect *b, size_t pos, double value,
    struct pr_error *err)
{
	return pr_bisect_add_round(b, pos, value, 0, err);
}

enum pr_status
pr_bisect_add_round(struct pr_bisect *b, size_t pos, double value,
    uint64_t round, struct pr_error *err)
{
	struct pos *p;
	size_t ri = NO_ROUND;
	enum pr_status st;

	if (pos > b->o.n)
		return pr_error_set(err, PR_EINVAL,
		    "commit %zu is outside the range 0 .. %zu", pos, b->o.n);
	if (!finite_pos(value))
		return pr_error_set(err, PR_EINVAL,
		    "a measurement must be finite and positive, not %g", value);
	p = &b->p[pos];
	if (p->skipped)
		return pr_error_set(err, PR_EINVAL, "commit %zu was skipped",
		    pos);
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 8;
		double *y = realloc(p->y, cap * sizeof(*y));
		size_t *rd;

		if (y == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		p->y = y;
		rd = realloc(p->rd, cap * sizeof(*rd));
		if (rd == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		p->rd = rd;
		p->cap = cap;
	}
	if (round != 0 && (st = round_index(b, round, &ri, err)) != PR_OK)
		return st;
	if (ri != NO_ROUND)
		b->rounds[ri].k++;
	else
		b->unrounded++;
	p->rd[p->n] = ri;
	p->y[p->n++] = log(value);
	if (p->n == 1)
		b->measured++;
	b->total++;
	b->dirty = 1;
	return PR_OK;
}

enum pr_status
pr_bisect_skip(struct pr_bisect *b, size_t pos, struct pr_error *err)
{
	if (pos == 0 || pos >= b->o.n)
		return pr_error_set(err, PR_EINVAL,
		    "commit %zu cannot be skipped: the good and bad ends "
		    "must be measured",
		    pos);
	if (b->p[pos].n > 0)
		return pr_error_set(err, PR_EINVAL,
		    "commit %zu has measurements and cannot be skipped", pos);
	b->p[pos].skipped = 1;
	b->dirty = 1;
	return PR_OK;
}

size_t
pr_bisect_runs(const struct pr_bisect *b, size_t pos)
{
	return pos <= b->o.n ? b->p[pos].n : 0;
}

size_t
pr_bisect_total_runs(const struct pr_bisect *b)
{
	return b->total;
}

size_t
pr_bisect_commits_measured(const struct pr_bisect *b)
{
	return b->measured;
}

static double
logsumexp2(double a, double b)
{
	double m = a > b ? a : b;

	if (m == -INFINITY)
		return -INFINITY;
	return m + log(exp(a - m) + exp(b - m));
}

/* The effect of the round of value i of p: 0 without a round, in a
 * round of one value, or when the fit is not paired. */
static double
ueff(const struct pr_bisect *b, const struct pos *p, size_t i)
{
	size_t r = p->rd[i];

	return b->paired && r != NO_ROUND ? b->rounds[r].u : 0;
}

/*
 * The rounds' step of the EM (paired fits), for rounds of two or more
 * values: z_r, the weighted mean of a round's values less their commits'
 * levels, with W_r its sum of weights.  Fixed effects: u_r = z_r.
 * Random effects: one Fisher scoring step of the likelihood equation of
 * t for z_r ~ N(0, t + c_r), c_r = s^2 / W_r,
 *
 *   t' = max(0, sum (z_r^2 - c_r) / (t + c_r)^2 / sum 1 / (t + c_r)^2),
 *
 * (0 stays 0 when the equation's left side is <= 0 there), then u_r =
 * z_r t' / (t' + c_r) and h_r = t' / (t' + c_r).  When every value is in
 * such a round the effects are centred (a common shift of every level
 * and every effect fits the same; the random effects' solution has sum
 * u_r = 0 then).  Returns how far an effect (or the sd of t) moved.
 */
static double
fit_rounds(struct pr_bisect *b, double s2)
{
	double nu = b->o.nu, moved = 0, ubar = 0, num = 0, den = 0, t;
	size_t k, j, r, nr = 0, inr = 0;

	for (r = 0; r < b->nrounds; r++)
		b->rsw[r] = b->rswy[r] = 0;
	for (k = 0; k < b->T; k++) {
		const struct pos *p = &b->p[b->tested[k]];

		for (j = 0; j < p->n; j++) {
			double res, w;

			r = p->rd[j];
			if (r == NO_ROUND || b->rounds[r].k < 2)
				continue;
			res = p->y[j] - p->m - b->rounds[r].u;
			w = (nu + 1) / (nu + res * res / s2);
			b->rsw[r] += w;
			b->rswy[r] += w * (p->y[j] - p->m);
			inr++;
		}
	}
	t = b->tau2;
	if (!b->o.fixed_rounds) {
		for (r = 0; r < b->nrounds; r++) {
			double z, c, q;

			if (b->rounds[r].k < 2 || b->rsw[r] <= 0)
				continue;
			z = b->rswy[r] / b->rsw[r];
			c = s2 / b->rsw[r];
			q = 1 / ((t + c) * (t + c));
			num += (z * z - c) * q;
			den += q;
		}
		t = den > 0 && num > 0 ? num / den : 0;
		moved = fabs(sqrt(t) - sqrt(b->tau2));
		b->tau2 = t;
		b->hsum = 0;
	}
	for (r = 0; r < b->nrounds; r++) {
		double u;

		if (b->rounds[r].k < 2 || b->rsw[r] <= 0)
			continue;
		u = b->rswy[r] / b->rsw[r];
		if (!b->o.fixed_rounds) {
			double h = t > 0 ? t / (t + s2 / b->rsw[r]) : 0;

			u *= h;
			b->hsum += h;
		}
		moved = fmax(moved, fabs(u - b->rounds[r].u));
		b->rounds[r].u = u;
		ubar += u;
		nr++;
	}
	if ((b->o.fixed_rounds ? b->unrounded == 0 : inr == b->total) &&
	    nr > 0) {
		ubar /= (double)nr;
		for (r = 0; r < b->nrounds; r++)
			if (b->rounds[r].k >= 2)
				b->rounds[r].u -= ubar;
		for (k = 0; k < b->T; k++)
			b->p[b->tested[k]].m += ubar;
	}
	return moved;
}

/*
 * EM for the t model: each commit's level, each round's effect (paired
 * fits) and one scale.  The weights are the E step; the levels and the
 * effects are weighted means (random effects: shrunk, fit_rounds) and
 * the scale the weighted mean square with n - T - R degrees of freedom
 * (R rounds of two or more values; random effects: n - T - sum h_r).
 * The fit is paired when there are such rounds and n - T - R >= 1; else
 * it is the plain fit.  Returns the degrees of freedom.
 */
static double
fit_levels(struct pr_bisect *b)
{
	double nu = b->o.nu, s2, prev, df;
	size_t i, j, k, r, R2 = 0;
	int it, maxit;

	for (r = 0; r < b->nrounds; r++)
		if (b->rounds[r].k >= 2)
			R2++;
	b->paired = R2 > 0 && b->total > b->T + R2;
	if (!b->paired) {
		R2 = 0;
		b->tau2 = b->hsum = 0;
	}
	maxit = b->paired ? 20 * EM_MAX_ITER : EM_MAX_ITER;
	/* Start: each new commit at its mean; the scale from the means. */
	s2 = 0;
	for (k = 0; k < b->T; k++) {
		struct pos *p = &b->p[b->tested[k]];

		if (!p->have_m) {
			double sum = 0;

			for (i = 0; i < p->n; i++)
				sum += p->y[i] - ueff(b, p, i);
			p->m = sum / (double)p->n;
			p->have_m = 1;
		}
	}
	if (b->total <= b->T + R2)
		return 0;
	df = (double)(b->total - b->T) -
	    (b->o.fixed_rounds ? (double)R2 : b->hsum);
	for (k = 0; k < b->T; k++) {
		struct pos *p = &b->p[b->tested[k]];

		for (i = 0; i < p->n; i++) {
			double res = p->y[i] - p->m - ueff(b, p, i);

			s2 += res * res;
		}
	}
	s2 /= df;
	if (b->s > 0)
		s2 = b->s * b->s; /* warm start */
	if (s2 < SCALE_FLOOR * SCALE_FLOOR)
		s2 = SCALE_FLOOR * SCALE_FLOOR;
	prev = s2;
	for (it = 0; it < maxit; it++) {
		double ss = 0, moved = 0;

		for (k = 0; k < b->T; k++) {
			struct pos *p = &b->p[b->tested[k]];
			double sw = 0, swy = 0, m;

			for (j = 0; j < p->n; j++) {
				double u = ueff(b, p, j);
				double res = p->y[j] - p->m - u;
				double w = (nu + 1) / (nu + res * res / s2);

				sw += w;
				swy += w * (p->y[j] - u);
			}
			m = swy / sw;
			moved = fmax(moved, fabs(m - p->m));
			p->m = m;
		}
		if (b->paired)
			moved = fmax(moved, fit_rounds(b, s2));
		for (k = 0; k < b->T; k++) {
			struct pos *p = &b->p[b->tested[k]];

			for (j = 0; j < p->n; j++) {
				double res = p->y[j] - p->m - ueff(b, p, j);
				double w = (nu + 1) / (nu + res * res / s2);

				ss += w * res * res;
			}
		}
		if (b->paired && !b->o.fixed_rounds)
			df = (double)(b->total - b->T) - b->hsum;
		s2 = ss / df;
		if (s2 < SCALE_FLOOR * SCALE_FLOOR)
			s2 = SCALE_FLOOR * SCALE_FLOOR;
		if (fabs(s2 - prev) <= EM_TOL * prev &&
		    moved <= EM_TOL * sqrt(s2))
			break;
		prev = s2;
	}
	b->s = sqrt(s2);
	return df;
}

/*
 * The noise with a second mode (perfreg/bisect.h): a run is y = m_j + u_r
 * + e, e ~ (1 - p) t(0, s) + p t(d, s), Student's t of nu degrees of
 * freedom.  Fitted by EM (McLachlan and Peel, "Finite Mixture Models",
 * 2000, ch. 7: mixtures of t with the degrees of freedom known), with a
 * common scale and the modes' locations tied to the levels: the E step
 * gives each run its probability z of the second mode and the t weights
 * w0, w1 of either; the M steps, in turn (each after a new E step, a
 * multicycle ECM), the levels, the fixed round effects, then d, p and s,
 * with s^2 = sum ((1 - z) w0 r^2 + z w1 (r - d)^2) / (n - T - R - 1)
 * (the one-mode fit's degrees of freedom less one for d).
 */
struct mix {
	double p, d, s2; /* share, shift, scale^2 */
	double ll;       /* log-likelihood, less a constant per run */
	size_t iters;
};

/* The level of tested k and the effect of round r in a mix fit: m[],
 * u[] (u NULL or a round of fewer than 2 values: 0). */
static double
mix_u(const struct pr_bisect *b, const double *u, size_t r)
{
	if (u == NULL || r == NO_ROUND || b->rounds[r].k < 2)
		return 0;
	return u[r];
}

/* The terms of a run's E step that depend on the fit f alone, computed
 * once per pass over the runs rather than once per run (the same values:
 * the passes give the same results to the bit). */
struct mix_k {
	double l0, l1; /* log(1 - p), log(p) */
	double h;      /* (nu + 1) / 2 */
	double ls;     /* log(s^2) / 2 */
};

static void
mix_k_init(struct mix_k *k, const struct mix *f, double nu)
{
	k->l0 = log1p(-f->p);
	k->l1 = log(f->p);
	k->h = 0.5 * (nu + 1);
	k->ls = 0.5 * log(f->s2);
}

/* For one run's residual x (to the first mode): the second mode's
 * probability z, the two t weights, and the log-terms a0, a1 of the
 * two modes (mix_e's). */
static void
mix_zw(double x, const struct mix *f, const struct mix_k *k, double nu,
    double *z, double *w0, double *w1, double *a0, double *a1)
{
	double q0 = x * x / f->s2, q1 = (x - f->d) * (x - f->d) / f->s2;

	*a0 = k->l0 - k->h * log1p(q0 / nu);
	*a1 = k->l1 - k->h * log1p(q1 / nu);
	*z = 1 / (1 + exp(*a0 - *a1));
	*w0 = (nu + 1) / (nu + q0);
	*w1 = (nu + 1) / (nu + q1);
}

/* mix_zw and the run's log-likelihood term. */
static void
mix_e(double x, const struct mix *f, const struct mix_k *k, double nu,
    double *z, double *w0, double *w1, double *ll)
{
	double a0, a1, mx;

	mix_zw(x, f, k, nu, z, w0, w1, &a0, &a1);
	mx = a0 > a1 ? a0 : a1;
	*ll = mx + log(exp(a0 - mx) + exp(a1 - mx)) - k->ls;
}

/* The one-mode fit's log-likelihood, less the same constant per run. */
static double
one_ll(const struct pr_bisect *b)
{
	double nu = b->o.nu, s2 = b->s * b->s, ll = 0;
	size_t k, j;

	for (k = 0; k < b->T; k++) {
		const struct pos *p = &b->p[b->tested[k]];

		for (j = 0; j < p->n; j++) {
			double x = p->y[j] - p->m - ueff(b, p, j);

			ll += -0.5 * (nu + 1) * log1p(x * x / (nu * s2)) -
			    0.5 * log(s2);
		}
	}
	return ll;
}

/* The log-likelihood of the mix fit f with levels m[] and effects u[]. */
static double
mix_ll(const struct pr_bisect *b, const double *m, const double *u,
    const struct mix *f)
{
	double z, w0, w1, l, ll = 0;
	struct mix_k c;
	size_t k, j;

	mix_k_init(&c, f, b->o.nu);
	for (k = 0; k < b->T; k++) {
		const struct pos *p = &b->p[b->tested[k]];

		for (j = 0; j < p->n; j++) {
			mix_e(p->y[j] - m[k] - mix_u(b, u, p->rd[j]), f, &c,
			    b->o.nu, &z, &w0, &w1, &l);
			ll += l;
		}
	}
	return ll;
}

/*
 * EM of the two-mode fit from f (and m[], u[]: u NULL without rounds),
 * in place.  Returns 1 when it converged to two modes that the BIC may
 * weigh, 0 when it fell to one (p at 0 or 1) or, at MODE_GIVE_UP_ITER
 * iterations, had gained less than half of BIC's price (ln n) over the
 * one-mode fit's ll1 (a likelihood EM can only raise, but so slowly
 * when the data have one mode that its end is not worth waiting for).
 */
static int
mix_em(struct pr_bisect *b, double *m, double *u, struct mix *f, double df,
    double ll1)
{
	double nu = b->o.nu, n = (double)b->total, z, w0, w1, a0, a1, prev;
	struct mix_k c;
	size_t k, j, r, nr;
	int it;

	prev = f->s2;
	for (it = 0; it < MODE_MAX_ITER; it++) {
		double moved = 0, sz = 0, szw = 0, szwx = 0, szwxx = 0;
		double ss0 = 0, ss, d, ubar;

		f->iters = (size_t)it + 1;
		mix_k_init(&c, f, nu); /* f changes only at the pass's end */
		/* The levels. */
		for (k = 0; k < b->T; k++) {
			const struct pos *p = &b->p[b->tested[k]];
			double sw = 0, swy = 0, mk;

			for (j = 0; j < p->n; j++) {
				double uj = mix_u(b, u, p->rd[j]);
				double y = p->y[j] - uj;

				mix_zw(y - m[k], f, &c, nu, &z, &w0, &w1, &a0,
				    &a1);
				sw += (1 - z) * w0 + z * w1;
				swy += (1 - z) * w0 * y + z * w1 * (y - f->d);
			}
			mk = swy / sw;
			moved = fmax(moved, fabs(mk - m[k]));
			m[k] = mk;
		}
		/* The fixed round effects, centred when every run is in a
		 * round (a common shift of levels and effects fits alike). */
		if (u != NULL) {
			for (r = 0; r < b->nrounds; r++)
				b->rsw[r] = b->rswy[r] = 0;
			for (k = 0; k < b->T; k++) {
				const struct pos *p = &b->p[b->tested[k]];

				for (j = 0; j < p->n; j++) {
					double y = p->y[j] - m[k];

					r = p->rd[j];
					if (r == NO_ROUND || b->rounds[r].k < 2)
						continue;
					mix_zw(y - u[r], f, &c, nu, &z, &w0,
					    &w1, &a0, &a1);
					b->rsw[r] += (1 - z) * w0 + z * w1;
					b->rswy[r] += (1 - z) * w0 * y +
					    z * w1 * (y - f->d);
				}
			}
			ubar = 0;
			nr = 0;
			for (r = 0; r < b->nrounds; r++) {
				double ur;

				if (b->rounds[r].k < 2 || b->rsw[r] <= 0)
					continue;
				ur = b->rswy[r] / b->rsw[r];
				moved = fmax(moved, fabs(ur - u[r]));
				u[r] = ur;
				ubar += ur;
				nr++;
			}
			if (b->unrounded == 0 && nr > 0) {
				ubar /= (double)nr;
				for (r = 0; r < b->nrounds; r++)
					if (b->rounds[r].k >= 2)
						u[r] -= ubar;
				for (k = 0; k < b->T; k++)
					m[k] += ubar;
			}
		}
		/* The second mode's shift and share, and the scale. */
		for (k = 0; k < b->T; k++) {
			const struct pos *p = &b->p[b->tested[k]];

			for (j = 0; j < p->n; j++) {
				double x =
				    p->y[j] - m[k] - mix_u(b, u, p->rd[j]);

				mix_zw(x, f, &c, nu, &z, &w0, &w1, &a0, &a1);
				sz += z;
				szw += z * w1;
				szwx += z * w1 * x;
				ss0 += (1 - z) * w0 * x * x;
				szwxx += z * w1 * x * x;
			}
		}
		if (!(szw > 0))
			return 0;
		/* The scale at the new shift: sum z w1 (x - d)^2 expanded. */
		d = szwx / szw;
		ss = ss0 + fmax(szwxx - 2 * d * szwx + d * d * szw, 0);
		moved = fmax(moved, fabs(d - f->d));
		moved = fmax(moved, fabs(sz / n - f->p) * sqrt(f->s2));
		f->d = d;
		f->p = sz / n;
		f->s2 = fmax(ss / df, SCALE_FLOOR * SCALE_FLOOR);
		if (!(f->p > 1e-9 && f->p < 1 - 1e-9))
			return 0;
		if (it + 1 == MODE_GIVE_UP_ITER &&
		    mix_ll(b, m, u, f) - ll1 < 0.5 * log(n))
			return 0;
		if (fabs(f->s2 - prev) <= EM_TOL * prev &&
		    moved <= EM_TOL * sqrt(f->s2))
			break;
		prev = f->s2;
	}
	f->ll = mix_ll(b, m, u, f);
	return 1;
}

/*
 * The Fisher information of a location under the noise (1 - p) t(0, s)
 * + p t(d, s), per run: the integral of g'^2 / g over the line, by the
 * trapezoid rule after x = d / 2 + a tan(theta) (a = s sqrt(nu) + |d| /
 * 2), which maps the line onto (-pi / 2, pi / 2), where the integrand
 * falls to 0 like cos^(nu + 1).  At p = 0 it is (nu + 1) / ((nu + 3)
 * s^2), the one-mode fit's.
 */
static double
mix_info(double p, double d, double s2, double nu)
{
	double s = sqrt(s2), a = s * sqrt(nu) + fabs(d) / 2, c = d / 2;
	double h = M_PI / MODE_GRID, sum = 0;
	double k =
	    exp(lgamma((nu + 1) / 2) - lgamma(nu / 2)) / (sqrt(nu * M_PI) * s);
	int i;

	for (i = 1; i < MODE_GRID; i++) {
		double th = -M_PI / 2 + h * i, ct = cos(th);
		double x = c + a * tan(th), x1 = x - d;
		double f0 =
		    (1 - p) * k * pow(1 + x * x / (nu * s2), -(nu + 1) / 2);
		double f1 = p * k * pow(1 + x1 * x1 / (nu * s2), -(nu + 1) / 2);
		double g = f0 + f1;
		double gp = -f0 * (nu + 1) * x / (nu * s2 + x * x) -
		    f1 * (nu + 1) * x1 / (nu * s2 + x1 * x1);

		if (g > 0)
			sum += gp * gp / g * a / (ct * ct);
	}
	return sum * h;
}

/*
 * With o.modes 2, after the one-mode fit: the two-mode fit from two
 * starts (the one-mode levels and effects, p = 0.2, s = s1 / 2 and d =
 * +2 s1 or -2 s1, s1 the one-mode scale), the one of larger likelihood
 * kept, its modes named so that the first holds the larger share; chosen
 * (b->modes 2, its levels in b->m2) when it lowers
 * BIC (a likelihood larger by more than ln n: two more parameters) and
 * its second mode holds 2 runs or more.  Only without rounds or with
 * fixed round effects, and with MODE_MIN_DF degrees of freedom.  *df is
 * the chosen fit's.
 */
static void
fit_modes(struct pr_bisect *b, double *df)
{
	struct mix best, f;
	double ll1, df2, n = (double)b->total, *u = NULL;
	size_t k, r, R2 = 0;
	int start, any = 0;

	b->modes = 1;
	b->mp = b->md = 0;
	b->s2m = b->s * b->s;
	if (b->o.modes < 2 || (b->paired && !b->o.fixed_rounds))
		return;
	if (b->paired)
		for (r = 0; r < b->nrounds; r++)
			R2 += b->rounds[r].k >= 2;
	df2 = n - (double)b->T - (double)R2 - 1;
	if (df2 < MODE_MIN_DF)
		return;
	ll1 = one_ll(b);
	memset(&best, 0, sizeof(best));
	for (start = 0; start < 2; start++) {
		for (k = 0; k < b->T; k++)
			b->mt[k] = b->p[b->tested[k]].m;
		if (b->paired) {
			u = b->ut;
			for (r = 0; r < b->nrounds; r++)
				u[r] = b->rounds[r].u;
		}
		f.p = 0.2;
		f.s2 = b->s * b->s / 4;
		f.d = (start == 0 ? 2 : -2) * b->s;
		f.ll = -INFINITY;
		if (!mix_em(b, b->mt, u, &f, df2, ll1))
			continue;
		if (!any || f.ll > best.ll) {
			best = f;
			memcpy(b->m2, b->mt, b->T * sizeof(double));
			any = 1;
		}
	}
	if (!any || !(best.ll - ll1 > log(n)))
		return;
	if (best.p > 0.5) {
		/* The larger share is the first mode: the levels follow it. */
		for (k = 0; k < b->T; k++)
			b->m2[k] += best.d;
		best.d = -best.d;
		best.p = 1 - best.p;
	}
	if (best.p * n < 2)
		return;
	b->modes = 2;
	b->mp = best.p;
	b->md = best.d;
	b->s2m = best.s2;
	*df = df2;
}

/* The Gaussian summary of tested[a .. c - 1]: mean, variance, residual. */
static void
seg(const struct pr_bisect *b, size_t a, size_t c, double *M, double *V,
    double *Q)
{
	double w = b->w[c] - b->w[a];
	double s1 = b->s1[c] - b->s1[a];
	double s2 = b->s2[c] - b->s2[a];

	*M = s1 / w;
	*V = 1 / w;
	*Q = s2 - s1 * s1 / w;
	if (*Q < 0)
		*Q = 0;
}

static double
seg_term(double V, double Q)
{
	return 0.5 * log(2 * M_PI * V) - 0.5 * Q;
}

static double
lnorm(double x, double var)
{
	return -0.5 * log(2 * M_PI * var) - 0.5 * x * x / var;
}

/* log ML of the segmentation of tested[] at the cuts (1 or 2 of them). */
static double
lml_cuts(const struct pr_bisect *b, const size_t *cut, size_t ncut,
    double step_var)
{
	double est = 0, P = 0, l = 0, M, V, Q;
	size_t start = 0, i;

	for (i = 0; i <= ncut; i++) {
		size_t end = (cut != NULL && i < ncut) ? cut[i] : b->T;

		seg(b, start, end, &M, &V, &Q);
		l += seg_term(V, Q);
		if (i == 0) {
			est = M;
			P = V;
		} else {
			double S = P + step_var + V, K = (P + step_var) / S;

			l += lnorm(M - est, S);
			est += K * (M - est);
			P = (P + step_var) * V / S;
		}
		start = end;
	}
	return l;
}

static enum pr_status
alloc_fit(struct pr_bisect *b, struct pr_error *err)
{
	size_t n = b->measured, g = n > 1 ? n - 1 : 1;

	free_fit(b);
	b->tested = malloc(n * sizeof(size_t));
	b->mc = malloc(n * sizeof(double));
	b->v = malloc(n * sizeof(double));
	b->w = malloc((n + 1) * sizeof(double));
	b->s1 = malloc((n + 1) * sizeof(double));
	b->s2 = malloc((n + 1) * sizeof(double));
	b->lp_single = malloc(g * sizeof(double));
	b->lp_pair = malloc(g * g * sizeof(double));
	b->rsw = malloc((b->nrounds + 1) * sizeof(double));
	b->rswy = malloc((b->nrounds + 1) * sizeof(double));
	b->m2 = malloc(n * sizeof(double));
	b->mt = malloc(n * sizeof(double));
	b->ut = malloc((b->nrounds + 1) * sizeof(double));
	if (!b->tested || !b->mc || !b->v || !b->w || !b->s1 || !b->s2 ||
	    !b->lp_single || !b->lp_pair || !b->rsw || !b->rswy || !b->m2 ||
	    !b->mt || !b->ut)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	return PR_OK;
}

static enum pr_status
refit(struct pr_bisect *b, struct pr_error *err)
{
	const struct pr_bisect_opts *o = &b->o;
	double df, tau2 = o->step_sd * o->step_sd, nu = o->nu, base, norm;
	double l_single_prior, l_pair_prior;
	size_t i, k, g, g2, G, n = o->n;
	enum pr_status st;

	if (!b->dirty)
		return b->fitted ? PR_OK : PR_EUNDEF;
	if (b->p[0].n == 0 || b->p[n].n == 0)
		return pr_error_set(err, PR_EUNDEF,
		    "the good and the bad end must both be measured");
	st = alloc_fit(b, err);
	if (st != PR_OK)
		return st;
	b->T = 0;
	for (i = 0; i <= n; i++)
		if (b->p[i].n > 0)
			b->tested[b->T++] = i;
	df = fit_levels(b);
	if (df < 1)
		return pr_error_set(err, PR_EUNDEF,
		    "the noise cannot be estimated from one run per commit");
	fit_modes(b, &df);
	/*
	 * The variance of a mean with an estimated scale is larger by about
	 * df / (df - 2) (Student's t); capped at 3 for df <= 3.
	 */
	b->infl = df > 3 ? df / (df - 2) : 3;
	/* A run's variance of a level: the inverse Fisher information of a
	 * t location, or of the two-mode noise's. */
	b->unit = b->modes == 2 ? 1 / mix_info(b->mp, b->md, b->s2m, nu)
				: b->s * b->s * (nu + 3) / (nu + 1);
	base = b->modes == 2 ? b->m2[0] : b->p[0].m;
	b->w[0] = b->s1[0] = b->s2[0] = 0;
	for (k = 0; k < b->T; k++) {
		const struct pos *p = &b->p[b->tested[k]];
		double v = b->unit / (double)p->n * b->infl;
		double m = (b->modes == 2 ? b->m2[k] : p->m) - base;

		b->mc[k] = m;
		b->v[k] = v;
		b->w[k + 1] = b->w[k] + 1 / v;
		b->s1[k + 1] = b->s1[k] + m / v;
		b->s2[k + 1] = b->s2[k] + m * m / v;
	}
	/*
	 * The prior of a step is N(0, tau2) with tau2 at least the square of
	 * the change between the ends as fitted now: with step_sd alone a
	 * change of many step_sd is far likelier split into two (moving a
	 * small part d of a step D to a neighbour gains about D d / tau2 of
	 * the prior's log density, more than the second step's Occam factor
	 * costs), and the range has the one change it was bisected for.
	 */
	if (!o->step_fixed)
		tau2 = fmax(tau2, b->mc[b->T - 1] * b->mc[b->T - 1]);
	G = b->T - 1; /* gaps; >= 1 since both ends are tested */
	l_single_prior = log((1 - o->prior_none - o->prior_multi) / (double)n);
	l_pair_prior = o->prior_multi > 0
	    ? log(o->prior_multi / ((double)n * (double)(n - 1) / 2))
	    : -INFINITY;
	b->lp_none = log(o->prior_none) + lml_cuts(b, NULL, 0, 0);
	norm = b->lp_none;
	b->lp_single_all = -INFINITY;
	for (g = 0; g < G; g++) {
		size_t cut = g + 1;
		double c = (double)(b->tested[g + 1] - b->tested[g]);

		b->lp_single[g] =
		    l_single_prior + log(c) + lml_cuts(b, &cut, 1, tau2);
		b->lp_single_all =
		    logsumexp2(b->lp_single_all, b->lp_single[g]);
	}
	norm = logsumexp2(norm, b->lp_single_all);
	b->lp_multi = -INFINITY;
	for (g = 0; g < G; g++) {
		double c1 = (double)(b->tested[g + 1] - b->tested[g]);

		for (g2 = 0; g2 < G; g2++) {
			double c2 = (double)(b->tested[g2 + 1] - b->tested[g2]);
			double *lp = &b->lp_pair[g * G + g2];

			*lp = -INFINITY;
			if (g2 < g || o->prior_multi <= 0)
				continue;
			if (g2 == g) {
				size_t cut = g + 1;

				if (c1 < 2)
					continue;
				*lp = l_pair_prior + log(c1 * (c1 - 1) / 2) +
				    lml_cuts(b, &cut, 1, 2 * tau2);
			} else {
				size_t cuts[2] = { g + 1, g2 + 1 };

				*lp = l_pair_prior + log(c1 * c2) +
				    lml_cuts(b, cuts, 2, tau2);
			}
			b->lp_multi = logsumexp2(b->lp_multi, *lp);
		}
	}
	norm = logsumexp2(norm, b->lp_multi);
	b->lp_none -= norm;
	b->lp_multi -= norm;
	b->lp_single_all -= norm;
	for (g = 0; g < G; g++)
		b->lp_single[g] -= norm;
	for (g = 0; g < G * G; g++)
		b->lp_pair[g] -= norm;
	b->fitted = 1;
	b->dirty = 0;
	return PR_OK;
}

/* 1 when the gap's interior positions are all skipped (or it has none). */
static int
gap_final(const struct pr_bisect *b, size_t g)
{
	size_t i;

	for (i = b->tested[g] + 1; i < b->tested[g + 1]; i++)
		if (!b->p[i].skipped)
			return 0;
	return 1;
}

/*
 * P(a change is in gap g): a single change there, or one of the two
 * changes of H_multi.
 */
static double
gap_step_mass(const struct pr_bisect *b, size_t g)
{
	size_t G = b->T - 1, h;
	double p = exp(b->lp_single[g]);

	for (h = 0; h < G; h++) {
		if (h >= g)
			p += exp(b->lp_pair[g * G + h]);
		if (h < g)
			p += exp(b->lp_pair[h * G + g]);
	}
	return p;
}

/*
 * The most probable pair of gaps g1 <= g2 of H_multi, and its log
 * posterior; 0 when H_multi has no mass (no prior, or too few commits).
 */
static int
best_pair(const struct pr_bisect *b, size_t *g1, size_t *g2, double *lp)
{
	size_t G = b->T - 1, g, h;
	int any = 0;

	*g1 = *g2 = 0;
	*lp = -INFINITY;
	for (g = 0; g < G; g++)
		for (h = g; h < G; h++)
			if (b->lp_pair[g * G + h] > *lp) {
				*lp = b->lp_pair[g * G + h];
				*g1 = g;
				*g2 = h;
				any = 1;
			}
	return any;
}

/* -p log2 p, 0 at p = 0 (a probability's share of an entropy). */
static double
xlog2x(double p)
{
	return p > 0 ? -p * log2(p) : 0;
}

enum pr_status
pr_bisect_set_costs(struct pr_bisect *b, double build_cost, double run_cost,
    struct pr_error *err)
{
	if (!finite_pos(build_cost) || !finite_pos(run_cost))
		return pr_error_set(err, PR_EINVAL,
		    "the costs of a build and of a run must be finite and "
		    "positive");
	b->o.build_cost = build_cost;
	b->o.run_cost = run_cost;
	return PR_OK;
}

enum pr_status
pr_bisect_state(struct pr_bisect *b, struct pr_bisect_state *st,
    struct pr_error *err)
{
	enum pr_status rc;
	size_t g, G, best = 0, pg1 = 0, pg2 = 0;
	double M1, V1, M2, V2, Q, p_best = 0, lpp;
	int pair, located = 0;

	memset(st, 0, sizeof(*st));
	rc = refit(b, err);
	if (rc != PR_OK)
		return rc;
	G = b->T - 1;
	for (g = 0; g < G; g++) {
		double p = gap_step_mass(b, g);

		if (g == 0 || p > p_best) {
			p_best = p;
			best = g;
		}
	}
	st->lo = b->tested[best] + 1;
	st->hi = b->tested[best + 1];
	st->p_loc = p_best > 1 ? 1 : p_best;
	st->p_none = exp(b->lp_none);
	st->p_multi = exp(b->lp_multi);
	pair = best_pair(b, &pg1, &pg2, &lpp);
	if (pair) {
		st->pair_lo[0] = b->tested[pg1] + 1;
		st->pair_hi[0] = b->tested[pg1 + 1];
		st->pair_lo[1] = b->tested[pg2] + 1;
		st->pair_hi[1] = b->tested[pg2 + 1];
		st->p_pair = exp(lpp);
		located = pg1 != pg2 && gap_final(b, pg1) && gap_final(b, pg2);
	}
	st->scale = b->modes == 2 ? sqrt(b->s2m) : b->s;
	st->modes = (unsigned)b->modes;
	st->mode_share = b->mp;
	st->mode_shift = b->md;
	st->round_sd = b->paired && !b->o.fixed_rounds ? sqrt(b->tau2) : 0;
	seg(b, 0, best + 1, &M1, &V1, &Q);
	seg(b, best + 1, b->T, &M2, &V2, &Q);
	st->step_log = M2 - M1;
	st->step_se = sqrt(V1 + V2);
	{
		/* The ends' difference, and whether it is within +-equiv. */
		double d = b->mc[b->T - 1], se = sqrt(b->v[0] + b->v[b->T - 1]);
		double z = pr_norm_quantile(b->o.confidence);

		st->ends_log = d;
		st->ends_se = se;
		st->ends_equivalent = fabs(d) + z * se < b->o.equiv;
	}
	st->bits = xlog2x(st->p_none) + xlog2x(st->p_multi);
	for (g = 0; g < G; g++) {
		double m = exp(b->lp_single[g]);
		double c = (double)(b->tested[g + 1] - b->tested[g]);

		st->bits += xlog2x(m) + m * log2(c);
	}
	{
		double ps = 1 - b->o.prior_none - b->o.prior_multi;

		st->prior_bits = xlog2x(b->o.prior_none) +
		    xlog2x(b->o.prior_multi) + xlog2x(ps) +
		    ps * log2((double)b->o.n);
	}
	if (st->p_none >= b->o.confidence || st->ends_equivalent)
		st->outcome = PR_BISECT_NONE;
	else if (located && st->p_pair >= b->o.confidence)
		st->outcome = PR_BISECT_SEVERAL;
	else if (st->p_multi < b->o.confidence &&
	    st->p_loc >= b->o.confidence && gap_final(b, best))
		st->outcome = PR_BISECT_CULPRIT;
	else
		st->outcome = PR_BISECT_MEASURING;
	return PR_OK;
}

enum pr_status
pr_bisect_posterior(struct pr_bisect *b, double *single, double *multi,
    struct pr_error *err)
{
	enum pr_status rc;
	size_t g, g2, k, G, n = b->o.n;

	rc = refit(b, err);
	if (rc != PR_OK)
		return rc;
	G = b->T - 1;
	if (single != NULL) {
		single[0] = 0;
		for (g = 0; g < G; g++) {
			size_t c = b->tested[g + 1] - b->tested[g];
			double each = exp(b->lp_single[g]) / (double)c;

			for (k = b->tested[g] + 1; k <= b->tested[g + 1]; k++)
				single[k] = each;
		}
	}
	if (multi != NULL) {
		for (k = 0; k <= n; k++)
			multi[k] = 0;
		for (g = 0; g < G; g++) {
			size_t lo1 = b->tested[g] + 1, hi1 = b->tested[g + 1];
			double c1 = (double)(hi1 - lo1 + 1);

			for (g2 = g; g2 < G; g2++) {
				size_t lo2 = b->tested[g2] + 1;
				size_t hi2 = b->tested[g2 + 1];
				double c2 = (double)(hi2 - lo2 + 1);
				double p = exp(b->lp_pair[g * G + g2]);

				if (p == 0)
					continue;
				if (g2 == g) {
					for (k = lo1; k <= hi1; k++)
						multi[k] += 2 * p / c1;
					continue;
				}
				for (k = lo1; k <= hi1; k++)
					multi[k] += p / c1;
				for (k = lo2; k <= hi2; k++)
					multi[k] += p / c2;
			}
		}
	}
	return PR_OK;
}

/*
 * Mutual information, in bits, between a side Z (good with probability
 * q) and one observation x ~ N(mg, vg) if good, N(mb, vb) if bad:
 * q E_g[log g/f] + (1 - q) E_b[log b/f], f the mixture, by the trapezoid
 * rule.  One grid wide enough for both densities while its step is at
 * most the narrower one's sd; two sides far apart against their widths
 * (a figure that does not vary: an instruction count, a code size) would
 * fall between its points and give 0 bits where there are H(q), so then
 * each expectation has a grid of its own around its density.
 */
static double
mutual_info(double q, double mg, double vg, double mb, double vb)
{
	double sg = sqrt(vg), sb = sqrt(vb), sm = fmax(sg, sb);
	double lo = fmin(mg, mb) - 9 * sm, hi = fmax(mg, mb) + 9 * sm;
	double h = (hi - lo) / (MI_GRID - 1), sum = 0, lq, lq1, cg, cb;
	int i, side, two;

	if (!(q > 0 && q < 1))
		return 0;
	/* The terms of lnorm and of the mixture that do not depend on x,
	 * once (the same values as in the loop). */
	lq = log(q);
	lq1 = log1p(-q);
	cg = -0.5 * log(2 * M_PI * vg);
	cb = -0.5 * log(2 * M_PI * vb);
	two = h > fmin(sg, sb);
	for (side = 0; side < 1 + two; side++) {
		double part = 0, m = side ? mb : mg, sd = side ? sb : sg;
		double l = two ? m - 9 * sd : lo;
		double step = two ? 18 * sd / (MI_GRID - 1) : h;

		for (i = 0; i < MI_GRID; i++) {
			double x = l + step * i, xg = x - mg, xb = x - mb;
			double lg = cg - 0.5 * xg * xg / vg;
			double lb = cb - 0.5 * xb * xb / vb;
			double lf = logsumexp2(lq + lg, lq1 + lb);
			double tg = q * exp(lg) * (lg - lf);
			double tb = (1 - q) * exp(lb) * (lb - lf);
			/* Two grids: each its own side's term. */
			double t = !two ? tg + tb : side ? tb : tg;

			part += (i == 0 || i == MI_GRID - 1) ? t / 2 : t;
		}
		sum += part * (step / M_LN2);
	}
	return sum > 0 ? sum : 0;
}

/* The index of tested position pos in b->tested (binary search). */
static size_t
tested_index(const struct pr_bisect *b, size_t pos)
{
	size_t lo = 0, hi = b->T;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->tested[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The runs at pos (new: with its build) with the most information per
 * cost about a side, good with probability q, of levels ma (variance vg)
 * and mb (vb); into step when better than *best.
 */
static void
best_runs(const struct pr_bisect *b, size_t pos, int isnew, double q, double ma,
    double vg, double mb, double vb, double *best, struct pr_bisect_step *step)
{
	const struct pr_bisect_opts *o = &b->o;
	double unit = b->unit * b->infl;
	unsigned r;

	for (r = isnew ? o->min_runs : 1; r <= o->max_batch; r *= 2) {
		double vr = unit / r;
		double info = mutual_info(q, ma, vg + vr, mb, vb + vr);
		double cost = r * o->run_cost + (isnew ? o->build_cost : 0);

		if (info / cost > *best) {
			*best = info / cost;
			step->pos = pos;
			step->runs = r;
			step->build = isnew;
			step->info_bits = info;
			step->cost = cost;
		}
	}
}

/* The number of commits in gap g that can still be measured. */
static size_t
gap_open(const struct pr_bisect *b, size_t g)
{
	size_t i, c = 0;

	for (i = b->tested[g] + 1; i < b->tested[g + 1]; i++)
		c += !b->p[i].skipped;
	return c;
}

/*
 * The next measurement while H_multi holds most of the mass: locate the
 * change of the most probable pair (gaps g1 <= g2) that is not located
 * yet, at the middle of the commits that can be measured in its gap;
 * both located, more runs at the least known of their tested
 * neighbours.  The sides are the levels on either side of that change.
 */
static void
next_pair(const struct pr_bisect *b, size_t g1, size_t g2,
    struct pr_bisect_step *step)
{
	const struct pr_bisect_opts *o = &b->o;
	size_t o1 = gap_open(b, g1), o2 = g2 != g1 ? gap_open(b, g2) : 0;
	size_t g = o2 > o1 ? g2 : g1, c, i, k, nb[4];
	double ma, vg, mb, vb, q, dummy, best = 0;

	if (g1 == g2) {
		seg(b, 0, g1 + 1, &ma, &vg, &dummy);
		seg(b, g1 + 1, b->T, &mb, &vb, &dummy);
	} else if (g == g1) {
		seg(b, 0, g1 + 1, &ma, &vg, &dummy);
		seg(b, g1 + 1, g2 + 1, &mb, &vb, &dummy);
	} else {
		seg(b, g1 + 1, g2 + 1, &ma, &vg, &dummy);
		seg(b, g2 + 1, b->T, &mb, &vb, &dummy);
	}
	if (o1 + o2 > 0) {
		/* The middle open commit; the first bad one is uniform in
		 * the gap, so c is on the good side with probability q. */
		k = (gap_open(b, g) + 1) / 2;
		for (c = b->tested[g] + 1;; c++)
			if (!b->p[c].skipped && --k == 0)
				break;
		q = (double)(b->tested[g + 1] - c) /
		    (double)(b->tested[g + 1] - b->tested[g]);
		best_runs(b, c, 1, q, ma, vg, mb, vb, &best, step);
		if (best <= 0) {
			step->pos = c;
			step->runs = o->min_runs;
			step->build = 1;
			step->cost = o->min_runs * o->run_cost + o->build_cost;
		}
		return;
	}
	nb[0] = g1;
	nb[1] = g1 + 1;
	nb[2] = g2;
	nb[3] = g2 + 1;
	k = nb[0];
	for (i = 1; i < 4; i++)
		if (b->v[nb[i]] > b->v[k])
			k = nb[i];
	best_runs(b, b->tested[k], 0, 0.5, ma, vg, mb, vb, &best, step);
	if (best <= 0) {
		step->pos = b->tested[k];
		step->runs = o->min_runs;
		step->cost = o->min_runs * o->run_cost;
	}
}

enum pr_status
pr_bisect_next(struct pr_bisect *b, struct pr_bisect_step *step,
    struct pr_error *err)
{
	const struct pr_bisect_opts *o = &b->o;
	size_t n = o->n, c, g, best_new = 0, best_old = 0, gbest = 0;
	double pgood, denom, qnew = 2, qold = 2, best_score = 0;
	double ma, vg, mb, vb, qdummy;
	enum pr_status rc;
	int have_new = 0, have_old = 0;

	memset(step, 0, sizeof(*step));
	for (c = 0; c <= n; c += n) {
		if (b->p[c].n < o->min_runs) {
			step->pos = c;
			step->runs = o->min_runs - (unsigned)b->p[c].n;
			step->build = b->p[c].n == 0;
			step->cost = step->runs * o->run_cost +
			    (step->build ? o->build_cost : 0);
			return PR_OK;
		}
	}
	rc = refit(b, err);
	if (rc != PR_OK)
		return rc;
	if (exp(b->lp_multi) >= o->confidence && best_pair(b, &g, &c, &ma)) {
		next_pair(b, g, c, step);
		return PR_OK;
	}
	/*
	 * q_c, the probability that commit c is on the good side given one
	 * change or none, falls from 1 at c = 0; walk it once.
	 */
	denom = exp(b->lp_none) + exp(b->lp_single_all);
	pgood = denom; /* P(none) + sum over k > c of P(H_k), at c = 0 */
	g = 0;
	for (c = 1; c <= n; c++) {
		double q;

		/* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): refit filled tested[0 .. T - 1], the last being n >= c */
		while (c > b->tested[g + 1])
			g++;
		pgood -= exp(b->lp_single[g]) /
		    (double)(b->tested[g + 1] - b->tested[g]);
		q = pgood / denom;
		if (q < 0)
			q = 0;
		if (b->p[c].skipped)
			continue;
		if (b->p[c].n == 0) {
			if (fabs(q - 0.5) < fabs(qnew - 0.5)) {
				qnew = q;
				best_new = c;
				have_new = 1;
			}
		} else if (fabs(q - 0.5) < fabs(qold - 0.5)) {
			qold = q;
			best_old = c;
			have_old = 1;
		}
	}
	/*
	 * The two predictions are the levels of the two sides of the most
	 * probable single change: every tested commit on a side counts.
	 */
	for (g = 1; g + 1 < b->T; g++)
		if (b->lp_single[g] > b->lp_single[gbest])
			gbest = g;
	seg(b, 0, gbest + 1, &ma, &vg, &qdummy);
	seg(b, gbest + 1, b->T, &mb, &vb, &qdummy);
	if (have_new)
		best_runs(b, best_new, 1, qnew, ma, vg, mb, vb, &best_score,
		    step);
	if (have_old)
		best_runs(b, best_old, 0, qold, ma, vg, mb, vb, &best_score,
		    step);
	if (best_score <= 1e-12)
		return pr_error_set(err, PR_EUNDEF,
		    "no measurement left that would add information");
	/*
	 * Runs at a tested commit are wasted once its level is known better
	 * than the sides it is compared with: then the side known less well
	 * gets them, at the bracket's end on that side.
	 */
	if (!step->build) {
		size_t j = tested_index(b, step->pos);

		if (b->v[j] <= fmax(vg, vb))
			step->pos =
			    vg >= vb ? b->tested[gbest] : b->tested[gbest + 1];
	}
	return PR_OK;
}
