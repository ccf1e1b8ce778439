/*
 * tests/fuzz/fuzz_numbers.c - libFuzzer target for the numbers reader
 * (pr_read_numbers: ministat's input of `perfreg stat`).
 *
 * The first byte chooses the column (1 to 4) and the delimiters (" \t",
 * ",", ".:" or "e,"; the last two put number characters among them); the
 * rest is written to a temporary file, read back through its /dev/fd
 * path.  On success the sample must hold finite values, at least one;
 * on failure it must be as it was (empty) and the error must name the
 * file and say something.  Memory errors, leaks and undefined behaviour
 * are caught by the sanitizers.
 *
 * Build and run (clang), against the library as tests/fuzz builds it:
 *   cmake -S . -B build/fuzz -DCMAKE_C_COMPILER=clang -DPERFREG_FUZZ=ON
 *   cmake --build build/fuzz --target perfreg_fuzz
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude \
 *     tests/fuzz/fuzz_numbers.c build/fuzz/tests/fuzz/libperfreg_fuzz.a \
 *     -ljansson -lpcre2-8 -lm -o fuzz_numbers
 *   ./fuzz_numbers -max_len=4096 -max_total_time=300 corpus
 * (corpus: the files of tests/data/numbers; their first byte is taken as
 * the selector.)
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/error.h"
#include "perfreg/read.h"
#include "perfreg/sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const delims[] = { " \t", ",", ".:", "e," };
	struct pr_sample s = PR_SAMPLE_INIT;
	struct pr_error err;
	enum pr_status st;
	char path[64];
	FILE *f;
	size_t i;

	if (size < 1)
		return 0;
	if ((f = tmpfile()) == NULL)
		abort();
	if (size > 1 && fwrite(data + 1, 1, size - 1, f) != size - 1)
		abort();
	if (fflush(f) != 0)
		abort();
	snprintf(path, sizeof(path), "/dev/fd/%d", fileno(f));
	pr_error_clear(&err);
	st = pr_read_numbers(path, 1 + (data[0] & 3), delims[data[0] >> 2 & 3],
	    &s, &err);
	if (st == PR_OK) {
		if (s.n == 0 || s.sorted)
			abort();
		for (i = 0; i < s.n; i++)
			if (!isfinite(s.v[i]))
				abort();
	} else if (s.n != 0 || err.msg[0] == '\0' ||
	    strcmp(err.file, path) != 0) {
		abort();
	}
	pr_sample_release(&s);
	fclose(f);
	return 0;
}
