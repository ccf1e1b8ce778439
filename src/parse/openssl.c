/*
 * parse/openssl.c - the output of `openssl speed`, OpenSSL 1.0.x to 3.x.
 *
 * What it reads, line by line (prose around it, such as a bug report's,
 * is skipped):
 * - the throughput table: "type  16 bytes  64 bytes ..." and rows
 *   "des-ede3-cbc  586.20k  2357.87k ...".  speed.c prints a value above
 *   10000 bytes/s as "%.2fk" in units of 1000 bytes/s and a smaller one
 *   as "%.2f" in bytes/s; both are reported in bytes/s, scaled exactly
 *   (pr_bench_num).  0.00 is what speed.c leaves for a test it did not
 *   run, and is reported absent.  A row with fewer values than the header
 *   has sizes, or a header without rows, is a table cut short: an error.
 * - "Doing X for Ns on L size blocks: C X's in Ts": the count C ("ops")
 *   and C / T ("ops_per_s") of X on L-byte blocks.
 * - -mr: "+H:16:64:..." (the sizes), "+F:k:X:v1:v2:..." (bytes/s, not
 *   scaled), "+DT:X:N:L" followed by "+R:C:X:T" (as the Doing lines), and
 *   "+F2".."+F8" (rsa, dsa, ecdsa, ecdh, eddsa, sm2, ffdh).  OpenSSL 1.0
 *   and 1.1.0 print seconds per operation in +F2..+F5, later versions
 *   operations per second; which one a file holds is decided by the
 *   matching "+R<n>:count:bits:...:time" line (its count / time is the
 *   rate), and without one the line is rejected rather than guessed.
 * - the sign/verify and op tables: a header of K operation names and K
 *   "<name>/s" columns, rows of a label, K times ("0.000259s") and K
 *   rates; the rates are reported (ops/s).  The label names the
 *   algorithm as the openssl speed argument does: "rsa 2048 bits" ->
 *   "rsa2048", "256 bits ecdsa (nistp256)" -> "ecdsap256", "253 bits
 *   EdDSA (Ed25519)" -> "ed25519", "2048 bits ffdh" -> "ffdh2048".
 * - -multi: the children's interleaved +DT/+R lines cannot be paired, so
 *   when "Forked child" or "Got: +" lines are present only the summed
 *   human-readable tables are read.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "parse/bench.h"
#include "core/banned.h"

#define MAX_SIZES 16
#define MAX_OPS 8
#define MAX_RATES 64

/* A rate seen in a "+R<n>:count:bits:...:time" line. */
struct rrate {
	int n;
	long bits;
	double rate;
};

struct ossl {
	const struct pr_input *in;
	struct pr_dataset *out;
	int multi;
	/* -mr state */
	long sizes[MAX_SIZES];
	size_t nsizes;
	char dt_name[PR_PARSE_NAME_MAX];
	long dt_len;
	int have_dt;
	struct rrate rates[MAX_RATES];
	size_t nrates;
};

/* The ECC curves of speed.c, in its order (-mr names them by index). */
static const struct {
	const char *name;
	long bits;
} curves[] = {
	{ "secp160r1", 160 },
	{ "nistp192", 192 },
	{ "nistp224", 224 },
	{ "nistp256", 256 },
	{ "nistp384", 384 },
	{ "nistp521", 521 },
	{ "nistk163", 163 },
	{ "nistk233", 233 },
	{ "nistk283", 283 },
	{ "nistk409", 409 },
	{ "nistk571", 571 },
	{ "nistb163", 163 },
	{ "nistb233", 233 },
	{ "nistb283", 283 },
	{ "nistb409", 409 },
	{ "nistb571", 571 },
	{ "brainpoolP256r1", 256 },
	{ "brainpoolP256t1", 256 },
	{ "brainpoolP384r1", 384 },
	{ "brainpoolP384t1", 384 },
	{ "brainpoolP512r1", 512 },
	{ "brainpoolP512t1", 512 },
	{ "X25519", 253 },
	{ "X448", 448 },
};

/*
 * Appends [s, e) to dst (size PR_PARSE_NAME_MAX) lowercased, blanks
 * turned into '-'.  Returns -1 when it does not fit.
 */
static int
name_add(char *dst, const char *s, const char *e)
{
	size_t at = strlen(dst);
	char c;

	for (; s < e; s++) {
		if (at + 1 >= PR_PARSE_NAME_MAX)
			return -1;
		c = *s;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		else if (c == ' ' || c == '\t')
			c = '-';
		dst[at++] = c;
	}
	dst[at] = '\0';
	return 0;
}

