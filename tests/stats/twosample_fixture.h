/*
 * tests/stats/twosample_fixture.h - reading the two-sample fixture files
 * (tests/stats/data/ttest.txt, mwu.txt, hl.txt).
 *
 * The files are lines of blank-separated words; '#' starts a comment line.
 * A block starts with "case NAME", then "a N V..." and "b N V..." give the
 * base and new samples, then result lines whose first word names what they
 * hold.  The reader hands out one line at a time, split into words; the
 * helpers convert words and fail the running cmocka test, naming the file
 * and line, when a word is not what the file format promises.
 */
#ifndef PERFREG_TESTS_TWOSAMPLE_FIXTURE_H
#define PERFREG_TESTS_TWOSAMPLE_FIXTURE_H

#include <stddef.h>
#include <stdio.h>

#define FX_MAXWORDS 256

struct fx_reader {
	const char *path;
	FILE *f;
	char *line; /* the current line, split in place */
	size_t cap;
	long lineno;
	char *w[FX_MAXWORDS];
	int nw;
};

/* The current case: name and both samples, sorted ascending. */
struct fx_case {
	char name[128];
	double *a, *b;
	size_t na, nb;
	long line;
};

/* Opens path (relative to the repository root, where CTest runs). */
void fx_open(struct fx_reader *r, const char *path);
void fx_close(struct fx_reader *r);
/* The next line that is not a comment or blank, split into r->w; 0 at
 * the end of the file. */
int fx_next(struct fx_reader *r);
/* Word i as a double (strtod, whole word; "NA" gives NaN). */
double fx_num(struct fx_reader *r, int i);
/* Word i as a nonnegative integer. */
unsigned long long fx_uint(struct fx_reader *r, int i);
/* Fails unless the line has exactly n words. */
void fx_words(struct fx_reader *r, int n);
/* Parses "a N V..." or "b N V..." into a sorted array in c. */
void fx_sample(struct fx_reader *r, struct fx_case *c);
/* Starts case c from a "case NAME" line. */
void fx_case_begin(struct fx_reader *r, struct fx_case *c);
void fx_case_release(struct fx_case *c);

/*
 * Reads the whole file at path: a "case" line starts a case (the samples
 * follow), every other line goes to fn with the current case (whose a is
 * NULL before the first case).  Counts the cases and the other lines.
 */
typedef void fx_line_fn(struct fx_reader *r, const struct fx_case *c,
    void *ctx);
void fx_run(const char *path, fx_line_fn *fn, void *ctx, int *cases,
    int *lines);

/* |got - want| <= tol * max(|want|, scale), with a message naming the
 * case, the line and the quantity when it is not. */
void fx_close_to(const struct fx_reader *r, const char *what, double got,
    double want, double tol, double scale);

#endif /* PERFREG_TESTS_TWOSAMPLE_FIXTURE_H */
