/*
 * parse/iperf3.c - the output of iperf3: client and server text, and -J
 * JSON.
 *
 * Text: the summary lines at the end of a test,
 *   "[  5]   0.00-2.00   sec  1.16 GBytes  4.99 Gbits/sec   27   sender"
 * (UDP adds "0.078 ms  0/8 (0%)" before the role).  Units are those of
 * iperf3's unit_snprintf (src/units.c): transfers in Bytes, KBytes, ...
 * are powers of 1024, rates in bits/sec, Kbits/sec, ... powers of 1000,
 * and rates in KBytes/sec (-f K) powers of 1024 bytes.  Powers of two are
 * applied by an exact multiplication, powers of ten by rewriting the
 * decimal exponent (pr_bench_num), so "35.9 Gbits/sec" is exactly 35.9e9.
 * A block of summary lines (one test) that has [SUM] lines (-P) gives
 * only those; otherwise every line of it counts.  The UDP loss percentage
 * is computed from the lost and total datagrams, not read from the
 * rounded "(9.4%)".  Any "iperf3: error - ..." line makes the whole input
 * an error: a failed test is not a result.
 *
 * JSON: one or more documents (runs appended to one file), each with an
 * "end" object holding "sum_sent" and "sum_received" (bytes,
 * bits_per_second, retransmits; UDP jitter_ms, lost_packets, packets) or,
 * before iperf3 3.10, UDP's single "sum".  A server reports only its own
 * side (receiver, or sender with --reverse), as its text output does.  A
 * document with an "error" member is an error.
 *
 * Both forms also give the CPU utilisation, host (local) and remote,
 * total, user and system ("cpu_host_user", ...; -V in text), and with
 * several TCP streams (-P) each stream's figures as "stream1_sender_bitrate"
 * and so on, beside the test's [SUM].
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "parse/bench.h"
#include "perfreg/read.h"
#include "core/banned.h"

#define MAX_BLOCK 256

/* One summary line, read. */
struct sumline {
	int sum;     /* [SUM] */
	long id;     /* the stream's number in its tag ("[  5]"), or -1 */
	char dir[8]; /* "", "tx_" or "rx_" (--bidir) */
	int sender;
	double transfer, bitrate;
	int have_retr;
	double retr;
	int udp;
	double jitter, lost, total;
};

/* 1024^k for "Bytes", "KBytes", ...; -1 if not such a unit. */
static int
bytes_unit(const struct pr_tok *t, const char *suffix, int *pow2)
{
	static const char prefixes[] = "KMGT";
	size_t n = strlen(suffix);
	const char *p;

	if (t->n < n || memcmp(t->s + t->n - n, suffix, n) != 0)
		return -1;
	if (t->n == n) {
		*pow2 = 0;
		return 0;
	}
	if (t->n != n + 1 || (p = strchr(prefixes, t->s[0])) == NULL)
		return -1;
	*pow2 = 10 * (int)(p - prefixes + 1);
	return 0;
}

/* The rate [value, unit] in bits per second. */
static enum pr_status
rate_of(const struct pr_input *in, const struct pr_line *l,
    const struct pr_tok *v, const struct pr_tok *u, double *out,
    struct pr_error *err)
{
	static const char prefixes[] = "KMGT";
	enum pr_status st;
	const char *p;
	int pow2, exp10 = 0;

	if (bytes_unit(u, "Bytes/sec", &pow2) == 0) {
		if ((st = pr_bench_tnum(in, l, v, 0, "as an iperf3 rate", out,
			 err)) != PR_OK)
			return st;
		*out = ldexp(*out, pow2 + 3);
		return PR_OK;
	}
	if (pr_tok_eq(u, "bits/sec"))
		exp10 = 0;
	else if (u->n == 9 && memcmp(u->s + 1, "bits/sec", 8) == 0 &&
	    (p = strchr(prefixes, u->s[0])) != NULL)
		exp10 = 3 * (int)(p - prefixes + 1);
	else
		return pr_bench_fail(in, l, u->s, err,
		    "unknown iperf3 rate unit '%.*s'", (int)u->n, u->s);
	return pr_bench_tnum(in, l, v, exp10, "as an iperf3 rate", out, err);
}