static int
name_adds(char *dst, const char *s)
{
	return name_add(dst, s, s + strlen(s));
}

/* A curve name as the metric uses it: lowercased, "nist" dropped. */
static int
curve_add(char *dst, const char *s, const char *e)
{
	if (e - s > 4 && (memcmp(s, "nist", 4) == 0))
		s += 4;
	return name_add(dst, s, e);
}

static enum pr_status
add_absent_or(struct ossl *o, const char *name, const char *unit, double v,
    struct pr_error *err)
{
	if (v == 0)
		return pr_bench_absent(o->out, name, unit, PR_BETTER_HIGHER,
		    err);
	return pr_bench_add(o->out, name, unit, PR_BETTER_HIGHER, v, err);
}

static enum pr_status
add_sized(struct ossl *o, const char *alg, long size, const char *what,
    const char *unit, double v, struct pr_error *err)
{
	char name[PR_PARSE_NAME_MAX + 64];

	snprintf(name, sizeof(name), "%s/%ldB%s", alg, size, what);
	return add_absent_or(o, name, unit, v, err);
}

/* Whether t is a throughput table value: "586.20k" or "9999.99". */
static int
table_value(const struct pr_tok *t)
{
	size_t n = t->n;

	if (n > 0 && t->s[n - 1] == 'k')
		n--;
	return n > 0 && pr_is_decimal(t->s, t->s + n);
}

static int
long_of(const struct pr_tok *t, long *v)
{
	long x = 0;
	size_t i;

	if (t->n == 0 || t->n > 9)
		return -1;
	for (i = 0; i < t->n; i++) {
		if (t->s[i] < '0' || t->s[i] > '9')
			return -1;
		x = x * 10 + (t->s[i] - '0');
	}
	*v = x;
	return 0;
}

/* "type 16 bytes 64 bytes ...": the sizes, or 0 when not a header. */
static size_t
table_header(const struct pr_line *l, long *sizes)
{
	struct pr_tok t[2 * MAX_SIZES + 2];
	size_t n, i;

	n = pr_tokens(l->s, l->e, t, 2 * MAX_SIZES + 2);
	if (n < 3 || n % 2 == 0 || n > 2 * MAX_SIZES + 1 ||
	    !pr_tok_eq(&t[0], "type"))
		return 0;
	for (i = 1; i < n; i += 2)
		if (long_of(&t[i], &sizes[i / 2]) != 0 || sizes[i / 2] <= 0 ||
		    !pr_tok_eq(&t[i + 1], "bytes"))
			return 0;
	return n / 2;
}

/*
 * A pkey table header: K operation names and K "<name>/s" columns
 * ("sign verify sign/s verify/s", "op op/s").  Returns K, 0 if not one.
 */
static size_t
pkey_header(const struct pr_line *l, struct pr_tok *ops)
{
	struct pr_tok t[2 * MAX_OPS + 1];
	size_t n, k, i;

	n = pr_tokens(l->s, l->e, t, 2 * MAX_OPS + 1);
	if (n < 2 || n % 2 != 0 || n > 2 * MAX_OPS)
		return 0;
	k = n / 2;
	for (i = 0; i < n; i++) {
		if (t[i].n == 0 || (t[i].s[0] >= '0' && t[i].s[0] <= '9'))
			return 0;
		if ((i >= k) != (pr_tok_suffix(&t[i], "/s") && t[i].n > 2))
			return 0;
	}
	for (i = 0; i < k; i++)
		ops[i] = t[i];
	return k;
}

/* Whether t is a time of a pkey row: "0.000259s". */
static int
pkey_time(const struct pr_tok *t)
{
	return t->n > 1 && t->s[t->n - 1] == 's' &&
	    pr_is_decimal(t->s, t->s + t->n - 1);
}

/*
 * The algorithm of a pkey row's label (tokens t[0, n)), as the openssl
 * speed argument names it.  Returns -1 when it does not fit.
 */
