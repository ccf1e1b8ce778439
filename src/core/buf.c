/*
 * core/buf.c - the capped growable buffer of perfreg/buf.h.
 *
 * Invariants: len <= max; data == NULL iff cap == 0; when data != NULL,
 * data[len] == '\0' and len < cap.  Capacity grows by doubling, clamped to
 * max + 1 so that the cap is exact.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/buf.h"
#include "core/banned.h"

void
pr_buf_init(struct pr_buf *b, size_t max_bytes)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max_bytes;
}

void
pr_buf_release(struct pr_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void
pr_buf_reset(struct pr_buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

enum pr_status
pr_buf_grow(struct pr_buf *b, size_t extra, struct pr_error *err)
{
	size_t need, ncap;
	char *p;

	if (extra > b->max || b->len > b->max - extra)
		return pr_error_set(err, PR_ELIMIT,
		    "buffer limit of %zu bytes reached", b->max);
	need = b->len + extra + 1;
	if (need <= b->cap)
		return PR_OK;
	ncap = b->cap < 64 ? 64 : b->cap;
	while (ncap < need)
		ncap = ncap > ((size_t)-1) / 2 ? need : ncap * 2;
	if (ncap > b->max + 1)
		ncap = b->max + 1;
	p = realloc(b->data, ncap);
	if (p == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory growing a buffer to %zu bytes", ncap);
	if (b->data == NULL)
		p[0] = '\0';
	b->data = p;
	b->cap = ncap;
	return PR_OK;
}

enum pr_status
pr_buf_add(struct pr_buf *b, const void *data, size_t len, struct pr_error *err)
{
	enum pr_status st;

	if ((st = pr_buf_grow(b, len, err)) != PR_OK)
		return st;
	if (len > 0)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
	return PR_OK;
}

enum pr_status
pr_buf_adds(struct pr_buf *b, const char *s, struct pr_error *err)
{
	return pr_buf_add(b, s, strlen(s), err);
}

enum pr_status
pr_buf_addc(struct pr_buf *b, char c, struct pr_error *err)
{
	return pr_buf_add(b, &c, 1, err);
}

enum pr_status
pr_buf_vaddf(struct pr_buf *b, struct pr_error *err, const char *fmt,
    va_list ap)
{
	enum pr_status st;
	va_list cp;
	size_t room;
	int n;

	/* One pass when the text fits the room left (cap <= max + 1, so it
	 * is within the cap too), a second after growing when it does not. */
	room = b->data != NULL ? b->cap - b->len : 0;
	va_copy(cp, ap);
	n = vsnprintf(room > 0 ? b->data + b->len : NULL, room, fmt, cp);
	va_end(cp);
	if (n >= 0 && (size_t)n < room) {
		b->len += (size_t)n;
		return PR_OK;
	}
	if (room > 0)
		b->data[b->len] = '\0'; /* the truncated text is not kept */
	if (n < 0)
		return pr_error_set(err, PR_EINVAL, "bad format string");
	if ((st = pr_buf_grow(b, (size_t)n, err)) != PR_OK)
		return st;
	vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	b->len += (size_t)n;
	return PR_OK;
}

enum pr_status
pr_buf_addf(struct pr_buf *b, struct pr_error *err, const char *fmt, ...)
{
	enum pr_status st;
	va_list ap;

	va_start(ap, fmt);
	st = pr_buf_vaddf(b, err, fmt, ap);
	va_end(ap);
	return st;
}

char *
pr_buf_detach(struct pr_buf *b, size_t *len)
{
	char *p;

	if (b->data == NULL) {
		p = malloc(1);
		if (p == NULL)
			return NULL;
		p[0] = '\0';
	} else {
		p = b->data;
	}
	if (len != NULL)
		*len = b->len;
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	return p;
}
