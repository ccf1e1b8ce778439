/*
 * parse/bench_registry.c - the formats of benchmark outputs, their
 * detection, and the parser object of perfreg/parse.h.
 *
 * Detection asks every format how much the input looks like it (a score
 * that grows with the lines of that format found) and takes the highest;
 * on a tie the earlier format in the table wins.  An output can mix
 * formats (dd's summary inside a perf stat log): the winner reads its own
 * lines and skips the others.  The formats and their order are those of
 * perfreg/parse_formats.def (its PR_FORMAT lines); the scores are
 * bench.h's PR_DETECT_*.  hyperfine and gobench are input formats of
 * perfreg/read.h too: their one entry (hyperfine.c, gobench.c) serves
 * both registries, and its input cap (max_bytes) applies here as well.
 *
 * pr_parse_buffer works on a dataset of its own and merges it into the
 * caller's only when everything (format, user metrics, derived metrics,
 * units) succeeded, so a failed output adds nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/bench.h"
#include "perfreg/buf.h"
#include "perfreg/parse.h"
#include "perfreg/read.h"
#include "core/banned.h"

/* The formats, in the order of perfreg/parse_formats.def. */
static const struct pr_bench_format *const formats[] = {
#define PR_FORMAT(name) &pr_bench_##name,
#include "perfreg/parse_formats.def"
#undef PR_FORMAT
	NULL
};

const char *
pr_parse_format_name(size_t i, const char **description)
{
	size_t n;

	for (n = 0; formats[n] != NULL; n++)
		if (n == i) {
			if (description != NULL)
				*description = formats[n]->description;
			return formats[n]->name;
		}
	return NULL;
}

struct pr_parser {
	const struct pr_bench_format *format; /* NULL: auto or none */
	int none;
	struct pr_usermetric **metrics;
	size_t nmetrics;
	struct pr_derive **derives;
	size_t nderives;
};

enum pr_status
pr_parser_new(struct pr_parser **out, struct pr_error *err)
{
	if ((*out = calloc(1, sizeof(**out))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	return PR_OK;
}

void
pr_parser_free(struct pr_parser *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nmetrics; i++)
		pr_usermetric_free(p->metrics[i]);
	for (i = 0; i < p->nderives; i++)
		pr_derive_free(p->derives[i]);
	free(p->metrics);
	free(p->derives);
	free(p);
}

/* "openssl, iperf3, ..." for messages. */
static void
format_list(char *buf, size_t size)
{
	size_t i, at = 0;
	int n;

	buf[0] = '\0';
	for (i = 0; formats[i] != NULL; i++) {
		n = snprintf(buf + at, size - at, "%s%s", i ? ", " : "",
		    formats[i]->name);
		if (n < 0 || (size_t)n >= size - at)
			return;
		at += (size_t)n;
	}
}

enum pr_status
pr_parser_set_format(struct pr_parser *p, const char *name,
    struct pr_error *err)
{
	char list[256];
	size_t i;

	p->format = NULL;
	p->none = 0;
	if (strcmp(name, "auto") == 0)
		return PR_OK;
	if (strcmp(name, "none") == 0) {
		p->none = 1;
		return PR_OK;
	}
	for (i = 0; formats[i] != NULL; i++)
		if (strcmp(formats[i]->name, name) == 0) {
			p->format = formats[i];
			return PR_OK;
		}
	format_list(list, sizeof(list));
	return pr_error_set(err, PR_EINVAL,
	    "unknown format '%.60s' (formats: auto, %s, none)", name, list);
}

/* Whether a user or derived metric is already called name. */
static int
taken(const struct pr_parser *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nmetrics; i++)
		if (strcmp(pr_usermetric_name(p->metrics[i]), name) == 0)
			return 1;
	for (i = 0; i < p->nderives; i++)
		if (strcmp(pr_derive_name(p->derives[i]), name) == 0)
			return 1;
	return 0;
}

enum pr_status
pr_parser_add_metric(struct pr_parser *p, const char *spec,
    struct pr_error *err)
{
	struct pr_usermetric *m, **nm;
	enum pr_status st;

