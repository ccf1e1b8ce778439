/*
 * store/export.c - campaigns as JSON Lines: pr_store_export writes them
 * from one database, pr_store_import reads them into another.
 *
 * The format is doc/export.md: a header line, then per campaign a
 * campaign line, its variant lines, and each session line followed by
 * the session's runs, and last an end line with the counts, so that a
 * file cut at a line boundary is still recognised as truncated.  Every
 * line is one JSON object of at most PR_STORE_EXPORT_LINE_MAX bytes.
 *
 * Both directions are written by hand rather than with jansson, which
 * took 8 us to parse one run line on the development machine when the
 * import target leaves 10 us for a whole run, store included.  The writer
 * escapes byte strings itself (or base64-encodes them when they are not
 * text, or when escaping would make them longer than base64) and prints
 * doubles with 17 significant digits, which pr_parse_double reads back
 * bit-exactly.  The reader parses one line at a time into an array of
 * nodes and a scratch buffer, both reused from line to line, so that the
 * steady state allocates nothing; nesting is limited to JSON_DEPTH_MAX
 * levels and a line to PR_STORE_EXPORT_LINE_MAX bytes, so that no input
 * exhausts the stack or memory.
 *
 * Import is one transaction: any error rolls back everything it did.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/numparse.h"
#include "perfreg/store.h"
#include "store/str.h"

#include "core/banned.h"

/* Pending output is handed to the write function in pieces of this size. */
#define FLUSH_AT ((size_t)1 << 20)
/* The writer's buffer: a line and what was pending before it. */
#define OUT_MAX (FLUSH_AT + 2 * (size_t)PR_STORE_EXPORT_LINE_MAX)
#define JSON_DEPTH_MAX 64

/* ------------------------------------------------------------------ */
/* Writing */

struct out {
	struct pr_buf b;
	pr_store_write_fn *write;
	void *arg;
	size_t line;       /* offset in b where the current line began */
	enum pr_status st; /* sticky: the first failure */
	struct pr_error *err;
	size_t ncampaigns, nsessions, nruns;
};

static void
put(struct out *o, const char *p, size_t n)
{
	if (o->st == PR_OK)
		o->st = pr_buf_add(&o->b, p, n, o->err);
}

static void
lit(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void
put_int(struct out *o, int64_t v)
{
	char d[24], *q = d + sizeof(d);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do {
		*--q = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*--q = '-';
	put(o, q, (size_t)(d + sizeof(d) - q));
}

static void
put_double(struct out *o, double v)
{
	char d[40];
	int n;

	if (o->st != PR_OK)
		return;
	if (!isfinite(v)) {
		o->st = pr_error_set(o->err, PR_EINVAL,
		    "cannot export a value that is not finite (%g)", v);
		return;
	}
	n = snprintf(d, sizeof(d), "%.17g", v);
	put(o, d, (size_t)n);
}

/* The length of p[0..n) as the body of a JSON string (text only). */
static size_t
escaped_len(const char *p, size_t n)
{
	size_t i, len = n;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)p[i];
		if (c == '"' || c == '\\' || c == '\b' || c == '\f' ||
		    c == '\n' || c == '\r' || c == '\t')
			len += 1;
		else if (c < 0x20)
			len += 5;
	}
	return len;
}

static void
put_escaped(struct out *o, const char *p, size_t n, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char *q;
	size_t i;
	unsigned char c;

	if (o->st != PR_OK ||
	    (o->st = pr_buf_grow(&o->b, len + 2, o->err)) != PR_OK)
		return;
	q = o->b.data + o->b.len;
	*q++ = '"';
	for (i = 0; i < n; i++) {
		c = (unsigned char)p[i];
		if (c >= 0x20 && c != '"' && c != '\\') {
			*q++ = (char)c;
			continue;
		}
		*q++ = '\\';
		switch (c) {
		case '"':
		case '\\':
			*q++ = (char)c;
			break;
		case '\b':
			*q++ = 'b';
			break;
		case '\f':
			*q++ = 'f';
			break;
		case '\n':
			*q++ = 'n';
			break;
		case '\r':
			*q++ = 'r';
			break;
		case '\t':
			*q++ = 't';
			break;
		default:
			*q++ = 'u';
			*q++ = '0';
			*q++ = '0';
			*q++ = hex[c >> 4];
			*q++ = hex[c & 15];
			break;
		}
	}
	*q++ = '"';
	o->b.len = (size_t)(q - o->b.data);
	o->b.data[o->b.len] = '\0';
}

static void
put_base64(struct out *o, const char *p, size_t n)
{
	/* A multiple of 3, so that the pieces encode as one. */
	const size_t piece = (size_t)3 << 16;
	size_t k, len = 4 * ((n + 2) / 3);

	lit(o, "{\"base64\":\"");
	if (o->st != PR_OK ||
	    (o->st = pr_buf_grow(&o->b, len + 1, o->err)) != PR_OK)
		return;
	for (k = 0; k < n; k += piece) {
		size_t m = n - k < piece ? n - k : piece;

		o->b.len += (size_t)EVP_EncodeBlock((unsigned char *)o->b.data +
			o->b.len,
		    (const unsigned char *)p + k, (int)m);
	}
	lit(o, "\"}");
}

/* A byte string: a JSON string when it is text and no longer escaped
 * than in base64, else {"base64":"..."} (doc/export.md). */
static void
put_bytes(struct out *o, struct pr_str s)
{
	size_t len;

	if (s.n == 0) {
		lit(o, "\"\"");
		return;
	}
	if (pr_store_utf8_text(s.p, s.n)) {
		len = escaped_len(s.p, s.n);
		if (len <= 4 * ((s.n + 2) / 3) + 10) {
			put_escaped(o, s.p, s.n, len);
			return;
		}
	}
	put_base64(o, s.p, s.n);
}

static void
put_cstr(struct out *o, const char *s)
{
	if (s == NULL)
		lit(o, "null");
	else
		put_bytes(o, pr_str_c(s));
}

/* A member: its name and separator (",\"seq\":") and its value. */
static void
m_int(struct out *o, const char *name, int64_t v)
{
	lit(o, name);
	put_int(o, v);
}

static void
m_double(struct out *o, const char *name, double v)
{
	lit(o, name);
	put_double(o, v);
}

static void
m_bytes(struct out *o, const char *name, struct pr_str v)
{
	lit(o, name);
	put_bytes(o, v);
}

static void
m_cstr(struct out *o, const char *name, const char *v)
{
	lit(o, name);
	put_cstr(o, v);
}

static void
m_bool(struct out *o, const char *name, int v)
{
	lit(o, name);
	lit(o, v ? "true" : "false");
}

/* Appends JSON text without the white space outside its strings. */
static void
put_compact(struct out *o, const char *p, size_t n)
{
	size_t i;
	char *q;
	int instr = 0, esc = 0;

	if (o->st != PR_OK || (o->st = pr_buf_grow(&o->b, n, o->err)) != PR_OK)
		return;
	q = o->b.data + o->b.len;
	for (i = 0; i < n; i++) {
		char c = p[i];

		if (instr) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				instr = 0;
		} else if (c == '"')
			instr = 1;
		else if (c == ' ' || c == '\n' || c == '\t' || c == '\r')
			continue;
		*q++ = c;
	}
	o->b.len = (size_t)(q - o->b.data);
	o->b.data[o->b.len] = '\0';
}

