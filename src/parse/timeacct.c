/*
 * parse/timeacct.c - time accounting: what GNU time, the `time` of the
 * shells and dd print about a command.
 *
 * Recognised lines (each adds one value to each metric it carries, so a
 * log of several runs gives a sample per metric):
 * - GNU time, default format:
 *     "0.05user 2.74system 0:05.30elapsed 52%CPU (0avgtext+0avgdata
 *      2400maxresident)k" and "0inputs+0outputs (0major+123minor)
 *      pagefaults 0swaps";
 * - GNU time -v: "User time (seconds): 0.28", "Maximum resident set size
 *   (kbytes): 2784", "Exit status: 0", ...;
 * - POSIX (-p, `time -p`): "real 5.30", "user 0.05", "sys 2.74";
 * - bash and ksh: "real\t0m5.300s", "user\t0m0.050s", "sys\t0m2.740s";
 * - zsh: "cmd  0.26s user 0.00s system 57% cpu 0.451 total";
 * - csh and tcsh: "7.258u 0.000s 0:07.69 94.2% 2+70k 2+0io 0pf+0w"
 *   (user, system, elapsed, CPU, average text+data KiB, block input
 *   +output operations, page faults, swaps), found anywhere in a line so
 *   that a pasted one ("+ *\t7.258u ...") is read too;
 * - dd: "104857600 bytes (105 MB, 100 MiB) copied, 0.0123 s, 8.5 GB/s"
 *   (GNU; the rate's units are SI, powers of 1000) and "104857600 bytes
 *   transferred in 0.0123 secs (8493855040 bytes/sec)" (BSD).
 * A timed command that exited with a non-zero status ("Command exited
 * with non-zero status 3", followed by the figures as usual; -v's "Exit
 * status: 3") is reported with its figures, and then every record of the
 * input (GNU time's first line, -p's "real", -v's "Exit status") gives an
 * "exit_status" value, 0 for those without the line, so that `run` can
 * keep a failed run with its measurements.  A command killed by a signal
 * ("Command terminated by signal 9") makes the input an error: it did not
 * run to its end.  A CPU share GNU
 * time could not compute ("?%CPU") and a rate dd could not ("Infinity
 * B/s") are reported absent.
 */
#include <stdio.h>
#include <string.h>

#include "parse/bench.h"
#include "core/banned.h"

struct tctx {
	const struct pr_input *in;
	const struct pr_line *l;
	struct pr_dataset *out;
	struct pr_error *err;
	int statuses; /* the input has a non-zero exit status: report them */
	long status;  /* of the record being read, from "Command exited" */
};

/* The exit status of the record just read (see the file's head). */
static enum pr_status
add_status(struct tctx *c)
{
	long st = c->status;

	c->status = 0;
	if (!c->statuses)
		return PR_OK;
	return pr_bench_add(c->out, "exit_status", "", PR_BETTER_UNKNOWN,
	    (double)st, c->err);
}

/* A whole exit status [s, e): 0 to 255. */
static int
status_of(const char *s, const char *e, long *out)
{
	long v = 0;

	if (s == e || e - s > 3)
		return -1;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
	}
	if (v > 255)
		return -1;
	*out = v;
	return 0;
}

#define EXITED "Command exited with non-zero status"

/* Whether [s, e) is "<decimal><word>"; *ne is then where the number ends. */
static int
numword(const char *s, const char *e, const char *word, const char **ne)
{
	size_t n = strlen(word);

	if ((size_t)(e - s) <= n || memcmp(e - n, word, n) != 0 ||
	    !pr_is_decimal(s, e - n))
		return 0;
	*ne = e - n;
	return 1;
}

static int
tnumword(const struct pr_tok *t, const char *word)
{
	const char *ne;

	return numword(t->s, t->s + t->n, word, &ne);
}

