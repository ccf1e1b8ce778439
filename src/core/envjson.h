/*
 * core/envjson.h - the one way snapshots and their diffs are written as
 * JSON (core/envsnap.c, report/envdiff.c): indented by one, keys in
 * insertion order, a final newline.
 */
#ifndef PERFREG_CORE_ENVJSON_H
#define PERFREG_CORE_ENVJSON_H

#include <stdlib.h>

#include <jansson.h>

#include "perfreg/buf.h"
#include "perfreg/error.h"
#include "core/jsonout.h"

/* Appends root to out and drops the reference to root. */
static inline enum pr_status
env_json_emit(json_t *root, struct pr_buf *out, struct pr_error *err)
{
	enum pr_status st;
	char *s;

	s = pr_jsonout_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (s == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	if ((st = pr_buf_adds(out, s, err)) == PR_OK)
		st = pr_buf_addc(out, '\n', err);
	free(s);
	return st;
}

#endif /* PERFREG_CORE_ENVJSON_H */
