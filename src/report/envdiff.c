/*
 * report/envdiff.c - the diff of two environment snapshots, ranked so
 * that what is known to move performance comes first, and its text and
 * JSON forms.
 *
 * Items are matched by key.  Each changed, added or removed item gets a
 * rank: the keys of the table `relevant` below in its order (clocksource
 * first: seed 000 lost its TSC timecounter and nobody saw it), then every
 * other item in B's order (A's for removed ones).  Lists (CPU flags,
 * modules, clocksources, kernel command line words, governors) are
 * compared word by word and shown as "+added -removed".  The kernel log
 * is compared as a multiset of normalised lines: a line that is in A
 * three times and in B once is "only in A" twice.  Lines about clocks,
 * timecounters, mitigations, microcode, frequency and hugepages are put
 * first, each list otherwise in log order.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "perfreg/env.h"
#include "perfreg/report.h"
#include "report/internal.h"
#include "core/envjson.h"
#include "core/banned.h"

#define VALUE_SHOWN 60

/* perfreg/env.h: the one table, also the suite's configuration. */
const char *const pr_env_relevant_keys[] = { "kernel.release", "kernel.version",
	"clocksource.current", "clocksource.available", "cpu.vulnerabilities.",
	"cpu.governor", "cpu.boost", "cpu.no_turbo", "cpu.pstate",
	"cpu.microcode", "cpu.flags", "kernel.cmdline", "cpu.smt", "thp.",
	"libc.version", "openssl.library", "env.", "compiler", "perfreg.probes",
	"cpu.model", "cpu.cores", "cpu.threads", NULL };

/* Items whose values are lists of words. */
static const char *const lists[] = { "clocksource.available", "cpu.flags",
	"kernel.cmdline", "modules", "cpu.governor", NULL };

/* Kernel log words that point at performance. */
static const char *const log_words[] = { "clocksource", "timecounter", "tsc",
	"hpet", "mitigation", "microcode", "spectre", "meltdown", "vulnerab",
	"retbleed", "cpufreq", "pstate", "governor", "throttl", "turbo",
	"hugepage", "smt", NULL };

int
pr_env_key_rank(const char *key)
{
	const char *r;
	size_t i, l;

	for (i = 0; (r = pr_env_relevant_keys[i]) != NULL; i++) {
		l = strlen(r);
		if (r[l - 1] == '.' ? strncmp(key, r, l) == 0
				    : strcmp(key, r) == 0)
			return (int)i;
	}
	return -1;
}

static int
is_list(const char *key)
{
	size_t i;

	for (i = 0; lists[i] != NULL; i++)
		if (strcmp(key, lists[i]) == 0)
			return 1;
	return 0;
}

int
pr_env_log_line_relevant(const char *line)
{
	size_t i, l, n = strlen(line), j;

	for (i = 0; log_words[i] != NULL; i++) {
		l = strlen(log_words[i]);
		for (j = 0; j + l <= n; j++)
			if (strncasecmp(line + j, log_words[i], l) == 0)
				return 1;
	}
	return 0;
}

void
pr_envdiff_release(struct pr_envdiff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->items[i].key);
		free(d->items[i].category);
		free(d->items[i].a);
		free(d->items[i].b);
		free(d->items[i].detail);
		free(d->items[i].reason);
	}
	free(d->items);
	for (i = 0; i < d->nlog_a; i++)
		free(d->log_a[i]);
	for (i = 0; i < d->nlog_b; i++)
		free(d->log_b[i]);
	free(d->log_a);
	free(d->log_b);
	memset(d, 0, sizeof(*d));
}