static enum pr_status
transfer_of(const struct pr_input *in, const struct pr_line *l,
    const struct pr_tok *v, const struct pr_tok *u, double *out,
    struct pr_error *err)
{
	enum pr_status st;
	int pow2;

	if (bytes_unit(u, "Bytes", &pow2) != 0)
		return pr_bench_fail(in, l, u->s, err,
		    "unknown iperf3 transfer unit '%.*s'", (int)u->n, u->s);
	if ((st = pr_bench_tnum(in, l, v, 0, "as an iperf3 transfer", out,
		 err)) != PR_OK)
		return st;
	*out = ldexp(*out, pow2);
	return PR_OK;
}

/*
 * The tag of a line: "[  5]", "[SUM]", "[  5][TX-C]".  Returns the first
 * character after it, or NULL when the line has no tag.
 */
static const char *
tag_of(const struct pr_line *l, int *sum, char *dir, long *id)
{
	const char *p = l->s, *q, *d;

	while (p < l->e && (*p == ' ' || *p == '\t'))
		p++;
	if (p == l->e || *p != '[' ||
	    (q = memchr(p, ']', (size_t)(l->e - p))) == NULL)
		return NULL;
	*sum = pr_has(p, q, "SUM");
	*id = -1;
	for (d = p + 1; d < q && *d == ' '; d++)
		;
	if (d < q && *d >= '0' && *d <= '9')
		for (*id = 0; d < q && *d >= '0' && *d <= '9' && *id < 100000;
		     d++)
			*id = *id * 10 + (*d - '0');
	dir[0] = '\0';
	if (q + 1 < l->e && q[1] == '[') {
		const char *r = memchr(q + 1, ']', (size_t)(l->e - q - 1));

		if (r == NULL)
			return NULL;
		if (pr_has(q, r, "TX"))
			snprintf(dir, 8, "tx_");
		else if (pr_has(q, r, "RX"))
			snprintf(dir, 8, "rx_");
		q = r;
	}
	return q + 1;
}

/* Whether t is an interval "0.00-2.00". */
static int
interval(const struct pr_tok *t)
{
	const char *dash = memchr(t->s, '-', t->n);

	return dash != NULL && pr_is_decimal(t->s, dash) &&
	    pr_is_decimal(dash + 1, t->s + t->n);
}

/*
 * Reads a summary line into *sl: 1 if it is one, 0 if the line is not a
 * summary line, -1 (err set) if it is one but malformed.
 */
static int
summary_line(const struct pr_input *in, const struct pr_line *l,
    struct sumline *sl, struct pr_error *err)
{
	struct pr_tok t[PR_TOK_MAX];
	const char *p, *slash;
	size_t n;
	int last;

