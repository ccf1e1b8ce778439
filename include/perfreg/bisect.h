/*
 * perfreg/bisect.h - the search of `perfreg bisect`: where in a range of
 * commits did the metric change, through the noise (issue 15).
 *
 * The range has n + 1 positions: 0 is the good revision, n the bad one,
 * 1 .. n - 1 the first-parent commits between them in order.  The search
 * keeps a posterior over these hypotheses:
 *
 *   H_none   nothing changed in the range (every commit has one level);
 *   H_k      commit k (1 <= k <= n) is the first bad one: commits before
 *            k share one level, k and after another;
 *   H_multi  more than one change: two steps, at any k1 < k2.
 *
 * "Not reproduced" is decided by H_none's posterior or, sooner, when the
 * two ends' levels are shown to differ by less than `equiv` (a Bayes
 * factor for "exactly no change" grows only like the square root of the
 * runs, far too slowly to wait for).
 *
 * Every sample ever added counts.  Each is taken on the log scale.  Within
 * a commit the noise is Student's t with nu degrees of freedom (4 by
 * default: heavy tails and outliers weigh little) around the commit's
 * level, with one scale for the whole range, estimated with the levels
 * by maximum likelihood (EM, the scale with n - (commits tested) degrees
 * of freedom).  Samples may come in rounds (pr_bisect_add_round: the runs
 * of several commits interleaved one after another): then each round of
 * two or more samples has an effect u_r of its own, so that a burst of
 * load that slows a whole round moves no level (the pairing of
 * interleaved runs, as the confirmation's paired test uses it).  The
 * effects are random, u_r ~ N(0, t), with t estimated: given the t
 * weights w and the levels, t solves the likelihood equation of the
 * rounds' weighted mean residuals z_r ~ N(0, t + s^2 / W_r) (W_r the
 * round's sum of weights), each u_r is z_r shrunk by t / (t + s^2 /
 * W_r), and the scale has n - T - sum_r h_r degrees of freedom, h_r =
 * W_r t / (W_r t + s^2).  When the rounds do not differ t = 0 and the
 * fit is the unpaired one; when they differ much more than the noise it
 * tends to the paired fit of a fixed effect per round (n - T - R degrees
 * of freedom; fixed_rounds selects that fit, and `perfreg bisect` uses
 * it: under a slow drift t is estimated at 0, since each batch of rounds
 * measures other commits whose levels take the drift up, and the drift
 * between batches is then read as a change; perfreg/bisect_job.h).
 * Rounds are used only while n - T - R >= 1 (R such rounds).
 * The levels' summaries below stay independent with v_j from n_j: exact
 * for the differences of commits measured together in complete rounds
 * (each batch of the search), an approximation across batches.  Each tested commit is then summarised by its robust level
 * m_j and that level's variance v_j = s^2 (nu + 3) / ((nu + 1) n_j) (the
 * inverse Fisher information of a t location), a Gaussian (Laplace)
 * approximation of its likelihood.  Given those summaries the marginal
 * likelihood of a segmentation is exact Gaussian algebra: a flat prior on
 * the first segment's level and a normal prior N(0, tau^2) on each
 * step, tau = max(step_sd, |m_n - m_0|) (the change between the ends as
 * fitted now: with step_sd alone a change of many step_sd is likelier
 * split into two, a small part of it moved to a neighbour; step_fixed
 * keeps tau = step_sd), integrated by a Kalman filter along the
 * segments.  Hypotheses whose boundaries fall between the same two tested commits have the
 * same likelihood, so the cost is O(T^2) for T tested commits, whatever n.
 *
 * The next measurement is the (commit, runs) with the largest expected
 * information per unit of cost: the mutual information between the new
 * runs' mean and the side of the change that commit is on (good: before
 * the first bad commit, or nothing changed; bad: at or after it), the two
 * predictions being the levels of the two sides of the most probable
 * single change (every tested commit of a side counts), divided by the
 * cost: runs times run_cost, plus build_cost when the commit has not been
 * built yet.  Both costs are the caller's measurements.  The candidates
 * are the untested and the tested commit whose side is most uncertain
 * (the others can only carry less information at the same cost).  Runs at
 * a tested commit whose level is already known better than a side's go
 * to that side's bracket end instead: the comparison is then limited by
 * the side, not by the commit.  While H_multi holds `confidence` of the
 * mass, the sides are those of the most probable pair's change that is
 * not located yet (the candidates the commits between its two tested
 * neighbours, the prior uniform there), or, both located, the tested
 * neighbour of either known least well gets more runs.

 * A second mode of the noise (modes = 2; `perfreg bisect` uses it,
 * PR_BISECT_JOB_MODES of perfreg/bisect_job.h): runs that fall in two
 * modes (a slow path taken 20% of the time) make the one-scale t model
 * read each run as wide as the two modes apart.  With modes = 2 the noise
 * is also fitted as (1 - p) t(0, s) + p t(d, s) around each level (the
 * level is the first mode's, the one of the larger share), by EM from
 * two starts (d = +2 and -2 times the one-mode scale, the better
 * likelihood kept), and used when it lowers BIC: a log-likelihood larger
 * than the one-mode fit's by more than ln n (two more parameters, n
 * runs), with 2 runs or more in the second mode.  Its scale has n - T -
 * R - 1 degrees of freedom (one for d); each level's variance is then
 * the inverse of the mixture's Fisher information of a location (a
 * one-dimensional integral) over n_j.  Only without rounds or with fixed
 * round effects (fixed_rounds), and with n - T - R - 1 >= 10.  Not
 * modelled: a commit that changes the share of the second mode (its
 * level follows the first mode, so it reads as no change).
 *
 * Everything here is pure computation: no I/O, no clock, no randomness.
 * A struct pr_bisect is not thread-safe; distinct ones are independent.
 */
