/*
 * report/compare_data.c - two datasets compared as `perfreg compare`
 * compares them (perfreg/report_compare.h): metrics paired by name in
 * the order of the base, their units and directions settled, each pair
 * compared on sorted copies of its values (pr_compare; sorted in place
 * when the report keeps no values of the pair and the caller allows it,
 * pr_report_compare_opts.sort_in_place), the families
 * corrected (perfreg/primary.h: Holm over the primary metrics,
 * Benjamini-Hochberg over the side metrics, constant metrics not
 * tested), and the --fail-on-regression gate on the primary verdicts.
 *
 * Invariants: the rows of a result are its report's metrics, primary
 * rows first; the report borrows the names of the datasets; the notes
 * are the lines the command shows on its error stream, in the order the
 * comparison met them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfreg/buf.h"
#include "perfreg/report_compare.h"
#include "report/internal.h"
#include "core/banned.h"

/* Input values beyond this many per side are left out of JSON. */
#define JSON_VALUES_MAX 100000

void
pr_report_compare_opts_init(struct pr_report_compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	pr_verdict_opts_init(&o->verdict);
	o->force_better = PR_BETTER_UNKNOWN;
}

void
pr_report_families_release(struct pr_report_families *fam)
{
	if (fam == NULL)
		return;
	free(fam->nt_name);
	free(fam->nt_value);
	memset(fam, 0, sizeof(*fam));
	/* Said again for the analyzer, which does not follow memset. */
	fam->nt_name = NULL;
	fam->nt_value = NULL;
}

void
pr_report_compare_result_release(struct pr_report_compare_result *res)
{
	size_t i;

	if (res == NULL)
		return;
	free(res->rm);
	pr_report_families_release(&res->fam);
	for (i = 0; i < res->nnote; i++)
		free(res->note[i]);
	free(res->note);
	memset(res, 0, sizeof(*res));
}

enum pr_status
report_note_add(char ***note, size_t *n, struct pr_error *err, const char *fmt,
    ...)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	enum pr_status st;
	va_list ap;
	char **nn;

	va_start(ap, fmt);
	st = pr_buf_vaddf(&b, err, fmt, ap);
	va_end(ap);
	if (st == PR_OK)
		st = pr_buf_addc(&b, '\0', err);
	if (st == PR_OK &&
	    (nn = realloc(*note, (*n + 1) * sizeof(*nn))) == NULL)
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
	if (st != PR_OK) {
		pr_buf_release(&b);
		return st;
	}
	*note = nn;
	nn[(*n)++] = pr_buf_detach(&b, NULL);
	return PR_OK;
}

#define note(res, err, ...) \
	report_note_add(&(res)->note, &(res)->nnote, (err), __VA_ARGS__)

int
report_compare_wanted(const struct pr_report_compare_opts *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->ncolumn; i++)
		if (strcmp(o->column[i], name) == 0)
			return 1;
	return o->ncolumn == 0;
}

static const char *
better_name(enum pr_better b)
{
	return b == PR_BETTER_HIGHER ? "higher" : "lower";
}

/* One row of the comparison, with what it borrows from the datasets. */
struct row {
	struct pr_metric *base, *new;
};

/*
 * Pairs the metrics of the two sides by name into rows (in the order of
 * base), notes the metrics found on one side only, and settles the unit
 * and direction of each row.
 */
static enum pr_status
match(struct pr_dataset *base, struct pr_dataset *new, const char *bname,
    const char *nname, const struct pr_report_compare_opts *o, struct row *rows,
    struct pr_report_metric *rm, size_t *nrows,
    struct pr_report_compare_result *res, struct pr_error *err)
{
	struct pr_metric *b, *n;
	enum pr_status st;
	size_t i, k = 0;

