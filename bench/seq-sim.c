/*
 * bench/seq-sim.c - the error rates, power and cost of the sequential
 * test of `perfreg run --until-decided` (perfreg/seq.h), by simulation.
 *
 * A trial is one session: rounds of one base run and one new run, in a
 * random order within the round; after every round the log-ratio
 * log(new / base) is given to pr_seq_update and pr_seq_query decides
 * whether to stop (regression, improvement, equivalent) or go on, up to
 * -r rounds (200 by default: 200 runs a side).  Defaults of perfreg/seq.h
 * otherwise: alpha 5%, equivalence band 1%, lower is better.
 *
 * Noise models (a run's value is the true time 1 times the noise, as in
 * bench/verdict-sim.c):
 *   normal 1%, 2%, 5%   1 + c Z
 *   lognormal 0.03      exp(0.03 Z)
 *   bimodal             M (1 + 0.01 Z), M = 1.10 with probability 0.2,
 *                       else 1.0
 *   t3 2%               1 + 0.02 T / sqrt(3), T Student's t with 3 df
 *   drift +4%           normal 2% times 1 + 0.04 j / J: the machine slows
 *                       down by 4% over the session, j the position of
 *                       the run among the J = 2 x 25 runs of a session of
 *                       25 rounds (and on beyond, linearly), so that the
 *                       drift within a typical session is the full 4%
 * The new run is multiplied by 1 + change, change 0, 1, 3, 5, 8%.
 *
 * Printed per cell: the share of sessions that ended in each decision,
 * "wrong" (change 0: regression or improvement, the false-positive rate;
 * otherwise improvement or equivalent beyond the band), the power (the
 * share of "regression"), and the mean rounds (runs a side) at the
 * stop.  Next to it, the bug to avoid: "naive", the plain paired t test
 * at 95% checked after every round from the second on, stopping at the
 * first p < 0.05 (its false-positive or power rate and mean rounds),
 * on the same simulated runs.  And the robust alternative,
 * PR_SEQ_METHOD_SIGN (the sequential sign test on the median
 * log-ratio): "sign" is its false-positive rate or power, then its
 * share of "equivalent" and its mean rounds.
 *
 * usage: seq-sim [-t trials] [-s seed] [-m model] [-r max_rounds]
 *                [-g prior_scale] [-a alpha]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfreg/distrib.h"
#include "perfreg/rng.h"
#include "perfreg/seq.h"

#include "noise.h"

#define NMODELS 7
#define NCHANGES 5
#define DRIFT_ROUNDS 25

static const double changes[NCHANGES] = { 0, 0.01, 0.03, 0.05, 0.08 };

struct cell {
	long trials;
	long dec[5];   /* by enum pr_seq_decision */
	double rounds; /* sum of rounds at the stop */
	long naive_reg, naive_imp;
	double naive_rounds;
	long sign_dec[5];
	double sign_rounds;
};

