/*
 * bench/suite-sim.c - the error rates of the suite's verdicts on simulated
 * histories of suite sessions (bench/README.md, "The suite's verdicts").
 *
 * The model (bench/suite-fit.py fits it to real `perfreg suite --quick
 * --json` sessions, bench/data/suite-model.txt): figure j of probe p in
 * session i has the log session mean
 *   y_ij = level_j + tau_j (sqrt(rho_p) a_ip + sqrt(1 - rho_p) e_ij) + w_ij z,
 * a_ip the probe's session effect shared by its figures, e_ij the
 * figure's own, z the within-session noise of the mean, whose standard
 * error w_ij = W_j exp(SW_j g) varies from session to session as the
 * probes' did; the session reports exp(y_ij) and w_ij (what the suite
 * stores: the mean and its error).  a, e, z, g are independent standard
 * normals.
 *
 * A history is k earlier sessions and one new one.  A/A: nothing changes;
 * the rate is the share of histories in which any figure is called a
 * regression or an improvement.  Power: every figure of one probe is
 * slower in the new session by SHIFT (a time times 1 + SHIFT, a
 * throughput divided by it); the rate is the share of histories in which
 * at least one of them is called a regression (and, beside it, the mean
 * share of the probe's figures called).
 *
 * Rules compared, each across all figures of a history:
 * - new BH: pr_moderated_compare, Benjamini-Hochberg (the default);
 * - new Holm: the same with Holm's adjustment;
 * - old: what perfreg suite did before: k >= 2, the prediction test
 *   (pr_nested_predict) with Holm; k = 1, the samples compared as if
 *   independent, here Welch's test on the session summaries reduced to
 *   its large-sample form z = D / sqrt(w_b^2 + w_n^2), with Holm.
 *
 * Processes (-P P): the same model with a process level.  A session runs
 * each probe in P processes, each with 1/P of the samples; a share PHI of
 * a figure's between-session variance tau^2 is the process's (placement,
 * alignment, pages: issue 10, item 7), the rest the session's:
 *   y_ijq = level_j + tau_j sqrt(1 - PHI) (sqrt(rho_p) a_ip +
 *           sqrt(1 - rho_p) e_ij) + tau_j sqrt(PHI) (sqrt(rho_p) b_ipq +
 *           sqrt(1 - rho_p) u_ijq) + sqrt(P) w_ijq z_ijq,
 * the process's log mean, q = 1..P (b the probe's process effect, u the
 * figure's).  With one process (P = 1, what the suite does now) the two
 * levels cannot be told apart and the session reports exp(y) and the
 * within-session error w, as above: the fitted model is this one at any
 * PHI.  With P processes the session reports the mean of its process
 * means and the standard error of its log from them (sd / sqrt(P) /
 * mean, P - 1 df), the design for the main suite.  The same total of
 * samples (the processes' own set-up is not modelled).  The tables are
 * those of the new rule (BH), one process against P, for PHI 0, 0.5 and
 * 0.9 (or -f PHI).
 *
 * -O NAME:SHARE:FACTOR (with -P; up to 8 of them): besides, in a share of
 * the processes every figure of NAME is FACTOR times slower (a time times
 * FACTOR, a throughput divided by it; FACTOR < 1 is faster), as issue 10
 * saw memcpy's small sizes 2-8 times slower in 13 of 64 processes.  NAME
 * is a probe ("copy"), a figure's first parts ("copy.pipe-read") or a
 * figure: every figure whose name is NAME or starts with NAME and a dot.
 * Each -O draws its own processes.  A process level that the scheduler
 * chooses once a process (where a probe's two threads run, session 12:
 * copy.pipe-read 1.65 times faster in a third of the processes) is such a
 * mixture.  -A prints the A/A tables only (with or without -P).
 *
 * -M (with -P): the tables' rows are P processes a session with its value
 * the mean of theirs (as above), then the same histories' sessions with
 * their median (of an even number the mean of the two middle ones), its
 * error the mean's times c_n (pr_suite_session_value,
 * PR_SUITE_VALUE_MEDIAN): the rule against one stalled process
 * (bench/README.md), beside the old one.
 *
 * -W both|carried (with -P): as -M, the second row of each table the
 * rule of that name (perfreg/suite.h): the mean's verdicts kept only
 * where the median's comparison calls the figure the same way ("both",
 * PR_SUITE_VALUE_BOTH) or where the new session's process values differ
 * from the base's level (pr_suite_carried, "carried",
 * PR_SUITE_VALUE_CARRIED, the suite's rule); the first row the mean
 * alone on the same histories.  -d K with -P: each figure's A/A calls at
 * k = K, both rows.
 *
 * A session effect shared by every figure (the fig line's optional 8th
 * field SHARED, bench/suite-fit.py -s): each session draws one more
 * standard normal g, and figure j's session level moves by SHARED_j g
 * (in every process alike); drawn only when some figure has one, so that
 * a model without it keeps its stream.
 *
 * -G: the new rules with the suite's gate: a figure pr_suite_gated says is
 * not gated (handoff.spin.*) is never called, as pr_suite_cmp_gate does.
 *
 * -D DF: the cap on the moderated test's degrees of freedom instead of
 * PR_MODERATED_DF_MAX (for measuring what the cap costs and buys).
 *
 * -Q D0: the cap on the prior's df instead of PR_MODERATED_DF_PRIOR_MAX
 * (INFINITY since session 16; 1.5 gives the rule before it).  -T: the prior's scale a natural spline in log w_j
 * (opts.trend, limma-trend); -H: each session weighted by its own error
 * (opts.weighted).  Both candidates of issue 10's power, in the new
 * rule's rows (every row of the -P tables).  -E (here only, not in the
 * library): the additive variance, each session's tau_j^2 + se_ij^2,
 * tau_j^2 = max(s~_j^2 - 1, 0) w_j^2 from the moderated ratio and the
 * sessions' own errors for the rest, the moderated t's df, then BH.
 *
 * -R RATIO: the one-session bound's ratio (k = 1) instead of
 * PR_MODERATED_ONE_RATIO.
 *
 * -X RULE: in place of the Holm rows, a candidate beside the new rule
 * (BH), in the same run on the same histories (issue 10's power):
 * "oracle", each figure's variance known (the model's tau^2 plus each
 * session's w^2), a normal test of the new session against the mean of
 * the earlier ones, BH: what no rule that estimates the variances can
 * beat, the ceiling of the power; "probe", a prior per probe (each
 * probe's figures squeezed among themselves, the caps as they are, then
 * BH across all figures); "probe-inf", the same with d0 uncapped.
 * -N NN (with -P): the change table instead (change_table): k old
 * sessions against 1..NN new ones, all shifted alike.
 * Usage: suite-sim [-n HISTORIES] [-s SEED] [-d K] [-D DF] [-R RATIO]
 * [-Q D0] [-T] [-H] [-E]
 * [-G] [-X RULE] [-P P [-f PHI] [-M | -W RULE] [-O NAME:SHARE:FACTOR]...
 * [-A] [-N NN]] MODEL.
 * Deterministic for a seed.  It prints a table per rule; no timing.  -d K
 * prints, for the A/A histories with K earlier sessions, how often each
 * figure was called by the new rule (which figures make the false calls).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfreg/distrib.h"
#include "perfreg/error.h"
#include "perfreg/moderated.h"
#include "perfreg/nested.h"
#include "perfreg/rng.h"
#include "perfreg/suite.h"
#include "perfreg/verdict.h"

#define MAXFIG 256
#define MAXPROBE 32
#define MAXK 10
/* -N: new sessions after a change at most. */
#define MAXNN 10

