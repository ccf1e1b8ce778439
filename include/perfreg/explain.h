/*
 * perfreg/explain.h - the explanation of a change (issue 13): which side
 * metrics (the monitors' figures, perfreg/monitor.h, or any other metric
 * that is not the primary one) changed between the two sides, and how
 * much of the primary metric's change each accounts for.
 *
 * Method.  Every side metric gets a change: the change of the means of
 * its runs (the runs are the replicates) relative to the base mean, with
 * Fieller's interval of their ratio (Welch's standard errors), and a
 * two-sided p from Welch's t (perfreg/ttest.h) on the logs of its values
 * when every value of both sides is above 0 and the logs vary
 * (log_test), else on the values (nonpositive says which reason):
 * counts and times are skewed, and one wild run, a multiple of the
 * others, takes over the variance of the values and hides a large
 * change (bench/README.md, the CPU contention case).  The false discovery
 * rate is controlled across all side metrics by Benjamini-Hochberg
 * (pr_bh, checked against R's p.adjust in tests/stats): a metric has
 * changed when its adjusted p is at most 1 - conf.  The changed ones
 * are ranked by co-movement with the primary metric *within* each side:
 * r is the pooled within-side correlation (each side centred on its own
 * means, the cross-products and squares pooled), and the share of the
 * primary change that a metric accounts for is
 *   share = b * (mean_new(x) - mean_base(x)) / (mean_new(y) - mean_base(y)),
 * with b = r * sd_y / sd_x the pooled within-side regression slope of
 * the primary y on the metric x: what the metric's own change predicts
 * of the primary's, from how the two move together run by run.  The
 * rank is by share (largest first), then by |r|.  A metric that changed
 * but does not move with the primary (r near 0) ranks last: it changed
 * beside the primary, not with it.  A metric with next to no spread
 * within the sides (no_spread) has no measurable share: those rank
 * after the ones with a share of at least PR_EXPLAIN_SHARE_MIN and
 * before the rest (a smaller share, or none), by the size of their own
 * change: a deterministic count that changed (a command's page faults)
 * may be the cause, and ranked after every metric with a share it fell
 * out of the text's top PR_EXPLAIN_TOP beside a dozen system-wide
 * figures that each account for a percent.  Under no change anywhere (A/A) BH
 * keeps the list empty in at least conf of the sessions
 * (bench/explain-sim).
 *
 * Work and efficiency: where the side metrics hold "instructions" and
 * "cycles" (mon.perf.*), the primary change is split into work
 * (instructions per run) and efficiency (cycles per instruction, from
 * the runs' ratios); otherwise `split` says which split cannot be made.
 *
 * Ownership: pr_explain_release frees what pr_explain_compute filled.
 * Thread-safe; the library never prints.
 */
#ifndef PERFREG_EXPLAIN_H
#define PERFREG_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/error.h"
#include "perfreg/report_model.h"

/* The runs of one side: the primary metric and each side metric, one
 * value a run (NaN where a run has no value of a metric). */
struct pr_explain_side {
	const double *primary;       /* n values */
	const double *const *metric; /* nmetrics arrays of n values */
	size_t n;
	/* Each run's wall time in seconds (n values), or NULL.  With it,
	 * the system-wide counters (pr_monitor_is_rate) are taken per
	 * second of their run: a machine's timer interrupts or other
	 * processes' context switches grow with any run's length, so that
	 * as counts they move with a slower run whatever slowed it, and
	 * would be ranked first for nothing. */
	const double *seconds;
};

