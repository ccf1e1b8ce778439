/*
 * parse/json.c - loading the JSON inputs (hyperfine, perfreg) with
 * jansson, and pointing at the line of a value that is well-formed JSON
 * but not what the format wants.
 *
 * jansson reports the line and column of syntax errors, but its tree
 * keeps no positions.  For errors found later ("values" holds a string),
 * pr_json_fail walks the text a second time, lexically, along the path of
 * keys and indices that led to the bad value.  The text is known to be
 * valid JSON by then (and to have no duplicate keys, which jansson was
 * told to reject), so the walk only needs to skip strings, scalars and
 * nested containers; it gives up (line 0) on anything unexpected, such as
 * a key spelled with escapes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "perfreg/read.h"
#include "parse/readers.h"
#include "core/banned.h"

enum pr_status
pr_json_load(const struct pr_input *in, json_t **out, struct pr_error *err)
{
	json_error_t je;
	const char *p = in->data, *e = in->data + in->len, *start = p;

	if (in->len > PR_READ_JSON_MAX)
		return pr_error_at(err, PR_ELIMIT, in->name, 0, 0,
		    "JSON input larger than %zu bytes", PR_READ_JSON_MAX);
	/* A UTF-8 byte-order mark, which detection skips too (editors on
	 * Windows write one): jansson refuses it. */
	if (in->len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		start = p += 3;
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	if (p == e)
		return pr_error_at(err, PR_EPARSE, in->name, 0, 0,
		    in->len == 0 ? "empty input"
				 : "input has only blank "
				   "lines");
	/*
	 * Integers as reals: a count too big for json_int_t must not fail,
	 * and perfreg keeps doubles anyway.  Duplicate keys are rejected
	 * because which of two "values" was meant cannot be known.
	 */
	*out = json_loadb(start, (size_t)(e - start),
	    JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
	if (*out == NULL)
		return pr_error_at(err, PR_EPARSE, in->name,
		    je.line > 0 ? je.line : 0, je.column > 0 ? je.column : 0,
		    "invalid JSON: %s", je.text);
	return PR_OK;
}

static const char *
skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

/* p at '"': past the closing quote. */
static const char *
skip_string(const char *p, const char *e)
{
	for (p++; p < e && *p != '"'; p++)
		if (*p == '\\')
			p++;
	return p < e ? p + 1 : e;
}

/* p at the start of a value: past its end. */
static const char *
skip_value(const char *p, const char *e)
{
	long depth = 0;

	if (p < e && *p == '"')
		return skip_string(p, e);
	if (p < e && (*p == '{' || *p == '[')) {
		while (p < e) {
			if (*p == '"') {
				p = skip_string(p, e);
				continue;
			}
			if (*p == '{' || *p == '[')
				depth++;
			else if (*p == '}' || *p == ']')
				if (--depth == 0)
					return p + 1;
			p++;
		}
		return e;
	}
	while (p < e && *p != ',' && *p != '}' && *p != ']' && *p != ' ' &&
	    *p != '\t' && *p != '\r' && *p != '\n')
		p++;
	return p;
}

/* The start of the value at path in text [p, e), or NULL. */
static const char *
locate(const char *p, const char *e, const struct pr_jstep *path, size_t n)
{
	size_t k, i, klen;
	const char *key, *kend;

	p = skip_ws(p, e);
	for (k = 0; k < n; k++) {
		if (path[k].key != NULL) {
			if (p >= e || *p != '{')
				return NULL;
			klen = strlen(path[k].key);
			p = skip_ws(p + 1, e);
			for (;;) {
				if (p >= e || *p != '"')
					return NULL;
				key = p + 1;
				kend = skip_string(p, e);
				p = skip_ws(kend, e);
				if (p >= e || *p != ':')
					return NULL;
				p = skip_ws(p + 1, e);
				if ((size_t)(kend - 1 - key) == klen &&
				    memcmp(key, path[k].key, klen) == 0)
					break;
				p = skip_ws(skip_value(p, e), e);
				if (p >= e || *p != ',')
					return NULL;
				p = skip_ws(p + 1, e);
			}
		} else {
			if (p >= e || *p != '[')
				return NULL;
			p = skip_ws(p + 1, e);
			for (i = 0; i < path[k].index; i++) {
				p = skip_ws(skip_value(p, e), e);
				if (p >= e || *p != ',')
					return NULL;
				p = skip_ws(p + 1, e);
			}
		}
	}
	return p < e ? p : NULL;
}

enum pr_status
pr_json_fail(const struct pr_input *in, const struct pr_jstep *path, size_t n,
    enum pr_status status, struct pr_error *err, const char *fmt, ...)
{
	char msg[PR_ERROR_MSG_MAX];
	const char *at;
	long line = 0, col = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if ((at = locate(in->data, in->data + in->len, path, n)) != NULL)
		line = pr_read_line_of(in, at, &col);
	return pr_error_at(err, status, in->name, line, col, "%s", msg);
}

static const char *
type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "something else";
}

