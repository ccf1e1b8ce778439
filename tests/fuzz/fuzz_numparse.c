/*
 * tests/fuzz/fuzz_numparse.c - libFuzzer target: pr_parse_double against
 * strtod, differentially.
 *
 * The input is the text.  Where strtod reads a decimal number at its
 * start (no leading white space, not hexadecimal, not an infinity or a
 * NaN), pr_parse_double must give the same bits and stop at the same
 * place, or PR_ERANGE exactly where strtod overflows or underflows to 0; elsewhere it must
 * fail with a message and leave *stop at the start.  Any difference
 * aborts.  The text is parsed from an exact-size heap copy, so ASan sees
 * any read past its end.
 *
 * Build and run (clang; or -DPERFREG_FUZZ=ON, see tests/fuzz):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *     -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
 *     tests/fuzz/fuzz_numparse.c src/core/numparse.c src/core/error.c \
 *     -lm -o fuzz_numparse
 *   ./fuzz_numparse -max_len=64 -max_total_time=300
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/error.h"
#include "perfreg/numparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
ishex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/* Whether the text starts with a number pr_parse_double must accept:
 * decimal digits (or a point and a digit) after an optional sign, and
 * not a hexadecimal number. */
static int
must_accept(const char *s)
{
	const char *p = s;

	if (*p == '+' || *p == '-')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    (ishex(p[2]) || (p[2] == '.' && ishex(p[3]))))
		return 0;
	return (*p >= '0' && *p <= '9') ||
	    (*p == '.' && p[1] >= '0' && p[1] <= '9');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *copy, *send;
	const char *stop;
	struct pr_error err;
	enum pr_status st;
	double want, got = 1234.5;
	uint64_t a, b;
	int overflow;

	if ((text = malloc(size + 1)) == NULL ||
	    (copy = malloc(size + 1)) == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	memcpy(copy, data, size);
	pr_error_clear(&err);
	st = pr_parse_double(copy, copy + size, &stop, &got, &err);
	/* strtod stops at a NUL, pr_parse_double at the end: compare only
	 * texts without one. */
	if (memchr(data, '\0', size) != NULL)
		goto out;
	errno = 0;
	want = strtod(text, &send);
	/* Overflow, and nonzero text that rounds to 0: PR_ERANGE. */
	overflow = errno == ERANGE && (isinf(want) || want == 0);
	switch (st) {
	case PR_OK:
		memcpy(&a, &want, sizeof(a));
		memcpy(&b, &got, sizeof(b));
		if (overflow || a != b || stop - copy != send - text)
			abort();
		break;
	case PR_ERANGE:
		if (!overflow || !must_accept(text) || stop != copy ||
		    got != 1234.5 || err.msg[0] == '\0')
			abort();
		break;
	default:
		if (must_accept(text) || stop != copy || got != 1234.5 ||
		    err.msg[0] == '\0')
			abort();
		break;
	}
out:
	free(text);
	free(copy);
	return 0;
}