static void
flush(struct out *o)
{
	if (o->st == PR_OK && o->b.len > 0)
		o->st = o->write(o->arg, o->b.data, o->b.len, o->err);
	pr_buf_reset(&o->b);
	o->line = 0;
}

static void
end_line(struct out *o, const char *what)
{
	lit(o, "\n");
	if (o->st != PR_OK)
		return;
	if (o->b.len - o->line > PR_STORE_EXPORT_LINE_MAX) {
		o->st = pr_error_set(o->err, PR_ELIMIT,
		    "%s would take a line of %zu bytes, more than the %u an "
		    "export may hold",
		    what, o->b.len - o->line, PR_STORE_EXPORT_LINE_MAX);
		return;
	}
	if (o->b.len >= FLUSH_AT)
		flush(o);
	o->line = o->b.len;
}

struct idkey {
	int64_t id, key;
};

static int
idkey_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct idkey *)a)->id;
	int64_t y = ((const struct idkey *)b)->id;

	return (x > y) - (x < y);
}

struct run_ctx {
	struct out *o;
	int64_t key;
};

static const char *
better_json(enum pr_better b)
{
	switch (b) {
	case PR_BETTER_HIGHER:
		return "\"higher\"";
	case PR_BETTER_LOWER:
		return "\"lower\"";
	default:
		return "null";
	}
}

static int
export_run(void *arg, const struct pr_store_run_rec *r, struct pr_error *err)
{
	struct run_ctx *c = arg;
	struct out *o = c->o;
	size_t i;

	m_int(o, "{\"type\":\"run\",\"session\":", c->key);
	m_bytes(o, ",\"variant\":", r->variant);
	m_int(o, ",\"round\":", (int64_t)r->round);
	m_int(o, ",\"seq\":", (int64_t)r->seq);
	m_bool(o, ",\"warmup\":", r->warmup);
	m_bool(o, ",\"ok\":", r->ok);
	m_cstr(o, ",\"outcome\":", r->outcome);
	m_int(o, ",\"exit_status\":", r->exit_status);
	m_int(o, ",\"signal\":", r->signal);
	m_bytes(o, ",\"reason\":", r->reason);
	m_cstr(o, ",\"failed_in\":", r->failed_in);
	m_bool(o, ",\"truncated\":", r->truncated);
	m_double(o, ",\"start_s\":", r->start_s);
	lit(o, ",\"metrics\":[");
	for (i = 0; i < r->nm; i++) {
		m_cstr(o, i > 0 ? ",[" : "[", r->metric_names[i]);
		m_cstr(o, ",", r->metric_units[i] ? r->metric_units[i] : "");
		lit(o, ",");
		lit(o, better_json(r->metric_better[i]));
		m_double(o, ",", r->metric_values[i]);
		lit(o, "]");
	}
	m_bytes(o, "],\"output\":", r->output);
	lit(o, "}");
	end_line(o, "a run");
	o->nruns++;
	return o->st != PR_OK;
}

/* The command of the variant called name in v, or NULL. */
static const char *
variant_command(const struct pr_store_variant_info *v, size_t nv,
    struct pr_str name)
{
	size_t i;

	for (i = 0; i < nv; i++)
		if (v[i].name.n == name.n &&
		    (name.n == 0 || memcmp(v[i].name.p, name.p, name.n) == 0))
			return v[i].command;
	return NULL;
}

static void
export_env(struct out *o, struct pr_store *st, int64_t id)
{
	struct pr_env e;
	struct pr_buf j = PR_BUF_INIT(PR_STORE_EXPORT_LINE_MAX);
	int found = 0;

	if (o->st != PR_OK)
		return;
	pr_env_init(&e);
	o->st = pr_store_session_env(st, id, &e, &found, o->err);
	if (o->st == PR_OK && found &&
	    (o->st = pr_env_to_json(&e, &j, o->err)) == PR_ELIMIT)
		o->st = pr_error_set(o->err, PR_ELIMIT,
		    "session %lld: its "
		    "environment snapshot takes more than the %u bytes an "
		    "export line may hold",
		    (long long)id, PR_STORE_EXPORT_LINE_MAX);
	if (o->st == PR_OK) {
		if (found)
			put_compact(o, j.data, j.len);
		else
			lit(o, "null");
	}
	pr_buf_release(&j);
	pr_env_release(&e);
}

static void
export_session(struct out *o, struct pr_store *st,
    const struct pr_store_session_info *s, int64_t key, const struct idkey *ids,
    size_t nids, const struct pr_store_variant_info *v, size_t nv)
{
	struct run_ctx rc;
	struct idkey k = { 0, 0 }, *res = NULL;
	struct pr_error cberr;
	enum pr_status cst;
	size_t i;

	m_int(o, "{\"type\":\"session\",\"key\":", key);
	m_bytes(o, ",\"campaign\":", s->campaign);
	m_cstr(o, ",\"host\":", s->host);
	m_cstr(o, ",\"boot_id\":", s->boot_id);
	m_cstr(o, ",\"args\":", s->args_json);
	m_cstr(o, ",\"status\":", s->status);
	m_double(o, ",\"started\":", s->started);
	m_double(o, ",\"elapsed_s\":", s->elapsed_s);
	lit(o, ",\"resumes\":");
	if (s->resumes != 0) {
		k.id = s->resumes;
		res = bsearch(&k, ids, nids, sizeof(*ids), idkey_cmp);
	}
	if (res != NULL)
		put_int(o, res->key);
	else
		lit(o, "null");
	lit(o, ",\"tags\":[");
	for (i = 0; i < s->ntags; i++) {
		lit(o, i > 0 ? ",[" : "[");
		put_bytes(o, s->tags[i].key);
		lit(o, ",");
		put_bytes(o, s->tags[i].value);
		lit(o, "]");
	}
	lit(o, "],\"variants\":[");
	for (i = 0; i < s->nvariants; i++) {
		lit(o, i > 0 ? ",[" : "[");
		put_bytes(o, s->variants[i]);
		lit(o, ",");
		put_cstr(o, variant_command(v, nv, s->variants[i]));
		lit(o, "]");
	}
	lit(o, "],\"env\":");
	export_env(o, st, s->id);
	lit(o, "}");
	end_line(o, "a session's environment snapshot");
	if (o->st != PR_OK)
		return;
	o->nsessions++;
	rc.o = o;
	rc.key = key;
	pr_error_clear(&cberr);
	cst = pr_store_each_run(st, s->id, export_run, &rc, &cberr);
	if (o->st == PR_OK && cst != PR_OK) {
		o->st = cst;
		if (o->err != NULL)
			*o->err = cberr;
	}
}