#ifndef PERFREG_BISECT_H
#define PERFREG_BISECT_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/error.h"

struct pr_bisect;

struct pr_bisect_opts {
	size_t n;           /* positions 0 .. n; n >= 1 */
	double confidence;  /* posterior mass that decides, e.g. 0.95 */
	double prior_none;  /* prior of H_none, in (0, 1) */
	double prior_multi; /* prior of H_multi, in [0, 1) (0 when n < 2) */
	double step_sd;     /* prior sd of a step, in log units (0.05: 5%) */
	double equiv;       /* "not reproduced" also when the ends differ by
			     * less than this, in log units (0.01), at
			     * `confidence` (one-sided); 0: only H_none */
	double nu;          /* t degrees of freedom, > 0 */
	double build_cost;  /* cost of building a commit, > 0 */
	double run_cost;    /* cost of one run, > 0 */
	unsigned min_runs;  /* runs of a commit in its first measurement */
	unsigned max_batch; /* most runs the search asks for at once */
	int fixed_rounds;   /* 1: a fixed effect per round (the paired fit;
			     * the command's); 0: a random one (the
			     * default of pr_bisect_opts_init) */
	unsigned modes;     /* 2: a second mode of the noise when the data
			     * say so (above; the command's); 1: one mode
			     * (the default) */
	int step_fixed;     /* 1: every step's prior sd is step_sd (the
			     * search before the ends' change widened it;
			     * bisect-sim's job-pre); 0: the default */
};

/* Fills o with the defaults for a range of n + 1 positions. */
void pr_bisect_opts_init(struct pr_bisect_opts *o, size_t n);

/*
 * Creates a search; *out is the caller's, released with pr_bisect_free.
 * PR_EINVAL for options outside their domain, PR_ENOMEM.
 */
enum pr_status pr_bisect_new(const struct pr_bisect_opts *o,
    struct pr_bisect **out, struct pr_error *err);
/* Releases b; NULL is a no-op. */
void pr_bisect_free(struct pr_bisect *b);

/*
 * Adds one measurement of commit pos.  value must be finite and > 0 (the
 * search works on its log).  PR_EINVAL for a bad pos or value or a
 * skipped commit, PR_ENOMEM.
 */
enum pr_status pr_bisect_add(struct pr_bisect *b, size_t pos, double value,
    struct pr_error *err);
/*
 * The same, for a sample taken in round `round` (the caller's id of a
 * round of interleaved runs, unique for the search; 0: no round, as
 * pr_bisect_add).
 */
enum pr_status pr_bisect_add_round(struct pr_bisect *b, size_t pos,
    double value, uint64_t round, struct pr_error *err);
/*
 * Marks commit pos as impossible to measure (its build failed): it is
 * never proposed again, and a change next to it can only be located to
 * the range of commits around it.  The ends cannot be skipped
 * (PR_EINVAL).
 */
enum pr_status pr_bisect_skip(struct pr_bisect *b, size_t pos,
    struct pr_error *err);

/*
 * Sets the costs of a build and of a run for the steps proposed from
 * now on (the caller's unit, each finite and > 0; PR_EINVAL otherwise):
 * a caller whose price of a build changes during the search (under a
 * budget of runs, perfreg/bisect_job.h's pr_bisect_job_build_price).
 */
enum pr_status pr_bisect_set_costs(struct pr_bisect *b, double build_cost,
    double run_cost, struct pr_error *err);

