/*
 * parse/perfstat.c - the output of Linux `perf stat`: the human-readable
 * report and the -x, CSV.
 *
 * Human: a block starts at " Performance counter stats for '...':"; its
 * counter lines are "VALUE [UNIT] EVENT [# comment] [( +- x% )]
 * [(pct%)]", with VALUE perhaps grouped by thousands ("1,234,567"), or
 * "<not supported> EVENT" / "<not counted> EVENT", which are reported
 * absent (a metric without values), never as zero.  The block ends with
 * "T seconds time elapsed" (-r: "T +- D seconds time elapsed") and
 * perhaps "T seconds user" and "T seconds sys".  A block without that
 * line was cut short: an error.  Lines outside blocks (the program's own
 * output) are not read.
 *
 * CSV (-x,): "VALUE,UNIT,EVENT,[STDDEV%,]RUNTIME,PCT,METRIC,METRIC-UNIT";
 * per-CPU (-A) and interval (-I) layouts are rejected as unsupported
 * rather than misread.
 *
 * Every event is one metric named as perf names it ("task-clock",
 * "cycles", "instructions:u"), unit "ms" for msec and the unit perf
 * prints otherwise ("" for counts), lower is better; the times are
 * "elapsed", "user", "sys" (s, lower).
 */
#include <stdio.h>
#include <string.h>

#include "parse/bench.h"
#include "perfreg/numparse.h"
#include "core/banned.h"

/* Units perf prints between the value and the event. */
static const char *const units[] = { "msec", "Joules", "MiB", "KiB", "GiB",
	"MB", "kB", "ns", "us", "W", NULL };

static int
is_unit(const struct pr_tok *t)
{
	size_t i;

	for (i = 0; units[i] != NULL; i++)
		if (pr_tok_eq(t, units[i]))
			return 1;
	return 0;
}

/* Whether t is an event name: starts with a letter (or '{', '/'). */
static int
is_event(const char *s, size_t n)
{
	return n > 0 &&
	    ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') ||
		s[0] == '{' || s[0] == '/' || s[0] == '_');
}

/* Whether [s, e) is a number as perf prints it: "1,234,567.89" too. */
static int
is_count(const char *s, const char *e)
{
	const char *p;
	int digits = 0;

	for (p = s; p < e; p++)
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p != ',' && *p != '.')
			return 0;
	return digits > 0;
}

/*
 * Reads a perf value, dropping thousands separators: "1,234,567" is
 * 1234567.  Separators must group by three.
 */
static enum pr_status
perf_num(const struct pr_input *in, const struct pr_line *l, const char *s,
    const char *e, double *out, struct pr_error *err)
{
	char buf[80];
	size_t n = 0;
	const char *p, *dot, *stop;
	int group = -1;

	if (memchr(s, ',', (size_t)(e - s)) == NULL)
		return pr_bench_num(in, l, s, e, 0, 0, "as a perf value", out,
		    err);
	dot = memchr(s, '.', (size_t)(e - s));
	if (dot == NULL)
		dot = e;
	for (p = s; p < e; p++) {
		if (*p == ',') {
			if (p > dot || group == 0 ||
			    (group > 0 && group != 3) || p == s)
				goto bad;
			group = 0;
			continue;
		}
		if (group >= 0 && p < dot)
			group++;
		if (n + 1 >= sizeof(buf))
			goto bad;
		buf[n++] = *p;
	}
	if (group >= 0 && group != 3)
		goto bad;
	if (pr_parse_double(buf, buf + n, &stop, out, NULL) == PR_OK &&
	    stop == buf + n)
		return PR_OK;
bad:
	return pr_bench_fail(in, l, s, err,
	    "expected a perf value like '1,234,567', got '%.*s'",
	    (int)(e - s > 40 ? 40 : e - s), s);
}

static enum pr_status
add_event(struct pr_dataset *out, const char *ev, size_t n, const char *u,
    size_t un, int absent, double v, struct pr_error *err)
{
	char name[PR_PARSE_NAME_MAX], unit[16];

	if (n >= sizeof(name))
		return pr_error_set(err, PR_EPARSE,
		    "perf event name too "
		    "long");
	memcpy(name, ev, n);
	name[n] = '\0';
	if (un == 4 && memcmp(u, "msec", 4) == 0)
		snprintf(unit, sizeof(unit), "ms");
	else
		snprintf(unit, sizeof(unit), "%.*s", (int)(un < 15 ? un : 15),
		    u);
	if (absent)
		return pr_bench_absent(out, name, unit, PR_BETTER_LOWER, err);
	return pr_bench_add(out, name, unit, PR_BETTER_LOWER, v, err);
}

