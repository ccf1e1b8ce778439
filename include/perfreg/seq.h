/*
 * perfreg/seq.h - the sequential test behind `perfreg run
 * --until-decided`: after every round of interleaved runs it says
 * whether the change of a variant against the baseline is known
 * (regression, improvement, equivalent) or more rounds are needed, and
 * its error rate holds whenever the caller stops.
 *
 * Data: one log-ratio d_i = log(new_i / base_i) a round (the two runs of
 * round i, side by side, so that slow drift of the machine cancels).
 * Model: d_i independent N(mu, sigma^2), mu and sigma unknown.
 *
 * Method: a confidence sequence for mu from the scale-invariant
 * Bayes-factor t test (Lai, "On confidence sequences", Ann. Stat. 4,
 * 1976; Rouder, Speckman, Sun, Morey and Iverson, "Bayesian t tests
 * for accepting and rejecting the null hypothesis", Psychon. Bull. Rev.
 * 16, 2009, with a normal prior on the effect size as in Gönen,
 * Johnson, Lu and Westfall, Am. Stat. 59, 2005).  For a hypothetical
 * mean mu0 let t_n(mu0) = sqrt(n) (mean - mu0) / s, s the sample
 * standard deviation, nu = n - 1.  With the effect size delta =
 * (mu - mu0) / sigma given the prior N(0, g), g = prior_scale^2, the
 * Bayes factor of "mu != mu0" against "mu = mu0" is the ratio of the
 * densities of t under both, which is exact and closed-form:
 *
 *   BF_n(mu0) = f_nu(t / sqrt(a)) / (sqrt(a) f_nu(t)),  a = 1 + n g,
 *
 * f_nu the density of Student's t on nu degrees of freedom.  Because
 * t is the maximal invariant of the scale group, BF_n(mu0) is, under
 * mu = mu0 and whatever sigma, a non-negative martingale with mean 1
 * (a mixture of likelihood ratios of the invariant; Pérez-Ortiz,
 * Lardy, de Heide and Grünwald, "E-statistics, group invariance and
 * anytime-valid testing", Ann. Stat. 52, 2024), so Ville's inequality
 * gives P(BF_n(mu) >= 1/alpha for some n) <= alpha.  The set
 *
 *   C_n = { mu0 : BF_n(mu0) < 1/alpha } = mean -+ c_n s / sqrt(n)
 *
 * (BF grows with |t|, so C_n is an interval; c_n in closed form, see
 * pr_seq_t_bound) therefore holds the true mu at every n at once with
 * probability at least 1 - alpha: an anytime-valid confidence sequence.
 * Each decision below is "C_n excludes something", so the chance that
 * ANY decision taken at ANY round is wrong is at most alpha, however
 * the caller chooses when to stop.
 *
 * Decisions, with C_n in percent, 100 (exp(C_n) - 1):
 * - PR_SEQ_EQUIVALENT: C_n lies inside [-equivalence_pct,
 *   +equivalence_pct] (takes precedence, as in perfreg/verdict.h: a
 *   change known to be negligible is reported as equivalent);
 * - PR_SEQ_REGRESSION / PR_SEQ_IMPROVEMENT: C_n excludes 0% and the
 *   change goes in the worse / better direction of the metric
 *   (PR_BETTER_UNKNOWN is treated as lower-is-better);
 * - PR_SEQ_INCONCLUSIVE: none of these after max_runs rounds;
 * - PR_SEQ_CONTINUE: none of these yet: run another round.
 * A false "regression" or "improvement" when nothing changed, or a false
 * "equivalent" when the change is outside the band, happens with
 * probability at most alpha over the whole session (measured by
 * bench/seq-sim: see bench/README.md).  The Bayes factor can never
 * reach 1/alpha before (1 + n g)^((n - 1)/2) >= 1/alpha, so no decision
 * is taken on a handful of rounds (7 with the defaults).
 *
 * Zero spread and timer quantisation: equal log-ratios (seed 003's
 * times all read 7.02) give s = 0.  s is never taken below the floor
 * max(sd_floor, PR_SEQ_SD_MIN): sd_floor is the caller's resolution
 * floor for a log-ratio (for a timer of resolution h and values near
 * b and n, sqrt(h^2/12 (1/b^2 + 1/n^2)), as in perfreg/paired.h), and
 * PR_SEQ_SD_MIN, one part per million, is the floor when the caller
 * knows none.  Raising s only lowers |t|, so the floor keeps the error
 * guarantee (it makes the test conservative); `quantised` says when it
 * was used.  Nothing is ever divided by zero and no result is NaN.
 *
 * The robust alternative, PR_SEQ_METHOD_SIGN, for noise that is far
 * from normal (a bimodal machine, outliers): a confidence sequence for
 * the median log-ratio from the sequential sign test.  Under a true
 * shift theta, the two runs of a round are exchangeable once the shift
 * is removed, so d_i - theta is as likely positive as negative whatever
 * the noise; the Krichevsky-Trofimov mixture over the chance p of a
 * positive sign, 2^m B(k + 1/2, m - k + 1/2) / B(1/2, 1/2) after k
 * positive among m non-zero d_i - theta0 (ties dropped), is then a test
 * martingale under theta0 = theta (Krichevsky and Trofimov, IEEE
 * Trans. Inf. Theory 27, 1981; as an e-process, Waudby-Smith and
 * Ramdas, "Estimating means of bounded random variables by betting",
 * JRSS B 86, 2024).  Its acceptance set is an interval between two order
 * statistics of the d_i (closed, so ties only widen it); the decisions
 * are taken from it exactly as above, with the same guarantee, for any
 * noise symmetric within a round.  The estimate is the median
 * log-ratio.  It keeps the log-ratios (8 bytes a round, sorted on
 * insertion: O(n) a round), so pr_seq_release must be called.
 * bench/seq-sim: under the bimodal model it finds +1% in 97% of
 * sessions where the t test finds 39%, and +3% in 19 rounds instead of
 * 36; under normal noise it needs up to 1.6 times the rounds of the t
 * test.  pr_seq_query costs O(n) with it (lgamma at the order
 * statistics outside the interval).
 *
 * Ownership: with PR_SEQ_METHOD_T a struct pr_seq holds no memory; with
 * PR_SEQ_METHOD_SIGN it owns an array, freed by pr_seq_release (safe to
 * call in both cases, and twice).
 * Thread-safety: reentrant; one struct pr_seq must not be updated from
 * two threads at once.  Cost: O(1) time and memory a round (T).
 */