enum pr_status
pr_json_values(const struct pr_input *in, json_t *arr,
    const struct pr_jstep *path, size_t n, struct pr_sample *to,
    struct pr_error *err)
{
	struct pr_jstep sub[8];
	char ex[64];
	size_t i, len;
	json_t *v;
	enum pr_status st;

	if (n + 1 > sizeof(sub) / sizeof(sub[0]))
		return pr_error_set(err, PR_EINVAL, "JSON path too deep");
	memcpy(sub, path, n * sizeof(*path));
	sub[n].key = NULL;
	if (!json_is_array(arr))
		return pr_json_fail(in, path, n, PR_EPARSE, err,
		    "expected an array of numbers, got %s", type_name(arr));
	if ((len = json_array_size(arr)) == 0)
		return pr_json_fail(in, path, n, PR_EPARSE, err,
		    "no values (empty array)");
	if ((st = pr_sample_reserve(to, len, err)) != PR_OK)
		return st;
	for (i = 0; i < len; i++) {
		v = json_array_get(arr, i);
		sub[n].index = i;
		if (!json_is_number(v)) {
			if (json_is_string(v))
				return pr_json_fail(in, sub, n + 1, PR_EPARSE,
				    err,
				    "expected a number, got the string "
				    "'%s'",
				    pr_read_excerpt(ex, sizeof(ex),
					json_string_value(v),
					json_string_length(v)));
			return pr_json_fail(in, sub, n + 1, PR_EPARSE, err,
			    "expected a number, got %s", type_name(v));
		}
		if ((st = pr_sample_push(to, json_number_value(v), err)) !=
		    PR_OK)
			return pr_json_fail(in, sub, n + 1, st, err,
			    "value is not finite");
	}
	return PR_OK;
}

enum pr_status
pr_json_each(const struct pr_input *in, const char *key,
    enum pr_status (*fn)(const struct pr_input *, json_t *, size_t,
	struct pr_dataset *, struct pr_error *),
    struct pr_dataset *out, struct pr_error *err)
{
	const struct pr_jstep root[1] = { { key, 0 } };
	json_t *doc, *arr;
	enum pr_status st;
	size_t i, n;

	if ((st = pr_json_load(in, &doc, err)) != PR_OK)
		return st;
	if (!json_is_object(doc)) {
		st = pr_json_fail(in, NULL, 0, PR_EPARSE, err,
		    "expected a JSON object with \"%s\"", key);
		goto out;
	}
	if ((arr = json_object_get(doc, key)) == NULL) {
		st = pr_json_fail(in, NULL, 0, PR_EPARSE, err,
		    "no \"%s\" in the JSON object", key);
		goto out;
	}
	if (!json_is_array(arr)) {
		st = pr_json_fail(in, root, 1, PR_EPARSE, err,
		    "\"%s\" must be an array", key);
		goto out;
	}
	if ((n = json_array_size(arr)) == 0) {
		st = pr_json_fail(in, root, 1, PR_EPARSE, err,
		    "no %s (\"%s\" is empty)", key, key);
		goto out;
	}
	for (i = 0; i < n; i++)
		if ((st = fn(in, json_array_get(arr, i), i, out, err)) != PR_OK)
			goto out;
	st = PR_OK;
out:
	json_decref(doc);
	return st;
}