enum block_state { OUTSIDE, COUNTERS, TIMES };

struct pctx {
	const struct pr_input *in;
	struct pr_dataset *out;
	enum block_state state;
	struct pr_line header;
	size_t counters;
};

/* "T [+- D] seconds time elapsed|user|sys": 1 if it is one. */
static int
seconds_line(struct pctx *c, const struct pr_line *l, const struct pr_tok *t,
    size_t n, enum pr_status *st, struct pr_error *err)
{
	size_t at = 1;
	const char *name;
	double v;

	if (n >= 3 && pr_tok_eq(&t[1], "+-"))
		at = 3;
	/* "0.004 seconds sy" at the end of a cut input: sys was there. */
	if (n >= at + 1 && pr_tok_eq(&t[at], "seconds") && l->cut &&
	    pr_valueish(t[0].s, t[0].s + t[0].n)) {
		*st = pr_bench_uncut(c->in, l, t[0].s, err);
		return 1;
	}
	if (n < at + 2 || !pr_tok_eq(&t[at], "seconds"))
		return 0;
	if (n >= at + 3 && pr_tok_eq(&t[at + 1], "time") &&
	    pr_tok_eq(&t[at + 2], "elapsed"))
		name = "elapsed";
	else if (pr_tok_eq(&t[at + 1], "user"))
		name = "user";
	else if (pr_tok_eq(&t[at + 1], "sys"))
		name = "sys";
	else
		return 0;
	*st = pr_bench_tnum(c->in, l, &t[0], 0, "as perf's seconds", &v, err);
	if (*st == PR_OK)
		*st = pr_bench_add(c->out, name, "s", PR_BETTER_LOWER, v, err);
	if (name[0] == 'e')
		c->state = TIMES;
	return 1;
}

static enum pr_status
close_block(struct pctx *c, struct pr_error *err)
{
	if (c->state == COUNTERS)
		return pr_bench_fail(c->in, &c->header, c->header.s, err,
		    c->counters == 0
			? "perf stat block without counters (output cut short?)"
			: "perf stat block without its 'seconds time elapsed' "
			  "line (output cut short?)");
	c->state = OUTSIDE;
	return PR_OK;
}

static enum pr_status
human_line(struct pctx *c, const struct pr_line *l, struct pr_error *err)
{
	struct pr_tok t[PR_TOK_MAX];
	size_t n, ev;
	enum pr_status st = PR_OK;
	double v = 0;
	int absent = 0;
	const char *u = "";
	size_t un = 0;

	if (pr_has(l->s, l->e, "Performance counter stats for")) {
		if ((st = close_block(c, err)) != PR_OK)
			return st;
		c->state = COUNTERS;
		c->header = *l;
		c->counters = 0;
		return PR_OK;
	}
	if (c->state == OUTSIDE)
		return PR_OK;
	n = pr_tokens(l->s, l->e, t, PR_TOK_MAX);
	if (n == 0)
		return PR_OK;
	if (n > PR_TOK_MAX)
		n = PR_TOK_MAX;
	if (seconds_line(c, l, t, n, &st, err))
		return st;
	if (c->state == TIMES) {
		/* Anything else after the times ends the block. */
		c->state = OUTSIDE;
		return PR_OK;
	}
	if (n >= 3 &&
	    (pr_tok_eq(&t[0], "<not") &&
		(pr_tok_eq(&t[1], "supported>") ||
		    pr_tok_eq(&t[1], "counted>")))) {
		absent = 1;
		ev = 2;
	} else if (pr_valueish(t[0].s, t[0].s + t[0].n)) {
		ev = 1;
		if (n >= 3 && is_unit(&t[1])) {
			u = t[1].s;
			un = t[1].n;
			ev = 2;
		}
		if (n > ev && is_count(t[ev].s, t[ev].s + t[ev].n))
			return pr_bench_fail(c->in, l, l->s, err,
			    "perf stat interval output (-I) is not "
			    "supported");
	} else {
		/* Prose inside the block ("Some events weren't counted"). */
		return PR_OK;
	}
	if (n <= ev || !is_event(t[ev].s, t[ev].n))
		return pr_bench_fail(c->in, l, l->s, err,
		    "perf stat counter line without an event name (cut "
		    "short?)");
	if (!absent &&
	    (st = perf_num(c->in, l, t[0].s, t[0].s + t[0].n, &v, err)) !=
		PR_OK)
		return st;
	c->counters++;
	return add_event(c->out, t[ev].s, t[ev].n, u, un, absent, v, err);
}

