/*
 * tests/fuzz/fuzz_read.c - libFuzzer target for the input readers of
 * `perfreg compare` (csv, hyperfine, gobench, perfreg JSON, and format
 * detection).
 *
 * The first byte of the fuzz input chooses the format (forced, or
 * detected) and whether a CSV column is selected; the rest is the input.
 * On success every metric must have a name, a unit string and finite
 * values; on failure the error must name the input and say something.
 * Memory errors, leaks and undefined behaviour are caught by the
 * sanitizers.  The numbers format is left to its own target, since the
 * in-memory path goes through a temporary file.
 *
 * Build and run (from the top of the tree; not part of the default
 * build):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *     -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE tests/fuzz/fuzz_read.c \
 *     src/parse/read.c src/parse/units.c src/parse/json.c \
 *     src/parse/csv.c src/parse/hyperfine.c src/parse/gobench.c \
 *     src/parse/perfregjson.c src/parse/numbers.c src/core/buf.c \
 *     src/core/dataset.c src/core/error.c src/core/numparse.c \
 *     src/core/sample.c -ljansson -lm -o fuzz_read
 *   mkdir -p corpus   # then copy the files of tests/data/{csv,
 *                     # hyperfine,gobench,perfreg} into it, each with a
 *                     # first byte 0 to 4 put before it
 *   ./fuzz_read -max_len=4096 -max_total_time=300 corpus
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/dataset.h"
#include "perfreg/read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum pr_format formats[] = { PR_FORMAT_AUTO, PR_FORMAT_CSV,
		PR_FORMAT_HYPERFINE, PR_FORMAT_GOBENCH, PR_FORMAT_PERFREG };
	struct pr_read_opts o;
	struct pr_dataset d;
	struct pr_error err;
	enum pr_status st;
	size_t i, k;

	if (size < 1)
		return 0;
	pr_read_opts_init(&o);
	o.format = formats[data[0] % 5];
	if (data[0] & 0x80)
		o.column = "a";
	pr_dataset_init(&d);
	pr_error_clear(&err);
	st = pr_read_dataset_mem("fuzz", (const char *)data + 1, size - 1, &o,
	    &d, &err);
	if (st == PR_OK) {
		for (i = 0; i < d.n; i++) {
			if (d.metrics[i].name == NULL ||
			    d.metrics[i].unit == NULL ||
			    d.metrics[i].values.n == 0)
				abort();
			for (k = 0; k < d.metrics[i].values.n; k++)
				if (!isfinite(d.metrics[i].values.v[k]))
					abort();
		}
	} else if (strcmp(err.file, "fuzz") != 0 || err.msg[0] == '\0') {
		abort();
	}
	pr_dataset_release(&d);
	return 0;
}
