/*
 * report/escape.c - bytes from outside made safe for a terminal, for a
 * spreadsheet and for JSON (perfreg/report.h, report/internal.h): control
 * bytes written as `cat -v` writes them, CSV cells quoted and disarmed
 * against formula injection, invalid UTF-8 in a JSON string replaced by
 * U+FFFD.  Every writer of src/report uses these, so that hostile input
 * looks the same in every report.
 *
 * Invariants: printable ASCII and valid UTF-8 outside the C1 range pass
 * unchanged, so that an ordinary name ("µs", "copy.memcpy.64B") is
 * written as it was given and the golden outputs do not move; the output
 * of pr_report_escape never holds a byte below 0x20 (but the newline or
 * tab the caller kept), 0x7f, or a C1 control.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "perfreg/report.h"
#include "report/internal.h"
#include "core/banned.h"

/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and code points past U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* One byte as cat -v writes it. */
static enum pr_status
catv(struct pr_buf *out, unsigned char c, struct pr_error *err)
{
	enum pr_status st;

	if (c >= 0x80) {
		if ((st = pr_buf_adds(out, "M-", err)) != PR_OK)
			return st;
		c &= 0x7f;
	}
	if (c < 0x20) {
		if ((st = pr_buf_addc(out, '^', err)) != PR_OK)
			return st;
		return pr_buf_addc(out, (char)(c + '@'), err);
	}
	if (c == 0x7f)
		return pr_buf_adds(out, "^?", err);
	return pr_buf_addc(out, (char)c, err);
}

enum pr_status
pr_report_escape(struct pr_buf *out, const char *s, size_t len, int flags,
    struct pr_error *err)
{
	const unsigned char *p = (const unsigned char *)s;
	enum pr_status st = PR_OK;
	size_t i = 0, run, k;

	while (i < len && st == PR_OK) {
		/* The longest run that needs nothing, in one append. */
		for (run = i; run < len; run++) {
			if (p[run] >= 0x20 && p[run] < 0x7f)
				continue;
			if ((p[run] == '\n' && (flags & PR_ESCAPE_NEWLINE)) ||
			    (p[run] == '\t' && (flags & PR_ESCAPE_TAB)))
				continue;
			if (p[run] >= 0x80 &&
			    (k = utf8_len(p + run, len - run)) > 0 &&
			    !(p[run] == 0xc2 && p[run + 1] < 0xa0)) {
				run += k - 1;
				continue;
			}
			break;
		}
		if (run > i &&
		    (st = pr_buf_add(out, p + i, run - i, err)) != PR_OK)
			break;
		i = run;
		if (i >= len)
			break;
		/* A C1 control in UTF-8: both bytes, as cat -v shows them. */
		if (p[i] == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 &&
		    p[i + 1] < 0xa0) {
			if ((st = catv(out, p[i], err)) == PR_OK)
				st = catv(out, p[i + 1], err);
			i += 2;
			continue;
		}
		st = catv(out, p[i], err);
		i++;
	}
	return st;
}

char *
pr_report_escape_str(const char *s, int flags)
{
	struct pr_buf b = PR_BUF_INIT((size_t)1 << 30);

	if (pr_report_escape(&b, s, strlen(s), flags, NULL) != PR_OK ||
	    pr_buf_addc(&b, '\0', NULL) != PR_OK) {
		pr_buf_release(&b);
		return NULL;
	}
	return pr_buf_detach(&b, NULL);
}

/* 1 when s is a whole number as a spreadsheet reads one: an optional
 * sign, digits with at most one point, an optional exponent. */
