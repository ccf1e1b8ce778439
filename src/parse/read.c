/*
 * parse/read.c - the registry of input formats: names, detection by
 * content, loading an input into memory under a size cap, and dispatch to
 * the reader of each format.  The helpers the readers share are in
 * readutil.c, so that the readers do not depend on the registry that
 * calls them.
 *
 * The numbers format streams through pr_read_numbers (parse/numbers.c).
 * A regular file is therefore only peeked at (its first
 * PR_READ_HEAD_MAX bytes) when its format is detected, and read whole
 * only for the other formats.  Standard input and pipes cannot be read
 * twice: they are loaded whole (up to PR_READ_FILE_MAX), and when they
 * hold numbers, the loaded copy is handed to pr_read_numbers through an
 * anonymous memory file (memfd_create: no directory, no TMPDIR read;
 * see numbers_from_memory).
 */
#define _GNU_SOURCE /* memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfreg/buf.h"
#include "perfreg/numparse.h"
#include "perfreg/read.h"
#include "parse/readers.h"
#include "core/banned.h"

/* How much of an input format detection looks at. */
#define PR_READ_HEAD_MAX (64 * 1024)

static const char *const format_names[] = { "auto", "numbers", "csv",
	"hyperfine", "gobench", "perfreg" };

#define NFORMATS (sizeof(format_names) / sizeof(format_names[0]))

const char *
pr_format_str(enum pr_format f)
{
	if ((size_t)f < NFORMATS)
		return format_names[f];
	return "unknown";
}

enum pr_status
pr_format_parse(const char *name, enum pr_format *out, struct pr_error *err)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (strcmp(name, format_names[i]) == 0) {
			*out = (enum pr_format)i;
			return PR_OK;
		}
	return pr_error_set(err, PR_EINVAL,
	    "unknown format '%s' (expected auto, numbers, csv, hyperfine, "
	    "gobench or perfreg)",
	    name);
}

void
pr_read_opts_init(struct pr_read_opts *o)
{
	o->format = PR_FORMAT_AUTO;
	o->column = NULL;
	o->name = NULL;
}

/* --- detection --- */

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
	    c == '\v';
}

/* Whether [s, e) is a whole number (as pr_parse_double reads it). */
static int
is_number(const char *s, const char *e)
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

/*
 * Whether the JSON text at p (after its '{') names key "results" before
 * "metrics": 1 for hyperfine, 2 for perfreg, 0 for neither.  A plain
 * search of the head: both keys are near the start of their files.
 */
static enum pr_format
json_kind(const char *p, const char *e)
{
	static const struct {
		const char *key;
		enum pr_format f;
	} keys[] = {
		{ "\"results\"", PR_FORMAT_HYPERFINE },
		{ "\"metrics\"", PR_FORMAT_PERFREG },
	};
	const char *q;
	size_t k, n;

	for (; p < e; p++) {
		if (*p != '"')
			continue;
		for (k = 0; k < 2; k++) {
			n = strlen(keys[k].key);
			if ((size_t)(e - p) < n || memcmp(p, keys[k].key, n))
				continue;
			for (q = p + n; q < e && is_space((unsigned char)*q);
			     q++)
				continue;
			if (q < e && *q == ':')
				return keys[k].f;
		}
	}
	return PR_FORMAT_AUTO;
}

