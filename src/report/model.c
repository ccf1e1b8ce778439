/*
 * report/model.c - the report model (perfreg/report_model.h): an ordered
 * list of sections that commands fill, and the renderers that write any
 * model as text, Markdown, CSV or JSON.
 *
 * The renderers decide nothing: a comparison is written by the writers
 * of report/compare.c, an environment diff by those of report/envdiff.c;
 * this file walks the sections, puts each where its format wants it and
 * escapes the words it writes itself.  JSON is built as one jansson
 * tree, the comparisons and diffs nested as values (never written to
 * text and read back), and dumped once.
 *
 * Invariants: a section's owned strings are its own copies; a group's
 * model is allocated by its parent and freed with it; the CSV header of
 * comparisons is written once per rendering, by the first comparison
 * reached in document order (groups included).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "perfreg/report_model.h"
#include "report/internal.h"
#include "core/jsonout.h"
#include "core/banned.h"

void
pr_report_model_init(struct pr_report_model *m)
{
	m->sec = NULL;
	m->n = 0;
	m->cap = 0;
}

void
pr_report_model_release(struct pr_report_model *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->n; i++) {
		free(m->sec[i].key);
		free(m->sec[i].text);
		if (m->sec[i].writer != NULL && m->sec[i].writer->free != NULL)
			m->sec[i].writer->free(m->sec[i].data);
		if (m->sec[i].group != NULL) {
			pr_report_model_release(m->sec[i].group);
			free(m->sec[i].group);
		}
	}
	free(m->sec);
	pr_report_model_init(m);
}

/* A new zeroed section of that kind at the end of m, or NULL. */
static struct pr_report_section *
add(struct pr_report_model *m, enum pr_report_section_kind kind,
    const char *key, int flags, struct pr_error *err)
{
	struct pr_report_section *s;
	size_t cap;
	char *k = NULL;

	if (key != NULL && (k = strdup(key)) == NULL)
		goto nomem;
	if (m->n == m->cap) {
		cap = m->cap > 0 ? 2 * m->cap : 8;
		if ((s = realloc(m->sec, cap * sizeof(*s))) == NULL)
			goto nomem;
		m->sec = s;
		m->cap = cap;
	}
	s = &m->sec[m->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->flags = flags;
	s->key = k;
	return s;
nomem:
	free(k);
	pr_error_set(err, PR_ENOMEM, "out of memory");
	return NULL;
}

/* Drops the last section (added by add) after a later failure. */
static void
drop_last(struct pr_report_model *m)
{
	m->n--;
	free(m->sec[m->n].key);
	free(m->sec[m->n].text);
}

enum pr_status
pr_report_model_textf(struct pr_report_model *m,
    enum pr_report_section_kind kind, const char *key, int flags,
    struct pr_error *err, const char *fmt, ...)
{
	struct pr_report_section *s;
	struct pr_buf b = PR_BUF_INIT((size_t)64 << 20);
	enum pr_status st;
	va_list ap;

	if (kind != PR_SECTION_TEXT && kind != PR_SECTION_HEADLINE &&
	    kind != PR_SECTION_WARNING && kind != PR_SECTION_STRING)
		return pr_error_set(err, PR_EINVAL,
		    "a section of kind %d holds no text", (int)kind);
	va_start(ap, fmt);
	st = pr_buf_vaddf(&b, err, fmt, ap);
	va_end(ap);
	if (st == PR_OK)
		st = pr_buf_addc(&b, '\0', err);
	if (st != PR_OK) {
		pr_buf_release(&b);
		return st;
	}
	if ((s = add(m, kind, key, flags, err)) == NULL) {
		pr_buf_release(&b);
		return PR_ENOMEM;
	}
	s->text = pr_buf_detach(&b, NULL);
	return PR_OK;
}

enum pr_status
pr_report_model_string(struct pr_report_model *m, const char *key, int flags,
    const char *str, struct pr_error *err)
{
	struct pr_report_section *s;

	if ((s = add(m, PR_SECTION_STRING, key, flags, err)) == NULL)
		return PR_ENOMEM;
	if (str != NULL && (s->text = strdup(str)) == NULL) {
		drop_last(m);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	return PR_OK;
}

enum pr_status
pr_report_model_comparison(struct pr_report_model *m, const char *key,
    int flags, const struct pr_report *r, struct pr_error *err)
{
	struct pr_report_section *s;

	if (r->n == 0 && !(flags & PR_SECTION_NO_TEXT))
		return pr_error_set(err, PR_EINVAL, "no metric to report");
	if ((s = add(m, PR_SECTION_COMPARISON, key, flags, err)) == NULL)
		return PR_ENOMEM;
	s->comparison = *r;
	return PR_OK;
}

enum pr_status
pr_report_model_csv_columns(struct pr_report_model *m, const char *const *head,
    const char *const *cell, size_t n, struct pr_error *err)
{
	struct pr_report_section *s;

	if (m->n == 0 || (s = &m->sec[m->n - 1])->kind != PR_SECTION_COMPARISON)
		return pr_error_set(err, PR_EINVAL,
		    "CSV columns belong to a comparison");
	s->csv_head = head;
	s->csv_cell = cell;
	s->ncsv = n;
	return PR_OK;
}

enum pr_status
pr_report_model_envdiff(struct pr_report_model *m, const char *key, int flags,
    const struct pr_envdiff *d, const char *name_a, const char *name_b,
    size_t log_max, struct pr_error *err)
{
	struct pr_report_section *s;

	if ((s = add(m, PR_SECTION_ENVDIFF, key, flags, err)) == NULL)
		return PR_ENOMEM;
	s->envdiff = d;
	s->name_a = name_a;
	s->name_b = name_b;
	s->log_max = log_max;
	return PR_OK;
}

enum pr_status
pr_report_model_integer(struct pr_report_model *m, const char *key, int flags,
    int have, int64_t v, struct pr_error *err)
{
	struct pr_report_section *s;

	if ((s = add(m, PR_SECTION_INTEGER, key, flags, err)) == NULL)
		return PR_ENOMEM;
	s->have = have;
	s->integer = v;
	return PR_OK;
}

enum pr_status
pr_report_model_real(struct pr_report_model *m, const char *key, int flags,
    int have, double v, struct pr_error *err)
{
	struct pr_report_section *s;

	if ((s = add(m, PR_SECTION_REAL, key, flags, err)) == NULL)
		return PR_ENOMEM;
	s->have = have && v == v && v - v == 0;
	s->real = v;
	return PR_OK;
}

enum pr_status
pr_report_model_bool(struct pr_report_model *m, const char *key, int flags,
    int v, struct pr_error *err)
{
	struct pr_report_section *s;

	if ((s = add(m, PR_SECTION_BOOL, key, flags, err)) == NULL)
		return PR_ENOMEM;
	s->have = 1;
	s->integer = v != 0;
	return PR_OK;
}

enum pr_status
pr_report_model_group(struct pr_report_model *m, const char *key, int flags,
    struct pr_report_model **group, struct pr_error *err)
{
	struct pr_report_section *s;
	struct pr_report_model *g;

	if ((g = malloc(sizeof(*g))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	pr_report_model_init(g);
	if ((s = add(m, PR_SECTION_GROUP, key, flags, err)) == NULL) {
		free(g);
		return PR_ENOMEM;
	}
	s->group = g;
	*group = g;
	return PR_OK;
}

enum pr_status
pr_report_model_list(struct pr_report_model *m, const char *key, int flags,
    struct pr_error *err)
{
	if (key == NULL)
		return pr_error_set(err, PR_EINVAL, "a list needs a key");
	return add(m, PR_SECTION_LIST_HEAD, key, flags | PR_SECTION_LIST,
		   err) != NULL
	    ? PR_OK
	    : PR_ENOMEM;
}

enum pr_status
report_model_writer(struct pr_report_model *m, const char *key, int flags,
    const struct report_writer *w, void *data, struct pr_error *err)
{
	struct pr_report_section *s;

	if ((s = add(m, PR_SECTION_WRITER, key, flags, err)) == NULL) {
		if (w->free != NULL)
			w->free(data);
		return PR_ENOMEM;
	}
	s->writer = w;
	s->data = data;
	return PR_OK;
}

/* ---------------------------------------------------------------- *
 * Text, Markdown and CSV
 * ---------------------------------------------------------------- */

/*
 * The env diff in Markdown: its text in a fenced code block, so that the
 * snapshots' values (a process's OPENSSL_ia32cap, a kernel log line) are
 * shown as they are, never read as Markdown; the fence is longer than
 * any run of backticks inside (CommonMark), so that none can close it.
 */
static enum pr_status
envdiff_markdown(struct pr_buf *out, const struct pr_report_section *s,
    struct pr_error *err)
{
	struct pr_buf t = PR_BUF_INIT(1 << 26);
	enum pr_status st;
	size_t i, run = 0, fence = 3;

	st = pr_envdiff_format_text(s->envdiff, s->name_a, s->name_b,
	    s->log_max, &t, err);
	for (i = 0; st == PR_OK && i < t.len; i++) {
		run = t.data[i] == '`' ? run + 1 : 0;
		if (run >= fence)
			fence = run + 1;
	}
	for (i = 0; st == PR_OK && i < fence; i++)
		st = pr_buf_addc(out, '`', err);
	if (st == PR_OK)
		st = pr_buf_adds(out, "text\n", err);
	if (st == PR_OK && t.len > 0)
		st = pr_buf_add(out, t.data, t.len, err);
	if (st == PR_OK && t.len > 0 && t.data[t.len - 1] != '\n')
		st = pr_buf_addc(out, '\n', err);
	for (i = 0; st == PR_OK && i < fence; i++)
		st = pr_buf_addc(out, '`', err);
	if (st == PR_OK)
		st = pr_buf_addc(out, '\n', err);
	pr_buf_release(&t);
	return st;
}

static enum pr_status
render_flat(struct pr_buf *out, const struct pr_report_model *m,
    enum pr_report_format f, int *csv_head, struct pr_error *err)
{
	const struct pr_report_section *s;
	enum pr_status st = PR_OK;
	size_t i;

	for (i = 0; i < m->n && st == PR_OK; i++) {
		s = &m->sec[i];
		if (f == PR_REPORT_CSV ? (s->flags & PR_SECTION_NO_CSV) != 0
				       : (s->flags & PR_SECTION_NO_TEXT) != 0)
			continue;
		switch (s->kind) {
		case PR_SECTION_TEXT:
		case PR_SECTION_HEADLINE:
		case PR_SECTION_WARNING:
			if (f == PR_REPORT_CSV)
				break;
			if (s->kind == PR_SECTION_WARNING &&
			    (st = pr_buf_adds(out, "WARNING: ", err)) != PR_OK)
				break;
			st = pr_report_escape(out, s->text, strlen(s->text),
			    PR_ESCAPE_NEWLINE | PR_ESCAPE_TAB, err);
			if (st == PR_OK && s->kind != PR_SECTION_TEXT)
				st = pr_buf_addc(out, '\n', err);
			break;
		case PR_SECTION_COMPARISON:
			if (s->comparison.n == 0)
				break;
			if (f == PR_REPORT_CSV) {
				st = report_compare_csv(out, &s->comparison,
				    s->csv_head, s->csv_cell, s->ncsv,
				    !*csv_head, err);
				*csv_head = 1;
				break;
			}
			st = pr_report_compare(out, &s->comparison, f, err);
			break;
		case PR_SECTION_ENVDIFF:
			if (f == PR_REPORT_CSV)
				break;
			if (f == PR_REPORT_MARKDOWN) {
				st = envdiff_markdown(out, s, err);
				break;
			}
			st = pr_envdiff_format_text(s->envdiff, s->name_a,
			    s->name_b, s->log_max, out, err);
			break;
		case PR_SECTION_GROUP:
			st = render_flat(out, s->group, f, csv_head, err);
			break;
		case PR_SECTION_WRITER:
			if (f != PR_REPORT_CSV && s->writer->text != NULL)
				st = s->writer->text(out, s->data, f, err);
			break;
		case PR_SECTION_INTEGER:
		case PR_SECTION_REAL:
		case PR_SECTION_BOOL:
		case PR_SECTION_STRING:
		case PR_SECTION_LIST_HEAD:
			break;
		}
	}
	return st;
}

/* ---------------------------------------------------------------- *
 * JSON
 * ---------------------------------------------------------------- */

static json_t *
section_json(const struct pr_report_section *s, struct pr_error *err)
{
	json_t *j = NULL;
	char *e;

	switch (s->kind) {
	case PR_SECTION_TEXT:
	case PR_SECTION_HEADLINE:
	case PR_SECTION_WARNING:
	case PR_SECTION_STRING:
		/* Bytes that are not UTF-8 are shown as text shows them. */
		if (s->text == NULL)
			return json_null();
		if ((j = json_string(s->text)) == NULL &&
		    (e = pr_report_escape_str(s->text,
			 PR_ESCAPE_NEWLINE | PR_ESCAPE_TAB)) != NULL) {
			j = json_string(e);
			free(e);
		}
		break;
	case PR_SECTION_COMPARISON:
		return report_compare_json(&s->comparison, err);
	case PR_SECTION_ENVDIFF:
		j = report_envdiff_json(s->envdiff);
		break;
	case PR_SECTION_INTEGER:
		return s->have ? json_integer((json_int_t)s->integer)
			       : json_null();
	case PR_SECTION_REAL:
		return s->have ? json_real(s->real) : json_null();
	case PR_SECTION_BOOL:
		return json_boolean(s->integer);
	case PR_SECTION_GROUP:
		return report_model_json(s->group, err);
	case PR_SECTION_WRITER:
		if (s->writer->json == NULL)
			return json_null();
		return s->writer->json(s->data, err);
	case PR_SECTION_LIST_HEAD:
		break;
	}
	if (j == NULL)
		pr_error_set(err, PR_ENOMEM,
		    "out of memory writing the JSON report");
	return j;
}

/*
 * A top-level array section written an item at a time (a writer with a
 * report_json_stream, keyed, neither inline nor a list member): in the tree, a
 * placeholder that the document's dump recognises by its address (held
 * by one more reference, so that a later section of the same key that
 * replaces it cannot free it and have the address reused).
 */
#define MAX_HOLES 8
struct holes {
	size_t n;
	json_t *ph[MAX_HOLES];
	const struct pr_report_section *sec[MAX_HOLES];
};

static int
streamable(const struct pr_report_section *s, const struct holes *h)
{
	return h != NULL && h->n < MAX_HOLES && s->kind == PR_SECTION_WRITER &&
	    report_json_stream(s->writer) != NULL &&
	    !(s->flags & (PR_SECTION_INLINE | PR_SECTION_LIST));
}

static void
holes_release(struct holes *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		json_decref(h->ph[i]);
	h->n = 0;
}

/* The model's tree; with h, the streamable sections as placeholders. */
static json_t *
model_json(const struct pr_report_model *m, struct holes *h,
    struct pr_error *err)
{
	const struct pr_report_section *s;
	json_t *root, *v, *arr;
	size_t i;

	if ((root = json_object()) == NULL)
		goto nomem;
	for (i = 0; i < m->n; i++) {
		s = &m->sec[i];
		if (s->kind == PR_SECTION_WRITER && s->writer->json == NULL)
			continue;
		if (s->flags & PR_SECTION_INLINE) {
			if ((v = section_json(s, err)) == NULL)
				goto fail;
			if (!json_is_object(v) ||
			    json_object_update(root, v) != 0) {
				json_decref(v);
				pr_error_set(err, PR_EINVAL,
				    "an inline section is not an object");
				goto fail;
			}
			json_decref(v);
			continue;
		}
		if (s->key == NULL)
			continue;
		if (s->kind == PR_SECTION_LIST_HEAD) {
			if (json_object_get(root, s->key) == NULL &&
			    json_object_set_new(root, s->key, json_array()) !=
				0)
				goto nomem;
			continue;
		}
		if (s->key != NULL && streamable(s, h)) {
			if ((v = json_array()) == NULL)
				goto nomem;
			h->ph[h->n] = json_incref(v);
			h->sec[h->n++] = s;
		} else if ((v = section_json(s, err)) == NULL)
			goto fail;
		if (!(s->flags & PR_SECTION_LIST)) {
			if (json_object_set_new(root, s->key, v) != 0)
				goto nomem;
			continue;
		}
		if ((arr = json_object_get(root, s->key)) == NULL) {
			if ((arr = json_array()) == NULL ||
			    json_object_set_new(root, s->key, arr) != 0) {
				json_decref(v);
				goto nomem;
			}
		}
		if (json_array_append_new(arr, v) != 0)
			goto nomem;
	}
	return root;
nomem:
	pr_error_set(err, PR_ENOMEM, "out of memory writing the JSON report");
fail:
	json_decref(root);
	return NULL;
}

json_t *
report_model_json(const struct pr_report_model *m, struct pr_error *err)
{
	return model_json(m, NULL, err);
}

/*
 * Writing a document with holes: jansson dumps each member's value by
 * itself (at depth 0) through sink, which adds indent spaces after each
 * newline; a JSON text has no newline but jansson's own (a string's is
 * escaped), so the text is byte for byte what one dump of the whole tree
 * writes at that depth.  A hole's array is written the way jansson
 * writes an array, each item's tree made, dumped and freed in turn: a
 * long session's runs never exist as one tree and one string at once.
 */
struct sink {
	struct pr_buf *out;
	size_t indent;
	struct pr_error *err;
	enum pr_status st;
};

static int
sink(const char *buf, size_t size, void *data)
{
	static const char spaces[] = "        ";
	struct sink *k = data;
	const char *nl;

	if (k->st != PR_OK)
		return -1;
	if (size == 1 && *buf != '\n') { /* most of jansson's pieces */
		k->st = pr_buf_addc(k->out, *buf, k->err);
		return k->st == PR_OK ? 0 : -1;
	}
	while (size > 0) {
		nl = memchr(buf, '\n', size);
		if (nl == NULL) {
			k->st = pr_buf_add(k->out, buf, size, k->err);
			break;
		}
		if ((k->st = pr_buf_add(k->out, buf, (size_t)(nl - buf) + 1,
			 k->err)) != PR_OK ||
		    (k->st = pr_buf_add(k->out, spaces, k->indent, k->err)) !=
			PR_OK)
			break;
		size -= (size_t)(nl - buf) + 1;
		buf = nl + 1;
	}
	return k->st == PR_OK ? 0 : -1;
}

/* Dumps v through k at the depth k->indent / 2. */
static enum pr_status
dump_at(struct sink *k, const json_t *v, size_t flags)
{
	if (json_dump_callback(v, sink, k, flags | JSON_ENCODE_ANY) != 0 &&
	    k->st == PR_OK)
		k->st = pr_error_set(k->err, PR_ENOMEM,
		    "out of memory writing the JSON report");
	return k->st;
}

static enum pr_status
dump_hole(struct sink *k, const struct pr_report_section *s, size_t flags)
{
	const struct report_stream *w = report_json_stream(s->writer);
	size_t i, n = w->count(s->data);
	json_t *item;

	if (n == 0)
		return k->st = pr_buf_adds(k->out, "[]", k->err);
	if ((k->st = pr_buf_adds(k->out, "[\n    ", k->err)) != PR_OK)
		return k->st;
	for (i = 0; i < n; i++) {
		if ((item = w->item(s->data, i, k->err)) == NULL)
			return k->st =
				   k->err != NULL ? k->err->status : PR_ENOMEM;
		k->indent = 4;
		dump_at(k, item, flags);
		json_decref(item);
		if (k->st != PR_OK ||
		    (k->st = pr_buf_adds(k->out,
			 i + 1 < n ? ",\n    " : "\n  ]", k->err)) != PR_OK)
			return k->st;
	}
	return PR_OK;
}

/* root (an object, indented by 2) with its holes filled, to out. */
static enum pr_status
dump_with_holes(struct pr_buf *out, const json_t *root, const struct holes *h,
    size_t flags, struct pr_error *err)
{
	struct sink k = { out, 0, err, PR_OK };
	const char *key;
	json_t *v, *ks;
	void *it;
	size_t i;

	if ((it = json_object_iter((json_t *)root)) == NULL)
		return pr_buf_adds(out, "{}", err);
	if ((k.st = pr_buf_adds(out, "{\n  ", err)) != PR_OK)
		return k.st;
	while (it != NULL) {
		key = json_object_iter_key(it);
		v = json_object_iter_value(it);
		if ((ks = json_stringn(key, json_object_iter_key_len(it))) ==
		    NULL)
			return pr_error_set(err, PR_ENOMEM,
			    "out of memory writing the JSON report");
		k.indent = 0;
		dump_at(&k, ks, flags);
		json_decref(ks);
		if (k.st != PR_OK ||
		    (k.st = pr_buf_adds(out, ": ", err)) != PR_OK)
			return k.st;
		for (i = 0; i < h->n && h->ph[i] != v; i++)
			;
		k.indent = 2;
		if ((i < h->n ? dump_hole(&k, h->sec[i], flags)
			      : dump_at(&k, v, flags)) != PR_OK)
			return k.st;
		it = json_object_iter_next((json_t *)root, it);
		if ((k.st = pr_buf_adds(out, it != NULL ? ",\n  " : "\n}",
			 err)) != PR_OK)
			return k.st;
	}
	return PR_OK;
}

enum pr_status
pr_report_model_render(struct pr_buf *out, const struct pr_report_model *m,
    enum pr_report_format f, struct pr_error *err)
{
	const size_t flags = JSON_INDENT(2) | JSON_PRESERVE_ORDER;
	struct holes h;
	json_t *root;
	enum pr_status st;
	size_t start;
	int csv_head = 0;

	switch (f) {
	case PR_REPORT_TEXT:
	case PR_REPORT_MARKDOWN:
	case PR_REPORT_CSV:
		return render_flat(out, m, f, &csv_head, err);
	case PR_REPORT_JSON:
		break;
	default:
		return pr_error_set(err, PR_EINVAL, "unknown report format %d",
		    (int)f);
	}
	h.n = 0;
	if ((root = model_json(m, &h, err)) == NULL) {
		holes_release(&h);
		return err != NULL ? err->status : PR_ENOMEM;
	}
	if (h.n == 0)
		return report_json_dump(out, root, flags, err);
	start = out->len;
	st = dump_with_holes(out, root, &h, flags, err);
	json_decref(root);
	holes_release(&h);
	if (st == PR_OK)
		st = pr_jsonout_escape_buf(out, start, err);
	if (st == PR_OK)
		st = pr_buf_addc(out, '\n', err);
	return st;
}

enum pr_status
report_json_dump(struct pr_buf *out, json_t *root, size_t flags,
    struct pr_error *err)
{
	enum pr_status st;
	char *text;

	text = pr_jsonout_dumps(root, flags);
	json_decref(root);
	if (text == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory writing the JSON report");
	if ((st = pr_buf_adds(out, text, err)) == PR_OK)
		st = pr_buf_addc(out, '\n', err);
	free(text);
	return st;
}