	if ((st = pr_usermetric_new(spec, &m, err)) != PR_OK)
		return st;
	if (taken(p, pr_usermetric_name(m))) {
		pr_error_set(err, PR_EINVAL, "--metric '%s': name used twice",
		    pr_usermetric_name(m));
		pr_usermetric_free(m);
		return PR_EINVAL;
	}
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	nm = realloc(p->metrics, (p->nmetrics + 1) * sizeof(*nm));
	if (nm == NULL) {
		pr_usermetric_free(m);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	p->metrics = nm;
	p->metrics[p->nmetrics++] = m;
	return PR_OK;
}

enum pr_status
pr_parser_add_derive(struct pr_parser *p, const char *spec,
    struct pr_error *err)
{
	struct pr_derive *d, **nd;
	enum pr_status st;

	if ((st = pr_derive_new(spec, &d, err)) != PR_OK)
		return st;
	if (taken(p, pr_derive_name(d))) {
		pr_error_set(err, PR_EINVAL, "--derive '%s': name used twice",
		    pr_derive_name(d));
		pr_derive_free(d);
		return PR_EINVAL;
	}
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	nd = realloc(p->derives, (p->nderives + 1) * sizeof(*nd));
	if (nd == NULL) {
		pr_derive_free(d);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	p->derives = nd;
	p->derives[p->nderives++] = d;
	return PR_OK;
}

enum pr_status
pr_parser_derive(const struct pr_parser *p, struct pr_dataset *ds,
    struct pr_error *err)
{
	size_t i, n0 = ds->n, k;
	enum pr_status st;

	if (p == NULL)
		return PR_OK;
	for (i = 0; i < p->nderives; i++)
		if ((st = pr_derive_apply(p->derives[i], ds, err)) != PR_OK) {
			/* Leave ds as it was: drop what was added. */
			for (k = n0; k < ds->n; k++) {
				free(ds->metrics[k].name);
				free(ds->metrics[k].unit);
				pr_sample_release(&ds->metrics[k].values);
			}
			ds->n = n0;
			return st;
		}
	return PR_OK;
}

/* Moves the metrics of src into dst (appending values). */
static enum pr_status
merge(const struct pr_input *in, struct pr_dataset *src, struct pr_dataset *dst,
    struct pr_error *err)
{
	struct pr_metric *m, *d;
	size_t i, j;
	enum pr_status st;