static int
pkey_name(const struct pr_tok *t, size_t n, char *dst)
{
	const struct pr_tok *type = NULL, *curve = NULL, *bits = NULL;
	size_t i;
	int have_bits = 0, odd = 0;

	dst[0] = '\0';
	for (i = 0; i < n && !odd; i++) {
		if (pr_tok_eq(&t[i], "bits") || pr_tok_eq(&t[i], "bit"))
			have_bits = 1;
		else if (t[i].n > 2 && t[i].s[0] == '(' &&
		    t[i].s[t[i].n - 1] == ')')
			curve = &t[i];
		else if (t[i].s[0] >= '0' && t[i].s[0] <= '9')
			bits = &t[i];
		else if (type == NULL)
			type = &t[i];
		else
			odd = 1; /* two words: not "<type> <n> bits" */
	}
	if (odd || !have_bits || type == NULL ||
	    (curve == NULL && bits == NULL)) {
		/* A label without bits ("ML-KEM-512"): the label itself. */
		dst[0] = '\0';
		for (i = 0; i < n; i++)
			if ((i > 0 && name_adds(dst, "-") != 0) ||
			    name_add(dst, t[i].s, t[i].s + t[i].n) != 0)
				return -1;
		return 0;
	}
	if (name_add(dst, type->s, type->s + type->n) != 0)
		return -1;
	if (strcmp(dst, "sm2") == 0)
		return 0;
	if (curve != NULL) {
		if (strcmp(dst, "eddsa") == 0)
			dst[0] = '\0';
		return curve_add(dst, curve->s + 1, curve->s + curve->n - 1);
	}
	return name_add(dst, bits->s, bits->s + bits->n);
}

static enum pr_status
add_op(struct ossl *o, const char *alg, const struct pr_tok *op, double v,
    struct pr_error *err)
{
	char name[2 * PR_PARSE_NAME_MAX];

	snprintf(name, sizeof(name), "%s/%.*s", alg, (int)op->n, op->s);
	return add_absent_or(o, name, "ops/s", v, err);
}

/*
 * A table ends at a line that is not a row.  When that line is the last
 * of the input and has no line end, the output was cut in the middle of
 * a row: an error rather than a table with a row missing.
 */
static enum pr_status
table_end(struct ossl *o, const struct pr_line *l, size_t rows,
    struct pr_error *err)
{
	const char *end = o->in->data + o->in->len;

	if (rows > 0 && l->e == end && l->s < l->e)
		return pr_bench_fail(o->in, l, l->s, err,
		    "openssl table cut short (the output ends in a row)");
	return PR_OK;
}

static enum pr_status
no_rows(struct ossl *o, const struct pr_line *hl, size_t rows,
    struct pr_error *err)
{
	if (rows == 0)
		return pr_bench_fail(o->in, hl, hl->s, err,
		    "openssl table header without rows (output cut short?)");
	return PR_OK;
}

/*
 * Whether the first n bytes of token t are written as speed.c's printf
 * writes them, with exactly `decimals` digits after the point ("%.2f",
 * "%.1f"): a number is a whole token, and "3050831." or "1524" at the end
 * of a cut input is not one of openssl's.  what names it in the error.
 */
static enum pr_status
printed_as(struct ossl *o, const struct pr_line *l, const struct pr_tok *t,
    size_t n, int decimals, const char *what, struct pr_error *err)
{
	const char *dot = memchr(t->s, '.', n);

	if (dot != NULL && t->s + n - dot - 1 == decimals)
		return PR_OK;
	return pr_bench_fail(o->in, l, t->s, err,
	    "'%.*s' is not written as openssl writes %s (%d decimal%s): cut "
	    "short or damaged",
	    (int)(t->n > 40 ? 40 : t->n), t->s, what, decimals,
	    decimals == 1 ? "" : "s");
}

/* Reads the rows of a pkey table after its header line l. */
static enum pr_status
pkey_table(struct ossl *o, struct pr_lines *it, const struct pr_line *hl,
    const struct pr_tok *ops, size_t k, struct pr_error *err)
{
	struct pr_tok t[PR_TOK_MAX];
	struct pr_lines save;
	struct pr_line l;
	char alg[PR_PARSE_NAME_MAX];
	size_t n, i, r, tm, rows = 0;
	double v;
	enum pr_status st;

	for (;;) {
		save = *it;
		if (!pr_lines_next(it, &l))
			break;
		n = pr_tokens(l.s, l.e, t, PR_TOK_MAX);
		if (n > PR_TOK_MAX)
			n = 0;
		for (r = 0; r < n &&
		     pr_is_decimal(t[n - 1 - r].s,
			 t[n - 1 - r].s + t[n - 1 - r].n);
		     r++)
			;
		for (tm = 0; r + tm < n && pkey_time(&t[n - 1 - r - tm]); tm++)
			;
		if (r == 0 && tm == 0) {
			/* Not a row: the table ended.  Let the caller see
			 * the line (it may start the next table). */
			if ((st = table_end(o, &l, rows, err)) != PR_OK)
				return st;
			*it = save;
			break;
		}
		if (r != k || tm != k || r + tm == n)
			return pr_bench_fail(o->in, &l, l.s, err,
			    "openssl table row cut short or malformed: "
			    "expected a name, %zu times and %zu rates",
			    k, k);
		if (pkey_name(t, n - 2 * k, alg) != 0)
			return pr_bench_fail(o->in, &l, l.s, err,
			    "algorithm name too long");
		for (i = 0; i < k; i++) {
			st = pr_bench_tnum(o->in, &l, &t[n - k + i], 0,
			    "in an openssl rate column", &v, err);
			if (st == PR_OK)
				st = printed_as(o, &l, &t[n - k + i],
				    t[n - k + i].n, 1, "a rate", err);
			if (st != PR_OK)
				return st;
			if ((st = add_op(o, alg, &ops[i], v, err)) != PR_OK)
				return st;
		}
		rows++;
	}
	return no_rows(o, hl, rows, err);
}