	for (i = 0; i < base->n; i++) {
		b = &base->metrics[i];
		if (!report_compare_wanted(o, b->name))
			continue;
		if ((n = pr_dataset_find(new, b->name)) == NULL) {
			if ((st = note(res, err,
				 "warning: metric '%s' is only in %s; not "
				 "compared",
				 b->name, bname)) != PR_OK)
				return st;
			continue;
		}
		if (b->values.n == 0 || n->values.n == 0) {
			if ((st = note(res, err,
				 "warning: metric '%s' has no values in %s; "
				 "not compared",
				 b->name, b->values.n == 0 ? bname : nname)) !=
			    PR_OK)
				return st;
			continue;
		}
		if (b->unit[0] != '\0' && n->unit[0] != '\0' &&
		    strcmp(b->unit, n->unit) != 0)
			return pr_error_set(err, PR_EINVAL,
			    "metric '%s' is in %s in %s but in %s in %s",
			    b->name, b->unit, bname, n->unit, nname);
		memset(&rm[k], 0, sizeof(rm[k]));
		rm[k].name = b->name;
		rm[k].unit = b->unit[0] != '\0' ? b->unit : n->unit;
		if (o->force_better != PR_BETTER_UNKNOWN)
			rm[k].cmp.better = o->force_better;
		else if (b->better != PR_BETTER_UNKNOWN &&
		    n->better != PR_BETTER_UNKNOWN && b->better != n->better)
			return pr_error_set(err, PR_EINVAL,
			    "metric '%s': %s says %s is better, %s says %s "
			    "(--higher-is-better or --lower-is-better to "
			    "decide)",
			    b->name, bname, better_name(b->better), nname,
			    better_name(n->better));
		else
			rm[k].cmp.better = b->better != PR_BETTER_UNKNOWN
			    ? b->better
			    : n->better;
		if (rm[k].cmp.better == PR_BETTER_UNKNOWN) {
			rm[k].cmp.better = PR_BETTER_LOWER;
			rm[k].better_assumed = 1;
		}
		rows[k].base = b;
		rows[k].new = n;
		k++;
	}
	for (i = 0; i < new->n; i++) {
		n = &new->metrics[i];
		if (report_compare_wanted(o, n->name) &&
		    pr_dataset_find(base, n->name) == NULL &&
		    (st = note(res, err,
			 "warning: metric '%s' is only in %s; not compared",
			 n->name, nname)) != PR_OK)
			return st;
	}
	for (i = 0; i < o->ncolumn; i++)
		if (pr_dataset_find(base, o->column[i]) == NULL ||
		    pr_dataset_find(new, o->column[i]) == NULL)
			return pr_error_set(err, PR_EINVAL,
			    "compare: no metric '%s' in both %s and %s",
			    o->column[i], bname, nname);
	if (k == 0)
		return o->ncolumn > 0
		    ? pr_error_set(err, PR_EINVAL,
			  "compare: no metric '%s' in both %s and %s",
			  o->column[0], bname, nname)
		    : pr_error_set(err, PR_EINVAL,
			  "compare: %s and %s have no metric in common", bname,
			  nname);
	*nrows = k;
	return PR_OK;
}

/*
 * Runs pr_compare on each row (the families are corrected after).  No
 * report shows pr_compare's secondary figures (the other t-test, the
 * Mann-Whitney test and Hodges-Lehmann shift beside a t-test, the
 * intervals of the ratios of means and medians), so they are not
 * computed: the figures shown are the same, and at 10^7 values a side
 * the ratio of means alone took four passes over the values after the
 * rest, 0.1 s of `compare`'s 0.55 (bench/README.md, session 15).
 */
