/*
 * perfreg/moderated.h - the suite's decision: k_b sessions of a baseline
 * configuration against k_n sessions of a new one, for many figures at
 * once, with the between-session variance of each figure borrowed from
 * all of them (empirical Bayes).
 *
 * A suite session's samples share the session's state (load, clock,
 * caches, placement), so the session is the unit: each figure of each
 * session is one value, its session mean.  With 1 to 3 sessions a side a
 * figure's own spread has 0 to 4 degrees of freedom, far too few to test
 * 80 figures (issue 10: a -92% drop was missed with 2 and 3 earlier
 * sessions, an A/A pair failed the gate with 27 "regressions").  Many
 * figures measured a few times is the problem of gene expression arrays,
 * and this is its answer, the moderated t of G. K. Smyth, "Linear models
 * and empirical Bayes methods for assessing differential expression in
 * microarray experiments" (SAGMB 3, 2004), as limma computes it
 * (squeezeVar, fitFDist, eBayes; checked against limma 3.54 in
 * tests/stats/gen_moderated.R).
 *
 * The model, for figure j (all figures of one call):
 * - y = log(session mean) (so a change is a ratio, its interval is that
 *   of a ratio, and a change is never below -100%); session means must
 *   be positive (a figure with a value <= 0 is untested,
 *   PR_NOTE_NOT_POSITIVE).
 * - A scale w_j, the figure's within-session standard error of a log
 *   session mean: the root mean square of the base_se and new_se the
 *   caller gives (each the standard deviation of a session's samples
 *   over sqrt(their number) over their mean), at least PR_MODERATED_SE_MIN;
 *   1 for every figure when no figure has them.  The data are divided by
 *   w_j: z = y / w_j.  The between-session variance of a figure is then
 *   lambda_j w_j^2, and it is lambda_j, the ratio of the between-session
 *   to the within-session variance, that is shrunk across figures; it
 *   varies far less between figures than the variances themselves (on this
 *   project's VM the between-session standard deviation of log figures
 *   runs from 0.2% to 330%, the ratio's square root from 0.6 to 16).  This
 *   is limma on the scaled values (or lmFit with weights 1 / w_j^2 that
 *   are the same for every session of a figure).
 * - s_j^2: the pooled sample variance of z over both sides (the base
 *   sessions about their mean, the new ones about theirs) with
 *   d_j = (k_b - 1) + (k_n - 1) degrees of freedom.
 * - The prior (d0, s0^2): fitFDist on the s_j^2 with d_j > 0 (limma's
 *   method of moments on log s^2: trigamma inverse; d0 = +inf and
 *   s0^2 = mean s^2 when the spread of log s^2 is no more than sampling
 *   explains; s^2 floored at 1e-5 times their median, the median taken
 *   as 1 when it is 0), or the caller's prior from this host's history
 *   (opts.prior, pr_moderated_prior_fit), PR_NOTE_PRIOR.
 * - The posterior s~_j^2 = (d0 s0^2 + d_j s_j^2) / (d0 + d_j) (s0^2 when
 *   d0 is infinite), the moderated t = D_j / (w_j s~_j sqrt(1/k_b +
 *   1/k_n)), D_j the difference of the mean log values, new - base, with
 *   d0 + d_j degrees of freedom, at most the sum of the d_j when the prior
 *   was estimated (limma's df.pooled cap), and p = 2 P(T > |t|).
 * - The change 100 (exp(D_j) - 1) (the ratio of the geometric means of
 *   the session means) and its interval exp(D_j +- q w_j s~_j sqrt(1/k_b
 *   + 1/k_n)) - 1, q the t quantile at (1 + conf) / 2: inside (-100%,
 *   +inf), excluding 0% exactly when p < 1 - conf.
 * A figure with d_j = 0 (one session each side of it) takes s0^2 with d0
 * df, as in limma.  Method PR_METHOD_MODERATED.
 *
 * Two caps can make the test conservative where suite data are not
 * what limma assumes (opts.df_prior_max, opts.df_max; INFINITY gives
 * limma's figures exactly, which the fixture test checks); by default
 * only the second is finite.  The ratio of between-
 * to within-session variance is not one scaled inverse chi-square across
 * figures: on this VM it is near 1 to 25 for most figures and 200 to 400
 * for the system-call and page-fault figures, so a prior fitted to all of
 * them shrinks those few far too much (bench/suite-sim: 15% of A/A
 * histories with a false call at k = 2 with limma's d0, about 3 with it
 * capped at 1.5, before the test's df was capped and calls had to be
 * carried by the processes).  With both of those, limma's d0 keeps A/A
 * within the target (session 16: 0.95% at k = 2 simulated, real stores
 * as with the cap) and finds more (a 10% shift at k = 2: copy 70.6 ->
 * 86.3%, crypto 78.0 -> 91.8%), so PR_MODERATED_DF_PRIOR_MAX is now
 * INFINITY (opts.df_prior_max still takes a cap).  And a session's mean
 * is noisier when the session was (its within-session error varies by a
 * factor of 2 from session to session), which gives the new session's
 * deviation heavier tails than the t with the pooled df assumes (9% of
 * A/A histories at k = 10): the test's df is at most PR_MODERATED_DF_MAX
 * (3).  bench/README.md has the rates.
 *
 * Fewer than two figures with d_j > 0 (one figure alone, as `suite ab`
 * with one tested figure, or one session on each side for every figure)
 * and no prior: s0^2 cannot be estimated.  A figure with two or more
 * sessions on each side is then tested on its own, by Welch's t on its
 * log session means (B. L. Welch, Biometrika 34, 1947; perfreg/ttest.h):
 * D_j the difference of the mean logs, the Welch-Satterthwaite df (no
 * cap: the units are independent replicates, as the processes of `suite
 * ab` are), the interval exp(D_j +- q se) - 1 (method PR_METHOD_WELCH;
 * checked against scipy in tests/stats/gen_moderated_welch.py); when its
 * log values have no spread on either side it is untested.  A figure
 * with one session on a side (k_b = k_n = 1 for every figure: nothing to
 * estimate anything from): the between-session noise is unknown,
 * and the figures are decided against a documented bound instead
 * (method PR_METHOD_SESSION_BOUND, note PR_NOTE_ONE_SESSION on every
 * figure): the between-session standard deviation of a log session mean
 * is taken as PR_MODERATED_ONE_RATIO (opts.one_ratio) times w_j, the
 * largest ratio seen on this project's busy VM (16, bench/README.md)
 * with a margin, so z = D_j / (one_ratio w_j sqrt 2), p = 2 P(Z > |z|)
 * (normal), the interval exp(D_j +- z_q one_ratio w_j sqrt 2) - 1.  This
 * is a worst case, not an estimate: an A/A pair calls nothing unless a
 * figure's sessions differ by more than one_ratio times what its samples
 * suggest, while a figure measured to +-0.5% (the crypto probe) is called
 * for a change beyond about -30% / +40% (with BH over 83 figures).  A
 * figure without within-session standard errors cannot be bounded and is
 * untested (PR_NOTE_UNTESTED | PR_NOTE_ONE_SESSION).
 *
 * Multiple comparisons across the tested figures of the call: the
 * Benjamini-Hochberg step-up adjustment (opts.adjust PR_ADJUST_BH, the
 * default; PR_NOTE_BH) or Holm's step-down (PR_ADJUST_HOLM; PR_NOTE_HOLM).
 * With nothing changed both keep the chance of any call at or below
 * 1 - conf (BH controls the false discovery rate, which then equals the
 * family-wise rate); with one probe's figures shifted, BH's threshold for
 * the r-th smallest p is r alpha / m instead of Holm's alpha / (m - r + 1),
 * the power bench/suite-sim measures (bench/README.md).  holm_m holds the
 * size of the family for either adjustment.  The verdict is that of
 * perfreg/verdict.h (pr_verdict_decide) on the adjusted p and the
 * unadjusted interval: regression / improvement when p_adjusted < 1 - conf
 * and the interval excludes 0% (the direction from better), equivalent
 * when the interval lies inside +-equivalence_pct.
 *
 * Thread-safety: reentrant, no global state.  Ownership: inputs are only
 * read; outputs are caller arrays; nothing to free.  Deterministic.
 */
