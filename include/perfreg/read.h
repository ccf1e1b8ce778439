/*
 * perfreg/read.h - readers for the inputs of `perfreg stat` and
 * `perfreg compare`.
 *
 * Formats, detected by content unless forced (see pr_format_detect):
 * - numbers: one number per line, '#' comments, blank lines skipped; a
 *   column and delimiters can be chosen as in ministat (-C, -d).  For
 *   compare it is one metric, named by pr_read_opts.name or "value",
 *   with no unit and no direction;
 * - csv: RFC 4180 (fields separated by ',', or by ';' or tab when the
 *   header has more of those; fields may be quoted, "" inside quotes is
 *   a quote, quoted fields may span lines, CRLF or LF).  Blank lines and
 *   lines starting with '#' before the header are skipped.  The header
 *   names the columns; a label "name (unit)", "name [unit]" or one with a
 *   unit suffix ("elapsed_s", "rss_kib", "bytes_per_s") gives the metric
 *   its unit (perfreg/units.h), and the unit its direction.  A column is
 *   a metric when its label names a known unit (pr_unit_known) or its
 *   first non-empty value is a number (NaN and 1e999 count, and are then
 *   errors); every value of a metric column must be a number (an error,
 *   never a skipped value or column).  Other columns ("variant",
 *   "commit") are labels and are ignored, as are columns with an empty
 *   label.  With pr_read_opts.column only that column is read
 *   (see pr_read_opts).  An empty cell in a metric column, a row with
 *   more or fewer fields than the header and two columns with the same
 *   name are errors;
 * - hyperfine: the JSON of `hyperfine --export-json`: one metric per
 *   result, named by its "command" (which is the --command-name when one
 *   was given), its values the "times" of the runs, unit "s", lower is
 *   better; and "COMMAND user", "COMMAND system", the means of the runs'
 *   CPU times (one value each: hyperfine keeps no per-run CPU times).
 *   Two results with the same command are an error;
 * - gobench: Go benchmark output, what benchstat reads ("BenchmarkX-8
 *   N 123 ns/op 45 B/op ..."): one metric per benchmark and unit, named
 *   "PKG.X-8 ns/op": the short name of the package of its "pkg:" line
 *   (the last element of the import path, or the whole path when two
 *   packages of the input share it; nothing before any "pkg:" line), a
 *   dot, benchstat's row name (the benchmark name without "Benchmark",
 *   the -GOMAXPROCS suffix kept, so that only runs with the same
 *   GOMAXPROCS are compared, as benchstat does), a space, and the unit as
 *   printed.  Repeated lines (go test -count N) accumulate.  Directions
 *   come from the unit (ns/op, B/op, allocs/op lower, MB/s higher), or
 *   from "Unit U better=higher|lower" lines where the input has them.  A
 *   line that starts with "Benchmark" not followed by a lowercase letter,
 *   and has more than the name on it, must be a well-formed result; other
 *   lines (PASS, ok, logs, "goos: linux") are not results;
 * - perfreg: perfreg's own JSON, {"metrics":[{"name":..,"unit":..,
 *   "better":"higher"|"lower","values":[...]}, ...]}, or with "value": N
 *   instead of "values" (what `perfreg parse --json` prints).  "unit"
 *   and "better" may be absent (better then follows from the unit);
 *   other members are ignored.  Metrics with the same name accumulate
 *   and must agree on unit and direction.
 *
 * Every reader rejects, with the file and line in err: words where a
 * number belongs, NaN and infinities, out-of-range exponents (1e999),
 * empty input (no values), lines longer than PR_READ_LINE_MAX (text
 * formats), NUL bytes and invalid UTF-8, malformed or truncated JSON, and
 * a missing or unreadable file or a directory (PR_ENOTFOUND / PR_EIO with
 * sys_errno).  Nothing is ever read as a silent zero.
 *
 * Memory: the numbers format streams (pr_read_numbers keeps 8 bytes a
 * value plus one line), at most PR_READ_VALUES_MAX values an input.  The
 * other formats load the input whole, at most PR_READ_FILE_MAX bytes, and
 * JSON at most PR_READ_JSON_MAX bytes because jansson's tree takes several
 * times the text; a CSV input holds at most PR_READ_VALUES_MAX cells.
 * Inputs past those caps fail with PR_ELIMIT ("more than N values in one
 * input", "input larger than N bytes").
 *
 * Thread-safety: the readers keep no state; distinct datasets may be
 * read from distinct threads.
 */
#ifndef PERFREG_READ_H
#define PERFREG_READ_H

#include <stddef.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/sample.h"

