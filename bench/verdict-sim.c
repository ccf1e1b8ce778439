/*
 * bench/verdict-sim.c - how good perfreg's verdict is, by simulation.
 *
 * Runs pr_compare (the fixed-size verdict, with the defaults: 95%
 * confidence, equivalence band 1%, lower is better) on simulated base and
 * new samples and counts its verdicts, next to ministat's rule (Student's
 * pooled t at 95% on the raw values) applied to the same samples.
 *
 * Noise models (a value is the true time 1 times the noise):
 *   normal 1%, 2%, 5%   1 + c Z                      (coefficient of var.)
 *   lognormal 0.03      exp(0.03 Z)
 *   bimodal             M (1 + 0.01 Z), M = 1.10 with probability 0.2,
 *                       else 1.0 (a slow mode, each mode with CV 1%)
 *   t3 2%               1 + 0.02 T / sqrt(3), T Student's t with 3 df
 *                       (standard deviation 2%, heavy tails)
 * Z standard normal (pr_rng_normal), T = Z / sqrt(chi2_3 / 3).  The new
 * side is multiplied by 1 + change for change = 0, 1, 3, 5, 8%; lower is
 * better, so a positive change is a regression.
 *
 * Per cell (model, size, change): with change 0 the false-positive rate,
 * the share of "regression" or "improvement" verdicts (ministat: p <
 * 0.05); otherwise the power, the share of "regression" verdicts
 * (ministat: p < 0.05 and the new mean larger).  Both rules see the same
 * samples, so their difference is a paired comparison: the column "+-"
 * is twice its Monte Carlo standard error, from the discordant trials.
 * "switch" is the share of trials where perfreg's shape selector chose
 * the maximum test over the t test.
 *
 * Every cell has its own generator, seeded from the seed and the cell,
 * so a cell can be rerun alone (-m, -n) with the same result.
 *
 * The cells are shared out among -j worker processes (2 by default);
 * the results do not depend on how many.
 *
 * usage: verdict-sim [-q] [-j jobs] [-t trials] [-s seed] [-m model]
 *                    [-n size]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfreg/describe.h"
#include "perfreg/rng.h"
#include "perfreg/sample.h"
#include "perfreg/ttest.h"
#include "perfreg/verdict.h"

#include "noise.h"

#define MAXN 30
#define NMODELS 6
#define NSIZES 5
#define NCHANGES 5

static const int sizes[NSIZES] = { 3, 5, 10, 20, 30 };
static const double changes[NCHANGES] = { 0, 0.01, 0.03, 0.05, 0.08 };

struct cell {
	long trials;
	long ours, theirs; /* positive outcomes of each rule */
	long only_ours, only_theirs;
	long switched;
	long negligible; /* perfreg: equivalent, yet significant */
};

static void
run_cell(int model, int n, double change, long trials, uint64_t seed,
    struct cell *out)
{
	struct pr_verdict_opts o;
	struct pr_comparison c;
	struct pr_ttest t;
	struct pr_rng rng;
	struct pr_error err;
	double a[MAXN], b[MAXN];
	long k;
	int i, ours, theirs;

	memset(out, 0, sizeof(*out));
	pr_verdict_opts_init(&o);
	o.flags = PR_VERDICT_PRIMARY_ONLY;
	pr_rng_seed(&rng, seed);
	for (k = 0; k < trials; k++) {
		for (i = 0; i < n; i++)
			a[i] = noise_draw((enum noise_model)model, &rng, 0, 1);
		for (i = 0; i < n; i++)
			b[i] = noise_draw((enum noise_model)model, &rng, 0, 1) *
			    (1 + change);
		pr_sort_doubles(a, (size_t)n);
		pr_sort_doubles(b, (size_t)n);
		o.seed = seed + (uint64_t)k;
		if (pr_compare(a, (size_t)n, b, (size_t)n, PR_BETTER_LOWER, &o,
			&c, &err) != PR_OK ||
		    pr_ttest_student(&c.base, &c.new, 0.95, &t, &err) !=
			PR_OK) {
			fprintf(stderr, "verdict-sim: %s\n", err.msg);
			exit(1);
		}
		if (change == 0) {
			ours = c.verdict == PR_VERDICT_REGRESSION ||
			    c.verdict == PR_VERDICT_IMPROVEMENT;
			theirs = t.p < 0.05;
		} else {
			ours = c.verdict == PR_VERDICT_REGRESSION;
			theirs = t.p < 0.05 && t.diff > 0;
		}
		out->ours += ours;
		out->theirs += theirs;
		out->only_ours += ours && !theirs;
		out->only_theirs += theirs && !ours;
		out->switched += (c.notes & PR_NOTE_NONNORMAL) != 0;
		out->negligible += (c.notes & PR_NOTE_NEGLIGIBLE) != 0;
	}
	out->trials = trials;
}