/* Reads the rows of a throughput table after its header hl. */
static enum pr_status
sym_table(struct ossl *o, struct pr_lines *it, const struct pr_line *hl,
    const long *sizes, size_t ns, struct pr_error *err)
{
	struct pr_tok t[PR_TOK_MAX];
	struct pr_lines save;
	struct pr_line l;
	char alg[PR_PARSE_NAME_MAX], where[64];
	size_t n, i, rows = 0, nv;
	double v;
	enum pr_status st;

	for (;;) {
		save = *it;
		if (!pr_lines_next(it, &l))
			break;
		n = pr_tokens(l.s, l.e, t, PR_TOK_MAX);
		if (n == 0 || n > PR_TOK_MAX || !table_value(&t[n - 1])) {
			if ((st = table_end(o, &l, rows, err)) != PR_OK)
				return st;
			*it = save;
			break;
		}
		for (nv = 0; nv < n && table_value(&t[n - 1 - nv]); nv++)
			;
		if (nv < ns && n > nv + 1) {
			/* A bad value ("nan", "1e999k") rather than a row
			 * cut short: say what is wrong with it. */
			const struct pr_tok *bt = &t[n - 1 - nv];
			size_t bn = bt->n - (bt->s[bt->n - 1] == 'k');

			if (pr_valueish(bt->s, bt->s + bn) &&
			    (st = pr_bench_num(o->in, &l, bt->s, bt->s + bn, 0,
				 0, "in an openssl table", &v, err)) != PR_OK)
				return st;
		}
		if (nv < ns || n <= ns)
			return pr_bench_fail(o->in, &l, l.s, err,
			    "openssl table row cut short: %zu of %zu values",
			    nv < ns ? nv : n - 1, ns);
		alg[0] = '\0';
		for (i = 0; i < n - ns; i++)
			if ((i > 0 && name_adds(alg, "-") != 0) ||
			    name_add(alg, t[i].s, t[i].s + t[i].n) != 0)
				return pr_bench_fail(o->in, &l, l.s, err,
				    "algorithm name too long");
		for (i = 0; i < ns; i++) {
			const struct pr_tok *vt = &t[n - ns + i];
			int k = vt->s[vt->n - 1] == 'k';

			snprintf(where, sizeof(where),
			    "in the %ld bytes column", sizes[i]);
			st = pr_bench_num(o->in, &l, vt->s, vt->s + vt->n - k,
			    k ? 3 : 0, 0, where, &v, err);
			if (st == PR_OK)
				st = printed_as(o, &l, vt, vt->n - k, 2,
				    "a table value", err);
			if (st == PR_OK && !k && v > 10000)
				st = pr_bench_fail(o->in, &l, vt->s, err,
				    "'%.*s' %s cannot be openssl's: above "
				    "10000 it prints thousands with a 'k' "
				    "(cut short or damaged?)",
				    (int)vt->n, vt->s, where);
			if (st != PR_OK)
				return st;
			st = add_sized(o, alg, sizes[i], "", "B/s", v, err);
			if (st != PR_OK)
				return st;
		}
		rows++;
	}
	return no_rows(o, hl, rows, err);
}

/* Adds the ops and ops/s of count operations in secs seconds. */
static enum pr_status
add_count(struct ossl *o, const char *alg, long len, double count, double secs,
    struct pr_error *err)
{
	enum pr_status st;

	if ((st = add_sized(o, alg, len, "/ops", "ops", count, err)) != PR_OK)
		return st;
	return add_sized(o, alg, len, "/ops_per_s", "ops/s",
	    secs > 0 ? count / secs : 0, err);
}