/* Splits s into words (a malloc'd copy in *store); sorted vector. */
static char **
words(const char *s, char **store, size_t *n)
{
	char **w, *p;
	size_t cap = 16;

	*n = 0;
	if ((*store = strdup(s)) == NULL ||
	    (w = malloc(cap * sizeof(*w))) == NULL) {
		free(*store);
		return NULL;
	}
	for (p = *store; *p != '\0';) {
		while (isspace((unsigned char)*p))
			*p++ = '\0';
		if (*p == '\0')
			break;
		if (*n == cap) {
			char **q = realloc(w, 2 * cap * sizeof(*w));

			if (q == NULL) {
				free(w);
				free(*store);
				return NULL;
			}
			w = q;
			cap *= 2;
		}
		w[(*n)++] = p;
		while (*p != '\0' && !isspace((unsigned char)*p))
			p++;
	}
	return w;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "+x +y -z": words in b not in a, then in a not in b (both sorted). */
static enum pr_status
word_diff(const char *a, const char *b, struct pr_buf *out,
    struct pr_buf *added, struct pr_buf *removed, struct pr_error *err)
{
	char *sa, *sb, **wa, **wb;
	size_t na, nb, i = 0, j = 0;
	enum pr_status st = PR_OK;
	int c;

	wa = words(a, &sa, &na);
	wb = wa ? words(b, &sb, &nb) : NULL;
	if (wb == NULL) {
		if (wa != NULL) {
			free(wa);
			free(sa);
		}
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	qsort(wa, na, sizeof(*wa), cmpstr);
	qsort(wb, nb, sizeof(*wb), cmpstr);
	while ((i < na || j < nb) && st == PR_OK) {
		c = i == na ? 1 : j == nb ? -1 : strcmp(wa[i], wb[j]);
		if (c == 0) {
			i++;
			j++;
		} else if (c < 0)
			st = pr_buf_addf(removed, err, "%s%s",
			    removed->len ? " " : "", wa[i++]);
		else
			st = pr_buf_addf(added, err, "%s%s",
			    added->len ? " " : "", wb[j++]);
	}
	/* The detail: every added word with +, then every removed one. */
	for (i = 0; i < nb && st == PR_OK; i++)
		if (!bsearch(&wb[i], wa, na, sizeof(*wa), cmpstr) &&
		    (i == 0 || strcmp(wb[i], wb[i - 1]) != 0))
			st = pr_buf_addf(out, err, "%s+%s", out->len ? " " : "",
			    wb[i]);
	for (i = 0; i < na && st == PR_OK; i++)
		if (!bsearch(&wa[i], wb, nb, sizeof(*wb), cmpstr) &&
		    (i == 0 || strcmp(wa[i], wa[i - 1]) != 0))
			st = pr_buf_addf(out, err, "%s-%s", out->len ? " " : "",
			    wa[i]);
	free(wa);
	free(wb);
	free(sa);
	free(sb);
	return st;
}

/* What a CPU flag's change means, or NULL. */
static const char *
flag_reason(const char *flag)
{
	static const struct {
		const char *flag, *why;
	} f[] = {
		{ "erms",
		    "the kernel's and libc's copy routines take "
		    "another path" },
		{ "fsrm", "short memcpy/memmove take another path" },
		{ "constant_tsc",
		    "the TSC may no longer be trusted as a "
		    "clocksource" },
		{ "nonstop_tsc",
		    "the TSC may no longer be trusted as a "
		    "clocksource" },
		{ "tsc", "the TSC may no longer be used as a clocksource" },
		{ "rdrand", "random numbers come from another source" },
		{ "aes", "AES runs without its instructions" },
		{ "avx", "vectorised code takes another path" },
		{ "avx2", "vectorised code takes another path" },
		{ "avx512f", "vectorised code takes another path" },
		{ "sha_ni", "SHA runs without its instructions" },
		{ "pcid", "address-space switches flush the TLB" },
		{ "hypervisor", "the machine is (no longer) a virtual one" },
	};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (strcmp(flag, f[i].flag) == 0)
			return f[i].why;
	return NULL;
}

/* The first flag of list (space-separated) with a known meaning. */
static enum pr_status
flags_reason(const char *added, const char *removed, struct pr_buf *r,
    struct pr_error *err)
{
	const char *lists2[2] = { removed, added };
	const char *verb[2] = { "disappeared", "appeared" };
	enum pr_status st = PR_OK;
	int k, n = 0;

	for (k = 0; k < 2 && st == PR_OK; k++) {
		char *copy = strdup(lists2[k] ? lists2[k] : ""), *p, *q;

		if (copy == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		for (p = copy; *p != '\0' && st == PR_OK; p = q) {
			const char *why;

			q = strchr(p, ' ');
			if (q != NULL)
				*q++ = '\0';
			else
				q = p + strlen(p);
			if ((why = flag_reason(p)) == NULL)
				continue;
			st = pr_buf_addf(r, err, "%s%s %s: %s", n ? "; " : "",
			    p, verb[k], why);
			n++;
		}
		free(copy);
	}
	if (st == PR_OK && n == 0)
		st = pr_buf_adds(r,
		    "CPU flags changed: code that picks an "
		    "implementation by CPU feature may take another path",
		    err);
	return st;
}

/* The kernel command line: names the options known to move
 * performance that were added or removed. */
static enum pr_status
cmdline_reason(const char *added, const char *removed, struct pr_buf *r,
    struct pr_error *err)
{
	static const char *const opts[] = { "mitigations=", "clocksource=",
		"tsc=", "isolcpus=", "nohz", "intel_pstate=", "amd_pstate=",
		"processor.max_cstate=", "intel_idle.max_cstate=", "idle=",
		"transparent_hugepage=", "hugepages=", "nosmt", "pti=",
		"spectre_v2=", "retbleed=", "spec_store_bypass_disable=",
		"mds=", "numa_balancing=", "preempt=", "threadirqs",
		"rcu_nocbs=", NULL };
	const char *lists2[2] = { added, removed };
	enum pr_status st = PR_OK;
	size_t i, k, n = 0;

	st = pr_buf_adds(r, "kernel command line changed", err);
	for (k = 0; k < 2 && st == PR_OK; k++) {
		const char *p = lists2[k];

		while (p != NULL && *p != '\0' && st == PR_OK) {
			size_t l = strcspn(p, " ");

			for (i = 0; opts[i] != NULL; i++)
				if (strncmp(p, opts[i], strlen(opts[i])) == 0)
					break;
			if (opts[i] != NULL)
				st = pr_buf_addf(r, err, "%s%c%.*s",
				    n++ ? " " : " (", k ? '-' : '+', (int)l, p);
			p += l;
			/* cppcheck-suppress nullPointerRedundantCheck ; p is
			 * NULL only before the loop's first test */
			while (*p == ' ')
				p++;
		}
	}
	if (st == PR_OK)
		st = pr_buf_adds(r, n ? ")" : "", err);
	if (st == PR_OK)
		st = pr_buf_adds(r,
		    ": boot options (mitigations=, "
		    "clocksource=, isolcpus=, nohz...) change behaviour",
		    err);
	return st;
}

static int
mitigated(const char *v)
{
	return v != NULL && strncmp(v, "Mitigation", 10) == 0;
}

const char *
report_env_absent(const char *key)
{
	return strncmp(key, "env.", 4) == 0 ? "(unset)" : "(absent)";
}

/* What a process environment variable (env.NAME) chooses. */
static const char *
process_var_reason(const char *name)
{
	if (strncmp(name, "OPENSSL_", 8) == 0)
		return "OpenSSL's capability mask chooses which instructions "
		       "(AES-NI, SHA, AVX...) its ciphers and digests use";
	if (strcmp(name, "GLIBC_TUNABLES") == 0)
		return "glibc's tunables choose its CPU features (memcpy, "
		       "strlen...), malloc's and threads' behaviour";
	if (strncmp(name, "MALLOC_", 7) == 0)
		return "glibc's malloc hands out memory otherwise";
	if (strcmp(name, "LD_LIBRARY_PATH") == 0)
		return "libraries may load from elsewhere: another libc or "
		       "libcrypto";
	if (strcmp(name, "LD_HWCAP_MASK") == 0)
		return "the loader picks libraries built for other CPU "
		       "features";
	return "code is interposed on the program's library calls";
}

/* The one-line reason of a change. */
static enum pr_status
reason(const char *key, const char *a, const char *b, const char *added,
    const char *removed, struct pr_buf *r, struct pr_error *err)
{
	const char *sa = a ? a : report_env_absent(key);
	const char *sb = b ? b : report_env_absent(key);

	if (strncmp(key, "env.", 4) == 0)
		return pr_buf_addf(r, err, "%s changed from %s to %s: %s",
		    key + 4, sa, sb, process_var_reason(key + 4));

	if (strcmp(key, "clocksource.current") == 0) {
		if (b != NULL && strcmp(b, "tsc") == 0)
			return pr_buf_addf(r, err,
			    "clocksource changed "
			    "from %s to %s: reading the time becomes cheap "
			    "again; timing-heavy code speeds up",
			    sa, sb);
		if (b != NULL &&
		    (strcmp(b, "hpet") == 0 || strcmp(b, "acpi_pm") == 0 ||
			strcmp(b, "jiffies") == 0))
			return pr_buf_addf(r, err,
			    "clocksource changed "
			    "from %s to %s: reading the time becomes a slow "
			    "I/O access; timing-heavy code slows down",
			    sa, sb);
		return pr_buf_addf(r, err,
		    "clocksource changed from %s to "
		    "%s: the cost of reading the time differs",
		    sa, sb);
	}
	if (strcmp(key, "clocksource.available") == 0)
		return pr_buf_addf(r, err,
		    "available clocksources changed"
		    "%s%s: the kernel may have fallen back to a slower one",
		    removed && *removed ? ", lost " : "",
		    removed ? removed : "");
	if (strncmp(key, "cpu.vulnerabilities.", 20) == 0) {
		const char *v = key + 20;

		if (mitigated(b) && !mitigated(a))
			return pr_buf_addf(r, err,
			    "mitigation for %s "
			    "enabled: system calls and context switches "
			    "cost more",
			    v);
		if (mitigated(a) && !mitigated(b))
			return pr_buf_addf(r, err,
			    "mitigation for %s "
			    "no longer active: system calls and context "
			    "switches cost less",
			    v);
		return pr_buf_addf(r, err,
		    "mitigation for %s changed: the "
		    "cost of system calls and context switches may differ",
		    v);
	}
	if (strcmp(key, "cpu.governor") == 0)
		return pr_buf_addf(r, err,
		    "frequency governor changed from "
		    "%s to %s: the clock speed under load differs",
		    sa, sb);
	if (strcmp(key, "cpu.boost") == 0 || strcmp(key, "cpu.no_turbo") == 0)
		return pr_buf_addf(r, err,
		    "turbo/boost changed from %s to "
		    "%s: the peak clock speed differs",
		    sa, sb);
	if (strcmp(key, "cpu.pstate") == 0)
		return pr_buf_addf(r, err,
		    "intel_pstate changed from %s to "
		    "%s: frequency scaling is driven differently",
		    sa, sb);
	if (strcmp(key, "cpu.microcode") == 0)
		return pr_buf_addf(r, err,
		    "microcode changed from %s to %s: "
		    "updates add mitigations and change instruction costs",
		    sa, sb);
	if (strcmp(key, "cpu.flags") == 0)
		return flags_reason(added, removed, r, err);
	if (strcmp(key, "kernel.cmdline") == 0)
		return cmdline_reason(added, removed, r, err);
	if (strcmp(key, "cpu.smt") == 0)
		return pr_buf_addf(r, err,
		    "SMT changed from %s to %s: "
		    "threads share cores differently",
		    sa, sb);
	if (strncmp(key, "thp.", 4) == 0)
		return pr_buf_addf(r, err,
		    "transparent hugepages (%s) "
		    "changed from %s to %s: TLB misses and page-fault cost "
		    "differ",
		    key + 4, sa, sb);
	if (strcmp(key, "cpu.model") == 0)
		return pr_buf_adds(r,
		    "another CPU model: results are not "
		    "comparable",
		    err);
	if (strcmp(key, "cpu.cores") == 0 || strcmp(key, "cpu.threads") == 0)
		return pr_buf_addf(r, err,
		    "CPU count changed from %s to %s: "
		    "parallel work and scheduling differ",
		    sa, sb);
	if (strcmp(key, "kernel.release") == 0)
		return pr_buf_addf(r, err, "kernel changed from %s to %s", sa,
		    sb);
	if (strcmp(key, "modules") == 0)
		return pr_buf_adds(r, "loaded modules changed", err);
	if (a == NULL)
		return pr_buf_adds(r, "only in B", err);
	if (b == NULL)
		return pr_buf_adds(r, "only in A", err);
	return pr_buf_adds(r, "changed", err);
}

/* A value as shown: the value, or "unavailable: reason". */
static char *
shown(const struct pr_env_item *x)
{
	struct pr_buf b = PR_BUF_INIT(1 << 24);

	if (x == NULL)
		return NULL;
	if (x->value != NULL)
		return strdup(x->value);
	if (pr_buf_addf(&b, NULL, "unavailable: %s", x->reason) != PR_OK) {
		pr_buf_release(&b);
		return NULL;
	}
	return b.data;
}

static int
same(const struct pr_env_item *a, const struct pr_env_item *b)
{
	if ((a->value == NULL) != (b->value == NULL))
		return 0;
	return a->value ? strcmp(a->value, b->value) == 0
			: strcmp(a->reason, b->reason) == 0;
}

struct ranked {
	struct pr_envdiff_item it;
	int rank;
	size_t order;
};

static int
cmpranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static enum pr_status
add_item(struct ranked *v, size_t *n, const struct pr_env_item *a,
    const struct pr_env_item *b, size_t order, struct pr_error *err)
{
	const struct pr_env_item *x = b ? b : a;
	struct pr_buf r = PR_BUF_INIT(1 << 16), d = PR_BUF_INIT(1 << 24);
	struct pr_buf add = PR_BUF_INIT(1 << 24), rem = PR_BUF_INIT(1 << 24);
	struct ranked *o = &v[*n];
	enum pr_status st = PR_OK;
	/* cppcheck-suppress nullPointerRedundantCheck ; a or b is
	 * non-NULL: the callers pass an item on one side at least */
	int rk = pr_env_key_rank(x->key);

	memset(o, 0, sizeof(*o));
	o->it.kind = a == NULL ? PR_ENVDIFF_ADDED
	    : b == NULL        ? PR_ENVDIFF_REMOVED
			       : PR_ENVDIFF_CHANGED;
	o->it.relevant = rk >= 0;
	o->rank = rk >= 0 ? rk : 1000;
	o->order = order;
	if (is_list(x->key) && a && b && a->value && b->value) {
		st = word_diff(a->value, b->value, &d, &add, &rem, err);
		if (st == PR_OK && d.data == NULL)
			st =
			    pr_buf_adds(&d, "(same words, another order)", err);
	}
	o->it.a = shown(a);
	o->it.b = shown(b);
	if (st == PR_OK)
		st = reason(x->key,
		    a == NULL      ? NULL
			: a->value ? a->value
				   : "unavailable",
		    b == NULL      ? NULL
			: b->value ? b->value
				   : "unavailable",
		    add.data, rem.data, &r, err);
	if (st == PR_OK && a && b && (a->value == NULL) != (b->value == NULL))
		st = pr_buf_adds(&r,
		    b->value == NULL ? " (no longer readable)"
				     : " (now readable)",
		    err);
	if (st == PR_OK) {
		o->it.key = strdup(x->key);
		o->it.category = strdup(x->category);
		o->it.detail = d.data;
		d.data = NULL;
		o->it.reason = r.data;
		r.data = NULL;
		if (o->it.key == NULL || o->it.category == NULL ||
		    (a && o->it.a == NULL) || (b && o->it.b == NULL) ||
		    o->it.reason == NULL)
			st = pr_error_set(err, PR_ENOMEM, "out of memory");
		(*n)++;
	}
	if (st != PR_OK && o->it.key == NULL && o->it.reason == NULL) {
		/* Not counted: nothing else owns its values. */
		free(o->it.a);
		free(o->it.b);
		memset(o, 0, sizeof(*o));
	}
	pr_buf_release(&r);
	pr_buf_release(&d);
	pr_buf_release(&add);
	pr_buf_release(&rem);
	return st;
}

struct line {
	const char *s;
	size_t len, idx;
	int only;
};

static int
cmpline(const void *pa, const void *pb)
{
	const struct line *a = pa, *b = pb;
	size_t l = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->s, b->s, l);

	if (c != 0)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int
cmpidx(const void *pa, const void *pb)
{
	const struct line *a = pa, *b = pb;

	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static struct line *
split_lines(const char *s, size_t *n)
{
	struct line *v;
	size_t cap = 1, i = 0;
	const char *p, *q;

	for (p = s; *p; p++)
		cap += *p == '\n';
	if ((v = calloc(cap, sizeof(*v))) == NULL)
		return NULL;
	for (p = s; *p != '\0'; p = *q ? q + 1 : q) {
		q = strchr(p, '\n');
		if (q == NULL)
			q = p + strlen(p);
		v[i].s = p;
		v[i].len = (size_t)(q - p);
		v[i].idx = i;
		i++;
	}
	*n = i;
	return v;
}

/* The lines marked `only`, in log order, relevant ones first. */
static enum pr_status
collect(struct line *v, size_t n, char ***out, size_t *nout, size_t *nrel,
    struct pr_error *err)
{
	size_t i, k = 0, pass;

	qsort(v, n, sizeof(*v), cmpidx);
	*nout = *nrel = 0;
	if ((*out = calloc(n ? n : 1, sizeof(**out))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++) {
			char *s;
			int rel;

			if (!v[i].only)
				continue;
			if ((s = strndup(v[i].s, v[i].len)) == NULL)
				return pr_error_set(err, PR_ENOMEM,
				    "out of memory");
			rel = pr_env_log_line_relevant(s);
			if (rel != (pass == 0)) {
				free(s);
				continue;
			}
			(*out)[k++] = s;
			*nout = k;
			*nrel += rel;
		}
	return PR_OK;
}

static enum pr_status
log_diff(const char *a, const char *b, struct pr_envdiff *d,
    struct pr_error *err)
{
	struct line *va, *vb;
	size_t na, nb, i = 0, j = 0;
	enum pr_status st;
	int c;

	va = split_lines(a, &na);
	vb = va ? split_lines(b, &nb) : NULL;
	if (vb == NULL) {
		free(va);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	qsort(va, na, sizeof(*va), cmpline);
	qsort(vb, nb, sizeof(*vb), cmpline);
	while (i < na || j < nb) {
		if (i == na)
			c = 1;
		else if (j == nb)
			c = -1;
		else {
			size_t l =
			    va[i].len < vb[j].len ? va[i].len : vb[j].len;

			c = memcmp(va[i].s, vb[j].s, l);
			if (c == 0 && va[i].len != vb[j].len)
				c = va[i].len < vb[j].len ? -1 : 1;
		}
		if (c == 0) {
			i++;
			j++;
		} else if (c < 0)
			va[i++].only = 1;
		else
			vb[j++].only = 1;
	}
	st = collect(va, na, &d->log_a, &d->nlog_a, &d->nrel_a, err);
	if (st == PR_OK)
		st = collect(vb, nb, &d->log_b, &d->nlog_b, &d->nrel_b, err);
	free(va);
	free(vb);
	return st;
}

enum pr_status
pr_env_diff(const struct pr_env *a, const struct pr_env *b,
    struct pr_envdiff *d, struct pr_error *err)
{
	const struct pr_env_item *la, *lb;
	struct ranked *v;
	enum pr_status st = PR_OK;
	size_t i, n = 0;

	memset(d, 0, sizeof(*d));
	if ((v = calloc(a->n + b->n + 1, sizeof(*v))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < b->n && st == PR_OK; i++) {
		const struct pr_env_item *x = &b->items[i];
		const struct pr_env_item *y = pr_env_get(a, x->key);

		if (strcmp(x->key, "kernel.log") == 0)
			continue;
		if (y == NULL)
			st = add_item(v, &n, NULL, x, i, err);
		else if (!same(y, x))
			st = add_item(v, &n, y, x, i, err);
	}
	for (i = 0; i < a->n && st == PR_OK; i++) {
		const struct pr_env_item *y = &a->items[i];

		if (strcmp(y->key, "kernel.log") != 0 &&
		    pr_env_get(b, y->key) == NULL)
			st = add_item(v, &n, y, NULL, b->n + i, err);
	}
	if (n > 0)
		qsort(v, n, sizeof(*v), cmpranked);
	d->n = n;
	d->items = calloc(n ? n : 1, sizeof(*d->items));
	if (d->items == NULL) {
		d->n = 0;
		for (i = 0; i < n; i++)
			v[i].it.detail = NULL;
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
	} else
		for (i = 0; i < n; i++)
			d->items[i] = v[i].it;
	free(v);
	if (st == PR_OK) {
		la = pr_env_get(a, "kernel.log");
		lb = pr_env_get(b, "kernel.log");
		if (la && lb && la->value && lb->value) {
			d->log_compared = 1;
			st = log_diff(la->value, lb->value, d, err);
		}
	}
	if (st != PR_OK)
		pr_envdiff_release(d);
	return st;
}

/* The value of item key cut to VALUE_SHOWN characters. */
static enum pr_status
add_value(struct pr_buf *out, const char *key, const char *v,
    struct pr_error *err)
{
	enum pr_status st;
	size_t l;

	if (v == NULL)
		return pr_buf_adds(out, report_env_absent(key), err);
	l = strlen(v);
	/* Control bytes from the snapshot are shown, not sent. */
	if (l <= VALUE_SHOWN)
		return pr_report_escape(out, v, l, 0, err);
	if ((st = pr_report_escape(out, v, VALUE_SHOWN - 3, 0, err)) != PR_OK)
		return st;
	return pr_buf_adds(out, "...", err);
}

static enum pr_status
format_log(struct pr_buf *out, char sign, char **v, size_t n, size_t max,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;
	size_t i;

	for (i = 0; i < n && i < max && st == PR_OK; i++) {
		st = pr_buf_addf(out, err, "  %c ", sign);
		if (st == PR_OK)
			st = pr_report_escape(out, v[i], strlen(v[i]), 0, err);
		if (st == PR_OK)
			st = pr_buf_addc(out, '\n', err);
	}
	if (st == PR_OK && n > max)
		st = pr_buf_addf(out, err, "  %c ... and %zu more\n", sign,
		    n - max);
	return st;
}

enum pr_status
pr_envdiff_format_text(const struct pr_envdiff *d, const char *name_a,
    const char *name_b, size_t log_max, struct pr_buf *out,
    struct pr_error *err)
{
	enum pr_status st;
	size_t i, w = 0, nrel = 0, l, start;
	int section = -1;

	for (i = 0; i < d->n; i++) {
		if ((l = strlen(d->items[i].key)) > w)
			w = l;
		nrel += d->items[i].relevant != 0;
	}
	st = pr_buf_addf(out, err, "environment diff: A = %s, B = %s\n", name_a,
	    name_b);
	if (st == PR_OK && d->n == 0)
		st = pr_buf_adds(out, "\nno item differs\n", err);
	for (i = 0; i < d->n && st == PR_OK; i++) {
		const struct pr_envdiff_item *x = &d->items[i];

		if (x->relevant != section) {
			section = x->relevant;
			st = pr_buf_addf(out, err, "\n%s (%zu):\n",
			    section ? "changes known to move performance"
				    : "other changes",
			    section ? nrel : d->n - nrel);
			if (st != PR_OK)
				break;
		}
		/* The key and the reason come from the snapshots too
		 * (fuzz_envdiff found an ESC in a reason): escaped. */
		st = pr_buf_adds(out, "  ", err);
		start = out->len;
		if (st == PR_OK)
			st = pr_report_escape(out, x->key, strlen(x->key), 0,
			    err);
		while (st == PR_OK && out->len - start < w)
			st = pr_buf_addc(out, ' ', err);
		if (st == PR_OK)
			st = pr_buf_adds(out, "  ", err);
		if (st == PR_OK && x->detail != NULL)
			st = pr_report_escape(out, x->detail, strlen(x->detail),
			    0, err);
		else if (st == PR_OK) {
			st = add_value(out, x->key, x->a, err);
			if (st == PR_OK)
				st = pr_buf_adds(out, " -> ", err);
			if (st == PR_OK)
				st = add_value(out, x->key, x->b, err);
		}
		if (st == PR_OK)
			st = pr_buf_addf(out, err, "\n  %-*s  ", (int)w, "");
		if (st == PR_OK)
			st = pr_report_escape(out, x->reason, strlen(x->reason),
			    0, err);
		if (st == PR_OK)
			st = pr_buf_addc(out, '\n', err);
	}
	if (st != PR_OK)
		return st;
	if (!d->log_compared)
		return pr_buf_adds(out,
		    "\nkernel log: not compared "
		    "(unavailable in A or B)\n",
		    err);
	st = pr_buf_addf(out, err,
	    "\nkernel log, normalised: %zu line%s "
	    "only in A, %zu only in B",
	    d->nlog_a, d->nlog_a == 1 ? "" : "s", d->nlog_b);
	if (st == PR_OK && d->nrel_a + d->nrel_b > 0)
		st = pr_buf_addf(out, err,
		    " (%zu about clocks, mitigations "
		    "or frequency, shown first)",
		    d->nrel_a + d->nrel_b);
	if (st == PR_OK)
		st =
		    pr_buf_adds(out, d->nlog_a + d->nlog_b ? ":\n" : "\n", err);
	if (st == PR_OK)
		st = format_log(out, '-', d->log_a, d->nlog_a, log_max, err);
	if (st == PR_OK)
		st = format_log(out, '+', d->log_b, d->nlog_b, log_max, err);
	return st;
}

static json_t *
strings(char **v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a != NULL && i < n; i++)
		if (json_array_append_new(a, json_string(v[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

json_t *
report_envdiff_json(const struct pr_envdiff *d)
{
	static const char *const kinds[] = { "changed", "added", "removed" };
	json_t *root, *ch, *it;
	size_t i;

	ch = json_array();
	root = json_pack("{s:o, s:{s:b, s:o, s:o}}", "changes", ch, "log",
	    "compared", d->log_compared, "only_a", strings(d->log_a, d->nlog_a),
	    "only_b", strings(d->log_b, d->nlog_b));
	if (root == NULL)
		return NULL;
	for (i = 0; i < d->n; i++) {
		const struct pr_envdiff_item *x = &d->items[i];

		it = json_pack("{s:s, s:s, s:s, s:b, s:s?, s:s?, s:s?, s:s}",
		    "key", x->key, "category", x->category, "kind",
		    kinds[x->kind], "relevant", x->relevant, "a", x->a, "b",
		    x->b, "detail", x->detail, "reason", x->reason);
		if (it == NULL || json_array_append_new(ch, it) != 0) {
			json_decref(root);
			return NULL;
		}
	}
	return root;
}

enum pr_status
pr_envdiff_to_json(const struct pr_envdiff *d, struct pr_buf *out,
    struct pr_error *err)
{
	json_t *root;

	if ((root = report_envdiff_json(d)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	return env_json_emit(root, out, err);
}
