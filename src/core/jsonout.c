/*
 * core/jsonout.c - JSON text without DEL or C1 controls (core/jsonout.h).
 *
 * jansson writes strings in UTF-8 and escapes only the bytes below 0x20,
 * '"' and '\\'.  The post-pass rewrites the byte 0x7f as \u007f and the
 * two bytes 0xc2 0x80..0x9f (the UTF-8 of U+0080..U+009F) as
 * \u0080..\u009f.  It is safe on the whole text: the text outside the
 * strings is ASCII, and in valid UTF-8 0xc2 is always a lead byte, so a
 * match is always one whole character of a string.
 */
#include <stdlib.h>
#include <string.h>

#include "core/jsonout.h"
#include "core/banned.h"

/* 1 when p[0..] starts with the UTF-8 of a C1 control. */
static int
c1_at(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
}

/* The bytes the escapes add to the n bytes of s (NUL-terminated). */
static size_t
extra_of(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t extra = 0;

	/* Most texts have neither byte: two quick scans say so. */
	if (memchr(s, 0x7f, n) == NULL && memchr(s, 0xc2, n) == NULL)
		return 0;
	for (; p < end; p++) {
		if (*p == 0x7f)
			extra += 5;
		else if (c1_at(p)) {
			extra += 4;
			p++;
		}
	}
	return extra;
}

/* Writes the n bytes of s (NUL-terminated) escaped to q, and a NUL. */
static void
escape_to(char *q, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	unsigned c;

	for (; p < end; p++) {
		if (*p == 0x7f)
			c = 0x7f;
		else if (c1_at(p))
			c = *++p;
		else {
			*q++ = (char)*p;
			continue;
		}
		memcpy(q, "\\u00", 4);
		q[4] = hex[c >> 4];
		q[5] = hex[c & 0xf];
		q += 6;
	}
	*q = '\0';
}

char *
pr_jsonout_escape(char *s)
{
	size_t n, extra;
	char *out;

	if (s == NULL)
		return NULL;
	n = strlen(s);
	if ((extra = extra_of(s, n)) == 0)
		return s;
	if ((out = malloc(n + extra + 1)) != NULL)
		escape_to(out, s, n);
	free(s);
	return out;
}

enum pr_status
pr_jsonout_escape_buf(struct pr_buf *b, size_t start, struct pr_error *err)
{
	size_t n, extra;
	enum pr_status st;
	char *copy;

	if (b->data == NULL || start >= b->len)
		return PR_OK;
	n = b->len - start;
	if ((extra = extra_of(b->data + start, n)) == 0)
		return PR_OK;
	if ((copy = malloc(n + 1)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	memcpy(copy, b->data + start, n + 1);
	if ((st = pr_buf_grow(b, extra, err)) == PR_OK) {
		escape_to(b->data + start, copy, n);
		b->len += extra;
	}
	free(copy);
	return st;
}

char *
pr_jsonout_dumps(const json_t *root, size_t flags)
{
	return pr_jsonout_escape(json_dumps(root, flags));
}