struct pr_explain_input {
	const char *primary; /* its name, for the text ("elapsed") */
	size_t nmetrics;
	const char *const *names; /* nmetrics names */
	const char *const *units; /* nmetrics units (may be NULL) */
	struct pr_explain_side base, new_;
	double conf; /* 0.95 when 0 */
	/* What the replicates are, in words, for the report ("boots");
	 * NULL: "runs".  Not used by the computation. */
	const char *unit;
	/* The primary taken in logs, as the suite's verdict takes its
	 * figures (perfreg/moderated.h): primary_change is then the
	 * geometric change exp(mean log new - mean log base) - 1, and the
	 * co-movement, the slope and the shares are those of log y, so that
	 * a share is of the log change.  Every primary value must be above
	 * 0 (PR_EINVAL otherwise). */
	int log_primary;
	/* What is compared, in words, for the report ("a1b2c3d4e5f6
	 * against its parent 0f1e2d3c4b5a"): the text's heading says
	 * "explanation of LABEL", the JSON's "compared"; NULL: nothing.
	 * Not used by the computation. */
	const char *label;
};

struct pr_explain_item {
	size_t metric; /* index in the input */
	size_t nb, nn; /* runs with a value, each side */
	double base_mean, new_mean;
	double change, lo, hi; /* relative to base_mean; NaN when base_mean
				  is 0 */
	double p, p_adj;       /* Welch's p, BH-adjusted */
	/* p from the logs (every value above 0, the logs vary), else from
	 * the values; nonpositive: a value not above 0 is why (else the
	 * logs do not vary) */
	int log_test;
	int nonpositive;
	double r;       /* pooled within-side correlation */
	double share;   /* of the primary change; NaN if undefined */
	int changed;    /* p_adj <= 1 - conf */
	int per_second; /* taken per second of its run (seconds) */
	/* Next to no spread within the sides: the pooled within-side
	 * standard deviation is below 1% of the change (a deterministic
	 * count: a command's page faults), so that its co-movement with
	 * the primary, and its share, cannot be measured (share NaN). */
	int no_spread;
};

struct pr_explain {
	/* Every side metric that could be tested (two runs a side, not
	 * constant), the changed ones first in rank order, then the
	 * others by p. */
	struct pr_explain_item *items;
	size_t n, nchanged;
	double primary_change; /* relative, of the means (geometric with
				  log_primary) */
	/* Work and efficiency. */
	int has_split;
	double work_change, work_lo, work_hi; /* instructions, relative */
	double cpi_change, cpi_lo, cpi_hi;    /* cycles / instruction */
	int work_changed, cpi_changed;
	char split[256]; /* one sentence, either way */
};

void pr_explain_init(struct pr_explain *e);
void pr_explain_release(struct pr_explain *e);

/*
 * Fills e from in.  PR_EINVAL when a side has fewer than 2 runs of the
 * primary; PR_ENOMEM.  Metrics named "...instructions" and
 * "...cycles" make the split.
 */
enum pr_status pr_explain_compute(const struct pr_explain_input *in,
    struct pr_explain *e, struct pr_error *err);

/* The number of items shown in a text report; the rest go to --json. */
#define PR_EXPLAIN_TOP 10

/* The share of the primary change from which a metric ranks above the
 * ones with no spread (see the method above). */
#define PR_EXPLAIN_SHARE_MIN 0.1

/*
 * Adds the explanation e of in (pr_explain_compute's) to the report
 * model m as a section (key and flags as the model's adding functions
 * take them), with nnotes notes on the monitors (what is absent and
 * why; may be 0).  Text: a heading line with the primary's change, how
 * many side metrics changed and, when some are system-wide (every
 * monitor but mon.perf.*), that they include the machine's other
 * processes; the top PR_EXPLAIN_TOP changed ones, one a line
 * ("mon.perf.context_switches +412% [+380%, +447%] (2.5e+04 -> 1.3e+05),
 * r = 0.81 with wall_s, 64% of its change"), "N more in --json", the
 * work/efficiency sentence and the notes.  Markdown: the same as a
 * list.  JSON: an object with the primary, its change, the method, the
 * counts, every tested side metric with its figures (the changed ones
 * first), the split and the notes.  Every name is escaped for the
 * terminal (and for Markdown).  Everything is copied.  PR_ENOMEM.
 */