/* Twice the standard error of the paired difference of two rates. */
static double
paired_2se(const struct cell *c)
{
	double n = (double)c->trials,
	       d = (double)(c->only_ours - c->only_theirs) / n, v;

	v = ((double)(c->only_ours + c->only_theirs) / n - d * d) / n;
	return 2 * sqrt(v > 0 ? v : 0);
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: verdict-sim [-q] [-j jobs] [-t trials] "
	    "[-s seed] [-m model] [-n size]\n");
	exit(2);
}

static uint64_t
cell_seed(uint64_t seed, int m, int s, int k)
{
	return seed + 1000003ULL * (uint64_t)(m * 100 + s * 10 + k);
}

/* Runs the cells i with i % jobs == w in a child; results on fd. */
static void
worker(int w, int jobs, long trials, uint64_t seed, int only_model,
    int only_size, int fd)
{
	struct cell c;
	int i, m, s, k;

	for (i = w; i < NMODELS * NSIZES * NCHANGES; i += jobs) {
		m = i / (NSIZES * NCHANGES);
		s = i / NCHANGES % NSIZES;
		k = i % NCHANGES;
		if ((only_model >= 0 && m != only_model) ||
		    (only_size >= 0 && sizes[s] != only_size))
			continue;
		run_cell(m, sizes[s], changes[k], trials,
		    cell_seed(seed, m, s, k), &c);
		if (write(fd, &i, sizeof(i)) != (ssize_t)sizeof(i) ||
		    write(fd, &c, sizeof(c)) != (ssize_t)sizeof(c)) {
			perror("verdict-sim: write");
			_exit(1);
		}
	}
	_exit(0);
}

static double
pct(long k, long n)
{
	return 100.0 * (double)k / (double)n;
}

