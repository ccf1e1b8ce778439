/*
 * store/str.c - byte strings of the store.
 *
 * The store keeps names, tags, reasons and outputs as exact byte strings;
 * a string is "text" (bound as TEXT in SQLite, written as a JSON string
 * by export) only when it is valid UTF-8 without NUL.  The validator
 * follows RFC 3629 and the Unicode well-formed byte sequence table: no
 * overlong forms, no UTF-16 surrogates, nothing above U+10FFFF.
 */
#include <stddef.h>
#include <string.h>

#include "perfreg/store.h"
#include "store/str.h"

#include "core/banned.h"

struct pr_str
pr_str_c(const char *s)
{
	struct pr_str r;

	r.p = s != NULL ? s : "";
	r.n = s != NULL ? strlen(s) : 0;
	return r;
}

int
pr_store_utf8_text(const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0, k, len;
	unsigned char c, lo, hi;

	while (i < n) {
		c = s[i];
		if (c >= 0x01 && c < 0x80) {
			i++;
			continue;
		}
		lo = 0x80;
		hi = 0xbf;
		if (c >= 0xc2 && c <= 0xdf)
			len = 2;
		else if (c >= 0xe0 && c <= 0xef) {
			len = 3;
			if (c == 0xe0)
				lo = 0xa0;
			else if (c == 0xed)
				hi = 0x9f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4;
			if (c == 0xf0)
				lo = 0x90;
			else if (c == 0xf4)
				hi = 0x8f;
		} else
			return 0; /* NUL, continuation, 0xc0, 0xc1, > 0xf4 */
		if (n - i < len)
			return 0;
		if (s[i + 1] < lo || s[i + 1] > hi)
			return 0;
		for (k = 2; k < len; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xbf)
				return 0;
		i += len;
	}
	return 1;
}

int
pr_store_str_eq(struct pr_str a, struct pr_str b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}