struct fig {
	char name[64];
	int probe;
	enum pr_better better;
	double level, tau, w, sw;
	/* The figure's loading on the session effect shared by every
	 * figure (the fig line's optional 8th field; 0 when absent). */
	double shared;
};

struct model {
	struct fig f[MAXFIG];
	size_t m;
	char probe[MAXPROBE][32];
	double rho[MAXPROBE];
	size_t np;
	int has_shared; /* some figure has a shared loading */
};

/* -M: each session's value from its processes (with -P). */
static enum pr_suite_value session_value = PR_SUITE_VALUE_MEAN;
static int median_rows;
/* -M: PR_SUITE_VALUE_MEDIAN; -W RULE: PR_SUITE_VALUE_BOTH or _CARRIED. */
static enum pr_suite_value row_rule = PR_SUITE_VALUE_MEDIAN;
static const char *const value_name[] = { "mean", "median", "both", "carried" };
/* -N: the new sessions of a history (1 but in the change table), and the
 * first of them (its index among the sessions). */
static size_t nnew = 1;
static size_t first_new;

/* -M, -W: the first row of each table the processes' mean, the second
 * the median (-M) or the rule of -W. */
static void
row_value(size_t row)
{
	session_value =
	    median_rows && row == 1 ? row_rule : PR_SUITE_VALUE_MEAN;
}

static int
find_probe(struct model *md, const char *name, int add)
{
	size_t i;

	for (i = 0; i < md->np; i++)
		if (strcmp(md->probe[i], name) == 0)
			return (int)i;
	if (!add || md->np == MAXPROBE)
		return -1;
	snprintf(md->probe[md->np], sizeof(md->probe[0]), "%s", name);
	md->rho[md->np] = 0;
	return (int)md->np++;
}

static int
load(const char *path, struct model *md)
{
	char line[512], name[64], probe[32], better[16];
	FILE *fp = fopen(path, "r");
	int lineno = 0;

	if (fp == NULL) {
		perror(path);
		return -1;
	}
	memset(md, 0, sizeof(*md));
	while (fgets(line, sizeof(line), fp) != NULL) {
		struct fig *f;
		double rho;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "probe %31s %lf", probe, &rho) == 2) {
			int p = find_probe(md, probe, 1);

			if (p >= 0)
				md->rho[p] = rho;
			continue;
		}
		if (md->m == MAXFIG)
			break;
		f = &md->f[md->m];
		f->shared = 0;
		if (sscanf(line, "fig %63s %31s %15s %lf %lf %lf %lf %lf", name,
			probe, better, &f->level, &f->tau, &f->w, &f->sw,
			&f->shared) < 7) {
			fprintf(stderr, "suite-sim: %s:%d: bad line\n", path,
			    lineno);
			fclose(fp);
			return -1;
		}
		snprintf(f->name, sizeof(f->name), "%s", name);
		md->has_shared |= f->shared != 0;
		f->probe = find_probe(md, probe, 1);
		f->better = strcmp(better, "higher") == 0 ? PR_BETTER_HIGHER
							  : PR_BETTER_LOWER;
		md->m++;
	}
	fclose(fp);
	return md->m > 0 ? 0 : -1;
}

#define MAXSLOW 8

/* One history's sessions: means and errors, [figure][session]. */
struct hist {
	double x[MAXFIG][MAXK + MAXNN];
	double se[MAXFIG][MAXK + MAXNN];
	/* -W: the sessions' medians and their errors, and the new
	 * sessions' process values (new session s's process q at
	 * s * P + q). */
	double xm[MAXFIG][MAXK + MAXNN];
	double sem[MAXFIG][MAXK + MAXNN];
	double pv[MAXFIG][64 * MAXNN];
	double pe[MAXPROBE][64]; /* the probes' process effects */
	int slow[MAXSLOW][64];   /* -O o: process q is a slow one */
};

static void
session(const struct model *md, struct pr_rng *r, struct hist *h, size_t i,
    int shift_probe, double shift)
{
	double a[MAXPROBE], y, w, s;
	size_t j, p;

	for (p = 0; p < md->np; p++)
		a[p] = pr_rng_normal(r);
	for (j = 0; j < md->m; j++) {
		const struct fig *f = &md->f[j];
		double rho = md->rho[f->probe];

		w = f->w * exp(f->sw * pr_rng_normal(r));
		y = f->level +
		    f->tau *
			(sqrt(rho) * a[f->probe] +
			    sqrt(1 - rho) * pr_rng_normal(r)) +
		    w * pr_rng_normal(r);
		if (f->probe == shift_probe) {
			s = log1p(shift);
			y += f->better == PR_BETTER_HIGHER ? -s : s;
		}
		h->x[j][i] = exp(y);
		h->se[j][i] = w;
	}
}