static void
export_campaign(struct out *o, struct pr_store *st, struct pr_str name,
    int64_t *key)
{
	struct pr_store_variant_info *v = NULL;
	struct pr_store_session_info *s = NULL;
	struct idkey *ids = NULL;
	size_t nv = 0, ns = 0, i;

	if (o->st != PR_OK)
		return;
	o->st = pr_store_variants(st, name, &v, &nv, o->err);
	if (o->st == PR_OK)
		o->st = pr_store_sessions(st, name, &s, &ns, o->err);
	if (o->st != PR_OK)
		goto out;
	m_bytes(o, "{\"type\":\"campaign\",\"name\":", name);
	lit(o, "}");
	end_line(o, "a campaign");
	o->ncampaigns++;
	for (i = 0; i < nv; i++) {
		m_bytes(o, "{\"type\":\"variant\",\"campaign\":", name);
		m_bytes(o, ",\"name\":", v[i].name);
		m_cstr(o, ",\"command\":", v[i].command);
		lit(o, "}");
		end_line(o, "a variant");
	}
	if (ns > 0 && (ids = calloc(ns, sizeof(*ids))) == NULL) {
		o->st = pr_error_set(o->err, PR_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < ns; i++) {
		ids[i].id = s[i].id;
		ids[i].key = *key + 1 + (int64_t)i;
	}
	if (ns > 0)
		qsort(ids, ns, sizeof(*ids), idkey_cmp);
	for (i = 0; i < ns && o->st == PR_OK; i++)
		export_session(o, st, &s[i], *key + 1 + (int64_t)i, ids, ns, v,
		    nv);
	*key += (int64_t)ns;
out:
	free(ids);
	pr_store_sessions_free(s, ns);
	pr_store_variants_free(v, nv);
}

static int
str_eq(struct pr_str a, struct pr_str b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

enum pr_status
pr_store_export(struct pr_store *st, const struct pr_str *campaigns, size_t n,
    pr_store_write_fn *write, void *arg, struct pr_error *err)
{
	struct pr_store_campaign_info *all = NULL;
	size_t nall = 0, i, j;
	int64_t key = 0;
	struct out o;

	memset(&o, 0, sizeof(o));
	pr_buf_init(&o.b, OUT_MAX);
	o.write = write;
	o.arg = arg;
	o.err = err;
	if (n == 0)
		o.st = pr_store_campaigns(st, &all, &nall, err);
	m_int(&o, "{\"format\":\"perfreg-export\",\"version\":",
	    PR_STORE_EXPORT_VERSION);
	m_int(&o, ",\"schema\":", PR_STORE_SCHEMA_VERSION);
	lit(&o, "}");
	end_line(&o, "the header");
	if (n == 0) {
		for (i = 0; i < nall; i++)
			export_campaign(&o, st, all[i].name, &key);
	} else {
		for (i = 0; i < n; i++) {
			for (j = 0; j < i; j++)
				if (str_eq(campaigns[j], campaigns[i]))
					break;
			if (j == i)
				export_campaign(&o, st, campaigns[i], &key);
		}
	}
	m_int(&o, "{\"type\":\"end\",\"campaigns\":", (int64_t)o.ncampaigns);
	m_int(&o, ",\"sessions\":", (int64_t)o.nsessions);
	m_int(&o, ",\"runs\":", (int64_t)o.nruns);
	lit(&o, "}");
	end_line(&o, "the end line");
	flush(&o);
	pr_buf_release(&o.b);
	pr_store_campaigns_free(all, nall);
	return o.st;
}

/* ------------------------------------------------------------------ */
/* Parsing one line of JSON */

enum jt { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

/* A node.  Index 0 is never used, so that 0 means "none". */
struct jv {
	enum jt t;
	const char *s; /* J_STR: the decoded bytes, NUL-terminated; J_NUM,
			   J_ARR, J_OBJ: the text in the line */
	size_t n;      /* its length */
	const char *k; /* its name, as a member of an object */
	size_t kn;
	size_t kid;   /* J_ARR, J_OBJ: the first element */
	size_t next;  /* the next element of the parent */
	size_t count; /* J_ARR, J_OBJ: how many elements */
	int nul;      /* J_STR: s holds a NUL byte (from \\u0000) */
};

struct jp {
	struct jv *v;
	size_t nv, cap;
	char *sc; /* decoded strings; never moves during a line */
	size_t sn, scap;
	const char *line, *p, *end;
	const char *why; /* the parse error, a constant */
	const char *at;  /* where it happened */
};

static size_t
jfail(struct jp *j, const char *why)
{
	if (j->why == NULL) {
		j->why = why;
		j->at = j->p;
	}
	return 0;
}

static size_t
jnew(struct jp *j, enum jt t)
{
	struct jv *v;

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
jskip(struct jp *j)
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
jescape(struct jp *j, char **qp)
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
jstring(struct jp *j, const char **out, size_t *outn, int *nul)
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
jnumber(struct jp *j)
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
	if ((x = jnew(j, J_NUM)) == 0)
		return 0;
	j->v[x].s = s;
	j->v[x].n = (size_t)(p - s);
	j->p = p;
	return x;
}

static size_t
jword(struct jp *j, const char *w, enum jt t)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return jfail(j, "unexpected text");
	j->p += n;
	return jnew(j, t);
}

static size_t jvalue(struct jp *j, int depth);

/* An array or an object at j->p. */
static size_t
jlist(struct jp *j, int depth, int obj)
{
	const char *s = j->p, *k = NULL;
	size_t x, c, prev = 0, count = 0, kn = 0;
	char close = obj ? '}' : ']';

	if (depth >= JSON_DEPTH_MAX)
		return jfail(j, "nested too deeply");
	if ((x = jnew(j, obj ? J_OBJ : J_ARR)) == 0)
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
jvalue(struct jp *j, int depth)
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
		if ((x = jnew(j, J_STR)) == 0)
			return 0;
		if (!jstring(j, &j->v[x].s, &j->v[x].n, &j->v[x].nul))
			return 0;
		return x;
	case 't':
		return jword(j, "true", J_TRUE);
	case 'f':
		return jword(j, "false", J_FALSE);
	case 'n':
		return jword(j, "null", J_NULL);
	default:
		if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
			return jnumber(j);
		return jfail(j, "unexpected byte");
	}
}

/* Parses the line [p, end) into j; its root is node 1 (0 on error). */
static size_t
jparse(struct jp *j, const char *p, const char *end)
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

/* ------------------------------------------------------------------ */
/* Importing */

struct known {
	char *host, *boot_id;
	double started;
	int64_t id;
};

struct camp {
	char *name;
	size_t n;
	struct pr_str *vars; /* declared by variant lines */
	size_t nvars;
	struct known *known; /* sessions in the target */
	size_t nknown;
	int loaded;
};

struct svar {
	struct pr_str name; /* owned */
	int64_t id;
};

struct sess {
	int64_t key, id;
	size_t camp;
	int skipped;
	struct svar *v;
	size_t nv, last;
};

struct mrow {
	const char *name, *unit;
	enum pr_better better;
	double v;
};

struct imp {
	struct pr_store *st;
	const char *name;
	long line;
	struct pr_error *err;
	struct jp j;
	struct camp *c;
	size_t nc;
	struct sess *s;
	size_t ns;
	/* the newest session, ended (pr_store_session_end) when the next
	 * line that is not one of its runs comes */
	int64_t pending;
	char *pending_status;
	double pending_elapsed;
	long pending_line;
	struct pr_dataset ds; /* the metrics of the last run, reused */
	struct mrow *m;       /* the metrics of the line being read */
	size_t mcap;
	size_t nruns; /* run lines read */
	struct pr_store_import_stats stats;
};

static enum pr_status bad(struct imp *im, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static enum pr_status
bad(struct imp *im, const char *fmt, ...)
{
	char msg[PR_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pr_error_at(im->err, PR_EPARSE, im->name, im->line, 0, "%s",
	    msg);
}
#ifdef __clang_analyzer__
/* The static analyzer does not follow variadic functions: say what bad
 * returns (as include/perfreg/error.h does for pr_error_set). */
#define bad(im, ...) (bad((im), __VA_ARGS__), PR_EPARSE)
#endif

/* A store error while importing a line: input the store refused is the
 * line's fault; I/O and memory errors keep their status and message. */
static enum pr_status
store_fail(struct imp *im, enum pr_status st)
{
	char msg[PR_ERROR_MSG_MAX];

	if (st != PR_EINVAL && st != PR_EPARSE && st != PR_ERANGE &&
	    st != PR_ELIMIT)
		return st;
	if (im->err == NULL)
		return PR_EPARSE;
	snprintf(msg, sizeof(msg), "%s", im->err->msg);
	return bad(im, "%s", msg);
}

static enum pr_status
oom(struct imp *im)
{
	return pr_error_set(im->err, PR_ENOMEM, "out of memory");
}

static char *
dup_bytes(const char *p, size_t n)
{
	char *q = malloc(n + 1);

	if (q != NULL) {
		if (n > 0)
			memcpy(q, p, n);
		q[n] = '\0';
	}
	return q;
}

/* A description of a node's type for messages. */
static const char *
jtype(const struct jv *v)
{
	static const char *const names[] = { "null", "false", "true",
		"a number", "a string", "an array", "an object" };

	return names[v->t];
}

/* Members of an object picked by name: f[i].v gets the node of the
 * member called f[i].name, 0 when absent.  Unknown members are ignored
 * (a later version may add some); a name given twice is an error. */
struct field {
	const char *name;
	size_t v;
};

/* 1 when the member's name (which may hold NULs) is name. */
static int
name_is(const char *name, const struct jv *v)
{
	size_t i;

	for (i = 0; i < v->kn; i++)
		if (name[i] != v->k[i] || name[i] == '\0')
			return 0;
	return name[i] == '\0';
}

static enum pr_status
members(struct imp *im, size_t obj, struct field *f, size_t nf)
{
	size_t c, i;
	const struct jv *v;

	for (i = 0; i < nf; i++)
		f[i].v = 0;
	/* Members usually come in the order export writes them: try the
	 * name after the last one found first. */
	i = 0;
	for (c = im->j.v[obj].kid; c != 0; c = v->next) {
		v = &im->j.v[c];
		if (i >= nf || !name_is(f[i].name, v))
			for (i = 0; i < nf && !name_is(f[i].name, v); i++)
				continue;
		if (i == nf)
			continue;
		if (f[i].v != 0)
			return bad(im, "'%s' appears twice", f[i].name);
		f[i++].v = c;
	}
	for (i = 0; i < nf; i++)
		if (f[i].v == 0)
			return bad(im, "missing '%s'", f[i].name);
	return PR_OK;
}

static enum pr_status
v_bytes(struct imp *im, size_t x, const char *what, struct pr_str *out)
{
	const struct jv *v = &im->j.v[x], *b;
	struct jp *j = &im->j;
	size_t i, pad = 0;
	char *q;
	int m;

	if (v->t == J_STR) {
		out->p = v->s;
		out->n = v->n;
		return PR_OK;
	}
	b = &j->v[v->kid];
	if (v->t != J_OBJ || v->count != 1 || b->kn != 6 ||
	    memcmp(b->k, "base64", 6) != 0 || b->t != J_STR)
		return bad(im,
		    "%s must be a string or {\"base64\":...}, not "
		    "%s",
		    what, jtype(v));
	if (b->n % 4 != 0)
		return bad(im,
		    "bad base64 in %s: its length is not a "
		    "multiple of 4",
		    what);
	for (i = 0; i < b->n; i++) {
		char c = b->s[i];

		if (c == '=' && i + 2 >= b->n &&
		    (i + 1 == b->n || b->s[i + 1] == '=')) {
			pad++;
			continue;
		}
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			(c >= '0' && c <= '9') || c == '+' || c == '/'))
			return bad(im,
			    "bad base64 in %s: unexpected '%c' at "
			    "offset %zu",
			    what, c >= 0x20 && c < 0x7f ? c : '?', i);
	}
	if (b->n / 4 * 3 >= j->scap - j->sn)
		return oom(im); /* cannot happen: jparse reserved enough */
	q = j->sc + j->sn;
	m = b->n == 0 ? 0
		      : EVP_DecodeBlock((unsigned char *)q,
			    (const unsigned char *)b->s, (int)b->n);
	if (m < 0 || (size_t)m < pad)
		return bad(im, "bad base64 in %s", what);
	m -= (int)pad;
	q[m] = '\0';
	j->sn += (size_t)m + 1;
	out->p = q;
	out->n = (size_t)m;
	return PR_OK;
}

/* A C string (no NUL inside); NULL for null when null_ok. */
static enum pr_status
v_cstr(struct imp *im, size_t x, const char *what, int null_ok,
    const char **out)
{
	struct pr_str s = { NULL, 0 };
	enum pr_status st;

	if (null_ok && im->j.v[x].t == J_NULL) {
		*out = NULL;
		return PR_OK;
	}
	if ((st = v_bytes(im, x, what, &s)) != PR_OK)
		return st;
	if (im->j.v[x].t == J_STR ? im->j.v[x].nul
				  : memchr(s.p, '\0', s.n) != NULL)
		return bad(im, "%s holds a NUL byte", what);
	*out = s.p;
	return PR_OK;
}

/* "WHAT is out of range: TEXT" for a number node. */
static enum pr_status
bad_number(struct imp *im, const char *what, const struct jv *v,
    const char *problem)
{
	return bad(im, "%s %s: %.*s", what, problem,
	    (int)(v->n < 40 ? v->n : 40), v->s);
}

/* An integer in [lo, hi]; *isnull 1 for null when isnull is given. */
static enum pr_status
v_int(struct imp *im, size_t x, const char *what, int64_t lo, int64_t hi,
    int64_t *out, int *isnull)
{
	const struct jv *v = &im->j.v[x];
	const char *p, *e;
	uint64_t u = 0, lim;
	int neg = 0;

	if (isnull != NULL) {
		*isnull = v->t == J_NULL;
		if (*isnull)
			return PR_OK;
	}
	if (v->t != J_NUM)
		return bad(im, "%s must be an integer, not %s", what, jtype(v));
	p = v->s;
	e = v->s + v->n;
	if (*p == '-') {
		neg = 1;
		p++;
	}
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; p < e; p++) {
		if (*p < '0' || *p > '9')
			return bad_number(im, what, v,
			    "must be an integer, not");
		if (u > (lim - (uint64_t)(*p - '0')) / 10)
			return bad_number(im, what, v, "is out of range");
		u = u * 10 + (uint64_t)(*p - '0');
	}
	*out = neg ? (u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u)
		   : (int64_t)u;
	if (*out < lo || *out > hi)
		return bad_number(im, what, v, "is out of range");
	return PR_OK;
}

