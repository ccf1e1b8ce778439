/*
 * parse/csv.c - CSV with a header line, one metric per numeric column.
 *
 * Syntax (RFC 4180, tolerant where it costs nothing): records end at LF
 * or CRLF; fields are separated by the delimiter, which is ',' unless the
 * header line has more ';' or tabs (outside quotes) than commas; a field
 * may be quoted, "" inside quotes standing for one quote, and a quoted
 * field may span lines; spaces around a field are ignored when reading a
 * number; a quote inside an unquoted field is kept as text.  Blank lines
 * are skipped everywhere, and lines starting with '#' before the header.
 *
 * Which columns are metrics: a column whose label names a known unit
 * ("time (ms)", "elapsed_s": perfreg/units.h) is one from the start, so
 * that "1,5" under "time_ms" (a decimal comma) is an error rather than a
 * reason to ignore the column.  Any other column is undecided until its
 * first non-empty cell, which makes it a metric when it is a number (or
 * NaN, an infinity or out of range, which are then errors) and a label
 * column (ignored: "variant", "commit", "date") otherwise.  From then on a
 * metric column must hold a number in every row: a word, an empty cell,
 * NaN or 1e999 in it is an error at its line and column, never a skipped
 * value or a silently dropped column.  Columns with an empty label
 * (pandas' index) are ignored.  With a selected column (--column), that
 * column alone is read, and its first cell must be a number too.
 *
 * A table of runs: a column labelled `run` (any case, no unit) numbers
 * the rows, each a run.  It is then a label, not a metric, and every
 * metric gets PR_METRIC_RUN_ROW (perfreg/dataset.h), its values in row
 * order, so that `perfreg compare` explains the first metric by the
 * others run by run.  Selected by --column, it is read as a metric.
 *
 * The values of each column are collected apart and added to the dataset
 * at the end, in column order, so a failed read adds nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfreg/buf.h"
#include "perfreg/numparse.h"
#include "perfreg/units.h"
#include "parse/bench.h"
#include "parse/readers.h"
#include "core/banned.h"

struct field {
	const char *b, *e; /* the text, inside the quotes if quoted */
	int quoted;
	long line, col;
};

struct row {
	struct field *f;
	size_t n, cap;
	long line; /* where the record starts */
};

/* A position in the input. */
struct cursor {
	const struct pr_input *in;
	const char *p, *e;
	const char *bol; /* start of the current line */
	long line;
};

enum col_kind { COL_UNDECIDED = 0, COL_METRIC, COL_LABEL, COL_SKIP };

struct column {
	char *label; /* unquoted header text */
	size_t name_off, name_len;
	char unit[PR_UNIT_MAX];
	enum col_kind kind;
	long empty_line, empty_col; /* first empty cell while undecided */
	struct pr_sample values;
};

