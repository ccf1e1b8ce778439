/*
 * tests/fuzz/fuzz_read.c - libFuzzer target for the input readers of
 * `perfreg compare` (every PR_INPUT format of perfreg/parse_formats.def,
 * and format detection).
 *
 * The first byte of the fuzz input chooses the format (detected, or one
 * of the list forced) and whether a CSV column is selected; the rest is
 * the input.  On success every metric must have a name, a unit string
 * and finite values; on failure the error must name the input and say
 * something.  Memory errors, leaks and undefined behaviour are caught by
 * the sanitizers.  The numbers format has a target of its own too
 * (fuzz_numbers), which reaches its options.
 *
 * Built with -DPERFREG_FUZZ=ON (tests/fuzz/CMakeLists.txt); run with
 * `scripts/fuzz.sh 30 fuzz_read`, seeded with tests/data/<format>.
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
	static const enum pr_format formats[] = {
		PR_FORMAT_AUTO,
#define PR_INPUT(name, NAME) PR_FORMAT_##NAME,
#include "perfreg/parse_formats.def"
#undef PR_INPUT
	};
	struct pr_read_opts o;
	struct pr_dataset d;
	struct pr_error err;
	enum pr_status st;
	size_t i, k;

	if (size < 1)
		return 0;
	pr_read_opts_init(&o);
	o.format =
	    formats[(data[0] & 0x7f) % (sizeof(formats) / sizeof(formats[0]))];
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
