/*
 * store/import.c - pr_store_import: an export (doc/export.md, written by
 * store/export.c) read into a database, one line at a time with the JSON
 * reader of store/jsonl.h.  Every line is checked against the format
 * before anything of it is stored: its members, their types and ranges,
 * the campaign, session and variant it refers to; errors name the file
 * and line.  Sessions already in the database (same campaign, host,
 * boot id and start time) are skipped with their runs.
 *
 * An import from memory (pr_store_import) is one transaction: any error
 * rolls back everything it did.  An import read as it comes
 * (pr_store_import_read) commits once per MiB of input, so that it never
 * holds the write lock for long (a campaign that waits to store its run
 * gets it between two chunks), and an error rolls back only the chunk
 * it is in: importing the same file again adds what is missing, run by
 * run.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/numparse.h"
#include "perfreg/store.h"
#include "store/jsonl.h"
#include "store/str.h"

#include "core/banned.h"

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
	int skipped; /* already in the database: only its missing runs */
	struct svar *v;
	size_t nv, last;
	size_t *seen; /* seq of the run lines read, ascending */
	size_t nseen, capseen;
	size_t *stored; /* skipped: seq of the runs stored, ascending */
	size_t nstored;
};

/* What the schema allows (doc/schema.md, doc/export.md). */
static const char *const session_statuses[] = { "running", "done",
	"interrupted", "max-failures", "decided", "undecided", "failed",
	"resumed", NULL };
static const char *const run_outcomes[] = { "ok", "exit", "signal", "timeout",
	"noexec", "interrupted", NULL };
static const char *const failure_stages[] = { "prepare", "command", "parse",
	NULL };

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
	struct pr_jsonl j;
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
	int cut;      /* the line is the last and has no newline */
	struct pr_store_import_stats stats;
	struct pr_store_import_stats committed; /* stats of the chunks in */
	int open; /* a transaction (pr_store_begin) is open */
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
jtype(const struct pr_jsonl_node *v)
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
name_is(const char *name, const struct pr_jsonl_node *v)
{
	size_t i;

	for (i = 0; i < v->kn; i++)
		if (name[i] != v->k[i] || name[i] == '\0')
			return 0;
	return name[i] == '\0';
}

/* Finds the members f[0..nf) of object obj; f[nreq..nf) may be absent
 * (members added to version 1 later: v 0). */
static enum pr_status
members_opt(struct imp *im, size_t obj, struct field *f, size_t nf, size_t nreq)
{
	size_t c, i;
	const struct pr_jsonl_node *v;

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
	for (i = 0; i < nreq; i++)
		if (f[i].v == 0)
			return bad(im, "missing '%s'", f[i].name);
	return PR_OK;
}

static enum pr_status
members(struct imp *im, size_t obj, struct field *f, size_t nf)
{
	return members_opt(im, obj, f, nf, nf);
}

static enum pr_status
v_bytes(struct imp *im, size_t x, const char *what, struct pr_str *out)
{
	const struct pr_jsonl_node *v = &im->j.v[x], *b;
	struct pr_jsonl *j = &im->j;
	size_t i, pad = 0;
	char *q;
	int m;

	if (v->t == PR_JSONL_STR) {
		out->p = v->s;
		out->n = v->n;
		return PR_OK;
	}
	b = &j->v[v->kid];
	if (v->t != PR_JSONL_OBJ || v->count != 1 || b->kn != 6 ||
	    memcmp(b->k, "base64", 6) != 0 || b->t != PR_JSONL_STR)
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

	if (null_ok && im->j.v[x].t == PR_JSONL_NULL) {
		*out = NULL;
		return PR_OK;
	}
	if ((st = v_bytes(im, x, what, &s)) != PR_OK)
		return st;
	if (im->j.v[x].t == PR_JSONL_STR ? im->j.v[x].nul
					 : memchr(s.p, '\0', s.n) != NULL)
		return bad(im, "%s holds a NUL byte", what);
	*out = s.p;
	return PR_OK;
}

