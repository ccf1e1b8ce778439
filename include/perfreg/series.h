/*
 * perfreg/series.h - reading a series of points for the change-point
 * detector: one value a line, a column of a table, or (label, value)
 * pairs.
 *
 * The input is text lines; '#' starts a comment, blank lines are skipped,
 * a UTF-8 byte order mark is skipped.  Fields are split at commas and tabs
 * where the line holds one, else at
 * runs of spaces (or at any of the caller's delimiters); white space around
 * a field is trimmed and CSV's double quotes around a field are removed.
 * The first line that is not a comment is a header when the value field
 * of it is not a number: its fields name the columns.  The value is:
 *   - the field called column, when a name is given (a header is then
 *     required; PR_ENOTFOUND names the columns there are);
 *   - else field number index (1-based), when index > 0;
 *   - else the last field of the line: a line "x,y" is a (label, value)
 *     pair, a line with one field a value.
 * The label of a point is its first field when the value is another
 * field (dates, commits, kernel versions), else its 1-based line number
 * among the points.  Every value must be a whole finite number
 * (pr_parse_double_all): "nan", "inf", "12abc" or a missing field are
 * errors naming the file and line, never skipped.  At most PR_SERIES_MAX
 * points, PR_READ_LINE_MAX-long lines (perfreg/read.h).
 *
 * Ownership: struct pr_series owns its arrays; pr_series_release frees
 * them.  Reentrant.
 */
#ifndef PERFREG_SERIES_H
#define PERFREG_SERIES_H

#include <stddef.h>

#include "perfreg/error.h"

#define PR_SERIES_MAX 10000000
#define PR_SERIES_LABEL_MAX 256

struct pr_series {
	double *y;
	char **label; /* label[i]: NUL-terminated, at most LABEL_MAX bytes */
	size_t n;
	int labelled; /* the labels are a field (not line numbers) */
	char *column; /* the value column's name from a header, or NULL */
};

struct pr_series_opts {
	const char *column; /* by header name, or NULL */
	int index;          /* 1-based field, or 0 (see above) */
	const char *delims; /* NULL: comma, tab, spaces */
};

void pr_series_init(struct pr_series *s);
void pr_series_release(struct pr_series *s);

/*
 * Reads path ("-" for standard input, "<stdin>" in messages) into s,
 * which must be initialised and empty.  Errors: PR_ENOTFOUND / PR_EIO for
 * the file, PR_EPARSE / PR_ERANGE at the line of a bad or missing value,
 * PR_ENOTFOUND for an unknown column, PR_ELIMIT beyond PR_SERIES_MAX
 * points or for a line too long, PR_EUNDEF for an input without points,
 * PR_ENOMEM.  On failure s is empty.
 */
enum pr_status pr_series_read(const char *path, const struct pr_series_opts *o,
    struct pr_series *s, struct pr_error *err);

/* As pr_series_read on len bytes at data, called name in messages. */
enum pr_status pr_series_read_mem(const char *name, const char *data,
    size_t len, const struct pr_series_opts *o, struct pr_series *s,
    struct pr_error *err);

#endif