#define PR_READ_LINE_MAX (1024 * 1024)
#define PR_READ_FILE_MAX ((size_t)1 << 30)  /* 1 GiB: csv, gobench */
#define PR_READ_JSON_MAX ((size_t)64 << 20) /* 64 MiB: JSON formats */
/* The most values one input may hold: 2^26 values, 512 MiB of doubles. */
#define PR_READ_VALUES_MAX ((size_t)1 << 26)

/*
 * The formats: PR_FORMAT_AUTO (detect), then one per PR_INPUT line of
 * perfreg/parse_formats.def, in its order (PR_FORMAT_NUMBERS,
 * PR_FORMAT_CSV, PR_FORMAT_HYPERFINE, PR_FORMAT_GOBENCH,
 * PR_FORMAT_PERFREG).
 */
enum pr_format {
	PR_FORMAT_AUTO = 0,
#define PR_INPUT(name, NAME) PR_FORMAT_##NAME,
#include "perfreg/parse_formats.def"
#undef PR_INPUT
};

/*
 * "auto", "numbers", "csv", "hyperfine", "gobench", "perfreg" (a static
 * string; "unknown" for a value that is no format), and back:
 * pr_format_parse fails with PR_EINVAL, naming the formats there are,
 * for an unknown name.
 */
const char *pr_format_str(enum pr_format f);
enum pr_status pr_format_parse(const char *name, enum pr_format *out,
    struct pr_error *err);

/*
 * The names of the formats for a message or a help text, "numbers, csv,
 * hyperfine, gobench or perfreg" ("auto, numbers, ..." when with_auto),
 * written into buf (cut at a name when size is too small).  Returns buf.
 */
const char *pr_format_names(char *buf, size_t size, int with_auto);

/*
 * ministat's input: path ("-" for standard input, "<stdin>" in messages),
 * the 1-based column (ministat's -C; 1 by default) of lines split at any
 * of delims (ministat's -d; NULL for " \t"; runs of delimiters count as
 * one), '#' starting a comment.  As in ministat, trailing white space is
 * trimmed, lines with fewer fields are skipped and a field starting with
 * '#' ends the line; unlike ministat, white space around the number is
 * allowed, a UTF-8 byte order mark is skipped, and every value must be a
 * finite decimal number (pr_parse_double).  Appends the values to out, in
 * order (out->sorted cleared) and gives back unused capacity; on failure
 * out is as it was.  Fails with PR_EINVAL (column < 1, empty delims),
 * PR_ENOTFOUND / PR_EIO (open or read, sys_errno set), PR_EPARSE /
 * PR_ERANGE at the line and column of a bad field, binary data or an
 * input without numbers, PR_ELIMIT for a line longer than
 * PR_READ_LINE_MAX or more than PR_READ_VALUES_MAX values, PR_ENOMEM.  Memory: the values, a read buffer of 1
 * MiB at most (up to PR_READ_LINE_MAX + 1 MiB while a long line does not
 * fit), and for a regular file of more than 4 MiB an
 * address-space reservation of 4 bytes per byte of file that only
 * becomes resident as values are stored.  Reentrant.
 */
enum pr_status pr_read_numbers(const char *path, int column, const char *delims,
    struct pr_sample *out, struct pr_error *err);

/*
 * pr_read_numbers on each of the n paths into out[i] (each initialised
 * and empty), the files read and parsed concurrently, one thread a
 * file on as many threads as there are online processors (at most n,
 * and at most PR_READ_THREADS_MAX); when sort is nonzero, each sample is
 * also sorted on the thread that read it.  Standard input ("-") is read
 * on the calling thread, in order, before the files.  Each file is read
 * exactly as pr_read_numbers reads it, so the values and the errors are
 * the same as reading them one after the other: on failure the error is
 * that of the failing path with the lowest index (its index in *failed
 * when failed is not NULL), and every out[i] is empty again.  When a
 * thread cannot be started its files are read on the calling thread.
 */
#define PR_READ_THREADS_MAX 64
enum pr_status pr_read_numbers_each(const char *const *paths, size_t n,
    int column, const char *delims, int sort, struct pr_sample *out,
    size_t *failed, struct pr_error *err);

/*
 * column: read only this metric.  For csv, the column with this label or
 * this name without its unit ("elapsed (s)" or "elapsed"), read even if
 * its first value is a word (then an error); for hyperfine, gobench and
 * perfreg, the metric of exactly this name ("Sum-8 ns/op").  A missing
 * one is PR_ENOTFOUND, naming the columns or metrics there are.  The
 * metric keeps its own name ("elapsed" for "elapsed (s)").  Ignored by
 * the numbers format, whose one metric is called `name`.
 */
