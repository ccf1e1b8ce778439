/*
 * parse/derive.c - derived metrics: `--derive NAME=EXPR[:UNIT]
 * [:higher|lower]`, an arithmetic expression over other metrics.
 *
 * Grammar (recursive descent, usual precedence, left associative):
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/') unary)*
 *   unary   := ('-' | '+') unary | primary
 *   primary := NUMBER | NAME | '{' any text but '}' '}' | '(' expr ')'
 *   NAME    := [A-Za-z_][A-Za-z0-9_.]*
 * NUMBER is read by pr_parse_double (decimal, optional exponent; no nan
 * or inf).  Nesting is limited to PR_DERIVE_DEPTH levels so that a
 * hostile expression cannot exhaust the stack.
 *
 * The expression is compiled into a small tree at set-up, and computed
 * value by value: the i-th value of the result comes from the i-th value
 * of every metric named (they must all have the same count, at least
 * one).  A division by zero, a missing metric, a metric without values
 * and a result that is not finite (1e308 * 10) are errors, never NaN or
 * infinity.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/bench.h"
#include "perfreg/numparse.h"
#include "perfreg/parse.h"
#include "core/banned.h"

#define PR_DERIVE_DEPTH 100

enum op { OP_NUM, OP_VAR, OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV };

struct node {
	enum op op;
	double num;
	char *name; /* OP_VAR */
	size_t a, b;
};

struct pr_derive {
	char name[PR_PARSE_NAME_MAX];
	char unit[PR_PARSE_NAME_MAX];
	enum pr_better better;
	struct node *nodes;
	size_t n, cap;
	size_t root;
};

struct pstate {
	struct pr_derive *d;
	const char *spec; /* for column numbers */
	const char *p, *e;
	int depth;
	struct pr_error *err;
};

const char *
pr_derive_name(const struct pr_derive *d)
{
	return d->name;
}

void
pr_derive_free(struct pr_derive *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++)
		free(d->nodes[i].name);
	free(d->nodes);
	free(d);
}

static enum pr_status
fail(struct pstate *ps, const char *at, const char *msg)
{
	return pr_error_set(ps->err, PR_EINVAL,
	    "--derive '%s': %s at column %ld", ps->d->name, msg,
	    (long)(at - ps->spec) + 1);
}

static enum pr_status
node(struct pstate *ps, enum op op, size_t a, size_t b, size_t *out)
{
	struct pr_derive *d = ps->d;
	struct node *nn;
	size_t ncap;

	if (d->n == d->cap) {
		ncap = d->cap ? d->cap * 2 : 16;
		if ((nn = realloc(d->nodes, ncap * sizeof(*nn))) == NULL)
			return pr_error_set(ps->err, PR_ENOMEM,
			    "out of memory");
		d->nodes = nn;
		d->cap = ncap;
	}
	nn = &d->nodes[d->n];
	nn->op = op;
	nn->num = 0;
	nn->name = NULL;
	nn->a = a;
	nn->b = b;
	*out = d->n++;
	return PR_OK;
}

static void
skip(struct pstate *ps)
{
	while (ps->p < ps->e && (*ps->p == ' ' || *ps->p == '\t'))
		ps->p++;
}

static int
name_char(char c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	    (!first && ((c >= '0' && c <= '9') || c == '.'));
}

static enum pr_status expr(struct pstate *ps, size_t *out);

