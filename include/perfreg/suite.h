/*
 * perfreg/suite.h - running the built-in probes (perfreg/probe.h) with
 * adaptive repetition: the library behind `perfreg suite`.
 *
 * pr_suite_run runs each probe in turn: init, then samples until every
 * metric's 95% confidence interval of the mean (Student t) is within
 * +-target_pct percent of the mean, after at least min_samples samples,
 * or until the probe's share of the time budget is spent (budget_s /
 * number of probes, measured from the probe's init), then fini.  A probe
 * that cannot run here (init fails with PR_ENOTFOUND or PR_EIO) is kept
 * in the results as skipped with the reason; the suite goes on.
 *
 * pr_suite_ab runs one probe's two variants (or two parameters) A and B
 * in one boot, interleaved: each round samples both, in an order
 * shuffled per round by a seeded xoshiro256** stream, so that drift of
 * the machine falls on both alike.  It runs exactly `rounds` rounds (or
 * fewer when the budget runs out) and never looks at the results on the
 * way, so that the comparison made afterwards keeps its error rate.
 *
 * Ownership: results own their datasets and strings; release with
 * pr_suite_results_free.  The probes' hooks are called from the calling
 * thread.  The library never prints: progress goes through on_sample.
 */
#ifndef PERFREG_SUITE_H
#define PERFREG_SUITE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/probe.h"

struct pr_suite_opts {
	int quick;          /* passed to the probes */
	int cpu;            /* -1: no pinning */
	double budget_s;    /* whole suite (pr_suite_run) or A/B run */
	double target_pct;  /* interval half-width goal, percent; 0:
			       * none (the budget or max_samples ends) */
	size_t min_samples; /* before convergence is checked */
	size_t max_samples; /* per probe (0: no limit) */
	size_t rounds;      /* pr_suite_ab: rounds to run */
	uint64_t seed;      /* pr_suite_ab: order of each round */
	volatile sig_atomic_t *cancel;
	/* Called after every sample (probe name, samples so far of that
	 * probe, seconds since the suite began). */
	void (*on_sample)(const char *probe, size_t k, double elapsed_s,
	    void *arg);
	void *arg;
};

/* quick 0, cpu -1, budget 480 s, target 1%, min 5, max 1000 samples,
 * 20 rounds, seed 1, no cancel flag, no hook. */
void pr_suite_opts_init(struct pr_suite_opts *o);

struct pr_suite_result {
	const struct pr_probe *probe;
	const char *label;      /* "A"/"B" in pr_suite_ab; else the name */
	struct pr_dataset data; /* one value per sample and metric */
	char *notes;            /* the probe's notes; "" when none */
	char *skipped;          /* NULL, or why the probe did not run */
	size_t samples;
	double elapsed_s;
	/* 1 when every metric reached the target, 0 when the budget or
	 * max_samples ended it. */
	int converged;
	int capped;       /* 1: max_samples ended it */
	double worst_pct; /* widest half-width seen last, percent */
};

/*
 * Runs the n probes as described above; *out gets n results (the
 * caller's).  Errors: PR_ENOMEM, PR_EINVAL "interrupted" when *cancel
 * was set (the results so far are still in *out, with *nout of them
 * complete), or a probe's sample failing (its message, prefixed with
 * the probe's name; results so far kept).
 */
enum pr_status pr_suite_run(const struct pr_probe *const *probes, size_t n,
    const struct pr_suite_opts *o, struct pr_suite_result **out, size_t *nout,
    struct pr_error *err);

/*
 * Runs probe p's variants or parameters a and b interleaved as
 * described above.  Each side is selected as opts.variant when it names
 * one of p->variants, else as opts.param ("16" and "16B" both select
 * the parameter "16B").  *out gets 2 results (A then B).  Errors as
 * pr_suite_run; PR_ENOTFOUND when a side selects nothing.
 */
enum pr_status pr_suite_ab(const struct pr_probe *p, const char *a,
    const char *b, const struct pr_suite_opts *o, struct pr_suite_result **out,
    struct pr_error *err);

void pr_suite_results_free(struct pr_suite_result *r, size_t n);

/*
 * The half-width of the 95% Student interval of the mean of the n
 * values, in percent of |mean|: +inf for fewer than 2 values or a zero
 * mean.  What decides convergence.
 */
double pr_suite_halfwidth_pct(const double *v, size_t n);

#endif /* PERFREG_SUITE_H */