/* Runs of commit pos so far (0 for a bad pos). */
size_t pr_bisect_runs(const struct pr_bisect *b, size_t pos);
/* All runs added so far, and the number of distinct commits measured. */
size_t pr_bisect_total_runs(const struct pr_bisect *b);
size_t pr_bisect_commits_measured(const struct pr_bisect *b);

enum pr_bisect_outcome {
	PR_BISECT_MEASURING = 0, /* nothing holds `confidence` yet */
	PR_BISECT_CULPRIT,       /* one commit (or, next to skipped commits,
				  * one range) holds it */
	PR_BISECT_NONE,          /* not reproduced: H_none holds it, or the
				  * ends are equivalent */
	PR_BISECT_SEVERAL        /* H_multi holds it and its two changes
				  * are located (pair_lo, pair_hi) */
};

struct pr_bisect_state {
	enum pr_bisect_outcome outcome;
	/*
	 * The most probable location of a change: a first bad commit is in
	 * lo .. hi (lo == hi once it is known to one commit) with posterior
	 * probability p_loc, the single change of H_k or one of the two of
	 * H_multi (so that a culprit is named even while a second, smaller
	 * change elsewhere cannot be ruled out: p_multi says how likely that
	 * is).  CULPRIT when p_loc >= confidence and lo .. hi cannot be
	 * narrowed (one commit, or its other commits skipped).
	 */
	size_t lo, hi;
	double p_loc;
	double p_none;  /* posterior of H_none */
	double p_multi; /* posterior of H_multi */
	/*
	 * The most probable two locations under H_multi: first bad commits
	 * in pair_lo[i] .. pair_hi[i] (i = 0 the earlier; the same range
	 * twice when both changes are most likely between the same two
	 * tested commits), with joint posterior probability p_pair (0, 0
	 * and 0 when prior_multi is 0).  SEVERAL when p_pair >= confidence
	 * and the two ranges are distinct and cannot be narrowed: while
	 * H_multi holds the mass but its changes are not located yet the
	 * search goes on locating them (pr_bisect_next).
	 */
	size_t pair_lo[2], pair_hi[2];
	double p_pair;
	double scale;    /* the noise scale s, in log units (0: unknown) */
	double round_sd; /* the rounds' sd sqrt(t), in log units (0: the
			  * rounds do not differ, or no rounds, or fixed) */
	/* The noise's modes in the fit used: 1, or 2 with the second
	 * mode's share (< 0.5) and shift from the first, in log units
	 * (scale is then each mode's). */
	unsigned modes;
	double mode_share, mode_shift;
	/*
	 * The step at the most probable location: the difference of the
	 * levels of its two sides, in log units, and that difference's
	 * standard error (0, 0 when a side has no measurement).
	 */
	double step_log, step_se;
	/*
	 * The bad end's level minus the good end's, in log units, its
	 * standard error, and 1 when |ends_log| + z se < equiv (z the
	 * normal quantile of `confidence`): the ends are equivalent.
	 */
	double ends_log, ends_se;
	int ends_equivalent;
	/*
	 * The posterior's entropy in bits over no change, each first bad
	 * commit of one change (uniform within a gap between tested
	 * commits) and several changes (one outcome), and the same of the
	 * prior: what is left to learn, and what there was.
	 */
	double bits, prior_bits;
};

/*
 * The posterior and the decision so far.  PR_EUNDEF while either end has
 * no measurement; PR_ENOMEM.
 */
enum pr_status pr_bisect_state(struct pr_bisect *b, struct pr_bisect_state *st,
    struct pr_error *err);

/*
 * The posterior per commit: single[k] = P(H_k) for k in 1 .. n, and
 * multi[k] = P(H_multi and commit k is one of its two steps); index 0 is
 * set to 0.  Either array may be NULL; each has n + 1 entries.  Errors as
 * pr_bisect_state.
 */
enum pr_status pr_bisect_posterior(struct pr_bisect *b, double *single,
    double *multi, struct pr_error *err);

struct pr_bisect_step {
	size_t pos;       /* the commit to measure */
	unsigned runs;    /* how many runs */
	int build;        /* 1 when it has not been built yet */
	double info_bits; /* expected information of those runs, in bits */
	double cost;      /* their cost, in the caller's unit */
};

/*
 * The next measurement: the ends first (min_runs each), then the best
 * expected information per cost.  PR_EUNDEF when there is nothing left to
 * learn (every commit is measured or skipped and the runs add no
 * information); PR_ENOMEM.
 */
enum pr_status pr_bisect_next(struct pr_bisect *b, struct pr_bisect_step *step,
    struct pr_error *err);

#endif /* PERFREG_BISECT_H */
