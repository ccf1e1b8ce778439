/*
 * store/export.c - campaigns as JSON Lines: pr_store_export writes them
 * from one database; store/import.c reads them into another.
 *
 * The format is doc/export.md: a header line, then per campaign a
 * campaign line, its variant lines, and each session line followed by
 * the session's runs, and last an end line with the counts, so that a
 * file cut at a line boundary is still recognised as truncated.  Every
 * line is one JSON object of at most PR_STORE_EXPORT_LINE_MAX bytes.
 *
 * The writer is written by hand rather than with jansson, as the reader
 * is (store/jsonl.c says why).  It escapes byte strings itself (or
 * base64-encodes them when they are not text, or when escaping would
 * make them longer than base64) and prints doubles with 17 significant
 * digits, which pr_parse_double reads back bit-exactly.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/store.h"
#include "store/str.h"

#include "core/banned.h"

/* Pending output is handed to the write function in pieces of this size. */
#define FLUSH_AT ((size_t)1 << 20)
/* The writer's buffer: a line and what was pending before it. */
#define OUT_MAX (FLUSH_AT + 2 * (size_t)PR_STORE_EXPORT_LINE_MAX)

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

/* 1 when p[i..n) starts with the UTF-8 of a C1 control (U+0080 to
 * U+009F), which is written as a \u escape as DEL is, so that an export
 * shown on a terminal cannot drive it (issue 12). */
static int
c1_at(const char *p, size_t i, size_t n)
{
	return (unsigned char)p[i] == 0xc2 && i + 1 < n &&
	    (unsigned char)p[i + 1] >= 0x80 && (unsigned char)p[i + 1] <= 0x9f;
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
		else if (c < 0x20 || c == 0x7f)
			len += 5;
		else if (c1_at(p, i, n)) {
			len += 4;
			i++;
		}
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
		if (c1_at(p, i, n))
			c = (unsigned char)p[++i];
		else if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f) {
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
	size_t i, k;

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
	/* The metrics the parser marked as the benchmark's own result
	 * (PR_METRIC_RESULT), by name: a member older readers ignore. */
	lit(o, "],\"results\":[");
	for (i = 0, k = 0; i < r->nm; i++)
		if (r->metric_flags != NULL &&
		    (r->metric_flags[i] & PR_METRIC_RESULT) != 0)
			m_cstr(o, k++ > 0 ? "," : "", r->metric_names[i]);
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
	lit(o, "],\"primary\":[");
	for (i = 0; i < s->nprimary; i++)
		m_cstr(o, i > 0 ? "," : "", s->primary[i]);
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
				if (pr_store_str_eq(campaigns[j], campaigns[i]))
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