/* "Doing X for Ns on L size blocks: C X's in Ts" */
static enum pr_status
doing_line(struct ossl *o, const struct pr_line *l, struct pr_error *err)
{
	const char *s = l->s, *e = l->e, *p, *q, *name_e, *blocks;
	struct pr_tok t[2];
	char alg[PR_PARSE_NAME_MAX];
	long len;
	double count, secs;
	enum pr_status st;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	s += strlen("Doing ");
	/* Public-key lines name no block size: their table has the rates. */
	if (pr_has(s, e, " bits ") || pr_has(s, e, " bit ") ||
	    pr_has(s, e, " times on "))
		return PR_OK;
	blocks = pr_find(s, e, " size blocks: ");
	name_e = pr_find(s, e, " for ");
	if (blocks == NULL || name_e == NULL || name_e > blocks)
		return pr_bench_fail(o->in, l, l->s, err,
		    "openssl 'Doing' line cut short");
	p = blocks;
	while (p > s && p[-1] != ' ')
		p--;
	if (pr_tokens(p, blocks, t, 1) != 1 || long_of(&t[0], &len) != 0 ||
	    len <= 0)
		return pr_bench_fail(o->in, l, p, err,
		    "expected a block size in an openssl 'Doing' line");
	if (name_e - s > 4 && memcmp(name_e - 4, " ops", 4) == 0)
		name_e -= 4; /* OpenSSL 3.2: "Doing AES-128-GCM ops for" */
	alg[0] = '\0';
	if (name_add(alg, s, name_e) != 0)
		return pr_bench_fail(o->in, l, s, err,
		    "algorithm name too long");
	p = blocks + strlen(" size blocks: ");
	q = p;
	while (q < e && *q != ' ')
		q++;
	if (q == p)
		return pr_bench_fail(o->in, l, l->s, err,
		    "openssl 'Doing' line cut short (no count)");
	if ((st = pr_bench_num(o->in, l, p, q, 0, 0,
		 "as the count of operations", &count, err)) != PR_OK)
		return st;
	p = NULL;
	for (q = e; q - 4 >= blocks; q--)
		if (memcmp(q - 4, " in ", 4) == 0) {
			p = q;
			break;
		}
	if (p == NULL || e - p < 2 || e[-1] != 's')
		return pr_bench_fail(o->in, l, l->s, err,
		    "openssl 'Doing' line cut short (no time)");
	if ((st = pr_bench_num(o->in, l, p, e - 1, 0, 0, "as the time", &secs,
		 err)) != PR_OK)
		return st;
	return add_count(o, alg, len, count, secs, err);
}

static enum pr_status
fnum(struct ossl *o, const struct pr_line *l, const struct pr_tok *f, double *v,
    struct pr_error *err)
{
	return pr_bench_num(o->in, l, f->s, f->s + f->n, 0, 0,
	    "in an openssl -mr line", v, err);
}

/* The rate of the latest "+R<n>" line of `bits` bits, or -1. */
static double
rate_of(const struct ossl *o, int n, long bits)
{
	size_t i;

	for (i = o->nrates; i-- > 0;)
		if (o->rates[i].n == n && o->rates[i].bits == bits)
			return o->rates[i].rate;
	return -1;
}

