/*
 * perfreg/read.h - readers for the inputs of `perfreg stat` and
 * `perfreg compare`.
 *
 * Formats, detected by content unless forced:
 * - numbers: one number per line, '#' comments, blank lines skipped; a
 *   column and delimiters can be chosen as in ministat (-C, -d);
 * - csv: a header line names the columns; each numeric column is a
 *   metric, or only the one named by `column`;
 * - hyperfine: the JSON of `hyperfine --export-json` (one metric per
 *   command: its "times", in seconds, lower is better);
 * - gobench: Go benchmark output, what benchstat reads ("BenchmarkX-8
 *   N 123 ns/op 45 B/op ..."), one metric per benchmark and unit;
 * - perfreg: perfreg's own JSON ({"metrics":[{"name","unit","better",
 *   "values":[...]}]}), also what `perfreg compare --json` writes of its
 *   inputs.
 *
 * Every reader rejects, with the file and line in err: words where a
 * number belongs, NaN and infinities, out-of-range exponents, empty input
 * (no values), lines longer than PR_READ_LINE_MAX, NUL bytes and other
 * binary junk, and a missing or unreadable file.  Nothing is ever read as
 * a silent zero.  Memory is bounded by the values kept (8 bytes each)
 * plus one line.
 */
#ifndef PERFREG_READ_H
#define PERFREG_READ_H

#include <stddef.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/sample.h"

#define PR_READ_LINE_MAX (1024 * 1024)

enum pr_format {
	PR_FORMAT_AUTO = 0,
	PR_FORMAT_NUMBERS,
	PR_FORMAT_CSV,
	PR_FORMAT_HYPERFINE,
	PR_FORMAT_GOBENCH,
	PR_FORMAT_PERFREG
};

/* "numbers", "csv", ...; and back (PR_EINVAL for an unknown name). */
const char *pr_format_str(enum pr_format f);
enum pr_status pr_format_parse(const char *name, enum pr_format *out,
    struct pr_error *err);

/*
 * ministat's input: path ("-" for standard input), the 1-based column
 * (ministat's -C; 1 by default) of lines split at any of delims (ministat's
 * -d; " \t" by default), '#' starting a comment.  Appends to out.
 */
enum pr_status pr_read_numbers(const char *path, int column,
    const char *delims, struct pr_sample *out, struct pr_error *err);

struct pr_read_opts {
	enum pr_format format; /* PR_FORMAT_AUTO to detect */
	const char *column;    /* csv: only this column; NULL: all */
	const char *name;      /* numbers: the metric's name; NULL: "value" */
};

void pr_read_opts_init(struct pr_read_opts *o);

/* Reads path (or "-") into out, which must be initialised. */
enum pr_status pr_read_dataset(const char *path, const struct pr_read_opts *o,
    struct pr_dataset *out, struct pr_error *err);

/* Which format the first bytes of an input look like; PR_FORMAT_AUTO
 * when none fits. */
enum pr_format pr_format_detect(const char *head, size_t len);

#endif /* PERFREG_READ_H */
