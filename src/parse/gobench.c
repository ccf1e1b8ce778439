/*
 * parse/gobench.c - Go benchmark output, the format benchstat reads
 * (golang.org/design/14313-benchmark-format, with the "Unit" metadata
 * lines of golang/go#43744).
 *
 * A result line is "BenchmarkNAME ITERATIONS VALUE UNIT [VALUE UNIT...]"
 * with fields separated by white space.  Each (benchmark, unit) pair is a
 * metric named "NAME UNIT", NAME being benchstat's row name: the
 * benchmark name without "Benchmark", its "-GOMAXPROCS" suffix and
 * sub-benchmark parts kept ("Encode/format=json-8 ns/op").  A space
 * cannot occur in a Go benchmark name (the testing package replaces it
 * with '_'), so the name and the unit stay apart.  Names under a "pkg:"
 * configuration line are qualified by the package's short name
 * ("sum.Sum-8 ns/op" under "pkg: example.com/m/sum"; the element before
 * a major version "v2"), because `go test ./...` may run benchmarks of
 * the same name in two packages, and so that a file of one package
 * matches the same package in a file of several.  Two packages of one
 * input with the same short name are qualified by their whole paths.
 *
 * Lines are committed to as benchfmt does: a line starting with
 * "Benchmark" not followed by a lowercase letter is a result, and must be
 * well-formed (an error otherwise, at its line), except a line that has
 * only the name on it, which `go test -v` prints before a benchmark's
 * log output.  "Unit UNIT better=higher|lower" lines set a unit's
 * direction (conflicting ones are an error); otherwise it follows from
 * the unit (perfreg/units.h).  Configuration lines ("goos: linux") other
 * than pkg, and every other line (PASS, ok, test logs), are ignored.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/buf.h"
#include "perfreg/numparse.h"
#include "perfreg/units.h"
#include "parse/bench.h"
#include "parse/readers.h"
#include "core/banned.h"

#define MAX_UNIT_META 64

struct unit_meta {
	char unit[PR_UNIT_MAX];
	enum pr_better better;
};

struct span {
	const char *s;
	size_t n;
};

struct gb {
	const struct pr_input *in;
	struct pr_dataset *out;
	size_t first_metric; /* metrics from out->n on are this input's */
	const char *pkg;     /* qualifier of the current "pkg:", pkg_len */
	size_t pkg_len;      /* bytes; 0 before any "pkg:" line */
	struct span *pkgs;   /* the distinct "pkg:" values */
	size_t npkgs;
	struct unit_meta meta[MAX_UNIT_META];
	size_t nmeta;
	struct pr_buf name;
	size_t results;
	/* Metric names -> index + 1 in out->metrics (0: empty slot), open
	 * addressing, at most half full: a file of many benchmarks and
	 * repetitions costs no quadratic lookups. */
	size_t *slots;
	size_t nslots, used;
};

