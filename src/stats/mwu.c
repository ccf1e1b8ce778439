/*
 * stats/mwu.c - the Mann-Whitney U test and the Hodges-Lehmann shift.
 *
 * U is counted in one merge of the two sorted samples, which also finds
 * the groups of equal values for the tie correction (O(na + nb)).
 *
 * The exact null distribution of U for sizes m, n (H. B. Mann and D. R.
 * Whitney, "On a test of whether one of two random variables is
 * stochastically larger than the other", Ann. Math. Statist. 18, 1947)
 * follows from conditioning on the largest of the N = m + n values: it
 * belongs to b with probability n/N, and then beats all m values of a,
 *   P_{m,n}(k) = n/N P_{m,n-1}(k - m) + m/N P_{m-1,n}(k),
 *   P_{0,n} = P_{m,0} = [k == 0].
 * The recursion is run in probabilities, not counts, so nothing
 * overflows (the counts reach C(200, 100) ~ 9e58 for 100 + 100) and, as
 * every term is a sum of positive products, nothing cancels.  Only
 * P(U <= kmax) is needed for a two-sided p-value or a critical value,
 * so the table is cut at kmax: the row of sizes (i, j) reaches index
 * min(i j, kmax).  Rows are built i by i, keeping two rows of min(m, n)
 * + 1 arrays (the distribution is symmetric in m and n).
 *
 * The normal approximation and the Hodges-Lehmann interval are described
 * in perfreg/mwu.h with their conventions and references (J. L. Hodges
 * and E. L. Lehmann, Ann. Math. Statist. 34, 1963; E. L. Lehmann,
 * "Nonparametrics: statistical methods based on ranks", 1975; D. F.
 * Bauer, "Constructing confidence sets using rank statistics", JASA 67,
 * 1972; R's wilcox.test for the conventions followed).  The selection of
 * the k-th pairwise difference is described at pr_mwu_diff_select.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/distrib.h"
#include "perfreg/mwu.h"
#include "core/banned.h"

/* na * nb must stay an exact integer in a double. */
#define PAIRS_MAX ((uint64_t)1 << 53)

static enum pr_status
check_sample(const double *x, size_t n, const char *name, struct pr_error *err)
{
	size_t i;

	if (n == 0 || x == NULL)
		return pr_error_set(err, PR_EUNDEF,
		    "rank test needs at least one value in %s", name);
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return pr_error_set(err, PR_EINVAL,
			    "rank test: value %zu of %s is not finite", i + 1,
			    name);
		if (i > 0 && x[i] < x[i - 1])
			return pr_error_set(err, PR_EINVAL,
			    "rank test: %s is not sorted at value %zu", name,
			    i + 1);
	}
	return PR_OK;
}

static enum pr_status
check_pair(const double *a, size_t na, const double *b, size_t nb,
    struct pr_error *err)
{
	enum pr_status st;

	if ((st = check_sample(a, na, "base", err)) != PR_OK ||
	    (st = check_sample(b, nb, "new", err)) != PR_OK)
		return st;
	if ((uint64_t)na > PAIRS_MAX / (uint64_t)nb)
		return pr_error_set(err, PR_ELIMIT,
		    "rank test: %zu x %zu pairs are more than 2^53", na, nb);
	return PR_OK;
}

struct merge {
	uint64_t twice_u; /* 2 U, an exact integer */
	long double ties; /* sum over pooled groups of (t^3 - t) / (N(N-1)) */
	int any_ties;     /* a pooled group of two or more */
	int all_equal;    /* one pooled group holds every value */
};

/* One merge of the sorted samples: U and the pooled tie groups. */
static void
merge_count(const double *a, size_t na, const double *b, size_t nb,
    struct merge *m)
{
	size_t i = 0, j = 0, ca, cb;
	long double nn, t;
	double v;

