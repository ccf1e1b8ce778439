/*
 * report/internal.h - what the writers of src/report share and nothing
 * outside it sees: each writer's JSON form as a jansson value, so that
 * the report model (report/model.c) can nest a comparison or an
 * environment diff in a larger document without writing it to text and
 * reading it back.
 *
 * The JSON functions return a new reference (the caller's), or NULL when out
 * of memory or, for a comparison, when the report has no metric (err
 * says which).
 */
#ifndef PERFREG_REPORT_INTERNAL_H
#define PERFREG_REPORT_INTERNAL_H

#include <jansson.h>

#include "perfreg/buf.h"
#include "perfreg/env.h"
#include "perfreg/error.h"
#include "perfreg/report.h"
#include "perfreg/report_compare.h"
#include "perfreg/report_model.h"

json_t *report_compare_json(const struct pr_report *r, struct pr_error *err);
json_t *report_envdiff_json(const struct pr_envdiff *d);
/* How an item absent on one side of an env diff is shown: "(unset)" for
 * a process environment variable (env.NAME), else "(absent)". */
const char *report_env_absent(const char *key);
/* The JSON object of the model m, as pr_report_model_render writes it (a
 * new reference; NULL with err set when out of memory). */
json_t *report_model_json(const struct pr_report_model *m,
    struct pr_error *err);

struct pr_explain_input;
/* pr_explain_compute of in, added to m by pr_report_explain (perfreg/
 * explain.h); nothing (PR_OK) when it cannot be computed (too few
 * units).  PR_ENOMEM. */
enum pr_status report_explain_add(struct pr_report_model *m, const char *key,
    int flags, const struct pr_explain_input *in, const char *const *notes,
    size_t nnotes, struct pr_error *err);

/* The CSV form of a comparison: the header line when header, then one
 * line per metric, each after ncsv extra columns (headers head, values
 * cell), then the side metrics' lines (r->side) the same way. */
enum pr_status report_compare_csv(struct pr_buf *out, const struct pr_report *r,
    const char *const *head, const char *const *cell, size_t ncsv, int header,
    struct pr_error *err);

/*
 * The writers of a PR_SECTION_WRITER section (perfreg/report_model.h):
 * text writes its text or Markdown form (format f) to out, NULL for
 * none; json returns its JSON value (a new reference, NULL with err set
 * on failure), NULL for a section that is not in JSON; free releases
 * data (NULL: nothing to free).  None has a CSV form.
 */
struct report_writer {
	enum pr_status (*text)(struct pr_buf *out, const void *data,
	    enum pr_report_format f, struct pr_error *err);
	json_t *(*json)(const void *data, struct pr_error *err);
	void (*free)(void *data);
};

/*
 * For a writer whose JSON is an array that may be long (a session's
 * runs): its length and its item i, as json's array holds them.  A keyed
 * top-level section of such a writer is written an item at a time, each
 * item's tree freed before the next is made (model.c).
 * report_json_stream answers for w: NULL for the writers without one.
 */
struct report_stream {
	size_t (*count)(const void *data);
	json_t *(*item)(const void *data, size_t i, struct pr_error *err);
};
const struct report_stream *report_json_stream(const struct report_writer *w);

/*
 * The HTML form of the sections written by w, a fragment of the page of
 * perfreg/report_html.h with every string from outside through
 * pr_report_html_escape; NULL when w has none (the page then shows the
 * text form in a <pre>).  report_suite_html (src/report/suite.c)
 * answers for the suite's writers; src/report/html.c asks each module's
 * function in turn.
 */
typedef enum pr_status (*report_html_fn)(struct pr_buf *out, const void *data,
    struct pr_error *err);
report_html_fn report_suite_html(const struct report_writer *w);
/* The same for the writers of bisect.c, run.c, explain.c and
 * campaign.c. */
report_html_fn report_bisect_html(const struct report_writer *w);
report_html_fn report_run_html(const struct report_writer *w);
report_html_fn report_explain_html(const struct report_writer *w);
report_html_fn report_campaign_html(const struct report_writer *w);

/* For those forms (html.c): s from outside (NULL: nothing) escaped as
 * pr_report_html_escape does, on one line; an environment diff as the
 * page's table (A = na, B = nb, at most log_max kernel log lines a
 * side). */
enum pr_status report_html_esc(struct pr_buf *out, const char *s,
    struct pr_error *err);
