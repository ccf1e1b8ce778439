/*
 * parse/benchutil.c - lines, tokens and numbers for the parsers of
 * benchmark outputs (see bench.h).
 *
 * Numbers go through pr_read_number (pr_parse_double underneath), so that
 * every parser rejects NaN, infinities, overflow and trailing junk alike.
 * Scaling by a power of ten ("586.20k", "35.9 Gbits/sec") is done by
 * rewriting the exponent of the decimal text rather than by multiplying,
 * so the result is the double nearest to the scaled decimal value, not a
 * product with a second rounding error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parse/bench.h"
#include "perfreg/numparse.h"
#include "perfreg/parse.h"
#include "perfreg/units.h"
#include "core/banned.h"

void
pr_lines_init(struct pr_lines *it, const struct pr_input *in)
{
	it->in = in;
	it->p = in->data;
	it->no = 0;
	if (in->len >= 3 && memcmp(in->data, "\xef\xbb\xbf", 3) == 0)
		it->p += 3;
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

int
pr_lines_next(struct pr_lines *it, struct pr_line *l)
{
	const char *end = it->in->data + it->in->len;
	const char *s = it->p, *e, *r;

	if (s >= end)
		return 0;
	e = memchr(s, '\n', (size_t)(end - s));
	if (e == NULL)
		e = end;
	it->p = e < end ? e + 1 : end;
	it->no++;
	l->raw = s;
	l->no = it->no;
	l->cut = e == end;
	if (e > s && e[-1] == '\r')
		e--;
	for (r = e; r > s; r--)
		if (r[-1] == '\r') {
			s = r;
			break;
		}
	while (s < e && *s == '>') {
		s++;
		if (s < e && *s == ' ')
			s++;
	}
	l->s = s;
	l->e = e;
	return 1;
}

int
pr_lines_next_text(struct pr_lines *it, struct pr_line *l)
{
	const char *end = it->in->data + it->in->len;
	const char *p = it->p, *s = it->p;

	/*
	 * One pass over the blank lines: each byte is looked at once, and a
	 * line is counted at its line end; the first line with something
	 * else in it is read from its start as pr_lines_next reads it.
	 */
	for (; p < end; p++) {
		if (*p == '\n') {
			it->no++;
			s = p + 1;
		} else if (!is_blank(*p)) {
			it->p = s;
			return pr_lines_next(it, l);
		}
	}
	it->p = end;
	return 0;
}

size_t
pr_tokens(const char *s, const char *e, struct pr_tok *t, size_t max)
{
	size_t n = 0;
	const char *b;

	for (;;) {
		while (s < e && is_blank(*s))
			s++;
		if (s == e)
			return n;
		b = s;
		while (s < e && !is_blank(*s))
			s++;
		if (n < max) {
			t[n].s = b;
			t[n].n = (size_t)(s - b);
		}
		n++;
	}
}

size_t
pr_fields(const char *s, const char *e, char sep, struct pr_tok *f, size_t max)
{
	size_t n = 0;
	const char *b = s;

	for (;; s++) {
		if (s == e || *s == sep) {
			if (n < max) {
				f[n].s = b;
				f[n].n = (size_t)(s - b);
			}
			n++;
			if (s == e)
				return n;
			b = s + 1;
		}
	}
}

int
pr_tok_eq(const struct pr_tok *t, const char *word)
{
	size_t n = strlen(word);

	return t->n == n && memcmp(t->s, word, n) == 0;
}

int
pr_tok_prefix(const struct pr_tok *t, const char *prefix)
{
	size_t n = strlen(prefix);

	return t->n >= n && memcmp(t->s, prefix, n) == 0;
}

int
pr_tok_suffix(const struct pr_tok *t, const char *suffix)
{
	size_t n = strlen(suffix);

	return t->n >= n && memcmp(t->s + t->n - n, suffix, n) == 0;
}

const char *
pr_find(const char *s, const char *e, const char *needle)
{
	size_t n = strlen(needle);

	if (n == 0)
		return s;
	while ((size_t)(e - s) >= n) {
		const char *p = memchr(s, needle[0], (size_t)(e - s) - n + 1);

		if (p == NULL)
			return NULL;
		if (memcmp(p, needle, n) == 0)
			return p;
		s = p + 1;
	}
	return NULL;
}

int
pr_has(const char *s, const char *e, const char *needle)
{
	return pr_find(s, e, needle) != NULL;
}

int
pr_starts(const char *s, const char *e, const char *prefix)
{
	size_t n = strlen(prefix);

	while (s < e && is_blank(*s))
		s++;
	return (size_t)(e - s) >= n && memcmp(s, prefix, n) == 0;
}

int
pr_is_decimal(const char *s, const char *e)
{
	int digits = 0, points = 0;

	for (; s < e; s++) {
		if (*s >= '0' && *s <= '9')
			digits++;
		else if (*s == '.' && points++ == 0)
			continue;
		else
			return 0;
	}
	return digits > 0;
}