/* -O NAME:SHARE:FACTOR: a share of the processes in which every figure
 * NAME names is FACTOR times slower (issue 10, item 7: in 13 of 64
 * processes memcpy's small sizes ran 2-8 times slower throughout). */
static struct {
	char name[64];
	double share, factor;
} slow[MAXSLOW];
static size_t nslow;

/* 1 when figure name is NAME or starts with NAME and a dot. */
static int
names(const char *name, const char *prefix)
{
	size_t l = strlen(prefix);

	return strncmp(name, prefix, l) == 0 &&
	    (name[l] == '\0' || name[l] == '.');
}

/* The log offset of figure f in process q of h. */
static double
slow_offset(const struct fig *f, const struct hist *h, size_t q)
{
	double s = 0;
	size_t o;

	for (o = 0; o < nslow; o++)
		if (h->slow[o][q] && names(f->name, slow[o].name))
			s += log(slow[o].factor);
	return f->better == PR_BETTER_HIGHER ? -s : s;
}

/*
 * Session i of a history with P processes and process share phi (see
 * the top); P = 1 is session() with the levels merged.
 */
static void
session_proc(const struct model *md, struct pr_rng *r, struct hist *h, size_t i,
    size_t np, double phi, int shift_probe, double shift)
{
	double a[MAXPROBE], y0, y, w, s, m, ss, d, top, g = 0;
	double xq[64];
	size_t j, p, q;

	for (p = 0; p < md->np; p++)
		a[p] = pr_rng_normal(r);
	/* The session effect shared by every figure: drawn only for a
	 * model that has one, so that the others keep their stream. */
	if (md->has_shared)
		g = pr_rng_normal(r);
	for (j = 0; j < md->m; j++) {
		const struct fig *f = &md->f[j];
		double rho = md->rho[f->probe];

		y0 = f->level + f->shared * g +
		    f->tau * sqrt(1 - phi) *
			(sqrt(rho) * a[f->probe] +
			    sqrt(1 - rho) * pr_rng_normal(r));
		if (f->probe == shift_probe) {
			s = log1p(shift);
			y0 += f->better == PR_BETTER_HIGHER ? -s : s;
		}
		if (np == 1) {
			w = f->w * exp(f->sw * pr_rng_normal(r));
			y = y0 +
			    f->tau * sqrt(phi) *
				(sqrt(rho) * pr_rng_normal(r) +
				    sqrt(1 - rho) * pr_rng_normal(r)) +
			    w * pr_rng_normal(r) + slow_offset(f, h, 0);
			h->x[j][i] = exp(y);
			h->se[j][i] = w;
			continue;
		}
		/*
		 * The process means in logs, their mean and the standard
		 * error of its log from values relative to the largest, so
		 * that nothing overflows; a log beyond +-300 (only the
		 * heaviest within-process errors of handoff.spin.p50, SW
		 * 1.55, reach it) is clamped there.
		 */
		top = -INFINITY;
		for (q = 0; q < np; q++) {
			w = f->w * sqrt((double)np) *
			    exp(f->sw * pr_rng_normal(r));
			/* The probe's process effect: the same draw for
			 * every figure of probe p in process q. */
			y = y0 +
			    f->tau * sqrt(phi) *
				(sqrt(rho) * h->pe[f->probe][q] +
				    sqrt(1 - rho) * pr_rng_normal(r)) +
			    w * pr_rng_normal(r) + slow_offset(f, h, q);
			xq[q] = fmin(fmax(y, -300), 300);
			top = fmax(top, xq[q]);
		}
		m = 0;
		for (q = 0; q < np; q++) {
			xq[q] = exp(xq[q] - top);
			m += (xq[q] - m) / (double)(q + 1);
		}
		ss = 0;
		for (q = 0; q < np; q++) {
			d = xq[q] / m - 1;
			ss += d * d;
		}
		h->x[j][i] = exp(fmin(fmax(top + log(m), -300), 300));
		h->se[j][i] = sqrt(ss / (double)(np - 1) / (double)np);
		if (session_value == PR_SUITE_VALUE_BOTH ||
		    session_value == PR_SUITE_VALUE_CARRIED) {
			/* -W: the median beside the mean, and the
			 * process values as the store has them. */
			struct pr_error err;
			double med;

			if (pr_suite_session_value(xq, np,
				PR_SUITE_VALUE_MEDIAN, &med, &h->sem[j][i],
				&err) != PR_OK)
				abort();
			h->xm[j][i] =
			    exp(fmin(fmax(top + log(med), -300), 300));
			for (q = 0; q < np; q++)
				h->pv[j]
				     [(i > first_new ? i - first_new : 0) * np +
					 q] = exp(top) * xq[q];
		} else if (session_value != PR_SUITE_VALUE_MEAN) {
			/* -M: the session's value by the library's rule
			 * (pr_suite_session_value) on the same values. */
			struct pr_error err;

			if (pr_suite_session_value(xq, np, session_value, &m,
				&h->se[j][i], &err) != PR_OK)
				abort();
			h->x[j][i] = exp(fmin(fmax(top + log(m), -300), 300));
		}
	}
}

/* Draws the probes' process effects of one session into h->pe. */
static void
process_effects(const struct model *md, struct pr_rng *r, struct hist *h,
    size_t np)
{
	size_t p, q;

	for (p = 0; p < md->np; p++)
		for (q = 0; q < np; q++)
			h->pe[p][q] = pr_rng_normal(r);
	/* Drawn only with -O, so that the other tables keep their
	 * stream (and with one -O, its stream before several were). */
	for (p = 0; p < nslow; p++)
		for (q = 0; q < np; q++)
			h->slow[p][q] = pr_rng_uniform(r) < slow[p].share;
}

