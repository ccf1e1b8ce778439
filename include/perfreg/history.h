/*
 * perfreg/history.h - one point per stored session of a campaign: the
 * series that `perfreg history` gives the change-point detector
 * (perfreg/changepoint.h), and that `run --campaign` and `suite` look at
 * after they store a session.
 *
 * A point is a session's mean of one metric of one variant over its
 * counted, successful runs (warm-up and failed runs left out), with the
 * squared standard error of that mean as the point's own variance (0
 * with fewer than two runs or no spread): the session is the unit, as
 * `suite` treats it.  Points come in the order of the sessions' start;
 * ordering by a tag or a commit is the caller's (it knows the
 * repository).
 *
 * The metric, when the query names none, is the first figure of the
 * benchmark's own output that the variant's first counted run holds
 * (not one the runner measures itself: wall_s, user_s, sys_s,
 * maxrss_kib, ctxsw_vol, ctxsw_invol), else wall_s.
 *
 * Ownership: everything in struct pr_history is its own, released with
 * pr_history_release.  The library never prints.
 */
#ifndef PERFREG_HISTORY_H
#define PERFREG_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/better.h"
#include "perfreg/error.h"
#include "perfreg/store.h"

struct pr_history_query {
	struct pr_str campaign;
	const char *variant; /* NULL: the campaign's first variant */
	const char *metric;  /* NULL: the default described above */
	const char *host;    /* NULL: every host */
	double since;        /* < 0: every session; else started >= since */
	const char *tag;     /* NULL: none; else each point's key is the
				session's value of this tag (NULL when it
				has none) */
	/* NULL: the query lists the campaign's sessions and variants
	 * itself; else the caller's lists of them (pr_store_sessions and
	 * pr_store_variants of the same campaign, borrowed), so that many
	 * queries of one campaign list them once. */
	const struct pr_store_session_info *sessions;
	size_t nsessions;
	const struct pr_store_variant_info *variants;
	size_t nvariants;
};

/* A query of every session of campaign: no variant, metric, host,
 * time or tag chosen. */
void pr_history_query_init(struct pr_history_query *q, struct pr_str campaign);

struct pr_history_point {
	int64_t session;
	double started; /* seconds since the epoch */
	size_t n;       /* the runs counted */
	double mean;
	double var; /* squared standard error of the mean */
	char *key;  /* the tag's value, NULL without a tag or value */
};

struct pr_history {
	struct pr_history_point *points; /* in order of start */
	size_t n;
	char *variant; /* the variant chosen (NUL-terminated; it
				may hold NULs: variant_len is its length) */
	size_t variant_len;
	char *metric;          /* the metric chosen; NULL when none found */
	enum pr_better better; /* its direction (of the first value seen) */
	size_t matched;        /* sessions that ran the variant on the host
				and in the time asked */
	size_t skipped;        /* of those, with no counted run of metric */
};

/*
 * The points of the query.  Errors: PR_ENOTFOUND for an unknown
 * campaign, a campaign without sessions or a variant it does not have
 * (the message names it); a query that matches sessions none of which
 * has the metric is not an error (h->metric NULL, h->n 0); PR_ENOMEM;
 * the store's errors.  On failure *h is zeroed.
 */
enum pr_status pr_history_collect(struct pr_store *st,
    const struct pr_history_query *q, struct pr_history *h,
    struct pr_error *err);

/*
 * The histories of k >= 1 metrics of the query's variant in one walk of
 * the store (q->metric is not used): out[i] is that of names[i], as
 * pr_history_collect would give it (out[i].metric NULL when no session
 * has the metric).  Errors as pr_history_collect's, and PR_EINVAL for
 * k 0; on failure every out[i] is zeroed.
 */
enum pr_status pr_history_collect_many(struct pr_store *st,
    const struct pr_history_query *q, const char *const *names, size_t k,
    struct pr_history *out, struct pr_error *err);

/* Frees what *h holds and zeroes it; a zeroed history is a no-op. */
void pr_history_release(struct pr_history *h);

#endif
