/*
 * tests/fuzz/fuzz_parse_derive.c - libFuzzer target for derived metrics,
 * `--derive NAME=EXPR[:UNIT][:higher|lower]`: the input is the part
 * after "d=", computed over a small dataset with metrics a (1, 2),
 * b (0, 3), {x/y} (5, 6), one (7) and an absent "c".  The expression
 * parser (nesting, numbers, braces) and the evaluation (division by
 * zero, overflow, counts that differ) must give a result or an error,
 * never a crash, a NaN or a leak.
 */
#include "fuzz_parse.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pr_parser *p;
	struct pr_dataset d;
	struct pr_error err;
	char spec[1024];
	enum pr_status st;
	struct pr_metric *m;
	size_t i;

	if (size > sizeof(spec) - 3 || memchr(data, '\0', size) != NULL)
		return 0;
	memcpy(spec, "d=", 2);
	memcpy(spec + 2, data, size);
	spec[size + 2] = '\0';
	if (pr_parser_new(&p, NULL) != PR_OK)
		abort();
	pr_error_clear(&err);
	if (pr_parser_add_derive(p, spec, &err) != PR_OK) {
		if (err.msg[0] == '\0')
			abort();
		pr_parser_free(p);
		return 0;
	}
	pr_dataset_init(&d);
	if (pr_dataset_add(&d, "a", "", PR_BETTER_UNKNOWN, 1, NULL) ||
	    pr_dataset_add(&d, "a", "", PR_BETTER_UNKNOWN, 2, NULL) ||
	    pr_dataset_add(&d, "b", "", PR_BETTER_UNKNOWN, 0, NULL) ||
	    pr_dataset_add(&d, "b", "", PR_BETTER_UNKNOWN, 3, NULL) ||
	    pr_dataset_add(&d, "x/y", "", PR_BETTER_UNKNOWN, 5, NULL) ||
	    pr_dataset_add(&d, "x/y", "", PR_BETTER_UNKNOWN, 6, NULL) ||
	    pr_dataset_add(&d, "one", "", PR_BETTER_UNKNOWN, 7, NULL) ||
	    pr_dataset_get(&d, "c", "", PR_BETTER_UNKNOWN, &m, NULL))
		abort();
	pr_error_clear(&err);
	st = pr_parser_derive(p, &d, &err);
	if (st == PR_OK) {
		if ((m = pr_dataset_find(&d, "d")) == NULL || m->values.n == 0)
			abort();
		for (i = 0; i < m->values.n; i++)
			if (!isfinite(m->values.v[i]))
				abort();
	} else if (err.msg[0] == '\0' || pr_dataset_find(&d, "d") != NULL) {
		abort();
	}
	pr_dataset_release(&d);
	pr_parser_free(p);
	return 0;
}