	memset(m, 0, sizeof(*m));
	nn = (long double)(na + nb) * (long double)(na + nb - 1);
	while (i < na || j < nb) {
		if (j >= nb || (i < na && a[i] <= b[j]))
			v = a[i];
		else
			v = b[j];
		for (ca = 0; i < na && a[i] == v; i++)
			ca++;
		for (cb = 0; j < nb && b[j] == v; j++)
			cb++;
		/* Each b equal to v beats the i - ca values of a below v
		 * and ties with ca of them. */
		m->twice_u += (uint64_t)cb * (2 * (uint64_t)(i - ca) + ca);
		if (ca + cb > 1) {
			m->any_ties = 1;
			t = (long double)(ca + cb);
			m->ties += (t - 1) * t * (t + 1) / nn;
			if (ca + cb == na + nb)
				m->all_equal = 1;
		}
	}
}

/* Sum over the groups of equal values within x of (t^3 - t) / nn. */
static long double
within_ties(const double *x, size_t n, long double nn)
{
	long double s = 0, t;
	size_t i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && x[j] == x[i]; j++)
			;
		if (j - i > 1) {
			t = (long double)(j - i);
			s += (t - 1) * t * (t + 1) / nn;
		}
	}
	return s;
}

/* The standard deviation of U under the null with a tie term. */
static double
u_sigma(size_t na, size_t nb, long double ties)
{
	long double v;

	v = (long double)na * (long double)nb / 12 *
	    ((long double)(na + nb + 1) - ties);
	return v > 0 ? (double)sqrtl(v) : 0.0;
}

/*
 * P(U = k) for k = 0..kmax under the null for sizes m, n, into
 * pmf[0..kmax].  See the file comment.
 */