	memset(sl, 0, sizeof(*sl));
	if ((p = tag_of(l, &sl->sum, sl->dir, &sl->id)) == NULL)
		return 0;
	n = pr_tokens(p, l->e, t, PR_TOK_MAX);
	if (n < 2 || n > PR_TOK_MAX)
		return 0;
	last = (int)n - 1;
	if (pr_tok_eq(&t[last], "sender"))
		sl->sender = 1;
	else if (!pr_tok_eq(&t[last], "receiver"))
		return 0;
	if (n < 7 || !interval(&t[0]) || !pr_tok_eq(&t[1], "sec")) {
		pr_bench_fail(in, l, p, err,
		    "malformed iperf3 summary line (cut short?)");
		return -1;
	}
	if (transfer_of(in, l, &t[2], &t[3], &sl->transfer, err) != PR_OK ||
	    rate_of(in, l, &t[4], &t[5], &sl->bitrate, err) != PR_OK)
		return -1;
	if (n == 8) {
		/* TCP sender: retransmits. */
		if (pr_bench_tnum(in, l, &t[6], 0, "as iperf3 retransmits",
			&sl->retr, err) != PR_OK)
			return -1;
		sl->have_retr = 1;
	} else if (n == 11) {
		/* UDP: "0.078 ms  0/8 (0%)". */
		sl->udp = 1;
		if (!pr_tok_eq(&t[7], "ms") ||
		    (slash = memchr(t[8].s, '/', t[8].n)) == NULL) {
			pr_bench_fail(in, l, t[6].s, err,
			    "malformed iperf3 UDP summary line");
			return -1;
		}
		if (pr_bench_tnum(in, l, &t[6], 0, "as iperf3 jitter",
			&sl->jitter, err) != PR_OK ||
		    pr_bench_num(in, l, t[8].s, slash, 0, 0,
			"as lost datagrams", &sl->lost, err) != PR_OK ||
		    pr_bench_num(in, l, slash + 1, t[8].s + t[8].n, 0, 0,
			"as total datagrams", &sl->total, err) != PR_OK)
			return -1;
		if (sl->lost > sl->total) {
			pr_bench_fail(in, l, t[8].s, err,
			    "more datagrams lost than sent in '%.*s'",
			    (int)t[8].n, t[8].s);
			return -1;
		}
	} else if (n != 7) {
		pr_bench_fail(in, l, p, err,
		    "malformed iperf3 summary line: %zu fields", n);
		return -1;
	}
	return 1;
}

static enum pr_status
addm(struct pr_dataset *out, const char *dir, const char *name,
    const char *unit, enum pr_better b, double v, struct pr_error *err)
{
	char full[64];

	snprintf(full, sizeof(full), "%s%s", dir, name);
	return pr_bench_add(out, full, unit, b, v, err);
}

/*
 * Adds the figures of a summary line; pre goes before their names ("" for
 * the test's, "stream1_" for a stream's of a test with several).
 */
static enum pr_status
add_summary(const struct sumline *sl, const char *pre, struct pr_dataset *out,
    struct pr_error *err)
{
	char d[32];
	enum pr_status st;

	snprintf(d, sizeof(d), "%s%s", sl->dir, pre);

	if (sl->sender) {
		if ((st = addm(out, d, "sender_bitrate", "bit/s",
			 PR_BETTER_HIGHER, sl->bitrate, err)) != PR_OK ||
		    (st = addm(out, d, "sender_transfer", "B", PR_BETTER_HIGHER,
			 sl->transfer, err)) != PR_OK)
			return st;
		if (sl->have_retr &&
		    (st = addm(out, d, "sender_retransmits", "",
			 PR_BETTER_LOWER, sl->retr, err)) != PR_OK)
			return st;
		if (sl->udp &&
		    (st = addm(out, d, "sender_datagrams", "",
			 PR_BETTER_UNKNOWN, sl->total, err)) != PR_OK)
			return st;
		return PR_OK;
	}
	if ((st = addm(out, d, "receiver_bitrate", "bit/s", PR_BETTER_HIGHER,
		 sl->bitrate, err)) != PR_OK ||
	    (st = addm(out, d, "receiver_transfer", "B", PR_BETTER_HIGHER,
		 sl->transfer, err)) != PR_OK)
		return st;
	if (!sl->udp)
		return PR_OK;
	if ((st = addm(out, d, "receiver_jitter", "ms", PR_BETTER_LOWER,
		 sl->jitter, err)) != PR_OK ||
	    (st = addm(out, d, "receiver_lost", "", PR_BETTER_LOWER, sl->lost,
		 err)) != PR_OK ||
	    (st = addm(out, d, "receiver_datagrams", "", PR_BETTER_UNKNOWN,
		 sl->total, err)) != PR_OK)
		return st;
	if (sl->total > 0)
		return addm(out, d, "receiver_lost_pct", "%", PR_BETTER_LOWER,
		    100 * sl->lost / sl->total, err);
	snprintf(d + strlen(d), sizeof(d) - strlen(d), "receiver_lost_pct");
	return pr_bench_absent(out, d, "%", PR_BETTER_LOWER, err);
}