static enum pr_status
compare_rows(const struct row *rows, struct pr_report_metric *rm, size_t n,
    const struct pr_report_compare_opts *o, struct pr_error *err)
{
	struct pr_sample bs = PR_SAMPLE_INIT, ns = PR_SAMPLE_INIT;
	struct pr_verdict_opts vo = o->verdict;
	struct pr_error e;
	enum pr_status st = PR_OK;
	enum pr_better better;
	size_t i;

	const struct pr_sample *b, *nw;
	int keep;

	vo.flags |= PR_VERDICT_NO_RATIO | PR_VERDICT_NO_RANKS;
	for (i = 0; i < n && st == PR_OK; i++) {
		pr_sample_release(&bs);
		pr_sample_release(&ns);
		keep = rows[i].base->values.n <= JSON_VALUES_MAX &&
		    rows[i].new->values.n <= JSON_VALUES_MAX;
		if (!keep && o->sort_in_place) {
			/* The report keeps no values of this row. */
			pr_sample_sort_both(&rows[i].base->values,
			    &rows[i].new->values);
			b = &rows[i].base->values;
			nw = &rows[i].new->values;
		} else {
			if ((st = pr_sample_copy(&bs, &rows[i].base->values,
				 err)) != PR_OK ||
			    (st = pr_sample_copy(&ns, &rows[i].new->values,
				 err)) != PR_OK)
				break;
			pr_sample_sort_both(&bs, &ns);
			b = &bs;
			nw = &ns;
		}
		better = rm[i].cmp.better;
		pr_error_clear(&e);
		if ((st = pr_compare(b->v, b->n, nw->v, nw->n, better, &vo,
			 &rm[i].cmp, &e)) != PR_OK) {
			st = pr_error_set(err, st, "compare: metric '%s': %s",
			    rm[i].name, e.msg);
			break;
		}
		rm[i].cmp.better = better;
		if (keep) {
			rm[i].base_values = rows[i].base->values.v;
			rm[i].base_n = rows[i].base->values.n;
			rm[i].new_values = rows[i].new->values.v;
			rm[i].new_n = rows[i].new->values.n;
		}
	}
	pr_sample_release(&bs);
	pr_sample_release(&ns);
	return st;
}

/* The size of a regression in percent, in the bad direction. */
static double
regression_size(const struct pr_comparison *c)
{
	return c->better == PR_BETTER_HIGHER ? -c->change_pct : c->change_pct;
}

/* The gate on the verdicts of the table (the primary metrics). */
static enum pr_status
gate(struct pr_report_compare_result *res,
    const struct pr_report_compare_opts *o, struct pr_error *err)
{
	const struct pr_report_metric *m;
	enum pr_status st;
	size_t i;
	char words[96];

	for (i = 0; i < res->report.n; i++) {
		m = &res->rm[i];
		if (m->cmp.verdict != PR_VERDICT_REGRESSION ||
		    !(regression_size(&m->cmp) > o->threshold_pct))
			continue;
		pr_report_change_words(words, sizeof(words), m->cmp.change_pct,
		    m->cmp.better, m->name, m->unit);
		if ((st = note(res, err,
			 "regression in '%s': %s (threshold %g%%)", m->name,
			 words, o->threshold_pct)) != PR_OK)
			return st;
		res->regression = 1;
	}
	return PR_OK;
}

enum pr_status
pr_report_compare_datasets(struct pr_dataset *base, struct pr_dataset *new_,
    const char *bname, const char *nname,
    const struct pr_report_compare_opts *o,
    struct pr_report_compare_result *res, struct pr_error *err)
{
	struct pr_report_metric *rm = NULL;
	struct row *rows = NULL;
	enum pr_role *all = NULL, *role = NULL;
	struct pr_error e;
	enum pr_status st;
	size_t i, nrows = 0;

	memset(res, 0, sizeof(*res));
	rows = calloc(base->n + 1, sizeof(*rows));
	rm = calloc(base->n + 1, sizeof(*rm));
	all = calloc(base->n + 1, sizeof(*all));
	role = calloc(base->n + 1, sizeof(*role));
	if (rows == NULL || rm == NULL || all == NULL || role == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "out of memory");
		goto out;
	}
	pr_error_clear(&e);
	if ((st = pr_primary_roles_stored(base, o->primary, o->nprimary,
		 o->stored_primary, o->nstored_primary, all, &e)) != PR_OK) {
		st = pr_error_set(err, st == PR_ENOMEM ? st : PR_EINVAL,
		    "compare: %s in %s", e.msg, bname);
		goto out;
	}
	if ((st = match(base, new_, bname, nname, o, rows, rm, &nrows, res,
		 err)) != PR_OK ||
	    (st = compare_rows(rows, rm, nrows, o, err)) != PR_OK)
		goto out;
	for (i = 0; i < nrows; i++)
		role[i] = all[rows[i].base - base->metrics];
	res->report.base_source = bname;
	res->report.new_source = nname;
	res->report.conf = o->verdict.conf;
	res->report.equivalence_pct = o->verdict.equivalence_pct;
	res->report.metrics = rm;
	res->report.n = nrows;
	res->report.units = o->units;
	res->rm = rm;
	res->nrm = nrows;
	rm = NULL;
	if ((st = pr_report_families_apply(&res->report, res->rm, nrows, role,
		 &o->verdict, &res->fam, err)) != PR_OK)
		goto out;
	if (o->gate)
		st = gate(res, o, err);
