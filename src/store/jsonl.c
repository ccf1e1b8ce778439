/*
 * store/jsonl.c - the JSON reader of `perfreg import` (store/jsonl.h): a
 * recursive descent parser of one line into an array of nodes, written
 * by hand because jansson took 8 us to parse one run line on the
 * development machine when the import target leaves 10 us for a whole
 * run, store included.  Depth is bounded (PR_JSONL_DEPTH_MAX), the
 * scratch buffer is sized once per line before parsing starts, so that
 * decoded strings never move, and every error is a constant message
 * with the place in the line where it happened.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/jsonl.h"
#include "store/str.h"

#include "core/banned.h"

static size_t
jfail(struct pr_jsonl *j, const char *why)
{
	if (j->why == NULL) {
		j->why = why;
		j->at = j->p;
	}
	return 0;
}

static size_t
jnew(struct pr_jsonl *j, enum pr_jsonl_type t)
{
	struct pr_jsonl_node *v;

	if (j->nv >= j->cap) {
		size_t ncap = j->cap < 64 ? 64 : 2 * j->cap;

		v = realloc(j->v, ncap * sizeof(*v));
		if (v == NULL)
			return jfail(j, "out of memory");
		j->v = v;
		j->cap = ncap;
	}
	v = &j->v[j->nv];
	v->t = t;
	v->s = NULL;
	v->n = 0;
	v->k = NULL;
	v->kn = 0;
	v->kid = 0;
	v->next = 0;
	v->count = 0;
	v->nul = 0;
	return j->nv++;
}

static void
jskip(struct pr_jsonl *j)
{
	while (j->p < j->end &&
	    (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n'))
		j->p++;
}

static int
hex4(const char *p, unsigned *out)
{
	unsigned v = 0, d;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

static char *
put_utf8(char *q, unsigned c)
{
	if (c < 0x80) {
		*q++ = (char)c;
	} else if (c < 0x800) {
		*q++ = (char)(0xc0 | c >> 6);
		*q++ = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		*q++ = (char)(0xe0 | c >> 12);
		*q++ = (char)(0x80 | (c >> 6 & 0x3f));
		*q++ = (char)(0x80 | (c & 0x3f));
	} else {
		*q++ = (char)(0xf0 | c >> 18);
		*q++ = (char)(0x80 | (c >> 12 & 0x3f));
		*q++ = (char)(0x80 | (c >> 6 & 0x3f));
		*q++ = (char)(0x80 | (c & 0x3f));
	}
	return q;
}

/* An escape after the backslash at j->p; advances past it. */
static int
jescape(struct pr_jsonl *j, char **qp)
{
	const char *p = j->p + 1;
	char *q = *qp;
	unsigned c, lo;

	if (p >= j->end)
		return (int)jfail(j, "unterminated string");
	switch (*p) {
	case '"':
	case '\\':
	case '/':
		*q++ = *p;
		break;
	case 'b':
		*q++ = '\b';
		break;
	case 'f':
		*q++ = '\f';
		break;
	case 'n':
		*q++ = '\n';
		break;
	case 'r':
		*q++ = '\r';
		break;
	case 't':
		*q++ = '\t';
		break;
	case 'u':
		if (j->end - p < 5 || hex4(p + 1, &c) != 0)
			return (int)jfail(j, "bad \\u escape");
		p += 4;
		if (c >= 0xdc00 && c <= 0xdfff)
			return (int)jfail(j,
			    "lone UTF-16 surrogate in \\u "
			    "escape");
		if (c >= 0xd800 && c <= 0xdbff) {
			if (j->end - p < 7 || p[1] != '\\' || p[2] != 'u' ||
			    hex4(p + 3, &lo) != 0 || lo < 0xdc00 || lo > 0xdfff)
				return (int)jfail(j,
				    "lone UTF-16 surrogate "
				    "in \\u escape");
			c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
			p += 6;
		}
		q = put_utf8(q, c);
		break;
	default:
		return (int)jfail(j, "bad escape in a string");
	}
	j->p = p + 1;
	*qp = q;
	return 1;
}

/* What jstring does with a byte: 0 copy it, 1 stop (quote, backslash or
 * control byte), 2 copy it and check the UTF-8 later. */
#define JC_ROW(a) a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a
static const unsigned char jclass[256] = { JC_ROW(1), JC_ROW(1), 0, 0, 1, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* '"' */
	JC_ROW(0), JC_ROW(0), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0,
	0, /* '\\' */
	JC_ROW(0), JC_ROW(0), JC_ROW(2), JC_ROW(2), JC_ROW(2), JC_ROW(2),
	JC_ROW(2), JC_ROW(2), JC_ROW(2), JC_ROW(2) };

/*
 * A string at j->p (the opening quote), decoded into the scratch; *nul
 * (when nul is not NULL) tells whether it holds a NUL byte.  With nul
 * NULL (a member name, which is compared by length and never used as a
 * C string), a string without escapes is not copied: *out points into
 * the line and is not NUL-terminated.
 */
