/*
 * perfreg/report.h - writing the result of a comparison for people and
 * for programs: an aligned text table, a Markdown table ready to paste
 * into a bug report, CSV, and JSON.
 *
 * A report is built by the caller from the comparisons of the library
 * (perfreg/verdict.h): one struct pr_report_metric per metric, in the
 * order the rows should appear.  The writers only format: they append to
 * a struct pr_buf and never print, exit or change the comparisons.
 *
 * Figures that are undefined for the data (the spread of one value, the
 * p-value of an untested metric, an interval the method could not give)
 * are written as "-" in text and Markdown, as an empty field in CSV and as
 * null in JSON: never as "nan" or "inf".  Non-finite doubles that reach a
 * writer (which would be a bug upstream) are treated the same way.
 *
 * Words follow the direction of the metric: a time that grew is
 * "12.1% slower", a throughput that fell is "throughput 7.6% lower", any
 * other metric "7.6% higher (worse)" and so on (pr_report_change_words).
 *
 * All functions are reentrant and thread-safe on distinct buffers; they
 * allocate only through the buffer (and, for JSON, through jansson) and
 * free what they allocate.  On failure the buffer may hold a partial
 * report; the caller resets or releases it.
 */
#ifndef PERFREG_REPORT_H
#define PERFREG_REPORT_H

#include <stddef.h>

#include "perfreg/buf.h"
#include "perfreg/error.h"
#include "perfreg/verdict.h"

enum pr_report_format {
	PR_REPORT_TEXT = 0, /* aligned table, sentences, notes, method */
	PR_REPORT_MARKDOWN, /* the same as a Markdown table and bullets */
	PR_REPORT_CSV,      /* one header line, one line per metric */
	PR_REPORT_JSON      /* one JSON object, fields in doc/perfreg.1 */
};

/* One metric of a report.  Every pointer is borrowed for the duration
 * of the writer's call only. */
struct pr_report_metric {
	const char *name; /* never NULL */
	const char *unit; /* "" or NULL when unknown */
	/* 1 when the input did not say which direction is better and
	 * cmp.better was set to PR_BETTER_LOWER by assumption. */
	int better_assumed;
	/* Optional: the values of each side, written to JSON as "values"
	 * so that the report can be checked or read again.  NULL (with
	 * n 0) to leave them out. */
	const double *base_values, *new_values;
	size_t base_n, new_n;
	struct pr_comparison cmp; /* from pr_compare (and pr_compare_holm) */
};

struct pr_report {
	const char *base_source; /* file names for the header; may be NULL */
	const char *new_source;
	double conf;            /* the confidence used, e.g. 0.95 */
	double equivalence_pct; /* the band of "equivalent", e.g. 1.0 */
	/* Number of tested metrics that Holm's correction was applied
	 * over; 0 or 1 when it was not applied. */
	size_t holm_m;
	const struct pr_report_metric *metrics;
	size_t n;
	/* What a value of each side is, for "about N runs per side would
	 * settle it": NULL for "runs"; "boots" when each value is a boot's
	 * mean (compare --campaign). */
	const char *units;
	/*
	 * Primary and side metrics (perfreg/primary.h).  metrics[] are then
	 * the primary ones; side, when not NULL, is a report of the side
	 * metrics, written after this one's (text and Markdown under a
	 * heading, CSV as more rows, JSON as "side_metrics"), whose family
	 * is corrected by Benjamini-Hochberg: set side_bh in it (its
	 * adjusted p is "p BH", its holm_m the family's size).
	 * not_tested[i] (n_not_tested of them) are the metrics whose values
	 * are all not_tested_value[i] on both sides, said once ("avgtext,
	 * swaps: constant 0, not tested"; JSON "not_tested").  When
	 * not_tested_metrics is not NULL it holds those metrics too (the
	 * same order), and CSV gives each a row saying why it was not
	 * tested.  All borrowed; NULL and 0 when there are none.
	 */
	const struct pr_report *side;
	int side_bh;
	const char *const *not_tested;
	const double *not_tested_value;
	const struct pr_report_metric *not_tested_metrics;
	size_t n_not_tested;
};

/*
 * Appends the report in format f to out.  PR_EINVAL for a report without
 * metrics or an unknown format, PR_ELIMIT/PR_ENOMEM when the buffer cannot
 * grow.  The text and Markdown forms end with a newline, as do CSV and
 * JSON.
 */
enum pr_status pr_report_compare(struct pr_buf *out, const struct pr_report *r,
    enum pr_report_format f, struct pr_error *err);

/*
 * Writes to buf (NUL-terminated, truncated to size) the words for a
 * change of change_pct percent in a metric with that name, unit and
 * direction: "12.1% slower" / "3.0% faster" for a time, "throughput 7.6%
 * lower" / "throughput 2.0% higher" for a rate (a unit per second),
 * "7.6% higher (worse)" / "7.6% lower (better)" for any other metric,
 * and "unchanged" for exactly 0.  An unknown direction is described as
 * lower-is-better.  A non-finite change gives "change undefined".
 * Returns buf.
 */
char *pr_report_change_words(char *buf, size_t size, double change_pct,
    enum pr_better better, const char *name, const char *unit);

/* "numbers"-style short name of a method for machines: "student",
 * "welch", "mwu", "none" ("auto" for PR_METHOD_AUTO). */
const char *pr_report_method_slug(enum pr_method m);

/*
 * Escaping of bytes that come from outside (metric names, units, file
 * names, host names, environment values, kernel log lines, the output of
 * a benchmark) before they reach a terminal or a spreadsheet.
 *
 * pr_report_escape appends the len bytes of s to out with every control
 * byte written as `cat -v` writes it: "^[" for ESC, "^M" for CR, "^?"
 * for DEL, and so on, so that ESC[2J, OSC 52 (the clipboard) or a window
 * title in a metric name are shown, not obeyed.  Valid UTF-8 is kept,
 * except the C1 controls U+0080 to U+009F (which some terminals obey as
 * ESC sequences), written as cat -v writes their bytes ("M-BM-^[" for
 * U+009B); a byte that begins no valid UTF-8 sequence is written "M-"
 * and its low seven bits the same way ("M-^[" for 0x9b, "M-i" for 0xe9).
 * Printable ASCII is never changed.  With PR_ESCAPE_NEWLINE a newline is
 * kept (text of several lines), with PR_ESCAPE_TAB a tab; otherwise they
 * are "^J" and "^I", so that a name cannot split a table row.
 *
 * pr_report_escape_str returns a new string (the caller frees it), or
 * NULL when out of memory.
 *
 * pr_report_csv_cell appends s as one CSV field (RFC 4180: quoted when it
 * holds a comma, a quote, CR or LF, quotes doubled) that a spreadsheet
 * will not take for a formula: a cell that starts with '=', '+', '-',
 * '@', a tab or a CR gets a single quote in front and is quoted (OWASP's
 * rule for CSV injection), unless the whole cell is a plain number such
 * as "-0.93" or "+8.3", which stays a number.
 */
enum { PR_ESCAPE_NEWLINE = 1 << 0, PR_ESCAPE_TAB = 1 << 1 };

enum pr_status pr_report_escape(struct pr_buf *out, const char *s, size_t len,
    int flags, struct pr_error *err);
char *pr_report_escape_str(const char *s, int flags);
enum pr_status pr_report_csv_cell(struct pr_buf *out, const char *s,
    struct pr_error *err);

#endif /* PERFREG_REPORT_H */