static enum pr_status
null_pmf(size_t m, size_t n, size_t kmax, double *pmf, struct pr_error *err)
{
	double *prev, *cur, *tmp, *c, *l, *u, pa, pb;
	size_t i, j, k, w, top, s;

	if (n > m) {
		s = m;
		m = n;
		n = s;
	}
	w = kmax + 1;
	prev = calloc((n + 1) * w, sizeof(*prev));
	cur = calloc((n + 1) * w, sizeof(*cur));
	if (prev == NULL || cur == NULL) {
		free(prev);
		free(cur);
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory for the exact distribution of U");
	}
	/* Entries above a row's reach stay 0 from calloc: every row of the
	 * same j reaches at least as far as the one it replaces. */
	for (j = 0; j <= n; j++)
		prev[j * w] = 1;
	cur[0] = 1;
	for (i = 1; i <= m; i++) {
		for (j = 1; j <= n; j++) {
			pb = (double)j / (double)(i + j);
			pa = (double)i / (double)(i + j);
			c = cur + j * w;
			l = cur + (j - 1) * w;
			u = prev + j * w;
			top = i * j < kmax ? i * j : kmax;
			for (k = 0; k < i && k <= top; k++)
				c[k] = pa * u[k];
			for (; k <= top; k++)
				c[k] = pa * u[k] + pb * l[k - i];
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	memcpy(pmf, prev + n * w, w * sizeof(*pmf));
	free(prev);
	free(cur);
	return PR_OK;
}

enum pr_status
pr_mwu_exact_p(double u, size_t m, size_t n, double *p, struct pr_error *err)
{
	enum pr_status st;
	double mn, uu, sum, *pmf;
	size_t k, kmax;

	if (m < 1 || n < 1)
		return pr_error_set(err, PR_EINVAL,
		    "exact U distribution needs sizes of at least 1");
	if (m > PR_MWU_EXACT_P_MAX || n > PR_MWU_EXACT_P_MAX)
		return pr_error_set(err, PR_ELIMIT,
		    "exact U distribution is limited to %d values a side",
		    PR_MWU_EXACT_P_MAX);
	mn = (double)m * (double)n;
	if (!(u >= 0 && u <= mn) || floor(u) != u)
		return pr_error_set(err, PR_EINVAL,
		    "U = %g is not an integer in [0, %g]", u, mn);
	uu = u < mn - u ? u : mn - u;
	kmax = (size_t)uu;
	pmf = malloc((kmax + 1) * sizeof(*pmf));
	if (pmf == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory for the exact distribution of U");
	if ((st = null_pmf(m, n, kmax, pmf, err)) != PR_OK) {
		free(pmf);
		return st;
	}
	/* From the far tail inwards: the terms grow. */
	sum = 0;
	for (k = 0; k <= kmax; k++)
		sum += pmf[k];
	free(pmf);
	sum *= 2;
	*p = sum < 1 ? sum : 1;
	return PR_OK;
}

/* Resolves PR_MWU_AUTO and checks a forced exact method. */
static enum pr_status
choose_exact(size_t na, size_t nb, int ties, enum pr_mwu_method method,
    int *exact, struct pr_error *err)
{
	switch (method) {
	case PR_MWU_AUTO:
		*exact =
		    !ties && na <= PR_MWU_EXACT_MAX && nb <= PR_MWU_EXACT_MAX;
		return PR_OK;
	case PR_MWU_EXACT:
		if (ties)
			return pr_error_set(err, PR_EINVAL,
			    "exact U distribution needs data without ties");
		if (na > PR_MWU_EXACT_P_MAX || nb > PR_MWU_EXACT_P_MAX)
			return pr_error_set(err, PR_ELIMIT,
			    "exact U distribution is limited to %d values "
			    "a side",
			    PR_MWU_EXACT_P_MAX);
		*exact = 1;
		return PR_OK;
	case PR_MWU_NORMAL:
		*exact = 0;
		return PR_OK;
	}
	return pr_error_set(err, PR_EINVAL, "unknown rank test method %d",
	    (int)method);
}

enum pr_status
pr_mwu_test_with(const double *a, size_t na, const double *b, size_t nb,
    enum pr_mwu_method method, struct pr_mwu *out, struct pr_error *err)
{
	enum pr_status st;
	struct merge m;
	double mu, du, sigma;
	int exact;

	if ((st = check_pair(a, na, b, nb, err)) != PR_OK)
		return st;
	merge_count(a, na, b, nb, &m);
	if ((st = choose_exact(na, nb, m.any_ties, method, &exact, err)) !=
	    PR_OK)
		return st;
	out->u = (double)m.twice_u / 2;
	out->ties = m.any_ties;
	out->exact = exact;
	out->z = 0;
	if (exact)
		return pr_mwu_exact_p(out->u, na, nb, &out->p, err);
	mu = (double)na * (double)nb / 2;
	sigma = m.all_equal ? 0 : u_sigma(na, nb, m.ties);
	if (sigma == 0) {
		/* Every value equal: U sits at its mean, nothing to test. */
		out->p = 1;
		return PR_OK;
	}
	/* U and mu are multiples of 1/2: du is exact. */
	du = out->u - mu;
	if (du > 0)
		du -= 0.5;
	else if (du < 0)
		du += 0.5;
	out->z = du / sigma;
	out->p = 2 * pr_norm_sf(fabs(out->z));
	if (out->p > 1)
		out->p = 1;
	return PR_OK;
}

enum pr_status
pr_mwu_test(const double *a, size_t na, const double *b, size_t nb,
    struct pr_mwu *out, struct pr_error *err)
{
	return pr_mwu_test_with(a, na, b, nb, PR_MWU_AUTO, out, err);
}

/*
 * The doubles in their numeric order as unsigned integers, -0 and +0
 * together: adjacent keys are adjacent doubles, so bisecting keys halves
 * the doubles between two bounds whatever their magnitudes.
 */
#define KEY_SIGN ((uint64_t)1 << 63)

static uint64_t
key(double x)
{
	uint64_t bits;

	if (x == 0)
		return KEY_SIGN;
	memcpy(&bits, &x, sizeof(bits));
	if (bits & KEY_SIGN)
		return ~bits + 1;
	return bits | KEY_SIGN;
}

static double
unkey(uint64_t k)
{
	uint64_t bits;
	double x;

	if (k >= KEY_SIGN)
		bits = k & ~KEY_SIGN;
	else
		bits = ~(k - 1);
	memcpy(&x, &bits, sizeof(x));
	return x;
}

struct count {
	uint64_t le;  /* differences <= d */
	double below; /* the largest difference <= d, when le > 0 */
	double above; /* the smallest difference > d, when le < na nb */
};

/*
 * Counts the differences b_j - a_i <= d.  For each j the i with
 * b_j - a_i <= d form a suffix of 0..na-1 that starts at i; as j grows
 * the suffix only shrinks, so i only moves forward.  The rounded
 * differences keep these monotonicities, as rounding is monotone.
 */
static void
count_le(const double *a, size_t na, const double *b, size_t nb, double d,
    struct count *c)
{
	size_t i = 0, j;
	uint64_t le = 0;
	double below = -HUGE_VAL, above = HUGE_VAL, x;

	for (j = 0; j < nb; j++) {
		while (i < na && b[j] - a[i] > d)
			i++;
		le += na - i;
		if (i < na && (x = b[j] - a[i]) > below)
			below = x;
		if (i > 0 && (x = b[j] - a[i - 1]) < above)
			above = x;
	}
	c->le = le;
	c->below = below;
	c->above = above;
}

/*
 * One pass with two pointers: the exact counts of differences <= lv and
 * <= hv (lv < hv), and the differences in (lv, hv] into buf as long as
 * they fit in cap.  Returns how many there are.
 */
static uint64_t
collect(const double *a, size_t na, const double *b, size_t nb, double lv,
    double hv, double *buf, size_t cap, uint64_t *cl, uint64_t *ch)
{
	size_t il = 0, ih = 0, i, j;
	uint64_t nl = 0, nh = 0, n = 0;

	for (j = 0; j < nb; j++) {
		while (ih < na && b[j] - a[ih] > hv)
			ih++;
		while (il < na && b[j] - a[il] > lv)
			il++;
		nh += na - ih;
		nl += na - il;
		/* Row j's differences in (lv, hv] are those of i in
		 * [ih, il). */
		if (n + (il - ih) <= cap)
			for (i = ih; i < il; i++)
				buf[n + (i - ih)] = b[j] - a[i];
		n += il - ih;
	}
	*cl = nl;
	*ch = nh;
	return n;
}

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/*
 * A coarse grid for the first bracket of a search when a side has more
 * than GRID values: the sorted a is cut into ga <= GRID blocks of
 * consecutive values, b into gb blocks.  For a row j of b in block B and
 * an a-block A, every difference b_j - a_i (i in A) lies between b_first(B)
 * - a_last(A) and b_last(B) - a_first(A), and the count of differences
 * <= d falls as j grows; so
 *   lower(d) = sum over (A, B) of |A||B| [b_last(B) - a_first(A) <= d]
 *   upper(d) = sum over (A, B) of |A||B| [b_first(B) - a_last(A) <= d]
 * bound count(d) from both sides, each in O(ga + gb) by the same two
 * pointers as count_le.  Bisecting d on them gives L and H with
 * count(L) < k <= count(H) and at most about 2 na nb / GRID differences
 * between, without a pass over the data.
 */
#define GRID 2048

struct grid {
	size_t na, ga, gb;
	size_t sa[GRID + 1], sb[GRID + 1]; /* block starts */
	double a_first[GRID], a_last[GRID], b_first[GRID], b_last[GRID];
};

/*
 * What a search may use beyond the data: the grid (NULL when both sides
 * fit in GRID values) and a buffer for the last few candidates (NULL,
 * cap 0 when it could not be allocated: the search then works without).
 * O(GRID + COLLECT) memory whatever the sizes.
 */
#define COLLECT 16384

struct work {
	struct grid *g;
	double *buf;
	size_t cap;
	int all; /* buf holds every difference, sorted */
};

/* floor(q n / g) without overflow. */
static size_t
block_start(size_t q, size_t n, size_t g)
{
	return q * (n / g) + q * (n % g) / g;
}

static struct grid *
grid_new(const double *a, size_t na, const double *b, size_t nb)
{
	struct grid *g;
	size_t q;

	if (na <= GRID && nb <= GRID)
		return NULL;
	if ((g = malloc(sizeof(*g))) == NULL)
		return NULL;
	g->na = na;
	g->ga = na < GRID ? na : GRID;
	g->gb = nb < GRID ? nb : GRID;
	for (q = 0; q <= g->ga; q++)
		g->sa[q] = block_start(q, na, g->ga);
	for (q = 0; q <= g->gb; q++)
		g->sb[q] = block_start(q, nb, g->gb);
	for (q = 0; q < g->ga; q++) {
		g->a_first[q] = a[g->sa[q]];
		g->a_last[q] = a[g->sa[q + 1] - 1];
	}
	for (q = 0; q < g->gb; q++) {
		g->b_first[q] = b[g->sb[q]];
		g->b_last[q] = b[g->sb[q + 1] - 1];
	}
	return g;
}

/* An allocation failure only makes the search slower. */
static void
work_init(struct work *w, const double *a, size_t na, const double *b,
    size_t nb)
{
	uint64_t mn = (uint64_t)na * nb;

	w->g = grid_new(a, na, b, nb);
	w->all = 0;
	w->cap = mn < COLLECT ? (size_t)mn : COLLECT;
	w->buf = malloc(w->cap * sizeof(*w->buf));
	if (w->buf == NULL)
		w->cap = 0;
}

static void
work_release(struct work *w)
{
	free(w->g);
	free(w->buf);
}

/* lower(d) or upper(d), as described above. */
static uint64_t
grid_count(const struct grid *g, double d, int upper)
{
	const double *bc = upper ? g->b_first : g->b_last;
	const double *ac = upper ? g->a_last : g->a_first;
	uint64_t sum = 0;
	size_t q = 0, r;

	for (r = 0; r < g->gb; r++) {
		while (q < g->ga && bc[r] - ac[q] > d)
			q++;
		sum += (uint64_t)(g->sb[r + 1] - g->sb[r]) * (g->na - g->sa[q]);
	}
	return sum;
}

/*
 * Narrows (kl, kh] (keys) to the grid's bracket of D(k), with estimates
 * of the counts at both ends (the mean of the two bounds, kept on the
 * right side of k).
 */
static void
grid_bracket(const struct grid *g, uint64_t k, uint64_t *kl, uint64_t *kh,
    uint64_t *cl, uint64_t *ch)
{
	uint64_t lo = *kl, hi = *kh, mid, c;

	/* H: the first d with lower(d) >= k. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (grid_count(g, unkey(mid), 0) >= k)
			hi = mid;
		else
			lo = mid;
	}
	*kh = hi;
	/* L: the last d with upper(d) < k; upper >= lower, so L < H. */
	lo = *kl;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (grid_count(g, unkey(mid), 1) < k)
			lo = mid;
		else
			hi = mid;
	}
	*kl = lo;
	c = grid_count(g, unkey(*kl), 0) / 2 + grid_count(g, unkey(*kl), 1) / 2;
	*cl = c < k ? c : k - 1;
	c = grid_count(g, unkey(*kh), 0) / 2 + grid_count(g, unkey(*kh), 1) / 2;
	*ch = c > k ? c : k;
}

/*
 * The k-th smallest difference D(k), 1 <= k <= na nb, and D(k + 1) into
 * *next when next is not NULL and k < na nb; see pr_mwu_diff_select in
 * the header for the method.  The search keeps the keys kl < kh of L
 * and H with count(L) = cl < k <= count(H) = ch (cl and ch are estimates
 * while they come from the grid).  Once at most w->cap differences lie
 * in (L, H], one pass collects them and a sort ends the search.
 */
static double
select_kth(const double *a, size_t na, const double *b, size_t nb,
    struct work *w, uint64_t k, double *next)
{
	uint64_t mn = (uint64_t)na * nb, kl, kh, cl, ch, kd, n, last;
	uint64_t miss = 0;
	struct count c;
	double lo, hi, tau, span, d, v;
	int used, fails = 0, side = 0, prev_side = 0;

	lo = b[0] - a[na - 1];
	hi = b[nb - 1] - a[0];
	kl = key(lo) - 1;
	cl = 0;
	kh = key(hi);
	ch = mn;
	if (k >= mn)
		return hi;
	if (w->all) {
		/* An earlier search collected every difference. */
		if (next != NULL)
			*next = w->buf[k];
		return w->buf[k - 1];
	}
	if (w->g != NULL && k > 1)
		grid_bracket(w->g, k, &kl, &kh, &cl, &ch);
	last = ch - cl;
	for (;;) {
		if (kh - kl <= 1) {
			v = unkey(kh);
			break;
		}
		if (ch - cl <= w->cap) {
			n = collect(a, na, b, nb, unkey(kl), unkey(kh), w->buf,
			    w->cap, &cl, &ch);
			if (n <= w->cap) {
				qsort(w->buf, (size_t)n, sizeof(*w->buf),
				    cmp_double);
				w->all = n == mn;
				v = w->buf[k - cl - 1];
				if (next == NULL)
					return v;
				if (k < ch) {
					*next = w->buf[k - cl];
					return v;
				}
				break;
			}
			last = n;
		}
		/* Interpolate for the rank k - 1/2 between the counts at the
		 * ends; after two moves of the same end (the other end is
		 * stuck far away, as in regula falsi), aim past k by twice
		 * the last miss to move the other end. */
		used = 0;
		if (fails < 3) {
			tau = (double)(k - cl) - 0.5;
			if (side != 0 && side == prev_side)
				tau += 2 * (double)side * (double)miss;
			span = (double)(ch - cl);
			if (tau < 0.5)
				tau = 0.5;
			if (tau > span - 0.5)
				tau = span - 0.5;
			lo = unkey(kl);
			hi = unkey(kh);
			d = lo + tau / span * (hi - lo);
			if (isfinite(d)) {
				kd = key(d);
				used = kd > kl && kd < kh;
			}
		}
		if (!used)
			kd = kl + (kh - kl) / 2;
		count_le(a, na, b, nb, unkey(kd), &c);
		prev_side = side;
		if (c.le >= k) {
			if (c.le == k) {
				/* Nothing lies between below and d. */
				if (next != NULL)
					*next = c.above;
				return c.below;
			}
			kh = key(c.below);
			ch = c.le;
			side = -1;
			miss = c.le - k;
		} else {
			if (c.le + 1 == k || key(c.above) == kh) {
				v = c.above;
				break;
			}
			kl = key(c.above) - 1;
			cl = c.le;
			side = 1;
			miss = k - c.le;
		}
		/* Three interpolations in a row that fail to halve the
		 * candidates are followed by a bisection, which halves the
		 * range of doubles: at most 64 of those. */
		fails = used && ch - cl > last / 2 ? fails + 1 : 0;
		last = ch - cl;
	}
	if (next != NULL) {
		/* D(k + 1) is D(k) again or the next larger difference. */
		count_le(a, na, b, nb, v, &c);
		*next = c.le > k ? v : c.above;
	}
	return v;
}

static enum pr_status
check_diffs(const double *a, size_t na, const double *b, size_t nb,
    struct pr_error *err)
{
	if (!isfinite(b[0] - a[na - 1]) || !isfinite(b[nb - 1] - a[0]))
		return pr_error_set(err, PR_ERANGE,
		    "a difference of new and base values overflows");
	return PR_OK;
}

enum pr_status
pr_mwu_diff_select(const double *a, size_t na, const double *b, size_t nb,
    uint64_t k, double *out, struct pr_error *err)
{
	enum pr_status st;
	struct work w;

	if ((st = check_pair(a, na, b, nb, err)) != PR_OK ||
	    (st = check_diffs(a, na, b, nb, err)) != PR_OK)
		return st;
	if (k < 1 || k > (uint64_t)na * nb)
		return pr_error_set(err, PR_EINVAL,
		    "difference rank %llu is outside 1..%llu",
		    (unsigned long long)k, (unsigned long long)na * nb);
	work_init(&w, a, na, b, nb);
	*out = select_kth(a, na, b, nb, &w, k, NULL);
	work_release(&w);
	return PR_OK;
}

/* The exact critical rank: see perfreg/mwu.h. */
static enum pr_status
exact_rank(size_t na, size_t nb, double conf, uint64_t *k, double *cover,
    struct pr_error *err)
{
	enum pr_status st;
	size_t kmax, q;
	double *pmf, cdf, below, target;

	kmax = na * nb / 2 + 1;
	if (kmax > na * nb)
		kmax = na * nb;
	pmf = malloc((kmax + 1) * sizeof(*pmf));
	if (pmf == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory for the exact distribution of U");
	if ((st = null_pmf(na, nb, kmax, pmf, err)) != PR_OK) {
		free(pmf);
		return st;
	}
	/* R's qwilcox: the smallest q with P(U <= q) >= alpha/2, with the
	 * same allowance of 10 DBL_EPSILON for rounding. */
	target = (1 - conf) / 2 - 10 * DBL_EPSILON;
	below = 0;
	cdf = 0;
	for (q = 0; q <= kmax; q++) {
		cdf += pmf[q];
		if (cdf >= target)
			break;
		below = cdf;
	}
	free(pmf);
	/* P(U <= floor(mn/2)) >= 1/2 > target, so q <= kmax. */
	if (q == 0) {
		*k = 0;
		*cover = 1 - 2 * cdf;
	} else {
		*k = q;
		*cover = 1 - 2 * below;
	}
	return PR_OK;
}

/* The normal critical rank: see perfreg/mwu.h. */
static void
normal_rank(const double *a, size_t na, const double *b, size_t nb, double conf,
    uint64_t *k, double *cover)
{
	long double nn;
	double sigma, z, x, mn;

	mn = (double)na * (double)nb;
	nn = (long double)(na + nb) * (long double)(na + nb - 1);
	sigma =
	    u_sigma(na, nb, within_ties(a, na, nn) + within_ties(b, nb, nn));
	z = -pr_norm_quantile((1 - conf) / 2);
	x = ceil(mn / 2 - 0.5 - z * sigma);
	if (x >= 1) {
		*k = (uint64_t)x;
		*cover = conf;
	} else {
		*k = 0;
		*cover = 1 - 2 * pr_norm_cdf((0.5 - mn / 2) / sigma);
	}
}

enum pr_status
pr_hodges_lehmann_with(const double *a, size_t na, const double *b, size_t nb,
    double conf, enum pr_mwu_method method, struct pr_shift *out,
    struct pr_error *err)
{
	enum pr_status st;
	struct merge m;
	struct work w;
	uint64_t mn, h, k = 0;
	double lo, hi, cover = 0;
	int exact;

	if ((st = check_pair(a, na, b, nb, err)) != PR_OK ||
	    (st = check_diffs(a, na, b, nb, err)) != PR_OK)
		return st;
	if (!(conf > 0 && conf < 1))
		return pr_error_set(err, PR_EINVAL,
		    "confidence must lie strictly between 0 and 1, got %g",
		    conf);
	merge_count(a, na, b, nb, &m);
	if ((st = choose_exact(na, nb, m.any_ties, method, &exact, err)) !=
	    PR_OK)
		return st;
	if (exact)
		st = exact_rank(na, nb, conf, &k, &cover, err);
	else
		normal_rank(a, na, b, nb, conf, &k, &cover);
	if (st != PR_OK)
		return st;
	out->exact = exact;
	out->k = k;
	out->achieved_conf = cover;

	/* The median of the differences: D(h), and D(h + 1) for an even
	 * count. */
	mn = (uint64_t)na * nb;
	h = (mn + 1) / 2;
	work_init(&w, a, na, b, nb);
	if (mn % 2 == 0) {
		lo = select_kth(a, na, b, nb, &w, h, &hi);
		out->estimate =
		    isfinite(lo + hi) ? (lo + hi) / 2 : lo / 2 + hi / 2;
	} else {
		out->estimate = select_kth(a, na, b, nb, &w, h, NULL);
	}
	if (k == 0) {
		out->lo = b[0] - a[na - 1];
		out->hi = b[nb - 1] - a[0];
	} else {
		out->lo = select_kth(a, na, b, nb, &w, k, NULL);
		out->hi = select_kth(a, na, b, nb, &w, mn + 1 - k, NULL);
	}
	work_release(&w);
	if (k == 0)
		return pr_error_set(err, PR_EUNDEF,
		    "a %g%% interval of the shift needs more values; the "
		    "widest one covers %.3g%%",
		    100 * conf, 100 * cover);
	return PR_OK;
}

enum pr_status
pr_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb,
    double conf, struct pr_shift *out, struct pr_error *err)
{
	return pr_hodges_lehmann_with(a, na, b, nb, conf, PR_MWU_AUTO, out,
	    err);
}
