/*
 * perfreg/bisect_job.h - a whole bisection in a git repository, the
 * library behind `perfreg bisect`: the range of commits, their work
 * trees and builds, the interleaved runs of the benchmark, the search of
 * perfreg/bisect.h, and the confirmation of its culprit.
 *
 * The suspects are the first-parent commits after `good` up to `bad`
 * (`git rev-list --first-parent good..bad`); good must be an ancestor of
 * bad on bad's first-parent line.  Position 0 is good, n is bad.  A
 * commit is checked out, when it is first needed, into a work tree of
 * its own (`git worktree add --detach`) under the caller's directory
 * `workdir`, never the user's work tree (which may be dirty); the build
 * command runs there once (`/bin/sh -c`, with its own timeout; its output
 * is kept); a build that fails or times out makes the commit skipped.
 * pr_bisect_job_cleanup removes every work tree it made.
 *
 * Measuring: each step of the search (pr_bisect_next: a commit and a
 * number of runs) is one session of the runner (perfreg/runner.h: its
 * accounting, timeouts and parsers) whose variants are the commit and
 * the two ends of the current bracket (the nearest measured commits on
 * either side of the most probable change), run in rounds shuffled by
 * the seed, so that drift falls on all of them alike; every successful
 * run's value of the metric goes to the search.  The search stops when
 * it decides (`confidence`), when nothing is left to learn, or at the
 * budget (max_runs runs in all, max_time_s seconds).  A culprit is then
 * confirmed against its parent by the anytime-valid sequential test of
 * `perfreg run --until-decided` (perfreg/seq.h), in interleaved rounds,
 * at most 100 rounds at a time and within half of what is left of the
 * budget; its runs count for the search too.  A confirmation still
 * undecided after its 100 rounds goes back to the search (which has its
 * runs now), and when that names the same commit again, its sequence
 * continues where it stopped (every pair kept: anytime-valid).  A
 * confirmation that finds its commit equal to its parent sends the
 * search back too, up to PR_BISECT_JOB_REFUTED_MAX times (j->refuted,
 * pr_bisect_job_again): the search, which has the
 * confirmation's paired runs, then names where the change is (the search
 * stopping at 95% on a neighbour of the first bad commit was the fixed
 * round effects' only miss in bench/bisect-sim), or the same commit,
 * whose stored sequence says "equivalent" again without a run.
 * "Several changes" is confirmed the same way once the search has
 * located both changes (perfreg/bisect.h), each against its parent, the
 * larger step first: both confirmed are both named (j->first, the
 * other in parent .. confirm_before); one confirmed makes it the culprit
 * (noise in bursts can show the search a second step that is not there).
 * The search's model pairs the values of each round (perfreg/bisect.h),
 * as the confirmation does, with a fixed effect per round
 * (PR_BISECT_JOB_FIXED_ROUNDS), and fits a second mode of the noise when
 * the data say so (PR_BISECT_JOB_MODES).  A confirmation that starts
 * while the search's fit has two modes uses the sequential sign test
 * (PR_SEQ_METHOD_SIGN: the median log-ratio of its rounds, valid for any
 * noise symmetric within a round), else the t test; the choice is made
 * before its first round and kept (pr_bisect_pairs.method).
 *
 * The search's prior on the size of a step (perfreg/bisect.h's step_sd)
 * is the change between the two ends as first measured (at least 5%):
 * the change being bisected, so that a large one is not taken for two
 * smaller ones; the library widens it to the ends' change as fitted
 * after each run when that is larger.
 *
 * The metric is `metric` when given, else the first primary metric of
 * the good end's runs (perfreg/primary.h: a parser's result, else
 * wall_s).  A successful run without it is an error (PR_ENOTFOUND); a
 * commit whose runs all fail (three failures, no success) is skipped,
 * except an end, which is an error.
 *
 * Resuming: values and skipped commits measured before (a stored
 * bisection) are given with pr_bisect_job_prior and
 * pr_bisect_job_prior_skip before pr_bisect_job_run; they count as if
 * measured now, so nothing is measured twice.
 *
 * The library never prints: progress and storing go through the hooks.
 * Ownership: the job owns its commits and strings; the hooks' pointers
 * are borrowed for the call.  Not thread-safe.
 */
