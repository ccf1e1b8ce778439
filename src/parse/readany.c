/*
 * parse/readany.c - one side of `perfreg compare`: the input formats of
 * perfreg/read.h, and the benchmark outputs of perfreg/parse.h when none
 * of those reads a file, or when one is asked for by name (pr_read_any).
 *
 * The readers of read.h go first, so that every input they read reads
 * as it did; only a regular file they refuse as malformed is read again,
 * by the parse registry, and only a file that a benchmark format
 * recognises takes that format's result or error.  A file no format
 * recognises keeps the first reader's error, which names the line and
 * the word that is not a number.  A parsed output is read whole into a
 * dataset of its own and merged into the caller's only when every metric
 * fits (same unit as a metric already there), so that a failure leaves
 * the caller's dataset as it was.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/parse.h"
#include "perfreg/read.h"
#include "core/banned.h"

/* "the metrics there are" for a message: the first names of d. */
static void
names_of(const struct pr_dataset *d, char *buf, size_t size)
{
	size_t i, o = 0;
	int n;

	buf[0] = '\0';
	for (i = 0; i < d->n && o + 8 < size; i++) {
		if (d->metrics[i].values.n == 0)
			continue;
		n = snprintf(buf + o, size - o, "%s%s", o > 0 ? ", " : "",
		    d->metrics[i].name);
		if (n < 0 || (size_t)n >= size - o) {
			snprintf(buf + o, size - o, "%s...", o > 0 ? ", " : "");
			return;
		}
		o += (size_t)n;
	}
}

/* Whether the metric m of a parsed output goes into out (column). */
static int
wanted(const struct pr_metric *m, const char *column)
{
	return m->values.n > 0 &&
	    (column == NULL || strcmp(m->name, column) == 0);
}

/* Merges the metrics of tmp (from the format fmt of name) into out. */
static enum pr_status
merge_parsed(const char *name, const char *fmt, const struct pr_dataset *tmp,
    const char *column, struct pr_dataset *out, struct pr_error *err)
{
	struct pr_metric *m;
	enum pr_status st = PR_OK;
	size_t i, k, found = 0;
	char list[512];

	for (i = 0; i < tmp->n; i++) {
		if (!wanted(&tmp->metrics[i], column))
			continue;
		found++;
		m = pr_dataset_find(out, tmp->metrics[i].name);
		if (m != NULL && strcmp(m->unit, tmp->metrics[i].unit) != 0)
			return pr_error_at(err, PR_EINVAL, name, 0, 0,
			    "metric '%s' is in %s here and in %s before",
			    m->name,
			    tmp->metrics[i].unit[0] != '\0'
				? tmp->metrics[i].unit
				: "no unit",
			    m->unit[0] != '\0' ? m->unit : "no unit");
	}
	if (column != NULL && found == 0) {
		names_of(tmp, list, sizeof(list));
		return pr_error_at(err, PR_ENOTFOUND, name, 0, 0,
		    "no metric '%s' in this %s output (it has: %s)", column,
		    fmt, list);
	}
	for (i = 0; i < tmp->n && st == PR_OK; i++) {
		if (!wanted(&tmp->metrics[i], column))
			continue;
		st = pr_dataset_get(out, tmp->metrics[i].name,
		    tmp->metrics[i].unit, tmp->metrics[i].better, &m, err);
		for (k = 0; st == PR_OK && k < tmp->metrics[i].values.n; k++)
			st = pr_sample_push(&m->values,
			    tmp->metrics[i].values.v[k], err);
		if (st == PR_OK)
			m->flags |= tmp->metrics[i].flags;
	}
	if (st == PR_OK && out->source == NULL &&
	    (out->source = strdup(name)) == NULL)
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
	return st;
}

enum pr_status
pr_read_any(const char *path, const struct pr_read_opts *o, const char *parse,
    struct pr_dataset *out, const char **used, struct pr_error *err)
{
	struct pr_parser *p = NULL;
	struct pr_dataset tmp;
	struct pr_error perr;
	struct stat sb;
	const char *fmt = "none";
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	enum pr_status st;

	if (used != NULL)
		*used = NULL;
	if (parse == NULL) {
		st = pr_read_dataset(path, o, out, err);
		if (st != PR_EPARSE ||
		    (o != NULL && o->format != PR_FORMAT_AUTO) ||
		    strcmp(path, "-") == 0 || stat(path, &sb) != 0 ||
		    !S_ISREG(sb.st_mode))
			return st;
	}
	pr_dataset_init(&tmp);
	pr_error_clear(&perr);
	if ((st = pr_parser_new(&p, &perr)) == PR_OK && parse != NULL)
		st = pr_parser_set_format(p, parse, &perr);
	if (st == PR_OK)
		st = pr_parse_file(p, path, 0, &tmp, &fmt, &perr);
	if (parse == NULL && strcmp(fmt, "none") == 0 && st != PR_ENOMEM) {
		/* Not a benchmark's output either: the reader's error
		 * (still in err) says where it is not a number. */
		st = PR_EPARSE;
		goto out;
	}
	if (st == PR_OK)
		st = merge_parsed(name, fmt, &tmp, o != NULL ? o->column : NULL,
		    out, &perr);
	if (st != PR_OK) {
		if (err != NULL)
			*err = perr;
		goto out;
	}
	if (used != NULL)
		*used = fmt;
out:
	pr_dataset_release(&tmp);
	pr_parser_free(p);
	return st;
}
