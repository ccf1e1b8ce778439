/*
 * parse/read.c - the registry of input formats: names, detection by
 * content, loading an input into memory under a size cap, and dispatch to
 * the reader of each format.  The formats are the PR_INPUT lines of
 * perfreg/parse_formats.def, each an entry (struct pr_bench_format of
 * parse/bench.h) defined in the reader's own file; read.h's enum
 * pr_format comes from the same lines, so PR_FORMAT_X is entry X.  The
 * helpers the readers share are in readutil.c, so that the readers do not
 * depend on the registry that calls them.
 *
 * Detection asks every format for its score (bench.h's PR_DETECT_*) on
 * the first PR_READ_HEAD_MAX bytes and takes the highest, the earlier
 * line on a tie.  A format that streams (read_path: numbers) reads a
 * regular file itself, which is then only peeked at for detection; the
 * others get the input loaded whole, up to their max_bytes.  Standard
 * input and pipes cannot be read twice: they are loaded whole (up to the
 * format's max_bytes), and a streaming format then reads the copy in
 * memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfreg/buf.h"
#include "perfreg/numparse.h"
#include "perfreg/read.h"
#include "parse/bench.h"
#include "parse/readers.h"
#include "core/banned.h"

/* How much of an input format detection looks at. */
#define PR_READ_HEAD_MAX (64 * 1024)

/* The formats, PR_FORMAT_X being formats[PR_FORMAT_X - 1]. */
static const struct pr_bench_format *const formats[] = {
#define PR_INPUT(name, NAME) &pr_bench_##name,
#include "perfreg/parse_formats.def"
#undef PR_INPUT
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static const struct pr_bench_format *
entry_of(enum pr_format f)
{
	return f > PR_FORMAT_AUTO && (size_t)f <= NFORMATS ? formats[f - 1]
							   : NULL;
}

const char *
pr_format_str(enum pr_format f)
{
	if (f == PR_FORMAT_AUTO)
		return "auto";
	return entry_of(f) != NULL ? entry_of(f)->name : "unknown";
}

const char *
pr_format_names(char *buf, size_t size, int with_auto)
{
	size_t i, at = 0;
	int n;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < NFORMATS; i++) {
		n = snprintf(buf + at, size - at, "%s%s%s",
		    i == 0 && with_auto ? "auto, " : "",
		    i == 0                  ? ""
			: i + 1 == NFORMATS ? " or "
					    : ", ",
		    formats[i]->name);
		if (n < 0 || (size_t)n >= size - at) {
			buf[at] = '\0'; /* cut at a name, never inside */
			break;
		}
		at += (size_t)n;
	}
	return buf;
}

enum pr_status
pr_format_parse(const char *name, enum pr_format *out, struct pr_error *err)
{
	char list[256];
	size_t i;

	if (strcmp(name, "auto") == 0) {
		*out = PR_FORMAT_AUTO;
		return PR_OK;
	}
	for (i = 0; i < NFORMATS; i++)
		if (strcmp(name, formats[i]->name) == 0) {
			*out = (enum pr_format)(i + 1);
			return PR_OK;
		}
	return pr_error_set(err, PR_EINVAL, "unknown format '%s' (expected %s)",
	    name, pr_format_names(list, sizeof(list), 1));
}

void
pr_read_opts_init(struct pr_read_opts *o)
{
	o->format = PR_FORMAT_AUTO;
	o->column = NULL;
	o->name = NULL;
}

/* --- detection --- */

enum pr_format
pr_format_detect(const char *head, size_t len)
{
	struct pr_input in = { "", head, len };
	enum pr_format f = PR_FORMAT_AUTO;
	unsigned score, best = 0;
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if ((score = formats[i]->detect(&in)) > best) {
			best = score;
			f = (enum pr_format)(i + 1);
		}
	return f;
}

/* --- loading --- */

static const char *
errno_str(int e)
{
	switch (e) {
	case ENOENT:
		return "no such file";
	case EACCES:
		return "permission denied";
	case EISDIR:
		return "is a directory";
	case ENOTDIR:
		return "a component of the path is not a directory";
	default:
		return strerror(e);
	}
}

static enum pr_status
sys_fail(struct pr_error *err, const char *name, const char *what, int e)
{
	enum pr_status st = e == ENOENT ? PR_ENOTFOUND : PR_EIO;

	pr_error_at(err, st, name, 0, 0, "%s: %s", what, errno_str(e));
	if (err != NULL)
		err->sys_errno = e;
	return st;
}