/* "+F2:k:bits[:name]:v0:v1" and the others: pkey results. */
static enum pr_status
mr_pkey(struct ossl *o, const struct pr_line *l, int kind,
    const struct pr_tok *f, size_t nf, struct pr_error *err)
{
	static const char *const kinds[] = { NULL, NULL, "rsa", "dsa", "ecdsa",
		"ecdh", "eddsa", "sm2", "ffdh" };
	static const int rnum[] = { 0, 0, 1, 3, 5, 7, 8, 10, 12 };
	static const struct pr_tok sign = { "sign", 4 },
				   verify = { "verify", 6 }, op = { "op", 2 };
	char alg[PR_PARSE_NAME_MAX];
	long k, bits;
	size_t at, nv;
	double v[2], r;
	int two = kind != 5 && kind != 8, secs;
	enum pr_status st;

	at = kind == 6 || kind == 7 ? 4 : 3; /* eddsa, sm2 add a name */
	if (nf != at + 2 || long_of(&f[1], &k) != 0 ||
	    long_of(&f[2], &bits) != 0)
		return pr_bench_fail(o->in, l, l->s, err,
		    "malformed or cut short openssl -mr line");
	if ((st = fnum(o, l, &f[at], &v[0], err)) != PR_OK ||
	    (st = fnum(o, l, &f[at + 1], &v[1], err)) != PR_OK)
		return st;
	nv = two ? 2 : 1;
	/* Rates or seconds?  The "+R" line of the same test says. */
	r = rate_of(o, rnum[kind], bits);
	if (r < 0)
		return pr_bench_fail(o->in, l, l->s, err,
		    "openssl -mr '+F%d' line without its '+R%d' line: "
		    "cannot tell rates (OpenSSL >= 1.1.1) from seconds per "
		    "operation (1.0)",
		    kind, rnum[kind]);
	secs = v[0] > 0 && fabs(v[0] - r) > fabs(1 / v[0] - r);
	if (secs)
		v[0] = 1 / v[0], v[1] = v[1] > 0 ? 1 / v[1] : 0;
	alg[0] = '\0';
	if (kind == 4 || kind == 5) {
		if (k < 0 || (size_t)k >= sizeof(curves) / sizeof(curves[0]) ||
		    curves[k].bits != bits)
			return pr_bench_fail(o->in, l, l->s, err,
			    "openssl -mr curve #%ld of %ld bits is not in "
			    "OpenSSL's usual curve table (a build without "
			    "some curves?); use the human-readable output",
			    k, bits);
		name_adds(alg, kinds[kind]);
		curve_add(alg, curves[k].name,
		    curves[k].name + strlen(curves[k].name));
	} else if (kind == 6) {
		name_add(alg, f[3].s, f[3].s + f[3].n);
	} else if (kind == 7) {
		name_adds(alg, "sm2");
	} else {
		snprintf(alg, sizeof(alg), "%s%ld", kinds[kind], bits);
	}
	if (nv == 1)
		return add_op(o, alg, &op, v[0], err);
	if ((st = add_op(o, alg, &sign, v[0], err)) != PR_OK)
		return st;
	return add_op(o, alg, &verify, v[1], err);
}

static enum pr_status
mr_line(struct ossl *o, const struct pr_line *l, struct pr_error *err)
{
	struct pr_tok f[MAX_SIZES + 4];
	char alg[PR_PARSE_NAME_MAX];
	const char *s = l->s;
	size_t nf, i;
	long n, bits;
	double count, secs, v;
	enum pr_status st;

	nf = pr_fields(s, l->e, ':', f, MAX_SIZES + 4);
	if (pr_tok_eq(&f[0], "+H")) {
		if (nf < 2 || nf > MAX_SIZES + 1)
			return pr_bench_fail(o->in, l, s, err,
			    "malformed openssl -mr '+H' line");
		for (i = 1; i < nf; i++)
			if (long_of(&f[i], &o->sizes[i - 1]) != 0 ||
			    o->sizes[i - 1] <= 0)
				return pr_bench_fail(o->in, l, f[i].s, err,
				    "expected a block size in an openssl -mr "
				    "'+H' line");
		o->nsizes = nf - 1;
		return PR_OK;
	}
	if (pr_tok_eq(&f[0], "+F")) {
		if (o->nsizes == 0)
			return pr_bench_fail(o->in, l, s, err,
			    "openssl -mr '+F' line without a '+H' line "
			    "before it");
		if (nf != o->nsizes + 3)
			return pr_bench_fail(o->in, l, s, err,
			    "openssl -mr '+F' line cut short: %zu of %zu "
			    "values",
			    nf < 3 ? 0 : nf - 3, o->nsizes);
		alg[0] = '\0';
		if (name_add(alg, f[2].s, f[2].s + f[2].n) != 0)
			return pr_bench_fail(o->in, l, s, err,
			    "algorithm name too long");
		for (i = 0; i < o->nsizes; i++) {
			if ((st = fnum(o, l, &f[3 + i], &v, err)) != PR_OK)
				return st;
			if ((st = add_sized(o, alg, o->sizes[i], "", "B/s", v,
				 err)) != PR_OK)
				return st;
		}
		return PR_OK;
	}
	if (pr_tok_eq(&f[0], "+DT")) {
		if (nf != 4 || long_of(&f[3], &o->dt_len) != 0)
			return pr_bench_fail(o->in, l, s, err,
			    "malformed openssl -mr '+DT' line");
		o->dt_name[0] = '\0';
		if (name_add(o->dt_name, f[1].s, f[1].s + f[1].n) != 0)
			return pr_bench_fail(o->in, l, s, err,
			    "algorithm name too long");
		o->have_dt = 1;
		return PR_OK;
	}
	if (pr_tok_eq(&f[0], "+R")) {
		if (!o->have_dt)
			return pr_bench_fail(o->in, l, s, err,
			    "openssl -mr '+R' line without a '+DT' line "
			    "before it");
		if (nf != 4)
			return pr_bench_fail(o->in, l, s, err,
			    "malformed or cut short openssl -mr '+R' line");
		if ((st = fnum(o, l, &f[1], &count, err)) != PR_OK ||
		    (st = fnum(o, l, &f[3], &secs, err)) != PR_OK)
			return st;
		o->have_dt = 0;
		return add_count(o, o->dt_name, o->dt_len, count, secs, err);
	}
	if (f[0].n >= 3 && f[0].s[1] == 'R' &&
	    long_of(&(struct pr_tok){ f[0].s + 2, f[0].n - 2 }, &n) == 0) {
		/* "+R1:count:bits:time", "+R8:count:bits:name:time" */
		if (nf != 4 && nf != 5)
			return pr_bench_fail(o->in, l, s, err,
			    "malformed openssl -mr '+R%ld' line", n);
		if ((st = fnum(o, l, &f[1], &count, err)) != PR_OK ||
		    (st = fnum(o, l, &f[nf - 1], &secs, err)) != PR_OK)
			return st;
		if (long_of(&f[2], &bits) != 0)
			return pr_bench_fail(o->in, l, s, err,
			    "malformed openssl -mr '+R%ld' line", n);
		if (o->nrates == MAX_RATES) {
			memmove(o->rates, o->rates + 1,
			    (MAX_RATES - 1) * sizeof(o->rates[0]));
			o->nrates--;
		}
		o->rates[o->nrates].n = (int)n;
		o->rates[o->nrates].bits = bits;
		o->rates[o->nrates].rate = secs > 0 ? count / secs : 0;
		o->nrates++;
		return PR_OK;
	}
	if (f[0].n == 3 && f[0].s[1] == 'F' && f[0].s[2] >= '2' &&
	    f[0].s[2] <= '8')
		return mr_pkey(o, l, f[0].s[2] - '0', f, nf, err);
	return PR_OK; /* +DTP and lines of later versions */
}