static enum pr_status
addv(struct tctx *c, const char *name, const char *unit, enum pr_better b,
    const char *s, const char *e)
{
	double v;
	enum pr_status st;

	if ((st = pr_bench_num(c->in, c->l, s, e, 0, 0, NULL, &v, c->err)) !=
	    PR_OK)
		return st;
	return pr_bench_add(c->out, name, unit, b, v, c->err);
}

/* Adds "<number><word>" [s, e) as the metric name. */
static enum pr_status
addnw(struct tctx *c, const char *s, const char *e, const char *word,
    const char *name, const char *unit, enum pr_better b)
{
	const char *ne;

	if (!numword(s, e, word, &ne))
		return pr_bench_fail(c->in, c->l, s, c->err,
		    "expected '<number>%s', got '%.*s'", word,
		    (int)(e - s > 40 ? 40 : e - s), s);
	return addv(c, name, unit, b, s, ne);
}

static enum pr_status
addclock(struct tctx *c, const char *s, const char *e, int bash)
{
	double v;
	enum pr_status st;

	if ((st = pr_bench_clock(c->in, c->l, s, e, bash, &v, c->err)) != PR_OK)
		return st;
	return pr_bench_add(c->out, "elapsed", "s", PR_BETTER_LOWER, v, c->err);
}

/* "52%" (or "52%CPU" with suffix "CPU"); "?%" gives an absent value. */
static enum pr_status
addcpu(struct tctx *c, const struct pr_tok *t, const char *suffix)
{
	size_t n = strlen(suffix) + 1;

	if (t->n < n + 1 || t->s[t->n - n] != '%')
		return pr_bench_fail(c->in, c->l, t->s, c->err,
		    "expected a CPU percentage, got '%.*s'", (int)t->n, t->s);
	if (t->n == n + 1 && t->s[0] == '?')
		return pr_bench_absent(c->out, "cpu", "%", PR_BETTER_UNKNOWN,
		    c->err);
	return addv(c, "cpu", "%", PR_BETTER_UNKNOWN, t->s, t->s + t->n - n);
}

/* Splits token t at '+' into exactly two parts a and b. */
static int
plus2(const struct pr_tok *t, struct pr_tok *a, struct pr_tok *b)
{
	const char *p = memchr(t->s, '+', t->n);

	if (p == NULL || memchr(p + 1, '+', (size_t)(t->s + t->n - p - 1)))
		return -1;
	a->s = t->s;
	a->n = (size_t)(p - t->s);
	b->s = p + 1;
	b->n = (size_t)(t->s + t->n - p - 1);
	return 0;
}

/*
 * Whether GNU time's first line starts at token i: "<x>user" followed by
 * one of its other words ("<x>system", "<x>elapsed", "<x>%CPU").  The
 * values are not looked at here, so that a damaged line ("nanuser",
 * "2.74sys#@!tem") is recognised and then refused by gnu_line1 instead
 * of skipped with its figures.
 */
static int
gnu1_at(const struct pr_tok *t, size_t n, size_t i)
{
	if (t[i].n <= 4 || !pr_tok_suffix(&t[i], "user") ||
	    !pr_valueish(t[i].s, t[i].s + t[i].n - 4))
		return 0;
	return (i + 1 < n &&
		   (pr_tok_suffix(&t[i + 1], "system") ||
		       pr_tok_suffix(&t[i + 1], "elapsed"))) ||
	    (i + 2 < n &&
		(pr_tok_suffix(&t[i + 2], "elapsed") ||
		    pr_tok_suffix(&t[i + 2], "%CPU"))) ||
	    (i + 3 < n && pr_tok_suffix(&t[i + 3], "%CPU"));
}

