/*
 * bench/bisect-sim.c - how often `perfreg bisect`'s search names the right
 * commit, and at what cost, against Pinpoint's rule and plain bisection,
 * by simulation (issue 15; bench/README.md, "bisect").
 *
 * A trial is a range of N commits (positions 0 = good .. N = bad) whose
 * level is 1, times 1 + step from the first bad commit k on (k uniform in
 * 1 .. N), or two such steps at k1 < k2, or none; a run's value is its
 * commit's level times one draw of a noise model of bench/noise.h (normal
 * 2%, t3 scaled to 2%, bimodal 80% at 1.0 and 20% at 1.10, normal 2% on a
 * drift of +4% per 500 runs of the trial, in the order the method
 * takes them).  Each method sees only the values it asks for and reports
 * a culprit commit, "no change", "several" or nothing (budget):
 *
 *   perfreg   perfreg/bisect.h with its defaults (confidence 0.95, build
 *             cost 30 runs), one measurement after another as
 *             pr_bisect_next proposes, up to 3000 runs;
 *   pinpoint  Chromium Pinpoint's rule as documented: each commit it
 *             compares gets 10 attempts, then 20, 40, 80, 160 while the
 *             two are not different; different when min(Mann-Whitney p,
 *             Kolmogorov-Smirnov p) <= 0.01; "same" at 160 (Pinpoint's
 *             table of early "same" thresholds is not modelled, so its
 *             runs here are an upper bound).  Good against bad first
 *             (same: no change); then the midpoint m of the bracket
 *             (a, b) is compared with a and with b: different from a
 *             only: b = m; from b only: a = m; from both: "several";
 *             neither: nothing;
 *   plain     git bisect with 5 runs a commit: good against bad by
 *             Welch's t test at 5% (not different: no change); then the
 *             midpoint is bad when Welch's t test against the good end's
 *             5 runs says different at 5%.
 *
 * Printed per cell and method: accuracy (the culprit is the first bad
 * commit; with two steps, either of them, and "several" counted apart),
 * the share of false culprits on ranges without a change, and the mean
 * runs and builds (distinct commits measured, ends included).
 *
 * Usage: bisect-sim [-t TRIALS] [-T TRIALS_FOR_1024] [-s SEED] [-q] [-n N]
 * (-q: only N = 16 and 128; -n: only that N of 16, 128, 1024).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "noise.h"
#include "perfreg/bisect.h"
#include "perfreg/describe.h"
#include "perfreg/mwu.h"
#include "perfreg/rng.h"
#include "perfreg/ttest.h"

#define MAX_RUNS 3000
#define DRIFT_ROUNDS 250

enum result { R_CULPRIT, R_NONE, R_SEVERAL, R_UNDECIDED };

struct truth {
	size_t n, k1, k2; /* k = 0: no step */
	double step;
	enum noise_model noise;
};

/* One trial's state: the samples each method asked for. */
struct sim {
	const struct truth *t;
	struct pr_rng *rng;
	double **y;
	size_t *ny, *cap;
	size_t runs, builds;
};

static double
level(const struct truth *t, size_t pos)
{
	double l = 1;

	if (t->k1 && pos >= t->k1)
		l *= 1 + t->step;
	if (t->k2 && pos >= t->k2)
		l *= 1 + t->step;
	return l;
}

static void
sim_init(struct sim *s, const struct truth *t, struct pr_rng *rng)
{
	s->t = t;
	s->rng = rng;
	s->y = calloc(t->n + 1, sizeof(*s->y));
	s->ny = calloc(t->n + 1, sizeof(*s->ny));
	s->cap = calloc(t->n + 1, sizeof(*s->cap));
	if (!s->y || !s->ny || !s->cap)
		abort();
	s->runs = s->builds = 0;
}

static void
sim_free(struct sim *s)
{
	size_t i;

	for (i = 0; i <= s->t->n; i++)
		free(s->y[i]);
	free(s->y);
	free(s->ny);
	free(s->cap);
}

/* One run of commit pos; returns its value. */
static double
sim_run(struct sim *s, size_t pos)
{
	double z, v;

	/* t3's far tail can draw a time <= 0: such a draw is made again. */
	do
		z = noise_draw(s->t->noise, s->rng, (double)s->runs,
		    DRIFT_ROUNDS);
	while (z <= 0);
	v = level(s->t, pos) * z;

	if (s->ny[pos] == 0)
		s->builds++;
	if (s->ny[pos] == s->cap[pos]) {
		s->cap[pos] = s->cap[pos] ? 2 * s->cap[pos] : 16;
		s->y[pos] = realloc(s->y[pos], s->cap[pos] * sizeof(double));
		if (s->y[pos] == NULL)
			abort();
	}
	s->y[pos][s->ny[pos]++] = v;
	s->runs++;
	return v;
}

/* Runs pos until it has at least r runs. */
static void
sim_fill(struct sim *s, size_t pos, size_t r)
{
	while (s->ny[pos] < r)
		sim_run(s, pos);
}

