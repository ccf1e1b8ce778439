/*
 * probes/process.c - the suite in several processes, the process the
 * unit: a worker's results written as text and read back by its parent
 * (pr_suite_results_write, pr_suite_results_read), the processes'
 * results merged into one session's, each sample with its process index
 * (pr_suite_results_merge), and a stored session's samples grouped by
 * process into one value a process, its mean or its best sample by its
 * probe's rule (pr_suite_unit_values).  See perfreg/suite.h.
 *
 * The text is one record a line, its fields separated by tabs, a
 * backslash, tab or newline inside a field written as \\, \t or \n:
 *   R LABEL PROBE SAMPLES ELAPSED CONVERGED CAPPED BUDGET_CUT WORST FLOOR CPU
 *   S REASON                  (the result above was skipped)
 *   N NOTES                   (its probe's notes)
 *   M NAME UNIT BETTER VALUES (a figure; the values %.17g, one space)
 *   E                         (the end of the result)
 * so that doubles go back bit-exactly.  The monitors' figures (--monitor,
 * named "mon.*") are M lines too, after the probe's own, and go back to
 * the result's monitors, one value a sample each.  The reader checks every
 * field and names the line of anything that is not a worker's.  A worker
 * writes each probe's result as soon as the probe is done, so that a
 * worker stopped on the way leaves its finished probes whole: the text
 * up to its last E line (pr_suite_results_whole).
 *
 * pr_suite_pace is what the parent of a running worker decides from
 * what it has seen of it: the probes' measured floors, the probes done,
 * the time left.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/buf.h"
#include "perfreg/monitor.h"
#include "perfreg/suite.h"
#include "core/banned.h"

/* Fields of a record at most (an R line's). */
#define FIELDS_MAX 11

static enum pr_status
add_field(struct pr_buf *out, const char *s, struct pr_error *err)
{
	enum pr_status st = PR_OK;

	for (; *s != '\0' && st == PR_OK; s++)
		st = *s == '\\'  ? pr_buf_adds(out, "\\\\", err)
		    : *s == '\t' ? pr_buf_adds(out, "\\t", err)
		    : *s == '\n' ? pr_buf_adds(out, "\\n", err)
				 : pr_buf_addc(out, *s, err);
	return st;
}

enum pr_status
pr_suite_results_write(const struct pr_suite_result *r, size_t n,
    struct pr_buf *out, struct pr_error *err)
{
	const struct pr_metric *m;
	size_t i, k, j;

	for (i = 0; i < n; i++) {
		if (pr_buf_adds(out, "R\t", err) != PR_OK ||
		    add_field(out, r[i].label, err) != PR_OK ||
		    pr_buf_addf(out, err,
			"\t%s\t%zu\t%.17g\t%d\t%d\t%d\t%.17g\t%.17g\t%.17g\n",
			r[i].probe->name, r[i].samples, r[i].elapsed_s,
			r[i].converged, r[i].capped, r[i].budget_cut,
			isfinite(r[i].worst_pct) ? r[i].worst_pct : -1.0,
			r[i].floor_s, r[i].cpu_s) != PR_OK)
			return PR_ENOMEM;
		if (r[i].skipped != NULL &&
		    (pr_buf_adds(out, "S\t", err) != PR_OK ||
			add_field(out, r[i].skipped, err) != PR_OK ||
			pr_buf_addc(out, '\n', err) != PR_OK))
			return PR_ENOMEM;
		if (r[i].notes != NULL && r[i].notes[0] != '\0' &&
		    (pr_buf_adds(out, "N\t", err) != PR_OK ||
			add_field(out, r[i].notes, err) != PR_OK ||
			pr_buf_addc(out, '\n', err) != PR_OK))
			return PR_ENOMEM;
		for (k = 0; k < r[i].data.n + r[i].monitors.n; k++) {
			m = k < r[i].data.n
			    ? &r[i].data.metrics[k]
			    : &r[i].monitors.metrics[k - r[i].data.n];
			if (pr_buf_adds(out, "M\t", err) != PR_OK ||
			    add_field(out, m->name, err) != PR_OK ||
			    pr_buf_addc(out, '\t', err) != PR_OK ||
			    add_field(out, m->unit, err) != PR_OK ||
			    pr_buf_adds(out,
				m->better == PR_BETTER_HIGHER ? "\thigher\t"
							      : "\tlower\t",
				err) != PR_OK)
				return PR_ENOMEM;
			for (j = 0; j < m->values.n; j++)
				if (pr_buf_addf(out, err, "%s%.17g",
					j > 0 ? " " : "",
					m->values.v[j]) != PR_OK)
					return PR_ENOMEM;
			if (pr_buf_addc(out, '\n', err) != PR_OK)
				return PR_ENOMEM;
		}
		if (pr_buf_adds(out, "E\n", err) != PR_OK)
			return PR_ENOMEM;
	}
	return PR_OK;
}