/*
 * Whether [s, e) is meant as a value: it starts like a number, or spells
 * NaN or an infinity (which pr_bench_num then rejects by name).
 */
int
pr_valueish(const char *s, const char *e)
{
	const char *p = s;

	if (p < e && (*p == '-' || *p == '+'))
		p++;
	if (p < e && ((*p >= '0' && *p <= '9') || *p == '.'))
		return 1;
	return (e - p == 3 &&
		   (strncmp(p, "nan", 3) == 0 || strncmp(p, "NaN", 3) == 0 ||
		       strncmp(p, "inf", 3) == 0)) ||
	    (e - p == 8 && strncmp(p, "infinity", 8) == 0);
}

enum pr_status
pr_bench_fail(const struct pr_input *in, const struct pr_line *l, const char *p,
    struct pr_error *err, const char *fmt, ...)
{
	char msg[PR_ERROR_MSG_MAX];
	va_list ap;
	long col = 0;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (l != NULL && p != NULL && p >= l->raw && p <= l->e)
		col = (long)(p - l->raw) + 1;
	return pr_error_at(err, PR_EPARSE, in->name, l != NULL ? l->no : 0, col,
	    "%s", msg);
}

enum pr_status
pr_bench_none(const struct pr_input *in, const struct pr_line *hint,
    const char *tool, struct pr_error *err)
{
	if (hint != NULL && hint->s != NULL)
		return pr_bench_fail(in, hint, hint->s, err,
		    "no %s results; %s said: %.*s", tool, tool,
		    (int)(hint->e - hint->s > 200 ? 200 : hint->e - hint->s),
		    hint->s);
	return pr_error_at(err, PR_EPARSE, in->name, 0, 0,
	    "no %s results found", tool);
}

enum pr_status
pr_bench_uncut(const struct pr_input *in, const struct pr_line *l,
    const char *p, struct pr_error *err)
{
	if (l == NULL || !l->cut)
		return PR_OK;
	return pr_bench_fail(in, l, p, err,
	    "the input ends inside this line (no line end after it): a "
	    "record cut short");
}

enum pr_status
pr_bench_num(const struct pr_input *in, const struct pr_line *l, const char *s,
    const char *e, int exp10, int sign, const char *where, double *out,
    struct pr_error *err)
{
	char buf[96], ex[64];
	const char *stop;
	enum pr_status st;
	int n;

	if ((st = pr_bench_uncut(in, l, s, err)) != PR_OK)
		return st;

	if (!sign && s < e && (*s == '-' || *s == '+')) {
		pr_read_excerpt(ex, sizeof(ex), s, (size_t)(e - s));
		return pr_bench_fail(in, l, s, err,
		    "expected a number without a sign%s%s, got '%s'",
		    where != NULL ? " " : "", where != NULL ? where : "", ex);
	}
	if (exp10 == 0)
		return pr_read_number(in, s, e, where, out, err);
	if (!pr_is_decimal(s, e) || (size_t)(e - s) > 64) {
		/* Let the generic reader explain what is wrong with it. */
		if ((st = pr_read_number(in, s, e, where, out, err)) != PR_OK)
			return st;
		pr_read_excerpt(ex, sizeof(ex), s, (size_t)(e - s));
		return pr_bench_fail(in, l, s, err,
		    "expected a plain decimal number%s%s, got '%s'",
		    where != NULL ? " " : "", where != NULL ? where : "", ex);
	}
	n = snprintf(buf, sizeof(buf), "%.*se%d", (int)(e - s), s, exp10);
	if (n < 0 || (size_t)n >= sizeof(buf) ||
	    pr_parse_double(buf, buf + n, &stop, out, NULL) != PR_OK ||
	    stop != buf + n) {
		pr_read_excerpt(ex, sizeof(ex), s, (size_t)(e - s));
		return pr_bench_fail(in, l, s, err,
		    "number out of range once scaled: '%s'", ex);
	}
	return PR_OK;
}

enum pr_status
pr_bench_tnum(const struct pr_input *in, const struct pr_line *l,
    const struct pr_tok *t, int exp10, const char *where, double *out,
    struct pr_error *err)
{
	return pr_bench_num(in, l, t->s, t->s + t->n, exp10, 0, where, out,
	    err);
}

/* The metric name, created if needed; its unit must be unit. */
static enum pr_status
get_metric(struct pr_dataset *out, const char *name, const char *unit,
    enum pr_better better, struct pr_metric **m, struct pr_error *err)
{
	enum pr_status st;

	if ((st = pr_dataset_get(out, name, unit, better, m, err)) != PR_OK)
		return st;
	if (strcmp((*m)->unit, unit) != 0)
		return pr_error_set(err, PR_EPARSE,
		    "metric '%s' is in '%s' and in '%s' in the same input",
		    name, (*m)->unit, unit);
	return PR_OK;
}