enum pr_status pr_report_explain(struct pr_report_model *m, const char *key,
    int flags, const struct pr_explain *e, const struct pr_explain_input *in,
    const char *const *notes, size_t nnotes, struct pr_error *err);

struct pr_store_variant_data;

/*
 * The explanation of a stored pair of variants (`perfreg compare
 * --campaign`, perfreg/store.h) added to m as pr_report_explain's
 * section: the primary metric `primary` against every other metric of
 * both sides but the nskip names in skip (the other primary metrics),
 * the unit the comparison's: each boot's mean when boots (aligned by
 * boot), else each run (a metric then only when it was stored with
 * every run the primary was).  Adds nothing (PR_OK) when the sides have
 * no monitor figure in common ("mon.*": stored by `run --campaign
 * --monitor`) or
 * fewer than 2 units a side.  label is pr_explain_input's (may be
 * NULL); notes[0..nnotes) are the monitors' notes, as pr_report_explain
 * takes them (`perfreg bisect`: its monitor's; NULL, 0 when the runs
 * were not monitored by this process).  PR_ENOMEM.
 */
enum pr_status pr_report_store_explain(struct pr_report_model *m,
    const char *key, int flags, const struct pr_store_variant_data *bd,
    const struct pr_store_variant_data *nd, int boots, const char *primary,
    const char *const *skip, size_t nskip, const char *label,
    const char *const *notes, size_t nnotes, struct pr_error *err);

struct pr_dataset;

/*
 * Copies into out (initialised by the caller) every metric of in but the
 * monitors' figures ("mon.*"), with its unit, direction, flags and
 * values in order: what `perfreg compare` on files tabulates, when the
 * inputs carry monitor figures, which the explanation ranks instead.
 * PR_ENOMEM.
 */
enum pr_status pr_explain_strip_monitors(const struct pr_dataset *in,
    struct pr_dataset *out, struct pr_error *err);

/* Whether base and new have a monitor figure ("mon.*") in common. */
int pr_explain_has_monitors(struct pr_dataset *base, struct pr_dataset *new_);

/* Whether base and new are both tables of runs: each has a metric
 * marked PR_METRIC_RUN_ROW (perfreg/dataset.h; a CSV with a `run`
 * column), so that their columns explain the first metric run by run
 * (pr_report_dataset_explain_parsed) and they must stay in input order. */
int pr_explain_runs_table(const struct pr_dataset *base,
    const struct pr_dataset *new_);

/*
 * The explanation of two inputs of `perfreg compare` (files whose runs
 * carry several metrics: a CSV with a row a run, perfreg JSON with a
 * value a run in each metric, exported runs of `run --monitor`) added to
 * m as pr_report_explain's section: the first metric of the comparison
 * r (its first primary metric) against every other metric of both sides
 * but r's other rows (the other primary metrics), the k-th value of each metric being the
 * k-th run's, so that a metric is taken only when it has as many values
 * as the primary on each side; the system-wide counters per second of
 * wall_s where the inputs have it, run for run.  The datasets must be
 * in input order (not sorted by a comparison: give the inputs, not the
 * compared copies).  Adds nothing (PR_OK) when the sides have no
 * monitor figure in common or fewer than 2 runs a side.  PR_ENOMEM.
 */
enum pr_status pr_report_dataset_explain(struct pr_report_model *m,
    const char *key, int flags, struct pr_dataset *base,
    struct pr_dataset *new_, const struct pr_report *r, struct pr_error *err);

/*
 * As pr_report_dataset_explain, for two benchmark outputs read by a
 * parser of perfreg/parse.h (pr_read_any's *used: `time`'s user and
 * system time, `perf stat`'s counters, dd's figures, each a value per
 * record, a record a run of the tool): the tool's secondary figures are
 * the side metrics, mon.* figures or not.  Adds nothing when there is no
 * metric beside the primary ones with as many values as the first.
 */
