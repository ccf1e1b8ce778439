/*
 * parse/readutil.c - the helpers the readers of every format share
 * (parse/readers.h): printable excerpts for messages, the line and column
 * of a position, the check that an input is text, whole-field numbers,
 * and what the formats' detection looks at (where the text starts, a
 * JSON document's first key, a field that is a number).  They depend on
 * nothing but core, so that the readers (csv.c, gobench.c, ...) and the
 * registries that call them (read.c, bench_registry.c) form no cycle, as
 * benchutil.c does for the benchmark-output parsers.
 */
#include <stdint.h>
#include <string.h>

#include "perfreg/numparse.h"
#include "perfreg/read.h"
#include "parse/readers.h"
#include "core/banned.h"

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF. */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return len;
}

const char *
pr_read_excerpt(char *dst, size_t size, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0, i = 0, k, ulen;
	const size_t show = 40;

	if (size == 0)
		return dst;
	while (i < len && i < show) {
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			if (at + 1 >= size)
				break;
			dst[at++] = (char)p[i++];
		} else if (p[i] >= 0x80 && (ulen = utf8_len(p + i, len - i))) {
			if (at + ulen >= size)
				break;
			for (k = 0; k < ulen; k++)
				dst[at++] = (char)p[i++];
		} else {
			if (at + 4 >= size)
				break;
			dst[at++] = '\\';
			dst[at++] = 'x';
			dst[at++] = hex[p[i] >> 4];
			dst[at++] = hex[p[i] & 15];
			i++;
		}
	}
	if (i < len && at + 3 < size) {
		memcpy(dst + at, "...", 3);
		at += 3;
	}
	dst[at] = '\0';
	return dst;
}

long
pr_read_line_of(const struct pr_input *in, const char *p, long *col)
{
	const char *s, *bol = in->data;
	long line = 1;

	if (p < in->data || p > in->data + in->len)
		p = in->data + in->len;
	for (s = in->data; s < p; s++)
		if (*s == '\n') {
			line++;
			bol = s + 1;
		}
	if (col != NULL)
		*col = (long)(p - bol) + 1;
	return line;
}

enum pr_status
pr_read_check_text(const struct pr_input *in, int strict, struct pr_error *err)
{
	const unsigned char *p = (const unsigned char *)in->data;
	size_t n = in->len, i = 0, bol = 0, ulen;
	long line = 1;

	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n) {
		unsigned char c = p[i];

		if (c == '\n') {
			line++;
			bol = ++i;
			continue;
		}
		if (i - bol >= PR_READ_LINE_MAX)
			return pr_error_at(err, PR_ELIMIT, in->name, line, 0,
			    "line longer than %d bytes", PR_READ_LINE_MAX);
		if (c == '\0')
			return pr_error_at(err, PR_EPARSE, in->name, line,
			    (long)(i - bol) + 1,
			    "NUL byte in text (binary data?)");
		if (c >= 0x80) {
			if ((ulen = utf8_len(p + i, n - i)) == 0)
				return pr_error_at(err, PR_EPARSE, in->name,
				    line, (long)(i - bol) + 1,
				    "invalid UTF-8 (byte 0x%02x; binary data?)",
				    c);
			i += ulen;
			continue;
		}
		if (strict && (c < 0x20 || c == 0x7f) && c != '\t' && c != '\r')
			return pr_error_at(err, PR_EPARSE, in->name, line,
			    (long)(i - bol) + 1,
			    "control character 0x%02x in text (binary data?)",
			    c);
		i++;
	}
	return PR_OK;
}

int
pr_read_nonfinite_word(const char *s, const char *e)
{
	static const char *const words[] = { "nan", "inf", "infinity", NULL };
	size_t n, i, k;

	if (s < e && (*s == '+' || *s == '-'))
		s++;
	n = (size_t)(e - s);
	for (k = 0; words[k] != NULL; k++) {
		if (strlen(words[k]) != n)
			continue;
		for (i = 0; i < n; i++)
			if ((s[i] | 0x20) != words[k][i])
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

enum pr_status
pr_read_number(const struct pr_input *in, const char *s, const char *e,
    const char *where, double *out, struct pr_error *err)
{
	struct pr_error perr;
	const char *stop;
	char ex[64];
	long line, col;
	enum pr_status st;

	if (pr_parse_double(s, e, &stop, out, NULL) == PR_OK && stop == e)
		return PR_OK;
	/* The slow path, only for errors: what went wrong, and where. */
	pr_error_clear(&perr);
	st = pr_parse_double(s, e, &stop, out, &perr);
	line = pr_read_line_of(in, s, &col);
	if (where == NULL)
		where = "";
	pr_read_excerpt(ex, sizeof(ex), s, (size_t)(e - s));
	if (s == e)
		return pr_error_at(err, PR_EPARSE, in->name, line, col,
		    "expected a number%s%s, got an empty field",
		    *where ? " " : "", where);
	if (pr_read_nonfinite_word(s, e))
		return pr_error_at(err, PR_EPARSE, in->name, line, col,
		    "'%s'%s%s is not a finite number", ex, *where ? " " : "",
		    where);
	if (st == PR_ERANGE)
		return pr_error_at(err, PR_ERANGE, in->name, line, col,
		    "number out of range: '%s'%s%s", ex, *where ? " " : "",
		    where);
	if (st == PR_ENOMEM)
		return pr_error_at(err, PR_ENOMEM, in->name, line, col,
		    "out of memory");
	return pr_error_at(err, PR_EPARSE, in->name, line, col,
	    "expected a number%s%s, got '%s'", *where ? " " : "", where, ex);
}

const char *
pr_read_text_start(const struct pr_input *in)
{
	const char *p = in->data, *e = in->data + in->len;

	if (in->len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	while (p < e &&
	    (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' ||
		*p == '\f' || *p == '\v'))
		p++;
	return p < e ? p : NULL;
}

/* Whether the text at p (before e) is "key" (quoted) and then a ':'. */
static int
key_at(const char *p, const char *e, const char *key)
{
	size_t n = strlen(key);

	if ((size_t)(e - p) < n + 2 || p[0] != '"' || memcmp(p + 1, key, n) ||
	    p[n + 1] != '"')
		return 0;
	for (p += n + 2; p < e &&
	     (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' ||
		 *p == '\f' || *p == '\v');
	     p++)
		continue;
	return p < e && *p == ':';
}

int
pr_read_json_key_first(const struct pr_input *in, const char *key,
    const char *rival)
{
	const char *p = pr_read_text_start(in), *e = in->data + in->len;

	if (p == NULL || *p != '{')
		return 0;
	for (p++; p < e; p++) {
		if (*p != '"')
			continue;
		if (key_at(p, e, key))
			return 1;
		if (key_at(p, e, rival))
			return 0;
	}
	return 0;
}

int
pr_read_is_number(const char *s, const char *e)
{
	const char *stop;
	double v;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	if (s < e && *s == '"' && e - s >= 2 && e[-1] == '"') {
		s++;
		e--;
	}
	return s < e && pr_parse_double(s, e, &stop, &v, NULL) == PR_OK &&
	    stop == e;
}