struct counts {
	long any;     /* histories with any call */
	long found;   /* ... with a shifted figure called a regression */
	double share; /* sum of the share of shifted figures called */
	long other;   /* ... with a call outside the shifted probe */
};

static int
called(const struct pr_comparison *c)
{
	return c->verdict == PR_VERDICT_REGRESSION ||
	    c->verdict == PR_VERDICT_IMPROVEMENT;
}

static void
tally(const struct model *md, const struct pr_comparison *c, int sp,
    struct counts *n)
{
	size_t j, in = 0, hit = 0;
	int any = 0, other = 0;

	for (j = 0; j < md->m; j++) {
		if (called(&c[j]))
			any = 1;
		if (md->f[j].probe == sp) {
			in++;
			hit += c[j].verdict == PR_VERDICT_REGRESSION;
		} else if (called(&c[j])) {
			other = 1;
		}
	}
	n->any += any;
	n->other += other;
	n->found += hit > 0;
	n->share += in ? (double)hit / (double)in : 0;
}

/* The old rule on one history; c[m] filled. */
static void
old_rule(const struct model *md, struct hist *h, size_t k,
    struct pr_comparison *c)
{
	struct pr_verdict_opts vo;
	struct pr_error err;
	size_t j;

	pr_verdict_opts_init(&vo);
	for (j = 0; j < md->m; j++) {
		if (k >= 2) {
			if (pr_nested_predict(h->x[j], k, h->x[j][k],
				md->f[j].better, &vo, &c[j], &err) != PR_OK) {
				fprintf(stderr, "suite-sim: %s\n", err.msg);
				exit(3);
			}
			continue;
		}
		/* The sample table, in its large-sample form. */
		memset(&c[j], 0, sizeof(c[j]));
		{
			double d = log(h->x[j][1] / h->x[j][0]);
			double se = sqrt(h->se[j][0] * h->se[j][0] +
			    h->se[j][1] * h->se[j][1]);
			double q = pr_norm_quantile(0.975) * se;

			c[j].tested = 1;
			c[j].better = md->f[j].better;
			c[j].conf = 0.95;
			c[j].equivalence_pct = 1;
			c[j].p_value = c[j].p_adjusted =
			    2 * pr_norm_sf(fabs(d) / se);
			c[j].direction = (d > 0) - (d < 0);
			c[j].have_change = c[j].have_ci = 1;
			c[j].change_pct = 100 * expm1(d);
			c[j].ci_lo_pct = 100 * expm1(d - q);
			c[j].ci_hi_pct = 100 * expm1(d + q);
			c[j].holm_m = 1;
		}
	}
	pr_compare_holm(c, md->m, &vo);
}

/* -D: the cap on the test's df (0: the library's default). */
static double df_max_opt;
/* -Q: the cap on the prior's df (0: the library's default). */
static double df_prior_max_opt;
/* -T, -H: the candidates opts.trend and opts.weighted (moderated.h). */
static int trend_opt, weighted_opt;
/* -E: the additive variance (bench only, not the library's). */
static int additive_opt;
static void rebh(struct pr_comparison *c, size_t m);
/* -R: the one-session bound's ratio (opts.one_ratio); 0: the default. */
static double one_ratio_opt;
/* -A: the process tables' A/A part only. */
static int aa_only;
/* -G: the new rules with the suite's gate (pr_suite_gated). */
static int gate;

/* -W both: set_figure takes the sessions' medians. */
static int use_median;

/* Figure j of history h with k earlier sessions, as the suite gives it. */
static void
set_figure(struct pr_moderated_figure *f, const struct model *md,
    struct hist *h, size_t j, size_t k)
{
	double(*x)[MAXK + MAXNN] = use_median ? h->xm : h->x;
	double(*se)[MAXK + MAXNN] = use_median ? h->sem : h->se;

	memset(f, 0, sizeof(*f));
	f->name = md->f[j].name;
	f->better = md->f[j].better;
	f->base = x[j];
	f->kb = k;
	f->new_ = &x[j][k];
	f->kn = nnew;
	f->base_se = se[j];
	f->new_se = &se[j][k];
}

static void
new_rule(const struct model *md, struct hist *h, size_t k, enum pr_adjust adj,
    struct pr_comparison *c)
{
	static struct pr_moderated_figure f[MAXFIG];
	static struct pr_moderated_stat st[MAXFIG];
	struct pr_moderated_opts o;
	struct pr_error err;
	size_t j;

	pr_moderated_opts_init(&o);
	o.adjust = adj;
	if (df_max_opt > 0)
		o.df_max = df_max_opt;
	if (df_prior_max_opt > 0)
		o.df_prior_max = df_prior_max_opt;
	o.trend = trend_opt;
	o.weighted = weighted_opt;
	if (one_ratio_opt > 0)
		o.one_ratio = one_ratio_opt;
	for (j = 0; j < md->m; j++)
		set_figure(&f[j], md, h, j, k);
	if (pr_moderated_compare(f, md->m, &o, c, st, NULL, &err) != PR_OK) {
		fprintf(stderr, "suite-sim: %s\n", err.msg);
		exit(3);
	}
	/*
	 * -E: each session's variance tau_j^2 + se_ij^2, tau_j^2 the
	 * moderated ratio's excess over 1 times w_j^2 (at least 0), the
	 * sessions' own errors for the rest; the moderated t's df.
	 */
	for (j = 0; additive_opt && j < md->m; j++) {
		struct pr_comparison *cj = &c[j];
		double tau2, v, sd, q, e;
		size_t i;

		if (!cj->tested || cj->method != PR_METHOD_MODERATED)
			continue;
		tau2 = fmax(st[j].s2_post - 1, 0) * st[j].scale * st[j].scale;
		v = tau2 * (1 / (double)k + 1);
		for (i = 0; i < k; i++) {
			e = fmax(f[j].base_se[i], PR_MODERATED_SE_MIN);
			v += e * e / (double)(k * k);
		}
		e = fmax(f[j].new_se[0], PR_MODERATED_SE_MIN);
		v += e * e;
		sd = sqrt(v);
		cj->p_value =
		    2 * pr_t_sf(fabs(st[j].logfc) / sd, st[j].df_total);
		q = pr_t_quantile(0.975, st[j].df_total);
		cj->ci_lo_pct = 100 * expm1(st[j].logfc - q * sd);
		cj->ci_hi_pct = 100 * expm1(st[j].logfc + q * sd);
	}
	if (additive_opt)
		rebh(c, md->m);
	/* As pr_suite_cmp_gate: a figure not gated is never called. */
	for (j = 0; gate && j < md->m; j++)
		if (!pr_suite_gated(md->f[j].name) &&
		    (c[j].verdict == PR_VERDICT_REGRESSION ||
			c[j].verdict == PR_VERDICT_IMPROVEMENT))
			c[j].verdict = PR_VERDICT_INCONCLUSIVE;
}