static enum pr_status
v_double(struct imp *im, size_t x, const char *what, double *out)
{
	const struct jv *v = &im->j.v[x];
	const char *stop;
	enum pr_status st;

	if (v->t != J_NUM)
		return bad(im, "%s must be a number, not %s", what, jtype(v));
	st = pr_parse_double(v->s, v->s + v->n, &stop, out, NULL);
	if (st == PR_ENOMEM)
		return oom(im);
	if (st != PR_OK || stop != v->s + v->n)
		return bad_number(im, what, v, "is out of range");
	return PR_OK;
}

static enum pr_status
v_bool(struct imp *im, size_t x, const char *what, int *out)
{
	const struct jv *v = &im->j.v[x];

	if (v->t != J_TRUE && v->t != J_FALSE)
		return bad(im, "%s must be true or false, not %s", what,
		    jtype(v));
	*out = v->t == J_TRUE;
	return PR_OK;
}

/* The elements of an array of n-element arrays: e[i] of element k. */
static enum pr_status
v_tuple(struct imp *im, size_t x, const char *what, size_t n, size_t *e)
{
	const struct jv *v = &im->j.v[x];
	size_t i, c;

	if (v->t != J_ARR || v->count != n)
		return bad(im, "each of %s must be an array of %zu", what, n);
	for (i = 0, c = v->kid; i < n; i++, c = im->j.v[c].next)
		e[i] = c;
	return PR_OK;
}