#ifndef PERFREG_BISECT_JOB_H
#define PERFREG_BISECT_JOB_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "perfreg/bisect.h"
#include "perfreg/error.h"
#include "perfreg/parse.h"
#include "perfreg/runner.h"
#include "perfreg/seq.h"

struct pr_bisect_commit {
	char hash[41];
	char *subject;      /* the first line of its message (from outside) */
	char *dir;          /* its work tree, NULL until checked out */
	int built;          /* 0 not yet, 1 built, -1 skipped */
	char *skip_reason;  /* why it was skipped, one line, or NULL */
	char *build_output; /* the build's output (stdout then stderr) */
	double build_s;     /* the build's wall time */
	double *v;          /* the metric's values, in order */
	uint64_t *rd;       /* each value's round id for the search (0:
			     * none; see pr_bisect_job_prior) */
	size_t n, cap;
	size_t failed; /* failed runs */
	size_t prior;  /* of v, values given by pr_bisect_job_prior */
};

/* The confirmation's rounds of one parent and culprit: the pairs of
 * values in round order (base the parent's); a later confirmation of
 * the same two commits continues their sequence (anytime-valid: it may
 * stop and go on). */
struct pr_bisect_pairs {
	size_t parent, culprit;
	double *base, *new_;
	size_t n, cap;
	size_t now;        /* of n, pairs measured now */
	double resolution; /* the metric's grid (0: unknown) */
	/* The sequential test, chosen at the first round (never changed
	 * after: the choice comes before the data it judges, so the test
	 * stays anytime-valid): PR_SEQ_METHOD_SIGN when the search's fit
	 * had two modes of the noise then, else PR_SEQ_METHOD_T. */
	enum pr_seq_method method;
	/* Given back as the second confirmation of a "several changes":
	 * 1 + the index in j->pairs of the first (pr_bisect_job_prior_
	 * several); 0: not known to be one. */
	size_t with;
};

enum pr_bisect_verdict {
	PR_BISECT_V_NONE = 0,      /* not run, or interrupted */
	PR_BISECT_V_CULPRIT,       /* found and confirmed */
	PR_BISECT_V_NOT_CONFIRMED, /* found; the A/B says no change */
	PR_BISECT_V_NOT_REPRODUCED,
	PR_BISECT_V_SEVERAL,
	PR_BISECT_V_UNDECIDED /* budget, or nothing left to learn */
};

struct pr_bisect_job;

/* One confirmation of a culprit against its parent (positions). */
struct pr_bisect_confirmation {
	enum pr_bisect_verdict verdict;
	size_t parent, culprit;
	struct pr_seq_result result;
	size_t runs;               /* its rounds */
	size_t before;             /* of them, given back by a resume */
	enum pr_seq_method method; /* its test (pr_bisect_pairs.method) */
};

struct pr_bisect_job_opts {
	const char *repo; /* a directory inside the repository */
	const char *good, *bad;
	const char *build;      /* shell command, or NULL */
	double build_timeout_s; /* 0: none */
	char *const *bench;     /* the benchmark's words, NULL-terminated */
	const char *metric;     /* NULL: the first primary metric */
	const struct pr_parser *parser; /* NULL: no parsing */
	size_t max_runs;      /* runs in all, search and confirmation */
	double max_time_s;    /* 0: no limit */
	double run_timeout_s; /* 0: none */
	double confidence;    /* in (0.5, 1) */
	double equiv_pct;     /* "not reproduced" band, > 0 */
	uint64_t seed;
	const char *workdir; /* an existing directory the job may fill */
	/* 1: one step for `git bisect run` (pr_bisect_job_step): bad is
	 * the commit under test, good any ancestor of it; no range. */
	int step_only;
	volatile sig_atomic_t *cancel;
	/* After every run (warm-ups and failures included) of commit pos;
	 * a non-zero return stops the job with PR_EIO and the message the
	 * hook wrote to err. */
	int (*on_run)(void *arg, const struct pr_bisect_job *j, size_t pos,
	    const struct pr_session *s, const struct pr_run *r,
	    struct pr_error *err);
	/* After every build (or checkout without --build), skipped or not. */
	int (*on_build)(void *arg, const struct pr_bisect_job *j, size_t pos,
	    struct pr_error *err);
	void *arg;
	/* Read around each run into its pr_run.monitors, as the runner
	 * does (perfreg/runner.h); borrowed; NULL: no monitors. */
	struct pr_monitor *monitor;
};