static enum pr_status
primary(struct pstate *ps, size_t *out)
{
	const char *s, *stop;
	enum pr_status st;
	size_t n;

	skip(ps);
	if (ps->p == ps->e)
		return fail(ps, ps->p, "expected a number, a metric or '('");
	s = ps->p;
	if (*s == '(') {
		ps->p++;
		if ((st = expr(ps, out)) != PR_OK)
			return st;
		skip(ps);
		if (ps->p == ps->e || *ps->p != ')')
			return fail(ps, ps->p, "expected ')'");
		ps->p++;
		return PR_OK;
	}
	if (*s == '{' || name_char(*s, 1)) {
		const char *b, *e;

		if (*s == '{') {
			b = s + 1;
			e = memchr(b, '}', (size_t)(ps->e - b));
			if (e == NULL)
				return fail(ps, s, "unclosed '{'");
			ps->p = e + 1;
		} else {
			b = s;
			for (e = s; e < ps->e && name_char(*e, 0); e++)
				;
			ps->p = e;
		}
		n = (size_t)(e - b);
		if (n == 0 || n >= PR_PARSE_NAME_MAX)
			return fail(ps, s, "bad metric name");
		if ((st = node(ps, OP_VAR, 0, 0, out)) != PR_OK)
			return st;
		if ((ps->d->nodes[*out].name = malloc(n + 1)) == NULL)
			return pr_error_set(ps->err, PR_ENOMEM,
			    "out of memory");
		memcpy(ps->d->nodes[*out].name, b, n);
		ps->d->nodes[*out].name[n] = '\0';
		return PR_OK;
	}
	if ((*s >= '0' && *s <= '9') || *s == '.') {
		double v;

		st = pr_parse_double(s, ps->e, &stop, &v, NULL);
		if (st == PR_ERANGE)
			return fail(ps, s, "number out of range");
		if (st != PR_OK)
			return fail(ps, s, "bad number");
		if (stop < ps->e && name_char(*stop, 0))
			return fail(ps, stop,
			    "unexpected character after a "
			    "number");
		ps->p = stop;
		if ((st = node(ps, OP_NUM, 0, 0, out)) != PR_OK)
			return st;
		ps->d->nodes[*out].num = v;
		return PR_OK;
	}
	return fail(ps, s, "expected a number, a metric or '('");
}

static enum pr_status
unary(struct pstate *ps, size_t *out)
{
	enum pr_status st;
	size_t a;
	char c;

	if (++ps->depth > PR_DERIVE_DEPTH)
		return fail(ps, ps->p, "expression nested too deeply");
	skip(ps);
	if (ps->p < ps->e && (*ps->p == '-' || *ps->p == '+')) {
		c = *ps->p++;
		if ((st = unary(ps, &a)) != PR_OK)
			return st;
		if (c == '+')
			*out = a;
		else if ((st = node(ps, OP_NEG, a, 0, out)) != PR_OK)
			return st;
	} else if ((st = primary(ps, out)) != PR_OK) {
		return st;
	}
	ps->depth--;
	return PR_OK;
}

static enum pr_status
term(struct pstate *ps, size_t *out)
{
	enum pr_status st;
	size_t a, b;
	char c;

	if ((st = unary(ps, &a)) != PR_OK)
		return st;
	for (;;) {
		skip(ps);
		if (ps->p == ps->e || (*ps->p != '*' && *ps->p != '/'))
			break;
		c = *ps->p++;
		if ((st = unary(ps, &b)) != PR_OK ||
		    (st = node(ps, c == '*' ? OP_MUL : OP_DIV, a, b, &a)) !=
			PR_OK)
			return st;
	}
	*out = a;
	return PR_OK;
}

static enum pr_status
expr(struct pstate *ps, size_t *out)
{
	enum pr_status st;
	size_t a, b;
	char c;

	if (++ps->depth > PR_DERIVE_DEPTH)
		return fail(ps, ps->p, "expression nested too deeply");
	if ((st = term(ps, &a)) != PR_OK)
		return st;
	for (;;) {
		skip(ps);
		if (ps->p == ps->e || (*ps->p != '+' && *ps->p != '-'))
			break;
		c = *ps->p++;
		if ((st = term(ps, &b)) != PR_OK ||
		    (st = node(ps, c == '+' ? OP_ADD : OP_SUB, a, b, &a)) !=
			PR_OK)
			return st;
	}
	ps->depth--;
	*out = a;
	return PR_OK;
}

enum pr_status
pr_derive_new(const char *spec, struct pr_derive **out, struct pr_error *err)
{
	struct pr_derive *d;
	struct pstate ps;
	const char *eq, *ex, *ex_e;
	size_t len = strlen(spec), i;
	enum pr_status st;

	*out = NULL;
	if (len > PR_PARSE_SPEC_MAX)
		return pr_error_set(err, PR_EINVAL,
		    "--derive: spec longer than %d bytes", PR_PARSE_SPEC_MAX);
	eq = strchr(spec, '=');
	if (eq == NULL || eq == spec ||
	    (size_t)(eq - spec) >= PR_PARSE_NAME_MAX)
		return pr_error_set(err, PR_EINVAL,
		    "--derive '%.60s': expected NAME=EXPR[:UNIT]"
		    "[:higher|lower]",
		    spec);
	for (i = 0; spec + i < eq; i++)
		if ((unsigned char)spec[i] <= ' ' || spec[i] == 0x7f)
			return pr_error_set(err, PR_EINVAL,
			    "--derive '%.60s': the name must not contain "
			    "blanks or control characters",
			    spec);
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	memcpy(d->name, spec, (size_t)(eq - spec));
	ex = eq + 1;
	ex_e = spec + len;
	if (pr_spec_suffixes(ex, &ex_e, d->unit, &d->better) != 0) {
		pr_derive_free(d);
		return pr_error_set(err, PR_EINVAL,
		    "--derive '%.60s': unit too long", spec);
	}
	ps.d = d;
	ps.spec = spec;
	ps.p = ex;
	ps.e = ex_e;
	ps.depth = 0;
	ps.err = err;
	if ((st = expr(&ps, &d->root)) == PR_OK) {
		skip(&ps);
		if (ps.p != ps.e)
			st = fail(&ps, ps.p,
			    *ps.p == ')' ? "unmatched ')'" : "unexpected text");
	}
	if (st != PR_OK) {
		pr_derive_free(d);
		return st;
	}
	*out = d;
	return PR_OK;
}