out:
	if (st != PR_OK) {
		/* Only the notes survive a failure. */
		free(res->rm);
		res->rm = NULL;
		res->nrm = 0;
		pr_report_families_release(&res->fam);
		memset(&res->report, 0, sizeof(res->report));
		res->regression = 0;
	}
	free(rows);
	free(rm);
	free(all);
	free(role);
	return st;
}

enum pr_status
pr_report_families_apply(struct pr_report *r, struct pr_report_metric *rm,
    size_t n, enum pr_role *role, const struct pr_verdict_opts *vo,
    struct pr_report_families *fam, struct pr_error *err)
{
	struct pr_report_metric *tmp;
	struct pr_comparison *c;
	size_t i, k, pm = 0, sm = 0;
	enum pr_role want;

	memset(fam, 0, sizeof(*fam));
	for (i = 0; i < n; i++)
		if (pr_primary_constant(&rm[i].cmp.base, &rm[i].cmp.new))
			role[i] = PR_ROLE_NOT_TESTED;
	tmp = malloc((n + 1) * sizeof(*tmp));
	c = malloc((n + 1) * sizeof(*c));
	fam->nt_name = malloc((n + 1) * sizeof(*fam->nt_name));
	fam->nt_value = malloc((n + 1) * sizeof(*fam->nt_value));
	if (tmp == NULL || c == NULL || fam->nt_name == NULL ||
	    fam->nt_value == NULL) {
		free(tmp);
		free(c);
		pr_report_families_release(fam);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++)
		c[i] = rm[i].cmp;
	pr_primary_correct(c, role, n, vo, &pm, &sm);
	for (i = 0; i < n; i++)
		rm[i].cmp = c[i];
	/* Primary rows, then side rows, in their order; then the rest. */
	k = 0;
	for (want = PR_ROLE_PRIMARY; want <= PR_ROLE_SIDE; want++)
		for (i = 0; i < n; i++)
			if (role[i] == want) {
				tmp[k++] = rm[i];
				fam->np += want == PR_ROLE_PRIMARY;
				fam->ns += want == PR_ROLE_SIDE;
			}
	for (i = 0; i < n; i++)
		if (role[i] == PR_ROLE_NOT_TESTED) {
			fam->nt_name[fam->nnt] = rm[i].name;
			fam->nt_value[fam->nnt++] = rm[i].cmp.base.min;
			tmp[k++] = rm[i];
		}
	memcpy(rm, tmp, n * sizeof(*rm));
	free(tmp);
	free(c);
	if (fam->np + fam->ns == 0) {
		/* Every metric is constant: one table of them, as before. */
		fam->nnt = 0;
		r->n = n;
		r->holm_m = 0;
		return PR_OK;
	}
	r->n = fam->np > 0 ? fam->np : fam->ns;
	r->holm_m = fam->np > 0 ? pm : sm;
	r->side_bh = fam->np == 0;
	if (fam->np > 0 && fam->ns > 0) {
		fam->side = *r;
		fam->side.base_source = fam->side.new_source = NULL;
		fam->side.metrics = rm + fam->np;
		fam->side.n = fam->ns;
		fam->side.holm_m = sm;
		fam->side.side_bh = 1;
		fam->side.side = NULL;
		fam->side.not_tested = NULL;
		fam->side.not_tested_value = NULL;
		fam->side.not_tested_metrics = NULL;
		fam->side.n_not_tested = 0;
		r->side = &fam->side;
	}
	r->not_tested = fam->nt_name;
	r->not_tested_value = fam->nt_value;
	r->not_tested_metrics = rm + fam->np + fam->ns;
	r->n_not_tested = fam->nnt;
	return PR_OK;
}