/* 2,000 runs, no time limit, 95%, 1%, 600 s build timeout, seed 1. */
void pr_bisect_job_opts_init(struct pr_bisect_job_opts *o);

struct pr_bisect_job {
	struct pr_bisect_job_opts o; /* as given (strings borrowed) */
	char *toplevel;              /* the repository's top directory */
	struct pr_bisect_commit *c;  /* n + 1 positions */
	size_t n;
	char *metric;      /* the metric bisected (owned) */
	int metric_better; /* enum pr_better of the metric */
	struct pr_bisect *search;
	struct pr_bisect_state st; /* the last state */
	int have_state;
	double *single, *multi;  /* the last posterior, n + 1 each */
	size_t runs, runs_prior; /* values measured in all, given before */
	size_t runs_failed;
	size_t builds; /* builds (checkouts) made now */
	size_t rounds; /* shuffled rounds run now */
	size_t seq;    /* runs started now (a counter for hooks) */
	double elapsed_s;
	double run_cost_s, build_cost_s; /* measured */
	double step_sd; /* the prior scale of a step (log units) */
	enum pr_bisect_verdict verdict;
	int interrupted;
	int budget_hit; /* the search or confirmation stopped at the budget */
	/* The measured costs of a build and a run (the search's unit),
	 * and the runs in all when the budget first priced a build as a
	 * run (pr_bisect_job_build_price; 0: it did not). */
	double price_build, price_run;
	size_t bound_at;
	size_t refuted; /* confirmations that found their commit equal to
			 * its parent and sent the search back, over
			 * every session (pr_bisect_job_prior_refuted) */
	/* The confirmation: parent and culprit positions, the decision. */
	int confirmed_tried;
	size_t parent, culprit;
	struct pr_seq_result confirm;
	size_t confirm_runs;
	size_t confirm_before; /* of confirm_runs, rounds given back */
	enum pr_seq_method confirm_method; /* its test */
	/* Several changes confirmed: the first of the two confirmations
	 * (culprit 0 otherwise); the other is in parent .. confirm_before. */
	struct pr_bisect_confirmation first;
	/* 1 while a confirmation (of culprit against parent) runs: a
	 * store can keep its rounds apart (pr_bisect_job_prior_pair). */
	int confirming;
	/* Every confirmation's pairs, one entry per (parent, culprit). */
	struct pr_bisect_pairs *pairs;
	size_t npairs;
};

/*
 * Checks the repository and the revisions and lists the range: *out is
 * the caller's (pr_bisect_job_free).  PR_EINVAL with one line for "not a
 * git repository", an unknown revision, good = bad, good not an ancestor
 * of bad on its first-parent line, an empty benchmark; PR_EIO when git
 * cannot run; PR_ENOMEM.
 */
enum pr_status pr_bisect_job_new(const struct pr_bisect_job_opts *o,
    struct pr_bisect_job **out, struct pr_error *err);

/* The position of the commit whose hash starts with hash (at least 7
 * hex digits), or (size_t)-1. */
size_t pr_bisect_job_find(const struct pr_bisect_job *j, const char *hash);

/*
 * A value measured before (see Resuming), in round `round`: an id the
 * caller makes unique for each stored round of interleaved runs, below
 * PR_BISECT_JOB_LIVE_ROUNDS (0: none); values of one round are paired in
 * the search's model (perfreg/bisect.h).  PR_EINVAL for a bad pos or a
 * value that is not finite and > 0.
 */
enum pr_status pr_bisect_job_prior(struct pr_bisect_job *j, size_t pos,
    double value, uint64_t round, struct pr_error *err);

