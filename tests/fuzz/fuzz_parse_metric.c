/*
 * tests/fuzz/fuzz_parse_metric.c - libFuzzer target for user metrics,
 * `--metric NAME=REGEX[:UNIT][:higher|lower]`: the first line of the
 * input is the part after "m=", the rest is the output it is applied to
 * (format "none").  The spec parser and the matching loop (empty
 * matches, match limits, numbers in captures) must never crash, hang or
 * leak; see fuzz_parse.h for the checks.
 */
#include "fuzz_parse.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pr_parser *p;
	struct pr_dataset d;
	struct pr_error err;
	const uint8_t *nl = memchr(data, '\n', size);
	size_t n = nl != NULL ? (size_t)(nl - data) : size;
	char spec[512];
	enum pr_status st;

	if (n > sizeof(spec) - 3 || memchr(data, '\0', n) != NULL)
		return 0;
	memcpy(spec, "m=", 2);
	memcpy(spec + 2, data, n);
	spec[n + 2] = '\0';
	if (pr_parser_new(&p, NULL) != PR_OK ||
	    pr_parser_set_format(p, "none", NULL) != PR_OK)
		abort();
	pr_error_clear(&err);
	if (pr_parser_add_metric(p, spec, &err) != PR_OK) {
		if (err.msg[0] == '\0')
			abort();
		pr_parser_free(p);
		return 0;
	}
	pr_dataset_init(&d);
	pr_error_clear(&err);
	st = pr_parse_buffer(p, nl != NULL ? (const char *)nl + 1 : "",
	    nl != NULL ? size - n - 1 : 0, "fuzz", 0, &d, NULL, &err);
	fuzz_check(&d, st, &err);
	pr_dataset_release(&d);
	pr_parser_free(p);
	return 0;
}
