/*
 * perfreg/report_stat.h - the report of `perfreg stat`, ministat's report
 * with more.
 *
 * Given a few samples (one per input file), pr_stat_analyse describes each
 * one and compares every sample after the first with the first; the
 * writers then format that analysis into a buffer, as text or as JSON.
 * The library never prints: the caller writes the buffer.
 *
 * The text report has two parts.  The first is ministat's report, figure
 * for figure: the legend ("x FILE"), the ASCII plot, the summary table
 * (N, Min, Max, Median, Avg, Stddev in ministat's %13.8g columns) and,
 * after each line but the first, ministat's verdict of Student's t with a
 * pooled variance ("Difference at 95.0% confidence" and three lines of
 * figures, or "No difference proven at 95.0% confidence").  To print the
 * same figures as ministat, that verdict uses ministat's own table of
 * critical values (pr_stat_ministat_t), three decimals, whose "99.5%"
 * column holds the 99.8% values.  Deliberate differences: the median of an
 * even count is the mean of the middle pair (ministat takes the upper
 * one); one or two values per sample are accepted (ministat wants three),
 * and where no test is possible a line says why; a figure that is
 * undefined prints as "-" with a note, never as nan or inf; the plot
 * takes any number of samples (symbols beyond ministat's seven, see
 * pr_stat_symbol), keeps stacks taller than the last sample's, and scales
 * stacks taller than PR_STAT_PLOT_ROWS.
 *
 * The second part is perfreg's own: per comparison, the change in percent
 * with its interval at the exact confidence asked for, the verdict, the
 * method that produced them and its p-value (pr_compare in
 * perfreg/verdict.h, with Holm's correction when more than one sample is
 * compared with the first).  ministat's input says nothing of a
 * direction, so pr_compare is given PR_BETTER_UNKNOWN (lower taken as
 * better), and the report says so.
 *
 * Not thread-safe per analysis; separate analyses are independent.
 */
#ifndef PERFREG_REPORT_STAT_H
#define PERFREG_REPORT_STAT_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/buf.h"
#include "perfreg/describe.h"
#include "perfreg/error.h"
#include "perfreg/verdict.h"

/* ministat's confidence levels, in percent: 80 90 95 98 99 99.5. */
#define PR_STAT_NCONF 6
#define PR_STAT_CONF_DEFAULT 2 /* 95% */

#define PR_STAT_WIDTH_DEFAULT 74
#define PR_STAT_WIDTH_MIN 2
#define PR_STAT_WIDTH_MAX 1000

/*
 * The tallest stack of symbols the plot draws before it scales: above it
 * one symbol stands for k values, and a line under the plot says so.
 */
#define PR_STAT_PLOT_ROWS 40

/* The number of distinct plot symbols before they repeat. */
#define PR_STAT_NSYMBOLS 16

/*
 * The index (0 .. PR_STAT_NCONF - 1) of a confidence level given in
 * percent, or -1 when it is not one of ministat's levels.
 */
int pr_stat_conf_index(double pct);

/* The level, in percent, of an index from pr_stat_conf_index. */
double pr_stat_conf_pct(int conf_index);

/*
 * ministat's two-sided critical value of Student's t for df degrees of
 * freedom (df >= 1; above 100 the normal one) at the level conf_index.
 * These are the values ministat 20150715 (Debian) prints with, measured
 * from it by tests/report/gen_ministat_t.py; they are rounded to three
 * decimals, the "99.5%" column holds 99.8% values, and six of its entries
 * (df 7 .. 12) are one unit off in the third decimal.  perfreg's own
 * lines use exact quantiles instead (pr_t_quantile).  0 for df == 0.
 */
double pr_stat_ministat_t(size_t df, int conf_index);

/*
 * The plot and legend symbol of the i-th sample (0-based): ministat's
 * x + * % # @ O, then o = ~ & $ ^ X V Z, then the sixteen again.
 */
char pr_stat_symbol(size_t i);

/* One input: a name for the legend and its values, sorted ascending. */
struct pr_stat_input {
	const char *name; /* a path or "<stdin>"; borrowed */
	const double *v;  /* n finite values, ascending; borrowed */
	size_t n;         /* >= 1 */
};