#ifndef PERFREG_MODERATED_H
#define PERFREG_MODERATED_H

#include <math.h>
#include <stddef.h>

#include "perfreg/error.h"
#include "perfreg/verdict.h"

/* The smallest scale w_j (0.1%): a figure whose samples all agree (a
 * quantised p50) must not make any change infinitely significant. */
#define PR_MODERATED_SE_MIN 1e-3
/* The caps on the prior's df and on the df of the test (see above). */
#define PR_MODERATED_DF_PRIOR_MAX INFINITY
#define PR_MODERATED_DF_MAX 3.0
/* One session each side: the bound on the ratio of the between-session
 * to the within-session standard deviation of a log session mean. */
#define PR_MODERATED_ONE_RATIO 20.0

/* One figure: its sessions on each side. */
struct pr_moderated_figure {
	const char *name;      /* for messages; NULL: "figure N" */
	enum pr_better better; /* direction of the verdict */
	const double *base;    /* k_b session means, finite */
	size_t kb;             /* >= 1 */
	const double *new_;    /* k_n session means, finite */
	size_t kn;             /* >= 1 */
	/* The within-session standard error of each session's log mean
	 * (sd / sqrt(n) / mean of its samples), kb and kn of them, finite
	 * and >= 0; both NULL when unknown. */
	const double *base_se, *new_se;
};

