/*
 * parse/readers.h - what the reader of each input format (numbers.c,
 * csv.c, hyperfine.c, gobench.c, perfregjson.c) gets from the registry
 * (read.c), and the helpers they share (readutil.c, json.c).  Each reader
 * exports its registry entry, struct pr_bench_format (parse/bench.h).
 * Internal to libperfreg.
 *
 * A reader gets the whole input in memory (struct pr_input, NUL-terminated
 * for convenience; the readers never rely on that and stop at len) and
 * appends metrics to a dataset.  On failure it fills err with the input's
 * name and the line (and column where known) of the problem; the dataset
 * may then hold part of the input, and the caller releases it.
 */
#ifndef PERFREG_PARSE_READERS_H
#define PERFREG_PARSE_READERS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/read.h"

struct pr_input {
	const char *name; /* for messages: the path, or "<stdin>" */
	const char *data; /* len bytes, then a NUL */
	size_t len;
};

/*
 * pr_read_numbers with a cap of max values (instead of PR_READ_VALUES_MAX),
 * so that tests can reach it.
 */
enum pr_status pr_read_numbers_max(const char *path, int column,
    const char *delims, size_t max, struct pr_sample *out,
    struct pr_error *err);

/*
 * pr_read_numbers_max, and on success, when keys is not NULL, the
 * smallest and largest sort key (core/sortkey.h) of the values it added
 * into keys[0] and keys[1], found as they were read (while in cache), for
 * pr_sort_doubles_keyed.
 */
enum pr_status pr_read_numbers_keys(const char *path, int column,
    const char *delims, size_t max, struct pr_sample *out, uint64_t *keys,
    struct pr_error *err);

/*
 * Writes a printable excerpt of s[0, len) into dst: at most 40 bytes of
 * it, bytes outside printable ASCII (and not part of valid UTF-8)
 * escaped as \xNN, "..." when cut.  Returns dst.
 */
const char *pr_read_excerpt(char *dst, size_t size, const char *s, size_t len);

/* The 1-based line of p in the input, and its 1-based column in *col
 * (col may be NULL). */
long pr_read_line_of(const struct pr_input *in, const char *p, long *col);

/*
 * Checks that the input is text: no NUL byte, valid UTF-8 (a byte order
 * mark at the start is allowed), no line longer than PR_READ_LINE_MAX
 * bytes, and, when strict, no control character other than tab, CR and
 * LF.  Fails with PR_EPARSE (PR_ELIMIT for a long line) at the line and
 * column of the first offence.
 */
enum pr_status pr_read_check_text(const struct pr_input *in, int strict,
    struct pr_error *err);

/*
 * Parses the whole field [s, e) as a number with pr_parse_double, and
 * rejects anything left over, an empty field, NaN, infinities and
 * overflow.  On failure err names the input and the line and column of
 * s, with `where` (e.g. "in column 'time'") after the message when it is
 * not NULL.
 */
enum pr_status pr_read_number(const struct pr_input *in, const char *s,
    const char *e, const char *where, double *out, struct pr_error *err);

/*
 * Where the text of the input starts: after a UTF-8 byte order mark and
 * white space; NULL when there is nothing else.
 */
const char *pr_read_text_start(const struct pr_input *in);

/*
 * Whether the input is a JSON object (its text starts with '{') in which
 * the member key "key" comes before any member key "rival": a plain
 * search of the text for '"key":', since the formats' own keys come
 * first in their files.  For detection; pure.
 */
int pr_read_json_key_first(const struct pr_input *in, const char *key,
    const char *rival);

/*
 * Whether [s, e) is a whole number as pr_parse_double reads it, blanks
 * (and a final CR) around it and double quotes around that allowed.
 * For detection; pure.
 */
int pr_read_is_number(const char *s, const char *e);

/* Whether [s, e) spells a NaN or an infinity ("nan", "-Inf", "infinity"),
 * which pr_read_number rejects: a column holding one is still numeric. */
int pr_read_nonfinite_word(const char *s, const char *e);

/* A step of a path into a JSON document: a member's key, or when key is
 * NULL an array index. */
struct pr_jstep {
	const char *key;
	size_t index;
};

/*
 * Parses the input as one JSON document (duplicate keys rejected, no NUL
 * bytes, valid UTF-8, at most PR_READ_JSON_MAX bytes, integers read as
 * doubles so that no big integer fails).  A syntax error gives PR_EPARSE
 * at jansson's line and column.  The caller json_decref()s *out.
 */
enum pr_status pr_json_load(const struct pr_input *in, json_t **out,
    struct pr_error *err);

/*
 * Records an error about the value at path (n steps from the root) of the
 * input, with the line and column where that value starts in the text
 * (found by a second, lexical walk of the already valid document; 0 when
 * it cannot be found).  Returns status.
 */
enum pr_status pr_json_fail(const struct pr_input *in,
    const struct pr_jstep *path, size_t n, enum pr_status status,
    struct pr_error *err, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/*
 * Appends the JSON array of numbers arr to the sample `to` (path, n steps
 * long, leads to the array, for messages).  Every element must be a
 * number; the array must not be empty.
 */
enum pr_status pr_json_values(const struct pr_input *in, json_t *arr,
    const struct pr_jstep *path, size_t n, struct pr_sample *to,
    struct pr_error *err);

/*
 * Loads the input as JSON and calls fn on each element (with its index)
 * of the array that is the member key of the top-level object
 * ("results", "metrics"), stopping at the first failure.  A document
 * that is not an object, lacks key, or whose key is not a non-empty array
 * is an error at its line.
 */
enum pr_status pr_json_each(const struct pr_input *in, const char *key,
    enum pr_status (*fn)(const struct pr_input *, json_t *, size_t,
	struct pr_dataset *, struct pr_error *),
    struct pr_dataset *out, struct pr_error *err);

#endif /* PERFREG_PARSE_READERS_H */
