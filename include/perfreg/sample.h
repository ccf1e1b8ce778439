/*
 * perfreg/sample.h - a growable array of measurements (doubles).
 *
 * A sample holds the values of one metric on one side of a comparison.  The
 * values are finite: readers reject NaN and infinities before they get here
 * (pr_sample_push refuses them too).  Growth doubles the capacity; on Linux
 * large arrays are grown by realloc with mremap, so capacity that was never
 * written costs no resident memory.
 *
 * Lifecycle: pr_sample_init (or PR_SAMPLE_INIT) -> push -> pr_sample_release.
 * The sample owns v.  Not thread-safe.
 */
#ifndef PERFREG_SAMPLE_H
#define PERFREG_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/error.h"

struct pr_sample {
	double *v;
	size_t n;
	size_t cap;
	int sorted; /* set by pr_sample_sort, cleared by pr_sample_push */
	/* When keyed: keys[0] and keys[1] are the smallest and largest sort
	 * key of v[0, n) (the number reader finds them as it reads, while
	 * the values are in cache, and pr_sample_sort then skips its scan
	 * for them).  Cleared by pr_sample_push; whoever writes v[] or n
	 * otherwise clears it. */
	int keyed;
	uint64_t keys[2];
};

#define PR_SAMPLE_INIT \
	{ \
		NULL, 0, 0, 0, 0, \
		{ \
			0, 0 \
		} \
	}

void pr_sample_init(struct pr_sample *s);
void pr_sample_release(struct pr_sample *s);

/* Appends x; PR_EINVAL if x is not finite, PR_ENOMEM when out of memory. */
enum pr_status pr_sample_push(struct pr_sample *s, double x,
    struct pr_error *err);

/* Ensures room for n more values without further allocation. */
enum pr_status pr_sample_reserve(struct pr_sample *s, size_t n,
    struct pr_error *err);

/* Gives back unused capacity (best effort, never fails). */
void pr_sample_shrink(struct pr_sample *s);

/* Sorts ascending in place (no extra memory beyond O(log n) stack). */
void pr_sample_sort(struct pr_sample *s);
/*
 * pr_sample_sort on a and b, on two threads when they hold at least
 * 2^18 values together and more than one processor is online (else one
 * after the other, as when a thread cannot be started).
 */
void pr_sample_sort_both(struct pr_sample *a, struct pr_sample *b);

/* Sorts an array of finite doubles ascending in place. */
void pr_sort_doubles(double *v, size_t n);

/* Copies src into dst (dst is initialised by this call). */
enum pr_status pr_sample_copy(struct pr_sample *dst,
    const struct pr_sample *src, struct pr_error *err);

#endif /* PERFREG_SAMPLE_H */
