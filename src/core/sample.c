/*
 * core/sample.c - growable arrays of finite doubles, and their sort.
 *
 * The sort works in place, which keeps the peak memory of `perfreg stat`
 * at the values themselves, and is O(n log n) or better in every case:
 * - small arrays (up to RADIX_MIN values, what repeated benchmark runs
 *   give) take an introsort: quicksort with median-of-three pivots,
 *   insertion sort below 24 elements, heapsort when the recursion gets
 *   deeper than 2 log2 n; O(log n) stack;
 * - large arrays take an in-place most-significant-digit radix sort, the
 *   "American flag sort" (P. M. McIlroy, K. Bostic and M. D. McIlroy,
 *   "Engineering radix sort", Computing Systems 6(1), 1993), on the
 *   doubles' bit patterns mapped to unsigned keys that sort in the same
 *   order (sign bit flipped for positives, all bits for negatives).  Each
 *   pass first finds the highest bit on which the keys of its range
 *   differ and takes the 8 bits from there down, so leading bits that all
 *   values share (sign, exponent, the first digits of a mantissa) cost no
 *   pass, and a range of equal keys ends at once.  At most 8 passes over
 *   any value, so O(n) moves in the worst case; ranges of up to
 *   INSERTION_MAX values are finished by insertion sort.  Recursion depth
 *   is at most 8, with 4 KiB of counters a level.
 * Values are finite, so `<` is a total order for the introsort and the
 * insertion sort; the radix sort puts -0 before +0, which `<` calls equal.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/sample.h"
#include "core/banned.h"

void
pr_sample_init(struct pr_sample *s)
{
	s->v = NULL;
	s->n = 0;
	s->cap = 0;
	s->sorted = 0;
}

void
pr_sample_release(struct pr_sample *s)
{
	free(s->v);
	pr_sample_init(s);
}

enum pr_status
pr_sample_reserve(struct pr_sample *s, size_t n, struct pr_error *err)
{
	size_t ncap;
	double *p;

	if (n <= s->cap - s->n)
		return PR_OK;
	if (n > SIZE_MAX / sizeof(double) - s->n)
		return pr_error_set(err, PR_ENOMEM, "too many values");
	ncap = s->cap < 16 ? 16 : s->cap;
	while (ncap - s->n < n)
		ncap = ncap > SIZE_MAX / sizeof(double) / 2 ? s->n + n
							     : ncap * 2;
	p = realloc(s->v, ncap * sizeof(double));
	if (p == NULL)
		return pr_error_set(err, PR_ENOMEM,
		    "out of memory holding %zu values", ncap);
	s->v = p;
	s->cap = ncap;
	return PR_OK;
}

enum pr_status
pr_sample_push(struct pr_sample *s, double x, struct pr_error *err)
{
	enum pr_status st;

	if (!isfinite(x))
		return pr_error_set(err, PR_EINVAL, "value is not finite");
	if (s->n == s->cap && (st = pr_sample_reserve(s, 1, err)) != PR_OK)
		return st;
	s->v[s->n++] = x;
	s->sorted = 0;
	return PR_OK;
}

void
pr_sample_shrink(struct pr_sample *s)
{
	double *p;

	if (s->n == 0 || s->n == s->cap)
		return;
	p = realloc(s->v, s->n * sizeof(double));
	if (p != NULL) {
		s->v = p;
		s->cap = s->n;
	}
}

enum pr_status
pr_sample_copy(struct pr_sample *dst, const struct pr_sample *src,
    struct pr_error *err)
{
	enum pr_status st;

	pr_sample_init(dst);
	if (src->n == 0)
		return PR_OK;
	if ((st = pr_sample_reserve(dst, src->n, err)) != PR_OK)
		return st;
	memcpy(dst->v, src->v, src->n * sizeof(double));
	dst->n = src->n;
	dst->sorted = src->sorted;
	return PR_OK;
}

static void
insertion(double *v, size_t n)
{
	size_t i, j;
	double x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && x < v[j - 1]; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void
siftdown(double *v, size_t root, size_t n)
{
	size_t child;
	double x = v[root];

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && v[child] < v[child + 1])
			child++;
		if (!(x < v[child]))
			break;
		v[root] = v[child];
		root = child;
	}
	v[root] = x;
}

static void
heapsort_d(double *v, size_t n)
{
	size_t i;
	double t;

	for (i = n / 2; i-- > 0;)
		siftdown(v, i, n);
	for (i = n; i-- > 1;) {
		t = v[0];
		v[0] = v[i];
		v[i] = t;
		siftdown(v, 0, i);
	}
}

static void
swap(double *a, double *b)
{
	double t = *a;
	*a = *b;
	*b = t;
}

static void
introsort(double *v, size_t n, unsigned depth)
{
	size_t i, j, m;
	double pivot;

	while (n > 24) {
		if (depth-- == 0) {
			heapsort_d(v, n);
			return;
		}
		m = n / 2;
		if (v[m] < v[0])
			swap(&v[m], &v[0]);
		if (v[n - 1] < v[0])
			swap(&v[n - 1], &v[0]);
		if (v[n - 1] < v[m])
			swap(&v[n - 1], &v[m]);
		pivot = v[m];
		/* Hoare partition; equal keys split evenly, so runs of
		 * identical values (timer quantisation) stay O(n log n). */
		i = 0;
		j = n - 1;
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (pivot < v[j])
				j--;
			if (i >= j)
				break;
			swap(&v[i], &v[j]);
			i++;
			j--;
		}
		/* Recurse into the smaller part, loop on the larger. */
		if (j + 1 < n - j - 1) {
			introsort(v, j + 1, depth);
			v += j + 1;
			n -= j + 1;
		} else {
			introsort(v + j + 1, n - j - 1, depth);
			n = j + 1;
		}
	}
	insertion(v, n);
}

