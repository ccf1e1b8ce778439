/*
 * tests/fuzz/fuzz_import.c - libFuzzer target for pr_store_import, the
 * reader of `perfreg import` (doc/export.md), against a real SQLite
 * database in a temporary directory.
 *
 * Every input is imported into the same database.  A refused input must
 * come with an error that names the input and says something, and must
 * leave the database as it was (sessions and runs counted before and
 * after: import is all or nothing); an accepted one must export again.
 * Memory errors, leaks and undefined behaviour are caught by the
 * sanitizers.
 *
 * Built with the other targets (-DPERFREG_FUZZ=ON, tests/fuzz/CMakeLists.txt)
 * and run by scripts/fuzz.sh, from the seeds in tests/fuzz/seeds/import/
 * (the seeds: doc/export.md's example, `tests/store/gen_export.py 12 4`,
 * and an export of test_export's first database without its 1 MB runs.)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pr_store *st;

/* Sessions plus every run. */
static size_t
rows(void)
{
	struct pr_store_session_info *s = NULL;
	struct pr_str all = { NULL, 0 };
	size_t n = 0, i, k = 0;

	if (pr_store_sessions(st, all, &s, &n, NULL) != PR_OK)
		abort();
	for (i = 0; i < n; i++)
		k += 1 + s[i].nruns_ok + s[i].nruns_failed + s[i].nwarmup;
	pr_store_sessions_free(s, n);
	return k;
}

static enum pr_status
discard(void *arg, const char *p, size_t n, struct pr_error *err)
{
	(void)arg;
	(void)p;
	(void)n;
	(void)err;
	return PR_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pr_store_import_stats stats;
	struct pr_error err;
	enum pr_status s;
	char *text;
	size_t before;

	if (st == NULL) {
		char dir[] = "/tmp/fuzz_import.XXXXXX", path[64];

		if (mkdtemp(dir) == NULL)
			abort();
		snprintf(path, sizeof(path), "%s/db.sqlite", dir);
		if (pr_store_open(path, PR_STORE_CREATE, &st, NULL) != PR_OK)
			abort();
	}
	/* A copy of exactly size bytes, so that ASan sees any read past
	 * the end. */
	text = malloc(size > 0 ? size : 1);
	if (text == NULL)
		return 0;
	if (size > 0)
		memcpy(text, data, size);
	before = rows();
	pr_error_clear(&err);
	s = pr_store_import(st, text, size, "fuzz.jsonl", &stats, &err);
	if (s != PR_OK) {
		if (strcmp(err.file, "fuzz.jsonl") != 0 && s == PR_EPARSE)
			abort();
		if (err.msg[0] == '\0' || rows() != before)
			abort();
	} else if (pr_store_export(st, NULL, 0, discard, NULL, &err) != PR_OK)
		abort();
	free(text);
	return 0;
}