/* An input being loaded: data[0, len) read so far, NUL-terminated. */
struct loader {
	int fd;
	const char *name;
	char *data;
	size_t len, cap;
	int eof;
};

/*
 * Reads until len >= want or end of input; fails with PR_ELIMIT when the
 * input turns out longer than max bytes.
 */
static enum pr_status
fill(struct loader *ld, size_t want, size_t max, struct pr_error *err)
{
	ssize_t r;
	size_t ncap;
	char *p;

	while (!ld->eof && ld->len < want) {
		if (ld->len + 1 >= ld->cap) {
			if (ld->cap > max + 1)
				break;
			ncap = ld->cap < 65536 ? 65536 : ld->cap * 2;
			if (ncap > max + 2)
				ncap = max + 2;
			if ((p = realloc(ld->data, ncap)) == NULL)
				return pr_error_at(err, PR_ENOMEM, ld->name, 0,
				    0, "out of memory reading %zu bytes", ncap);
			ld->data = p;
			ld->cap = ncap;
		}
		r = read(ld->fd, ld->data + ld->len, ld->cap - ld->len - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return sys_fail(err, ld->name, "cannot read", errno);
		}
		if (r == 0)
			ld->eof = 1;
		ld->len += (size_t)r;
		ld->data[ld->len] = '\0';
		if (ld->len > max)
			return pr_error_at(err, PR_ELIMIT, ld->name, 0, 0,
			    "input larger than %zu bytes", max);
	}
	return PR_OK;
}

/*
 * Adds the values of vals (left empty) to the metric called name of out,
 * made with unit and better when new.  A metric already in out (from an
 * earlier input) must have the same unit.
 */
static enum pr_status
append_values(struct pr_dataset *out, const char *src, const char *name,
    const char *unit, enum pr_better better, struct pr_sample *vals,
    struct pr_error *err)
{
	struct pr_metric *m;
	enum pr_status st;
	char ex[64];

	if ((m = pr_dataset_find(out, name)) != NULL &&
	    strcmp(m->unit, unit) != 0)
		return pr_error_at(err, PR_EPARSE, src, 0, 0,
		    "metric '%s' has unit '%s' here but '%s' in the inputs "
		    "before",
		    pr_read_excerpt(ex, sizeof(ex), name, strlen(name)), unit,
		    m->unit);
	if ((st = pr_dataset_get(out, name, unit, better, &m, err)) != PR_OK)
		return st;
	if (m->values.n == 0) {
		struct pr_sample t = m->values;

		m->values = *vals;
		*vals = t;
		return PR_OK;
	}
	if ((st = pr_sample_reserve(&m->values, vals->n, err)) != PR_OK)
		return st;
	memcpy(m->values.v + m->values.n, vals->v, vals->n * sizeof(double));
	m->values.n += vals->n;
	m->values.sorted = 0;
	m->values.keyed = 0;
	return PR_OK;
}

/* append_values of metric m, keeping its PR_METRIC_* marks. */
static enum pr_status
append_flagged(struct pr_dataset *out, const char *src, struct pr_metric *m,
    struct pr_error *err)
{
	struct pr_metric *d;
	enum pr_status st;

	if ((st = append_values(out, src, m->name, m->unit, m->better,
		 &m->values, err)) == PR_OK &&
	    (d = pr_dataset_find(out, m->name)) != NULL)
		d->flags |= m->flags;
	return st;
}

/*
 * Moves the metrics of what was read (tmp) into out, or only the one
 * called only: PR_ENOTFOUND naming the metrics there are when it is
 * missing.
 */
static enum pr_status
merge(const char *src, struct pr_dataset *tmp, const char *only,
    struct pr_dataset *out, struct pr_error *err)
{
	struct pr_buf list = PR_BUF_INIT(200);
	struct pr_metric *m;
	enum pr_status st;
	char ex[64];
	size_t i;