/* The i-th value of node k. */
static enum pr_status
eval(const struct pr_derive *d, size_t k, struct pr_metric **vars, size_t i,
    double *out, struct pr_error *err)
{
	const struct node *nd = &d->nodes[k];
	double a, b;
	enum pr_status st;

	switch (nd->op) {
	case OP_NUM:
		*out = nd->num;
		return PR_OK;
	case OP_VAR:
		*out = vars[k]->values.v[i];
		return PR_OK;
	case OP_NEG:
		if ((st = eval(d, nd->a, vars, i, &a, err)) != PR_OK)
			return st;
		*out = -a;
		return PR_OK;
	default:
		break;
	}
	if ((st = eval(d, nd->a, vars, i, &a, err)) != PR_OK ||
	    (st = eval(d, nd->b, vars, i, &b, err)) != PR_OK)
		return st;
	switch (nd->op) {
	case OP_ADD:
		*out = a + b;
		break;
	case OP_SUB:
		*out = a - b;
		break;
	case OP_MUL:
		*out = a * b;
		break;
	default:
		if (b == 0)
			return pr_error_set(err, PR_EUNDEF,
			    "--derive '%s': division by zero (value %zu)",
			    d->name, i + 1);
		*out = a / b;
		break;
	}
	if (!isfinite(*out))
		return pr_error_set(err, PR_ERANGE,
		    "--derive '%s': result out of range (value %zu)", d->name,
		    i + 1);
	return PR_OK;
}

enum pr_status
pr_derive_apply(const struct pr_derive *d, struct pr_dataset *ds,
    struct pr_error *err)
{
	struct pr_metric **vars, *m, *first = NULL;
	struct pr_sample res;
	size_t k, i, n = 1;
	double v;
	enum pr_status st = PR_OK;

	if (pr_dataset_find(ds, d->name) != NULL)
		return pr_error_set(err, PR_EINVAL,
		    "--derive '%s': a metric of that name already exists",
		    d->name);
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
	if ((vars = calloc(d->n, sizeof(*vars))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (k = 0; k < d->n; k++) {
		if (d->nodes[k].op != OP_VAR)
			continue;
		m = pr_dataset_find(ds, d->nodes[k].name);
		if (m == NULL) {
			st = pr_error_set(err, PR_ENOTFOUND,
			    "--derive '%s': no metric '%s' in the output",
			    d->name, d->nodes[k].name);
			goto out;
		}
		if (m->values.n == 0) {
			st = pr_error_set(err, PR_EUNDEF,
			    "--derive '%s': metric '%s' has no value (the "
			    "tool reported it absent)",
			    d->name, m->name);
			goto out;
		}
		if (first != NULL && m->values.n != first->values.n) {
			st = pr_error_set(err, PR_EINVAL,
			    "--derive '%s': metrics '%s' (%zu values) and "
			    "'%s' (%zu values) differ in count",
			    d->name, first->name, first->values.n, m->name,
			    m->values.n);
			goto out;
		}
		if (first == NULL)
			first = m;
		vars[k] = m;
	}
	if (first != NULL)
		n = first->values.n;
	pr_sample_init(&res);
	for (i = 0; i < n && st == PR_OK; i++)
		if ((st = eval(d, d->root, vars, i, &v, err)) == PR_OK)
			st = pr_sample_push(&res, v, err);
	for (i = 0; i < res.n && st == PR_OK; i++)
		st = pr_dataset_add(ds, d->name, d->unit, d->better, res.v[i],
		    err);
	pr_sample_release(&res);
out:
	free(vars);
	return st;
}