/* GNU time's first line, from token i ("0.05user") on. */
static enum pr_status
gnu_line1(struct tctx *c, const struct pr_tok *t, size_t n, size_t i)
{
	struct pr_tok a, b;
	enum pr_status st;

	if (n < i + 6)
		return pr_bench_fail(c->in, c->l, t[i].s, c->err,
		    "GNU time line cut short (%zu of its 6 fields)", n - i);
	if (!pr_tok_suffix(&t[i + 2], "elapsed"))
		return pr_bench_fail(c->in, c->l, t[i + 2].s, c->err,
		    "expected '<time>elapsed', got '%.*s'",
		    (int)(t[i + 2].n > 40 ? 40 : t[i + 2].n), t[i + 2].s);
	if (!pr_tok_suffix(&t[i + 3], "%CPU") ||
	    !pr_tok_prefix(&t[i + 4], "(") || plus2(&t[i + 4], &a, &b) ||
	    !pr_tok_suffix(&t[i + 5], "maxresident)k"))
		return pr_bench_fail(c->in, c->l, t[i + 3].s, c->err,
		    "expected '<n>%%CPU (<n>avgtext+<n>avgdata "
		    "<n>maxresident)k', got '%.*s'",
		    (int)(c->l->e - t[i + 3].s > 60 ? 60
						    : c->l->e - t[i + 3].s),
		    t[i + 3].s);
	if ((st = addnw(c, t[i].s, t[i].s + t[i].n, "user", "user", "s",
		 PR_BETTER_LOWER)) != PR_OK ||
	    (st = addnw(c, t[i + 1].s, t[i + 1].s + t[i + 1].n, "system", "sys",
		 "s", PR_BETTER_LOWER)) != PR_OK ||
	    (st = addclock(c, t[i + 2].s, t[i + 2].s + t[i + 2].n - 7, 0)) !=
		PR_OK ||
	    (st = addcpu(c, &t[i + 3], "CPU")) != PR_OK ||
	    (st = addnw(c, a.s + 1, a.s + a.n, "avgtext", "avgtext", "KiB",
		 PR_BETTER_LOWER)) != PR_OK ||
	    (st = addnw(c, b.s, b.s + b.n, "avgdata", "avgdata", "KiB",
		 PR_BETTER_LOWER)) != PR_OK)
		return st;
	if ((st = addnw(c, t[i + 5].s, t[i + 5].s + t[i + 5].n - 2,
		 "maxresident", "maxrss", "KiB", PR_BETTER_LOWER)) != PR_OK)
		return st;
	return add_status(c);
}

/* GNU time's second line: "0inputs+0outputs (0major+85minor)pagefaults
 * 0swaps". */
static enum pr_status
gnu_line2(struct tctx *c, const struct pr_tok *t, size_t n)
{
	struct pr_tok a, b, f, m;
	enum pr_status st;

	if (n != 3 || plus2(&t[0], &a, &b) || !pr_tok_prefix(&t[1], "(") ||
	    !pr_tok_suffix(&t[1], ")pagefaults") || plus2(&t[1], &f, &m))
		return pr_bench_fail(c->in, c->l, t[0].s, c->err,
		    "GNU time line cut short or malformed");
	if ((st = addnw(c, a.s, a.s + a.n, "inputs", "fs_inputs", "",
		 PR_BETTER_LOWER)) != PR_OK ||
	    (st = addnw(c, b.s, b.s + b.n, "outputs", "fs_outputs", "",
		 PR_BETTER_LOWER)) != PR_OK ||
	    (st = addnw(c, f.s + 1, f.s + f.n, "major", "major_faults", "",
		 PR_BETTER_LOWER)) != PR_OK ||
	    (st = addnw(c, m.s, m.s + m.n - 11, "minor", "minor_faults", "",
		 PR_BETTER_LOWER)) != PR_OK)
		return st;
	return addnw(c, t[2].s, t[2].s + t[2].n, "swaps", "swaps", "",
	    PR_BETTER_LOWER);
}