struct pr_stat_opts {
	int conf_index;         /* ministat's -c, PR_STAT_CONF_DEFAULT */
	unsigned width;         /* ministat's -w: plot columns */
	int plot;               /* 0 with -A or -n */
	int separate_bars;      /* -s: one bar line per sample */
	int tests;              /* 0 with -n: describe only */
	int quiet;              /* -q: no legend, no table header */
	double equivalence_pct; /* perfreg's equivalence band, 1 */
	uint64_t seed;          /* bootstrap seed of pr_compare */
};

/* Fills o with ministat's defaults and perfreg's (see above). */
void pr_stat_opts_init(struct pr_stat_opts *o);

/* Why a comparison could not be tested. */
enum pr_stat_untested {
	PR_STAT_TESTED = 0,
	PR_STAT_ONE_BASE, /* one value in the first sample */
	PR_STAT_ONE_NEW,  /* one value in the compared sample */
	PR_STAT_ONE_BOTH, /* one value in each */
	PR_STAT_OVERFLOW  /* the spread overflows a double */
};

/*
 * ministat's figures for one comparison, new (sample i) minus base
 * (sample 0).  Only meaningful when `untested` is PR_STAT_TESTED; the
 * percentages only when `have_pct` (the base mean is not 0).
 */
struct pr_stat_ministat {
	enum pr_stat_untested untested;
	size_t df;         /* n_base + n_new - 2 */
	double t_crit;     /* from ministat's table */
	double diff;       /* mean(new) - mean(base) */
	double half_width; /* t_crit * standard error */
	double pooled_sd;
	int significant; /* |diff| > half_width: "Difference at" */
	int have_pct;
	double diff_pct, half_width_pct; /* the above * 100 / mean(base) */
};

/*
 * An analysis: the summaries of the n samples and, unless tests were
 * turned off, the ncmp = n - 1 comparisons with the first: ms[i - 1] and
 * cmp[i - 1] compare sample i with sample 0.  Owns its arrays; the inputs
 * stay the caller's and must outlive it.
 */
struct pr_stat {
	const struct pr_stat_input *in;
	size_t n;
	struct pr_summary *sum;      /* n summaries */
	size_t ncmp;                 /* 0 with -n or a single sample */
	struct pr_stat_ministat *ms; /* ncmp: ministat's figures */
	struct pr_comparison *cmp;   /* ncmp: perfreg's (pr_compare) */
	int holm;                    /* 1 when Holm's correction was applied */
	struct pr_stat_opts opts;
};

/*
 * Describes and compares the n >= 1 inputs.  Cost: O(total values) plus
 * what pr_compare costs (bounded for large samples; see verdict.h); no
 * copy of the values is made.  PR_EINVAL for bad options or an empty or
 * unsorted input, PR_ENOMEM; on failure *st needs no release.
 */
enum pr_status pr_stat_analyse(const struct pr_stat_input *in, size_t n,
    const struct pr_stat_opts *o, struct pr_stat *st, struct pr_error *err);

/* Frees what the analysis owns; a released analysis may be dropped. */
void pr_stat_release(struct pr_stat *st);

/*
 * Appends the text report (ministat's part, then perfreg's) to out.
 * PR_ENOMEM or PR_ELIMIT when out cannot hold it.
 */
enum pr_status pr_stat_format_text(const struct pr_stat *st, struct pr_buf *out,
    struct pr_error *err);

/*
 * Appends the JSON report to out: the options, per sample its name,
 * symbol and n, min, max, mean, median, q1, q3, stddev, mad, cv (null
 * where undefined), and per comparison ministat's figures and perfreg's
 * change, interval, p-values, verdict and method.  The schema is in the
 * man page.  File names that are not UTF-8 have their bad bytes replaced
 * by U+FFFD.
 */
enum pr_status pr_stat_format_json(const struct pr_stat *st, struct pr_buf *out,
    struct pr_error *err);

#endif /* PERFREG_REPORT_STAT_H */
