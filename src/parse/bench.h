/*
 * parse/bench.h - the one registry entry of a format (struct
 * pr_bench_format), shared by the benchmark-output registry
 * (bench_registry.c: `perfreg parse`) and the input registry (read.c:
 * `perfreg stat` and `compare`), and the line, token and number helpers
 * the benchmark parsers share (benchutil.c).  Internal to libperfreg.
 *
 * A format parser gets the whole output (struct pr_input of readers.h,
 * already checked to be text: no NUL byte, valid UTF-8, no line longer
 * than PR_READ_LINE_MAX) and adds its metrics to an empty dataset of its
 * own; the registry merges that into the caller's dataset only when the
 * parser succeeded.  A parser that finds no metric at all fails: an
 * output of the right format without results is an error, never an
 * empty success.  The readers of read.h get their input the same way
 * (but unchecked: they check it themselves) and fill a dataset of their
 * own too.
 */
#ifndef PERFREG_PARSE_BENCH_H
#define PERFREG_PARSE_BENCH_H

#include <stddef.h>

#include "parse/readers.h"
#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/parse.h"

struct pr_bench_format {
	const char *name;
	const char *description;
	/*
	 * How much the input looks like this format: 0 not at all, else a
	 * score of PR_DETECT_* below that grows with the evidence (lines of
	 * the format found).  Pure; never fails.
	 */
	unsigned (*detect)(const struct pr_input *in);
	/*
	 * Reads the input into out (empty, the format's own).  For an input
	 * format (a PR_INPUT line of parse_formats.def) that needs no
	 * pr_read_opts, this is also what read.c calls.
	 */
	enum pr_status (*parse)(const struct pr_input *in,
	    struct pr_dataset *out, struct pr_error *err);
	/*
	 * Whether metric m of d (what parse gave) is the benchmark's own
	 * result, which the registry then marks PR_METRIC_RESULT
	 * (perfreg/dataset.h); NULL when the format has none of its own
	 * or marks them itself.  Pure.
	 */
	int (*is_result)(const struct pr_dataset *d, const struct pr_metric *m);

	/* The rest concerns the input formats of perfreg/read.h only. */

	/* Reads the input with options o into out (empty, the format's
	 * own); NULL when parse reads it. */
	enum pr_status (*read)(const struct pr_input *in,
	    const struct pr_read_opts *o, struct pr_dataset *out,
	    struct pr_error *err);
	/*
	 * Reads the file at path (called name in messages; "-" is standard
	 * input) without loading it whole, into out (empty, the format's
	 * own); NULL when the format loads its input.  read.c calls it for
	 * a format given by name, and for a regular file detected as this
	 * format.
	 */
	enum pr_status (*read_path)(const char *path, const char *name,
	    const struct pr_read_opts *o, struct pr_dataset *out,
	    struct pr_error *err);
	/* The largest input loaded for read or parse, in bytes. */
	size_t max_bytes;
	unsigned flags; /* PR_BENCH_* */
};

/*
 * The reader handles pr_read_opts.column itself (csv), or has one metric
 * and ignores it (numbers); without it read.c keeps only the metric of
 * that name.
 */
#define PR_BENCH_OWN_COLUMN 1u

/* pr_bench_openssl, pr_bench_iperf3, ...: one per built-in format, of
 * either list. */
#define PR_FORMAT(name) extern const struct pr_bench_format pr_bench_##name;
#define PR_INPUT(name, NAME) \
	extern const struct pr_bench_format pr_bench_##name;
#include "perfreg/parse_formats.def"
#undef PR_INPUT
#undef PR_FORMAT

/*
 * Detection scores (struct pr_bench_format.detect); the highest wins, and
 * a format stops counting at PR_DETECT_CERTAIN:
 * - PR_DETECT_CERTAIN: the input says what it is (a JSON document with
 *   the format's own keys: hyperfine's "results", perfreg's "metrics",
 *   iperf3's "start" and "end");
 * - PR_DETECT_SHAPED: a line only this format prints, recognised by its
 *   shape (a Go benchmark result or "goos:" line), above any ordinary
 *   count of lines of another format;
 * - PR_DETECT_LINE: for each line of the format's own (a summary line, a
 *   table row, a time line);
 * - PR_DETECT_HINT: for each line that only hints at the format (a table
 *   header, openssl's "Doing ..." banner), half a line; for the input
 *   formats, a CSV header;
 * - PR_DETECT_FALLBACK: what is left when nothing else matches (the
 *   numbers input: any text that is not JSON), so that a word where a
 *   number belongs is reported by that reader at its line.
 */