/* -X: the second rule's candidate (0: Holm). */
static int cand;

/* BH across c[0..m) on their p_value, then the verdicts. */
static void
rebh(struct pr_comparison *c, size_t m)
{
	static double p[2 * MAXFIG];
	size_t j, n = 0, k;

	for (j = 0; j < m; j++)
		if (c[j].tested)
			p[n++] = c[j].p_value;
	pr_bh(p, n, p + n);
	for (j = 0, k = 0; j < m; j++) {
		if (!c[j].tested)
			continue;
		c[j].p_adjusted = p[n + k++];
		c[j].holm_m = (int)n;
	}
	for (j = 0; j < m; j++)
		pr_verdict_decide(&c[j]);
}

/* The oracle: each figure's true variance known, z test, BH. */
static void
oracle_rule(const struct model *md, struct hist *h, size_t k,
    struct pr_comparison *c)
{
	size_t j, i;

	for (j = 0; j < md->m; j++) {
		const struct fig *f = &md->f[j];
		double mb = 0, v = 0, d, se, q = pr_norm_quantile(0.975);

		for (i = 0; i < k; i++) {
			mb += log(h->x[j][i]) / (double)k;
			v += h->se[j][i] * h->se[j][i] / (double)(k * k);
		}
		v += f->tau * f->tau * (1.0 / (double)k + 1) +
		    h->se[j][k] * h->se[j][k];
		d = log(h->x[j][k]) - mb;
		se = sqrt(v);
		memset(&c[j], 0, sizeof(c[j]));
		c[j].tested = 1;
		c[j].better = f->better;
		c[j].conf = 0.95;
		c[j].equivalence_pct = 1;
		c[j].p_value = 2 * pr_norm_sf(fabs(d) / se);
		c[j].direction = (d > 0) - (d < 0);
		c[j].have_change = c[j].have_ci = 1;
		c[j].change_pct = 100 * expm1(d);
		c[j].ci_lo_pct = 100 * expm1(d - q * se);
		c[j].ci_hi_pct = 100 * expm1(d + q * se);
	}
	rebh(c, md->m);
}

/* Per-probe priors: each probe's figures squeezed among themselves. */
static void
probe_rule(const struct model *md, struct hist *h, size_t k,
    struct pr_comparison *c, double d0max)
{
	static struct pr_moderated_figure f[MAXFIG];
	static struct pr_comparison cc[MAXFIG];
	static size_t idx[MAXFIG];
	struct pr_moderated_opts o;
	struct pr_error err;
	size_t j, p, n;

	pr_moderated_opts_init(&o);
	if (df_max_opt > 0)
		o.df_max = df_max_opt;
	if (d0max > 0)
		o.df_prior_max = d0max;
	for (p = 0; p < md->np; p++) {
		n = 0;
		for (j = 0; j < md->m; j++) {
			if (md->f[j].probe != (int)p)
				continue;
			set_figure(&f[n], md, h, j, k);
			idx[n++] = j;
		}
		if (n == 0)
			continue;
		if (pr_moderated_compare(f, n, &o, cc, NULL, NULL, &err) !=
		    PR_OK) {
			fprintf(stderr, "suite-sim: %s\n", err.msg);
			exit(3);
		}
		for (j = 0; j < n; j++)
			c[idx[j]] = cc[j];
	}
	rebh(c, md->m);
}

#define NRULES 3
static const char *rule_name[NRULES] = { "new BH", "new Holm", "old" };

static void
cell(const struct model *md, size_t k, int sp, double shift, long nh,
    uint64_t seed, struct counts n[NRULES])
{
	static struct hist h;
	static struct pr_comparison c[MAXFIG];
	struct pr_rng r;
	long t;
	size_t i;

	memset(n, 0, NRULES * sizeof(*n));
	pr_rng_seed(&r, seed);
	for (t = 0; t < nh; t++) {
		for (i = 0; i < k; i++)
			session(md, &r, &h, i, -1, 0);
		session(md, &r, &h, k, sp, shift);
		new_rule(md, &h, k, PR_ADJUST_BH, c);
		tally(md, c, sp, &n[0]);
		if (cand == 1)
			oracle_rule(md, &h, k, c);
		else if (cand == 2)
			probe_rule(md, &h, k, c, 0);
		else if (cand == 3)
			probe_rule(md, &h, k, c, INFINITY);
		else
			new_rule(md, &h, k, PR_ADJUST_HOLM, c);
		for (size_t jj = 0; cand && gate && jj < md->m; jj++)
			if (!pr_suite_gated(md->f[jj].name) && called(&c[jj]))
				c[jj].verdict = PR_VERDICT_INCONCLUSIVE;
		tally(md, c, sp, &n[1]);
		old_rule(md, &h, k, c);
		tally(md, c, sp, &n[2]);
	}
}

/*
 * -W: the mean's verdicts c[m] of history h kept only where the rule
 * makes them too, as pr_suite_compare_value does: "both", the median's
 * comparison calls the figure the same way; "carried", the new session's
 * np process values differ from the base's level (pr_suite_carried).
 */
