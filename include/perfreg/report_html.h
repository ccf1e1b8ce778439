/*
 * perfreg/report_html.h - a report as one self-contained HTML page.
 *
 * pr_report_html renders any report model (perfreg/report_model.h) into
 * one HTML document that needs nothing else: the style is inline, every
 * picture is an inline SVG drawn here, no font, script or image is
 * fetched, and the page reads the same without JavaScript (its one small
 * script only makes the verdict table sortable by a click on a column).
 * It prints: each metric's panel stays on one page.
 *
 * The page, top to bottom: the title, the summary line of each
 * comparison (how many metrics are regressions, improvements, equivalent,
 * inconclusive) and its verdict table, each verdict in words and in a
 * colour (never colour alone), each metric linked to its panel; then one
 * panel per metric: a strip plot of each side's values with its mean and
 * the interval of the mean, the interval of the change drawn against the
 * +-equivalence band, the values in the order they ran (the order of the
 * input), and a table of the numbers behind the pictures; then the
 * environment diff as a table, the items known to move performance first.
 * Text, headline and warning sections are paragraphs in place; a group is
 * a section of its own, rendered the same way; values for programs only
 * (integers, reals, flags, strings with a key) are left out.
 *
 * Series (change points, history): pr_report_html_cp renders the series
 * of a perfreg/report_cp.h report: per series a chart of the values in
 * order with each change point, the levels before and after with the
 * interval of each step, each point's interval when the points carry
 * variances (history's session means), the spikes marked, and a table of
 * the changes; then the sections that follow a series (its .more:
 * history's explanation of its latest change), as pr_report_html renders
 * them.
 *
 * Plugging in another kind of result (bisection's posterior over
 * commits, an explanation): add its section kind to the model, then one
 * case in render_section (src/report/html.c) that writes a <section
 * class="panel"> with its SVG, through the same escaping and SVG helpers.
 *
 * Escaping: every string from outside (metric names, units, file names,
 * environment values, kernel log lines, labels) goes through
 * pr_report_html_escape: control bytes and invalid UTF-8 are first made
 * visible as pr_report_escape makes them (cat -v), then &, <, >, " and '
 * become character references, so that no input can open an element,
 * leave an attribute or a <svg>, or reach the reader as a control byte.
 * Element ids are made by perfreg ("m1", "s1"), never from input.
 *
 * Size: a few kilobytes a metric; at most PR_HTML_DOTS values of a side
 * are drawn in a plot (evenly spread over the sorted values, or over the
 * order, which the caption then says) and PR_HTML_VALUES listed.  In a
 * family of more than PR_HTML_OPEN metrics, the panels of those with no
 * change found (equivalent, inconclusive) are closed: their pictures are
 * made by the page's script when one is opened (without scripting, by
 * the browser), so that a large page builds a small DOM.
 *
 * The functions append to a struct pr_buf and never print, exit or read
 * the environment; PR_ENOMEM/PR_ELIMIT when the buffer cannot grow (the
 * buffer then holds a partial page).  Thread-safe on distinct buffers.
 */
#ifndef PERFREG_REPORT_HTML_H
#define PERFREG_REPORT_HTML_H

#include <stddef.h>

#include "perfreg/buf.h"
#include "perfreg/error.h"
#include "perfreg/report_cp.h"
#include "perfreg/report_model.h"

#define PR_HTML_DOTS 400
#define PR_HTML_VALUES 200
#define PR_HTML_OPEN 20

/* Appends the page of model m, titled title (from outside: escaped). */
enum pr_status pr_report_html(struct pr_buf *out,
    const struct pr_report_model *m, const char *title, struct pr_error *err);

/* Appends the page of the n series of r, titled title.  var may be
 * NULL, or var[i] (NULL or) the variances of the points of series i (a
 * session mean's squared standard error, as pr_cp_detect takes them),
 * drawn as each point's interval. */
enum pr_status pr_report_html_cp(struct pr_buf *out,
    const struct pr_cp_report *r, size_t n, const double *const *var,
    const char *title, struct pr_error *err);

/* Appends the len bytes of s as HTML text or attribute value (see
 * above); flags are pr_report_escape's (PR_ESCAPE_NEWLINE keeps
 * newlines). */
enum pr_status pr_report_html_escape(struct pr_buf *out, const char *s,
    size_t len, int flags, struct pr_error *err);

#endif /* PERFREG_REPORT_HTML_H */