static int
plain_number(const char *s)
{
	int digits = 0;

	if (*s == '+' || *s == '-')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	if (digits == 0)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

enum pr_status
pr_report_csv_cell(struct pr_buf *out, const char *s, struct pr_error *err)
{
	enum pr_status st;
	int formula = strchr("=+-@\t\r", s[0]) != NULL && s[0] != '\0' &&
	    !plain_number(s);

	if (!formula && strpbrk(s, ",\"\r\n") == NULL)
		return pr_buf_adds(out, s, err);
	if ((st = pr_buf_addc(out, '"', err)) != PR_OK)
		return st;
	if (formula && (st = pr_buf_addc(out, '\'', err)) != PR_OK)
		return st;
	for (; *s != '\0'; s++) {
		if (*s == '"' && (st = pr_buf_addc(out, '"', err)) != PR_OK)
			return st;
		if ((st = pr_buf_addc(out, *s, err)) != PR_OK)
			return st;
	}
	return pr_buf_addc(out, '"', err);
}

/* 1 when a Markdown renderer that allows inline HTML would take s[0]
 * ('<' or '&') as the start of a tag, a comment or an entity. */
static int
md_markup(const char *s)
{
	unsigned char n = (unsigned char)s[1];

	if (s[0] == '<')
		return (n >= 'a' && n <= 'z') || (n >= 'A' && n <= 'Z') ||
		    n == '/' || n == '!' || n == '?';
	return s[0] == '&' &&
	    ((n >= 'a' && n <= 'z') || (n >= 'A' && n <= 'Z') || n == '#');
}

/*
 * Appends s with '|' (a cell boundary), '*', '`' and '\\' escaped, and
 * '<' and '&' where they would start a tag or an entity ("<script>" from
 * a metric name on a renderer that allows inline HTML).  Other characters
 * are left alone, so that the text stays readable where the Markdown is
 * pasted as plain text: brackets only make a link before "(...)", and '<'
 * before a digit ("<0.0001") is no tag.
 */
enum pr_status
report_md_escape(struct pr_buf *out, const char *s, struct pr_error *err)
{
	enum pr_status st;
	char c;

	for (; *s != '\0'; s++) {
		/* A newline would end the table row. */
		if ((c = *s) == '\n')
			c = ' ';
		if ((strchr("|\\`*", c) != NULL || md_markup(s)) &&
		    (st = pr_buf_addc(out, '\\', err)) != PR_OK)
			return st;
		if ((st = pr_buf_addc(out, c, err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

enum pr_status
report_esc(struct pr_buf *out, const char *s, struct pr_error *err)
{
	return pr_report_escape(out, s, strlen(s), 0, err);
}

/* s through pr_report_escape, then through then (Markdown, CSV). */
static enum pr_status
escaped_then(struct pr_buf *out, const char *s,
    enum pr_status (*then)(struct pr_buf *, const char *, struct pr_error *),
    struct pr_error *err)
{
	enum pr_status st;
	char *e;

	if ((e = pr_report_escape_str(s, 0)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	st = then(out, e, err);
	free(e);
	return st;
}

enum pr_status
report_md(struct pr_buf *out, const char *s, struct pr_error *err)
{
	return escaped_then(out, s, report_md_escape, err);
}

enum pr_status
report_word(struct pr_buf *out, const char *s, enum pr_report_format f,
    struct pr_error *err)
{
	return f == PR_REPORT_MARKDOWN ? report_md(out, s, err)
				       : report_esc(out, s, err);
}

enum pr_status
report_csv_esc(struct pr_buf *out, const char *s, struct pr_error *err)
{
	return escaped_then(out, s, pr_report_csv_cell, err);
}

json_t *
report_json_num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

json_t *
report_json_pair(double lo, double hi)
{
	json_t *a = json_array();

	if (a == NULL || json_array_append_new(a, report_json_num(lo)) != 0 ||
	    json_array_append_new(a, report_json_num(hi)) != 0) {
		json_decref(a);
		return NULL;
	}
	return a;
}

json_t *
report_json_str(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, o = 0, l;
	json_t *j;
	char *t;

	/* Most strings are valid: no copy for them. */
	for (; i < n && (l = utf8_len(p + i, n - i)) > 0; i += l)
		;
	if (i == n)
		return json_stringn(s, n);
	if ((t = malloc(3 * n + 1)) == NULL)
		return NULL;
	for (i = 0; i<n; i += l> 0 ? l : 1) {
		if ((l = utf8_len(p + i, n - i)) == 0) {
			/* NOLINTNEXTLINE(bugprone-not-null-terminated-result): json_stringn takes the length */
			memcpy(t + o, "\xef\xbf\xbd", 3);
			o += 3;
		} else {
			/* NOLINTNEXTLINE(bugprone-not-null-terminated-result): json_stringn takes the length */
			memcpy(t + o, s + i, l);
			o += l;
		}
	}
	j = json_stringn(t, o);
	free(t);
	return j;
}