/*
 * A table of a row an item, as run's and the campaign's forms write them:
 * head (the markup up to <tbody>; NULL when the caller wrote it), then for
 * each i < n "<tr><td>", name(data, i) escaped (from outside), "</td>",
 * what cells(out, data, i, err) adds (the row's other cells) and "</tr>",
 * then tail (NULL: nothing).  Stops at the first failure and returns it.
 */
struct report_html_table {
	const char *head, *tail;
	size_t n;
	const void *data;
	const char *(*name)(const void *data, size_t i);
	enum pr_status (*cells)(struct pr_buf *out, const void *data, size_t i,
	    struct pr_error *err);
};
enum pr_status report_html_table(struct pr_buf *out,
    const struct report_html_table *t, struct pr_error *err);
enum pr_status report_html_envdiff(struct pr_buf *out,
    const struct pr_envdiff *d, const char *na, const char *nb, size_t log_max,
    struct pr_error *err);

/* The HTML forms that html.c writes for other modules' data: the
 * bisection of a struct pr_bisect_job (bisect.c's section). */
enum pr_status report_html_bisect(struct pr_buf *out, const void *data,
    struct pr_error *err);

/* Adds a section written by w with data (owned by the model from now
 * on: freed with w->free, also when adding fails). */
enum pr_status report_model_writer(struct pr_report_model *m, const char *key,
    int flags, const struct report_writer *w, void *data, struct pr_error *err);

/* Appends s for Markdown (a table cell or a line): '|', '*', '`' and
 * '\\' escaped, a newline made a space; control bytes must have been
 * escaped before (pr_report_escape). */
enum pr_status report_md_escape(struct pr_buf *out, const char *s,
    struct pr_error *err);

/* Append s from outside for a terminal (report_esc: control bytes as
 * pr_report_escape writes them, no newline or tab kept), for Markdown
 * (report_md: the same, then report_md_escape), or as format f wants it
 * (report_word: Markdown for PR_REPORT_MARKDOWN, else text). */
enum pr_status report_esc(struct pr_buf *out, const char *s,
    struct pr_error *err);
enum pr_status report_md(struct pr_buf *out, const char *s,
    struct pr_error *err);
enum pr_status report_word(struct pr_buf *out, const char *s,
    enum pr_report_format f, struct pr_error *err);

/* Appends s from outside as one CSV cell: control bytes as
 * pr_report_escape writes them, then pr_report_csv_cell. */
enum pr_status report_csv_esc(struct pr_buf *out, const char *s,
    struct pr_error *err);
/* A JSON string of s with every byte outside a well-formed UTF-8
 * sequence (RFC 3629: no overlong forms, no surrogates, at most
 * U+10FFFF) replaced by U+FFFD, so that jansson takes any name; jansson
 * escapes the controls.  A new reference, NULL when out of memory. */
json_t *report_json_str(const char *s);

/* A JSON number of x, or null when x is not finite (jansson takes no
 * infinity or NaN); NULL only when out of memory. */
json_t *report_json_num(double x);

/* The JSON array [lo, hi] of report_json_num's; NULL when out of
 * memory. */
json_t *report_json_pair(double lo, double hi);

/* Appends root dumped with the jansson flags and a newline to out, and
 * drops the reference to root (model.c). */
enum pr_status report_json_dump(struct pr_buf *out, json_t *root, size_t flags,
    struct pr_error *err);

/* Appends the line printf makes of fmt to the notes (*note, *n) of a
 * comparison or campaign (compare_data.c). */
enum pr_status report_note_add(char ***note, size_t *n, struct pr_error *err,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Whether o asks for the metric called name (no --column: all). */
int report_compare_wanted(const struct pr_report_compare_opts *o,
    const char *name);

/*
 * The number formatters of every report (num.c), into buf of size
 * bytes: a change in percent, signed ("+8.3%", "0%") or its size only
 * ("8.3%"), "-" when not finite; an interval "[lo%, hi%]", "-" unless
 * have and both ends finite; a p-value ("0.068", "<0.0001", "1"), "-"
 * unless have and finite; the shortest %g that strtod reads back as x,
 * empty when not finite.
 */
void report_fmt_pct(char *buf, size_t size, double x);
void report_fmt_abs_pct(char *buf, size_t size, double x);
void report_fmt_interval(char *buf, size_t size, int have, double lo,
    double hi);
void report_fmt_p(char *buf, size_t size, int have, double p);
void report_fmt_exact(char *buf, size_t size, double x);

#endif /* PERFREG_REPORT_INTERNAL_H */