/* The keys of GNU time -v and their metrics. */
static const struct {
	const char *key;
	const char *name; /* NULL: not a measurement */
	const char *unit;
	enum pr_better better;
} vkeys[] = {
	{ "User time (seconds)", "user", "s", PR_BETTER_LOWER },
	{ "System time (seconds)", "sys", "s", PR_BETTER_LOWER },
	{ "Percent of CPU this job got", "cpu", "%", PR_BETTER_UNKNOWN },
	{ "Elapsed (wall clock) time (h:mm:ss or m:ss)", "elapsed", "s",
	    PR_BETTER_LOWER },
	{ "Average shared text size (kbytes)", "avgtext", "KiB",
	    PR_BETTER_LOWER },
	{ "Average unshared data size (kbytes)", "avgdata", "KiB",
	    PR_BETTER_LOWER },
	{ "Average stack size (kbytes)", "avgstack", "KiB", PR_BETTER_LOWER },
	{ "Average total size (kbytes)", "avgtotal", "KiB", PR_BETTER_LOWER },
	{ "Maximum resident set size (kbytes)", "maxrss", "KiB",
	    PR_BETTER_LOWER },
	{ "Average resident set size (kbytes)", "avgrss", "KiB",
	    PR_BETTER_LOWER },
	{ "Major (requiring I/O) page faults", "major_faults", "",
	    PR_BETTER_LOWER },
	{ "Minor (reclaiming a frame) page faults", "minor_faults", "",
	    PR_BETTER_LOWER },
	{ "Voluntary context switches", "voluntary_cs", "", PR_BETTER_LOWER },
	{ "Involuntary context switches", "involuntary_cs", "",
	    PR_BETTER_LOWER },
	{ "Swaps", "swaps", "", PR_BETTER_LOWER },
	{ "File system inputs", "fs_inputs", "", PR_BETTER_LOWER },
	{ "File system outputs", "fs_outputs", "", PR_BETTER_LOWER },
	{ "Socket messages sent", "socket_sent", "", PR_BETTER_UNKNOWN },
	{ "Socket messages received", "socket_received", "",
	    PR_BETTER_UNKNOWN },
	{ "Signals delivered", "signals", "", PR_BETTER_UNKNOWN },
	{ "Page size (bytes)", NULL, NULL, PR_BETTER_UNKNOWN },
	{ "Command being timed", NULL, NULL, PR_BETTER_UNKNOWN },
};

/* A GNU time -v line: 1 if it was one, 0 if not; err set on failure. */
static int
gnu_verbose(struct tctx *c, enum pr_status *st)
{
	const char *s = c->l->s, *e = c->l->e, *colon, *v;
	size_t i, n;
	struct pr_tok t;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	/* The key is known, and may hold colons: "(h:mm:ss or m:ss)". */
	colon = NULL;
	for (i = 0; i < sizeof(vkeys) / sizeof(vkeys[0]) && colon == NULL; i++)
		if ((n = strlen(vkeys[i].key)) < (size_t)(e - s) &&
		    memcmp(s, vkeys[i].key, n) == 0 && s[n] == ':')
			colon = s + n;
	if (colon == NULL && e - s > 12 && memcmp(s, "Exit status:", 12) == 0)
		colon = s + 11;
	if (colon == NULL)
		return 0;
	n = (size_t)(colon - s);
	for (v = colon + 1; v < e && (*v == ' ' || *v == '\t'); v++)
		;
	if (n == 11 && memcmp(s, "Exit status", 11) == 0) {
		while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if ((*st = pr_bench_uncut(c->in, c->l, v, c->err)) != PR_OK)
			return 1;
		if (status_of(v, e, &c->status) != 0)
			*st = pr_bench_fail(c->in, c->l, v, c->err,
			    "expected an exit status (0 to 255), got '%.*s'",
			    (int)(e - v > 20 ? 20 : e - v), v);
		else
			*st = add_status(c);
		return 1;
	}
	for (i = 0; i < sizeof(vkeys) / sizeof(vkeys[0]); i++) {
		if (strlen(vkeys[i].key) != n || memcmp(vkeys[i].key, s, n))
			continue;
		if (vkeys[i].name == NULL)
			return 1;
		while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (strcmp(vkeys[i].name, "elapsed") == 0)
			*st = addclock(c, v, e, 0);
		else if (strcmp(vkeys[i].name, "cpu") == 0) {
			t.s = v;
			t.n = (size_t)(e - v);
			*st = addcpu(c, &t, "");
		} else
			*st = addv(c, vkeys[i].name, vkeys[i].unit,
			    vkeys[i].better, v, e);
		return 1;
	}
	return 0;
}