#ifndef PERFREG_SEQ_H
#define PERFREG_SEQ_H

#include <stddef.h>

#include "perfreg/error.h"
#include "perfreg/verdict.h"

/* The floor on the standard deviation of a log-ratio when the caller
 * knows no resolution: one part per million. */
#define PR_SEQ_SD_MIN 1e-6
/* The default prior scale of the effect size (tuned by bench/seq-sim
 * for power; any value > 0 keeps the error guarantee). */
#define PR_SEQ_PRIOR_SCALE 0.5
/* Most rounds a state takes (keeps n g and the arithmetic exact). */
#define PR_SEQ_RUNS_MAX 100000000

/* Most rounds of the sign method (its memory: 8 bytes a round). */
#define PR_SEQ_SIGN_RUNS_MAX 10000000

enum pr_seq_method {
	PR_SEQ_METHOD_T = 0, /* Bayes-factor t test on the mean */
	PR_SEQ_METHOD_SIGN   /* sign test on the median */
};

enum pr_seq_decision {
	PR_SEQ_CONTINUE = 0, /* no decision yet: run another round */
	PR_SEQ_REGRESSION,   /* changed in the worse direction */
	PR_SEQ_IMPROVEMENT,  /* changed in the better direction */
	PR_SEQ_EQUIVALENT,   /* the change lies inside the band */
	PR_SEQ_INCONCLUSIVE  /* max_runs rounds and no decision */
};

struct pr_seq_opts {
	double alpha;              /* error rate, in (0, 1); default 0.05 */
	double equivalence_pct;    /* band, >= 0 (0: never equivalent); 1 */
	enum pr_better better;     /* direction of the metric; lower */
	size_t max_runs;           /* rounds, >= 1; default 200 */
	double prior_scale;        /* > 0, PR_SEQ_PRIOR_SCALE (T only) */
	double sd_floor;           /* >= 0 (log units); 0 (T only) */
	enum pr_seq_method method; /* PR_SEQ_METHOD_T */
};

/* The state: the count, mean and sum of squared deviations of the
 * log-ratios so far (Welford's update), and for the sign method the
 * log-ratios themselves.  Read through pr_seq_query. */