static enum pr_status
v_array(struct imp *im, size_t x, const char *what)
{
	if (im->j.v[x].t != J_ARR)
		return bad(im, "%s must be an array, not %s", what,
		    jtype(&im->j.v[x]));
	return PR_OK;
}

static struct camp *
find_camp(struct imp *im, struct pr_str name, size_t *idx)
{
	size_t i;

	for (i = im->nc; i-- > 0;)
		if (im->c[i].n == name.n &&
		    memcmp(im->c[i].name, name.p, name.n) == 0) {
			if (idx != NULL)
				*idx = i;
			return &im->c[i];
		}
	return NULL;
}

static enum pr_status
campaign_of(struct imp *im, size_t x, size_t *idx)
{
	struct pr_str name;
	enum pr_status st;

	if ((st = v_bytes(im, x, "'campaign'", &name)) != PR_OK)
		return st;
	if (find_camp(im, name, idx) == NULL)
		return bad(im,
		    "campaign '%.*s' has no campaign line before "
		    "it",
		    (int)(name.n < 80 ? name.n : 80), name.p);
	return PR_OK;
}

/* The session with that key (keys increase through the file). */
static struct sess *
find_sess(struct imp *im, int64_t key)
{
	size_t lo = 0, hi = im->ns, mid;

	if (im->ns > 0 && im->s[im->ns - 1].key == key)
		return &im->s[im->ns - 1];
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (im->s[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < im->ns && im->s[lo].key == key ? &im->s[lo] : NULL;
}

/* Ends the session imported last, now that its runs are in. */
static enum pr_status
end_pending(struct imp *im)
{
	enum pr_status st = PR_OK;
	long line = im->line;

	if (im->pending != 0 && strcmp(im->pending_status, "running") != 0)
		st = pr_store_session_end(im->st, im->pending,
		    im->pending_status, im->pending_elapsed, im->err);
	im->pending = 0;
	free(im->pending_status);
	im->pending_status = NULL;
	if (st == PR_OK)
		return PR_OK;
	/* The error is the session line's. */
	im->line = im->pending_line;
	st = store_fail(im, st);
	im->line = line;
	return st;
}

static enum pr_status
do_campaign(struct imp *im, size_t root)
{
	struct field f[] = { { "name", 0 } };
	struct pr_str name;
	struct camp *c;
	enum pr_status st;

	if ((st = members(im, root, f, 1)) != PR_OK ||
	    (st = v_bytes(im, f[0].v, "'name'", &name)) != PR_OK)
		return st;
	if (name.n == 0)
		return bad(im, "a campaign's name is empty");
	if (find_camp(im, name, NULL) != NULL)
		return bad(im, "campaign '%.*s' appears twice",
		    (int)(name.n < 80 ? name.n : 80), name.p);
	c = realloc(im->c, (im->nc + 1) * sizeof(*c));
	if (c == NULL)
		return oom(im);
	im->c = c;
	c = &im->c[im->nc];
	memset(c, 0, sizeof(*c));
	if ((c->name = dup_bytes(name.p, name.n)) == NULL)
		return oom(im);
	c->n = name.n;
	im->nc++;
	im->stats.campaigns++;
	return PR_OK;
}

static const struct pr_str *
find_var(const struct camp *c, struct pr_str name)
{
	size_t i;

	for (i = 0; i < c->nvars; i++)
		if (str_eq(c->vars[i], name))
			return &c->vars[i];
	return NULL;
}

static enum pr_status
do_variant(struct imp *im, size_t root)
{
	struct field f[] = { { "campaign", 0 }, { "name", 0 },
		{ "command", 0 } };
	struct pr_str name, *v;
	const char *command;
	struct camp *c;
	size_t ci;
	enum pr_status st;

	if ((st = members(im, root, f, 3)) != PR_OK ||
	    (st = campaign_of(im, f[0].v, &ci)) != PR_OK ||
	    (st = v_bytes(im, f[1].v, "'name'", &name)) != PR_OK ||
	    (st = v_cstr(im, f[2].v, "'command'", 1, &command)) != PR_OK)
		return st;
	c = &im->c[ci];
	if (name.n == 0)
		return bad(im, "a variant's name is empty");
	if (find_var(c, name) != NULL)
		return bad(im, "variant '%.*s' appears twice",
		    (int)(name.n < 80 ? name.n : 80), name.p);
	v = realloc(c->vars, (c->nvars + 1) * sizeof(*v));
	if (v == NULL)
		return oom(im);
	c->vars = v;
	if ((v[c->nvars].p = dup_bytes(name.p, name.n)) == NULL)
		return oom(im);
	v[c->nvars].n = name.n;
	c->nvars++;
	return PR_OK;
}

/* The sessions of a campaign the target holds already. */
static enum pr_status
load_known(struct imp *im, struct camp *c)
{
	struct pr_store_session_info *s = NULL;
	size_t n = 0, i;
	struct pr_str name;
	enum pr_status st;

	name.p = c->name;
	name.n = c->n;
	st = pr_store_sessions(im->st, name, &s, &n, im->err);
	if (st == PR_ENOTFOUND) {
		pr_error_clear(im->err);
		st = PR_OK;
	}
	if (st != PR_OK)
		return st;
	c->loaded = 1;
	if (n > 0 && (c->known = calloc(n, sizeof(*c->known))) == NULL)
		st = oom(im);
	for (i = 0; i < n && st == PR_OK; i++) {
		c->known[i].host = dup_bytes(s[i].host, strlen(s[i].host));
		c->known[i].boot_id =
		    dup_bytes(s[i].boot_id, strlen(s[i].boot_id));
		c->known[i].started = s[i].started;
		c->known[i].id = s[i].id;
		c->nknown++;
		if (c->known[i].host == NULL || c->known[i].boot_id == NULL)
			st = oom(im);
	}
	pr_store_sessions_free(s, n);
	return st;
}

static const struct known *
find_known(const struct camp *c, const char *host, const char *boot_id,
    double started)
{
	size_t i;

	for (i = 0; i < c->nknown; i++)
		if (c->known[i].started == started &&
		    strcmp(c->known[i].host, host) == 0 &&
		    strcmp(c->known[i].boot_id, boot_id) == 0)
			return &c->known[i];
	return NULL;
}

static enum pr_status
add_known(struct imp *im, struct camp *c, const char *host, const char *boot_id,
    double started, int64_t id)
{
	struct known *k = realloc(c->known, (c->nknown + 1) * sizeof(*k));

	if (k == NULL)
		return oom(im);
	c->known = k;
	k = &k[c->nknown];
	k->host = dup_bytes(host, strlen(host));
	k->boot_id = dup_bytes(boot_id, strlen(boot_id));
	k->started = started;
	k->id = id;
	c->nknown++;
	return k->host == NULL || k->boot_id == NULL ? oom(im) : PR_OK;
}

/* The tags of a session line into *tags (malloc'd). */
static enum pr_status
session_tags(struct imp *im, size_t x, struct pr_store_tag **tags,
    size_t *ntags)
{
	size_t c, e[2] = { 0, 0 };
	enum pr_status st;

	*ntags = 0;
	if ((st = v_array(im, x, "'tags'")) != PR_OK)
		return st;
	if (im->j.v[x].count == 0)
		return PR_OK;
	if ((*tags = calloc(im->j.v[x].count, sizeof(**tags))) == NULL)
		return oom(im);
	for (c = im->j.v[x].kid; c != 0; c = im->j.v[c].next) {
		if ((st = v_tuple(im, c, "'tags'", 2, e)) != PR_OK ||
		    (st = v_bytes(im, e[0], "a tag's key",
			 &(*tags)[*ntags].key)) != PR_OK ||
		    (st = v_bytes(im, e[1], "a tag's value",
			 &(*tags)[*ntags].value)) != PR_OK)
			return st;
		++*ntags;
	}
	return PR_OK;
}

/* Records the session's variants (and with it, when not skipped, in the
 * store). */
static enum pr_status
session_variants(struct imp *im, size_t x, struct sess *s, const struct camp *c)
{
	size_t k, e[2] = { 0, 0 };
	struct pr_str name;
	const char *command;
	struct svar *v;
	enum pr_status st;

	if ((st = v_array(im, x, "'variants'")) != PR_OK)
		return st;
	if (im->j.v[x].count > 0 &&
	    (s->v = calloc(im->j.v[x].count, sizeof(*s->v))) == NULL)
		return oom(im);
	for (k = im->j.v[x].kid; k != 0; k = im->j.v[k].next) {
		if ((st = v_tuple(im, k, "'variants'", 2, e)) != PR_OK ||
		    (st = v_bytes(im, e[0], "a variant's name", &name)) !=
			PR_OK ||
		    (st = v_cstr(im, e[1], "a variant's command", 1,
			 &command)) != PR_OK)
			return st;
		if (find_var(c, name) == NULL)
			return bad(im,
			    "variant '%.*s' has no variant line "
			    "before it",
			    (int)(name.n < 80 ? name.n : 80), name.p);
		v = &s->v[s->nv];
		if ((v->name.p = dup_bytes(name.p, name.n)) == NULL)
			return oom(im);
		v->name.n = name.n;
		s->nv++;
		if (!s->skipped &&
		    (st = pr_store_session_variant(im->st, s->id, name, command,
			 &v->id, im->err)) != PR_OK)
			return store_fail(im, st);
	}
	return PR_OK;
}

enum {
	S_KEY,
	S_CAMPAIGN,
	S_HOST,
	S_BOOT,
	S_ARGS,
	S_STATUS,
	S_STARTED,
	S_ELAPSED,
	S_RESUMES,
	S_TAGS,
	S_VARIANTS,
	S_ENV,
	S_N
};

static enum pr_status
do_session(struct imp *im, size_t root)
{
	struct field f[S_N] = { { "key", 0 }, { "campaign", 0 }, { "host", 0 },
		{ "boot_id", 0 }, { "args", 0 }, { "status", 0 },
		{ "started", 0 }, { "elapsed_s", 0 }, { "resumes", 0 },
		{ "tags", 0 }, { "variants", 0 }, { "env", 0 } };
	struct pr_store_session_new sn;
	struct pr_store_tag *tags = NULL;
	const struct known *k;
	struct pr_env env;
	struct sess *s, *r;
	struct camp *c;
	const char *status;
	int64_t key, rkey;
	double elapsed;
	size_t ci, ntags = 0;
	int noresume;
	enum pr_status st;

	pr_env_init(&env);
	memset(&sn, 0, sizeof(sn));
	if ((st = members(im, root, f, S_N)) != PR_OK ||
	    (st = v_int(im, f[S_KEY].v, "'key'", 1, INT64_MAX, &key, NULL)) !=
		PR_OK ||
	    (st = campaign_of(im, f[S_CAMPAIGN].v, &ci)) != PR_OK ||
	    (st = v_cstr(im, f[S_HOST].v, "'host'", 0, &sn.host)) != PR_OK ||
	    (st = v_cstr(im, f[S_BOOT].v, "'boot_id'", 0, &sn.boot_id)) !=
		PR_OK ||
	    (st = v_cstr(im, f[S_ARGS].v, "'args'", 1, &sn.args_json)) !=
		PR_OK ||
	    (st = v_cstr(im, f[S_STATUS].v, "'status'", 0, &status)) != PR_OK ||
	    (st = v_double(im, f[S_STARTED].v, "'started'", &sn.started)) !=
		PR_OK ||
	    (st = v_double(im, f[S_ELAPSED].v, "'elapsed_s'", &elapsed)) !=
		PR_OK ||
	    (st = v_int(im, f[S_RESUMES].v, "'resumes'", 1, INT64_MAX, &rkey,
		 &noresume)) != PR_OK ||
	    (st = session_tags(im, f[S_TAGS].v, &tags, &ntags)) != PR_OK)
		goto out;
	if (im->ns > 0 && key <= im->s[im->ns - 1].key) {
		st = bad(im,
		    "session key %lld is not greater than the one "
		    "before (%lld)",
		    (long long)key, (long long)im->s[im->ns - 1].key);
		goto out;
	}
	c = &im->c[ci];
	sn.campaign.p = c->name;
	sn.campaign.n = c->n;
	sn.tags = tags;
	sn.ntags = ntags;
	if (!noresume) {
		/* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): v_int set rkey, not null */
		if ((r = find_sess(im, rkey)) == NULL) {
			st = bad(im,
			    "session %lld resumes session %lld, "
			    "which no session line before it declares",
			    (long long)key, (long long)rkey);
			goto out;
		}
		sn.resumes = r->id;
	}
	if (im->j.v[f[S_ENV].v].t == J_OBJ) {
		const struct jv *e = &im->j.v[f[S_ENV].v];

		st = pr_env_from_json(&env, e->s, e->n, im->name, im->err);
		if (st == PR_ENOMEM)
			goto out;
		if (st != PR_OK) {
			st = store_fail(im, st);
			goto out;
		}
		sn.env = &env;
	} else if (im->j.v[f[S_ENV].v].t != J_NULL) {
		st = bad(im, "'env' must be an object or null, not %s",
		    jtype(&im->j.v[f[S_ENV].v]));
		goto out;
	}
	if ((st = end_pending(im)) != PR_OK)
		goto out;
	if (!c->loaded && (st = load_known(im, c)) != PR_OK)
		goto out;
	s = realloc(im->s, (im->ns + 1) * sizeof(*s));
	if (s == NULL) {
		st = oom(im);
		goto out;
	}
	im->s = s;
	s = &im->s[im->ns++];
	memset(s, 0, sizeof(*s));
	s->key = key;
	s->camp = ci;
	k = find_known(c, sn.host, sn.boot_id, sn.started);
	if (k != NULL) {
		s->skipped = 1;
		s->id = k->id;
		im->stats.sessions_skipped++;
	} else {
		st = pr_store_session_begin(im->st, &sn, &s->id, im->err);
		if (st != PR_OK) {
			st = store_fail(im, st);
			goto out;
		}
		if ((st = add_known(im, c, sn.host, sn.boot_id, sn.started,
			 s->id)) != PR_OK)
			goto out;
		im->stats.sessions++;
		im->pending = s->id;
		im->pending_elapsed = elapsed;
		im->pending_line = im->line;
		if ((im->pending_status = dup_bytes(status, strlen(status))) ==
		    NULL) {
			st = oom(im);
			goto out;
		}
	}
	st = session_variants(im, f[S_VARIANTS].v, s, c);
out:
	free(tags);
	pr_env_release(&env);
	return st;
}

/* Fills im->ds with the run's metrics.  Runs of a session usually carry
 * the same metrics: then the last run's dataset is kept and only its
 * values change, so that a run costs no allocation. */
static enum pr_status
run_metrics(struct imp *im, size_t x)
{
	struct pr_dataset *d = &im->ds;
	struct mrow *m;
	const char *b;
	size_t c, e[4] = { 0, 0, 0, 0 }, i, n;
	enum pr_status st;

	if ((st = v_array(im, x, "'metrics'")) != PR_OK)
		return st;
	n = im->j.v[x].count;
	if (n > im->mcap) {
		if ((m = realloc(im->m, n * sizeof(*m))) == NULL)
			return oom(im);
		im->m = m;
		im->mcap = n;
	}
	for (c = im->j.v[x].kid, i = 0; c != 0; c = im->j.v[c].next, i++) {
		m = &im->m[i];
		if ((st = v_tuple(im, c, "'metrics'", 4, e)) != PR_OK ||
		    (st = v_cstr(im, e[0], "a metric's name", 0, &m->name)) !=
			PR_OK ||
		    (st = v_cstr(im, e[1], "a metric's unit", 0, &m->unit)) !=
			PR_OK ||
		    (st = v_cstr(im, e[2], "a metric's direction", 1, &b)) !=
			PR_OK ||
		    (st = v_double(im, e[3], "a metric's value", &m->v)) !=
			PR_OK)
			return st;
		if (m->name[0] == '\0')
			return bad(im, "a metric's name is empty");
		if (b == NULL)
			m->better = PR_BETTER_UNKNOWN;
		else if (strcmp(b, "higher") == 0)
			m->better = PR_BETTER_HIGHER;
		else if (strcmp(b, "lower") == 0)
			m->better = PR_BETTER_LOWER;
		else
			return bad(im,
			    "a metric's direction must be "
			    "\"higher\", \"lower\" or null, not '%.40s'",
			    b);
	}
	for (i = 0; i < n && n == d->n; i++)
		if (strcmp(d->metrics[i].name, im->m[i].name) != 0 ||
		    strcmp(d->metrics[i].unit, im->m[i].unit) != 0 ||
		    d->metrics[i].better != im->m[i].better)
			break;
	if (n == d->n && i == n) {
		for (i = 0; i < n; i++)
			d->metrics[i].values.v[0] = im->m[i].v;
		return PR_OK;
	}
	pr_dataset_release(d);
	pr_dataset_init(d);
	for (i = 0; i < n; i++) {
		m = &im->m[i];
		if (pr_dataset_find(d, m->name) != NULL)
			return bad(im, "metric '%.80s' appears twice", m->name);
		st = pr_dataset_add(d, m->name, m->unit, m->better, m->v,
		    im->err);
		if (st != PR_OK)
			return st == PR_ENOMEM ? st : store_fail(im, st);
	}
	return PR_OK;
}

enum {
	R_SESSION,
	R_VARIANT,
	R_ROUND,
	R_SEQ,
	R_WARMUP,
	R_OK,
	R_OUTCOME,
	R_EXIT,
	R_SIGNAL,
	R_REASON,
	R_FAILED,
	R_TRUNC,
	R_START,
	R_METRICS,
	R_OUTPUT,
	R_N
};

static enum pr_status
do_run(struct imp *im, size_t root)
{
	struct field f[R_N] = { { "session", 0 }, { "variant", 0 },
		{ "round", 0 }, { "seq", 0 }, { "warmup", 0 }, { "ok", 0 },
		{ "outcome", 0 }, { "exit_status", 0 }, { "signal", 0 },
		{ "reason", 0 }, { "failed_in", 0 }, { "truncated", 0 },
		{ "start_s", 0 }, { "metrics", 0 }, { "output", 0 } };
	struct pr_store_run r;
	struct pr_str vname;
	struct sess *s;
	int64_t key, round, seq, ex, sig;
	size_t i;
	enum pr_status st;

	memset(&r, 0, sizeof(r));
	if ((st = members(im, root, f, R_N)) != PR_OK ||
	    (st = v_int(im, f[R_SESSION].v, "'session'", 1, INT64_MAX, &key,
		 NULL)) != PR_OK ||
	    (st = v_bytes(im, f[R_VARIANT].v, "'variant'", &vname)) != PR_OK ||
	    (st = v_int(im, f[R_ROUND].v, "'round'", 0, INT64_MAX, &round,
		 NULL)) != PR_OK ||
	    (st = v_int(im, f[R_SEQ].v, "'seq'", 0, INT64_MAX, &seq, NULL)) !=
		PR_OK ||
	    (st = v_bool(im, f[R_WARMUP].v, "'warmup'", &r.warmup)) != PR_OK ||
	    (st = v_bool(im, f[R_OK].v, "'ok'", &r.ok)) != PR_OK ||
	    (st = v_cstr(im, f[R_OUTCOME].v, "'outcome'", 0, &r.outcome)) !=
		PR_OK ||
	    (st = v_int(im, f[R_EXIT].v, "'exit_status'", INT32_MIN, INT32_MAX,
		 &ex, NULL)) != PR_OK ||
	    (st = v_int(im, f[R_SIGNAL].v, "'signal'", INT32_MIN, INT32_MAX,
		 &sig, NULL)) != PR_OK ||
	    (st = v_bytes(im, f[R_REASON].v, "'reason'", &r.reason)) != PR_OK ||
	    (st = v_cstr(im, f[R_FAILED].v, "'failed_in'", 1, &r.failed_in)) !=
		PR_OK ||
	    (st = v_bool(im, f[R_TRUNC].v, "'truncated'", &r.truncated)) !=
		PR_OK ||
	    (st = v_double(im, f[R_START].v, "'start_s'", &r.start_s)) !=
		PR_OK ||
	    (st = v_bytes(im, f[R_OUTPUT].v, "'output'", &r.output)) != PR_OK ||
	    (st = run_metrics(im, f[R_METRICS].v)) != PR_OK)
		return st;
	if ((s = find_sess(im, key)) == NULL)
		return bad(im,
		    "run of session %lld, which no session line "
		    "before it declares",
		    (long long)key);
	if (s->last < s->nv && str_eq(s->v[s->last].name, vname))
		i = s->last;
	else
		for (i = 0; i < s->nv; i++)
			if (str_eq(s->v[i].name, vname))
				break;
	if (i == s->nv)
		return bad(im,
		    "variant '%.*s' is not among the variants of "
		    "session %lld",
		    (int)(vname.n < 80 ? vname.n : 80), vname.p,
		    (long long)key);
	s->last = i;
	im->nruns++;
	if (s->skipped) {
		im->stats.runs_skipped++;
		return PR_OK;
	}
	r.variant = s->v[i].id;
	r.round = (size_t)round;
	r.seq = (size_t)seq;
	r.exit_status = (int)ex;
	r.signal = (int)sig;
	r.metrics = im->ds.n > 0 ? &im->ds : NULL;
	if ((st = pr_store_add_run(im->st, s->id, &r, im->err)) != PR_OK)
		return store_fail(im, st);
	im->stats.runs++;
	return PR_OK;
}

static enum pr_status
do_end(struct imp *im, size_t root)
{
	struct field f[] = { { "campaigns", 0 }, { "sessions", 0 },
		{ "runs", 0 } };
	static const char *const what[] = { "campaigns", "sessions", "runs" };
	size_t held[3];
	int64_t v;
	int i;
	enum pr_status st;

	if ((st = members(im, root, f, 3)) != PR_OK)
		return st;
	held[0] = im->nc;
	held[1] = im->ns;
	held[2] = im->nruns;
	for (i = 0; i < 3; i++) {
		if ((st = v_int(im, f[i].v, f[i].name, 0, INT64_MAX, &v,
			 NULL)) != PR_OK)
			return st;
		/* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): v_int set v */
		if ((uint64_t)v != held[i])
			return bad(im,
			    "the end line counts %lld %s, the file "
			    "holds %zu: it is damaged",
			    (long long)v, what[i], held[i]);
	}
	return end_pending(im);
}

static enum pr_status
do_header(struct imp *im, size_t root)
{
	struct field f[] = { { "format", 0 }, { "version", 0 },
		{ "schema", 0 } };
	const struct jv *fmt;
	int64_t version, schema;
	enum pr_status st;

	if (members(im, root, f, 1) != PR_OK ||
	    (fmt = &im->j.v[f[0].v])->t != J_STR ||
	    strcmp(fmt->s, "perfreg-export") != 0)
		return bad(im,
		    "not a perfreg export (its first line has no "
		    "\"format\":\"perfreg-export\")");
	if ((st = members(im, root, f, 3)) != PR_OK ||
	    (st = v_int(im, f[1].v, "'version'", 1, INT64_MAX, &version,
		 NULL)) != PR_OK ||
	    (st = v_int(im, f[2].v, "'schema'", 1, INT64_MAX, &schema, NULL)) !=
		PR_OK)
		return st;
	if (version > PR_STORE_EXPORT_VERSION)
		return bad(im,
		    "export format version %lld is newer than "
		    "this perfreg reads (%d): import it with a newer perfreg",
		    (long long)version, PR_STORE_EXPORT_VERSION);
	return PR_OK;
}

static enum pr_status
do_line(struct imp *im, const char *p, const char *e, int *ended)
{
	struct field f[] = { { "type", 0 } };
	const struct jv *t;
	size_t root;
	enum pr_status st;

	if ((size_t)(e - p) > PR_STORE_EXPORT_LINE_MAX)
		return bad(im,
		    "line of %zu bytes is longer than an export "
		    "line may be (%u)",
		    (size_t)(e - p), PR_STORE_EXPORT_LINE_MAX);
	if ((root = jparse(&im->j, p, e)) == 0) {
		long col = (long)(im->j.at - p + 1);

		if (strcmp(im->j.why, "out of memory") == 0)
			return oom(im);
		if (im->line == 1)
			return bad(im,
			    "not a perfreg export (%s at column "
			    "%ld)",
			    im->j.why, col);
		return pr_error_at(im->err, PR_EPARSE, im->name, im->line, col,
		    "%s at column %ld", im->j.why, col);
	}
	if (im->line == 1)
		return do_header(im, root);
	if (*ended)
		return bad(im, "text after the end line");
	if ((st = members(im, root, f, 1)) != PR_OK)
		return st;
	t = &im->j.v[f[0].v];
	if (t->t != J_STR)
		return bad(im, "'type' must be a string, not %s", jtype(t));
	if (strcmp(t->s, "run") == 0)
		return do_run(im, root);
	if (strcmp(t->s, "session") == 0)
		return do_session(im, root);
	if ((st = end_pending(im)) != PR_OK)
		return st;
	if (strcmp(t->s, "campaign") == 0)
		return do_campaign(im, root);
	if (strcmp(t->s, "variant") == 0)
		return do_variant(im, root);
	if (strcmp(t->s, "end") == 0) {
		*ended = 1;
		return do_end(im, root);
	}
	return bad(im, "unknown line type '%.40s'", t->s);
}

static enum pr_status
import_text(struct imp *im, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *e, *q;
	int ended = 0;
	enum pr_status st;

	if (len == 0)
		return pr_error_at(im->err, PR_EPARSE, im->name, 0, 0,
		    "empty file, not a perfreg export");
	while (p < end) {
		im->line++;
		e = memchr(p, '\n', (size_t)(end - p));
		if (e == NULL)
			e = end;
		for (q = p; q < e && (*q == ' ' || *q == '\t' || *q == '\r');)
			q++;
		if (q < e || im->line == 1) {
			if ((st = do_line(im, p, e, &ended)) != PR_OK)
				return st;
		}
		p = e < end ? e + 1 : e;
	}
	if (!ended) {
		im->line++;
		return bad(im,
		    "the end line is missing: the export is "
		    "truncated");
	}
	return PR_OK;
}

static void
imp_release(struct imp *im)
{
	size_t i, k;

	for (i = 0; i < im->nc; i++) {
		for (k = 0; k < im->c[i].nvars; k++)
			free((char *)im->c[i].vars[k].p);
		for (k = 0; k < im->c[i].nknown; k++) {
			free(im->c[i].known[k].host);
			free(im->c[i].known[k].boot_id);
		}
		free(im->c[i].vars);
		free(im->c[i].known);
		free(im->c[i].name);
	}
	for (i = 0; i < im->ns; i++) {
		for (k = 0; k < im->s[i].nv; k++)
			free((char *)im->s[i].v[k].name.p);
		free(im->s[i].v);
	}
	free(im->c);
	free(im->s);
	free(im->pending_status);
	free(im->j.v);
	free(im->j.sc);
	free(im->m);
	pr_dataset_release(&im->ds);
}

enum pr_status
pr_store_import(struct pr_store *st, const char *text, size_t len,
    const char *name, struct pr_store_import_stats *stats, struct pr_error *err)
{
	struct imp im;
	enum pr_status s;

	memset(&im, 0, sizeof(im));
	im.st = st;
	im.name = name != NULL ? name : "import";
	im.err = err;
	pr_dataset_init(&im.ds);
	if ((s = pr_store_begin(st, err)) != PR_OK)
		return s;
	s = import_text(&im, text, len);
	if (s == PR_OK)
		s = pr_store_commit(st, err);
	else
		pr_store_rollback(st);
	if (s == PR_OK && stats != NULL)
		*stats = im.stats;
	imp_release(&im);
	return s;
}