enum pr_status pr_report_dataset_explain_parsed(struct pr_report_model *m,
    const char *key, int flags, struct pr_dataset *base,
    struct pr_dataset *new_, const struct pr_report *r, struct pr_error *err);

struct pr_store;
struct pr_suite_result;
struct pr_suite_cmp;
struct pr_suite_figure;

/*
 * `perfreg suite --monitor` (src/report/explain_suite.c): for each
 * figure of the comparison c (pr_suite_compare's, of the figures fig)
 * that changed (pr_suite_changed), of a probe among r[0..nr) whose
 * samples had monitor figures (pr_suite_result.monitors), the
 * explanation of that figure by the monitors' figures of its probe
 * added to m as pr_report_explain's section (key and flags as
 * given: PR_SECTION_LIST for several), the unit the process: the
 * processes of the base sessions base[0..nb) against those of the new
 * ones new_[0..nn), read from st (each stored run of the probe's
 * variant a sample, its round its process), each process's value of the
 * figure by its probe's rule (r's probe's figure: its mean, or its best
 * sample, as the verdict takes it, pr_suite_unit_value) and its mean of
 * every monitor figure a value, the system-wide counters
 * per second of the samples (PR_MON_WALL).  Nothing for a figure with
 * fewer than 2 processes a side or no monitor figure.  Errors: the
 * store's, PR_ENOMEM.
 */
enum pr_status pr_report_suite_explain(struct pr_report_model *m,
    const char *key, int flags, struct pr_store *st, const int64_t *base,
    size_t nb, const int64_t *new_, size_t nn, const struct pr_suite_result *r,
    size_t nr, const struct pr_suite_cmp *c, const struct pr_suite_figure *fig,
    const char *const *notes, size_t nnotes, struct pr_error *err);

/*
 * The same for `perfreg suite ab --monitor`: process u of np gave A's
 * figures fa[u] (each one's samples, or its one value, by the rule the
 * verdict c took: pr_suite_ab_values) and monitor samples ma[u], B's
 * fb[u] and mb[u]; c compares B's processes with A's.
 */
enum pr_status pr_report_suite_ab_explain(struct pr_report_model *m,
    const char *key, int flags, struct pr_dataset *fa, struct pr_dataset *ma,
    struct pr_dataset *fb, struct pr_dataset *mb, size_t np,
    const struct pr_suite_cmp *c, const struct pr_suite_figure *fig,
    const char *const *notes, size_t nnotes, struct pr_error *err);

struct pr_history_query;
struct pr_history;
struct pr_cp_change;

/*
 * `perfreg history` (src/report/explain_history.c): the change c that
 * the detector found in the history h (pr_history_collect's, of query q)
 * whose points, as the series was detected, are the sessions ids[0..n)
 * in that order, explained by the variant's other metrics: the sessions
 * of the segment before c (c->seg_start .. c->index - 1) against those
 * of the segment after (c->index .. c->seg_end - 1), the session the
 * unit (each session's mean of every metric, as the history's points
 * are), the system-wide counters per second of the sessions' mean
 * wall_s; added to m as pr_report_explain's section, labelled "the N
 * sessions before AT against the M from it on" (at: the label of the
 * change's first point).  Adds nothing (PR_OK) when a side has fewer
 * than 2 sessions or the variant's runs hold no monitor figure ("mon.*",
 * stored by `run --campaign --monitor`).  Errors: the store's, PR_ENOMEM.
 */
enum pr_status pr_report_history_explain(struct pr_report_model *m,
    const char *key, int flags, struct pr_store *st,
    const struct pr_history_query *q, const struct pr_history *h,
    const int64_t *ids, size_t n, const struct pr_cp_change *c, const char *at,
    struct pr_error *err);

#endif /* PERFREG_EXPLAIN_H */