/* csh/tcsh from token i ("7.258u") on. */
static enum pr_status
csh_line(struct tctx *c, const struct pr_tok *t, size_t n, size_t i)
{
	struct pr_tok a, b;
	enum pr_status st;

	if ((st = addnw(c, t[i].s, t[i].s + t[i].n, "u", "user", "s",
		 PR_BETTER_LOWER)) != PR_OK ||
	    (st = addnw(c, t[i + 1].s, t[i + 1].s + t[i + 1].n, "s", "sys", "s",
		 PR_BETTER_LOWER)) != PR_OK ||
	    (st = addclock(c, t[i + 2].s, t[i + 2].s + t[i + 2].n, 0)) !=
		PR_OK ||
	    (st = addcpu(c, &t[i + 3], "")) != PR_OK)
		return st;
	/* The rest ("2+70k 2+0io 0pf+0w") is optional in csh's format. */
	if (n > i + 4 && pr_tok_suffix(&t[i + 4], "k") &&
	    plus2(&t[i + 4], &a, &b) == 0 &&
	    ((st = addv(c, "avgtext", "KiB", PR_BETTER_LOWER, a.s,
		  a.s + a.n)) != PR_OK ||
		(st = addnw(c, b.s, b.s + b.n, "k", "avgdata", "KiB",
		     PR_BETTER_LOWER)) != PR_OK))
		return st;
	if (n > i + 5 && pr_tok_suffix(&t[i + 5], "io") &&
	    plus2(&t[i + 5], &a, &b) == 0 &&
	    ((st = addv(c, "fs_inputs", "", PR_BETTER_LOWER, a.s, a.s + a.n)) !=
		    PR_OK ||
		(st = addnw(c, b.s, b.s + b.n, "io", "fs_outputs", "",
		     PR_BETTER_LOWER)) != PR_OK))
		return st;
	if (n > i + 6 && pr_tok_suffix(&t[i + 6], "w") &&
	    plus2(&t[i + 6], &a, &b) == 0 &&
	    ((st = addnw(c, a.s, a.s + a.n, "pf", "major_faults", "",
		  PR_BETTER_LOWER)) != PR_OK ||
		(st = addnw(c, b.s, b.s + b.n, "w", "swaps", "",
		     PR_BETTER_LOWER)) != PR_OK))
		return st;
	return PR_OK;
}

/* Whether t[i..] starts csh's "7.258u 0.000s 0:07.69 94.2%". */
static int
csh_at(const struct pr_tok *t, size_t n, size_t i)
{
	const char *ne;

	return n >= i + 4 && tnumword(&t[i], "u") && tnumword(&t[i + 1], "s") &&
	    t[i + 2].n >= 4 && memchr(t[i + 2].s, ':', t[i + 2].n) != NULL &&
	    (numword(t[i + 3].s, t[i + 3].s + t[i + 3].n, "%", &ne) ||
		pr_tok_eq(&t[i + 3], "?%"));
}

/* An SI multiplier's power of ten for dd's rate unit; -1 if unknown. */
static int
si_pow(const struct pr_tok *u)
{
	static const char prefixes[] = "kMGTPEZY";
	const char *p;

	if (pr_tok_eq(u, "B/s"))
		return 0;
	if (u->n == 4 && memcmp(u->s + 1, "B/s", 3) == 0 &&
	    (p = strchr(prefixes, u->s[0])) != NULL)
		return 3 * (int)(p - prefixes + 1);
	return -1;
}