/*
 * The search's round model (pr_bisect_opts.fixed_rounds): 1, a fixed
 * effect per round.  The random effect of estimated variance takes fewer
 * runs when the rounds do not differ, but under a slow drift its variance
 * estimate falls to 0 (the levels of the commits measured late take the
 * drift up, since each batch of rounds measures other commits), and the
 * search compares commits across batches unpaired: at a 2% step under a
 * drift of 4% per 500 runs it named the right commit in 39% of ranges of
 * 128 commits, the fixed effects in 96% (bench/README.md, "bisect").
 */
#define PR_BISECT_JOB_FIXED_ROUNDS 1

/*
 * The search's noise model (pr_bisect_opts.modes): 2, a second mode when
 * the data say so (perfreg/bisect.h).  Runs that fall in two modes (bench/
 * bisect-sim's bimodal noise: a fifth of them 10% slower) made the one
 * t scale read each run as 3.9% wide where each mode is 1% wide, and the
 * search then took 1053 runs a range of 128 commits at a 2% step (100
 * ranges, issue 15's eighth session); on
 * one-mode noise BIC keeps one mode and nothing changes (bench/README.md,
 * "Where the bimodal runs went, and a second mode of the noise").
 */
#define PR_BISECT_JOB_MODES 2

/*
 * The price of a build under the budget of runs (max_runs), in the unit
 * of run_cost, for a search in state st: `measured` (the builds' mean
 * time, pr_bisect_opts' build_cost) while the runs left cover a build's
 * price for each bit the search still has to learn (the posterior's
 * entropy, st->bits; perfreg/bisect.h), run_cost (a run's price, or
 * `measured` if less) when they do not: left * run_cost < measured *
 * st->bits.  Always `measured` while "no change" holds more than 1 -
 * confidence of the posterior (st->p_none): whether there is a change
 * at all is the ends' question, which no build answers.
 *
 * Why: max_runs counts runs, not builds.  The search trades a build for
 * runs at the build's price, and each bit it learns takes about one new
 * commit (a halving of the range); with runs to spare that keeps the
 * builds few (bench/bisect-sim at the default budget: 9.3 builds a
 * range of 128 commits at a build of 30 runs, 10.7 at a build of 1,
 * over log2(128) + 3).  When the runs left are fewer than the builds
 * still to come are priced at, the runs that trade would buy are not
 * there: every build avoided is paid in runs, the one thing the cap
 * counts, and the search ran out of them about four halvings short of a
 * commit (bench/README.md, "The build's price when the cap binds").
 */
double pr_bisect_job_build_price(const struct pr_bisect_state *st,
    double confidence, double measured, double run_cost, size_t left);

/* The round ids of the runs the job makes now start here (2^62). */
#define PR_BISECT_JOB_LIVE_ROUNDS ((uint64_t)1 << 62)
/* A round of an earlier confirmation of culprit against parent (both
 * positions): its two values, in round order; the next confirmation of
 * the two continues from them.  The values must also be given with
 * pr_bisect_job_prior (the search counts them).  PR_EINVAL for bad
 * positions or values. */
enum pr_status pr_bisect_job_prior_pair(struct pr_bisect_job *j, size_t parent,
    size_t culprit, double base, double new_, struct pr_error *err);

/*
 * The refuted count of a stored bisection (see Resuming): the largest
 * j->refuted its sessions were stored with.  The job keeps the larger of
 * this and the number of confirmations given back (pr_bisect_job_prior_pair)
 * whose pairs already decide "equivalent" (a kill between a refute and
 * the next stored session), so that a resume never refutes more than
 * PR_BISECT_JOB_REFUTED_MAX times in all.
 */
void pr_bisect_job_prior_refuted(struct pr_bisect_job *j, size_t refuted);

/*
 * The test of the confirmation of parent .. culprit given back (pr_bisect_
 * job_prior_pair): PR_SEQ_METHOD_SIGN when its session says so (the CLI
 * tags it bisect.method=sign); without this call, the t test.  Its
 * sequence continues with the same test.  PR_EINVAL for bad positions.
 */
enum pr_status pr_bisect_job_prior_method(struct pr_bisect_job *j,
    size_t parent, size_t culprit, enum pr_seq_method method,
    struct pr_error *err);

