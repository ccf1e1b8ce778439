/*
 * core/error.c - filling and formatting struct pr_error.
 *
 * Messages are formatted with vsnprintf into the fixed buffer of the error
 * and silently truncated: an error report must never fail for lack of
 * memory.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "perfreg/error.h"
#include "core/banned.h"

/* error.h's macros for the static analyzer would rename the definitions. */
#undef pr_error_set
#undef pr_error_at

void
pr_error_clear(struct pr_error *err)
{
	if (err == NULL)
		return;
	memset(err, 0, sizeof(*err));
}

static void vset(struct pr_error *err, enum pr_status status, const char *file,
    long line, long column, const char *fmt, va_list ap)
    __attribute__((format(printf, 6, 0)));

static void
vset(struct pr_error *err, enum pr_status status, const char *file, long line,
    long column, const char *fmt, va_list ap)
{
	err->status = status;
	err->file[0] = '\0';
	if (file != NULL)
		snprintf(err->file, sizeof(err->file), "%s", file);
	err->line = line;
	err->column = column;
	err->sys_errno = 0;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

enum pr_status
pr_error_set(struct pr_error *err, enum pr_status status, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return status;
	va_start(ap, fmt);
	vset(err, status, NULL, 0, 0, fmt, ap);
	va_end(ap);
	return status;
}

enum pr_status
pr_error_at(struct pr_error *err, enum pr_status status, const char *file,
    long line, long column, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return status;
	va_start(ap, fmt);
	vset(err, status, file, line, column, fmt, ap);
	va_end(ap);
	return status;
}

char *
pr_error_format(const struct pr_error *err, char *buf, size_t size)
{
	if (size == 0)
		return buf;
	if (err->file[0] != '\0' && err->line > 0)
		snprintf(buf, size, "%s:%ld: %s", err->file, err->line,
		    err->msg);
	else if (err->file[0] != '\0')
		snprintf(buf, size, "%s: %s", err->file, err->msg);
	else
		snprintf(buf, size, "%s", err->msg);
	return buf;
}

const char *
pr_status_str(enum pr_status status)
{
	switch (status) {
	case PR_OK:
		return "success";
	case PR_ENOMEM:
		return "out of memory";
	case PR_EIO:
		return "input/output error";
	case PR_EPARSE:
		return "malformed input";
	case PR_ERANGE:
		return "number out of range";
	case PR_EINVAL:
		return "invalid argument";
	case PR_EUNDEF:
		return "undefined for this data";
	case PR_ELIMIT:
		return "size limit reached";
	case PR_ENOTFOUND:
		return "not found";
	}
	return "unknown status";
}
