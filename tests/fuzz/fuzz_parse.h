/*
 * tests/fuzz/fuzz_parse.h - the body shared by the libFuzzer targets of
 * `perfreg parse`'s formats (fuzz_parse_<format>.c define FUZZ_FORMAT
 * and include this file).
 *
 * The input is handed to pr_parse_buffer with the format forced (or
 * "auto", which runs every detector first).  On success every metric
 * must have a name and a unit string, values that are finite, and the
 * dataset must not be empty; on failure the error must name the input
 * and say something.  Anything else, and every memory error, leak or
 * undefined behaviour the sanitizers see, is a crash.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/dataset.h"
#include "perfreg/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void
fuzz_check(const struct pr_dataset *d, enum pr_status st,
    const struct pr_error *err)
{
	size_t i, k;

	if (st != PR_OK) {
		if (err->msg[0] == '\0')
			abort();
		return;
	}
	if (d->n == 0)
		abort();
	for (i = 0; i < d->n; i++) {
		if (d->metrics[i].name == NULL || d->metrics[i].unit == NULL ||
		    d->metrics[i].name[0] == '\0')
			abort();
		for (k = 0; k < d->metrics[i].values.n; k++)
			if (!isfinite(d->metrics[i].values.v[k]))
				abort();
	}
}

#ifdef FUZZ_FORMAT
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pr_parser *p;
	struct pr_dataset d;
	struct pr_error err;
	const char *used = NULL;
	enum pr_status st;

	if (p == NULL &&
	    (pr_parser_new(&p, NULL) != PR_OK ||
		pr_parser_set_format(p, FUZZ_FORMAT, NULL) != PR_OK))
		abort();
	pr_dataset_init(&d);
	pr_error_clear(&err);
	st = pr_parse_buffer(p, (const char *)data, size, "fuzz", 0, &d, &used,
	    &err);
	fuzz_check(&d, st, &err);
	if (st != PR_OK && strcmp(err.file, "fuzz") != 0)
		abort();
	if (st == PR_OK && used == NULL)
		abort();
	pr_dataset_release(&d);
	return 0;
}
#endif
