/*
 * store/str.h - byte-string helpers shared by the store, its drivers and
 * export/import: UTF-8 validation and pr_str construction.
 */
#ifndef PERFREG_STORE_STR_H
#define PERFREG_STORE_STR_H

#include <stddef.h>

#include "perfreg/store.h"

/* 1 when p[0..n) is valid UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF) and holds no NUL byte, else 0. */
int pr_store_utf8_text(const char *p, size_t n);

/* 1 when a and b hold the same bytes. */
int pr_store_str_eq(struct pr_str a, struct pr_str b);

#endif /* PERFREG_STORE_STR_H */
