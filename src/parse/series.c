/*
 * parse/series.c - the change-point detector's input: a series of points
 * (the rules are in perfreg/series.h).
 *
 * The input is read whole (at most SERIES_INPUT_MAX bytes, a clear
 * PR_ELIMIT beyond), then cut into lines and fields in place of a copy of
 * each line.  A field is cut at any delimiter; with the default
 * delimiters a line that holds a comma or a tab is cut only there (a
 * label may hold spaces), any other at runs of spaces, so "a, b", "a\tb"
 * and "a  b" all hold two fields.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfreg/numparse.h"
#include "perfreg/read.h"
#include "perfreg/series.h"
#include "core/banned.h"

#define SERIES_INPUT_MAX ((size_t)1 << 30)
#define MAX_FIELDS 4096

void
pr_series_init(struct pr_series *s)
{
	memset(s, 0, sizeof(*s));
}

void
pr_series_release(struct pr_series *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; s->label != NULL && i < s->n; i++)
		free(s->label[i]);
	free(s->label);
	free(s->y);
	free(s->column);
	memset(s, 0, sizeof(*s));
}

struct field {
	const char *b, *e;
};

static int
is_delim(char c, const char *delims)
{
	return c != '\0' && strchr(delims, c) != NULL;
}

/* Splits [p, end) into fields; returns their number (at most max). */
static size_t
split_fields(const char *p, const char *end, const char *delims,
    int spaces_fold, struct field *f, size_t max)
{
	size_t n = 0;

	while (p < end && n < max) {
		const char *b = p, *e;

		while (p < end && !is_delim(*p, delims))
			p++;
		e = p;
		/* Trim white space and one pair of double quotes. */
		while (b < e && (*b == ' ' || *b == '\t'))
			b++;
		while (
		    e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (e - b >= 2 && *b == '"' && e[-1] == '"') {
			b++;
			e--;
		}
		if (!(spaces_fold && b == e && p < end && *p == ' '))
			f[n++] = (struct field){ b, e };
		if (p < end) {
			char d = *p++;

			if (spaces_fold && d == ' ')
				while (p < end && *p == ' ')
					p++;
		}
	}
	return n;
}

static enum pr_status
push(struct pr_series *s, size_t *cap, double y, const char *lb, const char *le,
    size_t line, struct pr_error *err)
{
	size_t len;

	if (s->n >= PR_SERIES_MAX)
		return pr_error_set(err, PR_ELIMIT, "more than %d points",
		    PR_SERIES_MAX);
	if (s->n == *cap) {
		size_t nc = *cap ? 2 * *cap : 256;
		double *ny = realloc(s->y, nc * sizeof(*ny));
		char **nl;

		if (ny == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		s->y = ny;
		if ((nl = realloc(s->label, nc * sizeof(*nl))) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		s->label = nl;
		*cap = nc;
	}
	if (lb == NULL) {
		char buf[32];

		len = (size_t)snprintf(buf, sizeof(buf), "%zu", line);
		s->label[s->n] = strdup(buf);
	} else {
		len = (size_t)(le - lb);
		if (len > PR_SERIES_LABEL_MAX)
			len = PR_SERIES_LABEL_MAX;
		s->label[s->n] = strndup(lb, len);
	}
	if (s->label[s->n] == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	s->y[s->n++] = y;
	return PR_OK;
}

enum pr_status
pr_series_read_mem(const char *name, const char *data, size_t len,
    const struct pr_series_opts *o, struct pr_series *s, struct pr_error *err)
{
	struct pr_series_opts def = { 0 };
	const char *p = data, *end = data + len, *delims;
	struct field *f = NULL;
	size_t line = 0, cap = 0, npoints = 0;
	int vidx = -1, header_seen = 0, fold;
	enum pr_status st = PR_OK;

	if (o == NULL)
		o = &def;
	delims = o->delims ? o->delims : ", \t";
	fold = o->delims == NULL;
	if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	if ((f = malloc(MAX_FIELDS * sizeof(*f))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	while (p < end) {
		const char *le = memchr(p, '\n', (size_t)(end - p)), *hash;
		size_t nf;
		int vi;
		double y;

		if (le == NULL)
			le = end;
		line++;
		if ((size_t)(le - p) > PR_READ_LINE_MAX) {
			st = pr_error_at(err, PR_ELIMIT, name, line, 0,
			    "line longer than %d bytes", PR_READ_LINE_MAX);
			goto fail;
		}
		if (memchr(p, '\0', (size_t)(le - p)) != NULL) {
			st = pr_error_at(err, PR_EPARSE, name, line, 0,
			    "binary data (a NUL byte)");
			goto fail;
		}
		hash = memchr(p, '#', (size_t)(le - p));
		if (fold) {
			/* A line with a comma or tab is split only there (a
			 * label may hold spaces); others at runs of spaces. */
			const char *stop = hash ? hash : le;

			delims = memchr(p, ',', (size_t)(stop - p)) ||
				memchr(p, '\t', (size_t)(stop - p))
			    ? ",\t"
			    : " ";
		}
		nf = split_fields(p, hash ? hash : le, delims, fold, f,
		    MAX_FIELDS);
		p = le < end ? le + 1 : end;
		/* Blank or comment-only lines. */
		if (nf == 0 || (nf == 1 && f[0].b == f[0].e))
			continue;
		if (o->column != NULL && !header_seen) {
			size_t i;

			header_seen = 1;
			for (i = 0; i < nf; i++)
				if ((size_t)(f[i].e - f[i].b) ==
					strlen(o->column) &&
				    memcmp(f[i].b, o->column,
					strlen(o->column)) == 0)
					break;
			if (i == nf) {
				st = pr_error_at(err, PR_ENOTFOUND, name, line,
				    0, "no column called '%s' in the header",
				    o->column);
				goto fail;
			}
			vidx = (int)i;
			s->column = strndup(f[i].b, (size_t)(f[i].e - f[i].b));
			if (s->column == NULL) {
				st = pr_error_set(err, PR_ENOMEM,
				    "out of memory");
				goto fail;
			}
			continue;
		}
		vi = vidx >= 0     ? vidx
		    : o->index > 0 ? o->index - 1
				   : (int)nf - 1;
		if (vi >= (int)nf) {
			st = pr_error_at(err, PR_EPARSE, name, line, 0,
			    "expected a value in field %d, the line has %zu",
			    vi + 1, nf);
			goto fail;
		}
		/* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): split_fields set f[0..nf), and vi < nf */
		if (pr_parse_double_all(f[vi].b, f[vi].e, &y, NULL) != PR_OK ||
		    y != y || y - y != 0) {
			size_t fl = (size_t)(f[vi].e - f[vi].b);

			if (!header_seen && npoints == 0) {
				/* A header: keep the value column's name. */
				header_seen = 1;
				vidx = vi;
				s->column = strndup(f[vi].b, fl);
				if (s->column == NULL) {
					st = pr_error_set(err, PR_ENOMEM,
					    "out of memory");
					goto fail;
				}
				continue;
			}
			st = pr_error_at(err, PR_EPARSE, name, line, 0,
			    "expected a finite number, got '%.*s'",
			    (int)(fl > 40 ? 40 : fl), f[vi].b);
			goto fail;
		}
		header_seen = 1;
		if (vi > 0) {
			s->labelled = 1;
			st = push(s, &cap, y, f[0].b, f[0].e, line, err);
		} else
			st = push(s, &cap, y, NULL, NULL, npoints + 1, err);
		if (st != PR_OK) {
			if (st == PR_ELIMIT)
				pr_error_at(err, PR_ELIMIT, name, line, 0,
				    "more than %d points", PR_SERIES_MAX);
			goto fail;
		}
		npoints++;
	}
	free(f);
	if (s->n == 0) {
		/* A header alone: its column name goes too. */
		pr_series_release(s);
		return pr_error_at(err, PR_EUNDEF, name, 0, 0, "no points");
	}
	return PR_OK;
fail:
	free(f);
	pr_series_release(s);
	return st;
}

enum pr_status
pr_series_read(const char *path, const struct pr_series_opts *o,
    struct pr_series *s, struct pr_error *err)
{
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd;
	enum pr_status st;

	fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
	if (fd < 0) {
		int e = errno;

		st = pr_error_at(err, e == ENOENT ? PR_ENOTFOUND : PR_EIO, name,
		    0, 0, "cannot open: %s", strerror(e));
		if (err)
			err->sys_errno = e;
		return st;
	}
	for (;;) {
		ssize_t r;

		if (len == cap) {
			size_t nc = cap ? 2 * cap : 65536;
			char *nb;

			if (cap >= SERIES_INPUT_MAX) {
				st = pr_error_at(err, PR_ELIMIT, name, 0, 0,
				    "input larger than %zu MiB",
				    SERIES_INPUT_MAX >> 20);
				goto out;
			}
			if ((nb = realloc(buf, nc)) == NULL) {
				st = pr_error_set(err, PR_ENOMEM,
				    "out of memory");
				goto out;
			}
			buf = nb;
			cap = nc;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			st = pr_error_at(err, PR_EIO, name, 0, 0,
			    "cannot read: %s", strerror(e));
			if (err)
				err->sys_errno = e;
			goto out;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	st = pr_series_read_mem(name, buf, len, o, s, err);
out:
	if (fd != STDIN_FILENO)
		close(fd);
	free(buf);
	return st;
}