/* dd's summary, GNU or BSD; t[0] is the byte count. */
static enum pr_status
dd_line(struct tctx *c, const struct pr_tok *t, size_t n)
{
	const struct pr_tok *secs, *rate = NULL, *unit = NULL;
	struct pr_tok r;
	enum pr_status st;
	double v;
	int p10 = 0;

	if (pr_tok_eq(&t[2], "transferred")) {
		/* "N bytes transferred in T secs (R bytes/sec)" */
		if (n != 8 || !pr_tok_eq(&t[3], "in") ||
		    !pr_tok_eq(&t[5], "secs") || t[6].n < 2 ||
		    t[6].s[0] != '(' || !pr_tok_eq(&t[7], "bytes/sec)"))
			return pr_bench_fail(c->in, c->l, t[0].s, c->err,
			    "dd summary line cut short or malformed");
		secs = &t[4];
		r.s = t[6].s + 1;
		r.n = t[6].n - 1;
		rate = &r;
	} else {
		/* "N bytes (105 MB, 100 MiB) copied, T s, R U/s" */
		size_t i;

		for (i = 2; i < n && !pr_tok_eq(&t[i], "copied,"); i++)
			;
		if (i + 5 != n || !pr_tok_eq(&t[i + 2], "s,"))
			return pr_bench_fail(c->in, c->l, t[0].s, c->err,
			    "dd summary line cut short or malformed");
		secs = &t[i + 1];
		rate = &t[i + 3];
		unit = &t[i + 4];
		if ((p10 = si_pow(unit)) < 0)
			return pr_bench_fail(c->in, c->l, unit->s, c->err,
			    "unknown dd rate unit '%.*s'", (int)unit->n,
			    unit->s);
	}
	if ((st = addv(c, "dd_bytes", "B", PR_BETTER_UNKNOWN, t[0].s,
		 t[0].s + t[0].n)) != PR_OK ||
	    (st = addv(c, "dd_seconds", "s", PR_BETTER_LOWER, secs->s,
		 secs->s + secs->n)) != PR_OK)
		return st;
	if (pr_tok_eq(rate, "Infinity") || pr_tok_eq(rate, "inf"))
		return pr_bench_absent(c->out, "dd_rate", "B/s",
		    PR_BETTER_HIGHER, c->err);
	if ((st = pr_bench_tnum(c->in, c->l, rate, p10, "as dd's rate", &v,
		 c->err)) != PR_OK)
		return st;
	return pr_bench_add(c->out, "dd_rate", "B/s", PR_BETTER_HIGHER, v,
	    c->err);
}

static int
is_dd(const struct pr_tok *t, size_t n)
{
	return n >= 4 && pr_is_decimal(t[0].s, t[0].s + t[0].n) &&
	    (pr_tok_eq(&t[1], "bytes") || pr_tok_eq(&t[1], "byte")) &&
	    (pr_tok_eq(&t[2], "transferred") || pr_tok_eq(&t[2], "copied,") ||
		pr_tok_prefix(&t[2], "("));
}

/* zsh: "... 0.26s user 0.00s system 57% cpu 0.451 total". */
static int
zsh_at(const struct pr_tok *t, size_t n)
{
	return n >= 8 && pr_tok_eq(&t[n - 1], "total") &&
	    pr_tok_eq(&t[n - 3], "cpu") && pr_tok_eq(&t[n - 5], "system") &&
	    pr_tok_eq(&t[n - 7], "user");
}

static enum pr_status
zsh_line(struct tctx *c, const struct pr_tok *t, size_t n)
{
	enum pr_status st;

	if ((st = addnw(c, t[n - 8].s, t[n - 8].s + t[n - 8].n, "s", "user",
		 "s", PR_BETTER_LOWER)) != PR_OK ||
	    (st = addnw(c, t[n - 6].s, t[n - 6].s + t[n - 6].n, "s", "sys", "s",
		 PR_BETTER_LOWER)) != PR_OK ||
	    (st = addcpu(c, &t[n - 4], "")) != PR_OK)
		return st;
	return addclock(c, t[n - 2].s, t[n - 2].s + t[n - 2].n, 0);
}

