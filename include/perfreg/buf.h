/*
 * perfreg/buf.h - a growable byte buffer with a mandatory cap.
 *
 * Every buffer has a maximum size chosen by its owner, so that input or a
 * benchmark that prints gigabytes cannot exhaust memory: growing past the
 * cap fails with PR_ELIMIT and leaves the buffer as it was.  When data is
 * not NULL it is always NUL-terminated (the terminator is not counted in
 * len and does not count against the cap).
 *
 * Lifecycle: pr_buf_init (or PR_BUF_INIT) -> use -> pr_buf_release.  The
 * buffer owns data; pr_buf_detach hands it to the caller, who frees it
 * with free().  Not thread-safe.
 */
#ifndef PERFREG_BUF_H
#define PERFREG_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "perfreg/error.h"

struct pr_buf {
	char *data;
	size_t len;
	size_t cap; /* allocated bytes, including room for the NUL */
	size_t max; /* largest len allowed */
};

#define PR_BUF_INIT(max_bytes) \
	{ \
		NULL, 0, 0, (max_bytes) \
	}

void pr_buf_init(struct pr_buf *b, size_t max_bytes);

/* Frees the data and leaves an empty buffer with the same cap. */
void pr_buf_release(struct pr_buf *b);

/* Empties the buffer, keeping its memory. */
void pr_buf_reset(struct pr_buf *b);

/* Ensures room for extra more bytes.  PR_ENOMEM or PR_ELIMIT on failure. */
enum pr_status pr_buf_grow(struct pr_buf *b, size_t extra,
    struct pr_error *err);

enum pr_status pr_buf_add(struct pr_buf *b, const void *data, size_t len,
    struct pr_error *err);
enum pr_status pr_buf_adds(struct pr_buf *b, const char *s,
    struct pr_error *err);
enum pr_status pr_buf_addc(struct pr_buf *b, char c, struct pr_error *err);
enum pr_status pr_buf_addf(struct pr_buf *b, struct pr_error *err,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
enum pr_status pr_buf_vaddf(struct pr_buf *b, struct pr_error *err,
    const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

/*
 * Returns the data (never NULL: an empty buffer gives a fresh "") and its
 * length in *len (len may be NULL); the buffer is left empty.  The caller
 * frees the result.  Returns NULL only when out of memory.
 */
char *pr_buf_detach(struct pr_buf *b, size_t *len);

#endif /* PERFREG_BUF_H */
