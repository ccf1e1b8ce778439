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
 * Usage: suite-sim [-n HISTORIES] [-s SEED] [-d K] MODEL.  Deterministic
 * for a seed.  It prints a table per rule; no timing.  -d K prints, for
 * the A/A histories with K earlier sessions, how often each figure was
 * called by the new rule (which figures make the false calls).
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
#include "perfreg/verdict.h"

#define MAXFIG 256
#define MAXPROBE 32
#define MAXK 10

struct fig {
	char name[64];
	int probe;
	enum pr_better better;
	double level, tau, w, sw;
};

struct model {
	struct fig f[MAXFIG];
	size_t m;
	char probe[MAXPROBE][32];
	double rho[MAXPROBE];
	size_t np;
};

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
		if (sscanf(line, "fig %63s %31s %15s %lf %lf %lf %lf", name,
			probe, better, &f->level, &f->tau, &f->w,
			&f->sw) != 7) {
			fprintf(stderr, "suite-sim: %s:%d: bad line\n", path,
			    lineno);
			fclose(fp);
			return -1;
		}
		snprintf(f->name, sizeof(f->name), "%s", name);
		f->probe = find_probe(md, probe, 1);
		f->better = strcmp(better, "higher") == 0 ? PR_BETTER_HIGHER
							  : PR_BETTER_LOWER;
		md->m++;
	}
	fclose(fp);
	return md->m > 0 ? 0 : -1;
}

/* One history's sessions: means and errors, [figure][session]. */
struct hist {
	double x[MAXFIG][MAXK + 1];
	double se[MAXFIG][MAXK + 1];
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

static void
new_rule(const struct model *md, struct hist *h, size_t k, enum pr_adjust adj,
    struct pr_comparison *c)
{
	static struct pr_moderated_figure f[MAXFIG];
	struct pr_moderated_opts o;
	struct pr_error err;
	size_t j;

	pr_moderated_opts_init(&o);
	o.adjust = adj;
	for (j = 0; j < md->m; j++) {
		memset(&f[j], 0, sizeof(f[j]));
		f[j].name = md->f[j].name;
		f[j].better = md->f[j].better;
		f[j].base = h->x[j];
		f[j].kb = k;
		f[j].new_ = &h->x[j][k];
		f[j].kn = 1;
		f[j].base_se = h->se[j];
		f[j].new_se = &h->se[j][k];
	}
	if (pr_moderated_compare(f, md->m, &o, c, NULL, NULL, &err) != PR_OK) {
		fprintf(stderr, "suite-sim: %s\n", err.msg);
		exit(3);
	}
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
		new_rule(md, &h, k, PR_ADJUST_HOLM, c);
		tally(md, c, sp, &n[1]);
		old_rule(md, &h, k, c);
		tally(md, c, sp, &n[2]);
	}
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

	while ((opt = getopt(argc, argv, "n:s:d:")) != -1) {
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
		default:
			fprintf(stderr,
			    "usage: suite-sim [-n histories] [-s seed] [-d k] "
			    "model\n");
			return 2;
		}
	}
	if (optind != argc - 1 || nh < 1 || diag < 0 || diag > MAXK ||
	    load(argv[optind], &md) != 0) {
		fprintf(stderr,
		    "usage: suite-sim [-n histories] [-s seed] [-d k] "
		    "model\n");
		return 2;
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
	for (si = 0; si < sizeof(shifts) / sizeof(shifts[0]); si++) {
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