/* Whether a line is a perf -x, counter line. */
static int
csv_shape(const struct pr_tok *f, size_t n)
{
	return n >= 4 && n <= 12 && is_event(f[2].s, f[2].n) &&
	    (pr_valueish(f[0].s, f[0].s + f[0].n) ||
		pr_tok_eq(&f[0], "<not supported>") ||
		pr_tok_eq(&f[0], "<not counted>"));
}

/* What unsupported -x layout a line has: a phrase, or NULL. */
static const char *
csv_unsupported(const struct pr_tok *f, size_t n)
{
	if (n < 4 || n > 12)
		return NULL;
	if (pr_tok_prefix(&f[0], "CPU") ||
	    (f[0].n > 1 && f[0].s[0] == 'S' && f[0].s[1] >= '0' &&
		f[0].s[1] <= '9'))
		return "per-CPU or per-socket output (-A, --per-*)";
	if (n >= 5 && is_count(f[0].s, f[0].s + f[0].n) &&
	    (is_count(f[1].s, f[1].s + f[1].n) ||
		pr_tok_prefix(&f[1], "<not")) &&
	    is_event(f[3].s, f[3].n))
		return "interval output (-I)";
	return NULL;
}

static enum pr_status
csv_line(struct pctx *c, const struct pr_line *l, struct pr_error *err)
{
	struct pr_tok f[16];
	size_t n;
	double v = 0;
	int absent;
	const char *why;
	enum pr_status st;

	n = pr_fields(l->s, l->e, ',', f, 16); /* perf does not quote */
	if (!csv_shape(f, n)) {
		if ((why = csv_unsupported(f, n)) != NULL)
			return pr_bench_fail(c->in, l, l->s, err,
			    "perf stat -x %s is not supported", why);
		return PR_OK;
	}
	absent = f[0].s[0] == '<';
	if (!absent &&
	    (st = perf_num(c->in, l, f[0].s, f[0].s + f[0].n, &v, err)) !=
		PR_OK)
		return st;
	return add_event(c->out, f[2].s, f[2].n, f[1].s, f[1].n, absent, v,
	    err);
}

static enum pr_status
parse_perf(const struct pr_input *in, struct pr_dataset *out,
    struct pr_error *err)
{
	struct pr_lines it;
	struct pr_line l, hint = { NULL, NULL, NULL, 0, 0 };
	struct pctx c;
	int human = 0;
	enum pr_status st;

	memset(&c, 0, sizeof(c));
	c.in = in;
	c.out = out;
	c.state = OUTSIDE;
	pr_lines_init(&it, in);
	while (pr_lines_next(&it, &l)) {
		if (pr_has(l.s, l.e, "Performance counter stats for"))
			human = 1;
		if (hint.s == NULL &&
		    (pr_has(l.s, l.e, "rror") ||
			pr_starts(l.s, l.e, "Usage: perf")))
			hint = l;
	}
	pr_lines_init(&it, in);
	while (pr_lines_next(&it, &l)) {
		st = human ? human_line(&c, &l, err) : csv_line(&c, &l, err);
		if (st != PR_OK)
			return st;
	}
	if (human && (st = close_block(&c, err)) != PR_OK)
		return st;
	return out->n == 0 ? pr_bench_none(in, &hint, "perf", err) : PR_OK;
}

static unsigned
detect_perf(const struct pr_input *in)
{
	struct pr_lines it;
	struct pr_line l;
	struct pr_tok f[16];
	unsigned score = 0;
	size_t n;

	pr_lines_init(&it, in);
	while (pr_lines_next_text(&it, &l) && score < PR_DETECT_CERTAIN) {
		if (pr_has(l.s, l.e, "Performance counter stats for") ||
		    pr_has(l.s, l.e, "seconds time elapsed") ||
		    pr_has(l.s, l.e, "<not supported>") ||
		    pr_has(l.s, l.e, "<not counted>") ||
		    csv_shape(f, (n = pr_fields(l.s, l.e, ',', f, 16))) ||
		    csv_unsupported(f, n) != NULL)
			score += PR_DETECT_LINE;
		else if (pr_starts(l.s, l.e, "Usage: perf stat"))
			score += PR_DETECT_HINT;
	}
	return score;
}

/* perf stat's own result is the elapsed time of the command; the
 * events and user and sys times are side figures. */
static int
result_perf(const struct pr_dataset *d, const struct pr_metric *m)
{
	(void)d;
	return strcmp(m->name, "elapsed") == 0;
}

const struct pr_bench_format pr_bench_perf = {
	.name = "perf",
	.description = "perf stat, human-readable and -x, CSV (-r too)",
	.detect = detect_perf,
	.parse = parse_perf,
	.is_result = result_perf,
};
