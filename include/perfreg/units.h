/*
 * perfreg/units.h - what a unit says about a metric: whether higher or
 * lower values are better, and where a column label names its unit.
 *
 * Every reader (csv, gobench, perfreg JSON without "better") and
 * `perfreg parse` infer a metric's direction here, so that the same unit
 * always gets the same direction.  The rules, case-insensitive:
 * - a rate, "A/T" with T a time unit ("MB/s", "ops/s", "Gbits/sec",
 *   "req/min"), or a name ending in "bps" ("Mbps", "GBps") or one of
 *   "iops", "qps", "tps", "rps", "fps": higher is better;
 * - a time ("s", "sec", "seconds", "ms", "us", "µs", "ns", "min", "h"
 *   and their long forms), "cycles", or a cost per unit of work: "A/W"
 *   with A a time unit or "cycles" ("ns/op", "ms/req", "cycles/byte"),
 *   or W one of "op", "iter", "call", "run", "req", "request", "query",
 *   "txn" ("B/op", "allocs/op", as Go benchmarks report them): lower is
 *   better;
 * - anything else (sizes, counts, percentages, frequencies, ""): unknown,
 *   because a size or a count can be good or bad depending on what it
 *   counts.  The caller asks the user (--higher-is-better) then.
 *
 * All functions are pure: thread-safe, no allocation.
 */
#ifndef PERFREG_UNITS_H
#define PERFREG_UNITS_H

#include <stddef.h>

#include "perfreg/verdict.h"

/* The largest unit pr_unit_from_label extracts, with its NUL. */
#define PR_UNIT_MAX 64

/* The direction implied by unit (NUL-terminated; NULL is ""). */
enum pr_better pr_unit_direction(const char *unit);

/*
 * Whether unit is a unit perfreg knows: one with a direction, or a size
 * ("B", "bytes", "KiB", "MB", ...), "%", a frequency ("Hz", "GHz") or a
 * count of "ops".  A CSV column labelled with a known unit ("time (ms)",
 * "rss_kib") must hold numbers; one labelled "name (short)" need not.
 */
int pr_unit_known(const char *unit);

/* "higher" / "lower" / "unknown" (also "" and "unknown") -> direction.
 * Returns -1 for any other word, else 0. */
int pr_better_from_str(const char *s, enum pr_better *out);

struct pr_unit_label {
	size_t name_off;        /* the metric name is the name_len bytes */
	size_t name_len;        /* at label + name_off */
	char unit[PR_UNIT_MAX]; /* "" when the label names no unit */
};

/*
 * Splits a column label (len bytes, not necessarily NUL-terminated) into
 * a metric name and a unit:
 * - "time (ms)", "time [ms]": name "time", unit "ms" (the text between
 *   the brackets, trimmed; labels whose bracketed text is empty or longer
 *   than PR_UNIT_MAX - 1 bytes are left whole);
 * - a known suffix after '_' keeps the whole label as the name and gives
 *   the unit: "elapsed_s" -> "s", "wall_ns" -> "ns", "rss_kib" -> "KiB",
 *   "size_bytes" -> "bytes", "tx_mbps" -> "Mbps", "cpu_pct" -> "%",
 *   "bytes_per_s" -> "bytes/s", "allocs_per_op" -> "allocs/op";
 * - otherwise the whole label is the name and the unit is "".
 * White space around the name is left out of [name_off, name_off +
 * name_len); an all-blank label gives name_len 0.
 */
void pr_unit_from_label(const char *label, size_t len,
    struct pr_unit_label *out);

#endif /* PERFREG_UNITS_H */
