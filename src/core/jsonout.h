/*
 * core/jsonout.h - the one way perfreg writes a jansson tree as JSON
 * text: json_dumps, then DEL (0x7f) and the C1 controls (U+0080 to
 * U+009F, such as U+009B, the one-byte CSI of a terminal) written as
 * \u escapes, which jansson passes through (it escapes only bytes below
 * 0x20).  Every JSON dump site calls it, so that a name holding a
 * terminal escape never reaches a terminal or a page raw (issue 12).
 */
#ifndef PERFREG_CORE_JSONOUT_H
#define PERFREG_CORE_JSONOUT_H

#include <stddef.h>

#include <jansson.h>

#include "perfreg/buf.h"

/* Returns root dumped with the jansson flags and DEL and the C1
 * controls escaped, without a final newline; the caller frees it.
 * NULL when out of memory or when jansson cannot dump root. */
char *pr_jsonout_dumps(const json_t *root, size_t flags);

/* Escapes DEL and the C1 controls of the JSON text s (malloc'd, as
 * json_dumps returns it) and returns the new text, freeing s; returns s
 * itself when nothing needs escaping, and NULL (s freed) when out of
 * memory.  s is valid UTF-8 JSON, so these bytes can only be inside
 * its strings, and their \u escapes mean the same characters. */
char *pr_jsonout_escape(char *s);

/* The same for the JSON text b->data[start, b->len), in place: b grows
 * by what the escapes add.  PR_OK, or pr_buf_grow's error (b's limit,
 * PR_ENOMEM). */
enum pr_status pr_jsonout_escape_buf(struct pr_buf *b, size_t start,
    struct pr_error *err);

#endif /* PERFREG_CORE_JSONOUT_H */