	if (only != NULL) {
		if ((m = pr_dataset_find(tmp, only)) != NULL)
			return append_flagged(out, src, m, err);
		for (i = 0; i < tmp->n; i++)
			if (pr_buf_addf(&list, NULL, "%s'%s'", i ? ", " : "",
				pr_read_excerpt(ex, sizeof(ex),
				    tmp->metrics[i].name,
				    strlen(tmp->metrics[i].name))) != PR_OK) {
				pr_buf_adds(&list, ", ...", NULL);
				break;
			}
		st = pr_error_at(err, PR_ENOTFOUND, src, 0, 0,
		    "no metric '%s' (the metrics are %s)",
		    pr_read_excerpt(ex, sizeof(ex), only, strlen(only)),
		    list.data != NULL ? list.data : "");
		pr_buf_release(&list);
		return st;
	}
	for (i = 0; i < tmp->n; i++) {
		if ((st = append_flagged(out, src, &tmp->metrics[i], err)) !=
		    PR_OK)
			return st;
	}
	return PR_OK;
}

/*
 * Moves what the reader of f read (tmp) into out: all of it, or only the
 * metric o->column unless the reader chose its column itself.
 */
static enum pr_status
merge_read(const char *name, const struct pr_bench_format *f,
    struct pr_dataset *tmp, const struct pr_read_opts *o,
    struct pr_dataset *out, struct pr_error *err)
{
	return merge(name, tmp,
	    f->flags & PR_BENCH_OWN_COLUMN ? NULL : o->column, out, err);
}

/*
 * Reads the input with the reader of format f.  The reader fills a
 * dataset of its own, merged into out only when it succeeded, so that a
 * failed read adds nothing to out.
 */
static enum pr_status
dispatch(const struct pr_input *in, const struct pr_bench_format *f,
    const struct pr_read_opts *o, struct pr_dataset *out, struct pr_error *err)
{
	struct pr_dataset tmp;
	enum pr_status st;

	pr_dataset_init(&tmp);
	st = f->read != NULL ? f->read(in, o, &tmp, err)
			     : f->parse(in, &tmp, err);
	if (st == PR_OK)
		st = merge_read(in->name, f, &tmp, o, out, err);
	pr_dataset_release(&tmp);
	return st;
}

/* As dispatch, for a format that reads the file at path itself. */
static enum pr_status
dispatch_path(const char *path, const char *name,
    const struct pr_bench_format *f, const struct pr_read_opts *o,
    struct pr_dataset *out, struct pr_error *err)
{
	struct pr_dataset tmp;
	enum pr_status st;

	pr_dataset_init(&tmp);
	st = f->read_path(path, name, o, &tmp, err);
	if (st == PR_OK)
		st = merge_read(name, f, &tmp, o, out, err);
	pr_dataset_release(&tmp);
	return st;
}

/* Why detection found no format in head: an error for the input. */
static enum pr_status
undetected(const struct pr_input *in, struct pr_error *err)
{
	const char *nul;

	if ((nul = memchr(in->data, '\0', in->len)) != NULL) {
		long col, line = pr_read_line_of(in, nul, &col);

		return pr_error_at(err, PR_EPARSE, in->name, line, col,
		    "NUL byte in input (binary data?)");
	}
	/* Past a byte-order mark as the readers skip it: a file holding only
	 * one is blank, not JSON of no known kind. */
	if (pr_read_text_start(in) == NULL)
		return pr_error_at(err, PR_EPARSE, in->name, 0, 0,
		    in->len == 0 ? "empty input"
				 : "input has only blank "
				   "lines");
	return pr_error_at(err, PR_EPARSE, in->name, 1, 0,
	    "JSON input is neither hyperfine's (\"results\") nor perfreg's "
	    "(\"metrics\")");
}

/* Detects the format of the first bytes, rejecting NUL bytes in them. */
static enum pr_status
detect(const struct pr_input *head, enum pr_format *f, struct pr_error *err)
{
	if (memchr(head->data, '\0', head->len) != NULL)
		return undetected(head, err);
	if ((*f = pr_format_detect(head->data, head->len)) == PR_FORMAT_AUTO)
		return undetected(head, err);
	return PR_OK;
}