/* A prior for the scaled between-session variance (see above). */
struct pr_moderated_prior {
	double df;  /* d0 > 0, may be INFINITY */
	double var; /* s0^2 > 0 */
};

enum pr_adjust {
	PR_ADJUST_BH = 0, /* Benjamini-Hochberg (false discovery rate) */
	PR_ADJUST_HOLM    /* Holm (family-wise error rate) */
};

struct pr_moderated_opts {
	double conf;            /* 0.95 */
	double equivalence_pct; /* 1.0 */
	enum pr_adjust adjust;  /* PR_ADJUST_BH */
	/* This host's prior (pr_moderated_prior_fit on its other
	 * configurations); NULL: estimated from the figures. */
	const struct pr_moderated_prior *prior;
	double one_ratio; /* PR_MODERATED_ONE_RATIO; > 0 */
	/* Caps on d0 and on the test's df, > 0; INFINITY for limma's
	 * figures exactly. */
	double df_prior_max; /* PR_MODERATED_DF_PRIOR_MAX */
	double df_max;       /* PR_MODERATED_DF_MAX */
	/* Candidates (bench/suite-sim -T, bench/suite-replay -T; off by
	 * default, not the suite's rule): trend, the prior's scale a
	 * natural spline in log w_j (limma's squeezeVar with covariate
	 * log w_j, pr_moderated_squeeze_trend) when the prior is estimated;
	 * weighted, each session's log mean weighted by 1 / se^2 (limma's
	 * lmFit with weights w_j^2 / se_ij^2 on the scaled values, se_ij
	 * floored at PR_MODERATED_SE_MIN), so that a session's deviation
	 * has the variance s~_j^2 se_ij^2 of its own error. */
	int trend;
	int weighted;
};

/* Fills o with the defaults above. */
void pr_moderated_opts_init(struct pr_moderated_opts *o);

/* What the call did, for the report's method line and for tests. */
struct pr_moderated_fit {
	size_t figures;  /* m given */
	size_t tested;   /* in the family (the adjustment's m) */
	size_t fitted;   /* figures with d_j > 0 that gave the prior */
	double df_prior; /* d0 used (INFINITY possible); 0 for the bound */
	double df_prior_fitted; /* d0 before opts.df_prior_max */
	double var_prior;       /* s0^2 used; 0 for the bound */
	int prior_given;        /* opts.prior was used */
	int one_session;        /* the bound rule (method SESSION_BOUND) */
	size_t welch;           /* figures tested by Welch's t alone */
	int scaled;             /* the figures had within-session errors */
	int trend; /* the prior's scale followed log w_j (opts.trend);
		    * var_prior is then the geometric mean of the scales */
};

/* Per figure, the moderated figures themselves (limma's names). */
struct pr_moderated_stat {
	double scale;    /* w_j */
	double s2;       /* sample variance of the scaled log means */
	double df;       /* d_j, df.residual */
	double s2_post;  /* s2.post (0 for the bound rule) */
	double df_total; /* df.total (INFINITY for the bound rule) */
	double logfc;    /* D_j */
	double t;        /* moderated t (or z of the bound rule) */
	double p;        /* unadjusted two-sided p */
};