static void
combine(const struct model *md, struct hist *h, size_t k, size_t np,
    struct pr_comparison *c)
{
	static struct pr_comparison cm[MAXFIG];
	double lb;
	size_t j, i;

	if (session_value == PR_SUITE_VALUE_BOTH) {
		use_median = 1;
		new_rule(md, h, k, PR_ADJUST_BH, cm);
		use_median = 0;
	}
	for (j = 0; j < md->m; j++) {
		if (!called(&c[j]))
			continue;
		if (session_value == PR_SUITE_VALUE_BOTH) {
			if (cm[j].verdict != c[j].verdict)
				c[j].verdict = PR_VERDICT_INCONCLUSIVE;
			continue;
		}
		for (lb = 0, i = 0; i < k; i++)
			lb += log(h->x[j][i]) / (double)k;
		if (!pr_suite_carried(h->pv[j], np * nnew, exp(lb), 0.95))
			c[j].verdict = PR_VERDICT_INCONCLUSIVE;
	}
}

/* -d K with -P: each figure's A/A calls at k = K, by row (mean, rule). */
static size_t diag_k;
static long diag_cnt[2][MAXFIG];

/* One cell of the process tables: the new rule (BH) on histories whose
 * sessions have np processes and share phi. */
static void
cell_proc(const struct model *md, size_t k, int sp, double shift, long nh,
    uint64_t seed, size_t np, double phi, struct counts *n)
{
	static struct hist h;
	static struct pr_comparison c[MAXFIG];
	struct pr_rng r;
	long t;
	size_t i;

	memset(n, 0, sizeof(*n));
	pr_rng_seed(&r, seed);
	first_new = k;
	for (t = 0; t < nh; t++) {
		for (i = 0; i < k + nnew; i++) {
			process_effects(md, &r, &h, np);
			session_proc(md, &r, &h, i, np, phi, i >= k ? sp : -1,
			    i >= k ? shift : 0);
		}
		new_rule(md, &h, k, PR_ADJUST_BH, c);
		if (session_value == PR_SUITE_VALUE_BOTH ||
		    session_value == PR_SUITE_VALUE_CARRIED)
			combine(md, &h, k, np, c);
		tally(md, c, sp, n);
		for (i = 0; sp < 0 && k == diag_k && i < md->m; i++)
			diag_cnt[session_value != PR_SUITE_VALUE_MEAN][i] +=
			    called(&c[i]);
	}
}

/* The tables of -P: one process against np, for each share. */
static void
process_tables(const struct model *md, long nh, uint64_t seed, size_t np,
    double phi_only)
{
	static const size_t ks[] = { 1, 2, 3, 5, 10 };
	static const double shifts[] = { 0.10, 0.50 };
	double phis[3] = { 0, 0.5, 0.9 };
	size_t nphi = 3, fi, ki, si, p, pi;
	size_t procs[2];
	struct counts n;

	/* -M: np processes a session, their mean against their median. */
	procs[0] = median_rows ? np : 1;
	procs[1] = np;
	if (phi_only >= 0) {
		phis[0] = phi_only;
		nphi = 1;
	}
	if (median_rows)
		printf("suite-sim: %zu figures in %zu probes, %ld histories a "
		       "cell, seed %llu; new rule (BH), %zu processes a "
		       "session, their mean against the rule \"%s\"%s\n",
		    md->m, md->np, nh, (unsigned long long)seed, np,
		    value_name[row_rule],
		    md->has_shared ? "; a session effect shared by every "
				     "figure"
				   : "");
	else
		printf("suite-sim: %zu figures in %zu probes, %ld histories a "
		       "cell, seed %llu; new rule (BH), 1 process a session "
		       "against %zu\n",
		    md->m, md->np, nh, (unsigned long long)seed, np);
	for (fi = 0; fi < nphi; fi++) {
		printf("\nprocess share of the between-session variance %.2f\n",
		    phis[fi]);
		printf("A/A: share of histories with any regression or "
		       "improvement (target <= 5%%)\n");
		printf("%-12s", "processes");
		for (ki = 0; ki < 5; ki++)
			printf(" %8zu", ks[ki]);
		printf("\n");
		for (pi = 0; pi < 2; pi++) {
			if (median_rows)
				printf("%-2zu %-9s", procs[pi],
				    pi == 0 ? "mean" : value_name[row_rule]);
			else
				printf("%-12zu", procs[pi]);
			for (ki = 0; ki < 5; ki++) {
				row_value(pi);
				cell_proc(md, ks[ki], -1, 0, nh, seed + ki,
				    procs[pi], phis[fi], &n);
				printf(" %7.2f%%",
				    100.0 * (double)n.any / (double)nh);
			}
			printf("\n");
			fflush(stdout);
		}
		for (p = 0; diag_k > 0 && p < md->m; p++) {
			if (diag_cnt[0][p] + diag_cnt[1][p] > 0)
				printf("  k = %zu, A/A calls of %-32s %5ld "
				       "%5ld\n",
				    diag_k, md->f[p].name, diag_cnt[0][p],
				    diag_cnt[1][p]);
			diag_cnt[0][p] = diag_cnt[1][p] = 0;
		}
		for (si = 0; si < 2 && !aa_only; si++) {
			printf("power: every figure of one probe %.0f%% "
			       "slower, share of histories with one called "
			       "a regression (mean share of its figures "
			       "called)\n",
			    100 * shifts[si]);
			printf("%-12s %-9s", "probe", "processes");
			for (ki = 0; ki < 5; ki++)
				printf(" %11zu", ks[ki]);
			printf("\n");
			for (p = 0; p < md->np; p++)
				for (pi = 0; pi < 2; pi++) {
					if (median_rows)
						printf("%-12s %-2zu %-6s",
						    pi == 0 ? md->probe[p] : "",
						    procs[pi],
						    pi == 0
							? "mean"
							: value_name[row_rule]);
					else
						printf("%-12s %-9zu",
						    pi == 0 ? md->probe[p] : "",
						    procs[pi]);
					for (ki = 0; ki < 5; ki++) {
						row_value(pi);
						cell_proc(md, ks[ki], (int)p,
						    shifts[si], nh,
						    seed + 100 * (p + 1) +
							10 * si + ki,
						    procs[pi], phis[fi], &n);
						printf(" %5.1f%% (%3.0f%%)",
						    100.0 * (double)n.found /
							(double)nh,
						    100.0 * n.share /
							(double)nh);
					}
					printf("\n");
					fflush(stdout);
				}
		}
	}
}