/* "Got: +H:16:64:..." of -multi: the sizes of the headerless table. */
static enum pr_status
multi_sizes(struct ossl *o, const struct pr_line *l, struct pr_error *err)
{
	struct pr_tok f[MAX_SIZES + 2];
	const char *s = pr_find(l->s, l->e, "+H:"), *e;
	size_t nf, i;

	e = pr_find(s, l->e, " from ");
	if (e == NULL)
		e = l->e;
	nf = pr_fields(s, e, ':', f, MAX_SIZES + 2);
	if (nf < 2 || nf > MAX_SIZES + 1)
		return pr_bench_fail(o->in, l, s, err,
		    "malformed openssl -multi '+H' line");
	for (i = 1; i < nf; i++)
		if (long_of(&f[i], &o->sizes[i - 1]) != 0 ||
		    o->sizes[i - 1] <= 0)
			return pr_bench_fail(o->in, l, f[i].s, err,
			    "expected a block size in an openssl '+H' line");
	o->nsizes = nf - 1;
	return PR_OK;
}

/* Whether l is a row of -multi's table: a name and nsizes values. */
static int
multi_row(const struct ossl *o, const struct pr_line *l)
{
	struct pr_tok t[PR_TOK_MAX];
	size_t n, i;

	n = pr_tokens(l->s, l->e, t, PR_TOK_MAX);
	if (n <= o->nsizes || n > PR_TOK_MAX || table_value(&t[0]))
		return 0;
	for (i = n - o->nsizes; i < n; i++)
		if (!table_value(&t[i]))
			return 0;
	return 1;
}

static enum pr_status
parse_openssl(const struct pr_input *in, struct pr_dataset *out,
    struct pr_error *err)
{
	struct ossl o;
	struct pr_lines it, before;
	struct pr_line l, hint = { NULL, NULL, NULL, 0, 0 };
	struct pr_tok ops[MAX_OPS];
	long sizes[MAX_SIZES];
	size_t ns, k;
	enum pr_status st;