/*
 * The confirmation of parent .. culprit given back (pr_bisect_job_prior_
 * pair) was the second of a "several changes" whose first confirmation
 * was first_parent .. first_culprit (the CLI tags such a session
 * bisect.with).  Both equivalent were one refute, not two (see
 * pr_bisect_job_refuted_before).  PR_EINVAL for bad positions.
 */
enum pr_status pr_bisect_job_prior_several(struct pr_bisect_job *j,
    size_t parent, size_t culprit, size_t first_parent, size_t first_culprit,
    struct pr_error *err);

/*
 * The refutes of a resumed bisection that its sessions' count (pr_bisect_
 * job_prior_refuted) may miss, kept when larger: the confirmations given
 * back (none of their pairs measured now) whose pairs already decide
 * "equivalent" (killed after the refute, before the next session was
 * stored).  The two confirmations of one "several changes" (pr_bisect_
 * job_prior_several), both equivalent, count as one, as the refute they
 * were; a pair both refuted alone and, later, the second of a "several"
 * whose first was equivalent too counts once (the search replays that
 * refute when it names the pair again).  A first of a "several" that is
 * equivalent counts 1 even when its second was a change (no refute): a
 * resume then has fewer refutes left, not more.  pr_bisect_job_run calls
 * it once the ends are measured; public for its test.
 */
enum pr_status pr_bisect_job_refuted_before(struct pr_bisect_job *j,
    struct pr_error *err);

/* Confirmations that find their commit equal to its parent and send the
 * search back (pr_bisect_job_again), at most, over every session of a
 * bisection. */
#define PR_BISECT_JOB_REFUTED_MAX 3

/*
 * After a confirmation (j->verdict set): 1 when the search has another
 * look, else 0.  Another look when the confirmation stopped at its cap
 * of rounds with budget left (UNDECIDED without j->budget_hit), or found
 * its commit equal to its parent (NOT_CONFIRMED) while j->refuted <
 * PR_BISECT_JOB_REFUTED_MAX and at least 4 runs of the budget are left:
 * then it counts one more refute (j->refuted).  Never after the budget
 * or an interruption.
 */
int pr_bisect_job_again(struct pr_bisect_job *j);

/* A commit skipped before, with its reason (copied). */
enum pr_status pr_bisect_job_prior_skip(struct pr_bisect_job *j, size_t pos,
    const char *reason, struct pr_error *err);

/*
 * Runs the bisection (see above) and sets the verdict.  PR_OK when it
 * ran to a verdict, to the budget or was interrupted (j->interrupted);
 * errors: an end that cannot be built or measured, a run without the
 * metric (PR_ENOTFOUND, PR_EINVAL, naming the commit), git failing
 * (PR_EIO), a hook's error; what was measured stays in j and went
 * through the hooks.
 */
enum pr_status pr_bisect_job_run(struct pr_bisect_job *j, struct pr_error *err);

/*
 * One step of someone else's bisection (`git bisect run`): the commit
 * under test (position 1, o.bad) against o.good (0), both checked out and
 * built as above, in interleaved rounds decided by the same sequential
 * test as a confirmation, within max_runs.  Sets the verdict: CULPRIT (a
 * change: j->confirm.decision says which way), NOT_CONFIRMED
 * (equivalent), UNDECIDED (budget), NONE with c[1].built < 0 when the
 * commit under test does not build or its benchmark fails (skip).
 * Errors as pr_bisect_job_run; needs o.step_only.
 */
enum pr_status pr_bisect_job_step(struct pr_bisect_job *j,
    struct pr_error *err);

/* Removes the work trees the job made (`git worktree remove --force`,
 * then `git worktree prune`); safe to call twice. */
void pr_bisect_job_cleanup(struct pr_bisect_job *j);

/* Cleans up and frees j; NULL is a no-op. */
void pr_bisect_job_free(struct pr_bisect_job *j);

/* The job's (last) confirmation: verdict, parent, culprit, result,
 * rounds. */
struct pr_bisect_confirmation pr_bisect_job_confirmation(
    const struct pr_bisect_job *j);

/* "culprit", "not confirmed", "not reproduced", "several changes",
 * "undecided within budget", "interrupted" (static). */
const char *pr_bisect_verdict_str(enum pr_bisect_verdict v);

#endif /* PERFREG_BISECT_JOB_H */