static int
run_cell(int model, double change, long trials, uint64_t seed,
    const struct pr_seq_opts *o, const double *tq, struct cell *out)
{
	struct pr_seq_result res;
	struct pr_error err;
	struct pr_seq s;
	struct pr_rng rng;
	double b, nw, d, mean, m2, delta, sd;
	size_t r, nn, naive_stop;
	struct pr_seq_opts so;
	struct pr_seq ss;
	int base_first, seq_done, sign_done, ret = -1;
	long k;

	memset(out, 0, sizeof(*out));
	memset(&ss, 0, sizeof(ss));
	so = *o;
	so.method = PR_SEQ_METHOD_SIGN;
	pr_rng_seed(&rng, seed);
	for (k = 0; k < trials; k++) {
		if (pr_seq_init(&s, o, &err) != PR_OK) {
			goto out;
		}
		seq_done = 0;
		naive_stop = 0;
		sign_done = 0;
		pr_seq_release(&ss);
		if (pr_seq_init(&ss, &so, &err) != PR_OK)
			goto out;
		mean = m2 = 0;
		nn = 0;
		for (r = 0;
		     r < o->max_runs && !(seq_done && naive_stop && sign_done);
		     r++) {
			base_first = pr_rng_uniform(&rng) < 0.5;
			if (base_first) {
				b = noise_draw((enum noise_model)model, &rng,
				    2.0 * (double)r, DRIFT_ROUNDS);
				nw = noise_draw((enum noise_model)model, &rng,
				    2.0 * (double)r + 1, DRIFT_ROUNDS);
			} else {
				nw = noise_draw((enum noise_model)model, &rng,
				    2.0 * (double)r, DRIFT_ROUNDS);
				b = noise_draw((enum noise_model)model, &rng,
				    2.0 * (double)r + 1, DRIFT_ROUNDS);
			}
			nw *= 1 + change;
			if (!(b > 0 && nw > 0)) /* t3 can reach <= 0 */
				continue;
			d = log(nw / b);
			if (!seq_done) {
				if (pr_seq_update(&s, d, &err) != PR_OK)
					goto out;
				pr_seq_query(&s, &res);
				if (res.decision != PR_SEQ_CONTINUE) {
					seq_done = 1;
					out->dec[res.decision]++;
					out->rounds += (double)res.n;
				}
			}
			if (!sign_done) {
				if (pr_seq_update(&ss, d, &err) != PR_OK)
					goto out;
				pr_seq_query(&ss, &res);
				if (res.decision != PR_SEQ_CONTINUE) {
					sign_done = 1;
					out->sign_dec[res.decision]++;
					out->sign_rounds += (double)res.n;
				}
			}
			if (!naive_stop) {
				nn++;
				delta = d - mean;
				mean += delta / (double)nn;
				m2 += delta * (d - mean);
				sd = nn > 1 ? sqrt(m2 / (double)(nn - 1)) : 0;
				if (nn > 1 && sd > 0 &&
				    fabs(mean) / (sd / sqrt((double)nn)) >
					tq[nn - 1]) {
					naive_stop = nn;
					if (mean > 0)
						out->naive_reg++;
					else
						out->naive_imp++;
				}
			}
		}
		if (!seq_done) { /* t3 skipped rounds: count as max */
			out->dec[PR_SEQ_INCONCLUSIVE]++;
			out->rounds += (double)s.n;
		}
		out->naive_rounds += (double)(naive_stop ? naive_stop : nn);
		if (!sign_done) {
			out->sign_dec[PR_SEQ_INCONCLUSIVE]++;
			out->sign_rounds += (double)ss.n;
		}
	}
	out->trials = trials;
	ret = 0;
out:
	if (ret != 0)
		fprintf(stderr, "seq-sim: %s\n", err.msg);
	pr_seq_release(&ss);
	return ret;
}

static void
usage(void)
{
	fprintf(stderr,
	    "usage: seq-sim [-t trials] [-s seed] [-m model] "
	    "[-r max_rounds] [-g prior_scale] [-a alpha]\n");
	exit(2);
}

static double
pct(long k, long n)
{
	return 100.0 * (double)k / (double)n;
}