/*
 * Decides m figures together as above.  out[m] receives, per figure, a
 * comparison in pr_compare's form: base and new summarise the session
 * means (n = k_b, k_n), better as given, method PR_METHOD_MODERATED,
 * PR_METHOD_WELCH or PR_METHOD_SESSION_BOUND (PR_METHOD_NONE when
 * untested), tested,
 * have_change and change_pct, have_ci and the interval (in percent),
 * p_value, p_adjusted, holm_m (the family size), verdict, direction (the
 * sign of D_j), notes, conf, equivalence_pct; primary_t holds the test
 * in log units (diff D_j, se w_j s~_j sqrt(1/k_b + 1/k_n), t, df, p, the
 * interval of D_j as ci_lo, ci_hi, pooled_sd w_j s~_j; Welch's test
 * as perfreg/ttest.h fills it, pooled_sd 0); runs_needed,
 * rel_sd and every secondary figure 0.  stat (NULL or m entries) gets the
 * moderated figures, fit (NULL allowed) the summary.  Untested figures
 * (a value <= 0, one session each side without errors to bound it, or
 * Welch's test on log values without spread)
 * have verdict inconclusive, p 1 and holm_m 0 and stay out of the family
 * and of the prior.
 *
 * Errors (PR_EINVAL, naming the figure and the session): m = 0, a NULL
 * array, kb or kn 0, a value or a standard error that is not finite or
 * a negative standard error, base_se given without new_se or the other
 * way round, bad conf or equivalence_pct (as pr_verdict_opts_check),
 * one_ratio not > 0, a prior with df or var not > 0; PR_ENOMEM when
 * scratch memory (O(m)) cannot be had.  On failure out is zeroed.
 */
enum pr_status pr_moderated_compare(const struct pr_moderated_figure *f,
    size_t m, const struct pr_moderated_opts *o, struct pr_comparison *out,
    struct pr_moderated_stat *stat, struct pr_moderated_fit *fit,
    struct pr_error *err);

/*
 * A prior from this host's history: each of hist[0..n) is one figure's
 * sessions in one earlier configuration (base, kb >= 2 of them, with
 * base_se when the comparisons will have errors; new_ and kn are
 * ignored); their scaled sample variances (kb - 1 df each) go into
 * fitFDist.  A figure may appear once per configuration.  Errors as
 * pr_moderated_compare's, and PR_EINVAL when fewer than 2 entries have
 * kb >= 2 and positive values.  On failure *out is zeroed.
 */
enum pr_status pr_moderated_prior_fit(const struct pr_moderated_figure *hist,
    size_t n, struct pr_moderated_prior *out, struct pr_error *err);

/*
 * limma's squeezeVar (robust = FALSE, no covariate) on n variances with
 * df[i] >= 0 degrees of freedom each: the prior's df and variance into
 * *df_prior and *var_prior, the posterior variances into var_post[n]
 * (NULL allowed).  Entries with df 0 or a non-finite variance do not
 * enter the fit (their posterior is the prior).  PR_EINVAL when fewer
 * than 2 entries can enter it (limma returns the one variance with
 * df 0 there).  Exposed for the fixture test against limma.
 */
enum pr_status pr_moderated_squeeze(const double *var, const double *df,
    size_t n, double *df_prior, double *var_prior, double *var_post,
    struct pr_error *err);

/*
 * limma's squeezeVar(var, df, covariate = cov) (robust = FALSE): as
 * pr_moderated_squeeze, the prior's mean of e = log s^2 - psi(d / 2) +
 * log(d / 2) a natural cubic spline in cov with 1 + (n >= 3) + (n >= 6) +
 * (n >= 30) df (at most the distinct values of cov), n the entries that
 * enter the fit: limma's ns(cov, df, intercept = TRUE), knots at the
 * range and the quantiles (R's type 7) of cov; least squares; the
 * residual variance about the curve less the mean trigamma(d / 2) gives
 * d0 as before, and var_prior[i] = exp(curve(cov[i]) + psi(d0 / 2) -
 * log(d0 / 2)) (exp(curve) when d0 is infinite), one per entry (n of
 * them), var_post[i] with it.  cov must be finite.  Errors as
 * pr_moderated_squeeze's.
 */
enum pr_status pr_moderated_squeeze_trend(const double *var, const double *df,
    const double *cov, size_t n, double *df_prior, double *var_prior,
    double *var_post, struct pr_error *err);

/* limma's trigammaInverse: the y > 0 with psi'(y) = x, x > 0 (NaN
 * otherwise). */
double pr_trigamma_inv(double x);

#endif /* PERFREG_MODERATED_H */
