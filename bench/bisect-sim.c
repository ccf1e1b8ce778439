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
 * takes them), and "bursty": normal 2% with bursts of load (a burst
 * starts at a run with probability 2%, lasts a geometric number of runs
 * of mean 10, so that it begins and ends inside rounds as often as
 * between them, and slows each of its runs by a factor drawn once from
 * 1.05 .. 1.20).  Each method sees only the values it asks for and
 * reports a culprit commit, "no change", "several" or nothing (budget):
 *
 *   perfreg   perfreg/bisect.h with its defaults (confidence 0.95, build
 *             cost 30 runs), one measurement after another as
 *             pr_bisect_next proposes, up to 3000 runs;
 *   job-old   the schedule of `perfreg bisect` (src/bisect/job.c) as the
 *             last session left it: each measurement runs the commit and
 *             the bracket's two ends in shuffled rounds (the ends first,
 *             3 rounds), the search not told the rounds, a culprit
 *             confirmed against its parent by perfreg/seq.h's sequential
 *             test on paired rounds, up to 400 rounds, "several"
 *             confirmed in order of posterior mass;
 *   job-new   the same schedule as the command has it now: the search
 *             pairs each round's values (pr_bisect_add_round) with the
 *             command's round model (PR_BISECT_JOB_FIXED_ROUNDS of
 *             perfreg/bisect_job.h: a fixed effect per round), a
 *             confirmation stops at 100 rounds and goes back to the
 *             search, its sequence continuing when the same commit is
 *             named again, a commit found equal to its parent sends
 *             the search back (3 times at most), "several" confirmed
 *             larger step first (a confirmed culprit, "not confirmed"
 *             at the end counted as none), a second mode of the noise
 *             fitted when the data say so (PR_BISECT_JOB_MODES);
 *             A confirmation that starts while the search's fit has
 *             two modes takes the sequential sign test
 *             (PR_SEQ_METHOD_SIGN), kept for its sequence, as the
 *             command does;
 *   job-one   job-new with one mode of the noise (pr_bisect_opts.modes
 *             1: the command before PR_BISECT_JOB_MODES);
 *   job-t     job-new whose confirmations always take the t test (the
 *             command before the sign test for two modes);
 *   job-pre   job-new with every step's prior sd at step_sd
 *             (pr_bisect_opts.step_fixed: the search before the prior
 *             was widened to the ends' change; not the command, whose
 *             step_sd is the ends' change as first measured);
 *   job-rand  job-new with a random round effect of estimated variance
 *             (fixed_rounds 0, the library's default: the unpaired fit
 *             when the rounds do not differ; the command's method from
 *             issue 15's fifth session to its sixth, which dropped it
 *             for failing under drift);
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
 *   pp-all    Pinpoint's rule searching both halves of a bracket whose
 *             midpoint differs from both ends (Pinpoint's own search,
 *             which reports every culprit it finds), at most 4
 *             culprits: one found is a culprit, two are "several"
 *             naming them (`both` when they are the two steps), more
 *             are "several" naming none;
 *   job-half  (bit 10, not in the default mask) on each range, from one
 *             noise stream's start: Pinpoint's rule (`pp-same`, the
 *             `pinpoint` rows range for range), job-new at the
 *             command's defaults (`job-dflt`), and job-new with its runs
 *             held to at most half of what Pinpoint's rule took on that
 *             range (-B half, the default; -B RUNS: that fixed cap, the
 *             command's --max-runs) at each confidence of -c
 *             (`half@C`; 0.95,0.8,0.6,0.51 by default: the command's
 *             --confidence 95 .. 51, which must be above 50), that
 *             confidence also the confirmation's 1 - alpha as in the
 *             command, the budget split as the command splits
 *             --max-runs (whole rounds within what is left, a
 *             confirmation at most half of it per commit of two).  Only
 *             a culprit the method's rule names counts: at the budget's
 *             end the range is undecided (the command's "undecided
 *             within budget: most likely C (P = ...)"), and the share
 *             of ranges whose leading commit C is the first bad one is
 *             printed apart, not counted right;
 *   plain     git bisect with 5 runs a commit: good against bad by
 *             Welch's t test at 5% (not different: no change); then the
 *             midpoint is bad when Welch's t test against the good end's
 *             5 runs says different at 5%.
 *
 * Printed per cell and method: accuracy (the culprit is the first bad
 * commit; with two steps, either of them, and "several" counted apart),
 * the share of false culprits on ranges without a change, and the mean
 * runs and builds (distinct commits measured, ends included), and
 * `both`: the share of ranges with two steps where "several" named
 * exactly the two (perfreg's methods; Pinpoint's and plain bisection's
 * "several" names none).
 *
 * Usage: bisect-sim [-t TRIALS] [-T TRIALS_FOR_1024] [-s SEED] [-q] [-n N]
 * [-b] [-m MASK] [-S STEP] (-q: only N = 16 and 128; -n: only that N of 16, 128,
 * 1024; -b: only the bursty cells (and two steps under bursts); -m: the
 * methods, bit i for the i-th of perfreg, job-old, job-new, pinpoint,
 * plain, job-rand, job-one, job-t, job-pre, pp-all, job-half (all but
 * job-half by default); -o: only the cells of one noise model, 0 normal, 1 t3, 2
 * bimodal, 3 drift, 4 bursty, without the two-step cell; 5: only the
 * two-step cell; -S STEP: instead of each noise model's three cells, one
 * cell of a single step of STEP (relative: 15 is +1500%), the huge step
 * with which a second, false change was seen confirmed; -d: below each row of the job's methods,
 * where its runs went: the search's (the ends' first rounds included)
 * in how many batches of rounds, the confirmations', and the refutes,
 * each a mean per range); -L CAP: Pinpoint's ladder of attempts goes
 * on doubling up to CAP (160, Pinpoint's, by default; 640, 2560: the
 * runs its rule would need to be as accurate, bench/README.md); -B
 * half|RUNS and -c CONF,...: job-half's cap and confidences (above).
 * -n also takes any other N from 2 to 100000 (8: the ranges of tests/
 * monitor/cli_bisect_monitor.sh), run after the three sizes' place with
 * seeds of its own (seed + 300 + ...), so that 16, 128 and 1024 keep
 * theirs; -k K: every one-step range's first bad commit is K (drawn as
 * before, then set, so that the stream is the same); -o 6: normal 2%'s
 * cells with the noise of cli_bisect_monitor's program before 1a79463
 * (a random 32-bit seed, 12 steps of its LCG mod 2^32, 1 + 0.02 (sum of
 * 12 uniforms - 6)); -p: below each job row of a one-step cell, how
 * often the search named two changes, how often the pair was the first
 * bad commit and the next one, and how the confirmation of the commit
 * that is not the step ended; -C: the job methods' step prior as the
 * command sets it (step_sd the ends' change after their first 3 rounds,
 * src/bisect/job.c make_search); -R COST: the job methods' build cost in
 * runs (30 by default, the command measures it); -D: job-half without
 * its job-dflt rows (its costliest part).  The job methods price a
 * build as a run once the budget binds, as the command does
 * (perfreg/bisect_job.h's pr_bisect_job_build_price), and the -d line
 * says in how many ranges; -P: at its measured price throughout, as the
 * command did before (the fixed-cap rows of bench/README.md before
 * "The build's price when the cap binds").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "noise.h"
#include "perfreg/bisect.h"
#include "perfreg/bisect_job.h"
#include "perfreg/describe.h"
#include "perfreg/mwu.h"
#include "perfreg/rng.h"
#include "perfreg/seq.h"
#include "perfreg/ttest.h"

#define MAX_RUNS 3000
#define DRIFT_ROUNDS 250
#define BURST_START 0.02
#define BURST_LEN 10.0

enum result { R_CULPRIT, R_NONE, R_SEVERAL, R_UNDECIDED };

/* -k: the first bad commit of every one-step range (0: uniform); -o 6:
 * the noise of tests/monitor/cli_bisect_monitor.sh's program before
 * 1a79463 (cli_noise); -p: where the job's "several" came from. */
static size_t fixed_k;
static int cli_noise;
static int pair_detail;
/* -C: the job's step prior as the command sets it (step_sd the ends'
 * change as first measured, src/bisect/job.c make_search); -R: the job's
 * build cost in runs (the library's 30 by default). */
static int cmd_prior;
static double build_runs;
/* The job methods price a build under the budget as the command does
 * (pr_bisect_job_build_price: a run's price once the runs left are fewer
 * than a build's price for each bit still to learn); -P: at its measured
 * price throughout, as the command did before (sessions 1-18). */
static int budget_price = 1;
/* -D: job-half without its job-dflt rows (the costliest part of a
 * capped run; job-new's own rows are the same method on other ranges). */
static int no_dflt;

struct truth {
	size_t n, k1, k2; /* k = 0: no step */
	double step;
	enum noise_model noise;
	int bursty; /* bursts of load on top of the noise (see sim_run) */
};

/* One trial's state: the samples each method asked for. */
struct sim {
	const struct truth *t;
	struct pr_rng *rng;
	double **y;
	size_t *ny, *cap;
	size_t runs, builds;
	/* Where the job's runs went (-d): the search's (ends included) in
	 * batches, the confirmations', and the refutes. */
	size_t search_runs, batches, confirm_runs, refutes;
	size_t bound;      /* 1 when the budget priced a build as a run */
	size_t burst_left; /* runs left in the current burst */
	double burst;      /* its slowdown factor */
	/* The job's budget and confidence (MAX_RUNS and 0.95 but in the
	 * job-half rows, -B, -c); capped: the budget is split as the
	 * command's --max-runs is (src/bisect/job.c). */
	size_t budget;
	double conf;
	int capped;
	/* Where the job ended undecided: its leading commit (the search's
	 * most probable change, which `perfreg bisect` prints after
	 * "undecided within budget: most likely") is the first bad one
	 * (lead_right) and its posterior (lead_p). */
	int lead_right;
	double lead_p;
	/* -p: the search's "several" in a one-step range: how often it
	 * named two changes, how often the pair was the first bad commit
	 * and the next one (k, k + 1), and how the confirmation of the one
	 * that is not a step ended (a change, equivalent, undecided). */
	size_t sev_named, sev_next, sev_false_change, sev_false_equiv,
	    sev_false_open;
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
	s->search_runs = s->batches = s->confirm_runs = s->refutes = 0;
	s->bound = 0;
	s->burst_left = 0;
	s->burst = 1;
	s->budget = MAX_RUNS;
	s->conf = 0.95;
	s->capped = 0;
	s->lead_right = 0;
	s->lead_p = 0;
	s->sev_named = s->sev_next = 0;
	s->sev_false_change = s->sev_false_equiv = s->sev_false_open = 0;
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
	if (cli_noise) {
		/* The test program's 2% before 1a79463: a seed of 32 bits
		 * (getpid() * 2654435761 ^ tv_nsec there), 12 steps of an
		 * LCG mod 2^32, the sum of their top 24 bits as uniforms,
		 * less 6; at most 12% from 1, never <= 0. */
		uint32_t u = (uint32_t)pr_rng_next(s->rng);
		double sum = 0;
		int j;

		for (j = 0; j < 12; j++) {
			u = u * 1103515245u + 12345u;
			sum += (double)(u >> 8) / 16777216.0;
		}
		z = 1 + 0.02 * (sum - 6);
	} else {
		do
			z = noise_draw(s->t->noise, s->rng, (double)s->runs,
			    DRIFT_ROUNDS);
		while (z <= 0);
	}
	v = level(s->t, pos) * z;
	if (s->t->bursty) {
		/* Bursts of load: one starts at a run with probability
		 * BURST_START, lasts a geometric number of runs of mean
		 * BURST_LEN (so it starts and ends within rounds as often
		 * as between them) and slows every run by 5% to 20%. */
		if (s->burst_left == 0 &&
		    pr_rng_uniform(s->rng) < BURST_START) {
			s->burst_left = 1;
			while (pr_rng_uniform(s->rng) > 1.0 / BURST_LEN)
				s->burst_left++;
			s->burst = 1.05 + 0.15 * pr_rng_uniform(s->rng);
		}
		if (s->burst_left > 0) {
			v *= s->burst;
			s->burst_left--;
		}
	}

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

/* The step at commit k as measured: mean log of the nearest measured
 * commit at or after k less that of the nearest before it (job.c's). */
static double
sim_step(const struct sim *s, size_t k)
{
	size_t lo = k, hi = k, i;
	double a = 0, b = 0;

	while (lo > 0 && (lo == k || s->ny[lo] == 0))
		lo--;
	while (hi < s->t->n && s->ny[hi] == 0)
		hi++;
	for (i = 0; i < s->ny[lo]; i++)
		a += log(s->y[lo][i]) / (double)s->ny[lo];
	for (i = 0; i < s->ny[hi]; i++)
		b += log(s->y[hi][i]) / (double)s->ny[hi];
	return b - a;
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
			culprit[0] = ss.pair_hi[0];
			culprit[1] = ss.pair_hi[1];
			res = R_SEVERAL;
			break;
		}
	}
	pr_bisect_free(b);
	return res;
}

/*
 * The job's schedule (src/bisect/job.c): each measurement the search
 * proposes runs that commit and the two ends of the current bracket in
 * shuffled rounds, the ends first in 3 rounds; a culprit is confirmed
 * against its parent by the sequential test of perfreg/seq.h on the
 * pairs of interleaved rounds.  `paired`: the search pairs the values of
 * a round (pr_bisect_add_round), confirmations stop at 100 rounds and
 * go back to the search (continuing their sequence), and "several" is
 * confirmed larger step first: the method now.  Else the method of the
 * last session: no rounds in the search, one confirmation of up to 400
 * rounds, "several" in order of posterior mass.
 */
struct inter {
	struct sim *s;
	struct pr_bisect *b;
	uint64_t round;
	int paired;
};

/* rounds rounds of the k commits pos[], each round shuffled. */
static void
inter_rounds(struct inter *in, const size_t *pos, size_t k, size_t rounds)
{
	size_t r, i, order[3], runs0 = in->s->runs;

	in->s->batches++;
	for (r = 0; r < rounds && in->s->runs < in->s->budget; r++) {
		in->round++;
		for (i = 0; i < k; i++)
			order[i] = pos[i];
		for (i = k; i > 1; i--) {
			size_t w = (size_t)pr_rng_below(in->s->rng, i), x;

			x = order[i - 1];
			order[i - 1] = order[w];
			order[w] = x;
		}
		for (i = 0; i < k; i++)
			if (pr_bisect_add_round(in->b, order[i],
				sim_run(in->s, order[i]),
				in->paired ? in->round : 0, NULL) != PR_OK)
				abort();
	}
	in->s->search_runs += in->s->runs - runs0;
}

/* The nearest measured commits around the most probable change, or,
 * while several changes are being located (P(H_multi) >= 0.95), around
 * the commit to measure, at (as src/bisect/job.c's bracket). */
static void
inter_bracket(const struct sim *s, const struct pr_bisect_state *ss, size_t at,
    size_t *g, size_t *bd)
{
	size_t i, lo = ss->lo, hi = ss->hi;

	if (ss->p_multi >= s->conf) {
		lo = at;
		hi = at + 1;
	}
	*g = 0;
	*bd = s->t->n;
	for (i = lo; i-- > 0;)
		if (s->ny[i] > 0) {
			*g = i;
			break;
		}
	for (i = hi; i <= s->t->n; i++)
		if (s->ny[i] > 0) {
			*bd = i;
			break;
		}
}

/* A confirmation of commit c against c - 1, continuing the sequence q
 * (pairs so far in *nq); returns the decision. */
static enum pr_seq_decision
inter_confirm(struct inter *in, size_t c, struct pr_seq *q, size_t cap)
{
	struct pr_seq_result res;
	size_t r, i;

	for (r = 0; r < cap && in->s->runs + 2 <= in->s->budget; r++) {
		in->s->confirm_runs += 2;
		size_t first = (size_t)pr_rng_below(in->s->rng, 2);
		double v[2];

		in->round++;
		for (i = 0; i < 2; i++) {
			size_t which = i == 0 ? first : 1 - first;
			size_t pos = c - 1 + which;

			v[which] = sim_run(in->s, pos);
			if (pr_bisect_add_round(in->b, pos, v[which],
				in->paired ? in->round : 0, NULL) != PR_OK)
				abort();
		}
		if (pr_seq_update_pair(q, v[0], v[1], NULL) != PR_OK)
			abort();
		pr_seq_query(q, &res);
		if (res.decision != PR_SEQ_CONTINUE)
			return res.decision;
	}
	return PR_SEQ_CONTINUE;
}

static void
seq_start(struct pr_seq *q, enum pr_seq_method method, double conf)
{
	struct pr_seq_opts so;

	pr_seq_opts_init(&so);
	so.method = method;
	/* The command's: 1 - --confidence (0.05 at its default). */
	so.alpha = 1 - conf;
	so.equivalence_pct = 1;
	so.max_runs = MAX_RUNS;
	if (pr_seq_init(q, &so, NULL) != PR_OK)
		abort();
}

/* A confirmation's cap of rounds: the method's, and under a budget
 * (s->capped) what is left of it halved for the first of two, as the
 * command's confirm() (rounds of 2 runs: left / 2 / share). */
static size_t
confirm_cap(const struct sim *s, size_t cap, int first_of_two)
{
	size_t share = first_of_two ? 2 : 1, left;

	if (first_of_two)
		cap /= 2;
	if (!s->capped)
		return cap;
	left = (s->budget - s->runs) / 2 / share;
	return left < cap ? left : cap;
}

/* -p: a "several" of the search in a one-step range, c[0] and c[1]
 * confirmed with decisions d[0] and d[1]. */
static void
sev_count(struct sim *s, const size_t *c, const enum pr_seq_decision *d)
{
	size_t k = s->t->k1, m;

	s->sev_named++;
	if ((c[0] == k && c[1] == k + 1) || (c[1] == k && c[0] == k + 1))
		s->sev_next++;
	if ((c[0] == k) == (c[1] == k))
		return; /* neither is the step (or both the same commit) */
	m = c[0] == k ? 1 : 0;
	if (d[m] == PR_SEQ_REGRESSION || d[m] == PR_SEQ_IMPROVEMENT)
		s->sev_false_change++;
	else if (d[m] == PR_SEQ_EQUIVALENT)
		s->sev_false_equiv++;
	else
		s->sev_false_open++;
}

static enum result
m_inter(struct sim *s, size_t *culprit, int paired)
{
	struct pr_bisect_opts o;
	struct pr_bisect_step st;
	struct pr_bisect_state ss;
	struct inter in;
	struct pr_seq *qs;
	int *qon;
	enum result res = R_UNDECIDED;
	size_t ends[2], n = s->t->n, pos[3], k, g, bd, i;
	size_t cap = paired ? 100 : 400;
	int confirmations = 0, refuted = 0, bound = 0;

	pr_bisect_opts_init(&o, n);
	o.confidence = s->conf;
	/* paired 5: job-new with the step prior of before (step_sd alone). */
	o.step_fixed = paired == 5;
	if (paired == 5)
		paired = 1;
	/* paired 1: the command's round model; 2: random effects. */
	o.fixed_rounds = paired == 2 ? 0 : PR_BISECT_JOB_FIXED_ROUNDS;
	/* paired 3: job-new with one mode of the noise; 4: with the t test
	 * in every confirmation. */
	if (paired == 1 || paired == 4)
		o.modes = PR_BISECT_JOB_MODES;
	if (build_runs > 0)
		o.build_cost = build_runs;
	memset(&in, 0, sizeof(in));
	in.s = s;
	in.paired = paired;
	if (pr_bisect_new(&o, &in.b, NULL) != PR_OK)
		abort();
	/* One sequence per commit confirmed against its parent, started
	 * at its first confirmation (its test chosen then). */
	qs = calloc(n + 1, sizeof(*qs));
	qon = calloc(n + 1, sizeof(*qon));
	if (qs == NULL || qon == NULL)
		abort();
	ends[0] = 0;
	ends[1] = n;
	inter_rounds(&in, ends, 2, 3);
	if (cmd_prior) {
		/* The command makes its search once the ends have their
		 * first rounds, its step prior their change then. */
		double a = 0, b = 0;
		uint64_t r;

		for (i = 0; i < s->ny[0]; i++)
			a += log(s->y[0][i]) / (double)s->ny[0];
		for (i = 0; i < s->ny[n]; i++)
			b += log(s->y[n][i]) / (double)s->ny[n];
		o.step_sd = fmax(o.step_sd, fabs(b - a));
		pr_bisect_free(in.b);
		if (pr_bisect_new(&o, &in.b, NULL) != PR_OK)
			abort();
		for (r = 0; r < in.round; r++)
			if (pr_bisect_add_round(in.b, 0, s->y[0][r],
				paired ? r + 1 : 0, NULL) != PR_OK ||
			    pr_bisect_add_round(in.b, n, s->y[n][r],
				paired ? r + 1 : 0, NULL) != PR_OK)
				abort();
	}
	while (s->runs < s->budget) {
		if (pr_bisect_state(in.b, &ss, NULL) != PR_OK)
			abort();
		if (ss.outcome == PR_BISECT_NONE) {
			res = R_NONE;
			break;
		}
		if (ss.outcome == PR_BISECT_CULPRIT ||
		    ss.outcome == PR_BISECT_SEVERAL) {
			size_t c[2] = { ss.hi, 0 }, nc = 1, m;
			enum pr_seq_decision d[2] = { PR_SEQ_CONTINUE,
				PR_SEQ_CONTINUE };
			int again = 0;

			if (ss.outcome == PR_BISECT_SEVERAL) {
				/* The two changes the search located. */
				c[0] = ss.pair_hi[0];
				c[1] = ss.pair_hi[1];
				nc = 2;
				if (paired &&
				    fabs(sim_step(s, c[1])) >
					fabs(sim_step(s, c[0]))) {
					size_t x = c[0];

					c[0] = c[1];
					c[1] = x;
				}
			}
			for (m = 0; m < nc; m++) {
				if (!qon[c[m]]) {
					seq_start(&qs[c[m]],
					    paired == 1 && ss.modes == 2
						? PR_SEQ_METHOD_SIGN
						: PR_SEQ_METHOD_T,
					    s->conf);
					qon[c[m]] = 1;
				}
				d[m] = inter_confirm(&in, c[m], &qs[c[m]],
				    confirm_cap(s, cap, nc == 2 && m == 0));
				if (d[m] == PR_SEQ_CONTINUE && paired)
					again = 1;
			}
			if (nc == 2 && s->t->k1 && !s->t->k2)
				sev_count(s, c, d);
			confirmations++;
			/* The command: under 4 runs of the budget left,
			 * an undecided confirmation is the budget's end. */
			if (s->capped && again && s->runs + 4 > s->budget)
				break;
			if (nc == 1 &&
			    (d[0] == PR_SEQ_REGRESSION ||
				d[0] == PR_SEQ_IMPROVEMENT)) {
				*culprit = c[0];
				res = R_CULPRIT;
				break;
			}
			if (nc == 2) {
				int y0 = d[0] == PR_SEQ_REGRESSION ||
				    d[0] == PR_SEQ_IMPROVEMENT;
				int y1 = d[1] == PR_SEQ_REGRESSION ||
				    d[1] == PR_SEQ_IMPROVEMENT;

				if (y0 && y1) {
					culprit[0] = c[0] < c[1] ? c[0] : c[1];
					culprit[1] = c[0] < c[1] ? c[1] : c[0];
					res = R_SEVERAL;
					break;
				}
				if (y0 || y1) {
					*culprit = y0 ? c[0] : c[1];
					res = R_CULPRIT;
					break;
				}
			}
			/* A commit its confirmation finds equal to its
			 * parent sends the search back (src/bisect/job.c's
			 * PR_BISECT_JOB_REFUTED_MAX times): its runs are
			 * the search's. */
			if (paired && !again &&
			    refuted < PR_BISECT_JOB_REFUTED_MAX &&
			    (!s->capped || s->runs + 4 <= s->budget) &&
			    (d[0] == PR_SEQ_EQUIVALENT ||
				(nc == 2 && d[1] == PR_SEQ_EQUIVALENT))) {
				refuted++;
				s->refutes++;
				again = 1;
			}
			if (!again || confirmations > 30) {
				/* Not confirmed (equivalent), or undecided. */
				res =
				    (d[0] == PR_SEQ_EQUIVALENT &&
					(nc == 1 || d[1] == PR_SEQ_EQUIVALENT))
				    ? R_NONE
				    : R_UNDECIDED;
				break;
			}
			continue;
		}
		/* As the command's search loop (src/bisect/job.c
		 * price_build): once bound, bound. */
		if (budget_price && paired == 1 && !bound &&
		    pr_bisect_job_build_price(&ss, s->conf, o.build_cost,
			o.run_cost, s->budget - s->runs) < o.build_cost) {
			bound = 1;
			s->bound++;
			if (pr_bisect_set_costs(in.b, o.run_cost, o.run_cost,
				NULL) != PR_OK)
				abort();
		}
		if (pr_bisect_next(in.b, &st, NULL) != PR_OK)
			break;
		inter_bracket(s, &ss, st.pos, &g, &bd);
		k = 0;
		pos[k++] = st.pos;
		if (g != st.pos)
			pos[k++] = g;
		if (bd != st.pos && bd != g)
			pos[k++] = bd;
		/* Under a budget, as the command: whole rounds within what
		 * is left, none left is the budget's end. */
		if (s->capped && st.runs * k > s->budget - s->runs)
			st.runs = (unsigned)((s->budget - s->runs) / k);
		if (s->capped && st.runs == 0)
			break;
		inter_rounds(&in, pos, k, st.runs);
	}
	if (res == R_UNDECIDED && pr_bisect_state(in.b, &ss, NULL) == PR_OK) {
		s->lead_right = ss.lo == ss.hi &&
		    (ss.hi == s->t->k1 || (s->t->k2 && ss.hi == s->t->k2));
		s->lead_p = ss.p_loc;
	}
	for (i = 0; i <= n; i++)
		pr_seq_release(&qs[i]);
	free(qs);
	free(qon);
	pr_bisect_free(in.b);
	return res;
}

static enum result
m_inter_old(struct sim *s, size_t *culprit)
{
	return m_inter(s, culprit, 0);
}

static enum result
m_inter_new(struct sim *s, size_t *culprit)
{
	return m_inter(s, culprit, 1);
}

static enum result
m_inter_rand(struct sim *s, size_t *culprit)
{
	return m_inter(s, culprit, 2);
}

static enum result
m_inter_one(struct sim *s, size_t *culprit)
{
	return m_inter(s, culprit, 3);
}

static enum result
m_inter_t(struct sim *s, size_t *culprit)
{
	return m_inter(s, culprit, 4);
}

static enum result
m_inter_pre(struct sim *s, size_t *culprit)
{
	return m_inter(s, culprit, 5);
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

static size_t pp_cap = 160; /* -L: the ladder's last rung */

/*
 * Pinpoint's comparison of two commits, with its attempt ladder: 10
 * attempts, doubled while not different, up to pp_cap (Pinpoint's 160).
 */
static int
pp_different(struct sim *s, size_t a, size_t b)
{
	size_t att;

	for (att = 10; att <= pp_cap; att *= 2) {
		struct pr_mwu mw;
		double p, *x, *y;

		sim_fill(s, a, att);
		sim_fill(s, b, att);
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

/*
 * Pinpoint's search into both halves: a bracket whose midpoint differs
 * from both ends is searched on both sides, and every commit found
 * different from its parent's side is a culprit (Pinpoint reports each,
 * "too many culprits" past a few); at most PP_MAX_CULPRITS are looked
 * for.
 */
#define PP_MAX_CULPRITS 4
static void
pp_all(struct sim *s, size_t a, size_t b, size_t *found, size_t *nf)
{
	size_t m;
	int da, db;

	if (*nf >= PP_MAX_CULPRITS || s->runs >= 20 * MAX_RUNS)
		return;
	if (b - a == 1) {
		found[(*nf)++] = b;
		return;
	}
	m = a + (b - a) / 2;
	da = pp_different(s, a, m);
	db = pp_different(s, m, b);
	if (da)
		pp_all(s, a, m, found, nf);
	if (db)
		pp_all(s, m, b, found, nf);
}

static enum result
m_pinpoint_all(struct sim *s, size_t *culprit)
{
	size_t found[PP_MAX_CULPRITS], nf = 0;

	if (!pp_different(s, 0, s->t->n))
		return R_NONE;
	pp_all(s, 0, s->t->n, found, &nf);
	if (nf == 0)
		return R_UNDECIDED;
	if (nf == 1) {
		*culprit = found[0];
		return R_CULPRIT;
	}
	if (nf == 2) {
		culprit[0] = found[0];
		culprit[1] = found[1];
	}
	return R_SEVERAL;
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
	size_t both; /* "several" naming the two true steps */
	double runs, builds;
	double search_runs, batches, confirm_runs, refutes; /* -d */
	size_t bound; /* ranges whose budget priced a build as a run */
	/* job-half: the budgets, and the undecided ranges whose leading
	 * commit is the first bad one, with the sum of their posteriors. */
	double budget, lead_p;
	size_t lead_right;
	/* -p: ranges whose search named two changes at least once, and
	 * the pair (k, k + 1) at least once; namings in all; the false
	 * one's confirmations by their end. */
	size_t sev_ranges, sev_next_ranges, sev_named, sev_next;
	size_t sev_false_change, sev_false_equiv, sev_false_open;
};

typedef enum result (*method_fn)(struct sim *, size_t *);

#define NMETHODS 11
#define JOB_HALF 10
static const char *const method_name[NMETHODS] = { "perfreg", "job-old",
	"job-new", "pinpoint", "plain", "job-rand", "job-one", "job-t",
	"job-pre", "pp-all", "job-half" };
static const method_fn methods[NMETHODS] = { m_perfreg, m_inter_old,
	m_inter_new, m_pinpoint, m_plain, m_inter_rand, m_inter_one, m_inter_t,
	m_inter_pre, m_pinpoint_all, NULL /* job-half: cell_half() */ };
/* Every method but job-half unless -m says so. */
static unsigned method_mask = (1u << JOB_HALF) - 1;
static double big_step; /* -S: the one cell's step, 0: the usual cells */
static int detail;      /* -d: where the job's runs went */

/* job-half (-B, -c): the confidences of its capped rows (the command's
 * --confidence over 100, each in (0.5, 1)) and the cap: 0 for half of
 * Pinpoint's runs on the same range, else that many runs a range. */
#define MAX_CONFS 8
static double half_conf[MAX_CONFS] = { 0.95, 0.8, 0.6, 0.51 };
static size_t nconf = 4;
static size_t fixed_budget;

/* A range's first bad commits: nsteps of them, uniform in 1 .. n. */
static void
draw_steps(struct truth *t, int nsteps, struct pr_rng *rng)
{
	if (nsteps >= 1)
		t->k1 = 1 + pr_rng_below(rng, t->n);
	if (nsteps == 1 && fixed_k)
		t->k1 =
		    fixed_k; /* -k; drawn first, so the stream is the same */
	if (nsteps == 2) {
		do
			t->k2 = 1 + pr_rng_below(rng, t->n);
		while (t->k2 == t->k1);
		if (t->k2 < t->k1) {
			size_t x = t->k1;

			t->k1 = t->k2;
			t->k2 = x;
		}
	}
}

static void
tally_add(struct tally *tl, const struct sim *s, const struct truth *t,
    enum result r, const size_t *culprit)
{
	int nsteps = t->k2 ? 2 : t->k1 ? 1 : 0;

	tl->trials++;
	tl->runs += (double)s->runs;
	tl->builds += (double)s->builds;
	tl->search_runs += (double)s->search_runs;
	tl->batches += (double)s->batches;
	tl->confirm_runs += (double)s->confirm_runs;
	tl->refutes += (double)s->refutes;
	tl->bound += s->bound;
	tl->budget += (double)s->budget;
	tl->sev_ranges += s->sev_named > 0;
	tl->sev_next_ranges += s->sev_next > 0;
	tl->sev_named += s->sev_named;
	tl->sev_next += s->sev_next;
	tl->sev_false_change += s->sev_false_change;
	tl->sev_false_equiv += s->sev_false_equiv;
	tl->sev_false_open += s->sev_false_open;
	if (r == R_CULPRIT) {
		if (nsteps == 0)
			tl->false_culprit++;
		else if (culprit[0] == t->k1 || culprit[0] == t->k2)
			tl->right++;
	} else if (r == R_SEVERAL) {
		tl->several++;
		if (nsteps == 2 && culprit[0] == t->k1 && culprit[1] == t->k2)
			tl->both++;
	} else if (r == R_NONE) {
		tl->none++;
	} else {
		tl->undecided++;
		tl->lead_right += (size_t)s->lead_right;
		tl->lead_p += s->lead_p;
	}
}

static void
tally_print(const struct tally *tl, size_t n, double step, int nsteps,
    enum noise_model noise, int bursty, const char *name, int budget)
{
	double k = (double)tl->trials;

	printf("%5zu %-9s %-3s %-12s %-8s %6.1f%% %6.1f%% %6.1f%% "
	       "%6.1f%% %6.1f%% %8.1f %6.2f %6.1f%%\n",
	    n,
	    cli_noise ? "cli-lcg"
		      : (bursty ? "bursty" : noise_model_name[noise]),
	    nsteps == 0 ? "-"
			: (step > 0.05 ? "big" : (step > 0.03 ? "4%" : "2%")),
	    nsteps == 0 ? "none" : (nsteps == 1 ? "one" : "two"), name,
	    100.0 * (double)(nsteps ? tl->right : tl->false_culprit) / k,
	    100.0 * (double)tl->several / k, 100.0 * (double)tl->none / k,
	    100.0 * (double)tl->undecided / k,
	    100.0 *
		(double)(tl->trials - tl->right - tl->several - tl->none -
		    tl->undecided - tl->false_culprit) /
		k,
	    tl->runs / k, tl->builds / k, 100.0 * (double)tl->both / k);
	if (detail && tl->batches > 0)
		printf("      where: search %.1f runs in %.1f batches "
		       "(%.1f a batch), confirmations %.1f runs, "
		       "%.3f refutes a range%s",
		    tl->search_runs / k, tl->batches / k,
		    tl->search_runs / tl->batches, tl->confirm_runs / k,
		    tl->refutes / k, budget_price ? "" : "\n");
	if (detail && tl->batches > 0 && budget_price)
		printf("; a build priced as a run in %.1f%% of "
		       "ranges\n",
		    100.0 * (double)tl->bound / k);
	if (pair_detail && tl->batches > 0 && nsteps == 1)
		printf("      several: named in %.2f%% of ranges (%zu, %.3f "
		       "times a range), the pair (k, k + 1) in %.2f%% (%zu "
		       "ranges, %zu times); the commit that is not the step "
		       "confirmed a change %zu times, equivalent %zu, "
		       "undecided %zu\n",
		    100.0 * (double)tl->sev_ranges / k, tl->sev_ranges,
		    (double)tl->sev_named / k,
		    100.0 * (double)tl->sev_next_ranges / k,
		    tl->sev_next_ranges, tl->sev_next, tl->sev_false_change,
		    tl->sev_false_equiv, tl->sev_false_open);
	if (budget)
		printf("      budget: %.1f runs a range on average; undecided "
		       "with the leading commit the first bad one %.1f%% "
		       "(not counted right), mean P of the lead when "
		       "undecided %.3f\n",
		    tl->budget / k, 100.0 * (double)tl->lead_right / k,
		    tl->undecided ? tl->lead_p / (double)tl->undecided : 0);
	fflush(stdout);
}

/*
 * job-half: on each range, from one noise stream's start, Pinpoint's
 * rule (pp-same: the `pinpoint` rows, range for range), job-new at the
 * command's defaults (job-dflt: confidence 0.95, MAX_RUNS), and job-new
 * with its runs held to at most half of Pinpoint's on that range (or
 * -B's fixed cap) at each confidence of -c, the budget split as the
 * command's --max-runs splits it.  A culprit counts only when the
 * method's own rule names it: at the budget's end the range is
 * undecided ("undecided within budget: most likely ..." in the command),
 * its leading commit counted apart.
 */
static void
cell_half(size_t n, double step, int nsteps, enum noise_model noise, int bursty,
    size_t trials, uint64_t seed)
{
	struct tally tp, td, th[MAX_CONFS];
	struct pr_rng rng;
	size_t i, c;
	char name[32];

	memset(&tp, 0, sizeof(tp));
	memset(&td, 0, sizeof(td));
	memset(th, 0, sizeof(th));
	pr_rng_seed(&rng, seed);
	for (i = 0; i < trials; i++) {
		struct truth t = { n, 0, 0, step, noise, bursty };
		struct pr_rng r0, r1;
		struct sim s;
		size_t culprit[2] = { 0, 0 }, budget;
		enum result r;

		draw_steps(&t, nsteps, &rng);
		r0 = rng;
		/* Pinpoint on the main stream, so that the next range is
		 * the `pinpoint` method's. */
		sim_init(&s, &t, &rng);
		r = m_pinpoint(&s, culprit);
		tally_add(&tp, &s, &t, r, culprit);
		budget = fixed_budget ? fixed_budget : s.runs / 2;
		sim_free(&s);

		if (!no_dflt) {
			r1 = r0;
			sim_init(&s, &t, &r1);
			culprit[0] = culprit[1] = 0;
			r = m_inter_new(&s, culprit);
			tally_add(&td, &s, &t, r, culprit);
			sim_free(&s);
		}

		for (c = 0; c < nconf; c++) {
			r1 = r0;
			sim_init(&s, &t, &r1);
			s.budget = budget;
			s.capped = 1;
			s.conf = half_conf[c];
			culprit[0] = culprit[1] = 0;
			r = m_inter_new(&s, culprit);
			tally_add(&th[c], &s, &t, r, culprit);
			sim_free(&s);
		}
	}
	tally_print(&tp, n, step, nsteps, noise, bursty, "pp-same", 0);
	if (!no_dflt)
		tally_print(&td, n, step, nsteps, noise, bursty, "job-dflt", 0);
	for (c = 0; c < nconf; c++) {
		snprintf(name, sizeof(name), "half@%g", half_conf[c]);
		tally_print(&th[c], n, step, nsteps, noise, bursty, name, 1);
	}
}

static void
cell(size_t n, double step, int nsteps, enum noise_model noise, int bursty,
    size_t trials, uint64_t seed)
{
	struct tally tl[NMETHODS];
	size_t m, i;

	memset(tl, 0, sizeof(tl));
	for (m = 0; m < JOB_HALF; m++) {
		struct pr_rng rng;

		if (!(method_mask & (1u << m)))
			continue;

		/* The same ranges and noise stream start for every method. */
		pr_rng_seed(&rng, seed);
		for (i = 0; i < trials; i++) {
			struct truth t = { n, 0, 0, step, noise, bursty };
			struct sim s;
			size_t culprit[2] = { 0, 0 };
			enum result r;

			draw_steps(&t, nsteps, &rng);
			sim_init(&s, &t, &rng);
			r = methods[m](&s, culprit);
			tally_add(&tl[m], &s, &t, r, culprit);
			sim_free(&s);
		}
	}
	for (m = 0; m < JOB_HALF; m++)
		if (method_mask & (1u << m))
			tally_print(&tl[m], n, step, nsteps, noise, bursty,
			    method_name[m], 0);
	if (method_mask & (1u << JOB_HALF))
		cell_half(n, step, nsteps, noise, bursty, trials, seed);
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
	int c, quick = 0, bursty_only = 0, noise_only = -1;

	while (
	    (c = getopt(argc, argv, "t:T:s:qn:bm:o:dS:L:B:c:k:pCR:DP")) != -1) {
		switch (c) {
		case 'B': {
			/* job-half's cap: "half" (half of Pinpoint's runs on
			 * each range) or a whole number of runs, at least 6
			 * (the command's least --max-runs). */
			char *end;

			if (strcmp(optarg, "half") == 0) {
				fixed_budget = 0;
				break;
			}
			fixed_budget = strtoul(optarg, &end, 10);
			if (*optarg == '\0' || *optarg == '-' || *end != '\0' ||
			    fixed_budget < 6) {
				fprintf(stderr,
				    "bisect-sim: -B %s: the cap must be "
				    "\"half\" or a whole number of runs, at "
				    "least 6\n",
				    optarg);
				return 2;
			}
			break;
		}
		case 'c': {
			/* job-half's confidences, comma-separated, each in
			 * (0.5, 1) as the command's --confidence / 100. */
			char *p = optarg, *end;

			nconf = 0;
			for (;;) {
				double v = strtod(p, &end);

				if (end == p || !(v > 0.5 && v < 1) ||
				    nconf == MAX_CONFS ||
				    (*end != ',' && *end != '\0')) {
					fprintf(stderr,
					    "bisect-sim: -c %s: at most %d "
					    "confidences, comma-separated, "
					    "each above 0.5 and below 1\n",
					    optarg, MAX_CONFS);
					return 2;
				}
				half_conf[nconf++] = v;
				if (*end == '\0')
					break;
				p = end + 1;
			}
			break;
		}
		case 'L': {
			/* Pinpoint's ladder starts at 10 attempts: a cap
			 * below would make its rule answer "no change" with
			 * no run (review of s13, finding 12). */
			char *end;

			pp_cap = strtoul(optarg, &end, 10);
			if (*optarg == '\0' || *optarg == '-' || *end != '\0' ||
			    pp_cap < 10) {
				fprintf(stderr,
				    "bisect-sim: -L %s: the ladder's cap must "
				    "be a whole number of attempts, at least "
				    "10\n",
				    optarg);
				return 2;
			}
			break;
		}
		case 'S':
			big_step = strtod(optarg, NULL);
			break;
		case 'k': {
			char *end;

			fixed_k = strtoul(optarg, &end, 10);
			if (*optarg == '\0' || *optarg == '-' || *end != '\0' ||
			    fixed_k == 0) {
				fprintf(stderr,
				    "bisect-sim: -k %s: the first bad commit "
				    "must be a whole number, at least 1\n",
				    optarg);
				return 2;
			}
			break;
		}
		case 'p':
			pair_detail = 1;
			break;
		case 'C':
			cmd_prior = 1;
			break;
		case 'D':
			no_dflt = 1;
			break;
		case 'P':
			budget_price = 0;
			break;
		case 'R':
			build_runs = strtod(optarg, NULL);
			if (!(build_runs > 0)) {
				fprintf(stderr,
				    "bisect-sim: -R %s: the build's cost must "
				    "be a number of runs above 0\n",
				    optarg);
				return 2;
			}
			break;
		case 'd':
			detail = 1;
			break;
		case 'o':
			noise_only = (int)strtol(optarg, NULL, 10);
			break;
		case 'b':
			bursty_only = 1;
			break;
		case 'm':
			method_mask = (unsigned)strtoul(optarg, NULL, 0);
			break;
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
		case 'n': {
			char *end;

			only = strtoul(optarg, &end, 10);
			if (*optarg == '\0' || *optarg == '-' || *end != '\0' ||
			    only < 2 || only > 100000) {
				fprintf(stderr,
				    "bisect-sim: -n %s: the range must be a "
				    "whole number of commits, 2 .. 100000\n",
				    optarg);
				return 2;
			}
			break;
		}
		default:
			fprintf(stderr,
			    "usage: bisect-sim [-t TRIALS] [-T TRIALS_1024] "
			    "[-s SEED] [-q] [-n N] [-b] [-m MASK] [-o "
			    "NOISE] [-d] [-S STEP] [-L CAP] [-B half|RUNS] "
			    "[-c CONF,...] [-k K] [-p] [-C] [-R COST] [-D] "
			    "[-P]\n");
			return 2;
		}
	}
	if (noise_only == 6) {
		/* The test program's noise, as one more model. */
		cli_noise = 1;
		noise_only = 0;
	}
	if (fixed_k != 0 && (only == 0 || fixed_k > only)) {
		fprintf(stderr, "bisect-sim: -k %zu: needs -n N with K <= N\n",
		    fixed_k);
		return 2;
	}
	printf("    N noise     step range        method   right/FP several "
	       "  none  undec  wrong     runs builds   both\n");
	/* A size of -n other than 16, 128 and 1024 comes fourth, with
	 * seeds of its own, so that theirs stay as they were. */
	for (si = 0; si < (quick ? 2u : 4u); si++) {
		size_t n = si < 3 ? sizes[si] : only,
		       tr = n >= 1024 ? trials_big : trials;

		if (si == 3 &&
		    (only == 0 || only == 16 || only == 128 || only == 1024))
			break;
		if (only != 0 && n != only)
			continue;

		for (ni = 0; ni < 5; ni++) {
			/* The fifth: normal 2% with bursts of load. */
			enum noise_model nm =
			    ni < 4 ? noises[ni] : NOISE_NORMAL2;
			int bu = ni == 4;

			if ((bursty_only && !bu) ||
			    (noise_only >= 0 && (int)ni != noise_only))
				continue;
			if (big_step > 0) {
				cell(n, big_step, 1, nm, bu, tr,
				    seed + 100 * si + 40 + ni);
				continue;
			}
			cell(n, 0.02, 1, nm, bu, tr, seed + 100 * si + ni);
			cell(n, 0.04, 1, nm, bu, tr, seed + 100 * si + 10 + ni);
			cell(n, 0, 0, nm, bu, tr, seed + 100 * si + 20 + ni);
		}
		if (big_step == 0 && (noise_only < 0 || noise_only == 5))
			cell(n, 0.04, 2, NOISE_NORMAL2, bursty_only, tr,
			    seed + 100 * si + 30);
	}
	return 0;
}