/* Whether line [s, e) is a Go benchmark result: "BenchmarkX N V U...". */
static int
is_gobench_result(const char *s, const char *e)
{
	const char *f[4][2];
	int nf = 0;
	const char *p = s, *q;

	if ((size_t)(e - s) < 9 || memcmp(s, "Benchmark", 9) != 0)
		return 0;
	if (s + 9 < e && s[9] >= 'a' && s[9] <= 'z')
		return 0;
	while (nf < 4) {
		while (p < e && is_space((unsigned char)*p))
			p++;
		if (p == e)
			break;
		for (q = p; q < e && !is_space((unsigned char)*q); q++)
			continue;
		f[nf][0] = p;
		f[nf][1] = q;
		nf++;
		p = q;
	}
	if (nf < 4)
		return 0;
	for (p = f[1][0]; p < f[1][1]; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return is_number(f[2][0], f[2][1]);
}

static int
is_go_config(const char *s, const char *e)
{
	static const char *const keys[] = { "goos:", "goarch:", "pkg:", "cpu:",
		NULL };
	size_t k, n;

	for (k = 0; keys[k] != NULL; k++) {
		n = strlen(keys[k]);
		if ((size_t)(e - s) >= n && memcmp(s, keys[k], n) == 0)
			return 1;
	}
	return 0;
}

enum pr_format
pr_format_detect(const char *head, size_t len)
{
	const char *p = head, *e = head + len, *eol, *q, *fe;
	int first = 1;

	if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	while (p < e && is_space((unsigned char)*p))
		p++;
	if (p == e)
		return PR_FORMAT_AUTO;
	if (*p == '{')
		return json_kind(p + 1, e);

	for (q = p; q < e; q = eol + 1) {
		if ((eol = memchr(q, '\n', (size_t)(e - q))) == NULL)
			eol = e;
		if (is_gobench_result(q, eol))
			return PR_FORMAT_GOBENCH;
		if (first && is_go_config(q, eol))
			return PR_FORMAT_GOBENCH;
		first = 0;
		if (eol == e)
			break;
	}

	/* The first line that is neither blank nor a comment. */
	for (q = p; q < e; q = eol + 1) {
		if ((eol = memchr(q, '\n', (size_t)(e - q))) == NULL)
			eol = e;
		while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < eol && *q != '#')
			break;
		if (eol == e)
			return PR_FORMAT_NUMBERS;
	}
	if (q >= e)
		return PR_FORMAT_NUMBERS;
	/* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): q < e, so the loop above set eol */
	for (fe = q; fe < eol && *fe != ',' && *fe != ';' && *fe != '\t'; fe++)
		continue;
	if (fe < eol && !is_number(q, fe))
		return PR_FORMAT_CSV;
	return PR_FORMAT_NUMBERS;
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
 * pr_read_numbers reads from a path.  An input that is already in memory
 * is written to an anonymous memory file and read back through its
 * /dev/fd path; messages then get the input's own name.  The library
 * reads no environment (TMPDIR), so no directory is involved.
 */
static enum pr_status
numbers_from_memory(const struct pr_input *in, struct pr_sample *to,
    struct pr_error *err)
{
	char path[64];
	size_t off = 0;
	ssize_t w;
	enum pr_status st;
	int fd;

	if ((fd = memfd_create("perfreg-input", MFD_CLOEXEC)) < 0)
		return sys_fail(err, in->name, "cannot create a temporary file",
		    errno);
	while (off < in->len) {
		w = write(fd, in->data + off, in->len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			st = sys_fail(err, in->name,
			    "cannot write a temporary file",
			    w < 0 ? errno : EIO);
			close(fd);
			return st;
		}
		off += (size_t)w;
	}
	snprintf(path, sizeof(path), "/dev/fd/%d", fd);
	st = pr_read_numbers(path, 1, " \t", to, err);
	close(fd);
	if (st != PR_OK && err != NULL)
		snprintf(err->file, sizeof(err->file), "%s", in->name);
	return st;
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
	return PR_OK;
}

/* Adds the sample read by the numbers reader as one metric. */
static enum pr_status
add_numbers(struct pr_sample *vals, const char *src,
    const struct pr_read_opts *o, struct pr_dataset *out, struct pr_error *err)
{
	if (vals->n == 0)
		return pr_error_at(err, PR_EPARSE, src, 0, 0, "no values");
	return append_values(out, src, o->name != NULL ? o->name : "value", "",
	    PR_BETTER_UNKNOWN, vals, err);
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
 * Reads the input with the reader of format f.  The reader fills a
 * dataset of its own, merged into out only when it succeeded, so that a
 * failed read adds nothing to out.
 */
static enum pr_status
dispatch(const struct pr_input *in, enum pr_format f,
    const struct pr_read_opts *o, struct pr_dataset *out, struct pr_error *err)
{
	struct pr_dataset tmp;
	struct pr_sample vals;
	enum pr_status st;

	pr_dataset_init(&tmp);
	switch (f) {
	case PR_FORMAT_CSV:
		st = pr_read_csv(in, o, &tmp, err);
		break;
	case PR_FORMAT_HYPERFINE:
		st = pr_read_hyperfine(in, &tmp, err);
		break;
	case PR_FORMAT_GOBENCH:
		st = pr_read_gobench(in, &tmp, err);
		break;
	case PR_FORMAT_PERFREG:
		st = pr_read_perfreg(in, &tmp, err);
		break;
	case PR_FORMAT_NUMBERS:
		pr_sample_init(&vals);
		st = numbers_from_memory(in, &vals, err);
		if (st == PR_OK)
			st = add_numbers(&vals, in->name, o, out, err);
		pr_sample_release(&vals);
		return st;
	case PR_FORMAT_AUTO:
	default:
		return pr_error_set(err, PR_EINVAL, "no format to read with");
	}
	/* The csv reader selects its column itself (by label or name). */
	if (st == PR_OK)
		st = merge(in->name, &tmp,
		    f == PR_FORMAT_CSV ? NULL : o->column, out, err);
	pr_dataset_release(&tmp);
	return st;
}

/* Why detection found no format in head: an error for the input. */
static enum pr_status
undetected(const struct pr_input *in, struct pr_error *err)
{
	const char *p = in->data, *e = in->data + in->len;
	const char *nul;

	if ((nul = memchr(p, '\0', in->len)) != NULL) {
		long col, line = pr_read_line_of(in, nul, &col);

		return pr_error_at(err, PR_EPARSE, in->name, line, col,
		    "NUL byte in input (binary data?)");
	}
	while (p < e && is_space((unsigned char)*p))
		p++;
	if (p == e)
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

static size_t
cap_of(enum pr_format f)
{
	return f == PR_FORMAT_HYPERFINE || f == PR_FORMAT_PERFREG
	    ? PR_READ_JSON_MAX
	    : PR_READ_FILE_MAX;
}

static enum pr_status
set_source(struct pr_dataset *out, const char *name, struct pr_error *err)
{
	if (out->source == NULL && (out->source = strdup(name)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	return PR_OK;
}

enum pr_status
pr_read_dataset_mem(const char *name, const char *data, size_t len,
    const struct pr_read_opts *o, struct pr_dataset *out, struct pr_error *err)
{
	struct pr_read_opts defaults;
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
	if (len > cap_of(f))
		return pr_error_at(err, PR_ELIMIT, name, 0, 0,
		    "input larger than %zu bytes", cap_of(f));
	/* The readers want a NUL after the data. */
	if ((copy = malloc(len + 1)) == NULL)
		return pr_error_at(err, PR_ENOMEM, name, 0, 0, "out of memory");
	memcpy(copy, data, len);
	copy[len] = '\0';
	in.data = copy;
	in.len = len;
	st = dispatch(&in, f, o, out, err);
	free(copy);
	if (st == PR_OK)
		st = set_source(out, name, err);
	return st;
}

static enum pr_status
read_numbers_path(const char *path, const char *name,
    const struct pr_read_opts *o, struct pr_dataset *out, struct pr_error *err)
{
	struct pr_sample vals;
	enum pr_status st;

	pr_sample_init(&vals);
	st = pr_read_numbers(path, 1, " \t", &vals, err);
	if (st == PR_OK)
		st = add_numbers(&vals, name, o, out, err);
	pr_sample_release(&vals);
	return st;
}

enum pr_status
pr_read_dataset(const char *path, const struct pr_read_opts *o,
    struct pr_dataset *out, struct pr_error *err)
{
	struct pr_read_opts defaults;
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
	if (f == PR_FORMAT_NUMBERS) {
		st = read_numbers_path(path, name, o, out, err);
		return st == PR_OK ? set_source(out, name, err) : st;
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

	st = fill(&ld, f == PR_FORMAT_AUTO ? PR_READ_HEAD_MAX : SIZE_MAX,
	    f == PR_FORMAT_AUTO ? PR_READ_FILE_MAX : cap_of(f), err);
	if (st != PR_OK)
		goto out;
	if (f == PR_FORMAT_AUTO) {
		in.name = name;
		in.data = ld.data != NULL ? ld.data : "";
		in.len = ld.len < PR_READ_HEAD_MAX ? ld.len : PR_READ_HEAD_MAX;
		if ((st = detect(&in, &f, err)) != PR_OK)
			goto out;
		if (f == PR_FORMAT_NUMBERS && regular) {
			/* Stream it rather than hold it. */
			close(ld.fd);
			ld.fd = -1;
			st = read_numbers_path(path, name, o, out, err);
			goto out;
		}
		if ((st = fill(&ld, SIZE_MAX, cap_of(f), err)) != PR_OK)
			goto out;
	}
	in.name = name;
	in.data = ld.data != NULL ? ld.data : "";
	in.len = ld.len;
	st = dispatch(&in, f, o, out, err);
out:
	if (ld.fd >= 0 && !is_stdin)
		close(ld.fd);
	free(ld.data);
	if (st == PR_OK)
		st = set_source(out, name, err);
	return st;
}