/*
 * -N NN (with -P): the change table.  A history is k sessions of the old
 * configuration and nn = 1..NN of the new one, every new session shifted
 * alike (a configuration change moves all of them): the change plan's
 * comparison, k against nn, by the rule of -W (or the mean).  A/A (the
 * change moved nothing) and the power for a 10% shift of each probe,
 * with the mean over probes: how much a change's verdict gains from each
 * session more on the new side (perfreg/suite.h, PR_SUITE_CHANGE_SESSIONS).
 */
static void
change_table(const struct model *md, long nh, uint64_t seed, size_t np,
    double phi, size_t nn_max)
{
	static const size_t ks[] = { 2, 3, 5 };
	struct counts n;
	size_t ki, nn, p;
	double sum;

	row_value(median_rows ? 1 : 0);
	printf("suite-sim: %zu figures in %zu probes, %ld histories a cell, "
	       "seed %llu; a change: k old sessions against nn new ones, "
	       "%zu processes a session, process share %.2f, rule \"%s\"%s\n",
	    md->m, md->np, nh, (unsigned long long)seed, np, phi,
	    value_name[session_value],
	    md->has_shared ? "; a session effect shared by every figure" : "");
	for (ki = 0; ki < sizeof(ks) / sizeof(ks[0]); ki++) {
		printf("\nk = %zu old sessions; columns nn = new sessions\n",
		    ks[ki]);
		printf("%-12s", "");
		for (nn = 1; nn <= nn_max; nn++)
			printf(" %7zu", nn);
		printf("\n%-12s", "A/A any");
		for (nn = 1; nn <= nn_max; nn++) {
			nnew = nn;
			cell_proc(md, ks[ki], -1, 0, nh, seed + 10 * ki + nn,
			    np, phi, &n);
			printf(" %6.2f%%", 100.0 * (double)n.any / (double)nh);
		}
		printf("\n");
		fflush(stdout);
		{
			double pw[MAXPROBE][MAXNN + 1];

			for (p = 0; p < md->np; p++) {
				printf("%-12s", md->probe[p]);
				for (nn = 1; nn <= nn_max; nn++) {
					nnew = nn;
					cell_proc(md, ks[ki], (int)p, 0.10, nh,
					    seed + 1000 * (p + 1) + 10 * ki +
						nn,
					    np, phi, &n);
					pw[p][nn] = 100.0 * (double)n.found /
					    (double)nh;
					printf(" %6.1f%%", pw[p][nn]);
				}
				printf("\n");
				fflush(stdout);
			}
			printf("%-12s", "mean");
			for (nn = 1; nn <= nn_max; nn++) {
				for (sum = 0, p = 0; p < md->np; p++)
					sum += pw[p][nn];
				printf(" %6.1f%%", sum / (double)md->np);
			}
			printf("\n");
		}
	}
	nnew = 1;
}

