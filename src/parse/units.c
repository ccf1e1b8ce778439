/*
 * parse/units.c - the direction a unit implies, and units in column
 * labels.
 *
 * The rules are listed in perfreg/units.h.  They are deliberately
 * conservative: only times, costs per operation and rates get a
 * direction, because those are the only units whose better side does not
 * depend on what is measured.  Comparisons are ASCII case-insensitive
 * and do not depend on the locale.
 */
#include <assert.h>
#include <string.h>

#include "perfreg/units.h"
#include "core/banned.h"

static const char *const time_units[] = { "s", "sec", "secs", "second",
	"seconds", "ms", "msec", "msecs", "millisecond", "milliseconds", "us",
	"usec", "usecs", "microsecond", "microseconds", "\xc2\xb5s",
	"\xce\xbcs", /* micro sign and Greek mu */
	"ns", "nsec", "nsecs", "nanosecond", "nanoseconds", "min", "mins",
	"minute", "minutes", "h", "hr", "hrs", "hour", "hours", NULL };

/* Units of work that make "X/work" a cost per operation. */
static const char *const work_units[] = { "op", "ops", "iter", "iteration",
	"call", "run", "req", "request", "query", "txn", NULL };

static const char *const cost_units[] = { "cycles", "cycle", "instructions",
	"insns", NULL };

static const char *const rate_words[] = { "iops", "qps", "tps", "rps", "fps",
	NULL };

/* Suffixes of column labels ("rss_kib") and the units they name. */
static const struct {
	const char *suffix;
	const char *unit;
} suffixes[] = { { "ns", "ns" }, { "nsec", "ns" }, { "us", "us" },
	{ "usec", "us" }, { "ms", "ms" }, { "msec", "ms" }, { "s", "s" },
	{ "sec", "s" }, { "secs", "s" }, { "seconds", "s" }, { "min", "min" },
	{ "bytes", "bytes" }, { "kib", "KiB" }, { "mib", "MiB" },
	{ "gib", "GiB" }, { "kb", "kB" }, { "mb", "MB" }, { "gb", "GB" },
	{ "bps", "bps" }, { "kbps", "kbps" }, { "mbps", "Mbps" },
	{ "gbps", "Gbps" }, { "iops", "iops" }, { "qps", "qps" },
	{ "tps", "tps" }, { "rps", "rps" }, { "pct", "%" }, { "percent", "%" },
	{ "hz", "Hz" }, { "khz", "kHz" }, { "mhz", "MHz" }, { "ghz", "GHz" },
	{ "cycles", "cycles" }, { NULL, NULL } };

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int
is_blank(int c)
{
	return c == ' ' || c == '\t';
}

/* Whether s[0, len) equals the lowercase word w, ignoring ASCII case. */
static int
eqi(const char *s, size_t len, const char *w)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (w[i] == '\0' ||
		    lower((unsigned char)s[i]) != (unsigned char)w[i])
			return 0;
	return w[len] == '\0';
}

static int
inset(const char *s, size_t len, const char *const *set)
{
	for (; *set != NULL; set++)
		if (eqi(s, len, *set))
			return 1;
	return 0;
}

static void
trim(const char **b, const char **e)
{
	while (*b < *e && is_blank((unsigned char)**b))
		(*b)++;
	while (*e > *b && is_blank((unsigned char)(*e)[-1]))
		(*e)--;
}

enum pr_better
pr_unit_direction(const char *unit)
{
	const char *b, *e, *slash, *p;
	size_t n;

	if (unit == NULL)
		return PR_BETTER_UNKNOWN;
	b = unit;
	e = unit + strlen(unit);
	trim(&b, &e);
	if (b == e)
		return PR_BETTER_UNKNOWN;
	slash = NULL;
	for (p = b; p < e; p++)
		if (*p == '/')
			slash = p;
	if (slash != NULL) {
		const char *ab = b, *ae = slash, *wb = slash + 1, *we = e;

		trim(&ab, &ae);
		trim(&wb, &we);
		if (inset(wb, (size_t)(we - wb), time_units))
			return PR_BETTER_HIGHER;
		if (inset(ab, (size_t)(ae - ab), time_units) ||
		    inset(ab, (size_t)(ae - ab), cost_units) ||
		    inset(wb, (size_t)(we - wb), work_units))
			return PR_BETTER_LOWER;
		return PR_BETTER_UNKNOWN;
	}
	n = (size_t)(e - b);
	if (inset(b, n, time_units) || inset(b, n, cost_units))
		return PR_BETTER_LOWER;
	if (inset(b, n, rate_words))
		return PR_BETTER_HIGHER;
	if (n >= 3 && eqi(e - 3, 3, "bps"))
		return PR_BETTER_HIGHER;
	return PR_BETTER_UNKNOWN;
}