size_t
pr_suite_results_whole(const char *text, size_t len)
{
	size_t i;

	/* The last line that is "E" alone, and its newline: a field
	 * holds no raw newline, so every line is a record. */
	for (i = len; i >= 2; i--)
		if (text[i - 1] == '\n' && text[i - 2] == 'E' &&
		    (i == 2 || text[i - 3] == '\n'))
			return i;
	return 0;
}

void
pr_suite_pace(const double *floor_s, size_t np, size_t done, double probe_s,
    double left_s, struct pr_suite_pace_est *out)
{
	double sum = 0, f, mean;
	size_t i, known = 0;

	for (i = 0; i < np; i++)
		if (floor_s[i] > 0) {
			sum += floor_s[i];
			known++;
		}
	/* A probe not yet measured in any process counts as the mean of
	 * those measured; with none measured nothing is known. */
	mean = known > 0 ? sum / (double)known : 0;
	out->need_s = 0;
	for (i = done; i < np; i++) {
		f = floor_s[i] > 0 ? floor_s[i] : mean;
		/* The running probe has spent probe_s of its floor. */
		if (i == done)
			f = f > probe_s ? f - probe_s : 0;
		out->need_s += f;
	}
	out->known = known > 0;
	out->late = done < np && known > 0 && out->need_s > left_s;
}

/* Splits line [p, end) at its tabs into f[]/len[] (at most FIELDS_MAX),
 * unescaping each field into place: returns the number of fields, or 0
 * when an escape is bad. */