static int
jstring(struct pr_jsonl *j, const char **out, size_t *outn, int *nul)
{
	char *q0 = j->sc + j->sn, *q = q0;
	const unsigned char *p;
	const char *run;
	int high, hasnul = 0, first = 1;
	unsigned k;

	j->p++;
	for (;;) {
		run = j->p;
		high = 0;
		p = (const unsigned char *)run;
		while (p < (const unsigned char *)j->end &&
		    (k = jclass[*p]) != 1) {
			high |= (int)k;
			p++;
		}
		j->p = (const char *)p;
		if (high && !pr_store_utf8_text(run, (size_t)(j->p - run))) {
			j->p = run;
			return (int)jfail(j, "invalid UTF-8 in a string");
		}
		if (first && nul == NULL && j->p < j->end && *j->p == '"') {
			/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): out is in j->v, which jnew grew */
			*out = run;
			*outn = (size_t)(j->p - run);
			j->p++;
			return 1;
		}
		first = 0;
		memcpy(q, run, (size_t)(j->p - run));
		q += j->p - run;
		if (j->p == j->end)
			return (int)jfail(j, "unterminated string");
		if (*j->p == '"')
			break;
		if (*j->p != '\\')
			return (int)jfail(j,
			    "control byte in a string (must "
			    "be escaped)");
		if (!jescape(j, &q))
			return 0;
		hasnul |= q[-1] == '\0';
	}
	j->p++;
	if (nul != NULL)
		*nul = hasnul;
	*q = '\0';
	/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): out is in j->v, which jnew grew */
	*out = q0;
	*outn = (size_t)(q - q0);
	j->sn += (size_t)(q - q0) + 1;
	return 1;
}

static int
isdig(const char *p, const char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

static size_t
jnumber(struct pr_jsonl *j)
{
	const char *s = j->p, *p = j->p;
	size_t x;

	if (p < j->end && *p == '-')
		p++;
	if (p < j->end && *p == '0')
		p++;
	else if (isdig(p, j->end))
		while (isdig(p, j->end))
			p++;
	else
		return jfail(j, "bad number");
	if (p < j->end && *p == '.') {
		if (!isdig(++p, j->end))
			return jfail(j, "bad number");
		while (isdig(p, j->end))
			p++;
	}
	if (p < j->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < j->end && (*p == '+' || *p == '-'))
			p++;
		if (!isdig(p, j->end))
			return jfail(j, "bad number");
		while (isdig(p, j->end))
			p++;
	}
	if ((x = jnew(j, PR_JSONL_NUM)) == 0)
		return 0;
	j->v[x].s = s;
	j->v[x].n = (size_t)(p - s);
	j->p = p;
	return x;
}

static size_t
jword(struct pr_jsonl *j, const char *w, enum pr_jsonl_type t)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return jfail(j, "unexpected text");
	j->p += n;
	return jnew(j, t);
}

static size_t jvalue(struct pr_jsonl *j, int depth);

/* An array or an object at j->p. */
static size_t
jlist(struct pr_jsonl *j, int depth, int obj)
{
	const char *s = j->p, *k = NULL;
	size_t x, c, prev = 0, count = 0, kn = 0;
	char close = obj ? '}' : ']';

	if (depth >= PR_JSONL_DEPTH_MAX)
		return jfail(j, "nested too deeply");
	if ((x = jnew(j, obj ? PR_JSONL_OBJ : PR_JSONL_ARR)) == 0)
		return 0;
	j->p++;
	jskip(j);
	if (j->p < j->end && *j->p == close)
		goto done;
	for (;;) {
		jskip(j);
		if (obj) {
			if (j->p == j->end || *j->p != '"')
				return jfail(j, "expected a member name");
			if (!jstring(j, &k, &kn, NULL))
				return 0;
			jskip(j);
			if (j->p == j->end || *j->p != ':')
				return jfail(j, "expected ':'");
			j->p++;
		}
		if ((c = jvalue(j, depth + 1)) == 0)
			return 0;
		j->v[c].k = k;
		j->v[c].kn = kn;
		if (prev != 0)
			j->v[prev].next = c;
		else
			j->v[x].kid = c;
		prev = c;
		count++;
		jskip(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close)
			break;
		return jfail(j,
		    obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
done:
	j->p++;
	j->v[x].s = s;
	j->v[x].n = (size_t)(j->p - s);
	j->v[x].count = count;
	return x;
}

static size_t
jvalue(struct pr_jsonl *j, int depth)
{
	size_t x;

	jskip(j);
	if (j->p == j->end)
		return jfail(j, "unexpected end of line");
	switch (*j->p) {
	case '{':
		return jlist(j, depth, 1);
	case '[':
		return jlist(j, depth, 0);
	case '"':
		if ((x = jnew(j, PR_JSONL_STR)) == 0)
			return 0;
		if (!jstring(j, &j->v[x].s, &j->v[x].n, &j->v[x].nul))
			return 0;
		return x;
	case 't':
		return jword(j, "true", PR_JSONL_TRUE);
	case 'f':
		return jword(j, "false", PR_JSONL_FALSE);
	case 'n':
		return jword(j, "null", PR_JSONL_NULL);
	default:
		if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
			return jnumber(j);
		return jfail(j, "unexpected byte");
	}
}

size_t
pr_jsonl_parse(struct pr_jsonl *j, const char *p, const char *end)
{
	size_t len = (size_t)(end - p), need = 3 * len + 64, root;

	if (need > j->scap) {
		char *sc = realloc(j->sc, need);

		if (sc == NULL) {
			j->why = "out of memory";
			j->at = p;
			return 0;
		}
		j->sc = sc;
		j->scap = need;
	}
	j->sn = 0;
	j->nv = 1;
	j->line = j->p = p;
	j->end = end;
	j->why = NULL;
	j->at = NULL;
	jskip(j);
	if (j->p == j->end || *j->p != '{')
		return jfail(j, "expected a JSON object");
	if ((root = jvalue(j, 0)) == 0)
		return 0;
	jskip(j);
	if (j->p != j->end)
		return jfail(j, "unexpected text after the object");
	return root;
}

void
pr_jsonl_release(struct pr_jsonl *j)
{
	free(j->v);
	free(j->sc);
	j->v = NULL;
	j->sc = NULL;
	j->nv = j->cap = j->sn = j->scap = 0;
}