int
main(int argc, char **argv)
{
	struct pr_seq_opts o;
	struct cell c;
	double *tq, worst[NMODELS];
	long trials = 20000;
	uint64_t seed = 20261130;
	int only = -1, ch, m, k;
	char *end;
	size_t i;

	pr_seq_opts_init(&o);
	while ((ch = getopt(argc, argv, "a:g:m:r:s:t:")) != -1) {
		switch (ch) {
		case 'a':
			o.alpha = strtod(optarg, &end);
			if (*end != '\0')
				usage();
			break;
		case 'g':
			o.prior_scale = strtod(optarg, &end);
			if (*end != '\0')
				usage();
			break;
		case 'm':
			only = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || only < 0 || only >= NMODELS)
				usage();
			break;
		case 'r':
			o.max_runs = (size_t)strtoul(optarg, &end, 10);
			if (*end != '\0' || o.max_runs < 2 ||
			    o.max_runs > 100000)
				usage();
			break;
		case 's':
			seed = strtoull(optarg, &end, 0);
			if (*end != '\0')
				usage();
			break;
		case 't':
			trials = strtol(optarg, &end, 10);
			if (*end != '\0' || trials < 1)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	tq = malloc(o.max_runs * sizeof(*tq));
	if (tq == NULL)
		return 3;
	tq[0] = HUGE_VAL;
	for (i = 1; i < o.max_runs; i++)
		tq[i] = pr_t_quantile(1 - (1 - 0.95) / 2, (double)i);

	printf("seq-sim: %ld trials a cell, seed %llu; alpha %g, band %g%%, "
	       "prior scale %g, at most %zu rounds;\n"
	       "lower is better, new = base * (1 + change); one round = one "
	       "base run and one new run\n\n",
	    trials, (unsigned long long)seed, o.alpha, o.equivalence_pct,
	    o.prior_scale, o.max_runs);
	printf("%-15s %6s | %6s %6s %6s %6s %6s | %6s %7s | %6s %7s "
	       "| %6s %6s %7s\n",
	    "model", "change", "regr%", "impr%", "equiv%", "incon%", "wrong%",
	    "power%", "rounds", "naive%", "rounds", "sign%", "equiv%",
	    "rounds");
	for (m = 0; m < NMODELS; m++) {
		worst[m] = 0;
		if (only >= 0 && m != only)
			continue;
		for (k = 0; k < NCHANGES; k++) {
			double wrong, naive, sign;

			if (run_cell(m, changes[k], trials,
				seed + 1000003ULL * (uint64_t)(m * 10 + k), &o,
				tq, &c) != 0) {
				free(tq);
				return 1;
			}
			if (k == 0) {
				wrong = pct(c.dec[PR_SEQ_REGRESSION] +
					c.dec[PR_SEQ_IMPROVEMENT],
				    trials);
				naive = pct(c.naive_reg + c.naive_imp, trials);
				sign = pct(c.sign_dec[PR_SEQ_REGRESSION] +
					c.sign_dec[PR_SEQ_IMPROVEMENT],
				    trials);
				if (wrong > worst[m])
					worst[m] = wrong;
			} else {
				wrong = pct(c.dec[PR_SEQ_IMPROVEMENT] +
					(changes[k] > o.equivalence_pct / 100
						? c.dec[PR_SEQ_EQUIVALENT]
						: 0),
				    trials);
				naive = pct(c.naive_reg, trials);
				sign =
				    pct(c.sign_dec[PR_SEQ_REGRESSION], trials);
			}
			printf("%-15s %5.0f%% | %6.2f %6.2f %6.2f %6.2f %6.2f "
			       "| %6.2f %7.1f | %6.2f %7.1f | %6.2f %6.2f "
			       "%7.1f\n",
			    k == 0 ? noise_model_name[m] : "", 100 * changes[k],
			    pct(c.dec[PR_SEQ_REGRESSION], trials),
			    pct(c.dec[PR_SEQ_IMPROVEMENT], trials),
			    pct(c.dec[PR_SEQ_EQUIVALENT], trials),
			    pct(c.dec[PR_SEQ_INCONCLUSIVE], trials), wrong,
			    k == 0 ? 0.0
				   : pct(c.dec[PR_SEQ_REGRESSION], trials),
			    c.rounds / (double)trials, naive,
			    c.naive_rounds / (double)trials, sign,
			    pct(c.sign_dec[PR_SEQ_EQUIVALENT], trials),
			    c.sign_rounds / (double)trials);
			fflush(stdout);
		}
	}
	printf("\nworst false-positive rate (change 0):");
	for (m = 0; m < NMODELS; m++)
		if (only < 0 || m == only)
			printf(" %s %.2f%%;", noise_model_name[m], worst[m]);
	printf("\n");
	free(tq);
	return 0;
}
