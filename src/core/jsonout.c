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

char *
pr_jsonout_escape(char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p;
	size_t extra = 0;
	char *out, *q;
	unsigned c;

	if (s == NULL)
		return NULL;
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == 0x7f)
			extra += 5;
		else if (c1_at(p)) {
			extra += 4;
			p++;
		}
	}
	if (extra == 0)
		return s;
	if ((out = malloc(strlen(s) + extra + 1)) == NULL) {
		free(s);
		return NULL;
	}
	q = out;
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
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
	free(s);
	return out;
}

char *
pr_jsonout_dumps(const json_t *root, size_t flags)
{
	return pr_jsonout_escape(json_dumps(root, flags));
}