struct pr_seq {
	struct pr_seq_opts o;
	size_t n;
	double mean, m2;
	double *sorted; /* the sign method's log-ratios, ascending */
	size_t cap;
};

struct pr_seq_result {
	enum pr_seq_decision decision;
	size_t n;          /* rounds so far */
	double mean_log;   /* mean log-ratio (0 when n is 0); SIGN:
			      * the median */
	double change_pct; /* 100 (exp(mean_log) - 1) */
	double sd_log;     /* s used (after the floor); 0 for n < 2
			      * and for SIGN */
	int quantised;     /* the floor raised s (T only) */
	/* The confidence sequence at this round.  bounded is 0 when it is
	 * still the whole line (n < 2, or the Bayes factor cannot reach
	 * 1/alpha yet): then lo_log = -HUGE_VAL, hi_log = +HUGE_VAL,
	 * lo_pct = -100 and hi_pct = +HUGE_VAL. */
	int bounded;
	double lo_log, hi_log;
	double lo_pct, hi_pct;
	double t_bound; /* c_n; +HUGE_VAL when not bounded and for
			      * SIGN */
	double t;       /* t_n(0) (0 for n < 2, and for SIGN) */
	double log_bf;  /* log BF_n(0), the evidence of a change
			      * (SIGN: the sign test's at 0) */
};

/* alpha 0.05, equivalence 1%, lower is better, 200 rounds, prior
 * PR_SEQ_PRIOR_SCALE, no resolution floor. */
void pr_seq_opts_init(struct pr_seq_opts *o);

/*
 * Starts a sequence with the options o (copied).  PR_EINVAL, naming the
 * option, when one is outside its domain (the sign method takes at most
 * PR_SEQ_SIGN_RUNS_MAX rounds).  Allocates nothing; a state that holds
 * memory must be released first.
 */
enum pr_status pr_seq_init(struct pr_seq *s, const struct pr_seq_opts *o,
    struct pr_error *err);

/*
 * Adds the next round's log-ratio d (finite; PR_EINVAL otherwise, and
 * PR_ELIMIT past PR_SEQ_RUNS_MAX rounds; the sign method: PR_ENOMEM).
 * The state is unchanged on failure.
 */
enum pr_status pr_seq_update(struct pr_seq *s, double d, struct pr_error *err);

/* Frees what the sign method holds; s can then be initialised again. */
void pr_seq_release(struct pr_seq *s);

/* The same from the round's two values, both finite and > 0. */
enum pr_status pr_seq_update_pair(struct pr_seq *s, double base, double new_,
    struct pr_error *err);

/* The decision, estimate and confidence sequence after the rounds so
 * far.  Never fails; nothing in r is NaN. */
void pr_seq_query(const struct pr_seq *s, struct pr_seq_result *r);

/*
 * The same decision from a summary of n rounds: the mean and the sample
 * standard deviation of their log-ratios, e.g. the mean_log and sd_log
 * of a struct pr_paired (perfreg/paired.h; its sd_log already carries
 * the resolution floor, and 0 for zero spread is floored here).  The
 * result equals pr_seq_query's after the same rounds.  PR_EINVAL for
 * bad options or a non-finite or negative summary, and for the sign
 * method, which needs the log-ratios themselves.
 */
enum pr_status pr_seq_decide(const struct pr_seq_opts *o, size_t n,
    double mean_log, double sd_log, struct pr_seq_result *r,
    struct pr_error *err);

/*
 * log BF_n for the statistic t after n >= 2 rounds with prior variance
 * g > 0 of the effect size (the formula above, computed without
 * overflow for any finite t and n).  0 for n < 2.
 */
double pr_seq_log_bf(size_t n, double t, double g);

/*
 * c_n: the |t| at which log BF_n reaches log(1/alpha); +HUGE_VAL when it
 * cannot reach it at this n.  n >= 2, g > 0, alpha in (0, 1).
 */
double pr_seq_t_bound(size_t n, double g, double alpha);

/*
 * log of the sign test's mixture 2^m B(k + 1/2, m - k + 1/2) / B(1/2, 1/2)
 * for k positive signs among m (k <= m; 0 for m = 0).
 */
double pr_seq_sign_log_bf(size_t k, size_t m);

/* "continue", "regression", ... */
const char *pr_seq_decision_str(enum pr_seq_decision d);

#endif /* PERFREG_SEQ_H */