#define PR_DETECT_CERTAIN 1000u
#define PR_DETECT_SHAPED 500u
#define PR_DETECT_LINE 10u
#define PR_DETECT_HINT 5u
#define PR_DETECT_FALLBACK 1u

/*
 * Lines as a terminal shows them: a line ends at '\n'; a final '\r' is
 * dropped, and when a '\r' is inside the line only what follows the last
 * one is kept (progress meters overwrite themselves that way).  Leading
 * e-mail quote marks ("> ", ">>") are dropped too, so that outputs pasted
 * into a mail or a bug report read as the originals.
 *
 * A last line without a line end is marked cut: every tool ends its lines,
 * so the input may have been cut inside it (`head -c`, a full disk, a
 * killed run), and "3050831.49k" cut to "3050831." would read as another
 * number.  pr_bench_num and pr_bench_clock refuse to read a value on a cut
 * line; prose there (a pasted report's signature) is harmless.
 */
struct pr_line {
	const char *s, *e; /* the text, without the line end */
	const char *raw;   /* where the line starts in the input */
	long no;           /* 1-based */
	int cut;           /* the input ends inside it: no line end */
};

struct pr_lines {
	const struct pr_input *in;
	const char *p;
	long no;
};

void pr_lines_init(struct pr_lines *it, const struct pr_input *in);
/* The next line in *l; 0 at the end of the input. */
int pr_lines_next(struct pr_lines *it, struct pr_line *l);
/*
 * The next line with text in *l, as pr_lines_next gives it, skipping the
 * lines of blanks only (spaces, tabs, '\r', '\v', '\f'; the line numbers
 * still count them); 0 at the end of the input.  For the detectors,
 * which score no blank line: skipping them in one pass keeps an input of
 * 64 MiB of line ends then a word from being tested line by line by
 * every detector (5.4 s of CPU).
 */
int pr_lines_next_text(struct pr_lines *it, struct pr_line *l);

/* A token: the bytes [s, s + n) of a line. */
struct pr_tok {
	const char *s;
	size_t n;
};

#define PR_TOK_MAX 64

/*
 * Splits [s, e) at runs of blanks (space, tab, and the other C-locale
 * space characters) into at most max tokens.  Returns the number of
 * tokens in the line, which may exceed max (only max are stored).
 */
size_t pr_tokens(const char *s, const char *e, struct pr_tok *t, size_t max);

/*
 * Splits [s, e) at every sep (no quoting; empty fields count) into at
 * most max fields.  Returns the number of fields in the line, which may
 * exceed max (only max are stored).
 */
size_t pr_fields(const char *s, const char *e, char sep, struct pr_tok *f,
    size_t max);

int pr_tok_eq(const struct pr_tok *t, const char *word);
int pr_tok_prefix(const struct pr_tok *t, const char *prefix);
int pr_tok_suffix(const struct pr_tok *t, const char *suffix);
/* Whether [s, e) contains the string needle. */
int pr_has(const char *s, const char *e, const char *needle);
/* Where needle first occurs in [s, e), or NULL. */
const char *pr_find(const char *s, const char *e, const char *needle);
/* Whether [s, e) after leading blanks starts with prefix. */
int pr_starts(const char *s, const char *e, const char *prefix);

/*
 * Reads the whole of [s, e) as a decimal number (digits, an optional
 * point and fraction, an optional exponent; a leading sign only when
 * `sign` is set) and multiplies it by 10^exp10, exactly: the result is
 * the double nearest to the decimal value times 10^exp10, as if the
 * exponent had been written in the text ("586.20" with exp10 3 gives
 * exactly 586200).  NaN, infinities, hexadecimal, out of range values
 * (1e999) and anything left over fail with PR_EPARSE or PR_ERANGE and a
 * message naming the text, where (if not NULL, e.g. "in the 16 bytes
 * column"), the input and l's line and column; so does a value on a cut
 * line (pr_bench_uncut).
 */
