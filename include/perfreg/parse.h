/*
 * perfreg/parse.h - reading metrics out of what benchmarks print: the
 * library behind `perfreg parse`, and the parser `perfreg run` applies to
 * the captured output of each run.
 *
 * A parser (struct pr_parser) bundles three things, set up once and then
 * applied to any number of outputs:
 * - a format: one of the built-in formats below, "auto" (the default:
 *   detected by content, per input) or "none" (only the user metrics);
 * - user metrics, `NAME=REGEX[:UNIT][:higher|lower]` (PCRE2 syntax; the
 *   first capture group of every match is one value);
 * - derived metrics, `NAME=EXPR[:UNIT][:higher|lower]`, computed from the
 *   other metrics of the same output with + - * / and parentheses.
 *
 * Built-in formats (their list is perfreg/parse_formats.def; the metric
 * names are stable, and doc/perfreg.1, the reference, lists them all):
 * - "openssl": `openssl speed`, 1.0.x to 3.x.  The throughput table
 *   ("des-ede3-cbc/16B", B/s, higher: the 'k' suffix is 1000 bytes per
 *   second, a value without it is bytes per second, 0.00 means "not
 *   measured" and is reported absent), the "Doing X for Ns on L size
 *   blocks: C X's in Ts" lines ("x/LB/ops", the count C, and
 *   "x/LB/ops_per_s" = C / T), the -mr lines (+H, +F, +DT, +R, +F2..+F8),
 *   the sign/verify and op tables of rsa, dsa, ecdsa, ecdh, eddsa, sm2
 *   and ffdh ("rsa2048/sign", "ecdsap256/verify", "ecdhp256/op",
 *   "ed25519/sign", ops/s, higher; algorithms are named as the openssl
 *   speed argument that selects them), and -multi (the summed table;
 *   the interleaved per-child lines are not read).  Algorithm names are
 *   lowercased, with spaces turned into '-' ("des ede3" -> "des-ede3").
 * - "iperf3": the text output of client and server, and -J JSON.  Sender
 *   and receiver summary lines give "sender_bitrate" / "receiver_bitrate"
 *   (bit/s, higher; iperf3's "Mbits/sec" are powers of 1000),
 *   "sender_transfer" / "receiver_transfer" (bytes, higher; iperf3's
 *   "MBytes" are powers of 1024), "sender_retransmits" (lower); UDP
 *   gives "receiver_jitter" (ms, lower), "receiver_lost" (datagrams,
 *   lower), "receiver_lost_pct" (%, lower) and "receiver_datagrams"; the
 *   [SUM] lines are used when there are parallel streams, and each
 *   stream's lines give "stream1_sender_bitrate" and so on; the CPU
 *   utilisation (-J, or -V's text) gives "cpu_host", "cpu_host_user",
 *   "cpu_host_system", "cpu_remote", "cpu_remote_user",
 *   "cpu_remote_system" (%, lower).  An iperf3
 *   error ("iperf3: error - ...", or the "error" member of -J JSON) is
 *   an error, not a result.
 * - "time": GNU time's default output, -v and -p; the `time` of bash,
 *   ksh, zsh and csh/tcsh ("7.258u 0.000s 0:07.69 94.2% 2+70k 2+0io
 *   0pf+0w"); and dd's transfer summary (GNU and BSD), because dd and
 *   time are usually captured together.  Names: "elapsed", "user",
 *   "sys" (s, lower), "cpu" (%), "maxrss" (KiB, lower), ... and
 *   "dd_bytes", "dd_seconds", "dd_rate" (B/s, higher).  A timed command
 *   that exited non-zero ("Command exited with non-zero status 1") is
 *   reported with its figures and "exit_status" (then given for every
 *   record, 0 where the line is missing); one killed by a signal is an
 *   error.
 * - "perf": `perf stat` human output and -x CSV (-r too): one metric per
 *   event ("task-clock" in ms, counts without a unit, lower), and
 *   "elapsed", "user", "sys" (s, lower).  "<not supported>" and
 *   "<not counted>" events are reported absent, never as zero.
 * - "hyperfine" and "gobench": the readers of perfreg/read.h.
 *
 * Absent metrics: a metric the tool named but did not measure is created
 * in the dataset with no values (n == 0).  Consumers that compute on
 * values must skip such metrics.
 *
 * Errors: an input that matches no format (with no user metrics), a
 * table cut short, a number that is not finite or out of range (nan,
 * 1e999), a line longer than PR_READ_LINE_MAX, a NUL byte or invalid
 * UTF-8 (binary junk): PR_EPARSE or PR_ELIMIT with the input's name and
 * line in err.  Nothing is ever read as a silent zero.  The rule of every
 * format: a line recognised as the format's must parse completely, or it
 * is an error at its line (GNU time's "nanuser 2.74sys#@!tem ..." is not
 * skipped); a number is a whole token written as the tool writes it
 * (openssl's "%.2f", a 'k' above 10000; "real 5.30" with its fraction;
 * bash's "sys\t0m0.000s", never a bare "sys\t0"); and a value on a last
 * line without a line end is an error, as the input may have been cut
 * inside it ("3050831.87k" cut to "3050831.").
 *
 * Thread-safety: a parser is immutable once set up; several threads may
 * call pr_parse_buffer with the same parser on distinct datasets.
 * Setting it up (pr_parser_set_format, _add_metric, _add_derive) is not
 * thread-safe.
 */