/* "WHAT is out of range: TEXT" for a number node. */
static enum pr_status
bad_number(struct imp *im, const char *what, const struct pr_jsonl_node *v,
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
	const struct pr_jsonl_node *v = &im->j.v[x];
	const char *p, *e;
	uint64_t u = 0, lim;
	int neg = 0;

	if (isnull != NULL) {
		*isnull = v->t == PR_JSONL_NULL;
		if (*isnull)
			return PR_OK;
	}
	if (v->t != PR_JSONL_NUM)
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
	const struct pr_jsonl_node *v = &im->j.v[x];
	const char *stop;
	enum pr_status st;

	if (v->t != PR_JSONL_NUM)
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
	const struct pr_jsonl_node *v = &im->j.v[x];

	if (v->t != PR_JSONL_TRUE && v->t != PR_JSONL_FALSE)
		return bad(im, "%s must be true or false, not %s", what,
		    jtype(v));
	*out = v->t == PR_JSONL_TRUE;
	return PR_OK;
}

/* The elements of an array of n-element arrays: e[i] of element k. */
static enum pr_status
v_tuple(struct imp *im, size_t x, const char *what, size_t n, size_t *e)
{
	const struct pr_jsonl_node *v = &im->j.v[x];
	size_t i, c;

	if (v->t != PR_JSONL_ARR || v->count != n)
		return bad(im, "each of %s must be an array of %zu", what, n);
	for (i = 0, c = v->kid; i < n; i++, c = im->j.v[c].next)
		e[i] = c;
	return PR_OK;
}

