/*
 * core/envsnap.c - the environment snapshot as data (struct pr_env,
 * perfreg/env.h): its items, and its JSON form
 * ({"format":"perfreg-env","version":1,"items":[...]}), which
 * round-trips exactly.  Here rather than in run/, which captures
 * snapshots, so that the store (which keeps them) and report/envdiff.c
 * (which compares them) read and write them without depending on the
 * runner.  Values are kept valid UTF-8 (pr_env_add replaces any other
 * byte with '?'), so that every snapshot has a JSON form.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/envjson.h"
#include "perfreg/env.h"

#include "core/banned.h"

void
pr_env_init(struct pr_env *e)
{
	e->items = NULL;
	e->n = e->cap = 0;
}

void
pr_env_release(struct pr_env *e)
{
	size_t i;

	for (i = 0; i < e->n; i++) {
		free(e->items[i].key);
		free(e->items[i].category);
		free(e->items[i].value);
		free(e->items[i].reason);
	}
	free(e->items);
	pr_env_init(e);
}

static char *
sdup(const char *s)
{
	return s == NULL ? NULL : strdup(s);
}

/* Replaces every byte that does not belong to valid UTF-8 with '?', so
 * that any value can be written as JSON (a kernel log may hold anything). */
static void
fix_utf8(char *s)
{
	unsigned char *p = (unsigned char *)s;
	size_t n, i;

	while (*p != '\0') {
		if (*p < 0x80) {
			p++;
			continue;
		}
		n = *p >= 0xc2 && *p <= 0xdf   ? 2
		    : *p >= 0xe0 && *p <= 0xef ? 3
		    : *p >= 0xf0 && *p <= 0xf4 ? 4
					       : 0;
		for (i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				break;
		/* Overlong, surrogate and too-large forms. */
		if (n == 3 && i == 3 &&
		    ((*p == 0xe0 && p[1] < 0xa0) ||
			(*p == 0xed && p[1] >= 0xa0)))
			n = 0;
		if (n == 4 && i == 4 &&
		    ((*p == 0xf0 && p[1] < 0x90) ||
			(*p == 0xf4 && p[1] >= 0x90)))
			n = 0;
		if (n == 0 || i < n) {
			*p++ = '?';
			continue;
		}
		p += n;
	}
}

enum pr_status
pr_env_add(struct pr_env *e, const char *key, const char *category,
    const char *value, const char *reason, struct pr_error *err)
{
	struct pr_env_item *it;

	if (e->n == e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 64;
		struct pr_env_item *p = realloc(e->items, cap * sizeof(*p));

		if (p == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		e->items = p;
		e->cap = cap;
	}
	it = &e->items[e->n];
	it->key = sdup(key);
	it->category = sdup(category);
	it->value = sdup(value);
	if (it->value != NULL)
		fix_utf8(it->value);
	it->reason = value == NULL ? sdup(reason ? reason : "unknown") : NULL;
	if (it->key == NULL || it->category == NULL ||
	    (value != NULL && it->value == NULL) ||
	    (value == NULL && it->reason == NULL)) {
		free(it->key);
		free(it->category);
		free(it->value);
		free(it->reason);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	e->n++;
	return PR_OK;
}

const struct pr_env_item *
pr_env_get(const struct pr_env *e, const char *key)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		if (strcmp(e->items[i].key, key) == 0)
			return &e->items[i];
	return NULL;
}

enum pr_status
pr_env_to_json(const struct pr_env *e, struct pr_buf *out, struct pr_error *err)
{
	json_t *root, *items, *it;
	size_t i;

	root = json_pack("{s:s, s:i}", "format", "perfreg-env", "version", 1);
	items = json_array();
	if (root == NULL || items == NULL ||
	    json_object_set_new(root, "items", items) != 0) {
		json_decref(root);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	for (i = 0; i < e->n; i++) {
		const struct pr_env_item *x = &e->items[i];

		it = json_pack("{s:s, s:s, s:s}", "key", x->key, "category",
		    x->category, x->value ? "value" : "unavailable",
		    x->value ? x->value : x->reason);
		if (it == NULL || json_array_append_new(items, it) != 0) {
			json_decref(root);
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		}
	}
	return env_json_emit(root, out, err);
}

enum pr_status
pr_env_from_json(struct pr_env *e, const char *text, size_t len,
    const char *name, struct pr_error *err)
{
	json_error_t je;
	json_t *root, *items, *it;
	const char *fmt = NULL, *key, *cat, *val, *una;
	enum pr_status st = PR_OK;
	size_t i;
	int ver = 0;

	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (root == NULL)
		return pr_error_at(err, PR_EPARSE, name, je.line, je.column,
		    "not valid JSON: %s", je.text);
	if (json_unpack(root, "{s:s, s:i, s:o}", "format", &fmt, "version",
		&ver, "items", &items) != 0 ||
	    strcmp(fmt, "perfreg-env") != 0 || !json_is_array(items)) {
		json_decref(root);
		return pr_error_at(err, PR_EPARSE, name, 0, 0,
		    "not a perfreg environment snapshot (perfreg env --json)");
	}
	if (ver != 1) {
		json_decref(root);
		return pr_error_at(err, PR_EPARSE, name, 0, 0,
		    "snapshot version %d is not supported (1 is)", ver);
	}
	json_array_foreach(items, i, it)
	{
		val = una = NULL;
		if (json_unpack(it, "{s:s, s:s, s?s, s?s !}", "key", &key,
			"category", &cat, "value", &val, "unavailable",
			&una) != 0 ||
		    (val == NULL) == (una == NULL)) {
			st = pr_error_at(err, PR_EPARSE, name, 0, 0,
			    "item %zu: expected {\"key\", \"category\", "
			    "\"value\" or \"unavailable\"}",
			    i + 1);
			break;
		}
		if (pr_env_get(e, key) != NULL) {
			st = pr_error_at(err, PR_EPARSE, name, 0, 0,
			    "item %zu: key '%s' appears twice", i + 1, key);
			break;
		}
		if ((st = pr_env_add(e, key, cat, val, una, err)) != PR_OK)
			break;
	}
	json_decref(root);
	if (st != PR_OK)
		pr_env_release(e);
	return st;
}