static const char *const other_units[] = { "b", "byte", "bytes", "kb", "kib",
	"mb", "mib", "gb", "gib", "tb", "tib", "%", "hz", "khz", "mhz", "ghz",
	"ops", NULL };

int
pr_unit_known(const char *unit)
{
	const char *b, *e;

	if (unit == NULL)
		return 0;
	if (pr_unit_direction(unit) != PR_BETTER_UNKNOWN)
		return 1;
	b = unit;
	e = unit + strlen(unit);
	trim(&b, &e);
	return inset(b, (size_t)(e - b), other_units);
}

int
pr_better_from_str(const char *s, enum pr_better *out)
{
	size_t n = strlen(s);

	if (eqi(s, n, "higher"))
		*out = PR_BETTER_HIGHER;
	else if (eqi(s, n, "lower"))
		*out = PR_BETTER_LOWER;
	else if (n == 0 || eqi(s, n, "unknown"))
		*out = PR_BETTER_UNKNOWN;
	else
		return -1;
	return 0;
}

/* The unit a label suffix names, or NULL. */
static const char *
suffix_unit(const char *s, size_t len)
{
	size_t i;

	for (i = 0; suffixes[i].suffix != NULL; i++)
		if (eqi(s, len, suffixes[i].suffix))
			return suffixes[i].unit;
	return NULL;
}

/* Appends s[0, len) to the unit being built, if it fits. */
static int
put(char *unit, size_t *at, const char *s, size_t len)
{
	if (*at + len >= PR_UNIT_MAX)
		return -1;
	memcpy(unit + *at, s, len);
	*at += len;
	unit[*at] = '\0';
	return 0;
}

/*
 * "WORD_per_T" with T a time ("bytes_per_s") or a unit of work
 * ("allocs_per_op"): the unit "WORD/s" or "WORD/op", with the known
 * spellings tidied ("mb_per_sec" -> "MB/s").  b..e is the whole
 * label, us the position of the last '_'.
 */
static int
per_unit(const char *b, const char *us, const char *e, char *unit)
{
	const char *t = us + 1, *wb, *we;
	const char *word, *den;
	size_t at = 0;

	if (!inset(t, (size_t)(e - t), time_units) &&
	    !inset(t, (size_t)(e - t), work_units))
		return -1;
	den = suffix_unit(t, (size_t)(e - t)); /* "sec" -> "s" */
	if (us - b < 5 || !eqi(us - 4, 4, "_per"))
		return -1;
	we = us - 4;
	for (wb = we; wb > b && wb[-1] != '_' && !is_blank(wb[-1]); wb--)
		continue;
	if (wb == we)
		return -1;
	word = suffix_unit(wb, (size_t)(we - wb));
	if (word != NULL ? put(unit, &at, word, strlen(word))
			 : put(unit, &at, wb, (size_t)(we - wb)))
		return -1;
	if (put(unit, &at, "/", 1))
		return -1;
	if (den != NULL ? put(unit, &at, den, strlen(den))
			: put(unit, &at, t, (size_t)(e - t)))
		return -1;
	return 0;
}

void
pr_unit_from_label(const char *label, size_t len, struct pr_unit_label *out)
{
	const char *b = label, *e = label + len, *p, *open, *us;
	const char *ib, *ie, *nb, *ne;
	const char *u;
	char close;

	assert(label != NULL);
	out->unit[0] = '\0';
	trim(&b, &e);
	out->name_off = (size_t)(b - label);
	out->name_len = (size_t)(e - b);
	if (b == e)
		return;

	/* "name (unit)" and "name [unit]" */
	close = e[-1];
	if (close == ')' || close == ']') {
		open = NULL;
		for (p = e - 1; p > b; p--)
			if (p[-1] == (close == ')' ? '(' : '[')) {
				open = p - 1;
				break;
			}
		if (open != NULL) {
			ib = open + 1;
			ie = e - 1;
			nb = b;
			ne = open;
			trim(&ib, &ie);
			trim(&nb, &ne);
			if (ib < ie && (size_t)(ie - ib) < PR_UNIT_MAX &&
			    nb < ne) {
				memcpy(out->unit, ib, (size_t)(ie - ib));
				out->unit[ie - ib] = '\0';
				out->name_off = (size_t)(nb - label);
				out->name_len = (size_t)(ne - nb);
				return;
			}
		}
	}

	/* "name_suffix": the whole label stays the name. */
	us = NULL;
	for (p = b; p < e; p++)
		if (*p == '_')
			us = p;
	if (us == NULL || us == b || us + 1 == e)
		return;
	if (per_unit(b, us, e, out->unit) == 0)
		return;
	out->unit[0] = '\0';
	if ((u = suffix_unit(us + 1, (size_t)(e - us - 1))) != NULL)
		memcpy(out->unit, u, strlen(u) + 1);
}