static enum pr_status
push_field(struct row *r, const struct field *f, struct pr_error *err)
{
	struct field *nf;
	size_t ncap;

	if (r->n == r->cap) {
		ncap = r->cap ? r->cap * 2 : 16;
		if ((nf = realloc(r->f, ncap * sizeof(*nf))) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		r->f = nf;
		r->cap = ncap;
	}
	r->f[r->n++] = *f;
	return PR_OK;
}

static void
newline(struct cursor *c, const char *nl)
{
	c->line++;
	c->bol = nl + 1;
}

/* Reads one record at c->p into r.  c->p must be before c->e. */
static enum pr_status
next_record(struct cursor *c, char delim, struct row *r, struct pr_error *err)
{
	const char *q;
	struct field f;
	enum pr_status st;

	r->n = 0;
	r->line = c->line;
	for (;;) {
		f.line = c->line;
		f.col = (long)(c->p - c->bol) + 1;
		if (c->p < c->e && *c->p == '"') {
			for (q = c->p + 1; q < c->e; q++) {
				if (*q == '"') {
					if (q + 1 < c->e && q[1] == '"') {
						q++;
						continue;
					}
					break;
				}
				if (*q == '\n')
					newline(c, q);
			}
			if (q >= c->e)
				return pr_error_at(err, PR_EPARSE, c->in->name,
				    f.line, f.col,
				    "quoted field not closed before the end "
				    "of the input");
			f.b = c->p + 1;
			f.e = q;
			f.quoted = 1;
			c->p = q + 1;
			while (c->p < c->e && *c->p == ' ')
				c->p++;
			if (c->p < c->e && *c->p != delim && *c->p != '\n' &&
			    !(*c->p == '\r' &&
				(c->p + 1 == c->e || c->p[1] == '\n')))
				return pr_error_at(err, PR_EPARSE, c->in->name,
				    c->line, (long)(c->p - c->bol) + 1,
				    "unexpected text after a closing quote");
		} else {
			for (q = c->p; q < c->e && *q != delim && *q != '\n';
			     q++)
				continue;
			f.b = c->p;
			f.e = q;
			if ((q == c->e || *q == '\n') && f.e > f.b &&
			    f.e[-1] == '\r')
				f.e--;
			f.quoted = 0;
			c->p = q;
		}
		if ((st = push_field(r, &f, err)) != PR_OK)
			return st;
		if (c->p < c->e && *c->p == delim) {
			c->p++;
			continue;
		}
		if (c->p < c->e && *c->p == '\r')
			c->p++;
		if (c->p < c->e && *c->p == '\n') {
			newline(c, c->p);
			c->p++;
		}
		return PR_OK;
	}
}

static int
blank_field(const struct field *f)
{
	const char *s;

	if (f->quoted)
		return f->b == f->e;
	for (s = f->b; s < f->e; s++)
		if (*s != ' ' && *s != '\t')
			return 0;
	return 1;
}

/* The delimiter of the header line at p: the most frequent of ',', tab,
 * ';' outside quotes (',' on a tie or when there is none). */
static char
pick_delim(const char *p, const char *e)
{
	size_t comma = 0, tab = 0, semi = 0;
	int inq = 0;

	for (; p < e && (inq || *p != '\n'); p++) {
		if (*p == '"')
			inq = !inq;
		else if (!inq && *p == ',')
			comma++;
		else if (!inq && *p == '\t')
			tab++;
		else if (!inq && *p == ';')
			semi++;
	}
	if (tab > comma && tab >= semi)
		return '\t';
	if (semi > comma && semi > tab)
		return ';';
	return ',';
}

/* The text of a field with quotes undone, NUL-terminated; NULL when out
 * of memory. */
static char *
field_text(const struct field *f)
{
	const char *s;
	char *t, *d;

	if ((t = malloc((size_t)(f->e - f->b) + 1)) == NULL)
		return NULL;
	for (s = f->b, d = t; s < f->e; s++) {
		*d++ = *s;
		if (f->quoted && *s == '"' && s + 1 < f->e && s[1] == '"')
			s++;
	}
	*d = '\0';
	return t;
}

static int
same_name(const struct column *a, const struct column *b)
{
	return a->name_len == b->name_len &&
	    memcmp(a->label + a->name_off, b->label + b->name_off,
		a->name_len) == 0;
}

/* A column's name and position, for finding namesakes by sorting. */
struct namekey {
	const char *s;
	size_t n, pos;
};

/* Orders by name, then by position. */
static int
by_name(const void *a, const void *b)
{
	const struct namekey *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);

	if (c != 0)
		return c;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
same_key(const struct namekey *a, const struct namekey *b)
{
	return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

/*
 * Whether two columns that are not skipped share a name: *later and
 * *earlier get the pair a scan of the header from left to right meets
 * first (the smallest later position, with its first namesake).  Sorting
 * keeps a header of 30,000 columns at O(n log n) (a pairwise scan took
 * most of a minute).  Without memory for the keys the scan is pairwise.
 */
static int
duplicate(const struct column *cols, size_t n, size_t *later, size_t *earlier)
{
	struct namekey *key;
	size_t i, j, k, best = n;

	if ((key = malloc((n ? n : 1) * sizeof(*key))) == NULL) {
		for (i = 0; i < n; i++)
			for (j = 0; j < i; j++)
				if (cols[i].kind != COL_SKIP &&
				    cols[j].kind != COL_SKIP &&
				    same_name(&cols[i], &cols[j])) {
					*later = i;
					*earlier = j;
					return 1;
				}
		return 0;
	}
	for (i = k = 0; i < n; i++)
		if (cols[i].kind != COL_SKIP) {
			key[k].s = cols[i].label + cols[i].name_off;
			key[k].n = cols[i].name_len;
			key[k++].pos = i;
		}
	qsort(key, k, sizeof(*key), by_name);
	for (i = 0; i + 1 < k; i++)
		if (same_key(&key[i], &key[i + 1]) &&
		    (i == 0 || !same_key(&key[i - 1], &key[i])) &&
		    key[i + 1].pos < best) {
			best = key[i + 1].pos;
			*earlier = key[i].pos;
		}
	free(key);
	*later = best;
	return best < n;
}

/* "a, b, c" (cut when long) for messages. */
static void
list_columns(const struct column *cols, size_t n, char *dst, size_t size)
{
	struct pr_buf b = PR_BUF_INIT(200);
	char ex[64];
	size_t i;

	for (i = 0; i < n; i++) {
		pr_read_excerpt(ex, sizeof(ex), cols[i].label,
		    strlen(cols[i].label));
		if (pr_buf_addf(&b, NULL, "%s'%s'", i ? ", " : "", ex) !=
		    PR_OK) {
			pr_buf_adds(&b, ", ...", NULL);
			break;
		}
	}
	snprintf(dst, size, "%s", b.data != NULL ? b.data : "");
	pr_buf_release(&b);
}

static void
free_columns(struct column *cols, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(cols[i].label);
		pr_sample_release(&cols[i].values);
	}
	free(cols);
}

/* Reads the header record into *colsp. */
static enum pr_status
read_header(struct cursor *c, char delim, struct row *r, struct column **colsp,
    size_t *ncolsp, struct pr_error *err)
{
	struct column *cols;
	struct pr_unit_label ul;
	char ex[64];
	size_t i = 0, j = 0, n;
	enum pr_status st;

	if ((st = next_record(c, delim, r, err)) != PR_OK)
		return st;
	n = r->n;
	if ((cols = calloc(n, sizeof(*cols))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	*colsp = cols;
	*ncolsp = n;
	for (i = 0; i < n; i++) {
		pr_sample_init(&cols[i].values);
		if ((cols[i].label = field_text(&r->f[i])) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		pr_unit_from_label(cols[i].label, strlen(cols[i].label), &ul);
		cols[i].name_off = ul.name_off;
		cols[i].name_len = ul.name_len;
		memcpy(cols[i].unit, ul.unit, sizeof(ul.unit));
		if (ul.name_len == 0)
			cols[i].kind = COL_SKIP;
		else if (pr_unit_known(ul.unit))
			cols[i].kind = COL_METRIC;
	}
	if (!duplicate(cols, n, &i, &j))
		return PR_OK;
	return pr_error_at(err, PR_EPARSE, c->in->name, r->f[i].line,
	    r->f[i].col, "two columns named '%s' (columns %zu and %zu)",
	    pr_read_excerpt(ex, sizeof(ex), cols[i].label + cols[i].name_off,
		cols[i].name_len),
	    j + 1, i + 1);
}

/* Keeps only the column called name (whole label or name without its
 * unit); PR_ENOTFOUND naming the columns otherwise. */
static enum pr_status
select_column(const struct pr_input *in, long line, struct column *cols,
    size_t n, const char *name, struct pr_error *err)
{
	char list[256], ex[64];
	size_t i, found = n, len = strlen(name);

	for (i = 0; i < n && found == n; i++)
		if (strcmp(cols[i].label, name) == 0 ||
		    (cols[i].name_len == len &&
			memcmp(cols[i].label + cols[i].name_off, name, len) ==
			    0))
			found = i;
	if (found == n) {
		list_columns(cols, n, list, sizeof(list));
		return pr_error_at(err, PR_ENOTFOUND, in->name, line, 0,
		    "no column '%s' (the columns are %s)",
		    pr_read_excerpt(ex, sizeof(ex), name, len), list);
	}
	for (i = 0; i < n; i++)
		if (i != found)
			cols[i].kind = COL_SKIP;
	return PR_OK;
}

/* Makes a column labelled `run` (any case, no unit) a label; 1 when
 * there is one: the rows are runs. */
static int
run_column(struct column *cols, size_t n)
{
	size_t i;
	int runs = 0;

	for (i = 0; i < n; i++)
		if (cols[i].kind != COL_SKIP &&
		    strcasecmp(cols[i].label, "run") == 0) {
			cols[i].kind = COL_LABEL;
			runs = 1;
		}
	return runs;
}

/* The column's label for messages, quoted. */
static const char *
where_col(char *dst, size_t size, const struct column *col)
{
	char ex[64];

	pr_read_excerpt(ex, sizeof(ex), col->label, strlen(col->label));
	snprintf(dst, size, "in column '%s'", ex);
	return dst;
}

static enum pr_status
take_cell(const struct pr_input *in, struct column *col, const struct field *f,
    int selected, struct pr_error *err)
{
	const char *b = f->b, *e = f->e, *stop;
	char where[96];
	double v;
	enum pr_status st;

	if (col->kind == COL_SKIP || col->kind == COL_LABEL)
		return PR_OK;
	if (!f->quoted) {
		while (b < e && (*b == ' ' || *b == '\t'))
			b++;
		while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
	}
	if (b == e) {
		if (col->kind == COL_UNDECIDED && !selected) {
			if (col->empty_line == 0) {
				col->empty_line = f->line;
				col->empty_col = f->col;
			}
			return PR_OK;
		}
		return pr_error_at(err, PR_EPARSE, in->name, f->line, f->col,
		    "empty value %s", where_col(where, sizeof(where), col));
	}
	/* The column's name is formatted only when there is an error. */
	if (pr_parse_double(b, e, &stop, &v, NULL) == PR_OK && stop == e)
		st = PR_OK;
	else
		st = pr_read_number(in, b, e,
		    where_col(where, sizeof(where), col), &v, err);
	if (col->kind == COL_UNDECIDED) {
		if (st != PR_OK && !selected && st != PR_ERANGE &&
		    !pr_read_nonfinite_word(b, e)) {
			/* A word first: a label column. */
			col->kind = COL_LABEL;
			return PR_OK;
		}
		if (col->empty_line != 0)
			return pr_error_at(err, PR_EPARSE, in->name,
			    col->empty_line, col->empty_col, "empty value %s",
			    where_col(where, sizeof(where), col));
		col->kind = COL_METRIC;
	}
	if (st != PR_OK)
		return st;
	return pr_sample_push(&col->values, v, err);
}

static enum pr_status
add_metrics(const struct pr_input *in, long header_line, struct column *cols,
    size_t n, unsigned flags, struct pr_dataset *out, struct pr_error *err)
{
	struct pr_metric *m;
	char *name, list[256];
	size_t i, k, nm = 0;
	enum pr_status st;

	for (i = 0; i < n; i++)
		if (cols[i].kind == COL_METRIC)
			nm++;
	if (nm == 0) {
		list_columns(cols, n, list, sizeof(list));
		return pr_error_at(err, PR_EPARSE, in->name, header_line, 0,
		    "no numeric column (the columns are %s)", list);
	}
	for (i = 0; i < n; i++) {
		if (cols[i].kind != COL_METRIC)
			continue;
		name =
		    strndup(cols[i].label + cols[i].name_off, cols[i].name_len);
		if (name == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		st = pr_dataset_get(out, name, cols[i].unit,
		    pr_unit_direction(cols[i].unit), &m, err);
		free(name);
		if (st != PR_OK)
			return st;
		if ((st = pr_sample_reserve(&m->values, cols[i].values.n,
			 err)) != PR_OK)
			return st;
		for (k = 0; k < cols[i].values.n; k++)
			m->values.v[m->values.n++] = cols[i].values.v[k];
		m->values.sorted = 0;
		m->values.keyed = 0;
		m->flags |= flags;
	}
	return PR_OK;
}

static enum pr_status
read_csv(const struct pr_input *in, const struct pr_read_opts *o,
    struct pr_dataset *out, struct pr_error *err)
{
	struct cursor c;
	struct row r = { NULL, 0, 0, 0 };
	struct column *cols = NULL;
	size_t ncols = 0, i, rows = 0;
	long header_line;
	const char *eol;
	char delim;
	enum pr_status st;
	int runs = 0;

	if ((st = pr_read_check_text(in, 1, err)) != PR_OK)
		return st;
	c.in = in;
	c.p = in->data;
	c.e = in->data + in->len;
	c.bol = c.p;
	c.line = 1;
	if (in->len >= 3 && memcmp(c.p, "\xef\xbb\xbf", 3) == 0)
		c.p += 3;

	/* Blank lines and '#' comments before the header. */
	for (;;) {
		const char *s = c.p;

		if (s >= c.e)
			return pr_error_at(err, PR_EPARSE, in->name, 0, 0,
			    in->len == 0 ? "empty input"
					 : "no header line (only blank or "
					   "comment lines)");
		while (s < c.e && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s < c.e && *s != '#' && *s != '\n')
			break;
		if ((eol = memchr(s, '\n', (size_t)(c.e - s))) == NULL)
			eol = c.e - 1;
		c.p = eol + 1;
		if (eol < c.e && *eol == '\n')
			newline(&c, eol);
	}

	delim = pick_delim(c.p, c.e);
	header_line = c.line;
	st = read_header(&c, delim, &r, &cols, &ncols, err);
	if (st == PR_OK && o != NULL && o->column != NULL)
		st =
		    select_column(in, header_line, cols, ncols, o->column, err);
	else if (st == PR_OK)
		runs = run_column(cols, ncols);
	while (st == PR_OK && c.p < c.e) {
		if ((st = next_record(&c, delim, &r, err)) != PR_OK)
			break;
		if (r.n == 1 && blank_field(&r.f[0]) && !r.f[0].quoted)
			continue;
		if (r.n != ncols) {
			st = pr_error_at(err, PR_EPARSE, in->name, r.line, 0,
			    "row has %zu field%s, the header has %zu", r.n,
			    r.n == 1 ? "" : "s", ncols);
			break;
		}
		/* Cells bound the values: the reader's memory cap. */
		if (rows >= PR_READ_VALUES_MAX / ncols) {
			st = pr_error_at(err, PR_ELIMIT, in->name, r.line, 0,
			    "more than %zu values in one input",
			    (size_t)PR_READ_VALUES_MAX);
			break;
		}
		for (i = 0; i < ncols && st == PR_OK; i++)
			st = take_cell(in, &cols[i], &r.f[i],
			    o != NULL && o->column != NULL, err);
		rows++;
	}
	if (st == PR_OK && rows == 0)
		st = pr_error_at(err, PR_EPARSE, in->name, header_line, 0,
		    "no data rows after the header");
	if (st == PR_OK)
		st = add_metrics(in, header_line, cols, ncols,
		    runs ? PR_METRIC_RUN_ROW : 0, out, err);
	free_columns(cols, ncols);
	free(r.f);
	return st;
}

/*
 * A CSV header: the first line that is neither blank nor a '#' comment
 * contains ',', ';' or a tab, and its first field is not a number.  A
 * one-column CSV needs the format given by name.
 */
static unsigned
detect_csv(const struct pr_input *in)
{
	const char *p = pr_read_text_start(in), *e = in->data + in->len;
	const char *q, *eol = NULL, *fe;

	if (p == NULL || *p == '{')
		return 0;
	for (q = p; q < e; q = eol + 1) {
		if ((eol = memchr(q, '\n', (size_t)(e - q))) == NULL)
			eol = e;
		while (q < eol && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < eol && *q != '#')
			break;
		if (eol == e)
			return 0;
	}
	if (q >= e || eol == NULL)
		return 0;
	for (fe = q; fe < eol && *fe != ',' && *fe != ';' && *fe != '\t'; fe++)
		continue;
	return fe < eol && !pr_read_is_number(q, fe) ? PR_DETECT_HINT : 0;
}

const struct pr_bench_format pr_bench_csv = {
	.name = "csv",
	.description = "CSV with a header line (RFC 4180)",
	.detect = detect_csv,
	.read = read_csv,
	.max_bytes = PR_READ_FILE_MAX,
	.flags = PR_BENCH_OWN_COLUMN, /* by label or name, in read_csv */
};