/*
 * Adds the lines of one block of summary lines (one test).  With [SUM]
 * lines (-P) those are the test's figures, and each stream's own lines
 * give "streamK_..." metrics, K numbering the streams in the order of
 * their first line (the numbers in the tags are socket descriptors).
 */
static enum pr_status
flush_block(const struct sumline *b, size_t n, struct pr_dataset *out,
    struct pr_error *err)
{
	long ids[MAX_BLOCK];
	size_t i, k, nids = 0;
	int have_sum = 0;
	char pre[32];
	enum pr_status st;

	for (i = 0; i < n; i++)
		have_sum |= b[i].sum;
	for (i = 0; i < n; i++) {
		pre[0] = '\0';
		if (have_sum && !b[i].sum) {
			for (k = 0; k < nids && ids[k] != b[i].id; k++)
				;
			if (k == nids)
				ids[nids++] = b[i].id;
			snprintf(pre, sizeof(pre), "stream%zu_", k + 1);
		}
		if ((st = add_summary(&b[i], pre, out, err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

/* "9.4%" [s, e) with its '%', as a metric. */
static enum pr_status
add_pct(const struct pr_input *in, const struct pr_line *l, const char *s,
    const char *e, const char *name, struct pr_dataset *out,
    struct pr_error *err)
{
	double v;
	enum pr_status st;

	if (e - s < 2 || e[-1] != '%')
		return pr_bench_fail(in, l, s, err,
		    "expected a percentage in iperf3's CPU line, got '%.*s'",
		    (int)(e - s > 40 ? 40 : e - s), s);
	if ((st = pr_bench_num(in, l, s, e - 1, 0, 0, "as a CPU share", &v,
		 err)) != PR_OK)
		return st;
	return pr_bench_add(out, name, "%", PR_BETTER_LOWER, v, err);
}

/*
 * -V's "CPU Utilization: local/sender 9.4% (0.0%u/9.4%s), remote/receiver
 * 7.3% (0.2%u/7.2%s)": cpu_host, cpu_host_user, cpu_host_system (local)
 * and cpu_remote, ... as from the JSON's cpu_utilization_percent.
 */
static enum pr_status
cpu_line(const struct pr_input *in, const struct pr_line *l,
    struct pr_dataset *out, struct pr_error *err)
{
	static const char *const who[2] = { "host", "remote" };
	struct pr_tok t[PR_TOK_MAX];
	const char *p, *q, *e;
	char name[32];
	size_t n, k;
	enum pr_status st;

	n = pr_tokens(l->s, l->e, t, PR_TOK_MAX);
	if (n != 8 || !pr_tok_prefix(&t[2], "local/") ||
	    !pr_tok_prefix(&t[5], "remote/"))
		return pr_bench_fail(in, l, l->s, err,
		    "malformed iperf3 CPU Utilization line (cut short?)");
	for (k = 0; k < 2; k++) {
		const struct pr_tok *tot = &t[3 + 3 * k], *us = &t[4 + 3 * k];

		snprintf(name, sizeof(name), "cpu_%s", who[k]);
		if ((st = add_pct(in, l, tot->s, tot->s + tot->n, name, out,
			 err)) != PR_OK)
			return st;
		/* "(0.0%u/9.4%s)," or, last, "(0.2%u/7.2%s)". */
		p = us->s;
		e = us->s + us->n;
		if (k == 0 && e > p && e[-1] == ',')
			e--;
		if (e - p < 8 || *p != '(' || e[-1] != ')' || e[-2] != 's' ||
		    (q = memchr(p, '/', (size_t)(e - p))) == NULL ||
		    q[-1] != 'u')
			return pr_bench_fail(in, l, us->s, err,
			    "expected '(U%%u/S%%s)' in iperf3's CPU line, got "
			    "'%.*s'",
			    (int)us->n, us->s);
		snprintf(name, sizeof(name), "cpu_%s_user", who[k]);
		if ((st = add_pct(in, l, p + 1, q - 1, name, out, err)) !=
		    PR_OK)
			return st;
		snprintf(name, sizeof(name), "cpu_%s_system", who[k]);
		if ((st = add_pct(in, l, q + 1, e - 2, name, out, err)) !=
		    PR_OK)
			return st;
	}
	return PR_OK;
}

static enum pr_status
parse_text(const struct pr_input *in, struct pr_dataset *out,
    struct pr_error *err)
{
	struct sumline block[MAX_BLOCK];
	struct pr_lines it;
	struct pr_line l;
	const char *p;
	size_t nb = 0;
	int r, sum, intervals = 0;
	long id;
	char dir[8];
	enum pr_status st;

	pr_lines_init(&it, in);
	while (pr_lines_next(&it, &l)) {
		if ((p = pr_find(l.s, l.e, "iperf3: error - ")) != NULL ||
		    (p = pr_find(l.s, l.e, "iperf3: interrupt - ")) != NULL) {
			const char *m = pr_find(p, l.e, " - ") + 3;

			return pr_bench_fail(in, &l, p, err,
			    "iperf3 reported %s: %.*s",
			    p[8] == 'e' ? "an error" : "an interruption",
			    (int)(l.e - m > 300 ? 300 : l.e - m), m);
		}
		if (pr_starts(l.s, l.e, "CPU Utilization:")) {
			if ((st = cpu_line(in, &l, out, err)) != PR_OK)
				return st;
			continue;
		}
		r = summary_line(in, &l,
		    nb < MAX_BLOCK ? &block[nb] : &block[MAX_BLOCK - 1], err);
		if (r < 0)
			return err->status;
		if (r > 0) {
			if (nb == MAX_BLOCK)
				return pr_bench_fail(in, &l, l.s, err,
				    "more than %d iperf3 summary lines in a "
				    "row",
				    MAX_BLOCK);
			nb++;
			continue;
		}
		if (tag_of(&l, &sum, dir, &id) != NULL &&
		    !pr_has(l.s, l.e, " ID]"))
			intervals++;
		if (nb > 0 && (st = flush_block(block, nb, out, err)) != PR_OK)
			return st;
		nb = 0;
		/* A tagged line at the very end without a line end: the
		 * output was cut inside the summary. */
		if (l.e == in->data + in->len && l.s < l.e &&
		    tag_of(&l, &sum, dir, &id) != NULL)
			return pr_bench_fail(in, &l, l.s, err,
			    "iperf3 output cut short (the last line is "
			    "incomplete)");
	}
	if (nb > 0 && (st = flush_block(block, nb, out, err)) != PR_OK)
		return st;
	if (out->n == 0)
		return pr_error_at(err, PR_EPARSE, in->name, 0, 0,
		    intervals > 0
			? "iperf3 output without summary lines (cut short?)"
			: "no iperf3 results found");
	return PR_OK;
}

/* --- JSON --- */

struct jctx {
	const struct pr_input *in;
	long line; /* of the document's start */
	struct pr_dataset *out;
};

static enum pr_status
jfail(const struct jctx *c, struct pr_error *err, const char *msg,
    const char *what)
{
	return pr_error_at(err, PR_EPARSE, c->in->name, c->line, 0,
	    "iperf3 JSON: %s%s%s", msg, what != NULL ? " " : "",
	    what != NULL ? what : "");
}

/* Adds member key of obj as a metric; absent members are skipped. */
static enum pr_status
jadd(const struct jctx *c, json_t *obj, const char *key, const char *name,
    const char *unit, enum pr_better b, double scale, struct pr_error *err)
{
	json_t *v = json_object_get(obj, key);
	double x;

	if (v == NULL || json_is_null(v))
		return PR_OK;
	if (!json_is_number(v))
		return jfail(c, err, "a number was expected for", key);
	x = json_number_value(v) * scale;
	if (!isfinite(x) || x < 0)
		return jfail(c, err,
		    "a finite, non-negative number was "
		    "expected for",
		    key);
	return pr_bench_add(c->out, name, unit, b, x, err);
}

/* The receiver's jitter and loss of a UDP test. */
static enum pr_status
jloss(const struct jctx *c, json_t *sum, struct pr_error *err)
{
	enum pr_status st;

	if ((st = jadd(c, sum, "jitter_ms", "receiver_jitter", "ms",
		 PR_BETTER_LOWER, 1, err)) != PR_OK ||
	    (st = jadd(c, sum, "lost_packets", "receiver_lost", "",
		 PR_BETTER_LOWER, 1, err)) != PR_OK)
		return st;
	return jadd(c, sum, "lost_percent", "receiver_lost_pct", "%",
	    PR_BETTER_LOWER, 1, err);
}

static enum pr_status
jside(const struct jctx *c, json_t *sum, int sender, int udp, int tcp,
    struct pr_error *err)
{
	const char *pre = sender ? "sender_" : "receiver_";
	char n1[64], n2[64], n3[64];
	enum pr_status st;

	if (!json_is_object(sum))
		return jfail(c, err, "the summary is not an object", NULL);
	snprintf(n1, sizeof(n1), "%sbitrate", pre);
	snprintf(n2, sizeof(n2), "%stransfer", pre);
	if ((st = jadd(c, sum, "bits_per_second", n1, "bit/s", PR_BETTER_HIGHER,
		 1, err)) != PR_OK ||
	    (st = jadd(c, sum, "bytes", n2, "B", PR_BETTER_HIGHER, 1, err)) !=
		PR_OK)
		return st;
	if (sender && tcp &&
	    (st = jadd(c, sum, "retransmits", "sender_retransmits", "",
		 PR_BETTER_LOWER, 1, err)) != PR_OK)
		return st;
	if (!udp)
		return PR_OK;
	snprintf(n3, sizeof(n3), "%sdatagrams", pre);
	if ((st = jadd(c, sum, "packets", n3, "", PR_BETTER_UNKNOWN, 1, err)) !=
	    PR_OK)
		return st;
	return sender ? PR_OK : jloss(c, sum, err);
}

/*
 * With several TCP streams (-P), each one's figures from "end"."streams"
 * (its "sender" and "receiver"), as
 * "stream<K>_sender_bitrate" and so on, K from 1 in the order iperf3
 * lists them, the same names as the text output's.  A side is reported
 * when the test's summary of that side is (see jdoc).
 */
static enum pr_status
jstreams(const struct jctx *c, json_t *e, int server, int reverse, int udp,
    struct pr_error *err)
{
	json_t *streams = json_object_get(e, "streams"), *s, *side;
	const char *sides[2] = { "sender", "receiver" };
	char name[64];
	size_t i, k;
	enum pr_status st;

	if (!json_is_array(streams) || json_array_size(streams) < 2 || udp)
		return PR_OK;
	for (i = 0; i < json_array_size(streams); i++) {
		s = json_array_get(streams, i);
		if (!json_is_object(s))
			return jfail(c, err, "a stream is not an object", NULL);
		for (k = 0; k < 2; k++) {
			if (server && (k == 0) != reverse)
				continue;
			side = json_object_get(s, sides[k]);
			if (side == NULL)
				continue;
			if (!json_is_object(side))
				return jfail(c, err,
				    "a stream's side is not an object", NULL);
			snprintf(name, sizeof(name), "stream%zu_%s_bitrate",
			    i + 1, sides[k]);
			if ((st = jadd(c, side, "bits_per_second", name,
				 "bit/s", PR_BETTER_HIGHER, 1, err)) != PR_OK)
				return st;
			snprintf(name, sizeof(name), "stream%zu_%s_transfer",
			    i + 1, sides[k]);
			if ((st = jadd(c, side, "bytes", name, "B",
				 PR_BETTER_HIGHER, 1, err)) != PR_OK)
				return st;
			snprintf(name, sizeof(name),
			    "stream%zu_sender_retransmits", i + 1);
			if (k == 0 &&
			    (st = jadd(c, side, "retransmits", name, "",
				 PR_BETTER_LOWER, 1, err)) != PR_OK)
				return st;
		}
	}
	return PR_OK;
}

static enum pr_status
jdoc(const struct jctx *c, json_t *root, struct pr_error *err)
{
	json_t *e, *start, *ts, *proto, *ss, *sr, *sum, *cpu, *rev;
	int server, reverse = 0, udp = 0;
	const char *msg;
	enum pr_status st;

	if (!json_is_object(root))
		return jfail(c, err, "the document is not an object", NULL);
	if ((e = json_object_get(root, "error")) != NULL) {
		msg = json_is_string(e) ? json_string_value(e) : "(no text)";
		return pr_error_at(err, PR_EPARSE, c->in->name, c->line, 0,
		    "iperf3 reported an error: %.300s", msg);
	}
	start = json_object_get(root, "start");
	e = json_object_get(root, "end");
	if (!json_is_object(start) || !json_is_object(e))
		return jfail(c, err,
		    "no \"start\" and \"end\" objects (not "
		    "iperf3 -J output?)",
		    NULL);
	server = json_object_get(start, "accepted_connection") != NULL;
	ts = json_object_get(start, "test_start");
	if (json_is_object(ts)) {
		proto = json_object_get(ts, "protocol");
		udp = json_is_string(proto) &&
		    strcmp(json_string_value(proto), "UDP") == 0;
		rev = json_object_get(ts, "reverse");
		reverse = json_is_number(rev) && json_number_value(rev) != 0;
	}
	ss = json_object_get(e, "sum_sent");
	sr = json_object_get(e, "sum_received");
	sum = json_object_get(e, "sum");
	if (ss == NULL && sr == NULL && sum == NULL)
		return jfail(c, err,
		    "\"end\" has no summary (the test did "
		    "not finish?)",
		    NULL);
	if (ss != NULL && (!server || reverse) &&
	    (st = jside(c, ss, 1, udp, !udp, err)) != PR_OK)
		return st;
	if (sr != NULL && (!server || !reverse) &&
	    (st = jside(c, sr, 0, udp, !udp, err)) != PR_OK)
		return st;
	if (ss == NULL && sr == NULL) {
		/* iperf3 before 3.10, UDP: one "sum", the sender's figures
		 * with the receiver's jitter and loss. */
		if ((st = jside(c, sum, 1, udp, 0, err)) != PR_OK ||
		    (st = jloss(c, sum, err)) != PR_OK)
			return st;
	}
	if ((st = jstreams(c, e, server, reverse, udp, err)) != PR_OK)
		return st;
	cpu = json_object_get(e, "cpu_utilization_percent");
	if (json_is_object(cpu) &&
	    ((st = jadd(c, cpu, "host_total", "cpu_host", "%", PR_BETTER_LOWER,
		  1, err)) != PR_OK ||
		(st = jadd(c, cpu, "host_user", "cpu_host_user", "%",
		     PR_BETTER_LOWER, 1, err)) != PR_OK ||
		(st = jadd(c, cpu, "host_system", "cpu_host_system", "%",
		     PR_BETTER_LOWER, 1, err)) != PR_OK ||
		(st = jadd(c, cpu, "remote_total", "cpu_remote", "%",
		     PR_BETTER_LOWER, 1, err)) != PR_OK ||
		(st = jadd(c, cpu, "remote_user", "cpu_remote_user", "%",
		     PR_BETTER_LOWER, 1, err)) != PR_OK ||
		(st = jadd(c, cpu, "remote_system", "cpu_remote_system", "%",
		     PR_BETTER_LOWER, 1, err)) != PR_OK))
		return st;
	return PR_OK;
}

/* The number of values in d, absent metrics counting one. */
static size_t
values(const struct pr_dataset *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->metrics[i].values.n > 0 ? d->metrics[i].values.n : 1;
	return n;
}

static enum pr_status
parse_json(const struct pr_input *in, struct pr_dataset *out,
    struct pr_error *err)
{
	const char *p = in->data, *e = in->data + in->len;
	json_error_t je;
	json_t *root;
	struct jctx c;
	enum pr_status st;
	int docs = 0;
	size_t before;

	if (in->len > PR_READ_JSON_MAX)
		return pr_error_at(err, PR_ELIMIT, in->name, 0, 0,
		    "JSON input larger than %zu bytes", PR_READ_JSON_MAX);
	c.in = in;
	c.out = out;
	for (;;) {
		while (p < e &&
		    (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
			p++;
		if (p == e)
			break;
		c.line = pr_read_line_of(in, p, NULL);
		/* Duplicate keys are allowed: iperf3 3.12 writes
		 * "sock_bufsize" and its neighbours twice in "start" with
		 * -P (tests/data/iperf3/tcp-p2-client.json); the last one
		 * counts, as in jansson's default. */
		root = json_loadb(p, (size_t)(e - p),
		    JSON_DISABLE_EOF_CHECK | JSON_DECODE_INT_AS_REAL, &je);
		if (root == NULL)
			return pr_error_at(err, PR_EPARSE, in->name,
			    c.line + (je.line > 0 ? je.line - 1 : 0),
			    je.column > 0 ? je.column : 0,
			    "invalid iperf3 JSON: %s", je.text);
		before = values(out);
		st = jdoc(&c, root, err);
		json_decref(root);
		if (st != PR_OK)
			return st;
		/* A summary without a figure this side reports is no
		 * result (fuzzing found the silent empty success). */
		if (values(out) == before)
			return jfail(&c, err, "the summary holds no figures",
			    NULL);
		docs++;
		if (je.position <= 0)
			break;
		p += je.position;
	}
	if (docs == 0)
		return pr_error_at(err, PR_EPARSE, in->name, 0, 0,
		    "empty input");
	return PR_OK;
}

static int
is_json(const struct pr_input *in)
{
	const char *p = in->data, *e = in->data + in->len;

	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p < e && *p == '{';
}

static enum pr_status
parse_iperf3(const struct pr_input *in, struct pr_dataset *out,
    struct pr_error *err)
{
	return is_json(in) ? parse_json(in, out, err)
			   : parse_text(in, out, err);
}

static unsigned
detect_iperf3(const struct pr_input *in)
{
	struct pr_lines it;
	struct pr_line l;
	struct sumline sl;
	struct pr_error e;
	unsigned score = 0;
	size_t head = in->len < 65536 ? in->len : 65536;

	if (is_json(in))
		return pr_find(in->data, in->data + head, "\"start\"") !=
			    NULL &&
			(pr_find(in->data, in->data + head, "\"intervals\"") !=
				NULL ||
			    pr_find(in->data, in->data + head, "\"error\"") !=
				NULL)
		    ? PR_DETECT_CERTAIN
		    : 0;
	pr_lines_init(&it, in);
	while (pr_lines_next_text(&it, &l) && score < PR_DETECT_CERTAIN) {
		if (pr_starts(l.s, l.e, "[ ID] Interval") ||
		    pr_starts(l.s, l.e, "Connecting to host ") ||
		    pr_starts(l.s, l.e, "Server listening on ") ||
		    pr_has(l.s, l.e, "iperf3: error - ") ||
		    pr_starts(l.s, l.e, "iperf Done."))
			score += PR_DETECT_LINE;
		else if (summary_line(in, &l, &sl, &e) != 0)
			score += PR_DETECT_LINE;
	}
	return score;
}

/*
 * iperf3's own result is the bitrate the receiver saw; the sender's is
 * the same quantity over TCP (a side figure), and the result only when
 * there is no receiver line.  Transfers, retransmits, jitter, the CPU
 * and each stream's lines are side figures.
 */
static int
result_iperf3(const struct pr_dataset *d, const struct pr_metric *m)
{
	size_t i;

	if (strcmp(m->name, "receiver_bitrate") == 0)
		return 1;
	if (strcmp(m->name, "sender_bitrate") != 0)
		return 0;
	for (i = 0; i < d->n; i++)
		if (strcmp(d->metrics[i].name, "receiver_bitrate") == 0 &&
		    d->metrics[i].values.n > 0)
			return 0;
	return 1;
}

const struct pr_bench_format pr_bench_iperf3 = {
	.name = "iperf3",
	.description = "iperf3 client and server text, and -J JSON",
	.detect = detect_iperf3,
	.parse = parse_iperf3,
	.is_result = result_iperf3,
};