static enum result
m_perfreg(struct sim *s, size_t *culprit)
{
	struct pr_bisect_opts o;
	struct pr_bisect *b;
	struct pr_bisect_step st;
	struct pr_bisect_state ss;
	enum result res = R_UNDECIDED;
	unsigned i;

	pr_bisect_opts_init(&o, s->t->n);
	if (pr_bisect_new(&o, &b, NULL) != PR_OK)
		abort();
	while (s->runs < MAX_RUNS) {
		if (pr_bisect_next(b, &st, NULL) != PR_OK)
			break;
		for (i = 0; i < st.runs; i++)
			if (pr_bisect_add(b, st.pos, sim_run(s, st.pos),
				NULL) != PR_OK)
				abort();
		if (pr_bisect_runs(b, 0) == 0 || pr_bisect_runs(b, o.n) == 0)
			continue;
		if (pr_bisect_state(b, &ss, NULL) != PR_OK)
			continue;
		if (ss.outcome == PR_BISECT_CULPRIT) {
			*culprit = ss.lo;
			res = R_CULPRIT;
			break;
		}
		if (ss.outcome == PR_BISECT_NONE) {
			res = R_NONE;
			break;
		}
		if (ss.outcome == PR_BISECT_SEVERAL) {
			res = R_SEVERAL;
			break;
		}
	}
	pr_bisect_free(b);
	return res;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Two-sample Kolmogorov-Smirnov p of sorted x and y, asymptotic with
 * Stephens' correction.
 */
static double
ks_p(const double *x, size_t na, const double *y, size_t nb)
{
	double d = 0, en, lam, p = 0;
	size_t i = 0, j = 0, k;

	while (i < na && j < nb) {
		double v = x[i] < y[j] ? x[i] : y[j];

		while (i < na && x[i] <= v)
			i++;
		while (j < nb && y[j] <= v)
			j++;
		d = fmax(d, fabs((double)i / na - (double)j / nb));
	}
	en = sqrt((double)na * nb / (double)(na + nb));
	lam = (en + 0.12 + 0.11 / en) * d;
	if (lam < 0.2)
		return 1;
	for (k = 1; k <= 100; k++) {
		double term =
		    2 * ((k & 1) ? 1 : -1) * exp(-2 * lam * lam * k * k);

		p += term;
		if (fabs(term) < 1e-12)
			break;
	}
	return fmin(1, fmax(0, p));
}

/* A sorted copy of commit pos's runs (the caller frees it). */
static double *
sorted(const struct sim *s, size_t pos)
{
	double *x = malloc(s->ny[pos] * sizeof(double));

	if (x == NULL)
		abort();
	memcpy(x, s->y[pos], s->ny[pos] * sizeof(double));
	qsort(x, s->ny[pos], sizeof(double), cmp_double);
	return x;
}

/* Pinpoint's comparison of two commits, with its attempt ladder. */
static int
pp_different(struct sim *s, size_t a, size_t b)
{
	static const size_t ladder[] = { 10, 20, 40, 80, 160 };
	size_t i;

	for (i = 0; i < sizeof(ladder) / sizeof(ladder[0]); i++) {
		struct pr_mwu mw;
		double p, *x, *y;

		sim_fill(s, a, ladder[i]);
		sim_fill(s, b, ladder[i]);
		x = sorted(s, a);
		y = sorted(s, b);
		if (pr_mwu_test(x, s->ny[a], y, s->ny[b], &mw, NULL) != PR_OK)
			abort();
		p = fmin(mw.p, ks_p(x, s->ny[a], y, s->ny[b]));
		free(x);
		free(y);
		if (p <= 0.01)
			return 1;
	}
	return 0;
}

static enum result
m_pinpoint(struct sim *s, size_t *culprit)
{
	size_t a = 0, b = s->t->n;

	if (!pp_different(s, a, b))
		return R_NONE;
	while (b - a > 1) {
		size_t m = a + (b - a) / 2;
		int da = pp_different(s, a, m), db = pp_different(s, m, b);

		if (da && db)
			return R_SEVERAL;
		if (!da && !db)
			return R_UNDECIDED;
		if (da)
			b = m;
		else
			a = m;
	}
	*culprit = b;
	return R_CULPRIT;
}

static int
t_different(struct sim *s, size_t a, size_t b)
{
	struct pr_summary sa, sb;
	struct pr_ttest t;
	double *x = sorted(s, a), *y = sorted(s, b);

	if (pr_summary_compute(x, s->ny[a], &sa, NULL) != PR_OK ||
	    pr_summary_compute(y, s->ny[b], &sb, NULL) != PR_OK ||
	    pr_ttest_welch(&sa, &sb, 0.95, &t, NULL) != PR_OK)
		abort();
	free(x);
	free(y);
	return t.p < 0.05;
}

static enum result
m_plain(struct sim *s, size_t *culprit)
{
	size_t a = 0, b = s->t->n;

	sim_fill(s, a, 5);
	sim_fill(s, b, 5);
	if (!t_different(s, a, b))
		return R_NONE;
	while (b - a > 1) {
		size_t m = a + (b - a) / 2;

		sim_fill(s, m, 5);
		if (t_different(s, 0, m))
			b = m;
		else
			a = m;
	}
	*culprit = b;
	return R_CULPRIT;
}

struct tally {
	size_t trials, right, several, none, false_culprit, undecided;
	double runs, builds;
};

typedef enum result (*method_fn)(struct sim *, size_t *);

static const char *const method_name[] = { "perfreg", "pinpoint", "plain" };
static const method_fn methods[] = { m_perfreg, m_pinpoint, m_plain };

static void
cell(size_t n, double step, int nsteps, enum noise_model noise, size_t trials,
    uint64_t seed)
{
	struct tally tl[3];
	size_t m, i;

	memset(tl, 0, sizeof(tl));
	for (m = 0; m < 3; m++) {
		struct pr_rng rng;

		/* The same ranges and noise stream start for every method. */
		pr_rng_seed(&rng, seed);
		for (i = 0; i < trials; i++) {
			struct truth t = { n, 0, 0, step, noise };
			struct sim s;
			size_t culprit = 0;
			enum result r;

			if (nsteps >= 1)
				t.k1 = 1 + pr_rng_below(&rng, n);
			if (nsteps == 2) {
				do
					t.k2 = 1 + pr_rng_below(&rng, n);
				while (t.k2 == t.k1);
				if (t.k2 < t.k1) {
					size_t x = t.k1;

					t.k1 = t.k2;
					t.k2 = x;
				}
			}
			sim_init(&s, &t, &rng);
			r = methods[m](&s, &culprit);
			tl[m].trials++;
			tl[m].runs += (double)s.runs;
			tl[m].builds += (double)s.builds;
			if (r == R_CULPRIT) {
				if (nsteps == 0)
					tl[m].false_culprit++;
				else if (culprit == t.k1 || culprit == t.k2)
					tl[m].right++;
			} else if (r == R_SEVERAL) {
				tl[m].several++;
			} else if (r == R_NONE) {
				tl[m].none++;
			} else {
				tl[m].undecided++;
			}
			sim_free(&s);
		}
	}
	for (m = 0; m < 3; m++) {
		double k = (double)tl[m].trials;

		printf("%5zu %-9s %-3s %-12s %-8s %6.1f%% %6.1f%% %6.1f%% "
		       "%6.1f%% %6.1f%% %8.1f %6.2f\n",
		    n, noise_model_name[noise],
		    nsteps == 0 ? "-" : (step > 0.03 ? "4%" : "2%"),
		    nsteps == 0 ? "none" : (nsteps == 1 ? "one" : "two"),
		    method_name[m],
		    100.0 *
			(double)(nsteps ? tl[m].right : tl[m].false_culprit) /
			k,
		    100.0 * (double)tl[m].several / k,
		    100.0 * (double)tl[m].none / k,
		    100.0 * (double)tl[m].undecided / k,
		    100.0 *
			(double)(tl[m].trials - tl[m].right - tl[m].several -
			    tl[m].none - tl[m].undecided -
			    tl[m].false_culprit) /
			k,
		    tl[m].runs / k, tl[m].builds / k);
		fflush(stdout);
	}
}

int
main(int argc, char **argv)
{
	static const size_t sizes[] = { 16, 128, 1024 };
	static const enum noise_model noises[] = { NOISE_NORMAL2, NOISE_T3,
		NOISE_BIMODAL, NOISE_DRIFT };
	size_t trials = 2000, trials_big = 2000, si, ni;
	uint64_t seed = 15;
	size_t only = 0;
	int c, quick = 0;

	while ((c = getopt(argc, argv, "t:T:s:qn:")) != -1) {
		switch (c) {
		case 't':
			trials = strtoul(optarg, NULL, 10);
			break;
		case 'T':
			trials_big = strtoul(optarg, NULL, 10);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 10);
			break;
		case 'q':
			quick = 1;
			break;
		case 'n':
			only = strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr,
			    "usage: bisect-sim [-t TRIALS] [-T TRIALS_1024] "
			    "[-s SEED] [-q] [-n N]\n");
			return 2;
		}
	}
	printf("    N noise     step range        method   right/FP several "
	       "  none  undec  wrong     runs builds\n");
	for (si = 0; si < (quick ? 2u : 3u); si++) {
		size_t n = sizes[si], tr = n >= 1024 ? trials_big : trials;

		if (only != 0 && n != only)
			continue;

		for (ni = 0; ni < 4; ni++) {
			cell(n, 0.02, 1, noises[ni], tr, seed + 100 * si + ni);
			cell(n, 0.04, 1, noises[ni], tr,
			    seed + 100 * si + 10 + ni);
			cell(n, 0, 0, noises[ni], tr,
			    seed + 100 * si + 20 + ni);
		}
		cell(n, 0.04, 2, NOISE_NORMAL2, tr, seed + 100 * si + 30);
	}
	return 0;
}