#ifndef PERFREG_PARSE_H
#define PERFREG_PARSE_H

#include <stddef.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"

/* The largest input pr_parse_file reads (PR_ELIMIT beyond). */
#define PR_PARSE_FILE_MAX ((size_t)256 << 20)

/* The largest metric name, unit or --metric / --derive spec accepted. */
#define PR_PARSE_NAME_MAX 256
#define PR_PARSE_SPEC_MAX 4096

/*
 * The built-in formats, for --help and error messages: the i-th name (in
 * the order of perfreg/parse_formats.def) and a one-line description,
 * or NULL past the end.  Static strings.
 */
const char *pr_parse_format_name(size_t i, const char **description);

struct pr_parser;

/*
 * Creates a parser with format "auto" and no user or derived metrics.
 * The caller frees it with pr_parser_free (NULL is a no-op).
 */
enum pr_status pr_parser_new(struct pr_parser **out, struct pr_error *err);
void pr_parser_free(struct pr_parser *p);

/*
 * Chooses the format: a built-in name, "auto" or "none".  PR_EINVAL,
 * naming the formats there are, for another name.
 */
enum pr_status pr_parser_set_format(struct pr_parser *p, const char *name,
    struct pr_error *err);

/*
 * Adds a user metric, `NAME=REGEX[:UNIT][:higher|lower]`.  The REGEX is
 * PCRE2 with PCRE2_MULTILINE (^ and $ match at every line), applied to
 * the whole output; each match gives one value, the text of its first
 * capture group, which must be a number and nothing else.  The suffixes
 * are read from the right: a last part "higher" or "lower" is the
 * direction, and then a last part made only of letters, digits and
 * "%/._-" is the unit; write a colon the REGEX needs in its last part as
 * "\:".  Without a direction, the unit's (perfreg/units.h) is used.
 * PR_EINVAL for a malformed spec, a REGEX that does not compile (with
 * PCRE2's message and offset) or has no capture group, or a name used
 * twice.
 */
enum pr_status pr_parser_add_metric(struct pr_parser *p, const char *spec,
    struct pr_error *err);

/*
 * Adds a derived metric, `NAME=EXPR[:UNIT][:higher|lower]`.  EXPR has
 * numbers (1e6, 0.5), metric names ([A-Za-z_][A-Za-z0-9_.]*, or any name
 * between braces: {des-ede3-cbc/16B}), + - * /, unary minus and
 * parentheses, with the usual precedence.  Example, seed 002's
 * throughput: "MBps=134217728/elapsed/1e6:MB/s".  Derived metrics are
 * computed in the order they were added and may use earlier ones.
 * PR_EINVAL for a syntax error (with its column).
 */
enum pr_status pr_parser_add_derive(struct pr_parser *p, const char *spec,
    struct pr_error *err);

/* Flags of pr_parse_buffer. */
#define PR_PARSE_NO_DERIVE 0x1 /* leave the derived metrics to the caller */

/*
 * Reads the metrics of one benchmark output, len bytes at data (need not
 * be NUL-terminated; the caller keeps it), called name in messages, and
 * appends them to out: a metric already in out gets the new values added
 * (its unit must be the same).  *format (format may be NULL) is set to
 * the format used: a built-in name, or "none"; also on failure, where a
 * built-in name says that the input was recognised as that tool's
 * output (damaged), and "none" that no format recognised it.  Unless
 * PR_PARSE_NO_DERIVE, the derived metrics are then computed over the
 * metrics of this output (not over what out held before).  p may be NULL
 * for a default parser.
 *
 * Failure: err as described above; out is unchanged (the metrics of an
 * output are added all or none), except after PR_ENOMEM while merging.
 */
enum pr_status pr_parse_buffer(const struct pr_parser *p, const char *data,
    size_t len, const char *name, unsigned flags, struct pr_dataset *out,
    const char **format, struct pr_error *err);

/*
 * As pr_parse_buffer on the contents of path ("-" is standard input,
 * called "<stdin>"), at most PR_PARSE_FILE_MAX bytes.  A missing file
 * is PR_ENOTFOUND, another failure to read it PR_EIO.
 */
enum pr_status pr_parse_file(const struct pr_parser *p, const char *path,
    unsigned flags, struct pr_dataset *out, const char **format,
    struct pr_error *err);

/*
 * Computes the parser's derived metrics over ds (for example one run's
 * parsed metrics plus the run's own wall time) and appends them to ds.
 * Every metric an expression names must be in ds with the same number
 * of values n >= 1 (the expression is computed value by value); an
 * expression of constants alone gives one value.  A missing metric, a
 * metric without values, counts that differ, a division by zero and a
 * result out of range are errors (PR_ENOTFOUND, PR_EUNDEF, PR_EINVAL,
 * PR_EUNDEF, PR_ERANGE), never a NaN.  A derived name that is already in
 * ds is PR_EINVAL.  On failure ds is unchanged.
 */
enum pr_status pr_parser_derive(const struct pr_parser *p,
    struct pr_dataset *ds, struct pr_error *err);

#endif /* PERFREG_PARSE_H */