int
main(int argc, char **argv)
{
	static struct cell cells[NMODELS * NSIZES * NCHANGES];
	static int done[NMODELS * NSIZES * NCHANGES];
	long trials = 20000;
	uint64_t seed = 20240601;
	int only_model = -1, only_size = -1, quiet = 0, jobs = 2, ch, m, s;
	int k, i, w, fds[64], status, failed = 0;
	double r1, r2, r1e;
	time_t t0 = time(NULL);
	struct cell c;
	char *end;
	pid_t pid;

	while ((ch = getopt(argc, argv, "qj:t:s:m:n:")) != -1) {
		switch (ch) {
		case 'q':
			quiet = 1;
			break;
		case 'j':
			jobs = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || jobs < 1 || jobs > 64)
				usage();
			break;
		case 't':
			trials = strtol(optarg, &end, 10);
			if (*end != '\0' || trials < 1)
				usage();
			break;
		case 's':
			seed = strtoull(optarg, &end, 0);
			if (*end != '\0')
				usage();
			break;
		case 'm':
			only_model = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || only_model < 0 ||
			    only_model >= NMODELS)
				usage();
			break;
		case 'n':
			only_size = (int)strtol(optarg, &end, 10);
			if (*end != '\0')
				usage();
			break;
		default:
			usage();
		}
	}
	fflush(stdout);
	for (w = 0; w < jobs; w++) {
		int pfd[2];

		if (pipe(pfd) != 0 || (pid = fork()) < 0) {
			perror("verdict-sim");
			return 1;
		}
		if (pid == 0) {
			close(pfd[0]);
			worker(w, jobs, trials, seed, only_model, only_size,
			    pfd[1]);
		}
		close(pfd[1]);
		fds[w] = pfd[0];
	}
	for (w = 0; w < jobs; w++) {
		while (read(fds[w], &i, sizeof(i)) == (ssize_t)sizeof(i)) {
			if (read(fds[w], &c, sizeof(c)) != (ssize_t)sizeof(c))
				break;
			if (i >= 0 && i < NMODELS * NSIZES * NCHANGES) {
				cells[i] = c;
				done[i] = 1;
			}
		}
		close(fds[w]);
	}
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	if (failed) {
		fprintf(stderr, "verdict-sim: a worker failed\n");
		return 1;
	}

	printf("verdict-sim: %ld trials a cell, seed %llu; lower is better, "
	       "new = base * (1 + change)\n",
	    trials, (unsigned long long)seed);
	printf("change 0: false positives (any regression or improvement "
	       "verdict); else power (verdict regression)\n");
	printf("ministat = Student's pooled t at 95%% on raw values; "
	       "+- = 2 standard errors of the paired difference;\n");
	printf("negl = perfreg's significant changes reported as "
	       "equivalent (interval inside +-1%%);\n");
	printf("switch = samples where perfreg's shape selector chose the "
	       "maximum test\n\n");
	if (!quiet)
		printf("%-15s %3s %7s %9s %9s %8s %6s %6s %7s\n", "model", "n",
		    "change", "perfreg%", "ministat%", "diff", "+-", "negl%",
		    "switch%");
	for (i = 0; i < NMODELS * NSIZES * NCHANGES && !quiet; i++) {
		if (!done[i])
			continue;
		m = i / (NSIZES * NCHANGES);
		s = i / NCHANGES % NSIZES;
		k = i % NCHANGES;
		r1 = pct(cells[i].ours, cells[i].trials);
		r2 = pct(cells[i].theirs, cells[i].trials);
		printf("%-15s %3d %6.0f%% %9.2f %9.2f %+8.2f %6.2f %6.2f "
		       "%7.1f\n",
		    noise_model_name[m], sizes[s], 100 * changes[k], r1, r2,
		    r1 - r2, 100 * paired_2se(&cells[i]),
		    pct(cells[i].negligible, cells[i].trials),
		    pct(cells[i].switched, cells[i].trials));
	}

	printf("\nsummary per model: the worst false-positive rate of each "
	       "rule (with its size), and\nthe power of perfreg minus "
	       "ministat's: the largest shortfall, the same counting\n"
	       "significant-but-negligible \"equivalent\" verdicts as "
	       "detections, and the largest gain\n");
	printf("%-15s %14s %14s %19s %19s %19s\n", "model", "FP perfreg",
	    "FP ministat", "worst diff", "worst diff (negl)", "best gain");
	for (m = 0; m < NMODELS; m++) {
		double fp[2] = { -1, -1 }, worst = 1e9, worst_e = 1e9;
		double best = -1e9;
		int fs[2] = { 0, 0 }, wi = -1, we = -1, bi = -1;

		for (s = 0; s < NSIZES; s++) {
			for (k = 0; k < NCHANGES; k++) {
				i = (m * NSIZES + s) * NCHANGES + k;
				if (!done[i])
					continue;
				r1 = pct(cells[i].ours, cells[i].trials);
				r2 = pct(cells[i].theirs, cells[i].trials);
				r1e = pct(cells[i].ours + cells[i].negligible,
				    cells[i].trials);
				if (k == 0) {
					if (r1 > fp[0]) {
						fp[0] = r1;
						fs[0] = sizes[s];
					}
					if (r2 > fp[1]) {
						fp[1] = r2;
						fs[1] = sizes[s];
					}
					continue;
				}
				if (r1 - r2 < worst) {
					worst = r1 - r2;
					wi = i;
				}
				if (r1e - r2 < worst_e) {
					worst_e = r1e - r2;
					we = i;
				}
				if (r1 - r2 > best) {
					best = r1 - r2;
					bi = i;
				}
			}
		}
		if (wi < 0)
			continue;
		printf("%-15s %6.2f (n=%2d) %6.2f (n=%2d) %+6.2f (%2d,+%.0f%%) "
		       "%+6.2f (%2d,+%.0f%%) %+6.2f (%2d,+%.0f%%)\n",
		    noise_model_name[m], fp[0], fs[0], fp[1], fs[1], worst,
		    sizes[wi / NCHANGES % NSIZES], 100 * changes[wi % NCHANGES],
		    worst_e, sizes[we / NCHANGES % NSIZES],
		    100 * changes[we % NCHANGES], best,
		    sizes[bi / NCHANGES % NSIZES],
		    100 * changes[bi % NCHANGES]);
	}
	printf("\nelapsed %ld s with %d jobs\n", (long)(time(NULL) - t0), jobs);
	return 0;
}