static uint64_t
hash(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The slot of name: where it is, or the empty slot where it would go. */
static size_t *
slot_of(const struct gb *g, const char *name)
{
	size_t i = (size_t)hash(name) & (g->nslots - 1);

	while (g->slots[i] != 0 &&
	    strcmp(g->out->metrics[g->slots[i] - 1].name, name) != 0)
		i = (i + 1) & (g->nslots - 1);
	return &g->slots[i];
}

/* Makes room for one more name, rehashing every metric of out. */
static enum pr_status
grow_slots(struct gb *g, struct pr_error *err)
{
	size_t n, i;

	if (g->nslots != 0 && 2 * (g->used + 1) <= g->nslots)
		return PR_OK;
	for (n = 64; n < 4 * (g->out->n + 1); n *= 2)
		continue;
	free(g->slots);
	if ((g->slots = calloc(n, sizeof(*g->slots))) == NULL) {
		g->nslots = g->used = 0;
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	g->nslots = n;
	for (i = 0; i < g->out->n; i++)
		*slot_of(g, g->out->metrics[i].name) = i + 1;
	g->used = g->out->n;
	return PR_OK;
}

/* Appends v to the metric called name (in g->name), made if new. */
static enum pr_status
add_value(struct gb *g, const char *unit, double v, struct pr_error *err)
{
	struct pr_metric *m;
	size_t *sl;
	enum pr_status st;

	if ((st = grow_slots(g, err)) != PR_OK)
		return st;
	sl = slot_of(g, g->name.data);
	if (*sl == 0) {
		st = pr_dataset_get(g->out, g->name.data, unit,
		    pr_unit_direction(unit), &m, err);
		if (st != PR_OK)
			return st;
		/* The time per operation is the benchmark's result; bytes
		 * and allocations per operation are side figures. */
		if (strcmp(unit, "ns/op") == 0 || strcmp(unit, "sec/op") == 0)
			m->flags |= PR_METRIC_RESULT;
		*sl = (size_t)(m - g->out->metrics) + 1;
		g->used++;
	}
	return pr_sample_push(&g->out->metrics[*sl - 1].values, v, err);
}

static int
is_ws(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Splits [s, e) into at most max fields; returns how many there are
 * (counting past max). */
static size_t
split(const char *s, const char *e, const char *(*f)[2], size_t max)
{
	size_t n = 0;
	const char *q;

	for (;;) {
		while (s < e && is_ws((unsigned char)*s))
			s++;
		if (s == e)
			return n;
		for (q = s; q < e && !is_ws((unsigned char)*q); q++)
			continue;
		if (n < max) {
			f[n][0] = s;
			f[n][1] = q;
		}
		n++;
		s = q;
	}
}

/*
 * A configuration line "key: value": key starts with a lowercase letter
 * and has no space or uppercase letter; the value follows ": " (or
 * nothing).  Sets *klen to the key's length and *val, *vlen to the
 * value, trimmed.
 */
static int
config_line(const char *s, const char *e, const char **val, size_t *vlen,
    size_t *klen)
{
	const char *p;

	if (s == e || *s < 'a' || *s > 'z')
		return 0;
	for (p = s; p < e && *p != ':'; p++)
		if (is_ws((unsigned char)*p) || (*p >= 'A' && *p <= 'Z'))
			return 0;
	if (p == e)
		return 0;
	*klen = (size_t)(p - s);
	p++;
	if (p < e && *p != ' ' && *p != '\t')
		return 0;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (e > p && is_ws((unsigned char)e[-1]))
		e--;
	*val = p;
	*vlen = (size_t)(e - p);
	return 1;
}

static int
is_result(const char *s, const char *e)
{
	return (size_t)(e - s) >= 9 && memcmp(s, "Benchmark", 9) == 0 &&
	    !(s + 9 < e && s[9] >= 'a' && s[9] <= 'z');
}

static enum pr_status
unit_line(struct gb *g, const char *s, const char *e, long line,
    struct pr_error *err)
{
	const char *f[16][2];
	size_t n, i, k, ulen;
	enum pr_better b;
	char val[16], ex[64];

	n = split(s, e, f, 16);
	if (n < 2)
		return pr_error_at(err, PR_EPARSE, g->in->name, line, 0,
		    "\"Unit\" line without a unit");
	ulen = (size_t)(f[1][1] - f[1][0]);
	for (i = 2; i < n && i < 16; i++) {
		const char *eq =
		    memchr(f[i][0], '=', (size_t)(f[i][1] - f[i][0]));
		size_t vl;

		if (eq == NULL || eq == f[i][0])
			return pr_error_at(err, PR_EPARSE, g->in->name, line,
			    (long)(f[i][0] - s) + 1,
			    "expected key=value in \"Unit\" line, got '%s'",
			    pr_read_excerpt(ex, sizeof(ex), f[i][0],
				(size_t)(f[i][1] - f[i][0])));
		if (eq - f[i][0] != 6 || memcmp(f[i][0], "better", 6) != 0)
			continue;
		vl = (size_t)(f[i][1] - eq - 1);
		if (vl >= sizeof(val))
			vl = sizeof(val) - 1;
		memcpy(val, eq + 1, vl);
		val[vl] = '\0';
		if (pr_better_from_str(val, &b) != 0 || b == PR_BETTER_UNKNOWN)
			return pr_error_at(err, PR_EPARSE, g->in->name, line,
			    (long)(eq + 1 - s) + 1,
			    "expected better=higher or better=lower, got '%s'",
			    pr_read_excerpt(ex, sizeof(ex), eq + 1,
				(size_t)(f[i][1] - eq - 1)));
		if (ulen >= PR_UNIT_MAX)
			return pr_error_at(err, PR_ELIMIT, g->in->name, line,
			    (long)(f[1][0] - s) + 1,
			    "unit longer than %d "
			    "bytes",
			    PR_UNIT_MAX - 1);
		for (k = 0; k < g->nmeta; k++)
			if (strlen(g->meta[k].unit) == ulen &&
			    memcmp(g->meta[k].unit, f[1][0], ulen) == 0)
				break;
		if (k < g->nmeta) {
			if (g->meta[k].better != b)
				return pr_error_at(err, PR_EPARSE, g->in->name,
				    line, 0,
				    "unit '%s' was given the other "
				    "direction before",
				    g->meta[k].unit);
			continue;
		}
		if (g->nmeta == MAX_UNIT_META)
			return pr_error_at(err, PR_ELIMIT, g->in->name, line, 0,
			    "more than %d \"Unit\" lines", MAX_UNIT_META);
		memcpy(g->meta[k].unit, f[1][0], ulen);
		g->meta[k].unit[ulen] = '\0';
		g->meta[k].better = b;
		g->nmeta++;
	}
	return PR_OK;
}

static enum pr_status
result_line(struct gb *g, const char *s, const char *e, long line,
    struct pr_error *err)
{
	const char *(*f)[2] = NULL;
	const char *nb, *ne, *p, *stop;
	char ex[64], where[128], *unit = NULL;
	size_t n, i, ulen;
	double v;
	enum pr_status st = PR_OK;

	n = split(s, e, NULL, 0);
	if (n <= 1)
		return PR_OK; /* `go test -v` prints the name alone first */
	if ((f = malloc(n * sizeof(*f))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	split(s, e, f, n);
	nb = f[0][0] + 9;
	ne = f[0][1];
	if (nb == ne)
		nb = f[0][0]; /* a benchmark called just "Benchmark" */
	for (p = f[1][0]; p < f[1][1]; p++)
		if (*p < '0' || *p > '9')
			break;
	if (p != f[1][1]) {
		st = pr_error_at(err, PR_EPARSE, g->in->name, line,
		    (long)(f[1][0] - s) + 1,
		    "expected an iteration count after '%s', got '%s'",
		    pr_read_excerpt(where, sizeof(where), f[0][0],
			(size_t)(f[0][1] - f[0][0])),
		    pr_read_excerpt(ex, sizeof(ex), f[1][0],
			(size_t)(f[1][1] - f[1][0])));
		goto out;
	}
	if (n == 2) {
		st = pr_error_at(err, PR_EPARSE, g->in->name, line, 0,
		    "no measurements after the iteration count");
		goto out;
	}
	if (n % 2 != 0) {
		st = pr_error_at(err, PR_EPARSE, g->in->name, line,
		    (long)(f[n - 1][1] - s) + 1,
		    "a value without a unit at the end of the line");
		goto out;
	}
	for (i = 2; i < n; i += 2) {
		if (pr_parse_double(f[i][0], f[i][1], &stop, &v, NULL) !=
			PR_OK ||
		    stop != f[i][1]) {
			snprintf(where, sizeof(where), "for benchmark '%s'",
			    pr_read_excerpt(ex, sizeof(ex), nb,
				(size_t)(ne - nb)));
			if ((st = pr_read_number(g->in, f[i][0], f[i][1], where,
				 &v, err)) != PR_OK)
				goto out;
		}
		ulen = (size_t)(f[i + 1][1] - f[i + 1][0]);
		free(unit);
		if ((unit = strndup(f[i + 1][0], ulen)) == NULL) {
			st = pr_error_set(err, PR_ENOMEM, "out of memory");
			goto out;
		}
		pr_buf_reset(&g->name);
		if (g->pkg_len > 0 &&
		    ((st = pr_buf_add(&g->name, g->pkg, g->pkg_len, err)) ||
			(st = pr_buf_addc(&g->name, '.', err))))
			goto out;
		if ((st = pr_buf_add(&g->name, nb, (size_t)(ne - nb), err)) ||
		    (st = pr_buf_addc(&g->name, ' ', err)) ||
		    (st = pr_buf_adds(&g->name, unit, err)))
			goto out;
		if ((st = add_value(g, unit, v, NULL)) != PR_OK) {
			pr_error_at(err, st, g->in->name, line,
			    (long)(f[i][0] - s) + 1, "%s", pr_status_str(st));
			goto out;
		}
	}
	g->results++;
out:
	free(unit);
	free(f);
	return st;
}

/*
 * The short name of package path p: its last element, or the one before
 * when the last is a major version ("example.com/m/v2" -> "m").
 */
static void
short_pkg(const char *p, size_t n, const char **s, size_t *sn)
{
	const char *e = p + n, *b = e, *q;
	int version;

	while (b > p && b[-1] != '/')
		b--;
	version = e - b >= 2 && *b == 'v';
	for (q = b + 1; version && q < e; q++)
		if (*q < '0' || *q > '9')
			version = 0;
	if (version && b - p >= 2) {
		e = b - 1;
		for (b = e; b > p && b[-1] != '/'; b--)
			continue;
	}
	*s = b;
	*sn = (size_t)(e - b);
}

/* The distinct "pkg:" values of the input, in g->pkgs. */
static enum pr_status
collect_pkgs(struct gb *g, struct pr_error *err)
{
	const char *s = g->in->data, *e = s + g->in->len, *eol, *val;
	size_t vlen, klen, k;
	struct span *np;

	for (; s < e; s = eol + 1) {
		if ((eol = memchr(s, '\n', (size_t)(e - s))) == NULL)
			eol = e;
		if (config_line(s, eol, &val, &vlen, &klen) && klen == 3 &&
		    memcmp(s, "pkg", 3) == 0 && vlen > 0) {
			for (k = 0; k < g->npkgs; k++)
				if (g->pkgs[k].n == vlen &&
				    memcmp(g->pkgs[k].s, val, vlen) == 0)
					break;
			if (k == g->npkgs) {
				np = realloc(g->pkgs,
				    (g->npkgs + 1) * sizeof(*np));
				if (np == NULL)
					return pr_error_set(err, PR_ENOMEM,
					    "out of memory");
				g->pkgs = np;
				g->pkgs[g->npkgs].s = val;
				g->pkgs[g->npkgs].n = vlen;
				g->npkgs++;
			}
		}
		if (eol == e)
			break;
	}
	return PR_OK;
}

/*
 * Sets the qualifier of names under package path p: its short name,
 * unless another package of this input has the same short name, in which
 * case the whole path.
 */
static void
set_pkg(struct gb *g, const char *p, size_t n)
{
	const char *os;
	size_t k, osn;

	short_pkg(p, n, &g->pkg, &g->pkg_len);
	for (k = 0; k < g->npkgs; k++) {
		if (g->pkgs[k].n == n && memcmp(g->pkgs[k].s, p, n) == 0)
			continue;
		short_pkg(g->pkgs[k].s, g->pkgs[k].n, &os, &osn);
		if (osn == g->pkg_len && memcmp(os, g->pkg, osn) == 0) {
			g->pkg = p;
			g->pkg_len = n;
			return;
		}
	}
}

static enum pr_status
read_gobench(const struct pr_input *in, struct pr_dataset *out,
    struct pr_error *err)
{
	struct gb g;
	const char *s, *e, *eol, *le, *val;
	size_t vlen, klen, i, k;
	long line;
	enum pr_status st = PR_OK;

	if ((st = pr_read_check_text(in, 0, err)) != PR_OK)
		return st;
	memset(&g, 0, sizeof(g));
	g.in = in;
	g.out = out;
	g.first_metric = out->n;
	pr_buf_init(&g.name, PR_READ_LINE_MAX + 2 * PR_UNIT_MAX);
	st = collect_pkgs(&g, err);

	s = in->data;
	e = in->data + in->len;
	if (in->len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3;
	for (line = 1; st == PR_OK && s < e; s = eol + 1, line++) {
		if ((eol = memchr(s, '\n', (size_t)(e - s))) == NULL)
			eol = e;
		le = eol;
		if (le > s && le[-1] == '\r')
			le--;
		if (is_result(s, le) && eol == e)
			/* No line end: the input may have been cut inside
			 * it ("0 allocs/op" cut to "0 allocs/"). */
			st = pr_error_at(err, PR_EPARSE, in->name, line, 0,
			    "the input ends inside this benchmark result (no "
			    "line end after it): a record cut short");
		else if (is_result(s, le))
			st = result_line(&g, s, le, line, err);
		else if (le - s >= 5 && memcmp(s, "Unit", 4) == 0 &&
		    is_ws((unsigned char)s[4]))
			st = unit_line(&g, s, le, line, err);
		else if (config_line(s, le, &val, &vlen, &klen) && klen == 3 &&
		    memcmp(s, "pkg", 3) == 0) {
			set_pkg(&g, val, vlen);
		}
		if (eol == e)
			break;
	}
	if (st == PR_OK && g.results == 0)
		st = pr_error_at(err, PR_EPARSE, in->name, 0, 0,
		    in->len == 0 ? "empty input"
				 : "no Go benchmark results (lines "
				   "\"BenchmarkName N value unit ...\")");
	if (st == PR_OK)
		for (i = g.first_metric; i < out->n; i++)
			for (k = 0; k < g.nmeta; k++)
				if (strcmp(out->metrics[i].unit,
					g.meta[k].unit) == 0)
					out->metrics[i].better =
					    g.meta[k].better;
	pr_buf_release(&g.name);
	free(g.slots);
	free(g.pkgs);
	return st;
}

/* A result line with the iterations and a first value: "BenchmarkX N V U". */
static int
detect_result(const char *s, const char *e)
{
	const char *f[4][2], *p;

	if (!is_result(s, e) || split(s, e, f, 4) < 4)
		return 0;
	for (p = f[1][0]; p < f[1][1]; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return pr_read_is_number(f[2][0], f[2][1]);
}

/* A first line of `go test -bench`'s configuration. */
static int
detect_config(const char *s, const char *e)
{
	static const char *const keys[] = { "goos:", "goarch:", "pkg:", "cpu:",
		NULL };
	size_t k, n;

	for (k = 0; keys[k] != NULL; k++) {
		n = strlen(keys[k]);
		if ((size_t)(e - s) >= n && memcmp(s, keys[k], n) == 0)
			return 1;
	}
	return 0;
}

/*
 * Shaped: a line of the input is a Go benchmark result ("BenchmarkX 100
 * 5 ns/op"), or its first line is a Go configuration line ("goos: ...",
 * "goarch: ...", "pkg: ...", "cpu: ...").  Never a JSON document.
 */
static unsigned
detect_gobench(const struct pr_input *in)
{
	const char *p = pr_read_text_start(in), *e = in->data + in->len;
	const char *q, *eol;

	if (p == NULL || *p == '{')
		return 0;
	for (q = p; q < e; q = eol + 1) {
		if ((eol = memchr(q, '\n', (size_t)(e - q))) == NULL)
			eol = e;
		if (detect_result(q, eol) || (q == p && detect_config(q, eol)))
			return PR_DETECT_SHAPED;
		if (eol == e)
			break;
	}
	return 0;
}

/* An input of `compare` and a format of `parse` alike. */
const struct pr_bench_format pr_bench_gobench = {
	.name = "gobench",
	.description = "Go benchmark lines (go test -bench)",
	.detect = detect_gobench,
	.parse = read_gobench, /* marks its results itself */
	.max_bytes = PR_READ_FILE_MAX,
};
