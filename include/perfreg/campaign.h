/*
 * perfreg/campaign.h - comparing two variants of a campaign measured on
 * several hosts: runs nested in boots, boots nested in hosts, the host
 * as the unit of the verdict across hosts.
 *
 * Hosts differ from each other far more than boots of one host do (a
 * different CPU, memory, kernel build), and every host ran both
 * variants, so pooling their boots as if they were boots of one machine
 * puts the host-to-host spread into the noise and hides a change that
 * every host shows (an -84.5% change on 3 hosts came out inconclusive).
 * The host is instead a block, as a round is in perfreg/paired.h:
 *
 * - Per host: pr_nested_compare on that host's runs and boots (the boot
 *   as the unit when the host has two boots a side, else its runs).
 * - Across hosts: each host common to both sides gives one log-ratio
 *   d_h = log(M_new,h / M_base,h) of its two means of boot means, and
 *   the change is the one-sample t test on the d_h with H - 1 degrees
 *   of freedom (pr_paired_logs: the geometric mean ratio, its interval
 *   and p).  The verdict follows perfreg/verdict.h (pr_verdict_decide)
 *   with method PR_METHOD_STUDENT and holm_m 1.  With fewer than two
 *   common hosts, a mean <= 0, or log-ratios that are all equal, it is
 *   untested (inconclusive, PR_NOTE_UNTESTED).
 * - Whether the hosts agree: the test of the host-by-variant
 *   interaction in the two-way layout host x variant, on the log values
 *   of the units (each boot's mean, or each run when no cell has a
 *   second boot).  With n_hv units in cell (h, v), cell means y_hv,
 *   e_h = y_h,new - y_h,base and w_h = 1 / (1 / n_h,base + 1 / n_h,new),
 *     Q  = sum_h w_h (e_h - e_w)^2,  e_w = sum_h w_h e_h / sum_h w_h,
 *     s2 = sum of squares within cells / (N - 2H),
 *     F  = Q / ((H - 1) s2) ~ F(H - 1, N - 2H),
 *   which is the F test of the additive model (host + variant) against
 *   the full one (host * variant), unbalanced cells included.  It needs
 *   H >= 2, N - 2H >= 1 and s2 > 0 (s2 = 0 and Q = 0: p = 1).
 *
 * The summary counts the hosts by verdict and says whether they are
 * consistent: `consistent` is 0 only when the agreement test rejects at
 * 1 - conf; `agreeing` counts the hosts whose verdict is the one across
 * hosts.
 *
 * Thread-safety: reentrant, no global state.  Ownership: the sides are
 * only read; out->host is allocated and released by
 * pr_campaign_hosts_release.
 */
#ifndef PERFREG_CAMPAIGN_H
#define PERFREG_CAMPAIGN_H

#include <stddef.h>

#include "perfreg/buf.h"
#include "perfreg/error.h"
#include "perfreg/nested.h"
#include "perfreg/paired.h"
#include "perfreg/verdict.h"

/*
 * One variant's values: x[i] was measured in boot boot[i] on host
 * host[i] (host < nhosts, an index the caller gives both sides alike).
 * The values are ordered by boot as in struct pr_nested_side, and every
 * boot is on one host.
 */
struct pr_campaign_side {
	const double *x;
	const size_t *boot;
	const size_t *host;
	size_t n;
};

struct pr_campaign_host {
	size_t host;   /* the caller's index */
	size_t nb, nn; /* runs on each side */
	struct pr_nested_result r;
};

struct pr_campaign_result {
	/* Hosts with runs on both sides, in increasing index order. */
	struct pr_campaign_host *host;
	size_t nhosts;
	/* Hosts with runs on one side only (not compared). */
	size_t nhosts_one_side;
	/* Across hosts, the host as the unit (see above). */
	struct pr_paired paired; /* valid when nhosts >= 2 */
	struct pr_comparison across;
	/* The agreement test (have_f: it could be made). */
	int have_f;
	int f_on_runs; /* the units were runs, no cell had two boots */
	double f, df1, df2, f_p;
	/* Hosts by per-host verdict, indexed by enum pr_verdict. */
	size_t nverdict[4];
	size_t agreeing;
	int consistent;
};

/*
 * Compares new_ with base host by host and across hosts, as above.
 * better, o and boot_cost as for pr_nested_compare.  Errors: PR_EINVAL
 * for a NULL or empty side, a value that is not finite, a host index >=
 * nhosts, boots that decrease, or options pr_compare refuses; PR_ENOMEM;
 * the errors of pr_nested_compare.  On failure *out is released and
 * zeroed.  Scratch memory O(n + nhosts), freed before returning.
 */
enum pr_status pr_campaign_hosts(const struct pr_campaign_side *base,
    const struct pr_campaign_side *new_, size_t nhosts, enum pr_better better,
    const struct pr_verdict_opts *o, double boot_cost,
    struct pr_campaign_result *out, struct pr_error *err);

/* Frees out->host and zeroes *out; NULL is a no-op. */
void pr_campaign_hosts_release(struct pr_campaign_result *out);

/*
 * One line that sums the hosts up into b, without a newline:
 * "consistent on 3 of 3 hosts: regression on 3", or "differs between
 * hosts: regression on 2, inconclusive on 1 (F = 41.2, p = 0.0004)".
 */
enum pr_status pr_campaign_hosts_summary(const struct pr_campaign_result *r,
    struct pr_buf *b, struct pr_error *err);

#endif /* PERFREG_CAMPAIGN_H */
