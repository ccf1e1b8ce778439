/*
 * perfreg/error.h - status codes and error reports of libperfreg.
 *
 * Every library function that can fail returns an enum pr_status (PR_OK is
 * zero) and takes a struct pr_error * as its last argument.  On failure the
 * function fills the error with a message and, where the failure concerns
 * input, the file, line and column it happened at.  The library never
 * prints and never exits: the caller decides what to show.
 *
 * A NULL struct pr_error * is accepted everywhere and means "the caller
 * only wants the status".  Errors hold no heap memory: a struct pr_error
 * may be copied, reused and dropped without any release call.
 */
#ifndef PERFREG_ERROR_H
#define PERFREG_ERROR_H

#include <stddef.h>

enum pr_status {
	PR_OK = 0,
	PR_ENOMEM,   /* allocation failed */
	PR_EIO,      /* reading or writing a file failed (errno kept) */
	PR_EPARSE,   /* input is not in the expected form */
	PR_ERANGE,   /* a number is out of the representable range */
	PR_EINVAL,   /* an argument is outside its documented domain */
	PR_EUNDEF,   /* the requested figure is undefined for this data */
	PR_ELIMIT,   /* a documented size limit was reached */
	PR_ENOTFOUND /* a named item (file, metric, column) does not exist */
};

#define PR_ERROR_MSG_MAX 512
#define PR_ERROR_FILE_MAX 256

struct pr_error {
	enum pr_status status;
	char file[PR_ERROR_FILE_MAX]; /* "" when not about a file */
	long line;                    /* 1-based; 0 when not known */
	long column;                  /* 1-based; 0 when not known */
	int sys_errno;                /* errno for PR_EIO, else 0 */
	char msg[PR_ERROR_MSG_MAX];   /* lowercase, no final period */
};

/* Resets err to "no error".  err may be NULL. */
void pr_error_clear(struct pr_error *err);

/*
 * Records a failure with a printf-style message and returns status, so that
 * callers can write `return pr_error_set(err, PR_EPARSE, "...", ...);`.
 * The file, line and column are left empty.  err may be NULL.
 */
enum pr_status pr_error_set(struct pr_error *err, enum pr_status status,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * As pr_error_set, and records where in the input the failure happened.
 * file may be NULL; line and column 0 mean unknown.
 */
enum pr_status pr_error_at(struct pr_error *err, enum pr_status status,
    const char *file, long line, long column, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#ifdef __clang_analyzer__
/*
 * For clang's static analyzer only (scripts/lint.sh): it cannot see into
 * error.c, so it would take a function that returns pr_error_set(...) on
 * failure to be able to return PR_OK there, and report every output such a
 * function leaves unset on failure as read uninitialised.  These macros say
 * what the functions promise: the status given is the status returned.
 */
#define pr_error_set(err, status, ...) \
	(pr_error_set((err), (status), __VA_ARGS__), (status))
#define pr_error_at(err, status, ...) \
	(pr_error_at((err), (status), __VA_ARGS__), (status))
#endif

/*
 * Writes the error as one line without a newline, in the form of a
 * compiler's message: "FILE:LINE: MSG", "FILE: MSG" or "MSG".  The result
 * is NUL-terminated and truncated to size.  Returns buf.
 */
char *pr_error_format(const struct pr_error *err, char *buf, size_t size);

/* A short constant name for a status ("out of memory", ...). */
const char *pr_status_str(enum pr_status status);

#endif /* PERFREG_ERROR_H */