struct pr_read_opts {
	enum pr_format format; /* PR_FORMAT_AUTO to detect */
	const char *column;    /* only this metric; NULL: all */
	const char *name;      /* numbers: the metric's name; NULL: "value" */
};

/* Defaults: detect the format, every numeric column, "value". */
void pr_read_opts_init(struct pr_read_opts *o);

/*
 * Reads path ("-" for standard input, named "<stdin>" in messages) into
 * out, which must be initialised: the metrics found are appended (a
 * metric already in out gets the new values added).  out->source is set
 * to the input's name if it was NULL.  o may be NULL for the defaults.
 * A metric already in out must have the same unit in this input.  On
 * failure err tells what and where, and out is as it was.
 */
enum pr_status pr_read_dataset(const char *path, const struct pr_read_opts *o,
    struct pr_dataset *out, struct pr_error *err);

/*
 * As pr_read_dataset, on an input already in memory: len bytes at data
 * (need not be NUL-terminated), called name in messages.  The caps
 * above apply.  The caller keeps data.
 */
enum pr_status pr_read_dataset_mem(const char *name, const char *data,
    size_t len, const struct pr_read_opts *o, struct pr_dataset *out,
    struct pr_error *err);

/*
 * One side of `perfreg compare`: pr_read_dataset, and the benchmark
 * outputs that `perfreg parse` reads (perfreg/parse.h: openssl speed,
 * iperf3 text and -J, GNU, bash and csh time, dd, perf stat...).
 *
 * With parse NULL: the formats above first, so that what they read
 * reads as before.  When they refuse a regular file as malformed
 * (PR_EPARSE; with o->format PR_FORMAT_AUTO), the file is given to the
 * parse registry's detection ("auto"): when a benchmark format
 * recognises it, the file is that tool's output, read as `parse` reads
 * it (a metric a value per record, the parser's PR_METRIC_RESULT marks
 * kept), and a failure is that parser's error; when none recognises it,
 * the first error stands ("expected a number, got 'n/a'").  Standard
 * input and other files that cannot be read twice get no second try.
 * With parse a format name of perfreg/parse.h ("auto" included), that
 * parser alone reads the input.
 *
 * o->column keeps one metric of a parsed output (PR_ENOTFOUND, naming
 * the metrics there are, when it has none of that name); metrics the
 * tool named without measuring them (no values) are left out.  *used
 * (used may be NULL) is set to the benchmark format that read the input,
 * or NULL when a format above did.  On failure out is as it was (but
 * for PR_ENOMEM while merging).
 */
enum pr_status pr_read_any(const char *path, const struct pr_read_opts *o,
    const char *parse, struct pr_dataset *out, const char **used,
    struct pr_error *err);

/*
 * pr_read_any on each of the n paths into out[i] (each initialised and
 * empty), concurrently as pr_read_numbers_each reads its files: one
 * thread a file on as many threads as there are online processors,
 * standard input read first on the calling thread.  The values and the
 * errors are those of reading the paths one after the other: on failure
 * the error is that of the failing path with the lowest index (its index
 * in *failed when failed is not NULL), and every out[i] is empty again.
 * used (NULL, or n entries) gets each path's benchmark format, as
 * pr_read_any's used.
 */
enum pr_status pr_read_any_each(const char *const *paths, size_t n,
    const struct pr_read_opts *o, const char *parse, struct pr_dataset *out,
    const char **used, size_t *failed, struct pr_error *err);

/*
 * Which format the first bytes of an input look like: the format whose
 * reader scores them highest (parse/bench.h's PR_DETECT_* levels, the
 * earlier format on a tie), which comes to this order:
 * - nothing but white space (or len 0): PR_FORMAT_AUTO (no format);
 * - JSON (first character '{'): hyperfine when its first member key among
 *   "results" and "metrics" is "results", perfreg when it is "metrics",
 *   PR_FORMAT_AUTO when neither appears;
 * - gobench when a line is a Go benchmark result ("BenchmarkX 100 5
 *   ns/op") or the first line is a Go configuration line ("goos: ...",
 *   "goarch: ...", "pkg: ...", "cpu: ...");
 * - csv when the first line that is neither blank nor a '#' comment
 *   contains ',', ';' or a tab and its first field is not a number (a
 *   header); a one-column CSV needs the format forced;
 * - numbers otherwise, so that a word where a number belongs is reported
 *   by the numbers reader at its line.
 * A leading UTF-8 byte order mark is skipped.  Pure; thread-safe.
 */
enum pr_format pr_format_detect(const char *head, size_t len);

#endif /* PERFREG_READ_H */
