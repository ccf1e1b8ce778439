/*
 * tests/stats/twosample_fixture.c - the reader of the two-sample fixture
 * files; see twosample_fixture.h.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/twosample_fixture.h"

void
fx_open(struct fx_reader *r, const char *path)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->f = fopen(path, "r");
	if (r->f == NULL)
		fail_msg("cannot open %s: %s", path, strerror(errno));
}

void
fx_close(struct fx_reader *r)
{
	if (r->f != NULL)
		fclose(r->f);
	free(r->line);
	r->f = NULL;
	r->line = NULL;
}

int
fx_next(struct fx_reader *r)
{
	ssize_t len;
	char *p;

	for (;;) {
		len = getline(&r->line, &r->cap, r->f);
		if (len < 0)
			return 0;
		r->lineno++;
		r->nw = 0;
		for (p = r->line; *p != '\0';) {
			while (*p == ' ' || *p == '\t' || *p == '\n')
				*p++ = '\0';
			if (*p == '\0')
				break;
			if (r->nw == FX_MAXWORDS)
				fail_msg("%s:%ld: more than %d words", r->path,
				    r->lineno, FX_MAXWORDS);
			r->w[r->nw++] = p;
			while (
			    *p != '\0' && *p != ' ' && *p != '\t' && *p != '\n')
				p++;
		}
		if (r->nw > 0 && r->w[0][0] != '#')
			return 1;
	}
}

double
fx_num(struct fx_reader *r, int i)
{
	char *end;
	double v;

	if (i >= r->nw)
		fail_msg("%s:%ld: missing word %d", r->path, r->lineno, i + 1);
	if (strcmp(r->w[i], "NA") == 0)
		return NAN;
	errno = 0;
	v = strtod(r->w[i], &end);
	if (end == r->w[i] || *end != '\0' || errno != 0)
		fail_msg("%s:%ld: '%s' is not a number", r->path, r->lineno,
		    r->w[i]);
	return v;
}

unsigned long long
fx_uint(struct fx_reader *r, int i)
{
	char *end;
	unsigned long long v;

	if (i >= r->nw)
		fail_msg("%s:%ld: missing word %d", r->path, r->lineno, i + 1);
	errno = 0;
	v = strtoull(r->w[i], &end, 10);
	if (end == r->w[i] || *end != '\0' || errno != 0 || r->w[i][0] == '-')
		fail_msg("%s:%ld: '%s' is not a count", r->path, r->lineno,
		    r->w[i]);
	return v;
}

void
fx_words(struct fx_reader *r, int n)
{
	if (r->nw != n)
		fail_msg("%s:%ld: %d words, expected %d", r->path, r->lineno,
		    r->nw, n);
}

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

void
fx_sample(struct fx_reader *r, struct fx_case *c)
{
	unsigned long long n;
	double *x;
	size_t i;

	if (r->nw < 2 ||
	    (strcmp(r->w[0], "a") != 0 && strcmp(r->w[0], "b") != 0))
		fail_msg("%s:%ld: expected a sample line", r->path, r->lineno);
	n = fx_uint(r, 1);
	fx_words(r, (int)n + 2);
	x = malloc(n * sizeof(*x));
	assert_non_null(x);
	for (i = 0; i < n; i++)
		x[i] = fx_num(r, (int)i + 2);
	qsort(x, n, sizeof(*x), cmp_double);
	if (r->w[0][0] == 'a') {
		c->a = x;
		c->na = n;
	} else {
		c->b = x;
		c->nb = n;
	}
}

void
fx_case_begin(struct fx_reader *r, struct fx_case *c)
{
	memset(c, 0, sizeof(*c));
	if (strcmp(r->w[0], "case") != 0)
		fail_msg("%s:%ld: expected 'case NAME'", r->path, r->lineno);
	fx_words(r, 2);
	snprintf(c->name, sizeof(c->name), "%s", r->w[1]);
	c->line = r->lineno;
	if (!fx_next(r))
		fail_msg("%s: ends inside case %s", r->path, c->name);
	fx_sample(r, c);
	if (!fx_next(r))
		fail_msg("%s: ends inside case %s", r->path, c->name);
	fx_sample(r, c);
	if (c->a == NULL || c->b == NULL)
		fail_msg("%s:%ld: case %s needs an a and a b line", r->path,
		    r->lineno, c->name);
}

void
fx_case_release(struct fx_case *c)
{
	free(c->a);
	free(c->b);
	c->a = c->b = NULL;
}

void
fx_run(const char *path, fx_line_fn *fn, void *ctx, int *cases, int *lines)
{
	struct fx_reader r;
	struct fx_case c;

	*cases = *lines = 0;
	fx_open(&r, path);
	memset(&c, 0, sizeof(c));
	while (fx_next(&r)) {
		if (strcmp(r.w[0], "case") == 0) {
			fx_case_release(&c);
			fx_case_begin(&r, &c);
			(*cases)++;
			continue;
		}
		fn(&r, &c, ctx);
		(*lines)++;
	}
	fx_case_release(&c);
	fx_close(&r);
}

void
fx_close_to(const struct fx_reader *r, const char *what, double got,
    double want, double tol, double scale)
{
	double lim = fabs(want) > scale ? fabs(want) : scale;

	if (!(fabs(got - want) <= tol * lim))
		fail_msg("%s:%ld: %s: got %.17g, want %.17g (tolerance %g)",
		    r->path, r->lineno, what, got, want, tol * lim);
}