static size_t
split(char *p, char *end, char **f, size_t max)
{
	size_t nf = 0;
	char *w;

	f[nf++] = w = p;
	for (; p < end; p++) {
		if (*p == '\t') {
			*w++ = '\0';
			if (nf == max)
				return 0;
			f[nf++] = w;
		} else if (*p == '\\') {
			if (++p == end)
				return 0;
			if (*p == '\\')
				*w++ = '\\';
			else if (*p == 't')
				*w++ = '\t';
			else if (*p == 'n')
				*w++ = '\n';
			else
				return 0;
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
	return nf;
}

static int
num(const char *s, double *v)
{
	char *e;

	errno = 0;
	*v = strtod(s, &e);
	return e != s && *e == '\0' && errno == 0 && isfinite(*v);
}

static int
count(const char *s, size_t *v)
{
	char *e;
	unsigned long long x;

	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	x = strtoull(s, &e, 10);
	*v = (size_t)x;
	return e != s && *e == '\0' && errno == 0 && x <= (size_t)-1;
}

static int
flag(const char *s, int *v)
{
	if ((s[0] != '0' && s[0] != '1') || s[1] != '\0')
		return 0;
	*v = s[0] == '1';
	return 1;
}

/* The label a result keeps: "A" and "B" (suite ab's sides) or the
 * probe's name, all static. */
static const char *
label_of(const char *s, const struct pr_probe *p)
{
	if (strcmp(s, "A") == 0)
		return "A";
	if (strcmp(s, "B") == 0)
		return "B";
	return strcmp(s, p->name) == 0 ? p->name : NULL;
}

/* Reads one M line's values into r. */
static enum pr_status
read_metric(struct pr_suite_result *r, char **f, size_t line,
    struct pr_error *err)
{
	enum pr_better better;
	char *p, *sp;
	double v;

	if (strcmp(f[3], "higher") == 0)
		better = PR_BETTER_HIGHER;
	else if (strcmp(f[3], "lower") == 0)
		better = PR_BETTER_LOWER;
	else
		return pr_error_set(err, PR_EPARSE,
		    "line %zu: a direction '%.20s'", line, f[3]);
	if (f[1][0] == '\0')
		return pr_error_set(err, PR_EPARSE,
		    "line %zu: a figure with "
		    "no name",
		    line);
	for (p = f[4]; *p != '\0'; p = sp != NULL ? sp + 1 : p + strlen(p)) {
		if ((sp = strchr(p, ' ')) != NULL)
			*sp = '\0';
		if (!num(p, &v))
			return pr_error_set(err, PR_EPARSE,
			    "line %zu: not a number: '%.20s'", line, p);
		if (pr_dataset_add(pr_monitor_is_metric(f[1]) ? &r->monitors
							      : &r->data,
			f[1], f[2], better, v, err) != PR_OK)
			return PR_ENOMEM;
	}
	return PR_OK;
}

/* Reads one R line into r (probe found among probes[0..np)). */
static enum pr_status
read_result(struct pr_suite_result *r, char **f, size_t nf,
    const struct pr_probe *const *probes, size_t np, size_t line,
    struct pr_error *err)
{
	size_t i;
	double worst;

	for (i = 0; nf == FIELDS_MAX && i < np; i++)
		if (strcmp(probes[i]->name, f[2]) == 0)
			break;
	if (nf != FIELDS_MAX || i == np)
		return pr_error_set(err, PR_EPARSE,
		    "line %zu: not a result of the probes asked for", line);
	r->probe = probes[i];
	if ((r->label = label_of(f[1], r->probe)) == NULL ||
	    !count(f[3], &r->samples) || !num(f[4], &r->elapsed_s) ||
	    !flag(f[5], &r->converged) || !flag(f[6], &r->capped) ||
	    !flag(f[7], &r->budget_cut) || !num(f[8], &worst) ||
	    !num(f[9], &r->floor_s) || !num(f[10], &r->cpu_s) || r->cpu_s < 0)
		return pr_error_set(err, PR_EPARSE,
		    "line %zu: a result's field is not what a worker writes",
		    line);
	r->worst_pct = worst < 0 ? INFINITY : worst;
	return PR_OK;
}

enum pr_status
pr_suite_results_read(const char *text, size_t len,
    const struct pr_probe *const *probes, size_t np,
    struct pr_suite_result **out, size_t *nout, struct pr_error *err)
{
	struct pr_suite_result *res = NULL, *r = NULL;
	char *copy, *p, *end, *nl, *f[FIELDS_MAX];
	size_t n = 0, cap = 0, line = 0, nf, k;
	enum pr_status st = PR_OK;

	*out = NULL;
	*nout = 0;
	if ((copy = malloc(len + 1)) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	if (len > 0)
		memcpy(copy, text, len);
	copy[len] = '\0';
	end = copy + len;
	for (p = copy; p < end && st == PR_OK; p = nl + 1) {
		line++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (memchr(p, '\0', (size_t)(nl - p)) != NULL ||
		    (nf = split(p, nl, f, FIELDS_MAX)) == 0 ||
		    strlen(f[0]) != 1) {
			st = pr_error_set(err, PR_EPARSE,
			    "line %zu: not a worker's line", line);
			break;
		}
		if (f[0][0] == 'R') {
			if (n == cap) {
				struct pr_suite_result *g;

				cap = cap ? 2 * cap : 8;
				if ((g = realloc(res, cap * sizeof(*g))) ==
				    NULL) {
					st = pr_error_set(err, PR_ENOMEM,
					    "out of memory");
					break;
				}
				res = g;
			}
			r = &res[n++];
			memset(r, 0, sizeof(*r));
			pr_dataset_init(&r->data);
			st = read_result(r, f, nf, probes, np, line, err);
		} else if (r == NULL ||
		    (f[0][0] != 'S' && f[0][0] != 'N' && f[0][0] != 'M' &&
			f[0][0] != 'E')) {
			st = pr_error_set(err, PR_EPARSE,
			    "line %zu: not a worker's line", line);
		} else if (f[0][0] == 'E') {
			if (nf != 1)
				st = pr_error_set(err, PR_EPARSE,
				    "line %zu: not a worker's line", line);
			r = NULL;
		} else if (f[0][0] == 'M') {
			st = nf == 5
			    ? read_metric(r, f, line, err)
			    : pr_error_set(err, PR_EPARSE,
				  "line %zu: a figure needs 5 fields", line);
		} else {
			char **slot = f[0][0] == 'S' ? &r->skipped : &r->notes;

			if (nf != 2 || *slot != NULL)
				st = pr_error_set(err, PR_EPARSE,
				    "line %zu: not a worker's line", line);
			else if ((*slot = strdup(f[1])) == NULL)
				st = pr_error_set(err, PR_ENOMEM,
				    "out of memory");
		}
	}
	free(copy);
	if (st == PR_OK && r != NULL)
		st = pr_error_set(err, PR_EPARSE,
		    "line %zu: the text ends inside a result (the worker was "
		    "cut short)",
		    line);
	for (k = 0; st == PR_OK && k < n; k++) {
		if (res[k].notes == NULL && (res[k].notes = strdup("")) == NULL)
			st = pr_error_set(err, PR_ENOMEM, "out of memory");
		for (nf = 0; st == PR_OK && nf < res[k].data.n; nf++)
			if (res[k].data.metrics[nf].values.n > res[k].samples)
				st = pr_error_set(err, PR_EPARSE,
				    "%s: %zu values of '%s' for %zu samples",
				    res[k].probe->name,
				    res[k].data.metrics[nf].values.n,
				    res[k].data.metrics[nf].name,
				    res[k].samples);
		for (nf = 0; st == PR_OK && nf < res[k].monitors.n; nf++)
			if (res[k].monitors.metrics[nf].values.n !=
			    res[k].samples)
				st = pr_error_set(err, PR_EPARSE,
				    "%s: %zu values of '%s' for %zu samples",
				    res[k].probe->name,
				    res[k].monitors.metrics[nf].values.n,
				    res[k].monitors.metrics[nf].name,
				    res[k].samples);
	}
	if (st != PR_OK) {
		pr_suite_results_free(res, n);
		return st;
	}
	*out = res;
	*nout = n;
	return PR_OK;
}

/* Adds to r's notes the lines of a later process's notes (process's)
 * that say something was left out ("left out" in them), unless the
 * notes have that line already. */
static enum pr_status
left_out_notes(struct pr_suite_result *r, const char *notes, size_t process,
    struct pr_error *err)
{
	const char *line, *nl;
	size_t len, have;
	char *n;
	int k;

	for (line = notes; line != NULL && *line != '\0';
	     line = *nl != '\0' ? nl + 1 : nl) {
		nl = line + strcspn(line, "\n");
		len = (size_t)(nl - line);
		if (len == 0 || !memmem(line, len, "left out", 8) ||
		    (r->notes != NULL &&
			memmem(r->notes, strlen(r->notes), line, len) != NULL))
			continue;
		have = r->notes != NULL ? strlen(r->notes) : 0;
		if ((n = realloc(r->notes, have + len + 32)) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		r->notes = n;
		k = snprintf(n + have, len + 32, "process %zu: %.*s\n",
		    process + 1, (int)len, line);
		if (k < 0 || (size_t)k >= len + 32)
			n[have] = '\0';
	}
	return PR_OK;
}

enum pr_status
pr_suite_results_merge(struct pr_suite_result *into,
    const struct pr_suite_result *from, size_t n, size_t process,
    struct pr_error *err)
{
	const struct pr_metric *m;
	struct pr_suite_result *r;
	size_t i, k, j, *g;

	for (i = 0; i < n; i++) {
		r = &into[i];
		if (r->probe != from[i].probe)
			return pr_error_set(err, PR_EINVAL,
			    "process %zu ran other probes", process + 1);
		if (process == 0) {
			r->label = from[i].label;
			r->converged = 1;
			r->worst_pct = 0;
			if (from[i].skipped != NULL &&
			    (r->skipped = strdup(from[i].skipped)) == NULL)
				return pr_error_set(err, PR_ENOMEM,
				    "out of memory");
		}
		if (r->notes == NULL &&
		    (r->notes = strdup(
			 from[i].notes != NULL ? from[i].notes : "")) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		r->elapsed_s += from[i].elapsed_s;
		r->cpu_s += from[i].cpu_s;
		if (r->skipped != NULL || from[i].skipped != NULL ||
		    from[i].samples == 0)
			continue;
		/* Each sample's process: the new ones, this one. */
		if ((g = realloc(r->process,
			 (r->samples + from[i].samples) * sizeof(*g))) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		r->process = g;
		for (k = 0; k < from[i].samples; k++)
			r->process[r->samples + k] = process;
		for (k = 0; k < from[i].data.n; k++) {
			m = &from[i].data.metrics[k];
			for (j = 0; j < m->values.n; j++)
				if (pr_dataset_add(&r->data, m->name, m->unit,
					m->better, m->values.v[j],
					err) != PR_OK)
					return PR_ENOMEM;
		}
		/* The monitors' figures: only those every process had
		 * stay lined up with the samples. */
		for (k = 0; k < from[i].monitors.n; k++) {
			m = &from[i].monitors.metrics[k];
			for (j = 0; j < m->values.n; j++)
				if (pr_dataset_add(&r->monitors, m->name,
					m->unit, m->better, m->values.v[j],
					err) != PR_OK)
					return PR_ENOMEM;
		}
		r->samples += from[i].samples;
		/* A figure that a process left out (an instruction that gave
		 * no value there) no longer lines up with the samples: it
		 * is left out of the session, and the process's reason is
		 * kept with the notes. */
		if (pr_monitor_keep_complete(&r->data, r->samples, err) !=
			PR_OK ||
		    pr_monitor_keep_complete(&r->monitors, r->samples, err) !=
			PR_OK ||
		    (process > 0 &&
			left_out_notes(r, from[i].notes, process, err) !=
			    PR_OK))
			return PR_ENOMEM;
		r->processes++;
		r->converged = r->converged && from[i].converged;
		r->capped = r->capped || from[i].capped;
		r->budget_cut = r->budget_cut || from[i].budget_cut;
		if (!(from[i].worst_pct <= r->worst_pct))
			r->worst_pct = from[i].worst_pct;
		if (from[i].floor_s > r->floor_s)
			r->floor_s = from[i].floor_s;
	}
	return PR_OK;
}

double
pr_suite_unit_value(const double *v, size_t n, enum pr_better better,
    enum pr_probe_figure rule)
{
	double x;
	size_t j;

	if (n == 0)
		return NAN;
	if (rule == PR_PROBE_FIGURE_BEST) {
		x = v[0];
		for (j = 1; j < n; j++)
			if (better == PR_BETTER_HIGHER ? v[j] > x : v[j] < x)
				x = v[j];
		return x;
	}
	x = 0;
	for (j = 0; j < n; j++)
		x += (v[j] - x) / (double)(j + 1);
	return x;
}

enum pr_probe_figure
pr_suite_figure_rule(const struct pr_probe *const *probes, size_t np,
    const char *name)
{
	size_t i, len = strcspn(name, ".");

	for (i = 0; i < np; i++)
		if (probes[i] != NULL && strlen(probes[i]->name) == len &&
		    memcmp(probes[i]->name, name, len) == 0)
			return probes[i]->figure;
	return PR_PROBE_FIGURE_MEAN;
}

/* pr_suite_unit_values with a best figure of one unit cut into at most
 * `blocks` blocks. */
static enum pr_status
values_by_rule(const struct pr_dataset *units, size_t n,
    const struct pr_probe *const *probes, size_t np, size_t blocks,
    struct pr_dataset *out, struct pr_error *err)
{
	const struct pr_metric *m;
	enum pr_probe_figure rule;
	size_t u, k, b, nb, lo, hi;

	for (u = 0; u < n; u++)
		for (k = 0; k < units[u].n; k++) {
			m = &units[u].metrics[k];
			if (m->values.n == 0)
				continue;
			rule = pr_suite_figure_rule(probes, np, m->name);
			/* One unit: a mean figure's samples as they are
			 * (their mean is the session's), a best figure's
			 * blocks' bests. */
			nb = n >= 2                        ? 1
			    : rule == PR_PROBE_FIGURE_MEAN ? m->values.n
			    : m->values.n < blocks         ? m->values.n
							   : blocks;
			for (b = 0; b < nb; b++) {
				lo = b * m->values.n / nb;
				hi = (b + 1) * m->values.n / nb;
				if (pr_dataset_add(out, m->name, m->unit,
					m->better,
					pr_suite_unit_value(m->values.v + lo,
					    hi - lo, m->better, rule),
					err) != PR_OK)
					return PR_ENOMEM;
			}
		}
	return PR_OK;
}

enum pr_status
pr_suite_unit_values(const struct pr_dataset *units, size_t n,
    const struct pr_probe *const *probes, size_t np, struct pr_dataset *out,
    struct pr_error *err)
{
	return values_by_rule(units, n, probes, np, PR_SUITE_BLOCKS, out, err);
}

enum pr_status
pr_suite_ab_values(const struct pr_dataset *process,
    const struct pr_probe *const *probes, size_t np, struct pr_dataset *out,
    struct pr_error *err)
{
	return values_by_rule(process, 1, probes, np, 1, out, err);
}
