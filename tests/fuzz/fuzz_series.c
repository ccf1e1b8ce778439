/*
 * tests/fuzz/fuzz_series.c - libFuzzer target for the series reader and
 * the change-point detector (`perfreg changepoints`).
 *
 * The first byte chooses the value field (the last, field 1 or 2, or the
 * header column "y") and the delimiters (the default, or ";"); the rest
 * is the input, read from memory.  On success every value is finite and
 * every label a string of at most PR_SERIES_LABEL_MAX bytes; the first
 * 2000 points then go through pr_cp_detect, whose changes, spikes and
 * possible change must lie inside the series and in order.  On failure
 * the series is empty and the error says something.  scripts/fuzz.sh
 * builds and runs it (seeds: tests/data/series).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/changepoint.h"
#include "perfreg/error.h"
#include "perfreg/series.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pr_series s;
	struct pr_series_opts o = { 0 };
	struct pr_cp_result r;
	struct pr_error err;
	size_t i, n;

	if (size < 1)
		return 0;
	switch (data[0] & 3) {
	case 1:
		o.index = 1 + ((data[0] >> 2) & 1);
		break;
	case 2:
		o.column = "y";
		break;
	default:
		break;
	}
	if (data[0] & 0x10)
		o.delims = ";";
	pr_series_init(&s);
	if (pr_series_read_mem("fuzz", (const char *)data + 1, size - 1, &o, &s,
		&err) != PR_OK) {
		if (s.n != 0 || s.y != NULL || err.msg[0] == '\0')
			abort();
		return 0;
	}
	for (i = 0; i < s.n; i++)
		if (!isfinite(s.y[i]) ||
		    strlen(s.label[i]) > PR_SERIES_LABEL_MAX)
			abort();
	n = s.n < 2000 ? s.n : 2000;
	if (pr_cp_detect(s.y, NULL, n, NULL, &r, &err) == PR_OK) {
		for (i = 0; i < r.nchanges; i++)
			if (r.changes[i].index == 0 ||
			    r.changes[i].index >= n ||
			    (i > 0 &&
				r.changes[i].index <= r.changes[i - 1].index))
				abort();
		for (i = 0; i < r.nspikes; i++)
			if (r.spikes[i].index >= n)
				abort();
		if (r.tail.possible && r.tail.index >= n)
			abort();
		pr_cp_result_release(&r);
	} else if (n >= PR_CP_MIN_POINTS)
		abort();
	pr_series_release(&s);
	return 0;
}