	for (i = 0; i < src->n; i++) {
		m = &src->metrics[i];
		d = pr_dataset_find(dst, m->name);
		if (d != NULL && strcmp(d->unit, m->unit) != 0)
			return pr_error_at(err, PR_EINVAL, in->name, 0, 0,
			    "metric '%s' is in '%s' here but was in '%s' "
			    "before",
			    m->name, m->unit, d->unit);
	}
	for (i = 0; i < src->n; i++) {
		m = &src->metrics[i];
		if ((st = pr_dataset_get(dst, m->name, m->unit, m->better, &d,
			 err)) == PR_OK)
			d->flags |= m->flags;
		if (st != PR_OK ||
		    (st = pr_sample_reserve(&d->values, m->values.n, err)) !=
			PR_OK)
			return st;
		for (j = 0; j < m->values.n; j++)
			if ((st = pr_sample_push(&d->values, m->values.v[j],
				 err)) != PR_OK)
				return st;
	}
	return PR_OK;
}

static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

enum pr_status
pr_parse_buffer(const struct pr_parser *p, const char *data, size_t len,
    const char *name, unsigned flags, struct pr_dataset *out,
    const char **format, struct pr_error *err)
{
	static const struct pr_parser defaults;
	const struct pr_bench_format *f = NULL;
	struct pr_input in;
	struct pr_dataset tmp;
	struct pr_metric *um;
	unsigned score, best = 0;
	size_t i;
	char list[256];
	enum pr_status st;

	if (p == NULL)
		p = &defaults;
	in.name = name != NULL ? name : "<input>";
	in.data = data;
	in.len = len;
	if (format != NULL)
		*format = "none";
	if (len == 0 || blank(data, len))
		return pr_error_at(err, PR_EPARSE, in.name, 0, 0,
		    len == 0 ? "empty input" : "input has only blank lines");
	if ((st = pr_read_check_text(&in, 0, err)) != PR_OK)
		return st;
	if (p->format != NULL) {
		f = p->format;
	} else if (!p->none) {
		for (i = 0; formats[i] != NULL; i++)
			if ((score = formats[i]->detect(&in)) > best) {
				best = score;
				f = formats[i];
			}
		if (f == NULL && p->nmetrics == 0) {
			format_list(list, sizeof(list));
			return pr_error_at(err, PR_EPARSE, in.name, 0, 0,
			    "not the output of a known benchmark (%s); use "
			    "--format to force one or --metric to read your "
			    "own",
			    list);
		}
	}
	/* Named even when it then fails: the input is that tool's. */
	if (format != NULL && f != NULL)
		*format = f->name;
	if (f != NULL && f->max_bytes != 0 && len > f->max_bytes)
		return pr_error_at(err, PR_ELIMIT, in.name, 0, 0,
		    "input larger than %zu bytes", f->max_bytes);
	pr_dataset_init(&tmp);
	if (f != NULL && (st = f->parse(&in, &tmp, err)) != PR_OK)
		goto out;
	for (i = 0; f != NULL && f->is_result != NULL && i < tmp.n; i++)
		if (f->is_result(&tmp, &tmp.metrics[i]))
			tmp.metrics[i].flags |= PR_METRIC_RESULT;
	for (i = 0; i < p->nmetrics; i++) {
		if (pr_dataset_find(&tmp, pr_usermetric_name(p->metrics[i]))) {
			/* NOLINTBEGIN(clang-analyzer-core.NullDereference):
			 * f is set here: without a format tmp holds only the
			 * --metric ones, whose names are distinct. */
			st = pr_error_at(err, PR_EINVAL, in.name, 0, 0,
			    "--metric '%s': the %s output already has a "
			    "metric of that name",
			    pr_usermetric_name(p->metrics[i]), f->name);
			/* NOLINTEND(clang-analyzer-core.NullDereference) */
			goto out;
		}
		if ((st = pr_usermetric_apply(p->metrics[i], &in, &tmp, err)) !=
		    PR_OK)
			goto out;
		/* What the user asked for is a result of its own. */
		if ((um = pr_dataset_find(&tmp,
			 pr_usermetric_name(p->metrics[i]))) != NULL)
			um->flags |= PR_METRIC_RESULT;
	}
	if (!(flags & PR_PARSE_NO_DERIVE) &&
	    (st = pr_parser_derive(p, &tmp, err)) != PR_OK)
		goto out;
	st = merge(&in, &tmp, out, err);
out:
	/* Every error concerns this input: name it where nobody did. */
	if (st != PR_OK && err != NULL && err->file[0] == '\0')
		snprintf(err->file, sizeof(err->file), "%s", in.name);
	pr_dataset_release(&tmp);
	return st;
}

enum pr_status
pr_parse_file(const struct pr_parser *p, const char *path, unsigned flags,
    struct pr_dataset *out, const char **format, struct pr_error *err)
{
	struct pr_buf b = PR_BUF_INIT(PR_PARSE_FILE_MAX);
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	FILE *fp;
	size_t n;
	enum pr_status st = PR_OK;
	int e;

	if (strcmp(path, "-") == 0) {
		fp = stdin;
	} else if ((fp = fopen(path, "rb")) == NULL) {
		e = errno;
		st = pr_error_at(err, e == ENOENT ? PR_ENOTFOUND : PR_EIO, name,
		    0, 0, "cannot open: %s", strerror(e));
		if (err != NULL)
			err->sys_errno = e;
		return st;
	}
	for (;;) {
		if ((st = pr_buf_grow(&b, 65536, NULL)) != PR_OK &&
		    (st = pr_buf_grow(&b, 1, NULL)) != PR_OK) {
			st = pr_error_at(err, st, name, 0, 0,
			    st == PR_ELIMIT ? "input larger than %zu bytes"
					    : "out of memory",
			    (size_t)PR_PARSE_FILE_MAX);
			break;
		}
		n = fread(b.data + b.len, 1, b.cap - 1 - b.len, fp);
		b.len += n;
		b.data[b.len] = '\0';
		if (n == 0) {
			if (ferror(fp)) {
				e = errno;
				st = pr_error_at(err, PR_EIO, name, 0, 0,
				    "cannot read: %s", strerror(e));
				if (err != NULL)
					err->sys_errno = e;
			}
			break;
		}
	}
	if (fp != stdin)
		fclose(fp);
	if (st == PR_OK)
		st = pr_parse_buffer(p, b.data != NULL ? b.data : "", b.len,
		    name, flags, out, format, err);
	pr_buf_release(&b);
	return st;
}