static enum pr_status
v_array(struct imp *im, size_t x, const char *what)
{
	if (im->j.v[x].t != PR_JSONL_ARR)
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

/* A session already in the database whose stored status is "running"
 * takes the status and duration of the export (when the next line that
 * is not one of its runs comes, as a new session does). */
static enum pr_status
pending_if_running(struct imp *im, int64_t id, const char *status,
    double elapsed)
{
	struct pr_store_session_info si;
	enum pr_status st;
	int running;

	memset(&si, 0, sizeof(si));
	if ((st = pr_store_session_get(im->st, id, &si, im->err)) != PR_OK)
		return st;
	running = strcmp(si.status, "running") == 0;
	pr_store_session_info_release(&si);
	if (!running || strcmp(status, "running") == 0)
		return PR_OK;
	im->pending = id;
	im->pending_elapsed = elapsed;
	im->pending_line = im->line;
	if ((im->pending_status = dup_bytes(status, strlen(status))) == NULL)
		return oom(im);
	return PR_OK;
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
		if (pr_store_str_eq(c->vars[i], name))
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

/*
 * The metric names of array x (member what; x 0: absent, none) into
 * *names (the caller frees the array; the names are the line's), each a
 * non-empty string without NUL, each once.
 */
static enum pr_status
name_list(struct imp *im, size_t x, const char *what, const char ***names,
    size_t *n)
{
	size_t c, i;
	enum pr_status st;

	*n = 0;
	*names = NULL;
	if (x == 0)
		return PR_OK;
	if ((st = v_array(im, x, what)) != PR_OK)
		return st;
	if (im->j.v[x].count == 0)
		return PR_OK;
	if ((*names = calloc(im->j.v[x].count, sizeof(**names))) == NULL)
		return oom(im);
	for (c = im->j.v[x].kid; c != 0; c = im->j.v[c].next) {
		if ((st = v_cstr(im, c, what, 0, &(*names)[*n])) != PR_OK)
			return st;
		if ((*names)[*n][0] == '\0')
			return bad(im, "%s holds an empty name", what);
		for (i = 0; i < *n; i++)
			if (strcmp((*names)[i], (*names)[*n]) == 0)
				return bad(im, "%s names '%.80s' twice", what,
				    (*names)[*n]);
		++*n;
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
		/* Also for a session already there, which may gain runs:
		 * the variant and the session's use of it exist then, and
		 * this only reads their ids. */
		if ((st = pr_store_session_variant(im->st, s->id, name, command,
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
	S_PRIMARY,
	S_N
};

/* 1 when s is one of the strings of set (NULL-terminated). */
static int
one_of(const char *s, const char *const *set)
{
	for (; *set != NULL; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

/* The index where v is or would go in the ascending a[0..n); *found. */
static size_t
seq_pos(const size_t *a, size_t n, size_t v, int *found)
{
	size_t lo = 0, hi = n, mid;

	*found = 0;
	if (n > 0 && a[n - 1] < v)
		return n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < n && a[lo] == v;
	return lo;
}

/* Records that a run line of s has seq; PR_EPARSE when one had it. */
static enum pr_status
seq_seen(struct imp *im, struct sess *s, size_t seq)
{
	size_t at, *p;
	int found;

	at = seq_pos(s->seen, s->nseen, seq, &found);
	if (found)
		return bad(im, "run %zu of session %lld appears twice", seq,
		    (long long)s->key);
	if (s->nseen == s->capseen) {
		size_t cap = s->capseen ? 2 * s->capseen : 64;

		if ((p = realloc(s->seen, cap * sizeof(*p))) == NULL)
			return oom(im);
		s->seen = p;
		s->capseen = cap;
	}
	memmove(s->seen + at + 1, s->seen + at,
	    (s->nseen - at) * sizeof(*s->seen));
	s->seen[at] = seq;
	s->nseen++;
	return PR_OK;
}

static enum pr_status
do_session(struct imp *im, size_t root)
{
	struct field f[S_N] = { { "key", 0 }, { "campaign", 0 }, { "host", 0 },
		{ "boot_id", 0 }, { "args", 0 }, { "status", 0 },
		{ "started", 0 }, { "elapsed_s", 0 }, { "resumes", 0 },
		{ "tags", 0 }, { "variants", 0 }, { "env", 0 },
		{ "primary", 0 } };
	struct pr_store_session_new sn;
	struct pr_store_tag *tags = NULL;
	const char **primary = NULL;
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
	if ((st = members_opt(im, root, f, S_N, S_PRIMARY)) != PR_OK ||
	    (st = v_int(im, f[S_KEY].v, "'key'", 1, INT64_MAX, &key, NULL)) !=
		PR_OK ||
	    (st = campaign_of(im, f[S_CAMPAIGN].v, &ci)) != PR_OK ||
	    (st = v_cstr(im, f[S_HOST].v, "'host'", 0, &sn.host)) != PR_OK ||
	    (st = v_cstr(im, f[S_BOOT].v, "'boot_id'", 0, &sn.boot_id)) !=
		PR_OK ||
	    (st = v_cstr(im, f[S_ARGS].v, "'args'", 1, &sn.args_json)) !=
		PR_OK ||
	    (st = v_cstr(im, f[S_STATUS].v, "'status'", 0, &status)) != PR_OK ||
	    (!one_of(status, session_statuses) &&
		(st = bad(im, "unknown session status '%.40s'", status)) !=
		    PR_OK) ||
	    (st = v_double(im, f[S_STARTED].v, "'started'", &sn.started)) !=
		PR_OK ||
	    (st = v_double(im, f[S_ELAPSED].v, "'elapsed_s'", &elapsed)) !=
		PR_OK ||
	    (st = v_int(im, f[S_RESUMES].v, "'resumes'", 1, INT64_MAX, &rkey,
		 &noresume)) != PR_OK ||
	    (st = session_tags(im, f[S_TAGS].v, &tags, &ntags)) != PR_OK ||
	    (st = name_list(im, f[S_PRIMARY].v, "'primary'", &primary,
		 &sn.nprimary)) != PR_OK)
		goto out;
	sn.primary = primary;
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
	if (im->j.v[f[S_ENV].v].t == PR_JSONL_OBJ) {
		const struct pr_jsonl_node *e = &im->j.v[f[S_ENV].v];

		st = pr_env_from_json(&env, e->s, e->n, im->name, im->err);
		if (st == PR_ENOMEM)
			goto out;
		if (st != PR_OK) {
			st = store_fail(im, st);
			goto out;
		}
		sn.env = &env;
	} else if (im->j.v[f[S_ENV].v].t != PR_JSONL_NULL) {
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
		/* Already there, perhaps from a partial export of a session
		 * that was still running: its runs are decided one by one
		 * (by seq), and a status that was "running" takes the one
		 * of this export. */
		s->skipped = 1;
		s->id = k->id;
		im->stats.sessions_skipped++;
		st = pr_store_run_seqs(im->st, s->id, &s->stored, &s->nstored,
		    im->err);
		if (st == PR_OK)
			st = pending_if_running(im, s->id, status, elapsed);
		if (st != PR_OK) {
			st = store_fail(im, st);
			goto out;
		}
	} else {
		sn.imported = 1;
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
	free(primary);
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
	R_RESULTS,
	R_N
};

/* Marks the metrics of im->ds that 'results' (x; 0: absent) names as the
 * benchmark's own result, and only those. */
static enum pr_status
run_results(struct imp *im, size_t x)
{
	struct pr_metric *m;
	const char **names = NULL;
	size_t i, n = 0;
	enum pr_status st;

	for (i = 0; i < im->ds.n; i++)
		im->ds.metrics[i].flags = 0;
	st = name_list(im, x, "'results'", &names, &n);
	for (i = 0; st == PR_OK && i < n; i++) {
		if ((m = pr_dataset_find(&im->ds, names[i])) == NULL)
			st = bad(im,
			    "'results' names '%.80s', which is not one "
			    "of the run's metrics",
			    names[i]);
		else
			m->flags |= PR_METRIC_RESULT;
	}
	free(names);
	return st;
}

static enum pr_status
do_run(struct imp *im, size_t root)
{
	struct field f[R_N] = { { "session", 0 }, { "variant", 0 },
		{ "round", 0 }, { "seq", 0 }, { "warmup", 0 }, { "ok", 0 },
		{ "outcome", 0 }, { "exit_status", 0 }, { "signal", 0 },
		{ "reason", 0 }, { "failed_in", 0 }, { "truncated", 0 },
		{ "start_s", 0 }, { "metrics", 0 }, { "output", 0 },
		{ "results", 0 } };
	struct pr_store_run r;
	struct pr_str vname;
	struct sess *s;
	int64_t key, round, seq, ex, sig;
	size_t i;
	enum pr_status st;

	memset(&r, 0, sizeof(r));
	if ((st = members_opt(im, root, f, R_N, R_RESULTS)) != PR_OK ||
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
	    (!one_of(r.outcome, run_outcomes) &&
		(st = bad(im, "unknown run outcome '%.40s'", r.outcome)) !=
		    PR_OK) ||
	    (st = v_int(im, f[R_EXIT].v, "'exit_status'", INT32_MIN, INT32_MAX,
		 &ex, NULL)) != PR_OK ||
	    (st = v_int(im, f[R_SIGNAL].v, "'signal'", INT32_MIN, INT32_MAX,
		 &sig, NULL)) != PR_OK ||
	    (st = v_bytes(im, f[R_REASON].v, "'reason'", &r.reason)) != PR_OK ||
	    (st = v_cstr(im, f[R_FAILED].v, "'failed_in'", 1, &r.failed_in)) !=
		PR_OK ||
	    (r.failed_in != NULL && !one_of(r.failed_in, failure_stages) &&
		(st = bad(im, "unknown failure stage '%.40s'", r.failed_in)) !=
		    PR_OK) ||
	    (st = v_bool(im, f[R_TRUNC].v, "'truncated'", &r.truncated)) !=
		PR_OK ||
	    (st = v_double(im, f[R_START].v, "'start_s'", &r.start_s)) !=
		PR_OK ||
	    (st = v_bytes(im, f[R_OUTPUT].v, "'output'", &r.output)) != PR_OK ||
	    (st = run_metrics(im, f[R_METRICS].v)) != PR_OK ||
	    (st = run_results(im, f[R_RESULTS].v)) != PR_OK)
		return st;
	if ((s = find_sess(im, key)) == NULL)
		return bad(im,
		    "run of session %lld, which no session line "
		    "before it declares",
		    (long long)key);
	if (s->last < s->nv && pr_store_str_eq(s->v[s->last].name, vname))
		i = s->last;
	else
		for (i = 0; i < s->nv; i++)
			if (pr_store_str_eq(s->v[i].name, vname))
				break;
	if (i == s->nv)
		return bad(im,
		    "variant '%.*s' is not among the variants of "
		    "session %lld",
		    (int)(vname.n < 80 ? vname.n : 80), vname.p,
		    (long long)key);
	s->last = i;
	im->nruns++;
	if ((st = seq_seen(im, s, (size_t)seq)) != PR_OK)
		return st;
	if (s->skipped) {
		int found;

		seq_pos(s->stored, s->nstored, (size_t)seq, &found);
		if (found) {
			im->stats.runs_skipped++;
			return PR_OK;
		}
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
	const struct pr_jsonl_node *fmt;
	int64_t version, schema;
	enum pr_status st;

	if (members(im, root, f, 1) != PR_OK ||
	    (fmt = &im->j.v[f[0].v])->t != PR_JSONL_STR ||
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
	const struct pr_jsonl_node *t;
	size_t root;
	enum pr_status st;

	if ((size_t)(e - p) > PR_STORE_EXPORT_LINE_MAX)
		return bad(im,
		    "line of %zu bytes is longer than an export "
		    "line may be (%u)",
		    (size_t)(e - p), PR_STORE_EXPORT_LINE_MAX);
	if ((root = pr_jsonl_parse(&im->j, p, e)) == 0) {
		long col = (long)(im->j.at - p + 1);

		if (strcmp(im->j.why, "out of memory") == 0)
			return oom(im);
		if (im->cut && im->line > 1)
			return bad(im,
			    "the export is truncated: its last line is cut "
			    "(%s at column %ld)",
			    im->j.why, col);
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
	if (t->t != PR_JSONL_STR)
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

/* The next line [p, e), newline excluded; blank lines after the first
 * are skipped. */
static enum pr_status
import_line(struct imp *im, const char *p, const char *e, int *ended)
{
	const char *q;

	im->line++;
	/* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): [p, e) is what the reader wrote into the buffer (import_stream counts only the bytes it returned) */
	for (q = p; q < e && (*q == ' ' || *q == '\t' || *q == '\r');)
		q++;
	if (q == e && im->line != 1)
		return PR_OK;
	/* The transaction opens with the first line after a commit, so
	 * that the write lock is free while the next chunk is read. */
	if (!im->open) {
		enum pr_status st = pr_store_begin(im->st, im->err);

		if (st != PR_OK)
			return st;
		im->open = 1;
	}
	return do_line(im, p, e, ended);
}

static enum pr_status
import_done(struct imp *im, size_t total, int ended)
{
	if (total == 0)
		return pr_error_at(im->err, PR_EPARSE, im->name, 0, 0,
		    "empty file, not a perfreg export");
	if (!ended) {
		im->line++;
		return bad(im,
		    "the end line is missing: the export is "
		    "truncated");
	}
	return PR_OK;
}

static enum pr_status
import_text(struct imp *im, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *e;
	int ended = 0;
	enum pr_status st;

	while (p < end) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (e == NULL)
			e = end;
		im->cut = e == end;
		if ((st = import_line(im, p, e, &ended)) != PR_OK)
			return st;
		p = e < end ? e + 1 : e;
	}
	return import_done(im, len, ended);
}

/* What import_stream reads at a time, and how much it imports between
 * two commits. */
#define READ_CHUNK ((size_t)1 << 20)

/*
 * Commits what was imported since the last commit and opens the next
 * transaction, after leaving the write lock free for a few milliseconds:
 * a writer that waits (a campaign storing its run, whose busy handler
 * tries every millisecond) takes it then, and the import waits for that
 * one commit.
 */
static enum pr_status
chunk_commit(struct imp *im)
{
	static const struct timespec gap = { 0, 3000000 };
	enum pr_status st;

	if (!im->open)
		return PR_OK;
	im->open = 0;
	if ((st = pr_store_commit(im->st, im->err)) != PR_OK)
		return st;
	im->committed = im->stats;
	nanosleep(&gap, NULL);
	return PR_OK;
}

/*
 * The export read through rd: complete lines are imported as they come,
 * so that memory stays below one line (PR_STORE_EXPORT_LINE_MAX) and one
 * chunk whatever the size of the input.  What was imported is committed
 * before each read once a chunk (READ_CHUNK) of input is in, so that a
 * long import never holds the write lock for long and an error keeps the
 * chunks before it.
 */
static enum pr_status
import_stream(struct imp *im, pr_store_read_fn *rd, void *arg)
{
	const size_t cap = PR_STORE_EXPORT_LINE_MAX + READ_CHUNK + 1;
	size_t len = 0, start = 0, scan = 0, total = 0, n, want;
	size_t since = 0; /* bytes read since the last commit */
	char *buf, *nl;
	int ended = 0, eof = 0;
	enum pr_status st = PR_OK;

	if ((buf = malloc(cap)) == NULL)
		return oom(im);
	while (st == PR_OK) {
		while (st == PR_OK &&
		    (nl = memchr(buf + scan, '\n', len - scan)) != NULL) {
			st = import_line(im, buf + start, nl, &ended);
			start = scan = (size_t)(nl - buf) + 1;
		}
		if (st != PR_OK)
			break;
		if (eof) {
			im->cut = 1;
			if (start < len)
				st = import_line(im, buf + start, buf + len,
				    &ended);
			if (st == PR_OK)
				st = import_done(im, total, ended);
			break;
		}
		if (len - start > PR_STORE_EXPORT_LINE_MAX) {
			im->line++;
			st = bad(im,
			    "line is longer than an export line may be (%u "
			    "bytes)",
			    PR_STORE_EXPORT_LINE_MAX);
			break;
		}
		memmove(buf, buf + start, len - start);
		len -= start;
		start = 0;
		scan = len;
		/* The lines read so far are imported: only the start of
		 * the next one is in buf. */
		if (since >= READ_CHUNK) {
			if ((st = chunk_commit(im)) != PR_OK)
				break;
			since = 0;
		}
		n = 0;
		if (im->err != NULL)
			pr_error_clear(im->err);
		want = cap - len < READ_CHUNK ? cap - len : READ_CHUNK;
		st = rd(arg, buf + len, want, &n, im->err);
		if (st == PR_OK && n > want)
			st = pr_error_set(im->err, PR_EINVAL,
			    "the reader returned more than it was asked for");
		len += n;
		total += n;
		since += n;
		eof = n == 0;
	}
	free(buf);
	return st;
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
		free(im->s[i].seen);
		free(im->s[i].stored);
	}
	free(im->c);
	free(im->s);
	free(im->pending_status);
	pr_jsonl_release(&im->j);
	free(im->m);
	pr_dataset_release(&im->ds);
}

/* Imports text (rd NULL) or what rd reads. */
static enum pr_status
import_any(struct pr_store *st, const char *text, size_t len,
    pr_store_read_fn *rd, void *arg, const char *name,
    struct pr_store_import_stats *stats, struct pr_error *err)
{
	struct imp im;
	enum pr_status s;

	memset(&im, 0, sizeof(im));
	im.st = st;
	im.name = name != NULL ? name : "import";
	im.err = err;
	pr_dataset_init(&im.ds);
	s = rd != NULL ? import_stream(&im, rd, arg)
		       : import_text(&im, text, len);
	if (s == PR_OK && im.open)
		s = pr_store_commit(st, err);
	else if (im.open)
		pr_store_rollback(st);
	if (s == PR_OK)
		im.committed = im.stats;
	if (stats != NULL && (s == PR_OK || rd != NULL))
		*stats = im.committed;
	imp_release(&im);
	return s;
}

enum pr_status
pr_store_import(struct pr_store *st, const char *text, size_t len,
    const char *name, struct pr_store_import_stats *stats, struct pr_error *err)
{
	return import_any(st, text, len, NULL, NULL, name, stats, err);
}

enum pr_status
pr_store_import_read(struct pr_store *st, pr_store_read_fn *read, void *arg,
    const char *name, struct pr_store_import_stats *stats, struct pr_error *err)
{
	return import_any(st, NULL, 0, read, arg, name, stats, err);
}