enum pr_status pr_bench_num(const struct pr_input *in, const struct pr_line *l,
    const char *s, const char *e, int exp10, int sign, const char *where,
    double *out, struct pr_error *err);

/*
 * PR_OK, or when l is cut (see struct pr_line) the error that a value
 * cannot be read from a line the input ends inside, at p.
 */
enum pr_status pr_bench_uncut(const struct pr_input *in,
    const struct pr_line *l, const char *p, struct pr_error *err);

/* As pr_bench_num, for a token. */
enum pr_status pr_bench_tnum(const struct pr_input *in, const struct pr_line *l,
    const struct pr_tok *t, int exp10, const char *where, double *out,
    struct pr_error *err);

/* Whether [s, e) is digits with at most one '.' and at least one digit. */
int pr_is_decimal(const char *s, const char *e);

/*
 * Whether [s, e) is meant as a number: it starts like one (digit, sign,
 * point) or spells NaN or an infinity, which pr_bench_num then rejects
 * by name.  For telling a bad value from a word.
 */
int pr_valueish(const char *s, const char *e);

/*
 * Records a parse error at line l (column of p when p is in the line,
 * else none).  Returns PR_EPARSE (or status via pr_bench_fail_st).
 */
enum pr_status pr_bench_fail(const struct pr_input *in, const struct pr_line *l,
    const char *p, struct pr_error *err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/*
 * The error for an output without results: "no TOOL results found", or,
 * when the tool complained (hint, a line of the input, may be NULL or
 * empty), "no TOOL results; TOOL said: ..." at that line.
 */
enum pr_status pr_bench_none(const struct pr_input *in,
    const struct pr_line *hint, const char *tool, struct pr_error *err);

/*
 * Adds value to the metric name of out (created with unit and better).
 * A metric that exists with another unit (an input that prints one event
 * in msec and then without a unit) is PR_EPARSE.
 */
enum pr_status pr_bench_add(struct pr_dataset *out, const char *name,
    const char *unit, enum pr_better better, double value,
    struct pr_error *err);

/* Creates the metric without a value: the tool reported it absent. */
enum pr_status pr_bench_absent(struct pr_dataset *out, const char *name,
    const char *unit, enum pr_better better, struct pr_error *err);

/*
 * Seconds of a clock reading "[[H:]M:]S[.frac]" ("0:07.69", "1:02:03",
 * "5.30"), and of bash's "1m2.500s" / "0m0.050s" when `bash` is set.
 */
enum pr_status pr_bench_clock(const struct pr_input *in,
    const struct pr_line *l, const char *s, const char *e, int bash,
    double *out, struct pr_error *err);

/* User metrics and derived metrics (usermetric.c, derive.c). */
struct pr_usermetric;
struct pr_derive;

enum pr_status pr_usermetric_new(const char *spec, struct pr_usermetric **out,
    struct pr_error *err);
void pr_usermetric_free(struct pr_usermetric *m);
const char *pr_usermetric_name(const struct pr_usermetric *m);
/* Appends every match's value to out; no match at all is an error. */
enum pr_status pr_usermetric_apply(const struct pr_usermetric *m,
    const struct pr_input *in, struct pr_dataset *out, struct pr_error *err);

enum pr_status pr_derive_new(const char *spec, struct pr_derive **out,
    struct pr_error *err);
void pr_derive_free(struct pr_derive *d);
const char *pr_derive_name(const struct pr_derive *d);
/* Computes the metric from ds and adds it to ds (see pr_parser_derive). */
enum pr_status pr_derive_apply(const struct pr_derive *d, struct pr_dataset *ds,
    struct pr_error *err);

/*
 * Splits the ":UNIT" and ":higher|lower" suffixes off a spec's right-hand
 * side [s, *e): *e is moved back before them; unit (PR_PARSE_NAME_MAX
 * bytes) gets the unit or "", *better the direction or, when none is
 * given, the unit's.  Returns 0, or -1 for a unit too long.
 */
int pr_spec_suffixes(const char *s, const char **e, char *unit,
    enum pr_better *better);

#endif /* PERFREG_PARSE_BENCH_H */