/* POSIX and bash: "real 5.30" / "real\t0m5.300s". */
static int
posix_at(const struct pr_tok *t, size_t n)
{
	return n == 2 &&
	    (pr_tok_eq(&t[0], "real") || pr_tok_eq(&t[0], "user") ||
		pr_tok_eq(&t[0], "sys")) &&
	    pr_valueish(t[1].s, t[1].s + t[1].n);
}

/*
 * "real 5.30" (POSIX, "%.2f": a fraction is always there) or bash's
 * "real\t0m5.300s" (a tab, minutes and seconds).  A tab with a bare
 * number ("sys\t0") or a number without its fraction is a damaged line,
 * not 0 s.
 */
static enum pr_status
posix_line(struct tctx *c, const struct pr_tok *t)
{
	int tab = memchr(t[0].s + t[0].n, '\t',
		      (size_t)(t[1].s - (t[0].s + t[0].n))) != NULL;
	int bash = t[1].n > 0 && t[1].s[t[1].n - 1] == 's';
	const char *dot = memchr(t[1].s, '.', t[1].n);
	double v;
	enum pr_status st;

	if ((st = pr_bench_uncut(c->in, c->l, t[1].s, c->err)) != PR_OK)
		return st;
	if (tab && !bash)
		return pr_bench_fail(c->in, c->l, t[1].s, c->err,
		    "expected a time like '0m5.300s' after '%.*s' and a tab, "
		    "got '%.*s'",
		    (int)t[0].n, t[0].s, (int)(t[1].n > 40 ? 40 : t[1].n),
		    t[1].s);
	if (!bash && (dot == NULL || dot + 1 == t[1].s + t[1].n))
		return pr_bench_fail(c->in, c->l, t[1].s, c->err,
		    "expected seconds with a fraction ('5.30') after '%.*s', "
		    "got '%.*s'",
		    (int)t[0].n, t[0].s, (int)(t[1].n > 40 ? 40 : t[1].n),
		    t[1].s);
	if ((st = pr_bench_clock(c->in, c->l, t[1].s, t[1].s + t[1].n, bash, &v,
		 c->err)) != PR_OK)
		return st;
	if (t[0].s[0] == 'r' && (st = add_status(c)) != PR_OK)
		return st;
	return pr_bench_add(c->out,
	    t[0].s[0] == 'r'       ? "elapsed"
		: t[0].s[0] == 'u' ? "user"
				   : "sys",
	    "s", PR_BETTER_LOWER, v, c->err);
}

/*
 * What a line is: 0 none, else 1.  On a line of the format, *st is the
 * result of reading it (when c->out is NULL, the line is only
 * classified).
 */