/* Below this many values the introsort is faster than a radix pass. */
#define RADIX_MIN 1024
/* Radix ranges this small are finished by insertion sort. */
#define INSERTION_MAX 48

/* The order-preserving key of a finite double. */
static uint64_t
key(double x)
{
	uint64_t b;

	memcpy(&b, &x, sizeof(b));
	return b >> 63 ? ~b : b | (uint64_t)1 << 63;
}

static void
radix(double *v, size_t n)
{
	size_t count[256], head[256], end[256], i, h;
	uint64_t first, diff = 0;
	unsigned shift, b, d;
	double x, y;

	if (n <= INSERTION_MAX) {
		insertion(v, n);
		return;
	}
	first = key(v[0]);
	for (i = 1; i < n; i++)
		diff |= key(v[i]) ^ first;
	if (diff == 0)
		return;
	/* The digit: 8 bits whose top one is the highest that differs. */
	shift = 63 - (unsigned)__builtin_clzll(diff);
	shift = shift >= 7 ? shift - 7 : 0;
	memset(count, 0, sizeof(count));
	for (i = 0; i < n; i++)
		count[(key(v[i]) >> shift) & 0xff]++;
	for (h = 0, b = 0; b < 256; b++) {
		head[b] = h;
		h += count[b];
		end[b] = h;
	}
	/* Cycle each misplaced value to the head of its bucket. */
	for (b = 0; b < 256; b++) {
		while (head[b] < end[b]) {
			x = v[head[b]];
			while ((d = (unsigned)(key(x) >> shift) & 0xff) != b) {
				y = v[head[d]];
				v[head[d]++] = x;
				x = y;
			}
			v[head[b]++] = x;
		}
	}
	/* Each bucket now holds keys equal above and at the digit; the
	 * lowest digit leaves nothing more to sort. */
	if (shift == 0)
		return;
	for (h = 0, b = 0; b < 256; h += count[b], b++)
		if (count[b] > 1)
			radix(v + h, count[b]);
}

void
pr_sort_doubles(double *v, size_t n)
{
	unsigned depth = 0;
	size_t k;

	if (n >= RADIX_MIN) {
		radix(v, n);
		return;
	}
	for (k = n; k > 1; k >>= 1)
		depth += 2;
	introsort(v, n, depth);
}

void
pr_sample_sort(struct pr_sample *s)
{
	if (!s->sorted)
		pr_sort_doubles(s->v, s->n);
	s->sorted = 1;
}
