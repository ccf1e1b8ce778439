/*
 * tests/fuzz/fuzz_jsonl.c - libFuzzer target for the JSON Lines reader
 * under `perfreg import` (store/jsonl.h), on its own, so that the
 * parser's coverage is not diluted by the importer's checks and the
 * store.
 *
 * Every line of the input is parsed with one reused parser (as import
 * does).  A refused line must come with a message and a place inside
 * the line; an accepted one must be a well-formed tree: root 1 an
 * object, every element's index inside the node array and after its
 * parent's, each array's and object's count equal to the length of its
 * list, members named and array elements not, every string and number
 * inside the line or the scratch buffer, decoded strings NUL-terminated
 * and flagged nul exactly when they hold a NUL byte, and no nesting
 * deeper than PR_JSONL_DEPTH_MAX.  Memory errors, leaks and undefined
 * behaviour are caught by the sanitizers.
 *
 * Built with the other targets (-DPERFREG_FUZZ=ON) and run by
 * scripts/fuzz.sh from the seeds in tests/fuzz/seeds/import/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/jsonl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 1 when [p, p + n) lies inside [lo, hi). */
static int
inside(const char *p, size_t n, const char *lo, const char *hi)
{
	return p >= lo && p <= hi && n <= (size_t)(hi - p);
}

static void
check(const struct pr_jsonl *j, size_t x, size_t parent, int depth,
    const char *line, const char *end)
{
	const struct pr_jsonl_node *v = &j->v[x], *p = &j->v[parent];
	const char *sc0 = j->sc, *sc1 = j->sc + j->scap;
	size_t c, n = 0;

	if (x == 0 || x >= j->nv || x <= parent)
		abort();
	if ((v->t == PR_JSONL_ARR || v->t == PR_JSONL_OBJ) &&
	    depth > PR_JSONL_DEPTH_MAX)
		abort();
	if (parent != 0 && p->t == PR_JSONL_OBJ && v->k == NULL)
		abort();
	if (parent != 0 && p->t == PR_JSONL_ARR && v->k != NULL)
		abort();
	if (v->k != NULL && !inside(v->k, v->kn, line, end) &&
	    !inside(v->k, v->kn, sc0, sc1))
		abort();
	switch (v->t) {
	case PR_JSONL_STR:
		if (!inside(v->s, v->n + 1, sc0, sc1) || v->s[v->n] != '\0' ||
		    (memchr(v->s, '\0', v->n) != NULL) != (v->nul != 0))
			abort();
		break;
	case PR_JSONL_NUM:
	case PR_JSONL_ARR:
	case PR_JSONL_OBJ:
		if (!inside(v->s, v->n, line, end) || v->n == 0)
			abort();
		break;
	default:
		break;
	}
	if (v->t != PR_JSONL_ARR && v->t != PR_JSONL_OBJ) {
		if (v->kid != 0 || v->count != 0)
			abort();
		return;
	}
	for (c = v->kid; c != 0; c = j->v[c].next) {
		check(j, c, x, depth + 1, line, end);
		if (++n > v->count)
			abort();
	}
	if (n != v->count)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pr_jsonl j;
	const char *p, *e, *nl;
	char *text;
	size_t root;

	/* A copy of exactly size bytes, so that ASan sees any read past
	 * the end. */
	text = malloc(size > 0 ? size : 1);
	if (text == NULL)
		return 0;
	if (size > 0)
		memcpy(text, data, size);
	memset(&j, 0, sizeof(j));
	for (p = text, e = text + size; p < e; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (nl == NULL)
			nl = e;
		root = pr_jsonl_parse(&j, p, nl);
		if (root == 0) {
			if (j.why == NULL || j.why[0] == '\0' ||
			    !inside(j.at, 0, p, nl))
				abort();
			continue;
		}
		if (root != 1 || j.v[1].t != PR_JSONL_OBJ || j.v[1].k != NULL)
			abort();
		check(&j, 1, 0, 1, p, nl);
	}
	pr_jsonl_release(&j);
	free(text);
	return 0;
}