static int
one_line(struct tctx *c, enum pr_status *st)
{
	struct pr_tok t[PR_TOK_MAX];
	const struct pr_line *l = c->l;
	const char *p;
	size_t n, i;

	*st = PR_OK;
	n = pr_tokens(l->s, l->e, t, PR_TOK_MAX);
	if (n == 0 || n > PR_TOK_MAX)
		return 0;
	if ((p = pr_find(l->s, l->e, EXITED)) != NULL) {
		if (c->out != NULL &&
		    status_of(p + strlen(EXITED) + 1, l->e, &c->status) != 0)
			*st = pr_bench_fail(c->in, l, p, c->err,
			    "expected '%s N', N from 1 to 255, got '%.*s'",
			    EXITED, (int)(l->e - p > 80 ? 80 : l->e - p), p);
		return 1;
	}
	if ((p = pr_find(l->s, l->e, "Command terminated by signal")) != NULL) {
		if (c->out != NULL)
			*st = pr_bench_fail(c->in, l, p, c->err,
			    "the timed command failed: %.*s",
			    (int)(l->e - p > 80 ? 80 : l->e - p), p);
		return 1;
	}
	for (i = 0; i + 1 < n; i++)
		if (gnu1_at(t, n, i)) {
			if (c->out != NULL)
				*st = gnu_line1(c, t, n, i);
			return 1;
		}
	if (pr_tok_suffix(&t[0], "outputs") && pr_has(l->s, l->e, "inputs+")) {
		if (c->out != NULL)
			*st = gnu_line2(c, t, n);
		return 1;
	}
	for (i = 0; i + 3 < n; i++)
		if (csh_at(t, n, i)) {
			if (c->out != NULL)
				*st = csh_line(c, t, n, i);
			return 1;
		}
	if (is_dd(t, n)) {
		if (c->out != NULL)
			*st = dd_line(c, t, n);
		return 1;
	}
	if (zsh_at(t, n)) {
		if (c->out != NULL)
			*st = zsh_line(c, t, n);
		return 1;
	}
	if (posix_at(t, n)) {
		if (c->out != NULL)
			*st = posix_line(c, t);
		return 1;
	}
	if (c->out == NULL) {
		/* Classification only: is it a GNU -v line? */
		p = l->s;
		while (p < l->e && (*p == ' ' || *p == '\t'))
			p++;
		for (i = 0; i < sizeof(vkeys) / sizeof(vkeys[0]); i++)
			if (pr_starts(p, l->e, vkeys[i].key) &&
			    pr_has(p, l->e, ": "))
				return 1;
		return 0;
	}
	return gnu_verbose(c, st);
}

/* Whether a -v "Exit status:" line of the input is not 0. */
static int
nonzero_v_status(const struct pr_input *in)
{
	const char *p = in->data, *e = in->data + in->len;

	while ((p = pr_find(p, e, "Exit status:")) != NULL) {
		for (p += 12; p < e && (*p == ' ' || *p == '\t'); p++)
			;
		if (p < e && *p != '0')
			return 1;
	}
	return 0;
}

static enum pr_status
parse_time(const struct pr_input *in, struct pr_dataset *out,
    struct pr_error *err)
{
	struct pr_lines it;
	struct pr_line l;
	struct tctx c;
	enum pr_status st;

	c.in = in;
	c.out = out;
	c.err = err;
	c.l = &l;
	c.status = 0;
	c.statuses = pr_find(in->data, in->data + in->len, EXITED) != NULL ||
	    nonzero_v_status(in);
	pr_lines_init(&it, in);
	while (pr_lines_next(&it, &l))
		if (one_line(&c, &st) && st != PR_OK)
			return st;
	return out->n == 0 ? pr_bench_none(in, NULL, "time or dd", err) : PR_OK;
}

static unsigned
detect_time(const struct pr_input *in)
{
	struct pr_lines it;
	struct pr_line l;
	struct tctx c;
	enum pr_status st;
	unsigned score = 0;

	c.in = in;
	c.out = NULL;
	c.err = NULL;
	c.l = &l;
	c.statuses = 0;
	c.status = 0;
	pr_lines_init(&it, in);
	while (pr_lines_next_text(&it, &l) && score < PR_DETECT_CERTAIN)
		if (one_line(&c, &st))
			score += PR_DETECT_LINE;
	return score;
}

/*
 * What time and dd measure of their own: the elapsed time of the timed
 * command, and dd's transfer rate.  user, sys, the CPU share (whose
 * direction is not known), memory and the counts are side figures; so
 * are dd's bytes and seconds (its rate is the same quantity).
 */
static int
result_time(const struct pr_dataset *d, const struct pr_metric *m)
{
	(void)d;
	return strcmp(m->name, "elapsed") == 0 ||
	    strcmp(m->name, "dd_rate") == 0;
}

const struct pr_bench_format pr_bench_time = {
	.name = "time",
	.description =
	    "GNU time (default, -v, -p), bash/ksh/zsh/csh/tcsh time, dd",
	.detect = detect_time,
	.parse = parse_time,
	.is_result = result_time,
};
