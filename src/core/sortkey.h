/*
 * core/sortkey.h - the order-preserving keys of the radix sort
 * (core/sample.c), and the sort given the range of its keys, so that a
 * reader that has the values in cache as it writes them (parse/numbers.c)
 * spares the sort's first pass over memory.
 */
#ifndef PERFREG_CORE_SORTKEY_H
#define PERFREG_CORE_SORTKEY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The order-preserving key of a finite double: flip the sign bit of a
 * positive number, every bit of a negative one (-0 sorts below +0). */
static inline uint64_t
pr_sort_key(double x)
{
	uint64_t b;

	memcpy(&b, &x, sizeof(b));
	return b ^ ((0 - (b >> 63)) | (uint64_t)1 << 63);
}

/*
 * pr_sort_doubles(v, n) for finite values whose smallest and largest
 * keys are lo and hi (exactly those, as pr_sort_key gives them): the
 * same sorted array, without the first pass's scan for them.
 */
void pr_sort_doubles_keyed(double *v, size_t n, uint64_t lo, uint64_t hi);

#endif /* PERFREG_CORE_SORTKEY_H */
