/*
 * perfreg/primary.h - which metrics of a comparison are its primary
 * metrics, the figures a user measured and reads first, which are side
 * metrics, and which cannot be tested at all; and the correction of each
 * family for the number of its metrics.
 *
 * The primary metrics of a run, a campaign or a comparison are, in this
 * order of precedence:
 * 1. the metrics the user named (`--primary NAME...`);
 * 2. else the metrics a parser marked as the benchmark's own result
 *    (PR_METRIC_RESULT of perfreg/dataset.h: openssl speed's throughput
 *    per algorithm and block size, iperf3's receiver bitrate, hyperfine's
 *    time, the elapsed time of time and perf stat, dd's rate, Go's time
 *    per operation, a --metric or --derive figure) whose direction is
 *    known; but where the run's own wall time (wall_s) was measured,
 *    time's and perf stat's "elapsed" (in s) is not one: it is the same
 *    quantity, seen by the tool at 0.01 s (time) where perfreg's clock
 *    gives nanoseconds, so wall_s (rule 3) is primary instead and elapsed
 *    a side metric (a dd rate beside it stays primary);
 * 3. else the wall time of the run (wall_s), when there is one;
 * 4. else every metric whose direction is known (the columns of a CSV
 *    file, numbers compared as they are), and when none is known, every
 *    metric.
 * Every other metric is a side metric: rusage, the other parsed figures
 * (the same quantity as a result, like openssl's ops_per_s next to its
 * table, or user next to user_s, is never primary twice by default), a
 * figure whose direction is assumed (csh's `cpu` %, which is never a
 * headline regression or improvement unless the user names it).
 *
 * A metric whose values are all the same number on both sides (a
 * constant 0, such as time's avgtext or swaps) is not tested: there is
 * nothing a test could find, and "inconclusive, more runs are needed"
 * would be wrong.  It is said once, in neither family.
 *
 * Families: the primary metrics are one family, corrected with Holm's
 * step-down method (family-wise error at alpha); the side metrics are
 * another, corrected with Benjamini-Hochberg (false discovery rate at
 * alpha: many correlated side figures, read as clues, not verdicts).
 * Metrics not tested, and comparisons without a test (one value a
 * side), count in neither.
 *
 * Nothing here allocates beyond scratch memory, prints or keeps state;
 * the functions are reentrant.
 */
#ifndef PERFREG_PRIMARY_H
#define PERFREG_PRIMARY_H

#include <stddef.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/verdict.h"

enum pr_role {
	PR_ROLE_PRIMARY = 0, /* headline, Holm family */
	PR_ROLE_SIDE,        /* after the primaries, BH family */
	PR_ROLE_NOT_TESTED   /* constant on both sides: said once */
};

/*
 * Sets role[i] for every metric d->metrics[i] (d is one side, usually
 * the base) to PR_ROLE_PRIMARY or PR_ROLE_SIDE by the rules above; names
 * (n of them, may be NULL with n 0) are the user's --primary.  A name
 * that is not a metric of d is PR_ENOTFOUND ("--primary: no metric
 * 'x'"), role unchanged.  Metrics without values are side metrics.
 */
enum pr_status pr_primary_roles(const struct pr_dataset *d,
    const char *const *names, size_t n, enum pr_role *role,
    struct pr_error *err);

/*
 * pr_primary_roles for data stored with the primary metrics they were
 * run with (`run --campaign --primary`, perfreg/store.h): the user's
 * names (names, n: as pr_primary_roles, each must be a metric of d) come
 * first; without them, the stored names (stored, nstored) that are
 * metrics of d with values; when there are none of those either, the
 * rules above.  A stored name that d lacks (a session's --primary named
 * a metric its runs never gave) is left out, not an error.
 */
enum pr_status pr_primary_roles_stored(const struct pr_dataset *d,
    const char *const *names, size_t n, const char *const *stored,
    size_t nstored, enum pr_role *role, struct pr_error *err);

/* Whether every value of both sides (described by a and b, as in
 * struct pr_comparison) is the same number: such a metric is not
 * tested.  0 when a side has no value. */
int pr_primary_constant(const struct pr_summary *a, const struct pr_summary *b);

/*
 * Corrects the comparisons c[0..n) in their families: Holm over the
 * tested comparisons of role PR_ROLE_PRIMARY, Benjamini-Hochberg over
 * those of role PR_ROLE_SIDE, and decides their verdicts again with the
 * adjusted p-values (pr_compare_holm; for BH, p_adjusted, holm_m (the
 * family size) and PR_NOTE_BH are set).  A comparison of role
 * PR_ROLE_NOT_TESTED is left as it is.  *primary_m and *side_m (either
 * may be NULL) get the sizes of the families.  o as for
 * pr_compare_holm.  Without scratch memory, Bonferroni (never below
 * either) is used.
 */
void pr_primary_correct(struct pr_comparison *c, const enum pr_role *role,
    size_t n, const struct pr_verdict_opts *o, size_t *primary_m,
    size_t *side_m);

/* "primary", "side", "not tested" (static). */
const char *pr_role_str(enum pr_role r);

#endif /* PERFREG_PRIMARY_H */