enum pr_status
pr_bench_add(struct pr_dataset *out, const char *name, const char *unit,
    enum pr_better better, double value, struct pr_error *err)
{
	struct pr_metric *m;
	enum pr_status st;

	if ((st = get_metric(out, name, unit, better, &m, err)) != PR_OK)
		return st;
	return pr_sample_push(&m->values, value, err);
}

enum pr_status
pr_bench_absent(struct pr_dataset *out, const char *name, const char *unit,
    enum pr_better better, struct pr_error *err)
{
	struct pr_metric *m;

	return get_metric(out, name, unit, better, &m, err);
}

/* Reads the unsigned integer [s, e) into *v; -1 when it is not one. */
static int
uint_of(const char *s, const char *e, long *v)
{
	long x = 0;

	if (s == e)
		return -1;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9' || x > 100000000L)
			return -1;
		x = x * 10 + (*s - '0');
	}
	*v = x;
	return 0;
}

enum pr_status
pr_bench_clock(const struct pr_input *in, const struct pr_line *l,
    const char *s, const char *e, int bash, double *out, struct pr_error *err)
{
	const char *c1 = NULL, *c2 = NULL, *p, *secs = s;
	long h = 0, m = 0;
	double sec;
	enum pr_status st;
	char ex[64];

	if ((st = pr_bench_uncut(in, l, s, err)) != PR_OK)
		return st;
	pr_read_excerpt(ex, sizeof(ex), s, (size_t)(e - s));
	if (bash) {
		/* bash and ksh: "0m5.300s", "12m0.5s". */
		p = memchr(s, 'm', (size_t)(e - s));
		if (p == NULL || e - s < 3 || e[-1] != 's' ||
		    uint_of(s, p, &m) != 0)
			return pr_bench_fail(in, l, s, err,
			    "expected a time like '0m5.300s', got '%s'", ex);
		secs = p + 1;
		e--;
	} else {
		for (p = s; p < e; p++)
			if (*p == ':') {
				if (c1 == NULL)
					c1 = p;
				else if (c2 == NULL)
					c2 = p;
				else
					return pr_bench_fail(in, l, s, err,
					    "expected a time like "
					    "'1:02:03.4', got '%s'",
					    ex);
			}
		if (c2 != NULL) {
			if (uint_of(s, c1, &h) != 0 ||
			    uint_of(c1 + 1, c2, &m) != 0 || m >= 60)
				return pr_bench_fail(in, l, s, err,
				    "expected a time like '1:02:03', got '%s'",
				    ex);
			secs = c2 + 1;
		} else if (c1 != NULL) {
			if (uint_of(s, c1, &m) != 0)
				return pr_bench_fail(in, l, s, err,
				    "expected a time like '0:07.69', got '%s'",
				    ex);
			secs = c1 + 1;
		}
	}
	if (!pr_is_decimal(secs, e))
		return pr_bench_fail(in, l, s, err, "expected a time, got '%s'",
		    ex);
	if ((st = pr_read_number(in, secs, e, NULL, &sec, err)) != PR_OK)
		return st;
	if ((c1 != NULL || bash) && sec >= 60)
		return pr_bench_fail(in, l, s, err,
		    "seconds past 59 in the time '%s'", ex);
	*out = (double)h * 3600 + (double)m * 60 + sec;
	return PR_OK;
}

/* Whether [s, e) is a unit word: letters, digits and "%/._-" only. */
static int
unit_word(const char *s, const char *e)
{
	for (; s < e; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			(*s >= '0' && *s <= '9') ||
			strchr("%/._-", *s) != NULL))
			return 0;
	return 1;
}

int
pr_spec_suffixes(const char *s, const char **e, char *unit,
    enum pr_better *better)
{
	const char *p, *end = *e;
	int have_dir = 0;

	*better = PR_BETTER_UNKNOWN;
	unit[0] = '\0';
	p = end;
	while (p > s && p[-1] != ':')
		p--;
	if (p > s &&
	    ((end - p == 6 && memcmp(p, "higher", 6) == 0) ||
		(end - p == 5 && memcmp(p, "lower", 5) == 0))) {
		*better = *p == 'h' ? PR_BETTER_HIGHER : PR_BETTER_LOWER;
		have_dir = 1;
		end = p - 1;
		p = end;
		while (p > s && p[-1] != ':')
			p--;
	}
	/* A backslash before the colon makes it part of the regex. */
	if (p > s && unit_word(p, end) && !(p - 1 > s && p[-2] == '\\')) {
		if (end - p >= PR_PARSE_NAME_MAX)
			return -1;
		memcpy(unit, p, (size_t)(end - p));
		unit[end - p] = '\0';
		end = p - 1;
	}
	if (!have_dir)
		*better = pr_unit_direction(unit);
	*e = end;
	return 0;
}