	memset(&o, 0, sizeof(o));
	o.in = in;
	o.out = out;
	pr_lines_init(&it, in);
	while (pr_lines_next(&it, &l)) {
		if (pr_starts(l.s, l.e, "Forked child ") ||
		    pr_starts(l.s, l.e, "Got: +"))
			o.multi = 1;
		/* -multi prints its summed table without the header: the
		 * sizes are those the children sent. */
		if (pr_starts(l.s, l.e, "Got: +H:") &&
		    (st = multi_sizes(&o, &l, err)) != PR_OK)
			return st;
	}
	pr_lines_init(&it, in);
	for (;;) {
		before = it;
		if (!pr_lines_next(&it, &l))
			break;
		st = PR_OK;
		if (l.s < l.e && l.s[0] == '+') {
			if (!o.multi)
				st = mr_line(&o, &l, err);
		} else if (pr_starts(l.s, l.e, "Doing ")) {
			if (!o.multi)
				st = doing_line(&o, &l, err);
		} else if ((ns = table_header(&l, sizes)) > 0) {
			st = sym_table(&o, &it, &l, sizes, ns, err);
		} else if (o.multi && o.nsizes > 0 && multi_row(&o, &l)) {
			/* The first row of -multi's headerless table. */
			it = before;
			st = sym_table(&o, &it, &l, o.sizes, o.nsizes, err);
		} else if ((k = pkey_header(&l, ops)) > 0) {
			st = pkey_table(&o, &it, &l, ops, k, err);
		} else if (hint.s == NULL &&
		    (pr_has(l.s, l.e, " error!") ||
			pr_starts(l.s, l.e, "Error") ||
			pr_has(l.s, l.e, "Unknown algorithm") ||
			pr_has(l.s, l.e, "Invalid command") ||
			pr_starts(l.s, l.e, "speed: "))) {
			hint = l;
		}
		if (st != PR_OK)
			return st;
	}
	return out->n == 0 ? pr_bench_none(in, &hint, "openssl", err) : PR_OK;
}

/* "+R1:" .. "+R12:", "+F2:" .. "+F8:" */
static int
mr_numbered(const struct pr_line *l)
{
	const char *p = l->s;

	if (l->e - p < 4 || p[0] != '+' || (p[1] != 'R' && p[1] != 'F'))
		return 0;
	for (p += 2; p < l->e && *p >= '0' && *p <= '9'; p++)
		;
	return p > l->s + 2 && p < l->e && *p == ':';
}

static unsigned
detect_openssl(const struct pr_input *in)
{
	struct pr_lines it;
	struct pr_line l;
	struct pr_tok ops[MAX_OPS];
	long sizes[MAX_SIZES];
	unsigned score = 0;

	pr_lines_init(&it, in);
	while (pr_lines_next_text(&it, &l) && score < PR_DETECT_CERTAIN) {
		if ((pr_starts(l.s, l.e, "Doing ") &&
			pr_has(l.s, l.e, " for ")) ||
		    pr_starts(l.s, l.e, "The 'numbers' are in 1000s") ||
		    pr_starts(l.s, l.e, "+H:") || pr_starts(l.s, l.e, "+F:") ||
		    pr_starts(l.s, l.e, "+DT:") ||
		    pr_starts(l.s, l.e, "+DTP:") || mr_numbered(&l) ||
		    table_header(&l, sizes) > 0)
			score += PR_DETECT_LINE;
		else if (pkey_header(&l, ops) > 0 && pr_has(l.s, l.e, "/s"))
			score += PR_DETECT_HINT;
	}
	return score;
}

/* Whether name ends in "/" suffix ("/ops", "/ops_per_s"). */
static int
op_count(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	return n > k && strcmp(name + n - k, suffix) == 0;
}

/*
 * openssl speed's own results: the throughput table ("aes-128-cbc/16B")
 * and the sign/verify/op rates.  The "Doing" lines' counts ("/ops") and
 * rates ("/ops_per_s") are the same quantity as the table, so they are
 * side figures, unless the output has no table (then the rates are the
 * result).
 */
static int
result_openssl(const struct pr_dataset *d, const struct pr_metric *m)
{
	size_t i;

	if (!op_count(m->name, "/ops") && !op_count(m->name, "/ops_per_s"))
		return 1;
	if (!op_count(m->name, "/ops_per_s"))
		return 0;
	for (i = 0; i < d->n; i++)
		if (!op_count(d->metrics[i].name, "/ops") &&
		    !op_count(d->metrics[i].name, "/ops_per_s"))
			return 0;
	return 1;
}

const struct pr_bench_format pr_bench_openssl = {
	.name = "openssl",
	.description =
	    "openssl speed: tables, 'Doing' lines, -mr, -multi, sign/verify",
	.detect = detect_openssl,
	.parse = parse_openssl,
	.is_result = result_openssl,
};