int
main(int argc, char **argv)
{
	static const size_t ks[] = { 1, 2, 3, 5, 10 };
	static const double shifts[] = { 0.10, 0.50 };
	struct model md;
	struct counts n[NRULES];
	long nh = 2000;
	uint64_t seed = 1;
	size_t ki, si, p;
	int opt, r;

	int diag = 0;
	long procs = 0, change_nn = 0;
	double phi = -1;
	const char *slow_arg[MAXSLOW];
	size_t o, nslow_arg = 0;

	while ((opt = getopt(argc, argv, "n:s:d:P:f:D:Q:R:O:AEGHMN:TW:X:")) !=
	    -1) {
		switch (opt) {
		case 'n':
			nh = strtol(optarg, NULL, 10);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 10);
			break;
		case 'd':
			diag = atoi(optarg);
			break;
		case 'P':
			procs = strtol(optarg, NULL, 10);
			break;
		case 'f':
			phi = strtod(optarg, NULL);
			break;
		case 'D':
			df_max_opt = strtod(optarg, NULL);
			break;
		case 'Q':
			df_prior_max_opt = strtod(optarg, NULL);
			break;
		case 'T':
			trend_opt = 1;
			break;
		case 'H':
			weighted_opt = 1;
			break;
		case 'E':
			additive_opt = 1;
			break;
		case 'R':
			one_ratio_opt = strtod(optarg, NULL);
			break;
		case 'O':
			if (nslow_arg == MAXSLOW) {
				fprintf(stderr, "suite-sim: at most %d -O\n",
				    MAXSLOW);
				return 2;
			}
			slow_arg[nslow_arg++] = optarg;
			break;
		case 'A':
			aa_only = 1;
			break;
		case 'G':
			gate = 1;
			break;
		case 'M':
			median_rows = 1;
			break;
		case 'N':
			change_nn = strtol(optarg, NULL, 10);
			break;
		case 'W':
			median_rows = 1;
			if (strcmp(optarg, "both") == 0)
				row_rule = PR_SUITE_VALUE_BOTH;
			else if (strcmp(optarg, "carried") == 0)
				row_rule = PR_SUITE_VALUE_CARRIED;
			else {
				fprintf(stderr,
				    "suite-sim: -W both or carried\n");
				return 2;
			}
			break;
		case 'X':
			if (strcmp(optarg, "oracle") == 0)
				cand = 1;
			else if (strcmp(optarg, "probe") == 0)
				cand = 2;
			else if (strcmp(optarg, "probe-inf") == 0)
				cand = 3;
			else {
				fprintf(stderr,
				    "suite-sim: -X oracle, probe or "
				    "probe-inf\n");
				return 2;
			}
			rule_name[1] = optarg;
			break;
		default:
			fprintf(stderr,
			    "usage: suite-sim [-n histories] [-s seed] [-d k] "
			    "[-D df] [-Q d0] [-T] [-H] [-R ratio] [-G] [-X "
			    "rule] "
			    "[-P processes "
			    "[-f share] [-M | -W rule] [-O "
			    "name:share:factor]... "
			    "[-A]] model\n");
			return 2;
		}
	}
	if (optind != argc - 1 || nh < 1 || diag < 0 || diag > MAXK ||
	    procs < 0 || procs == 1 || procs > 64 || phi > 1 ||
	    df_max_opt < 0 || one_ratio_opt < 0 || (phi < 0 && phi != -1) ||
	    load(argv[optind], &md) != 0) {
		fprintf(stderr,
		    "usage: suite-sim [-n histories] [-s seed] [-d k] [-D df] "
		    "[-P processes (2..64) [-f share (0..1)] [-M | -W rule] "
		    "[-O name:share:factor]... [-A]] model\n");
		return 2;
	}
	if (nslow_arg > 0 && procs == 0) {
		fprintf(stderr, "suite-sim: -O goes with -P\n");
		return 2;
	}
	if (median_rows && procs == 0) {
		fprintf(stderr, "suite-sim: -M and -W go with -P\n");
		return 2;
	}
	for (o = 0; o < nslow_arg; o++) {
		size_t j, hit = 0;

		if (sscanf(slow_arg[o], "%63[^:]:%lf:%lf", slow[o].name,
			&slow[o].share, &slow[o].factor) != 3 ||
		    !(slow[o].share >= 0 && slow[o].share <= 1) ||
		    !(slow[o].factor > 0)) {
			fprintf(stderr,
			    "suite-sim: -O NAME:SHARE:FACTOR, 0 <= SHARE <= 1, "
			    "FACTOR > 0\n");
			return 2;
		}
		for (j = 0; j < md.m; j++)
			hit += names(md.f[j].name, slow[o].name) != 0;
		if (hit == 0) {
			fprintf(stderr,
			    "suite-sim: -O %s: no figure of the "
			    "model\n",
			    slow[o].name);
			return 2;
		}
		nslow++;
	}
	if (change_nn != 0 &&
	    (procs == 0 || change_nn < 1 || change_nn > MAXNN)) {
		fprintf(stderr, "suite-sim: -N 1..%d goes with -P\n", MAXNN);
		return 2;
	}
	if (change_nn > 0) {
		change_table(&md, nh, seed, (size_t)procs, phi < 0 ? 0.5 : phi,
		    (size_t)change_nn);
		return 0;
	}
	if (procs > 0) {
		diag_k = (size_t)diag;
		process_tables(&md, nh, seed, (size_t)procs, phi);
		return 0;
	}
	if (diag > 0) {
		static struct hist h;
		static struct pr_comparison c[MAXFIG];
		static long cnt[MAXFIG];
		struct pr_rng rr;
		long t;
		size_t i, j;

		pr_rng_seed(&rr, seed);
		for (t = 0; t < nh; t++) {
			for (i = 0; i <= (size_t)diag; i++)
				session(&md, &rr, &h, i, -1, 0);
			new_rule(&md, &h, (size_t)diag, PR_ADJUST_BH, c);
			for (j = 0; j < md.m; j++)
				cnt[j] += called(&c[j]);
		}
		for (j = 0; j < md.m; j++)
			if (cnt[j])
				printf("%-32s %ld tau %.3f w %.4f\n",
				    md.f[j].name, cnt[j], md.f[j].tau,
				    md.f[j].w);
		return 0;
	}
	printf("suite-sim: %zu figures in %zu probes, %ld histories a "
	       "cell, seed %llu\n\n",
	    md.m, md.np, nh, (unsigned long long)seed);
	printf("A/A: share of histories with any regression or "
	       "improvement (target <= 5%%)\n");
	printf("%-10s", "k");
	for (ki = 0; ki < sizeof(ks) / sizeof(ks[0]); ki++)
		printf(" %8zu", ks[ki]);
	printf("\n");
	{
		double aa[NRULES][5];

		for (ki = 0; ki < 5; ki++) {
			cell(&md, ks[ki], -1, 0, nh, seed + ki, n);
			for (r = 0; r < NRULES; r++)
				aa[r][ki] =
				    100.0 * (double)n[r].any / (double)nh;
		}
		for (r = 0; r < NRULES; r++) {
			printf("%-10s", rule_name[r]);
			for (ki = 0; ki < 5; ki++)
				printf(" %7.2f%%", aa[r][ki]);
			printf("\n");
		}
	}
	for (si = 0; si < sizeof(shifts) / sizeof(shifts[0]) && !aa_only;
	     si++) {
		printf("\npower: every figure of one probe %.0f%% slower; "
		       "share of histories with one of them called a "
		       "regression (mean share of the probe's figures "
		       "called; histories with a call elsewhere)\n",
		    100 * shifts[si]);
		printf("%-12s %-9s", "probe", "rule");
		for (ki = 0; ki < 5; ki++)
			printf(" %15zu", ks[ki]);
		printf("\n");
		for (p = 0; p < md.np; p++) {
			struct counts pc[5][NRULES];

			for (ki = 0; ki < 5; ki++)
				cell(&md, ks[ki], (int)p, shifts[si], nh,
				    seed + 100 * (p + 1) + 10 * si + ki,
				    pc[ki]);
			for (r = 0; r < NRULES; r++) {
				printf("%-12s %-9s", r == 0 ? md.probe[p] : "",
				    rule_name[r]);
				for (ki = 0; ki < 5; ki++)
					printf(" %5.1f%% (%3.0f%%;%2.0f%%)",
					    100.0 * (double)pc[ki][r].found /
						(double)nh,
					    100.0 * pc[ki][r].share /
						(double)nh,
					    100.0 * (double)pc[ki][r].other /
						(double)nh);
				printf("\n");
			}
		}
	}
	return 0;
}