static enum pr_status
set_source(struct pr_dataset *out, const char *name, struct pr_error *err)
{
	if (out->source == NULL && (out->source = strdup(name)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	return PR_OK;
}

/* The entry of format f, or PR_EINVAL for none. */
static enum pr_status
entry(enum pr_format f, const struct pr_bench_format **e, struct pr_error *err)
{
	if ((*e = entry_of(f)) == NULL)
		return pr_error_set(err, PR_EINVAL, "no format to read with");
	return PR_OK;
}

enum pr_status
pr_read_dataset_mem(const char *name, const char *data, size_t len,
    const struct pr_read_opts *o, struct pr_dataset *out, struct pr_error *err)
{
	struct pr_read_opts defaults;
	const struct pr_bench_format *fe;
	struct pr_input in;
	enum pr_format f;
	enum pr_status st;
	char *copy;

	if (o == NULL) {
		pr_read_opts_init(&defaults);
		o = &defaults;
	}
	f = o->format;
	in.name = name;
	in.data = data;
	in.len = len < PR_READ_HEAD_MAX ? len : PR_READ_HEAD_MAX;
	if (f == PR_FORMAT_AUTO && (st = detect(&in, &f, err)) != PR_OK)
		return st;
	if ((st = entry(f, &fe, err)) != PR_OK)
		return st;
	if (len > fe->max_bytes)
		return pr_error_at(err, PR_ELIMIT, name, 0, 0,
		    "input larger than %zu bytes", fe->max_bytes);
	/* The readers want a NUL after the data. */
	if ((copy = malloc(len + 1)) == NULL)
		return pr_error_at(err, PR_ENOMEM, name, 0, 0, "out of memory");
	memcpy(copy, data, len);
	copy[len] = '\0';
	in.data = copy;
	in.len = len;
	st = dispatch(&in, fe, o, out, err);
	free(copy);
	if (st == PR_OK)
		st = set_source(out, name, err);
	return st;
}

enum pr_status
pr_read_dataset(const char *path, const struct pr_read_opts *o,
    struct pr_dataset *out, struct pr_error *err)
{
	struct pr_read_opts defaults;
	const struct pr_bench_format *fe = NULL;
	struct loader ld;
	struct pr_input in;
	struct stat sb;
	const char *name;
	enum pr_format f;
	enum pr_status st;
	int is_stdin, regular;

	if (o == NULL) {
		pr_read_opts_init(&defaults);
		o = &defaults;
	}
	is_stdin = strcmp(path, "-") == 0;
	name = is_stdin ? "<stdin>" : path;
	f = o->format;
	if (f != PR_FORMAT_AUTO) {
		if ((st = entry(f, &fe, err)) != PR_OK)
			return st;
		/* A format that streams reads any path itself. */
		if (fe->read_path != NULL) {
			st = dispatch_path(path, name, fe, o, out, err);
			return st == PR_OK ? set_source(out, name, err) : st;
		}
	}

	memset(&ld, 0, sizeof(ld));
	ld.name = name;
	if (is_stdin) {
		ld.fd = STDIN_FILENO;
	} else {
		do
			ld.fd = open(path, O_RDONLY | O_CLOEXEC);
		while (ld.fd < 0 && errno == EINTR);
		if (ld.fd < 0)
			return sys_fail(err, name, "cannot open", errno);
	}
	if (fstat(ld.fd, &sb) != 0) {
		st = sys_fail(err, name, "cannot stat", errno);
		goto out;
	}
	if (S_ISDIR(sb.st_mode)) {
		st = sys_fail(err, name, "cannot read", EISDIR);
		goto out;
	}
	regular = S_ISREG(sb.st_mode) && !is_stdin;

	st = fill(&ld, fe == NULL ? PR_READ_HEAD_MAX : SIZE_MAX,
	    fe == NULL ? PR_READ_FILE_MAX : fe->max_bytes, err);
	if (st != PR_OK)
		goto out;
	if (fe == NULL) {
		in.name = name;
		in.data = ld.data != NULL ? ld.data : "";
		in.len = ld.len < PR_READ_HEAD_MAX ? ld.len : PR_READ_HEAD_MAX;
		if ((st = detect(&in, &f, err)) != PR_OK ||
		    (st = entry(f, &fe, err)) != PR_OK)
			goto out;
		if (fe->read_path != NULL && regular) {
			/* Stream it rather than hold it. */
			close(ld.fd);
			ld.fd = -1;
			st = dispatch_path(path, name, fe, o, out, err);
			goto out;
		}
		if ((st = fill(&ld, SIZE_MAX, fe->max_bytes, err)) != PR_OK)
			goto out;
	}
	in.name = name;
	in.data = ld.data != NULL ? ld.data : "";
	in.len = ld.len;
	st = dispatch(&in, fe, o, out, err);
out:
	if (ld.fd >= 0 && !is_stdin)
		close(ld.fd);
	free(ld.data);
	if (st == PR_OK)
		st = set_source(out, name, err);
	return st;
}
